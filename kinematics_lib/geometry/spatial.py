"""Spatial (6-D) vector algebra in [linear; angular] order (RBDA ch. 2, Pinocchio's order).

A motion vector (twist, spatial velocity/acceleration) is m = [v; w]: the linear velocity of the
body point at the frame origin, then the angular velocity. A force vector (wrench, momentum)
is f = [f; n]: the force, then the moment about the frame origin. Both are expressed in the
axes of one frame; the letters in names say which:

* ``X_BA`` (6, 6) maps motion vectors from A coordinates to B coordinates; it equals
  ``adjoint(T_BA)`` of the transforms module, and ``X_CB @ X_BA == X_CA``.
* Forces map with the dual transform ``X_BA^{-T}``; going *up* a tree (child B to parent A) a
  force maps with ``X_BA.T`` -- the line ``f[parent] += Xup[i].T @ f[i]`` of RNEA.
* ``crm(v)`` and ``crf(v) = -crm(v)^T`` are the motion and force cross-product matrices
  (Featherstone's v x and v x*).
"""

from __future__ import annotations

import numpy as np

from .. import _validate as check
from . import kernels
from .kernels import skew as _skew

__all__ = [
    "apply_each",
    "cross_motion",
    "cross_force",
    "crm",
    "crf",
    "crf_bar",
    "spatial_inertia",
    "inertia_parts",
    "motion_transform",
    "transform_inertia",
]


_crm, _crf = kernels.crm, kernels.crf  # module-internal names of the one implementation


def _motion_vectors(v, name: str) -> np.ndarray:
    """A finite 6-vector or stack (n, 6) of them (the public boundary of the cross products)."""
    a = check._array(v, name)
    if a.ndim not in (1, 2) or a.shape[-1] != 6 or a.shape[0] == 0:
        raise check.InputError(f"{name} must have shape (6,) or (n, 6) with n >= 1, got shape {a.shape}")
    return check._finite(a, name)


def crm(v) -> np.ndarray:
    """Motion cross-product matrix crm(v) = [[w x, v x], [0, w x]] for v = [v; w]: crm(v) @ m = v x m.

    v: (6,) -> (6, 6), or a stack (n, 6) -> (n, 6, 6).
    """
    return _crm(_motion_vectors(v, "v"))


def crf(v) -> np.ndarray:
    """Force cross-product matrix crf(v) = -crm(v)^T = [[w x, 0], [v x, w x]]: crf(v) @ f = v x* f.

    v: (6,) -> (6, 6), or a stack (n, 6) -> (n, 6, 6).
    """
    return _crf(_motion_vectors(v, "v"))


def _apply_each(M: np.ndarray, x: np.ndarray) -> np.ndarray:
    return (M @ x[:, :, None])[:, :, 0]


def apply_each(M, x) -> np.ndarray:
    """M_i @ x_i for every i: a stack of matrices (n, a, b) times a stack of vectors (n, b) -> (n, a)."""
    M, x = check._finite(check._array(M, "M"), "M"), check._finite(check._array(x, "x"), "x")
    if M.ndim != 3 or 0 in M.shape:
        raise check.InputError(f"M must be a non-empty stack of matrices of shape (n, a, b), got shape {M.shape}")
    if x.shape != (M.shape[0], M.shape[2]):
        raise check.InputError(f"x must have shape ({M.shape[0]}, {M.shape[2]}) to match M's shape {M.shape}, "
                               f"got shape {x.shape}")
    return check.finite_result(_apply_each(M, x), "M_i @ x_i", "M, x")


def _pair(v, other, other_name: str) -> tuple[np.ndarray, np.ndarray]:
    v = _motion_vectors(v, "v")
    b = _motion_vectors(other, other_name)
    if b.shape != v.shape:
        raise check.InputError(f"{other_name} must have v's shape {v.shape}, got shape {b.shape}")
    return v, b


def cross_motion(v, m) -> np.ndarray:
    """v x m for motion vectors:  [w x m_v + v x m_w; w x m_w]; single (6,) or stacked (n, 6)."""
    v, m = _pair(v, m, "m")
    return check.finite_result((_crm(v) @ m[..., None])[..., 0], "v x m", "v, m")


def cross_force(v, f) -> np.ndarray:
    """v x* f for a motion v and a force f = [f; n]:  [w x f; v x f + w x n]; (6,) or (n, 6).

    With f = I v this is the gyroscopic (velocity-product) force of a body.
    """
    v, f = _pair(v, f, "f")
    return check.finite_result((_crf(v) @ f[..., None])[..., 0], "v x* f", "v, f")


def crf_bar(h) -> np.ndarray:
    """The matrix of v -> v x* h for a fixed force vector h = [f; n]: crf_bar(h) @ v = crf(v) @ h.

    crf_bar([f; n]) = [[0, -[f]x], [-[f]x, -[n]x]]; it is skew-symmetric (used by the
    Christoffel-consistent Coriolis matrix).
    """
    h = check.vector(h, 6, "h")
    F, N = _skew(h[:3]), _skew(h[3:])
    out = np.zeros((6, 6))
    out[:3, 3:] = -F
    out[3:, :3] = -F
    out[3:, 3:] = -N
    return out


_spatial_inertia = kernels.spatial_inertia


def spatial_inertia(mass: float, com, I_com) -> np.ndarray:
    """Spatial inertia about a frame origin, in that frame's axes (6, 6), [linear; angular].

    mass (kg), com = c (3,) centre of mass (m), I_com (3, 3) rotational inertia about the
    CoM (kg m^2):  I = [[m 1, -m [c]x], [m [c]x, I_c - m [c]x^2]].  Then I @ v is the
    momentum [m (v + w x c); angular momentum about the origin].

    Physics is checked: mass >= 0; I_com symmetric positive semi-definite with principal moments
    that satisfy the triangle inequality (zero is allowed: a point mass).

    >>> spatial_inertia(2.0, [0.0, 0.0, 0.0], np.eye(3))[[0, 3], [0, 3]]
    array([2., 1.])
    """
    m = check.nonnegative(mass, "mass")
    c = check.vector(com, 3, "com")
    I_c = check.rotational_inertia(I_com, "I_com")
    return check.finite_result(_spatial_inertia(m, c, I_c), "the spatial inertia", "mass, com, I_com")


_inertia_parts = kernels.inertia_parts


def inertia_parts(I) -> tuple[float, np.ndarray, np.ndarray]:
    """(mass, com, I_com) of a spatial inertia (6, 6): the inverse of :func:`spatial_inertia`.

    I (6, 6) must be finite and symmetric with m = I[0, 0] >= 0 (cheap checks: this runs once per
    body in centre-of-mass and energy computations; :func:`kinematics_lib._validate.spatial_inertia`
    checks the full physics).
    """
    I = check.matrix(I, (6, 6), "I")
    if I[0, 0] < 0.0 or np.abs(I - I.T).max() > 1e-9 * max(1.0, float(np.abs(I).max())):
        raise check.InputError(f"I must be a spatial inertia: symmetric with mass I[0, 0] >= 0, got {check.describe(I)}")
    return _inertia_parts(I)


_motion_transform = kernels.motion_transform


def motion_transform(R_AB, p_AB) -> np.ndarray:
    """X_BA (6, 6): motion vectors from A coordinates to B coordinates, B placed at (R_AB, p_AB) in A.

    X_BA = [[R^T, -R^T [p]x], [0, R^T]]  (= adjoint(T_BA)). R_AB must be a proper rotation.
    """
    return _motion_transform(check.rotation(R_AB, "R_AB"), check.vector(p_AB, 3, "p_AB"))


def _check_motion_transform(X, name: str) -> np.ndarray:
    """A 6x6 motion transform [[R, -R [p]x], [0, R]] with R a rotation (checked)."""
    X = check.matrix(X, (6, 6), name)
    R = check.rotation(X[:3, :3], f"{name}[:3, :3]")
    scale = max(1.0, float(np.abs(X).max()))
    if np.abs(X[3:, :3]).max() > 1e-9 * scale or np.abs(X[3:, 3:] - R).max() > 1e-6:
        raise check.InputError(f"{name} must be a motion transform [[R, -R [p]x], [0, R]]")
    Rp = -R.T @ X[:3, 3:]  # = [p]x
    if np.abs(Rp + Rp.T).max() > 1e-6 * scale:
        raise check.InputError(f"{name} must be a motion transform: its upper-right block is not -R [p]x")
    return X


def transform_inertia(I_B, X_BA) -> np.ndarray:
    """Inertia expressed in B -> the same inertia expressed in A:  I_A = X_BA^T I_B X_BA.

    I_B (6, 6) a spatial inertia, X_BA (6, 6) a motion transform (e.g. :func:`motion_transform`).
    """
    I_B = check.spatial_inertia(I_B, "I_B")
    X_BA = _check_motion_transform(X_BA, "X_BA")
    return check.finite_result(X_BA.T @ I_B @ X_BA, "I_A", "I_B, X_BA")

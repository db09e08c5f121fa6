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


def _skew(w) -> np.ndarray:
    return np.array([[0.0, -w[2], w[1]], [w[2], 0.0, -w[0]], [-w[1], w[0], 0.0]])


def _crm_of(v: np.ndarray) -> np.ndarray:
    """crm(v) = [[w x, v x], [0, w x]] written out (used once, to build the generators below)."""
    out = np.zeros((6, 6))
    out[:3, :3] = out[3:, 3:] = _skew(v[3:])
    out[:3, 3:] = _skew(v[:3])
    return out


# crm(v) is linear in v: crm(v) = sum_k v_k crm(e_k). With the six generator matrices stacked,
# crm / crf of one vector -- or of a whole stack of vectors, one per body -- is one product.
_CRM = np.array([_crm_of(e) for e in np.eye(6)]).reshape(6, 36)
_CRF = np.array([-_crm_of(e).T for e in np.eye(6)]).reshape(6, 36)


def crm(v) -> np.ndarray:
    """Motion cross-product matrix crm(v) = [[w x, v x], [0, w x]] for v = [v; w]: crm(v) @ m = v x m.

    v: (6,) -> (6, 6), or a stack (n, 6) -> (n, 6, 6).
    """
    v = np.asarray(v, dtype=float)
    return (v @ _CRM).reshape(v.shape[:-1] + (6, 6))


def crf(v) -> np.ndarray:
    """Force cross-product matrix crf(v) = -crm(v)^T = [[w x, 0], [v x, w x]]: crf(v) @ f = v x* f.

    v: (6,) -> (6, 6), or a stack (n, 6) -> (n, 6, 6).
    """
    v = np.asarray(v, dtype=float)
    return (v @ _CRF).reshape(v.shape[:-1] + (6, 6))


def apply_each(M: np.ndarray, x: np.ndarray) -> np.ndarray:
    """M_i @ x_i for every i: a stack of matrices (n, a, b) times a stack of vectors (n, b) -> (n, a)."""
    return (M @ x[:, :, None])[:, :, 0]


def cross_motion(v, m) -> np.ndarray:
    """v x m for motion vectors:  [w x m_v + v x m_w; w x m_w]; single (6,) or stacked (n, 6)."""
    return (crm(v) @ np.asarray(m, dtype=float)[..., None])[..., 0]


def cross_force(v, f) -> np.ndarray:
    """v x* f for a motion v and a force f = [f; n]:  [w x f; v x f + w x n]; (6,) or (n, 6).

    With f = I v this is the gyroscopic (velocity-product) force of a body.
    """
    return (crf(v) @ np.asarray(f, dtype=float)[..., None])[..., 0]


def crf_bar(h) -> np.ndarray:
    """The matrix of v -> v x* h for a fixed force vector h = [f; n]: crf_bar(h) @ v = crf(v) @ h.

    crf_bar([f; n]) = [[0, -[f]x], [-[f]x, -[n]x]]; it is skew-symmetric (used by the
    Christoffel-consistent Coriolis matrix).
    """
    h = np.asarray(h, dtype=float)
    F, N = _skew(h[:3]), _skew(h[3:])
    out = np.zeros((6, 6))
    out[:3, 3:] = -F
    out[3:, :3] = -F
    out[3:, 3:] = -N
    return out


def spatial_inertia(mass: float, com, I_com) -> np.ndarray:
    """Spatial inertia about a frame origin, in that frame's axes (6, 6), [linear; angular].

    mass (kg), com = c (3,) centre of mass (m), I_com (3, 3) rotational inertia about the
    CoM (kg m^2):  I = [[m 1, -m [c]x], [m [c]x, I_c - m [c]x^2]].  Then I @ v is the
    momentum [m (v + w x c); angular momentum about the origin].
    """
    m = check.scalar(mass, "mass")
    if m < 0.0:
        raise ValueError(f"mass must be non-negative, got {m}")
    c = check.vector(com, 3, "com")
    I_c = check.matrix(I_com, (3, 3), "I_com")
    if not np.allclose(I_c, I_c.T, atol=1e-12 * max(1.0, np.abs(I_c).max())):
        raise ValueError("I_com must be symmetric")
    C = _skew(c)
    out = np.zeros((6, 6))
    out[:3, :3] = m * np.eye(3)
    out[:3, 3:] = -m * C
    out[3:, :3] = m * C
    out[3:, 3:] = I_c - m * C @ C
    return out


def inertia_parts(I) -> tuple[float, np.ndarray, np.ndarray]:
    """(mass, com, I_com) of a spatial inertia: the inverse of :func:`spatial_inertia`."""
    I = np.asarray(I, dtype=float)
    m = I[0, 0]
    if m <= 0.0:
        return 0.0, np.zeros(3), I[3:, 3:].copy()
    mC = I[3:, :3]
    c = np.array([mC[2, 1], mC[0, 2], mC[1, 0]]) / m
    C = _skew(c)
    return m, c, I[3:, 3:] + m * C @ C


def motion_transform(R_AB, p_AB) -> np.ndarray:
    """X_BA (6, 6): motion vectors from A coordinates to B coordinates, B placed at (R_AB, p_AB) in A.

    X_BA = [[R^T, -R^T [p]x], [0, R^T]]  (= adjoint(T_BA)).
    """
    R = np.asarray(R_AB, dtype=float)
    p = np.asarray(p_AB, dtype=float)
    Rt = R.T
    X = np.zeros((6, 6))
    X[:3, :3] = Rt
    X[:3, 3:] = -Rt @ _skew(p)
    X[3:, 3:] = Rt
    return X


def transform_inertia(I_B, X_BA) -> np.ndarray:
    """Inertia expressed in B -> the same inertia expressed in A:  I_A = X_BA^T I_B X_BA."""
    return X_BA.T @ I_B @ X_BA

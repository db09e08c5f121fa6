"""The unchecked kernels of the geometry layer: one [a]x, one vee, one cross product, and the
spatial-algebra building blocks, shared by every layer above.

Validate at the boundary, once: the public functions (``kl.skew``, ``kl.vee``, ``kl.crm``,
``kl.spatial_inertia``, ...) check their input and call these; the algorithms of the layers
above, whose inputs are already checked, call these directly. Nothing here checks anything,
and nothing here is in ``kl.*`` (import ``kinematics_lib.geometry.kernels`` explicitly).
Shapes: a leading batch axis (...) is allowed wherever it says so.
"""

from __future__ import annotations

import numpy as np

__all__ = ["skew", "vee", "cross", "crm", "crf", "spatial_inertia", "inertia_parts", "motion_transform"]

#: a @ SKEW_GENERATORS = [a]x flattened (row-major): [a]x is linear in a
SKEW_GENERATORS = np.array([[0.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 1.0, 0.0],
                            [0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0],
                            [0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0]])


def skew(w: np.ndarray) -> np.ndarray:
    """[w]x (..., 3, 3) of w (..., 3): skew(w) @ u = w x u."""
    w = np.asarray(w, dtype=float)
    if w.ndim == 1:
        return np.array([[0.0, -w[2], w[1]], [w[2], 0.0, -w[0]], [-w[1], w[0], 0.0]])
    return (w @ SKEW_GENERATORS).reshape(w.shape[:-1] + (3, 3))


def vee(S: np.ndarray) -> np.ndarray:
    """w (..., 3) of the skew part of S (..., 3, 3): vee(skew(w)) = w."""
    return 0.5 * np.stack([S[..., 2, 1] - S[..., 1, 2], S[..., 0, 2] - S[..., 2, 0], S[..., 1, 0] - S[..., 0, 1]],
                          axis=-1)


def cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a x b over the last axis (..., 3): written out for single vectors, [a]x b as one product
    for stacks up to 2-D, component by component for larger batches (cheaper there)."""
    if a.ndim == 1 and b.ndim == 1:
        return np.array([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]])
    if a.ndim <= 2 and b.ndim <= 2:
        return ((a @ SKEW_GENERATORS).reshape(a.shape + (3,)) @ b[..., None])[..., 0]
    a, b = np.broadcast_arrays(a, b)
    out = np.empty(a.shape)
    out[..., 0] = a[..., 1] * b[..., 2] - a[..., 2] * b[..., 1]
    out[..., 1] = a[..., 2] * b[..., 0] - a[..., 0] * b[..., 2]
    out[..., 2] = a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]
    return out


def _crm_of(v: np.ndarray) -> np.ndarray:
    """crm(v) = [[w x, v x], [0, w x]] written out (used once, to build the generators below)."""
    out = np.zeros((6, 6))
    out[:3, :3] = out[3:, 3:] = skew(v[3:])
    out[:3, 3:] = skew(v[:3])
    return out


# crm(v) is linear in v: crm(v) = sum_k v_k crm(e_k). With the six generator matrices stacked,
# crm / crf of one vector -- or of a whole stack of vectors, one per body -- is one product.
CRM_GENERATORS = np.array([_crm_of(e) for e in np.eye(6)]).reshape(6, 36)
CRF_GENERATORS = np.array([-_crm_of(e).T for e in np.eye(6)]).reshape(6, 36)


def crm(v: np.ndarray) -> np.ndarray:
    """Motion cross-product matrix (..., 6, 6) of v (..., 6): crm(v) @ m = v x m."""
    return (v @ CRM_GENERATORS).reshape(v.shape[:-1] + (6, 6))


def crf(v: np.ndarray) -> np.ndarray:
    """Force cross-product matrix (..., 6, 6) = -crm(v)^T: crf(v) @ f = v x* f."""
    return (v @ CRF_GENERATORS).reshape(v.shape[:-1] + (6, 6))


def spatial_inertia(m, c: np.ndarray, I_c: np.ndarray) -> np.ndarray:
    """[[m 1, -m [c]x], [m [c]x, I_c - m [c]x^2]] (..., 6, 6) about the frame origin; m (...),
    c (..., 3), I_c (..., 3, 3): one body, or a stack of bodies at once."""
    C = skew(c)
    m = np.asarray(m, dtype=float)[..., None, None]
    out = np.zeros(C.shape[:-2] + (6, 6))
    out[..., :3, :3] = m * np.eye(3)
    out[..., :3, 3:] = -m * C
    out[..., 3:, :3] = m * C
    out[..., 3:, 3:] = I_c - m * C @ C
    return out


def inertia_parts(I: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
    """(mass, com, I_com) of a spatial inertia (6, 6); (0, 0, I[3:, 3:]) when massless.
    A stack I (..., 6, 6) gives m (...), c (..., 3), I_com (..., 3, 3)."""
    if I.ndim > 2:
        m = I[..., 0, 0]
        mass = m > 0.0
        c = vee(I[..., 3:, :3]) / np.where(mass, m, 1.0)[..., None] * mass[..., None]  # massless: c = 0
        C = skew(c)
        return m, c, I[..., 3:, 3:] + m[..., None, None] * C @ C
    m = I[0, 0]
    if m <= 0.0:
        return 0.0, np.zeros(3), I[3:, 3:].copy()
    mC = I[3:, :3]
    c = np.array([mC[2, 1], mC[0, 2], mC[1, 0]]) / m
    C = skew(c)
    return m, c, I[3:, 3:] + m * C @ C


def motion_transform(R: np.ndarray, p: np.ndarray) -> np.ndarray:
    """X_BA = [[R^T, -R^T [p]x], [0, R^T]] (6, 6) for B at (R, p) in A."""
    Rt = R.T
    X = np.zeros((6, 6))
    X[:3, :3] = Rt
    X[:3, 3:] = -Rt @ skew(p)
    X[3:, 3:] = Rt
    return X

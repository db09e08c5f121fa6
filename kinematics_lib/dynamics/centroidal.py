"""Centre of mass and centroidal momentum (质心动量) of kinematic trees.

The centroidal momentum h_G = [m v_G; L_G] (linear momentum; angular momentum about the centre
of mass G), in world axes, is linear in v: h_G = A_G(q) v with the centroidal momentum matrix
A_G (6, nv) (Orin & Goswami 2008; Pinocchio's ``computeCentroidalMap``). Every function takes a
single q (nq,) or a batch (N, nq) (results with a leading N).
"""

from __future__ import annotations

import numpy as np

from .. import _validate as check
from .frames import _world_poses, cross
from .model import Model, state

__all__ = ["center_of_mass", "centroidal_momentum_matrix", "centroidal_momentum"]

_EYE3 = np.eye(3)


def _com_positions(model: Model, T: np.ndarray) -> np.ndarray:
    """c_i = R_i c_i^B + p_i (nb, [N,] 3): the bodies' centres of mass in the world."""
    c1 = model._derived["com1"].reshape((model.nb,) + (1,) * (T.ndim - 3) + (4, 1))
    return (T[..., :3, :] @ c1)[..., 0]


def _center_of_mass(model: Model, c: np.ndarray) -> np.ndarray:
    total = model.total_mass
    if total <= 0.0:
        raise ValueError("model has zero total mass: the centre of mass is undefined")
    return np.tensordot(model._derived["mass"], c, axes=(0, 0)) / total


def center_of_mass(model: Model, q) -> np.ndarray:
    """p_G (3,): world position of the centre of mass, sum_i m_i c_i / sum_i m_i (m); (N, 3) for a batch."""
    (q,) = state(model, q)
    c = _com_positions(model, _world_poses(model, q))
    return check.finite_result(_center_of_mass(model, c), "p_G", "q")


def centroidal_momentum_matrix(model: Model, q) -> np.ndarray:
    """A_G (6, nv): [m v_G; L_G] = A_G v, [linear; angular] about the CoM, world axes ((N, 6, nv) for a batch).

    World-frame composite inertias of the subtrees (RBDA's nu(j)): mass m_j, first moment
    h_j = sum m_i c_i and rotational inertia about the world origin I_j = sum R_i I_ci R_i^T +
    m_i ([c_i]x^T [c_i]x). Velocity coordinate k of joint j moves j's subtree with the world twist
    [v_O; w] = [R_j s_v + p_j x w; R_j s_w] (s_k = [s_v; s_w] its local column); the momentum
    of that motion about the origin is [m v_O + w x h; h x v_O + I w], then about G:
    L_G = L_O - p_G x (linear momentum).
    """
    (q,) = state(model, q)
    d = model._derived
    T = _world_poses(model, q)
    R, p = T[..., :3, :3], T[..., :3, 3]
    c = _com_positions(model, T)
    m = d["mass"].reshape((model.nb,) + (1,) * (q.ndim - 1))
    cc = c[..., :, None] * c[..., None, :]
    trace = (c * c).sum(axis=-1)[..., None, None] * _EYE3
    I_c = d["I_c"] if q.ndim == 1 else d["I_c"][:, None]
    body = np.empty(c.shape[:-1] + (13,))  # per body: [m, m c, I about the world origin (9)]
    body[..., 0] = m
    body[..., 1:4] = m[..., None] * c
    body[..., 4:] = (R @ I_c @ np.swapaxes(R, -1, -2) + m[..., None, None] * (trace - cc)).reshape(c.shape[:-1] + (9,))
    comp = (d["subtree"] @ body.reshape(model.nb, -1)).reshape(body.shape)  # composite: sums over subtrees
    k = d["dof_body"]
    ck = comp[k]
    mk, hk, Ik = ck[..., :1], ck[..., 1:4], ck[..., 4:].reshape(ck.shape[:-1] + (3, 3))
    s = d["dof_axis"] if q.ndim == 1 else d["dof_axis"][:, None]
    Rs = R[k] @ s  # (nv, [N,] 3, 2)
    w = Rs[..., 1]
    v_O = Rs[..., 0] + cross(p[k], w)
    lin = mk * v_O + cross(w, hk)
    ang = cross(hk, v_O) + (Ik @ w[..., None])[..., 0]
    p_G = comp[0, ..., 1:4] / comp[0, ..., :1] if model.parent.count(-1) == 1 else _center_of_mass(model, c)
    ang -= cross(p_G, lin)  # about G
    A = np.empty(q.shape[:-1] + (6, model.nv))
    axes = (1, 0) if q.ndim == 1 else (1, 2, 0)
    A[..., :3, :], A[..., 3:, :] = lin.transpose(axes), ang.transpose(axes)
    return check.finite_result(A, "A_G", "q")


def centroidal_momentum(model: Model, q, v) -> np.ndarray:
    """h_G = A_G(q) v (6,): [linear momentum (kg m/s); angular momentum about the CoM (kg m^2/s)];
    (N, 6) for a batch."""
    q, v = state(model, q, v)
    A = centroidal_momentum_matrix(model, q)
    return check.finite_result((A @ v[..., None])[..., 0], "h_G", "q, v")

"""Centre of mass and centroidal momentum (质心动量) of kinematic trees.

The centroidal momentum h_G = [m v_G; L_G] (linear momentum; angular momentum about the centre
of mass G), in world axes, is linear in v: h_G = A_G(q) v with the centroidal momentum matrix
A_G (6, nv) (Orin & Goswami 2008; Pinocchio's ``computeCentroidalMap``). Every function takes a
single q (nq,) or a batch (N, nq) (results with a leading N).
"""

from __future__ import annotations

import numpy as np

from .. import _validate as check
from ._engine import (_composite_inertias, _inertia_times, _inward, _level_transforms, _momenta_at_roots, _outward,
                         _rnea_motions, _rnea_transforms, _to_parents)
from .frames import _SKEW, _local_poses, _world_poses, cross
from ._engine import in_blocks
from .model import Model, state

__all__ = ["center_of_mass", "centroidal_momentum_matrix", "centroidal_momentum"]


def _com_positions(model: Model, T: np.ndarray) -> np.ndarray:
    """c_i = R_i c_i^B + p_i (nb, [N,] 3): the bodies' centres of mass in the world."""
    c1 = model._plan.com1.reshape((model.nb,) + (1,) * (T.ndim - 3) + (4, 1))
    return (T[..., :3, :] @ c1)[..., 0]


def _center_of_mass(model: Model, c: np.ndarray) -> np.ndarray:
    total = model.total_mass
    if total <= 0.0:
        raise ValueError("model has zero total mass: the centre of mass is undefined")
    return np.tensordot(model._plan.mass, c, axes=(0, 0)) / total


def center_of_mass(model: Model, q) -> np.ndarray:
    """p_G (3,): world position of the centre of mass, sum_i m_i c_i / sum_i m_i (m); (N, 3) for a batch."""
    (q,) = state(model, q)
    c = _com_positions(model, _world_poses(model, q))
    return check.finite_result(_center_of_mass(model, c), "p_G", "q")


def centroidal_momentum_matrix(model: Model, q) -> np.ndarray:
    """A_G (6, nv): [m v_G; L_G] = A_G v, [linear; angular] about the CoM, world axes ((N, 6, nv) for a batch).

    From CRBA's composite inertias IC_i (body i and its descendants, body coordinates): the
    column of velocity coordinate k of joint i is the momentum of i's subtree moving at unit
    rate, F = IC_i S_i, carried to the root like CRBA's walk (F = Xup_j^T F) and from the root's
    coordinates to the world about the centre of mass: A_G = X_G^T F (Wensing & Orin 2016,
    A_G = ^1X_G^T M_1 for a floating base). p_G comes from the root's composite inertia.
    """
    (q,) = state(model, q)
    return check.finite_result(_centroidal_momentum_matrix(model, q), "A_G", "q")


@in_blocks
def _centroidal_momentum_matrix(model: Model, q: np.ndarray) -> np.ndarray:
    d = model._plan
    if not d.levels:  # no body (every joint fixed to the world): no velocity coordinate
        return np.zeros(q.shape[:-1] + (6, 0))
    Xup = _level_transforms(model, q)
    IC = _composite_inertias(model, q, Xup)  # CRBA's composite inertias, body coordinates
    F = _momenta_at_roots(model, Xup, IC)  # momentum of each joint's unit motion, in its root's coordinates
    roots = d.levels[0].at
    R, p = _pose_of(Xup[roots])  # a root's pose in the world
    m, mc = IC[roots, ..., 0, 0], _vee(IC[roots, ..., 3:, :3])  # its subtree's mass and m c, root coordinates
    p_G = ((R @ mc[..., None])[..., 0] + m[..., None] * p).sum(axis=0) / m.sum(axis=0)[..., None]
    A = np.empty(F.shape)
    for r, cols in d.root_columns:  # to the world, about the origin, then about G: L_G = L_O - p_G x (m v_G)
        f = R[r] @ F[..., :3, cols]
        A[..., :3, cols] = f
        A[..., 3:, cols] = R[r] @ F[..., 3:, cols] + _cross_columns(p[r] - p_G, f)
    return A


def _cross_columns(a: np.ndarray, B: np.ndarray) -> np.ndarray:
    """a x b for every column b of B: [a]x B for a ([N,] 3), B ([N,] 3, k) -> ([N,] 3, k)."""
    return (a @ _SKEW).reshape(a.shape[:-1] + (3, 3)) @ B


def _vee(S: np.ndarray) -> np.ndarray:
    """a from [a]x (..., 3, 3) -> (..., 3)."""
    return np.stack([S[..., 2, 1], S[..., 0, 2], S[..., 1, 0]], axis=-1)


def _pose_of(X: np.ndarray):
    """(R, p) of a pose from its motion transform X = [[R^T, -R^T [p]x], [0, R^T]] (..., 6, 6)."""
    R = np.swapaxes(X[..., :3, :3], -1, -2)
    return R, _vee(-(R @ X[..., :3, 3:]))


def centroidal_momentum(model: Model, q, v) -> np.ndarray:
    """h_G = A_G(q) v (6,): [linear momentum (kg m/s); angular momentum about the CoM (kg m^2/s)];
    (N, 6) for a batch.

    Without forming A_G: the bodies' momenta I_i v_i (body coordinates, velocities from RNEA's
    outward pass) are summed inward like RNEA's forces, h_parent += Xup_i^T h_i; the roots'
    momenta are then carried to the world and taken about the centre of mass, whose first moment
    m c is summed inward the same way with the local poses, [m c; m]_parent += T_i [m c; m]_i.
    """
    q, v = state(model, q, v)
    return check.finite_result(_centroidal_momentum(model, q, v), "h_G", "q, v")


@in_blocks
def _centroidal_momentum(model: Model, q: np.ndarray, v: np.ndarray) -> np.ndarray:
    d = model._plan
    L = _local_poses(model, q, d.order)  # T_parent,i in level order; a root's is its world pose
    Xup = _rnea_transforms(model, q)
    V = _outward(model, Xup, _rnea_motions(model, v))  # v_i = Xup_i v_parent + S_i qd_i
    H = _inward(model, Xup, _inertia_times(d.inertia_lv, V))  # h_i = I_i v_i, then h_parent += Xup_i^T h_i
    Z = np.broadcast_to(d.first_moment_lv[:, None] if q.ndim == 2 else d.first_moment_lv, L.shape[:-1]).copy()
    for lv in d.levels[:0:-1]:
        _to_parents(Z, lv, (L[lv.at] @ Z[lv.at][..., None])[..., 0])  # [m c; m] of every subtree
    roots = d.levels[0].at if d.levels else slice(0, 0)  # no body: no root
    R, p = L[roots, ..., :3, :3], L[roots, ..., :3, 3]
    Hr = H[roots] if q.ndim == 1 else np.swapaxes(H[roots], 1, 2)  # (roots, [N,] 6)
    f = (R @ Hr[..., :3, None])[..., 0]  # each root's momentum in world axes, about its origin p
    n = (R @ Hr[..., 3:, None])[..., 0] + cross(p, f)  # ... then about the world origin
    mc = ((L[roots] @ Z[roots][..., None])[..., 0]).sum(axis=0)  # [m p_G; m] in the world
    f, n = f.sum(axis=0), n.sum(axis=0)
    return np.concatenate([f, n - cross(mc[..., :3] / mc[..., 3:], f)], axis=-1)  # L_G = L_O - p_G x (m v_G)

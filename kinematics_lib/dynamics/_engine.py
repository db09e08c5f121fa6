"""The fast engine behind ``kl.rnea``, ``kl.crba``, ``kl.aba`` (private: call the public functions).

The same recursions as the reference :mod:`kinematics_lib.dynamics.rbda` (RBDA Tables 5.1, 6.2,
7.1), reorganised for speed: every pass runs one step per depth of the tree -- all bodies of a
depth are independent of each other, so each step is a few stacked products over them and, for
a batch of N states, over the N states too. Bodies are therefore kept in *level order*
(``model._plan.order``), not in index order: position k of the engine's arrays is body
``order[k]``. The constant tables come from the model's :class:`~kinematics_lib.dynamics.plan.Plan`.

Inputs are not checked here: the public functions of :mod:`.algorithms` check them once.
``tests/test_dynamics_reference.py`` holds this engine equal to the reference to 1e-12.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from .. import _validate as check
from ..geometry.kernels import crf as _crf, crm as _crm
from .joints import _free_joint_X, _joint_coefficients
from .model import Model, singular_joint_error

#: States per block of a long batch. The batched algorithms run a batch of more states block by
#: block -- the same lines on q[i:i + BLOCK] -- so that each block's per-body arrays
#: ((nb, BLOCK, 6, 6): 1.9 MB for ANYmal) stay small: in the cache, and their memory reused
#: instead of fresh pages for every temporary. A whole batch of 10^4 states in one go was
#: 1.4-1.8x slower on ANYmal (RNEA, CRBA, ABA; blocks of 512 ... 1024 were the fastest).
BLOCK = 512


def in_blocks(fn):
    """Decorator: ``fn(model, q, *arrays)`` on checked arrays runs a batch longer than
    :data:`BLOCK` block by block (the same lines on each block) and stacks the results (N, ...)."""
    @functools.wraps(fn)
    def run(model: Model, q: np.ndarray, *args: np.ndarray) -> np.ndarray:
        if q.ndim == 1 or q.shape[0] <= BLOCK:
            return fn(model, q, *args)
        first = fn(model, q[:BLOCK], *(x[:BLOCK] for x in args))
        out = np.empty((q.shape[0],) + first.shape[1:])
        out[:BLOCK] = first
        for i in range(BLOCK, q.shape[0], BLOCK):
            out[i:i + BLOCK] = fn(model, q[i:i + BLOCK], *(x[i:i + BLOCK] for x in args))
        return out
    return run


def _gravity_acceleration(model: Model, q: np.ndarray) -> np.ndarray:
    """a_0 = -[g; 0]: accelerating the world upwards is equivalent to gravity (RBDA 5.3)."""
    a0 = model._plan.a_gravity
    return a0.copy() if q.ndim == 1 else np.broadcast_to(a0, (q.shape[0], 6))



# ---------------------------------------------------------------- RNEA's batch layout
#
# For a batch, RNEA keeps each body's spatial vectors as (6, N) -- components first, states
# last -- so that a constant matrix applies to all N states as one BLAS product and the cross
# products are row operations. A 1-dof joint's Xup_i(q) = X_tree_i + c1 P1_i + c2 P2_i is
# applied in that affine form, never built per state: Xup_i x = [X_tree; P1; P2]_i x combined
# with (c1, c2). (ABA and CRBA keep (N, 6) vectors and (N, 6, 6) matrices per body.)


def _rows_cross(a: np.ndarray, b: np.ndarray, out: np.ndarray) -> np.ndarray:
    """out += a x b for stacks (nb, 3, N) (components on axis 1), in place (a batch is memory-bound)."""
    for i, j, k in ((0, 1, 2), (1, 2, 0), (2, 0, 1)):
        out[:, i] += a[:, j] * b[:, k]
        out[:, i] -= a[:, k] * b[:, j]
    return out


def _cross_m(V: np.ndarray, M: np.ndarray) -> np.ndarray:
    """v_i x m_i for every body: (nb, 6) or (nb, 6, N)."""
    if V.ndim == 2:
        return (_crm(V) @ M[..., None])[..., 0]
    out = np.zeros(V.shape)
    _rows_cross(V[:, 3:], M[:, :3], out[:, :3])
    _rows_cross(V[:, :3], M[:, 3:], out[:, :3])
    _rows_cross(V[:, 3:], M[:, 3:], out[:, 3:])
    return out


def _add_cross_f(F: np.ndarray, V: np.ndarray, H: np.ndarray) -> np.ndarray:
    """F + v_i x* h_i for every body: (nb, 6) or (nb, 6, N) (a batch: added in place into F)."""
    if V.ndim == 2:
        return F + (_crf(V) @ H[..., None])[..., 0]
    _rows_cross(V[:, 3:], H[:, :3], F[:, :3])  # w x f
    _rows_cross(V[:, :3], H[:, :3], F[:, 3:])  # v x f
    _rows_cross(V[:, 3:], H[:, 3:], F[:, 3:])  # w x n
    return F


def _cross_f(V: np.ndarray, H: np.ndarray) -> np.ndarray:
    """v_i x* h_i for every body: (nb, 6) or (nb, 6, N)."""
    return (_crf(V) @ H[..., None])[..., 0] if V.ndim == 2 else _add_cross_f(np.zeros_like(V), V, H)


def _inertia_times(I: np.ndarray, X: np.ndarray) -> np.ndarray:
    """I_i x_i for every body: (nb, 6) or (nb, 6, N) (one 6 x 6 by 6 x N product per body)."""
    return (I @ X[:, :, None])[:, :, 0] if X.ndim == 2 else I @ X


# ---------------------------------------------------------------- the recursions, one depth at a time
#
# RBDA's passes visit each body after (outward) or before (inward) its parent. All bodies of
# one depth are independent of each other, so each pass runs one step per depth ("level"),
# every step a handful of stacked products over the bodies of that depth -- and, for a batch,
# over the N states too. Bodies are kept in level order (``model._plan.order``); a
# level's bodies are a slice ``lv.at`` of it and their parents ``lv.up`` (a slice, one shared
# parent, or an index array). Arrays: one state (nb, 6) vectors and (nb, 6, 6) matrices.


def _level_transforms(model: Model, q: np.ndarray, affine: bool = False):
    """Xup in level order: (nb, 6, 6), or (nb, N, 6, 6) for a batch (jcalc for every joint);
    ``affine``: also RNEA's form of the same transforms (:func:`_rnea_transforms`)."""
    d = model._plan
    c = _joint_coefficients(model, q, level_order=True)  # (nb, [N,] 3)
    Xup = (c[:, None, :] if q.ndim == 1 else c) @ d.P_lv  # one (N, 3) @ (3, 36) product per body
    Xup = Xup.reshape(c.shape[:-1] + (6, 6))
    for k, qs, Xt in zip(d.free_lv, d.q_free_lv, d.X_tree_free_lv):
        Xup[k] = _free_joint_X(q[..., qs]) if Xt is None else _free_joint_X(q[..., qs]) @ Xt
    if not affine:
        return Xup
    if q.ndim == 1:
        return Xup, Xup
    return Xup, _Affine(c[:, None, :, 1], c[:, None, :, 2], {k: Xup[k] for k in d.free_lv})


def _level_motions(model: Model, v: np.ndarray) -> np.ndarray:
    """S_i v_i per body in level order: (nb, 6), or (nb, N, 6) for a batch v (N, nv)."""
    d = model._plan
    out = d.S1_lv.reshape((model.nb,) + (1,) * (v.ndim - 1) + (6,)) * v[..., d.v1_lv].T[..., None]
    for k, vs in zip(d.free_lv, d.v_free_lv):
        out[k] = v[..., vs]
    return out


def _velocity_products(model: Model, V: np.ndarray, v: np.ndarray, components_first: bool = False) -> np.ndarray:
    """c_i = v_i x S_i v_i = v_i (-crm(s_i)) v_i for every body in level order (0 for a free root,
    whose v is its own S v): constant matrices times the velocities, then scaled by v_i.
    V: (nb, 6), (nb, N, 6), or (nb, 6, N) when ``components_first`` (RNEA's batch layout)."""
    d = model._plan
    qj = v[..., d.v1_lv].T  # (nb, [N])
    if V.ndim == 2:
        return (d.bias_lv @ V[:, :, None])[:, :, 0] * qj[:, None]
    if components_first:
        return (d.bias_lv @ V) * qj[:, None, :]
    return (V @ d.bias_lv_T) * qj[:, :, None]


def _level_forces(model: Model, F: np.ndarray) -> np.ndarray:
    """tau_i = S_i^T f_i from forces in level order (nb, [N,] 6) -> (nv,) or (N, nv)."""
    d = model._plan
    tau = np.empty(F.shape[1:-1] + (model.nv,))
    S1 = d.S1_lv.reshape((model.nb,) + (1,) * (F.ndim - 2) + (6,))
    tau[..., d.v1_lv] = (S1 * F).sum(axis=-1).T  # free joints write a dummy entry, overwritten next
    for k, vs in zip(d.free_lv, d.v_free_lv):
        tau[..., vs] = F[k]  # S = 1
    return tau


def _times(X: np.ndarray, x: np.ndarray) -> np.ndarray:
    """X_k x_k for stacks (k, [N,] 6, 6) and (k, [N,] 6) -- or one shared x ([N,] 6)."""
    return (X @ x[..., None])[..., 0]


def _times_T(X: np.ndarray, x: np.ndarray) -> np.ndarray:
    """X_k^T x_k for stacks (k, [N,] 6, 6) and (k, [N,] 6)."""
    return (x[..., None, :] @ X)[..., 0, :]


def _to_parents(out: np.ndarray, lv, values: np.ndarray) -> None:
    """out[parent(i)] += values[i] for the bodies i of level ``lv`` (several may share a parent)."""
    if isinstance(lv.up, (int, np.integer)):
        out[lv.up] += values.sum(axis=0) if lv.shared else values[0]
    elif lv.shared:
        np.add.at(out, lv.up, values)
    else:
        out[lv.up] += values


class _Affine(NamedTuple):
    """Xup of a batch in level order, never built per state: Xup_i = [X_tree; P1; P2]_i combined
    with c1, c2 (nb, 1, N); ``dense``: level position -> (N, 6, 6) of each free root joint."""

    c1: np.ndarray
    c2: np.ndarray
    dense: dict


def _rnea_transforms(model: Model, q: np.ndarray):
    if q.ndim == 1:
        return _level_transforms(model, q)
    d = model._plan
    c = _joint_coefficients(model, q, level_order=True)  # (nb, N, 3)
    dense = {}
    for k, qs, Xt in zip(d.free_lv, d.q_free_lv, d.X_tree_free_lv):
        dense[k] = _free_joint_X(q[:, qs]) if Xt is None else _free_joint_X(q[:, qs]) @ Xt
    return _Affine(c[:, None, :, 1], c[:, None, :, 2], dense)


def _combine(Y: np.ndarray, c1: np.ndarray, c2: np.ndarray) -> np.ndarray:
    """Y0 + c1 Y1 + c2 Y2 for Y = [Y0; Y1; Y2] (k, 18, N), in place (a batch is memory-bound)."""
    out, tmp = Y[:, 6:12], Y[:, 12:]
    out *= c1
    out += Y[:, :6]
    tmp *= c2
    out += tmp
    return out


def _xm_lv(model: Model, Xup, at: slice, x: np.ndarray) -> np.ndarray:
    """Xup_i x_i for the bodies ``at`` of a level: x one shared vector or one per body."""
    if type(Xup) is np.ndarray:
        return _times(Xup[at], x)
    out = _combine(model._plan.Pst_lv[at] @ x, Xup.c1[at], Xup.c2[at])  # one BLAS product per body
    for k, X in Xup.dense.items():
        if at.start <= k < at.stop:
            out[k - at.start] = np.einsum("nij,jn->in", X, x if x.ndim == 2 else x[k - at.start])
    return out


def _xf_lv(model: Model, Xup, at: slice, f: np.ndarray) -> np.ndarray:
    """Xup_i^T f_i for the (non-root) bodies ``at`` of a level."""
    if type(Xup) is np.ndarray:
        return _times_T(Xup[at], f)
    return _combine(model._plan.PstT_lv[at] @ f, Xup.c1[at], Xup.c2[at])


def _rnea_motions(model: Model, v: np.ndarray) -> np.ndarray:
    """S_i v_i in level order: (nb, 6), or (nb, 6, N) -- components first -- for a batch."""
    if v.ndim == 1:
        return _level_motions(model, v)
    d = model._plan
    out = d.S1_lv[:, :, None] * v.T[d.v1_lv][:, None, :]
    for k, vs in zip(d.free_lv, d.v_free_lv):
        out[k] = v[:, vs].T
    return out


def _rnea_forces(model: Model, F: np.ndarray) -> np.ndarray:
    if F.ndim == 2:
        return _level_forces(model, F)
    d = model._plan
    tau = np.empty((model.nv, F.shape[2]))
    tau[d.v1_lv] = (d.S1_lv[:, :, None] * F).sum(axis=1)
    for k, vs in zip(d.free_lv, d.v_free_lv):
        tau[vs] = F[k]
    return tau.T


def _outward(model: Model, Xup, J: np.ndarray) -> np.ndarray:
    """x_i = Xup_i x_parent + J_i, root first, the world at rest (the velocity pass of RNEA)."""
    X = np.empty_like(J)
    for lv in model._plan.levels:
        X[lv.at] = J[lv.at] if lv.up is None else _xm_lv(model, Xup, lv.at, X[lv.up]) + J[lv.at]
    return X


def _inward(model: Model, Xup, F: np.ndarray) -> np.ndarray:
    """f_parent += Xup_i^T f_i, leaves first, in place (the force pass of RNEA)."""
    for lv in model._plan.levels[:0:-1]:
        _to_parents(F, lv, _xf_lv(model, Xup, lv.at, F[lv.at]))
    return F


@in_blocks
def _rnea(model: Model, q: np.ndarray, v: np.ndarray, a: np.ndarray, *f_ext: np.ndarray) -> np.ndarray:
    d = model._plan
    I = d.inertia_lv
    Xup = _rnea_transforms(model, q)  # jcalc: Xup_i maps parent coordinates to body i
    vJ, aJ = _rnea_motions(model, v), _rnea_motions(model, a)  # S_i v_i, S_i a_i
    a0 = d.a_gravity if q.ndim == 1 else np.repeat(d.a_gravity[:, None], q.shape[0], axis=1)  # -[g; 0]
    V, A = np.empty_like(vJ), np.empty_like(vJ)
    for lv in d.levels:  # outward pass: v_i = Xup_i v_parent + S_i v_i  (the world is at rest)
        V[lv.at] = vJ[lv.at] if lv.up is None else _xm_lv(model, Xup, lv.at, V[lv.up]) + vJ[lv.at]
    aJ += _velocity_products(model, V, v, components_first=True)  # S_i a_i + v_i x S_i v_i
    for lv in d.levels:  # outward pass: a_i = Xup_i a_parent + S_i a_i + v_i x S_i v_i
        A[lv.at] = _xm_lv(model, Xup, lv.at, a0 if lv.up is None else A[lv.up]) + aJ[lv.at]
    F = _add_cross_f(_inertia_times(I, A), V, _inertia_times(I, V))  # f_i = I_i a_i + v_i x* I_i v_i
    if f_ext:  # ... - f_ext_i (body coordinates), in level order
        F -= f_ext[0][d.order] if q.ndim == 1 else f_ext[0][:, d.order].transpose(1, 2, 0)
    for lv in d.levels[:0:-1]:  # inward pass: f_parent += Xup_i^T f_i
        _to_parents(F, lv, _xf_lv(model, Xup, lv.at, F[lv.at]))
    return _rnea_forces(model, F)  # tau_i = S_i^T f_i


def _composite_inertias(model: Model, q: np.ndarray, Xup: np.ndarray) -> np.ndarray:
    """IC_i (level order, (nb, [N,] 6, 6)): the inertia of body i and all its descendants, in
    body-i coordinates, summed leaves first: IC_parent += Xup_i^T IC_i Xup_i (RBDA Table 6.2)."""
    d = model._plan
    IC = d.inertia_lv.copy() if q.ndim == 1 else np.repeat(d.inertia_lv[:, None], q.shape[0], axis=1)
    for lv in d.levels[:0:-1]:
        X = Xup[lv.at]
        _to_parents(IC, lv, np.swapaxes(X, -1, -2) @ IC[lv.at] @ X)
    return IC


def _momenta_at_roots(model: Model, Xup: np.ndarray, IC: np.ndarray) -> np.ndarray:
    """For every joint, the momentum of its subtree moving at unit joint rate, in its root's
    coordinates: F = IC_i S_i carried to the root, F = Xup_j^T F one level at a time (CRBA's
    walk without the products S_j^T F). Returns ([N,] 6, nv): column k for velocity index k."""
    d = model._plan
    out = np.empty(IC.shape[1:-2] + (6, model.nv))
    for k, vs in zip(d.free_lv, d.v_free_lv):  # a free root: S = 1, F = IC
        out[..., vs] = IC[k]
    s = d.S1_lv if Xup.ndim == 3 else d.S1_lv[:, None]
    for walk in d.crba_walks:
        F = _times(IC[walk.at], s[walk.at])  # F_i = IC_i s_i
        for step in walk.steps:
            F = _times_T(Xup[step.through], F)
        out[..., walk.v] = F.T if F.ndim == 2 else F.transpose(1, 2, 0)
    return out


@in_blocks
def _crba(model: Model, q: np.ndarray) -> np.ndarray:
    d = model._plan
    Xup = _level_transforms(model, q)  # level order throughout
    IC = _composite_inertias(model, q, Xup)
    M = np.zeros(q.shape[:-1] + (model.nv, model.nv))
    for k, vs in zip(d.free_lv, d.v_free_lv):  # a free root: S = 1, M_ii = IC_i
        M[..., vs, vs] = IC[k]
    s = d.S1_lv if q.ndim == 1 else d.S1_lv[:, None]  # s_i of the 1-dof joints, ([N] broadcast)
    F1, Ffree = [], []  # F at each 1-dof joint j of a walk (M_ij = s_j^T F) and at a free root (M_ij = F)
    for walk in d.crba_walks:  # the bodies of one depth at once: F_i = IC_i s_i, walked to the root
        F = _times(IC[walk.at], s[walk.at])
        F1.append(F)  # M_ii = s_i^T IC_i s_i
        for step in walk.steps:  # F = Xup_j^T F: the same force in the parent's coordinates
            F = _times_T(Xup[step.through], F)
            if step.one is not None:
                F1.append(F[step.one])
            if step.free is not None:
                Ffree.append(F[step.free])
    if not F1:  # no 1-dof joint (a single free body): M = IC of the root
        return M
    E = _dot(np.concatenate(F1), d.crba_s if q.ndim == 1 else d.crba_s[:, None])  # s_j^T F, all at once
    if Ffree:
        Ff = np.concatenate(Ffree)
        E = np.concatenate([E, np.moveaxis(Ff, -1, 1).reshape((-1,) + Ff.shape[1:-1])])
    if q.ndim == 2:
        E = E.T
    M[..., d.crba_rows, d.crba_cols] = E  # in the order of the walks (kinematics_lib.dynamics.model)
    M[..., d.crba_cols, d.crba_rows] = E
    return M


def _dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a_k . b_k over the last axis, for stacks (k, [N,] 6)."""
    return (a[..., None, :] @ b[..., :, None])[..., 0, 0]


@in_blocks
def _aba(model: Model, q: np.ndarray, v: np.ndarray, tau: np.ndarray) -> np.ndarray:
    d = model._plan
    I, levels = d.inertia_lv, d.levels
    s = d.S1_lv.reshape((model.nb,) + (1,) * (q.ndim - 1) + (6,))  # s_i of every 1-dof joint (free: 0)
    Xup, affine = _level_transforms(model, q, affine=True)
    V = _outward(model, affine, _rnea_motions(model, v))  # pass 1 (RNEA's): v_i = Xup_i v_parent + S_i v_i
    c = _velocity_products(model, V, v, components_first=True)  # c_i = v_i x S_i v_i
    pA = _cross_f(V, _inertia_times(I, V))  # pA_i = v_i x* I_i v_i
    if q.ndim == 2:  # RNEA's batch layout (nb, 6, N) -> ABA's (nb, N, 6)
        c, pA = np.swapaxes(c, 1, 2).copy(), np.swapaxes(pA, 1, 2).copy()
    IA = I.copy() if q.ndim == 1 else np.repeat(I[:, None], q.shape[0], axis=1)
    U = np.empty_like(c)
    D, u = np.ones(c.shape[:-1]), tau[..., d.v1_lv].T.copy()  # u_i starts as tau_i
    for lv in levels[::-1]:  # pass 2: articulated-body inertias, leaves first
        at = lv.at
        U[at] = _times(IA[at], s[at])  # U_i = IA_i s_i
        D[at] = (U[at] * s[at]).sum(axis=-1)  # D_i = s_i^T U_i
        u[at] -= (pA[at] * s[at]).sum(axis=-1)  # u_i = tau_i - s_i^T pA_i
        if lv.up is None:
            break  # roots: nothing to pass on (a free root joint is solved in pass 3)
        UD = U[at] / D[at][..., None]  # (a zero D is reported after this pass)
        IA[at] -= U[at][..., :, None] * UD[..., None, :]  # Ia = IA - U D^-1 U^T (IA_i is not used again)
        Ia = IA[at]
        pa = pA[at] + _times(Ia, c[at]) + UD * u[at][..., None]  # pa = pA + Ia c + U D^-1 u
        X = Xup[at]
        _to_parents(IA, lv, np.swapaxes(X, -1, -2) @ Ia @ X)  # IA_parent += Xup^T Ia Xup
        _to_parents(pA, lv, _times_T(X, pa))  # pA_parent += Xup^T pa
    D[d.free_lv,] = 1.0  # (a free root has no s: its entries are not used)
    _check_D(model, D)  # D_i > 0: no joint moves a massless subtree
    a = np.empty(q.shape[:-1] + (model.nv,))
    A = np.empty_like(c)
    a0 = _gravity_acceleration(model, q)
    for lv in levels:  # pass 3: accelerations, root first
        at = lv.at
        a_p = _times(Xup[at], a0 if lv.up is None else A[lv.up]) + c[at]  # a' = Xup a_parent + c
        a_i = (u[at] - (U[at] * a_p).sum(axis=-1)) / D[at]  # a_i = D^-1 (u - U^T a')
        A[at] = a_p + s[at] * a_i[..., None]
        a[..., d.v1_lv[at]] = a_i.T
        if lv.up is None:
            for k, vs in zip(d.free_lv, d.v_free_lv):  # S = 1: IA (a' + a) = tau - pA
                a[..., vs] = _solve_free(model, d.order[k], IA[k], tau[..., vs] - pA[k]) - a_p[k]
                A[k] = a_p[k] + a[..., vs]
    return a


def _check_D(model: Model, D: np.ndarray) -> None:
    """D_i = s^T IA_i s > 0 for every body (level order, (nb, [N])) (RBDA Table 7.1); zero when
    the joint moves a massless subtree."""
    tol = model._plan.inertia_tol
    if D.min(initial=np.inf) > tol:
        return
    small = np.flatnonzero(np.any(D <= tol, axis=tuple(range(1, D.ndim))))
    if not small.size:  # no zero D: a non-finite one came from huge inputs
        check.finite_result(D, "the articulated inertia D", "q, v, tau")
    raise singular_joint_error(model, int(model._plan.order[small[-1]]))  # the deepest: its parents inherit NaN


def _solve_free(model: Model, i: int, IA: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    """IA^-1 rhs for a free root joint (the articulated inertia of the whole robot, 6 x 6)."""
    check.finite_result(IA, "the articulated inertia IA", "q, v, tau")
    try:
        out = np.linalg.solve(IA, rhs) if rhs.ndim == 1 else np.linalg.solve(IA, rhs[..., None])[..., 0]
    except np.linalg.LinAlgError:
        raise singular_joint_error(model, i) from None
    return out

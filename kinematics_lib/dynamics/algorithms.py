"""Rigid-body dynamics of kinematic trees: RNEA, CRBA, ABA and the terms of M(q) a + C(q, v) v + g(q) = tau.

Each algorithm is one function whose two passes follow Featherstone's *Rigid Body Dynamics
Algorithms* (RBDA) line by line, with the book's symbols: ``Xup[i]`` (parent -> body i motion
transform), ``S`` (motion subspace), ``vJ`` (joint velocity), ``IC`` (composite inertia),
``IA``/``pA`` (articulated inertia and bias force), ``U``, ``D``, ``u``. Spatial vectors are
[linear; angular] (see :mod:`kinematics_lib.geometry.spatial`). Gravity enters as a fictitious
acceleration of the world, ``a_0 = -[g; 0]`` (one line in each algorithm).

Floating-base models (joint type 'free') follow Pinocchio's conventions: q = [p, quat xyzw,
joints], v = [v_base, w_base (base frame), joint rates]; the base "acceleration" is the time
derivative of that body-frame twist (a spatial acceleration).

Every pass runs one step per depth of the tree (all bodies of one depth at once: they do not
depend on each other), and every public function takes a batch: q (N, nq), v, a (N, nv) give
results with a leading N -- the same lines over one more axis (issue 13).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .. import _validate as check
from .model import Model, _free_joint_X, _jcalc, _joint_coefficients, _joint_transforms, in_blocks, state
from ..geometry.kernels import crf as _crf, crm as _crm, skew as _skew

__all__ = [
    "rnea",
    "crba",
    "mass_matrix_by_rnea",
    "aba",
    "nonlinear_effects",
    "gravity_torque",
    "coriolis_matrix",
    "kinetic_energy",
    "potential_energy",
    "body_transforms",
]


def _state(model: Model, q, *va, name_a: str = "a", batch: bool = True):
    """Validated float arrays (q, [v, [a]]), each (n,) or a batch (N, n); bad input raises
    ValueError naming the argument."""
    return state(model, q, *va, name_a=name_a, batch=batch)


# ---------------------------------------------------------------- 6-vector helpers, one call or a batch
#
# A body's spatial vector is (6,) in a single call and (N, 6) for a batch of N states; a
# state-dependent matrix (Xup_i, IA_i, ...) is (6, 6) or (N, 6, 6). Constant matrices (the
# inertias, the motion subspaces) multiply either with ndarray.dot. These helpers are the only
# places where the two shapes differ; the algorithms' lines are the same for both.


def _cross3(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.cross(a, b)


def cross_motion(v: np.ndarray, m: np.ndarray) -> np.ndarray:
    """v x m = [w x m_v + v x m_w; w x m_w] for stacks (..., 6) of motion vectors (checked input)."""
    if v.ndim <= 2:  # one state: a few products with the cross-product matrices
        return (_crm(v) @ m[..., None])[..., 0]
    vl, w, ml, mw = v[..., :3], v[..., 3:], m[..., :3], m[..., 3:]
    return np.concatenate([_cross3(w, ml) + _cross3(vl, mw), _cross3(w, mw)], axis=-1)


def cross_force(v: np.ndarray, f: np.ndarray) -> np.ndarray:
    """v x* f = [w x f; v x f + w x n] for stacks (..., 6) of motion and force vectors (checked input)."""
    if v.ndim <= 2:
        return (_crf(v) @ f[..., None])[..., 0]
    vl, w, fl, fa = v[..., :3], v[..., 3:], f[..., :3], f[..., 3:]
    return np.concatenate([_cross3(w, fl), _cross3(vl, fl) + _cross3(w, fa)], axis=-1)


def apply_each(M: np.ndarray, x: np.ndarray) -> np.ndarray:
    """M_i x_i for constant matrices M (nb, 6, 6) and vectors x (nb, 6) or (nb, N, 6)."""
    if x.ndim == 2:
        return (M @ x[:, :, None])[:, :, 0]
    return x @ np.swapaxes(M, 1, 2)  # one (N, 6) @ (6, 6) product per body


def crf_bar(h: np.ndarray) -> np.ndarray:
    """The matrix of v -> v x* h (see :func:`kinematics_lib.geometry.spatial.crf_bar`)."""
    F, N = _skew(h[:3]), _skew(h[3:])
    out = np.zeros((6, 6))
    out[:3, 3:] = out[3:, :3] = -F
    out[3:, 3:] = -N
    return out


def _gravity_acceleration(model: Model, q: np.ndarray) -> np.ndarray:
    """a_0 = -[g; 0]: accelerating the world upwards is equivalent to gravity (RBDA 5.3)."""
    a0 = model._derived["a_gravity"]
    return a0.copy() if q.ndim == 1 else np.broadcast_to(a0, (q.shape[0], 6))


def body_transforms(model: Model, q) -> list[np.ndarray]:
    """Xup[i] for every body: the motion transform from the parent's coordinates to body i's.

    q (nq,) -> nb arrays (6, 6); a batch q (N, nq) -> nb arrays (N, 6, 6).
    """
    (q,) = _state(model, q)
    return list(_joint_transforms(model, q))


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
        return cross_motion(V, M)
    out = np.zeros(V.shape)
    _rows_cross(V[:, 3:], M[:, :3], out[:, :3])
    _rows_cross(V[:, :3], M[:, 3:], out[:, :3])
    _rows_cross(V[:, 3:], M[:, 3:], out[:, 3:])
    return out


def _add_cross_f(F: np.ndarray, V: np.ndarray, H: np.ndarray) -> np.ndarray:
    """F + v_i x* h_i for every body: (nb, 6) or (nb, 6, N) (a batch: added in place into F)."""
    if V.ndim == 2:
        return F + cross_force(V, H)
    _rows_cross(V[:, 3:], H[:, :3], F[:, :3])  # w x f
    _rows_cross(V[:, :3], H[:, :3], F[:, 3:])  # v x f
    _rows_cross(V[:, 3:], H[:, 3:], F[:, 3:])  # w x n
    return F


def _cross_f(V: np.ndarray, H: np.ndarray) -> np.ndarray:
    """v_i x* h_i for every body: (nb, 6) or (nb, 6, N)."""
    return cross_force(V, H) if V.ndim == 2 else _add_cross_f(np.zeros_like(V), V, H)


def _inertia_times(I: np.ndarray, X: np.ndarray) -> np.ndarray:
    """I_i x_i for every body: (nb, 6) or (nb, 6, N) (one 6 x 6 by 6 x N product per body)."""
    return apply_each(I, X) if X.ndim == 2 else I @ X


# ---------------------------------------------------------------- the recursions, one depth at a time
#
# RBDA's passes visit each body after (outward) or before (inward) its parent. All bodies of
# one depth are independent of each other, so each pass runs one step per depth ("level"),
# every step a handful of stacked products over the bodies of that depth -- and, for a batch,
# over the N states too. Bodies are kept in level order (``model._derived['order']``); a
# level's bodies are a slice ``lv.at`` of it and their parents ``lv.up`` (a slice, one shared
# parent, or an index array). Arrays: one state (nb, 6) vectors and (nb, 6, 6) matrices.


def _level_transforms(model: Model, q: np.ndarray, affine: bool = False):
    """Xup in level order: (nb, 6, 6), or (nb, N, 6, 6) for a batch (jcalc for every joint);
    ``affine``: also RNEA's form of the same transforms (:func:`_rnea_transforms`)."""
    d = model._derived
    c = _joint_coefficients(model, q, level_order=True)  # (nb, [N,] 3)
    Xup = (c[:, None, :] if q.ndim == 1 else c) @ d["P_lv"]  # one (N, 3) @ (3, 36) product per body
    Xup = Xup.reshape(c.shape[:-1] + (6, 6))
    for k, qs, Xt in zip(d["free_lv"], d["q_free_lv"], d["X_tree_free_lv"]):
        Xup[k] = _free_joint_X(q[..., qs]) if Xt is None else _free_joint_X(q[..., qs]) @ Xt
    if not affine:
        return Xup
    if q.ndim == 1:
        return Xup, Xup
    return Xup, _Affine(c[:, None, :, 1], c[:, None, :, 2], {k: Xup[k] for k in d["free_lv"]})


def _level_motions(model: Model, qd: np.ndarray) -> np.ndarray:
    """S_i qd_i per body in level order: (nb, 6), or (nb, N, 6) for a batch qd (N, nv)."""
    d = model._derived
    out = d["S1_lv"].reshape((model.nb,) + (1,) * (qd.ndim - 1) + (6,)) * qd[..., d["v1_lv"]].T[..., None]
    for k, vs in zip(d["free_lv"], d["v_free_lv"]):
        out[k] = qd[..., vs]
    return out


def _velocity_products(model: Model, V: np.ndarray, qd: np.ndarray, components_first: bool = False) -> np.ndarray:
    """c_i = v_i x S_i qd_i = qd_i (-crm(s_i)) v_i for every body in level order (0 for a free root,
    whose v is its own S qd): constant matrices times the velocities, then scaled by qd_i.
    V: (nb, 6), (nb, N, 6), or (nb, 6, N) when ``components_first`` (RNEA's batch layout)."""
    d = model._derived
    qj = qd[..., d["v1_lv"]].T  # (nb, [N])
    if V.ndim == 2:
        return (d["bias_lv"] @ V[:, :, None])[:, :, 0] * qj[:, None]
    if components_first:
        return (d["bias_lv"] @ V) * qj[:, None, :]
    return (V @ d["bias_lv_T"]) * qj[:, :, None]


def _level_forces(model: Model, F: np.ndarray) -> np.ndarray:
    """tau_i = S_i^T f_i from forces in level order (nb, [N,] 6) -> (nv,) or (N, nv)."""
    d = model._derived
    tau = np.empty(F.shape[1:-1] + (model.nv,))
    S1 = d["S1_lv"].reshape((model.nb,) + (1,) * (F.ndim - 2) + (6,))
    tau[..., d["v1_lv"]] = (S1 * F).sum(axis=-1).T  # free joints write a dummy entry, overwritten next
    for k, vs in zip(d["free_lv"], d["v_free_lv"]):
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
    d = model._derived
    c = _joint_coefficients(model, q, level_order=True)  # (nb, N, 3)
    dense = {}
    for k, qs, Xt in zip(d["free_lv"], d["q_free_lv"], d["X_tree_free_lv"]):
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
    out = _combine(model._derived["Pst_lv"][at] @ x, Xup.c1[at], Xup.c2[at])  # one BLAS product per body
    for k, X in Xup.dense.items():
        if at.start <= k < at.stop:
            out[k - at.start] = np.einsum("nij,jn->in", X, x if x.ndim == 2 else x[k - at.start])
    return out


def _xf_lv(model: Model, Xup, at: slice, f: np.ndarray) -> np.ndarray:
    """Xup_i^T f_i for the (non-root) bodies ``at`` of a level."""
    if type(Xup) is np.ndarray:
        return _times_T(Xup[at], f)
    return _combine(model._derived["PstT_lv"][at] @ f, Xup.c1[at], Xup.c2[at])


def _rnea_motions(model: Model, qd: np.ndarray) -> np.ndarray:
    """S_i qd_i in level order: (nb, 6), or (nb, 6, N) -- components first -- for a batch."""
    if qd.ndim == 1:
        return _level_motions(model, qd)
    d = model._derived
    out = d["S1_lv"][:, :, None] * qd.T[d["v1_lv"]][:, None, :]
    for k, vs in zip(d["free_lv"], d["v_free_lv"]):
        out[k] = qd[:, vs].T
    return out


def _rnea_forces(model: Model, F: np.ndarray) -> np.ndarray:
    if F.ndim == 2:
        return _level_forces(model, F)
    d = model._derived
    tau = np.empty((model.nv, F.shape[2]))
    tau[d["v1_lv"]] = (d["S1_lv"][:, :, None] * F).sum(axis=1)
    for k, vs in zip(d["free_lv"], d["v_free_lv"]):
        tau[vs] = F[k]
    return tau.T


def _outward(model: Model, Xup, J: np.ndarray) -> np.ndarray:
    """x_i = Xup_i x_parent + J_i, root first, the world at rest (the velocity pass of RNEA)."""
    X = np.empty_like(J)
    for lv in model._derived["levels"]:
        X[lv.at] = J[lv.at] if lv.up is None else _xm_lv(model, Xup, lv.at, X[lv.up]) + J[lv.at]
    return X


def _inward(model: Model, Xup, F: np.ndarray) -> np.ndarray:
    """f_parent += Xup_i^T f_i, leaves first, in place (the force pass of RNEA)."""
    for lv in model._derived["levels"][:0:-1]:
        _to_parents(F, lv, _xf_lv(model, Xup, lv.at, F[lv.at]))
    return F


def rnea(model: Model, q, v, a, f_ext=None) -> np.ndarray:
    """Inverse dynamics  tau = M(q) a + C(q, v) v + g(q) - sum_i J_i(q)^T f_ext_i   (RNEA, RBDA Table 5.1).

    q: (nq,), v: (nv,), a: (nv,)  ->  tau: (nv,) in N m (revolute) / N (prismatic); for a
    floating base the first six entries are the base wrench [force; moment] in the base frame
    (zero when the motion is feasible without external forces). A batch of N states -- q (N, nq),
    v and a (N, nv) -- gives tau (N, nv): the same lines, each over the batch axis.

    f_ext (nb, 6), optional: row i is the external wrench [force (N); moment (N m)] applied to
    body i, in body i's frame and about its origin (Pinocchio's ``fext``, which is per joint in
    the joint's LOCAL frame: row i here is Pinocchio's fext[i + 1], joint 0 being its universe).
    J_i is body i's Jacobian in that frame. For a batch: (N, nb, 6), or one (nb, 6) for all states.
    In the recursion each body's force becomes f_i = I_i a_i + v_i x* I_i v_i - f_ext_i.

    Body velocities ``V[i]``, accelerations ``A[i]`` and forces ``F[i]`` are in body-i
    coordinates; the world is at rest and accelerates at -g. The per-joint terms (jcalc, S qd,
    S qdd) and the body equations of motion are evaluated for all bodies at once; the two
    outward recursions and the inward one take one step per depth of the tree.
    """
    q, v, a = _state(model, q, v, a)
    if f_ext is None:
        return check.finite_result(_rnea(model, q, v, a), "tau", "q, v, a")
    f_ext = _external_wrenches(model, f_ext, q)
    return check.finite_result(_rnea(model, q, v, a, f_ext), "tau", "q, v, a, f_ext")


def _external_wrenches(model: Model, f_ext, q: np.ndarray) -> np.ndarray:
    """f_ext checked: (nb, 6) for one state; (N, nb, 6) for a batch ((nb, 6) is repeated)."""
    w = check._finite(check._array(f_ext, "f_ext"), "f_ext")
    if q.ndim == 2 and w.shape == (model.nb, 6):
        return np.broadcast_to(w, (q.shape[0], model.nb, 6))
    expected = (model.nb, 6) if q.ndim == 1 else (q.shape[0], model.nb, 6)
    if w.shape != expected:
        raise check.InputError(f"f_ext must have shape {expected} (one wrench [force; moment] per body, "
                               f"in the body's frame), got shape {w.shape}")
    return w


@in_blocks
def _rnea(model: Model, q: np.ndarray, v: np.ndarray, a: np.ndarray, *f_ext: np.ndarray) -> np.ndarray:
    d = model._derived
    I = d["inertia_lv"]
    Xup = _rnea_transforms(model, q)  # jcalc: Xup_i maps parent coordinates to body i
    vJ, aJ = _rnea_motions(model, v), _rnea_motions(model, a)  # S_i qd_i, S_i qdd_i
    a0 = d["a_gravity"] if q.ndim == 1 else np.repeat(d["a_gravity"][:, None], q.shape[0], axis=1)  # -[g; 0]
    V, A = np.empty_like(vJ), np.empty_like(vJ)
    for lv in d["levels"]:  # outward pass: v_i = Xup_i v_parent + S_i qd_i  (the world is at rest)
        V[lv.at] = vJ[lv.at] if lv.up is None else _xm_lv(model, Xup, lv.at, V[lv.up]) + vJ[lv.at]
    aJ += _velocity_products(model, V, v, components_first=True)  # S_i qdd_i + v_i x S_i qd_i
    for lv in d["levels"]:  # outward pass: a_i = Xup_i a_parent + S_i qdd_i + v_i x S_i qd_i
        A[lv.at] = _xm_lv(model, Xup, lv.at, a0 if lv.up is None else A[lv.up]) + aJ[lv.at]
    F = _add_cross_f(_inertia_times(I, A), V, _inertia_times(I, V))  # f_i = I_i a_i + v_i x* I_i v_i
    if f_ext:  # ... - f_ext_i (body coordinates), in level order
        F -= f_ext[0][d["order"]] if q.ndim == 1 else f_ext[0][:, d["order"]].transpose(1, 2, 0)
    for lv in d["levels"][:0:-1]:  # inward pass: f_parent += Xup_i^T f_i
        _to_parents(F, lv, _xf_lv(model, Xup, lv.at, F[lv.at]))
    return _rnea_forces(model, F)  # tau_i = S_i^T f_i


def crba(model: Model, q) -> np.ndarray:
    """Joint-space inertia matrix M(q) (nv, nv), symmetric positive definite (CRBA, RBDA Table 6.2).

    Composite inertias IC_i (body i and all its descendants) are accumulated inward (one step
    per depth); then M_ij = S_i^T IC_i ^iX_j S_j for every ancestor j of i, walking from i to
    the root (the O(n^2) part: chapter 5 measures it).
    A batch q (N, nq) gives M (N, nv, nv).
    """
    (q,) = _state(model, q)
    return check.finite_result(_crba(model, q), "M", "q")


def _composite_inertias(model: Model, q: np.ndarray, Xup: np.ndarray) -> np.ndarray:
    """IC_i (level order, (nb, [N,] 6, 6)): the inertia of body i and all its descendants, in
    body-i coordinates, summed leaves first: IC_parent += Xup_i^T IC_i Xup_i (RBDA Table 6.2)."""
    d = model._derived
    IC = d["inertia_lv"].copy() if q.ndim == 1 else np.repeat(d["inertia_lv"][:, None], q.shape[0], axis=1)
    for lv in d["levels"][:0:-1]:
        X = Xup[lv.at]
        _to_parents(IC, lv, np.swapaxes(X, -1, -2) @ IC[lv.at] @ X)
    return IC


def _momenta_at_roots(model: Model, Xup: np.ndarray, IC: np.ndarray) -> np.ndarray:
    """For every joint, the momentum of its subtree moving at unit joint rate, in its root's
    coordinates: F = IC_i S_i carried to the root, F = Xup_j^T F one level at a time (CRBA's
    walk without the products S_j^T F). Returns ([N,] 6, nv): column k for velocity index k."""
    d = model._derived
    out = np.empty(IC.shape[1:-2] + (6, model.nv))
    for k, vs in zip(d["free_lv"], d["v_free_lv"]):  # a free root: S = 1, F = IC
        out[..., vs] = IC[k]
    s = d["S1_lv"] if Xup.ndim == 3 else d["S1_lv"][:, None]
    for walk in d["crba_walks"]:
        F = _times(IC[walk.at], s[walk.at])  # F_i = IC_i s_i
        for step in walk.steps:
            F = _times_T(Xup[step.through], F)
        out[..., walk.v] = F.T if F.ndim == 2 else F.transpose(1, 2, 0)
    return out


@in_blocks
def _crba(model: Model, q: np.ndarray) -> np.ndarray:
    d = model._derived
    Xup = _level_transforms(model, q)  # level order throughout
    IC = _composite_inertias(model, q, Xup)
    M = np.zeros(q.shape[:-1] + (model.nv, model.nv))
    for k, vs in zip(d["free_lv"], d["v_free_lv"]):  # a free root: S = 1, M_ii = IC_i
        M[..., vs, vs] = IC[k]
    s = d["S1_lv"] if q.ndim == 1 else d["S1_lv"][:, None]  # s_i of the 1-dof joints, ([N] broadcast)
    F1, Ffree = [], []  # F at each 1-dof joint j of a walk (M_ij = s_j^T F) and at a free root (M_ij = F)
    for walk in d["crba_walks"]:  # the bodies of one depth at once: F_i = IC_i s_i, walked to the root
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
    E = _dot(np.concatenate(F1), d["crba_s"] if q.ndim == 1 else d["crba_s"][:, None])  # s_j^T F, all at once
    if Ffree:
        Ff = np.concatenate(Ffree)
        E = np.concatenate([E, np.moveaxis(Ff, -1, 1).reshape((-1,) + Ff.shape[1:-1])])
    if q.ndim == 2:
        E = E.T
    M[..., d["crba_rows"], d["crba_cols"]] = E  # in the order of the walks (kinematics_lib.dynamics.model)
    M[..., d["crba_cols"], d["crba_rows"]] = E
    return M


def _dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a_k . b_k over the last axis, for stacks (k, [N,] 6)."""
    return (a[..., None, :] @ b[..., :, None])[..., 0, 0]


def mass_matrix_by_rnea(model: Model, q) -> np.ndarray:
    """M(q) (nv, nv) the slow way: column j = rnea(q, 0, e_j) - g(q)  (nv + 1 RNEA calls, O(n^2)).

    Equal to :func:`crba`; chapter 5 compares the two.
    """
    (q,) = _state(model, q, batch=False)
    zero = np.zeros(model.nv)
    g = _rnea(model, q, zero, zero)
    return check.finite_result(np.column_stack([_rnea(model, q, zero, e) - g for e in np.eye(model.nv)]), "M", "q")


def aba(model: Model, q, v, tau) -> np.ndarray:
    """Forward dynamics  a = M(q)^-1 (tau - C(q, v) v - g(q))   (ABA, RBDA Table 7.1), O(n).

    Three passes: velocities and bias terms outward; articulated-body inertias IA and bias
    forces pA inward; accelerations outward. q: (nq,), v, tau: (nv,) -> a: (nv,); a batch
    q (N, nq), v, tau (N, nv) -> a (N, nv).
    """
    q, v, tau = _state(model, q, v, tau, name_a="tau")
    return check.finite_result(_aba(model, q, v, tau), "the acceleration a", "q, v, tau")


@in_blocks
def _aba(model: Model, q: np.ndarray, v: np.ndarray, tau: np.ndarray) -> np.ndarray:
    d = model._derived
    I, levels = d["inertia_lv"], d["levels"]
    s = d["S1_lv"].reshape((model.nb,) + (1,) * (q.ndim - 1) + (6,))  # s_i of every 1-dof joint (free: 0)
    Xup, affine = _level_transforms(model, q, affine=True)
    V = _outward(model, affine, _rnea_motions(model, v))  # pass 1 (RNEA's): v_i = Xup_i v_parent + S_i qd_i
    c = _velocity_products(model, V, v, components_first=True)  # c_i = v_i x S_i qd_i
    pA = _cross_f(V, _inertia_times(I, V))  # pA_i = v_i x* I_i v_i
    if q.ndim == 2:  # RNEA's batch layout (nb, 6, N) -> ABA's (nb, N, 6)
        c, pA = np.swapaxes(c, 1, 2).copy(), np.swapaxes(pA, 1, 2).copy()
    IA = I.copy() if q.ndim == 1 else np.repeat(I[:, None], q.shape[0], axis=1)
    U = np.empty_like(c)
    D, u = np.ones(c.shape[:-1]), tau[..., d["v1_lv"]].T.copy()  # u_i starts as tau_i
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
    D[d["free_lv"],] = 1.0  # (a free root has no s: its entries are not used)
    _check_D(model, D)  # D_i > 0: no joint moves a massless subtree
    qdd = np.empty(q.shape[:-1] + (model.nv,))
    A = np.empty_like(c)
    a0 = _gravity_acceleration(model, q)
    for lv in levels:  # pass 3: accelerations, root first
        at = lv.at
        a_p = _times(Xup[at], a0 if lv.up is None else A[lv.up]) + c[at]  # a' = Xup a_parent + c
        qdd_i = (u[at] - (U[at] * a_p).sum(axis=-1)) / D[at]  # qdd_i = D^-1 (u - U^T a')
        A[at] = a_p + s[at] * qdd_i[..., None]
        qdd[..., d["v1_lv"][at]] = qdd_i.T
        if lv.up is None:
            for k, vs in zip(d["free_lv"], d["v_free_lv"]):  # S = 1: IA (a' + qdd) = tau - pA
                qdd[..., vs] = _solve_free(model, d["order"][k], IA[k], tau[..., vs] - pA[k]) - a_p[k]
                A[k] = a_p[k] + qdd[..., vs]
    return qdd


def nonlinear_effects(model: Model, q, v) -> np.ndarray:
    """h(q, v) = C(q, v) v + g(q)  (nv,): RNEA with zero acceleration (a batch: (N, nv))."""
    q, v = _state(model, q, v)
    return check.finite_result(_rnea(model, q, v, np.zeros_like(v)), "h", "q, v")


def gravity_torque(model: Model, q) -> np.ndarray:
    """g(q) (nv,): the joint torques that hold the robot still (RNEA with v = a = 0); a batch
    q (N, nq) gives (N, nv)."""
    (q,) = _state(model, q)
    zero = np.zeros(q.shape[:-1] + (model.nv,))
    return check.finite_result(_rnea(model, q, zero, zero), "g", "q")


def _subtree(model: Model, i: int) -> list[int]:
    out = [i]
    for j in range(i + 1, model.nb):
        if model.parent[j] in out:
            out.append(j)
    return out


def _singular(model: Model, i: int):
    names = ", ".join(model.body_names[j] for j in _subtree(model, i))
    return check.InputError(
        f"model: joint {model.body_joint[i]!r} moves a subtree without inertia along its axis "
        f"(bodies {names}): its articulated inertia D = S^T I^A S is singular and the "
        "forward dynamics is undefined; give those bodies mass (or lock the joint)")


def _check_D(model: Model, D: np.ndarray) -> None:
    """D_i = s^T IA_i s > 0 for every body (level order, (nb, [N])) (RBDA Table 7.1); zero when
    the joint moves a massless subtree."""
    tol = model._derived["inertia_tol"]
    if D.min(initial=np.inf) > tol:
        return
    small = np.flatnonzero(np.any(D <= tol, axis=tuple(range(1, D.ndim))))
    if not small.size:  # no zero D: a non-finite one came from huge inputs
        check.finite_result(D, "the articulated inertia D", "q, v, tau")
    raise _singular(model, int(model._derived["order"][small[-1]]))  # the deepest: its parents inherit NaN


def _solve_free(model: Model, i: int, IA: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    """IA^-1 rhs for a free root joint (the articulated inertia of the whole robot, 6 x 6)."""
    check.finite_result(IA, "the articulated inertia IA", "q, v, tau")
    try:
        out = np.linalg.solve(IA, rhs) if rhs.ndim == 1 else np.linalg.solve(IA, rhs[..., None])[..., 0]
    except np.linalg.LinAlgError:
        raise _singular(model, i) from None
    return out


def _world_quantities(model: Model, q, v):
    """Per body, in world coordinates: motion subspaces S_w, their rates, velocities and inertias."""
    nb, parent = model.nb, model.parent
    X0 = [None] * nb  # X0[i]: motion transform body i -> world  (= Xup-chain inverted)
    S_w, Sdot_w, vel_w, I_w = ([None] * nb for _ in range(4))
    for i in range(nb):
        Xup, S = _jcalc(model, i, q[model.q_slice[i]])
        X_i0 = Xup if parent[i] < 0 else Xup @ np.linalg.inv(X0[parent[i]])
        X0[i] = np.linalg.inv(X_i0)
        S_w[i] = X0[i] @ S
        vJ = S_w[i] @ v[model.v_slice[i]]
        vel_w[i] = vJ if parent[i] < 0 else vel_w[parent[i]] + vJ
        Sdot_w[i] = _crm(vel_w[i]) @ S_w[i]  # d/dt of an axis fixed in body i
        I_w[i] = X_i0.T @ model.inertia[i] @ X_i0
    return S_w, Sdot_w, vel_w, I_w


def _ancestors(model: Model, i: int) -> list[int]:
    chain = []
    while i >= 0:
        chain.append(i)
        i = model.parent[i]
    return chain


def coriolis_matrix(model: Model, q, v) -> np.ndarray:
    """Christoffel-consistent Coriolis matrix C(q, v) (nv, nv): C v = h - g and Mdot = C + C^T.

    With world-frame body Jacobians J_i (columns S_w of the joints supporting body i),
    C = sum_i J_i^T (I_i Jdot_i + B_i J_i),  B_i = 1/2 (crf(v_i) I_i - I_i crm(v_i) + crf_bar(I_i v_i))
    (Echeandia & Wensing 2021); B_i v_i = v_i x* I_i v_i gives the Coriolis/centrifugal force and
    B_i + B_i^T = d/dt I_i makes Mdot - 2C skew-symmetric. O(n * depth).
    """
    q, v = _state(model, q, v, batch=False)
    S_w, Sdot_w, vel_w, I_w = _world_quantities(model, q, v)
    C = np.zeros((model.nv, model.nv))
    for i in range(model.nb):
        cols = _ancestors(model, i)
        idx = np.concatenate([np.arange(model.nv)[model.v_slice[j]] for j in cols])
        J = np.hstack([S_w[j] for j in cols])
        Jdot = np.hstack([Sdot_w[j] for j in cols])
        I, vi = I_w[i], vel_w[i]
        B = 0.5 * (_crf(vi) @ I - I @ _crm(vi) + crf_bar(I @ vi))
        C[np.ix_(idx, idx)] += J.T @ (I @ Jdot + B @ J)
    return check.finite_result(C, "C", "q, v")


def kinetic_energy(model: Model, q, v) -> float:
    """T = 1/2 sum_i v_i^T I_i v_i over the bodies (J), equal to 1/2 v^T M(q) v."""
    q, v = _state(model, q, v, batch=False)
    vel = [None] * model.nb
    total = 0.0
    for i in range(model.nb):
        Xup, S = _jcalc(model, i, q[model.q_slice[i]])
        vJ = S @ v[model.v_slice[i]]
        p = model.parent[i]
        vel[i] = vJ if p < 0 else Xup @ vel[p] + vJ
        total += 0.5 * vel[i] @ model.inertia[i] @ vel[i]
    return float(check.finite_result(total, "T", "q, v"))


def potential_energy(model: Model, q) -> float:
    """V = -sum_i m_i g . c_i  (J), with c_i the world position of body i's centre of mass."""
    from .frames import _forward_kinematics
    from ..geometry.spatial import inertia_parts

    (q,) = _state(model, q, batch=False)
    T = _forward_kinematics(model, q)
    V = 0.0
    for i in range(model.nb):
        m, c, _ = inertia_parts(model.inertia[i])
        V -= m * model.gravity @ (T[i, :3, :3] @ c + T[i, :3, 3])
    return float(check.finite_result(V, "V", "q"))

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
"""

from __future__ import annotations

import numpy as np

from .. import _validate as check
from .model import Model, _jcalc, _joint_transforms, state
from ..geometry.spatial import _crf, _crm, _skew

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


def _mv(X: np.ndarray, x: np.ndarray) -> np.ndarray:
    """X x: (6, 6) (6,) -> (6,), or a stack (N, 6, 6) (N, 6) -> (N, 6)."""
    return X.dot(x) if x.ndim == 1 else np.einsum("nij,nj->ni", X, x)


def _mvT(X: np.ndarray, x: np.ndarray) -> np.ndarray:
    """X^T x (for a motion transform X: the force transform back to the parent)."""
    return x.dot(X) if x.ndim == 1 else np.einsum("nji,nj->ni", X, x)


def _congruence(X: np.ndarray, I: np.ndarray) -> np.ndarray:
    """X^T I X: an inertia (6, 6) or (N, 6, 6) moved to the parent's coordinates."""
    return X.T.dot(I).dot(X) if X.ndim == 2 else np.swapaxes(X, -1, -2) @ I @ X


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


def _world_at_rest(q: np.ndarray) -> np.ndarray:
    return np.zeros(q.shape[:-1] + (6,))


def body_transforms(model: Model, q) -> list[np.ndarray]:
    """Xup[i] for every body: the motion transform from the parent's coordinates to body i's.

    q (nq,) -> nb arrays (6, 6); a batch q (N, nq) -> nb arrays (N, 6, 6).
    """
    (q,) = _state(model, q)
    return list(_joint_transforms(model, q))


def _joint_motions(model: Model, qd: np.ndarray) -> np.ndarray:
    """S_i qd_i for every joint, one row per body: (nb, 6), or (nb, N, 6) for a batch qd (N, nv)."""
    d = model._derived
    if qd.ndim == 1:
        out = d["S1"] * qd[d["v1"]][:, None]
    else:
        out = d["S1"][:, None, :] * qd[:, d["v1"]].T[:, :, None]
    for i in d["free"]:  # a free joint: S = identity
        out[i] = qd[..., model.v_slice[i]]
    return out


def _joint_forces(model: Model, f: np.ndarray) -> np.ndarray:
    """tau_i = S_i^T f_i for every joint, gathered into (nv,) -- or (N, nv) from f (nb, N, 6)."""
    d = model._derived
    tau = np.empty(f.shape[1:-1] + (model.nv,))
    if f.ndim == 2:
        tau[d["v1"]] = (d["S1"] * f).sum(axis=1)  # free joints write a dummy entry, overwritten next
    else:
        tau[:, d["v1"]] = (d["S1"][:, None, :] * f).sum(axis=2).T
    for i in d["free"]:
        tau[..., model.v_slice[i]] = f[i].dot(model.S[i])
    return tau


def rnea(model: Model, q, v, a) -> np.ndarray:
    """Inverse dynamics  tau = M(q) a + C(q, v) v + g(q)   (RNEA, RBDA Table 5.1).

    q: (nq,), v: (nv,), a: (nv,)  ->  tau: (nv,) in N m (revolute) / N (prismatic); for a
    floating base the first six entries are the base wrench [force; moment] in the base frame
    (zero when the motion is feasible without external forces). A batch of N states -- q (N, nq),
    v and a (N, nv) -- gives tau (N, nv): the same lines, each over the batch axis.

    Body velocities ``vel[i]``, accelerations ``acc[i]`` and forces ``f[i]`` are in body-i
    coordinates; ``vel[-1]``/``acc[-1]`` (the "parent" -1 of a root) is the world, at rest and
    accelerating at -g. The per-joint terms (jcalc, S qd, S qdd) and the body equations of
    motion are evaluated for all bodies at once; the two recursions are plain loops.
    """
    q, v, a = _state(model, q, v, a)
    return check.finite_result(_rnea(model, q, v, a), "tau", "q, v, a")


def _rnea(model: Model, q: np.ndarray, v: np.ndarray, a: np.ndarray) -> np.ndarray:
    nb, parent, I = model.nb, model.parent, model.inertia
    Xup = _joint_transforms(model, q)  # jcalc: Xup_i maps parent coordinates to body i
    vJ = _joint_motions(model, v)  # S_i qd_i
    vel = [None] * nb + [_world_at_rest(q)]
    acc = [None] * nb + [_gravity_acceleration(model, q)]
    for i in range(nb):  # outward pass: v_i = Xup_i v_parent + S_i qd_i
        vel[i] = _mv(Xup[i], vel[parent[i]]) + vJ[i]
    V = np.array(vel[:nb])
    aJ = _joint_motions(model, a) + cross_motion(V, vJ)  # S_i qdd_i + v_i x S_i qd_i
    for i in range(nb):  # outward pass: a_i = Xup_i a_parent + S_i qdd_i + v_i x S_i qd_i
        acc[i] = _mv(Xup[i], acc[parent[i]]) + aJ[i]
    f = list(apply_each(I, np.array(acc[:nb])) + cross_force(V, apply_each(I, V)))  # f_i = I_i a_i + v_i x* I_i v_i
    for i in range(nb - 1, -1, -1):  # inward pass: f_parent += Xup_i^T f_i
        if parent[i] >= 0:
            f[parent[i]] = f[parent[i]] + _mvT(Xup[i], f[i])
    return _joint_forces(model, np.array(f))  # tau_i = S_i^T f_i


def crba(model: Model, q) -> np.ndarray:
    """Joint-space inertia matrix M(q) (nv, nv), symmetric positive definite (CRBA, RBDA Table 6.2).

    Composite inertias IC_i (body i and all its descendants) are accumulated inward; then
    M_ij = S_i^T IC_i ^iX_j S_j for every ancestor j of i, walking from i to the root.
    A batch q (N, nq) gives M (N, nv, nv).
    """
    (q,) = _state(model, q)
    return check.finite_result(_crba(model, q), "M", "q")


def _crba(model: Model, q: np.ndarray) -> np.ndarray:
    nb, parent, S = model.nb, model.parent, model.S
    Xup = _joint_transforms(model, q)
    IC = [np.array(model.inertia[i]) if q.ndim == 1 else np.broadcast_to(model.inertia[i], (q.shape[0], 6, 6))
          for i in range(nb)]
    for i in range(nb - 1, -1, -1):  # composite inertias, leaves first
        if parent[i] >= 0:
            IC[parent[i]] = IC[parent[i]] + _congruence(Xup[i], IC[i])
    M = np.zeros(q.shape[:-1] + (model.nv, model.nv))
    for i in range(nb):
        F = IC[i] @ S[i]  # (6, nv_i) or (N, 6, nv_i)
        vi = model.v_slice[i]
        M[..., vi, vi] = np.swapaxes(F, -1, -2) @ S[i]
        j = i
        while parent[j] >= 0:  # walk up: F is the same force expressed in the ancestors' frames
            F = np.swapaxes(Xup[j], -1, -2) @ F
            j = parent[j]
            vj = model.v_slice[j]
            M[..., vi, vj] = np.swapaxes(F, -1, -2) @ S[j]
            M[..., vj, vi] = np.swapaxes(M[..., vi, vj], -1, -2)
    return M


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


def _aba(model: Model, q: np.ndarray, v: np.ndarray, tau: np.ndarray) -> np.ndarray:
    nb, parent, I, d = model.nb, model.parent, model.inertia, model._derived
    S1 = d["S1"]  # the motion subspace s_i (6,) of every 1-dof joint (a free root joint: S = 1)
    Xup = _joint_transforms(model, q)
    vJ = _joint_motions(model, v)
    vel = [None] * nb + [_world_at_rest(q)]
    for i in range(nb):  # pass 1: velocities (then, for all bodies: c = v x vJ, pA = v x* I v)
        vel[i] = _mv(Xup[i], vel[parent[i]]) + vJ[i]
    V = np.array(vel[:nb])
    c = cross_motion(V, vJ)
    batch = () if q.ndim == 1 else (q.shape[0],)
    IA = [np.array(I[i]) if not batch else np.broadcast_to(I[i], batch + (6, 6)) for i in range(nb)]
    pA = list(cross_force(V, apply_each(I, V)))
    U, D, u = [None] * nb, [None] * nb, [None] * nb
    for i in range(nb - 1, -1, -1):  # pass 2: articulated-body inertias, leaves first
        if i in d["free"]:
            continue  # a free root joint: its "D" is the whole IA_i, solved in pass 3
        s = S1[i]
        U[i] = IA[i].dot(s)  # U_i = IA_i s_i
        D[i] = U[i].dot(s)  # D_i = s_i^T U_i
        _check_D(model, i, D[i])
        u[i] = tau[..., model.v_slice[i].start] - pA[i].dot(s)  # u_i = tau_i - s_i^T pA_i
        if parent[i] >= 0:
            UD = U[i] / np.asarray(D[i])[..., None]
            Ia = IA[i] - U[i][..., :, None] * UD[..., None, :]  # Ia = IA - U D^-1 U^T
            pa = pA[i] + _mv(Ia, c[i]) + UD * np.asarray(u[i])[..., None]  # pa = pA + Ia c + U D^-1 u
            IA[parent[i]] = IA[parent[i]] + _congruence(Xup[i], Ia)
            pA[parent[i]] = pA[parent[i]] + _mvT(Xup[i], pa)
    qdd = np.empty(batch + (model.nv,))
    acc = [None] * nb + [_gravity_acceleration(model, q)]
    for i in range(nb):  # pass 3: accelerations, root first
        a_p = _mv(Xup[i], acc[parent[i]]) + c[i]
        vs = model.v_slice[i]
        if i in d["free"]:  # S = 1: IA_i (a_p + qdd) = tau_i - pA_i
            qdd[..., vs] = _solve_free(model, i, IA[i], tau[..., vs] - pA[i]) - a_p
            acc[i] = a_p + qdd[..., vs]
        else:
            qdd[..., vs.start] = (u[i] - U[i].dot(a_p) if a_p.ndim == 1 else
                                  u[i] - (U[i] * a_p).sum(axis=-1)) / D[i]  # qdd_i = D^-1 (u - U^T a')
            acc[i] = a_p + S1[i] * np.asarray(qdd[..., vs.start])[..., None]
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


def _check_D(model: Model, i: int, D) -> None:
    """D_i = s^T IA_i s > 0 (RBDA Table 7.1); zero when the joint moves a massless subtree."""
    tol = model._derived["inertia_tol"]
    if np.ndim(D) == 0:
        if D > tol:
            return
    elif np.all(D > tol):
        return
    check.finite_result(D, "the articulated inertia D", "q, v, tau")
    raise _singular(model, i)


def _solve_free(model: Model, i: int, IA: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    """IA^-1 rhs for a free root joint (the articulated inertia of the whole robot, 6 x 6)."""
    check.finite_result(IA, "the articulated inertia IA", "q, v, tau")
    try:
        out = np.linalg.solve(IA, rhs[..., None])[..., 0]
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

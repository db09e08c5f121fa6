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


def _state(model: Model, q, *va, name_a: str = "a"):
    """Validated float arrays (q, [v, [a]]); bad input raises ValueError naming the argument."""
    return state(model, q, *va, name_a=name_a, batch=False)


def cross_motion(v: np.ndarray, m: np.ndarray) -> np.ndarray:
    """v x m for stacks of motion vectors (checked input)."""
    return (_crm(v) @ m[..., None])[..., 0]


def cross_force(v: np.ndarray, f: np.ndarray) -> np.ndarray:
    """v x* f for stacks of motion and force vectors (checked input)."""
    return (_crf(v) @ f[..., None])[..., 0]


def apply_each(M: np.ndarray, x: np.ndarray) -> np.ndarray:
    return (M @ x[:, :, None])[:, :, 0]


def crf_bar(h: np.ndarray) -> np.ndarray:
    """The matrix of v -> v x* h (see :func:`kinematics_lib.geometry.spatial.crf_bar`)."""
    F, N = _skew(h[:3]), _skew(h[3:])
    out = np.zeros((6, 6))
    out[:3, 3:] = out[3:, :3] = -F
    out[3:, 3:] = -N
    return out


def _gravity_acceleration(model: Model) -> np.ndarray:
    """a_0 = -[g; 0]: accelerating the world upwards is equivalent to gravity (RBDA 5.3)."""
    return model._derived["a_gravity"].copy()


def body_transforms(model: Model, q) -> list[np.ndarray]:
    """Xup[i] for every body: the motion transform from the parent's coordinates to body i's."""
    (q,) = _state(model, q)
    return [_jcalc(model, i, q[model.q_slice[i]])[0] for i in range(model.nb)]


def _joint_motions(model: Model, qd: np.ndarray) -> np.ndarray:
    """S_i qd_i for every joint, one row per body (nb, 6)."""
    d = model._derived
    out = d["S1"] * qd[d["v1"]][:, None]
    for i in d["free"]:  # a free joint: S = identity
        out[i] = qd[model.v_slice[i]]
    return out


def _joint_forces(model: Model, f: np.ndarray) -> np.ndarray:
    """tau_i = S_i^T f_i for every joint, gathered into the (nv,) vector."""
    d = model._derived
    tau = np.empty(model.nv)
    tau[d["v1"]] = (d["S1"] * f).sum(axis=1)  # free joints write a dummy entry, overwritten next
    for i in d["free"]:
        tau[model.v_slice[i]] = model.S[i].T @ f[i]
    return tau


def rnea(model: Model, q, v, a) -> np.ndarray:
    """Inverse dynamics  tau = M(q) a + C(q, v) v + g(q)   (RNEA, RBDA Table 5.1).

    q: (nq,), v: (nv,), a: (nv,)  ->  tau: (nv,) in N m (revolute) / N (prismatic); for a
    floating base the first six entries are the base wrench [force; moment] in the base frame
    (zero when the motion is feasible without external forces).

    Body velocities ``vel[i]``, accelerations ``acc[i]`` and forces ``f[i]`` are in body-i
    coordinates; ``vel[-1]``/``acc[-1]`` (the "parent" -1 of a root) is the world, at rest and
    accelerating at -g. The per-joint terms (jcalc, S qd, S qdd) and the body equations of
    motion are evaluated for all bodies at once; the two recursions are plain loops.
    """
    q, v, a = _state(model, q, v, a)
    nb, parent, I = model.nb, model.parent, model.inertia
    Xup = list(_joint_transforms(model, q))  # jcalc: Xup_i maps parent coordinates to body i
    vJ = _joint_motions(model, v)  # S_i qd_i
    vel = [None] * nb + [np.zeros(6)]
    acc = [None] * nb + [_gravity_acceleration(model)]
    # (ndarray.dot: on 6-vectors it costs half of `@`'s call overhead, and these loops are hot)
    for i in range(nb):  # outward pass: v_i = Xup_i v_parent + S_i qd_i
        vel[i] = Xup[i].dot(vel[parent[i]]) + vJ[i]
    V = np.array(vel[:nb])
    aJ = list(_joint_motions(model, a) + cross_motion(V, vJ))  # S_i qdd_i + v_i x S_i qd_i
    for i in range(nb):  # outward pass: a_i = Xup_i a_parent + S_i qdd_i + v_i x S_i qd_i
        acc[i] = Xup[i].dot(acc[parent[i]]) + aJ[i]
    f = list(apply_each(I, np.array(acc[:nb])) + cross_force(V, apply_each(I, V)))  # f_i = I_i a_i + v_i x* I_i v_i
    for i in range(nb - 1, -1, -1):  # inward pass: f_parent += Xup_i^T f_i
        if parent[i] >= 0:
            f[parent[i]] = f[parent[i]] + Xup[i].T.dot(f[i])
    return check.finite_result(_joint_forces(model, np.array(f)), "tau", "q, v, a")  # tau_i = S_i^T f_i


def crba(model: Model, q) -> np.ndarray:
    """Joint-space inertia matrix M(q) (nv, nv), symmetric positive definite (CRBA, RBDA Table 6.2).

    Composite inertias IC_i (body i and all its descendants) are accumulated inward; then
    M_ij = S_i^T IC_i ^iX_j S_j for every ancestor j of i, walking from i to the root.
    """
    (q,) = _state(model, q)
    nb, parent, S = model.nb, model.parent, model.S
    Xup = list(_joint_transforms(model, q))
    IC = list(model.inertia.copy())
    for i in range(nb - 1, -1, -1):  # composite inertias, leaves first
        if parent[i] >= 0:
            IC[parent[i]] += Xup[i].T @ IC[i] @ Xup[i]
    M = np.zeros((model.nv, model.nv))
    for i in range(nb):
        F = IC[i] @ S[i]
        vi = model.v_slice[i]
        M[vi, vi] = S[i].T @ F
        j = i
        while parent[j] >= 0:  # walk up: F is the same force expressed in the ancestors' frames
            F = Xup[j].T @ F
            j = parent[j]
            vj = model.v_slice[j]
            M[vi, vj] = F.T @ S[j]
            M[vj, vi] = M[vi, vj].T
    return check.finite_result(M, "M", "q")


def mass_matrix_by_rnea(model: Model, q) -> np.ndarray:
    """M(q) (nv, nv) the slow way: column j = rnea(q, 0, e_j) - g(q)  (nv + 1 RNEA calls, O(n^2)).

    Equal to :func:`crba`; chapter 5 compares the two.
    """
    (q,) = _state(model, q)
    g, zero = gravity_torque(model, q), np.zeros(model.nv)
    return np.column_stack([rnea(model, q, zero, e) - g for e in np.eye(model.nv)])


def aba(model: Model, q, v, tau) -> np.ndarray:
    """Forward dynamics  a = M(q)^-1 (tau - C(q, v) v - g(q))   (ABA, RBDA Table 7.1), O(n).

    Three passes: velocities and bias terms outward; articulated-body inertias IA and bias
    forces pA inward; accelerations outward. q: (nq,), v, tau: (nv,) -> a: (nv,).
    """
    q, v, tau = _state(model, q, v, tau, name_a="tau")
    nb, parent, S, I = model.nb, model.parent, model.S, model.inertia
    Xup = list(_joint_transforms(model, q))
    vJ = _joint_motions(model, v)
    vel = [None] * nb + [np.zeros(6)]
    for i in range(nb):  # pass 1: velocities (then, for all bodies: c = v x vJ, pA = v x* I v)
        vel[i] = Xup[i] @ vel[parent[i]] + vJ[i]
    V = np.array(vel[:nb])
    c = cross_motion(V, vJ)
    IA = list(I.copy())
    pA = list(cross_force(V, np.einsum("bij,bj->bi", I, V)))
    U, D_inv, u = [None] * nb, [None] * nb, [None] * nb
    for i in range(nb - 1, -1, -1):  # pass 2: articulated-body inertias, leaves first
        U[i] = IA[i] @ S[i]
        D = S[i].T @ U[i]  # (1, 1) for a 1-dof joint, (6, 6) for a free one
        D_inv[i] = _inverse_D(model, i, D)
        u[i] = tau[model.v_slice[i]] - S[i].T @ pA[i]
        if parent[i] >= 0:
            Ia = IA[i] - U[i] @ D_inv[i] @ U[i].T
            pa = pA[i] + Ia @ c[i] + U[i] @ D_inv[i] @ u[i]
            IA[parent[i]] += Xup[i].T @ Ia @ Xup[i]
            pA[parent[i]] += Xup[i].T @ pa
    qdd = np.empty(model.nv)
    acc = [None] * nb
    a0 = _gravity_acceleration(model)
    for i in range(nb):  # pass 3: accelerations, root first
        a_p = Xup[i] @ (a0 if parent[i] < 0 else acc[parent[i]]) + c[i]
        qdd_i = D_inv[i] @ (u[i] - U[i].T @ a_p)
        qdd[model.v_slice[i]] = qdd_i
        acc[i] = a_p + S[i] @ qdd_i
    return check.finite_result(qdd, "the acceleration a", "q, v, tau")


def _subtree(model: Model, i: int) -> list[int]:
    out = [i]
    for j in range(i + 1, model.nb):
        if model.parent[j] in out:
            out.append(j)
    return out


def _inverse_D(model: Model, i: int, D: np.ndarray) -> np.ndarray:
    """D_i^-1 (RBDA Table 7.1); a singular D_i (the joint moves a massless subtree) raises."""
    scale = max(float(np.abs(model.inertia).max()), 1e-300)
    check.finite_result(D, "the articulated inertia D", "q, v, tau")
    if D.shape == (1, 1):
        if D[0, 0] > 1e-12 * scale:
            return 1.0 / D
        ok = False
    else:
        ok = np.linalg.eigvalsh(0.5 * (D + D.T))[0] > 1e-12 * scale
        if ok:
            return np.linalg.inv(D)
    names = ", ".join(model.body_names[j] for j in _subtree(model, i))
    raise check.InputError(
        f"model: joint {model.body_joint[i]!r} moves a subtree without inertia along its axis "
        f"(bodies {names}): its articulated inertia D = S^T I^A S is singular and the "
        "forward dynamics is undefined; give those bodies mass (or lock the joint)")


def nonlinear_effects(model: Model, q, v) -> np.ndarray:
    """h(q, v) = C(q, v) v + g(q)  (nv,): RNEA with zero acceleration."""
    q, v = _state(model, q, v)
    return rnea(model, q, v, np.zeros(model.nv))


def gravity_torque(model: Model, q) -> np.ndarray:
    """g(q) (nv,): the joint torques that hold the robot still (RNEA with v = a = 0)."""
    (q,) = _state(model, q)
    return rnea(model, q, np.zeros(model.nv), np.zeros(model.nv))


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
    q, v = _state(model, q, v)
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
    q, v = _state(model, q, v)
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

    (q,) = _state(model, q)
    T = _forward_kinematics(model, q)
    V = 0.0
    for i in range(model.nb):
        m, c, _ = inertia_parts(model.inertia[i])
        V -= m * model.gravity @ (T[i, :3, :3] @ c + T[i, :3, 3])
    return float(check.finite_result(V, "V", "q"))

"""Rigid-body dynamics of kinematic trees: RNEA, CRBA, ABA and the terms of M(q) a + C(q, v) v + g(q) = tau.

The public functions check their inputs once and run the fast engine (:mod:`._engine`: the
recursions one depth of the tree at a time, over batches); the same algorithms written like
Featherstone's *Rigid Body Dynamics Algorithms* (RBDA) tables, one body at a time, are
:mod:`kinematics_lib.dynamics.rbda` (``kl.rbda.rnea``, ...), tested equal to 1e-12. Spatial
vectors are [linear; angular] (see :mod:`kinematics_lib.geometry.spatial`); gravity enters as a
fictitious acceleration of the world, ``a_0 = -[g; 0]``.

Floating-base models (joint type 'free') follow Pinocchio's conventions: q = [p, quat xyzw,
joints], v = [v_base, w_base (base frame), joint rates]; the base "acceleration" is the time
derivative of that body-frame twist (a spatial acceleration).

Every public function takes a batch: q (N, nq), v, a (N, nv) give results with a leading N.
"""

from __future__ import annotations

import numpy as np

from .. import _validate as check
from ..geometry.spatial import crf, crf_bar, crm
from ._engine import _aba, _crba, _rnea
from .joints import _jcalc, _joint_transforms
from .model import Model, state

__all__ = [
    "rnea",
    "crba",
    "mass_matrix_by_rnea",
    "aba",
    "forward_dynamics_crba",
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


def body_transforms(model: Model, q) -> list[np.ndarray]:
    """Xup[i] for every body: the motion transform from the parent's coordinates to body i's.

    q (nq,) -> nb arrays (6, 6); a batch q (N, nq) -> nb arrays (N, 6, 6).
    """
    (q,) = _state(model, q)
    return list(_joint_transforms(model, q))


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
    coordinates; the world is at rest and accelerates at -g. The per-joint terms (jcalc, S v,
    S a) and the body equations of motion are evaluated for all bodies at once; the two
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


def crba(model: Model, q) -> np.ndarray:
    """Joint-space inertia matrix M(q) (nv, nv), symmetric positive definite (CRBA, RBDA Table 6.2).

    Composite inertias IC_i (body i and all its descendants) are accumulated inward (one step
    per depth); then M_ij = S_i^T IC_i ^iX_j S_j for every ancestor j of i, walking from i to
    the root (the O(n^2) part: chapter 5 measures it).
    A batch q (N, nq) gives M (N, nv, nv).
    """
    (q,) = _state(model, q)
    return check.finite_result(_crba(model, q), "M", "q")


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

def forward_dynamics_crba(model: Model, q, v, tau) -> np.ndarray:
    """a = M(q)^-1 (tau - h(q, v)): forward dynamics by "build M then solve" (CRBA + one RNEA +
    a dense solve, O(n^3)); equal to :func:`aba` (O(n)), which chapter 5 compares it with.
    q (nq,), v, tau (nv,) -> a (nv,)."""
    q, v, tau = _state(model, q, v, tau, name_a="tau", batch=False)
    M, h = _crba(model, q), _rnea(model, q, v, np.zeros_like(v))
    return check.finite_result(np.linalg.solve(M, tau - h), "the acceleration a", "q, v, tau")



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
        Sdot_w[i] = crm(vel_w[i]) @ S_w[i]  # d/dt of an axis fixed in body i
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
        h_i = check.finite_result(I @ vi, "the momentum I_i v_i of a body", "q, v")
        B = 0.5 * (crf(vi) @ I - I @ crm(vi) + crf_bar(h_i))
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

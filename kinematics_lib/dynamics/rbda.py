"""The reference recursions, written like Featherstone's tables: RNEA, CRBA, ABA.

``kl.rbda.rnea``, ``kl.rbda.crba`` and ``kl.rbda.aba`` follow *Rigid Body Dynamics Algorithms*
(RBDA) Tables 5.1, 6.2 and 7.1 and spatial_v2's ``ID.m``, ``HandC.m`` and ``FDab.m`` line by
line: bodies are visited in index order, which is a parent order (``model.parent[i] < i``, -1
the fixed world), one loop per pass, every quantity of body i in body i's coordinates:

=========  ===============================================================  ==============
name       meaning                                                          shape
=========  ===============================================================  ==============
Xup[i]     motion transform parent -> body i, ``XJ @ model.X_tree[i]``      (6, 6)
S[i]       motion subspace of joint i (body coordinates)                    (6, nv_i)
vel[i]     spatial velocity of body i [linear m/s; angular rad/s]           (6,)
acc[i]     spatial acceleration of body i [m/s^2; rad/s^2]                  (6,)
f[i]       net force on body i's subtree through joint i [N; N m]           (6,)
IC[i]      composite inertia of body i and its descendants                  (6, 6)
IA[i]      articulated-body inertia;  pA[i]: its bias force [N; N m]        (6, 6), (6,)
=========  ===============================================================  ==============

``v`` and ``a`` are the generalised velocity and acceleration (nv,) of the whole model; a
joint's share is ``v[model.v_slice[i]]``. Gravity is a fictitious acceleration of the world,
``acc_0 = -[g; 0]`` (RBDA section 5.3): every body then feels it through ``Xup``. A floating
base is the root's *free joint* (joint type 'free'): S = 1_6, its velocity the base's spatial
velocity in the base frame, so the same lines serve fixed and floating robots; RNEA's first six
entries are then the wrench the base would need from outside (zero exactly when the motion is
possible without contact). Spatial vectors are [linear; angular]; ``crm(v)`` is v x, ``crf(v)``
is v x* (:mod:`kinematics_lib.geometry.spatial`).

These functions are for reading and for checking: each takes one state, checks it once (the
first line), and is tested equal to the fast engine behind ``kl.rnea``, ``kl.crba`` and
``kl.aba`` (same numbers to 1e-12, ``tests/test_dynamics_reference.py``).
"""

from __future__ import annotations

import numpy as np

from .. import _validate as check
from ..geometry.spatial import crf, crm
from .joints import joint_motion
from .model import Model, check_articulated_inertia, state

__all__ = ["rnea", "crba", "aba"]


def rnea(model: Model, q, v, a, f_ext=None) -> np.ndarray:
    """Inverse dynamics tau = M(q) a + C(q, v) v + g(q) - sum_i J_i^T f_ext_i (RBDA Table 5.1).

    q (nq,), v (nv,), a (nv,) -> tau (nv,) in N m / N. f_ext (nb, 6), optional: the external
    wrench on each body [N; N m], in the body's frame. Per body:
    vel_i = Xup_i vel_p + S_i v_i,  acc_i = Xup_i acc_p + S_i a_i + vel_i x S_i v_i,
    f_i = I_i acc_i + vel_i x* I_i vel_i - f_ext_i;  then leaves first tau_i = S_i^T f_i,
    f_p += Xup_i^T f_i.
    """
    q, v, a = state(model, q, v, a, batch=False)
    f_ext = None if f_ext is None else check.matrix(f_ext, (model.nb, 6), "f_ext")
    nb, parent = model.nb, model.parent
    Xup, S, vel, acc, f = ([None] * nb for _ in range(5))
    acc_0 = np.concatenate([-model.gravity, np.zeros(3)])  # gravity: the world accelerates upwards
    for i in range(nb):
        XJ, S[i] = joint_motion(model.joint_types[i], model.axes[i], q[model.q_slice[i]])
        Xup[i] = XJ @ model.X_tree[i]
        vJ = S[i] @ v[model.v_slice[i]]
        if parent[i] == -1:
            vel[i] = vJ
            acc[i] = Xup[i] @ acc_0 + S[i] @ a[model.v_slice[i]]
        else:
            vel[i] = Xup[i] @ vel[parent[i]] + vJ
            acc[i] = Xup[i] @ acc[parent[i]] + S[i] @ a[model.v_slice[i]] + crm(vel[i]) @ vJ
        f[i] = model.inertia[i] @ acc[i] + crf(vel[i]) @ model.inertia[i] @ vel[i]
        if f_ext is not None:
            f[i] = f[i] - f_ext[i]
    tau = np.zeros(model.nv)
    for i in reversed(range(nb)):
        tau[model.v_slice[i]] = S[i].T @ f[i]
        if parent[i] != -1:
            f[parent[i]] = f[parent[i]] + Xup[i].T @ f[i]
    return check.finite_result(tau, "tau", "q, v, a")


def crba(model: Model, q) -> np.ndarray:
    """Joint-space inertia matrix M(q) (nv, nv), symmetric positive definite (RBDA Table 6.2).

    Composite inertias leaves first, IC_p += Xup_i^T IC_i Xup_i; then for each body i the force
    F = IC_i S_i that moves its subtree at unit joint rate gives M_ii = S_i^T F, and carried
    towards the root (F = Xup_j^T F) it gives M_ij = S_i^T IC_i ^iX_j S_j = F^T S_j for every
    ancestor j. Units: kg, kg m, kg m^2 by joint type.
    """
    (q,) = state(model, q, batch=False)
    nb, parent, vs = model.nb, model.parent, model.v_slice
    Xup, S = [None] * nb, [None] * nb
    for i in range(nb):
        XJ, S[i] = joint_motion(model.joint_types[i], model.axes[i], q[model.q_slice[i]])
        Xup[i] = XJ @ model.X_tree[i]
    IC = [model.inertia[i].copy() for i in range(nb)]
    for i in reversed(range(nb)):
        if parent[i] != -1:
            IC[parent[i]] = IC[parent[i]] + Xup[i].T @ IC[i] @ Xup[i]
    M = np.zeros((model.nv, model.nv))
    for i in range(nb):
        F = IC[i] @ S[i]
        M[vs[i], vs[i]] = S[i].T @ F
        j = i
        while parent[j] != -1:
            F = Xup[j].T @ F
            j = parent[j]
            M[vs[i], vs[j]] = F.T @ S[j]
            M[vs[j], vs[i]] = M[vs[i], vs[j]].T
    return check.finite_result(M, "M", "q")


def aba(model: Model, q, v, tau) -> np.ndarray:
    """Forward dynamics a = M(q)^-1 (tau - C(q, v) v - g(q)) (RBDA Table 7.1), O(nb).

    q (nq,), v (nv,), tau (nv,) -> a (nv,). Pass 1 (root first): vel_i, the velocity product
    c_i = vel_i x S_i v_i, IA_i = I_i, pA_i = vel_i x* I_i vel_i. Pass 2 (leaves first):
    U_i = IA_i S_i, D_i = S_i^T U_i, u_i = tau_i - S_i^T pA_i, and the parent receives
    Ia = IA_i - U_i D_i^-1 U_i^T and pa = pA_i + Ia c_i + U_i D_i^-1 u_i. Pass 3 (root first):
    a_i = D_i^-1 (u_i - U_i^T acc'), acc'= Xup_i acc_p + c_i, acc_i = acc' + S_i a_i.
    A free root joint (S = 1_6) is the same lines with D = IA (the whole robot's articulated inertia).
    A singular D (a massless subtree, or aligned axes) is a ValueError naming the joint, as in kl.aba.
    """
    q, v, tau = state(model, q, v, tau, name_a="tau", batch=False)
    nb, parent, vs = model.nb, model.parent, model.v_slice
    Xup, S, vel, c, IA, pA, U, D, u, acc = ([None] * nb for _ in range(10))
    for i in range(nb):  # pass 1: velocities, velocity products, rigid-body terms
        XJ, S[i] = joint_motion(model.joint_types[i], model.axes[i], q[model.q_slice[i]])
        Xup[i] = XJ @ model.X_tree[i]
        vJ = S[i] @ v[vs[i]]
        vel[i] = vJ if parent[i] == -1 else Xup[i] @ vel[parent[i]] + vJ
        c[i] = crm(vel[i]) @ vJ
        IA[i] = model.inertia[i].copy()
        pA[i] = crf(vel[i]) @ model.inertia[i] @ vel[i]
    for i in reversed(range(nb)):  # pass 2: articulated-body inertias, leaves first
        U[i] = IA[i] @ S[i]
        D[i] = S[i].T @ U[i]
        check_articulated_inertia(model, i, D[i])  # singular: a massless subtree or aligned axes
        u[i] = tau[vs[i]] - S[i].T @ pA[i]
        if parent[i] != -1:
            Ia = IA[i] - U[i] @ np.linalg.solve(D[i], U[i].T)
            pa = pA[i] + Ia @ c[i] + U[i] @ np.linalg.solve(D[i], u[i])
            IA[parent[i]] = IA[parent[i]] + Xup[i].T @ Ia @ Xup[i]
            pA[parent[i]] = pA[parent[i]] + Xup[i].T @ pa
    a = np.zeros(model.nv)
    acc_0 = np.concatenate([-model.gravity, np.zeros(3)])  # gravity: the world accelerates upwards
    for i in range(nb):  # pass 3: accelerations, root first
        acc_p = Xup[i] @ (acc_0 if parent[i] == -1 else acc[parent[i]]) + c[i]
        a[vs[i]] = np.linalg.solve(D[i], u[i] - U[i].T @ acc_p)
        acc[i] = acc_p + S[i] @ a[vs[i]]
    return check.finite_result(a, "the acceleration a", "q, v, tau")

"""Document 000 -- the floating-base tutorial (``000_1cfbf0da5278ec3f.txt``, "第3章：机器人运动学与动力学")
-- its formulas and claims *as written*, errors included.

One function per claim that a chapter checks; each docstring cites the section and says what is
wrong (or, rarely, that the claim holds). The correct counterparts live in the maths layers;
a chapter calls both and compares. Sections below are grouped by the chapter that uses them.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
import sympy as sp

from .. import _validate as check
from .._validate import InputError
from ..arms.kinematics import condition_number
from ..contact.shared import delassus as _delassus, mass_matrix as _mass_matrix, require_independent as _independent
from ..dynamics.frames import forward_kinematics
from ..dynamics.lagrange import LagrangianModel, derive_lagrangian, double_pendulum_lagrangian
from ..dynamics.joints import jcalc
from ..dynamics.shared import revolute_chain as _revolute_chain
from ..geometry.kernels import cross as _cross
from ..geometry.spatial import inertia_parts, motion_transform
from ..geometry.kernels import crf as _crf, crm as _crm
from ._common import fixed_lines, model_arg, nonempty, rows_match, state

__all__ = [
    # chapter 1
    "anymal_frame",
    "floating_base_dims",
    "zmp_cmp_offset",
    "friction_pyramid",
    # chapter 3
    "near_singular",
    "planar_3r_singularities",
    "nullspace_step",
    # chapter 4
    "double_pendulum_source_lagrangian",
    "skew_check",
    # chapter 5
    "rnea",
    "aba",
    "crba",
    "COSTS",
    "rnea_operations",
    "TIMING_CLAIMS_US",
    # chapter 6
    "static_force_sum",
    "momentum_constraints",
    "zmp_stability_exercise_3_2",
    # chapter 7
    "acceleration_constraint",
    "projected_dynamics",
    "impact_velocity",
    "sliding_condition",
    "pyramid_error_claim",
    # chapter 8
    "ANYMAL_PARAMETERS",
    "leg_ik",
    "contact_force_estimate",
]

#: lines of each function here that ``fixed=`` can replace by the correct line (see doc_line_errors)
FIXES = {
    "rnea": ("z", "F", "n"),
    "aba": ("p",),
    "crba": ("max",),
}


# ================================================================ chapter 1: conventions


def anymal_frame() -> np.ndarray:
    """Section 3.5.1, the ANYmal frame sketch: x forward, y to the left, "z ⊗ 垂直向下" (z down).

    Returns the three axes as the columns of a 3x3 matrix, [x, y, z] = [(1, 0, 0), (0, 1, 0),
    (0, 0, -1)]. **Wrong:** forward x left = up, so this frame is left-handed (determinant -1,
    not a rotation); the shipped ANYmal URDF (and Pinocchio) use z up.

    >>> float(np.linalg.det(anymal_frame()))
    -1.0
    """
    return np.column_stack([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, -1.0]])


def floating_base_dims(n_joints) -> tuple[int, int]:
    """Sections 3.2.1 and 3.5.2: (nq, nv) = (6 + n, 6 + n) for a floating base with n joints.

    The document writes q = [p_b; phi_b; q_j] in R^(6+n) with a three-number orientation phi_b
    (Euler angles or axis-angle), says the generalised velocity "has the same dimension as the
    generalised coordinates", and gives ANYmal q in R^18. **Wrong (for a singularity-free
    parametrisation):** every three-number orientation has a singular point; with a unit
    quaternion (the document's own advice, section 3.7 item 2) nq = 7 + n = nv + 1 (ANYmal 19, 18).

    >>> floating_base_dims(12)
    (18, 18)
    """
    n = check.integer(n_joints, "n_joints", 0, 10**6)
    return 6 + n, 6 + n


def zmp_cmp_offset(z_com, mass, pdd_com, g: float = 9.81):
    """Section 3.2.2: p_ZMP - p_CMP = -(z_CoM / (m g)) pdd_CoM^xy, "CMP" = the CoM's ground projection.

    z_com: CoM height (m); mass (kg); pdd_com: horizontal CoM acceleration, a scalar or (2,)
    (m/s^2); g (m/s^2). Returns the offset with the shape of pdd_com, in the units the formula
    gives: m/kg. **Wrong:** z/(m g) pdd has units of m/kg, not m; the linear-inverted-pendulum
    relation is x_ZMP = x_G - (z_G / g) xdd_G (the document's own exercise 3.2 drops the m). And
    the CMP (centroidal moment pivot) is not the CoM projection.

    >>> round(float(zmp_cmp_offset(1.0, 50.0, 2.0)), 6)
    -0.004077
    """
    z = check.scalar(z_com, "z_com")
    m = check.positive(mass, "mass")
    g = check.positive(g, "g")
    a = np.asarray(check._array(pdd_com, "pdd_com"))
    if a.shape not in ((), (2,)):
        raise InputError(f"pdd_com must be a scalar or have shape (2,), got shape {a.shape}")
    a = check._finite(a, "pdd_com")
    offset = -z / (m * g) * a
    return float(offset) if offset.ndim == 0 else offset


def friction_pyramid(mu) -> np.ndarray:
    """Exercise 3.3, reference answer: the four-sided pyramid A f <= 0, f = (f_x, f_y, f_z), (5, 3).

    Rows f_x - mu f_z, -f_x - mu f_z, f_y - mu f_z, -f_y - mu f_z, -f_z. The answer calls it a
    linearisation whose error is largest on the diagonal, "保守度约为 √2/2 ≈ 29%". **Wrong:**
    |f_x|, |f_y| <= mu f_z *contains* the cone |f_t| <= mu f_z (it is not conservative): on the
    diagonal it admits sqrt(2) mu f_z, 41 % more than friction allows. The conservative pyramid
    is the inscribed one, |f_x|, |f_y| <= mu f_z / sqrt(2), which loses 29 % on the axes (and
    sqrt(2)/2 is 0.707, not 0.29).
    """
    m = check.positive(mu, "mu")
    return np.array([[1.0, 0.0, -m], [-1.0, 0.0, -m], [0.0, 1.0, -m], [0.0, -1.0, -m], [0.0, 0.0, -1.0]])


# ================================================================ chapter 3: Jacobians and IK


def near_singular(J, kappa_threshold: float = 1000.0) -> bool:
    """Section 3.4.3: "当 kappa > kappa_threshold（如1000）时，系统接近奇异配置" -- True when kappa(J) > threshold.

    J (m, n): a Jacobian; kappa = sigma_max / sigma_min (:func:`kinematics_lib.condition_number`).
    **A heuristic, not a test:** the threshold is a choice, and for a Jacobian whose rows mix
    metres and radians kappa depends on the length unit, so the same arm in the same pose is
    "near singular" in millimetres and fine in metres.
    """
    J = check.matrix(J, (None, None), "J")
    if J.size == 0:
        raise InputError(f"J must not be empty, got shape {J.shape}")
    return bool(condition_number(J) > check.positive(kappa_threshold, "kappa_threshold"))


def planar_3r_singularities(q, tol: float = 1e-9) -> dict:
    """Exercise 3.7, reference answer: which of its singularity conditions a planar 3R pose meets.

    q (3,): joint angles (rad), q2 and q3 relative. The answer lists (1) boundary singularities,
    "fully stretched: the three links collinear" (q2 = q3 = 0) and "fully folded: links 2 and 3
    folded back" (q3 = pi); (2) an "internal (elbow) singularity" when "the axes of joints 2 and 3
    coincide (links 2 and 3 collinear)" (sin q3 = 0); (3) a "wrist singularity" when "the
    end-effector axis aligns with a joint axis". Returns {'stretched', 'folded', 'elbow', 'wrist'}
    -> bool and 'singular' (any of them). **Wrong:** on a planar arm every joint axis and the
    end-effector axis are parallel to z in every pose, so 'wrist' always holds and the answer
    calls every pose singular; links 2-3 collinear with a bent elbow is regular for the (x, y)
    and the (x, y, phi) task alike (chapter 3: singular iff sin q2 = 0 for the full task, iff the
    whole arm is on one line for the position task).
    """
    q = check.vector(q, 3, "q")
    tol = check.positive(tol, "tol")
    wrapped = np.pi - np.mod(np.pi - q, 2.0 * np.pi)  # (-pi, pi]
    out = {"stretched": bool(abs(wrapped[1]) < tol and abs(wrapped[2]) < tol),
           "folded": bool(abs(abs(wrapped[2]) - np.pi) < tol),
           "elbow": bool(abs(math.sin(q[2])) < tol),
           "wrist": True}  # all axes are z: "the end-effector axis aligns with a joint axis", always
    out["singular"] = any(out.values())
    return out


def nullspace_step(J, dx, z, damping: float = 0.0) -> np.ndarray:
    """Section 3.4.3: dq = J^+ dx + (I - J^+ J) z, with the document's "J^+".

    J (m, n), dx (m,), z (n,) -> dq (n,). The same section lists as its first remedy for
    singularities the damped inverse and names it J^+ too: J^+ = J^T (J J^T + lambda^2 I)^-1.
    damping = lambda: 0 uses the true (Moore-Penrose) pseudo-inverse, > 0 the damped one.
    **Exact only with the true pseudo-inverse:** then J (I - J^+ J) = 0 and z never moves the
    task; with the damped inverse J (I - J^# J) z = lambda^2 (J J^T + lambda^2 I)^-1 J z != 0, so
    the "null-space" motion leaks into the task.
    """
    J = nonempty(check.matrix(J, (None, None), "J"), "J")
    dx = rows_match(dx, J, "dx")
    z = check.vector(z, J.shape[1], "z")
    lam = check.nonnegative(damping, "damping")
    m, n = J.shape
    with np.errstate(all="ignore"):
        if lam == 0.0:
            J_plus = np.linalg.pinv(J) if np.isfinite(J @ J.T).all() else np.full((n, m), np.nan)
        else:
            J_plus = J.T @ np.linalg.solve(J @ J.T + (lam * lam) * np.eye(m), np.eye(m))
        dq = J_plus @ dx + (np.eye(n) - J_plus @ J) @ z
    return check.finite_result(dq, "dq", "J, dx, z, damping")


# ================================================================ chapter 4: Lagrange


@lru_cache(maxsize=None)
def double_pendulum_source_lagrangian() -> LagrangianModel:
    """Exercise 3.8, reference answer: its mass matrix used with *absolute* angles q = [theta1, theta2].

    M_src = [[(m1+m2) l1^2 + m2 l2^2 + 2 m2 l1 l2 cos(theta2-theta1), m2 l2^2 + m2 l1 l2 cos(theta2-theta1)],
             [m2 l2^2 + m2 l1 l2 cos(theta2-theta1), m2 l2^2]]
    The answer's positions, T and V are in absolute angles (and right). **Wrong label:** M_src is
    exactly the *relative*-angle mass matrix, M_src(theta1, theta2) = M_rel(theta1, theta2 - theta1),
    i.e. the matrix of the coordinates (theta1, phi = theta2 - theta1); labelled q = [theta1, theta2]
    beside absolute-angle positions it is not the Hessian of the answer's own T (that is
    [[(m1+m2) l1^2, m2 l1 l2 cos(theta1-theta2)], [., m2 l2^2]]). This model takes
    T_src = 1/2 qd^T M_src qd with q absolute, the correct V, and C from the Christoffel symbols of
    M_src: the Euler-Lagrange system of the mislabelled Lagrangian, conservative in its own right.
    """
    true = double_pendulum_lagrangian("absolute")
    m1, m2, l1, l2 = (next(s for s in true.params if s.name == k) for k in ("m1", "m2", "l1", "l2"))
    (th1, th2), qd = true.q, sp.Matrix(true.v)
    c = sp.cos(th2 - th1)
    M = sp.Matrix([[(m1 + m2) * l1**2 + m2 * l2**2 + 2 * m2 * l1 * l2 * c, m2 * l2**2 + m2 * l1 * l2 * c],
                   [m2 * l2**2 + m2 * l1 * l2 * c, m2 * l2**2]])
    T = sp.expand((qd.T * M * qd)[0, 0] / 2)
    return derive_lagrangian(T, true.V, true.q, true.v)


def skew_check(M_dot, C, tol: float = 1e-10) -> bool:
    """Section 3.7, item 7: ``assert norm(dM/dt - 2*C) < 1e-10  # 应为反对称`` -- the test as written.

    M_dot, C (n, n): dM/dt and the Coriolis matrix at one state. Returns whether
    ||M_dot - 2 C|| < tol. **Wrong test:** a skew-symmetric matrix is not zero, so a perfectly
    correct model fails it (norm 1.837 at document 004's state). Test ||N + N^T|| with
    N = M_dot - 2 C, or ||M_dot - C - C^T|| (document 004's form), instead.
    """
    M_dot = check.matrix(M_dot, (None, None), "M_dot")
    if M_dot.shape[0] != M_dot.shape[1] or M_dot.size == 0:
        raise InputError(f"M_dot must be a non-empty square matrix, got shape {M_dot.shape}")
    C = check.matrix(C, M_dot.shape, "C")
    return bool(np.linalg.norm(M_dot - 2.0 * C) < check.positive(tol, "tol"))


# ================================================================ chapter 5: the recursive algorithms


def rnea(model, q, qd, qdd, fixed=()) -> np.ndarray:
    """Section 3.4.1, RNEA pseudocode -- reproduced as written, errors included.

    World-frame vectors on a revolute chain; doc link k = body k-1, link 0 = the fixed world,
    r[i,i+1] = O_{i+1} - O_i between body origins (each on its own joint axis, so r[i,i+1] is
    fixed in link i), axis[i] the world joint axis, c_i = r_{i,ci}, I[i] about the CoM:
        v[i+1] = v[i] + w[i] x r[i,i+1] + qd[i+1] z[i+1]             (z read as the axis)
        w[i+1] = w[i] + qd[i+1] axis[i+1]
        a[i+1] = a[i] + al[i] x r + w[i] x (w[i] x r) + qdd[i+1] z[i+1]   <- 'z': no such term
        al[i+1] = al[i] + qdd[i+1] axis[i+1] + w[i] x (qd[i+1] axis[i+1])
        F[i] = m[i] (a[i] - g)            <- 'F': a[i] is the origin's, not the CoM's acceleration
        N[i] = I[i] al[i] + w[i] x (I[i] w[i])
        f[i-1] = f[i] + F[i]
        n[i-1] = n[i] + N[i] + r[i-1,i] x f[i]   <- 'n': c_i x F[i] missing, lever r[i,i+1]
        tau[i] = n[i-1] . axis[i]
    fixed: subset of ('z', 'F', 'n'); all three fixed gives the correct torques (kl.rnea).
    """
    fixed = fixed_lines(fixed, FIXES["rnea"])
    q, qd, qdd, *_ = _revolute_chain(model_arg(model), q, qd, qdd, names=("qd", "qdd"))
    T = forward_kinematics(model, q)
    n = model.nb
    O = np.vstack([np.zeros(3), T[:, :3, 3]])  # doc links 0..n (0 = world)
    axis = np.vstack([np.zeros(3), np.einsum("nij,nj->ni", T[:, :3, :3], model.axes)])
    parts = [inertia_parts(Ii) for Ii in model.inertia]
    m = [0.0] + [pt[0] for pt in parts]
    c = np.vstack([np.zeros(3), [T[i, :3, :3] @ parts[i][1] for i in range(n)]])
    I = [np.zeros((3, 3))] + [T[i, :3, :3] @ parts[i][2] @ T[i, :3, :3].T for i in range(n)]
    z = np.zeros_like(axis) if "z" in fixed else axis
    v, w, a, al = (np.zeros((n + 1, 3)) for _ in range(4))
    for i in range(n):  # doc: for i = 0 to n-1 (qd[i+1] of the doc is qd[i] here)
        r = O[i + 1] - O[i]
        v[i + 1] = v[i] + _cross(w[i], r) + qd[i] * z[i + 1]
        w[i + 1] = w[i] + qd[i] * axis[i + 1]
        a[i + 1] = a[i] + _cross(al[i], r) + _cross(w[i], _cross(w[i], r)) + qdd[i] * z[i + 1]
        al[i + 1] = al[i] + qdd[i] * axis[i + 1] + _cross(w[i], qd[i] * axis[i + 1])
    F, N = np.zeros((n + 1, 3)), np.zeros((n + 1, 3))
    for i in range(1, n + 1):
        acc = a[i] + _cross(al[i], c[i]) + _cross(w[i], _cross(w[i], c[i])) if "F" in fixed else a[i]
        F[i] = m[i] * (acc - model.gravity)
        N[i] = I[i] @ al[i] + _cross(w[i], I[i] @ w[i])
    f, nn, tau = np.zeros((n + 1, 3)), np.zeros((n + 1, 3)), np.zeros(n)
    for i in range(n, 0, -1):  # doc: for i = n to 1; f[n] = n[n] = 0
        f[i - 1] = f[i] + F[i]
        if "n" in fixed:
            lever = O[i + 1] - O[i] if i < n else np.zeros(3)
            nn[i - 1] = nn[i] + N[i] + _cross(c[i], F[i]) + _cross(lever, f[i])
        else:
            nn[i - 1] = nn[i] + N[i] + _cross(O[i] - O[i - 1], f[i])
        tau[i - 1] = nn[i - 1] @ axis[i]
    return tau


def aba(model, q, v, tau, fixed=()) -> np.ndarray:
    """Section 3.4.2, ABA steps -- reproduced as written, error included.

    The document lists two passes: inward "compute I^A[i]; bias force p[i] = v[i] x I^A[i] v[i];
    propagate to the parent", then outward accelerations. The velocities v[i] it needs come from
    an outward pass it does not list (ABA has three passes); we run that pass (as kl.aba does).
    'p': the bias force of body i starts from its own rigid-body inertia, p_i = v_i x* I_i v_i,
    and *accumulates* the children's contributions; the document's p[i] = v_i x* I^A_i v_i
    replaces them. Otherwise this is :func:`kinematics_lib.aba` line by line (RBDA Table 7.1).
    """
    fixed = fixed_lines(fixed, FIXES["aba"])
    q, v, tau = state(model_arg(model), q, v, tau, name_a="tau")
    with np.errstate(all="ignore"):
        qdd = _aba_doc000(model, q, v, tau, fixed)
    return check.finite_result(qdd, "qdd", "q, v, tau")


def _aba_doc000(model, q, v, tau, fixed) -> np.ndarray:
    nb, parent = model.nb, model.parent
    Xup, S, vel, c, IA, pA = ([None] * nb for _ in range(6))
    for i in range(nb):  # pass 1 (not in the document): velocities and velocity-product terms
        Xup[i], S[i] = jcalc(model, i, q[model.q_slice[i]])
        vJ = S[i] @ v[model.v_slice[i]]
        vel[i] = vJ if parent[i] < 0 else Xup[i] @ vel[parent[i]] + vJ
        c[i] = _crm(vel[i]) @ vJ
        IA[i] = model.inertia[i].copy()
        pA[i] = _crf(vel[i]) @ (model.inertia[i] @ vel[i])
    U, D_inv, u = [None] * nb, [None] * nb, [None] * nb
    for i in range(nb - 1, -1, -1):  # pass 2: I^A and bias forces, leaves first
        if "p" not in fixed:
            pA[i] = _crf(vel[i]) @ (IA[i] @ vel[i])  # the document's line
        U[i] = IA[i] @ S[i]
        D = S[i].T @ U[i]
        if not np.isfinite(D).all():
            return np.full(model.nv, np.nan)  # overflow: reported by the caller
        if abs(np.linalg.det(D)) < 1e-300:
            raise InputError(f"model: the subtree of body {i} has no inertia about its joint (S^T I^A S = 0)")
        D_inv[i] = np.linalg.inv(D)
        u[i] = tau[model.v_slice[i]] - S[i].T @ pA[i]
        if parent[i] >= 0:
            Ia = IA[i] - U[i] @ D_inv[i] @ U[i].T
            IA[parent[i]] += Xup[i].T @ Ia @ Xup[i]
            pA[parent[i]] += Xup[i].T @ (pA[i] + Ia @ c[i] + U[i] @ D_inv[i] @ u[i])
    qdd, acc = np.empty(model.nv), [None] * nb
    a0 = np.concatenate([-model.gravity, np.zeros(3)])
    for i in range(nb):  # pass 3: accelerations, root first
        a_p = Xup[i] @ (a0 if parent[i] < 0 else acc[parent[i]]) + c[i]
        qdd[model.v_slice[i]] = D_inv[i] @ (u[i] - U[i].T @ a_p)
        acc[i] = a_p + S[i] @ qdd[model.v_slice[i]]
    return qdd


def crba(model, q, fixed=()) -> np.ndarray:
    """Section 3.4.2, CRBA formula M_ij = z_i^T I^C_j z_j -- as written, error included.

    Read with world-frame spatial quantities on a serial chain: z_i = S_i (joint i's motion
    subspace), I^C_j = the composite spatial inertia of bodies j..n. The formula holds for i <= j
    only: joint i then moves all of bodies j..n; as written M is not symmetric (its upper
    triangle is right). 'max' uses I^C_max(i,j), the correct formula.
    """
    fixed = fixed_lines(fixed, FIXES["crba"])
    model = model_arg(model)
    if model.parent != tuple(range(-1, model.nb - 1)) or model.nv != model.nb:
        raise InputError("model must be a serial chain of 1-dof joints (parent[i] = i - 1)")
    (q,) = state(model, q)
    T = forward_kinematics(model, q)
    X = [motion_transform(Ti[:3, :3], Ti[:3, 3]) for Ti in T]  # world -> body i
    S_w = np.array([np.linalg.solve(Xi, model.S[i][:, 0]) for i, Xi in enumerate(X)])
    I_w = np.array([Xi.T @ Ii @ Xi for Xi, Ii in zip(X, model.inertia)])
    IC = np.cumsum(I_w[::-1], axis=0)[::-1]  # IC[j] = sum of I_w[j:]
    n = model.nb
    M = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            M[i, j] = S_w[i] @ IC[max(i, j) if "max" in fixed else j] @ S_w[j]
    return M


#: Exercise 3.4's unit costs (operations per 3-vector operation): multiplications only for the
#: cross product (6) and the 3x3 matrix-vector product (9); an addition costs 3, a dot product 3.
#: Use with :func:`kinematics_lib.ne_flops`. Missing: the 3 additions of a cross product and the
#: 6 of a matrix-vector product (kl.FLOP_COSTS counts them).
COSTS = {"add": 3, "scale": 3, "cross": 6, "matvec": 9, "dot": 3}


def rnea_operations(n_links) -> int:
    """Exercise 3.4, reference answer: RNEA costs "(45 + 27 + 15) x n = 87n" operations.

    **Too small:** the tallies count multiplications only, leave out rotating each link's inertia
    into the world frame, and do not match the pseudocode's own lines (e.g. "2 cross products"
    for a velocity line with one). Counted line by line the link-frame recursion costs 278
    flops per link (:func:`kinematics_lib.ne_flops`), 192 with these unit costs. O(n) stands.

    >>> rnea_operations(6)
    522
    """
    return 87 * check.integer(n_links, "n_links", 0, 10**9)


#: Section 3.5.3: ANYmal timings "on an Intel i7 @ 2.8 GHz" (standard hardware), microseconds,
#: upper bounds: RNEA < 50, ABA < 80, contact Jacobian < 30 per leg, the full dynamics update
#: "including all derivatives" < 300.
TIMING_CLAIMS_US = {"RNEA": 50.0, "ABA": 80.0, "foot Jacobian": 30.0, "full update": 300.0}


# ================================================================ chapter 6: floating-base dynamics
# (the section 3.2.2 ZMP/CMP relation with its spurious m is zmp_cmp_offset, chapter 1 above)


def static_force_sum(mass, g: float = 9.81) -> np.ndarray:
    """Section 3.5.3, static-equilibrium test: "验证力平衡：sum f_i = m g" (the contact forces sum to m g).

    Returns m g with g = (0, 0, -g), the vector of section 3.2.2's own m p_ddot = sum f_i + m g (N).
    **Wrong sign:** that is (0, 0, -m g), the ground pulling the robot down. In static
    equilibrium p_ddot = 0, so sum f_i = -m g = (0, 0, +m g): the ground pushes up by the weight.

    >>> static_force_sum(10.0, 10.0)
    array([   0.,    0., -100.])
    """
    m = check.positive(mass, "mass")
    g = check.positive(g, "g")
    return m * np.array([0.0, 0.0, -g])


def momentum_constraints(n_joints) -> int:
    """Exercise 3.6, reference answer: conserved angular momentum "提供了 n-3 个非完整约束" (n - 3 constraints).

    **Wrong:** L_G = A_L(q) v = L_0 is three scalar equations whatever n (A_L has 3 rows of rank
    3): three non-holonomic constraints (not integrable: a closed joint loop leaves the base turned).
    Linear momentum adds three more, integrable ones (m p_G = m p_G0 + h_lin t, a holonomic
    condition on the CoM). For n = 3 the document's count gives 0.

    >>> momentum_constraints(3)
    0
    """
    return check.integer(n_joints, "n_joints", 0, 10**6) - 3


def zmp_stability_exercise_3_2(h, xdd, width, g: float = 9.8) -> tuple[float, bool]:
    """Exercise 3.2, reference answer: dx = x_ZMP - x_CMP = -(h / g) xdd; stable iff |dx| <= width / 2.

    h = 1.0 m, xdd = 2.0 m/s^2, "支撑多边形宽度 0.2 m" give dx = -0.204 m > 0.1 m: "unstable, the robot
    falls backwards". The number holds (the linear inverted pendulum, no m -- unlike the
    section 3.2.2 formula the exercise hints at, see zmp_cmp_offset). **Imprecise:** the
    bound that matters along the acceleration is the foot's *length* in the walking direction (the
    text says width); "x_CMP" here is the CoM's ground projection, not the centroidal moment
    pivot; and the ZMP cannot leave the polygon -- the foot tips about its rear edge instead.
    Returns (dx in m, the answer's verdict).

    >>> zmp_stability_exercise_3_2(1.0, 2.0, 0.2)
    (-0.2040816326530612, False)
    """
    h = check.positive(h, "h")
    xdd = check.scalar(xdd, "xdd")
    width = check.positive(width, "width")
    g = check.positive(g, "g")
    dx = -h / g * xdd
    return dx, bool(abs(dx) <= width / 2.0)


# ================================================================ chapter 7: constraints and contact


def acceleration_constraint(J, Jdot, v) -> np.ndarray:
    """Section 3.3.1: the acceleration-level constraint as printed, "J_c v + J̇_c v = 0".

    Returns its left-hand side J v + J̇ v (k,). **A typo:** differentiating J v = 0 gives
    J v̇ + J̇ v = 0; as printed the velocity-level term J v (zero on a consistent motion)
    stands where J v̇ belongs, so the "constraint" reduces to J̇ v = 0, which a moving
    mechanism violates and which says nothing about the accelerations. J, Jdot (k, n), v (n,).
    """
    J = check.matrix(J, (None, None), "J")
    if 0 in J.shape:
        raise InputError(f"J must have at least one row and one column, got shape {J.shape}")
    Jdot = check.matrix(Jdot, (None, None), "Jdot")
    if Jdot.shape != J.shape:
        raise InputError(f"Jdot must have shape {J.shape}, the shape of J, got {Jdot.shape}")
    v = check.vector(v, J.shape[1], "v")
    return check.finite_result(J @ v + Jdot @ v, "J v + Jdot v", "J, Jdot, v")


def projected_dynamics(M, h, J, tau) -> np.ndarray:
    """Section 3.3.3, the projection method as printed: P M v̇ = P (S^T τ − C v − g) alone.

    The projector P = I − J^T (J M^-1 J^T)^-1 J M^-1 is right, but it has rank n − k: this
    system has a k-dimensional family of solutions and does not fix v̇. Solved on its own (here
    by least squares, the minimum-norm solution) it returns accelerations that violate the
    constraint J v̇ = −J̇ v; it must be solved together with it
    (:func:`kinematics_lib.projected_dynamics`). M (n, n), h (n,), J (k, n), tau (n,).
    """
    M = _mass_matrix(M)
    n = M.shape[0]
    h, tau = check.vector(h, None, "h"), check.vector(tau, None, "tau")
    for name, x in (("h", h), ("tau", tau)):
        if x.shape != (n,):
            raise InputError(f"{name} must have shape ({n},), the size of M, got shape {x.shape}")
    J = check.matrix(J, (None, n), "J")
    if not 1 <= J.shape[0] <= n:
        raise InputError(f"J must have 1 ... {n} rows (width of M), got shape {J.shape}")
    A = _delassus(M, J)
    _independent(A)
    P = np.eye(n) - J.T @ np.linalg.solve(A, np.linalg.solve(M, J.T).T)
    a = np.linalg.lstsq(P @ M, P @ (tau - h), rcond=None)[0]
    return check.finite_result(a, "a", "M, h, J, tau")


def impact_velocity(v_before, normal=(0.0, 0.0, 1.0)) -> np.ndarray:
    """Section 3.3.2, rigid-contact assumption 2: "碰撞瞬时完成，遵循动量守恒" (impacts are instantaneous
    and conserve momentum).

    Returns the velocity after a ground impact if the body's momentum were conserved: unchanged,
    v+ = v−, i.e. the body goes on into the ground. **Wrong for ground contact:** the ground
    delivers an impulse p_n > 0 along the normal and the body's momentum changes by it; only
    the momentum of body *and* Earth is conserved. A plastic impact (restitution 0) ends with
    zero normal velocity (``kl.contact_step``). v_before (3,) [m/s]; normal (3,) unused here.
    """
    v = check.vector(v_before, None, "v_before")
    if v.size == 0:
        raise InputError("v_before must have at least one entry")
    n = check.vector(normal, None, "normal")
    if n.shape != v.shape:
        raise InputError(f"normal must have shape {v.shape}, the shape of v_before, got {n.shape}")
    return v.copy()


def sliding_condition(f_t, v_t) -> bool:
    """Section 3.3.2: sliding friction as printed, ‖f_t‖ = μ f_n ⇒ ∃ λ ≥ 0, v_t = −λ f_t.

    Returns True when (f_t, v_t) satisfy the printed condition (v_t anti-parallel to f_t, or
    zero). **It holds:** Coulomb friction opposes the sliding velocity (maximal dissipation),
    so the sign is right. f_t, v_t (2,) [N], [m/s].
    """
    f_t, v_t = check.vector(f_t, 2, "f_t"), check.vector(v_t, 2, "v_t")
    if not v_t.any():
        return True
    cross = f_t[0] * v_t[1] - f_t[1] * v_t[0]
    scale = max(float(np.abs(f_t).max() * np.abs(v_t).max()), 1e-300)
    return bool(abs(cross) <= 1e-9 * scale and f_t @ v_t < 0.0)


def pyramid_error_claim() -> tuple[float, str]:
    """Exercise 3.3, reference answer: the four-face linearisation is "保守度约为 √2/2 ≈ 29%", worst "在对角方向".

    Returns the claim as (0.29, "diagonal"). **Wrong in number and direction:** the printed
    matrix (:func:`friction_pyramid`) is the *circumscribed* pyramid; it is not
    conservative and over-admits by √2 − 1 = 41.4 % on the diagonal. The conservative
    (inscribed) pyramid loses 1 − 1/√2 = 29.3 % on the *axes* and is exact on the diagonal
    (:func:`kinematics_lib.pyramid_worst_case_error`); and √2/2 is 0.707, not 0.29.
    """
    return 0.29, "diagonal"


# ================================================================ chapter 8: the ANYmal case study


#: Section 3.5.1, ANYmal's "mechanical parameters" as written: total mass "about 30 kg", body
#: 0.66 m x 0.31 m x 0.45 m, 3 joints per leg (HAA, HFE, KFE), 12 + 6 = 18 degrees of freedom, and
#: (section 3.5.2) the leg order of q = [p_b, phi_b, q_LF, q_RF, q_LH, q_RH] in R^18.
ANYMAL_PARAMETERS = {"mass": 30.0, "body": (0.66, 0.31, 0.45), "joints per leg": ("HAA", "HFE", "KFE"),
                            "dof": 18, "nq": 18, "leg order": ("LF", "RF", "LH", "RH")}


def leg_ik(p_hip, l_hip, l_thigh, l_shank) -> np.ndarray:
    """Section 3.5.2, "单腿逆运动学解析解": [q_HAA, q_HFE, q_KFE] for the foot at p_hip = (x, y, z)
    in the hip frame, as written:

        q_HAA = atan2(y, -z),   l_xz = sqrt(x^2 + (z / cos q_HAA)^2) - l_hip,
        q_KFE = pi - acos((l_thigh^2 + l_shank^2 - l_xz^2) / (2 l_thigh l_shank)),
        q_HFE = atan2(x, -z / cos q_HAA) - asin(l_shank sin q_KFE / l_xz).

    **Holds only for an idealised leg:** no offset between the HAA and HFE axes or along the HFE
    axis, HFE and KFE turning about -y, the knee bent forward (q_KFE >= 0, one branch) and
    l_thigh + l_shank cos q_KFE >= 0 (asin cannot return the angle beyond pi / 2). On ANYmal
    (HFE, KFE about +y) the HFE and KFE signs flip, the lateral hip offset (0.041 + 0.109 - 0.02 m
    along y) is ignored by q_HAA, and "- l_hip" subtracts an offset from a length it is not
    collinear with. The closed form for the real geometry is :func:`kinematics_lib.leg_ik`.
    A target the formula cannot evaluate (|acos argument| > 1, cos q_HAA = 0) raises ValueError.

    >>> np.round(leg_ik([0.1, 0.0, -0.4], 0.0, 0.25, 0.25), 6) + 0.0
    array([ 0.      , -0.356286,  1.202528])
    """
    x, y, z = check.vector(p_hip, 3, "p_hip")
    l_hip = check.nonnegative(l_hip, "l_hip")
    l_thigh, l_shank = check.positive(l_thigh, "l_thigh"), check.positive(l_shank, "l_shank")
    if not all(math.isfinite(v) for v in (x * x + z * z, l_hip * l_hip, l_thigh * l_thigh, l_shank * l_shank)):
        raise InputError("p_hip, l_hip, l_thigh, l_shank must be of a size whose squares are finite (the formula squares them)")
    q_haa = math.atan2(y, -z)
    if abs(math.cos(q_haa)) < 1e-12:
        raise InputError(f"p_hip = {np.round([x, y, z], 6).tolist()} has cos q_HAA = 0: the formula divides by zero")
    l_xz = math.sqrt(x * x + (z / math.cos(q_haa)) * (z / math.cos(q_haa))) - l_hip
    c = (l_thigh * l_thigh + l_shank * l_shank - l_xz * l_xz) / (2 * l_thigh * l_shank)
    if not math.isfinite(c):
        raise InputError("p_hip, l_thigh, l_shank: the acos argument of the formula overflows")
    s = l_shank * math.sin(math.pi - math.acos(max(-1.0, min(1.0, c)))) / l_xz if l_xz > 0 else math.inf
    if abs(c) > 1.0 or abs(s) > 1.0:
        raise InputError(f"p_hip = {np.round([x, y, z], 6).tolist()} is out of reach of the formula for l_hip, l_thigh, "
                         "l_shank (acos/asin argument beyond +-1)")
    q_kfe = math.pi - math.acos(c)
    q_hfe = math.atan2(x, -z / math.cos(q_haa)) - math.asin(s)
    return np.array([q_haa, q_hfe, q_kfe])


def contact_force_estimate(J, tau_measured, tau_model) -> np.ndarray:
    """Section 3.5.4, proprioceptive contact estimation: f_hat = (J^T)^+ (tau_measured - tau_model).

    J (3k, n): the feet's Jacobian columns of the joints; tau (n,) [N m]. **The sign is left
    unsaid:** with M v̇ + h = tau + J^T f (f the ground force on the robot) the formula returns
    -f, the force the feet exert on the ground; :func:`kinematics_lib.contact_force_estimate`
    returns f, the force on the robot.
    """
    J = check.matrix(J, (None, None), "J")
    if J.shape[0] < 1 or J.shape[1] < 1:
        raise InputError(f"J must be a non-empty (3k, n) Jacobian, got shape {J.shape}")
    tm = check.vector(tau_measured, J.shape[1], "tau_measured")
    tp = check.vector(tau_model, J.shape[1], "tau_model")
    return np.linalg.pinv(J.T) @ (tm - tp)

"""Floating-base configuration space (浮动基座) and whole-body centroidal quantities.

A floating-base q = [p (3), quaternion x y z w (4), joints] has nq = nv + 1 coordinates; its
velocity v = [v_b, w_b (body frame), qd_j] has nv. Configurations do not add: ``integrate_configuration``
moves the base along the SE(3) exponential of its body twist (Pinocchio's ``integrate``),
``difference`` is its inverse, and q_dot = E(q) v (``configuration_rate_map``) is the derivative
of ``integrate_configuration`` at dt = 0 (document 000 writes S(q); S is kept for the selection matrix). The three-number alternative, roll-pitch-yaw, has
``rpy_velocity_map`` W with w_b = W(rpy) rpy_dot, which loses rank at pitch = +-90 deg.

Centroidal quantities of the whole robot, world axes, about the centre of mass G:
``com_jacobian`` J_G (3, nv), ``centroidal_inertia`` I_G (6, 6) (Orin & Goswami 2008), and
``centroidal_momentum_matrix_from_jacobians`` (the link-Jacobian route of document 000,
exercise 3.6, beside the recursive ``centroidal_momentum_matrix``).

Every floating-base q is checked: its quaternion must have unit norm (within 1e-6), never
silently renormalised.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from .. import _validate as check
from ..geometry.rotations import quat_to_matrix, so3_log
from ..geometry.kernels import inertia_parts as _inertia_parts, spatial_inertia as _spatial_inertia
from ..geometry.spatial import spatial_inertia
from .algorithms import aba, crba, nonlinear_effects
from .centroidal import _center_of_mass, _com_positions, center_of_mass, centroidal_momentum_matrix
from .frames import _world_poses, forward_kinematics
from .integrators import integrate_adaptive
from .model import Model
from ..geometry.kernels import cross as _cross, skew as _skew

__all__ = [
    "integrate_configuration",
    "difference",
    "configuration_rate_map",
    "rpy_velocity_map",
    "rpy_rate_map",
    "quaternion_integration_error",
    "com_jacobian",
    "centroidal_inertia",
    "centroidal_momentum_matrix_from_jacobians",
    "FreeFloatingRun",
    "simulate_free_floating",
    "zero_momentum_base_path",
]


def configuration(model: Model, q, name: str = "q") -> np.ndarray:
    """q checked: shape (nq,), finite, and the quaternion of every free joint of unit norm."""
    q = check.vector(q, model.nq, name)
    for i in model._plan.free:
        k = model.q_slice[i].start + 3
        check.unit_quaternion(q[k:k + 4], f"{name}[{k}:{k + 4}] (the quaternion of {model.body_joint[i]!r})")
    return q


def _qmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Hamilton product a (x) b of quaternions (x, y, z, w), unchecked."""
    v = a[3] * b[:3] + b[3] * a[:3] + _cross(a[:3], b[:3])
    return np.array([*v, a[3] * b[3] - a[:3] @ b[:3]])


def _quat_exp(w: np.ndarray) -> np.ndarray:
    """Unit quaternion of the rotation vector w (rad): [sin(|w|/2) w/|w|, cos(|w|/2)]."""
    th = math.sqrt(float(w @ w))
    if th < 1e-8:
        return np.array([*(0.5 * w), 1.0 - th * th / 8.0])
    return np.array([*(math.sin(0.5 * th) / th * w), math.cos(0.5 * th)])


def _V(w: np.ndarray) -> np.ndarray:
    """SE(3) left Jacobian V(w) = I + (1 - cos t)/t^2 [w]x + (t - sin t)/t^3 [w]x^2, t = |w|."""
    th2 = float(w @ w)
    K = _skew(w)
    if th2 < 1e-12:
        b, c = 0.5 - th2 / 24.0, 1.0 / 6.0 - th2 / 120.0
    else:
        th = math.sqrt(th2)
        b, c = (1.0 - math.cos(th)) / th2, (th - math.sin(th)) / (th2 * th)
    return np.eye(3) + b * K + c * (K @ K)


def _V_inv(w: np.ndarray) -> np.ndarray:
    """V(w)^-1 = I - [w]x / 2 + (1/t^2 - cot(t/2) / (2 t)) [w]x^2 (finite up to t = pi)."""
    th2 = float(w @ w)
    K = _skew(w)
    if th2 < 1e-8:
        c = 1.0 / 12.0 + th2 / 720.0
    else:
        th = math.sqrt(th2)
        c = 1.0 / th2 - 0.5 / (th * math.tan(0.5 * th))
    return np.eye(3) - 0.5 * K + c * (K @ K)


def _free_integrate(q7: np.ndarray, xi: np.ndarray) -> np.ndarray:
    """[p; quat] moved by the body twist xi = [v dt; w dt]: T_new = T exp(xi) (Pinocchio's sign rule)."""
    p, quat = q7[:3], q7[3:]
    p_new = p + quat_to_matrix(quat) @ (_V(xi[3:]) @ xi[:3])
    quat_new = _qmul(quat, _quat_exp(xi[3:]))
    quat_new /= math.sqrt(float(quat_new @ quat_new))
    if quat_new @ quat < 0.0:  # the same rotation, the sign continuous with q (as Pinocchio)
        quat_new = -quat_new
    return np.concatenate([p_new, quat_new])


def integrate_configuration(model: Model, q, v, dt: float = 1.0) -> np.ndarray:
    """q (+) v dt (nq,): the configuration reached from q at constant generalised velocity v after dt.

    Joints: q_j + v_j dt. Free joint (body-frame twist [v_b; w_b]): T_WB(dt) = T_WB exp([v_b; w_b] dt),
    i.e. p + R V(w dt) v_b dt and quat (x) exp(w dt / 2); the quaternion stays unit (Pinocchio's
    ``integrate``). q: (nq,) with unit quaternions, v: (nv,), dt in s.
    """
    check.model(model)
    q = configuration(model, q)
    v = check.vector(v, model.nv, "v")
    dt = check.scalar(dt, "dt")
    d = model._plan
    one = np.ones(model.nb, dtype=bool)  # the 1-dof joints (level order), all at once
    one[list(d.free_lv)] = False
    qi, vi = d.q1_lv[one], d.v1_lv[one]
    out = q.copy()
    out[qi] = q[qi] + v[vi] * dt
    for i in d.free:
        qs, vs = model.q_slice[i], model.v_slice[i]
        with np.errstate(all="ignore"):
            xi = v[vs] * dt
            if not math.isfinite(float(xi @ xi)):
                raise check.InputError("v, dt too large: the base twist v dt overflowed (not finite)")
            out[qs] = _free_integrate(q[qs], xi)
    return check.finite_result(out, "the configuration", "v, dt")


#: the name before chapter 6 (kept working): the same function


def difference(model: Model, q0, q1) -> np.ndarray:
    """v (nv,) with ``integrate_configuration(model, q0, v) == q1``: q1 (-) q0.

    Joints: q1 - q0. Free joint: [v_b; w_b] = log6(T0^-1 T1) (body frame of q0), with
    w_b = log3(R0^T R1) and v_b = V(w_b)^-1 R0^T (p1 - p0). The rotation part has |w_b| <= pi.
    """
    check.model(model)
    q0, q1 = configuration(model, q0, "q0"), configuration(model, q1, "q1")
    v = np.empty(model.nv)
    for i, kind in enumerate(model.joint_types):
        qs, vs = model.q_slice[i], model.v_slice[i]
        if kind != "free":
            v[vs] = q1[qs] - q0[qs]
            continue
        R0, R1 = quat_to_matrix(q0[qs][3:]), quat_to_matrix(q1[qs][3:])
        w = so3_log(R0.T @ R1)
        v[vs] = np.concatenate([_V_inv(w) @ (R0.T @ (q1[qs][:3] - q0[qs][:3])), w])
    return check.finite_result(v, "the difference", "q0 and q1")


def _quat_rate(quat: np.ndarray) -> np.ndarray:
    """Q (4, 3) with quat_dot = Q w_b = 1/2 quat (x) (w_b, 0), quaternion (x, y, z, w)."""
    x, y, z, w = quat
    return 0.5 * np.array([[w, -z, y], [z, w, -x], [-y, x, w], [-x, -y, -z]])


def configuration_rate_map(model: Model, q) -> np.ndarray:
    """E(q) (nq, nv) with q_dot = E(q) v (document 000, section 3.2.1, writes it S(q)).

    Joints: identity. Free joint: p_dot = R v_b and quat_dot = 1/2 quat (x) (w_b, 0), so its block
    is diag(R (3x3), Q(quat) (4x3)) -- 7 rows, 6 columns: nq = nv + 1 per free joint.
    """
    check.model(model)
    q = configuration(model, q)
    S = np.zeros((model.nq, model.nv))
    for i, kind in enumerate(model.joint_types):
        qs, vs = model.q_slice[i], model.v_slice[i]
        if kind == "free":
            S[qs.start:qs.start + 3, vs.start:vs.start + 3] = quat_to_matrix(q[qs][3:])
            S[qs.start + 3:qs.stop, vs.start + 3:vs.stop] = _quat_rate(q[qs][3:])
        else:
            S[qs, vs] = np.eye(qs.stop - qs.start)
    return S


def _rpy(rpy) -> np.ndarray:
    return check.vector(rpy, 3, "rpy")


def rpy_velocity_map(rpy) -> np.ndarray:
    """W (3, 3) with w_b = W(rpy) rpy_dot: body angular velocity from roll-pitch-yaw rates.

    R = Rz(yaw) Ry(pitch) Rx(roll) (URDF) gives W = [[1, 0, -sin p], [0, cos r, sin r cos p],
    [0, -sin r, cos r cos p]]; det W = cos(pitch): at pitch = +-90 deg W is singular (gimbal lock),
    and the attitude block of the Euler-angle E(q) = W^-1 does not exist.
    """
    r, p, _ = _rpy(rpy)
    sr, cr, sp, cp = math.sin(r), math.cos(r), math.sin(p), math.cos(p)
    return np.array([[1.0, 0.0, -sp], [0.0, cr, sr * cp], [0.0, -sr, cr * cp]])


def rpy_rate_map(rpy, tol: float = 1e-9) -> np.ndarray:
    """W^-1 (3, 3) with rpy_dot = W^-1 w_b: the attitude block of E(q) for roll-pitch-yaw.

    Raises ValueError when |cos(pitch)| < tol: there the Euler rates are undefined (gimbal lock).
    """
    r, p, _ = _rpy(rpy)
    tol = check.positive(tol, "tol")
    cp = math.cos(p)
    if abs(cp) < tol:
        raise check.InputError(f"rpy: pitch = {p:.6g} rad is at the Euler-angle singularity (|cos pitch| = "
                               f"{abs(cp):.2e} < tol = {tol:g}); use a quaternion")
    sr, cr, tp = math.sin(r), math.cos(r), math.tan(p)
    return np.array([[1.0, sr * tp, cr * tp], [0.0, cr, -sr], [0.0, sr / cp, cr / cp]])


def quaternion_integration_error(omega, dt: float, steps: int, method: str = "exponential"):
    """(norm, angle_error), each (steps + 1,): integrating quat_dot = 1/2 quat (x) (omega, 0) from identity.

    omega (3,) constant body angular velocity (rad/s), dt (s). ``method``: "naive" (quat += quat_dot dt),
    "renormalised" (the same, then quat /= |quat|), "exponential" (quat (x) exp(omega dt / 2), on
    the manifold). norm = |quat_k|; angle_error = rotation angle between the normalised quat_k and
    the exact exp(omega k dt) (rad). Document 000, section 3.7, pitfall 3 (integration drift).
    """
    omega = check.vector(omega, 3, "omega")
    dt = check.positive(dt, "dt")
    n = check.integer(steps, "steps", 0, 10_000_000)
    method = check.one_of(method, ("naive", "renormalised", "exponential"), "method")
    if not float(np.linalg.norm(omega)) * dt * max(n, 1) <= 1e12:
        raise check.InputError("omega, dt too large: the total rotation |omega| dt steps exceeds 1e12 rad")
    with np.errstate(all="ignore"):
        quat, step = np.array([0.0, 0.0, 0.0, 1.0]), _quat_exp(omega * dt)
        norm, err = np.empty(n + 1), np.empty(n + 1)
        for k in range(n + 1):
            norm[k] = math.sqrt(float(quat @ quat))
            exact = _quat_exp(omega * (k * dt))
            rel = _qmul(exact * np.array([-1.0, -1.0, -1.0, 1.0]), quat)  # exact^-1 (x) quat
            err[k] = 2.0 * math.atan2(math.sqrt(float(rel[:3] @ rel[:3])), abs(float(rel[3])))
            if method == "exponential":
                quat = _qmul(quat, step)
            else:
                quat = quat + dt * (_quat_rate(quat) @ omega)
                if method == "renormalised":
                    quat = quat / math.sqrt(float(quat @ quat))
    return check.finite_result((norm, err), "the quaternion", "omega, dt and steps")


def com_jacobian(model: Model, q) -> np.ndarray:
    """J_G (3, nv): p_G_dot = J_G(q) v, world axes (m per unit of v) -- the linear rows of A_G over m."""
    check.model(model)
    q = configuration(model, q)
    return check.finite_result(centroidal_momentum_matrix(model, q)[:3] / model.total_mass, "J_G", "q")


def centroidal_inertia(model: Model, q) -> np.ndarray:
    """I_G (6, 6): the composite (locked) spatial inertia of the whole robot at its CoM, world axes.

    I_G = sum_i I_i expressed at G with world axes = [[m 1, 0], [0, sum_i (R_i I_ci R_i^T + m_i
    [c_i - p_G]x^T [c_i - p_G]x)]] (Orin & Goswami 2008); I_G^-1 h_G is the robot's average
    spatial velocity. [linear; angular] order; kg and kg m^2.
    """
    check.model(model)
    q = configuration(model, q)
    T = _world_poses(model, q)
    p_G = _center_of_mass(model, _com_positions(model, T))
    return check.finite_result(_centroidal_inertia(model, T, p_G), "I_G", "q")


def _centroidal_inertia(model: Model, T: np.ndarray, p_G: np.ndarray) -> np.ndarray:
    """I_G (6, 6) from the body poses T (nb, 4, 4) and the CoM p_G (3,), all bodies at once:
    each body's (m_i, c_i, I_ci) carried to G with world axes (:func:`spatial_inertia` of
    d_i = R_i c_i + p_i - p_G and R_i I_ci R_i^T), summed."""
    m, c, I_c = _inertia_parts(np.asarray(model.inertia))  # (nb,), (nb, 3), (nb, 3, 3)
    R = T[:, :3, :3]
    d = (R @ c[:, :, None])[:, :, 0] + T[:, :3, 3] - p_G
    return _spatial_inertia(m, d, R @ I_c @ np.swapaxes(R, 1, 2)).sum(axis=0)


def centroidal_momentum_matrix_from_jacobians(model: Model, q) -> np.ndarray:
    """A_G (6, nv) summed link by link (document 000, exercise 3.6), the route a student writes.

    For each link i with CoM c_i, world inertia I_i^W = R_i I_ci R_i^T and world Jacobian rows
    J_w,i (angular) and J_v,ci = J_v,i - [c_i - o_i]x J_w,i (velocity of the CoM):
    linear rows  sum_i m_i J_v,ci;  angular rows  sum_i I_i^W J_w,i + m_i [c_i - p_G]x J_v,ci.
    Equal to :func:`centroidal_momentum_matrix` (the recursive O(n) route).
    """
    check.model(model)
    q = configuration(model, q)
    T = forward_kinematics(model, q)
    p_G = center_of_mass(model, q)
    A = np.zeros((6, model.nv))
    for i in range(model.nb):
        m, c, I_c = _inertia_parts(model.inertia[i])
        R, o = T[i, :3, :3], T[i, :3, 3]
        J = _body_jacobian(model, T, i)
        c_w = R @ c + o
        J_vc = J[:3] - _skew(c_w - o) @ J[3:]
        A[:3] += m * J_vc
        A[3:] += R @ I_c @ R.T @ J[3:] + m * _skew(c_w - p_G) @ J_vc
    return check.finite_result(A, "A_G", "q")


def _body_jacobian(model: Model, T: np.ndarray, i: int) -> np.ndarray:
    """J (6, nv): [velocity of the origin of body i; angular velocity], world axes."""
    J = np.zeros((6, model.nv))
    o = T[i, :3, 3]
    j = i
    while j >= 0:
        R, p = T[j, :3, :3], T[j, :3, 3]
        S = model.S[j]  # body-j coordinates, [linear; angular] at the origin of j
        w = R @ S[3:]
        J[:3, model.v_slice[j]] = R @ S[:3] + np.cross(w.T, (o - p)).T
        J[3:, model.v_slice[j]] = w
        j = model.parent[j]
    return J


# ---------------------------------------------------------------- free-floating simulation


@dataclass(frozen=True)
class FreeFloatingRun:
    """A free-floating simulation: samples t (N,), q (N, nq) (unit quaternions), v (N, nv),
    h (N, 6) centroidal momentum [linear; angular about the CoM] in world axes, and drift (2,):
    max_t |h(t) - h(0)| of the linear and the angular part, each relative to the largest of |h(0)|
    and the momentum the joints carry, max_t |A_G,j(q) v_j| (1 when both are zero)."""

    t: np.ndarray
    q: np.ndarray
    v: np.ndarray
    h: np.ndarray
    drift: np.ndarray


def _rate(model: Model, q: np.ndarray, v: np.ndarray) -> np.ndarray:
    """E(q) v without the checks (the quaternion of an ODE state drifts off unit by ~rtol)."""
    qd = np.empty(model.nq)
    for i, kind in enumerate(model.joint_types):
        qs, vs = model.q_slice[i], model.v_slice[i]
        if kind == "free":
            quat = q[qs][3:] / math.sqrt(float(q[qs][3:] @ q[qs][3:]))
            qd[qs] = np.concatenate([quat_to_matrix(quat) @ v[vs][:3], _quat_rate(quat) @ v[vs][3:]])
        else:
            qd[qs] = v[vs]
    return qd


def simulate_free_floating(model: Model, q0, v0, t_final: float, dt: float, torque: Callable | None = None,
                           rtol: float = 1e-11, atol: float = 1e-12) -> FreeFloatingRun:
    """Integrate M v_dot + h = [0_6; tau_j(t, q, v)] (no contacts) with scipy's adaptive RK45.

    State x = [q, v]: q_dot = E(q) v, v_dot = ABA(q, v, [0; tau_j]) -- the base is unactuated.
    ``torque(t, q, v)`` returns the joint torques (nv - 6,) (None: zero). Samples every dt s up
    to t_final; quaternions renormalised in the samples only. Without gravity the centroidal
    momentum is conserved whatever the torques (document 000, section 3.5.3); ``drift`` measures it.
    """
    check.model(model)
    if not model.floating_base or model.joint_types[0] != "free":
        raise check.InputError(f"model must have a floating base (a free root joint), got {model!r}")
    q0 = configuration(model, q0, "q0")
    v0 = check.vector(v0, model.nv, "v0")
    n_j = model.nv - 6
    if torque is not None:
        check.function(torque, "torque")

    def f(t, x):
        q, v = x[:model.nq].copy(), x[model.nq:]
        q[3:7] /= math.sqrt(float(q[3:7] @ q[3:7]))  # an ODE stage drifts off unit by ~rtol
        tau = np.zeros(model.nv)
        if torque is not None:
            tau[6:] = check.vector(torque(t, q, v), n_j, "torque(t, q, v)")
        return np.concatenate([_rate(model, q, v), aba(model, q, v, tau)])

    try:
        with np.errstate(all="ignore"):
            t, X = integrate_adaptive(f, np.concatenate([q0, v0]), t_final, dt, rtol=rtol, atol=atol,
                                      method="DOP853")
    except check.InputError as err:
        raise check.InputError(f"simulate_free_floating (q0, v0, torque, t_final, dt): {err}") from None
    Q, V = X[:, :model.nq].copy(), X[:, model.nq:]
    Q[:, 3:7] /= np.linalg.norm(Q[:, 3:7], axis=1, keepdims=True)
    A = [centroidal_momentum_matrix(model, q) for q in Q]
    h = np.array([A_k @ v for A_k, v in zip(A, V)])
    joints = np.array([A_k[:, 6:] @ v[6:] for A_k, v in zip(A, V)]) if n_j else np.zeros_like(h)
    drift = np.empty(2)
    for k, part in enumerate((slice(0, 3), slice(3, 6))):
        scale = max(float(np.linalg.norm(h[0, part])), float(np.linalg.norm(joints[:, part], axis=1).max()))
        drift[k] = float(np.linalg.norm(h[:, part] - h[0, part], axis=1).max()) / (scale if scale > 0 else 1.0)
    return FreeFloatingRun(t, Q, V, h, drift)


def zero_momentum_base_path(model: Model, q0, qj, vj, dt: float) -> np.ndarray:
    """q (N, nq): the base motion that keeps the momentum zero while the joints follow qj (N, n_j).

    The first six rows of M v are the whole robot's momentum in base coordinates, so h = 0 means
    M_bb v_b + M_bj qd_j = 0: v_b = -M_bb^-1 M_bj(q_j) qd_j, a velocity constraint that does not
    integrate to a constraint on q (non-holonomic). Integrated with the trapezoidal rule on the
    base (``integrate_configuration``); the joints take qj exactly, and the base position is then set so that
    the CoM stays where it started (zero linear momentum *does* integrate: p_G = const). q0 gives the start base pose (its joints
    are replaced by qj[0]); vj (N, n_j) the joint rates (rad/s); dt the sample spacing (s).
    Whatever joint torques produce this joint motion from rest, without gravity or contacts,
    the base follows this path (:func:`simulate_free_floating` checks it).
    """
    check.model(model)
    if not model.floating_base or model.joint_types[0] != "free":
        raise check.InputError(f"model must have a floating base (a free root joint), got {model!r}")
    q = configuration(model, q0, "q0").copy()
    n_j = model.nv - 6
    qj = check.matrix(qj, (None, n_j), "qj")
    vj = check.matrix(vj, (None, n_j), "vj")
    if vj.shape[0] != qj.shape[0]:
        raise check.InputError(f"vj must have {qj.shape[0]} rows, one per row of qj, got shape {vj.shape}")
    if not 1 <= qj.shape[0] <= 100_000:
        raise check.InputError(f"qj must have 1 to 100000 rows, got {qj.shape[0]}")
    dt = check.positive(dt, "dt")
    out = np.empty((qj.shape[0], model.nq))
    v_prev = None
    for k in range(qj.shape[0]):
        q[7:] = qj[k]
        with np.errstate(all="ignore"):
            try:
                M = crba(model, q)
            except check.InputError as err:
                raise check.InputError(f"qj too large (row {k}): {err}") from None
            v = np.concatenate([-np.linalg.solve(M[:6, :6], M[:6, 6:] @ vj[k]), vj[k]])
        if not (np.isfinite(v).all() and float(np.abs(v).max()) * dt < 1e150):
            raise check.InputError(f"qj, vj, dt too large: the base velocity (times dt) at sample {k} overflowed")
        if v_prev is not None:
            step = 0.5 * (v_prev + v) * dt
            step[6:] = 0.0
            q = integrate_configuration(model, q, step)
            q[7:] = qj[k]
            q[:3] += p_G0 - center_of_mass(model, q)  # the integrable part: the CoM does not move
        else:
            p_G0 = center_of_mass(model, q)
        out[k], v_prev = q, v
    return check.finite_result(out, "the base path", "qj, vj and dt")

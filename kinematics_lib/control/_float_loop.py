"""The sampled loop of :func:`~kinematics_lib.simulate_sampled` on Python floats, for slider callbacks.

A chapter-10 slider simulates 1 000 - 2 000 control periods of a one- or two-joint plant per
move. ``simulate_sampled`` with the library's controllers spends ~40 µs per period in numpy
calls on 2-vectors (validation, dispatch, allocation) for well under 1 µs of arithmetic; the
same loop on Python floats takes 2 - 5 µs. This module is that loop and the float forms of the
chapter's plants and laws -- the same equations, the same order of operations -- and nothing
else: it validates nothing (its callers pass checked, finite numbers) and is private to the
views. ``tests/test_views_control.py`` checks every float law and plant against its checked
library counterpart (``simulate_sampled`` with ``pid_controller``, ``computed_torque_controller``,
``impedance_controller``, ``admittance_controller``, ``simulate_wall_contact``) to 1e-9.

States and torques are tuples of floats; a law is ``law(t, q, v) -> tau``, a plant ``fd(q, v, tau)
-> q̈``, an external torque ``ext(q, v) -> tau_ext``.
"""

from __future__ import annotations

import math
from collections import deque

import numpy as np

from .plants import TwoLinkArm
from .simulation import BOUND, SimulationResult, _sampled_result

__all__: list[str] = []


def simulate(fd, law, q0, v0, t_final: float, dt: float, *, delay_steps: int = 0, tau_limit=None, ext=None,
             substeps: int = 1) -> SimulationResult:
    """``simulate_sampled`` (ZOH, a delay of whole samples, saturation, semi-implicit Euler with
    ``substeps`` per sample, the divergence bound) on the grid t_k = k dt up to t_final."""
    steps = max(1, math.ceil(t_final / dt - 1e-9))
    q, v = tuple(float(x) for x in q0), tuple(float(x) for x in v0)
    n, h, d = len(q), dt / substeps, int(delay_steps)
    zero = (0.0,) * n
    ext = ext or (lambda q_, v_: zero)
    Q, V, TAU, EXT = [], [], [], []
    queue, status, last = deque(), "ok", steps
    for k in range(steps + 1):
        Q.append(q)
        V.append(v)
        queue.append(law(k * dt, q, v))
        if k == 0:
            queue.extendleft([queue[0]] * d)
        tau = queue.popleft()
        if tau_limit is not None:
            tau = tuple(min(max(x, -tau_limit), tau_limit) for x in tau)
        TAU.append(tau)
        EXT.append(ext(q, v))
        if k == steps:
            break
        for _ in range(substeps):  # semi-implicit Euler: the new velocity moves q
            e = ext(q, v)
            a = fd(q, v, tuple(x + y for x, y in zip(tau, e)))
            v = tuple(x + h * y for x, y in zip(v, a))
            q = tuple(x + h * y for x, y in zip(q, v))
            if not max(max(map(abs, q)), max(map(abs, v))) < BOUND:  # also catches NaN
                status, last = "diverged", k
                break
        if status != "ok":
            break
    return _sampled_result(dt, last, status, [np.array(x, dtype=float).reshape(-1, n) for x in (Q, V, TAU, EXT)])


def inertia_fd(J: float):
    """J q̈ = tau on one joint (``JointInertia((J,))`` without friction)."""
    return lambda q, v, tau: (tau[0] / J,)


def arm_fd(arm: TwoLinkArm):
    """q̈ = M⁻¹ (tau − h) of the two-link arm without friction (``TwoLinkArm._fd``)."""
    def fd(q, v, tau):
        m11, m12, m22 = arm._M(q)
        h1, h2 = arm._h(q, v)
        r0, r1 = tau[0] - h1, tau[1] - h2
        det = m11 * m22 - m12 * m12
        return ((m22 * r0 - m12 * r1) / det, (m11 * r1 - m12 * r0) / det)
    return fd


def arm_gravity(arm: TwoLinkArm):
    """g(q) of the arm as a float pair."""
    return lambda q: arm._h(q, (0.0, 0.0))


def pid_law(kp, ki, kd, i_limit, dt: float, reference, gravity=None):
    """``pid_controller(PID(kp, ki, kd, i_limit), reference, dt, gravity)`` per joint on floats:
    I ← clamp(I + ki e dt, ±i_limit), tau = kp e + I + kd (v_d − v) + g(q). Gains are tuples (one per
    joint); reference(t) -> (q_d, v_d)."""
    n = len(kp)
    state = [(0.0,) * n]

    def law(t, q, v):
        q_d, v_d = reference(t)
        e = tuple(a - b for a, b in zip(q_d, q))
        i = tuple(min(max(ip + k * ej * dt, -lim), lim) for ip, k, ej, lim in zip(state[0], ki, e, i_limit))
        state[0] = i
        ff = gravity(q) if gravity is not None else (0.0,) * n
        return tuple(p * ej + ij + dd * (vd - vj) + f
                     for p, ej, ij, dd, vd, vj, f in zip(kp, e, i, kd, v_d, v, ff))
    return law


def constant(q_d):
    q_d = tuple(float(x) for x in q_d)
    zero = (0.0,) * len(q_d)
    return lambda t: (q_d, zero)


def sine(offset, amplitude, omega):
    """q_d = offset + A sin(w t), v_d = A w cos(w t), a_d = −A w² sin(w t) (``sine_reference``)."""
    q0, A, w = (tuple(float(x) for x in a) for a in (offset, amplitude, omega))

    def reference(t):
        s = [math.sin(wi * t) for wi in w]
        c = [math.cos(wi * t) for wi in w]
        return (tuple(o + a * si for o, a, si in zip(q0, A, s)), tuple(a * wi * ci for a, wi, ci in zip(A, w, c)),
                tuple(-a * wi * wi * si for a, wi, si in zip(A, w, s)))
    return reference


def computed_torque_law(model: TwoLinkArm, reference, Kp: float, Kd: float):
    """``computed_torque_controller(model, reference, Kp, Kd)``: tau = M(q) a + h(q, v) with
    a = a_d + Kd (v_d − v) + Kp (q_d − q), the model's M and h."""
    def law(t, q, v):
        q_d, v_d, a_d = reference(t)
        a0 = a_d[0] + Kd * (v_d[0] - v[0]) + Kp * (q_d[0] - q[0])
        a1 = a_d[1] + Kd * (v_d[1] - v[1]) + Kp * (q_d[1] - q[1])
        m11, m12, m22 = model._M(q)
        h1, h2 = model._h(q, v)
        return (m11 * a0 + m12 * a1 + h1, m12 * a0 + m22 * a1 + h2)
    return law


def _tip_jacobian(arm: TwoLinkArm, q):
    s1, c1, s12, c12 = math.sin(q[0]), math.cos(q[0]), math.sin(q[0] + q[1]), math.cos(q[0] + q[1])
    x = (arm.l1 * c1 + arm.l2 * c12, arm.l1 * s1 + arm.l2 * s12)
    J = ((-arm.l1 * s1 - arm.l2 * s12, -arm.l2 * s12), (arm.l1 * c1 + arm.l2 * c12, arm.l2 * c12))
    return x, J


def _wall_fx(wall, x0: float, xd0: float) -> float:
    delta = x0 - wall.position
    return 0.0 if delta <= 0.0 else -max(0.0, wall.stiffness * delta + wall.damping * xd0)


def wall_torque(arm: TwoLinkArm, wall):
    """Jᵀ F_wall(tip, J q̇): the wall's force on the tip as joint torques (``simulate_wall_contact``)."""
    def ext(q, v):
        x, J = _tip_jacobian(arm, q)
        fx = _wall_fx(wall, x[0], J[0][0] * v[0] + J[0][1] * v[1])
        return (J[0][0] * fx, J[0][1] * fx)
    return ext


def impedance_law(arm: TwoLinkArm, x_d, K: float, D: float):
    """``impedance_controller(arm, x_d, K, D)``: tau = Jᵀ (K (x_d − x) − D J q̇) + g(q)."""
    g = arm_gravity(arm)

    def law(t, q, v):
        x, J = _tip_jacobian(arm, q)
        F = [K * (x_d[i] - x[i]) - D * (J[i][0] * v[0] + J[i][1] * v[1]) for i in (0, 1)]
        g1, g2 = g(q)
        return (J[0][0] * F[0] + J[1][0] * F[1] + g1, J[0][1] * F[0] + J[1][1] * F[1] + g2)
    return law


def admittance_law(arm: TwoLinkArm, wall, x_d, M: float, D: float, K: float, dt: float, Kp: float = 2.0e4,
                   Kd: float = 300.0):
    """``admittance_controller(arm, x_d, M, D, K, dt, wall.sensor(arm))``: the measured force drives
    M ẍ_c + D ẋ_c + K x_c = F (semi-implicit Euler per call), then
    tau = Jᵀ (Kp (x_d + x_c − x) + Kd (ẋ_c − J q̇)) + g(q)."""
    g = arm_gravity(arm)
    state = [(0.0, 0.0), (0.0, 0.0)]

    def law(t, q, v):
        x, J = _tip_jacobian(arm, q)
        xdot = (J[0][0] * v[0] + J[0][1] * v[1], J[1][0] * v[0] + J[1][1] * v[1])
        F = (_wall_fx(wall, x[0], xdot[0]), 0.0)
        xc, vc = state
        vc = tuple(vc[i] + dt * (F[i] - D * vc[i] - K * xc[i]) / M for i in (0, 1))
        xc = tuple(xc[i] + dt * vc[i] for i in (0, 1))
        state[0], state[1] = xc, vc
        P = [Kp * (x_d[i] + xc[i] - x[i]) + Kd * (vc[i] - xdot[i]) for i in (0, 1)]
        g1, g2 = g(q)
        return (J[0][0] * P[0] + J[1][0] * P[1] + g1, J[0][1] * P[0] + J[1][1] * P[1] + g2)
    return law


def wall_run(arm: TwoLinkArm, wall, run: SimulationResult):
    """(x (N, 2), F (N, 2)): the tip positions and the wall's force at every sample (vectorised)."""
    q1, q12 = run.q[:, 0], run.q[:, 0] + run.q[:, 1]
    x = np.stack([arm.l1 * np.cos(q1) + arm.l2 * np.cos(q12), arm.l1 * np.sin(q1) + arm.l2 * np.sin(q12)], axis=1)
    xdot = (-arm.l1 * np.sin(q1) - arm.l2 * np.sin(q12)) * run.v[:, 0] - arm.l2 * np.sin(q12) * run.v[:, 1]
    delta = x[:, 0] - wall.position
    fx = np.where(delta > 0.0, -np.maximum(0.0, wall.stiffness * delta + wall.damping * xdot), 0.0)
    return x, np.stack([fx, np.zeros_like(fx)], axis=1)

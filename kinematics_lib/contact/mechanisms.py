"""Worked constraint examples of chapter 7: a four-bar linkage in absolute coordinates (holonomic,
closed chain), a rolling disc / unicycle (nonholonomic), and their simulation with drift,
Baumgarte stabilisation and projection onto the constraint manifold.

The four-bar: two point masses m1 at p1 and m2 at p2 on massless rods, ground pivots A = (0, 0)
and B = (d, 0): q = (x1, y1, x2, y2), v = q', M = diag(m1, m1, m2, m2), gravity -y. Three
holonomic constraints c(q) = (|p1 - A|^2 - l1^2, |p2 - p1|^2 - l2^2, |p2 - B|^2 - l3^2) / 2 = 0
leave one degree of freedom; J = dc/dq (3, 4) and Jdot v = (|p1'|^2, |p2' - p1'|^2, |p2'|^2).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import _validate as check

__all__ = ["FourBar", "four_bar_constraint", "four_bar_configuration", "simulate_four_bar",
           "FourBarRun", "unicycle_path"]

MAX_STEPS = 200_000   # rows of unicycle controls
MAX_SIM_STEPS = 1500  # RK4 steps of simulate_four_bar


@dataclass(frozen=True)
class FourBar:
    """A four-bar linkage: rod lengths l1 (crank A-p1), l2 (coupler p1-p2), l3 (rocker p2-B) [m],
    ground length d = |AB| [m], point masses m1, m2 [kg], gravity g [m/s^2] along -y."""

    l1: float = 0.5
    l2: float = 1.0
    l3: float = 0.8
    d: float = 1.0
    m1: float = 1.0
    m2: float = 1.0
    g: float = 9.81

    def __post_init__(self):
        for name in ("l1", "l2", "l3", "d", "m1", "m2"):
            object.__setattr__(self, name, check.positive(getattr(self, name), name))
        object.__setattr__(self, "g", check.nonnegative(self.g, "g"))


def _c_J_Jdv(fb: FourBar, q: np.ndarray, v: np.ndarray):
    p1, p2, v1, v2 = q[:2], q[2:], v[:2], v[2:]
    B = np.array([fb.d, 0.0])
    c = 0.5 * np.array([p1 @ p1 - fb.l1**2, (p2 - p1) @ (p2 - p1) - fb.l2**2, (p2 - B) @ (p2 - B) - fb.l3**2])
    J = np.zeros((3, 4))
    J[0, :2] = p1
    J[1, :2], J[1, 2:] = p1 - p2, p2 - p1
    J[2, 2:] = p2 - B
    Jdv = np.array([v1 @ v1, (v2 - v1) @ (v2 - v1), v2 @ v2])
    return c, J, Jdv


def four_bar_constraint(fourbar, q, v) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """c(q) (3,) [m^2], J = dc/dq (3, 4) [m] and Jdot v (3,) [m^2/s^2] of the four-bar at q, v (4,)."""
    fb = check.instance(fourbar, FourBar, "fourbar")
    with np.errstate(all="ignore"):
        out = _c_J_Jdv(fb, check.vector(q, 4, "q"), check.vector(v, 4, "v"))
    return check.finite_result(out, "c, J, Jdot v", "q, v")


def four_bar_configuration(fourbar, theta, speed=0.0) -> tuple[np.ndarray, np.ndarray]:
    """A consistent state (q, v) with crank angle theta [rad] and crank tip speed ``speed`` [m/s].

    p1 = l1 (cos theta, sin theta); p2 the upper intersection of the circles |p2 - p1| = l2 and
    |p2 - B| = l3; v spans the null space of J (J v = 0). Raises if the linkage cannot close.
    """
    fb = check.instance(fourbar, FourBar, "fourbar")
    theta, speed = check.scalar(theta, "theta"), check.scalar(speed, "speed")
    p1 = fb.l1 * np.array([np.cos(theta), np.sin(theta)])
    B = np.array([fb.d, 0.0])
    e = B - p1
    dist = float(np.hypot(*e))
    a = (fb.l2**2 - fb.l3**2 + dist**2) / (2.0 * dist)
    h2 = fb.l2**2 - a**2
    if not h2 > 1e-12 * fb.l2**2:
        raise check.InputError(f"theta = {theta:.4g}: the four-bar cannot close there (|p1 - B| = {dist:.4g} m)")
    u = e / dist
    p2 = p1 + a * u + np.sqrt(h2) * np.array([-u[1], u[0]])
    q = np.concatenate([p1, p2])
    _, J, _ = _c_J_Jdv(fb, q, np.zeros(4))
    n = np.linalg.svd(J)[2][-1]                  # the one-dimensional null space of J
    n = n / np.hypot(*n[:2]) * np.sign(n[:2] @ [-np.sin(theta), np.cos(theta)] or 1.0)
    return q, speed * n


@dataclass(frozen=True)
class FourBarRun:
    """A four-bar simulation: t (N,), q (N, 4), v (N, 4), violation (N,) = |c(q)| [m^2],
    velocity_violation (N,) = |J v| [m^2/s], energy (N,) [J]."""

    t: np.ndarray
    q: np.ndarray
    v: np.ndarray
    violation: np.ndarray
    velocity_violation: np.ndarray
    energy: np.ndarray


def _batch_c_J_Jdv(fb: FourBar, q: np.ndarray, v: np.ndarray):
    """c (B, 3), J (B, 3, 4), Jdot v (B, 3) for a batch of states q, v (B, 4)."""
    p1, p2, v1, v2 = q[:, :2], q[:, 2:], v[:, :2], v[:, 2:]
    r2, r3, u = p2 - p1, p2 - [fb.d, 0.0], v2 - v1
    c = 0.5 * np.stack([(p1 * p1).sum(1) - fb.l1**2, (r2 * r2).sum(1) - fb.l2**2, (r3 * r3).sum(1) - fb.l3**2], 1)
    J = np.zeros((q.shape[0], 3, 4))
    J[:, 0, :2], J[:, 1, :2], J[:, 1, 2:], J[:, 2, 2:] = p1, -r2, r2, r3
    Jdv = np.stack([(v1 * v1).sum(1), (u * u).sum(1), (v2 * v2).sum(1)], 1)
    return c, J, Jdv


def _solve_rows(J: np.ndarray, m_inv: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    """M^-1 J^T (J M^-1 J^T)^-1 rhs for a batch: J (B, 3, 4), rhs (B, 3) -> (B, 4)."""
    A = np.einsum("bij,j,bkj->bik", J, m_inv, J)
    lam = np.linalg.solve(A, rhs[:, :, None])[:, :, 0]
    return m_inv * np.einsum("bij,bi->bj", J, lam)


def _accel(fb, q, v, m_inv, a0, alpha, beta):
    """KKT accelerations with Baumgarte terms: a = a0 - M^-1 J^T A^-1 (J a0 + Jdot v + 2 alpha J v + beta^2 c)."""
    c, J, Jdv = _batch_c_J_Jdv(fb, q, v)
    Jv = np.einsum("bij,bj->bi", J, v)
    rhs = np.einsum("bij,j->bi", J, a0) + Jdv + 2.0 * alpha[:, None] * Jv + (beta**2)[:, None] * c
    return a0 - _solve_rows(J, m_inv, rhs)


def _project(fb: FourBar, q: np.ndarray, v: np.ndarray, m_inv: np.ndarray):
    """Back onto c(q) = 0 (Gauss-Newton in the M metric, three iterations), then J v = 0."""
    for _ in range(3):
        c, J, _ = _batch_c_J_Jdv(fb, q, v)
        q = q - _solve_rows(J, m_inv, c)
    _, J, _ = _batch_c_J_Jdv(fb, q, v)
    return q, v - _solve_rows(J, m_inv, np.einsum("bij,bj->bi", J, v))


def _rk4_step(fb, q, v, dt, m_inv, a0, alpha, beta):
    k1v, k1q = _accel(fb, q, v, m_inv, a0, alpha, beta), v
    k2q = v + 0.5 * dt * k1v
    k2v = _accel(fb, q + 0.5 * dt * k1q, k2q, m_inv, a0, alpha, beta)
    k3q = v + 0.5 * dt * k2v
    k3v = _accel(fb, q + 0.5 * dt * k2q, k3q, m_inv, a0, alpha, beta)
    k4q = v + dt * k3v
    k4v = _accel(fb, q + dt * k3q, k4q, m_inv, a0, alpha, beta)
    return q + dt / 6.0 * (k1q + 2.0 * k2q + 2.0 * k3q + k4q), v + dt / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v)


def simulate_four_bar(fourbar, q0, v0, t_final, dt, alpha=0.0, beta=0.0, project=False) -> FourBarRun:
    """Simulate the four-bar with the KKT dynamics (RK4 steps), optionally stabilised.

    a from M a + h = J^T lam, J a = -(Jdot v + 2 alpha J v + beta^2 c): Baumgarte terms alpha,
    beta [1/s] (0 = none); with ``project`` the state is projected back onto c = 0, J v = 0
    after each step. q0, v0 (4,); t_final, dt [s]. alpha and beta may be arrays (B,) of equal
    length: B runs at once, and the arrays of the result get a leading axis B.
    """
    fb = check.instance(fourbar, FourBar, "fourbar")
    q, v = check.vector(q0, 4, "q0"), check.vector(v0, 4, "v0")
    t_final, dt = check.positive(t_final, "t_final"), check.positive(dt, "dt")
    ratio = t_final / dt
    steps = int(np.ceil(ratio - 1e-9)) if ratio <= MAX_SIM_STEPS else MAX_SIM_STEPS + 1
    if steps > MAX_SIM_STEPS:
        raise check.InputError(f"t_final / dt must be at most {MAX_SIM_STEPS} steps, got {t_final:g} / {dt:g}")
    batch = np.ndim(alpha) > 0 or np.ndim(beta) > 0
    alpha, beta = (np.atleast_1d(check.vector(x, None, n) if np.ndim(x) else check.scalar(x, n)).astype(float)
                   for x, n in ((alpha, "alpha"), (beta, "beta")))
    alpha, beta = np.broadcast_arrays(alpha, beta) if alpha.size == 1 or beta.size == 1 or alpha.size == beta.size \
        else (None, None)
    if alpha is None or alpha.size > 1000:
        raise check.InputError("alpha and beta must be numbers or arrays of one common length (at most 1000)")
    if (alpha < 0).any() or (beta < 0).any():
        raise check.InputError("alpha and beta must be >= 0 (Baumgarte gains, 1/s)")
    project = check.flag(project, "project")
    c, J, _ = _c_J_Jdv(fb, q, np.zeros(4))
    size = max(fb.l1, fb.l2, fb.l3, fb.d)
    if not np.abs(c).max() <= 1e-6 * size**2:
        raise check.InputError(f"q0 must satisfy the four-bar's constraints (max |c| = {np.abs(c).max():.3e} m^2); "
                               "use four_bar_configuration")
    if not np.abs(J @ v).max() <= 1e-6 * size * max(1.0, float(np.abs(v).max())) or np.abs(v).max() > 1e6:
        raise check.InputError("v0 must satisfy J v0 = 0 (a velocity the linkage allows) and be below 1e6 m/s")
    B = alpha.size
    m = np.array([fb.m1, fb.m1, fb.m2, fb.m2])
    m_inv, a0 = 1.0 / m, np.array([0.0, -fb.g, 0.0, -fb.g])
    Q, V = np.empty((steps + 1, B, 4)), np.empty((steps + 1, B, 4))
    Q[0], V[0] = q, v
    q, v = Q[0].copy(), V[0].copy()
    try:
        with np.errstate(all="ignore"):
            for i in range(steps):
                q, v = _rk4_step(fb, q, v, dt, m_inv, a0, alpha, beta)
                if project:
                    q, v = _project(fb, q, v, m_inv)
                Q[i + 1], V[i + 1] = q, v
    except np.linalg.LinAlgError:
        raise check.InputError("the linkage reached a singular configuration (J lost rank): reduce dt, alpha, beta "
                               "or t_final") from None
    check.finite_result((Q, V), "q, v", "t_final, dt, alpha, beta (the simulation diverged)")
    Q, V = Q.transpose(1, 0, 2), V.transpose(1, 0, 2)
    run = _run(fb, np.arange(steps + 1) * dt, Q, V, m)
    if batch:
        return run
    return FourBarRun(run.t, *(getattr(run, f)[0] for f in ("q", "v", "violation", "velocity_violation", "energy")))


def _run(fb: FourBar, t, Q, V, m) -> FourBarRun:
    B, T = Q.shape[:2]
    c, J, _ = _batch_c_J_Jdv(fb, Q.reshape(-1, 4), V.reshape(-1, 4))
    viol = np.abs(c).max(1).reshape(B, T)
    vviol = np.abs(np.einsum("bij,bj->bi", J, V.reshape(-1, 4))).max(1).reshape(B, T)
    energy = 0.5 * (V**2 @ m) + fb.g * (Q[..., 1] * fb.m1 + Q[..., 3] * fb.m2)
    return FourBarRun(t, Q, V, viol, vviol, energy)


def unicycle_path(pose0, controls, dt) -> np.ndarray:
    """Poses (N + 1, 3) of a rolling disc (unicycle) driven by controls (N, 2) = (v [m/s], omega [rad/s]).

    The disc rolls without slipping sideways: x' sin(th) - y' cos(th) = 0, a nonholonomic
    constraint A(q) q' = 0 with A = (sin th, -cos th, 0). Each control is held for dt [s]
    and integrated exactly (arcs of circles), so the constraint holds to rounding at every pose.
    """
    pose = check.vector(pose0, 3, "pose0").copy()
    U = check.matrix(controls, (None, 2), "controls")
    dt = check.positive(dt, "dt")
    if not 1 <= U.shape[0] <= MAX_STEPS:
        raise check.InputError(f"controls must have 1 ... {MAX_STEPS} rows, got {U.shape[0]}")
    out = np.empty((U.shape[0] + 1, 3))
    out[0] = pose
    for i, (v, w) in enumerate(U):
        x, y, th = pose
        if abs(w * dt) < 1e-12:
            pose = np.array([x + v * dt * np.cos(th), y + v * dt * np.sin(th), th])
        else:
            th1 = th + w * dt
            pose = np.array([x + v / w * (np.sin(th1) - np.sin(th)), y - v / w * (np.cos(th1) - np.cos(th)), th1])
        out[i + 1] = pose
    return check.finite_result(out, "poses", "controls or dt")

"""Inverse kinematics (逆运动学): Newton-Raphson with the pseudo-inverse or damped least squares,
null-space secondary objectives, the analytic planar 2-link solution, and velocity-level IK.

Every solver returns an :class:`IKResult`; it never returns NaN. An unreachable target shows up
as ``converged=False`` with status 'stalled' (the error stopped decreasing) and the closest
configuration found; a singular configuration as status 'singular'.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from . import _validate as check
from .dh import DHRobot, dh_end_effector
from .kinematics import geometric_jacobian, task_rows
from .transforms import pose_error

__all__ = [
    "IKResult",
    "ik_newton",
    "dls_step",
    "pinv_step",
    "nullspace_projector",
    "ik_two_link",
    "wrap_angle",
    "resolved_rate",
    "ResolvedRateResult",
]

TOL_POSITION = 1e-3  # 1 mm
TOL_ORIENTATION = math.radians(0.1)  # 0.1 degree


@dataclass(frozen=True)
class IKResult:
    """Outcome of an IK solve.

    q: joint vector found (the best one, also when not converged).
    converged: True when both position and orientation errors are within tolerance.
    iterations: Newton steps taken (0 for analytic solutions).
    position_error: |p_target - p| in m; orientation_error: |log(R_t R^T)| in rad (over the task rows).
    status: 'converged' | 'max_iterations' | 'stalled' | 'singular' | 'unreachable'.
    message: one human-readable sentence.
    error_history: norm of the task error at each iteration (for convergence plots).
    solutions: all analytic solutions (e.g. both elbow branches), empty for numerical solvers.
    """

    q: np.ndarray
    converged: bool
    iterations: int
    position_error: float
    orientation_error: float
    status: str
    message: str
    error_history: tuple = ()
    solutions: tuple = field(default=())

    def __str__(self) -> str:
        return (f"{self.status}: {self.message} (iterations {self.iterations}, "
                f"position error {self.position_error * 1e3:.3f} mm, "
                f"orientation error {math.degrees(self.orientation_error):.4f} deg)")


def wrap_angle(angle):
    """Wrap angle(s) to (-pi, pi]."""
    a = np.asarray(angle, dtype=float)
    wrapped = np.pi - np.mod(np.pi - a, 2.0 * np.pi)
    return float(wrapped) if wrapped.ndim == 0 else wrapped


def pinv_step(J: np.ndarray, e: np.ndarray, rcond: float = 1e-6) -> np.ndarray:
    """Newton step dq = J^+ e with the SVD pseudo-inverse; singular values below rcond*sigma_max are dropped."""
    return np.linalg.pinv(J, rcond=rcond) @ e


def dls_step(J: np.ndarray, e: np.ndarray, damping: float) -> np.ndarray:
    """Damped least squares (阻尼最小二乘) step dq = J^T (J J^T + lambda^2 I)^-1 e.

    It minimises |J dq - e|^2 + lambda^2 |dq|^2: near a singularity the step stays bounded
    (|dq| <= |e| / (2 lambda)) at the price of a slower, biased approach.
    """
    m = J.shape[0]
    return J.T @ np.linalg.solve(J @ J.T + damping**2 * np.eye(m), e)


def nullspace_projector(J: np.ndarray, rcond: float = 1e-6) -> np.ndarray:
    """N = I - J^+ J (n, n): projects a joint motion onto the null space (零空间) of J.

    Any qdot = N z leaves the task velocity J qdot = 0 unchanged (self-motion of a redundant arm).
    """
    return np.eye(J.shape[1]) - np.linalg.pinv(J, rcond=rcond) @ J


def _split_errors(e: np.ndarray, rows: tuple[int, ...]) -> tuple[float, float]:
    lin = [k for k, r in enumerate(rows) if r < 3]
    ang = [k for k, r in enumerate(rows) if r >= 3]
    return float(np.linalg.norm(e[lin])), float(np.linalg.norm(e[ang]))


def _clamp(q: np.ndarray, q_min, q_max) -> np.ndarray:
    if q_min is not None:
        q = np.maximum(q, q_min)
    if q_max is not None:
        q = np.minimum(q, q_max)
    return q


def ik_newton(
    robot: DHRobot | Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]],
    T_target,
    q0,
    *,
    method: str = "dls",
    damping: float = 0.05,
    task="pose",
    tol_position: float = TOL_POSITION,
    tol_orientation: float = TOL_ORIENTATION,
    max_iterations: int = 100,
    max_step: float = 0.5,
    q_min=None,
    q_max=None,
    nullspace_gradient: Callable[[np.ndarray], np.ndarray] | None = None,
    nullspace_gain: float = 0.5,
    singular_tol: float = 1e-6,
) -> IKResult:
    """Newton-Raphson IK: iterate q <- clamp(q + dq) with dq from the pseudo-inverse or DLS.

    dq = J^+ e                                   (method='pinv', Newton-Raphson)
    dq = J^T (J J^T + lambda^2 I)^-1 e           (method='dls', damping lambda)
    dq += (I - J^+ J) k grad H(q)                (optional secondary objective H, redundant arms)

    robot: a :class:`DHRobot`, or a callable q -> (T_WE (4, 4), J (6, n)) for any other model.
    T_target: desired end-effector pose (4, 4); for a position task only its translation matters.
    task: 'pose', 'position', 'planar_position', 'planar_pose' or explicit rows of [v; w].
    tol_position (m) and tol_orientation (rad): defaults 1 mm and 0.1 degree.
    max_step: the step is scaled down so that |dq|_inf <= max_step (rad or m).
    q_min, q_max: joint limits; default the robot's own. Each iterate is clamped to them.
    nullspace_gradient: function q -> grad H (n,); its projection on the null space is added.
    """
    check.one_of(method, ("pinv", "dls"), "method")
    rows = task_rows(task)
    T_target = check.transform(T_target, "T_target")
    if isinstance(robot, DHRobot):
        fk_jac = lambda q: (dh_end_effector(robot, q), geometric_jacobian(robot, q))  # noqa: E731
        q_min = robot.q_min if q_min is None else q_min
        q_max = robot.q_max if q_max is None else q_max
    elif callable(robot):
        fk_jac = robot
    else:
        raise ValueError(f"robot must be a DHRobot or a callable q -> (T, J), got {type(robot).__name__}")
    q = check.vector(q0, None, "q0")
    n = q.shape[0]
    q_min = None if q_min is None else check.vector(q_min, n, "q_min")
    q_max = None if q_max is None else check.vector(q_max, n, "q_max")
    check.positive(damping, "damping") if method == "dls" else None
    q = _clamp(q, q_min, q_max)

    history = []
    best = (math.inf, q)
    status, message = "max_iterations", f"no convergence in {max_iterations} iterations"
    for k in range(max_iterations + 1):
        T, J_full = fk_jac(q)
        e = pose_error(T, T_target)[list(rows)]
        J = J_full[list(rows)]
        e_lin, e_ang = _split_errors(e, rows)
        err = float(np.linalg.norm(e))
        history.append(err)
        if err < best[0]:
            best = (err, q)
        if e_lin <= tol_position and e_ang <= tol_orientation:
            status, message = "converged", "target reached within tolerance"
            break
        if k == max_iterations:
            break
        sigma = np.linalg.svd(J, compute_uv=False)
        if method == "pinv" and sigma[-1] < singular_tol * max(sigma[0], 1e-300) and J.shape[0] <= n:
            status = "singular"
            message = (f"Jacobian is singular at iteration {k} (sigma_min/sigma_max = "
                       f"{sigma[-1] / max(sigma[0], 1e-300):.1e}); the pseudo-inverse step would blow up")
            break
        dq = pinv_step(J, e) if method == "pinv" else dls_step(J, e, damping)
        if nullspace_gradient is not None:
            grad = check.vector(nullspace_gradient(q), n, "nullspace_gradient(q)")
            dq = dq + nullspace_projector(J) @ (nullspace_gain * grad)
        biggest = float(np.max(np.abs(dq)))
        if biggest > max_step:
            dq *= max_step / biggest
        q = _clamp(q + dq, q_min, q_max)
        if k >= 20 and history[-1] > 0.999 * history[-11]:
            status = "stalled"
            message = (f"error stopped decreasing at {history[-1]:.3g}: the target is probably "
                       "unreachable (or blocked by joint limits) from this start")
            break

    q_best = best[1] if status != "converged" else q
    T, _ = fk_jac(q_best)
    e_lin, e_ang = _split_errors(pose_error(T, T_target)[list(rows)], rows)
    return IKResult(q=np.array(q_best), converged=status == "converged", iterations=len(history) - 1,
                    position_error=e_lin, orientation_error=e_ang, status=status, message=message,
                    error_history=tuple(history))


def ik_two_link(target, L1: float, L2: float, q_current=None, elbow: str | None = None) -> IKResult:
    """Analytic IK of the planar 2R arm: both elbow branches, nearest one selected.

    With c2 = (x^2 + y^2 - L1^2 - L2^2) / (2 L1 L2) (law of cosines):
        q2 = +-acos(c2),   q1 = atan2(y, x) - atan2(L2 sin q2, L1 + L2 cos q2).
    q2 > 0 is the "elbow down" branch, q2 < 0 "elbow up" (base at the origin, y up).

    target: (x, y) in m. q_current: if given, the branch closest to it (wrapped angles) is
    returned in ``q``; otherwise ``elbow`` ('up' or 'down', default 'down') chooses.
    Unreachable targets (|c2| > 1) return converged=False, status 'unreachable', and the
    configuration pointing at the target (stretched or folded) that comes closest.
    """
    x, y = check.vector(target, 2, "target")
    L1, L2 = check.positive(L1, "L1"), check.positive(L2, "L2")
    if elbow is not None:
        check.one_of(elbow, ("up", "down"), "elbow")
    r = math.hypot(x, y)
    c2 = (r * r - L1 * L1 - L2 * L2) / (2.0 * L1 * L2)
    heading = math.atan2(y, x)
    if abs(c2) > 1.0 + 1e-12:
        q = np.array([heading, 0.0]) if c2 > 0 else np.array([heading, math.pi])
        reach = L1 + L2 if c2 > 0 else abs(L1 - L2)
        if c2 < 0 and L1 < L2:
            q[0] = wrap_angle(heading + math.pi)
        side = "outside the outer" if c2 > 0 else "inside the inner"
        return IKResult(q=q, converged=False, iterations=0, position_error=abs(r - reach),
                        orientation_error=0.0, status="unreachable",
                        message=f"target at distance {r:.4g} m is {side} workspace boundary ({reach:.4g} m)")
    c2 = min(1.0, max(-1.0, c2))
    solutions = []
    for q2 in (math.acos(c2), -math.acos(c2)):  # elbow down, elbow up
        q1 = heading - math.atan2(L2 * math.sin(q2), L1 + L2 * math.cos(q2))
        solutions.append(np.array([wrap_angle(q1), q2]))
    if q_current is not None:
        qc = check.vector(q_current, 2, "q_current")
        dist = [float(np.linalg.norm(wrap_angle(s - qc))) for s in solutions]
        q = solutions[int(np.argmin(dist))]
    else:
        q = solutions[0] if elbow in (None, "down") else solutions[1]
    msg = "analytic solution"
    if r < 1e-12:
        msg = "target at the base: q1 is arbitrary (a continuum of solutions); q1 = atan2(0, 0) = 0 chosen"
    elif abs(c2) == 1.0:
        msg = "target on the workspace boundary: both branches coincide (singular configuration)"
    return IKResult(q=q, converged=True, iterations=0, position_error=0.0, orientation_error=0.0,
                    status="converged", message=msg, solutions=tuple(solutions))


@dataclass(frozen=True)
class ResolvedRateResult:
    """Time series of a velocity-level IK run: t (N,), q (N, n), x (N, m) actual, x_des (N, m), error (N,)."""

    t: np.ndarray
    q: np.ndarray
    x: np.ndarray
    x_des: np.ndarray
    error: np.ndarray


def resolved_rate(
    robot: DHRobot,
    q0,
    x_des: Callable[[float], np.ndarray],
    xdot_des: Callable[[float], np.ndarray],
    t_final: float,
    dt: float,
    Kp: float = 0.0,
    task="planar_position",
    damping: float = 0.0,
) -> ResolvedRateResult:
    """Velocity-level IK integrated with explicit Euler: q_{k+1} = q_k + dt qdot_k, with

        qdot = J^+ (xdot_des + Kp (x_des - x))          (damping = 0)
        qdot = J^T (J J^T + lambda^2 I)^-1 (...)        (damping = lambda > 0)

    Kp = 0 is the open-loop scheme whose integration error accumulates (drift, 漂移);
    Kp > 0 closes the loop on the measured position so the error stays bounded.
    The task must be a position task (rows 0..2 only).
    """
    rows = task_rows(task)
    if any(r > 2 for r in rows):
        raise ValueError(f"task must contain position rows only (0, 1, 2), got {rows}")
    q = check.vector(q0, robot.n, "q0")
    steps = int(round(check.positive(t_final, "t_final") / check.positive(dt, "dt")))
    t = np.arange(steps + 1) * dt
    qs, xs, xds = [], [], []
    for k in range(steps + 1):
        x = dh_end_effector(robot, q)[:3, 3][list(rows)]
        xd = check.vector(x_des(t[k]), len(rows), "x_des(t)")
        qs.append(q)
        xs.append(x)
        xds.append(xd)
        if k == steps:
            break
        J = geometric_jacobian(robot, q)[list(rows)]
        v = check.vector(xdot_des(t[k]), len(rows), "xdot_des(t)") + Kp * (xd - x)
        qdot = pinv_step(J, v) if damping == 0.0 else dls_step(J, v, damping)
        q = q + dt * qdot
    x, xd = np.array(xs), np.array(xds)
    return ResolvedRateResult(t=t, q=np.array(qs), x=x, x_des=xd, error=np.linalg.norm(x - xd, axis=1))

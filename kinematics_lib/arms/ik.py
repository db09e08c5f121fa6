"""Inverse kinematics (逆运动学): Newton-Raphson with the pseudo-inverse or damped least squares,
null-space secondary objectives, the analytic planar 2-link solution, and velocity-level IK.

Every solver returns an :class:`IKResult`; it never returns NaN. An unreachable target shows up
as ``converged=False`` with status 'unreachable' (analytic 2R: the target is outside the annulus)
or 'stalled' (Newton: the error stopped decreasing) and the closest configuration found; a
singular configuration met by the pseudo-inverse Newton step as status 'singular'.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Callable

import numpy as np

from .. import _validate as check
from .dh import DHRobot, dh_end_effector
from .kinematics import geometric_jacobian, task_rows
from ..geometry.transforms import pose_error

__all__ = [
    "IKResult",
    "ik_newton",
    "dls_step",
    "pinv_step",
    "nullspace_projector",
    "nullspace_motion",
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
    status: 'converged' | 'max_iterations' | 'stalled' | 'singular' | 'unreachable' | 'imprecise'
        (analytic solution whose rounding error exceeds the tolerance, e.g. a 1e300 m arm).
    message: one human-readable sentence.
    error_history: norm of the task error at each iteration (for convergence plots).
    solutions: all analytic solutions (e.g. both elbow branches), empty for numerical solvers.
    start: which start the result comes from (ik_newton with restarts: 0 = q0, k = the k-th random start).
    q_start: that start (None for analytic solutions).
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
    start: int = 0
    q_start: np.ndarray | None = None

    def __str__(self) -> str:
        return (f"{self.status}: {self.message} (iterations {self.iterations}, "
                f"position error {self.position_error * 1e3:.3f} mm, "
                f"orientation error {math.degrees(self.orientation_error):.4f} deg)")


def wrap_angle(angle):
    """Wrap angle(s) to (-pi, pi] (rad).

    >>> wrap_angle(3 * np.pi / 2), wrap_angle(-np.pi)
    (-1.5707963267948966, 3.141592653589793)
    """
    a = check._finite(check._array(angle, "angle"), "angle")
    wrapped = np.pi - np.mod(np.pi - a, 2.0 * np.pi)
    return float(wrapped) if wrapped.ndim == 0 else wrapped


def _J_e(J, e) -> tuple[np.ndarray, np.ndarray]:
    J = check.matrix(J, (None, None), "J")
    if 0 in J.shape:
        raise check.InputError(f"J must have at least one row and one column, got shape {J.shape}")
    e = check.vector(e, None, "e")
    if e.shape != (J.shape[0],):
        raise check.InputError(f"e must have shape ({J.shape[0]},), one entry per row of J's shape {J.shape}, "
                               f"got shape {e.shape}")
    return J, e


def pinv_step(J: np.ndarray, e: np.ndarray, rcond: float = 1e-6) -> np.ndarray:
    """Newton step dq = J^+ e (n,) with the SVD pseudo-inverse of J (m, n), e (m,).

    Singular values below rcond * sigma_max are dropped (treated as exact zeros); just above
    that threshold |dq| grows like |e| / sigma_min -- the blow-up near a singularity.

    >>> pinv_step(np.diag([2.0, 0.5]), [1.0, 1.0])
    array([0.5, 2. ])
    """
    J, e = _J_e(J, e)
    dq = np.linalg.pinv(J, rcond=check.positive(rcond, "rcond")) @ e
    return check.finite_result(dq, "the step", "J, e")


def dls_step(J: np.ndarray, e: np.ndarray, damping: float) -> np.ndarray:
    """Damped least squares (阻尼最小二乘) step dq = J^T (J J^T + lambda^2 I)^-1 e.

    It minimises |J dq - e|^2 + lambda^2 |dq|^2: along each singular direction the gain is
    sigma / (sigma^2 + lambda^2) instead of 1 / sigma, so near a singularity the step stays
    bounded (|dq| <= |e| / (2 lambda)) at the price of a slower, biased approach.
    J (m, n), e (m,), damping lambda >= 0 (lambda = 0 is the exact least-squares step).

    >>> dls_step(np.diag([2.0, 0.0]), [1.0, 1.0], damping=0.5)   # the zero direction is ignored
    array([0.47058824, 0.        ])
    """
    J, e = _J_e(J, e)
    damping = check.nonnegative(damping, "damping")
    scale = max(float(np.abs(J).max()), damping, 1e-300)  # solved in units of the largest entry: no overflow
    Js, lam = J / scale, damping / scale
    try:
        dq = Js.T @ np.linalg.solve(Js @ Js.T + lam * lam * np.eye(J.shape[0]), e) / scale
    except np.linalg.LinAlgError:
        raise check.InputError(f"J has rank < {J.shape[0]} (its rows) and damping = {damping:g} is negligible next "
                               f"to it: the least-squares step is not unique (use a larger damping or pinv_step)") from None
    return check.finite_result(dq, "the step", "J, e, damping")


def nullspace_projector(J: np.ndarray, rcond: float = 1e-6) -> np.ndarray:
    """N = I - J^+ J (n, n): projects a joint motion onto the null space (零空间) of J (m, n).

    Any qdot = N z leaves the task velocity J qdot = 0 unchanged (self-motion of a redundant arm).

    >>> nullspace_projector(np.array([[1.0, 1.0]])) @ [1.0, 0.0]
    array([ 0.5, -0.5])
    """
    J = check.matrix(J, (None, None), "J")
    if 0 in J.shape:
        raise check.InputError(f"J must have at least one row and one column, got shape {J.shape}")
    return np.eye(J.shape[1]) - np.linalg.pinv(J, rcond=check.positive(rcond, "rcond")) @ J


def _norm(x) -> float:
    """|x| without overflow (math.hypot scales), for errors of any size."""
    return math.hypot(*np.ravel(x)) if np.size(x) else 0.0


def _split_errors(e: np.ndarray, rows: tuple[int, ...]) -> tuple[float, float]:
    lin = [k for k, r in enumerate(rows) if r < 3]
    ang = [k for k, r in enumerate(rows) if r >= 3]
    return _norm(e[lin]), _norm(e[ang])


def _clamp(q: np.ndarray, q_min, q_max) -> np.ndarray:
    if q_min is not None:
        q = np.maximum(q, q_min)
    if q_max is not None:
        q = np.minimum(q, q_max)
    return q


def _fk_jac(robot) -> Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]:
    if isinstance(robot, DHRobot):
        return lambda q: (dh_end_effector(robot, q), geometric_jacobian(robot, q))
    if callable(robot):
        def fk_jac(q):
            try:
                out = robot(q)
            except ValueError as err:
                raise check.InputError(f"robot(q) failed for q of shape {q.shape} (from q0): {err}") from None
            if not isinstance(out, tuple) or len(out) != 2:
                raise check.InputError(f"robot(q) must return (T (4, 4), J (6, n)), got {check.describe(out)}")
            return check.transform(out[0], "T (robot(q)[0])"), out[1]
        return fk_jac
    raise check.InputError(f"robot must be a DHRobot or a callable q -> (T, J), got {check.describe(robot)}")


def _max_iterations(value) -> int:
    return check.integer(value, "max_iterations", 1, 100_000)


def _start_box(n: int, q_min, q_max) -> tuple[np.ndarray, np.ndarray]:
    """Where random IK starts are drawn: within the joint limits; a joint with one finite limit
    gets a 2 pi window from that limit, a joint with none [-pi, pi]."""
    q_min = np.full(n, -np.inf) if q_min is None else np.asarray(q_min, dtype=float)
    q_max = np.full(n, np.inf) if q_max is None else np.asarray(q_max, dtype=float)
    has_lo, has_hi = np.isfinite(q_min), np.isfinite(q_max)
    lo = np.where(has_lo, q_min, np.where(has_hi, q_max - 2 * math.pi, -math.pi))
    hi = np.where(has_hi, q_max, np.where(has_lo, q_min + 2 * math.pi, math.pi))
    return lo, hi


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
    nullspace_tol: float = 1e-3,
    restarts: int = 0,
    seed: int = 0,
) -> IKResult:
    """Newton-Raphson IK: iterate q <- clamp(q + dq) with dq from the pseudo-inverse or DLS.

    dq = J^+ e                                   (method='pinv', Newton-Raphson)
    dq = J^T (J J^T + lambda^2 I)^-1 e           (method='dls', damping lambda)
    dq += (I - J^+ J) k grad H(q)                (optional secondary objective H, redundant arms)

    e = pose_error(T(q), T_target) restricted to the task rows, [m; rad].
    robot: a :class:`DHRobot`, or a callable q -> (T_WE (4, 4), J (6, n)) for any other model.
    T_target: desired end-effector pose (4, 4); for a position task only its translation matters.
    task: 'pose', 'position', 'planar_position', 'planar_pose' or explicit rows of [v; w].
    tol_position (m) and tol_orientation (rad): defaults 1 mm and 0.1 degree, checked
        separately (a norm of a vector mixing metres and radians has no unit).
    max_step: the step is scaled down so that |dq|_inf <= max_step (rad or m).
    q_min, q_max: joint limits; default the robot's own. Every iterate is clamped to them.
    nullspace_gradient: q -> grad H (n,), gradient *ascent* on H (pass minus the gradient of
        a cost to minimise it); its null-space projection is added to every step, and the
        solve continues until also |N k grad H|_inf <= nullspace_tol (rad).
    Status 'singular' (pinv only): sigma_min / sigma_max < singular_tol, where J^+ e would blow up.
    Status 'stalled': no progress for 10 iterations -- typically an unreachable target.
    restarts: when the solve from q0 does not converge, up to ``restarts`` more solves from
        random starts drawn uniformly within the joint limits ([-pi, pi] where a joint has none)
        by ``np.random.default_rng(seed)`` -- the same starts for the same seed. The result's
        ``start`` says which start it comes from (0 = q0, k = the k-th random start) and
        ``q_start`` that start; when none converges, the best (smallest final error) is returned.

    >>> from kinematics_lib import planar_arm, translation
    >>> res = ik_newton(planar_arm([1.0, 1.0]), translation([1.2, 0.8, 0.0]), [0.3, 1.0],
    ...                 method="pinv", task="planar_position")
    >>> res.status, res.position_error < 1e-3
    ('converged', True)
    """
    check.one_of(method, ("pinv", "dls"), "method")
    rows = list(task_rows(task))
    T_target = check.transform(T_target, "T_target")
    if np.abs(T_target[:3, 3]).max() > 1e12:
        raise check.InputError(f"T_target must be within 1e12 m of the base, got the translation {T_target[:3, 3]}")
    fk_jac = _fk_jac(robot)
    if isinstance(robot, DHRobot):
        q_min = robot.q_min if q_min is None else q_min
        q_max = robot.q_max if q_max is None else q_max
    q = check.vector(q0, robot.n if isinstance(robot, DHRobot) else None, "q0")
    n = q.shape[0]
    q_min = None if q_min is None else check.vector(q_min, n, "q_min")
    q_max = None if q_max is None else check.vector(q_max, n, "q_max")
    damping = check.nonnegative(damping, "damping")
    if method == "dls" and damping == 0.0:
        raise check.InputError("damping must be positive for method='dls' (use method='pinv' for no damping)")
    for value, name in ((tol_position, "tol_position"), (tol_orientation, "tol_orientation"),
                        (max_step, "max_step"), (singular_tol, "singular_tol"), (nullspace_tol, "nullspace_tol")):
        check.positive(value, name)
    max_iterations = _max_iterations(max_iterations)
    if nullspace_gradient is not None:
        check.function(nullspace_gradient, "nullspace_gradient")
    gain = check.scalar(nullspace_gain, "nullspace_gain")
    restarts = check.integer(restarts, "restarts", 0, 10_000)
    seed = check.integer(seed, "seed", 0, 2 ** 63 - 1)
    args = (fk_jac, T_target, rows, n, q_min, q_max, method, damping, tol_position, tol_orientation, max_iterations,
            max_step, nullspace_gradient, gain, singular_tol, nullspace_tol)
    result = _newton(q, *args)
    if result.converged or restarts == 0:
        return result
    rng, tried = np.random.default_rng(seed), [result]
    lo, hi = _start_box(n, q_min, q_max)
    for k in range(1, restarts + 1):
        start = rng.uniform(lo, hi)
        result = _newton(start, *args)
        if result.converged:
            return replace(result, start=k, q_start=start, message=f"{result.message} (from random start {k} of "
                                                                     f"{restarts}, seed {seed}; q0 did not converge)")
        tried.append(replace(result, start=k, q_start=start))
    best = min(tried, key=lambda r: r.error_history[-1] if r.error_history else math.inf)
    return replace(best, message=f"{best.message}; none of q0 and {restarts} random starts (seed {seed}) converged, "
                                 f"the best was start {best.start}")


def _newton(q, fk_jac, T_target, rows, n, q_min, q_max, method, damping, tol_position, tol_orientation,
            max_iterations, max_step, nullspace_gradient, gain, singular_tol, nullspace_tol) -> IKResult:
    """One Newton solve from q on checked arguments (see :func:`ik_newton`)."""
    q = q_start = _clamp(q, q_min, q_max)

    history, best = [], (math.inf, q)
    status, message = "max_iterations", f"no convergence in {max_iterations} iterations"
    for k in range(max_iterations + 1):
        T, J_full = fk_jac(q)
        J = check.matrix(J_full, (6, n), "J (robot Jacobian)")[rows]
        e = pose_error(T, T_target)[rows]
        e_lin, e_ang = _split_errors(e, rows)
        history.append(_norm(e))
        if history[-1] < best[0]:
            best = (history[-1], q)
        reached = e_lin <= tol_position and e_ang <= tol_orientation
        dq_null = np.zeros(n)
        if nullspace_gradient is not None:
            grad = check.vector(nullspace_gradient(q), n, "nullspace_gradient(q)")
            dq_null = nullspace_projector(J, rcond=singular_tol) @ (gain * grad)
        if reached and float(np.max(np.abs(dq_null))) <= nullspace_tol:
            status, message = "converged", "target reached within tolerance"
            break
        if k == max_iterations:
            if reached:
                status, message = "converged", "target reached; the secondary objective was still improving"
            break
        sigma = np.linalg.svd(J, compute_uv=False)
        if method == "pinv" and sigma[-1] < singular_tol * max(sigma[0], 1e-300) and J.shape[0] <= n:
            status = "singular"
            message = (f"Jacobian is singular at iteration {k} (sigma_min/sigma_max = "
                       f"{sigma[-1] / max(sigma[0], 1e-300):.1e}); the pseudo-inverse step would blow up")
            break
        dq = (pinv_step(J, e, rcond=singular_tol) if method == "pinv" else dls_step(J, e, damping)) + dq_null
        if not np.isfinite(dq).all():
            raise check.InputError(f"the step became non-finite at iteration {k}: nullspace_gain = {gain} or the "
                                   "nullspace_gradient values are too large")
        biggest = float(np.max(np.abs(dq)))
        if biggest > max_step:
            dq *= max_step / biggest
        q = _clamp(q + dq, q_min, q_max)
        if not reached and k >= 20 and history[-1] > 0.999 * history[-11]:
            status = "stalled"
            message = (f"error stopped decreasing at {history[-1]:.3g}: the target is probably "
                       "unreachable (or blocked by joint limits) from this start")
            break

    q_out = q if status == "converged" else best[1]
    T, _ = fk_jac(q_out)
    e_lin, e_ang = _split_errors(pose_error(T, T_target)[rows], rows)
    return IKResult(q=np.array(q_out), converged=status == "converged", iterations=len(history) - 1,
                    position_error=e_lin, orientation_error=e_ang, status=status, message=message,
                    error_history=tuple(history), q_start=np.array(q_start))


def _two_link_tip(q: np.ndarray, L1: float, L2: float) -> np.ndarray:
    return np.array([L1 * math.cos(q[0]) + L2 * math.cos(q[0] + q[1]),
                     L1 * math.sin(q[0]) + L2 * math.sin(q[0] + q[1])])


def ik_two_link(target, L1: float, L2: float, q_current=None, elbow: str | None = None) -> IKResult:
    """Analytic IK of the planar 2R arm: both elbow branches, nearest one selected.

    With c2 = (x^2 + y^2 - L1^2 - L2^2) / (2 L1 L2) (law of cosines):
        q2 = +-acos(c2),   q1 = atan2(y, x) - atan2(L2 sin q2, L1 + L2 cos q2).
    q2 > 0 is the "elbow down" branch, q2 < 0 "elbow up" (base at the origin, y up).

    target: (x, y) in m. q_current: if given, the branch closest to it (wrapped angles) is
    returned in ``q``; otherwise ``elbow`` ('up' or 'down', default 'down') chooses.
    Unreachable targets (|c2| > 1: outside the annulus |L1 - L2| <= r <= L1 + L2) return
    converged=False, status 'unreachable', the configuration pointing at the target (stretched
    or folded) that comes closest, and position_error = distance to the workspace boundary.

    >>> res = ik_two_link([1.0, 1.0], 1.0, 1.0)
    >>> np.round(res.solutions, 6) + 0.0
    array([[ 0.      ,  1.570796],
           [ 1.570796, -1.570796]])
    >>> ik_two_link([3.0, 0.0], 1.0, 1.0).status
    'unreachable'
    """
    x, y = check.vector(target, 2, "target")
    L1, L2 = check.positive(L1, "L1"), check.positive(L2, "L2")
    if elbow is not None:
        check.one_of(elbow, ("up", "down"), "elbow")
    qc = None if q_current is None else check.vector(q_current, 2, "q_current")
    r = math.hypot(x, y)
    c2 = _law_of_cosines(r, L1, L2)
    heading = math.atan2(y, x)
    if abs(c2) > 1.0 + 1e-12:
        q = np.array([heading, 0.0]) if c2 > 0 else np.array([heading, math.pi])
        reach = L1 + L2 if c2 > 0 else abs(L1 - L2)
        if c2 < 0 and L1 < L2:
            q[0] = wrap_angle(heading + math.pi)
        side = "outside the outer" if c2 > 0 else "inside the inner"
        error = _norm(_two_link_tip(q, L1, L2) - (x, y))  # = |r - reach|
        return IKResult(q=q, converged=False, iterations=0, position_error=error,
                        orientation_error=0.0, status="unreachable",
                        message=f"target at distance {r:.4g} m is {side} workspace boundary ({reach:.4g} m)")
    c2 = min(1.0, max(-1.0, c2))
    solutions = []
    for q2 in (math.acos(c2), -math.acos(c2)):  # elbow down, elbow up
        q1 = heading - math.atan2(L2 * math.sin(q2), L1 + L2 * math.cos(q2))
        solutions.append(np.array([wrap_angle(q1), q2]))
    if qc is not None:
        dist = [_norm(wrap_angle(s - qc)) for s in solutions]
        q = solutions[int(np.argmin(dist))]
    else:
        q = solutions[0] if elbow in (None, "down") else solutions[1]
    msg = "analytic solution"
    if r < 1e-12:
        msg = "target at the base (L1 = L2): q1 is arbitrary, a continuum of solutions"
    elif abs(c2) == 1.0:
        msg = "target on the workspace boundary: both branches coincide (singular configuration)"
    error = _norm(_two_link_tip(q, L1, L2) - (x, y))
    tol = max(TOL_POSITION, 1e-9 * (L1 + L2))
    if error > tol:  # rounding at this size of arm: say so instead of claiming convergence
        return IKResult(q=q, converged=False, iterations=0, position_error=error, orientation_error=0.0,
                        status="imprecise", solutions=tuple(solutions),
                        message=f"rounding leaves a position error of {error:.3g} m > {tol:.3g} m at this arm "
                                f"size (L1 + L2 = {L1 + L2:.3g} m)")
    return IKResult(q=q, converged=True, iterations=0, position_error=error, orientation_error=0.0,
                    status="converged", message=msg, solutions=tuple(solutions))


def _law_of_cosines(r: float, L1: float, L2: float) -> float:
    """c2 = (r^2 - L1^2 - L2^2) / (2 L1 L2), computed in units of max(r, L1, L2) (no overflow)."""
    s = max(r, L1, L2)
    rho, l1, l2 = r / s, L1 / s, L2 / s
    num, den = rho * rho - l1 * l1 - l2 * l2, 2.0 * l1 * l2
    if den == 0.0:  # one link is negligible next to the other
        return math.copysign(math.inf, num) if num != 0.0 else 0.0
    return num / den


def nullspace_motion(robot: DHRobot, q0, gradient: Callable[[np.ndarray], np.ndarray], steps: int = 50,
                     gain: float = 0.1, task="planar_position") -> np.ndarray:
    """Self-motion (自运动) of a redundant arm: (steps + 1, n) joint path that keeps the task fixed.

        q_{k+1} = q_k + J^+ e_k + N_k (gain * gradient(q_k)),    N = I - J^+ J,

    e_k = task error to the initial pose x(q0): the first term removes the second-order drift
    of the straight null-space step, the second moves the arm inside the null space, up the
    gradient of a secondary objective H (pass minus a cost gradient to lower a cost).

    >>> from kinematics_lib import planar_arm, dh_end_effector
    >>> arm = planar_arm([1.0, 0.8, 0.5])
    >>> path = nullspace_motion(arm, [0.2, 0.6, 0.6], lambda q: -q, steps=30)
    >>> bool(np.linalg.norm(dh_end_effector(arm, path[-1])[:2, 3] - dh_end_effector(arm, path[0])[:2, 3]) < 1e-6)
    True
    """
    rows = list(task_rows(task))
    q = check.vector(q0, check.instance(robot, DHRobot, "robot").n, "q0")
    gain = check.scalar(gain, "gain")
    check.function(gradient, "gradient")
    steps = check.integer(steps, "steps", 0, 100_000)
    T_0 = dh_end_effector(robot, q)
    path = [q]
    for k in range(steps):
        J = geometric_jacobian(robot, q)[rows]
        e = pose_error(dh_end_effector(robot, q), T_0)[rows]
        z = gain * check.vector(gradient(q), robot.n, "gradient(q)")
        q = q + pinv_step(J, e) + nullspace_projector(J) @ z
        if not np.isfinite(q).all():
            raise check.InputError(f"the path became non-finite at step {k + 1}: gain = {gain} or the gradient "
                                   "values are too large")
        path.append(q)
    return np.array(path)


@dataclass(frozen=True)
class ResolvedRateResult:
    """Time series of a velocity-level IK run: t (N,), q (N, n), x (N, m) actual, x_des (N, m), error (N,) in m."""

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
    integrator: str = "euler",
) -> ResolvedRateResult:
    """Velocity-level IK (resolved-rate control) integrated with a fixed step dt:

        qdot = J^+ (xdot_des + Kp (x_des - x))          (damping = 0)
        qdot = J^T (J J^T + lambda^2 I)^-1 (...)        (damping = lambda > 0)

    integrator 'euler' (default): q_{k+1} = q_k + dt qdot_k, first order; 'rk4' for comparison.
    Kp = 0 is the open-loop scheme: the integration error of each step (O(dt^2) from the
    curvature of x(q) and of the path) accumulates into a drift (漂移) that grows with t and is
    proportional to dt. Kp > 0 (1/s) closes the loop on the measured position so the error
    stays bounded. The task must be a position task (rows 0..2 only); x in m, t in s.
    """
    rows = task_rows(task)
    if any(r > 2 for r in rows):
        raise check.InputError(f"task must contain position rows only (0, 1, 2), got {rows}")
    check.instance(robot, DHRobot, "robot")
    q = check.vector(q0, robot.n, "q0")
    for fn, name in ((x_des, "x_des"), (xdot_des, "xdot_des")):
        check.function(fn, name)
    check.one_of(integrator, ("euler", "rk4"), "integrator")
    Kp, damping = check.nonnegative(Kp, "Kp"), check.nonnegative(damping, "damping")
    t_final, dt = check.positive(t_final, "t_final"), check.positive(dt, "dt")
    steps = round(t_final / dt)
    if steps > 1_000_000:
        raise check.InputError(f"t_final / dt must be at most 1e6 steps, got t_final = {t_final:g} s, dt = {dt:g} s")
    rows = list(rows)

    def position(qq):
        return dh_end_effector(robot, qq)[:3, 3][rows]

    def qdot(tk, qq):
        J = geometric_jacobian(robot, qq)[rows]
        xd = check.vector(x_des(tk), len(rows), "x_des(t)")
        v = check.vector(xdot_des(tk), len(rows), "xdot_des(t)") + Kp * (xd - position(qq))
        return pinv_step(J, v) if damping == 0.0 else dls_step(J, v, damping)

    t = np.arange(steps + 1) * dt
    qs = [q]
    for k in range(steps):
        if integrator == "euler":
            q = q + dt * qdot(t[k], q)
        else:
            k1 = qdot(t[k], q)
            k2 = qdot(t[k] + dt / 2, q + dt / 2 * k1)
            k3 = qdot(t[k] + dt / 2, q + dt / 2 * k2)
            k4 = qdot(t[k] + dt, q + dt * k3)
            q = q + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        if not np.isfinite(q).all():
            raise check.InputError(f"q became non-finite at t = {t[k + 1]:.4g} s: Kp, dt or the x_des / xdot_des "
                                   "values are too large")
        qs.append(q)
    x = np.array([position(qq) for qq in qs])
    xd = np.array([check.vector(x_des(tk), len(rows), "x_des(t)") for tk in t])
    error = np.array([_norm(d) for d in x - xd])
    return ResolvedRateResult(t=t, q=np.array(qs), x=x, x_des=xd, error=check.finite_result(
        error, "the tracking error", "x_des"))

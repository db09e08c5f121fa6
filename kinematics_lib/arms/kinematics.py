"""Differential kinematics of serial arms: geometric Jacobian (雅可比矩阵), manipulability, singularities.

The geometric Jacobian J (6, n) maps joint velocities to the end-effector twist

    [v_E; w_E] = J(q) qdot,   rows [linear; angular], world-aligned axes, at the end-effector origin,

column by column

    revolute  joint i:  J_i = [z_i x (p_E - p_i); z_i]
    prismatic joint i:  J_i = [z_i; 0]

with z_i the joint axis and p_i a point on it, both in the world frame. By the principle of
virtual work the same matrix maps an end-effector wrench F = [force; moment] to the joint
torques that balance it: tau = J^T F.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import _validate as check
from .dh import DHRobot, dh_end_effector, dh_joint_axes
from ..geometry.rotations import so3_log

__all__ = [
    "geometric_jacobian",
    "jacobian_from_axes",
    "numerical_jacobian",
    "manipulability_gradient",
    "task_rows",
    "manipulability",
    "condition_number",
    "SingularityReport",
    "singularity_report",
]

#: Named subsets of the 6 Jacobian rows [vx, vy, vz, wx, wy, wz].
TASKS = {
    "pose": (0, 1, 2, 3, 4, 5),
    "position": (0, 1, 2),
    "planar_position": (0, 1),
    "planar_pose": (0, 1, 5),
}


def task_rows(task) -> tuple[int, ...]:
    """Row indices of a task: a name in ``TASKS`` or an explicit tuple of rows of [v; w]."""
    if isinstance(task, str):
        return TASKS[check.one_of(task, TASKS, "task")]
    want = f"task must be a name in {sorted(TASKS)} or distinct rows in 0..5"
    if not isinstance(task, (list, tuple, np.ndarray)):
        raise check.InputError(f"{want}, got {check.describe(task)}")
    rows = tuple(check.integer(r, f"task[{k}]", 0, 5) for k, r in enumerate(task))
    if not rows or len(set(rows)) != len(rows):
        raise check.InputError(f"{want}, got {task!r}")
    return rows


def _jacobian(J, name: str = "J", wide: bool = True) -> np.ndarray:
    """A finite Jacobian (m, n) with m, n >= 1 and (wide) m <= n: a task no larger than the joint space."""
    J = check.matrix(J, (None, None), name)
    if 0 in J.shape:
        raise check.InputError(f"{name} must have at least one row and one column, got shape {J.shape}")
    if wide and J.shape[0] > J.shape[1]:
        raise check.InputError(f"{name} must have at most as many rows as columns, got shape {J.shape}")
    return J


def jacobian_from_axes(z, p, p_E, joint_types: str) -> np.ndarray:
    """Geometric Jacobian (6, n) from joint axes z (n, 3), points p (n, 3) and the end point p_E (3,).

    Column i is [z_i x (p_E - p_i); z_i] for 'R' and [z_i; 0] for 'P' (world frame, m).

    >>> jacobian_from_axes([[0, 0, 1]], [[0, 0, 0]], [1, 0, 0], "R")[:, 0]
    array([0., 1., 0., 0., 0., 1.])
    """
    if not isinstance(joint_types, str) or not joint_types or set(joint_types) - {"R", "P"}:
        raise check.InputError(f"joint_types must be a string of 'R'/'P' letters (one per row of z), "
                               f"got {joint_types!r}")
    n = len(joint_types)
    for x, name in ((z, "z"), (p, "p")):
        if np.shape(x)[:1] not in ((n,),) and np.ndim(x) == 2:
            raise check.InputError(f"{name} must have shape ({n}, 3), one row per letter of joint_types "
                                   f"{joint_types!r}, got shape {np.shape(x)}")
    z = check.matrix(z, (n, 3), "z")
    p = check.matrix(p, (n, 3), "p")
    p_E = check.vector(p_E, 3, "p_E")
    J = np.zeros((6, n))
    for i, kind in enumerate(joint_types):
        if kind == "R":
            J[:3, i] = np.cross(z[i], p_E - p[i])
            J[3:, i] = z[i]
        else:
            J[:3, i] = z[i]
    return J


def geometric_jacobian(robot: DHRobot, q) -> np.ndarray:
    """Geometric Jacobian (6, n) of a DH arm at q: rows [linear; angular], world axes, at the tool point.

    Standard DH: joint i turns about z_{i-1} through p_{i-1}; modified DH: about z_i through p_i.
    Both index the same physical axis, so both tables of one arm give the same J.

    >>> from kinematics_lib import planar_arm
    >>> np.round(geometric_jacobian(planar_arm([1.0, 1.0]), [0.0, np.pi / 2])[[0, 1, 5]], 12) + 0.0
    array([[-1., -1.],
           [ 1.,  0.],
           [ 1.,  1.]])
    """
    check.instance(robot, DHRobot, "robot")
    z, p, T_WE = dh_joint_axes(robot, q)
    return jacobian_from_axes(z, p, T_WE[:3, 3], robot.joint_types)


def numerical_jacobian(fk, q, h: float = 1e-6) -> np.ndarray:
    """Central-difference Jacobian (6, n) of a forward kinematics q -> T_WE (4, 4).

    Column i, with T^+ = fk(q + h e_i) and T^- = fk(q - h e_i):
        linear rows   (p^+ - p^-) / (2 h)
        angular rows  log(R^+ (R^-)^T) / (2 h)      (world-aligned angular velocity)
    Both are O(h^2) accurate. fk: a :class:`DHRobot` or a callable; h in rad (or m).

    >>> from kinematics_lib import planar_arm
    >>> arm = planar_arm([1.0, 1.0])
    >>> bool(np.allclose(numerical_jacobian(arm, [0.3, 0.4]), geometric_jacobian(arm, [0.3, 0.4]), atol=1e-8))
    True
    """
    if isinstance(fk, DHRobot):
        robot = fk
        fk = lambda qq: dh_end_effector(robot, qq)  # noqa: E731
    elif not callable(fk):
        raise check.InputError(f"fk must be a DHRobot or a callable q -> T (4, 4), got {check.describe(fk)}")
    q = check.vector(q, None, "q")
    if q.shape[0] == 0:
        raise check.InputError("q must have at least one joint, got an empty vector")
    h = check.positive(h, "h")
    J = np.zeros((6, q.shape[0]))
    for i in range(q.shape[0]):
        dq = np.zeros_like(q)
        dq[i] = h
        T_plus = check.transform(fk(q + dq), "fk(q)")
        T_minus = check.transform(fk(q - dq), "fk(q)")
        J[:3, i] = (T_plus[:3, 3] - T_minus[:3, 3]) / (2.0 * h)
        J[3:, i] = so3_log(T_plus[:3, :3] @ T_minus[:3, :3].T) / (2.0 * h)
    return check.finite_result(J, "the difference quotient", "q, h (or fk's values)")


def manipulability(J) -> float:
    """Yoshikawa's manipulability (可操作度) w = sqrt(det(J J^T)) = product of the singular values.

    J: (m, n) with m <= n. For a square J this is |det J|; it is 0 exactly at a singularity.

    >>> manipulability(np.diag([2.0, 0.5]))
    1.0
    """
    s = np.linalg.svd(_jacobian(J), compute_uv=False)
    return float(check.finite_result(np.prod(s), "the manipulability", "J"))


def manipulability_gradient(robot: DHRobot, q, task="pose", h: float = 1e-6) -> np.ndarray:
    """grad_q w (n,) of the manipulability w(q) of the task Jacobian, by central differences.

    Used as a null-space objective: moving along +grad w steers a redundant arm away from
    singularities (w = 0) without moving the end effector.

    >>> from kinematics_lib import planar_arm
    >>> g = manipulability_gradient(planar_arm([1.0, 1.0]), [0.0, 0.5], task="planar_position")
    >>> np.round(g, 6) + 0.0    # w = L1 L2 |sin q2|: dw/dq2 = cos(0.5)
    array([0.      , 0.877583])
    """
    rows = list(task_rows(task))
    q = check.vector(q, check.instance(robot, DHRobot, "robot").n, "q")
    h = check.positive(h, "h")
    if len(rows) > robot.n:
        raise check.InputError(f"task must have at most {robot.n} rows (the robot's joints), got {len(rows)}: "
                               "the manipulability of a taller Jacobian is zero everywhere")
    grad = np.zeros(robot.n)
    for i in range(robot.n):
        dq = np.zeros(robot.n)
        dq[i] = h
        w_plus = manipulability(geometric_jacobian(robot, q + dq)[rows])
        w_minus = manipulability(geometric_jacobian(robot, q - dq)[rows])
        grad[i] = (w_plus - w_minus) / (2.0 * h)
    return check.finite_result(grad, "the gradient", "q, h")


def condition_number(J) -> float:
    """kappa = sigma_max / sigma_min of J; ``inf`` at a singularity (never NaN).

    sigma_min counts as zero below 1e-15 sigma_max (round-off level).

    >>> condition_number(np.diag([2.0, 0.5])), condition_number(np.diag([1.0, 0.0]))
    (4.0, inf)
    """
    s = np.linalg.svd(_jacobian(J, wide=False), compute_uv=False)
    return float("inf") if s[-1] <= 1e-15 * max(s[0], 1e-300) else float(s[0] / s[-1])


@dataclass(frozen=True)
class SingularityReport:
    """Result of :func:`singularity_report`.

    singular: True when sigma_min < tol * sigma_max (or the rank is below the task dimension).
    rank: numerical rank; sigma: singular values (descending); kappa: condition number.
    lost_direction: the task-space direction (unit, length = rows of J) of the smallest
        singular value -- the direction the end effector cannot move in at a singularity.
    """

    singular: bool
    rank: int
    sigma: np.ndarray
    kappa: float
    manipulability: float
    lost_direction: np.ndarray

    def __str__(self) -> str:
        state = "SINGULAR" if self.singular else "regular"
        return (f"{state}: rank {self.rank}, sigma_min = {self.sigma[-1]:.3e}, "
                f"kappa = {self.kappa:.3g}, w = {self.manipulability:.4g}")


def singularity_report(J, tol: float = 1e-6) -> SingularityReport:
    """Singular values, rank and lost direction of a (task) Jacobian J (m, n), m <= n.

    The threshold is relative: singular when sigma_min / sigma_max < tol. Engineering
    practice often flags "near singular" already at kappa > 1e3; compare ``kappa`` yourself.
    (det J = 0 is the same test for a square J only; sigma_min works for any shape.)

    >>> from kinematics_lib import planar_arm
    >>> J = geometric_jacobian(planar_arm([1.0, 1.0]), [0.3, 0.0])[:2]    # 2R stretched
    >>> rep = singularity_report(J)
    >>> rep.singular, rep.rank, np.round(np.abs(rep.lost_direction), 6)
    (True, 1, array([0.955336, 0.29552 ]))
    """
    J = _jacobian(J)
    tol = check.positive(tol, "tol")
    U, s, _ = np.linalg.svd(J)
    rank = int(np.sum(s > tol * max(s[0], 1e-300)))
    return SingularityReport(
        singular=rank < J.shape[0],
        rank=rank,
        sigma=s,
        kappa=condition_number(J),
        manipulability=float(check.finite_result(np.prod(s), "the manipulability", "J")),
        lost_direction=U[:, -1].copy(),
    )

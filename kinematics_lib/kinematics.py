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

from . import _validate as check
from .dh import DHRobot, dh_joint_axes

__all__ = [
    "geometric_jacobian",
    "jacobian_from_axes",
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
    rows = tuple(int(r) for r in task)
    if not rows or any(r < 0 or r > 5 for r in rows) or len(set(rows)) != len(rows):
        raise ValueError(f"task must be a name in {sorted(TASKS)} or distinct rows in 0..5, got {task!r}")
    return rows


def jacobian_from_axes(z, p, p_E, joint_types: str) -> np.ndarray:
    """Geometric Jacobian (6, n) from joint axes z (n, 3), points p (n, 3) and the end point p_E (3,)."""
    n = len(joint_types)
    J = np.zeros((6, n))
    for i, kind in enumerate(joint_types):
        if kind == "R":
            J[:3, i] = np.cross(z[i], p_E - p[i])
            J[3:, i] = z[i]
        else:
            J[:3, i] = z[i]
    return J


def geometric_jacobian(robot: DHRobot, q) -> np.ndarray:
    """Geometric Jacobian (6, n) of a DH arm at q: rows [linear; angular], world axes, at the tool point."""
    z, p, T_WE = dh_joint_axes(robot, q)
    return jacobian_from_axes(z, p, T_WE[:3, 3], robot.joint_types)


def manipulability(J) -> float:
    """Yoshikawa's manipulability w = sqrt(det(J J^T)) = product of the singular values of J (m x n, m <= n)."""
    J = check.matrix(J, (None, None), "J")
    if J.shape[0] > J.shape[1]:
        raise ValueError(f"J must have at most as many rows as columns, got shape {J.shape}")
    return float(np.prod(np.linalg.svd(J, compute_uv=False)))


def condition_number(J) -> float:
    """kappa = sigma_max / sigma_min of J; ``inf`` at a singularity (never NaN)."""
    s = np.linalg.svd(check.matrix(J, (None, None), "J"), compute_uv=False)
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
    """
    J = check.matrix(J, (None, None), "J")
    if J.shape[0] > J.shape[1]:
        raise ValueError(f"J must have at most as many rows as columns, got shape {J.shape}")
    U, s, _ = np.linalg.svd(J)
    rank = int(np.sum(s > tol * max(s[0], 1e-300)))
    return SingularityReport(
        singular=rank < J.shape[0],
        rank=rank,
        sigma=s,
        kappa=condition_number(J),
        manipulability=float(np.prod(s)),
        lost_direction=U[:, -1].copy(),
    )

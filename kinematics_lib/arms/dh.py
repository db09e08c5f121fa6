"""Denavit-Hartenberg (DH 参数) link transforms and forward kinematics of serial arms.

Two conventions are in use and they are easy to mix up:

* **standard DH** (标准 DH, Denavit & Hartenberg 1955; Spong, Siciliano): frame {i} sits at the
  *far* end of link i, on the axis of joint i+1, and

      A_i = Rz(theta_i) Tz(d_i) Tx(a_i) Rx(alpha_i).

  Joint i turns about z_{i-1}.

* **modified DH** (改进 DH, Craig 1986): frame {i} sits at the *near* end of link i, on the axis
  of joint i itself, and

      A_i = Rx(alpha_{i-1}) Tx(a_{i-1}) Rz(theta_i) Tz(d_i).

  Joint i turns about z_i.

A table row stores (a, alpha, d, theta) in both conventions; in the modified convention the
a and alpha of row i are a_{i-1} and alpha_{i-1}, the offset and twist of the *previous* link.
Because Tx(a) and Rx(alpha) commute, the two conventions describe the same arm with the
(a, alpha) column shifted by one row: see :func:`standard_to_modified`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .. import _validate as check

__all__ = [
    "DHRobot",
    "dh_standard",
    "dh_modified",
    "dh_transform",
    "dh_frames",
    "dh_end_effector",
    "dh_joint_axes",
    "standard_to_modified",
    "modified_to_standard",
    "planar_arm",
    "dh_rule_residuals",
    "fit_dh",
]

CONVENTIONS = ("standard", "modified")


def _link_values(a, alpha, d, theta) -> tuple[float, float, float, float]:
    """The four DH numbers of one row as finite floats (ValueError naming the bad one)."""
    return tuple(check.scalar(v, n) for v, n in ((a, "a"), (alpha, "alpha"), (d, "d"), (theta, "theta")))


def dh_standard(a: float, alpha: float, d: float, theta: float) -> np.ndarray:
    """Standard DH link transform A = Rz(theta) Tz(d) Tx(a) Rx(alpha): (4, 4), metres and rad.

    >>> np.round(dh_standard(1.0, 0.0, 0.0, np.pi / 2)[:3, 3], 12)
    array([0., 1., 0.])
    """
    a, alpha, d, theta = _link_values(a, alpha, d, theta)
    ct, st = math.cos(theta), math.sin(theta)
    ca, sa = math.cos(alpha), math.sin(alpha)
    return np.array(
        [
            [ct, -st * ca, st * sa, a * ct],
            [st, ct * ca, -ct * sa, a * st],
            [0.0, sa, ca, d],
            [0.0, 0.0, 0.0, 1.0],
        ]
    )


def dh_modified(a: float, alpha: float, d: float, theta: float) -> np.ndarray:
    """Modified (Craig) DH link transform A = Rx(alpha) Tx(a) Rz(theta) Tz(d): (4, 4).

    Here ``a`` and ``alpha`` are a_{i-1} and alpha_{i-1} of the row.

    >>> np.round(dh_modified(1.0, 0.0, 0.0, np.pi / 2)[:3, 3], 12) + 0.0
    array([1., 0., 0.])
    """
    a, alpha, d, theta = _link_values(a, alpha, d, theta)
    ct, st = math.cos(theta), math.sin(theta)
    ca, sa = math.cos(alpha), math.sin(alpha)
    return np.array(
        [
            [ct, -st, 0.0, a],
            [st * ca, ct * ca, -sa, -sa * d],
            [st * sa, ct * sa, ca, ca * d],
            [0.0, 0.0, 0.0, 1.0],
        ]
    )


def dh_transform(a: float, alpha: float, d: float, theta: float, convention: str = "standard") -> np.ndarray:
    """Link transform in the named convention ('standard' or 'modified')."""
    check.one_of(convention, CONVENTIONS, "convention")
    return (dh_standard if convention == "standard" else dh_modified)(a, alpha, d, theta)


def _column(values, n: int, name: str) -> np.ndarray:
    arr = check.vector(values, None, name)
    if arr.shape[0] != n:
        raise check.InputError(f"{name} must have shape ({n},), one entry per row of the table like a's, "
                               f"got shape {arr.shape}")
    arr = arr.copy()
    arr.setflags(write=False)
    return arr


@dataclass(frozen=True)
class DHRobot:
    """A serial arm given by a DH table (frozen: algorithms never modify it).

    a, alpha, d, theta: (n,) columns of the table (m, rad). For a revolute joint theta is the
        constant offset added to q_i; for a prismatic joint d is the offset added to q_i.
    joint_types: string of 'R' (revolute) / 'P' (prismatic), one letter per joint.
    convention: 'standard' or 'modified' (see the module docstring).
    q_min, q_max: optional joint limits (n,) (rad or m); None means unlimited.
    T_base: pose of DH frame 0 in the world; T_tool: pose of the end effector in frame n.
    """

    a: np.ndarray
    alpha: np.ndarray
    d: np.ndarray
    theta: np.ndarray
    joint_types: str = ""
    convention: str = "standard"
    name: str = "arm"
    q_min: np.ndarray | None = None
    q_max: np.ndarray | None = None
    T_base: np.ndarray = field(default_factory=lambda: np.eye(4))
    T_tool: np.ndarray = field(default_factory=lambda: np.eye(4))

    def __post_init__(self):
        n = check.vector(self.a, None, "a").shape[0]
        if n == 0:
            raise ValueError("a must have one entry per joint (at least one), got an empty column")
        set_ = object.__setattr__
        for name in ("a", "alpha", "d", "theta"):
            set_(self, name, _column(getattr(self, name), n, name))
        types = check.text(self.joint_types, "joint_types") or "R" * n
        if len(types) != n or set(types) - {"R", "P"}:
            raise check.InputError(f"joint_types must be {n} letters from 'R'/'P' (one per row of a), "
                                   f"got {self.joint_types!r}")
        set_(self, "joint_types", types)
        check.one_of(self.convention, CONVENTIONS, "convention")
        check.text(self.name, "name")
        for name in ("q_min", "q_max"):
            if getattr(self, name) is not None:
                set_(self, name, _column(getattr(self, name), n, name))
        for name in ("T_base", "T_tool"):
            T = check.transform(getattr(self, name), name).copy()
            T.setflags(write=False)
            set_(self, name, T)

    @property
    def n(self) -> int:
        """Number of joints."""
        return self.a.shape[0]


def _robot(robot, name: str = "robot") -> DHRobot:
    return check.instance(robot, DHRobot, name)


def _q(robot: DHRobot, q) -> np.ndarray:
    return check.vector(q, _robot(robot).n, "q")


def dh_frames(robot: DHRobot, q) -> np.ndarray:
    """Poses of DH frames 0..n in the world: (n+1, 4, 4), T_W0 = T_base, T_Wi = T_W(i-1) A_i(q_i)."""
    q = _q(robot, q)
    link = dh_standard if robot.convention == "standard" else dh_modified
    frames = np.empty((robot.n + 1, 4, 4))
    frames[0] = robot.T_base
    for i in range(robot.n):
        revolute = robot.joint_types[i] == "R"
        theta = robot.theta[i] + (q[i] if revolute else 0.0)
        d = robot.d[i] + (0.0 if revolute else q[i])
        frames[i + 1] = frames[i] @ link(robot.a[i], robot.alpha[i], d, theta)
    return frames


def dh_end_effector(robot: DHRobot, q) -> np.ndarray:
    """End-effector pose T_WE = T_Wn T_tool: (4, 4)."""
    return dh_frames(robot, q)[-1] @ robot.T_tool


def dh_joint_axes(robot: DHRobot, q) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Joint axes z_i (n, 3), points p_i on them (n, 3) and the end-effector pose (4, 4), world frame.

    Standard DH: joint i turns about z of frame i-1, through its origin.
    Modified DH: joint i turns about z of frame i, through its origin.
    """
    frames = dh_frames(robot, q)
    joint_frames = frames[:-1] if robot.convention == "standard" else frames[1:]
    return joint_frames[:, :3, 2].copy(), joint_frames[:, :3, 3].copy(), frames[-1] @ robot.T_tool


def standard_to_modified(robot: DHRobot) -> DHRobot:
    """The same arm in the modified convention (same joint variables, same end-effector pose).

    Product of standard links: Rz Tz [Tx(a_1) Rx(alpha_1)] Rz Tz [Tx(a_2) Rx(alpha_2)] ... Tx(a_n) Rx(alpha_n).
    Regrouped, row i of the modified table takes (a_{i-1}, alpha_{i-1}) from row i-1 of the
    standard table (zeros for i = 1), and the last Tx(a_n) Rx(alpha_n) moves into the tool.
    The intermediate frames differ (each sits on its own joint instead of the next one).
    """
    if _robot(robot).convention != "standard":
        raise check.InputError(f"robot must use the standard convention, got {robot.convention!r}")
    tool = dh_standard(robot.a[-1], robot.alpha[-1], 0.0, 0.0) @ robot.T_tool
    return DHRobot(
        a=np.concatenate([[0.0], robot.a[:-1]]),
        alpha=np.concatenate([[0.0], robot.alpha[:-1]]),
        d=robot.d,
        theta=robot.theta,
        joint_types=robot.joint_types,
        convention="modified",
        name=robot.name,
        q_min=robot.q_min,
        q_max=robot.q_max,
        T_base=robot.T_base,
        T_tool=tool,
    )


def modified_to_standard(robot: DHRobot) -> DHRobot:
    """Inverse of :func:`standard_to_modified`: (a_0, alpha_0) moves into the base transform."""
    if _robot(robot).convention != "modified":
        raise check.InputError(f"robot must use the modified convention, got {robot.convention!r}")
    base = robot.T_base @ dh_modified(robot.a[0], robot.alpha[0], 0.0, 0.0)
    return DHRobot(
        a=np.concatenate([robot.a[1:], [0.0]]),
        alpha=np.concatenate([robot.alpha[1:], [0.0]]),
        d=robot.d,
        theta=robot.theta,
        joint_types=robot.joint_types,
        convention="standard",
        name=robot.name,
        q_min=robot.q_min,
        q_max=robot.q_max,
        T_base=base,
        T_tool=robot.T_tool,
    )


def planar_arm(lengths, q_min=None, q_max=None, name: str = "planar arm") -> DHRobot:
    """Planar nR arm in the x-y plane (standard DH: a_i = L_i, alpha = d = theta = 0).

    With this table the end effector is at sum_i L_i (cos, sin)(q_1 + ... + q_i).
    """
    lengths = check.vector(lengths, None, "lengths")
    if lengths.shape[0] == 0 or np.any(lengths <= 0.0):
        raise check.InputError(f"lengths must be at least one positive length, got {lengths}")
    n = lengths.shape[0]
    limits = [None if x is None else _limit_column(x, n, label) for x, label in ((q_min, "q_min"), (q_max, "q_max"))]
    zeros = np.zeros(n)
    return DHRobot(a=lengths, alpha=zeros, d=zeros, theta=zeros, joint_types="R" * n,
                   convention="standard", name=name, q_min=limits[0], q_max=limits[1])


def _limit_column(values, n: int, name: str) -> np.ndarray:
    arr = check.vector(values, None, name)
    if arr.shape[0] != n:
        raise check.InputError(f"{name} must have shape ({n},), one limit per entry of lengths, got shape {arr.shape}")
    return arr


def dh_rule_residuals(T) -> np.ndarray:
    """How far a link transform T = T_{i-1,i} (4, 4) is from the two standard-DH frame rules.

    Rule 1: x_i is perpendicular to z_{i-1}  -> residual x_i . z_{i-1} = T[2, 0].
    Rule 2: the x_i axis intersects the z_{i-1} axis -> the x_i line through p_i is coplanar
    with z_{i-1}: residual (p_i x x_i) . z_{i-1} = p_x x_y - p_y x_x.
    Both are zero exactly when four numbers (a, alpha, d, theta) describe T.
    """
    T = check.transform(T, "T")
    x, p = T[:3, 0], T[:3, 3]
    return np.array([x[2], p[0] * x[1] - p[1] * x[0]])


def fit_dh(T, starts: int = 10, seed: int = 0) -> tuple[np.ndarray, float]:
    """Least-squares standard-DH parameters (a, alpha, d, theta) with dh_standard(...) ~ T.

    Returns the best parameters over ``starts`` seeded random initial guesses and the residual
    norm of the top three rows: zero when T obeys the DH rules (:func:`dh_rule_residuals`), and
    not otherwise -- six degrees of freedom do not fit into four numbers.
    """
    from scipy.optimize import least_squares  # scipy only for this demonstration

    T = check.transform(T, "T")
    if np.abs(T[:3, 3]).max() > 1e6:
        raise check.InputError(f"T must have a translation below 1e6 m to be fitted, got {T[:3, 3]}")
    starts = check.integer(starts, "starts", 1, 1000)
    rng = np.random.default_rng(check.integer(seed, "seed", 0))

    def residual(x):
        return (dh_standard(*x) - T)[:3].ravel()

    best = min((least_squares(residual, x0) for x0 in rng.uniform(-3.0, 3.0, (starts, 4))),
               key=lambda fit: fit.cost)
    return best.x, float(np.linalg.norm(best.fun))

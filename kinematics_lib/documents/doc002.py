"""Document 002 -- "机器人运动学与动力学基础" (kinematics and dynamics for RoboMaster,
``002_96f0a94aa5bb4fd0.txt``) -- its formulas and claims *as written*, errors included.

One function per claim that a chapter checks; each docstring cites the section and says what is
wrong (or that it holds). The correct counterparts live in the maths layers; a chapter calls
both and compares. Sections are grouped by the chapter that uses them.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import sympy as sp

from .. import _validate as check
from .._validate import InputError
from ..arms.dh import DHRobot
from ..arms.shared import sympy_scalar as _sym
from ..mobile.wheels import RollerWheel

__all__ = [
    # chapters 1 and 2
    "dh_a",
    "sym_dh_a",
    "sdh_table_read_as_mdh",
    # chapter 3
    "is_singular",
    "ik_converged",
    # chapter 4
    "two_link_m11",
    # chapter 9
    "wheel_row",
    "mecanum_matrix",
    "mecanum_efficiency",
    # chapter 11
    "reflected_inertia_energy",
]


# ================================================================ chapters 1 and 2: DH


def _dh_a_entries(a, alpha, d, theta, cos, sin):
    ct, st, ca, sa = cos(theta), sin(theta), cos(alpha), sin(alpha)
    return [[ct, -st * ca, st * sa, a * ct], [st, ct * ca, -ct * sa, a * st], [0, sa, ca, d], [0, 0, 0, 1]]


def sym_dh_a(a, alpha, d, theta) -> sp.Matrix:
    """"正运动学：矩阵连乘", the sympy function ``dh_a`` -- "改进 DH 的 A 矩阵" (the modified-DH matrix).

    Its entries, as written (4x4 sympy Matrix; arguments numbers or sympy expressions):
        [[cos t, -sin t cos al, sin t sin al, a cos t], [sin t, cos t cos al, -cos t sin al, a sin t],
         [0, sin al, cos al, d], [0, 0, 0, 1]]
    **Mislabelled:** this is the *standard* DH matrix Rz(theta) Tz(d) Tx(a) Rx(alpha)
    (:func:`kinematics_lib.arms.symbolic.sym_dh_standard`); the document's test result
    L1 cos th1 + L2 cos(th1 + th2) appears only because of that. A genuine modified-DH matrix
    with the same table puts the tip at (L1 + L2 cos th1, L2 sin th1).
    """
    a, alpha, d, theta = (_sym(v, n) for v, n in ((a, "a"), (alpha, "alpha"), (d, "d"), (theta, "theta")))
    return sp.Matrix(_dh_a_entries(a, alpha, d, theta, sp.cos, sp.sin))


def dh_a(a, alpha, d, theta) -> np.ndarray:
    """The numbers of document 002's ``dh_a`` (see :func:`sym_dh_a`), as a (4, 4) float array.

    a, d in m; alpha, theta in rad. **Mislabelled** "modified DH": equals
    :func:`kinematics_lib.dh_standard`, not :func:`kinematics_lib.dh_modified`.

    >>> from kinematics_lib import dh_standard
    >>> bool(np.allclose(dh_a(0.3, 0.7, 0.2, -0.4), dh_standard(0.3, 0.7, 0.2, -0.4)))
    True
    """
    a, alpha, d, theta = (check.scalar(v, n) for v, n in ((a, "a"), (alpha, "alpha"), (d, "d"), (theta, "theta")))
    return np.array(_dh_a_entries(a, alpha, d, theta, math.cos, math.sin), dtype=float)


def sdh_table_read_as_mdh(robot) -> DHRobot:
    """"标准 DH vs 改进 DH": a textbook SDH table filled into a URDF / MDH code, number for number.

    robot: a standard-DH :class:`~kinematics_lib.DHRobot`; returns the same table declared
    ``convention="modified"``. The document says the result is off by "the link's own offset"
    (末端位姿会差一个"连杆自身偏移"), "the gimbal angle by a few degrees". **Wrong:** every
    (a_i, alpha_i) then acts before joint i turns instead of after it; the error depends on q
    and is large (PUMA 560: 0.9 m and 122 deg on average). The exact conversion is the one-row
    shift :func:`kinematics_lib.standard_to_modified`.
    """
    if not isinstance(robot, DHRobot):
        raise InputError(f"robot must be a DHRobot, got {type(robot).__name__}")
    if robot.convention != "standard":
        raise InputError(f"robot must be a standard-DH table (the textbook SDH table), got {robot.convention!r}")
    return dataclasses.replace(robot, convention="modified")


# ================================================================ chapter 3: Jacobians and IK


def is_singular(J, tol: float = 1e-12) -> bool:
    """"雅可比矩阵：速度层与力层的桥梁", item 3: the singular configurations are those with det(J) = 0.

    J (n, n): returns |det J| <= tol. **Incomplete:** the determinant exists for square Jacobians
    only -- a non-square J (a redundant arm, a position-only task) raises here -- and its size
    depends on the units of the rows; test the rank with sigma_min / sigma_max
    (:func:`kinematics_lib.singularity_report`), or det(J J^T), instead.
    """
    J = check.matrix(J, (None, None), "J")
    if J.shape[0] != J.shape[1] or J.size == 0:
        raise InputError(f"J must be square for the det(J) = 0 test of document 002, got shape {J.shape}")
    return bool(abs(np.linalg.det(J)) <= check.positive(tol, "tol"))


def ik_converged(dx, tol: float = 1e-6) -> bool:
    """"数值法：阻尼最小二乘（DLS）", the C++ skeleton's stop test ``if (dx.norm() < 1e-6) break;``.

    dx (m,): the pose error, translation and rotation vector stacked (m and rad, or whatever
    units the caller uses). Returns |dx| < tol. **Unit-dependent:** the norm of a vector that
    mixes metres and radians has no unit, so whether the loop stops depends on the units (the
    same error passes in m and rad and fails in mm or degrees); and the skeleton returns q
    whether or not the test ever passed. Test position and orientation separately, each with
    its own tolerance (:func:`kinematics_lib.ik_newton`).
    """
    dx = check.vector(dx, None, "dx")
    if dx.size == 0:
        raise InputError("dx must not be empty")
    return bool(np.linalg.norm(dx) < check.positive(tol, "tol"))


# ================================================================ chapter 4: Lagrange


def two_link_m11() -> sp.Expr:
    """"二连杆 M/C/G 的 SymPy 推导": the printed M11 = m2 L1^2 + m2 L1 L2 cos q2 + m1 L1^2/4 + m2 L2^2/4.

    Point masses at the link midpoints, rotational inertia ignored ("忽略转动惯量项简化演示").
    A sympy expression in the symbols of :func:`kinematics_lib.two_link_lagrangian`
    (m1, m2, l1, l2 positive, q2 real). **Right** for that model (the difference to
    ``two_link_lagrangian("middle").M[0, 0]`` simplifies to 0); a real uniform rod adds its own
    m L^2 / 12 about its centre, which point masses leave out.
    """
    m1, m2, l1, l2 = sp.symbols("m1 m2 l1 l2", positive=True)
    q2 = sp.Symbol("q2", real=True)
    return m2 * l1**2 + m2 * l1 * l2 * sp.cos(q2) + m1 * l1**2 / 4 + m2 * l2**2 / 4


# ================================================================ chapter 9: mecanum wheels


def wheel_row(wheel) -> np.ndarray:
    """"推导单个轮子的约束方程": the single-wheel equation as written, as a row h with omega_i = h . v.

    R omega_i = cos g (cos th v_x + sin th v_y) + sin g (-sin th v_x + cos th v_y) + L omega,
    with g = wheel.gamma, th = wheel.theta, L = the wheel's distance to the chassis centre, so
    h = [cos(g + th), sin(g + th), L] / R (3,) in rad/s per (m/s, m/s, rad/s).
    **Wrong twice:** the wheel drives the contact point along its driving direction, not along
    the roller, so the projection onto the roller axle carries cos g and the row must be divided
    by it (the formula gives +-1/sqrt 2 where its own matrix has +-1); and the rotation enters as
    the projection of omega z x r_i onto the axle, -(a + b) omega for wheels on one diagonal and
    +(a + b) omega on the other, not +L omega for every wheel (:func:`kinematics_lib.wheel_row`).
    """
    if not isinstance(wheel, RollerWheel):
        raise InputError(f"wheel must be a RollerWheel, got {type(wheel).__name__}")
    g, th = wheel.gamma, wheel.theta
    return np.array([math.cos(g + th), math.sin(g + th), math.hypot(wheel.x, wheel.y)]) / wheel.radius


def mecanum_matrix(half_length, half_width, wheel_radius) -> np.ndarray:
    """"逆运动学矩阵（RoboMaster 底盘标准 X 形布置）": the printed 4x3 matrix, rows = wheels 1..4.

        H = 1/R [[1, -1, -(a+b)], [1, 1, a+b], [1, 1, -(a+b)], [1, -1, a+b]]
    The document does not say which physical wheel is wheel 1..4, and describes the layout as
    "wheels 1/3 the same way, wheels 2/4 opposite" (轮 1/3 同向、轮 2/4 反向). **Right only for
    the numbering FL, FR, RL, RR** (row by row, front to back; then it equals
    :func:`kinematics_lib.mecanum_matrix`), where the wheels with the same roller handedness are
    1 & 4 and 2 & 3. The sentence fits the around-the-chassis numbering FL, FR, RR, RL, for which
    this matrix fails the single-wheel check (:func:`kinematics_lib.single_wheel_check`).
    """
    a = check.positive(half_length, "half_length")
    b = check.positive(half_width, "half_width")
    R = check.positive(wheel_radius, "wheel_radius")
    k = a + b
    return np.array([[1.0, -1.0, -k], [1.0, 1.0, k], [1.0, 1.0, -k], [1.0, -1.0, k]]) / R


def mecanum_efficiency(gamma) -> float:
    """"为什么效率低？": the "theoretical efficiency limit" cos(gamma) of a roller wheel (cos 45 deg = 70.7 %).

    gamma: roller angle (rad), |gamma| < pi/2. The document says part of the drive power "leaks"
    through the rollers (驱动功率的一部分被辊子滚动"泄掉"). **Wrong:** an ideal roller pushes on
    the ground only along its axle and moves freely across it, so no power leaks -- by virtual
    work sum tau_i omega_i = F . v exactly (efficiency 1). What cos(gamma) limits is traction:
    the largest push of the chassis is cos(gamma) mu m g (:func:`kinematics_lib.max_chassis_force`).
    """
    g = check.scalar(gamma, "gamma")
    if not abs(g) < math.pi / 2:
        raise InputError(f"gamma must be in (-pi/2, pi/2), got {gamma}")
    return math.cos(g)


# ================================================================ chapter 11: reflected inertia through a gearbox


def reflected_inertia_energy(J_motor: float, J_load: float, ratio: float) -> float:
    """Document 002, "减速器课程设计": the energy balance written under J_eff = J_m + J_l / n^2.

    As written: 1/2 J_m omega_m^2 = 1/2 J_eff omega_l^2 with omega_m = n omega_l, which gives
    J_eff = n^2 J_m (returned, kg m^2; J_load is accepted and, as in the document, unused).

    What is wrong: the balance counts only the rotor's kinetic energy, so J_l drops out, and it
    puts J_eff on the *load* speed, so the result is a load-side inertia (n^2 J_m), not the
    motor-side J_m + J_l / n^2 stated above it. The correct balance counts both bodies:
    1/2 J_m omega_m^2 + 1/2 J_l omega_l^2 = 1/2 (J_m + J_l / n^2) omega_m^2.
    (The stated results J_eff = J_m + J_l / n^2 and tau_l = n eta tau_m are right.)
    """
    J_m, n = check.scalar(J_motor, "J_motor"), check.positive(ratio, "ratio")
    J_l = check.scalar(J_load, "J_load")
    if J_m < 0 or J_l < 0:
        raise check.InputError("J_motor and J_load must be >= 0 (kg m^2)")
    with np.errstate(over="ignore"):
        return check.finite_result(float(np.float64(n) ** 2 * J_m), "J_eff", "J_motor, ratio")

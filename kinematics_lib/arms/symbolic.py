"""Symbolic (sympy) DH link transforms and forward kinematics (符号正运动学).

The same formulas as :mod:`kinematics_lib.arms.dh`, built from the elementary 4x4 transforms as
products of sympy matrices, so that a DH table can be checked against geometric intuition:
for the planar 2-link arm the end effector comes out as
(L1 cos q1 + L2 cos(q1 + q2), L1 sin q1 + L2 sin(q1 + q2)).

* standard DH (标准 DH):  A_i = Rz(theta_i) Tz(d_i) Tx(a_i) Rx(alpha_i)
* modified DH (改进 DH):  A_i = Rx(alpha_{i-1}) Tx(a_{i-1}) Rz(theta_i) Tz(d_i)

Arguments may be sympy expressions or plain numbers; numbers are converted exactly where
possible (``sym_robot_fk`` recognises rational multiples of pi). sympy is imported here only,
so the numeric library never needs it.
"""

from __future__ import annotations

import sympy as sp

from .. import _validate as check

__all__ = [
    "sym_rot_x",
    "sym_rot_z",
    "sym_trans_x",
    "sym_trans_z",
    "sym_dh_standard",
    "sym_dh_modified",
    "sym_dh_transform",
    "sym_forward_kinematics",
    "sym_robot_fk",
]

CONVENTIONS = ("standard", "modified")


def _sym(x, name: str) -> sp.Expr:
    """x as a sympy expression; ValueError (naming the argument) if it is not one or not finite.

    Strings are refused (sympy would parse them into symbols silently: 'abc' is not a number).
    """
    if isinstance(x, (str, bytes)) or x is None:
        raise check.InputError(f"{name} must be a number or a sympy expression, got {x!r}")
    try:
        e = sp.sympify(x, strict=True)
    except (sp.SympifyError, TypeError, ValueError):
        raise check.InputError(f"{name} must be a number or a sympy expression, got {x!r}") from None
    if not isinstance(e, sp.Expr) or e.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
        raise check.InputError(f"{name} must be a finite scalar expression, got {x!r}")
    return e


def sym_rot_x(angle) -> sp.Matrix:
    """4x4 rotation about x by ``angle`` (rad): Rx."""
    c, s = sp.cos(_sym(angle, "angle")), sp.sin(_sym(angle, "angle"))
    return sp.Matrix([[1, 0, 0, 0], [0, c, -s, 0], [0, s, c, 0], [0, 0, 0, 1]])


def sym_rot_z(angle) -> sp.Matrix:
    """4x4 rotation about z by ``angle`` (rad): Rz."""
    c, s = sp.cos(_sym(angle, "angle")), sp.sin(_sym(angle, "angle"))
    return sp.Matrix([[c, -s, 0, 0], [s, c, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]])


def sym_trans_x(distance) -> sp.Matrix:
    """4x4 translation along x by ``distance`` (m): Tx."""
    return sp.Matrix([[1, 0, 0, _sym(distance, "distance")], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]])


def sym_trans_z(distance) -> sp.Matrix:
    """4x4 translation along z by ``distance`` (m): Tz."""
    return sp.Matrix([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, _sym(distance, "distance")], [0, 0, 0, 1]])


def sym_dh_standard(a, alpha, d, theta) -> sp.Matrix:
    """Standard DH link transform A = Rz(theta) Tz(d) Tx(a) Rx(alpha) (4x4 sympy Matrix).

    >>> t = sp.Symbol("t")
    >>> sym_dh_standard(1, 0, 0, t)[:2, 3].T
    Matrix([[cos(t), sin(t)]])
    """
    a, alpha, d, theta = (_sym(v, n) for v, n in ((a, "a"), (alpha, "alpha"), (d, "d"), (theta, "theta")))
    return sym_rot_z(theta) @ sym_trans_z(d) @ sym_trans_x(a) @ sym_rot_x(alpha)


def sym_dh_modified(a, alpha, d, theta) -> sp.Matrix:
    """Modified (Craig) DH link transform A = Rx(alpha) Tx(a) Rz(theta) Tz(d) (4x4 sympy Matrix);
    ``a`` and ``alpha`` are a_{i-1} and alpha_{i-1} of the row.

    >>> t = sp.Symbol("t")
    >>> sym_dh_modified(1, 0, 0, t)[:2, 3].T  # the a of this row is *before* the joint turns
    Matrix([[1, 0]])
    """
    a, alpha, d, theta = (_sym(v, n) for v, n in ((a, "a"), (alpha, "alpha"), (d, "d"), (theta, "theta")))
    return sym_rot_x(alpha) @ sym_trans_x(a) @ sym_rot_z(theta) @ sym_trans_z(d)


def sym_dh_transform(a, alpha, d, theta, convention: str = "standard") -> sp.Matrix:
    """Link transform in the named convention ('standard' or 'modified')."""
    check.one_of(convention, CONVENTIONS, "convention")
    return (sym_dh_standard if convention == "standard" else sym_dh_modified)(a, alpha, d, theta)


def sym_forward_kinematics(rows, convention: str = "standard", simplify: bool = True) -> sp.Matrix:
    """T_0n = A_1 A_2 ... A_n for DH rows (a, alpha, d, theta) (4x4 sympy Matrix).

    With ``simplify`` each entry goes through ``sympy.trigsimp`` (collects cos(q1 + q2) etc.).

    >>> q1, q2, L1, L2 = sp.symbols("q1 q2 L1 L2")
    >>> T = sym_forward_kinematics([(L1, 0, 0, q1), (L2, 0, 0, q2)])
    >>> T[0, 3], T[1, 3]
    (L1*cos(q1) + L2*cos(q1 + q2), L1*sin(q1) + L2*sin(q1 + q2))
    """
    check.one_of(convention, CONVENTIONS, "convention")
    if not isinstance(rows, (list, tuple)) or not rows or any(
            not isinstance(r, (list, tuple)) or len(r) != 4 for r in rows):
        raise check.InputError(f"rows must be a non-empty list of (a, alpha, d, theta) rows, got {rows!r}")
    T = sp.eye(4)
    for k, row in enumerate(rows):
        a, alpha, d, theta = (_sym(v, f"rows[{k}] {n}") for v, n in zip(row, ("a", "alpha", "d", "theta")))
        T = T @ sym_dh_transform(a, alpha, d, theta, convention)
    return T.applyfunc(sp.trigsimp) if simplify else T


def _exact(x: float) -> sp.Expr:
    """A float as an exact number: a rational multiple of pi if it is one, else a rational."""
    return sp.nsimplify(float(x), [sp.pi], tolerance=1e-12, rational=False)


def sym_robot_fk(robot, q=None, simplify: bool = False) -> tuple[sp.Matrix, list]:
    """(T_WE, q): the symbolic end-effector pose of a numeric :class:`~kinematics_lib.arms.dh.DHRobot`.

    q: joint symbols (default q1..qn). Revolute joints add q_i to theta_i, prismatic ones to d_i;
    T_base and T_tool are included, so T_WE matches ``dh_end_effector(robot, q)``.
    """
    from .dh import DHRobot

    check.instance(robot, DHRobot, "robot")
    if q is None:
        q = list(sp.symbols(f"q1:{robot.n + 1}", real=True))
    if not isinstance(q, (list, tuple)) or len(q) != robot.n:
        raise check.InputError(f"q must be a list of {robot.n} joint symbols, got {q!r}")
    q = [_sym(v, "q") for v in q]
    rows = []
    for i in range(robot.n):
        a, alpha, d, theta = (_exact(c[i]) for c in (robot.a, robot.alpha, robot.d, robot.theta))
        rows.append((a, alpha, d + q[i], theta) if robot.joint_types[i] == "P" else (a, alpha, d, theta + q[i]))
    base = sp.Matrix(4, 4, [_exact(v) for v in robot.T_base.ravel()])
    tool = sp.Matrix(4, 4, [_exact(v) for v in robot.T_tool.ravel()])
    T = base @ sym_forward_kinematics(rows, robot.convention, simplify=False) @ tool
    return (T.applyfunc(sp.trigsimp) if simplify else T), q

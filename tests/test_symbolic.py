"""Symbolic DH (sympy) against the numeric library and against plane geometry."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

import kinematics_lib as kl
from kinematics_lib.arms.symbolic import (sym_dh_modified, sym_dh_standard, sym_dh_transform,
                                     sym_forward_kinematics, sym_robot_fk)
from kinematics_lib.notebook.views.rigid import puma560

a, alpha, d, theta = sp.symbols("a alpha d theta", real=True)


def numeric(expr, symbols):
    return sp.lambdify(symbols, expr, "numpy")


@pytest.mark.parametrize("sym, num", [(sym_dh_standard, kl.dh_standard), (sym_dh_modified, kl.dh_modified)])
def test_symbolic_link_matches_numeric_link(sym, num):
    f = numeric(sym(a, alpha, d, theta), (a, alpha, d, theta))
    rng = np.random.default_rng(7)
    for values in rng.normal(size=(50, 4)) * 2.0:
        assert np.allclose(np.array(f(*values), dtype=float), num(*values))


def test_sym_dh_transform_dispatches_on_the_convention():
    assert sym_dh_transform(a, alpha, d, theta, "standard") == sym_dh_standard(a, alpha, d, theta)
    assert sym_dh_transform(a, alpha, d, theta, "modified") == sym_dh_modified(a, alpha, d, theta)


def test_planar_two_link_recovers_the_geometric_formula():
    q1, q2, L1, L2 = sp.symbols("q1 q2 L1 L2", real=True)
    T = sym_forward_kinematics([(L1, 0, 0, q1), (L2, 0, 0, q2)], "standard")
    assert sp.simplify(T[0, 3] - (L1 * sp.cos(q1) + L2 * sp.cos(q1 + q2))) == 0
    assert sp.simplify(T[1, 3] - (L1 * sp.sin(q1) + L2 * sp.sin(q1 + q2))) == 0
    assert sp.simplify(T[0, 0] - sp.cos(q1 + q2)) == 0


def test_same_rows_read_as_modified_dh_give_another_arm_and_shifted_rows_fix_it():
    q1, q2, L1, L2 = sp.symbols("q1 q2 L1 L2", real=True)
    wrong = sym_forward_kinematics([(L1, 0, 0, q1), (L2, 0, 0, q2)], "modified")
    assert sp.simplify(wrong[0, 3] - (L1 + L2 * sp.cos(q1))) == 0
    assert sp.simplify(wrong[1, 3] - L2 * sp.sin(q1)) == 0
    shifted = sym_forward_kinematics([(0, 0, 0, q1), (L1, 0, 0, q2), (L2, 0, 0, 0)], "modified")
    assert sp.simplify(shifted[0, 3] - (L1 * sp.cos(q1) + L2 * sp.cos(q1 + q2))) == 0


@pytest.mark.parametrize("convert", [lambda r: r, kl.standard_to_modified])
def test_symbolic_robot_fk_matches_numeric_fk_for_the_puma(convert):
    robot = convert(puma560())
    T, q = sym_robot_fk(robot)
    f = numeric(T, q)
    rng = np.random.default_rng(11)
    for qv in rng.uniform(-np.pi, np.pi, (10, 6)):
        assert np.allclose(np.array(f(*qv), dtype=float), kl.dh_end_effector(robot, qv))


def test_symbolic_robot_fk_with_prismatic_joints_base_and_tool():
    rng = np.random.default_rng(12)
    robot = kl.DHRobot(a=[0.3, 0.2, 0.1], alpha=[0.5, -1.0, 0.0], d=[0.1, 0.0, 0.2], theta=[0.1, 0.2, 0.3],
                       joint_types="RPR", T_base=kl.transform_from_xyz_rpy([0.1, 0.2, 0.3], [0.1, 0.2, 0.3]),
                       T_tool=kl.translation([0.0, 0.0, 0.1]))
    T, q = sym_robot_fk(robot)
    f = numeric(T, q)
    for qv in rng.normal(size=(10, 3)):
        assert np.allclose(np.array(f(*qv), dtype=float), kl.dh_end_effector(robot, qv))


def test_exact_pi_multiples_are_recognised():
    T, q = sym_robot_fk(puma560())
    assert not T.has(sp.Float)  # every number became exact (rationals and pi)


@pytest.mark.parametrize("call, name", [
    (lambda: sym_dh_transform(a, alpha, d, theta, "craig"), "convention"),
    (lambda: sym_dh_standard(float("nan"), 0, 0, 0), "a"),
    (lambda: sym_dh_modified(0, sp.oo, 0, 0), "alpha"),
    (lambda: sym_dh_standard(0, 0, [1, 2], 0), "d"),
    (lambda: sym_forward_kinematics([(1, 0, 0)]), "rows"),
    (lambda: sym_forward_kinematics([]), "rows"),
    (lambda: sym_forward_kinematics([(1, 0, 0, 0)], "Craig"), "convention"),
    (lambda: sym_robot_fk(kl.planar_arm([1.0, 1.0]), q=sp.symbols("x")), "q"),
])
def test_bad_input_raises_value_error_naming_the_argument(call, name):
    with pytest.raises(ValueError, match=rf"^{name}"):
        call()

"""The input-contract helpers (kinematics_lib._validate) and the physics checks of Model and
spatial_inertia: impossible bodies are refused with a message naming the argument."""

from __future__ import annotations

import numpy as np
import pytest

import kinematics_lib as kl
from kinematics_lib import _validate as check


def test_input_error_is_a_value_error():
    assert issubclass(kl.InputError, ValueError)
    with pytest.raises(ValueError, match="x must be numeric"):
        check.vector("abc", 3, "x")


@pytest.mark.parametrize("bad", [None, "1.0", [1.0, "a"], {"a": 1}, 1j])
def test_non_numbers_are_refused_naming_the_argument(bad):
    with pytest.raises(kl.InputError, match=r"^speed must"):
        check.scalar(bad, "speed")


@pytest.mark.parametrize("value, message", [(np.nan, "NaN"), (np.inf, "inf")])
def test_non_finite_is_refused(value, message):
    with pytest.raises(kl.InputError, match=f"q must contain only finite numbers, got {message}"):
        check.vector([0.0, value], 2, "q")


def test_integer_bounds_every_count():
    assert check.integer(3, "n", 1, 10) == 3 and check.integer(4.0, "n", 1) == 4
    for bad in (1e300, 2.5, True, "3", None, np.nan):
        with pytest.raises(kl.InputError, match="^n must be an integer"):
            check.integer(bad, "n", 1, 10)
    with pytest.raises(kl.InputError, match=r"n must be an integer in \[1, 10\], got 11"):
        check.integer(11, "n", 1, 10)


def test_unit_quaternion():
    assert np.allclose(check.unit_quaternion([0, 0, 0, 1.0]), [0, 0, 0, 1])
    with pytest.raises(kl.InputError, match="quat must be a unit quaternion .* norm 0"):
        check.unit_quaternion(np.zeros(4))
    with pytest.raises(kl.InputError, match="norm 2"):
        check.unit_quaternion([0, 0, 0, 2.0])


def test_rotational_inertia_physics():
    check.rotational_inertia(np.diag([1.0, 2.0, 3.0]))  # 1 + 2 >= 3: a flat plate, fine
    check.rotational_inertia(np.zeros((3, 3)))  # a point mass
    check.rotational_inertia(np.diag([0.0, 1.0, 1.0]))  # a thin rod along x
    with pytest.raises(kl.InputError, match="I_com .* not positive semi-definite"):
        check.rotational_inertia(-np.eye(3))
    with pytest.raises(kl.InputError, match="triangle inequality"):
        check.rotational_inertia(np.diag([1.0, 1.0, 3.0]))
    with pytest.raises(kl.InputError, match="not symmetric"):
        check.rotational_inertia([[1.0, 0.5, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    # a placeholder far below the scale of the body it belongs to passes (ANYmal's base_inertia dummy)
    check.rotational_inertia(np.full((3, 3), 1e-6), scale=0.6, tol=1e-5)


def test_spatial_inertia_refuses_impossible_bodies():
    with pytest.raises(kl.InputError, match="mass must be >= 0"):
        kl.spatial_inertia(-1.0, [0, 0, 0], np.eye(3))
    with pytest.raises(kl.InputError, match="I_com must be a physical rotational inertia"):
        kl.spatial_inertia(1.0, [0, 0, 0], -np.eye(3))
    with pytest.raises(kl.InputError, match="I_com must contain only finite numbers"):
        kl.spatial_inertia(1.0, [0, 0, 0], np.diag([1.0, np.inf, 1.0]))
    with pytest.raises(kl.InputError, match="overflowed"):
        kl.spatial_inertia(1e300, [1e300, 0, 0], np.eye(3))
    I = kl.spatial_inertia(2.0, [0.1, -0.2, 0.3], np.diag([0.1, 0.2, 0.25]))
    m, c, I_c = kl.inertia_parts(I)
    assert np.isclose(m, 2.0) and np.allclose(c, [0.1, -0.2, 0.3]) and np.allclose(I_c, np.diag([0.1, 0.2, 0.25]))
    assert check.spatial_inertia(I).shape == (6, 6)


def test_spatial_inertia_structure_is_checked():
    I = kl.spatial_inertia(2.0, [0.1, -0.2, 0.3], np.diag([0.1, 0.2, 0.25]))
    bad = I.copy()
    bad[0, 0] = 3.0
    with pytest.raises(kl.InputError, match=r"I must be a rigid body's spatial inertia: its upper-left block"):
        check.spatial_inertia(bad)
    with pytest.raises(kl.InputError, match=r"inertia\[1\] must be .* mass .* negative"):
        check.spatial_inertia(np.stack([I, -I]), "inertia")
    check.spatial_inertia(np.zeros((6, 6)))  # massless


def test_motion_transform_needs_a_proper_rotation():
    with pytest.raises(kl.InputError, match="R_AB must be a rotation matrix"):
        kl.motion_transform(2 * np.eye(3), [0, 0, 0])
    with pytest.raises(kl.InputError, match="R_AB must be a rotation matrix"):
        kl.motion_transform(np.diag([1.0, 1.0, -1.0]), [0, 0, 0])
    X = kl.motion_transform(kl.rot_z(0.3), [1.0, 2.0, 3.0])
    assert np.allclose(X, kl.adjoint(kl.transform_inverse(kl.make_transform(kl.rot_z(0.3), [1.0, 2.0, 3.0]))))


def _chain(masses, inertia=None):
    m = kl.planar_chain_model([1.0, 1.0], [1.0, 1.0])
    fields = dict(name=m.name, body_names=m.body_names, body_joint=m.body_joint, parent=m.parent,
                  joint_types=m.joint_types, axes=m.axes, T_tree=m.T_tree, inertia=m.inertia)
    fields["inertia"] = np.array([kl.spatial_inertia(mi, [0.5, 0, 0], np.diag([0.0, 0.1, 0.1])) if mi >= 0
                                  else -kl.spatial_inertia(-mi, [0.5, 0, 0], np.eye(3)) for mi in masses])
    if inertia is not None:
        fields["inertia"] = inertia
    return kl.Model(**fields)


def test_model_refuses_impossible_physics():
    _chain([1.0, 0.0])  # a massless link is allowed
    with pytest.raises(kl.InputError, match=r"inertia\[1\] .* mass .* negative"):
        _chain([1.0, -0.5])
    I = _chain([1.0, 1.0]).inertia.copy()
    I[0, 3, 3] = np.inf
    with pytest.raises(kl.InputError, match="inertia must contain only finite numbers"):
        _chain([1.0, 1.0], I)
    I = _chain([1.0, 1.0]).inertia.copy()
    I[1, 3:, 3:] += np.diag([0.0, 0.0, 5.0])
    with pytest.raises(kl.InputError, match=r"inertia\[1\] .* triangle inequality"):
        _chain([1.0, 1.0], I)


def test_model_refuses_malformed_structure():
    m = kl.planar_chain_model([1.0, 1.0], [1.0, 1.0])
    fields = dict(name=m.name, body_names=m.body_names, body_joint=m.body_joint, parent=m.parent,
                  joint_types=m.joint_types, axes=m.axes, T_tree=m.T_tree, inertia=m.inertia)
    for change, message in [(dict(body_names=("a", "a")), "body_names must be unique, 'a' appears 2 times"),
                            (dict(parent=(-1, "x")), r"parent\[1\] must be an integer"),
                            (dict(parent=None), "parent must be a sequence"),
                            (dict(axes=[[0, 0, 1], [0, 0, 0]]), r"axes\[1\] must be non-zero"),
                            (dict(joint_types=("revolute", "ball")), r"joint_types\[1\] must be one of"),
                            (dict(name=None), "name must be a string"),
                            (dict(frames={"x": (5, np.eye(4))}), r"frames\['x'\]\[0\] \(body index\) must be"),
                            (dict(lower=[0.0, 1.0], upper=[1.0, 0.0]), r"lower\[1\] = 1.0 > upper\[1\] = 0.0")]:
        with pytest.raises(kl.InputError, match=message):
            kl.Model(**{**fields, **change})


def test_huge_axes_are_normalised_without_overflow():
    m = kl.planar_chain_model([1.0, 1.0], [1.0, 1.0])
    fields = dict(name=m.name, body_names=m.body_names, body_joint=m.body_joint, parent=m.parent,
                  joint_types=m.joint_types, axes=np.full((2, 3), 1e300), T_tree=m.T_tree, inertia=m.inertia)
    assert np.allclose(kl.Model(**fields).axes, 1 / np.sqrt(3))


def test_check_model_helper():
    m = kl.planar_chain_model([1.0], [1.0])
    assert check.model(m) is m
    for bad in (None, "anymal", kl.puma560()):
        with pytest.raises(kl.InputError, match="^model must be a kinematics_lib Model"):
            check.model(bad)


def test_finite_result_guard():
    ones, pair = np.ones(3), (np.ones(2), 2.0)
    assert check.finite_result(ones, "tau", "v") is ones        # a finite value is passed through
    assert check.finite_result(pair, "tau", "v") is pair
    for bad in (np.array([1.0, np.nan]), np.array([-np.inf]), float("inf")):
        with pytest.raises(kl.InputError, match="tau overflowed"):
            check.finite_result(bad, "tau", "v")
    with pytest.raises(kl.InputError, match="tau overflowed .* v, a too large"):
        check.finite_result((np.ones(2), np.array([np.inf])), "tau", "v, a")


def test_planar_chain_rod_inertia_is_physical():
    m = kl.planar_chain_model([1.0, 0.5], [2.0, 1.0], com=[0.5, 0.25], inertias=[1 / 6, 1 / 48])
    for I in m.inertia:
        check.spatial_inertia(I)
    with pytest.raises(ValueError):
        kl.planar_chain_model([1.0], [-1.0])

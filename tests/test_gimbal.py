"""Gimbal aiming: the computed yaw/pitch really point the barrel at the target (checked with
rotation matrices for the stated joint order), signs, quadrants and bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest

import kinematics_lib as kl
from kinematics_lib.arms.gimbal import aim_error, barrel_direction, gimbal_rotation, gimbal_yaw_pitch


def random_targets(seed, n=500):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, 3)) * rng.uniform(0.1, 20.0, (n, 1))  # every octant, incl. behind


def test_rotating_by_yaw_then_pitch_points_the_barrel_at_the_target():
    for p in random_targets(1):
        yaw, pitch = gimbal_yaw_pitch(p)
        R = kl.rot_y(yaw) @ kl.rot_x(pitch)  # outer joint about y (down), inner about the yawed x
        assert np.allclose(R @ [0.0, 0.0, 1.0], p / np.linalg.norm(p))
        assert np.allclose(gimbal_rotation(yaw, pitch), R)
        assert aim_error(p, yaw, pitch) < 1e-12


def test_the_other_joint_order_misses_generic_targets():
    misses = []
    for p in random_targets(2, 50):
        yaw, pitch = gimbal_yaw_pitch(p)
        b = kl.rot_x(pitch) @ kl.rot_y(yaw) @ [0.0, 0.0, 1.0]  # pitch outer, yaw inner
        misses.append(math.acos(np.clip(b @ p / np.linalg.norm(p), -1, 1)))
    assert max(misses) > 0.1


def test_ranges_and_signs():
    for p in random_targets(3):
        yaw, pitch = gimbal_yaw_pitch(p)
        assert -math.pi <= yaw <= math.pi and -math.pi / 2 <= pitch <= math.pi / 2
        assert np.sign(yaw) == np.sign(p[0]) or p[0] == 0.0  # right of the barrel: yaw > 0
        assert np.sign(pitch) == -np.sign(p[1])  # y down: a target above (y < 0) gives pitch > 0


def test_positive_pitch_raises_the_barrel_and_positive_yaw_turns_it_right():
    assert barrel_direction(0.0, 0.3)[1] < 0.0  # towards -y, i.e. up
    assert barrel_direction(0.3, 0.0)[0] > 0.0  # towards +x, i.e. right
    assert np.allclose(gimbal_yaw_pitch([0.0, -1.0, 1.0]), [0.0, math.pi / 4])


def test_target_behind_needs_atan2():
    p = np.array([1.0, 0.0, -2.0])
    yaw, pitch = gimbal_yaw_pitch(p)
    assert yaw > math.pi / 2
    naive = math.atan(p[0] / p[2])
    assert math.isclose(aim_error(p, naive, pitch), math.pi, abs_tol=1e-12)  # points the other way


def test_straight_up_and_down_are_reported_with_yaw_zero():
    assert np.allclose(gimbal_yaw_pitch([0.0, -2.0, 0.0]), [0.0, math.pi / 2])
    assert np.allclose(gimbal_yaw_pitch([0.0, 3.0, -0.0]), [0.0, -math.pi / 2])


def test_pitch_is_the_elevation_angle_of_the_line_of_sight():
    for p in random_targets(4, 100):
        _, pitch = gimbal_yaw_pitch(p)
        assert math.isclose(math.sin(pitch), -p[1] / np.linalg.norm(p), abs_tol=1e-12)


@pytest.mark.parametrize("call, name", [
    (lambda: gimbal_yaw_pitch([0.0, 0.0, 0.0]), "p"),
    (lambda: gimbal_yaw_pitch([1.0, 2.0]), "p"),
    (lambda: gimbal_yaw_pitch([1.0, np.nan, 2.0]), "p"),
    (lambda: gimbal_rotation(np.inf, 0.0), "yaw"),
    (lambda: gimbal_rotation(0.0, [0.1, 0.2]), "pitch"),
    (lambda: aim_error([0.0, 0.0, 0.0], 0.0, 0.0), "p"),
])
def test_bad_input_raises_value_error_naming_the_argument(call, name):
    with pytest.raises(ValueError, match=rf"^{name}\b"):
        call()

"""Chapter 2 views: the PUMA 560 model, the slider view, the convention comparison, the gimbal."""

from __future__ import annotations

import re

import numpy as np
import pytest

import kinematics_lib as kl
from kinematics_lib.notebook.views.rigid import (arm_view, frames_comparison_view, gimbal_view, puma560,
                                        puma560_view)
from kinematics_lib.notebook.widgets import View, interactive_view


def numbers(line: str) -> np.ndarray:
    return np.array([float(x) for x in re.findall(r"[-+]?\d+\.\d+", line)])


def test_puma_zero_pose_is_the_hand_derived_L_shape():
    """At q = 0: upper arm a2 and forearm offset a3 along x, shoulder offset d3 along -y, forearm
    d4 up, on a 0.67183 m pedestal."""
    robot = puma560()
    T = kl.dh_end_effector(robot, np.zeros(6))
    assert np.allclose(T[:3, 3], [0.4318 + 0.0203, -0.15005, kl.PUMA_SHOULDER_HEIGHT + 0.4318])
    assert np.allclose(T[:3, :3], np.eye(3))
    ready = kl.dh_end_effector(robot, [0.0, np.pi / 2, -np.pi / 2, 0.0, 0.0, 0.0])  # arm straight up
    assert np.allclose(ready[:3, 3], [0.0203, -0.15005, kl.PUMA_SHOULDER_HEIGHT + 2 * 0.4318])


def test_puma_wrist_axes_intersect():
    """Spherical wrist: the axes of joints 4, 5, 6 meet in one point (a4 = a5 = d5 = d6 = 0)."""
    rng = np.random.default_rng(5)
    q = rng.uniform(-2, 2, 6)
    z, p, _ = kl.dh_joint_axes(puma560(), q)
    center = kl.dh_frames(puma560(), q)[4, :3, 3]
    for i in (3, 4, 5):
        assert np.allclose(np.cross(center - p[i], z[i]), 0.0)


def test_puma_view_text_is_the_end_effector_pose():
    q = np.array([0.3, -0.2, 0.5, 0.1, 0.7, -0.4])
    view = puma560_view(*q)
    assert isinstance(view, View)
    lines = view.text.splitlines()
    T = kl.dh_end_effector(puma560(), q)
    assert np.allclose(numbers(lines[1]), T[:3, 3], atol=6e-5)
    assert np.allclose(numbers(lines[2]), kl.matrix_to_rpy(T[:3, :3]), atol=6e-5)


def test_first_slider_moved_five_steps_changes_figure_and_text():
    spec = (-2.8, 2.8, 0.05, 0.0)
    iv = interactive_view(puma560_view, q1=spec, q2=(-0.8, 3.9, 0.05, 0.0))
    moved = puma560_view(q1=spec[3] + 5 * spec[2])
    assert moved.text != iv.initial.text
    assert moved.png() != iv.initial.png()


def test_arm_view_draws_any_dh_arm_and_checks_q():
    view = arm_view(kl.planar_arm([1.0, 0.5]), [0.1, 0.2])
    assert "p_E" in view.text
    with pytest.raises(ValueError, match="^q"):
        arm_view(kl.planar_arm([1.0, 0.5]), [0.1])


def test_frames_comparison_reports_a_and_alpha_gaps_and_equal_end_effectors():
    robot = puma560()
    view = frames_comparison_view(robot, np.random.default_rng(0).uniform(-1, 1, 6))
    lines = view.text.splitlines()
    gaps, angles = numbers(lines[0]), numbers(lines[1])
    assert np.allclose(gaps[1:], np.abs(robot.a), atol=1e-4)
    assert np.allclose(angles[1:], np.abs(robot.alpha), atol=1e-4)
    assert lines[2].endswith("True")


def test_gimbal_view_reports_zero_aim_error_for_atan2_and_a_miss_for_atan_behind():
    text = gimbal_view(1.0, -0.3, -2.0).text
    first, second = text.splitlines()
    assert "aim error 0.00 deg" in first
    assert numbers(second)[-1] > 90.0
    assert "aim error 0.00 deg" in gimbal_view(1.0, -0.3, 2.0).text.splitlines()[1]  # in front: both agree

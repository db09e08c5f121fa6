"""Chapter 9 views: each returns a View whose text holds the numbers the figure shows."""

from __future__ import annotations

import numpy as np
import pytest

import kinematics_lib as kl
from kinematics_lib.notebook.views import mecanum as vm
from kinematics_lib.notebook.widgets import View, interactive_view


def test_mecanum_view_first_slider_changes_figure_and_text():
    """What the browser test does: v_x moved 5 steps (0.05 each) to the right."""
    iv = interactive_view(vm.mecanum_view, v_x=(-1.0, 1.0, 0.05, 0.3), v_y=(-1.0, 1.0, 0.05, 0.0),
                          omega=(-3.0, 3.0, 0.1, 0.0), psi=(-3.14, 3.14, 0.05, 0.0))
    moved = vm.mecanum_view(v_x=0.55)
    assert moved.text != iv.initial.text
    assert moved.png() != iv.initial.png()


def test_mecanum_view_text_holds_the_wheel_speeds():
    v = vm.mecanum_view(v_x=0.2, v_y=-0.3, omega=0.4)
    w = kl.mecanum_wheel_speeds([0.2, -0.3, 0.4], vm.A, vm.B, vm.R)
    for name, x in zip(kl.MECANUM_ORDER, w):
        assert f"{name} {x:+6.2f}" in v.text


def test_sign_error_view_no_fault_follows_command():
    v = vm.sign_error_view(fault="no fault", command="diagonal")
    assert "actual twist v = (+0.350 m/s, +0.350 m/s, +0.000 rad/s)" in v.text
    assert "|residual| = 0.000" in v.text


def test_sign_error_view_source_numbering_spins_on_strafe():
    v = vm.sign_error_view(fault=vm.FAULTS[4], command="strafe left")
    assert "actual twist v = (+0.000 m/s, +0.000 m/s" in v.text
    assert "-0.000" not in v.text


def test_sign_error_view_rejects_unknown_options():
    with pytest.raises(ValueError, match="fault"):
        vm.sign_error_view(fault="everything")
    with pytest.raises(ValueError, match="command"):
        vm.sign_error_view(command="jump")


def test_yaw_compensation_view_directions():
    psi = 0.6
    text = vm.yaw_compensation_view(psi=psi).text
    assert "compensated: end (+2.000, +0.000) m, direction   +0.00 deg" in text
    assert f"direction {np.degrees(psi):+7.2f} deg" in text           # uncompensated: off by ψ
    flipped = vm.yaw_compensation_view(psi=psi, imu_flipped=True).text
    assert f"direction {np.degrees(2 * psi):+7.2f} deg" in flipped    # wrong IMU sign: off by 2ψ


def test_odometry_views_run_and_report():
    v = vm.odometry_drift_view(duration=10.0)
    assert "largest over the run" in v.text
    t, rw, rf = kl.odometry_error_rms(kl.mecanum_matrix(vm.A, vm.B, vm.R), vm.patrol_twists(8.0), dt=0.01, seeds=range(3))
    s = vm.drift_statistics_view(t, rw, rf, 3)
    assert s.text.count("RMS error") == 4
    assert f"{rw[-1]:.3f}" in s.text.splitlines()[-1]

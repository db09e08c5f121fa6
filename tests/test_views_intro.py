"""Chapter 1 view: the roll-pitch-yaw frame, its readout and the rpy-rate matrix E."""

from __future__ import annotations

import math

import numpy as np
import pytest

import kinematics_lib as kl
from kinematics_lib import rpy_rate_matrix
from kinematics_lib.notebook.views.intro import frame_view
from kinematics_lib.notebook.widgets import interactive_view


def _quat_text(quat) -> str:
    return "(" + ", ".join(f"{v:.4f}" for v in np.round(quat, 4) + 0.0) + ")"


@pytest.mark.parametrize("angles", [(30.0, 20.0, 40.0), (-120.0, -45.0, 170.0), (0.0, 0.0, 0.0), (10.0, 89.0, -30.0)])
def test_frame_view_returns_a_view_with_the_library_quaternion(angles):
    view = frame_view(*angles)
    quat = kl.matrix_to_quat(kl.rpy_to_matrix(np.radians(angles)))
    assert quat[3] >= 0.0
    assert _quat_text(quat) in view.text
    assert "quaternion (x, y, z, w)" in view.text


def test_frame_view_has_3d_axes_and_draws_both_frames():
    view = frame_view(30.0, 20.0, 40.0)
    axes = view.figure.axes
    assert len(axes) == 1 and axes[0].name == "3d"
    assert len(axes[0].lines) >= 6  # three axes of {B} and three of {W}


def test_readout_recovers_the_angles_away_from_gimbal_lock():
    rng = np.random.default_rng(7)
    for _ in range(20):
        rpy = rng.uniform([-170.0, -80.0, -170.0], [170.0, 80.0, 170.0])
        view = frame_view(*rpy)
        back = np.degrees(kl.matrix_to_rpy(kl.rpy_to_matrix(np.radians(rpy))))
        assert np.allclose(back, rpy, atol=1e-9)
        assert "regular" in view.text and "GIMBAL LOCK" not in view.text


@pytest.mark.parametrize("pitch, combo", [(90.0, "yaw - roll = 10.0"), (-90.0, "yaw + roll = 70.0")])
def test_gimbal_lock_is_reported_and_the_reported_rpy_gives_the_same_rotation(pitch, combo):
    view = frame_view(30.0, pitch, 40.0)
    assert "GIMBAL LOCK" in view.text and combo in view.text
    R = kl.rpy_to_matrix(np.radians([30.0, pitch, 40.0]))
    back = kl.matrix_to_rpy(R)
    assert back[0] == 0.0
    assert np.allclose(kl.rpy_to_matrix(back), R, atol=1e-12)
    # only the combination is defined: another (roll, yaw) pair with the same combination gives the same R
    shift = 25.0 if pitch > 0 else -25.0
    R_other = kl.rpy_to_matrix(np.radians([30.0 + 25.0, pitch, 40.0 + shift]))
    assert np.allclose(R_other, R, atol=1e-12)


def test_near_gimbal_lock_warning():
    assert "near gimbal lock" in frame_view(0.0, 87.0, 0.0).text
    assert "near gimbal lock" not in frame_view(0.0, 60.0, 0.0).text


def test_pitch_outside_the_principal_range_is_explained():
    view = frame_view(30.0, 120.0, 40.0)
    assert "another triple" in view.text
    assert "(-150.0, 60.0, -140.0)" in view.text  # (roll + 180, 180 - pitch, yaw + 180), wrapped
    assert np.allclose(kl.rpy_to_matrix(np.radians([-150.0, 60.0, -140.0])),
                       kl.rpy_to_matrix(np.radians([30.0, 120.0, 40.0])), atol=1e-12)


def test_first_slider_changes_figure_and_text():
    """The browser test moves the first slider (roll) 5 steps to the right."""
    iv = interactive_view(frame_view, roll_deg=(-180.0, 180.0, 5.0, 30.0), pitch_deg=(-90.0, 90.0, 5.0, 20.0),
                          yaw_deg=(-180.0, 180.0, 5.0, 40.0))
    moved = frame_view(30.0 + 5 * 5.0, 20.0, 40.0)
    assert moved.text != iv.initial.text
    assert moved.png() != iv.initial.png()


@pytest.mark.parametrize("kwargs, name", [({"roll_deg": float("nan")}, "roll_deg"),
                                          ({"pitch_deg": "ninety"}, "pitch_deg"),
                                          ({"yaw_deg": [1.0, 2.0]}, "yaw_deg")])
def test_bad_input_raises_value_error_naming_the_argument(kwargs, name):
    with pytest.raises(ValueError, match=name):
        frame_view(**kwargs)


def test_rpy_rate_matrix_matches_finite_differences():
    """omega_W from [omega]x = Rdot R^T (central differences) equals E(rpy) @ rpy_dot."""
    rng = np.random.default_rng(3)
    h = 1e-6
    for _ in range(10):
        rpy, rate = rng.uniform(-1.4, 1.4, 3), rng.normal(size=3)
        Rdot = (kl.rpy_to_matrix(rpy + h * rate) - kl.rpy_to_matrix(rpy - h * rate)) / (2 * h)
        omega = kl.vee(Rdot @ kl.rpy_to_matrix(rpy).T)
        assert np.allclose(rpy_rate_matrix(rpy) @ rate, omega, atol=1e-7)


def test_rpy_rate_matrix_determinant_is_cos_pitch():
    rng = np.random.default_rng(5)
    for rpy in rng.uniform(-3.0, 3.0, (10, 3)):
        assert math.isclose(np.linalg.det(rpy_rate_matrix(rpy)), math.cos(rpy[1]), abs_tol=1e-12)
    E = rpy_rate_matrix([0.3, math.pi / 2, -0.2])
    assert np.linalg.matrix_rank(E, tol=1e-9) == 2
    assert np.allclose(np.abs(E[:, 0] @ E[:, 2]), 1.0)  # roll axis parallel to yaw axis


def test_rpy_rate_matrix_rejects_bad_shape():
    with pytest.raises(ValueError, match="rpy"):
        rpy_rate_matrix([0.0, 0.0])

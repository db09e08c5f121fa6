"""Chapter 6 views: each returns a View whose text holds the numbers the figure shows."""

from __future__ import annotations

import numpy as np

import kinematics_lib as kl
from kinematics_lib.notebook.views import floating_base as vf
from kinematics_lib.notebook.widgets import interactive_view


def test_balance_view_numbers_and_slider():
    iv = interactive_view(vf.balance_view, z_com=(0.5, 1.2, 0.05, 0.9), xdd=(-3.0, 3.0, 0.1, 1.0),
                          zdd=(-3.0, 3.0, 0.1, 0.0), dL_y=(-20.0, 20.0, 1.0, -5.0))
    x_zmp = kl.zmp([0, 0, 0.9], [1.0, 0, 0], vf.MASS, [0, -5.0, 0])[0]
    assert f"x_ZMP = {x_zmp:+.4f} m" in iv.initial.text and "inside the foot" in iv.initial.text
    moved = vf.balance_view(z_com=0.9, xdd=1.5, dL_y=-5.0)
    assert moved.text != iv.initial.text and moved.png() != iv.initial.png()


def test_balance_view_tips_beyond_the_foot():
    assert "rear edge" in vf.balance_view(z_com=1.0, xdd=2.0).text
    assert "front edge" in vf.balance_view(z_com=1.0, xdd=-2.0).text
    assert "-0.0000" not in vf.balance_view(xdd=0.0).text


def test_euler_view_condition_grows_to_the_singularity():
    texts = [vf.euler_singularity_view(pitch_deg=p).text for p in (0.0, 60.0, 90.0)]
    assert "det W = +1.0000" in texts[0] and "det W = +0.5000" in texts[1]
    assert "inf (singular)" in texts[2]
    assert all("quaternion block) = 1.0000" in t for t in texts)


def test_satellite_view_base_turns_back():
    v = vf.satellite_view(mass_ratio=0.3, amplitude=0.8, t=4.0)
    model = kl.satellite_arm_model(0.3)
    t = np.linspace(0.0, 4.0, 21)
    path = kl.zero_momentum_base_path(model, kl.neutral_configuration(model),
                                      *kl.satellite_joint_loop(3, 0.8, 4.0, t), 0.2)
    yaw = np.degrees(2 * np.arctan2(path[-1, 5], path[-1, 6]))
    assert f"turned {yaw:+.3f} deg" in v.text and yaw < 0
    heavier_arm = vf.satellite_view(mass_ratio=0.6, amplitude=0.8, t=4.0)
    assert heavier_arm.text != v.text
    assert vf.satellite_view(t=2.0).png() != v.png()


def test_static_figures_build():
    model = kl.satellite_arm_model()
    q = kl.neutral_configuration(model)
    assert vf.mass_matrix_blocks_figure(kl.crba(model, q)) is not None
    assert vf.quaternion_drift_figure(steps=50) is not None

"""Chapter 5 views: they return Views whose text and figure follow the sliders and agree with the maths."""

from __future__ import annotations

import numpy as np

import kinematics_lib as kl
from kinematics_lib.notebook import benchmarking as bm
from kinematics_lib.dynamics import newton_euler_3d as ne
from kinematics_lib.notebook.views import recursive as vr
from kinematics_lib.notebook.widgets import View, interactive_view


def test_forces_view_follows_the_first_slider():
    """What the browser test does: 5 steps right on the first slider change figure and text."""
    iv = interactive_view(vr.arm_forces_view, q1=(-3.1, 3.1, 0.05, 0.6), q2=(-3.1, 3.1, 0.05, 0.9))
    moved = vr.arm_forces_view(q1=0.6 + 5 * 0.05, q2=0.9)
    assert isinstance(moved, View)
    assert iv.initial.text != moved.text and iv.initial.png() != moved.png()


def test_forces_view_numbers_are_the_spatial_rnea():
    q, v, a = np.array([0.3, -1.2]), np.array([0.7, -0.4]), np.array([1.5, 2.0])
    view = vr.arm_forces_view(*q, *v, *a)
    model = ne.dh_model(vr.two_link_arm())
    n = view.numbers
    np.testing.assert_allclose(n["tau"], kl.rnea(model, q, v, a), atol=1e-12)
    np.testing.assert_allclose(n["g"], kl.gravity_torque(model, q), atol=1e-12)
    np.testing.assert_allclose(n["M_a"], kl.crba(model, q) @ a, atol=1e-12)
    np.testing.assert_allclose(n["g"] + n["C_v"] + n["M_a"], n["tau"], atol=1e-12)
    assert f"joint 1: tau = {n['tau'][0]:.3f} N m" in view.text  # the text shows these numbers


def test_at_rest_the_base_carries_the_whole_weight():
    arm = vr.two_link_arm()
    weight = float(arm.masses.sum() * 9.81)
    n = vr.arm_forces_view(q1=1.1, q2=-0.4).numbers
    np.testing.assert_allclose(n["f"][0], [0.0, weight], atol=1e-12)
    np.testing.assert_allclose(n["C_v"], 0.0, atol=1e-12)
    np.testing.assert_allclose(n["M_a"], 0.0, atol=1e-12)


def test_complexity_view_prints_the_fitted_slopes():
    ns = np.array([2, 4, 8, 16, 32])
    table = bm.ScalingTable(ns, {"linear": 1e-5 * ns, "quadratic": 1e-6 * ns**2.0})
    view = vr.complexity_view(table, n_min=4)
    assert isinstance(view, View)
    assert "linear 1.00" in view.text and "quadratic 2.00" in view.text
    assert len(view.png()) > 1000

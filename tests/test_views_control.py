"""Chapter 10 views: they return Views whose text follows the sliders and agrees with the library."""

from __future__ import annotations

import numpy as np
import pytest

import kinematics_lib as kl
from kinematics_lib.notebook.views import control as vc
from kinematics_lib.notebook.widgets import interactive_view


def test_pid_sign_view_shows_the_right_half_plane_poles():
    iv = interactive_view(vc.pid_sign_view, kp=(10.0, 400.0, 10.0, 100.0), kd=(0.0, 40.0, 0.5, 5.0))
    assert "as written: poles 2.500-9.682j, 2.500+9.682j" in iv.initial.text
    assert "fixed sign: poles -2.500-9.682j, -2.500+9.682j" in iv.initial.text
    moved = vc.pid_sign_view(kd=20.0)
    assert moved.text != iv.initial.text and moved.png() != iv.initial.png()
    assert "fixed sign: poles -10.000" in moved.text  # J s^2 + 20 s + 100: double pole at -10


def test_windup_view_clamp_reduces_the_overshoot():
    no_clamp, clamp = vc.pid_windup_view().numbers["overshoot_percent"]
    assert clamp < no_clamp and no_clamp > 10.0


def test_pid_arm_view_sags_without_gravity_feedforward():
    arm = kl.TwoLinkArm(payload=1.0)
    on, off = vc.pid_arm_view(payload=1.0), vc.pid_arm_view(payload=1.0, gravity_ff=False)
    assert on.text.count("static sag = (0.0000, 0.0000)") == 2
    q_d = np.array([0.8, 2.5])  # folded start + 0.3 rad
    sag = off.numbers["sag"]["folded"]
    assert np.abs(sag).max() > 1e-3  # gravity pulls the arm off its target
    np.testing.assert_allclose(200.0 * sag, arm.gravity(q_d - sag), atol=200 * 1e-6)  # kp e = g(q_d - e)
    assert on.numbers["M11"]["folded"] == pytest.approx(arm.mass_matrix(q_d)[0, 0], rel=1e-12)
    assert np.array_equal(on.numbers["sag"]["folded"], np.zeros(2))


def test_computed_torque_view_exact_model_beats_the_wrong_one():
    exact, wrong = vc.computed_torque_view(), vc.computed_torque_view(mass_scale=0.6)
    Kp, Kd = kl.pd_gains(20.0, 1.0)
    assert exact.numbers["Kp"] == pytest.approx(Kp) and exact.numbers["Kd"] == pytest.approx(Kd)
    assert Kp == pytest.approx(400.0) and Kd == pytest.approx(40.0)  # omega_n^2, 2 zeta omega_n
    err = lambda view: view.numbers["max_error_deg"]["computed torque"]  # noqa: E731
    assert err(exact) < 0.1 < err(wrong)


def test_task_inertia_view_document_004_point_and_singularity():
    view = vc.task_inertia_view()
    np.testing.assert_allclose(view.numbers["Lambda"], [[1.0, 0.0], [0.0, 11.0 / 3.0]], atol=1e-12)  # document 004
    arm, q = kl.TwoLinkArm(), np.radians([30.0, 60.0])
    np.testing.assert_allclose(view.numbers["Lambda"], kl.task_space_inertia(arm.mass_matrix(q), arm.jacobian(q)))
    assert "singular" in vc.task_inertia_view(q2=0.0).text


@pytest.mark.parametrize("controller", ["impedance", "admittance"])
def test_wall_view_settles_without_delay(controller):
    view = vc.wall_contact_view(controller=controller)
    assert view.numbers["settled"]
    if controller == "impedance":  # the steady force is the series-spring prediction
        lo, hi = view.numbers["late_force"]
        pred = view.numbers["series_spring_force"]
        assert pred == pytest.approx(0.1 * 1000.0 * 1e4 / (1000.0 + 1e4))
        assert lo == pytest.approx(pred, abs=0.05) and hi == pytest.approx(pred, abs=0.05)


def test_wall_view_delay_and_stiffness_destabilise_impedance():
    assert not vc.wall_contact_view(wall_stiffness=1e5, delay_ms=5).numbers["settled"]
    assert vc.wall_contact_view(wall_stiffness=1e3, delay_ms=5).numbers["settled"]


# -- the document's PID on floats (the view's shortcut) against the document's function run as a law --


def _same(fast, ref, atol=1e-9):
    assert fast.status == ref.status
    for name in ("t", "q", "v", "tau", "tau_ext"):
        np.testing.assert_allclose(getattr(fast, name), getattr(ref, name), rtol=1e-9, atol=atol, err_msg=name)


@pytest.mark.parametrize("fixed", [(), ("sign",)])
def test_document_pid_on_floats_is_the_document_run(fixed):
    fast, ref = vc._doc_pid_response(120.0, 7.5, fixed=fixed, dt=2e-3), vc.doc_pid_run(120.0, 7.5, fixed=fixed, dt=2e-3)
    _same(fast, ref, atol=1e-9 * np.abs(ref.q).max())

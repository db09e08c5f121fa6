"""Chapter 10 views: they return Views whose text follows the sliders and agrees with the library."""

from __future__ import annotations

import numpy as np
import pytest

import kinematics_lib as kl
from kinematics_lib.notebook.views import control as vc
from kinematics_lib.notebook.widgets import View, interactive_view


def test_pid_sign_view_shows_the_right_half_plane_poles():
    iv = interactive_view(vc.pid_sign_view, kp=(10.0, 400.0, 10.0, 100.0), kd=(0.0, 40.0, 0.5, 5.0))
    assert isinstance(iv.initial, View)
    assert "as written: poles 2.500-9.682j, 2.500+9.682j" in iv.initial.text
    assert "fixed sign: poles -2.500-9.682j, -2.500+9.682j" in iv.initial.text
    moved = vc.pid_sign_view(kd=20.0)
    assert moved.text != iv.initial.text and moved.png() != iv.initial.png()
    assert "fixed sign: poles -10.000" in moved.text  # J s^2 + 20 s + 100: double pole at -10


def test_windup_view_clamp_reduces_the_overshoot():
    text = vc.pid_windup_view().text
    over = [float(line.split("overshoot ")[1].split(" %")[0]) for line in text.splitlines()]
    assert over[1] < over[0]


def test_pid_arm_view_sags_without_gravity_feedforward():
    arm = kl.TwoLinkArm(payload=1.0)
    on, off = vc.pid_arm_view(payload=1.0), vc.pid_arm_view(payload=1.0, gravity_ff=False)
    assert on.text.count("static sag = (0.0000, 0.0000)") == 2
    q_d = np.array([0.8, 2.5])  # folded start + 0.3 rad
    sag = [float(x) for x in off.text.splitlines()[0].split("static sag = (")[1].split(")")[0].split(", ")]
    np.testing.assert_allclose(200.0 * np.array(sag), arm.gravity(q_d - np.array(sag)), atol=200 * 1e-4)
    assert f"M11(q_d) = {arm.mass_matrix(q_d)[0, 0]:.3f}" in on.text


def test_computed_torque_view_exact_model_beats_the_wrong_one():
    err = lambda text: float(text.splitlines()[1].split("= ")[1].split(" deg")[0])  # noqa: E731
    exact, wrong = vc.computed_torque_view(), vc.computed_torque_view(mass_scale=0.6)
    assert "Kp = omega_n^2 = 400.0" in exact.text and "Kd = 2 zeta omega_n = 40.00" in exact.text
    assert err(exact.text) < 0.1 < err(wrong.text)


def test_task_inertia_view_document_004_point_and_singularity():
    view = vc.task_inertia_view()
    assert "Lambda = [[1.0000, 0.0000], [0.0000, 3.6667]] kg" in view.text
    assert "singular" in vc.task_inertia_view(q2=0.0).text


@pytest.mark.parametrize("controller", ["impedance", "admittance"])
def test_wall_view_settles_without_delay(controller):
    view = vc.wall_contact_view(controller=controller)
    assert f"{controller}: settled" in view.text
    if controller == "impedance":  # the steady force is the series-spring prediction
        lo, hi = view.text.split("last 0.2 s: ")[1].split(" N")[0].split(" .. ")
        pred = view.text.split("0.1 m = ")[1].split(" N")[0]
        assert lo == hi == pred


def test_wall_view_delay_and_stiffness_destabilise_impedance():
    assert "settled" not in vc.wall_contact_view(wall_stiffness=1e5, delay_ms=5).text.split(";")[0]
    assert "settled" in vc.wall_contact_view(wall_stiffness=1e3, delay_ms=5).text.split(";")[0]


# -- the document's PID on floats (the view's shortcut) against the document's function run as a law --


def _same(fast, ref, atol=1e-9):
    assert fast.status == ref.status
    for name in ("t", "q", "v", "tau", "tau_ext"):
        np.testing.assert_allclose(getattr(fast, name), getattr(ref, name), rtol=1e-9, atol=atol, err_msg=name)


@pytest.mark.parametrize("fixed", [(), ("sign",)])
def test_document_pid_on_floats_is_the_document_run(fixed):
    fast, ref = vc._doc_pid_response(120.0, 7.5, fixed=fixed, dt=2e-3), vc.doc_pid_run(120.0, 7.5, fixed=fixed, dt=2e-3)
    _same(fast, ref, atol=1e-9 * np.abs(ref.q).max())

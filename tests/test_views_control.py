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


# -- the float loops of the views (kinematics_lib.control._float_loop) against the checked library --

from kinematics_lib.control import _float_loop as fl  # noqa: E402


def _same(fast, ref, atol=1e-9):
    assert fast.status == ref.status
    for name in ("t", "q", "v", "tau", "tau_ext"):
        np.testing.assert_allclose(getattr(fast, name), getattr(ref, name), rtol=1e-9, atol=atol, err_msg=name)


@pytest.mark.parametrize("fixed", [(), ("sign",)])
def test_document_pid_on_floats_is_the_document_run(fixed):
    fast, ref = vc._doc_pid_response(120.0, 7.5, fixed=fixed, dt=2e-3), vc.doc_pid_run(120.0, 7.5, fixed=fixed, dt=2e-3)
    _same(fast, ref, atol=1e-9 * np.abs(ref.q).max())


@pytest.mark.parametrize("limit", [np.inf, 1.5])
def test_pid_on_floats_is_pid_controller_with_saturation(limit):
    law = kl.pid_controller(kl.PID(kp=100.0, ki=250.0, kd=20.0, i_limit=limit), kl.constant_reference([1.0]), 2e-3)
    ref = kl.simulate_sampled(kl.JointInertia(1.0), law, [0.0], [0.0], 3.0, 2e-3, tau_limit=15.0)
    fast = fl.simulate(fl.inertia_fd(1.0), fl.pid_law((100.0,), (250.0,), (20.0,), (limit,), 2e-3, fl.constant([1.0])),
                       (0.0,), (0.0,), 3.0, 2e-3, tau_limit=15.0)
    _same(fast, ref)


def test_arm_pid_and_computed_torque_on_floats_are_the_library_laws():
    arm, model = kl.TwoLinkArm(payload=1.0), kl.TwoLinkArm(payload=1.0).with_masses(1.3)
    q0, q_d = np.array([0.5, 2.2]), np.array([0.8, 2.5])
    ref = kl.simulate_sampled(arm, kl.pid_controller(kl.PID(kp=[200.0, 150.0], ki=[30.0, 0.0], kd=20.0, i_limit=3.0),
                                                     kl.constant_reference(q_d), 2e-3, gravity=arm.gravity),
                              q0, [0.0, 0.0], 1.5, 2e-3)
    law = fl.pid_law((200.0, 150.0), (30.0, 0.0), (20.0, 20.0), (3.0, 3.0), 2e-3, fl.constant(q_d), fl.arm_gravity(arm))
    _same(fl.simulate(fl.arm_fd(arm), law, q0, (0.0, 0.0), 1.5, 2e-3), ref)
    args = ([0.4, 1.0], [0.5, 0.4], [3.0, 4.0])
    ct = kl.computed_torque_controller(model, kl.sine_reference(*args), 400.0, 40.0)
    ref = kl.simulate_sampled(arm, ct, [0.5, 0.9], [0.0, 0.0], 2.0, 2e-3)
    fast = fl.simulate(fl.arm_fd(arm), fl.computed_torque_law(model, fl.sine(*args), 400.0, 40.0), (0.5, 0.9),
                       (0.0, 0.0), 2.0, 2e-3)
    _same(fast, ref)


@pytest.mark.parametrize("controller, delay", [("impedance", 0), ("impedance", 3), ("admittance", 2)])
def test_wall_contact_on_floats_is_simulate_wall_contact(controller, delay):
    arm, wall, dt, K = kl.TwoLinkArm(), kl.Wall(1.5, 2e4, 10.0), 1e-3, 800.0
    if controller == "impedance":
        law, fast_law = (kl.impedance_controller(arm, vc.X_TARGET, K, 2.0 * np.sqrt(K)),
                         fl.impedance_law(arm, vc.X_TARGET, K, 2.0 * np.sqrt(K)))
    else:
        law = kl.admittance_controller(arm, vc.X_TARGET, 2.0, 2.0 * np.sqrt(2.0 * K), K, dt, wall.sensor(arm))
        fast_law = fl.admittance_law(arm, wall, vc.X_TARGET, 2.0, 2.0 * np.sqrt(2.0 * K), K, dt)
    ref = kl.simulate_wall_contact(arm, law, wall, vc.Q_START, [0.0, 0.0], 0.6, dt, delay_steps=delay, substeps=2)
    sim = fl.simulate(fl.arm_fd(arm), fast_law, vc.Q_START, (0.0, 0.0), 0.6, dt, delay_steps=delay,
                      ext=fl.wall_torque(arm, wall), substeps=2)
    x, F = fl.wall_run(arm, wall, sim)
    assert sim.status == ref.status
    for fast, slow in ((sim.q, ref.q), (x, ref.x), (F, ref.force)):
        np.testing.assert_allclose(fast, slow, rtol=1e-9, atol=1e-9)
    assert np.abs(ref.force).max() > 1.0  # the tip did reach the wall

"""Control layer (chapter 10): PID, plants, closed-loop simulation, computed torque, task space,
impedance and admittance -- checked against identities, analytic solutions and the library's
own dynamics (never against numbers copied from a run)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import kinematics_lib as kl

RNG = np.random.default_rng(1010)


# ------------------------------------------------------------------------------------------ PID
def test_pid_step_is_the_documented_law():
    rng = np.random.default_rng(1)
    kp, ki, kd = rng.uniform(0, 100, (3, 3))
    pid = kl.PID(kp, ki, kd, i_limit=np.inf)
    integral = np.zeros(3)
    for _ in range(20):
        e, v, v_ref, ff = rng.normal(size=(4, 3))
        dt = rng.uniform(1e-4, 1e-2)
        integral = integral + ki * e * dt
        tau = pid.step(e, v, dt, velocity_ref=v_ref, feedforward=ff)
        np.testing.assert_allclose(tau, kp * e + integral + kd * (v_ref - v) + ff, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(pid.i_term, integral, rtol=1e-12)
    pid.reset()
    assert pid.i_term == 0.0


def test_pid_scalar_in_scalar_out_and_clamp():
    pid = kl.PID(kp=0.0, ki=10.0, kd=0.0, i_limit=0.5)
    taus = [pid.step(1.0, 0.0, 0.01) for _ in range(100)]  # the integral would reach 10 without the clamp
    assert isinstance(taus[0], float)
    assert max(taus) == pytest.approx(0.5) and pid.i_term == pytest.approx(0.5)
    assert pid.step(-1.0, 0.0, 0.01) == pytest.approx(0.4)  # unwinds at once: it never went past 0.5


def test_pid_has_no_derivative_kick():
    """Derivative on the measurement: a set-point jump changes tau by kp * jump only."""
    pid = kl.PID(kp=100.0, kd=5.0)
    before = pid.step(0.0, 0.3, 1e-3)
    after = pid.step(1.0, 0.3, 1e-3)
    assert after - before == pytest.approx(100.0)


@pytest.mark.parametrize("kwargs, name", [
    (dict(kp=-1.0), "kp"), (dict(kp=1.0, ki=-0.1), "ki"), (dict(kp=1.0, kd=[1.0, -2.0]), "kd"),
    (dict(kp=1.0, i_limit=-1.0), "i_limit"), (dict(kp=np.eye(2)), "kp"), (dict(kp=np.nan), "kp")])
def test_pid_rejects_bad_gains(kwargs, name):
    with pytest.raises(ValueError, match=name):
        kl.PID(**kwargs)


def test_pid_step_rejects_bad_input():
    pid = kl.PID(kp=[1.0, 2.0], kd=1.0)
    with pytest.raises(ValueError, match="dt"):
        pid.step([0.1, 0.1], [0.0, 0.0], -1e-3)
    with pytest.raises(ValueError, match="dt"):
        pid.step([0.1, 0.1], [0.0, 0.0], 0.0)
    with pytest.raises(ValueError, match="error"):
        pid.step([0.1, 0.1, 0.1], [0.0, 0.0, 0.0], 1e-3)
    with pytest.raises(ValueError, match="velocity"):
        pid.step([0.1, 0.1], [0.0, 0.0, 0.0], 1e-3)
    with pytest.raises(ValueError, match="feedforward"):
        pid.step([0.1, 0.1], [0.0, 0.0], 1e-3, feedforward=[np.nan, 0.0])
    with pytest.raises(ValueError, match="velocity"):
        pid.step([0.1, 0.1], [0.0, np.inf], 1e-3)


def test_pid_poles_solve_the_characteristic_polynomial():
    rng = np.random.default_rng(2)
    for _ in range(20):
        J, kp, ki, kd = rng.uniform(0.1, 50, 4)
        s = kl.pid_poles(J, kp, ki, kd)
        assert s.shape == (3,)
        np.testing.assert_allclose(J * s**3 + kd * s**2 + kp * s + ki, 0.0, atol=1e-8 * (1 + kp * 50))
        # Routh-Hurwitz for J s^3 + kd s^2 + kp s + ki: stable iff kd kp > J ki
        assert (s.real.max() < 0) == (kd * kp > J * ki)
    np.testing.assert_allclose(kl.pid_poles(2.0, kp=8.0, kd=8.0), [-2.0, -2.0], atol=1e-7)
    with pytest.raises(ValueError, match="inertia"):
        kl.pid_poles(0.0, 1.0)
    with pytest.raises(ValueError, match="kd"):
        kl.pid_poles(1.0, 1.0, kd=-1.0)


def _run_doc_pid(kp, kd, fixed=(), t_final=3.0, dt=1e-3, q_d=1.0):
    state = {"i": 0.0, "prev": q_d}  # prev_err = the first error: no first-sample kick here

    def law(t, q, v):
        tau, state["i"], state["prev"] = kl.doc001.joint_pid_update(q_d - q[0], dt, 0.0, state["i"], state["prev"],
                                                                    kp, 0.0, kd, fixed=fixed)
        return [tau]

    return kl.simulate_sampled(kl.JointInertia(1.0), law, [0.0], [0.0], t_final, dt)


def _envelope_rate(t, e):
    """Growth rate (1/s) and angular frequency (rad/s) of a damped/growing oscillation e(t)."""
    peaks = [k for k in range(1, len(e) - 1) if abs(e[k]) >= abs(e[k - 1]) and abs(e[k]) > abs(e[k + 1])]
    rate = np.polyfit(t[peaks], np.log(np.abs(e[peaks])), 1)[0]
    return rate, math.pi / np.mean(np.diff(t[peaks]))


def test_document_pid_sign_bug_diverges_at_the_predicted_rate():
    """J = 1, kp = 100, kd = 5: poles 2.5 +- 9.68j; the simulation grows like e^{2.5 t} at 9.68 rad/s."""
    poles = kl.doc001.joint_pid_poles(1.0, 100.0, 5.0)
    np.testing.assert_allclose(poles, [2.5 - 9.682458j, 2.5 + 9.682458j], atol=1e-6)
    run = _run_doc_pid(100.0, 5.0)
    rate, omega = _envelope_rate(run.t, 1.0 - run.q[:, 0])
    assert rate == pytest.approx(2.5, rel=0.03) and omega == pytest.approx(poles[1].imag, rel=0.01)
    fixed = _run_doc_pid(100.0, 5.0, fixed=("sign",))
    rate_fixed, _ = _envelope_rate(fixed.t, 1.0 - fixed.q[:, 0])
    assert rate_fixed == pytest.approx(-2.5, rel=0.03)
    np.testing.assert_allclose(kl.doc001.joint_pid_poles(1.0, 100.0, 5.0, fixed=("sign",)), kl.pid_poles(1.0, 100.0, kd=5.0))


def test_document_pid_first_sample_kick():
    """prev_err = 0 at start: the first d-term is kd * err / dt (sign-fixed version)."""
    tau, _, _ = kl.doc001.joint_pid_update(1.0, 1e-3, 0.0, 0.0, 0.0, 100.0, 0.0, 5.0, fixed=("sign",))
    assert tau == pytest.approx(100.0 + 5.0 / 1e-3)
    assert kl.PID(100.0, kd=5.0).step(1.0, 0.0, 1e-3) == pytest.approx(100.0)
    with pytest.raises(ValueError, match="fixed"):
        kl.doc001.joint_pid_update(1.0, 1e-3, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, fixed=("typo",))
    with pytest.raises(ValueError, match="dt"):
        kl.doc001.joint_pid_update(1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0)


# ---------------------------------------------------------------------------------------- plants
def test_two_link_arm_matches_the_library_dynamics():
    arm = kl.TwoLinkArm(l1=0.8, l2=0.6, m1=2.0, m2=1.5, payload=0.7)
    model = arm.model()
    rng = np.random.default_rng(3)
    for _ in range(10):
        q, v, a, tau = rng.uniform(-3, 3, (4, 2))
        np.testing.assert_allclose(arm.mass_matrix(q), kl.crba(model, q), atol=1e-12)
        np.testing.assert_allclose(arm.bias(q, v), kl.nonlinear_effects(model, q, v), atol=1e-12)
        np.testing.assert_allclose(arm.gravity(q), kl.gravity_torque(model, q), atol=1e-12)
        np.testing.assert_allclose(arm.inverse_dynamics(q, v, a), kl.rnea(model, q, v, a), atol=1e-12)
        np.testing.assert_allclose(arm.forward_dynamics(q, v, tau), kl.aba(model, q, v, tau), atol=1e-10)
        np.testing.assert_allclose(arm.tip(q), kl.frame_placement(model, q, "tip")[:2, 3], atol=1e-12)
        np.testing.assert_allclose(arm.jacobian(q), kl.frame_jacobian(model, q, "tip")[:2], atol=1e-12)
        h = 1e-6  # J̇ q̇ = d/dt (J(q(t))) q̇ along q(t) = q + t q̇
        Jdot = (arm.jacobian(q + h * v) - arm.jacobian(q - h * v)) / (2 * h)
        np.testing.assert_allclose(arm.jacobian_dot_v(q, v), Jdot @ v, atol=1e-7)


def test_two_link_arm_document_004_point():
    arm = kl.TwoLinkArm()
    q = np.radians([30.0, 60.0])
    np.testing.assert_allclose(arm.inverse_dynamics(q, [1.0, -0.5], [2.0, 1.5]), [38.386647, 5.366025], atol=1e-6)


def test_plants_reject_bad_parameters():
    for kwargs, name in ((dict(l1=0.0), "l1"), (dict(m1=-1.0), "m1"), (dict(m2=0.0), "m2"),
                         (dict(payload=-0.1), "payload"), (dict(friction=3.0), "friction")):
        with pytest.raises(ValueError, match=name):
            kl.TwoLinkArm(**kwargs)
    with pytest.raises(ValueError, match="inertia"):
        kl.JointInertia([1.0, -1.0])
    with pytest.raises(ValueError, match="q"):
        kl.TwoLinkArm().mass_matrix([0.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="fixed base"):
        kl.ModelPlant(kl.random_tree_model(3, np.random.default_rng(0), floating_base=True))


# ------------------------------------------------------------------------------------ simulation
def test_sampled_simulation_conserves_energy_without_control():
    arm = kl.TwoLinkArm()
    model = arm.model()
    run = kl.simulate_sampled(arm, lambda t, q, v: np.zeros(2), [0.3, 0.4], [0.0, 0.0], 2.0, 1e-4)
    E = [kl.kinetic_energy(model, q, v) + kl.potential_energy(model, q) for q, v in zip(run.q[::500], run.v[::500])]
    assert run.status == "ok" and np.ptp(E) < 2e-2 * (1.0 + abs(E[0]))


def test_sampled_simulation_delay_hold_and_saturation():
    law = lambda t, q, v: np.array([t])  # noqa: E731 -- the output is the sample time
    run = kl.simulate_sampled(kl.JointInertia(1.0), law, [0.0], [0.0], 0.01, 1e-3, delay_steps=3)
    np.testing.assert_allclose(run.tau[:, 0], np.maximum(run.t - 3e-3, 0.0), atol=1e-15)
    sat = kl.simulate_sampled(kl.JointInertia([1.0, 2.0]), lambda t, q, v: [5.0, -7.0], [0.0, 0.0], [0.0, 0.0],
                              0.1, 1e-3, tau_limit=[1.0, 2.0])
    np.testing.assert_allclose(sat.tau[-1], [1.0, -2.0])
    np.testing.assert_allclose(sat.q[-1], [0.5 * 1.0 * 0.1**2, -0.5 * 1.0 * 0.1**2], rtol=0.02)  # a = tau / J


def test_sampled_simulation_reports_divergence_and_bad_input():
    run = kl.simulate_sampled(kl.JointInertia(1.0), lambda t, q, v: 1e3 * q + 1.0, [0.0], [0.0], 10.0, 1e-3)
    assert run.status == "diverged" and run.t[-1] < 10.0 and np.isfinite(run.q).all()
    with pytest.raises(ValueError, match="delay_steps"):
        kl.simulate_sampled(kl.JointInertia(1.0), lambda t, q, v: q, [0.0], [0.0], 1.0, 1e-3, delay_steps=-1)
    with pytest.raises(ValueError, match="dt"):
        kl.simulate_sampled(kl.JointInertia(1.0), lambda t, q, v: q, [0.0], [0.0], 1.0, -1e-3)
    with pytest.raises(ValueError, match="steps"):
        kl.simulate_sampled(kl.JointInertia(1.0), lambda t, q, v: q, [0.0], [0.0], 1e4, 1e-6)
    with pytest.raises(ValueError, match="law"):
        kl.simulate_sampled(kl.JointInertia(1.0), lambda t, q, v: [np.nan], [0.0], [0.0], 1.0, 1e-3)
    with pytest.raises(ValueError, match="q0"):
        kl.simulate_sampled(kl.TwoLinkArm(), lambda t, q, v: q, [0.0], [0.0, 0.0], 1.0, 1e-3)
    with pytest.raises(ValueError, match="plant"):
        kl.simulate_sampled("arm", lambda t, q, v: q, [0.0], [0.0], 1.0, 1e-3)


def test_pid_with_gravity_feedforward_has_no_sag():
    arm = kl.TwoLinkArm()
    q_d = np.array([0.4, 0.6])
    for gravity, sagged in ((arm.gravity, False), (None, True)):
        law = kl.pid_controller(kl.PID(kp=400.0, kd=40.0), kl.constant_reference(q_d), 1e-3, gravity=gravity)
        run = kl.simulate_sampled(arm, law, q_d, [0.0, 0.0], 3.0, 1e-3)
        e = q_d - run.q[-1]
        if sagged:  # PD without feed-forward settles where kp e = g(q_d - e)
            np.testing.assert_allclose(400.0 * e, arm.gravity(run.q[-1]), rtol=1e-3)
        else:
            assert np.abs(e).max() < 1e-9

"""One simulation loop, one PID law: the library's laws run in ``simulate_sampled`` through their
unchecked float kernels; checked here against independent numpy code written in this file."""

import math

import numpy as np
import pytest

import kinematics_lib as kl


def _numpy_loop(fd, law, q0, v0, t_final, dt, *, delay=0, limit=None, ext=None, substeps=1):
    """A straightforward numpy version of the sampled loop (ZOH, delay, saturation, semi-implicit Euler)."""
    steps = math.ceil(t_final / dt - 1e-9)
    q, v = np.array(q0, float), np.array(v0, float)
    ext = ext or (lambda q_, v_: np.zeros_like(q_))
    taus, Q = [], []
    for k in range(steps + 1):
        Q.append(q.copy())
        taus.append(np.asarray(law(k * dt, q.copy(), v.copy()), float))
        tau = taus[max(k - delay, 0)]
        if limit is not None:
            tau = np.clip(tau, -limit, limit)
        if k == steps:
            break
        for _ in range(substeps):
            v = v + dt / substeps * fd(q, v, tau + ext(q, v))
            q = q + dt / substeps * v
    return np.array(Q)


def _pid_numpy(kp, ki, kd, lim, q_d, dt, gravity=None):
    state = {"i": 0.0}

    def law(t, q, v):
        e = q_d - q
        state["i"] = np.clip(state["i"] + ki * e * dt, -lim, lim)
        return kp * e + state["i"] - kd * v + (0.0 if gravity is None else gravity(q))
    return law


def test_pid_on_the_arm_is_the_numpy_loop():
    arm = kl.TwoLinkArm(payload=1.0)
    gains = (np.array([200.0, 150.0]), np.array([30.0, 0.0]), 20.0, 3.0)
    q0, q_d = np.array([0.5, 2.2]), np.array([0.8, 2.5])
    run = kl.simulate_sampled(arm, kl.pid_controller(kl.PID(*gains), kl.constant_reference(q_d), 2e-3,
                                                     gravity=arm.gravity), q0, [0.0, 0.0], 1.5, 2e-3)
    ref = _numpy_loop(arm.forward_dynamics, _pid_numpy(*gains, q_d, 2e-3, arm.gravity), q0, [0.0, 0.0], 1.5, 2e-3)
    np.testing.assert_allclose(run.q, ref, rtol=1e-9, atol=1e-11)
    assert abs(run.q[-1] - q_d).max() < 0.02  # it did regulate


@pytest.mark.parametrize("delay, limit", [(0, None), (3, 8.0)])
def test_saturation_and_delay_on_one_joint(delay, limit):
    gains = (100.0, 250.0, 20.0, 1.5)
    run = kl.simulate_sampled(kl.JointInertia(1.0), kl.pid_controller(kl.PID(*gains), kl.constant_reference([1.0]), 2e-3),
                              [0.0], [0.0], 2.0, 2e-3, delay_steps=delay, tau_limit=limit)
    ref = _numpy_loop(lambda q, v, tau: tau, _pid_numpy(*gains, np.array([1.0]), 2e-3), [0.0], [0.0], 2.0, 2e-3,
                      delay=delay, limit=limit)
    np.testing.assert_allclose(run.q, ref, rtol=1e-9, atol=1e-11)
    if limit is not None:
        assert np.abs(run.tau).max() == pytest.approx(limit)


def test_computed_torque_law_and_wall_contact_are_the_numpy_formulas():
    arm, model = kl.TwoLinkArm(payload=1.0), kl.TwoLinkArm(payload=1.0).with_masses(1.3)
    ref = kl.sine_reference([0.4, 1.0], [0.5, 0.4], [3.0, 4.0])
    law = kl.computed_torque_controller(model, ref, 400.0, 40.0)
    rng = np.random.default_rng(3)
    for _ in range(5):
        t, q, v = rng.uniform(0, 2), rng.uniform(-2, 2, 2), rng.uniform(-2, 2, 2)
        q_d, v_d, a_d = ref(t)
        want = model.mass_matrix(q) @ (a_d + 40.0 * (v_d - v) + 400.0 * (q_d - q)) + model.bias(q, v)
        np.testing.assert_allclose(law(t, q, v), want, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(law.kernel(t, tuple(q), tuple(v)), want, rtol=1e-12, atol=1e-12)
    wall, K = kl.Wall(1.5, 2e4, 10.0), 800.0
    x_d = np.array([1.6, 0.6])
    imp = kl.impedance_controller(arm, x_d, K, 2.0 * np.sqrt(K))
    run = kl.simulate_wall_contact(arm, imp, wall, [0.2, 1.2], [0.0, 0.0], 0.6, 1e-3, delay_steps=2, substeps=2)

    def imp_numpy(t, q, v):
        J = arm.jacobian(q)
        return J.T @ (K * (x_d - arm.tip(q)) - 2.0 * np.sqrt(K) * (J @ v)) + arm.gravity(q)

    def ext_numpy(q, v):
        J = arm.jacobian(q)
        return J.T @ wall.force(arm.tip(q), J @ v)

    ref_q = _numpy_loop(arm.forward_dynamics, imp_numpy, [0.2, 1.2], [0.0, 0.0], 0.6, 1e-3, delay=2, ext=ext_numpy,
                        substeps=2)
    np.testing.assert_allclose(run.q, ref_q, rtol=1e-9, atol=1e-10)
    np.testing.assert_allclose(run.force, [wall.force(arm.tip(q), arm.jacobian(q) @ v) for q, v in zip(run.q, [
        v for v in kl.simulate_sampled(arm, imp, [0.2, 1.2], [0.0, 0.0], 0.6, 1e-3, delay_steps=2, substeps=2,
                                       external=ext_numpy).v])], rtol=1e-9, atol=1e-9)
    assert np.abs(run.force).max() > 1.0  # the tip did reach the wall


def test_a_students_law_and_plant_are_checked_every_call():
    bad = lambda t, q, v: [np.nan]  # noqa: E731
    with pytest.raises(kl.InputError, match="law"):
        kl.simulate_sampled(kl.JointInertia(1.0), bad, [0.0], [0.0], 0.1, 1e-2)
    law = kl.pid_controller(kl.PID(10.0), kl.constant_reference([1.0, 2.0]), 1e-2)
    with pytest.raises(kl.InputError, match="joints"):
        kl.simulate_sampled(kl.JointInertia(1.0), law, [0.0], [0.0], 0.1, 1e-2)


def test_pid_step_and_its_kernel_are_one_law():
    a, b = kl.PID([100.0, 50.0], 10.0, 5.0, 0.5), kl.PID([100.0, 50.0], 10.0, 5.0, 0.5)
    for e, v in (([0.1, -0.2], [0.3, 0.0]), ([1.0, 1.0], [0.0, 0.1])):
        tau = a.step(e, v, 1e-3, feedforward=[1.0, 2.0])
        assert tuple(tau) == b.update(tuple(e), tuple(v), 1e-3, (0.0, 0.0), (1.0, 2.0))
    np.testing.assert_array_equal(a.i_term, b.i_term)
    with pytest.raises(kl.InputError, match="error"):
        a.step(0.1, 0.0, 1e-3)  # the integral has two joints


def test_the_float_loop_module_is_gone():
    import importlib.util
    assert importlib.util.find_spec("kinematics_lib.control._float_loop") is None


def test_the_friction_loop_steps_the_pid_law_and_leaves_its_integral():
    friction = kl.LuGre(100.0, 1.0, 0.1, 1.0, 1.5, 0.1)
    pid = kl.PID(200.0, 500.0, 5.0, 2.0)
    run = kl.simulate_friction_loop(0.05, friction, pid, 0.5, 0.5, 0.5, dt=1e-3)
    ref = kl.PID(200.0, 500.0, 5.0, 2.0)  # the checked step along the run's samples gives the same torques
    ff = 0.05 * -0.5 * (2 * np.pi * 0.5) ** 2 * np.sin(2 * np.pi * 0.5 * run.t)
    tau = [ref.step(e, v, 1e-3, velocity_ref=vd, feedforward=f) for e, v, vd, f in zip(run.error, run.v, run.v_d, ff)]
    np.testing.assert_allclose(run.tau, tau, rtol=1e-12, atol=1e-12)
    assert isinstance(pid.i_term, float) and pid.i_term == pytest.approx(ref.i_term, abs=1e-12)

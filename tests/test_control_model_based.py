"""Chapter 10's model-based control: computed torque, task-space dynamics, impedance and
admittance -- against analytic solutions, identities and the library's own dynamics."""

from __future__ import annotations

import numpy as np
import pytest

import kinematics_lib as kl


def _chain(n=3, seed=0):
    rng = np.random.default_rng(seed)
    return kl.planar_chain_model(rng.uniform(0.4, 1.0, n), rng.uniform(0.5, 2.0, n),
                                 com=rng.uniform(0.1, 0.4, n), inertias=rng.uniform(0.01, 0.1, n))


# ------------------------------------------------------------------------------ computed torque
def test_computed_torque_is_M_aref_plus_h():
    model = kl.random_tree_model(4, np.random.default_rng(5))
    rng = np.random.default_rng(6)
    for _ in range(5):
        q, v, q_d, v_d, a_d = rng.uniform(-2, 2, (5, model.nv))
        Kp, Kd = rng.uniform(0, 100, model.nv), 7.0
        a_ref = a_d + Kd * (v_d - v) + Kp * (q_d - q)
        expected = kl.crba(model, q) @ a_ref + kl.nonlinear_effects(model, q, v)
        np.testing.assert_allclose(kl.computed_torque(model, q, v, q_d, v_d, a_d, Kp, Kd), expected, atol=1e-9)


@pytest.mark.parametrize("omega_n, zeta", [(20.0, 1.0), (30.0, 0.3), (10.0, 2.0)])
def test_computed_torque_error_follows_the_second_order_solution(omega_n, zeta):
    """Exact model: ë + Kd ė + Kp e = 0 joint by joint, whatever M(q) does."""
    arm = kl.TwoLinkArm(payload=0.5)
    Kp, Kd = kl.pd_gains(omega_n, zeta)
    ref = kl.sine_reference([0.3, 0.8], [0.6, -0.4], [2.0, 3.0])
    q0, v0 = np.array([0.0, 0.3]), np.array([1.0, -2.0])
    run = kl.simulate_continuous(arm, kl.computed_torque_controller(arm, ref, Kp, Kd), q0, v0, 1.0, 1e-3)
    qd, vd, _ = ref(0.0)
    e = np.array([ref(t)[0] for t in run.t]) - run.q
    analytic = kl.error_dynamics_solution(qd - q0, vd - v0, Kp, Kd, run.t)
    np.testing.assert_allclose(e, analytic, atol=1e-7)


def test_computed_torque_through_rnea_on_a_model():
    model = _chain(3)
    Kp, Kd = kl.pd_gains(15.0, 0.7)
    ref = kl.constant_reference([0.4, -0.3, 0.2])
    law = lambda t, q, v: kl.computed_torque(model, q, v, *ref(t), Kp, Kd)  # noqa: E731
    run = kl.simulate_continuous(model, law, np.zeros(3), np.zeros(3), 0.5, 5e-3, rtol=1e-9, atol=1e-11)
    analytic = kl.error_dynamics_solution(np.array([0.4, -0.3, 0.2]), 0.0, Kp, Kd, run.t)
    np.testing.assert_allclose(ref(0)[0] - run.q, analytic, atol=1e-6)


def test_computed_torque_with_a_wrong_model_leaves_an_error():
    arm = kl.TwoLinkArm()
    ref = kl.constant_reference([0.5, 0.5])
    Kp, Kd = kl.pd_gains(20.0, 1.0)
    errors = []
    for scale in (1.0, 0.7):
        run = kl.simulate_continuous(arm, kl.computed_torque_controller(arm.with_masses(scale), ref, Kp, Kd),
                                     [0.5, 0.5], [0.0, 0.0], 2.0, 1e-2)
        errors.append(np.abs(run.q[-1] - 0.5).max())
    # static error of a wrong gravity model: M_hat Kp e = g - g_hat = (1 - scale) g  at rest
    assert errors[0] < 1e-8 and errors[1] > 1e-3
    e_pred = np.linalg.solve(0.7 * arm.mass_matrix([0.5, 0.5]) * Kp, 0.3 * arm.gravity([0.5, 0.5]))
    run = kl.simulate_continuous(arm, kl.computed_torque_controller(arm.with_masses(0.7), ref, Kp, Kd),
                                 [0.5, 0.5], [0.0, 0.0], 3.0, 1e-2)
    np.testing.assert_allclose(0.5 - run.q[-1], e_pred, rtol=0.05)


def test_error_dynamics_solution_solves_the_ode():
    t = np.linspace(0.0, 1.0, 2001)
    for Kp, Kd in ((100.0, 20.0), (100.0, 5.0), (100.0, 40.0), (0.0, 3.0), (4.0, 0.0)):
        e = kl.error_dynamics_solution(0.7, -1.3, Kp, Kd, t)
        h = t[1] - t[0]
        de, dde = np.gradient(e, h), np.gradient(np.gradient(e, h), h)
        assert e[0] == pytest.approx(0.7) and de[0] == pytest.approx(-1.3, abs=0.05)
        np.testing.assert_allclose((dde + Kd * de + Kp * e)[5:-5], 0.0, atol=2e-2 * (1 + Kp))
    from scipy.linalg import expm
    A = np.array([[0.0, 1.0], [-100.0, -20.0]])  # critical damping, against the matrix exponential
    np.testing.assert_allclose(kl.error_dynamics_solution(0.7, -1.3, 100.0, 20.0, [0.37])[0],
                               (expm(A * 0.37) @ [0.7, -1.3])[0], rtol=1e-12)


def test_pd_gains_place_the_poles():
    for w, z in ((30.0, 1.0), (20.0, 0.5), (5.0, 1.5)):
        Kp, Kd = kl.pd_gains(w, z)
        poles = np.roots([1.0, Kd, Kp])
        np.testing.assert_allclose(np.abs(poles).prod(), w * w, rtol=1e-12)
        np.testing.assert_allclose(-poles.real.sum() / 2, z * w, rtol=1e-12)
    with pytest.raises(ValueError, match="omega_n"):
        kl.pd_gains(-1.0, 1.0)
    with pytest.raises(ValueError, match="zeta"):
        kl.pd_gains(1.0, -1.0)


def test_computed_torque_rejects_bad_input():
    arm = kl.TwoLinkArm()
    z = np.zeros(2)
    with pytest.raises(ValueError, match="Kp"):
        kl.computed_torque(arm, z, z, z, z, z, -1.0, 1.0)
    with pytest.raises(ValueError, match="Kd"):
        kl.computed_torque(arm, z, z, z, z, z, 1.0, [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="q_d"):
        kl.computed_torque(arm, z, z, np.zeros(3), z, z, 1.0, 1.0)
    with pytest.raises(ValueError, match="model"):
        kl.computed_torque("arm", z, z, z, z, z, 1.0, 1.0)
    with pytest.raises(ValueError, match="fixed base"):
        kl.computed_torque(kl.random_tree_model(2, np.random.default_rng(0), floating_base=True), z, z, z, z, z, 1, 1)


# ------------------------------------------------------------------------------ task space
def test_document_004_point_task_space():
    """L1 = L2 = 1, point masses 2 and 1, q = (30°, 60°), q̇ = (1, -0.5), task = the tip."""
    arm = kl.TwoLinkArm()
    q, v = np.radians([30.0, 60.0]), np.array([1.0, -0.5])
    M, J, g = arm.mass_matrix(q), arm.jacobian(q), arm.gravity(q)
    c = arm.bias(q, v) - g
    Lam, mu, p = kl.operational_space_terms(M, J, arm.jacobian_dot_v(q, v), c, g)
    np.testing.assert_allclose(Lam, [[1.0, 0.0], [0.0, 11.0 / 3.0]], atol=1e-12)
    np.testing.assert_allclose(kl.task_space_inertia(M, J), Lam, atol=1e-14)
    rng = np.random.default_rng(4)
    for tau in rng.normal(0, 20, (5, 2)):
        qdd = arm.forward_dynamics(q, v, tau)
        xdd = J @ qdd + arm.jacobian_dot_v(q, v)
        F = np.linalg.solve(J.T, tau)  # square, non-singular J: F = J^-T tau
        np.testing.assert_allclose(Lam @ xdd + mu + p, F, atol=1e-10)
    np.testing.assert_allclose(kl.dynamically_consistent_inverse(M, J), np.linalg.inv(J), atol=1e-12)


def test_redundant_arm_dynamically_consistent_inverse():
    """Planar 3R, 2-D tip task: F = J̄ᵀ τ satisfies Λ ẍ + μ + p = F; pinv(J)ᵀ τ does not."""
    model = _chain(3, seed=2)
    rng = np.random.default_rng(7)
    q, v = rng.uniform(-1.5, 1.5, (2, 3))
    M, g = kl.crba(model, q), kl.gravity_torque(model, q)
    c = kl.nonlinear_effects(model, q, v) - g
    J = kl.frame_jacobian(model, q, "tip")[:2]
    h = 1e-6
    Jdot_v = (kl.frame_jacobian(model, q + h * v, "tip")[:2] - kl.frame_jacobian(model, q - h * v, "tip")[:2]) @ v / (2 * h)
    Lam, mu, p = kl.operational_space_terms(M, J, Jdot_v, c, g)
    Jbar = kl.dynamically_consistent_inverse(M, J)
    np.testing.assert_allclose(J @ Jbar, np.eye(2), atol=1e-12)
    tau = rng.normal(0, 10, 3)
    xdd = J @ kl.aba(model, q, v, tau) + Jdot_v
    np.testing.assert_allclose(Lam @ xdd + mu + p, Jbar.T @ tau, atol=1e-7)
    assert np.abs(np.linalg.pinv(J).T @ tau - Jbar.T @ tau).max() > 1e-2
    # null-space torques: N^T tau0 moves the joints but not the task
    N_T = np.eye(3) - J.T @ Jbar.T
    tau0 = rng.normal(0, 10, 3)
    np.testing.assert_allclose(J @ np.linalg.solve(M, N_T @ tau0), 0.0, atol=1e-10)
    P_T = np.eye(3) - J.T @ np.linalg.pinv(J).T
    assert np.abs(J @ np.linalg.solve(M, P_T @ tau0)).max() > 1e-3


def test_task_space_reports_singularity_and_bad_shapes():
    arm = kl.TwoLinkArm()
    q = np.array([0.3, 0.0])  # stretched: J loses rank
    with pytest.raises(ValueError, match="singular"):
        kl.task_space_inertia(arm.mass_matrix(q), arm.jacobian(q))
    M = arm.mass_matrix([0.3, 0.5])
    with pytest.raises(ValueError, match="M"):
        kl.task_space_inertia(np.ones((2, 3)), np.eye(2))
    with pytest.raises(ValueError, match="M"):
        kl.task_space_inertia(np.array([[1.0, 2.0], [2.0, 1.0]]), np.eye(2))  # indefinite
    with pytest.raises(ValueError, match="J"):
        kl.task_space_inertia(M, np.ones((2, 3)))
    with pytest.raises(ValueError, match="Jdot_v"):
        kl.operational_space_terms(M, np.eye(2), np.zeros(3), np.zeros(2), np.zeros(2))
    with pytest.raises(ValueError, match="c"):
        kl.operational_space_terms(M, np.eye(2), np.zeros(2), np.zeros(3), np.zeros(2))


# ------------------------------------------------------------------------ impedance / admittance
def test_impedance_against_the_wall_settles_at_the_series_spring_point():
    arm, wall = kl.TwoLinkArm(), kl.Wall(position=1.5, stiffness=2000.0, damping=20.0)
    K, D = 500.0, 60.0
    x_d = np.array([1.6, 0.6])
    law = kl.impedance_controller(arm, x_d, K, D)
    q0 = np.array([0.2, 1.2])
    run = kl.simulate_wall_contact(arm, law, wall, q0, [0.0, 0.0], 3.0, 1e-3)
    assert run.settled()
    x_eq = (K * x_d[0] + wall.stiffness * wall.position) / (K + wall.stiffness)
    assert run.x[-1, 0] == pytest.approx(x_eq, abs=1e-5)
    assert run.force[-1, 0] == pytest.approx(-K * wall.stiffness / (K + wall.stiffness) * (x_d[0] - wall.position),
                                             rel=1e-3)
    assert run.x[-1, 1] == pytest.approx(x_d[1], abs=1e-5)


def test_admittance_against_the_wall_settles_at_three_springs_in_series():
    arm, wall = kl.TwoLinkArm(), kl.Wall(position=1.5, stiffness=2000.0, damping=20.0)
    K, Kp = 800.0, 2.0e4
    x_d = np.array([1.6, 0.6])
    q0 = np.array([0.2, 1.2])
    law = kl.admittance_controller(arm, x_d, 2.0, 2 * np.sqrt(K * 2.0), K, 1e-3, kl.wall_sensor(arm, wall), Kp=Kp, Kd=300.0)
    run = kl.simulate_wall_contact(arm, law, wall, q0, [0.0, 0.0], 3.0, 1e-3)
    assert run.settled()
    k = 1.0 / (1.0 / K + 1.0 / Kp)  # the admittance and the position loop in series, against the wall
    x_eq = (k * x_d[0] + wall.stiffness * wall.position) / (k + wall.stiffness)
    assert run.x[-1, 0] == pytest.approx(x_eq, abs=1e-4)


def test_inertia_shaping_gives_the_target_dynamics_in_free_space():
    arm = kl.TwoLinkArm()
    Md, K, D = 3.0, 300.0, 40.0
    x_d = np.array([1.0, 1.0])
    q0 = np.array([0.3, 1.4])
    law = kl.impedance_controller(arm, x_d, K, D, inertia=Md, force=lambda q, v: np.zeros(2))
    run = kl.simulate_continuous(arm, law, q0, [0.0, 0.0], 0.6, 1e-3)
    x = np.array([arm.tip(q) for q in run.q])
    analytic = kl.error_dynamics_solution(arm.tip(q0) - x_d, 0.0, K / Md, D / Md, run.t)
    np.testing.assert_allclose(x - x_d, analytic, atol=1e-6)


def test_loop_delay_destabilises_a_stiff_contact():
    """Impedance K = 1000 N/m, delay 5 ms: settles on a soft wall, oscillates on a stiff one; no delay: settles."""
    arm, q0, x_d = kl.TwoLinkArm(), np.array([0.2, 1.2]), np.array([1.6, 0.6])

    def run(stiffness, delay_steps):
        law = kl.impedance_controller(arm, x_d, 1000.0, 60.0)
        return kl.simulate_wall_contact(arm, law, kl.Wall(1.5, stiffness, 10.0), q0, [0.0, 0.0], 2.0, 1e-3,
                                        delay_steps=delay_steps).settled()

    assert run(1e5, 0) and run(1e3, 5) and not run(1e5, 5)


def test_impedance_is_passive():
    """Free space, gravity compensated: V = ½ q̇ᵀ M q̇ + ½ K |x_d − x|² never increases (dV/dt = −ẋᵀ D ẋ)."""
    arm = kl.TwoLinkArm()
    K, D = 400.0, 30.0
    x_d = np.array([1.0, 1.0])
    run = kl.simulate_continuous(arm, kl.impedance_controller(arm, x_d, K, D), [0.3, 1.4], [2.0, -1.0], 1.0, 1e-3)
    V = np.array([0.5 * v @ arm.mass_matrix(q) @ v + 0.5 * K * np.sum((x_d - arm.tip(q)) ** 2)
                  for q, v in zip(run.q, run.v)])
    assert np.diff(V).max() < 1e-9 * V[0] and V[-1] < 1e-3 * V[0]


def test_interaction_rejects_bad_input():
    arm = kl.TwoLinkArm()
    with pytest.raises(ValueError, match="stiffness"):
        kl.Wall(1.0, -5.0)
    with pytest.raises(ValueError, match="K"):
        kl.impedance_controller(arm, [1.0, 1.0], -1.0, 1.0)
    with pytest.raises(ValueError, match="x_d"):
        kl.impedance_controller(arm, [1.0, 1.0, 1.0], 1.0, 1.0)
    with pytest.raises(ValueError, match="arm"):
        kl.impedance_controller("arm", [1.0, 1.0], 1.0, 1.0)
    with pytest.raises(ValueError, match="force"):
        kl.impedance_controller(arm, [1.0, 1.0], 1.0, 1.0, inertia=2.0)
    with pytest.raises(ValueError, match="dt"):
        kl.admittance_controller(arm, [1.0, 1.0], 1.0, 1.0, 1.0, 0.0, lambda q, v: np.zeros(2))
    with pytest.raises(ValueError, match="wall"):
        kl.simulate_wall_contact(arm, lambda t, q, v: np.zeros(2), 3.0, [0.1, 0.1], [0.0, 0.0], 0.1, 1e-3)


def test_critical_delay_separates_stable_from_unstable_loops():
    """A mass under delayed PD (exact delay line, fine step): stable just below τ_c, unstable just above."""
    omega_n, zeta = 20.0, 0.7
    tau_c = kl.critical_delay(omega_n, zeta)
    Kp, Kd = kl.pd_gains(omega_n, zeta)
    dt = 1e-4

    def growth(delay):
        law = lambda t, q, v: -Kp * q - Kd * v  # noqa: E731 (unit mass: gains are accelerations)
        run = kl.simulate_sampled(kl.JointInertia(1.0), law, [1.0], [0.0], 6.0, dt, delay_steps=round(delay / dt))
        return np.abs(run.q[-2000:]).max() / np.abs(run.q[5000:7000]).max()

    assert growth(0.9 * tau_c) < 1.0 < growth(1.1 * tau_c)
    with pytest.raises(ValueError, match="omega_n"):
        kl.critical_delay(0.0, 0.7)


def test_document_rules_of_thumb_for_delay_and_task_force():
    """Read as natural frequencies, 1/(10 τ) is inside the ζ = 0.7 stability limit ω_n τ_c = 0.737 and
    1/(5 τ) beyond it (as -3 dB bandwidths both are inside: tests/test_bandwidth.py)."""
    tau = 0.01
    low, high = kl.doc001.delay_bandwidth(tau)
    assert (low, high) == pytest.approx((10.0, 20.0))
    assert kl.critical_delay(2 * np.pi * low, 0.7) > tau > kl.critical_delay(2 * np.pi * high, 0.7)
    arm = kl.TwoLinkArm()
    q = np.radians([30.0, 60.0])
    M, J, tau_j = arm.mass_matrix(q), arm.jacobian(q), np.array([3.0, -1.0])
    np.testing.assert_allclose(kl.doc003.task_force(J, tau_j), kl.dynamically_consistent_inverse(M, J).T @ tau_j,
                               atol=1e-12)
    with pytest.raises(ValueError, match="J"):
        kl.doc003.task_force(np.ones((2, 3)), np.zeros(3))

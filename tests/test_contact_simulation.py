"""Chapter 7's worked examples: the four-bar (drift, Baumgarte, projection), the rolling disc,
time-stepping contact (box on an incline against the analytic answer, ball drop), the documents' claims."""

from __future__ import annotations

import numpy as np
import pytest

import kinematics_lib as kl


@pytest.fixture(scope="module")
def fourbar():
    fb = kl.FourBar()
    return fb, *kl.four_bar_configuration(fb, 1.0, 1.0)


def test_four_bar_configuration_is_consistent_and_jacobian_is_the_derivative(fourbar):
    fb, q, v = fourbar
    c, J, Jdv = kl.four_bar_constraint(fb, q, v)
    np.testing.assert_allclose(c, 0.0, atol=1e-12)
    np.testing.assert_allclose(J @ v, 0.0, atol=1e-12)
    eps = 1e-6
    J_fd = np.array([(kl.four_bar_constraint(fb, q + eps * e, v)[0] - kl.four_bar_constraint(fb, q - eps * e, v)[0])
                     / (2 * eps) for e in np.eye(4)]).T
    np.testing.assert_allclose(J, J_fd, atol=1e-8)
    # Jdot v = d/dt (J) v along q' = v
    Jp = kl.four_bar_constraint(fb, q + eps * v, v)[1]
    Jm = kl.four_bar_constraint(fb, q - eps * v, v)[1]
    np.testing.assert_allclose((Jp - Jm) / (2 * eps) @ v, Jdv, atol=1e-7)


def test_four_bar_drift_baumgarte_and_projection(fourbar):
    fb, q, v = fourbar
    none = kl.simulate_four_bar(fb, q, v, 5.0, 0.01)
    baum = kl.simulate_four_bar(fb, q, v, 5.0, 0.01, alpha=5.0, beta=5.0)
    proj = kl.simulate_four_bar(fb, q, v, 5.0, 0.01, project=True)
    assert none.violation[-1] > 10 * baum.violation[-1]
    assert proj.violation.max() < 1e-12 and proj.velocity_violation.max() < 1e-12
    # a fine RK4 run conserves energy: the mechanism is conservative
    fine = kl.simulate_four_bar(fb, q, v, 1.0, 0.001)
    assert abs(fine.energy[-1] - fine.energy[0]) < 1e-6 * abs(fine.energy[0]) + 1e-6


def test_four_bar_batch_equals_single_runs(fourbar):
    fb, q, v = fourbar
    batch = kl.simulate_four_bar(fb, q, v, 0.5, 0.01, alpha=np.array([0.0, 3.0]), beta=np.array([2.0, 4.0]))
    single = kl.simulate_four_bar(fb, q, v, 0.5, 0.01, alpha=3.0, beta=4.0)
    np.testing.assert_allclose(batch.q[1], single.q, atol=1e-14)
    assert batch.q.shape == (2, 51, 4)


def test_parallel_parking_is_sideways_and_never_slips():
    P = kl.unicycle_path([0.0, 0.0, 0.0], kl.parallel_parking_controls(0.5, 1.0, 1.0, 50), 0.02)
    assert abs(P[-1, 0]) < 1e-12 and abs(P[-1, 2]) < 1e-12 and P[-1, 1] > 0.5
    d = np.diff(P[:, :2], axis=0)
    # exact arcs: the chord of each step is along the mean heading, the side slip of the chord
    mid = 0.5 * (P[:-1, 2] + P[1:, 2])
    assert np.abs(d[:, 0] * np.sin(mid) - d[:, 1] * np.cos(mid)).max() < 1e-12


@pytest.mark.parametrize("theta,mu", [(0.3, 0.5), (0.6, 0.5), (0.8, 0.2), (0.4, 0.0)])
def test_box_on_incline_sticks_or_slides_with_the_analytic_acceleration(theta, mu):
    run = kl.incline_box_run(theta, mu, t_final=0.5, dt=0.01)
    a = np.diff(run["speed"]) / 0.01
    expected = 9.81 * (np.sin(theta) - mu * np.cos(theta)) if np.tan(theta) > mu else 0.0
    np.testing.assert_allclose(a, expected, atol=1e-9)
    np.testing.assert_allclose(run["p_n"], 9.81 * np.cos(theta), rtol=1e-9)
    assert np.all(np.abs(run["f_t"]) <= mu * run["p_n"] + 1e-9)
    assert run["qp_error"] < 1e-8


def test_contact_step_lcp_is_complementary_in_3d():
    """A point mass on the ground, pushed sideways beyond friction, with an 8-direction pyramid."""
    m, mu, dt = 2.0, 0.4, 0.01
    th = 2 * np.pi * np.arange(8) / 8
    D = np.c_[np.cos(th), np.sin(th), np.zeros(8)]
    f_ext = np.array([20.0, 5.0, -m * 9.81])
    step = kl.contact_step(m * np.eye(3), np.array([0.1, 0.0, 0.0]), f_ext, [[0, 0, 1.0]], D, mu, dt)
    z, w = step.lcp.z, step.lcp.w
    assert z.min() >= -1e-12 and w.min() >= -1e-9 and abs(z @ w) < 1e-9
    assert abs(step.v_next[2]) < 1e-12                        # stays on the ground
    assert step.beta.sum() == pytest.approx(mu * step.p_n[0])  # slides: friction on the pyramid's boundary
    A, q = kl.contact_lcp(m * np.eye(3), np.array([0.1, 0.0, 0.0]), f_ext, [[0, 0, 1.0]], D, mu, dt)
    np.testing.assert_allclose(A @ z + q, w, atol=1e-12)


def test_ball_drop_momentum_is_not_conserved_at_impact():
    run = kl.ball_drop_run(height=1.0, t_final=1.0, dt=0.005)
    k = int(np.argmax(run["y"] <= 1e-12))
    assert run["momentum"][k - 1, 1] < -4.0 and abs(run["momentum"][k + 1, 1]) < 1e-9
    assert run["y"].min() >= -1e-12
    v = np.array([0.0, 0.0, -4.43])
    np.testing.assert_array_equal(kl.doc000.impact_velocity(v), v)     # the source's claim: into the ground
    bounce = kl.ball_drop_run(height=1.0, t_final=1.0, dt=0.005, restitution=0.5)
    kb = int(np.argmax(np.diff(bounce["v_y"]) > 1.0))          # the step of the first impact
    assert bounce["v_y"][kb + 1] == pytest.approx(-0.5 * bounce["v_y"][kb], rel=1e-9)


def test_lcp_by_qp_equals_lemke():
    rng = np.random.default_rng(3)
    Q, _ = np.linalg.qr(rng.normal(size=(6, 6)))
    M, q = Q @ np.diag(np.geomspace(1, 30, 6)) @ Q.T, rng.normal(size=6)
    np.testing.assert_allclose(kl.lcp_by_qp(M, q), kl.solve_lcp(M, q).z, atol=1e-7)


def test_documents_chapter_7_claims():
    fb = kl.FourBar()
    q, v = kl.four_bar_configuration(fb, 0.7, 1.0)
    _, J, Jdv = kl.four_bar_constraint(fb, q, v)
    # as printed: J v + Jdot v -- on a consistent motion J v = 0, so it is Jdot v, which is not 0
    eps = 1e-6
    Jdot = (kl.four_bar_constraint(fb, q + eps * v, v)[1] - kl.four_bar_constraint(fb, q - eps * v, v)[1]) / (2 * eps)
    np.testing.assert_allclose(kl.doc000.acceleration_constraint(J, Jdot, v), Jdv, atol=1e-8)
    assert np.abs(Jdv).max() > 0.1
    rng = np.random.default_rng(1)
    M, h, Jr, tau = np.diag(rng.uniform(1, 3, 5)), rng.normal(size=5), rng.normal(size=(2, 5)), rng.normal(size=5)
    a_doc = kl.doc000.projected_dynamics(M, h, Jr, tau)
    a, _ = kl.kkt_dynamics(M, h, Jr, np.zeros(2), tau)
    assert np.abs(Jr @ a_doc).max() > 1e-3 and np.abs(Jr @ a).max() < 1e-12
    assert kl.doc000.sliding_condition([-3.0, 0.0], [0.2, 0.0]) and not kl.doc000.sliding_condition([3.0, 0.0], [0.2, 0.0])
    err, where = kl.doc000.pyramid_error_claim()
    assert where == "diagonal" and abs(err - kl.pyramid_worst_case_error(4, True)) < 0.01
    # the number matches the inscribed loss, but the direction is wrong: the inscribed pyramid is exact on the diagonal
    assert kl.pyramid_tangential_limit(0.5, 4, True, np.pi / 4) == pytest.approx(0.5)

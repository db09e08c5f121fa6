"""What "bandwidth" means for a PD loop with delay (issue 23, item 1): three readings, each checked
against its definition and the stability limit by simulation."""

from __future__ import annotations

import numpy as np
import pytest

import kinematics_lib as kl


def test_each_bandwidth_meets_its_definition():
    for omega_n, zeta in ((1.0, 0.7), (20.0, 0.3), (7.0, 1.5)):
        wn, wb, wc = kl.pd_loop_bandwidths(omega_n, zeta)
        assert wn == omega_n
        num = lambda s: omega_n ** 2 + 2 * zeta * omega_n * s  # noqa: E731
        T = lambda w: num(1j * w) / ((1j * w) ** 2 + num(1j * w))  # noqa: E731 closed loop
        L = lambda w: num(1j * w) / (1j * w) ** 2  # noqa: E731 open loop
        assert abs(T(wb)) == pytest.approx(1 / np.sqrt(2), rel=1e-12)
        assert abs(L(wc)) == pytest.approx(1.0, rel=1e-12)
        assert abs(T(0.9 * wb)) > 1 / np.sqrt(2) > abs(T(1.1 * wb))  # the first (only) -3 dB crossing
    wn, wb, wc = kl.pd_loop_bandwidths(1.0, 0.7)
    assert wb == pytest.approx(2.05, abs=5e-3) and wc == pytest.approx(1.54, abs=5e-3)


def test_the_limit_in_three_readings_and_the_documents_rule():
    """Document 001: bandwidth <= 1/(5...10 τ). At ζ = 0.7 the limit is f_n = 1/(8.5 τ),
    f_-3dB = 1/(4.2 τ), f_c = 1/(5.5 τ): with the -3 dB reading both ends of the rule are stable."""
    lim = kl.delay_bandwidth_limits(0.01, 0.7)
    assert (lim.k_natural, lim.k_minus_3db, lim.k_crossover) == pytest.approx((8.52, 4.16, 5.53), abs=0.01)
    assert lim.minus_3db_hz == pytest.approx(1 / (lim.k_minus_3db * 0.01))
    # the limit is where critical_delay says, whichever reading: scale the 10 ms case to 20 ms
    assert kl.delay_bandwidth_limits(0.02, 0.7).natural_hz == pytest.approx(lim.natural_hz / 2)
    assert kl.critical_delay(2 * np.pi * lim.natural_hz, 0.7) == pytest.approx(0.01)
    # simulation: a unit mass whose -3 dB bandwidth is the rule's 1/(5 τ) = 20 Hz is stable with 10 ms,
    # one whose crossover is at 20 Hz is not (20 Hz is past 1/(5.5 τ) = 18.1 Hz)
    dt, tau = 1e-4, 0.01

    def growth(omega_n):
        Kp, Kd = kl.pd_gains(omega_n, 0.7)
        run = kl.simulate_sampled(kl.JointInertia(1.0), lambda t, q, v: -Kp * q - Kd * v, [1.0], [0.0], 3.0, dt,
                                  delay_steps=round(tau / dt))
        return np.abs(run.q[-2000:]).max() / np.abs(run.q[:2000]).max()

    f = 20.0
    wb_ratio, wc_ratio = kl.pd_loop_bandwidths(1.0, 0.7)[1:]
    assert growth(2 * np.pi * f / wb_ratio) < 1e-2  # -3 dB reading: stable, decays
    assert growth(2 * np.pi * f / wc_ratio) > 1.0  # crossover reading: unstable
    assert growth(2 * np.pi * f) > 1.0  # f_n reading (the chapter's old one): unstable


def test_bandwidth_functions_reject_bad_input():
    with pytest.raises(ValueError, match="omega_n"):
        kl.pd_loop_bandwidths(0.0, 0.7)
    with pytest.raises(ValueError, match="delay"):
        kl.delay_bandwidth_limits(-0.01)
    with pytest.raises(ValueError, match="zeta"):
        kl.delay_bandwidth_limits(0.01, -1.0)


def test_computed_torque_static_error_is_the_fixed_point_at_the_settled_q():
    """Issue 23.11: with every mass scaled by s, the arm settles where s M(q) K_p e = (1 - s) g(q) at the
    settled q = q_d - e (a fixed point), not at M(q_d), g(q_d) (0.01017 vs 0.01022 rad)."""
    arm, s, q_d = kl.TwoLinkArm(), 0.7, np.array([0.5, 0.5])
    Kp, Kd = kl.pd_gains(20.0, 1.0)
    law = kl.computed_torque_controller(arm.with_masses(s), kl.constant_reference(q_d), Kp, Kd)
    e_sim = q_d - kl.simulate_continuous(arm, law, q_d, [0.0, 0.0], 3.0, 1e-2).q[-1]
    e_at_qd = np.linalg.solve(s * arm.mass_matrix(q_d) * Kp, (1 - s) * arm.gravity(q_d))
    e = np.zeros(2)
    for _ in range(30):
        e = np.linalg.solve(s * arm.mass_matrix(q_d - e) * Kp, (1 - s) * arm.gravity(q_d - e))
    assert np.abs(e_sim - e).max() < 1e-9
    assert np.abs(e_sim - e_at_qd).max() > 3e-5  # the first iterate is off by 4e-5 rad (0.4 %)
    np.testing.assert_allclose(e_at_qd[0], 0.01017, atol=5e-6)
    np.testing.assert_allclose(e[0], 0.01022, atol=5e-6)

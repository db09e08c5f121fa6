"""Integrators: convergence order on a linear oscillator, energy behaviour, grid, progress, bad input."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.integrate import solve_ivp

import kinematics_lib as kl

OMEGA = 2.0


def oscillator(t, x):
    """x = [q; qd], qdd = -omega^2 q (unit mass): exact q = cos(omega t) for x0 = [1, 0]."""
    return np.array([x[1], -OMEGA**2 * x[0]])


def exact(t):
    return np.array([np.cos(OMEGA * t), -OMEGA * np.sin(OMEGA * t)])


def energy(X):
    return 0.5 * X[:, 1] ** 2 + 0.5 * OMEGA**2 * X[:, 0] ** 2


def observed_order(integrate, dts, t_final=1.0):
    errors = [np.abs(integrate(oscillator, [1.0, 0.0], t_final, dt)[1][-1] - exact(t_final)).max() for dt in dts]
    return np.polyfit(np.log(dts), np.log(errors), 1)[0]


@pytest.mark.parametrize("integrate, order", [
    (kl.integrate_euler, 1.0),
    (kl.integrate_semi_implicit_euler, 1.0),
    (kl.integrate_rk4, 4.0),
])
def test_convergence_order(integrate, order):
    dts = np.array([0.02, 0.01, 0.005, 0.0025])
    assert observed_order(integrate, dts) == pytest.approx(order, abs=0.15)


def test_adaptive_meets_its_tolerance_and_matches_solve_ivp():
    t, X = kl.integrate_adaptive(oscillator, [1.0, 0.0], 10.0, 0.1, rtol=1e-10, atol=1e-12)
    assert np.abs(X - exact(t).T).max() < 1e-8
    ref = solve_ivp(oscillator, (0.0, 10.0), [1.0, 0.0], t_eval=t, rtol=1e-10, atol=1e-12, method="RK45")
    np.testing.assert_allclose(X, ref.y.T, atol=1e-13)
    t, X = kl.integrate_adaptive(oscillator, [1.0, 0.0], 10.0, 0.1, rtol=1e-10, atol=1e-12, method="DOP853")
    assert np.abs(X - exact(t).T).max() < 1e-8


def test_symplectic_euler_energy_bounded_explicit_euler_grows():
    """On the oscillator (constant mass) semi-implicit Euler is symplectic: its energy error
    oscillates with a bounded amplitude; explicit Euler multiplies E by (1 + omega^2 h^2) per step."""
    h, t_final = 0.01, 200.0
    _, X = kl.integrate_semi_implicit_euler(oscillator, [1.0, 0.0], t_final, h)
    dE = np.abs(energy(X) - energy(X[:1]))
    period = int(round(2 * np.pi / OMEGA / h))
    assert dE.max() < 2.0 * dE[: 2 * period].max()  # no growth after the first periods
    assert dE.max() < OMEGA * h * energy(X[:1])[0]  # O(h) amplitude
    _, Y = kl.integrate_euler(oscillator, [1.0, 0.0], 20.0, h)
    np.testing.assert_allclose(energy(Y), energy(Y[:1]) * (1 + OMEGA**2 * h**2) ** np.arange(len(Y)), rtol=1e-9)


def test_rk4_energy_drift_is_small_and_monotone():
    _, X = kl.integrate_rk4(oscillator, [1.0, 0.0], 100.0, 0.01)
    dE = energy(X) - energy(X[:1])
    assert np.all(np.diff(dE) <= 1e-15)  # RK4 is slightly dissipative on the oscillator:
    factor = 1.0 - (OMEGA * 0.01) ** 6 / 72.0  # |R(i w h)|^2 of the RK4 stability polynomial
    assert dE[-1] == pytest.approx(energy(X[:1])[0] * (factor ** (len(X) - 1) - 1.0), rel=1e-3)


def test_grid_and_progress():
    calls = []
    t, X = kl.integrate_rk4(oscillator, [1.0, 0.0], 1.0, 0.3, progress=calls.append)
    assert t[-1] == 1.0 and np.all(np.diff(t) <= 0.3 + 1e-15) and len(t) == 5
    assert X.shape == (5, 2) and calls == [1] * 4
    calls.clear()
    t, X = kl.integrate_adaptive(oscillator, [1.0, 0.0], 1.0, 0.1, progress=calls.append)
    assert len(t) == 11 and sum(calls) == 10 and t[-1] == 1.0


def test_fixed_step_accepts_any_step_and_count_calls():
    f = kl.count_calls(oscillator)
    t, X = kl.integrate_fixed_step(kl.rk4_step, f, [1.0, 0.0], 1.0, 0.1)
    assert f.calls == 1 + 4 * 10  # one shape check, four stages per step
    np.testing.assert_array_equal(X, kl.integrate_rk4(oscillator, [1.0, 0.0], 1.0, 0.1)[1])


def test_one_step_functions():
    x, h = np.array([1.0, 0.0]), 0.1
    np.testing.assert_allclose(kl.euler_step(oscillator, 0.0, x, h), x + h * oscillator(0.0, x))
    x_si = kl.semi_implicit_euler_step(oscillator, 0.0, x, h)
    assert x_si[1] == pytest.approx(-OMEGA**2 * h) and x_si[0] == pytest.approx(1.0 - OMEGA**2 * h**2)
    A = np.array([[0.0, 1.0], [-OMEGA**2, 0.0]])  # on a linear system RK4 is the 4th-order Taylor series
    taylor = sum(np.linalg.matrix_power(h * A, k) / np.prod(np.arange(1, k + 1)) for k in range(5))
    np.testing.assert_allclose(kl.rk4_step(oscillator, 0.0, x, h), taylor @ x, atol=1e-15)


def test_bad_input_raises_value_error():
    for integrate in (kl.integrate_euler, kl.integrate_rk4, kl.integrate_semi_implicit_euler, kl.integrate_adaptive):
        with pytest.raises(ValueError, match="dt"):
            integrate(oscillator, [1.0, 0.0], 1.0, 0.0)
        with pytest.raises(ValueError, match="dt"):
            integrate(oscillator, [1.0, 0.0], 1.0, -0.1)
        with pytest.raises(ValueError, match="t_final"):
            integrate(oscillator, [1.0, 0.0], 0.0, 0.1)
        with pytest.raises(ValueError, match="state0"):
            integrate(oscillator, [np.nan, 0.0], 1.0, 0.1)
        with pytest.raises(ValueError, match="shape"):
            integrate(lambda t, x: np.zeros(3), [1.0, 0.0], 1.0, 0.1)
    with pytest.raises(ValueError, match="even"):
        kl.integrate_semi_implicit_euler(lambda t, x: x, [1.0, 0.0, 2.0], 1.0, 0.1)
    with pytest.raises(ValueError, match="method"):
        kl.integrate_adaptive(oscillator, [1.0, 0.0], 1.0, 0.1, method="Euler")
    with pytest.raises(ValueError, match="rtol"):
        kl.integrate_adaptive(oscillator, [1.0, 0.0], 1.0, 0.1, rtol=0.0)


def test_blow_up_is_reported_not_silent():
    with np.errstate(over="ignore", invalid="ignore"), pytest.raises(ValueError, match="non-finite"):
        kl.integrate_euler(lambda t, x: x**2, [1.0], 5.0, 0.1)

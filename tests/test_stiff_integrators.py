"""Stiff systems (chapter 4, section 6.1): the step matrices and stability limits of explicit,
semi-implicit and implicit Euler on x'' + 2 zeta omega x' + omega^2 x = 0, and the slider view.

Independent references: the closed-form limits are checked against the spectral radius of the
step matrix found by bisection, the step matrices against a direct step of the update rule, and
the runs against the energy factor per step that the eigenvalues predict.
"""

from __future__ import annotations

import numpy as np
import pytest

import kinematics_lib as kl

METHODS = kl.OSCILLATOR_METHODS


def radius(omega, zeta, dt, method):
    return np.abs(np.linalg.eigvals(kl.oscillator_step_matrix(omega, zeta, dt, method))).max()


def bisect_limit(omega, zeta, method, lo=1e-9, hi=10.0):
    """The smallest dt at which the spectral radius exceeds 1 (radius <= 1 below it)."""
    assert radius(omega, zeta, lo, method) <= 1.0 + 1e-12 < radius(omega, zeta, hi, method)
    for _ in range(200):
        mid = np.sqrt(lo * hi)
        lo, hi = (mid, hi) if radius(omega, zeta, mid, method) <= 1.0 + 1e-12 else (lo, mid)
    return hi


@pytest.mark.parametrize("method", ["explicit", "semi-implicit"])
@pytest.mark.parametrize("zeta", [0.05, 0.3, 0.7, 1.0, 2.5])
@pytest.mark.parametrize("omega", [3.0, 100.0, 1e4])
def test_stability_limit_is_where_the_spectral_radius_crosses_one(method, zeta, omega):
    dt_max = kl.oscillator_stability_limit(omega, zeta, method)
    assert dt_max == pytest.approx(bisect_limit(omega, zeta, method), rel=1e-6)


def test_closed_forms():
    assert kl.oscillator_stability_limit(100.0, 0.0, "semi-implicit") == pytest.approx(0.02)   # 2 / omega
    assert kl.oscillator_stability_limit(100.0, 0.5, "explicit") == pytest.approx(0.01)        # 2 zeta / omega
    assert kl.oscillator_stability_limit(100.0, 0.5, "semi-implicit") == pytest.approx(2 * (np.sqrt(1.25) - 0.5) / 100)
    assert kl.oscillator_stability_limit(100.0, 0.0, "explicit") == 0.0
    assert kl.oscillator_stability_limit(100.0, 0.0, "implicit") == np.inf


def test_undamped_explicit_is_never_stable_and_implicit_always_is():
    for dt in np.geomspace(1e-6, 10.0, 30):
        assert radius(100.0, 0.0, dt, "explicit") > 1.0
        assert radius(100.0, 0.0, dt, "implicit") < 1.0
        assert radius(100.0, 0.0, dt, "explicit") == pytest.approx(np.sqrt(1 + (100.0 * dt) ** 2))
        assert radius(100.0, 0.0, dt, "implicit") == pytest.approx(1 / np.sqrt(1 + (100.0 * dt) ** 2))


def test_heavily_damped_semi_implicit_limit_is_below_explicit():
    """The chapter's remark: for zeta above 1/sqrt(3) ~ 0.577 semi-implicit is the more restrictive."""
    z0 = 1 / np.sqrt(3)
    for zeta in (0.3, 0.5):
        assert kl.oscillator_stability_limit(1.0, zeta, "semi-implicit") > kl.oscillator_stability_limit(1.0, zeta, "explicit")
    for zeta in (0.6, 0.8, 1.0, 3.0):
        assert kl.oscillator_stability_limit(1.0, zeta, "semi-implicit") < kl.oscillator_stability_limit(1.0, zeta, "explicit")
    assert kl.oscillator_stability_limit(1.0, z0, "semi-implicit") == pytest.approx(kl.oscillator_stability_limit(1.0, z0, "explicit"))


@pytest.mark.parametrize("method", METHODS)
def test_step_matrix_is_one_step_of_the_update_rule(method):
    omega, zeta, dt, x, v = 37.0, 0.2, 3e-3, 0.4, -1.3
    acc = lambda x, v: -omega**2 * x - 2 * zeta * omega * v
    if method == "explicit":
        expected = [x + dt * v, v + dt * acc(x, v)]
    elif method == "semi-implicit":
        v1 = v + dt * acc(x, v)
        expected = [x + dt * v1, v1]
    else:  # implicit: the new state satisfies the update with the new derivative
        G = kl.oscillator_step_matrix(omega, zeta, dt, method)
        x1, v1 = G @ [x, v]
        assert x1 == pytest.approx(x + dt * v1) and v1 == pytest.approx(v + dt * acc(x1, v1))
        return
    assert kl.oscillator_step_matrix(omega, zeta, dt, method) @ [x, v] == pytest.approx(expected)


def test_simulation_below_and_above_the_limit():
    omega = 100.0
    dt_max = kl.oscillator_stability_limit(omega, 0.0, "semi-implicit")
    _, X = kl.simulate_oscillator(omega, 0.0, 0.01, 0.0, 0.99 * dt_max, t_final=2.0, method="semi-implicit")
    assert np.abs(X[:, 0]).max() < 0.2            # bounded (it oscillates; the modified energy is conserved)
    t, X = kl.simulate_oscillator(omega, 0.0, 0.01, 0.0, 1.01 * dt_max, t_final=2.0, method="semi-implicit")
    assert t[-1] < 2.0 and np.hypot(X[-1, 0], X[-1, 1] / omega) > 1e6 * 0.01   # stopped at the blow-up


def test_explicit_energy_grows_by_the_predicted_factor():
    omega, dt = 50.0, 1e-3
    t, X = kl.simulate_oscillator(omega, 0.0, 0.01, 0.0, dt, t_final=0.5)
    energy = X[:, 1] ** 2 + (omega * X[:, 0]) ** 2
    assert energy[1:] / energy[:-1] == pytest.approx(1 + (omega * dt) ** 2, rel=1e-12)


def test_bad_input_names_the_argument():
    with pytest.raises(ValueError, match="method"):
        kl.oscillator_step_matrix(1.0, 0.0, 0.1, "rk4")
    with pytest.raises(ValueError, match="dt"):
        kl.oscillator_step_matrix(1.0, 0.0, -0.1)
    with pytest.raises(ValueError, match="omega"):
        kl.oscillator_stability_limit(0.0, 0.1)
    with pytest.raises(ValueError, match="zeta"):
        kl.simulate_oscillator(1.0, -0.1, 0.0, 1.0, 0.01)


def test_view_numbers_and_labels():
    from kinematics_lib.notebook.views.stiff import stiff_spring_case, stiff_spring_view

    case = stiff_spring_case(7.0, 4.0, 0.0)                # omega = 100 rad/s, dt = 7 ms
    assert case["omega"] == pytest.approx(100.0)
    assert case["semi-implicit"]["rho"] == pytest.approx(1.0)        # inside 2/omega = 20 ms
    assert case["explicit"]["rho"] > 1.0 and case["implicit"]["rho"] < 1.0
    assert case["semi-implicit"]["run"][0].size == int(np.floor(0.2 / 7e-3 + 1e-9)) + 1     # ran to the end
    view = stiff_spring_view(7.0, 4.0, 0.0)
    assert "semi-implicit (symplectic) Euler: dt_max = 20.000 ms" in view.text
    assert "implicit Euler                  : dt_max = every dt" in view.text
    for ax in view.figure.axes:
        assert "[" in ax.get_xlabel() and "[" in ax.get_ylabel()       # units on every axis
    # unstable: explicit at a large step on a stiff spring stops before the end
    case = stiff_spring_case(20.0, 6.0, 1.0)
    assert case["explicit"]["run"][0][-1] < 0.2 and case["implicit"]["rho"] < 0.1

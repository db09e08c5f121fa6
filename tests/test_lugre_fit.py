"""LuGre's bristle parameters from a pre-sliding experiment (issue 24, item 3): kl.fit_lugre."""

from __future__ import annotations

import numpy as np
import pytest

import kinematics_lib as kl

TRUE = kl.LuGre(sigma0=1e4, sigma1=100.0, sigma2=0.05, f_c=1.0, f_s=1.5, v_s=0.1)
STATIC = (TRUE.f_c, TRUE.f_s, TRUE.sigma2, TRUE.v_s)
DT = 2e-4


def presliding(amplitude=5e-5, frequency=2.0, duration=1.0):
    """A sinusoidal displacement of `amplitude` rad: its velocity and LuGre's torque."""
    t = np.arange(0.0, duration, DT)
    v = amplitude * 2 * np.pi * frequency * np.cos(2 * np.pi * frequency * t)
    return v, TRUE.simulate(v, DT)[1]


def test_noiseless_presliding_data_give_the_true_bristle_parameters():
    v, tau = presliding()
    fit = kl.fit_lugre(v, tau, DT, STATIC)
    assert fit.status > 0 and fit.rms < 1e-9
    assert np.allclose(fit.params, [TRUE.sigma0, TRUE.sigma1], rtol=1e-6)
    m = fit.model  # all six parameters in one LuGre
    assert np.allclose([m.sigma0, m.sigma1, m.sigma2, m.f_c, m.f_s, m.v_s], [1e4, 100.0, 0.05, 1.0, 1.5, 0.1], rtol=1e-6)
    # the linear spring-damper start is not the answer: the fit is what recovers sigma1
    assert abs(fit.initial[1] - TRUE.sigma1) > 0.2 * TRUE.sigma1


def test_confidence_intervals_cover_the_truth_about_95_percent_of_the_time():
    v, tau = presliding()
    hits, n = np.zeros(2), 30
    for seed in range(n):
        fit = kl.fit_lugre(v, tau + 0.005 * np.random.default_rng(seed).normal(size=tau.size), DT, STATIC)
        hits += (fit.ci95[:, 0] <= [TRUE.sigma0, TRUE.sigma1]) & ([TRUE.sigma0, TRUE.sigma1] <= fit.ci95[:, 1])
    assert np.all(hits >= 0.8 * n)  # nominal 95 %; 30 draws
    assert np.all(fit.std > 0.0) and np.all(fit.ci95[:, 1] - fit.ci95[:, 0] < 0.05 * fit.params)


def test_a_stribeck_fit_supplies_the_static_parameters():
    v_sweep = np.concatenate([-np.geomspace(1e-3, 2.0, 40), np.geomspace(1e-3, 2.0, 40)])
    sweep = kl.fit_stribeck(v_sweep, TRUE.steady_state(v_sweep))
    v, tau = presliding()
    fit = kl.fit_lugre(v, tau, DT, sweep)
    assert np.allclose([fit.model.f_c, fit.model.f_s, fit.model.sigma2, fit.model.v_s], STATIC, rtol=1e-5)
    assert np.allclose(fit.params, [TRUE.sigma0, TRUE.sigma1], rtol=1e-4)


def test_a_wrong_static_model_shows_in_the_residual():
    v, tau = presliding(amplitude=2e-4)  # beyond pre-sliding: the static levels matter
    good = kl.fit_lugre(v, tau, DT, STATIC)
    bad = kl.fit_lugre(v, tau, DT, (0.5, 0.8, 0.05, 0.1))
    assert bad.rms > 100 * max(good.rms, 1e-9)


@pytest.mark.parametrize("kwargs, word", [
    (dict(v=np.zeros(100)), "v must move"),
    (dict(tau_f=np.zeros(99)), "tau_f"),
    (dict(static=(0.0, 1.5, 0.05, 0.1)), "static"),
    (dict(tau_f=-np.ones(100)), "pre-sliding"),
    (dict(dt=5.0), "dt"),
])
def test_bad_input_names_the_argument(kwargs, word):
    v, tau = presliding(duration=100 * DT)
    args = dict(v=v, tau_f=tau, dt=DT, static=STATIC) | kwargs
    with pytest.raises(ValueError, match=word):
        kl.fit_lugre(**args)

"""Physically consistent identification and Stribeck fits (issue 24, item 3)."""

from __future__ import annotations

import numpy as np
import pytest

import kinematics_lib as kl


def test_pseudo_inertia_is_psd_exactly_for_physical_bodies():
    rng = np.random.default_rng(0)
    model = kl.random_tree_model(5, rng)
    assert np.all(kl.pseudo_inertia_eigenvalues(kl.inertial_parameters(model)) > 0.0)
    pi = kl.inertial_parameters(model)[:10].copy()
    # J = ∫ [x; 1][x; 1]ᵀ dm: a point mass m at c gives m [c; 1][c; 1]ᵀ
    point = np.array([2.0, 2.0 * 0.1, 2.0 * -0.2, 2.0 * 0.3, 0, 0, 0, 0, 0, 0], float)
    c = np.array([0.1, -0.2, 0.3])
    I_o = 2.0 * (c @ c * np.eye(3) - np.outer(c, c))  # its inertia about the origin
    point[4:] = I_o[0, 0], I_o[0, 1], I_o[1, 1], I_o[0, 2], I_o[1, 2], I_o[2, 2]
    assert np.allclose(kl.pseudo_inertia(point), 2.0 * np.outer([*c, 1.0], [*c, 1.0]))
    bad = pi.copy()
    bad[0] = -bad[0]  # a negative mass
    assert kl.pseudo_inertia_eigenvalues(bad)[0] < 0.0
    bad = pi.copy()
    bad[4] = bad[6] + bad[9] + 1.0  # I_xx > I_yy + I_zz breaks the triangle inequality
    assert kl.pseudo_inertia_eigenvalues(bad)[0] < 0.0


@pytest.mark.parametrize("seed", range(4))
def test_constrained_fit_is_physical_and_validates_better_under_poor_excitation(seed):
    rng = np.random.default_rng(seed)
    model = kl.random_tree_model(4, rng, chain=True, joint_types=("revolute",))
    Yt, tt = kl.random_regressor_data(model, 30, 0.3, 0.05, rng)  # 30 small samples, 5 % noise: poor excitation
    Yv, tv = kl.random_regressor_data(model, 300, 1.0, 0.0, rng)  # a rich, clean validation set
    plain = kl.identify_physical_parameters(Yt, tt, constrained=False)
    sdp = kl.identify_physical_parameters(Yt, tt)
    assert sdp.n_nonphysical == 0 and sdp.min_eigenvalues.min() > -1e-7
    assert plain.n_nonphysical >= 1  # plain least squares returns impossible bodies here ...
    err = [np.sqrt(np.mean((Yv @ th - tv) ** 2)) for th in (plain.theta, sdp.theta)]
    assert err[1] < err[0]  # ... and the constraint, a true prior, predicts new torques better
    assert sdp.rms.mean() >= plain.rms.mean() - 1e-12  # at the price of a (slightly) larger fit residual


def test_constrained_fit_reproduces_rich_noiseless_data():
    rng = np.random.default_rng(9)
    model = kl.random_tree_model(3, rng, chain=True, joint_types=("revolute",))
    Y, t = kl.random_regressor_data(model, 200, 1.0, 0.0, rng)
    fit = kl.identify_physical_parameters(Y, t)
    Yv, tv = kl.random_regressor_data(model, 100, 1.0, 0.0, rng)
    assert np.abs(Yv @ fit.theta - tv).max() < 1e-4 * np.abs(tv).max()


def test_stribeck_fit_confidence_intervals_cover_the_truth():
    true = np.array([0.8, 1.2, 0.3, 0.05])
    v = np.concatenate([-np.geomspace(1e-3, 2.0, 40), np.geomspace(1e-3, 2.0, 40)])
    covered, n = np.zeros(4), 40
    for seed in range(n):
        rng = np.random.default_rng(seed)
        fit = kl.fit_stribeck(v, kl.stribeck_friction(v, *true) + 0.01 * rng.normal(size=v.size))
        covered += (fit.ci95[:, 0] <= true) & (true <= fit.ci95[:, 1])
        assert np.abs(fit.params - true).max() < 0.05
    assert np.all(covered / n >= 0.8)  # nominally 95 %


def test_random_regressor_data_is_the_regressor_times_the_true_parameters():
    """Without noise τ = W π_true exactly, W is the regressor at the drawn states, and one seed
    gives one experiment; a floating base (random quaternions) is refused."""
    model = kl.random_tree_model(3, np.random.default_rng(2), chain=True, joint_types=("revolute",))
    W, tau = kl.random_regressor_data(model, 7, 0.5, 0.0, seed=11)
    assert W.shape == (7, model.nv, 10 * model.nb) and tau.shape == (7, model.nv)
    assert np.allclose(tau, W @ kl.inertial_parameters(model), rtol=0, atol=1e-12)
    rng = np.random.default_rng(11)
    q, v, a = (0.5 * rng.normal(size=(7, 3)) for _ in range(3))
    assert np.array_equal(W, kl.joint_torque_regressor(model, q, v, a))
    noisy = kl.random_regressor_data(model, 7, 0.5, 0.1, seed=11)[1]
    assert np.array_equal(noisy, kl.random_regressor_data(model, 7, 0.5, 0.1, seed=11)[1])
    assert not np.allclose(noisy, tau)
    with pytest.raises(ValueError, match="fixed-base"):
        kl.random_regressor_data(kl.random_tree_model(2, np.random.default_rng(0), floating_base=True), 5, 1.0, 0.0)

"""Chapter 7's numbers from issue 23 (items 5, 6, 7): the feet's names in the figures, the
Baumgarte energy change against the linkage's energy, the friction LCP's asymmetry, and the
time-stepped impact momentum approaching the analytic one as dt shrinks."""

from __future__ import annotations

import numpy as np
import pytest

import kinematics_lib as kl
from kinematics_lib.notebook.views import contact as views


def test_feet_are_named_as_anymal_legs_in_the_figures():
    assert views.LEGS == ("LF", "RF", "LH", "RH")
    # LF = left front: +x (front), +y (left), as in chapter 8
    assert views.STANDING_POINTS[0, 0] > 0 and views.STANDING_POINTS[0, 1] > 0
    assert views.STANDING_POINTS[3, 0] < 0 and views.STANDING_POINTS[3, 1] < 0
    for view in (views.conditioning_view(), views.force_distribution_view()):
        ticks = {t.get_text() for ax in view.figure.axes for t in ax.get_xticklabels()}
        assert set(views.LEGS) <= ticks and not ticks & {"FL", "FR", "HL", "HR"}


def test_baumgarte_energy_change_is_small_against_the_energy_that_moves():
    fb = views.FOURBAR
    m = np.array([fb.m1, fb.m1, fb.m2, fb.m2])
    q0, v0 = kl.four_bar_configuration(fb, 1.0, 1.0)
    rel = {}
    for name, options in (("none", {}), ("baumgarte", dict(alpha=5.0, beta=5.0)), ("projection", dict(project=True))):
        r = kl.simulate_four_bar(fb, q0, v0, 10.0, 0.01, **options)
        K = 0.5 * r.v**2 @ m
        assert 13.0 < K.max() < 13.4                     # the 13.2 J the chapter quotes
        rel[name] = abs(r.energy[-1] - r.energy[0]) / K.max()
    assert 1e-4 < rel["none"] < 1e-3                     # "8 × 10⁻⁴"
    assert rel["baumgarte"] < 2e-5 and rel["projection"] < 2e-5
    assert rel["baumgarte"] < rel["none"] / 10


def test_friction_lcp_is_not_symmetric_and_no_qp():
    th = np.radians(30.0)
    t, n = np.array([np.cos(th), np.sin(th)]), np.array([-np.sin(th), np.cos(th)])
    A, q = kl.contact_lcp(np.eye(2), np.zeros(2), [0.0, -9.81], n[None, :], np.array([t, -t]), 0.5, 0.01)
    assert np.abs(A - A.T).max() == pytest.approx(2.0)
    assert np.linalg.eigvalsh(0.5 * (A + A.T)).min() < -0.05          # the symmetric part is indefinite
    with pytest.raises(ValueError, match="symmetric"):
        kl.lcp_by_qp(A, q)
    r = kl.solve_lcp(A, q)
    assert r.solved and r.z.min() >= -1e-12 and r.w.min() >= -1e-12 and abs(r.z @ r.w) < 1e-12
    # even without friction (mu = 0) the gamma row keeps A unsymmetric: the structure, not mu, decides
    A0, _ = kl.contact_lcp(np.eye(2), np.zeros(2), [0.0, -9.81], n[None, :], np.array([t, -t]), 0.0, 0.01)
    assert np.abs(A0 - A0.T).max() == pytest.approx(2.0)


def test_impact_momentum_gap_shrinks_with_the_step():
    table = views.impact_momentum_table()
    exact = np.sqrt(2 * 9.81 * 1.0)
    dts = np.array([row[0] for row in table])
    gaps = np.array([exact + row[2] for row in table])      # momentum is negative (downwards)
    assert table[0][1] == pytest.approx(0.45) and table[0][2] == pytest.approx(-4.3164, abs=1e-4)
    assert np.all(gaps > 0) and np.all(gaps < 2 * 9.81 * dts)
    assert gaps[-1] < gaps[0] / 20
    for dt, t_hit, _ in table:
        assert abs(t_hit - np.sqrt(2 / 9.81)) <= 2 * dt


def test_friction_lcp_matrix_is_copositive_not_copositive_plus():
    """Chapter 7's claim about the Stewart-Trinkle matrix: z^T A z >= 0 for every z >= 0 (copositive),
    but for mu > 0 a unit z on the gamma slack has z^T A z = 0 while (A + A^T) z != 0, so A is not
    copositive-plus; Lemke's algorithm still solves these LCPs (Anitescu & Potra 1997)."""
    rng = np.random.default_rng(7)
    for _ in range(20):
        n, theta = 2, rng.uniform(0, 1.2)
        M = rng.uniform(0.5, 5) * np.eye(n)
        N = np.array([[-np.sin(theta), np.cos(theta)]])
        t = np.array([np.cos(theta), np.sin(theta)])
        D = np.vstack([t, -t])
        mu = rng.uniform(0.1, 1.0)
        A, q = kl.contact_lcp(M, rng.normal(size=n), np.array([0.0, -9.81]) * M[0, 0], N, D, mu, 0.01)
        Z = rng.uniform(0, 1, size=(200, A.shape[0]))
        assert np.einsum("ki,ij,kj->k", Z, A, Z).min() >= -1e-12
        flat = [k for k in range(A.shape[0]) if abs(A[k, k]) < 1e-15 and np.linalg.norm((A + A.T)[:, k]) > 1e-9]
        assert flat, "expected a direction with z^T A z = 0 and (A + A^T) z != 0"
        assert kl.solve_lcp(A, q).z.min() >= -1e-12

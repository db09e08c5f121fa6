"""Chapter 7 views: each returns a View whose text holds the numbers the figure shows."""

from __future__ import annotations

import numpy as np
import pytest

import kinematics_lib as kl
from kinematics_lib.notebook.views import contact as vc
from kinematics_lib.notebook.widgets import View


@pytest.mark.parametrize("view,kwargs,moved", [
    (vc.parking_view, {}, dict(turn=1.5)),
    (vc.baumgarte_view, {}, dict(alpha=2.0)),
    (vc.conditioning_view, {}, dict(log10_damping=-2.0)),
    (vc.incline_view, {}, dict(theta_deg=10.0)),
    (vc.ball_drop_view, {}, dict(restitution=0.5)),
    (vc.friction_cone_view, {}, dict(n_faces=8)),
    (vc.force_distribution_view, {}, dict(com_x=0.2)),
])
def test_views_run_and_change_with_their_sliders(view, kwargs, moved):
    a, b = view(**kwargs), view(**moved)
    assert isinstance(a, View) and a.text != b.text


def test_parking_view_reports_no_side_slip():
    assert "m/s" in vc.parking_view().text and "= 0.0 m/s" in vc.parking_view().text


def test_incline_view_matches_the_analytic_acceleration():
    text = vc.incline_view(theta_deg=40.0, mu=0.5).text
    a = 9.81 * (np.sin(np.radians(40)) - 0.5 * np.cos(np.radians(40)))
    assert "slides" in text and f"LCP = {a:.4f}" in text and f"analytic = {a:.4f}" in text
    assert "sticks" in vc.incline_view(theta_deg=20.0, mu=0.5).text


def test_friction_cone_view_prints_the_worst_case_errors():
    text = vc.friction_cone_view(mu=0.5, n_faces=4).text
    assert "29.3 %" in text and "+41.4 %" in text


def test_force_distribution_view_reports_infeasible_stance():
    text = vc.force_distribution_view(com_x=0.45).text
    assert text.count("infeasible") == 4
    feasible = vc.force_distribution_view(com_x=0.0, com_y=0.0).text
    assert "infeasible" not in feasible and "f_z = [73.58 73.58 73.58 73.58]" in feasible


def test_conditioning_view_sum_is_the_weight():
    text = vc.conditioning_view(log10_damping=-8.0, com_x=0.0).text
    assert "inf (singular)" in text and f"sum = {30 * 9.81:.3f} N" in text


def test_ball_drop_view_momentum_jump():
    text = vc.ball_drop_view(restitution=0.0, height=1.0).text
    assert "→ +0.000 kg m/s" in text

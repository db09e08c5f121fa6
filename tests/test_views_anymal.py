"""Chapter 8 views: each returns a View whose text holds the numbers the figure shows."""

from __future__ import annotations

import numpy as np
import pytest

import kinematics_lib as kl
from kinematics_lib.documents import doc000
from kinematics_lib.notebook.views import anymal as va
from kinematics_lib.notebook.widgets import interactive_view


def test_stance_view_slider_changes_figure_and_text():
    iv = interactive_view(va.stance_view, height=(0.38, 0.52, 0.005, va.NOMINAL_HEIGHT), roll=(-0.3, 0.3, 0.01, 0.0))
    first_png = iv.initial.png()
    moved = va.stance_view(roll=0.1)
    assert moved.text != iv.initial.text and moved.png() != first_png


def test_stance_view_text_holds_the_equilibrium_forces():
    model = va.anymal()
    v = va.stance_view(pitch=0.1, shift_x=0.03)
    q, feet, results = va.stance(pitch=0.1, shift_x=0.03)
    assert all(r.converged for r in results)
    F = kl.static_equilibrium_forces(model, q, feet, 0.7)
    for f, row in zip(feet, F):
        assert f"{f}: f = ({row[0]:.2f}, {row[1]:.2f}, {row[2]:.2f}) N".replace("-0.00", "0.00") in v.text
    assert "|sum f + m g| < 1e-9 N: True" in v.text and "-0.00" not in v.text


def test_stance_view_keeps_the_feet_on_their_footholds():
    model = va.anymal()
    _, P = va.nominal_stance()
    q, feet, _ = va.stance(height=0.45, roll=-0.1, shift_y=0.04)
    for f, p in zip(kl.ANYMAL_FEET, P):
        assert np.allclose(kl.frame_placement(model, q, f)[:3, 3], p, atol=1e-9)


def test_stance_view_reports_an_infeasible_three_foot_stance():
    v = va.stance_view(shift_x=-0.05, shift_y=-0.05, lift="RH")
    assert "3 feet on the ground" in v.text and "infeasible" in v.text and "outside the support polygon" in v.text


def test_stance_view_reports_an_unreachable_foothold():
    assert "cannot reach" in va.stance_view(height=0.8).text


def test_structure_rows_list_every_body_and_the_total_mass():
    rows = va.structure_rows(va.anymal())
    assert len(rows) == 1 + 13 + 1 and "total mass 30.475 kg, nq = 19, nv = 18" in rows[-1]


def test_mass_matrix_and_workspace_and_doc_errors():
    model = va.anymal()
    q = kl.random_configuration(model, np.random.default_rng(0))
    n = va.mass_matrix_figure(model, q).numbers
    np.testing.assert_allclose(n["M"], kl.crba(model, q), atol=1e-12)
    # the 108 entries between two different legs and m I_3's 6 off-diagonals are exactly zero
    legs = [slice(6 + 3 * k, 9 + 3 * k) for k in range(4)]
    assert all(np.all(n["M"][a, b] == 0.0) for a in legs for b in legs if a != b)
    assert n["zeros"] == int(np.sum(np.abs(n["M"]) <= 1e-12 * np.abs(n["M"]).max()))
    assert 108 + 6 <= n["zeros"] < 18 * 18 // 2
    assert "reachable" in va.workspace_figure("LF_FOOT", n=9).text
    assert np.nanmax(va.doc_ik_errors(kl.simple_leg_model(), "FOOT", n=20)) < 1e-12
    assert np.nanmedian(va.doc_ik_errors(model, "LF_FOOT", n=20, flip=True)) > 0.05


def test_landing_figure_shows_a_result():
    model = va.anymal()
    q, _ = va.nominal_stance()
    q[2] += 0.01
    res = kl.simulate_landing(model, q, kl.ANYMAL_FEET, duration=0.05, dt=1e-3)
    base, forces, _ = va.landing_figure(res).figure.axes  # the figure draws the result's own numbers
    np.testing.assert_array_equal(base.lines[0].get_ydata(), res.base_height)
    for k in range(len(res.feet)):
        np.testing.assert_array_equal(forces.lines[2 * k].get_ydata(), res.forces[:, k, 2])


@pytest.mark.parametrize("lift", ["none", "LF", "LH", "RF", "RH"])
def test_stance_view_runs_for_every_lifted_foot(lift):
    view = va.stance_view(shift_x=0.02, lift=lift)
    feet, forces = view.numbers["feet"], view.numbers["forces"]
    assert len(feet) == (4 if lift == "none" else 3) and not any(f.startswith(lift) for f in feet)
    if forces is not None:  # the contact forces carry the robot's weight
        model = va.anymal()
        np.testing.assert_allclose(forces.sum(axis=0), -model.total_mass * model.gravity, atol=1e-6)


@pytest.mark.parametrize("foot", ["LF_FOOT", "RH_FOOT"])
def test_workspace_grid_is_leg_ik_and_the_documents_formula_point_by_point(foot):
    model = va.anymal()
    g = kl.leg_geometry(model, foot)
    y = float(g.p_BH[1] + g.p_HF[1] + g.p_FK[1] + g.c_K[1])
    xs, zs, reach, err = va._workspace(foot, y, 23)
    lengths = (float(np.linalg.norm(g.p_HF)), abs(g.p_FK[2]), float(np.hypot(g.c_K[0], g.c_K[2])))
    for i, z in enumerate(zs):
        for j, x in enumerate(xs):
            p = np.array([x, y, z])
            assert reach[i, j] == kl.leg_ik(model, foot, p).converged, (x, z)
            if reach[i, j] and np.isfinite(err[i, j]):
                q_doc = doc000.leg_ik(p - g.p_BH, *lengths)
                assert abs(err[i, j] - np.linalg.norm(kl.leg_foot_position(model, foot, q_doc) - p)) < 1e-12
    assert 0.2 < reach.mean() < 0.95 and np.isfinite(err).any()

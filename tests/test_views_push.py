"""Chapter 8's push slider (issue 24 item 1): the cached push runs and the view's figure and text."""

from __future__ import annotations

import numpy as np
import pytest

from kinematics_lib.notebook.views import push as vp
from kinematics_lib.notebook.widgets import interactive_view


def test_a_setting_runs_once_and_is_cached_on_its_rounded_value():
    run = vp.push_run(100.0, 90.0)
    assert vp.push_run(100.04, 90.02) is run and vp.push_run(100.0, 450.0) is run  # 450° = 90°
    assert vp.push_run(125.0, 90.0) is not run
    # the run is the library's push simulation with the documented settings
    assert np.allclose(run.push[(run.t >= 0.05) & (run.t < 0.15)], [0.0, 100.0, 0.0], atol=1e-12)
    assert np.allclose(run.push[run.t >= 0.15 + 1e-9], 0.0)


def test_small_push_is_held_with_margins_and_small_residuals():
    run = vp.push_run(100.0, 90.0)
    v = vp.push_view(100.0, 90.0)
    assert run.qp_ok.all() and "QP feasible at every step (61 steps of 5 ms)" in v.text
    assert np.nanmax(run.friction_ratio) <= 1.0 + 1e-7 and np.abs(run.tau).max() <= 80.0 + 1e-7
    assert np.nanmax(run.dynamics_residual) < 1e-9 and np.nanmax(run.contact_residual) < 1e-9
    assert "below 1e-09: dynamics True (N, N·m), contact True (m/s²)" in v.text
    assert f"peak |τ| {np.abs(run.tau).max():.1f} N·m (limit 80); saturated at 0 steps" in v.text
    margins = 1.0 - np.nanmax(run.friction_ratio, axis=0)
    for foot, m in zip(run.feet, margins):
        assert f"{foot[:2]} {m:.2f}" in v.text
    assert "-0.00" not in v.text


def test_too_large_a_push_is_reported_infeasible_not_hidden():
    limit = vp.push_limit(90.0)
    assert 100.0 < limit < 600.0  # the strict QP holds 100 N sideways standing still, not 600 N
    run = vp.push_run(600.0, 90.0)
    v = vp.push_view(600.0, 90.0)
    assert run.first_infeasible is not None and not run.qp_ok.all()
    assert f"first at t = {run.first_infeasible:.3f} s" in v.text and f"{int((~run.qp_ok).sum())} of 61 steps" in v.text
    assert f"in this direction: {limit:.0f} N" in v.text
    assert np.abs(run.tau).max() <= 80.0 + 1e-7  # saturated, never beyond the effort limit


def test_the_figure_is_built_once_and_a_move_changes_it():
    """In a widget the figure is built once (figure_once) and a slider move redraws it."""
    iv = interactive_view(vp.push_view, **vp.PUSH_SETTINGS)
    first = iv.initial.png()
    moved = iv._render({**iv.values, "direction": 0.0})
    assert moved.figure is iv.initial.figure
    assert moved.png() != first and moved.text != iv.initial.text
    assert moved.text == vp.push_view(iv.values["force"], 0.0).text  # the same as a view built anew


@pytest.mark.parametrize("force, direction", [(-1.0, 0.0), (np.nan, 0.0), (100.0, np.inf), (1e5, 0.0)])
def test_bad_settings_raise(force, direction):
    with pytest.raises(ValueError, match="force"):
        vp.push_run(force, direction)


def test_the_chapter_slider_uses_the_documented_settings():
    import json
    from pathlib import Path

    nb = json.loads((Path(__file__).resolve().parents[1] / "chapters" / "08_anymal_case_study.ipynb").read_text())
    cells = ["".join(c["source"]) for c in nb["cells"] if "push_views.push_view" in "".join(c["source"])]
    f, d = vp.PUSH_SETTINGS["force"], vp.PUSH_SETTINGS["direction"]
    assert len(cells) == 1 and f"force={f}, direction={d}" in cells[0]

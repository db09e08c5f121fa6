"""Every slider figure of every chapter -- including chapters added later -- looks right (issue 13).

Discovered from ``chapters/*.ipynb`` (tools/sliders.py), never listed here. Nothing is timed
(the callbacks' speed is ``benchmarks/bench_views.py``'s job). For each ``interactive_view``:

* the view function is found (through the notebook's imports) and returns a ``View``;
* every numeric slider's label -- the notebook's ``labels=`` or the view's ``@slider_labels`` --
  carries a unit in brackets, ``"q₂ [rad]"``, ``"δ [-]"`` (dropdowns and checkboxes need none);
* the figure, as stored in the executed notebook and (for views that need no notebook state) as
  returned at the initial values, is at most ``MAX_FIGURE_PX`` pixels;
* the widget's controls are laid out so that sliders + figure fit a 1400 x 900 window.
"""

from __future__ import annotations

import base64
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import sliders as catalog  # noqa: E402

from kinematics_lib.notebook.widgets import (  # noqa: E402
    DPI, MAX_FIGURE_PX, View, effective_labels, has_unit, interactive_view, is_slider, png_size, slider_labels,
    step_decimals)

CALLS = [call for path in catalog.chapters() for call in catalog.slider_calls(path)]
#: Height budget of a whole widget in px: a 900 px window less JupyterLab's bars (~140 px).
MAX_WIDGET_PX = 760
SLIDER_ROW_PX = 32


def test_every_chapter_has_sliders():
    with_sliders = {Path(c.notebook).name for c in CALLS}
    missing = [p.name for p in catalog.chapters() if p.name not in with_sliders]
    assert not missing, f"chapters without an interactive_view: {missing}"


@pytest.mark.parametrize("call", CALLS, ids=lambda c: f"{c.id}@{c.cell}")
def test_sliders_have_units(call):
    assert call.view_fn is not None, f"{call.id}: cannot resolve {call.view_source} from the notebook's imports"
    assert call.sliders and "<expr>" not in call.sliders.values(), (
        f"{call.id}: write the slider specs as literals, name=(min, max, step, value)")
    labels = effective_labels(call.view_fn, call.sliders, call.labels)
    missing = [f"{name} -> {labels[name]!r}" for name, spec in call.sliders.items()
               if is_slider(spec) and not has_unit(labels[name])]
    assert not missing, (f"{Path(call.notebook).name} cell {call.cell}: slider labels need a symbol and a unit, "
                         f"e.g. 'q₂ [rad]' (add @slider_labels(...) to the view or labels= in the call): {missing}")


@pytest.mark.parametrize("call", CALLS, ids=lambda c: f"{c.id}@{c.cell}")
def test_stored_figure_fits(call):
    outputs = catalog.stored_outputs(call.notebook)[call.cell]
    pngs = [o["data"]["image/png"] for o in outputs if "image/png" in o.get("data", {})]
    assert pngs, f"{Path(call.notebook).name} cell {call.cell}: no stored figure (execute the notebook)"
    width, height = png_size(base64.b64decode(pngs[-1]))
    assert width <= MAX_FIGURE_PX[0] and height <= MAX_FIGURE_PX[1], (
        f"{call.id}: figure {width}x{height} px, at most {MAX_FIGURE_PX} (figure size in inches x {DPI})")
    rows = -(-len(call.sliders) // (2 if len(call.sliders) > 3 else 1))
    assert rows * SLIDER_ROW_PX + height <= MAX_WIDGET_PX, f"{call.id}: sliders + figure taller than {MAX_WIDGET_PX} px"


FREE = [c for c in CALLS if not c.bound and c.view_fn is not None and "<expr>" not in c.sliders.values()]


@pytest.mark.parametrize("call", FREE, ids=lambda c: f"{c.id}@{c.cell}")
def test_view_returns_bounded_figure(call):
    iv = interactive_view(call.view_fn, labels=call.labels, **call.sliders)
    width, height = png_size(iv.initial.png())
    assert width <= MAX_FIGURE_PX[0] and height <= MAX_FIGURE_PX[1], f"{call.id}: {width}x{height} px"
    # a moved slider renders the same size (no jump) and reuses the first layout
    for name, spec in call.sliders.items():
        if is_slider(spec):
            moved = iv._render({**iv.values, name: spec[0]})
            assert png_size(moved.png()) == (width, height), f"{call.id}: the figure changes size with {name}"
            break


def test_labels_and_units():
    @slider_labels(q2="q₂ [rad]")
    def view(q1=0.0, q2=0.0):
        return None

    assert effective_labels(view, ["q1", "q2"]) == {"q1": "q1", "q2": "q₂ [rad]"}
    assert effective_labels(view, ["q2"], {"q2": "elbow q₂ [rad]"}) == {"q2": "elbow q₂ [rad]"}
    assert has_unit("m₁ [kg]") and has_unit("δ [-]") and not has_unit("q1") and not has_unit("[rad] q")
    assert is_slider((0.0, 1.0, 0.1, 0.5)) and not is_slider(["a", "b"]) and not is_slider(True)
    assert [step_decimals(s) for s in (0.05, 0.1, 1.0, 1000.0, 0.0005, 1)] == [2, 1, 0, 0, 4, 0]
    with pytest.raises(ValueError, match="q1"):
        slider_labels(q1="")


def test_readout_is_exact_at_zero():
    """A slider from -2.75 in steps of 0.05 reaches 0 as 8.9e-16 in floating point: the view
    gets 0.0 and the readout format has the step's decimals."""
    from kinematics_lib.notebook.views import demo_view

    seen = []

    def view(amplitude=1.0):
        seen.append(amplitude)
        return demo_view(amplitude)

    iv = interactive_view(view, amplitude=(-2.75, 2.75, 0.05, -2.75))
    iv._render({"amplitude": -2.75 + 55 * 0.05})
    assert seen[-1] == 0.0 and str(seen[-1]) == "0.0"
    pytest.importorskip("ipywidgets")
    box = iv.widget()
    slider = box.children[0].children[0]
    assert slider.readout_format == ".2f"
    image = box.children[1].children[0]
    assert image.layout.width == f"{png_size(iv.initial.png())[0]}px"


def test_redraw_over_the_cached_frame_matches_a_full_draw():
    """A moved slider whose frame did not change restores the kept frame and draws only the
    animated artists over it; the picture is exactly a full draw of a new figure at those values."""
    import numpy as np
    from kinematics_lib.notebook.views import demo_view
    from kinematics_lib.notebook.widgets import figure_png

    iv = interactive_view(demo_view, amplitude=(0.0, 2.0, 0.1, 1.0))
    background = iv._blitter.background
    moved = iv._render({"amplitude": 0.3})
    assert moved.figure is iv.initial.figure and iv._blitter.background is background
    fresh = demo_view(0.3)
    figure_png(fresh.figure)
    assert np.array_equal(_pixels(moved.figure), _pixels(fresh.figure))
    assert not np.array_equal(_pixels(moved.figure), _initial_pixels(iv))  # the data did move


def _initial_pixels(iv):
    from kinematics_lib.notebook.widgets import figure_png

    view = iv.view_fn(**iv.values)
    figure_png(view.figure)
    return _pixels(view.figure)


def test_a_changed_frame_is_drawn_again():
    """When the frame changes (here the limits), the kept frame is not reused."""
    from kinematics_lib.notebook.widgets import Blitter, animate, figure_png
    from kinematics_lib.notebook.plotting import new_figure
    import numpy as np

    fig, ax = new_figure()
    line = animate(ax.plot([0, 1], [0, 1])[0])
    blitter = Blitter()
    blitter.draw(fig)
    kept = blitter.background
    ax.set_xlim(0, 5)
    blitter.draw(fig)
    assert blitter.background is not kept
    live = _pixels(fig)
    fig2, ax2 = new_figure()
    ax2.plot([0, 1], [0, 1], animated=True)
    fig2.set_layout_engine("none")
    for a, b in zip(fig2.axes, fig.axes):
        a.set_position(b.get_position(original=True))
    ax2.set_xlim(0, 5)
    figure_png(fig2)
    assert np.array_equal(live, _pixels(fig2)) and line.get_animated()


def test_steady_limits_are_round_and_cover_the_data():
    from kinematics_lib.notebook.plotting import steady_limits

    for values in ([0.1, 0.93], [-3.0, 11.3], [0.0021, 0.0035], [5.0, 5.0], [-7.0, -6.5]):
        lo, hi = steady_limits(values)
        assert lo <= min(values) and hi >= max(values) and hi > lo
    assert steady_limits([-2.1, 0.3], symmetric=True) == (-3.0, 3.0)
    assert steady_limits([0.1, 0.93]) == steady_limits([0.12, 0.95])  # small changes keep the axes


def _moves(call, limit: int = 3):
    """Slider settings that move each control in turn to an end of its range (or the next option)."""
    values = {}
    for name, spec in list(call.sliders.items())[:limit]:
        if isinstance(spec, bool):
            values[name] = not spec
        elif isinstance(spec, (list, tuple)) and spec and all(isinstance(s, str) for s in spec):
            values[name] = spec[-1]
        elif is_slider(spec) and isinstance(spec, tuple):
            lo, hi, step, value = spec
            values[name] = lo if value != lo else hi
        else:
            continue
        yield dict(values)


def _pixels(fig):
    import numpy as np

    return np.asarray(fig.canvas.buffer_rgba())[..., :3].astype(int)




@pytest.mark.parametrize("call", FREE, ids=lambda c: f"{c.id}@{c.cell}")
def test_reused_figure_matches_a_fresh_one(call):
    """The widget builds its figure once (``figure_once``) and redraws only the animated
    artists over the kept frame: after each slider move its picture equals that of a new figure
    of the view at the same values drawn in full (with the widget's frozen layout)."""
    import numpy as np
    from kinematics_lib.notebook.widgets import _snap, figure_png

    iv = interactive_view(call.view_fn, labels=call.labels, **call.sliders)
    first = iv.initial.figure
    for moved in _moves(call):
        values = {**iv.values, **moved}
        try:
            fresh = call.view_fn(**{k: _snap(v, call.sliders.get(k)) for k, v in values.items()})
        except ValueError:  # an end of a range the view refuses: the widget shows the error
            continue
        view = iv._render(values)
        assert view.figure is first, f"{call.id}: the widget built a new figure instead of reusing its own"
        reused = _pixels(view.figure)
        iv._reuse_layout(fresh.figure)
        figure_png(fresh.figure)
        full = _pixels(fresh.figure)
        assert reused.shape == full.shape, f"{call.id}: size differs after {moved}"
        bad = (np.abs(reused - full).sum(axis=-1) > 60).mean()
        assert bad < 0.01, f"{call.id}: {100 * bad:.2f} % of the pixels differ from a fresh figure after {moved}"
        assert view.text == fresh.text


def test_figure_once_builds_once_per_widget():
    """In a widget the build function runs once (again only for other build arguments); outside
    a widget at every call."""
    from kinematics_lib.notebook.widgets import FigureSlot, figure_once

    calls = []

    def build(n):
        calls.append(n)
        return object(), {"n": n}

    slot = FigureSlot()
    with slot.active():
        first = figure_once(build, 1)
    with slot.active():
        assert figure_once(build, 1) is first
    assert calls == [1]
    with slot.active():
        assert figure_once(build, 2) is not first
    assert calls == [1, 2]
    figure_once(build, 2)
    figure_once(build, 2)
    assert calls == [1, 2, 2, 2]


def test_readout_lines_never_wrap():
    """Issue 19: JupyterLab's output area sets ``word-break: break-all`` on every <pre>, so chapter
    10's readout broke inside a word ("r" / "ad"). The readout's own inline style keeps each line
    whole, and the readout keeps its width in the figure's row (it moves below when it does not fit)."""
    import re

    from kinematics_lib.notebook.views import demo_view

    pytest.importorskip("ipywidgets")
    iv = interactive_view(demo_view, amplitude=(0.0, 2.0, 0.1, 1.0))
    box = iv.widget()
    image, readout = box.children[1].children
    style = dict(part.split(":", 1) for part in
                 (p.strip().replace(" ", "") for p in re.search(r'style="([^"]*)"', readout.value).group(1).split(";")) if part)
    assert style["white-space"] == "pre" and style["word-break"] == "normal" and style["overflow-wrap"] == "normal"
    assert readout.layout.flex == "0 0 auto" and box.children[1].layout.flex_flow == "row wrap"
    assert iv._readout("x", error=True).count("white-space:pre") == 1  # errors too

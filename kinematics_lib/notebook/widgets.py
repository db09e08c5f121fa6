"""Slider-driven figures that still show a static figure without a widget frontend.

The chapters call one function, :func:`interactive_view`, with a *view function* from
``kinematics_lib.notebook.views`` and slider ranges. A view function takes keyword values and returns a
:class:`View` (a matplotlib figure plus the key numbers as text); it is an ordinary library
function, tested on its own.

What the notebook output contains (one display bundle):

* ``application/vnd.jupyter.widget-view+json`` -- sliders, the figure as an image widget and
  the numbers, updated live by the kernel when a slider moves (JupyterLab with a kernel);
* ``image/png`` -- the figure at the initial slider values: what GitHub, nbviewer, an exported
  HTML page or a freshly opened committed notebook show (the committed notebooks keep only this
  part, see tools/nbtools.py);
* ``text/plain`` -- the key numbers at the initial values, which nbval compares.

The look (issue 13): the figure is shown at its native pixel size (``DPI`` dots per inch of
the figure size, never stretched to the output width); every slider is labelled with a symbol
and a unit, ``"q₂ [rad]"`` -- declared once on the view function with :func:`slider_labels`
(a notebook's ``labels=`` overrides it) and checked by ``tests/test_sliders.py``; readouts show
the decimals of the slider step (0 reads 0.00, never 8.88e-16) and the view receives the value
rounded the same way.

Speed (issue 13: 60 ms per slider move for view + draw + PNG, ``benchmarks/bench_views.py``):

* **One figure per widget.** ``InteractiveView`` owns a :class:`FigureSlot`; while its view
  function runs, :func:`~kinematics_lib.notebook.plotting.new_figure` returns the figure of
  the previous call with its axes emptied (axes, Axis objects and ticks kept; artists, legends,
  titles and labels gone; autoscaling, margins and the colour cycle reset). A view written for
  a fresh figure works unchanged if it sets every axes property it needs at every call (never
  only under a condition); one that adds axes itself (``twinx``, a colour bar) gets fresh
  figures. For more speed a view can keep its artists in ``current_slot().state`` and update
  them (``set_data``, ``set_offsets``, ``set_text``) -- called on its own (tests, static cells)
  there is no slot and it builds a fresh figure. ``tests/test_sliders.py`` checks, for every
  slider view of every chapter, that the widget's figure after slider moves has the pixels of
  a fresh figure at the same values.
* **No layout engine on the hot path.** Constrained layout runs once, on the first figure;
  later figures keep (or, when fresh, copy) its axes positions. Leave room for the longest
  title or label a slider can produce (e.g. always two title lines), since the layout is frozen.
* **Frame cached, data redrawn** (:class:`_Blitter`): when the axes' positions, limits, scales,
  tick labels and axis labels (3-D: the projection) did not change, the cached pixels of that
  frame are restored and only the data artists, titles and legends are drawn. Fixed or
  :func:`~kinematics_lib.notebook.plotting.steady_limits` axis limits keep the frame steady
  (``current_slot() is not None`` tells a drawing helper that it runs in a widget, e.g.
  ``draw_arm`` rounds its 3-D cube only there). Legends (except ``loc="best"``) are drawn from
  pixels cached on their content; titles are placed without measuring the tick labels.
* **Cheap artists** in the helpers of ``plotting``: ``arrow`` (one patch, not an annotation),
  ``draw_frames`` (three lines for any number of frames), collections instead of one patch or
  line per item.
* **The PNG** is encoded from the Agg buffer at compress level 1 while live.
"""

from __future__ import annotations

import base64
import contextvars
import html
import io
import math
import os
import re
import struct
from dataclasses import dataclass
from typing import Callable

import numpy as np

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

__all__ = ["View", "interactive_view", "InteractiveView", "quick_mode", "Progress", "slider_labels",
           "effective_labels", "has_unit", "png_size", "DPI", "MAX_FIGURE_PX", "FigureSlot", "current_slot"]

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
#: Pixels per inch of every figure shown (static PNG and live widget): a 6 x 4 in figure is 540 x 360 px.
DPI = 90
#: Largest figure (width, height) in pixels: with its sliders and readout a widget fits a
#: 1400 x 900 browser window (JupyterLab's bars and the file browser take the rest).
MAX_FIGURE_PX = (900, 520)
_UNIT = re.compile(r"\[[^\[\]]+\]\s*$")
#: Shown in every slider view whose kernel went away (issue 19: after a restart the handle still
#: moved but the figure silently stayed). ipywidgets 8 adds the CSS class
#: ``jupyter-widgets-disconnected`` to every widget view when its kernel restarts; the rules
#: below show this note (above the sliders) only then: pure CSS, no frontend extension.
RESTART_NOTE = "the kernel restarted: run the cell again"
_RESTART_HTML = ("<style>.kl-restart:not(.jupyter-widgets-disconnected) {display: none !important}"
                 " .kl-restart {order: -1; font-weight: bold; color: #b00020}</style>"
                 f"<span>{RESTART_NOTE}</span>")


def quick_mode() -> bool:
    """True under the test suite (environment variable KL_QUICK=1): long loops run briefly."""
    return os.environ.get("KL_QUICK", "") == "1"


def figure_png(fig: Figure, dpi: int = DPI, compress_level: int = 6) -> bytes:
    """Render a matplotlib figure to PNG bytes: one Agg draw at ``dpi``, RGB, no metadata
    (deterministic). ``compress_level`` 1 for live updates (fast), 6 for stored outputs (small)."""
    _agg_canvas(fig, dpi).draw()
    return _encode(fig, compress_level)


def _agg_canvas(fig: Figure, dpi: int = DPI):
    if fig.canvas is None or not isinstance(fig.canvas, FigureCanvasAgg):
        FigureCanvasAgg(fig)
    if fig.dpi != dpi:
        fig.set_dpi(dpi)
    return fig.canvas


def _encode(fig: Figure, compress_level: int) -> bytes:
    """PNG of what the figure's Agg canvas holds now."""
    from PIL import Image

    rgba = fig.canvas.buffer_rgba()
    buf = io.BytesIO()
    Image.frombuffer("RGBA", (rgba.shape[1], rgba.shape[0]), rgba, "raw", "RGBA", 0, 1).convert("RGB").save(
        buf, format="png", compress_level=compress_level)
    return buf.getvalue()


def png_size(png: bytes) -> tuple[int, int]:
    """(width, height) in pixels read from a PNG's header."""
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("png must be PNG bytes (signature missing)")
    return struct.unpack(">II", png[16:24])


def slider_labels(**labels: str):
    """Decorator: the slider label of each keyword of a view function, symbol and unit,
    ``@slider_labels(q1="q₁ [rad]", m1="m₁ [kg]")``. ``interactive_view`` uses them unless the
    notebook passes its own ``labels=``; dimensionless values say so, ``"δ [-]"``."""
    for name, label in labels.items():
        if not isinstance(label, str) or not label.strip():
            raise ValueError(f"label of {name!r} must be a non-empty string, got {label!r}")

    def attach(fn):
        fn.slider_labels = {**getattr(fn, "slider_labels", {}), **labels}
        return fn
    return attach


def _unwrap(fn):
    while hasattr(fn, "func") and callable(getattr(fn, "func")):  # functools.partial
        fn = fn.func
    return fn


def effective_labels(view_fn: Callable, names, labels: dict | None = None) -> dict:
    """name -> the label its control shows: ``labels`` (the notebook's), else the view
    function's :func:`slider_labels`, else the bare name."""
    declared = getattr(_unwrap(view_fn), "slider_labels", {})
    labels = labels or {}
    return {name: labels.get(name, declared.get(name, name)) for name in names}


def has_unit(label: str) -> bool:
    """True when a label ends with a unit in brackets: ``"q₂ [rad]"``, ``"δ [-]"``."""
    return bool(_UNIT.search(label))


def is_slider(spec) -> bool:
    """A numeric slider spec ``(min, max, step, value)`` or a numeric ipywidget (needs a unit)."""
    if isinstance(spec, tuple) and len(spec) == 4 and not any(isinstance(v, (bool, str)) for v in spec):
        return True
    return type(spec).__name__ in ("FloatSlider", "IntSlider", "FloatLogSlider", "BoundedFloatText",
                                   "BoundedIntText", "FloatText", "IntText")


def step_decimals(step) -> int:
    """Decimals that show a multiple of ``step`` exactly: 0.05 -> 2, 0.1 -> 1, 1000 -> 0."""
    step = abs(float(step))
    for d in range(0, 10):
        if step > 0 and abs(round(step, d) - step) <= 1e-9 * step:
            return d
    return 10


def _snap(value, spec):
    """The slider value rounded to the decimals of its step (-0.0 -> 0.0)."""
    if isinstance(spec, tuple) and len(spec) == 4 and isinstance(value, float):
        return round(value, step_decimals(spec[2])) + 0.0
    return value


@dataclass
class View:
    """A figure and the numbers it shows. Displays as the PNG; ``text`` is its text/plain form."""

    figure: Figure
    text: str = ""

    def png(self) -> bytes:
        if not hasattr(self, "_png"):
            self._png = figure_png(self.figure)
        return self._png

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {"image/png": base64.b64encode(self.png()).decode("ascii"),
                "text/plain": self.text or "<figure>"}

    def __repr__(self) -> str:
        return self.text or "<figure>"


def _make_control(name: str, spec, label: str):
    import ipywidgets as w

    if isinstance(spec, w.ValueWidget):
        return spec
    style = {"description_width": "initial"}
    layout = w.Layout(width="400px")
    if isinstance(spec, bool):
        return w.Checkbox(value=spec, description=label, style=style)
    if isinstance(spec, (list, tuple)) and spec and all(isinstance(s, str) for s in spec):
        return w.Dropdown(options=list(spec), value=spec[0], description=label, style=style)
    if isinstance(spec, tuple) and len(spec) == 4:
        lo, hi, step, value = spec
        if all(isinstance(v, int) and not isinstance(v, bool) for v in spec):
            return w.IntSlider(min=lo, max=hi, step=step, value=value, description=label,
                               style=style, layout=layout)
        return w.FloatSlider(min=lo, max=hi, step=step, value=value, description=label,
                             style=style, layout=layout, readout_format=f".{step_decimals(step)}f")
    raise ValueError(
        f"slider {name!r} must be (min, max, step, value), a list of option strings, a bool or a "
        f"widget, got {spec!r}")


def _initial_value(spec):
    if hasattr(spec, "value"):
        return spec.value
    if isinstance(spec, bool):
        return spec
    if isinstance(spec, (list, tuple)) and spec and all(isinstance(s, str) for s in spec):
        return spec[0]
    if isinstance(spec, tuple) and len(spec) == 4:
        return spec[3]
    raise ValueError(f"cannot read an initial value from slider spec {spec!r}")


class FigureSlot:
    """The one figure of a widget: while a view function runs inside :meth:`active`,
    :func:`~kinematics_lib.notebook.plotting.new_figure` hands back the figure it built at the
    previous call (same grid, size and projection) with every axes *emptied* instead of building
    a new one -- the axes, their ticks and tick labels stay (building them is most of a new
    figure's cost), the data artists, legends and titles go, and what a fresh axes has by default
    comes back: data limits and autoscaling, margins, the colour cycle, empty titles and axis
    labels, 'auto' aspect. What a view sets on its axes it must therefore set at every call, not
    only under a condition (limits, scales, ticks, grid); a view that adds axes of its own
    (``twinx``, a colour bar) gets a fresh figure each time. ``tests/test_sliders.py`` checks
    for every slider view of every chapter that the reused figure's pixels equal a fresh one's.

    A view can keep more than the axes: :attr:`state` is a dict kept with the figure (cleared
    when the figure is rebuilt), for artists it updates with ``set_data`` instead of re-adding.
    """

    def __init__(self):
        self.key = None
        self.figure = None
        self.axes = None
        self.state: dict = {}
        self._naxes = 0
        self._pristine = None
        self._taken = False
        self._failed = False  # the view adds axes of its own: never reuse

    def active(self):
        """Context manager: ``new_figure`` inside it draws on this slot's figure."""
        import contextlib

        @contextlib.contextmanager
        def scope():
            token = _SLOT.set(self)
            self._taken = False
            try:
                yield self
            finally:
                _SLOT.reset(token)
        return scope()

    def take(self, key, build):
        """(fig, axes, reused): the slot's figure emptied if ``key`` matches, else ``build()``."""
        if self._taken or self._failed:  # a second figure in one call, or not reusable
            return (*build(), False)
        self._taken = True
        fig = self.figure
        if fig is not None and key == self.key:
            if len(fig.axes) != self._naxes:  # the view added axes (twinx, colorbar)
                self._failed = True
                self.figure = None
                return (*build(), False)
            for ax, pristine in zip(fig.axes, self._pristine):
                _empty_axes(ax, pristine)
            for t in list(fig.texts):
                t.remove()
            for leg in list(fig.legends):
                leg.remove()
            if getattr(fig, "_suptitle", None) is not None:
                fig._suptitle.remove()
                fig._suptitle = None
            return fig, self.axes, True
        fig, axes = build()
        self.key, self.figure, self.axes, self.state = key, fig, axes, {}
        self._naxes = len(fig.axes)
        self._pristine = [_pristine_texts(ax) for ax in fig.axes]
        return fig, axes, False


_SLOT: contextvars.ContextVar = contextvars.ContextVar("kl_figure_slot", default=None)


def current_slot() -> FigureSlot | None:
    """The :class:`FigureSlot` of the widget whose view function is running, else None."""
    return _SLOT.get()


def _pristine_texts(ax):
    from matplotlib.text import Text

    texts = [ax.title, ax._left_title, ax._right_title, ax.xaxis.label, ax.yaxis.label]
    if hasattr(ax, "zaxis"):
        texts.append(ax.zaxis.label)
    copies = []
    for t in texts:
        c = Text()
        c.update_from(t)
        copies.append(c)
    return copies


def _empty_axes(ax, pristine) -> None:
    """Bring a drawn axes back to what a fresh one shows, keeping its Axis objects (and ticks)."""
    import matplotlib as mpl
    from matplotlib.axes._base import _process_plot_var_args
    from matplotlib.transforms import Bbox

    for a in list(ax._children):
        a.remove()
    ax.containers = []
    if ax.legend_ is not None:
        ax.legend_.remove()
    ax._get_lines = _process_plot_var_args()
    ax._get_patches_for_fill = _process_plot_var_args("Polygon")
    texts = [ax.title, ax._left_title, ax._right_title, ax.xaxis.label, ax.yaxis.label]
    if hasattr(ax, "zaxis"):
        texts.append(ax.zaxis.label)
    for t, p in zip(texts, pristine):
        t.update_from(p)
        t.set_text("")
    ax.ignore_existing_data_limits = True
    if hasattr(ax, "zaxis"):  # Axes3D keeps its own data limits
        ax.xy_dataLim = Bbox.null()
        ax.zz_dataLim = Bbox.null()
        ax.set_autoscalez_on(True)
    else:
        ax.dataLim = Bbox.null()
        ax.set_aspect("auto")
    ax.set_autoscalex_on(True)
    ax.set_autoscaley_on(True)
    ax._xmargin = mpl.rcParams["axes.xmargin"]
    ax._ymargin = mpl.rcParams["axes.ymargin"]
    ax._request_autoscale_view()


def _ticker_labels(axis):
    """(major locations, their labels, offset text, minor locations) of an Axis, computed from
    its locator and formatter without creating Tick artists (what a draw would show)."""
    lo, hi = sorted(axis.get_view_interval())
    locs = [float(v) for v in axis.major.locator() if lo - 1e-9 * (hi - lo) <= v <= hi + 1e-9 * (hi - lo)]
    fmt = axis.major.formatter
    labels = tuple(fmt.format_ticks(locs))
    minor = tuple(float(v) for v in axis.get_minorticklocs())
    return tuple(locs), labels, fmt.get_offset(), minor


class _Blitter:
    """Draw a view's figure over the pixels of an earlier draw when only the data changed.

    The *frame* of a figure -- axes backgrounds, spines, ticks and tick labels, axis labels,
    grid, 3-D panes -- is usually the same from one slider move to the next, and drawing that
    text is most of a draw. The first figure of a frame is drawn once without its data artists
    (that image is the *background*); a later figure whose axes have the same positions,
    limits, scales, tick labels and axis labels (3-D: the same projection) is drawn by restoring
    the background and drawing only its data artists, titles and legends (``Axes.draw_artist``)
    in zorder (3-D: in the depth order ``Axes3D.draw`` gives them). Anything else -- polar axes,
    a changed frame, a different figure size -- gets a full draw and becomes a background. Grid
    lines and ticks then sit under the data, never over it. The frame's signature is computed
    from the locators and formatters (no Tick artists are created), so the restore path never
    pays for the ticks.
    """

    KEEP = 8  # backgrounds kept (frames met again when a slider goes back and forth)

    def __init__(self):
        self.backgrounds: dict = {}
        self.legends: dict = {}  # legend content -> its pixels (RGBA, with alpha) and place

    @staticmethod
    def _legend_key(leg, ax):
        """What a legend's pixels depend on, or None when its place depends on the data (loc='best')."""
        from matplotlib.colors import to_rgba_array

        if leg._loc == 0:
            return None

        def style(h):
            get = lambda name: getattr(h, name)() if hasattr(h, name) else None  # noqa: E731
            out = []
            for name in ("get_color", "get_facecolor", "get_edgecolor", "get_markerfacecolor", "get_markeredgecolor"):
                v = get(name)
                out.append(None if v is None or (isinstance(v, str) and v in ("none", "auto"))
                           else tuple(to_rgba_array(v).round(6).ravel()))
            for name in ("get_linestyle", "get_linewidth", "get_marker", "get_markersize", "get_alpha", "get_hatch"):
                v = get(name)
                out.append(tuple(np.ravel(v).tolist()) if isinstance(v, (list, np.ndarray)) else v)
            return (type(h).__name__, tuple(map(str, out)))

        return (tuple(ax.get_position().bounds), leg._loc, tuple(leg.get_bbox_to_anchor().bounds),
                tuple((t.get_text(), t.get_fontsize(), str(t.get_color())) for t in leg.texts),
                leg._ncols, tuple(style(h) for h in leg.legend_handles), leg.get_frame().get_alpha(),
                leg.get_frame_on(), leg.get_title().get_text())

    def _draw_legend(self, leg, ax, renderer) -> None:
        """Draw a legend from its cached pixels (a legend is text in boxes: slow to lay out and
        draw, and the same at every slider move); the first time, render it on a transparent
        canvas of the figure's size and keep its pixels."""
        from matplotlib.backends.backend_agg import RendererAgg

        key = self._legend_key(leg, ax)
        if key is None:
            ax.draw_artist(leg)
            return
        key = (renderer.width, renderer.height, renderer.dpi, key)
        if key not in self.legends:
            off = RendererAgg(renderer.width, renderer.height, renderer.dpi)
            off.clear()
            leg.draw(off)
            bb = leg.get_window_extent(off)
            x0, y0 = max(int(math.floor(bb.x0)) - 2, 0), max(int(math.floor(bb.y0)) - 2, 0)
            x1, y1 = min(int(math.ceil(bb.x1)) + 2, renderer.width), min(int(math.ceil(bb.y1)) + 2, renderer.height)
            pixels = np.asarray(off.buffer_rgba())[renderer.height - y1:renderer.height - y0, x0:x1][::-1].copy()
            if len(self.legends) >= 4 * self.KEEP:
                self.legends.pop(next(iter(self.legends)))
            self.legends[key] = (x0, y0, pixels)
        x0, y0, pixels = self.legends[key]
        gc = renderer.new_gc()
        renderer.draw_image(gc, x0, y0, pixels)
        gc.restore()

    @staticmethod
    def _frame(ax):
        return {ax.patch, *ax._axis_map.values(), *ax.spines.values()}

    @staticmethod
    def _dynamic(ax):
        frame = _Blitter._frame(ax)
        return sorted((a for a in ax.get_children() if a not in frame and a.get_visible()),
                      key=lambda a: a.get_zorder())

    @staticmethod
    def _figure_dynamic(fig):
        return [a for a in (*fig.texts, *fig.legends, getattr(fig, "_suptitle", None)) if a is not None and a.get_visible()]

    @staticmethod
    def signature_of(fig: Figure):
        sig = [tuple(fig.get_size_inches()), fig.dpi]
        for ax in fig.axes:
            name = getattr(ax, "name", "")
            if name not in ("rectilinear", "3d") or ax.get_axes_locator() is not None:
                return None
            ax.apply_aspect()
            entry = [name, ax.get_position().bounds, ax.get_xlim(), ax.get_ylim(), ax.get_xscale(),
                     ax.get_yscale(), ax.axison, ax.patch.get_visible()]
            if name == "3d":
                entry += [ax.get_zlim(), getattr(ax, "_axis3don", True), ax.zaxis.get_label_text(),
                          tuple(ax.get_proj().ravel().round(12))]
            for axis in ax._axis_map.values():
                entry += [axis.get_label_text(), axis.get_visible(), *_ticker_labels(axis)]
            sig.append(tuple(entry))
        return tuple(sig)

    @staticmethod
    def _place_titles(ax, renderer) -> None:
        """Put the titles where ``Axes.draw`` would (``_update_title_position``), without its
        tick-label bounding boxes in the common case: 2-D axes with the x ticks and label at
        the bottom, no y offset text, no twins or aligned titles -- then a title sits at y = 1
        unless its text would dip into the axes."""
        titles = (ax.title, ax._left_title, ax._right_title)
        if not any(t.get_text() for t in titles) or ax._autotitlepos is False:
            return
        fig = ax.get_figure(root=False)
        simple = (getattr(ax, "name", "") == "rectilinear" and not ax.child_axes
                  and ax.xaxis.get_ticks_position() not in ("top", "unknown")
                  and ax.xaxis.get_label_position() != "top"
                  and len(ax._twinned_axes.get_siblings(ax)) == 1
                  and len(fig._align_label_groups["title"].get_siblings(ax)) == 1
                  and not (ax.yaxis.offsetText.get_visible() and ax.yaxis.major.formatter.get_offset()))
        if not simple:
            ax._update_title_position(renderer)
            return
        top = ax.get_window_extent().ymax
        for t in titles:
            t.set_position((t.get_position()[0], 1.0))
            if t.get_text() and t.get_window_extent(renderer).ymin < top:
                ax._update_title_position(renderer)
                return

    def _draw_dynamic(self, ax, renderer) -> None:
        from matplotlib.legend import Legend

        artists = _Blitter._dynamic(ax)
        _Blitter._place_titles(ax, renderer)
        if getattr(ax, "name", "") == "3d":  # what Axes3D.draw does before drawing its children
            from matplotlib import collections as mcoll, patches as mpatches

            ax.M = ax.get_proj()
            ax.invM = np.linalg.inv(ax.M)
            cp = [a for a in artists if isinstance(a, (mcoll.Collection, mpatches.Patch))]
            if ax.computed_zorder:
                z = max(axis.get_zorder() for axis in ax._axis_map.values()) + 1
                zc = zp = z
                for a in sorted(cp, key=lambda a: a.do_3d_projection(), reverse=True):
                    if isinstance(a, mcoll.Collection):
                        a.zorder, zc = zc, zc + 1
                    else:
                        a.zorder, zp = zp, zp + 1
            else:
                for a in cp:
                    a.do_3d_projection()
            artists = sorted(artists, key=lambda a: a.get_zorder())
        for artist in artists:
            if isinstance(artist, Legend):
                self._draw_legend(artist, ax, renderer)
            else:
                ax.draw_artist(artist)

    def draw(self, fig: Figure) -> None:
        """Draw ``fig`` on its Agg canvas (``figure_png`` then encodes the buffer)."""
        engine = fig.get_layout_engine()
        if engine is not None and engine.__class__.__name__ != "PlaceHolderLayoutEngine":
            engine.execute(fig)  # lay out with every artist present, then freeze
            fig.set_layout_engine("none")
        sig = self.signature_of(fig)
        if sig is None:
            fig.canvas.draw()
            return
        canvas = fig.canvas
        if sig not in self.backgrounds:
            hidden = [a for ax in fig.axes for a in self._dynamic(ax)] + self._figure_dynamic(fig)
            for a in hidden:
                a.set_visible(False)
            canvas.draw()
            if len(self.backgrounds) >= self.KEEP:
                self.backgrounds.pop(next(iter(self.backgrounds)))
            self.backgrounds[sig] = canvas.copy_from_bbox(fig.bbox)
            for a in hidden:
                a.set_visible(True)
        else:
            canvas.restore_region(self.backgrounds[sig])
        renderer = canvas.get_renderer()
        for ax in fig.axes:
            self._draw_dynamic(ax, renderer)
        for artist in self._figure_dynamic(fig):
            artist.draw(renderer)


class InteractiveView:
    """Sliders + live figure (with a widget frontend) or a static figure (without one)."""

    def __init__(self, view_fn: Callable[..., View], sliders: dict, labels: dict | None = None,
                 continuous_update: bool = True):
        if not callable(view_fn):
            raise ValueError(f"view_fn must be callable, got {view_fn!r}")
        if not sliders:
            raise ValueError("interactive_view needs at least one slider")
        self.view_fn = view_fn
        self.sliders = dict(sliders)
        self.labels = effective_labels(view_fn, self.sliders, labels)
        self.continuous_update = continuous_update
        self.values = {k: _snap(_initial_value(v), v) for k, v in self.sliders.items()}
        self._layout = None  # axes positions of the first figure (constrained layout ran once)
        self._blitter = _Blitter()
        self.slot = FigureSlot()  # one figure per widget, emptied and redrawn at each move
        self.initial = self._render(self.values)  # errors at the initial values surface here

    def _render(self, values: dict, compress_level: int = 6) -> View:
        values = {k: _snap(v, self.sliders.get(k)) for k, v in values.items()}
        with self.slot.active():
            view = self.view_fn(**values)
        if not isinstance(view, View):
            raise ValueError(f"{getattr(self.view_fn, '__name__', 'view_fn')} must return a View, got {type(view).__name__}")
        self._reuse_layout(view.figure)
        if not hasattr(view, "_png"):  # the PNG is all the widget keeps
            _agg_canvas(view.figure)
            self._blitter.draw(view.figure)
            view._png = _encode(view.figure, compress_level)
        if self._layout is None:
            self._layout = self._positions(view.figure)
        return view

    @staticmethod
    def _positions(fig: Figure):
        return (tuple(fig.get_size_inches()), [type(ax) for ax in fig.axes],
                [ax.get_position(original=True).frozen() for ax in fig.axes])

    def _reuse_layout(self, fig: Figure) -> None:
        """Same figure size and axes as the first figure: take its positions, skip the layout engine."""
        if self._layout is None or fig.get_layout_engine() is None:
            return
        size, kinds, positions = self._layout
        if tuple(fig.get_size_inches()) != size or [type(ax) for ax in fig.axes] != kinds:
            return
        fig.set_layout_engine("none")
        for ax, pos in zip(fig.axes, positions):
            ax.set_position(pos)

    def widget(self):
        """Build the live widget tree: sliders (two columns when more than three) above the
        figure (an Image at its native pixel size) and the readout beside or below it, and a
        note shown above the sliders only once the kernel has restarted (``RESTART_NOTE``)."""
        import ipywidgets as w

        controls = {name: _make_control(name, spec, self.labels[name]) for name, spec in self.sliders.items()}
        for c in controls.values():
            if hasattr(c, "continuous_update"):
                c.continuous_update = self.continuous_update
        image = w.Image(value=self.initial.png(), format="png")
        image.add_class("kl-figure")
        self._size_image(image, self.initial.png())
        readout = w.HTML(value=self._readout(self.initial.text), layout=w.Layout(flex="0 0 auto"))
        readout.add_class("kl-readout")  # its own width, never squeezed: lines do not wrap

        def update(_change=None):
            values = {name: c.value for name, c in controls.items()}
            try:
                view = self._render(values, compress_level=1)
            except Exception as exc:  # show the problem next to the sliders, keep the old figure
                readout.value = self._readout(f"{type(exc).__name__}: {exc}", error=True)
                return
            png = view.png()
            self._size_image(image, png)
            image.value = png
            readout.value = self._readout(view.text)

        for c in controls.values():
            c.observe(update, names="value")
        columns = 2 if len(controls) > 3 else 1
        grid = w.GridBox(list(controls.values()), layout=w.Layout(
            grid_template_columns=f"repeat({columns}, 410px)", grid_gap="0px 12px", width="auto"))
        body = w.HBox([image, readout], layout=w.Layout(flex_flow="row wrap", align_items="flex-start",
                                                        grid_gap="0px 16px"))
        note = w.HTML(value=_RESTART_HTML)   # hidden while the kernel is alive (see RESTART_NOTE)
        note.add_class("kl-restart")
        box = w.VBox([grid, body, note])
        box.add_class("kl-interactive")
        return box

    @staticmethod
    def _size_image(image, png: bytes) -> None:
        width, height = png_size(png)
        image.layout.width, image.layout.height = f"{width}px", f"{height}px"
        image.layout.min_width = image.layout.max_width = f"{width}px"
        image.layout.flex = "0 0 auto"

    #: the readout's style: JupyterLab's output area sets ``white-space: pre-wrap; word-break:
    #: break-all`` on every ``<pre>``, which broke a readout line anywhere ("r" / "ad"); a line
    #: here never wraps (the readout moves under the figure when it does not fit beside it)
    READOUT_STYLE = ("margin:0; font-size:12px; line-height:1.35; white-space:pre; word-break:normal; "
                     "overflow-wrap:normal")

    @staticmethod
    def _readout(text: str, error: bool = False) -> str:
        color = "#b00020" if error else "inherit"
        return f'<pre style="color:{color}; {InteractiveView.READOUT_STYLE}">{html.escape(text)}</pre>'

    def _repr_mimebundle_(self, include=None, exclude=None):
        bundle = {"image/png": base64.b64encode(self.initial.png()).decode("ascii"),
                  "text/plain": self.initial.text or "<interactive figure>"}
        try:
            box = self.widget()
            bundle[WIDGET_MIME] = box._repr_mimebundle_()[WIDGET_MIME]
        except ImportError:  # no ipywidgets: the static figure is all there is
            pass
        return bundle


def interactive_view(view_fn: Callable[..., View], labels: dict | None = None,
                     continuous_update: bool = True, **sliders) -> InteractiveView:
    """Sliders for the keyword arguments of ``view_fn``; display the result in a notebook.

    Each slider is ``name=(min, max, step, initial)`` (ints give an IntSlider), a list of
    strings (a dropdown), a bool (a checkbox) or a ready ipywidget.

    >>> from kinematics_lib.notebook.views import demo_view
    >>> iv = interactive_view(demo_view, amplitude=(0.0, 2.0, 0.1, 1.0))
    >>> print(iv.initial.text)
    amplitude = 1.000, peak = 1.000
    """
    return InteractiveView(view_fn, sliders, labels=labels, continuous_update=continuous_update)


class Progress:
    """A progress bar for long loops; ``with Progress(n, 'simulating') as p: ... p.update()``.

    Shows an ipywidgets IntProgress in a notebook; its text form is fixed (no counts or
    timings), so nbval's comparison stays deterministic.
    """

    def __init__(self, total: int, label: str = "progress"):
        self.total = int(total)
        self.label = label
        self.count = 0
        self._bar = None

    def __enter__(self):
        try:
            import ipywidgets as w
            from IPython import get_ipython
            from IPython.display import display

            if get_ipython() is not None:
                self._bar = w.IntProgress(min=0, max=max(self.total, 1), description=self.label,
                                          style={"description_width": "initial"})
                display(self)
        except ImportError:
            self._bar = None
        return self

    def update(self, k: int = 1) -> None:
        self.count += k
        if self._bar is not None and (self.count % max(self.total // 100, 1) == 0 or self.count >= self.total):
            self._bar.value = min(self.count, self.total)

    def __exit__(self, *exc):
        if self._bar is not None:
            self._bar.value = self._bar.max
            self._bar.bar_style = "success"
        return False

    def _repr_mimebundle_(self, include=None, exclude=None):
        bundle = {"text/plain": f"[{self.label}: {self.total} steps]"}
        if self._bar is not None:
            bundle[WIDGET_MIME] = self._bar._repr_mimebundle_()[WIDGET_MIME]
        return bundle

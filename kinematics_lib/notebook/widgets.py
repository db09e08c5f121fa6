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

Speed (60 ms per slider move for view + draw + PNG, ``benchmarks/bench_views.py``), with
matplotlib's public API only (issue 21; ``tests/test_views_public_api.py``):

* **Build once, update data.** A slider view gets its figure and artists from
  :func:`figure_once`: the widget's :class:`FigureSlot` runs the view's build function at the
  first call only; the view then updates data (``set_data``, ``set_offsets``, ``set_text``, ...).
  Called outside a widget (tests, static cells) it builds every time. docs/authoring.md has the
  pattern with an example.
* **Blitting** (:class:`Blitter`): artists that change with the sliders are ``animated=True``;
  ``canvas.draw()`` draws the rest (the *frame*: axes, ticks, labels, fixed lines) which is kept
  with ``copy_from_bbox``; at each move ``restore_region`` puts it back and ``draw_artist`` draws
  the animated artists. A frame whose :func:`frame_signature` (size, positions, limits, ticks,
  labels, titles, 3-D view) changed is drawn again. The static PNG (:func:`figure_png`) is drawn
  by the same code, so the live and the stored figure agree pixel for pixel.
* **Layout once.** Constrained layout runs at the first draw, then the layout is frozen
  (``set_layout_engine("none")``): leave room for the longest title a slider can produce.
* **The PNG** is encoded from the Agg buffer at compress level 1 while live.
* **Why a PNG image widget, not ipympl** (``%matplotlib widget``): measured in JupyterLab in
  Chromium, key press to new figure (``benchmarks/bench_browser.py --ipympl``, three views, 60
  presses, December 2026): PNG image widget median 56 ms (p90 69 ms), ipympl 0.10 median 163 ms
  (p90 204 ms); and the PNG bundle is also the static figure nbval and the site show.
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
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

__all__ = ["View", "interactive_view", "InteractiveView", "quick_mode", "Progress", "slider_labels",
           "effective_labels", "has_unit", "png_size", "DPI", "MAX_FIGURE_PX", "FigureSlot", "current_slot", "figure_once", "animate",
           "Blitter", "frame_signature", "figure_png", "fmt"]

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
    _agg_canvas(fig, dpi)
    Blitter().draw(fig)
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


def fmt(x, digits: int = 3, sign: bool = False, width: int = 0, brackets: str = "()", fixed: bool = True,
        floor: float | None = None) -> str:
    """The one number formatter of view text: ``x`` with ``digits`` fixed decimals and never a
    negative zero (``fmt(-0.0004)`` is ``'0.000'``); ``sign`` always shows + or -, ``width`` pads
    on the left. A sequence gives ``'(a, b, c)'`` (``brackets='[]'`` for ``'[a, b, c]'``).
    ``fixed=False``: the shortest form of the rounded value (``fmt(0.5, fixed=False)`` is
    ``'0.5'``). ``floor``: a small positive quantity in scientific notation, ``'< 1e-12'`` below
    the floor (round-off, not a result).

    >>> fmt(-0.0004), fmt(2.5, 2, sign=True), fmt([1, -2], 1, brackets="[]"), fmt(3e-15, floor=1e-12)
    ('0.000', '+2.50', '[1.0, -2.0]', '< 1e-12')
    """
    if np.ndim(x) > 0:
        return brackets[0] + ", ".join(fmt(v, digits, sign, width, brackets, fixed, floor)
                                       for v in np.ravel(np.asarray(x, dtype=float))) + brackets[-1]
    x = float(x)
    if floor is not None:
        return f"{x:.1e}" if x >= floor else f"< {floor:.0e}"
    if not fixed:
        return str(round(x, digits) + 0.0)
    spec = f"{'+' if sign else ''}{width or ''}.{digits}f"
    text = f"{x:{spec}}"
    return f"{0.0:{spec}}" if text.strip(" +-0.") == "" and math.isfinite(x) else text


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
    """A figure and the numbers it shows. Displays as the PNG; ``text`` is its text/plain form.
    ``numbers``: the key numbers of the text as the view computed them (name -> float, array or
    dict), for tests and callers; the text is their formatted form."""

    figure: Figure
    text: str = ""
    numbers: dict = field(default_factory=dict)

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
    """The one figure of a widget and its artists, built at the widget's first call.

    A view function asks for its figure with :func:`figure_once`: inside a widget (while
    :meth:`active`), the first call runs ``build()`` and keeps the ``(fig, artists)`` it returns;
    later calls get the same pair back and only update the artists' data. Outside a widget
    (tests, a static cell) there is no slot and ``build()`` runs every time.
    """

    def __init__(self):
        self.key = None
        self.built = None

    def active(self):
        """Context manager: :func:`figure_once` inside it returns this slot's figure."""
        import contextlib

        @contextlib.contextmanager
        def scope():
            token = _SLOT.set(self)
            try:
                yield self
            finally:
                _SLOT.reset(token)
        return scope()

    def get(self, key, build):
        if self.built is None or not _same(key, self.key):
            built = build()
            self.key, self.built = key, built
        return self.built


def _same(a, b) -> bool:
    """a and b are the same build arguments: identical, or equal (element-wise for tuples;
    objects holding arrays, such as a robot description, by their repr)."""
    if a is b:
        return True
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    try:
        return bool(a == b)
    except (ValueError, TypeError):
        return type(a) is type(b) and repr(a) == repr(b)


_SLOT: contextvars.ContextVar = contextvars.ContextVar("kl_figure_slot", default=None)


def current_slot() -> FigureSlot | None:
    """The :class:`FigureSlot` of the widget whose view function is running, else None."""
    return _SLOT.get()


def figure_once(build: Callable, *args, **kwargs):
    """``build(*args, **kwargs)`` -> ``(fig, artists)``, run once per widget: a slider view calls this
    first, then updates the artists (``set_data``, ``set_offsets``, ``set_text``, ...). In a
    widget the pair of the first call comes back at every slider move (a new build when
    ``build`` or its arguments differ); outside a widget every call builds. Artists whose data change
    with the sliders are made ``animated=True`` (:func:`animate`): the widget draws the rest,
    the *frame*, once and blits them over it."""
    slot = current_slot()
    if slot is None:
        return build(*args, **kwargs)
    return slot.get((build, args, tuple(sorted(kwargs.items()))), lambda: build(*args, **kwargs))


def animate(*artists):
    """Mark artists as changing with the sliders (``set_animated(True)``); returns the first
    one (``title = animate(ax.set_title(" "))``). Anything not animated belongs to the frame."""
    for a in artists:
        a.set_animated(True)
    return artists[0] if artists else None


def _animated(fig: Figure) -> list:
    """The visible animated artists of ``fig`` (figure children and each axes' children), in zorder."""
    out = [a for a in fig.get_children() if a.get_animated() and a.get_visible()]
    for ax in fig.axes:
        out += [a for a in ax.get_children() if a.get_animated() and a.get_visible()]
    return sorted(out, key=lambda a: a.get_zorder())


def frame_signature(fig: Figure) -> tuple:
    """What the frame's pixels depend on, read through public getters: figure size and dpi; for
    each axes its position, limits, scales, ticks, axis labels, titles (3-D: z limits, view
    angles); and the figure's non-animated texts."""
    sig = [tuple(fig.get_size_inches()), fig.dpi,
           tuple(t.get_text() for t in fig.texts if not t.get_animated()), fig.get_suptitle()]
    for ax in fig.axes:
        entry = [ax.get_position().bounds, ax.get_xlim(), ax.get_ylim(), ax.get_xscale(), ax.get_yscale(),
                 ax.get_xlabel(), ax.get_ylabel(), tuple(ax.get_xticks()), tuple(ax.get_yticks()),
                 ax.axison, ax.get_visible()]
        entry += [ax.get_title(loc) for loc in ("left", "center", "right")
                  if not getattr(ax, "title").get_animated() or loc != "center"]
        if getattr(ax, "name", "") == "3d":
            entry += [ax.get_zlim(), ax.get_zlabel(), tuple(ax.get_zticks()), ax.elev, ax.azim, ax.roll]
        sig.append(tuple(entry))
    return tuple(sig)


class Blitter:
    """Draw a figure on its Agg canvas with matplotlib's documented blitting: the frame (every
    artist not animated) is drawn by ``canvas.draw()`` -- which skips animated artists -- and
    kept with ``copy_from_bbox``; the animated artists are drawn over it with ``draw_artist``.
    The next draw of the same figure restores the kept frame (``restore_region``) when its
    :func:`frame_signature` is unchanged, else draws the frame again. The first full draw runs
    the figure's layout engine, then the layout is frozen (``set_layout_engine("none")``), so
    the frame does not move when an animated title changes length."""

    def __init__(self):
        self.figure = None
        self.signature = None
        self.background = None

    def draw(self, fig: Figure) -> None:
        canvas = _agg_canvas(fig)
        animated = _animated(fig)
        sig = frame_signature(fig) if animated else None
        if animated and fig is self.figure and sig == self.signature and self.background is not None:
            canvas.restore_region(self.background)
        else:
            canvas.draw()
            if fig.get_layout_engine() is not None:
                fig.set_layout_engine("none")
            # after the draw: the layout and the axes' aspect have placed the axes
            self.figure, self.signature = fig, frame_signature(fig) if animated else None
            self.background = canvas.copy_from_bbox(fig.bbox) if animated else None
        for a in animated:
            if hasattr(a, "do_3d_projection"):
                a.do_3d_projection()
            fig.draw_artist(a)


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
        self._blitter = Blitter()
        self.slot = FigureSlot()  # the widget's figure and artists, built at the first call
        self.initial = self._render(self.values)  # errors at the initial values surface here

    def _render(self, values: dict, compress_level: int = 6) -> View:
        values = {k: _snap(v, self.sliders.get(k)) for k, v in values.items()}
        with self.slot.active():
            view = self.view_fn(**values)
        if not isinstance(view, View):
            raise ValueError(f"{getattr(self.view_fn, '__name__', 'view_fn')} must return a View, got {type(view).__name__}")
        self._reuse_layout(view.figure)
        if not hasattr(view, "_png"):  # the PNG is all the widget keeps
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

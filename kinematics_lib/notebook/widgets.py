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
"""

from __future__ import annotations

import base64
import html
import io
import os
from dataclasses import dataclass
from typing import Callable

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

__all__ = ["View", "interactive_view", "InteractiveView", "quick_mode", "Progress"]

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"


def quick_mode() -> bool:
    """True under the test suite (environment variable KL_QUICK=1): long loops run briefly."""
    return os.environ.get("KL_QUICK", "") == "1"


def figure_png(fig: Figure, dpi: int = 90) -> bytes:
    """Render a matplotlib figure to PNG bytes (Agg, deterministic: no timestamp metadata)."""
    if fig.canvas is None or not isinstance(fig.canvas, FigureCanvasAgg):
        FigureCanvasAgg(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, metadata={"Software": None})
    return buf.getvalue()


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
    layout = w.Layout(width="420px")
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
                             style=style, layout=layout, readout_format=".3g")
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
        self.labels = dict(labels or {})
        self.continuous_update = continuous_update
        self.values = {k: _initial_value(v) for k, v in self.sliders.items()}
        self.initial = self._render(self.values)  # errors at the initial values surface here

    def _render(self, values: dict) -> View:
        view = self.view_fn(**values)
        if not isinstance(view, View):
            raise ValueError(f"{getattr(self.view_fn, '__name__', 'view_fn')} must return a View, got {type(view).__name__}")
        view.png()  # render once; the PNG is all the widget keeps
        return view

    def widget(self):
        """Build the live widget tree: VBox(sliders, Image, HTML readout)."""
        import ipywidgets as w

        controls = {name: _make_control(name, spec, self.labels.get(name, name))
                    for name, spec in self.sliders.items()}
        for c in controls.values():
            if hasattr(c, "continuous_update"):
                c.continuous_update = self.continuous_update
        image = w.Image(value=self.initial.png(), format="png")
        image.add_class("kl-figure")
        readout = w.HTML(value=self._readout(self.initial.text))
        readout.add_class("kl-readout")

        def update(_change=None):
            values = {name: c.value for name, c in controls.items()}
            try:
                view = self._render(values)
            except Exception as exc:  # show the problem next to the sliders, keep the old figure
                readout.value = self._readout(f"{type(exc).__name__}: {exc}", error=True)
                return
            image.value = view.png()
            readout.value = self._readout(view.text)

        for c in controls.values():
            c.observe(update, names="value")
        box = w.VBox([w.VBox(list(controls.values())), image, readout])
        box.add_class("kl-interactive")
        return box

    @staticmethod
    def _readout(text: str, error: bool = False) -> str:
        color = "#b00020" if error else "inherit"
        return f'<pre style="color:{color}; margin:0">{html.escape(text)}</pre>'

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
                self._bar = w.IntProgress(min=0, max=max(self.total, 1), description=self.label)
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

"""Chapter views: functions of slider values that return a :class:`~kinematics_lib.notebook.widgets.View`.

Each chapter has its own module (``views.rigid``, ``views.jacobians``, ...). A view is the
callback behind a chapter's sliders and is tested on its own, without a notebook.
"""

from __future__ import annotations

import numpy as np

from ..plotting import new_figure
from ..widgets import View, animate, figure_once

__all__ = ["demo_view"]


def _demo_figure():
    fig, ax = new_figure(size=(4.0, 2.5))
    t = np.linspace(0.0, 2.0 * np.pi, 200)
    ax.set_ylim(-2.1, 2.1)
    line, = ax.plot(t, np.sin(t), animated=True)
    return fig, {"t": t, "line": line, "title": animate(ax.set_title(" "))}


def demo_view(amplitude: float = 1.0) -> View:
    """A sine wave of the given amplitude (the widget doctest, the smoke tests, and the
    example of the view pattern in docs/authoring.md)."""
    fig, art = figure_once(_demo_figure)
    y = amplitude * np.sin(art["t"])
    art["line"].set_ydata(y)
    art["title"].set_text(f"amplitude {amplitude:.2f}")
    peak = float(np.max(np.abs(y)))
    return View(fig, f"amplitude = {amplitude:.3f}, peak = {peak:.3f}")

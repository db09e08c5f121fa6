"""Chapter views: functions of slider values that return a :class:`~kinematics_lib.notebook.widgets.View`.

Each chapter has its own module (``views.rigid``, ``views.jacobians``, ...). A view is the
callback behind a chapter's sliders and is tested on its own, without a notebook.
"""

from __future__ import annotations

import numpy as np

from ..plotting import new_figure
from ..widgets import View

__all__ = ["demo_view"]


def demo_view(amplitude: float = 1.0) -> View:
    """A sine wave of the given amplitude (used by the widget doctest and the smoke tests)."""
    t = np.linspace(0.0, 2.0 * np.pi, 200)
    fig, ax = new_figure(size=(4.0, 2.5))
    ax.plot(t, amplitude * np.sin(t))
    ax.set_ylim(-2.1, 2.1)
    peak = float(np.max(np.abs(amplitude * np.sin(t))))
    ax.set_title(f"amplitude {amplitude:.2f}")
    return View(fig, f"amplitude = {amplitude:.3f}, peak = {peak:.3f}")

"""Chapter 4 views: they return a View, their text holds the numbers, sliders change the result."""

from __future__ import annotations

import numpy as np
import pytest

from kinematics_lib.notebook.views.lagrange import divergence_view, double_pendulum_view, energy_curves_view
from kinematics_lib.notebook.widgets import View, interactive_view


def test_double_pendulum_view_first_slider_changes_figure_and_text():
    iv = interactive_view(double_pendulum_view, theta1=(-180.0, 180.0, 5.0, 120.0))
    moved = double_pendulum_view(theta1=120.0 + 5 * 5.0)
    assert isinstance(iv.initial, View)
    assert moved.text != iv.initial.text
    assert moved.png() != iv.initial.png()
    assert "E0 = " in moved.text


def test_double_pendulum_view_energy_balance():
    """Undamped: E stays at E0; damped: E + dissipated work stays at E0 (both to RK4 accuracy)."""
    for damping in (0.0, 0.3):
        text = double_pendulum_view(theta1=90.0, theta2=0.0, damping=damping, t_final=4.0, dt=0.005).text
        numbers = dict(part.split(" = ") for part in text.replace("\n", ", ").split(", "))
        assert float(numbers["balance error"].split()[0]) < 2e-3
        if damping:
            assert float(numbers["dissipated"].split()[0]) > 1.0


def test_double_pendulum_view_rejects_bad_damping():
    with pytest.raises(ValueError, match="damping"):
        double_pendulum_view(damping=-0.1)


def test_energy_curves_and_divergence_views():
    t = np.linspace(0.0, 1.0, 11)
    v = energy_curves_view({"a": (t, 1.0 + 0.01 * t), "b": (t[:5], np.ones(5))})
    assert isinstance(v, View) and "max |E - E0| = 1.00e-02 J" in v.text
    assert energy_curves_view({"a": (t, 1.0 + t)}, log=False).png()
    v = divergence_view(t, 1e-9 * np.exp(30 * t), threshold=0.1)
    assert v.text == "separation exceeds 0.1 rad after 1 s"
    assert "not within" in divergence_view(t, 1e-9 * np.ones(11)).text

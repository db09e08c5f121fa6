"""Chapter 4 views: they return a View, their text holds the numbers, sliders change the result."""

from __future__ import annotations

import numpy as np
import pytest

from kinematics_lib.notebook.views.lagrange import divergence_view, double_pendulum_view, energy_curves_view
from kinematics_lib.notebook.widgets import View, interactive_view


def test_double_pendulum_view_first_slider_changes_figure_and_text():
    iv = interactive_view(double_pendulum_view, theta1=(-180.0, 180.0, 5.0, 120.0))
    moved = double_pendulum_view(theta1=120.0 + 5 * 5.0)
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


def test_lagrange_ode_two_dof_solves_the_equation_of_motion():
    """kl.lagrange_ode's 2-DOF branch (Cramer's rule, used by the slider) returns accelerations
    that satisfy M(q) qdd = tau - C qd - G - D qd, damped or not, with and without tau."""
    import kinematics_lib as kl

    num = kl.to_numeric(kl.double_pendulum_lagrangian("relative"), dict(m1=1.3, m2=0.7, l1=0.9, l2=1.2, g=9.81))
    rng = np.random.default_rng(5)
    for damping, tau in ((0.0, None), (0.4, np.array([0.3, -1.1]))):
        f = kl.lagrange_ode(num, tau=tau, damping=damping)
        for x in rng.uniform(-3.0, 3.0, (20, 4)):
            q, qd = x[:2], x[2:]
            dx = f(0.0, x)
            rhs = (np.zeros(2) if tau is None else tau) - num.bias(q, qd) - damping * qd
            assert np.array_equal(dx[:2], qd)
            assert np.allclose(num.M(q) @ dx[2:], rhs, rtol=1e-12, atol=1e-12)


def test_lossless_energy_panel_is_on_the_pendulum_energy_scale():
    """Issue 19: RK4's 1e-4 J error filled the axes as spikes; the axis now spans at least
    +-5 % of the potential-energy range, so a lossless run is a flat line at 0."""
    view = double_pendulum_view(theta1=120.0, theta2=-20.0, damping=0.0, t_final=4.0)
    ax_e = view.figure.axes[1]
    lo, hi = ax_e.get_ylim()
    scale = 9.81 * (2 * 1.0 + 1.0)
    assert lo <= -0.05 * scale and hi >= 0.05 * scale
    assert "lossless" in ax_e.get_title()

"""Views of chapter 4 (Lagrange method, double pendulum): simulations and energy curves.

Each function returns a :class:`~kinematics_lib.notebook.widgets.View` whose text holds the key numbers.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Mapping

import numpy as np

from ...dynamics.integrators import integrate_rk4
from ...dynamics.lagrange import (double_pendulum_lagrangian, double_pendulum_positions, lagrange_ode,
                        mechanical_energy, to_numeric)
from ..plotting import draw_chain, new_figure, steady_limits, update_chain
from ..widgets import View, figure_once, slider_labels

__all__ = ["double_pendulum_view", "energy_curves_view", "divergence_view"]


def _dissipated(t: np.ndarray, v: np.ndarray, damping: float) -> np.ndarray:
    """W_D(t) = integral_0^t v^T D v dt (trapezoid), D = damping I, in J."""
    power = damping * np.sum(v * v, axis=1)
    return np.concatenate([[0.0], np.cumsum(0.5 * (power[1:] + power[:-1]) * np.diff(t))])


@lru_cache(maxsize=32)
def _simulate(theta1, theta2, m1, m2, l1, l2, damping, t_final, dt):
    """(t, X, E, W_D, positions) of one release, read-only; kept for the last 32 slider settings
    (a slider dragged back to where it was answers without simulating again)."""
    num = to_numeric(double_pendulum_lagrangian("relative"), dict(m1=m1, m2=m2, l1=l1, l2=l2, g=9.81))
    x0 = np.array([np.radians(theta1), np.radians(theta2), 0.0, 0.0])
    t, X = integrate_rk4(lagrange_ode(num, damping=damping), x0, t_final, dt)
    E = mechanical_energy(num, X[:, :2], X[:, 2:])
    W = _dissipated(t, X[:, 2:], damping)
    P = double_pendulum_positions(X[:, :2], l1, l2, angles="relative")
    for a in (t, X, E, W, P):
        a.setflags(write=False)
    return t, X, E, W, P


def _pendulum_figure(damped: bool):
    """Left: tip path, the pendulum at the start (grey) and at the end; right: the energy curves
    (three with damping, else one). Built again only when damping is switched on or off."""
    fig, (ax, ax_e) = new_figure(1, 2, size=(9.0, 4.0))
    art = {"axes": (ax, ax_e),
           "path": ax.plot([], [], color="tab:blue", lw=0.8, alpha=0.7, label="tip path", animated=True)[0],
           "start": draw_chain(ax, np.zeros((3, 2)), color="0.7", lw=3.0, animated=True),
           "end": draw_chain(ax, np.zeros((3, 2)), color="0.2", lw=3.0, animated=True),
           "title": ax.set_title(" ")}
    art["title"].set_animated(True)
    ax.set(aspect="equal", xlabel="x [m]", ylabel="y [m]")
    ax.grid(True, alpha=0.3)
    styles = [dict(color="tab:red", label="E(t) − E0")]
    if damped:
        styles += [dict(ls="--", color="tab:green", label="− dissipated work"),
                   dict(color="k", lw=1.0, label="E + W_D − E0")]
    art["energy"] = [ax_e.plot([], [], animated=True, **style)[0] for style in styles]
    ax_e.set(xlabel="t [s]", ylabel="energy [J]",
             title="energy: E + W_D stays E0" if damped else "energy (lossless: E − E0 stays 0)")
    ax_e.legend(fontsize=8, loc="lower left")
    ax_e.grid(True, alpha=0.3)
    return fig, art


@slider_labels(theta1="θ₁(0) [deg]", theta2="θ₂(0) relative [deg]", m1="m₁ [kg]", m2="m₂ [kg]",
               l1="l₁ [m]", l2="l₂ [m]", damping="damping b [N·m·s/rad]", t_final="t_final [s]",
               dt="Δt [s]")
def double_pendulum_view(theta1: float = 120.0, theta2: float = -20.0, m1: float = 1.0, m2: float = 1.0,
                         l1: float = 1.0, l2: float = 1.0, damping: float = 0.0,
                         t_final: float = 10.0, dt: float = 0.01) -> View:
    """Double pendulum released at rest from joint angles theta1, theta2 (deg; theta2 relative to
    rod 1), joint viscous damping ``damping`` (N·m·s/rad), simulated by RK4.

    Left: the path of the tip and the pendulum at the start (grey) and at t_final. Right: the
    energy E(t) - E0 and, with damping, the dissipated work: E(t) + W_D(t) stays at E0.
    """
    t, X, E, W, P = _simulate(*(float(v) for v in (theta1, theta2, m1, m2, l1, l2, damping, t_final, dt)))
    fig, art = figure_once(_pendulum_figure, damping > 0.0)
    art["path"].set_data(P[:, 2, 0], P[:, 2, 1])
    update_chain(art["start"], P[0])
    update_chain(art["end"], P[-1])
    reach = 0.5 * math.ceil(1.1 * (l1 + l2) / 0.5)  # 0.5 m steps: a steady frame
    ax, ax_e = art["axes"]
    ax.set(xlim=(-reach, reach), ylim=(-reach, reach))
    art["title"].set_text(f"released at ({theta1:.0f}°, {theta2:.0f}°)")
    for line, y in zip(art["energy"], (E - E[0], -W, E + W - E[0])):
        line.set_data(t, y)
    shown = [E - E[0]] + ([-W, E + W - E[0]] if damping > 0.0 else [])
    # The energy axis on the pendulum's own energy scale (its potential energy range, set by the
    # masses and lengths only): RK4's error (~1e-4 J) is a flat line at 0, as a lossless run
    # should look, instead of spikes magnified to fill the axes; the readout gives its size.
    # The limits change only with m, l or damping, so the frame stays cached while θ moves.
    scale = 9.81 * ((m1 + m2) * l1 + m2 * l2)
    ax_e.set(xlim=(0.0, t[-1]), ylim=steady_limits(np.concatenate([*shown, [-0.05 * scale, 0.05 * scale]])))
    balance = np.abs(E + W - E[0])  # what the energy panel shows (RK4's error, ~1e-4 J)
    text = (f"theta1_0 = {theta1:.1f} deg, theta2_0 = {theta2:.1f} deg, damping = {damping:.2f} N·m·s/rad\n"
            f"E0 = {E[0]:.3f} J, E({t[-1]:.0f} s) = {E[-1]:.3f} J, dissipated = {W[-1]:.3f} J, "
            f"balance error = {balance[-1]:.1e} J (max {balance.max():.1e} J)")
    return View(fig, text)


def energy_curves_view(curves: Mapping[str, tuple], title: str = "energy error", log: bool = True) -> View:
    """Plot, for each labelled history ``label: (t, E)``, the largest |E - E(0)| so far (log
    scale: an envelope without the spikes of |E - E0| dipping through zero at every sign change)
    or E(t) - E(0). Earlier curves are drawn wider, so a curve lying on another stays visible."""
    fig, ax = new_figure(size=(7.5, 3.8))
    lines = []
    width = max(len(label) for label in curves)
    n = len(curves)
    for k, (label, (t, E)) in enumerate(curves.items()):
        t, dE = np.asarray(t, dtype=float), np.asarray(E, dtype=float) - float(E[0])
        style = dict(lw=1.2 + 2.4 * (n - 1 - k) / max(n - 1, 1), alpha=0.85, ls=("-", "--", "-.", ":")[k % 4],
                     label=label)
        if log:
            ax.semilogy(t[1:], np.maximum(np.maximum.accumulate(np.abs(dE[1:])), 1e-16), **style)
        else:
            ax.plot(t, dE, **style)
        lines.append(f"{label:<{width}s}  max |E - E0| = {np.abs(dE).max():.2e} J, final E - E0 = {dE[-1]:+.2e} J")
    ax.set(xlabel="t [s]", ylabel="max |E − E0| so far [J]" if log else "E − E0 [J]", title=title)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    return View(fig, "\n".join(lines))


def divergence_view(t, separation, threshold: float = 0.1) -> View:
    """Separation (rad) of two nearby trajectories on a log scale, with the threshold marked."""
    t, s = np.asarray(t, dtype=float), np.asarray(separation, dtype=float)
    fig, ax = new_figure(size=(7.0, 3.5))
    ax.semilogy(t, np.maximum(s, 1e-16), color="tab:purple")
    ax.axhline(threshold, color="k", ls=":", lw=1.0)
    above = np.nonzero(s > threshold)[0]
    ax.set(xlabel="t [s]", ylabel="max |Δθ| [rad]", title="two nearby releases")
    ax.grid(True, alpha=0.3)
    when = f"{t[above[0]]:.0f} s" if above.size else f"not within {t[-1]:.0f} s"
    return View(fig, f"separation exceeds {threshold} rad after {when}")

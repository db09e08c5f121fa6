"""Chapter 6 view: a pushed linear inverted pendulum (LIPM, 线性倒立摆) and its capture point (捕获点).

The CoM starts above the stance foot (x = 0) at height z with the push velocity; the figure shows
x(t) when the foot stays where it is (the CoM runs away), when one step puts the foot at the
capture point xi = x + x_dot / omega (the CoM comes to rest above it), and when the step lands
5 cm short or long (the CoM runs away again, forwards or backwards).
"""

from __future__ import annotations

import numpy as np

from ...dynamics.balance import capture_point, lipm_trajectory
from ..plotting import new_figure
from ..widgets import View, animate, figure_once, slider_labels

__all__ = ["FOOT_HALF_LENGTH", "G0", "capture_point_view"]

FOOT_HALF_LENGTH = 0.1  # m: the stance foot reaches from -0.1 m to +0.1 m along x
G0 = 9.81               # m/s^2: the magnitude of gravity
MISS = 0.05             # m: the "short" and "long" steps miss the capture point by this much
T = np.linspace(0.0, 2.0, 81)


def _plus0(x: float, decimals: int = 3) -> float:
    return float(np.round(x, decimals)) + 0.0


CASES = (("foot stays at 0", "tab:red", "-"), ("step to ξ", "tab:green", "-"),
         ("step 5 cm short", "tab:orange", "--"), ("step 5 cm long", "tab:blue", "--"))


def _figure():
    """The frame (foot, axes, legend) once; the four x(t) curves, the ξ line and the title change."""
    fig, ax = new_figure(size=(7.5, 3.8))
    ax.axhspan(-FOOT_HALF_LENGTH, FOOT_HALF_LENGTH, color="0.85", label="stance foot (±0.1 m)")
    xi_line = ax.axhline(0.0, color="tab:green", lw=1, ls=":", animated=True)
    curves = [ax.plot([], [], color=color, ls=ls, lw=1.8, label=label, animated=True)[0]
              for label, color, ls in CASES]
    ax.set(xlim=(0.0, 2.0), ylim=(-0.6, 0.6), xlabel="t [s]", ylabel="CoM x [m]")
    ax.grid(True, alpha=0.3)
    ax.legend(loc="lower left", fontsize=8, ncol=2)
    return fig, {"xi": xi_line, "curves": curves, "title": animate(ax.set_title(" ", fontsize=9))}


@slider_labels(push="push ẋ₀ [m/s]", height="CoM height z [m]")
def capture_point_view(push: float = 0.4, height: float = 0.9) -> View:
    """x(t) of the LIPM pushed to ``push`` m/s at CoM height ``height`` m, for four foot placements."""
    com, vel = np.zeros(2), np.array([push, 0.0])
    xi = float(capture_point(com, vel, height, G0)[0])
    omega = float(np.sqrt(G0 / height))
    fig, art = figure_once(_figure)
    art["xi"].set_ydata([xi, xi])
    finals = {}
    for (label, _, _), foot, line in zip(CASES, (0.0, xi, xi - MISS, xi + MISS), art["curves"]):
        x, _ = lipm_trajectory(com, vel, [foot, 0.0], height, T, G0)
        finals[label] = float(x[-1, 0])
        line.set_data(T, np.clip(x[:, 0], -1.0, 1.0))
    need = "no step needed (ξ inside the foot)" if abs(xi) <= FOOT_HALF_LENGTH else f"step to x = {_plus0(xi):+.3f} m"
    art["title"].set_text(f"ω = {omega:.3f} 1/s, capture point ξ = {_plus0(xi):+.3f} m: {need}")
    text = (f"omega = {omega:.4f} 1/s, capture point xi = {_plus0(xi, 4):+.4f} m ({need}); CoM x at t = 2 s: "
            + ", ".join(f"{label} {_plus0(x, 3):+.3f} m" for label, x in finals.items()))
    return View(fig, text, {"omega": omega, "xi": xi, "final_x": finals})

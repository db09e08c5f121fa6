"""Chapter 4 view: a stiff spring (a contact) stepped by explicit, semi-implicit and implicit Euler.

The figure and its artists are built once; a slider move only changes their data.
"""

from __future__ import annotations


import numpy as np
from matplotlib.figure import Figure

from ...dynamics.integrators import (OSCILLATOR_METHODS, oscillator_stability_limit, oscillator_step_matrix,
                                     simulate_oscillator)
from ..widgets import DPI, View, figure_once

__all__ = ["stiff_spring_view", "stiff_spring_case", "MASS", "X0", "T_FINAL"]

#: the mass [kg] on the contact spring, its initial penetration [m] and the simulated time [s]
MASS, X0, T_FINAL = 1.0, 0.01, 0.2
COLORS = {"explicit": "tab:red", "semi-implicit": "tab:blue", "implicit": "tab:green"}
LABELS = {"explicit": "explicit Euler", "semi-implicit": "semi-implicit (symplectic) Euler",
          "implicit": "implicit Euler"}
DT_GRID = np.geomspace(1e-5, 1e-1, 121)          # s, the step sizes of the stability panel


def stiff_spring_case(dt_ms: float, log10_k: float, zeta: float) -> dict:
    """The numbers of the view: omega [rad/s], dt [s], per method the stability limit dt_max [s],
    the spectral radius of one step, and the run (t, X) from x0 = X0, v0 = 0 over T_FINAL."""
    dt, omega = dt_ms * 1e-3, float(np.sqrt(10.0 ** log10_k / MASS))
    out = {"omega": omega, "dt": dt}
    for m in OSCILLATOR_METHODS:
        G = oscillator_step_matrix(omega, zeta, dt, m)
        out[m] = dict(dt_max=oscillator_stability_limit(omega, zeta, m),
                      rho=float(np.abs(np.linalg.eigvals(G)).max()),
                      run=simulate_oscillator(omega, zeta, X0, 0.0, dt, T_FINAL, m, blowup=1e3))
    return out


def _radius_curve(omega: float, zeta: float, method: str) -> np.ndarray:
    G = np.array([oscillator_step_matrix(omega, zeta, dt, method) for dt in DT_GRID])
    return np.abs(np.linalg.eigvals(G)).max(axis=1)


def _figure() -> tuple:
    """The figure, built once per widget (``figure_once``): displacement over time and spectral
    radius over the step."""
    fig = Figure(figsize=(9.0, 3.6), dpi=DPI)
    ax, bx = fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)
    fig.subplots_adjust(left=0.08, right=0.965, bottom=0.15, top=0.9, wspace=0.28)
    art = {}
    for m in OSCILLATOR_METHODS:
        art["x", m], = ax.plot([], [], "-", color=COLORS[m], lw=1.4, label=LABELS[m])
        art["rho", m], = bx.plot([], [], "-", color=COLORS[m], lw=1.4, label=LABELS[m])
        art["limit", m] = bx.axvline(1.0, color=COLORS[m], ls=":", lw=1.0)
    art["exact"], = ax.plot([], [], "k--", lw=0.8, label="exact")
    art["now"] = bx.axvline(1e-3, color="k", lw=1.0)
    bx.axhline(1.0, color="0.5", lw=0.8)
    ax.set(xlim=(0.0, T_FINAL), ylim=(-2.0 * X0 * 1e3, 2.0 * X0 * 1e3), xlabel="t [s]", ylabel="x [mm]")
    ax.set_autoscale_on(False)
    bx.set_xscale("log")
    bx.set(xlim=(DT_GRID[0], DT_GRID[-1]), ylim=(0.0, 2.0), xlabel="step dt [s]",
           ylabel="growth per step max|eig G| [-]")
    bx.set_autoscale_on(False)
    ax.legend(fontsize=8, loc="upper right")
    bx.set_title("stable below 1 (dotted: dt_max; solid: this dt)", fontsize=9)
    for artist in art.values():
        artist.set_animated(True)
    return fig, ax, bx, art


def stiff_spring_view(dt_ms: float = 2.0, log10_k: float = 4.0, zeta: float = 0.05) -> View:
    """A 1 kg mass pressed 10 mm into a contact spring k = 10^log10_k N/m with damping ratio
    ``zeta``, released at rest, stepped with dt = dt_ms ms by the three Euler methods; the right
    panel is the growth factor per step against dt (stable below 1)."""
    case = stiff_spring_case(dt_ms, log10_k, zeta)
    omega, dt = case["omega"], case["dt"]
    fig, ax, bx, art = figure_once(_figure)
    t = np.linspace(0.0, T_FINAL, 801)
    wd = omega * np.sqrt(max(1.0 - zeta * zeta, 0.0))
    if zeta < 1.0:
        exact = np.exp(-zeta * omega * t) * (np.cos(wd * t) + zeta * omega / wd * np.sin(wd * t))
    else:  # at and beyond critical damping: only the decaying envelope matters at this scale
        exact = np.exp(-zeta * omega * t) * (1.0 + zeta * omega * t)
    art["exact"].set_data(t, 1e3 * X0 * exact)
    lines = [f"k = {10.0 ** log10_k:.3g} N/m, m = {MASS:g} kg: ω = √(k/m) = {omega:.1f} rad/s, ζ = {zeta:.2f}, "
             f"dt = {dt_ms:g} ms, ω dt = {omega * dt:.3f}"]
    for m in OSCILLATOR_METHODS:
        c = case[m]
        tm, X = c["run"]
        art["x", m].set_data(tm, 1e3 * np.clip(X[:, 0], -1.0, 1.0))
        art["rho", m].set_data(DT_GRID, np.minimum(_radius_curve(omega, zeta, m), 10.0))
        limit = c["dt_max"]
        art["limit", m].set_xdata([limit, limit] if np.isfinite(limit) and limit > 0 else [np.nan, np.nan])
        verdict = "stable" if c["rho"] <= 1.0 + 1e-12 else "UNSTABLE"
        blown = f", blew up (|x| > 10 m) at t = {tm[-1]:.3f} s" if tm.size < np.floor(T_FINAL / dt + 1e-9) + 1 else ""
        dt_max = "every dt" if not np.isfinite(limit) else ("none (ζ = 0)" if limit == 0 else f"{1e3 * limit:.3f} ms")
        lines.append(f"{LABELS[m]:32s}: dt_max = {dt_max}, growth per step = {c['rho']:.4f} → {verdict}{blown}")
    art["now"].set_xdata([dt, dt])
    return View(fig, "\n".join(lines))

"""Chapter 8 push slider (issue 24 item 1): ANYmal stands, is pushed at the base, and the whole-body
QP (:func:`~kinematics_lib.legged.whole_body.simulate_push`) balances it through chapter 7's time
stepping. One slider setting = one short simulation, run once and cached (:func:`push_run`, an LRU
cache keyed on the rounded setting); a slider move to a setting already seen only redraws.
"""

from __future__ import annotations

import functools

import matplotlib
import numpy as np
from matplotlib.figure import Figure

from ...dynamics.urdf import anymal_b_urdf
from ...legged.stance import ANYMAL_FEET
from ...legged.whole_body import largest_push, simulate_push, urdf_effort_limits
from ..widgets import View, figure_once, slider_labels
from .anymal import anymal, nominal_stance

__all__ = ["PUSH_DURATION", "PUSH_SETTINGS", "push_run", "push_limit", "push_view"]

PUSH_START, PUSH_DURATION, RUN_DURATION, RUN_DT = 0.05, 0.1, 0.3, 5e-3  # s
MU = 0.7
PUSH_SETTINGS = dict(force=(0.0, 600.0, 25.0, 100.0), direction=(0.0, 345.0, 15.0, 90.0))  # the chapter's sliders
LEG_COLORS = {"LF": "tab:blue", "LH": "tab:orange", "RF": "tab:green", "RH": "tab:red"}
SATURATED = 1e-6  # N m: a torque this close to its limit counts as saturated
RESIDUAL_BOUND = 1e-9  # the text says whether the residuals stay below it (their values vary with the machine)


@functools.lru_cache(maxsize=None)
def _tau_max() -> np.ndarray:
    return urdf_effort_limits(anymal(), anymal_b_urdf())


def _direction(direction: float) -> np.ndarray:
    a = np.radians(direction)
    return np.array([np.cos(a), np.sin(a), 0.0])


def _key(force: float, direction: float) -> tuple[float, float]:
    force, direction = float(force), float(direction)
    if not (np.isfinite(force) and np.isfinite(direction)) or not 0.0 <= force <= 2000.0:
        raise ValueError(f"force must be in [0, 2000] N and direction finite, got force = {force}, direction = {direction}")
    return round(force, 1), round(direction % 360.0, 1)


def push_run(force: float, direction: float):
    """The :class:`~kinematics_lib.legged.whole_body.PushRun` of a horizontal push of ``force`` [N]
    towards ``direction`` [°, 0 = forward +x, 90 = left +y] on the base for PUSH_DURATION s, from
    t = 0.05 s, a 0.3 s run at dt = 5 ms, mu = 0.7, the URDF's effort limits; cached per setting
    rounded to 0.1 N and 0.1° (the same object for the same setting)."""
    return _push_run(*_key(force, direction))


@functools.lru_cache(maxsize=1024)
def _push_run(force: float, direction: float):
    q, _ = nominal_stance()
    return simulate_push(anymal(), q, ANYMAL_FEET, force * _direction(direction), push_start=PUSH_START,
                         push_duration=PUSH_DURATION, duration=RUN_DURATION, dt=RUN_DT, mu=MU, tau_max=_tau_max())


@functools.lru_cache(maxsize=1024)
def _push_limit(direction: float) -> float:
    q, _ = nominal_stance()
    return largest_push(anymal(), q, ANYMAL_FEET, _direction(direction), mu=MU, tau_max=_tau_max(), upper=2000.0,
                        tol=1.0)


def push_limit(direction: float) -> float:
    """The largest push [N] towards ``direction`` [°] that the strict QP cancels standing still
    (:func:`~kinematics_lib.legged.whole_body.largest_push`, 1 N resolution), cached."""
    return _push_limit(_key(0.0, direction)[1])


def _figure() -> tuple:
    """The figure and its artists, built once per widget (``figure_once``): a slider move only
    updates their data."""
    fig = Figure(figsize=(8.0, 5.2))
    axes = fig.subplots(2, 2, sharex=True)
    fig.subplots_adjust(left=0.09, right=0.98, bottom=0.09, top=0.9, hspace=0.25, wspace=0.28)
    (af, ar), (at, ac) = axes
    art = {"fn": {}, "ratio": {}, "tau": {}}
    for leg, color in LEG_COLORS.items():
        style = dict(color=color, label=leg, ls="--" if leg[1] == "H" else "-")  # hind legs dashed: a
        art["fn"][leg], = af.plot([], [], **style)  # symmetric push puts LF on LH and RF on RH
        art["ratio"][leg], = ar.plot([], [], **style)
        art["tau"][leg], = at.plot([], [], **style)
    art["infeasible"], = af.plot([], [], "x", color="k", ms=5, label="QP infeasible")
    art["com_x"], = ac.plot([], [], color="tab:purple", label="x")
    art["com_y"], = ac.plot([], [], color="tab:brown", label="y")
    art["push_band"] = [ax.axvspan(PUSH_START, PUSH_START + PUSH_DURATION, color="0.9", zorder=0) for ax in axes.flat]
    ar.axhline(1.0, color="k", ls="--", lw=1)
    art["tau_limit"] = at.axhline(float(_tau_max().max()), color="k", ls="--", lw=1)
    af.set(ylabel="normal force f_n [N]", ylim=(-5.0, 400.0), title="QP ground forces (x: strict QP infeasible)")
    ar.set(ylabel="‖f_t‖ / (μ f_n) [-]", ylim=(0.0, 1.1), title="friction use (1 = on the cone)")
    at.set(ylabel="max |τ| of the leg [N·m]", ylim=(0.0, 90.0), xlabel="t [s]", title="joint torques (limit dashed)")
    ac.set(ylabel="CoM displacement [mm]", xlabel="t [s]", title="centre of mass (push shaded)")
    for ax in axes.flat:
        ax.title.set_fontsize(9)
    for ax in axes.flat:
        ax.set_xlim(0.0, RUN_DURATION)
        ax.grid(True, alpha=0.3)
    af.legend(fontsize=8, loc="upper right", ncol=3)
    ac.legend(fontsize=8, loc="upper left")
    # the suptitle's place and style, as an animated figure text: it changes with every setting,
    # and a figure text that is animated stays out of the blitted frame (a suptitle would not)
    art["title"] = fig.text(0.5, 0.98, " ", ha="center", va="top", fontsize=10,
                            fontweight=matplotlib.rcParams["figure.titleweight"])
    for group in ("fn", "ratio", "tau"):
        for line in art[group].values():
            line.set_animated(True)
    for name in ("infeasible", "com_x", "com_y", "title"):
        art[name].set_animated(True)
    return fig, axes, art


def _legs(feet) -> dict:
    """Joint columns (of tau) of each leg, in the model's order."""
    model = anymal()
    names = model.joint_names if hasattr(model, "joint_names") else ()
    return {leg: [i for i, n in enumerate(names) if n.startswith(leg)] for leg in LEG_COLORS}


@slider_labels(force="push [N]", direction="direction [°]")
def push_view(force: float = 100.0, direction: float = 90.0) -> View:
    """ANYmal pushed at the base by ``force`` [N] towards ``direction`` [°, 0 forward, 90 left] for
    0.1 s (impulse force × 0.1 N·s) and balanced by the whole-body QP (:func:`push_run`, cached).
    Panels: the applied QP's normal forces per foot (x: steps where the strict QP was infeasible and
    the soft one was applied), the
    friction use ‖f_t‖ / (μ f_n) per foot, the largest |τ| of each leg against the effort limit, the
    CoM displacement. Text: feasibility, friction margins, saturation, residuals, the push limit."""
    run = push_run(force, direction)
    fig, axes, art = figure_once(_figure)
    t = run.t
    legs = _legs(run.feet)
    for k, foot in enumerate(run.feet):
        leg = foot[:2]
        art["fn"][leg].set_data(t, run.forces[:, k, 2])
        art["ratio"][leg].set_data(t, run.friction_ratio[:, k])
        art["tau"][leg].set_data(t, np.abs(run.tau[:, legs[leg]]).max(axis=1))
    bad = ~run.qp_ok
    art["infeasible"].set_data(t[bad], np.zeros(int(bad.sum())))
    d = 1e3 * (run.com - run.com[0])
    art["com_x"].set_data(t, d[:, 0])
    art["com_y"].set_data(t, d[:, 1])
    axes[1, 1].set_ylim(*_mm_limits(d[:, :2]))
    art["title"].set_text(f"push {force:.0f} N towards {direction:.0f}° for {PUSH_DURATION:.1f} s "
                          f"(impulse {force * PUSH_DURATION:.1f} N·s)")

    limit = push_limit(direction)
    lines = [f"push {force:.0f} N towards {direction:.0f}° for {PUSH_DURATION:.1f} s = {force * PUSH_DURATION:.1f} N·s; "
             f"largest push the strict QP cancels standing still in this direction: {limit:.0f} N"]
    if run.first_infeasible is None:
        lines.append(f"QP feasible at every step ({t.size} steps of {1e3 * RUN_DT:.0f} ms)")
    else:
        lines.append(f"QP infeasible at {int(bad.sum())} of {t.size} steps, first at t = {run.first_infeasible:.3f} s: "
                     f"the commanded recovery cannot be realised within the cones and limits (soft QP applied)")
    with np.errstate(all="ignore"):
        worst = np.nanmax(np.where(np.isfinite(run.friction_ratio), run.friction_ratio, np.nan), axis=0) \
            if np.isfinite(run.friction_ratio).any() else np.full(len(run.feet), np.nan)
    lines.append("smallest friction margin 1 − ‖f_t‖/(μ f_n) of the applied QP forces: "
                 + ", ".join(f"{f[:2]} {round(1.0 - w, 2) + 0.0:.2f}" for f, w in zip(run.feet, worst)))
    sat = np.abs(run.tau) >= _tau_max() - SATURATED
    lines.append(f"peak |τ| {np.abs(run.tau).max():.1f} N·m (limit {_tau_max().max():.0f}); saturated at "
                 f"{int(sat.any(axis=1).sum())} steps")
    res_dyn, res_con = np.nanmax(run.dynamics_residual), np.nanmax(run.contact_residual)
    lines.append(f"residuals of the applied QPs below {RESIDUAL_BOUND:g}: dynamics {bool(res_dyn < RESIDUAL_BOUND)} "
                 f"(N, N·m), contact {bool(res_con < RESIDUAL_BOUND)} (m/s²); CoM moved up to "
                 f"{np.abs(d[:, :2]).max():.1f} mm")
    return View(fig, "\n".join(lines))


def _mm_limits(d: np.ndarray) -> tuple[float, float]:
    """Symmetric limits in round steps (10, 20, 50, 100, ... mm) covering d."""
    m = float(np.abs(d).max()) if d.size else 0.0
    for step in (10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0, 2000.0, 5000.0):
        if m <= step:
            return -step, step
    return -m, m

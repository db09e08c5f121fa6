"""Chapter 6 views: balance points against a foot, the Euler-angle singularity, the satellite arm,
the floating-base mass-matrix blocks and quaternion drift.

Every slider view returns ``View(figure, text)``; the text holds the numbers the figure shows.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from matplotlib.patches import Polygon, Rectangle
from matplotlib.ticker import LogLocator, NullLocator

from ...dynamics.balance import cmp, zmp
from ...dynamics.floating_base import quaternion_integration_error, rpy_velocity_map, zero_momentum_base_path
from ...scenarios.satellite import satellite_arm_model, satellite_joint_loop
from ...dynamics.frames import forward_kinematics
from ...dynamics.model import neutral_configuration
from ..plotting import arrow, magnitude_image, new_figure, steady_limits
from ..widgets import View, animate, figure_once, fmt, slider_labels

__all__ = ["FOOT_HALF_LENGTH", "MASS", "balance_view", "euler_singularity_view", "satellite_view",
           "mass_matrix_blocks_figure", "quaternion_drift_figure"]

FOOT_HALF_LENGTH = 0.1  # m: the foot reaches from -0.1 m (heel) to +0.1 m (toe) along x
MASS = 60.0             # kg: the chapter's walker
G = 9.81


def _balance_figure():
    fig, ax = new_figure(size=(7.5, 3.8))
    h = FOOT_HALF_LENGTH
    ax.add_patch(Rectangle((-h, -0.04), 2 * h, 0.04, fc="0.75", ec="k", lw=1, label="foot (support polygon)"))
    ax.axhline(0.0, color="k", lw=0.8)
    art = {"force_line": ax.plot([0, 0], [0, 1], color="tab:orange", lw=1.5, label="force line through the CoM")[0],
           "force": arrow(ax, (0, 0), (0, 0.35), color="tab:red", lw=2),
           "com": ax.plot(0.0, 0.9, "ko", ms=10, label="CoM")[0]}
    ax.plot(0.0, 0.0, "k|", ms=14, mew=2, label="CoM projection")
    art["cmp"], = ax.plot(0.0, 0.0, "s", color="tab:orange", ms=8, label="CMP")
    art["zmp"], = ax.plot(0.0, 0.0, "^", color="tab:red", ms=10, label="ZMP (ground force acts here)")
    ax.set(xlim=(-0.45, 0.45), ylim=(-0.1, 1.3), xlabel="x [m] (not to scale with z)", ylabel="z [m]")
    ax.grid(True, alpha=0.3)
    ax.legend(loc="upper left", fontsize=8)
    art["title"] = ax.set_title(" ", fontsize=9)
    animate(*art.values())
    return fig, art


@slider_labels(z_com="CoM height z_c [m]", xdd="ẍ_c [m/s²]", zdd="z̈_c [m/s²]", dL_y="L̇_y [N·m]")
def balance_view(z_com: float = 0.9, xdd: float = 1.0, zdd: float = 0.0, dL_y: float = 0.0) -> View:
    """Side view (x-z): the CoM at (0, z_com) accelerating by (xdd, zdd) with L_dot_y; the ground
    reaction force through the CMP, the ZMP and the CoM projection against a foot of +-0.1 m."""
    p, a = np.array([0.0, 0.0, z_com]), np.array([xdd, 0.0, zdd])
    x_zmp = float(zmp(p, a, MASS, np.array([0.0, dL_y, 0.0]), G)[0])
    x_cmp = float(cmp(p, a, G)[0])
    F = MASS * (a + np.array([0.0, 0.0, G]))
    fig, art = figure_once(_balance_figure)
    h = FOOT_HALF_LENGTH
    art["force_line"].set_data([x_cmp, 0.0], [0.0, z_com])
    art["force"].set_positions((x_zmp, 0.0), (x_zmp + 0.35 * F[0] / F[2] * 1.0, 0.35))
    art["com"].set_data([0.0], [z_com])
    art["cmp"].set_data([x_cmp], [0.0])
    art["zmp"].set_data([x_zmp], [0.0])
    inside = -h <= x_zmp <= h
    verdict = "inside the foot" if inside else ("behind the heel: the foot tips about its rear edge" if x_zmp < -h
                                                 else "beyond the toe: the foot tips about its front edge")
    art["title"].set_text(f"x_ZMP = {fmt(x_zmp, 4, sign=True)} m, x_CMP = {fmt(x_cmp, 4, sign=True)} m  "
                          f"({verdict.split(':')[0]})")
    text = (f"x_ZMP = {fmt(x_zmp, 4, sign=True)} m, x_CMP = {fmt(x_cmp, 4, sign=True)} m, CoM projection 0.0000 m; "
            f"ZMP {verdict}; largest sustainable xdd (ZMP at the heel, dL = 0) = {G * h / z_com:.3f} m/s^2")
    return View(fig, text)


def _cond(pitch: np.ndarray, roll: float) -> np.ndarray:
    """cond W(roll, pitch, 0) = 1 / |cos pitch| * (the ratio of singular values), vectorised."""
    return np.array([np.linalg.cond(rpy_velocity_map([roll, p, 0.0])) for p in pitch])


@lru_cache(maxsize=8)
def _cond_curve(roll: float) -> tuple[np.ndarray, np.ndarray]:
    pitch = np.radians(np.linspace(-89.9, 89.9, 181))
    return pitch, _cond(pitch, roll)


def _euler_figure():
    fig, ax = new_figure(size=(6.5, 3.8))
    curve, = ax.semilogy([0.0], [1.0], color="tab:blue", label="roll-pitch-yaw: cond E = cond W⁻¹", animated=True)
    ax.axhline(1.0, color="tab:green", lw=2, label="unit quaternion: cond(Q) = 1 for every attitude")
    point, = ax.plot([0.0], [1.0], "o", color="tab:red", ms=8, animated=True)
    ax.set(xlabel="pitch θ [deg]", ylabel="condition number", xlim=(-98.9, 98.9), ylim=(0.5, 1e5))
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="upper center")
    return fig, {"curve": curve, "point": point, "title": animate(ax.set_title(" ", fontsize=9))}


@slider_labels(pitch_deg="pitch θ [deg]", roll_deg="roll φ [deg]")
def euler_singularity_view(pitch_deg: float = 60.0, roll_deg: float = 20.0) -> View:
    """cond E for roll-pitch-yaw (E = W^-1, w_b = W rpy_dot) against pitch, and the quaternion's E."""
    pitch, roll = np.radians(pitch_deg), np.radians(roll_deg)
    W = rpy_velocity_map([roll, pitch, 0.0])
    c = float(np.linalg.cond(W))
    pp, cc = _cond_curve(float(roll))
    fig, art = figure_once(_euler_figure)
    art["curve"].set_data(np.degrees(pp), cc)
    art["point"].set_data([pitch_deg], [min(c, 1e16)])
    cond_text = f"{c:.4g}" if c < 1e12 else "inf (singular)"
    art["title"].set_text(f"pitch {pitch_deg:+.1f} deg: det W = cos θ = {fmt(np.cos(pitch), 4, sign=True)}, cond = {cond_text}")
    return View(fig, f"pitch = {pitch_deg:+.1f} deg, roll = {roll_deg:+.1f} deg: det W = {fmt(np.cos(pitch), 4, sign=True)}, "
                     f"cond E (Euler) = {cond_text}, cond E (quaternion block) = 1.0000")


def _satellite_points(model, q) -> tuple[np.ndarray, np.ndarray]:
    """(base corners (4, 2), arm polyline (5, 2)) in the x-y plane."""
    T = forward_kinematics(model, q)
    s, L = 2 * model.T_tree[1][0, 3], model.T_tree[2][0, 3]
    corners = np.array([[-1, -1, 0, 1], [1, -1, 0, 1], [1, 1, 0, 1], [-1, 1, 0, 1]]) * [s / 2, s / 2, 0, 1]
    base = (T[0] @ corners.T).T[:, :2]
    arm = [T[0] @ [s / 2, 0, 0, 1]] + [T[i] @ [L, 0, 0, 1] for i in (1, 2, 3)]
    return base, np.array(arm)[:, :2]


@lru_cache(maxsize=64)
def _satellite_path(mass_ratio: float, amplitude: float, n: int = 21):
    model = satellite_arm_model(mass_ratio)
    t = np.linspace(0.0, 4.0, n)
    qj, vj = satellite_joint_loop(3, amplitude, 4.0, t)
    return model, t, zero_momentum_base_path(model, neutral_configuration(model), qj, vj, t[1] - t[0])


def _satellite_figure(n_ghosts: int):
    """Left: earlier poses (faded), the pose at t, the base's heading; right: yaw and joints over the loop."""
    fig, (ax, bx) = new_figure(1, 2, size=(10.0, 4.2))
    square = np.zeros((4, 2))
    art = {"bx": bx, "ghosts": [(ax.add_patch(Polygon(square, closed=True, fc="tab:blue", ec="k")),
                                 ax.plot([], [], "-o", color="0.4", lw=2, ms=3)[0]) for _ in range(n_ghosts)]}
    art["base"] = ax.add_patch(Polygon(square, closed=True, fc="tab:blue", ec="k", alpha=0.4))
    art["arm"], = ax.plot([], [], "-o", color="k", lw=3, ms=4)
    ax.plot(*np.array([[0.0, 0.0], [0.7, 0.0]]).T, color="tab:red", lw=0.8, ls="--")
    art["heading"] = arrow(ax, (0, 0), (0.7, 0), color="tab:red", lw=1.0)
    ax.set(xlim=(-1.0, 2.6), ylim=(-1.4, 1.8), aspect="equal", xlabel="x_W [m]", ylabel="y_W [m]")
    ax.grid(True, alpha=0.3)
    art["title"] = ax.set_title(" ", fontsize=9)
    art["curves"] = [bx.plot([], [], color="tab:blue", label="base yaw ψ_b")[0],
                     bx.plot([], [], color="0.5", lw=1, label="joint q₁")[0],
                     bx.plot([], [], color="0.5", lw=1, ls="--", label="joint q₂")[0]]
    art["now"], = bx.plot([0.0], [0.0], "o", color="tab:red")
    bx.set(xlabel="t [s]", ylabel="angle [deg]", xlim=(-0.2, 4.2))
    bx.grid(True, alpha=0.3)
    bx.legend(fontsize=8, loc="upper right")
    art["bx_title"] = bx.set_title(" ", fontsize=9)
    animate(*[a for pair in art["ghosts"] for a in pair], art["base"], art["arm"], art["heading"], art["title"],
            *art["curves"], art["now"], art["bx_title"])
    return fig, art


@slider_labels(mass_ratio="arm / base mass [-]", amplitude="joint amplitude [rad]", t="time t [s]")
def satellite_view(mass_ratio: float = 0.3, amplitude: float = 0.8, t: float = 4.0) -> View:
    """Top view of the free-floating satellite while its arm runs one joint loop (4 s, from rest
    to rest, zero momentum): frames up to time t, and the base yaw over the loop."""
    model, ts, path = _satellite_path(round(float(mass_ratio), 4), round(float(amplitude), 4))
    k = int(np.clip(np.searchsorted(ts, t - 1e-9), 0, ts.shape[0] - 1))
    yaw = 2.0 * np.arctan2(path[:, 5], path[:, 6])
    fig, art = figure_once(_satellite_figure, len(range(0, ts.shape[0], 4)))
    ghosts = range(0, k + 1, 4)
    for n, (patch, line) in enumerate(art["ghosts"]):
        patch.set_visible(n < len(ghosts))
        line.set_visible(n < len(ghosts))
        if n < len(ghosts):
            j = ghosts[n]
            base, arm = _satellite_points(model, path[j])
            alpha = 0.15 + 0.5 * j / max(k, 1)
            patch.set_xy(base)
            patch.set_alpha(0.3 * alpha)
            line.set_data(*arm.T)
            line.set_alpha(alpha)
    base, arm = _satellite_points(model, path[k])
    art["base"].set_xy(base)
    art["arm"].set_data(*arm.T)
    heading = base[1] - base[0]
    art["heading"].set_positions(tuple(path[k, :2]), tuple(path[k, :2] + 0.7 * heading / np.linalg.norm(heading)))
    art["title"].set_text(f"t = {ts[k]:.1f} s, arm/base mass ratio {mass_ratio:.2f}")
    for line, y in zip(art["curves"], (np.degrees(yaw), np.degrees(path[:k + 1, 7]), np.degrees(path[:k + 1, 8]))):
        line.set_data(ts[:y.shape[0]], y)
    art["now"].set_data([ts[k]], [np.degrees(yaw[k])])
    art["bx"].set_ylim(steady_limits(np.degrees(np.concatenate([yaw, path[:, 7], path[:, 8]]))))  # the whole loop
    art["bx_title"].set_text(f"after the loop: joints back at 0, base turned by {fmt(np.degrees(yaw[-1]), 2, sign=True)} deg")
    return View(fig, f"t = {ts[k]:.1f} s: base yaw = {fmt(np.degrees(yaw[k]), 3, sign=True)} deg, q_j = "
                     f"({fmt(np.degrees(path[k, 7]), 1, sign=True)}, {fmt(np.degrees(path[k, 8]), 1, sign=True)}, 0.0) deg; "
                     f"after the full loop the base has turned {fmt(np.degrees(yaw[-1]), 3, sign=True)} deg")


def mass_matrix_blocks_figure(M: np.ndarray, title: str = "M(q)") -> View:
    """Heat map of log10 |M_ij| of a floating-base mass matrix (six decades, so the joint block
    M_jj, 100 to 1000 times smaller than the base mass, shows as clearly as M_bb; white: zero up
    to round-off) with the base/joint blocks M_bb, M_bj, M_jj outlined."""
    M = np.asarray(M, dtype=float)
    n = M.shape[0]
    fig, ax = new_figure(size=(5.2, 4.4))
    im, _ = magnitude_image(ax, M)
    fig.colorbar(im, ax=ax, shrink=0.8, label="log10 |M_ij|  (kg, kg m, kg m²)", extend="min")
    for x in (5.5,):
        ax.axhline(x, color="k", lw=1.5)
        ax.axvline(x, color="k", lw=1.5)
    for (r, c), label in {(2.5, 2.5): "M_bb", (2.5, (6 + n) / 2 - 0.5): "M_bj", ((6 + n) / 2 - 0.5, 2.5): "M_bjᵀ",
                          ((6 + n) / 2 - 0.5, (6 + n) / 2 - 0.5): "M_jj"}.items():
        ax.text(c, r, label, ha="center", va="center", fontsize=10, color="k",
                bbox=dict(fc="white", alpha=0.7, lw=0))
    ax.set_title(title, fontsize=10)
    ax.set_xlabel("column (v index)")
    ax.set_ylabel("row")
    return View(fig, f"{title}: {n} x {n}, M_bb 6 x 6, M_bj 6 x {n - 6}, M_jj {n - 6} x {n - 6}")


@lru_cache(maxsize=8)
def _drift_curves(omega: tuple, dt: float, steps: int, method: str):
    """(norm, error) of one integration method, computed once per argument set (a static figure
    evaluated again -- re-run cell, exported page -- costs only its drawing)."""
    norm, err = quaternion_integration_error(np.asarray(omega, float), dt, steps, method)
    norm.setflags(write=False)
    err.setflags(write=False)
    return norm, err


def quaternion_drift_figure(omega=(1.0, 2.0, 0.5), dt: float = 0.01, steps: int = 3000) -> View:
    """Norm and orientation error of naive, renormalised and on-manifold quaternion integration."""
    fig, (ax, bx) = new_figure(1, 2, size=(10.0, 3.6))
    t = np.arange(steps + 1) * dt
    lines = []
    for method, color in (("naive", "tab:red"), ("renormalised", "tab:orange"), ("exponential", "tab:green")):
        try:
            key = (tuple(float(w) for w in np.asarray(omega, float).ravel()), float(dt), int(steps))
        except (TypeError, ValueError):  # not numbers: the library's checks say what is wrong
            key = None
        if key is not None and key[2] == steps:
            norm, err = _drift_curves(*key, method)
        else:
            norm, err = quaternion_integration_error(np.asarray(omega, float), dt, steps, method)
        lines.append(f"{method}: |quat| = {norm[-1]:.4f}, error = {np.degrees(err[-1]):.4f} deg")
        # coinciding curves drawn wide under the one that covers them: the renormalised norm is
        # the exponential's (1), the naive angle the renormalised one (normalising keeps the direction)
        wide_a, wide_b = method == "renormalised", method == "naive"
        ax.plot(t, norm, color=color, label=method + (" (= 1, as exponential)" if wide_a else ""),
                lw=5.0 if wide_a else 1.5, alpha=0.45 if wide_a else 1.0)
        bx.semilogy(t[1:], np.maximum(err[1:], 1e-17), color=color, label=method + (" (= renormalised)" if wide_b else ""),
                    lw=5.0 if wide_b else 1.5, alpha=0.45 if wide_b else 1.0)
    ax.set_xlabel("t [s]")
    ax.set_ylabel("|quat|")
    ax.set_title("norm of the integrated quaternion", fontsize=10)
    ax.legend(fontsize=8, loc="upper left")
    ax.grid(True, alpha=0.3)
    bx.set_xlabel("t [s]")
    bx.set_ylabel("orientation error [rad]")
    bx.set_title("angle between the integrated and the exact attitude", fontsize=10)
    bx.set_ylim(1e-17, 1e-1)
    bx.yaxis.set_major_locator(LogLocator(base=10.0, numticks=6))  # a label every 10^4: few mathtext labels
    bx.yaxis.set_minor_locator(NullLocator())
    bx.grid(True, alpha=0.3)
    bx.legend(fontsize=8, loc="center right")  # the empty decades between the curves
    fig.set_layout_engine("none")  # fixed margins: no layout pass (it draws every text twice)
    ax.set_position([0.065, 0.135, 0.41, 0.78])
    bx.set_position([0.575, 0.135, 0.41, 0.78])
    return View(fig, f"after {steps * dt:g} s: " + "; ".join(lines))

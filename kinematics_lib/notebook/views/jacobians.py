"""Chapter 3 views: manipulability ellipses, singularity maps, pinv vs DLS, IK convergence,
null-space motion and resolved-rate drift. Each function returns a ``View(figure, text)``.
"""

from __future__ import annotations

import math
from typing import Mapping, Sequence

import numpy as np
from matplotlib.ticker import NullLocator

from ... import _validate as check
from ...arms.dh import DHRobot, dh_end_effector, planar_arm
from ...arms.ik import IKResult, ResolvedRateResult, dls_step, ik_two_link, pinv_step
from ...arms.kinematics import geometric_jacobian, singularity_report
from ..plotting import arm_points, arrow, draw_chain, ellipse_points, new_figure, planar_axes, update_chain
from ..widgets import View, animate, figure_once, slider_labels

__all__ = [
    "manipulability_ellipse_view",
    "singularity_map",
    "planar_jacobians",
    "singularity_map_view",
    "describe_singular_set",
    "pinv_vs_dls",
    "pinv_vs_dls_view",
    "ik_convergence_view",
    "nullspace_view",
    "drift_view",
    "two_link_ik_view",
]

COLORS = ("tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown")


def _arm_points(robot: DHRobot, q) -> np.ndarray:
    """Joint origins and tool point (n + 2, 2) of a planar arm, in the x-y plane."""
    return arm_points(robot, q)[:, :2]


def _planar_axes(ax, reach: float, title: str = "") -> None:
    planar_axes(ax, 1.15 * reach, title)


def _ellipse_figure(L1: float, L2: float):
    """The arm's axes and the w(q2) curve depend on the link lengths only: rebuilt when they change."""
    fig, (ax, ax_w) = new_figure(1, 2, size=(9.0, 4.2))
    art = {"chain": draw_chain(ax, np.zeros((3, 2)), animated=True),
           "ellipse": ax.plot([], [], color="tab:purple", lw=1.8, animated=True)[0],
           "axes": [arrow(ax, (0, 0), (1, 0), color=COLORS[k + 2], lw=1.5) for k in range(2)]}
    _planar_axes(ax, L1 + L2, " ")
    art["title"] = ax.title
    grid = np.linspace(-np.pi, np.pi, 361)
    ax_w.plot(grid, L1 * L2 * np.abs(np.sin(grid)), color="0.3", label="w = L1 L2 |sin q2|")
    art["current"], = ax_w.plot([0.0], [0.0], "o", color="tab:purple", ms=8, label="current")
    ax_w.set_xlabel("q2 [rad]")
    ax_w.set_ylabel("w = sigma_1 sigma_2 [m^2]")
    ax_w.set_title("manipulability against the elbow angle", fontsize=9)
    ax_w.grid(True, alpha=0.3)
    ax_w.set_ylim(0.0, 1.35 * L1 * L2)  # room for the legend above the curve
    ax_w.legend(loc="upper center", ncol=2, fontsize=8)
    animate(*art["axes"], art["title"], art["current"])
    return fig, art


@slider_labels(q1="q₁ [rad]", q2="q₂ [rad]", L1="L₁ [m]", L2="L₂ [m]", scale="ellipse scale [m·s/rad]")
def manipulability_ellipse_view(q2: float = 1.0, q1: float = 0.4, L1: float = 1.0, L2: float = 0.7,
                                scale: float = 0.5) -> View:
    """Planar 2R arm with its velocity manipulability ellipse (可操作度椭圆) at the tip.

    The ellipse is {J qdot : |qdot| <= 1 rad/s} (drawn scaled by ``scale``); its semi-axes are
    the singular values sigma_1 >= sigma_2 of the 2x2 position Jacobian, w = sigma_1 sigma_2 =
    |det J| = L1 L2 |sin q2| and kappa = sigma_1 / sigma_2. Right: w against q2.
    """
    q = np.array([check.scalar(q1, "q1"), check.scalar(q2, "q2")])
    scale = check.positive(scale, "scale")
    arm = planar_arm([L1, L2])
    J = geometric_jacobian(arm, q)[:2]
    rep = singularity_report(J)
    U, s, _ = np.linalg.svd(J)
    P = _arm_points(arm, q)
    fig, art = figure_once(_ellipse_figure, float(L1), float(L2))
    update_chain(art["chain"], P)
    art["ellipse"].set_data(*ellipse_points(P[-1], scale * J))  # named in the title, no legend
    art["ellipse"].set_label(f"|qdot| <= 1 rad/s (x{scale:g})")
    for k, patch in enumerate(art["axes"]):
        patch.set_positions(tuple(P[-1]), tuple(P[-1] + scale * s[k] * U[:, k]))
    art["title"].set_text(f"q = ({q[0]:.2f}, {q[1]:.2f}) rad; purple: J q̇ for |q̇| ≤ 1 rad/s (×{scale:g})")
    art["current"].set_data([q[1]], [rep.manipulability])
    kappa = "inf" if math.isinf(rep.kappa) else f"{rep.kappa:.3f}"
    text = (f"q1 = {q[0]:.3f} rad, q2 = {q[1]:.3f} rad\n"
            f"sigma_1 = {s[0]:.4f} m/rad, sigma_2 = {s[1]:.4f} m/rad\n"
            f"w = sigma_1 sigma_2 = {rep.manipulability:.4f}  (L1 L2 |sin q2| = {L1 * L2 * abs(math.sin(q[1])):.4f})\n"
            f"kappa = sigma_1 / sigma_2 = {kappa}  ({'SINGULAR' if rep.singular else 'regular'})")
    return View(fig, text)


def planar_jacobians(lengths: Sequence[float], Q) -> np.ndarray:
    """Task Jacobians (N, 3, n) -- rows x, y, phi -- of the planar revolute arm with link lengths
    ``lengths`` (n,) at the configurations Q (N, n), all at once: column k is
    [-(y_E - y_k), x_E - x_k, 1] with (x_k, y_k) joint k's position (rows 0, 1 and 5 of
    ``geometric_jacobian(planar_arm(lengths), q)``)."""
    L = np.asarray(lengths, dtype=float)
    theta = np.cumsum(np.atleast_2d(np.asarray(Q, dtype=float)), axis=1)
    links = L * np.stack([np.cos(theta), np.sin(theta)], axis=-1).transpose(2, 0, 1)  # (2, N, n)
    joints = np.cumsum(links, axis=2) - links            # position of joint k (2, N, n)
    r = links.sum(axis=2, keepdims=True) - joints        # joint k -> tip
    return np.stack([-r[1], r[0], np.ones_like(r[0])], axis=1)


def singularity_map(lengths: Sequence[float], task: str, n: int = 73, tol: float = 1e-6):
    """sigma_min / sigma_max of a planar 3R task Jacobian on a (q2, q3) grid over [-pi, pi]^2.

    q1 does not matter (it rotates the whole arm). Returns (grid (n,), ratio (n, n) indexed
    [i2, i3], singular points [(q2, q3), ...] where ratio < tol). n = 73 puts 0 and +-pi on the grid.
    All n^2 Jacobians (:func:`planar_jacobians`) and their singular values in one batch.
    """
    check.one_of(task, ("planar_position", "planar_pose"), "task")
    n = check.integer(n, "n", 2, 2001)
    lengths = check.vector(lengths, 3, "lengths")
    rows = [0, 1] if task == "planar_position" else [0, 1, 2]
    grid = np.linspace(-np.pi, np.pi, n)
    A, B = np.meshgrid(grid, grid, indexing="ij")
    Q = np.column_stack([np.zeros(A.size), A.ravel(), B.ravel()])
    s = np.linalg.svd(planar_jacobians(lengths, Q)[:, rows], compute_uv=False)
    ratio = (s[:, -1] / s[:, 0]).reshape(n, n)
    points = [(float(grid[i]), float(grid[j])) for i, j in zip(*np.nonzero(ratio < tol))]
    return grid, ratio, points


def _angle_name(a: float) -> str:
    if abs(a) < 1e-12:
        return "0"
    if abs(abs(a) - np.pi) < 1e-12:
        return "pi" if a > 0 else "-pi"
    return f"{a:.3f}"


def describe_singular_set(grid, points) -> str:
    """'q2 in {...}, q3 in {...}' for a set of singular grid points (whole product or not)."""
    if not points:
        return "no singular grid point"
    q2s = sorted({p[0] for p in points})
    q3s = sorted({p[1] for p in points})
    product = len(points) == len(q2s) * len(q3s)
    q3_text = f"any q3 (all {len(grid)} grid values)" if len(q3s) == len(grid) else \
        "q3 in {" + ", ".join(_angle_name(a) for a in q3s) + "}"
    return (f"{len(points)} singular grid points: q2 in {{{', '.join(_angle_name(a) for a in q2s)}}}, "
            f"{q3_text}{'' if product else ' (not a product set)'}")


def singularity_map_view(lengths: Sequence[float] = (1.0, 0.8, 0.5), n: int = 73) -> View:
    """Where the planar 3R arm is singular: left the full task (x, y, phi), right (x, y) only.

    Colour: log10(sigma_min / sigma_max) over (q2, q3); crosses: grid points with ratio < 1e-6.
    """
    fig, axes = new_figure(1, 2, size=(9.5, 4.2))
    lines = [f"grid {n} x {n} over [-pi, pi]^2 (q1 = 0; q1 only rotates the arm)"]
    for ax, task, label in zip(axes, ("planar_pose", "planar_position"), ("(x, y, phi)", "(x, y)")):
        grid, ratio, points = singularity_map(lengths, task, n)
        im = ax.pcolormesh(grid, grid, np.log10(np.maximum(ratio, 1e-17)).T, cmap="viridis",
                           vmin=-6, vmax=0, shading="nearest")
        if points:
            P = np.array(points)
            ax.plot(P[:, 0], P[:, 1], "x", color="tab:red", ms=7, mew=2)
        ax.set_xlabel("q2 [rad]")
        ax.set_ylabel("q3 [rad]")
        ax.set_title(f"task {label}: log10(sigma_min/sigma_max)", fontsize=9)
        ax.set_aspect("equal")
        lines.append(f"task {label}: {describe_singular_set(grid, points)}")
    fig.colorbar(im, ax=list(axes), shrink=0.8)
    return View(fig, "\n".join(lines))


def pinv_vs_dls(q2s, dampings: Sequence[float], L1: float = 1.0, L2: float = 0.7, q1: float = 0.3,
                speed: float = 0.1) -> dict:
    """Joint speeds |qdot| (rad/s) and task-velocity errors |J qdot - xdot| (m/s) of the 2R arm
    asked to move its tip at ``speed`` (m/s) radially outwards, for each elbow angle in q2s.

    Returns {'pinv' or 'dls 0.05': (qdot_norm (k,), task_error (k,))}. Near q2 = 0 the radial
    direction is the one the arm loses: J^+ gives |qdot| ~ speed / sigma_min, DLS at most
    speed / (2 lambda).
    """
    arm = planar_arm([L1, L2])
    out = {"pinv": ([], [])}
    out.update({f"dls {lam:g}": ([], []) for lam in dampings})
    for q2 in np.asarray(q2s, dtype=float):
        q = np.array([q1, q2])
        J = geometric_jacobian(arm, q)[:2]
        tip = dh_end_effector(arm, q)[:2, 3]
        xdot = speed * tip / np.linalg.norm(tip)
        steps = {"pinv": pinv_step(J, xdot, rcond=1e-15)}
        steps.update({f"dls {lam:g}": dls_step(J, xdot, lam) for lam in dampings})
        for key, qdot in steps.items():
            out[key][0].append(float(np.linalg.norm(qdot)))
            out[key][1].append(float(np.linalg.norm(J @ qdot - xdot)))
    return {k: (np.array(a), np.array(b)) for k, (a, b) in out.items()}


def pinv_vs_dls_view(dampings: Sequence[float] = (0.01, 0.05, 0.2), L1: float = 1.0, L2: float = 0.7,
                     speed: float = 0.1) -> View:
    """|qdot| and the task-velocity error against the distance q2 to the stretched singularity."""
    q2s = np.logspace(-5, 0, 61)
    data = pinv_vs_dls(q2s, dampings, L1, L2, speed=speed)
    fig, (ax, ax_e) = new_figure(1, 2, size=(9.5, 3.8))
    for k, (key, (qn, err)) in enumerate(data.items()):
        ax.loglog(q2s, qn, color=COLORS[k], label=key)
        if key != "pinv":
            ax.axhline(speed / (2 * float(key.split()[1])), color=COLORS[k], ls=":", lw=1)
            ax_e.loglog(q2s, np.maximum(err, 1e-12), color=COLORS[k], label=key)
    ax.set_xlabel("distance to the singularity q2 [rad]")
    ax.set_ylabel("|qdot| [rad/s]")
    ax.set_title(f"tip speed {speed:g} m/s outwards (dotted: speed / 2 lambda)", fontsize=9)
    ax.legend(fontsize=8)
    ax_e.set_xlabel("distance to the singularity q2 [rad]")
    ax_e.set_ylabel("|J qdot - xdot| [m/s]")
    ax_e.set_title("the price of damping: velocity not delivered", fontsize=9)
    ax_e.legend(fontsize=8)
    for a in (ax, ax_e):  # a grid line per decade: the minor ticks (8 per decade) were most of the draw
        a.xaxis.set_minor_locator(NullLocator())
        a.yaxis.set_minor_locator(NullLocator())
        a.grid(True, which="major", alpha=0.3)
    picks = [0.1, 0.01, 0.001, 0.0001]
    rows = ["q2 [rad]   " + "  ".join(f"{key:>12s}" for key in data)]
    for q2 in picks:
        i = int(np.argmin(np.abs(np.log(q2s / q2))))
        rows.append(f"{q2s[i]:<10.0e} " + "  ".join(f"{data[key][0][i]:12.4g}" for key in data))
    return View(fig, "|qdot| in rad/s for a 0.1 m/s radial tip velocity\n" + "\n".join(rows))


def ik_convergence_view(results: Mapping[str, IKResult], tol: float = 1e-3) -> View:
    """Task error |e_k| per Newton iteration (log scale) for several IK runs."""
    fig, ax = new_figure(size=(6.5, 4.0))
    lines = []
    for k, (label, res) in enumerate(results.items()):
        h = np.maximum(np.array(res.error_history), 1e-16)
        ax.semilogy(np.arange(len(h)), h, "o-", color=COLORS[k % len(COLORS)], label=label, ms=4)
        lines.append(f"{label}: {res.status} after {res.iterations} iterations")
    ax.axhline(tol, color="0.5", ls="--", lw=1, label=f"{tol:g} (1 mm)")
    ax.set_xlabel("iteration k")
    ax.set_ylabel("|e_k| (m and rad mixed)")
    ax.set_title("Newton (pinv) vs damped least squares", fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    return View(fig, "\n".join(lines))


def nullspace_view(robot: DHRobot, path, values=None, value_label: str = "w", every: int = 10) -> View:
    """Self-motion of a planar redundant arm: the configurations along ``path`` (k, n) overlaid
    (light to dark) and, right, ``values`` (k,) along the path with the tip deviation in mm."""
    path = check.matrix(path, (None, robot.n), "path")
    tips = np.array([dh_end_effector(robot, q)[:2, 3] for q in path])
    dev = np.linalg.norm(tips - tips[0], axis=1)
    fig, (ax, ax_v) = new_figure(1, 2, size=(9.5, 4.2))
    idx = list(range(0, len(path), max(int(every), 1)))
    idx = idx if idx[-1] == len(path) - 1 else idx + [len(path) - 1]
    for m, k in enumerate(idx):
        shade = 0.8 - 0.65 * m / max(len(idx) - 1, 1)
        draw_chain(ax, _arm_points(robot, path[k]), color=str(shade), lw=3.0)
    ax.plot(tips[:, 0], tips[:, 1], ".", color="tab:red", ms=3)
    pts = np.vstack([_arm_points(robot, path[k]) for k in idx])
    lo, hi = pts.min(axis=0) - 0.2, pts.max(axis=0) + 0.2
    half = 0.5 * float(np.max(hi - lo))
    mid = 0.5 * (lo + hi)
    _planar_axes(ax, 1.0, "self-motion: the tip stays put")
    ax.set_xlim(mid[0] - half, mid[0] + half)
    ax.set_ylim(mid[1] - half, mid[1] + half)
    if values is not None:
        values = check.vector(values, len(path), "values")
        ax_v.plot(values, color="tab:purple", label=value_label)
    ax_v.set_xlabel("step")
    ax_v.set_ylabel(value_label)
    ax_t = ax_v.twinx()
    ax_t.plot(dev * 1e3, color="tab:red", ls="--", label="tip deviation [mm]")
    ax_t.set_ylabel("tip deviation [mm]")
    ax_v.grid(True, alpha=0.3)
    ax_v.legend(loc="center right", fontsize=8)
    ax_t.legend(loc="lower right", fontsize=8)
    text = (f"joints moved by |q_end - q_start| = {np.linalg.norm(path[-1] - path[0]):.3f} rad; "
            f"tip deviation max {dev.max() * 1e3:.3f} mm")
    if values is not None:
        text += f"\n{value_label}: {values[0]:.4f} -> {values[-1]:.4f}"
    return View(fig, text)


def drift_view(results: Mapping[str, ResolvedRateResult]) -> View:
    """Resolved-rate runs: desired vs actual tip paths (left) and tracking error against time (right)."""
    fig, (ax, ax_e) = new_figure(1, 2, size=(9.5, 4.0))
    lines = []
    first = next(iter(results.values()))
    ax.plot(first.x_des[:, 0], first.x_des[:, 1], color="0.2", lw=3, alpha=0.35, label="desired")
    for k, (label, res) in enumerate(results.items()):
        c = COLORS[k % len(COLORS)]
        ax.plot(res.x[:, 0], res.x[:, 1], color=c, lw=1, label=label)
        ax_e.semilogy(res.t, np.maximum(res.error, 1e-12) * 1e3, color=c, label=label)
        lines.append(f"{label}: error at t = {res.t[-1]:.1f} s {res.error[-1] * 1e3:.3f} mm, "
                     f"max {res.error.max() * 1e3:.3f} mm")
    ax.set_aspect("equal")
    ax.set_xlabel("x [m]")
    ax.set_ylabel("y [m]")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    ax_e.set_xlabel("t [s]")
    ax_e.set_ylabel("|x_des - x| [mm]")
    ax_e.grid(True, which="both", alpha=0.3)
    ax_e.legend(fontsize=8)
    return View(fig, "\n".join(lines))


def _ik_figure(L1: float, L2: float):
    """The reachable annulus and the axes depend on the link lengths only: rebuilt when they change."""
    fig, ax = new_figure(size=(5.0, 5.0))
    t = np.linspace(0, 2 * np.pi, 200)
    for r in (L1 + L2, abs(L1 - L2)):
        ax.plot(r * np.cos(t), r * np.sin(t), color="0.6", lw=1, ls="--")
    zero = np.zeros((3, 2))
    art = {"now": draw_chain(ax, zero, color="0.85", lw=3, animated=True),
           "branches": [draw_chain(ax, zero, color="0.55", lw=2, animated=True) for _ in range(2)],
           "unreached": draw_chain(ax, zero, color="tab:red", lw=3, animated=True),
           "target": ax.plot([0.0], [0.0], "*", color="tab:red", ms=14, animated=True)[0]}
    _planar_axes(ax, L1 + L2, " ")
    art["title"] = animate(ax.title)
    return fig, art


@slider_labels(x="target x [m]", y="target y [m]", L1="L₁ [m]", L2="L₂ [m]", q1_now="current q₁ [rad]",
               q2_now="current q₂ [rad]")
def two_link_ik_view(x: float = 1.2, y: float = 0.6, L1: float = 1.0, L2: float = 0.7,
                     q1_now: float = 0.0, q2_now: float = 1.0) -> View:
    """Analytic 2R IK: the reachable annulus, both elbow branches and the one nearest q_now."""
    res = ik_two_link([x, y], L1, L2, q_current=[q1_now, q2_now])
    arm = planar_arm([L1, L2])
    fig, art = figure_once(_ik_figure, float(L1), float(L2))
    update_chain(art["now"], _arm_points(arm, [q1_now, q2_now]))
    for k, chain in enumerate(art["branches"]):  # chosen branch: thick blue, the other thin grey
        shown = k < len(res.solutions)
        for line in chain:
            line.set_visible(shown)
        if shown:
            chosen = np.allclose(res.solutions[k], res.q)
            update_chain(chain, _arm_points(arm, res.solutions[k]))
            chain[0].set_color("tab:blue" if chosen else "0.55")
            chain[0].set_linewidth(4 if chosen else 2)
    for line in art["unreached"]:
        line.set_visible(not res.converged)
    if not res.converged:
        update_chain(art["unreached"], _arm_points(arm, res.q))
    art["target"].set_data([x], [y])
    art["title"].set_text(res.status)
    sols = "; ".join(f"({q[0]:+.3f}, {q[1]:+.3f})" for q in res.solutions) or "none"
    text = (f"target ({x:.3f}, {y:.3f}) m: {res.status}, position error {res.position_error * 1e3:.3f} mm\n"
            f"branches (q1, q2) [rad]: {sols}\nselected (nearest to q_now): ({res.q[0]:+.3f}, {res.q[1]:+.3f})")
    return View(fig, text)

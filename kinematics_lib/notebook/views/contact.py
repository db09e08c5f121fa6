"""Chapter 7 views: constraints and contact under sliders.

Every view returns ``View(figure, text)``; the text holds the numbers the figure shows.
"""

from __future__ import annotations

import functools

import numpy as np
from matplotlib.patches import Circle, Polygon

from ...contact.cones import friction_pyramid, pyramid_worst_case_error
from ...contact.constrained import kkt_dynamics, regularized_kkt_dynamics
from ...contact.distribution import distribute_contact_forces
from ...contact.mechanisms import FourBar, four_bar_configuration, simulate_four_bar, unicycle_path
from ...scenarios.parking import parallel_parking_controls
from ...contact.time_stepping import ball_drop_run, incline_box_run
from ..plotting import arrow, curves_figure, new_figure, planar_axes, show_curves, steady_limits
from ..widgets import View, animate, figure_once, fmt

__all__ = ["parking_view", "baumgarte_view", "conditioning_view", "incline_view", "ball_drop_view",
           "friction_cone_view", "force_distribution_view", "standing_body", "STANDING_POINTS", "NORMS",
           "first_impact", "impact_momentum_table", "LEGS"]

#: the four feet of the chapter's standing body (a table or a quadruped), world axes [m]
STANDING_POINTS = np.array([[0.35, 0.2, 0.0], [0.35, -0.2, 0.0], [-0.35, 0.2, 0.0], [-0.35, -0.2, 0.0]])
STANDING_MASS, COM_HEIGHT, G = 30.0, 0.45, 9.81
#: the four feet in the order of STANDING_POINTS, named as ANYmal's legs (chapter 8): left/right, front/hind
LEGS = ("LF", "RF", "LH", "RH")
NORMS = ("l2 QP (8-face pyramid)", "l2 SOCP (exact cone)", "l1 LP (8-face pyramid)", "linf LP (8-face pyramid)")


# ---------------------------------------------------------------- nonholonomic: parallel parking


def _parking_figure(n_headings: int):
    fig, ax = new_figure(size=(6.0, 3.6))
    art = {"ax": ax, "path": ax.plot([], [], color="tab:blue", lw=1.5)[0],
           "headings": [arrow(ax, (0, 0), (0.08, 0), color="0.3", lw=1.0) for _ in range(n_headings)],
           "start": ax.plot([0.0], [0.0], "go", label="start")[0], "end": ax.plot([0.0], [0.0], "rs", label="end")[0]}
    animate(art["path"], *art["headings"], art["start"], art["end"])
    ax.set_aspect("equal")
    ax.set_xlabel("x [m]")
    ax.set_ylabel("y [m]")
    ax.legend(fontsize=9, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0)  # off the path
    ax.set_title("rolling without side slip: x' sin θ − y' cos θ = 0", fontsize=10)
    return fig, art


def parking_view(turn: float = 1.0, duration: float = 1.0) -> View:
    """A rolling disc parks sideways: four arcs at yaw rate ±turn [rad/s], each ``duration`` [s]."""
    U = parallel_parking_controls(speed=0.5, turn=turn, duration=duration, n=40)
    dt = duration / 40
    P = unicycle_path([0.0, 0.0, 0.0], U, dt)
    d = np.diff(P[:, :2], axis=0) / dt
    th = 0.5 * (P[:-1, 2] + P[1:, 2])        # an arc's chord points along the mean heading
    side = np.abs(d[:, 0] * np.sin(th) - d[:, 1] * np.cos(th)).max()
    fig, art = figure_once(_parking_figure, len(range(0, len(P), 20)))
    art["path"].set_data(P[:, 0], P[:, 1])
    for patch, (x, y, t) in zip(art["headings"], P[::20]):
        patch.set_positions((x, y), (x + 0.08 * np.cos(t), y + 0.08 * np.sin(t)))
    art["start"].set_data(P[:1, 0], P[:1, 1])
    art["end"].set_data(P[-1:, 0], P[-1:, 1])
    art["ax"].set(xlim=_padded(steady_limits(P[:, 0]), 0.05), ylim=_padded(steady_limits(P[:, 1]), 0.05))
    text = (f"end pose: x = {fmt(P[-1, 0], fixed=False)} m, y = {fmt(P[-1, 1], fixed=False)} m, θ = {fmt(P[-1, 2], fixed=False)} rad\n"
            f"largest side-slip speed |x' sin θ − y' cos θ| along the path = {fmt(side, 6, fixed=False)} m/s (rounding)")
    return View(fig, text)


# ---------------------------------------------------------------- drift, Baumgarte, projection

FOURBAR = FourBar()
DRIFT_T, DRIFT_DT = 10.0, 0.01
GAINS = np.arange(0.0, 10.5, 1.0)


@functools.lru_cache(maxsize=None)
def _drift_runs():
    """Four-bar runs for every (alpha, beta) on the slider grid, plus one projected run."""
    q0, v0 = four_bar_configuration(FOURBAR, 1.0, 1.0)
    t_final = DRIFT_T
    a, b = np.repeat(GAINS, GAINS.size), np.tile(GAINS, GAINS.size)
    grid = simulate_four_bar(FOURBAR, q0, v0, t_final, DRIFT_DT, a, b)
    proj = simulate_four_bar(FOURBAR, q0, v0, t_final, DRIFT_DT, project=True)
    return grid, proj


def _baumgarte_figure():
    fig, art = curves_figure((6.5, 3.6), (dict(color="tab:red", label="no stabilisation"),
                                          dict(color="tab:blue", label="Baumgarte α = 10, β = 10 [1/s]"),
                                          dict(color="tab:green", label="projection onto c = 0")),
                             legend=dict(loc="lower right"), xlabel="t [s]", ylabel="max |c(q)| [m²]",
                             yscale="log", xlim=(-0.5, DRIFT_T + 0.5), ylim=(1e-17, 1e-1))
    art["ax"].grid(False)
    return fig, art


def baumgarte_view(alpha: float = 5.0, beta: float = 5.0) -> View:
    """Constraint violation max|c(q)| of a four-bar over time: none, Baumgarte(alpha, beta), projection."""
    grid, proj = _drift_runs()
    i = int(np.clip(np.rint(alpha), 0, GAINS.size - 1)) * GAINS.size + int(np.clip(np.rint(beta), 0, GAINS.size - 1))
    t = grid.t
    fig, art = figure_once(_baumgarte_figure)
    floor = 1e-17
    show_curves(art, [(t, grid.violation[0] + floor), (t, grid.violation[i] + floor), (t, proj.violation + floor)],
                labels=["no stabilisation", f"Baumgarte α = {GAINS[i // GAINS.size]:g}, β = {GAINS[i % GAINS.size]:g} [1/s]",
                        "projection onto c = 0"])
    e0 = grid.energy[0, 0]
    text = (f"after {t[-1]:.1f} s: max|c| none = {grid.violation[0, -1]:.1e}, Baumgarte = {grid.violation[i, -1]:.1e}, "
            f"projection = {fmt(proj.violation[-1], floor=1e-12)} m^2\n"
            f"energy change: none = {grid.energy[0, -1] - e0:+.1e} J, Baumgarte = {grid.energy[i, -1] - e0:+.1e} J, "
            f"projection = {proj.energy[-1] - e0:+.1e} J")
    return View(fig, text)


# ---------------------------------------------------------------- conditioning of redundant contacts


def _box_contacts(com_x: float):
    """A 3-D box (mass 30 kg) on its four corners, normal constraints only: M (6, 6), h, J (4, 6)."""
    m, I = STANDING_MASS, np.diag([0.6, 1.2, 1.5])
    M = np.block([[m * np.eye(3), np.zeros((3, 3))], [np.zeros((3, 3)), I]])
    h = np.array([0.0, 0.0, m * G, 0.0, 0.0, 0.0])
    r = STANDING_POINTS - [com_x, 0.0, COM_HEIGHT]           # from the CoM to each corner
    J = np.array([np.concatenate([[0.0, 0.0, 1.0], np.cross(ri, [0.0, 0.0, 1.0])]) for ri in r])
    return M, h, J


def _conditioning_figure():
    fig, (ax, bx) = new_figure(1, 2, size=(8.0, 3.2))
    art = {"bx": bx, "bars": ax.bar(LEGS, [0.0] * 4, color="tab:blue")}
    ax.axhline(STANDING_MASS * G / 4, color="0.5", ls="--", lw=0.8)
    ax.set_ylabel("normal force λ_i [N]")
    ax.set_ylim(0, STANDING_MASS * G * 0.6)
    art["title"] = ax.set_title(" ", fontsize=9)
    art["spread"], = bx.semilogy([-12.0, 0.0], [1e-17, 1.0], "o-", ms=3)
    art["now"] = bx.axvline(0.0, color="tab:red", lw=0.8)
    bx.set(xlabel="log10 ε", ylabel="max |J a| [m/s²] (penetration)", xlim=(-12.6, 0.6))
    animate(*art["bars"], art["title"], art["spread"], art["now"])
    return fig, art


def conditioning_view(log10_damping: float = -6.0, com_x: float = 0.1) -> View:
    """Four coplanar contacts on a rigid box: J M^-1 J^T is singular (four normal forces, three
    equations); regularisation picks forces, whose spread depends on the damping."""
    M, h, J = _box_contacts(com_x)
    Minv = np.linalg.inv(M)
    A = J @ Minv @ J.T
    eig = np.linalg.eigvalsh(A)
    eps = 10.0 ** log10_damping
    a, lam = regularized_kkt_dynamics(M, h, J, np.zeros(4), np.zeros(6), damping=eps)
    fig, art = figure_once(_conditioning_figure)
    for bar, v in zip(art["bars"], lam):
        bar.set_height(v)
    art["title"].set_text(f"damping ε = 1e{log10_damping:+.0f}")
    grid = np.arange(-12.0, 1.0)
    spread = np.maximum([np.abs(J @ regularized_kkt_dynamics(M, h, J, np.zeros(4), np.zeros(6), 10.0 ** g)[0]).max()
                         for g in grid], 1e-17)
    art["spread"].set_data(grid, spread)
    art["now"].set_xdata([log10_damping, log10_damping])
    art["bx"].set_ylim(10.0 ** (np.floor(np.log10(spread.min())) - 0.5), 10.0 ** (np.ceil(np.log10(spread.max())) + 0.5))
    cond = eig[-1] / eig[0] if eig[0] > 1e-15 * eig[-1] else np.inf
    text = (f"eigenvalues of J M^-1 J^T: {np.array2string(eig, precision=4, suppress_small=True)} → cond = "
            f"{'inf (singular)' if not np.isfinite(cond) else f'{cond:.3e}'}\n"
            f"regularised cond = {(eig[-1] + eps) / (max(eig[0], 0.0) + eps):.3e}; forces λ = "
            f"{np.array2string(lam, precision=3)} N, sum = {lam.sum():.3f} N (weight {STANDING_MASS * G:.3f} N); "
            f"max |J a| = {fmt(np.abs(J @ a).max(), floor=1e-9)} m/s²")
    return View(fig, text)


# ---------------------------------------------------------------- rigid contact: box on an incline, ball drop


def incline_view(theta_deg: float = 30.0, mu: float = 0.5) -> View:
    """A box released on an incline, simulated with the friction LCP (Lemke) and cross-checked by QPs."""
    th = np.radians(theta_deg)
    run = incline_box_run(th, mu, t_final=1.0, dt=0.02)
    a_analytic = max(G * (np.sin(th) - mu * np.cos(th)), 0.0) if np.tan(th) > mu else 0.0
    a_lcp = (run["speed"][-1] - run["speed"][0]) / run["t"][-1]
    fig, art = figure_once(curves_figure, (6.0, 3.4), (dict(label="LCP (Lemke)", lw=2),
                                                       dict(ls="--", color="k", lw=1, label="g (sin θ − μ cos θ) t  or 0")),
                           legend=dict(loc="upper left"), xlabel="t [s]", ylabel="down-slope speed [m/s]",
                           xlim=(-0.05, 1.05), ylim=(-0.2, 8.0))
    show_curves(art, [(run["t"], run["speed"]), (run["t"], a_analytic * run["t"])])
    state = "slides" if np.tan(th) > mu else "sticks"
    text = (f"tan θ = {np.tan(th):.4f}, μ = {mu:.2f}: the box {state}\n"
            f"acceleration: LCP = {fmt(a_lcp, 4, fixed=False)} m/s², analytic = {fmt(a_analytic, 4, fixed=False)} m/s²; "
            f"friction / normal force = {fmt(run['f_t'][-1] / run['p_n'][-1], 4, fixed=False)}; "
            f"max |v_LCP − v_QP| = {fmt(run['qp_error'], floor=1e-9)} m/s")
    return View(fig, text)


def _padded(limits, pad: float = 0.04) -> tuple[float, float]:
    """Steady limits widened by ``pad`` of their span, so data on a limit stays off the spines."""
    lo, hi = limits
    return lo - pad * (hi - lo), hi + pad * (hi - lo)


def first_impact(run: dict) -> tuple[int, float, float]:
    """(k, momentum before, momentum after) [kg m/s] of the first step k at which a
    :func:`ball_drop_run` reaches the ground: the momentum at step k - 1 (the last free-flight
    step) and at step k + 1."""
    k = int(np.argmax(run["y"] <= 1e-9))
    return k, float(run["momentum"][k - 1, 1]), float(run["momentum"][k + 1, 1])


def impact_momentum_table(dts=(0.01, 0.005, 0.002, 0.001, 5e-4), height: float = 1.0, mass: float = 1.0) -> list:
    """[(dt [s], impact step time [s], momentum before the impact [kg m/s])] of a plastic ball
    drop from ``height`` [m]; the analytic values are sqrt(2 h / g) and -m sqrt(2 g h).

    The time-stepped ball lands at the end of the step that would carry it through the ground,
    so the momentum it brings is that of the last free-flight sample, m g (k - 1) dt; with the
    semi-implicit positions lagging by up to a step that is short of the analytic m sqrt(2 g h)
    by less than 2 m g dt: the gap shrinks like dt."""
    out = []
    t_fall = np.sqrt(2.0 * height / G)
    for dt in dts:
        run = ball_drop_run(height=height, t_final=min(1000 * dt, t_fall + 4 * dt), dt=dt, mass=mass)
        k, before, _ = first_impact(run)
        out.append((dt, float(run["t"][k]), before))
    return out


def _ball_figure():
    fig, (ax, bx) = new_figure(1, 2, size=(8.0, 3.0))
    art = {"axes": (ax, bx), "y": ax.plot([], [], animated=True)[0],
           "p": bx.plot([], [], color="tab:red", animated=True)[0]}
    for a, label in ((ax, "height y [m]"), (bx, "momentum m v_y [kg m/s]")):
        a.set(xlabel="t [s]", ylabel=label, xlim=(-0.075, 1.575))
    return fig, art


def ball_drop_view(restitution: float = 0.0, height: float = 1.0) -> View:
    """A ball dropped on the ground, contact by the LCP: the ground impulse removes momentum."""
    run = ball_drop_run(height=height, t_final=1.5, dt=0.01, restitution=restitution)
    k, before, after = first_impact(run)
    fig, art = figure_once(_ball_figure)
    ax, bx = art["axes"]
    art["y"].set_data(run["t"], run["y"])
    ax.set_ylim(_padded(steady_limits([0.0, run["y"].max()])))
    art["p"].set_data(run["t"], run["momentum"][:, 1])
    bx.set_ylim(_padded(steady_limits(np.concatenate([[0.0], run["momentum"][:, 1]]))))
    text = (f"first impact at t = {run['t'][k]:.3f} s: momentum {before:+.3f} → {after:+.3f} kg m/s "
            f"(e = {restitution:.2f}); ground impulse = {after - before:+.3f} N s")
    return View(fig, text)


# ---------------------------------------------------------------- friction cones


def _cone_figure():
    fig, ax = new_figure(size=(4.6, 4.2))
    art = {"ax": ax, "circle": ax.plot([0, 1], [0, 1], "k", lw=1.5, label="exact cone ‖f_t‖ ≤ μ f_n")[0],
           "pyramids": [ax.add_patch(Polygon(np.zeros((3, 2)), closed=True, fill=False, ec=color, lw=1.5,
                                             label=f"{name} 4-face pyramid"))
                        for name, color in (("inscribed", "tab:green"), ("circumscribed", "tab:red"))]}
    planar_axes(ax, 1.0, xlabel="f_x / f_n", ylabel="f_y / f_n")
    art["legend"] = ax.legend(fontsize=8, loc="upper right")
    animate(art["circle"], *art["pyramids"], art["legend"])
    return fig, art


def friction_cone_view(mu: float = 0.5, n_faces: int = 4) -> View:
    """Section of the friction cone at f_n = 1 N: exact circle, inscribed and circumscribed pyramids."""
    fig, art = figure_once(_cone_figure)
    phi = np.linspace(0.0, 2.0 * np.pi, 361)
    art["circle"].set_data(mu * np.cos(phi), mu * np.sin(phi))
    for k, inscribed in enumerate((True, False)):
        A = friction_pyramid(mu, n_faces, inscribed)[:-1]
        # vertices of the k-gon: intersections of neighbouring faces
        th = 2.0 * np.pi * (np.arange(n_faces) + 0.5) / n_faces
        r = -A[0, 2] / np.cos(np.pi / n_faces)
        art["pyramids"][k].set_xy(np.c_[r * np.cos(th), r * np.sin(th)])
        art["legend"].get_texts()[k + 1].set_text(("inscribed" if inscribed else "circumscribed") + f" {n_faces}-face pyramid")
    lim = 1.55 * max(mu, 0.05)
    art["ax"].set(xlim=(-lim, lim), ylim=(-lim, lim))
    e_in, e_out = pyramid_worst_case_error(n_faces, True), pyramid_worst_case_error(n_faces, False)
    text = (f"μ = {mu:.2f}, {n_faces} faces: inscribed loses up to {100 * e_in:.1f} % (mid-face), "
            f"circumscribed admits up to +{100 * e_out:.1f} % (corners)")
    return View(fig, text)


# ---------------------------------------------------------------- contact-force distribution


def standing_body(com_x: float, com_y: float, push_x: float = 0.0):
    """(points (4, 3), wrench (6,)) that the feet must supply for the body to stand still:
    weight m g at the CoM (com_x, com_y, 0.45) plus a horizontal push push_x [N] there."""
    com = np.array([com_x, com_y, COM_HEIGHT])
    F = np.array([-push_x, 0.0, STANDING_MASS * G])     # the ground balances weight and push
    return STANDING_POINTS, np.concatenate([F, np.cross(com, F)])


def _all_distributions(points, wrench, mu):
    out = {}
    for label, (n_faces, norm) in zip(NORMS, ((8, "l2"), (None, "l2"), (8, "l1"), (8, "linf"))):
        try:
            out[label] = distribute_contact_forces(points, wrench, mu, n_faces, norm)
        except ValueError as err:
            out[label] = str(err)
    return out


def _distribution_figure(points):
    points = np.array(points)
    fig, (ax, bx) = new_figure(1, 2, size=(9.0, 3.8))
    ax.add_patch(Polygon(points[[0, 2, 3, 1], :2], closed=True, fc="0.9", ec="0.5"))
    art = {"com": ax.plot([0.0], [0.0], "o", color="tab:blue", ms=8, label="CoM")[0],
           "discs": [ax.add_patch(Circle(p[:2], 0.06, fc="tab:orange", alpha=0.5)) for p in points],
           "arrows": [arrow(ax, p[:2], p[:2], color="k", lw=1.0) for p in points]}
    planar_axes(ax, 0.6, xlabel="x [m]", ylabel="y [m]")
    ax.set_title("support polygon, f_z (discs) and f_t (arrows), SOCP", fontsize=8)
    width = 0.2
    art["bars"] = [bx.bar(np.arange(4) + (j - 1.5) * width, [0.0] * 4, width, label=label.split(" (")[0])
                   for j, label in enumerate(NORMS)]
    bx.set_xticks(range(4), LEGS)
    bx.set_ylabel("normal force f_z [N]")
    bx.set_ylim(0, STANDING_MASS * G)
    art["legend"] = bx.legend(fontsize=8, loc="upper right")
    animate(art["com"], *art["discs"], *art["arrows"], *[b for bars in art["bars"] for b in bars], art["legend"])
    return fig, art


def force_distribution_view(com_x: float = 0.1, com_y: float = 0.05, mu: float = 0.6, push_x: float = 0.0) -> View:
    """Four feet carrying a 30 kg body: forces by the ℓ2 QP, the exact-cone SOCP, the ℓ1 and ℓ∞ LPs."""
    points, wrench = standing_body(com_x, com_y, push_x)
    sol = _all_distributions(points, wrench, mu)
    fig, art = figure_once(_distribution_figure, tuple(map(tuple, points)))
    feasible = not isinstance(sol[NORMS[1]], str)
    art["com"].set_data([com_x], [com_y])
    art["com"].set_color("tab:blue" if feasible else "tab:red")
    for k, (p, disc, patch) in enumerate(zip(points, art["discs"], art["arrows"])):
        disc.set_visible(feasible)
        patch.set_visible(feasible)
        if feasible:
            fi = sol[NORMS[1]][k]
            disc.set_radius(0.06 * fi[2] / (STANDING_MASS * G / 4))
            patch.set_positions(tuple(p[:2]), tuple(p[:2] + fi[:2] / 200.0))
    for label, bars in zip(NORMS, art["bars"]):
        solved = not isinstance(sol[label], str)
        for k, bar in enumerate(bars):
            bar.set_visible(solved)
            bar.set_height(sol[label][k, 2] if solved else 0.0)
    art["legend"].set_visible(feasible)
    lines = [f"CoM ({com_x:+.2f}, {com_y:+.2f}) m, push {push_x:+.1f} N, μ = {mu:.2f}"]
    for label in NORMS:
        f = sol[label]
        if isinstance(f, str):
            lines.append(f"{label}: infeasible — the CoM/push cannot be balanced (reported by the solver)")
        else:
            fz = np.array2string(f[:, 2], precision=2, floatmode="fixed")
            lines.append(f"{label}: f_z = {fz} N, ‖f‖² = {np.sum(f**2):.1f}, ‖f‖₁ = {np.abs(f).sum():.1f}, "
                         f"‖f‖∞ = {np.abs(f).max():.2f}, contacts carrying load = {int((f[:, 2] > 1e-6).sum())}")
    return View(fig, "\n".join(lines))

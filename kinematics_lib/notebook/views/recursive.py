"""Chapter 5 views: the forces of the Newton-Euler inward pass on a two-link arm, and the measured
complexity of the recursive algorithms on a log-log plot."""

from __future__ import annotations

import numpy as np
from matplotlib.ticker import NullLocator

from ..benchmarking import ScalingTable
from ...arms.dh import planar_arm
from ...documents import doc003
from ...dynamics.newton_euler_3d import DHArm, newton_euler_terms
from ..plotting import arrow, draw_chain, new_figure, steady_limits, update_chain
from ..widgets import View, animate, figure_once, fmt, slider_labels

__all__ = ["two_link_arm", "arm_forces_view", "complexity_view"]

FORCE_SCALE = 0.025  # metres of arrow per newton


def two_link_arm(L1: float = 1.0, L2: float = 0.8, m1: float = 2.0, m2: float = 1.5) -> DHArm:
    """A planar two-link arm of uniform rods in a vertical plane (gravity -y), standard DH.

    Frame {i} sits at the far end of rod i, so its CoM is at (-L_i / 2, 0, 0) in {i} and
    I_ci = diag(0, m L^2 / 12, m L^2 / 12).
    """
    L, m = np.array([L1, L2]), np.array([m1, m2])
    coms = np.column_stack([-L / 2, np.zeros(2), np.zeros(2)])
    inertias = np.array([np.diag([0.0, mi * Li**2 / 12, mi * Li**2 / 12]) for mi, Li in zip(m, L)])
    return DHArm(planar_arm(L), m, coms, inertias, gravity=(0.0, -9.81, 0.0))


def _forces_figure():
    fig, (ax, bx) = new_figure(1, 2, size=(9.0, 4.2))
    art = {"bx": bx, "chain": draw_chain(ax, np.zeros((3, 2)), animated=True), "coms": [], "arrows": []}
    for i in range(2):
        art["coms"].append(ax.plot([0.0], [0.0], "s", color="tab:purple", ms=6, label="CoM" if i == 0 else None)[0])
        arrows = []
        for color, label in (("tab:red", "f_i (from link i-1)"), ("tab:green", "weight m g"), ("tab:blue", "m a_c")):
            arrows.append(arrow(ax, (0, 0), (0, 1), color=color, lw=1.8))
            ax.plot([], [], color=color, label=label if i == 0 else None)
        art["arrows"].append(arrows)
    ax.set(xlim=(-2.0, 2.0), ylim=(-2.0, 2.0), aspect="equal", xlabel="x [m]", ylabel="y [m]",
           title=f"forces ({FORCE_SCALE * 1000:.0f} mm per N)")
    ax.grid(True, alpha=0.3)
    ax.legend(loc="lower left", fontsize=8)
    x = np.arange(2)
    art["bars"] = [bx.bar(x + 0.2 * (k - 1.5), [1.0, 1.0], width=0.2, label=label)
                   for k, label in enumerate(("g(q)", "C(q, v) v", "M(q) a"))]
    art["bars"].append(bx.bar(x + 0.3, [1.0, 1.0], width=0.2, color="0.3", label="tau (total)"))
    art["doc"], = bx.plot(x + 0.3, [0.0, 0.0], "kx", ms=9, mew=2, label="doc 003 as written")
    bx.axhline(0.0, color="k", lw=0.8)
    bx.set(xticks=x, xticklabels=["joint 1", "joint 2"], ylabel="N m", title="tau = g + C v + M a")
    bx.legend(fontsize=8, loc="upper right")
    animate(*art["coms"], *[a for arrows in art["arrows"] for a in arrows], *[b for bars in art["bars"] for b in bars],
            art["doc"])
    return fig, art


@slider_labels(q1="q₁ [rad]", q2="q₂ [rad]", v1="q̇₁ [rad/s]", v2="q̇₂ [rad/s]", a1="q̈₁ [rad/s²]",
               a2="q̈₂ [rad/s²]")
def arm_forces_view(q1: float = 0.6, q2: float = 0.9, v1: float = 0.0, v2: float = 0.0,
                    a1: float = 0.0, a2: float = 0.0) -> View:
    """The inward pass on :func:`two_link_arm`: forces f_i on each link from the previous one
    (at joint i), the weights and inertial forces m a_c at the CoMs, and tau split into
    gravity g(q), velocity terms C(q, v) v and M(q) a -- each an RNEA call with some inputs
    zeroed -- beside document 003's torques as written (see :func:`doc003.ne`)."""
    arm = two_link_arm()
    q, v, a = np.array([q1, q2]), np.array([v1, v2]), np.array([a1, a2])
    t = newton_euler_terms(arm, q, v, a)
    g = newton_euler_terms(arm, q, 0 * v, 0 * a).tau
    h = newton_euler_terms(arm, q, v, 0 * a).tau
    doc = doc003.ne(arm, q, v, a)
    fig, art = figure_once(_forces_figure)
    update_chain(art["chain"], t.origins[:, :2])
    for i in range(2):
        c, o = t.coms[i, :2], t.origins[i, :2]
        art["coms"][i].set_data([c[0]], [c[1]])
        for patch, (start, vec) in zip(art["arrows"][i], ((o, t.f[i, :2]), (c, arm.masses[i] * arm.gravity[:2]),
                                                          (c, t.F[i, :2]))):
            patch.set_positions(tuple(start), tuple(start + FORCE_SCALE * vec))
    parts = np.array([g, h - g, t.tau - h])
    for bars, vals in zip(art["bars"], (*parts, t.tau)):
        for bar, v in zip(bars, vals):
            bar.set_height(v)
    art["doc"].set_ydata(doc)
    art["bx"].set_ylim(steady_limits(np.concatenate([parts.ravel(), t.tau, doc]), symmetric=True))
    lines = [f"q = ({fmt(q1, 2)}, {fmt(q2, 2)}) rad, v = ({fmt(v1, 2)}, {fmt(v2, 2)}) rad/s, "
             f"a = ({fmt(a1, 2)}, {fmt(a2, 2)}) rad/s^2"]
    for i in range(2):
        lines.append(f"joint {i + 1}: tau = {fmt(t.tau[i])} N m = g {fmt(g[i])} + C v {fmt(h[i] - g[i])} "
                     f"+ M a {fmt(t.tau[i] - h[i])};  doc 003 as written {fmt(doc[i])}")
    for i in range(2):
        lines.append(f"f{i + 1} (on link {i + 1} from {'the base' if i == 0 else 'link 1'}) = "
                     f"({fmt(t.f[i, 0])}, {fmt(t.f[i, 1])}) N")
    numbers = dict(tau=t.tau, g=g, C_v=h - g, M_a=t.tau - h, doc003=doc, f=t.f[:, :2])
    return View(fig, "\n".join(lines), numbers)


def complexity_view(table: ScalingTable, n_min: int = 8) -> View:
    """Log-log plot of seconds per call against the number of bodies, with the least-squares
    lines fitted over n >= n_min and their slopes (the measured exponents) in the legend."""
    fig, ax = new_figure(size=(6.5, 4.2))
    slopes = {}
    for name, t in table.times.items():
        # the fit rounded to 9 digits: its last bits depend on the BLAS kernel (lstsq), and the
        # lines of stored timings are the same picture on every machine
        k = float(f"{table.slope(name, n_min):.9g}")
        keep = table.ns >= n_min
        c = float(f"{np.exp(np.mean(np.log(t[keep]) - k * np.log(table.ns[keep]))):.9g}")
        (line,) = ax.loglog(table.ns, t * 1e6, "o", label=f"{name}: slope {k:.2f}")
        ax.loglog(table.ns[keep], c * table.ns[keep] ** k * 1e6, "-", color=line.get_color(), alpha=0.7)
        slopes[name] = k
    ax.set(xlabel="bodies n", ylabel="time per call [us]", title=f"measured complexity (fit over n >= {n_min})")
    ax.set_xticks(table.ns, [str(n) for n in table.ns])
    ax.xaxis.set_minor_locator(NullLocator())
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    text = f"fitted slopes (n >= {n_min}): " + ", ".join(f"{k} {v:.2f}" for k, v in slopes.items())
    return View(fig, text)

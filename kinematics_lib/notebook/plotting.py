"""Drawing primitives shared by the chapter views: arms with their frames, ellipses, time series.

Figures are created with ``matplotlib.figure.Figure`` (not pyplot), so nothing is shown twice
and nothing global is touched; a notebook displays a figure by returning it (or a ``View``).
"""

from __future__ import annotations

import math

import numpy as np
from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch
from matplotlib.ticker import MaxNLocator

from ..arms.dh import DHRobot, dh_frames
from .widgets import DPI

__all__ = [
    "new_figure",
    "curves_figure",
    "show_curves",
    "arrow",
    "draw_frame",
    "draw_frames",
    "draw_chain",
    "draw_arm",
    "update_arm",
    "update_chain",
    "arm_points",
    "draw_ellipse",
    "ellipse_points",
    "planar_axes",
    "is_planar",
    "set_equal_3d",
    "frame_label_groups",
    "steady_limits",
    "magnitude_image",
    "MIN_FONT_PT",
    "text_sizes_px",
]

#: Smallest font size in points of any text in a figure: at the figures' DPI (90) it is 10 px at
#: 100 % zoom (px = pt x dpi / 72); ``tests/test_views_figures.py`` checks every chapter's figures.
MIN_FONT_PT = 8.0

AXIS_COLORS = ("tab:red", "tab:green", "tab:blue")


def new_figure(nrows: int = 1, ncols: int = 1, size=(6.0, 4.0), projection: str | None = None):
    """(fig, axes): a new standalone figure (constrained layout); ``projection='3d'`` for 3-D
    axes. axes is a single Axes for 1x1, else an array. A slider view calls it inside the build
    function it gives :func:`~kinematics_lib.notebook.widgets.figure_once`, so a widget builds
    its figure once."""
    fig = Figure(figsize=size, dpi=DPI, layout="constrained")
    kw = {"projection": projection} if projection else {}
    axes = [fig.add_subplot(nrows, ncols, k + 1, **kw) for k in range(nrows * ncols)]
    return fig, axes[0] if len(axes) == 1 else np.array(axes).reshape(nrows, ncols).squeeze()


def curves_figure(size=(6.5, 3.6), styles=(), reference: float | None = None, legend: dict | None = None,
                  zero_v: bool = False, **axes):
    """(fig, artists) of a figure of curves for :func:`~kinematics_lib.notebook.widgets.figure_once`:
    one animated line per style (a dict of ``plot`` keywords, with its legend label), an
    animated title and legend (its texts may change with the sliders), a horizontal reference
    line at ``reference`` (dotted, solid at 0), a vertical line at 0 with ``zero_v``, a light
    grid; ``axes`` go to ``ax.set`` (labels, fixed limits). Update it with :func:`show_curves`."""
    fig, ax = new_figure(size=size)
    lines = [ax.plot([], [], animated=True, **style)[0] for style in styles]
    if reference is not None:
        ax.axhline(reference, color="k", lw=0.6, ls=":" if reference else "-")
    if zero_v:
        ax.axvline(0.0, color="k", lw=0.6)
    ax.set(**axes)
    ax.grid(True, alpha=0.3)
    art = {"ax": ax, "lines": lines, "title": ax.set_title(" ")}
    art["title"].set_animated(True)
    if legend is not None:
        art["legend"] = ax.legend(fontsize=8, **legend)
        art["legend"].set_animated(True)
    return fig, art


def show_curves(art: dict, curves, title: str | None = None, labels=None) -> None:
    """Put (x, y) curves on the lines of :func:`curves_figure` in order; set the title and,
    given ``labels``, the legend's texts."""
    for line, (x, y) in zip(art["lines"], curves):
        line.set_data(x, y)
    if title is not None:
        art["title"].set_text(title)
    for text, label in zip(art["legend"].get_texts() if labels else (), labels or ()):
        text.set_text(label)


def _is_3d(ax) -> bool:
    return getattr(ax, "name", "") == "3d"


def arrow(ax, start, end, color: str = "k", lw: float = 1.5, linestyle: str = "-", alpha: float | None = None):
    """A 2-D arrow from ``start`` to ``end`` in data coordinates, drawn like
    ``ax.annotate("", xy=end, xytext=start, arrowprops=dict(arrowstyle="->", ...))`` but as
    one patch without the empty Text, from point to point (no shrinking, no Bezier clipping)
    and, like an annotation, outside the data limits: a third of the cost to build and draw."""
    patch = FancyArrowPatch(tuple(np.asarray(start, dtype=float)[:2]), tuple(np.asarray(end, dtype=float)[:2]),
                            arrowstyle="->", mutation_scale=10, shrinkA=0.0, shrinkB=0.0, color=color, lw=lw,
                            linestyle=linestyle, alpha=alpha)
    ax.add_artist(patch)
    return patch


def draw_frame(ax, T, length: float = 0.1, label: str | None = None) -> None:
    """Draw the x (red), y (green), z (blue, 3-D only) axes of pose T (4, 4) on ax."""
    T = np.asarray(T, dtype=float)
    o = T[:3, 3]
    for k in range(3 if _is_3d(ax) else 2):
        tip = o + length * T[:3, k]
        if _is_3d(ax):
            ax.plot(*zip(o, tip), color=AXIS_COLORS[k], lw=1.5)
        else:
            arrow(ax, o, tip, color=AXIS_COLORS[k], lw=1.3)
    if label:
        if _is_3d(ax):
            ax.text(*o, f" {label}", fontsize=8)
        else:
            ax.text(o[0], o[1], f" {label}", fontsize=8, va="bottom")


def draw_frames(ax, Ts, length: float = 0.1) -> None:
    """Draw the axes of every pose in Ts (k, 4, 4) like :func:`draw_frame` (x red, y green, z blue
    in 3-D), as one line per colour broken between frames -- three artists, however many frames."""
    Ts = np.asarray(Ts, dtype=float)
    if not _is_3d(ax):
        for T in Ts:
            draw_frame(ax, T, length)
        return
    o = Ts[:, :3, 3]
    for k in range(3):
        seg = np.stack([o, o + length * Ts[:, :3, k], np.full_like(o, np.nan)], axis=1).reshape(-1, 3)
        ax.plot(seg[:, 0], seg[:, 1], seg[:, 2], color=AXIS_COLORS[k], lw=1.5)


def draw_chain(ax, points, color: str = "0.25", lw: float = 4.0, end_marker: str = "o",
               animated: bool = False) -> list:
    """Draw a chain of links through ``points`` (k, 2) or (k, 3): joints as circles, tip marked.
    Returns its three lines (links, joints, tip) for :func:`update_chain`."""
    P = np.asarray(points, dtype=float)
    if _is_3d(ax):
        lines = [ax.plot(P[:, 0], P[:, 1], P[:, 2], "-", color=color, lw=lw, solid_capstyle="round")[0],
                 ax.plot(P[:-1, 0], P[:-1, 1], P[:-1, 2], "o", ms=5.5, mfc="white", mec="k")[0],
                 ax.plot(*P[-1:].T, end_marker, ms=6.3, color="tab:orange")[0]]
    else:
        lines = [ax.plot(P[:, 0], P[:, 1], "-", color=color, lw=lw, solid_capstyle="round", zorder=2)[0],
                 ax.plot(P[:-1, 0], P[:-1, 1], "o", ms=7, mfc="white", mec="k", zorder=3)[0],
                 ax.plot(P[-1, 0], P[-1, 1], end_marker, ms=7, color="tab:orange", zorder=4)[0]]
    for line in lines:
        line.set_animated(animated)
    return lines


def update_chain(lines, points) -> None:
    """Move the chain drawn by :func:`draw_chain` to ``points`` (same dimension)."""
    P = np.asarray(points, dtype=float)
    for line, part in zip(lines, (P, P[:-1], P[-1:])):
        if P.shape[1] == 3:
            line.set_data_3d(part[:, 0], part[:, 1], part[:, 2])
        else:
            line.set_data(part[:, 0], part[:, 1])


def is_planar(robot: DHRobot) -> bool:
    """True when every joint axis stays along world z at q = 0 and the arm lies in z = 0."""
    frames = dh_frames(robot, np.zeros(robot.n))
    return bool(np.allclose(frames[:, :3, 2], [0.0, 0.0, 1.0]) and np.allclose(frames[:, 2, 3], 0.0)
                and np.allclose(robot.T_tool[2, 3], 0.0))


def set_equal_3d(ax, points, margin: float = 0.1, step: float | None = None) -> None:
    """Equal scaling on 3-D axes around ``points`` (k, 3). With ``step`` the centre and the
    half-width are rounded to multiples of it (the cube still holds the points), so a slider
    view keeps its axes -- and the widget redraws only the data -- until the arm leaves the cube."""
    P = np.asarray(points, dtype=float)
    center = 0.5 * (P.max(axis=0) + P.min(axis=0))
    half = 0.5 * max(float(np.ptp(P, axis=0).max()), 1e-3) + margin
    if step:
        center = np.round(center / step) * step
        half = step * math.ceil(float(np.max(np.maximum(P.max(axis=0) - center, center - P.min(axis=0))) + margin) / step)
    ax.set_xlim(center[0] - half, center[0] + half)
    ax.set_ylim(center[1] - half, center[1] + half)
    ax.set_zlim(center[2] - half, center[2] + half)
    ax.set_box_aspect((1, 1, 1))


def arm_points(robot: DHRobot, q) -> np.ndarray:
    """The polyline of an arm drawing (n + 2, 3): origins of DH frames 0..n, then the tool point."""
    Ts = dh_frames(robot, q)
    return np.vstack([Ts[:, :3, 3], (Ts[-1] @ robot.T_tool)[:3, 3]])


def steady_limits(values, symmetric: bool = False, floor: float = 1e-3) -> tuple[float, float]:
    """Axis limits covering ``values``, rounded out to a multiple of a round step (1, 2 or 5
    times a power of ten, at most 5 steps over the span): they change only when the data cross
    a round number, so a slider view keeps its axes (and the widget redraws only the data)
    instead of rescaling at every move. ``symmetric``: (-m, m). ``floor``: smallest half-span."""
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    lo, hi = (float(v.min()), float(v.max())) if v.size else (-1.0, 1.0)
    if symmetric:
        hi = max(abs(lo), abs(hi), floor)
        lo = -hi
    if hi - lo < 2 * floor:
        lo, hi = 0.5 * (lo + hi) - floor, 0.5 * (lo + hi) + floor
    span = hi - lo
    step = 10.0 ** math.floor(math.log10(span))
    for k in (0.2, 0.5, 1.0, 2.0, 5.0):
        if span / (k * step) <= 5:
            step *= k
            break
    return math.floor(lo / step) * step, math.ceil(hi / step) * step


def magnitude_image(ax, M, decades: int = 6, rtol: float = 1e-12, cmap: str = "viridis"):
    """Heat map of log10 |M_ij| of a matrix over a fixed range of ``decades`` below the power of
    ten above max |M|; entries at most ``rtol`` max |M| -- zero up to round-off, and exact zeros --
    are white, entries between that and the bottom of the range take its colour. Returns the image
    (for a colour bar) and the number of white entries.

    Round-off (1e-17 where the exact value is 0) depends on the order of floating-point operations
    (the BLAS kernel of the machine, a refactored algorithm): a colour scale set by the smallest
    entry would change the picture from one machine or version to the next. Here neither the range
    nor the colour of any entry depends on round-off."""
    A = np.abs(np.asarray(M, dtype=float))
    top = float(A.max()) if A.size else 0.0
    zero = A <= rtol * top
    vmax = math.ceil(math.log10(top)) if top > 0.0 else 0.0
    image = ax.imshow(np.where(zero, np.nan, np.log10(np.where(zero, 1.0, A))), cmap=cmap,
                      vmin=vmax - decades, vmax=vmax, interpolation="nearest")
    return image, int(zero.sum())


def text_sizes_px(fig) -> list[tuple[str, float]]:
    """(text, height of its font in pixels) of every visible, non-empty text of ``fig`` (titles,
    axis and tick labels, legend entries, annotations, colour-bar labels): font size in points x
    the figure's dpi / 72, as shown at 100 % zoom. Draw the figure first (tick labels exist then)."""
    from matplotlib.text import Text

    out = []
    for t in fig.findobj(Text):
        if t.get_visible() and t.get_text().strip():
            out.append((t.get_text(), float(t.get_fontsize()) * fig.dpi / 72.0))
    return out


def frame_label_groups(origins, names, tol: float):
    """[(names, origin)]: frames whose origins lie within ``tol`` of each other share one label
    ("{4,5,6}" at a spherical wrist), so coincident labels never overprint."""
    groups: list[tuple[list[str], np.ndarray]] = []
    for name, o in zip(names, np.asarray(origins, dtype=float)):
        for members, first in groups:
            if np.linalg.norm(o - first) <= tol:
                members.append(name)
                break
        else:
            groups.append(([name], o))
    return groups


def draw_arm(ax, robot: DHRobot, q, frames: bool = True, frame_length: float | None = None,
             color: str = "0.25", reach: float | None = None, animated: bool = False) -> dict:
    """Draw a DH arm at q (links through the frame origins, plus the tool point, with its frames
    {0}..{n} and E); return its artists for :func:`update_arm` (``animated=True`` in a slider
    view's build function).

    On 2-D axes the x-y projection is drawn; on 3-D axes the arm in space (set the limits with
    :func:`set_equal_3d` over the arm's reach).
    """
    size = reach or max(float(np.abs(robot.a).sum() + np.abs(robot.d).sum()), 1e-3)
    art = {"robot": robot, "size": size, "length": frame_length or 0.15 * size, "frames": None, "labels": []}
    dim = 3 if _is_3d(ax) else 2
    art["chain"] = draw_chain(ax, np.zeros((robot.n + 2, dim)), color=color, animated=animated)
    if frames:
        if dim == 3:
            art["frames"] = [ax.plot([0, 0], [0, 0], [0, 0], color=c, lw=1.5, animated=animated)[0] for c in AXIS_COLORS]
            art["labels"] = [ax.text(0, 0, 0, "", fontsize=10, animated=animated) for _ in range(robot.n + 2)]
        else:
            art["frames"] = [ax.plot([0, 0], [0, 0], color=c, lw=1.3, animated=animated)[0] for c in AXIS_COLORS[:2]]
            art["labels"] = [ax.text(0, 0, "", fontsize=10, va="bottom", animated=animated) for _ in range(robot.n + 2)]
    if dim == 3:
        for axis in (ax.xaxis, ax.yaxis, ax.zaxis):  # five ticks a side: readable, and half the text to draw
            axis.set_major_locator(MaxNLocator(5))
        ax.set_xlabel("x [m]")
        ax.set_ylabel("y [m]")
        ax.set_zlabel("z [m]")
    else:
        planar_axes(ax, 1.1 * size)
    update_arm(art, q)
    return art


def update_arm(art: dict, q) -> np.ndarray:
    """Move an arm drawn by :func:`draw_arm` to joint angles q; return its DH frames. On 3-D
    axes the cube follows the arm in steps of a fifth of its size (steady while q moves a little)."""
    robot, length = art["robot"], art["length"]
    Ts = dh_frames(robot, q)
    T_E = Ts[-1] @ robot.T_tool
    points = arm_points(robot, q)
    ax = art["chain"][0].axes
    dim = 3 if _is_3d(ax) else 2
    update_chain(art["chain"], points[:, :dim])
    if art["frames"] is not None:
        F = np.concatenate([Ts, T_E[None]])
        o = F[:, :3, 3]
        for k, line in enumerate(art["frames"]):
            seg = np.stack([o, o + length * F[:, :3, k], np.full_like(o, np.nan)], axis=1).reshape(-1, 3)
            if dim == 3:
                line.set_data_3d(seg[:, 0], seg[:, 1], seg[:, 2])
            else:
                line.set_data(seg[:, 0], seg[:, 1])
        names = [str(i) for i in range(len(Ts))] + ["E"]
        # frames closer than 0.7 axis lengths share one label ("{2,3}"): two labels of 10-pt text
        # that close would overprint (the PUMA's frames 2 and 3, 0.15 m apart)
        groups = frame_label_groups(o, names, 0.7 * length)
        for k, label in enumerate(art["labels"]):
            label.set_visible(k < len(groups))
            if k >= len(groups):
                continue
            members, p = groups[k]
            numbered = [m for m in members if m != "E"]
            label.set_text(" " + " ".join(([("{" + ",".join(numbered) + "}")] if numbered else [])
                                          + (["E"] if "E" in members else [])))
            if dim == 3:
                label.set_position_3d(p)
            else:
                label.set_position(p[:2])
    if dim == 3:
        size = art["size"]
        set_equal_3d(ax, np.vstack([points, [[0, 0, 0]]]), margin=0.1 * size, step=0.2 * size)
    return Ts


def planar_axes(ax, lim: float, title: str = "", xlabel: str = "x [m]", ylabel: str = "y [m]") -> None:
    """Square, equal-aspect 2-D axes over [-lim, lim]^2 with a light grid and metre labels."""
    ax.set_xlim(-lim, lim)
    ax.set_ylim(-lim, lim)
    ax.set_aspect("equal")
    ax.grid(True, alpha=0.3)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title, fontsize=9)


def draw_ellipse(ax, center, A, color: str = "tab:purple", label: str | None = None, n: int = 120) -> None:
    """Draw the image of the unit circle under the 2x2 matrix A, centred at ``center``.

    With A = J (a 2x2 planar Jacobian, or J J^T's square root) this is the manipulability
    ellipse: the end-effector velocities reachable with |qdot| <= 1.
    """
    return ax.plot(*ellipse_points(center, A, n), color=color, lw=1.8, label=label)[0]


def ellipse_points(center, A, n: int = 120) -> np.ndarray:
    """(2, n) points of the image of the unit circle under the 2x2 matrix A, centred at ``center``
    (the data of :func:`draw_ellipse`, for ``set_data`` in a slider view)."""
    t = np.linspace(0.0, 2.0 * np.pi, n)
    return np.asarray(center, dtype=float)[:2, None] + np.asarray(A, dtype=float) @ np.vstack([np.cos(t), np.sin(t)])

"""Chapter 8 views: ANYmal B in 3-D with its contact forces, the stance slider, the mass-matrix
heat map, the leg-IK workspace slice and the landing plots."""

from __future__ import annotations

import functools

import numpy as np
from matplotlib.colors import ListedColormap
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from ...documents import doc000
from ...dynamics.algorithms import crba
from ...dynamics.centroidal import center_of_mass
from ...dynamics.frames import forward_kinematics, frame_placement
from ...dynamics.model import Model
from ...dynamics.urdf import anymal_b_urdf, load_urdf
from ...geometry.rotations import rpy_to_matrix
from ...legged.leg_kinematics import leg_foot_position, leg_geometry, leg_ik
from ...legged.shared import planar_leg as _planar
from ...legged.stance import ANYMAL_FEET, ANYMAL_STANCE, stance_configuration, urdf_boxes
from ...legged.statics import static_equilibrium_forces, static_joint_torques, support_polygon
from ..plotting import magnitude_image, new_figure
from ..widgets import View, figure_once, fmt

__all__ = ["anymal", "nominal_stance", "stance", "structure_rows", "draw_robot", "update_robot", "robot_segments", "stance_view",
           "mass_matrix_figure", "workspace_figure", "landing_figure", "doc_leg_lengths", "doc_ik_errors",
           "NOMINAL_HEIGHT"]

FORCE_SCALE = 0.002  # metres of arrow per newton
NOMINAL_HEIGHT = 0.487  # m: base height of the nominal stance with the feet on the ground
LEGS = ("LF", "LH", "RF", "RH")


@functools.lru_cache(maxsize=None)
def anymal() -> Model:
    """The shipped ANYmal B URDF with a floating base (cached: the model is frozen)."""
    return load_urdf(anymal_b_urdf(), floating_base=True)


@functools.lru_cache(maxsize=None)
def _nominal() -> tuple[np.ndarray, np.ndarray]:
    model = anymal()
    q = np.zeros(model.nq)
    q[6] = 1.0
    for f, angles in ANYMAL_STANCE.items():
        q[list(leg_geometry(model, f).q_index)] = angles
    T = forward_kinematics(model, q)
    P = np.array([T[b][:3, :3] @ T_BF[:3, 3] + T[b][:3, 3] for b, T_BF in (model.frames[f] for f in ANYMAL_FEET)])
    q[2] = -P[:, 2].mean()
    P[:, 2] = 0.0
    q.setflags(write=False)
    P.setflags(write=False)
    return q, P


def nominal_stance() -> tuple[np.ndarray, np.ndarray]:
    """(q (19,), P (4, 3)): the nominal stance (:data:`ANYMAL_STANCE`) standing on z = 0, and its footholds."""
    q, P = _nominal()
    return q.copy(), P.copy()


def stance(height: float = NOMINAL_HEIGHT, roll: float = 0.0, pitch: float = 0.0, shift_x: float = 0.0,
           shift_y: float = 0.0, lift: str = "none") -> tuple[np.ndarray, tuple, tuple]:
    """(q, feet on the ground, IK results): the base at (shift_x, shift_y, height) [m] with roll
    and pitch [rad], the feet on the nominal footholds by leg IK; ``lift`` ('LF' ...) raises
    that foot by 8 cm."""
    q_ref, P = nominal_stance()
    feet = tuple(f for f in ANYMAL_FEET if not f.startswith(lift))
    if lift != "none":
        P[ANYMAL_FEET.index(f"{lift}_FOOT"), 2] = 0.08
    q, results = stance_configuration(anymal(), ANYMAL_FEET, P, [shift_x, shift_y, height],
                                      rpy_to_matrix([roll, pitch, 0.0]), q_ref=q_ref)
    return q, feet, results


def structure_rows(model: Model) -> list[str]:
    """The model as a text table: bodies with masses, joints with axes and limits, in q order."""
    rows = [f"{'body':<10}{'joint':<12}{'parent':<10}{'mass [kg]':>10}  {'axis':<16}{'limits [rad]':>16}"]
    for i in range(model.nb):
        parent = "world" if model.parent[i] < 0 else model.body_names[model.parent[i]]
        axis = "free (6 dof)" if model.joint_types[i] == "free" else str(np.round(model.axes[i], 3).tolist())
        lim = "" if model.joint_types[i] == "free" else f"[{model.lower[i]:+.2f}, {model.upper[i]:+.2f}]"
        rows.append(f"{model.body_names[i]:<10}{model.body_joint[i]:<12}{parent:<10}"
                    f"{model.inertia[i, 0, 0]:>10.3f}  {axis:<16}{lim:>16}")
    rows.append(f"total mass {model.total_mass:.3f} kg, nq = {model.nq}, nv = {model.nv}")
    return rows


def _box_edges(size: np.ndarray, T: np.ndarray) -> np.ndarray:
    """(12, 2, 3): the edges of a box of ``size`` at pose T."""
    corners = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]) * size / 2
    corners = corners @ T[:3, :3].T + T[:3, 3]
    pairs = [(a, b) for a in range(8) for b in range(a + 1, 8) if bin(a ^ b).count("1") == 1]
    return np.array([[corners[a], corners[b]] for a, b in pairs])


@functools.lru_cache(maxsize=None)
def _base_boxes() -> tuple:
    return tuple(urdf_boxes(anymal_b_urdf(), "base"))


def robot_segments(model: Model, q, forces=None, feet=ANYMAL_FEET) -> dict:
    """The line segments of the drawing (world, m): 'boxes' (the base's collision boxes), 'legs'
    (joint origins to the feet), 'frame' (the base axes, 0.15 m), 'forces' (FORCE_SCALE m per N),
    and 'joints', 'feet' (points)."""
    T = forward_kinematics(model, q)
    boxes = np.concatenate([_box_edges(size, T[0] @ T_box) for size, T_box in _base_boxes()])
    legs, joints, tips = [], [], []
    for leg in LEGS:
        b, T_BF = model.frames[f"{leg}_FOOT"]
        pts = np.array([T[j][:3, 3] for j in leg_geometry(model, f"{leg}_FOOT").joints] + [(T[b] @ T_BF)[:3, 3]])
        legs += [pts[k:k + 2] for k in range(3)]
        joints += list(pts[:3])
        tips.append(pts[3])
    frame = np.array([[T[0][:3, 3], T[0][:3, 3] + 0.15 * T[0][:3, k]] for k in range(3)])
    arrows = np.zeros((0, 2, 3))
    if forces is not None:
        P = np.array([(T[b] @ T_BF)[:3, 3] for b, T_BF in (model.frames[f] for f in feet)])
        arrows = np.stack([P, P + FORCE_SCALE * np.asarray(forces)], axis=1)
    return {"boxes": boxes, "legs": np.array(legs), "frame": frame, "forces": arrows,
            "joints": np.array(joints), "feet": np.array(tips)}


def draw_robot(ax, model: Model, q, forces=None, feet=ANYMAL_FEET, animated: bool = False) -> dict:
    """ANYmal on 3-D axes (one artist per kind, see :func:`robot_segments`); returns the artists
    so that a slider can update them (:func:`update_robot`; ``animated=True`` in a slider view)."""
    from mpl_toolkits.mplot3d.art3d import Line3DCollection

    seg = robot_segments(model, q, forces, feet)
    art = {"boxes": Line3DCollection(seg["boxes"], colors="0.45", linewidths=0.8),
           "legs": Line3DCollection(seg["legs"], colors=["tab:blue"] * 6 + ["tab:orange"] * 6, linewidths=3),
           "frame": Line3DCollection(seg["frame"], colors=["tab:red", "tab:green", "tab:blue"], linewidths=1.5),
           "forces": Line3DCollection(seg["forces"], colors="tab:green", linewidths=2.2)}
    for a in art.values():
        ax.add_collection3d(a, autolim=False)
    art["joints"], = ax.plot(*seg["joints"].T, "o", color="k", ms=3)
    art["feet"], = ax.plot(*seg["feet"].T, "o", color="k", ms=6)
    for a in art.values():
        a.set_animated(animated)
    ax.set(xlabel="x [m]", ylabel="y [m]", zlabel="z [m]")
    return art


def update_robot(art: dict, model: Model, q, forces=None, feet=ANYMAL_FEET) -> None:
    """Move the artists of :func:`draw_robot` to configuration q with new forces."""
    seg = robot_segments(model, q, forces, feet)
    for name in ("boxes", "legs", "frame", "forces"):
        art[name].set_segments(seg[name])
    for name in ("joints", "feet"):
        art[name].set_data_3d(*seg[name].T)


def _stance_figure() -> tuple:
    """The stance figure (:func:`~kinematics_lib.notebook.widgets.figure_once`: built once per
    widget, a slider only moves its artists)."""
    fig = Figure(figsize=(6.4, 4.6))
    ax = fig.add_subplot(1, 1, 1, projection="3d")
    fig.subplots_adjust(left=0.0, right=1.0, bottom=0.02, top=0.95)
    q, _ = _nominal()
    art = draw_robot(ax, anymal(), q, animated=True)
    art["polygon"], = ax.plot([], [], [], "--", color="tab:purple", lw=1.2, animated=True)
    art["com"], = ax.plot([], [], [], ":", color="k", lw=1, animated=True)
    art["com_ground"], = ax.plot([], [], [], "o", color="tab:purple", ms=7, animated=True)
    ax.set(xlim=(-0.5, 0.5), ylim=(-0.5, 0.5), zlim=(0.0, 0.7))
    ax.set_autoscale_on(False)
    ax.set_box_aspect((1, 1, 0.7))
    ax.view_init(elev=20, azim=-60)
    ax.computed_zorder = False  # the artists' order is theirs, not re-sorted by depth at each full draw
    ax.set_title(f"ANYmal B, forces {FORCE_SCALE * 1000:.0f} mm per N", fontsize=9)
    return fig, ax, art


def _update_support(art: dict, P: np.ndarray, p_G: np.ndarray, inside: bool) -> None:
    hull = support_polygon(P)
    loop = np.vstack([hull, hull[:1]]) if len(hull) else np.zeros((0, 2))
    art["polygon"].set_data_3d(loop[:, 0], loop[:, 1], np.zeros(len(loop)))
    art["com"].set_data_3d([p_G[0], p_G[0]], [p_G[1], p_G[1]], [0.0, p_G[2]])
    art["com_ground"].set_data_3d([p_G[0]], [p_G[1]], [0.0])
    art["com_ground"].set_color("tab:purple" if inside else "tab:red")
    art["com_ground"].set_marker("o" if inside else "X")


def stance_view(height: float = NOMINAL_HEIGHT, roll: float = 0.0, pitch: float = 0.0, shift_x: float = 0.0,
                shift_y: float = 0.0, lift: str = "none") -> View:
    """The stance slider: base height [m], roll and pitch [rad], a base (and CoM) shift [m], one
    foot lifted or none; the feet stay on their footholds by leg IK; the contact forces from
    :func:`static_equilibrium_forces` (mu = 0.7, exact cone) as green arrows, the support
    polygon dashed, the CoM and its ground projection (red X: outside); text: forces, balance,
    joint torques."""
    model = anymal()
    q, feet, results = stance(height, roll, pitch, shift_x, shift_y, lift)
    fig, ax, art = figure_once(_stance_figure)
    p_G = center_of_mass(model, q)
    T = forward_kinematics(model, q)
    P = np.array([(T[b] @ T_BF)[:3, 3] for b, T_BF in (model.frames[f] for f in feet)])
    lines = [f"base at ({fmt(shift_x, 3)}, {fmt(shift_y, 3)}, {fmt(height, 3)}) m, roll {fmt(roll, 2)} rad, "
             f"pitch {fmt(pitch, 2)} rad; {len(feet)} feet on the ground"]
    unreachable = [f for f, r in zip(ANYMAL_FEET, results) if not r.converged]
    if unreachable:
        lines.append(f"leg IK: {', '.join(unreachable)} cannot reach its foothold (status unreachable)")
    try:
        forces = static_equilibrium_forces(model, q, feet, 0.7)
    except ValueError as err:
        forces = None
        lines.append("infeasible: " + str(err).split(": ", 1)[1])
    update_robot(art, model, q, forces, feet)
    _update_support(art, P, p_G, forces is not None)
    if forces is not None:
        tau = static_joint_torques(model, q, feet, forces)
        for f, F in zip(feet, forces):
            lines.append(f"{f}: f = ({fmt(F[0], 2)}, {fmt(F[1], 2)}, {fmt(F[2], 2)}) N")
        total = np.abs(forces.sum(axis=0) + model.total_mass * model.gravity).max()
        lines.append(f"|sum f + m g| < 1e-9 N: {bool(total < 1e-9)}, max |tau| = {np.abs(tau).max():.2f} N m")
    return View(fig, "\n".join(lines), {"feet": feet, "forces": forces, "com": p_G})


def mass_matrix_figure(model: Model, q) -> View:
    """Heat map of log10 |M_ij| over six decades with the base and leg blocks marked; white: zero
    (exactly, between two legs, or up to round-off, |M_ij| <= 1e-12 max |M|, e.g. off the
    diagonal of m I_3). Neither the colours nor the text depend on round-off, so the figure is the
    same on every machine (:func:`~kinematics_lib.notebook.plotting.magnitude_image`)."""
    M = crba(model, q)
    fig, ax = new_figure(size=(5.2, 4.4))
    im, zeros = magnitude_image(ax, M)
    fig.colorbar(im, ax=ax, label="log10 |M_ij|", extend="min")
    for k in (6, 9, 12, 15):
        ax.axhline(k - 0.5, color="0.3", lw=1)
        ax.axvline(k - 0.5, color="0.3", lw=1)
    names = ["base"] + [model.body_joint[i][:2] for i in (1, 4, 7, 10)]
    ax.set(xticks=[2.5, 7, 10, 13, 16], yticks=[2.5, 7, 10, 13, 16], xticklabels=names, yticklabels=names,
           title="M(q) of ANYmal B (white: zero)")
    return View(fig, f"M(q): {M.shape[0]} x {M.shape[1]}, {zeros} zeros up to round-off "
                     f"(|M_ij| <= 1e-12 max |M|, white)", dict(M=M, zeros=zeros))


def _reachable(g, P: np.ndarray) -> np.ndarray:
    """(N,) bool: ``leg_ik(model, foot, p).converged`` for each row p of P (N, 3), base frame, all at
    once: the closed form's two reachability tests (the hip offset fits, |e_z|^2 = |t_perp|^2 - s^2
    >= 0, and the knee's law-of-cosines |cos theta_2| <= 1 on a hip branch) with its tolerances;
    ``tests/test_views_anymal.py`` checks it against ``leg_ik`` on a grid."""
    b1, b2, L1, L2, _, _ = _planar(g)
    n = g.R_HF @ g.a2
    e = np.cross(g.a1, n)
    s = n @ (g.p_HF + g.R_HF @ (g.p_FK + g.R_FK @ g.c_K))
    t = (P - g.p_BH) @ g.R_BH                     # R_BH^T (p - p_BH), row-wise
    x_t = t @ g.a1
    r_t = t - x_t[:, None] * g.a1
    ez2 = np.einsum("ij,ij->i", r_t, r_t) - s * s
    hip_ok = ez2 >= -1e-12 * max(1.0, s * s)
    ok = np.zeros(len(P), bool)
    for sign in (1.0, -1.0):
        r0 = s * n + sign * np.sqrt(np.maximum(ez2, 0.0))[:, None] * e
        v = (x_t[:, None] * g.a1 + r0 - g.p_HF) @ g.R_HF   # R_HF^T (...), row-wise
        r = np.hypot(v @ b1, v @ b2)
        scale = np.maximum(np.maximum(r, L1), L2)
        c2 = ((r / scale) ** 2 - (L1 / scale) ** 2 - (L2 / scale) ** 2) / (2.0 * (L1 / scale) * (L2 / scale))
        ok |= hip_ok & (np.abs(c2) <= 1.0 + 1e-12)
    return ok


def _leg_configurations(model: Model, g, Q_leg: np.ndarray) -> np.ndarray:
    """(N, nq): the base at the origin (identity quaternion), the leg at Q_leg (N, 3), the rest 0."""
    Q = np.zeros((len(Q_leg), model.nq))
    Q[:, 6] = 1.0
    Q[:, list(g.q_index)] = Q_leg
    return Q


@functools.lru_cache(maxsize=4)
def _workspace(foot: str, y: float, n: int):
    model = anymal()
    g = leg_geometry(model, foot)
    xs = np.linspace(g.p_BH[0] - 0.6, g.p_BH[0] + 0.6, n)
    zs = np.linspace(-0.7, 0.3, n)
    X, Z = np.meshgrid(xs, zs)                    # [i, j] = (zs[i], xs[j])
    P = np.stack([X.ravel(), np.full(X.size, y), Z.ravel()], axis=1)
    reach = _reachable(g, P)
    l_hip, l1, l2 = float(np.linalg.norm(g.p_HF)), abs(g.p_FK[2]), float(np.hypot(g.c_K[0], g.c_K[2]))
    idx, Q_doc = [], []
    for k in np.flatnonzero(reach):
        try:
            Q_doc.append(doc000.leg_ik(P[k] - g.p_BH, l_hip, l1, l2))
            idx.append(k)
        except ValueError:
            pass
    err = np.full(len(P), np.nan)
    if idx:  # the feet of all the formula's answers in one batched call (base at the origin: B = W)
        T = frame_placement(model, _leg_configurations(model, g, np.array(Q_doc)), foot)
        err[idx] = np.linalg.norm(T[:, :3, 3] - P[idx], axis=1)
    reach, err = reach.reshape(n, n), err.reshape(n, n)
    for a in (xs, zs, reach, err):
        a.setflags(write=False)
    return xs, zs, reach, err


def workspace_figure(foot: str = "LF_FOOT", y: float | None = None, n: int = 61) -> View:
    """A slice of the leg's workspace (the plane y = const in the base frame, through the HFE
    joint by default): reachable points (where leg_ik converges) and the error of document 000's
    formula (run with the leg's own lengths) at each; the text gives the reachable fraction and
    the formula's median error. The grid is computed once per (foot, y, n): reachability by the
    closed form's tests on all points at once, the formula's feet by one batched frame_placement."""
    model = anymal()
    g = leg_geometry(model, foot)
    y = float(g.p_BH[1] + g.p_HF[1] + g.p_FK[1] + g.c_K[1]) if y is None else float(y)
    xs, zs, reach, err = _workspace(foot, y, int(n))
    fig, (ax, bx) = new_figure(1, 2, size=(9.0, 3.8))
    ext = (xs[0], xs[-1], zs[0], zs[-1])
    ax.imshow(reach, origin="lower", extent=ext, cmap="Greens", vmin=0, vmax=1.5)
    ax.set(xlabel="x [m] (base frame)", ylabel="z [m]", title=f"{foot}: reachable at y = {y:.3f} m")
    im = bx.imshow(err * 1000, origin="lower", extent=ext, cmap="magma")
    fig.colorbar(im, ax=bx, label="foot error [mm]")
    # reachable, but the formula cannot be evaluated: the row at the hip's height (q_HAA =
    # atan2(y, 0) = ±90°, and the formula divides by cos q_HAA = 0) and points near the hip
    # (its acos argument leaves [-1, 1]): grey, not white like the unreachable points
    undefined = reach & ~np.isfinite(err)
    bx.imshow(np.where(undefined, 1.0, np.nan), origin="lower", extent=ext, cmap=ListedColormap(["0.6"]))
    if undefined.any():
        bx.legend(handles=[Patch(color="0.6", label="formula undefined\n(cos q_HAA = 0, |acos| > 1)")], loc="lower left",
                  fontsize=8)
    bx.set(xlabel="x [m] (base frame)", title="document 000's formula: foot error")
    text = (f"{foot}, slice y = {y:.3f} m: reachable {reach.mean():.3f} of the grid; document's formula "
            f"evaluable at {np.isfinite(err).sum() / max(reach.sum(), 1):.3f} of those, median error {np.nanmedian(err):.3f} m; "
            f"grey: {int(undefined.sum())} reachable points where it is undefined (at the hip's height it divides by "
            f"cos q_HAA = 0; near the hip its acos argument exceeds 1)")
    return View(fig, text)


def landing_figure(result) -> View:
    """Base height, the feet's normal forces against the static QP's, and the energy of a landing."""
    fig, (ax, bx, cx) = new_figure(1, 3, size=(11.0, 3.4))
    ax.plot(result.t, result.base_height, color="k")
    ax.set(xlabel="t [s]", ylabel="base height [m]", title="base height")
    F = result.forces[:, :, 2]
    spread = float(np.abs(F - F.mean(axis=1, keepdims=True)).max())
    same = spread <= 0.01 * max(float(np.abs(F).max()), 1e-9)  # a symmetric drop: the four curves coincide
    for k, f in enumerate(result.feet):  # wide to thin and four dash styles: coinciding curves stay visible
        line, = bx.plot(result.t, F[:, k], lw=4.0 - k, alpha=0.75, ls=("-", "--", "-.", ":")[k % 4], label=f)
        bx.axhline(result.forces_qp[k, 2], color=line.get_color(), ls=":", lw=1,
                   label="static QP" if k == len(result.feet) - 1 else None)
    bx.set(xlabel="t [s]", ylabel="f_z [N]",
           title="normal forces: the 4 feet coincide" if same else "normal forces (dotted: static QP)")
    bx.legend(fontsize=8, title=f"spread {spread:.1g} N" if same else None, title_fontsize=8)
    cx.plot(result.t, result.energy - result.energy[0], color="tab:red")
    cx.set(xlabel="t [s]", ylabel="E - E(0) [J]", title="kinetic + potential energy")
    for a in (ax, bx, cx):
        a.grid(True, alpha=0.3)
    note = f"; the four feet's normal forces coincide (largest spread {spread:.1g} N)" if same else ""
    return View(fig, "the landing: base height, normal forces against the static QP, energy" + note)



def doc_leg_lengths(model: Model, foot: str) -> dict:
    """The lengths document 000's IK needs, read from the leg: l_hip = |HAA -> HFE| (m), l_thigh
    = the HFE -> KFE distance in the sagittal plane, l_shank = KFE -> foot in that plane."""
    g = leg_geometry(model, foot)
    return {"l_hip": float(np.linalg.norm(g.p_HF)), "l_thigh": float(np.hypot(g.p_FK[0], g.p_FK[2])),
            "l_shank": float(np.hypot(g.c_K[0], g.c_K[2]))}


def doc_ik_errors(model: Model, foot: str, n: int = 200, seed: int = 0, flip: bool = False,
                  l_hip: float | None = None) -> np.ndarray:
    """Foot-position errors (n,) [m] of document 000's formula on targets FK(q) of random q
    (HAA, HFE in +-0.5 rad, the knee 0.3 ... 2 rad bent the formula's way); ``flip`` negates
    the formula's HFE and KFE (for HFE/KFE axes along +y); NaN where it cannot evaluate."""
    g = leg_geometry(model, foot)
    lengths = doc_leg_lengths(model, foot)
    if l_hip is not None:
        lengths["l_hip"] = l_hip
    rng = np.random.default_rng(seed)
    sign = -1.0 if flip else 1.0
    err = np.full(n, np.nan)
    for k in range(n):
        q = np.array([rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5), sign * rng.uniform(0.3, 2.0)])
        p = leg_foot_position(model, foot, q)
        try:
            d = doc000.leg_ik(p - g.p_BH, **lengths)
        except ValueError:
            continue
        err[k] = np.linalg.norm(leg_foot_position(model, foot, d * [1.0, sign, sign]) - p)
    return err

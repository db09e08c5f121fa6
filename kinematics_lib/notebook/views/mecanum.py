"""Chapter 9 views: a mecanum chassis under sliders, sign errors, yaw compensation, odometry drift.

Every view returns ``View(figure, text)``; the text holds the numbers the figure shows. Plots
are top views of the world frame W (x right, y up); the chassis is drawn with its four wheels
and the axles of the rollers touching the ground (the rollers you would see from *below*).
"""

from __future__ import annotations

import numpy as np
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.patches import Polygon

from ...mobile.odometry import chassis_world_to_body, integrate_odometry, simulate_odometry
from ...mobile.wheels import MECANUM_ORDER, chassis_twist, mecanum_layout, mecanum_matrix, roller_axis
from ..plotting import arrow, new_figure, planar_axes, steady_limits
from ..widgets import View, animate, figure_once, fmt, slider_labels

__all__ = ["draw_chassis", "update_chassis", "mecanum_view", "FAULTS", "sign_error_view", "yaw_compensation_view",
           "patrol_twists", "odometry_drift_view", "drift_statistics_view"]

A, B, R = 0.20, 0.15, 0.076          # the chapter's chassis: half length, half width, wheel radius [m]
WHEEL_WIDTH = 0.05
COMMANDS = {"forward": (0.5, 0.0, 0.0), "strafe left": (0.0, 0.5, 0.0), "spin ccw": (0.0, 0.0, 1.0),
            "diagonal": (0.35, 0.35, 0.0)}
#: Faults of sign_error_view: how the motor commands reach the physical wheels FL, FR, RL, RR.
FAULTS = ("FR reversed", "FL reversed", "RL reversed", "RR reversed",
          "source matrix, wheels numbered FL FR RR RL", "no fault")


def _to_world(pose, pts) -> np.ndarray:
    c, s = np.cos(pose[2]), np.sin(pose[2])
    return np.asarray(pts) @ np.array([[c, s], [-s, c]]) + pose[:2]


def _box(cx, cy, hx, hy) -> np.ndarray:
    return np.array([[cx - hx, cy - hy], [cx + hx, cy - hy], [cx + hx, cy + hy], [cx - hx, cy + hy]])


def draw_chassis(ax, pose, half_length=A, half_width=B, wheel_radius=R, color="tab:blue",
                 alpha=1.0, rollers=True, labels=False, mirrored=False, animated=False) -> dict:
    """A mecanum chassis at pose (x, y, ψ): body, wheels, ground-roller axles, heading arrow.
    Returns its artists for :func:`update_chassis` (``animated=True`` in a slider view)."""
    a, b = half_length, half_width
    wheels = mecanum_layout(a, b, wheel_radius, mirrored=mirrored)  # one collection each: 4 wheels, 12 rollers
    shape = {"body": _box(0.0, 0.0, a + 0.3 * wheel_radius, b - 0.6 * WHEEL_WIDTH),
             "wheels": [_box(w.x, w.y, wheel_radius, WHEEL_WIDTH / 2) for w in wheels],
             "rollers": [], "labels": [[w.x * 1.45, w.y * 1.55] for w in wheels] if labels else [],
             "tip": [[0.0, 0.0], [0.8 * a, 0.0]]}
    if rollers:
        for w in wheels:
            e = roller_axis(w) * WHEEL_WIDTH * 0.7
            for dx in np.linspace(-0.6, 0.6, 3) * wheel_radius:
                shape["rollers"].append(np.array([[w.x + dx, w.y], [w.x + dx, w.y]]) + np.array([-e, e]) / 2)
    art = {"shape": shape,
           "body": ax.add_patch(Polygon(shape["body"], closed=True, fc=color, ec="k", alpha=0.25 * alpha, lw=1)),
           "wheels": ax.add_collection(PolyCollection(shape["wheels"], closed=True, facecolors="0.3", edgecolors="k",
                                                      alpha=alpha, linewidths=0.8), autolim=False),
           "rollers": ax.add_collection(LineCollection(shape["rollers"], colors="gold", linewidths=1.6, alpha=alpha,
                                                       capstyle="round"), autolim=False) if rollers else None,
           "labels": [ax.text(0.0, 0.0, w.name, fontsize=9, ha="center", va="center", alpha=alpha)
                      for w in wheels] if labels else [],
           "tip": arrow(ax, (0.0, 0.0), (0.8 * a, 0.0), color="k", lw=1.0, alpha=alpha)}
    for artist in (art["body"], art["wheels"], art["rollers"], *art["labels"], art["tip"]):
        if artist is not None:
            artist.set_animated(animated)
    update_chassis(art, pose)
    return art


def update_chassis(art: dict, pose) -> None:
    """Move a chassis drawn by :func:`draw_chassis` to pose (x, y, ψ)."""
    pose = np.asarray(pose, dtype=float)
    shape = art["shape"]
    art["body"].set_xy(_to_world(pose, shape["body"]))
    art["wheels"].set_verts([_to_world(pose, box) for box in shape["wheels"]])
    if art["rollers"] is not None:
        art["rollers"].set_segments([_to_world(pose, seg) for seg in shape["rollers"]])
    for text, p in zip(art["labels"], shape["labels"]):
        text.set_position(_to_world(pose, [p])[0])
    tip = _to_world(pose, shape["tip"])
    art["tip"].set_positions(tuple(tip[0]), tuple(tip[1]))


def _path_axes(ax, lim: float) -> None:
    planar_axes(ax, lim, xlabel="x_W [m]", ylabel="y_W [m]")


def _wheel_bars(ax, limit: float, title: str) -> dict:
    """Four animated bars with their value printed at the end (green: rolls forward)."""
    ax.axhline(0.0, color="k", lw=0.8)
    ax.set_ylim(-limit, limit)
    ax.set_ylabel("ω_i [rad/s]")  # short: the long label ran into the middle panel (the title says what ω is)
    ax.set_title(title, fontsize=9)
    art = {"limit": limit, "bars": ax.bar(MECANUM_ORDER, [0.0] * 4),
           "values": [ax.text(k, 0.0, "", ha="center", fontsize=8) for k in range(4)]}
    animate(*art["bars"], *art["values"])
    return art


def _update_wheel_bars(art: dict, w) -> None:
    limit = art["limit"]
    for bar, text, x in zip(art["bars"], art["values"], w):
        bar.set_height(x)
        bar.set_color("tab:green" if x >= 0 else "tab:red")
        text.set_position((text.get_position()[0], x + (1 if x >= 0 else -1) * 0.04 * limit))
        text.set_text(f"{x:+.1f}")
        text.set_verticalalignment("bottom" if x >= 0 else "top")


def _fmt_wheels(w) -> str:
    return "  ".join(f"{n} {fmt(x, 2, sign=True, width=6)}" for n, x in zip(MECANUM_ORDER, w))


def _contact_arrows(ax) -> list:
    """Per wheel three animated arrows (:func:`_update_contact_arrows`)."""
    return [[arrow(ax, (0, 0), (0, 0), lw=1.6, linestyle=ls) for ls in ("-", "-", "--")] for _ in range(4)]


def _update_contact_arrows(arrows, v: np.ndarray, scale: float) -> None:
    """Per wheel: contact velocity v_c (blue) = R ω d (driven, green/red) + free roller part (gold)."""
    for w, patches in zip(mecanum_layout(A, B, R), arrows):
        p = np.array([w.x, w.y])
        v_c = v[:2] + v[2] * np.array([-w.y, w.x])
        e = roller_axis(w)
        free = np.array([-e[1], e[0]])                            # the roller rolls across its axle
        drive, slide = np.linalg.solve(np.column_stack([[1.0, 0.0], free]), v_c)
        parts = ((p, v_c, "tab:blue"), (p, [drive, 0.0], "tab:green" if drive >= 0 else "tab:red"),
                 (p + [drive * scale, 0.0], slide * free, "goldenrod"))
        for patch, (start, vec, color) in zip(patches, parts):
            patch.set_positions(tuple(start), tuple(start + scale * np.asarray(vec)))
            patch.set_color(color)


def _mecanum_figure():
    fig, (cx, ax, bx) = new_figure(1, 3, size=(10.0, 3.9))
    draw_chassis(cx, (0.0, 0.0, 0.0), labels=True)
    art = {"arrows": _contact_arrows(cx)}
    _path_axes(cx, 0.5)
    cx.set_xlabel("x_B [m]")
    cx.set_ylabel("y_B [m]")
    cx.set_title("chassis: v_c = Rω d (green)\n+ roller part (gold)", fontsize=9)
    art["path"], = ax.plot([], [], color="tab:blue", lw=1.5)
    art["ghosts"] = [draw_chassis(ax, (0.0, 0.0, 0.0), alpha=0.2 + 0.2 * k / 4, rollers=False, animated=True)
                     for k in range(4)]
    art["chassis"] = draw_chassis(ax, (0.0, 0.0, 0.0), animated=True)
    _path_axes(ax, 1.6)
    art["title"] = ax.set_title(" \n ", fontsize=9)
    art["wheels"] = _wheel_bars(bx, 45.0, "ω = H v\n(green: rolls forward)")
    animate(*[a for patches in art["arrows"] for a in patches], art["path"], art["title"])
    return fig, art


@slider_labels(v_x="v_x [m/s]", v_y="v_y [m/s]", omega="ω_z [rad/s]", psi="yaw ψ [rad]",
               duration="duration [s]")
def mecanum_view(v_x: float = 0.3, v_y: float = 0.0, omega: float = 0.0, psi: float = 0.0,
                 duration: float = 2.0) -> View:
    """Body twist (v_x, v_y, ω_z) held for ``duration`` s from yaw ψ: contact velocities in the
    chassis frame, the path in the world, and the wheel-speed bars."""
    v = np.array([v_x, v_y, omega], dtype=float)
    w = mecanum_matrix(A, B, R) @ v
    n = 200
    poses = integrate_odometry(np.tile(v, (n, 1)), duration / n, pose0=(0.0, 0.0, psi))
    fig, art = figure_once(_mecanum_figure)
    _update_contact_arrows(art["arrows"], v, scale=0.4)
    art["path"].set_data(poses[:, 0], poses[:, 1])
    for ghost, k in zip(art["ghosts"], (0, n // 4, n // 2, 3 * n // 4)):
        update_chassis(ghost, poses[k])
    update_chassis(art["chassis"], poses[-1])
    art["title"].set_text(f"world: path over {duration:.1f} s\nfrom yaw {psi:+.2f} rad")
    _update_wheel_bars(art["wheels"], w)
    text = (f"v_body = ({v_x:+.2f} m/s, {v_y:+.2f} m/s, {omega:+.2f} rad/s), psi0 = {psi:+.2f} rad\n"
            f"wheel speeds [rad/s]: {_fmt_wheels(w)}\n"
            f"after {duration:.1f} s: x = {fmt(poses[-1, 0], 3, sign=True)} m, y = {fmt(poses[-1, 1], 3, sign=True)} m, "
            f"psi = {fmt(poses[-1, 2], 3, sign=True)} rad")
    return View(fig, text)


def _sign_error_figure():
    fig, (ax, bx) = new_figure(1, 2, size=(9.5, 4.3))
    art = {"intended": ax.plot([], [], "--", color="0.5", label="commanded")[0],
           "actual": ax.plot([], [], color="tab:red", label="actual")[0]}
    art["intended_chassis"] = draw_chassis(ax, (0.0, 0.0, 0.0), color="0.6", alpha=0.35, rollers=False, animated=True)
    art["actual_chassis"] = draw_chassis(ax, (0.0, 0.0, 0.0), color="tab:red", labels=True, animated=True)
    _path_axes(ax, 2.0)
    ax.legend(loc="lower left", fontsize=8)
    art["title"] = ax.set_title(" ", fontsize=9)
    art["wheels"] = _wheel_bars(bx, 12.0, "real wheel speeds")
    animate(art["intended"], art["actual"], art["title"])
    return fig, art


@slider_labels(fault="sign error", command="command", duration="duration [s]")
def sign_error_view(fault: str = FAULTS[0], command: str = "forward", duration: float = 3.0) -> View:
    """The chassis path when a sign error sits between the controller and the wheels.

    The controller computes ω = H v_cmd with the standard H; ``fault`` says how those commands
    reach the wheels. The chassis then moves with the least-squares twist of the real wheel
    speeds (equal slip on every wheel); r is the residual of those speeds.
    """
    if fault not in FAULTS:
        raise ValueError(f"fault must be one of {FAULTS}, got {fault!r}")
    if command not in COMMANDS:
        raise ValueError(f"command must be one of {tuple(COMMANDS)}, got {command!r}")
    H = mecanum_matrix(A, B, R)
    v_cmd = np.array(COMMANDS[command])
    w_cmd = H @ v_cmd
    if fault.startswith("source matrix"):      # rows meant for FL FR RL RR drive FL FR RR RL
        w = w_cmd[[0, 1, 3, 2]]
    else:
        w = w_cmd * np.where([fault == f"{n} reversed" for n in MECANUM_ORDER], -1.0, 1.0)
    v, r = chassis_twist(H, w)
    n = 150
    intended = integrate_odometry(np.tile(v_cmd, (n, 1)), duration / n)
    actual = integrate_odometry(np.tile(v, (n, 1)), duration / n)
    fig, art = figure_once(_sign_error_figure)
    art["intended"].set_data(intended[:, 0], intended[:, 1])
    art["actual"].set_data(actual[:, 0], actual[:, 1])
    update_chassis(art["intended_chassis"], intended[-1])
    update_chassis(art["actual_chassis"], actual[-1])
    art["title"].set_text(f"{command}: {fault}")
    _update_wheel_bars(art["wheels"], w)
    text = (f"command {command}: v_cmd = ({v_cmd[0]:.2f}, {v_cmd[1]:.2f}, {v_cmd[2]:.2f}); fault: {fault}\n"
            f"real wheel speeds [rad/s]: {_fmt_wheels(w)}\n"
            f"actual twist v = ({fmt(v[0], 3, sign=True)} m/s, {fmt(v[1], 3, sign=True)} m/s, {fmt(v[2], 3, sign=True)} rad/s), "
            f"|residual| = {np.linalg.norm(r):.3f} rad/s")
    return View(fig, text)


def _yaw_figure():
    fig, ax = new_figure(size=(5.6, 4.6))
    art = {name: (ax.plot([], [], color=color, label=name, animated=True)[0],
                  draw_chassis(ax, (0.0, 0.0, 0.0), color=color, alpha=0.8, animated=True))
           for name, color in (("compensated", "tab:green"), ("no compensation", "tab:red"))}
    ax.plot([0, 2.0], [0, 0], ":", color="k", lw=1, label="wanted")
    _path_axes(ax, 2.4)
    ax.legend(loc="lower left", fontsize=8)
    return fig, art


@slider_labels(psi="yaw ψ [rad]", omega="ω_z [rad/s]", imu_flipped="IMU mounted upside down",
               duration="duration [s]")
def yaw_compensation_view(psi: float = 0.6, omega: float = 0.0, imu_flipped: bool = False,
                          duration: float = 4.0) -> View:
    """The operator pushes 'forward' = world +x at 0.5 m/s; the chassis starts at yaw ψ and spins at ω.

    Compensated: v_B = R(ψ)^T v_W with the current yaw each 10 ms step (with −ψ if imu_flipped);
    uncompensated: v_W is sent to the wheels as if it were a body command.
    """
    dt, v_w = 0.01, np.array([0.5, 0.0, omega])
    n = int(round(duration / dt))
    yaw = psi + omega * dt * np.arange(n)
    sign = -1.0 if imu_flipped else 1.0
    comp = np.array([chassis_world_to_body(v_w, sign * y) for y in yaw])
    paths = {"compensated": integrate_odometry(comp, dt, (0.0, 0.0, psi)),
             "no compensation": integrate_odometry(np.tile(v_w, (n, 1)), dt, (0.0, 0.0, psi))}
    fig, art = figure_once(_yaw_figure)
    text = [f"push forward (world +x, 0.50 m/s), psi0 = {psi:+.2f} rad, omega = {omega:+.2f} rad/s"
            + (", IMU yaw sign flipped" if imu_flipped else "")]
    for name, P in paths.items():
        art[name][0].set_data(P[:, 0], P[:, 1])
        update_chassis(art[name][1], P[-1])
        heading = fmt(np.degrees(np.arctan2(P[-1, 1], P[-1, 0])), 2, sign=True, width=7)
        text.append(f"{name:>16}: end ({fmt(P[-1, 0], 3, sign=True)}, {fmt(P[-1, 1], 3, sign=True)}) m, direction {heading} deg")
    return View(fig, "\n".join(text))


def patrol_twists(duration: float = 40.0, dt: float = 0.01) -> np.ndarray:
    """A body-twist command (N, 3) that drives, weaves and turns:
    v_x = 0.6 m/s, v_y = 0.3 sin(0.4 t) m/s, ω_z = 0.3 cos(0.2 t) rad/s (yaw swings ±1.5 rad)."""
    t = np.arange(int(round(duration / dt))) * dt
    return np.column_stack([0.6 + 0.0 * t, 0.3 * np.sin(0.4 * t), 0.3 * np.cos(0.2 * t)])


def _drift_figure():
    fig, (ax, bx) = new_figure(1, 2, size=(10.0, 4.2))
    art = {"axes": (ax, bx), "paths": [ax.plot([], [], style, lw=1.3, label=name, animated=True)[0] for style, name in
                                       (("k-", "true"), ("r--", "wheel odometry"), ("g-.", "wheels + IMU yaw"))]}
    ax.set_aspect("equal")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="upper left")
    ax.set_xlabel("x_W [m]")
    ax.set_ylabel("y_W [m]")
    art["errors"] = [bx.plot([], [], "r", label="wheel odometry", animated=True)[0],
                     bx.plot([], [], "g", label="wheels + IMU yaw", animated=True)[0]]
    bx.set_xlabel("t [s]")
    bx.set_ylabel("position error [m]")
    bx.grid(True, alpha=0.3)
    bx.legend(fontsize=8, loc="upper left")
    return fig, art


@slider_labels(slip_std="wheel slip σ [-]", gyro_bias="gyro bias [rad/s]", seed="random seed [-]")
def odometry_drift_view(slip_std: float = 0.03, gyro_bias: float = 0.001, seed: int = 0,
                        duration: float = 40.0) -> View:
    """True path, wheel odometry and wheel + IMU-yaw odometry; position error against time."""
    dt = 0.01
    run = simulate_odometry(mecanum_matrix(A, B, R), patrol_twists(duration, dt), dt=dt, slip_std=slip_std, gyro_bias=gyro_bias, seed=seed)
    fig, art = figure_once(_drift_figure)
    ax, bx = art["axes"]
    for line, P in zip(art["paths"], (run.true, run.wheel, run.fused)):
        line.set_data(P[:, 0], P[:, 1])
    paths = np.vstack([run.true[:, :2], run.wheel[:, :2], run.fused[:, :2]])
    ax.set(xlim=steady_limits(paths[:, 0]), ylim=steady_limits(paths[:, 1]))
    e_w, e_f = run.position_error("wheel"), run.position_error("fused")
    art["errors"][0].set_data(run.t, e_w)
    art["errors"][1].set_data(run.t, e_f)
    bx.set(xlim=(-0.05 * duration, 1.05 * duration), ylim=(0.0, steady_limits([0.0, e_w.max(), e_f.max()])[1]))
    text = (f"slip_std = {slip_std:.3f}, gyro_bias = {gyro_bias:.4f} rad/s, seed = {seed}, {duration:.0f} s\n"
            f"position error, largest over the run: wheel odometry {e_w.max():.3f} m, "
            f"wheels + IMU yaw {e_f.max():.3f} m\n"
            f"final heading error: wheel odometry {np.degrees(run.wheel[-1, 2] - run.true[-1, 2]):+.2f} deg, "
            f"IMU {np.degrees(run.fused[-1, 2] - run.true[-1, 2]):+.2f} deg")
    return View(fig, text)


def drift_statistics_view(t, rms_wheel, rms_fused, n_runs: int) -> View:
    """RMS position error against time (from :func:`~kinematics_lib.mobile.mecanum.odometry_error_rms`)."""
    t, rms = np.asarray(t), {"wheel": np.asarray(rms_wheel), "fused": np.asarray(rms_fused)}
    fig, ax = new_figure(size=(6.0, 3.8))
    ax.plot(t, rms["wheel"], "r", label="wheel odometry")
    ax.plot(t, rms["fused"], "g", label="wheels + IMU yaw")
    ax.set_xlabel("t [s]")
    ax.set_ylabel(f"RMS position error over {n_runs} runs [m]")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    marks = [len(t) // 4, len(t) // 2, 3 * len(t) // 4, len(t) - 1]
    text = "\n".join(f"t = {t[k]:5.1f} s: RMS error wheel odometry {rms['wheel'][k]:.3f} m, "
                     f"wheels + IMU yaw {rms['fused'][k]:.3f} m" for k in marks)
    return View(fig, text)

"""Views of chapter 2 (rigid motions and DH): a 6-joint arm with its DH frames, the two DH
conventions side by side, and the gimbal aiming geometry.

Each ``*_view`` function returns a :class:`~kinematics_lib.notebook.widgets.View` (figure + key numbers).
"""

from __future__ import annotations

import math

import numpy as np

from ... import _validate as check
from ...arms.dh import DHRobot, dh_end_effector, dh_frames, standard_to_modified
from ...arms.gimbal import aim_error, gimbal_yaw_pitch
from ..plotting import draw_arm, new_figure, update_arm
from ...arms.robots import PUMA_SHOULDER_HEIGHT, puma560  # noqa: F401  (re-exported for the chapter)
from ...geometry.rotations import matrix_to_rpy, so3_log
from ..widgets import View, animate, figure_once, fmt, slider_labels

__all__ = ["puma560", "arm_view", "puma560_view", "frames_comparison_view", "gimbal_view"]

def _pose_text(T) -> str:
    return f"p_E = {fmt(T[:3, 3], 4, sign=True, brackets='[]')} m\nrpy_E = {fmt(matrix_to_rpy(T[:3, :3]), 4, sign=True, brackets='[]')} rad (roll, pitch, yaw)"


def _arm_figure(robot: DHRobot, title: str | None):
    fig, ax = new_figure(size=(7.0, 5.7), projection="3d")
    base = robot.T_base[:3, 3]
    ax.plot(*zip([base[0], base[1], 0.0], base), color="0.65", lw=6)  # pedestal
    art = draw_arm(ax, robot, np.zeros(robot.n), animated=True)
    ax.set_box_aspect((1, 1, 1), zoom=1.3)  # the cube fills the axes (Axes3D's default leaves a wide margin)
    ax.view_init(elev=22, azim=-55)
    ax.set_title(title or f"{robot.name} ({robot.convention} DH)", fontsize=10)
    return fig, art


def arm_view(robot: DHRobot, q, title: str | None = None) -> View:
    """3-D drawing of a DH arm at q with frames {0}..{n} and E; text: q and the end-effector pose."""
    q = check.vector(q, robot.n, "q")
    fig, art = figure_once(_arm_figure, robot, title)
    update_arm(art, q)
    T = dh_end_effector(robot, q)
    return View(fig, f"{robot.name} ({robot.convention} DH), q = {fmt(q, 3, sign=True, brackets='[]')} rad\n" + _pose_text(T))


@slider_labels(q1="q₁ [rad]", q2="q₂ [rad]", q3="q₃ [rad]", q4="q₄ [rad]", q5="q₅ [rad]", q6="q₆ [rad]")
def puma560_view(q1: float = 0.0, q2: float = 0.0, q3: float = 0.0, q4: float = 0.0,
                 q5: float = 0.0, q6: float = 0.0) -> View:
    """Slider callback: the PUMA 560 (:func:`puma560`) at joint angles q1..q6 (rad)."""
    return arm_view(puma560(), [q1, q2, q3, q4, q5, q6])


def frames_comparison_view(robot: DHRobot, q) -> View:
    """The same arm in standard DH (left) and modified DH (right, via ``standard_to_modified``).

    Frame {i} of the two descriptions differs by Tx(a_i) Rx(alpha_i) (standard a_i, alpha_i):
    the text gives the distance between the origins (= |a_i|), the angle between the frames
    (= |alpha_i|) and the largest difference of the end-effector poses (zero up to rounding).
    """
    q = check.vector(q, robot.n, "q")
    modified = standard_to_modified(robot)
    fig, axes = new_figure(1, 2, size=(10.0, 4.8), projection="3d")
    for ax, arm in zip(axes, (robot, modified)):
        draw_arm(ax, arm, q)
        ax.view_init(elev=22, azim=-55)
        ax.set_title(f"{arm.convention} DH: frame {{i}} on joint {'i+1' if arm.convention == 'standard' else 'i'}",
                     fontsize=10)
    F_s, F_m = dh_frames(robot, q), dh_frames(modified, q)
    gaps = np.linalg.norm(F_s[:, :3, 3] - F_m[:, :3, 3], axis=1)
    angles = [np.linalg.norm(so3_log(Rs.T @ Rm)) for Rs, Rm in zip(F_s[:, :3, :3], F_m[:, :3, :3])]
    ee = np.abs(dh_end_effector(robot, q) - dh_end_effector(modified, q)).max()
    text = (f"frames {{0}}..{{{robot.n}}}: origin distance {fmt(gaps, 4, sign=True, brackets='[]')} m\n"
            f"frames {{0}}..{{{robot.n}}}: rotation angle   {fmt(angles, 4, sign=True, brackets='[]')} rad\n"
            f"max |T_E(standard) - T_E(modified)| < 1e-12: {bool(ee < 1e-12)}")
    return View(fig, text)


def _gimbal_figure():
    fig, (top, side) = new_figure(1, 2, size=(9.0, 4.2))
    for ax in (top, side):
        ax.set_aspect("equal")
        ax.grid(True, alpha=0.3)
        ax.plot(0, 0, "ks")
    art = {"axes": (top, side), "target_top": top.plot([0], [0], "r*", ms=14, label="target")[0],
           "yaw": [top.plot([0, 0], [0, 1], style, color=f"C{k}", lw=2.5, label=f"yaw = {name}")[0]
                   for k, (style, name) in enumerate((("-", "atan2(x, z)"), ("--", "atan(x / z)")))]}
    top.set_xlabel("x (right) [m]")
    top.set_ylabel("z (forward) [m]")
    top.set_title("top view", fontsize=10)
    top.legend(fontsize=8, loc="lower left")
    art["target_side"], = side.plot([0], [0], "r*", ms=14)
    art["pitch"], = side.plot([0, 1], [0, 0], "-", lw=2.5, color="tab:blue")
    side.set_xlabel("horizontal distance sqrt(x^2 + z^2) [m]")
    side.set_ylabel("height above the gimbal, -y [m]")
    art["title"] = side.set_title(" ", fontsize=10)
    animate(art["target_top"], *art["yaw"], art["target_side"], art["pitch"], art["title"])
    return fig, art


@slider_labels(x="target x (right) [m]", y="target y (down) [m]", z="target z (forward) [m]")
def gimbal_view(x: float = 1.0, y: float = -0.3, z: float = 2.0) -> View:
    """Gimbal aiming at target (x, y, z) in the camera frame (z forward, x right, y down), m.

    Left: top view (x right, z forward) with the barrel from atan2(x, z) and from atan(x / z).
    Right: side view (horizontal distance, height = -y) with the pitch atan2(-y, sqrt(x^2+z^2)).
    """
    p = check.vector([x, y, z], 3, "target (x, y, z)")
    yaw, pitch = gimbal_yaw_pitch(p)
    yaw_atan = math.atan(x / z) if z != 0.0 else math.copysign(math.pi / 2, x)
    fig, art = figure_once(_gimbal_figure)
    r = float(np.linalg.norm(p))
    lim = 1.1 * 0.5 * math.ceil(r / 0.5)  # axes in 0.5 m steps: they stay put while a slider moves
    for ax in art["axes"]:
        ax.set(xlim=(-lim, lim), ylim=(-lim, lim))
    art["target_top"].set_data([x], [z])
    for line, ang in zip(art["yaw"], (yaw, yaw_atan)):
        line.set_data([0, r * math.sin(ang)], [0, r * math.cos(ang)])
    art["target_side"].set_data([math.hypot(x, z)], [-y])
    art["pitch"].set_data([0, r * math.cos(pitch)], [0, r * math.sin(pitch)])
    art["title"].set_text(f"side view: pitch = {math.degrees(pitch):+.1f} deg")
    text = (f"yaw = atan2(x, z) = {math.degrees(yaw):+.2f} deg, pitch = {math.degrees(pitch):+.2f} deg "
            f"(aim error {math.degrees(aim_error(p, yaw, pitch)):.2f} deg)\n"
            f"yaw = atan(x / z) = {math.degrees(yaw_atan):+.2f} deg "
            f"(aim error {math.degrees(aim_error(p, yaw_atan, pitch)):.2f} deg)")
    return View(fig, text)

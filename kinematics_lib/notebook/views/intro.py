"""Chapter 1 views: a frame turned by roll-pitch-yaw, with R, the quaternion and the recovered rpy.

Not star-imported; use ``from kinematics_lib.notebook.views.intro import frame_view``.

The slider values of :func:`frame_view` are in degrees (the argument names say so); everything
computed inside is in radians, as everywhere else in kinematics_lib.
"""

from __future__ import annotations

import math

import numpy as np

from ... import _validate as check
from ..plotting import AXIS_COLORS, new_figure, set_equal_3d
from ...geometry.rotations import (matrix_to_axis_angle, matrix_to_quat, matrix_to_rpy, rpy_rate_matrix,  # noqa: F401
                                   rpy_to_matrix)  # rpy_rate_matrix: re-exported for chapter 1's import
from ..widgets import View, animate, figure_once, fmt, slider_labels

__all__ = ["frame_view", "GIMBAL_WARNING"]

#: |cos(pitch)| below this is reported as "near gimbal lock" (pitch within ~5.7 deg of +-90 deg).
GIMBAL_WARNING = 0.1
_LOCK = 1e-9  # the threshold that kl.matrix_to_rpy uses for the gimbal-lock branch


def _status(pitch: float, rpy_deg: np.ndarray, cos_p: float) -> str:
    if abs(cos_p) < _LOCK:
        sign = "+" if pitch > 0 else "-"
        combo, value = ("yaw - roll", rpy_deg[2] - rpy_deg[0]) if pitch > 0 else ("yaw + roll", rpy_deg[2] + rpy_deg[0])
        value = (value + 180.0) % 360.0 - 180.0
        return (f"GIMBAL LOCK (万向锁) at pitch = {sign}90 deg: the roll axis x_B lies on the yaw axis z_W,\n"
                f"  so only {combo} = {value:.1f} deg is defined; matrix_to_rpy reports roll = 0")
    if abs(cos_p) < GIMBAL_WARNING:
        gain = 1.0 / np.linalg.svd(rpy_rate_matrix(np.radians(rpy_deg)), compute_uv=False)[-1]
        return (f"near gimbal lock: |det E| = |cos(pitch)| = {abs(cos_p):.4f}; an angular velocity of 1 rad/s\n"
                f"  can need rpy rates up to 1/sigma_min(E) = {gain:.1f} rad/s")
    return "regular: roll, pitch and yaw are unique for pitch in (-90, 90) deg"


def _frame_figure():
    """The frame of :func:`frame_view`: {W} (grey dashed), the cube, ticks and labels; animated:
    the axes of {B} (x red, y green, z blue) and their labels, the rotation axis, the title."""
    fig, ax = new_figure(size=(5.2, 4.6), projection="3d")
    for k, name in enumerate("xyz"):
        ax.plot(*np.outer([0.0, 0.7], np.eye(3)[k]).T, "--", color="0.45", lw=1.2)
        ax.text(*(0.75 * np.eye(3)[k]), f"{name}W", color="0.35", fontsize=10)
    B = [ax.plot([0, 1], [0, 0], [0, 0], color=AXIS_COLORS[k], lw=1.5, animated=True)[0] for k in range(3)]
    B_labels = [ax.text(0, 0, 0, f"{name}B", fontsize=11, fontweight="bold", animated=True) for name in "xyz"]
    axis_line, = ax.plot([0, 0], [0, 0], [0, 0], "k--", lw=0.9, animated=True)
    axis_label = ax.text(0, 0, 0, "axis", fontsize=10, animated=True)
    set_equal_3d(ax, np.vstack([np.eye(3), -np.eye(3)]), margin=0.1)
    for set_ticks in (ax.set_xticks, ax.set_yticks, ax.set_zticks):
        set_ticks([-1.0, 0.0, 1.0])
    ax.set_xlabel("x_W")
    ax.set_ylabel("y_W")
    ax.set_zlabel("z_W")
    ax.view_init(elev=22, azim=-50)
    title = animate(ax.set_title(" \n ", fontsize=11))
    return fig, {"B": B, "B_labels": B_labels, "axis": axis_line, "axis_label": axis_label, "title": title}


@slider_labels(roll_deg="roll φ [deg]", pitch_deg="pitch θ [deg]", yaw_deg="yaw ψ [deg]")
def frame_view(roll_deg: float = 30.0, pitch_deg: float = 20.0, yaw_deg: float = 40.0) -> View:
    """World frame {W} and frame {B} with R_WB = Rz(yaw) Ry(pitch) Rx(roll) (URDF roll-pitch-yaw).

    Angles in degrees (slider values). The text shows R_WB (4 decimals), the quaternion
    (x, y, z, w) of ``matrix_to_quat`` (w >= 0), the equivalent axis-angle, the rpy recovered
    by ``matrix_to_rpy``, det E = cos(pitch) (see :func:`~kinematics_lib.geometry.rotations.rpy_rate_matrix`) and whether the
    pose is at or near the gimbal lock.
    """
    rpy_deg = np.array([check.scalar(roll_deg, "roll_deg"), check.scalar(pitch_deg, "pitch_deg"),
                        check.scalar(yaw_deg, "yaw_deg")])
    rpy = np.radians(rpy_deg)
    R = rpy_to_matrix(rpy)
    quat = matrix_to_quat(R)
    axis, angle = matrix_to_axis_angle(R)
    back = np.degrees(matrix_to_rpy(R))
    cos_p = float(np.linalg.det(rpy_rate_matrix(rpy)))
    status = _status(float(rpy[1]), rpy_deg, cos_p)
    wrapped = (back - rpy_deg + 180.0) % 360.0 - 180.0
    if abs(cos_p) >= _LOCK and np.abs(wrapped).max() > 1e-6:
        status += "\n  (matrix_to_rpy returns another triple for the same R: it keeps pitch in [-90, 90] deg)"

    fig, art = figure_once(_frame_figure)
    for k, (line, label) in enumerate(zip(art["B"], art["B_labels"])):
        line.set_data_3d(*np.column_stack([np.zeros(3), R[:, k]]))
        label.set_position_3d(1.06 * R[:, k])
    art["axis"].set_visible(angle > 1e-9)
    art["axis_label"].set_visible(angle > 1e-9)
    if angle > 1e-9:
        art["axis"].set_data_3d(*np.outer([-1.1, 1.1], axis).T)
        # at the end of the axis line farther from the frames' labels (at gimbal lock the axis
        # can run along y_B: its label then sits on y_B's)
        taken = np.vstack([0.75 * np.eye(3), 1.06 * R.T])
        ends = [1.15 * axis, -1.15 * axis]
        art["axis_label"].set_position_3d(max(ends, key=lambda p: np.linalg.norm(taken - p, axis=1).min()))
    locked = abs(cos_p) < _LOCK
    art["title"].set_text(f"roll {rpy_deg[0]:.0f}°, pitch {rpy_deg[1]:.0f}°, yaw {rpy_deg[2]:.0f}°\n"  # always two
                          + ("gimbal lock: roll axis x_B on yaw axis z_W" if locked else " "))  # lines
    art["title"].set_color("tab:red" if locked else "black")

    rows = "\n".join("  [" + " ".join(f"{v:8.4f}" for v in np.round(row, 4) + 0.0) + "]" for row in R)
    text = (f"roll, pitch, yaw           = {fmt(rpy_deg, 1)} deg\n"
            f"R_WB = Rz(yaw) Ry(pitch) Rx(roll) =\n{rows}\n"
            f"quaternion (x, y, z, w)    = {fmt(quat, 4)}\n"
            f"axis, angle                = {fmt(axis, 4)}, {math.degrees(angle):.2f} deg\n"
            f"matrix_to_rpy(R_WB)        = {fmt(back, 1)} deg\n"
            f"det E = cos(pitch)         = {round(cos_p, 4) + 0.0:.4f}\n"
            f"{status}")
    return View(fig, text)

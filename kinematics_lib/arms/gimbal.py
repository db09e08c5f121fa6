"""Two-axis gimbal (云台) aiming: the yaw and pitch that point a barrel at a target.

Frame C, fixed to the gimbal base at the intersection of the two axes, uses the camera (image)
convention: **z forward** (the barrel at zero joint angles), **x right**, **y down**.

Joint order and signs (right-hand rule about each axis):

* yaw is the outer joint; it turns about the base axis y_C (pointing down), so a positive yaw
  turns the barrel to the right, towards +x;
* pitch is the inner joint, carried by the yaw stage; it turns about the yawed x axis (right),
  so a positive pitch raises the barrel, towards -y (up).

The barrel orientation is R_CB = Ry(yaw) Rx(pitch) and the barrel points along its third column

    b(yaw, pitch) = (cos(pitch) sin(yaw), -sin(pitch), cos(pitch) cos(yaw)).

Solving b = p / |p| for a target p = (x, y, z) gives yaw = atan2(x, z) and
pitch = atan2(-y, sqrt(x^2 + z^2)): pitch > 0 means the target is *above* the gimbal (an
elevation angle, 仰角), although y itself grows downwards.
"""

from __future__ import annotations

import math

import numpy as np

from .. import _validate as check
from ..geometry.rotations import rot_x, rot_y

__all__ = ["gimbal_yaw_pitch", "gimbal_rotation", "barrel_direction", "aim_error"]


def gimbal_yaw_pitch(p) -> np.ndarray:
    """(yaw, pitch) in rad that point the barrel at the target p = (x, y, z) (m, frame C).

    yaw = atan2(x, z) in [-pi, pi], pitch = atan2(-y, sqrt(x^2 + z^2)) in [-pi/2, pi/2]
    (positive pitch = target above). For a target straight above or below (x = z = 0) the
    yaw is arbitrary and 0 is returned. p = 0 has no direction: ValueError.

    >>> np.round(gimbal_yaw_pitch([1.0, 0.0, 1.0]), 6)  # 45 degrees to the right
    array([0.785398, 0.      ])
    >>> np.round(gimbal_yaw_pitch([0.0, -1.0, 1.0]), 6)  # 45 degrees above: pitch > 0
    array([0.      , 0.785398])
    """
    x, y, z = check.vector(p, 3, "p")
    horizontal = math.hypot(x, z)
    if horizontal == 0.0 and y == 0.0:
        raise check.InputError("p must be a non-zero target position (the direction of p = 0 is undefined)")
    yaw = math.atan2(x, z) if horizontal > 0.0 else 0.0
    return np.array([yaw, math.atan2(-y, horizontal)]) + 0.0  # + 0.0: no signed zeros


def gimbal_rotation(yaw: float, pitch: float) -> np.ndarray:
    """Barrel orientation R_CB = Ry(yaw) Rx(pitch) (3, 3): yaw about y_C (down), then pitch about
    the yawed x axis (right). Angles in rad."""
    return rot_y(check.scalar(yaw, "yaw")) @ rot_x(check.scalar(pitch, "pitch"))


def barrel_direction(yaw: float, pitch: float) -> np.ndarray:
    """Unit barrel axis in frame C: the z column of :func:`gimbal_rotation` (3,).

    >>> np.round(barrel_direction(np.pi / 2, 0.0), 12) + 0.0  # yaw +90 deg: barrel points right
    array([1., 0., 0.])
    """
    return gimbal_rotation(yaw, pitch)[:, 2]


def aim_error(p, yaw: float, pitch: float) -> float:
    """Angle (rad, in [0, pi]) between the barrel at (yaw, pitch) and the direction to target p.

    Computed as atan2(|b x u|, b . u), which is accurate for tiny and for near-pi errors.
    """
    p = check.vector(p, 3, "p")
    r = float(np.linalg.norm(p))
    if r == 0.0:
        raise check.InputError("p must be a non-zero target position")
    b, u = barrel_direction(yaw, pitch), p / r
    return math.atan2(float(np.linalg.norm(np.cross(b, u))), float(b @ u))

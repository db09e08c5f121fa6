"""Example robots used across the chapters (data, not algorithms).

The ANYmal B quadruped ships as a URDF (:func:`kinematics_lib.dynamics.urdf.anymal_b_urdf`); the arms
here are DH tables.
"""

from __future__ import annotations

import math

import numpy as np

from .dh import DHRobot
from ..geometry.transforms import translation

__all__ = ["puma560", "PUMA_SHOULDER_HEIGHT"]

#: height of the PUMA 560 shoulder axis above its mounting surface (m)
PUMA_SHOULDER_HEIGHT = 0.672


def puma560() -> DHRobot:
    """The Unimation PUMA 560 in standard DH (a, d in m; alpha, limits in rad).

    Kinematic numbers from P. Corke and B. Armstrong-Helouvry, "A search for consensus among
    model parameters reported for the PUMA 560 robot", ICRA 1994 (the ``Puma560`` model of
    Corke's Robotics Toolbox): a = (0, 0.4318, 0.0203, 0, 0, 0), d = (0, 0, 0.15005, 0.4318,
    0, 0), alpha = (90, 0, -90, 90, -90, 0) deg. The shoulder axis is 0.672 m above the
    mounting surface (``T_base``; the toolbox writes it as d_1, which is the same because
    Tz(d_1) commutes with Rz(q_1)). Joint limits (deg): +-160, [-45, 225], [-225, 45],
    [-110, 170], +-100, +-266.
    """
    deg = math.pi / 180.0
    return DHRobot(
        a=[0.0, 0.4318, 0.0203, 0.0, 0.0, 0.0],
        alpha=[90 * deg, 0.0, -90 * deg, 90 * deg, -90 * deg, 0.0],
        d=[0.0, 0.0, 0.15005, 0.4318, 0.0, 0.0],
        theta=np.zeros(6),
        joint_types="RRRRRR",
        convention="standard",
        name="PUMA 560",
        q_min=np.array([-160, -45, -225, -110, -100, -266]) * deg,
        q_max=np.array([160, 225, 45, 170, 100, 266]) * deg,
        T_base=translation([0.0, 0.0, PUMA_SHOULDER_HEIGHT]),
    )

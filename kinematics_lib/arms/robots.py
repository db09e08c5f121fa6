"""Example robots used across the chapters (data, not algorithms).

The ANYmal B quadruped ships as a URDF (:func:`kinematics_lib.dynamics.urdf.anymal_b_urdf`); the arms
here are DH tables.
"""

from __future__ import annotations

import math

import numpy as np

from .dh import DHRobot
from ..geometry.transforms import translation

__all__ = ["puma560", "PUMA_SHOULDER_HEIGHT", "panda", "ur5"]

#: height of the PUMA 560 shoulder axis above its mounting surface (m): 26.45 in, the value of the
#: Robotics Toolbox's Puma560 model (Corke and Armstrong-Helouvry 1994) that puma560() cites
PUMA_SHOULDER_HEIGHT = 0.67183  # = 26.45 * 0.0254 m


def puma560() -> DHRobot:
    """The Unimation PUMA 560 in standard DH (a, d in m; alpha, limits in rad).

    Kinematic numbers from P. Corke and B. Armstrong-Helouvry, "A search for consensus among
    model parameters reported for the PUMA 560 robot", ICRA 1994 (the ``Puma560`` model of
    Corke's Robotics Toolbox): a = (0, 0.4318, 0.0203, 0, 0, 0), d = (0, 0, 0.15005, 0.4318,
    0, 0), alpha = (90, 0, -90, 90, -90, 0) deg. The shoulder axis is 26.45 in = 0.67183 m above
    the mounting surface (``T_base``; the toolbox writes it as d_1, which is the same because
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


def panda() -> DHRobot:
    """The Franka Emika Panda (Franka Research 3's predecessor) in Craig's modified DH, 7 joints.

    Franka's published table (Franka Control Interface documentation, "Robot and interface
    specifications", Denavit-Hartenberg parameters), a_{i-1}, d_i in m, alpha_{i-1} in rad:

    =====  =======  =====  ======
    joint  a        d      alpha
    =====  =======  =====  ======
    1      0        0.333  0
    2      0        0      -pi/2
    3      0        0.316  pi/2
    4      0.0825   0      pi/2
    5      -0.0825  0.384  -pi/2
    6      0        0      pi/2
    7      0.088    0      pi/2
    =====  =======  =====  ======

    The tool frame is Franka's flange: ``T_tool`` = Tz(0.107) (the same table's last row). The
    Franka Hand's TCP is a further Tz(0.1034) Rz(-pi/4) (the Robotics Toolbox's ETS Panda puts
    it at Tz(0.103) Rz(-pi/4)). Joint limits (rad), from the same specifications:
    q_min = (-2.8973, -1.7628, -2.8973, -3.0718, -2.8973, -0.0175, -2.8973),
    q_max = (2.8973, 1.7628, 2.8973, -0.0698, 2.8973, 3.7525, 2.8973).
    Kinematics only; :func:`kinematics_lib.panda_arm` adds the link masses, centres of mass and
    inertias Franka publishes in its URDF (``dh_model(panda_arm())`` for RNEA, CRBA, ABA).
    """
    h = math.pi / 2
    return DHRobot(
        a=[0.0, 0.0, 0.0, 0.0825, -0.0825, 0.0, 0.088],
        alpha=[0.0, -h, h, h, -h, h, h],
        d=[0.333, 0.0, 0.316, 0.0, 0.384, 0.0, 0.0],
        theta=np.zeros(7),
        joint_types="RRRRRRR",
        convention="modified",
        name="Franka Emika Panda",
        q_min=np.array([-2.8973, -1.7628, -2.8973, -3.0718, -2.8973, -0.0175, -2.8973]),
        q_max=np.array([2.8973, 1.7628, 2.8973, -0.0698, 2.8973, 3.7525, 2.8973]),
        T_tool=translation([0.0, 0.0, 0.107]),
    )


def ur5() -> DHRobot:
    """The Universal Robots UR5 (CB3) in standard DH, 6 joints.

    Universal Robots' published parameters ("Parameters for calculations of kinematics and
    dynamics", UR support article, which the Robotics Toolbox's ``models.DH.UR5`` cites): a = (0,
    -0.425, -0.39225, 0, 0, 0) m, d = (0.089159, 0, 0, 0.10915, 0.09465, 0.0823) m, alpha = (pi/2,
    0, 0, pi/2, -pi/2, 0) rad. The toolbox's DH model has the same a, alpha and d_2..d_6 but
    d_1 = 0.089459 m, 0.3 mm more than UR's table and than the UR5 URDF the toolbox itself ships
    (0.089159); this table follows UR. The toolbox's tests only instantiate its poses
    qz = 0 and qr = (180, 0, 0, 0, 90, 0) deg ("arm horizontal along x") and assert no fkine
    value; with UR's numbers the flange is at
    qz: position (a2 + a3, -(d4 + d6), d1 - d5) = (-0.81725, -0.19145, -0.005491) m, R = Rx(pi/2);
    qr: position (d6 - a2 - a3, d4, d1 - d5) = (0.89955, 0.10915, -0.005491) m, R with columns
    (y0, z0, x0). Joint limits +-2 pi rad (+-360 deg) on every joint.
    """
    h = math.pi / 2
    return DHRobot(
        a=[0.0, -0.425, -0.39225, 0.0, 0.0, 0.0],
        alpha=[h, 0.0, 0.0, h, -h, 0.0],
        d=[0.089159, 0.0, 0.0, 0.10915, 0.09465, 0.0823],
        theta=np.zeros(6),
        joint_types="RRRRRR",
        convention="standard",
        name="UR5",
        q_min=np.full(6, -2 * math.pi),
        q_max=np.full(6, 2 * math.pi),
    )

"""Chapter 6's scenario: a 3-dof planar arm on a free-floating satellite (document 000, exercise
3.1), a closed joint loop and the computed torque that drives it with the base unactuated.

The maths it runs on (free-floating simulation, zero-momentum base path, CRBA, nonlinear
effects) lives in ``kinematics_lib.dynamics``; this module only builds the example.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

from .. import _validate as check
from ..dynamics.algorithms import crba, nonlinear_effects
from ..dynamics.model import Model
from ..geometry.spatial import spatial_inertia

__all__ = ["satellite_arm_model", "satellite_joint_loop", "satellite_joint_torque"]


def satellite_arm_model(mass_ratio: float = 0.3, base_mass: float = 100.0, base_size: float = 1.0,
                        link_length: float = 0.6, gravity=(0.0, 0.0, 0.0)) -> Model:
    """A 3-dof planar arm on a free-floating cubic satellite (document 000, exercise 3.1), zero gravity.

    Base: a cube of ``base_mass`` kg and side ``base_size`` m (free joint). Three revolute joints
    about z; joint 1 on the centre of the base's +x face, the next two at the link tips; links are
    rods (radius 3 cm) of length ``link_length`` m and mass mass_ratio * base_mass / 3 each, so
    mass_ratio = arm mass / base mass. nq = 10, nv = 9.
    """
    ratio = check.positive(mass_ratio, "mass_ratio")
    M = check.positive(base_mass, "base_mass")
    s = check.positive(base_size, "base_size")
    L = check.positive(link_length, "link_length")
    gravity = check.vector(gravity, 3, "gravity")
    for value, name, high in ((ratio, "mass_ratio", 1e6), (M, "base_mass", 1e9), (s, "base_size", 1e3),
                              (L, "link_length", 1e3)):
        if value > high:
            raise check.InputError(f"{name} must be at most {high:g}, got {value:g}")
    m, r = ratio * M / 3.0, 0.03
    rod = np.diag([m * r * r / 2.0, m * (3 * r * r + L * L) / 12.0, m * (3 * r * r + L * L) / 12.0])
    inertia = [spatial_inertia(M, np.zeros(3), np.eye(3) * M * s * s / 6.0)]
    inertia += [spatial_inertia(m, np.array([L / 2.0, 0.0, 0.0]), rod)] * 3
    T_tree = np.array([np.eye(4)] * 4)
    T_tree[1, 0, 3], T_tree[2, 0, 3], T_tree[3, 0, 3] = s / 2.0, L, L
    return Model(
        name="satellite with a 3-dof arm", body_names=("base", "link1", "link2", "link3"),
        body_joint=("root_joint", "joint1", "joint2", "joint3"), parent=(-1, 0, 1, 2),
        joint_types=("free", "revolute", "revolute", "revolute"), axes=np.array([[0.0, 0.0, 1.0]] * 4),
        T_tree=T_tree, inertia=np.array(inertia), gravity=gravity,
        lower=np.full(4, -np.inf), upper=np.full(4, np.inf))


def _loop(A: float, w: float, t: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(q, qd, qdd) of joints 1 and 2 at time t: a circle in (q_1, q_2) traced with phase s(t)."""
    s, sd, sdd = w * t - math.sin(w * t), w * (1.0 - math.cos(w * t)), w * w * math.sin(w * t)
    S, C = math.sin(s), math.cos(s)
    return (A * np.array([S, 1.0 - C]), A * sd * np.array([C, S]),
            A * np.array([-S * sd * sd + C * sdd, C * sd * sd + S * sdd]))


def satellite_joint_loop(n_joints: int, amplitude: float, period: float, t) -> tuple[np.ndarray, np.ndarray]:
    """(q_j, qd_j), each (N, n_joints): a closed loop of the joints at the times t (N,), from rest to rest.

    q_1 = amplitude sin s, q_2 = amplitude (1 - cos s), the others 0, with the phase
    s(t) = w t - sin(w t), w = 2 pi / period: one circle per period in the (q_1, q_2) plane,
    starting and ending at q_j = 0 with zero velocity.
    """
    n = check.integer(n_joints, "n_joints", 1, 1000)
    A = check.scalar(amplitude, "amplitude")
    w = 2.0 * math.pi / check.positive(period, "period")
    t = check.vector(t, None, "t")
    if t.shape[0] == 0:
        raise check.InputError("t must have at least one entry, got an empty vector")
    if t.shape[0] > 1_000_000:
        raise check.InputError(f"t must have at most 1000000 entries, got {t.shape[0]}")
    q, qd = np.zeros((t.shape[0], n)), np.zeros((t.shape[0], n))
    k = min(2, n)
    with np.errstate(all="ignore"):
        for i, ti in enumerate(t):
            qi, qdi, _ = _loop(A, w, float(ti))
            q[i, :k], qd[i, :k] = qi[:k], qdi[:k]
    return check.finite_result((q, qd), "the joint loop", "amplitude, period and t")


def satellite_joint_torque(model: Model, amplitude: float = 0.8, period: float = 4.0, kp: float = 25.0,
                           kd: float = 10.0) -> Callable:
    """tau_j(t, q, v): computed torque that makes the joints follow :func:`satellite_joint_loop`, base unactuated.

    The commanded joint acceleration is a_j = qdd_d + kd (qd_d - qd) + kp (q_d - q); with zero
    force on the base, the base then accelerates by a_b = -M_bb^-1 (M_bj a_j + h_b), and
    tau_j = M_jb a_b + M_jj a_j + h_j (M = CRBA, h = nonlinear effects). The torque is internal:
    it cannot change the momentum. The loop starts and ends at rest at q_j = 0.
    """
    check.model(model)
    A = check.scalar(amplitude, "amplitude")
    w = 2.0 * math.pi / check.positive(period, "period")
    kp, kd = check.nonnegative(kp, "kp"), check.nonnegative(kd, "kd")
    n_j = model.nv - 6
    k = min(2, n_j)

    def torque(t, q, v):
        q_d, v_d, a_d = np.zeros(n_j), np.zeros(n_j), np.zeros(n_j)
        loop = _loop(A, w, float(t))
        q_d[:k], v_d[:k], a_d[:k] = loop[0][:k], loop[1][:k], loop[2][:k]
        a_j = a_d + kd * (v_d - v[6:]) + kp * (q_d - q[7:])
        quat = q[3:7] / math.sqrt(float(q[3:7] @ q[3:7]))
        q = np.concatenate([q[:3], quat, q[7:]])
        M, h = crba(model, q), nonlinear_effects(model, q, v)
        a_b = -np.linalg.solve(M[:6, :6], M[:6, 6:] @ a_j + h[:6])
        return M[6:, :6] @ a_b + M[6:, 6:] @ a_j + h[6:]
    return torque

"""Point-to-point trajectories (轨迹规划): time scalings and joint-space and Cartesian paths.

A rest-to-rest motion is a path times a time scaling s(t) in [0, 1] (s(0) = 0, s(T) = 1, zero
velocity at both ends; the quintic one also zero acceleration):

    cubic    s = 3 tau^2 - 2 tau^3,                 tau = t / T
    quintic  s = 10 tau^3 - 15 tau^4 + 6 tau^5

Joint space: q(t) = q0 + s(t) (q1 - q0). Cartesian space: the frame origin moves on the straight
line p(t) = p0 + s(t) (p1 - p0) and the orientation on the geodesic R(t) = R0 exp(s(t) log(R0^T R1))
(rotation about one fixed axis, the SO(3) analogue of a straight line; quaternion slerp).
Times in s, angles in rad, lengths in m; twists and their rates [linear; angular], world axes.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .. import _validate as check
from ..geometry.rotations import so3_exp, so3_log

__all__ = ["cubic_time_scaling", "quintic_time_scaling", "joint_trajectory", "cartesian_trajectory"]

METHODS = ("cubic", "quintic")


class JointTrajectory(NamedTuple):
    """t (n,) s; q, v, a (n, dof): positions, velocities, accelerations."""

    t: np.ndarray
    q: np.ndarray
    v: np.ndarray
    a: np.ndarray


class CartesianTrajectory(NamedTuple):
    """t (n,) s; T (n, 4, 4) poses; V, A (n, 6): [velocity of the origin; angular velocity] and
    their rates, world axes (m/s, rad/s; m/s^2, rad/s^2)."""

    t: np.ndarray
    T: np.ndarray
    V: np.ndarray
    A: np.ndarray


def _times(duration, t) -> tuple[float, np.ndarray, bool]:
    duration = check.positive(duration, "duration")
    arr = check._finite(check._array(t, "t"), "t")
    if arr.ndim > 1 or arr.size == 0:
        raise check.InputError(f"t must be a number or a non-empty 1-D array of times, got shape {arr.shape}")
    return duration, arr, arr.ndim == 0


def _scaling(kind: str, duration: float, t: np.ndarray):
    """(s, sd, sdd) of a checked t; before 0 the motion has not started, after T it is over (the
    cubic's acceleration at t = 0 and t = T is its one-sided value inside the motion)."""
    tau = np.clip(t / duration, 0.0, 1.0)
    inside = (t > 0.0) & (t < duration)
    if kind == "cubic":
        s = tau * tau * (3.0 - 2.0 * tau)
        sd = 6.0 * tau * (1.0 - tau) / duration
        sdd = np.where((t >= 0.0) & (t <= duration), (6.0 - 12.0 * tau) / duration / duration, 0.0)  # jumps at the ends
    else:
        s = tau ** 3 * (10.0 - 15.0 * tau + 6.0 * tau * tau)
        sd = 30.0 * tau * tau * (1.0 - tau) ** 2 / duration
        sdd = 60.0 * tau * (1.0 - tau) * (1.0 - 2.0 * tau) / duration / duration
    out = (s, np.where(inside, sd, 0.0), sdd)
    check.finite_result(np.concatenate([np.ravel(x) for x in out]), "s, ds/dt, d2s/dt2", "duration, t")
    return out


def _result(values, scalar: bool):
    return tuple(float(x) for x in values) if scalar else tuple(np.asarray(x, dtype=float) for x in values)


def cubic_time_scaling(duration: float, t) -> tuple:
    """(s, ds/dt, d2s/dt2) of the cubic rest-to-rest time scaling at time(s) t.

    s = 3 tau^2 - 2 tau^3, ds/dt = 6 tau (1 - tau) / T, d2s/dt2 = (6 - 12 tau) / T^2 with
    tau = t / T (T = duration > 0, s). t: a number or an array (n,) of times in s; outside [0, T]
    the motion is at rest (s = 0 before, 1 after). The acceleration jumps at both ends (+-6/T^2).
    """
    duration, t, scalar = _times(duration, t)
    return _result(_scaling("cubic", duration, t), scalar)


def quintic_time_scaling(duration: float, t) -> tuple:
    """(s, ds/dt, d2s/dt2) of the quintic rest-to-rest time scaling at time(s) t.

    s = 10 tau^3 - 15 tau^4 + 6 tau^5, ds/dt = 30 tau^2 (1 - tau)^2 / T,
    d2s/dt2 = 60 tau (1 - tau) (1 - 2 tau) / T^2, tau = t / T (T = duration > 0, s): zero velocity
    and acceleration at both ends. t: a number or an array (n,); at rest outside [0, T].
    """
    duration, t, scalar = _times(duration, t)
    return _result(_scaling("quintic", duration, t), scalar)


def _samples(duration, n, method) -> tuple[float, np.ndarray, tuple]:
    duration = check.positive(duration, "duration")
    n = check.integer(n, "n", 2, 1_000_000)
    method = check.one_of(method, METHODS, "method")
    t = np.linspace(0.0, duration, n)
    return duration, t, _scaling(method, duration, t)


def joint_trajectory(q0, q1, duration: float, n: int, method: str = "quintic") -> JointTrajectory:
    """A straight line in joint space, rest to rest:  q(t) = q0 + s(t) (q1 - q0).

    q0, q1 (dof,): start and goal (rad or m); duration T > 0 (s); n >= 2 samples at
    t_k = k T / (n - 1); method 'cubic' or 'quintic' (the time scaling s). Returns
    (t (n,), q (n, dof), v (n, dof), a (n, dof)), with v = s' (q1 - q0), a = s'' (q1 - q0).
    Modern Robotics' JointTrajectory(thetastart, thetaend, Tf, N, 3 or 5) gives the same q.
    """
    q0 = check.vector(q0, None, "q0")
    q1 = check.agreeing(q1, q0.shape, "q1", "q0")
    _, t, (s, sd, sdd) = _samples(duration, n, method)
    dq = q1 - q0
    q = q0 + s[:, None] * dq
    v, a = sd[:, None] * dq, sdd[:, None] * dq
    check.finite_result(np.concatenate([q, v, a]), "q, v, a", "q0, q1, duration")
    return JointTrajectory(t, q, v, a)


def cartesian_trajectory(T_start, T_end, duration: float, n: int, method: str = "quintic") -> CartesianTrajectory:
    """A straight-line Cartesian motion, rest to rest: the origin on the segment, the orientation
    on the geodesic.

    p(t) = p0 + s(t) (p1 - p0),  R(t) = R0 exp(s(t) [phi]x),  phi = log(R0^T R1) (|phi| <= pi).
    T_start, T_end (4, 4): poses in the world; duration T > 0 (s); n >= 2 samples; method
    'cubic' or 'quintic'. Returns (t (n,), T (n, 4, 4), V (n, 6), A (n, 6)) with the world-axes
    twist V = s' [p1 - p0; R0 phi] and its rate A = s'' [p1 - p0; R0 phi] (the angular velocity
    keeps the direction R0 phi). Modern Robotics' CartesianTrajectory gives the same poses.
    """
    T0 = check.transform(T_start, "T_start")
    T1 = check.transform(T_end, "T_end")
    _, t, (s, sd, sdd) = _samples(duration, n, method)
    R0 = T0[:3, :3]
    phi = so3_log(R0.T @ T1[:3, :3])
    direction = np.concatenate([T1[:3, 3] - T0[:3, 3], R0 @ phi])
    poses = np.zeros((t.size, 4, 4))
    poses[:, 3, 3] = 1.0
    poses[:, :3, 3] = T0[:3, 3] + s[:, None] * direction[:3]
    poses[:, :3, :3] = R0 @ np.array([so3_exp(si * phi) for si in s])
    V, A = sd[:, None] * direction, sdd[:, None] * direction
    check.finite_result(np.concatenate([poses.reshape(-1), V.ravel(), A.ravel()]), "T, V, A", "T_start, T_end, duration")
    return CartesianTrajectory(t, poses, V, A)

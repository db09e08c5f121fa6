"""Mecanum and omni wheels (麦克纳姆轮): from the roller geometry to the chassis matrix H (ω = H v)
and back (the chassis twist of measured wheel speeds).

Units and frames: see :mod:`kinematics_lib.mobile` (chapter 9).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import _validate as check

__all__ = ["MECANUM_ORDER", "RollerWheel", "roller_axis", "wheel_row", "wheel_jacobian", "mecanum_layout", "mecanum_matrix",
           "mecanum_wheel_speeds", "chassis_twist"]


#: Wheel order of every four-wheel array in this module: front-left, front-right, rear-left, rear-right.
MECANUM_ORDER = ("FL", "FR", "RL", "RR")


@dataclass(frozen=True)
class RollerWheel:
    """One wheel with passive rollers (omni γ = 0, mecanum γ = ±π/4), in the chassis frame B.

    x, y: position of the contact point in B [m]; radius: wheel radius R [m];
    gamma: roller angle γ [rad] from the driving direction to the axle of the roller touching
    the ground (seen from above, counter-clockwise positive); theta: driving direction θ [rad]
    (0 = chassis x); name: a label such as 'FL'.
    """

    x: float
    y: float
    radius: float
    gamma: float
    theta: float = 0.0
    name: str = ""

    def __post_init__(self):
        for field in ("x", "y", "gamma", "theta"):
            object.__setattr__(self, field, check.scalar(getattr(self, field), field))
        object.__setattr__(self, "radius", check.positive(self.radius, "radius"))
        check.text(self.name, "name")
        if abs(math.cos(self.gamma)) < 1e-6:
            raise check.InputError(f"gamma must stay away from ±pi/2 (a roller parallel to the wheel axle "
                             f"transmits no drive), got {self.gamma}")


def roller_axis(wheel: RollerWheel) -> np.ndarray:
    """e_i = (cos(θ_i + γ_i), sin(θ_i + γ_i)) (2,): axle of the ground roller in B, unit vector.

    >>> np.round(roller_axis(RollerWheel(0.2, 0.2, 0.05, -np.pi / 4)), 4)
    array([ 0.7071, -0.7071])
    """
    check.instance(wheel, RollerWheel, "wheel")
    return np.array([math.cos(wheel.theta + wheel.gamma), math.sin(wheel.theta + wheel.gamma)])


def wheel_row(wheel: RollerWheel) -> np.ndarray:
    """h_i (3,) with ω_i = h_i · (v_x, v_y, ω_z):  h_i = [e_x, e_y, x_i e_y − y_i e_x] / (R cos γ).

    It is the roller constraint v_c·e = R ω (d·e) solved for ω. Units: 1/m, 1/m, 1 (rad/s out).

    >>> wheel_row(RollerWheel(0.2, 0.15, 0.05, -np.pi / 4)).round(6)   # (1, -1, -(a+b)) / R
    array([ 20., -20.,  -7.])
    """
    e = roller_axis(wheel)
    scale = wheel.radius * math.cos(wheel.gamma)
    row = np.array([e[0], e[1], wheel.x * e[1] - wheel.y * e[0]]) / scale
    return check.finite_result(row, "the wheel row", "wheel (its position or radius)")


def _wheels(wheels, n_min: int = 1) -> tuple:
    """A tuple of at least n_min RollerWheel objects."""
    if isinstance(wheels, (str, bytes)) or not hasattr(wheels, "__iter__"):
        raise check.InputError(f"wheels must be a sequence of RollerWheel objects, got {check.describe(wheels)}")
    wheels = tuple(wheels)
    if len(wheels) < n_min or not all(isinstance(w, RollerWheel) for w in wheels):
        raise check.InputError(f"wheels must be at least {n_min} RollerWheel objects, got {check.describe(wheels)}")
    return wheels


def wheel_jacobian(wheels, require_full_rank: bool = True) -> np.ndarray:
    """H (n, 3): the stacked wheel rows, ω = H v (rad/s from a body twist v in m/s, rad/s).

    Raises ValueError when fewer than 3 wheels are given or (with require_full_rank) when H has
    rank < 3: such a layout cannot produce, or measure, every chassis twist.
    """
    wheels = _wheels(wheels, 3)
    H = np.array([wheel_row(w) for w in wheels])
    rank = np.linalg.matrix_rank(H)
    if check.flag(require_full_rank, "require_full_rank") and rank < 3:
        raise check.InputError(f"wheels: this layout gives H of rank {rank} < 3 (singular values "
                         f"{np.round(np.linalg.svd(H, compute_uv=False), 6)}); some chassis twist "
                         f"cannot be commanded or measured")
    return H


def mecanum_layout(half_length: float, half_width: float, wheel_radius: float,
                   mirrored: bool = False) -> tuple[RollerWheel, ...]:
    """The standard four mecanum wheels in MECANUM_ORDER (FL, FR, RL, RR) at (±a, ±b).

    Ground-roller angles γ_FL = γ_RR = −π/4, γ_FR = γ_RL = +π/4: the ground rollers' axles are
    tangent to a circle about the centre, the rollers seen from above form an "X". With
    mirrored=True every wheel is swapped for its mirror image (γ → −γ).
    """
    a = check.positive(half_length, "half_length")
    b = check.positive(half_width, "half_width")
    R = check.positive(wheel_radius, "wheel_radius")
    g = -math.pi / 4 if check.flag(mirrored, "mirrored") else math.pi / 4
    corners = {"FL": (a, b, -g), "FR": (a, -b, g), "RL": (-a, b, g), "RR": (-a, -b, -g)}
    return tuple(RollerWheel(x, y, R, gamma, name=n) for n, (x, y, gamma) in corners.items())


def mecanum_matrix(half_length: float, half_width: float, wheel_radius: float) -> np.ndarray:
    """H (4, 3) of the standard layout in closed form, rows FL, FR, RL, RR:

        H = 1/R [[1, −1, −(a+b)], [1, 1, a+b], [1, 1, −(a+b)], [1, −1, a+b]]
    """
    a = check.positive(half_length, "half_length")
    b = check.positive(half_width, "half_width")
    R = check.positive(wheel_radius, "wheel_radius")
    k = a + b
    H = np.array([[1.0, -1.0, -k], [1.0, 1.0, k], [1.0, 1.0, -k], [1.0, -1.0, k]]) / R
    return check.finite_result(H, "H", "half_length, half_width, wheel_radius")


def mecanum_wheel_speeds(v_body, half_length: float, half_width: float, wheel_radius: float) -> np.ndarray:
    """Inverse kinematics ω = H v (4,) in rad/s, order FL, FR, RL, RR, positive = rolls forward.

    v_body = (v_x forward [m/s], v_y left [m/s], ω_z counter-clockwise [rad/s]); half_length a,
    half_width b, wheel_radius R in metres.

    >>> mecanum_wheel_speeds([0.0, 1.0, 0.0], 0.2, 0.15, 0.05)    # strafe left
    array([-20.,  20.,  20., -20.])
    >>> mecanum_wheel_speeds([0.0, 0.0, 1.0], 0.2, 0.15, 0.05)    # spin counter-clockwise
    array([-7.,  7., -7.,  7.])
    """
    v = check.vector(v_body, 3, "v_body")
    w = mecanum_matrix(half_length, half_width, wheel_radius) @ v
    return check.finite_result(w, "the wheel speeds", "v_body, half_length, half_width, wheel_radius")


def chassis_twist(H, wheel_speeds) -> tuple[np.ndarray, np.ndarray]:
    """Forward kinematics by least squares: v = argmin |ω − H v|, and the residual r = ω − H v.

    H (n, 3) of rank 3; wheel_speeds (n,) -> v (3,), r (n,)   or   (N, n) -> (N, 3), (N, n).
    A nonzero r means the wheel speeds are not those of any rigid chassis motion (a slipping or
    stalled wheel, a wrong sign in H or in an encoder). For the standard layout the least-squares
    twist is also the steady motion of a chassis whose wheels slip against equal linear friction.

    >>> H = mecanum_matrix(0.2, 0.15, 0.05)
    >>> v, r = chassis_twist(H, H @ [0.3, -0.2, 0.5])
    >>> np.round(v, 6), bool(np.allclose(r, 0.0))
    (array([ 0.3, -0.2,  0.5]), True)
    """
    H = _full_rank_H(H)
    n = H.shape[0]
    w = check._finite(check._array(wheel_speeds, "wheel_speeds"), "wheel_speeds")
    if w.ndim not in (1, 2) or w.shape[-1] != n or (w.ndim == 2 and w.shape[0] == 0):
        raise check.InputError(f"wheel_speeds must have shape ({n},) or (N, {n}), one speed per row of H, "
                               f"got shape {w.shape}")
    v = np.linalg.lstsq(H, w.T, rcond=None)[0].T
    return check.finite_result((v, w - v @ H.T), "the chassis twist", "H, wheel_speeds")


def _full_rank_H(H, name: str = "H") -> np.ndarray:
    H = check.matrix(H, (None, 3), name)
    rank = np.linalg.matrix_rank(H) if H.shape[0] else 0
    if rank < 3:
        raise check.InputError(f"{name} must have rank 3 to recover (v_x, v_y, ω_z), got rank {rank}")
    return H

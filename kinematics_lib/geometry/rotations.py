"""Rotations in 3-D: skew matrices, elementary rotations, roll-pitch-yaw, quaternions, exp/log.

Conventions (see docs/notation.md):

* ``R_AB`` is the orientation of frame B in frame A: it maps B-coordinates to A-coordinates,
  so ``R_AB @ R_BC == R_AC``.
* Angles are in radians.
* Quaternions are stored **(x, y, z, w)** -- vector part first, as in Pinocchio, Eigen's
  ``coeffs()`` and ROS messages. ``matrix_to_quat`` returns the representative with w >= 0.
* Roll-pitch-yaw (``rpy``) is the URDF convention: R = Rz(yaw) Ry(pitch) Rx(roll), i.e. rotate
  about the fixed x axis by roll, then fixed y by pitch, then fixed z by yaw.
"""

from __future__ import annotations

import math

import numpy as np

from .. import _validate as check
from . import kernels
from .kernels import skew as _skew

__all__ = [
    "skew",
    "vee",
    "rot_x",
    "rot_y",
    "rot_z",
    "rpy_to_matrix",
    "matrix_to_rpy",
    "rpy_rate_matrix",
    "quat_to_matrix",
    "matrix_to_quat",
    "quat_multiply",
    "so3_exp",
    "so3_log",
    "axis_angle_to_matrix",
    "matrix_to_axis_angle",
]


def skew(w) -> np.ndarray:
    """Cross-product matrix [w]x, so that ``skew(w) @ u == np.cross(w, u)``.

    w: (3,)  ->  (3, 3) skew-symmetric.

    >>> skew([1.0, 2.0, 3.0])
    array([[ 0., -3.,  2.],
           [ 3.,  0., -1.],
           [-2.,  1.,  0.]])
    """
    return kernels.skew(check.vector(w, 3, "w"))


def vee(S) -> np.ndarray:
    """Inverse of :func:`skew`: the vector w of a skew-symmetric 3x3 matrix (its skew part).

    >>> vee(skew([1.0, 2.0, 3.0]))
    array([1., 2., 3.])
    """
    return kernels.vee(check.matrix(S, (3, 3), "S"))


def rot_x(angle: float) -> np.ndarray:
    """Rotation by ``angle`` (rad) about the x axis, R_x(angle): (3, 3)."""
    c, s = math.cos(check.scalar(angle, "angle")), math.sin(angle)
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def rot_y(angle: float) -> np.ndarray:
    """Rotation by ``angle`` (rad) about the y axis, R_y(angle): (3, 3)."""
    c, s = math.cos(check.scalar(angle, "angle")), math.sin(angle)
    return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


def rot_z(angle: float) -> np.ndarray:
    """Rotation by ``angle`` (rad) about the z axis, R_z(angle): (3, 3).

    >>> np.round(rot_z(np.pi / 2) @ [1.0, 0.0, 0.0], 12)
    array([0., 1., 0.])
    """
    c, s = math.cos(check.scalar(angle, "angle")), math.sin(angle)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def rpy_to_matrix(rpy) -> np.ndarray:
    """R = Rz(yaw) Ry(pitch) Rx(roll) from rpy = (roll, pitch, yaw) in rad (URDF convention)."""
    roll, pitch, yaw = check.vector(rpy, 3, "rpy")
    return rot_z(yaw) @ rot_y(pitch) @ rot_x(roll)


def rpy_rate_matrix(rpy) -> np.ndarray:
    """E(rpy) (3, 3) such that omega_W = E @ d(rpy)/dt, for R_WB = Rz(yaw) Ry(pitch) Rx(roll).

    The columns are the three "gimbal" axes in world coordinates: the roll axis
    Rz(yaw) Ry(pitch) e_x (= x_B), the pitch axis Rz(yaw) e_y and the yaw axis e_z.
    det E = cos(pitch): at pitch = +-pi/2 the roll and yaw axes coincide and E is singular
    (gimbal lock, 万向锁). rpy in rad (3,).

    >>> bool(np.isclose(np.linalg.det(rpy_rate_matrix([0.3, 0.5, -1.0])), np.cos(0.5)))
    True
    """
    _, pitch, yaw = check.vector(rpy, 3, "rpy")
    Rz = rot_z(yaw)
    return np.column_stack([Rz @ rot_y(pitch)[:, 0], Rz[:, 1], [0.0, 0.0, 1.0]])


def matrix_to_rpy(R) -> np.ndarray:
    """(roll, pitch, yaw) with pitch in [-pi/2, pi/2] such that ``rpy_to_matrix`` gives R.

    At the gimbal lock (pitch = +-pi/2, 万向锁) roll and yaw are not unique; roll = 0 is returned
    and yaw carries the whole rotation about the vertical.

    >>> np.round(matrix_to_rpy(rpy_to_matrix([0.1, -0.2, 0.3])), 12)
    array([ 0.1, -0.2,  0.3])
    """
    R = check.rotation(R, "R")
    pitch = math.atan2(-R[2, 0], math.hypot(R[0, 0], R[1, 0]))
    if math.hypot(R[0, 0], R[1, 0]) < 1e-9:  # gimbal lock: cos(pitch) = 0
        return np.array([0.0, pitch, math.atan2(-R[0, 1], R[1, 1])])
    return np.array([math.atan2(R[2, 1], R[2, 2]), pitch, math.atan2(R[1, 0], R[0, 0])])


def quat_to_matrix(quat) -> np.ndarray:
    """Rotation matrix of a unit quaternion (x, y, z, w).

    The quaternion must have norm 1 within 1e-6 (normalise it first otherwise).

    >>> quat_to_matrix([0.0, 0.0, 0.0, 1.0])
    array([[1., 0., 0.],
           [0., 1., 0.],
           [0., 0., 1.]])
    """
    x, y, z, w = check.unit_quaternion(quat, "quat")
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )


def matrix_to_quat(R) -> np.ndarray:
    """Unit quaternion (x, y, z, w) with w >= 0 of a rotation matrix (Shepperd's method).

    >>> np.round(matrix_to_quat(rot_z(np.pi / 2)), 12)
    array([0.        , 0.        , 0.70710678, 0.70710678])
    """
    R = check.rotation(R, "R")
    trace = np.trace(R)
    diag = np.diag(R)
    k = int(np.argmax([diag[0], diag[1], diag[2], trace]))
    if k == 3:  # w is the largest component
        w = 0.5 * math.sqrt(1.0 + trace)
        q = np.array([R[2, 1] - R[1, 2], R[0, 2] - R[2, 0], R[1, 0] - R[0, 1], 0.0]) / (4.0 * w)
        q[3] = w
    else:  # the k-th vector component is the largest
        i, j, l = k, (k + 1) % 3, (k + 2) % 3
        qi = 0.5 * math.sqrt(1.0 + R[i, i] - R[j, j] - R[l, l])
        q = np.zeros(4)
        q[i] = qi
        q[j] = (R[j, i] + R[i, j]) / (4.0 * qi)
        q[l] = (R[l, i] + R[i, l]) / (4.0 * qi)
        q[3] = (R[l, j] - R[j, l]) / (4.0 * qi)
    q /= np.linalg.norm(q)
    return -q if q[3] < 0.0 else q


def quat_multiply(q1, q2) -> np.ndarray:
    """Hamilton product q1 * q2 of quaternions (x, y, z, w); R(q1 * q2) = R(q1) @ R(q2)."""
    x1, y1, z1, w1 = check.vector(q1, 4, "q1")
    x2, y2, z2, w2 = check.vector(q2, 4, "q2")
    return np.array(
        [
            w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
            w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
            w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2,
            w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
        ]
    )


def so3_exp(phi) -> np.ndarray:
    """Rodrigues' formula: R = exp([phi]x) for a rotation vector phi = angle * axis (rad).

    R = I + sin t [n]x + (1 - cos t) [n]x^2,  t = |phi|, n = phi / t.
    For t < 1e-6 the Taylor series of I + (sin t / t) [phi]x + ((1 - cos t) / t^2) [phi]x^2 is
    used, so small angles lose no digits; t = hypot(phi) never overflows, so any finite phi works.
    """
    phi = check.vector(phi, 3, "phi")
    t = math.hypot(*phi)
    if t < 1e-6:
        t2 = t * t
        K = _skew(phi)
        return np.eye(3) + (1.0 - t2 / 6.0) * K + (0.5 - t2 / 24.0) * (K @ K)
    K = _skew(phi / t)
    return np.eye(3) + math.sin(t) * K + (1.0 - math.cos(t)) * (K @ K)


def so3_log(R) -> np.ndarray:
    """Rotation vector phi (|phi| in [0, pi]) with ``so3_exp(phi) == R``.

    The angle is t = atan2(|w|, cos t) with w = vee(R) = sin(t) n and cos t = (tr R - 1)/2;
    unlike acos(cos t) this keeps full precision near t = 0 and near t = pi. Three regimes: the
    generic formula phi = (t / sin t) w; a Taylor series for t -> 0; and, near pi where sin t -> 0
    and the direction of w is lost in rounding, the axis read from the symmetric part
    (R + R^T)/2 = cos t I + (1 - cos t) n n^T, which stays accurate up to t = pi exactly.

    >>> np.round(so3_log(rot_x(0.3)), 12)
    array([0.3, 0. , 0. ])
    >>> float(np.linalg.norm(so3_log(rot_z(1e-9))))  # acos((tr R - 1)/2) would give 0 here
    1e-09
    """
    R = check.rotation(R, "R")
    cos_t = min(1.0, max(-1.0, 0.5 * (np.trace(R) - 1.0)))
    w = vee(R)  # = sin(t) * n
    sin_t = float(np.linalg.norm(w))
    t = math.atan2(sin_t, cos_t)
    if t < 1e-6:
        return (1.0 + t * t / 6.0) * w
    if t < math.pi - 0.1:
        return t / sin_t * w
    # near pi: R = cos t I + sin t [n]x + (1 - cos t) n n^T, so n n^T = ((R + R^T)/2 - cos t I) / (1 - cos t)
    B = (0.5 * (R + R.T) - cos_t * np.eye(3)) / (1.0 - cos_t)
    k = int(np.argmax(np.diag(B)))
    n = B[:, k] / math.sqrt(B[k, k])
    if n @ w < 0.0:  # pick the sign that matches the (small) skew part
        n = -n
    n /= np.linalg.norm(n)
    # refine the angle with both sin and cos so the result is exact away from pi too
    t = math.atan2(float(n @ w), cos_t)
    return t * n


def axis_angle_to_matrix(axis, angle: float) -> np.ndarray:
    """Rotation by ``angle`` (rad) about the unit vector ``axis`` (normalised here)."""
    axis = check.vector(axis, 3, "axis")
    norm = math.hypot(*axis)
    if norm < 1e-12:
        raise check.InputError(f"axis must be a non-zero vector, got {axis}")
    return so3_exp(axis / norm * check.scalar(angle, "angle"))


def matrix_to_axis_angle(R) -> tuple[np.ndarray, float]:
    """(unit axis, angle in [0, pi]); for the identity the axis is (0, 0, 1) by convention."""
    phi = so3_log(R)
    angle = float(np.linalg.norm(phi))
    if angle < 1e-12:
        return np.array([0.0, 0.0, 1.0]), 0.0
    return phi / angle, angle

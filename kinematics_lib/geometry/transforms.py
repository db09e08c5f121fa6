"""Rigid transforms (齐次变换): homogeneous matrices, inverse, adjoint, pose error.

``T_AB`` is the pose of frame B in frame A (4x4): ``p_A = T_AB @ [p_B, 1]`` and
``T_AB @ T_BC == T_AC``.  Twists and wrenches are 6-vectors in **[linear; angular]** order
(the order of Pinocchio and of the documents' Jacobians).
"""

from __future__ import annotations

import math

import numpy as np

from .. import _validate as check
from .rotations import _skew, quat_multiply, rpy_to_matrix, skew, so3_exp, so3_log, vee

__all__ = [
    "make_transform",
    "transform_inverse",
    "translation",
    "transform_from_xyz_rpy",
    "adjoint",
    "pose_error",
    "se3_exp",
    "se3_log",
    "se3_hat",
    "se3_vee",
    "slerp",
]


def make_transform(R, p) -> np.ndarray:
    """T = [[R, p], [0, 1]] from a rotation R (3, 3) and a translation p (3,) in metres."""
    T = np.eye(4)
    T[:3, :3] = check.rotation(R, "R")
    T[:3, 3] = check.vector(p, 3, "p")
    return T


def translation(p) -> np.ndarray:
    """Pure translation by p (3,) in metres."""
    return make_transform(np.eye(3), p)


def transform_from_xyz_rpy(xyz, rpy) -> np.ndarray:
    """The URDF ``<origin xyz=... rpy=...>`` transform: T = [[Rz Ry Rx, xyz], [0, 1]]."""
    T = np.eye(4)
    T[:3, :3] = rpy_to_matrix(rpy)
    T[:3, 3] = check.vector(xyz, 3, "xyz")
    return T


def transform_inverse(T_AB) -> np.ndarray:
    """T_BA = T_AB^-1 = [[R^T, -R^T p], [0, 1]] (exact, no general matrix inverse).

    >>> T = transform_from_xyz_rpy([1.0, 2.0, 3.0], [0.1, 0.2, 0.3])
    >>> bool(np.allclose(transform_inverse(T) @ T, np.eye(4)))
    True
    """
    T_AB = check.transform(T_AB, "T_AB")
    R, p = T_AB[:3, :3], T_AB[:3, 3]
    T_BA = np.eye(4)
    T_BA[:3, :3] = R.T
    T_BA[:3, 3] = -R.T @ p
    return T_BA


def adjoint(T_AB) -> np.ndarray:
    """Adjoint Ad(T_AB) (6, 6): maps a twist expressed in B to the same twist expressed in A.

    With twists in [linear; angular] order, V_A = Ad(T_AB) V_B and
    Ad(T_AB) = [[R, [p]x R], [0, R]]  (R = R_AB, p = p_AB).
    It is a homomorphism: Ad(T_AB) @ Ad(T_BC) == Ad(T_AC).  Wrenches map with the
    transpose of the inverse: F_A = Ad(T_BA)^T F_B.
    """
    T_AB = check.transform(T_AB, "T_AB")
    R, p = T_AB[:3, :3], T_AB[:3, 3]
    Ad = np.zeros((6, 6))
    Ad[:3, :3] = R
    Ad[:3, 3:] = skew(p) @ R
    Ad[3:, 3:] = R
    return Ad


def se3_exp(twist) -> np.ndarray:
    """exp of a twist xi = [v; w] (6,): the pose reached after one second at constant xi.

    T = [[exp([w]x), V v], [0, 1]],  V = I + (1 - cos t)/t [n]x + (t - sin t)/t [n]x^2
    (t = |w|, n = w / t; for t < 1e-6 the Taylor series in [w]x).
    """
    v, w = np.split(check.vector(twist, 6, "twist"), 2)
    t = math.hypot(*w)
    if t < 1e-6:
        t2 = t * t
        K, b, c = skew(w), 0.5 - t2 / 24.0, 1.0 / 6.0 - t2 / 120.0
    else:
        K, b, c = skew(w / t), (1.0 - math.cos(t)) / t, (t - math.sin(t)) / t
    T = np.eye(4)
    T[:3, :3] = so3_exp(w)
    T[:3, 3] = (np.eye(3) + b * K + c * K @ K) @ v
    return check.finite_result(T, "the pose", "twist")


def se3_log(T) -> np.ndarray:
    """The twist xi = [v; w] (6,) with ``se3_exp(xi) == T`` (|w| in [0, pi]): SE(3)'s logarithm.

    T (4, 4) = [[R, p], [0, 1]] -> w = so3_log(R) (rad), v = V^-1 p (m), with
    V^-1 = I - 1/2 [w]x + (1 - t sin t / (2 (1 - cos t))) / t^2 [w]x^2  (t = |w|; for t < 0.1
    the coefficient's series 1/12 + t^2/720 + t^4/30240 + t^6/1209600). Twist order [linear; angular] as Pinocchio's
    ``log6``; Modern Robotics' ``MatrixLog6`` returns the same twist as a matrix in [w; v] order.

    >>> xi = np.array([0.1, -0.2, 0.3, 0.4, 0.5, -0.6])
    >>> bool(np.allclose(se3_log(se3_exp(xi)), xi))
    True
    """
    T = check.transform(T, "T")
    w = so3_log(T[:3, :3])
    t = math.hypot(*w)
    if t < 0.1:  # the closed form loses digits to cancellation (1 - t/2 cot(t/2) ~ t^2/12)
        t2 = t * t
        c = 1.0 / 12.0 + t2 * (1.0 / 720.0 + t2 * (1.0 / 30240.0 + t2 / 1209600.0))
    else:
        c = (1.0 - t * math.sin(t) / (2.0 * (1.0 - math.cos(t)))) / (t * t)
    K = _skew(w)
    v = (np.eye(3) - 0.5 * K + c * K @ K) @ T[:3, 3]
    return check.finite_result(np.concatenate([v, w]), "the twist", "T")


def se3_hat(twist) -> np.ndarray:
    """The 4x4 matrix of a twist xi = [v; w] (6,):  xi^ = [[[w]x, v], [0, 0]]  (an element of se(3)).

    exp(xi^) as a matrix exponential equals :func:`se3_exp` (xi); units of v m (or m/s), of w rad (or rad/s).
    """
    v, w = np.split(check.vector(twist, 6, "twist"), 2)
    X = np.zeros((4, 4))
    X[:3, :3] = _skew(w)
    X[:3, 3] = v
    return X


def se3_vee(X) -> np.ndarray:
    """The twist [v; w] (6,) of a 4x4 se(3) matrix X = [[[w]x, v], [0, 0]]: the inverse of :func:`se3_hat`.

    X must have a skew-symmetric upper-left block and a zero last row (within 1e-9 of its largest entry).
    """
    X = check.matrix(X, (4, 4), "X")
    scale = max(float(np.abs(X).max()), 1e-300)
    W = X[:3, :3]
    if np.abs(W + W.T).max() > 1e-9 * scale or np.abs(X[3]).max() > 1e-9 * scale:
        raise check.InputError("X must be an se(3) matrix [[[w]x, v], [0, 0]] (skew-symmetric upper-left "
                               f"block, zero last row), got {check.describe(X)}")
    return np.concatenate([X[:3, 3], vee(W)])


def slerp(q0, q1, s) -> np.ndarray:
    """Spherical linear interpolation of unit quaternions (x, y, z, w), along the shorter arc.

    q(s) = q0 * exp(s log(q0^-1 q1)): the rotation moves about one fixed axis at a constant rate,
    R(q(s)) = R0 exp(s log(R0^T R1)) (the geodesic of SO(3)). s: a number or an array (n,)
    (0 gives q0, 1 gives q1 or -q1, the same rotation) -> (4,) or (n, 4), each with w >= 0 when
    the shorter arc allows; angles in rad.
    """
    q0 = check.unit_quaternion(q0, "q0")
    q1 = check.unit_quaternion(q1, "q1")
    s_arr = check._finite(check._array(s, "s"), "s")
    if s_arr.ndim > 1 or s_arr.size == 0:
        raise check.InputError(f"s must be a number or a non-empty 1-D array of numbers, got shape {s_arr.shape}")
    q0, q1 = q0 / np.linalg.norm(q0), q1 / np.linalg.norm(q1)
    r = quat_multiply(np.array([-q0[0], -q0[1], -q0[2], q0[3]]), q1)  # q0^-1 q1
    if r[3] < 0.0:  # q and -q are one rotation: take the shorter arc
        r = -r
    sin_h = math.hypot(*r[:3])
    half = math.atan2(sin_h, r[3])  # half the rotation angle, in [0, pi/2]
    ss = np.atleast_1d(s_arr)
    vec = np.outer(np.sin(ss * half) / sin_h if sin_h > 0.0 else ss, r[:3])  # sin_h = 0: r = identity
    steps = np.column_stack([vec, np.cos(ss * half)])
    out = np.array([quat_multiply(q0, st) for st in steps])
    return out[0] if s_arr.ndim == 0 else out


def pose_error(T_current, T_target) -> np.ndarray:
    """Pose error e = [p_t - p_c; log(R_t R_c^T)] (6,), world-aligned, [linear; angular].

    Units m and rad. This is the error that the geometric Jacobian (rows [linear; angular],
    world-aligned axes at the end-effector origin) drives to zero in Newton IK.
    """
    T_c = check.transform(T_current, "T_current")
    T_t = check.transform(T_target, "T_target")
    return np.concatenate([T_t[:3, 3] - T_c[:3, 3], so3_log(T_t[:3, :3] @ T_c[:3, :3].T)])

"""Rigid transforms (齐次变换): homogeneous matrices, inverse, adjoint, pose error.

``T_AB`` is the pose of frame B in frame A (4x4): ``p_A = T_AB @ [p_B, 1]`` and
``T_AB @ T_BC == T_AC``.  Twists and wrenches are 6-vectors in **[linear; angular]** order
(the order of Pinocchio and of the documents' Jacobians).
"""

from __future__ import annotations

import math

import numpy as np

from .. import _validate as check
from .rotations import rpy_to_matrix, skew, so3_exp, so3_log

__all__ = [
    "make_transform",
    "transform_inverse",
    "translation",
    "transform_from_xyz_rpy",
    "adjoint",
    "pose_error",
    "se3_exp",
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


def pose_error(T_current, T_target) -> np.ndarray:
    """Pose error e = [p_t - p_c; log(R_t R_c^T)] (6,), world-aligned, [linear; angular].

    Units m and rad. This is the error that the geometric Jacobian (rows [linear; angular],
    world-aligned axes at the end-effector origin) drives to zero in Newton IK.
    """
    T_c = check.transform(T_current, "T_current")
    T_t = check.transform(T_target, "T_target")
    return np.concatenate([T_t[:3, 3] - T_c[:3, 3], so3_log(T_t[:3, :3] @ T_c[:3, :3].T)])

"""Joint models: the joint transform and motion subspace of each joint type (RBDA Table 4.1).

``joint_motion(kind, axis, q_i) -> (XJ, S)`` is spatial_v2's ``jcalc``: the motion transform
across the joint (from the joint's placement frame to the moving body frame) and the motion
subspace S (6, nv_i) in body coordinates, [linear; angular] as everywhere in the library.
The parent-to-body transform of body i is then ``Xup[i] = XJ @ model.X_tree[i]``.

=============  ==========================================  =====================================
type           XJ (R, p of the body in the placement)      S
=============  ==========================================  =====================================
revolute       R = exp([axis] q), p = 0                    [0; axis]
continuous     the same (one coordinate, no limits)        [0; axis]
prismatic      R = 1, p = axis q                           [axis; 0]
free           R = R(quaternion), p = q[:3]                1_6 (v = [linear; angular], body frame)
=============  ==========================================  =====================================

The free joint is a floating base's root joint: six degrees of freedom in one joint, S the
6 x 6 identity, so that its velocity is the body's own spatial velocity (the document's six
"virtual joints", three prismatic then three revolute, give the same motion with a different
velocity coordinate; chapter 5 compares them). Inputs are not checked here (see
:func:`kinematics_lib.jcalc` for the checked, public form).
"""

from __future__ import annotations

import math

import numpy as np

from ..geometry.rotations import axis_angle_to_matrix, quat_to_matrix
from ..geometry.spatial import motion_transform
from .. import _validate as check
from .model import Model, _check_quaternions, state

__all__ = ["jcalc", "joint_transforms"]


def joint_motion(kind: str, axis: np.ndarray, q_i: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(XJ (6, 6), S (6, nv_i)) of one joint at its coordinates q_i (rad, m; a free joint: [p, quat xyzw])."""
    if kind == "free":
        return motion_transform(quat_to_matrix(q_i[3:7]), q_i[:3]), np.eye(6)
    if kind == "prismatic":
        return motion_transform(np.eye(3), axis * q_i[0]), np.concatenate([axis, np.zeros(3)])[:, None]
    return motion_transform(axis_angle_to_matrix(axis, q_i[0]), np.zeros(3)), np.concatenate([np.zeros(3), axis])[:, None]


def jcalc(model: Model, i: int, q_i) -> tuple[np.ndarray, np.ndarray]:
    """(Xup_i, S_i): motion transform parent -> body i at joint coordinates q_i, and the motion subspace.

    Xup_i = X_J(q_i) X_tree_i (RBDA eq. 4.x); S_i (6, nv_i) in body-i coordinates. i: body index
    (0 ... nb - 1); q_i (nq_i,): that joint's coordinates (a free joint's quaternion of unit norm).
    """
    i, q_i = _joint_coordinates(model, i, q_i)
    return _jcalc(model, i, q_i)


def _joint_coordinates(model: Model, i, q_i) -> tuple[int, np.ndarray]:
    """(i, q_i) checked: a body index of ``model`` and that joint's coordinates (unit quaternion if free)."""
    check.model(model)
    i = check.integer(i, "i", 0, model.nb - 1)
    q_i = check.vector(q_i, model.q_slice[i].stop - model.q_slice[i].start, "q_i")
    if model.joint_types[i] == "free":
        _check_quaternions(q_i[None], (slice(3, 7),), "q_i")
    return i, q_i


def _jcalc(model: Model, i: int, q_i) -> tuple[np.ndarray, np.ndarray]:
    """:func:`jcalc` on checked input."""
    kind = model.joint_types[i]
    d = model._plan
    if kind == "revolute" or kind == "continuous":
        q = q_i[0]
        Xup = d.X_tree[i] + math.sin(q) * d.P1[i] + (1.0 - math.cos(q)) * d.P2[i]
    elif kind == "prismatic":
        Xup = d.X_tree[i] + q_i[0] * d.P1[i]
    else:  # free: the body's pose (R, p) in the world, from [p, quaternion]
        Xup = _free_joint_X(q_i)
        if not d.tree_is_identity[i]:
            Xup = Xup @ d.X_tree[i]
    return Xup, d.S[i]


def _free_joint_X_single(q_i) -> np.ndarray:
    """X = [[R^T, -R^T [p]x], [0, R^T]] for q_i = [p, quaternion x y z w] (unit norm within tolerance).

    Written out with Python floats (one array construction): it runs once per dynamics call
    on a floating-base robot, where numpy's per-call overhead would dominate.
    """
    px, py, pz, x, y, z, w = q_i.tolist()
    s = 2.0 / (x * x + y * y + z * z + w * w)  # normalises the quaternion on the fly
    # rows of R^T (= columns of R)
    a0, a1, a2 = 1 - s * (y * y + z * z), s * (x * y + z * w), s * (x * z - y * w)
    b0, b1, b2 = s * (x * y - z * w), 1 - s * (x * x + z * z), s * (y * z + x * w)
    c0, c1, c2 = s * (x * z + y * w), s * (y * z - x * w), 1 - s * (x * x + y * y)
    # -R^T [p]x, row by row: -(r x p)^T ... written as r x p with r a row of R^T
    return np.array([
        [a0, a1, a2, a2 * py - a1 * pz, a0 * pz - a2 * px, a1 * px - a0 * py],
        [b0, b1, b2, b2 * py - b1 * pz, b0 * pz - b2 * px, b1 * px - b0 * py],
        [c0, c1, c2, c2 * py - c1 * pz, c0 * pz - c2 * px, c1 * px - c0 * py],
        [0.0, 0.0, 0.0, a0, a1, a2],
        [0.0, 0.0, 0.0, b0, b1, b2],
        [0.0, 0.0, 0.0, c0, c1, c2]])


def joint_transforms(model: Model, q) -> np.ndarray:
    """Xup (nb, 6, 6) for all joints at once: :func:`jcalc` vectorised over the bodies.

    For every 1-dof joint Xup_i = X_tree_i + c1_i P1_i + c2_i P2_i with (c1, c2) = (sin q, 1 - cos q)
    for revolute joints and (q, 0) for prismatic ones; a free root joint is computed on its own.
    A batch q (N, nq) gives (N, nb, 6, 6).
    """
    (q,) = state(model, q)
    X = _joint_transforms(model, q)
    return X if q.ndim == 1 else np.moveaxis(X, 0, 1)


def _joint_coefficients(model: Model, q: np.ndarray, level_order: bool = False) -> np.ndarray:
    """[1, c1, c2] per body (nb, [N,] 3): Xup_i = [1, c1, c2] . [X_tree_i, P1_i, P2_i] (see above).

    Bodies in index order, or in level order (the order of the level-by-level passes)."""
    d = model._plan
    qj = q[..., d.q1_lv if level_order else d.q1]  # ([N,] nb); a free joint reads a dummy coordinate, overwritten later
    coeffs = np.empty((model.nb,) + q.shape[:-1] + (3,))
    qj = qj.T  # (nb, [N])
    coeffs[..., 0] = 1.0
    if d.all_revolute:
        coeffs[..., 1], coeffs[..., 2] = np.sin(qj), 1.0 - np.cos(qj)
    else:
        rev = (d.revolute_lv if level_order else d.revolute).reshape((model.nb,) + (1,) * (q.ndim - 1))
        coeffs[..., 1] = np.where(rev, np.sin(qj), qj)
        coeffs[..., 2] = np.where(rev, 1.0 - np.cos(qj), 0.0)
    return coeffs


def _joint_transforms(model: Model, q: np.ndarray) -> np.ndarray:
    """:func:`joint_transforms` on a checked q (nq,) -> (nb, 6, 6) or (N, nq) -> (nb, N, 6, 6):
    body first, so that ``Xup[i]`` is body i's transform (or stack of N transforms)."""
    d = model._plan
    coeffs = _joint_coefficients(model, q)
    if q.ndim == 1:
        Xup = (coeffs[:, None, :] @ d.P).reshape(model.nb, 6, 6)
    else:  # one (N, 3) @ (3, 36) product per body
        Xup = (coeffs @ d.P).reshape(model.nb, q.shape[0], 6, 6)
    for i in d.free:
        Xup[i] = _free_joint_X(q[..., model.q_slice[i]])
        if not d.tree_is_identity[i]:
            Xup[i] = Xup[i] @ d.X_tree[i]
    return Xup


def quaternion_matrices(quat: np.ndarray) -> np.ndarray:
    """R (..., 3, 3) of quaternions (..., 4) [x, y, z, w] (divided by the squared norm, which the
    callers have checked to be 1 within tolerance): R is a quadratic form in the quaternion."""
    x, y, z, w = quat[..., 0], quat[..., 1], quat[..., 2], quat[..., 3]
    s = 2.0 / (x * x + y * y + z * z + w * w)
    R = np.empty(quat.shape[:-1] + (3, 3))
    R[..., 0, 0] = 1 - s * (y * y + z * z)
    R[..., 0, 1] = s * (x * y - z * w)
    R[..., 0, 2] = s * (x * z + y * w)
    R[..., 1, 0] = s * (x * y + z * w)
    R[..., 1, 1] = 1 - s * (x * x + z * z)
    R[..., 1, 2] = s * (y * z - x * w)
    R[..., 2, 0] = s * (x * z - y * w)
    R[..., 2, 1] = s * (y * z + x * w)
    R[..., 2, 2] = 1 - s * (x * x + y * y)
    return R


def _free_joint_pose(q_i: np.ndarray) -> np.ndarray:
    """T (4, 4) -- or (N, 4, 4) -- of a free joint at q_i = [p, quaternion x y z w]."""
    if q_i.ndim == 1:
        px, py, pz, x, y, z, w = q_i.tolist()
        s = 2.0 / (x * x + y * y + z * z + w * w)
        return np.array([
            [1 - s * (y * y + z * z), s * (x * y - z * w), s * (x * z + y * w), px],
            [s * (x * y + z * w), 1 - s * (x * x + z * z), s * (y * z - x * w), py],
            [s * (x * z - y * w), s * (y * z + x * w), 1 - s * (x * x + y * y), pz],
            [0.0, 0.0, 0.0, 1.0]])
    T = np.zeros((q_i.shape[0], 4, 4))
    T[:, :3, :3] = quaternion_matrices(q_i[:, 3:7])
    T[:, :3, 3] = q_i[:, :3]
    T[:, 3, 3] = 1.0
    return T


def _free_joint_X(q_i: np.ndarray) -> np.ndarray:
    """X = [[R^T, -R^T [p]x], [0, R^T]] for q_i = [p, quaternion x y z w]: (7,) -> (6, 6), (N, 7) -> (N, 6, 6)."""
    if q_i.ndim == 1:
        return _free_joint_X_single(q_i)
    Rt = np.swapaxes(quaternion_matrices(q_i[:, 3:7]), 1, 2)
    p = q_i[:, :3]
    X = np.zeros((q_i.shape[0], 6, 6))
    X[:, :3, :3] = X[:, 3:, 3:] = Rt
    # -R^T [p]x: column k of [p]x is e_k x p ... written as (R^T [p]x)_jk = (r_j x p)_k, r_j row j of R^T
    r0, r1, r2 = Rt[:, :, 0], Rt[:, :, 1], Rt[:, :, 2]
    p0, p1, p2 = p[:, None, 0], p[:, None, 1], p[:, None, 2]
    X[:, :3, 3] = r2 * p1 - r1 * p2
    X[:, :3, 4] = r0 * p2 - r2 * p0
    X[:, :3, 5] = r1 * p0 - r0 * p1
    return X

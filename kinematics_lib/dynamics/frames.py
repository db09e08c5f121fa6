"""Kinematics of kinematic trees: body poses, frame placements and frame Jacobians.

``T_WB`` is a pose in the world W. ``frame_jacobian`` returns J (6, nv) with rows
[linear; angular], evaluated at the frame origin with world-aligned axes (Pinocchio's
LOCAL_WORLD_ALIGNED): [v_origin; w] = J(q) v, for fixed and floating bases alike.
"""

from __future__ import annotations

import numpy as np

from .. import _validate as check
from .model import Model, _check_quaternions, state
from ..geometry.rotations import quat_to_matrix, so3_exp
from ..geometry.spatial import motion_transform

__all__ = ["joint_transform", "forward_kinematics", "frame_placement", "frame_jacobian", "frame_names"]


def joint_transform(model: Model, i: int, q_i) -> np.ndarray:
    """T_J (4, 4): the motion of joint i at coordinates q_i, in its joint frame.

    i: body index (0 ... nb - 1); q_i (nq_i,): that joint's coordinates (unit quaternion for 'free').
    """
    check.model(model)
    i = check.integer(i, "i", 0, model.nb - 1)
    q_i = check.vector(q_i, model.q_slice[i].stop - model.q_slice[i].start, "q_i")
    if model.joint_types[i] == "free":
        _check_quaternions(q_i[None], (slice(3, 7),), "q_i")
    return _joint_transform(model, i, q_i)


def _joint_transform(model: Model, i: int, q_i) -> np.ndarray:
    kind = model.joint_types[i]
    T = np.eye(4)
    if kind in ("revolute", "continuous"):
        T[:3, :3] = so3_exp(model.axes[i] * q_i[0])
    elif kind == "prismatic":
        T[:3, 3] = model.axes[i] * q_i[0]
    else:
        T[:3, :3] = quat_to_matrix(q_i[3:7] / np.linalg.norm(q_i[3:7]))
        T[:3, 3] = q_i[:3]
    return T


def forward_kinematics(model: Model, q) -> np.ndarray:
    """World poses of all bodies (nb, 4, 4): T_Wi = T_W,parent(i) T_tree[i] T_J(q_i)."""
    (q,) = state(model, q, batch=False)
    return check.finite_result(_forward_kinematics(model, q), "the body poses", "q")


def _forward_kinematics(model: Model, q: np.ndarray) -> np.ndarray:
    T = np.empty((model.nb, 4, 4))
    for i in range(model.nb):
        T_local = model.T_tree[i] @ _joint_transform(model, i, q[model.q_slice[i]])
        p = model.parent[i]
        T[i] = T_local if p < 0 else T[p] @ T_local
    return T


def frame_names(model: Model) -> tuple:
    """All frame names of a model (links, merged links, joints)."""
    check.model(model)
    return tuple(model.frames)


def _frame(model: Model, name: str) -> tuple[int, np.ndarray]:
    check.model(model)
    if not isinstance(name, str) or name not in model.frames:
        raise ValueError(f"link_name must be one of the model's frames, got {name!r} "
                         f"(e.g. {', '.join(list(model.frames)[:6])}, ...)")
    return model.frames[name]


def frame_placement(model: Model, q, link_name: str) -> np.ndarray:
    """T_WF (4, 4): pose of frame ``link_name`` in the world at configuration q."""
    body, T_BF = _frame(model, link_name)
    (q,) = state(model, q, batch=False)
    if body < 0:
        return np.array(T_BF)
    return check.finite_result(_forward_kinematics(model, q)[body] @ T_BF, "T_WF", "q")


def frame_jacobian(model: Model, q, link_name: str) -> np.ndarray:
    """J (6, nv): [v; w] of frame ``link_name`` = J v, at the frame origin, world-aligned axes.

    Columns of the supporting joints are their world-frame motion subspaces S_w = Ad(T_Wj) S_j,
    shifted from the world origin to the frame origin p: [v_p; w] = [[1, -[p]x], [0, 1]] [v_O; w].
    """
    body, T_BF = _frame(model, link_name)
    (q,) = state(model, q, batch=False)
    T = _forward_kinematics(model, q)
    J = np.zeros((6, model.nv))
    if body < 0:
        return J
    p = (T[body] @ T_BF)[:3, 3]
    j = body
    while j >= 0:
        X_0j = np.linalg.inv(motion_transform(T[j][:3, :3], T[j][:3, 3]))  # body j -> world
        J[:, model.v_slice[j]] = X_0j @ model.S[j]
        j = model.parent[j]
    shift = np.eye(6)
    shift[:3, 3:] = -np.array([[0.0, -p[2], p[1]], [p[2], 0.0, -p[0]], [-p[1], p[0], 0.0]])
    return check.finite_result(shift @ J, "J", "q")

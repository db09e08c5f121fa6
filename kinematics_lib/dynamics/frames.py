"""Kinematics of kinematic trees: body poses, frame placements and frame Jacobians.

``T_WB`` is a pose in the world W. ``frame_jacobian`` returns J (6, nv) with rows
[linear; angular], evaluated at the frame origin with world-aligned axes (Pinocchio's
LOCAL_WORLD_ALIGNED): [v_origin; w] = J(q) v, for fixed and floating bases alike.
"""

from __future__ import annotations

import numpy as np

from .. import _validate as check
from ._engine import _level_motions, _level_transforms, _outward, _velocity_products
from .joints import _free_joint_pose, _joint_coefficients, _joint_coordinates
from .model import Model, state
from ..geometry.kernels import cross
from ..geometry.rotations import quat_to_matrix, so3_exp
from ..geometry.spatial import motion_transform
from ..geometry.transforms import adjoint, transform_inverse

__all__ = ["joint_transform", "forward_kinematics", "frame_placement", "frame_jacobian", "frame_names",
           "frame_jacobian_time_variation", "frame_bias_accelerations", "screw_axes", "external_wrenches"]


def joint_transform(model: Model, i: int, q_i) -> np.ndarray:
    """T_J (4, 4): the motion of joint i at coordinates q_i, in its joint frame.

    i: body index (0 ... nb - 1); q_i (nq_i,): that joint's coordinates (unit quaternion for 'free').
    """
    i, q_i = _joint_coordinates(model, i, q_i)
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


def _mm(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """A B for (4, 4) matrices or stacks of them (ndarray.dot is the faster product for one pair)."""
    return A.dot(B) if A.ndim == 2 and B.ndim == 2 else A @ B


def _local_poses(model: Model, q: np.ndarray, bodies: np.ndarray) -> np.ndarray:
    """T_tree_i T_J(q_i) for the bodies listed: (k, 4, 4), or (k, N, 4, 4) for a batch q (N, nq).

    Affine in [1, c1, c2] like Xup (see :func:`kinematics_lib.dynamics.joints.joint_transforms`).
    """
    d = model._plan
    coeffs = _joint_coefficients(model, q)[bodies]
    if q.ndim == 1:
        L = (coeffs[:, None, :] @ d.P4[bodies]).reshape(len(bodies), 4, 4)
    else:
        L = (coeffs @ d.P4[bodies]).reshape(len(bodies), q.shape[0], 4, 4)
    for k, i in enumerate(bodies):
        if model.joint_types[i] == "free":
            L[k] = _mm(model.T_tree[i], _free_joint_pose(q[..., model.q_slice[i]]))
    return L


def _world_poses(model: Model, q: np.ndarray, bodies=None) -> np.ndarray:
    """T_Wi = T_W,parent(i) T_tree_i T_J(q_i) for ``bodies`` (a support chain, root first; default
    all): (k, 4, 4) or (k, N, 4, 4). Only these bodies are visited (a foot: its 4 supports)."""
    d = model._plan
    if bodies is None:
        bodies, where = np.arange(model.nb), d.parent_array
    else:
        where = np.arange(-1, len(bodies) - 1)  # a support chain: the parent is the previous entry
    T = _local_poses(model, q, bodies)
    for k in range(1, len(bodies)):
        if where[k] >= 0:
            T[k] = _mm(T[where[k]], T[k])
    return T


def forward_kinematics(model: Model, q) -> np.ndarray:
    """World poses of all bodies (nb, 4, 4): T_Wi = T_W,parent(i) T_tree[i] T_J(q_i).

    A batch q (N, nq) gives (N, nb, 4, 4).
    """
    (q,) = state(model, q)
    T = _world_poses(model, q)
    return check.finite_result(T if q.ndim == 1 else np.moveaxis(T, 0, 1), "the body poses", "q")


def _forward_kinematics(model: Model, q: np.ndarray) -> np.ndarray:
    """(nb, 4, 4) poses for a checked single q."""
    return _world_poses(model, q)


def frame_names(model: Model) -> tuple:
    """All frame names of a model (links, merged links, joints)."""
    check.model(model)
    return tuple(model.frames)


def _frame(model: Model, name: str) -> tuple[int, np.ndarray]:
    check.model(model)
    if not isinstance(name, str) or name not in model.frames:
        raise ValueError(f"frame must be one of the model's frames, got {name!r} "
                         f"(e.g. {', '.join(list(model.frames)[:6])}, ...)")
    return model.frames[name]


def _frame_pose(model: Model, q: np.ndarray, body: int, T_BF: np.ndarray):
    """(T_WF, poses of body's support chain) for a checked q."""
    T = _world_poses(model, q, model._plan.support[body])
    return _mm(T[-1], T_BF), T


def frame_placement(model: Model, q, frame: str) -> np.ndarray:
    """T_WF (4, 4): pose of frame ``frame`` in the world at configuration q; a batch
    q (N, nq) gives (N, 4, 4). Only the bodies supporting the frame are visited."""
    body, T_BF = _frame(model, frame)
    (q,) = state(model, q)
    if body < 0:
        return np.array(T_BF) if q.ndim == 1 else np.broadcast_to(T_BF, (q.shape[0], 4, 4)).copy()
    return check.finite_result(_frame_pose(model, q, body, T_BF)[0], "T_WF", "q")


def frame_jacobian(model: Model, q, frame: str) -> np.ndarray:
    """J (6, nv): [v; w] of frame ``frame`` = J v, at the frame origin, world-aligned axes.

    The column of velocity coordinate k (joint of body j, local motion-subspace column
    s_k = [s_v; s_w]) is the world-frame motion of the frame origin p:  w_k = R_j s_w,
    v_k = R_j s_v + w_k x (p - p_j)  (T_Wj = (R_j, p_j)); only the supporting joints
    (RBDA's kappa) have non-zero columns. A batch q (N, nq) gives (N, 6, nv).
    """
    body, T_BF = _frame(model, frame)
    (q,) = state(model, q)
    J = np.zeros(q.shape[:-1] + (6, model.nv))
    if body < 0:
        return J
    T_WF, T = _frame_pose(model, q, body, T_BF)
    dofs, where, s = model._plan.support_dofs[body]  # s (nd, 3, 2): [s_v, s_w] columns
    Tk = T[where]
    Rs = Tk[..., :3, :3] @ (s if q.ndim == 1 else s[:, None])  # (nd, [N,] 3, 2)
    w = Rs[..., 1]
    v = Rs[..., 0] + cross(w, T_WF[..., :3, 3] - Tk[..., :3, 3])
    axes = (1, 0) if q.ndim == 1 else (1, 2, 0)
    J[..., :3, dofs] = v.transpose(axes)
    J[..., 3:, dofs] = w.transpose(axes)
    return check.finite_result(J, "J", "q")


def frame_jacobian_time_variation(model: Model, q, v, frame: str) -> np.ndarray:
    """dJ/dt (6, nv): the time derivative of :func:`frame_jacobian` along the motion q(t) with
    velocity v, in the same convention (frame origin, world-aligned axes, rows [linear; angular];
    Pinocchio's ``getFrameJacobianTimeVariation(..., LOCAL_WORLD_ALIGNED)``).

    Column k belongs to the joint of body c, with w_k = R_c s_w and v_k = R_c s_v + w_k x (p - p_c)
    (see :func:`frame_jacobian`); since s_v, s_w are constant in body c's frame,

        dw_k/dt = omega_c x w_k,
        dv_k/dt = omega_c x (R_c s_v) + dw_k/dt x (p - p_c) + w_k x (pdot - pdot_c),

    with omega_c, pdot_c the angular velocity and origin velocity of body c and pdot that of the
    frame origin (world axes, rad/s and m/s). Then [pddot; omegadot] = J a + Jdot v: ``Jdot @ v``
    is the velocity-product (bias) acceleration of the frame origin that task-space control
    subtracts. q (nq,), v (nv,); units of Jdot: those of J per second.
    """
    body, T_BF = _frame(model, frame)
    q, v = state(model, q, v, batch=False)
    dJ = np.zeros((6, model.nv))
    if body < 0:
        return dJ
    T_WF, T = _frame_pose(model, q, body, T_BF)
    dofs, where, s = model._plan.support_dofs[body]  # where: chain position of each dof's body
    Tk = T[where]
    Rs = Tk[:, :3, :3] @ s  # (nd, 3, 2)
    sv, w = Rs[..., 0], Rs[..., 1]
    pk, p = Tk[:, :3, 3], T_WF[:3, 3]
    vd = v[dofs][:, None]
    n_chain = T.shape[0]
    # cumulative sums along the chain (root first): omega_c, and pdot_c = A_c + omega_c x p_c - B_c
    omega, A, B = (np.zeros((n_chain, 3)) for _ in range(3))
    np.add.at(omega, where, w * vd)
    np.add.at(A, where, sv * vd)
    np.add.at(B, where, cross(w * vd, pk))
    omega, A, B = (np.cumsum(x, axis=0) for x in (omega, A, B))
    p_chain = T[:, :3, 3]
    pdot_chain = A + cross(omega, p_chain) - B
    pdot = (sv * vd).sum(axis=0) + cross((w * vd).sum(axis=0), p) - cross(w * vd, pk).sum(axis=0)
    om, pd = omega[where], pdot_chain[where]
    dw = cross(om, w)
    dv = cross(om, sv) + cross(dw, p - pk) + cross(w, pdot - pd)
    dJ[:3, dofs] = dv.T
    dJ[3:, dofs] = dw.T
    return check.finite_result(dJ, "dJ/dt", "q, v")


def frame_bias_accelerations(model: Model, q, v, frames) -> np.ndarray:
    """J̇_F v for several frames at once (k, 6): the classical acceleration [p̈; ω̇] of each frame
    origin at zero generalised acceleration a = 0 (the velocity-product or bias term of
    [p̈; ω̇] = J_F a + J̇_F v), world-aligned axes, rows [linear (m/s²); angular (rad/s²)].

    Equal to ``frame_jacobian_time_variation(model, q, v, f) @ v`` for each frame f (Pinocchio's
    ``getFrameClassicalAcceleration(..., LOCAL_WORLD_ALIGNED)`` at a = 0), but from one outward
    pass over the tree for all frames: the body twists v_i = Xup_i v_parent + S_i q̇_i and bias
    accelerations a_i = Xup_i a_parent + v_i × S_i q̇_i (body coordinates, the world at rest, no
    gravity); then for the frame origin r (in body coordinates, body pose R_b in the world)

        p̈ = R_b (a_v + a_ω × r + ω × (v_v + ω × r)),    ω̇ = R_b a_ω.

    q (nq,), v (nv,): one state; frames: a frame name or a non-empty sequence of k names
    (e.g. ``kl.ANYMAL_FEET``). A frame fixed to the world gets a zero row.
    """
    q, v = state(model, q, v, batch=False)
    names = [frames] if isinstance(frames, str) else frames
    if not hasattr(names, "__len__") or len(names) == 0 or not all(isinstance(f, str) for f in names):
        raise check.InputError(f"frames must be a frame name or a non-empty sequence of them, got {check.describe(frames)}")
    bad = [f for f in names if f not in model.frames]
    if bad:
        raise check.InputError(f"frames must be frames of the model, got {bad[0]!r} "
                               f"(e.g. {', '.join(list(model.frames)[:6])}, ...)")
    placed = [model.frames[f] for f in names]
    return check.finite_result(_frame_bias_accelerations(model, q, v, placed), "J̇ v", "q, v")


def _frame_bias_accelerations(model: Model, q: np.ndarray, v: np.ndarray, placed) -> np.ndarray:
    """(k, 6) J̇_F v of the frames ``placed`` = [(body, T_BF), ...] for a checked single (q, v)."""
    out = np.zeros((len(placed), 6))
    on_body = [k for k, (b, _) in enumerate(placed) if b >= 0]
    if not on_body:
        return out
    d = model._plan
    Xup = _level_transforms(model, q)
    V = _outward(model, Xup, _level_motions(model, v))  # body twists [v; ω], body coordinates
    A = _outward(model, Xup, _velocity_products(model, V, v))  # bias accelerations, world at rest
    bodies = np.array([placed[k][0] for k in on_body])
    at = np.argsort(d.order)[bodies]  # their positions in the level order
    r = np.array([placed[k][1][:3, 3] for k in on_body])  # frame origins in body coordinates
    R = _world_poses(model, q)[bodies, :3, :3]
    w = V[at, 3:]
    acc = A[at, :3] + cross(A[at, 3:], r) + cross(w, V[at, :3] + cross(w, r))
    out[on_body, :3] = (R @ acc[:, :, None])[:, :, 0]
    out[on_body, 3:] = (R @ A[at, 3:, None])[:, :, 0]
    return out


def screw_axes(model: Model, frame: str, space: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """(M (4, 4), screws (6, nv)): the frame's home pose and the joints' screw axes, for
    :func:`kinematics_lib.fk_poe` and :func:`kinematics_lib.jacobian_poe`.

    M = T_WF at q = 0 (the neutral configuration); column k is the unit screw [v; w] of velocity
    coordinate k at q = 0: space=True in the world frame, S_k = Ad(T_Wc(0)) s_k (body c owns
    coordinate k, s_k its motion subspace in the body frame); space=False in the frame F itself,
    B_k = Ad(M^-1) S_k. Joints that do not move the frame get zero columns, so that
    ``fk_poe(M, S, q) == frame_placement(model, q, frame)`` for the model's full q.
    The model must have a fixed base and one-dof joints only (nq = nv: a free joint is no screw).
    """
    body, T_BF = _frame(model, frame)
    space = check.flag(space, "space")
    if model.floating_base:
        raise check.InputError("model must have a fixed base for screw axes (a free joint is not one screw); "
                               "use a fixed-base model, e.g. load_urdf(path) or subtree_model")
    q0 = np.zeros(model.nq)
    S = np.zeros((6, model.nv))
    if body < 0:
        return np.array(T_BF), S
    M, T = _frame_pose(model, q0, body, T_BF)
    dofs, where, s = model._plan.support_dofs[body]  # s (nd, 3, 2): [s_v, s_w] in the body frame
    R, p = T[where, :3, :3], T[where, :3, 3]
    w = (R @ s[..., 1:])[..., 0]
    v = (R @ s[..., :1])[..., 0] + np.cross(p, w)
    S[:3, dofs], S[3:, dofs] = v.T, w.T
    if not space:
        S = adjoint(transform_inverse(M)) @ S
    return np.array(M), S


def external_wrenches(model: Model, q, frames, forces) -> np.ndarray:
    """f_ext (nb, 6) for :func:`kinematics_lib.rnea`: forces applied at frame origins, as wrenches
    on the bodies that carry the frames.

    frames: k frame names (e.g. the feet); forces (k, 3): each force in world axes, N, applied at
    its frame's origin p_F. Body b (pose R_b, p_b in the world) receives, in its own frame and about
    its origin, f = R_b^T F and n = R_b^T ((p_F - p_b) x F), summed over its frames; a frame fixed to
    the world (body -1) passes nothing on. q (nq,): the configuration that places the frames.
    """
    check.model(model)
    (q,) = state(model, q, batch=False)
    if isinstance(frames, str) or not hasattr(frames, "__len__") or len(frames) == 0:
        raise check.InputError(f"frames must be a non-empty sequence of frame names, got {check.describe(frames)}")
    F = check.matrix(forces, (len(frames), 3), "forces")
    W = np.zeros((model.nb, 6))
    for name, force in zip(frames, F):
        body, T_BF = _frame(model, name)
        if body < 0:
            continue
        T_WF, T = _frame_pose(model, q, body, T_BF)
        R, p = T[-1][:3, :3], T[-1][:3, 3]
        W[body, :3] += R.T @ force
        W[body, 3:] += R.T @ np.cross(T_WF[:3, 3] - p, force)
    return check.finite_result(W, "f_ext", "q, forces")

"""Sample models: a planar chain, the double pendulum, random trees, and a model's subtree."""

from __future__ import annotations

import math

import numpy as np

from .. import _validate as check
from ..geometry.rotations import matrix_to_quat, rpy_to_matrix, so3_exp
from ..geometry.spatial import _spatial_inertia, spatial_inertia
from .model import GRAVITY, Model, state

__all__ = ["planar_chain_model", "double_pendulum_model", "random_tree_model", "subtree_model", "virtual_joints_model",
           "virtual_to_free"]


def _rz(angle: float) -> np.ndarray:
    T = np.eye(4)
    T[:3, :3] = so3_exp([0.0, 0.0, angle])
    return T


def planar_chain_model(lengths, masses, com=None, inertias=None, gravity=(0.0, -9.81, 0.0),
                       base_rotation: float = 0.0, name: str = "planar chain") -> Model:
    """Planar serial arm in the x-y plane: revolute joints about z, link i along its own x axis.

    lengths (n,), masses (n,): link lengths (m) and masses (kg).
    com (n,): distance of each link's CoM from its joint along the link (default: the link end,
        i.e. point masses at the tips, as in the documents' two-link example).
    inertias (n,): rotational inertia about the CoM about z (kg m^2, default 0: point masses;
        a uniform rod has m L^2 / 12 with com = L / 2).
    gravity: default (0, -9.81, 0): a vertical plane with y up.
    base_rotation: angle of the first link at q = 0 (e.g. -pi/2 for a pendulum hanging down).
    Frames 'link{i}_tip' mark the end of each link ('tip' is the last one).
    """
    L = check.vector(lengths, None, "lengths")
    n = L.shape[0]
    if n == 0 or np.any(L <= 0):
        raise check.InputError(f"lengths must be at least one positive link length, got {L}")
    m = _per_link(masses, n, "masses")
    c = L.copy() if com is None else _per_link(com, n, "com")
    Izz = np.zeros(n) if inertias is None else _per_link(inertias, n, "inertias")
    if np.any(m < 0) or np.any(Izz < 0):
        raise check.InputError(f"masses and inertias must be non-negative, got masses {m}, inertias {Izz}")
    check.finite_result(m * c * c + Izz, "the links' inertias about their joints m c^2 + I",
                        "lengths (or com), masses, inertias")
    base_rotation = check.scalar(base_rotation, "base_rotation")
    T_tree, inertia, frames = [], [], {}
    for i in range(n):
        T = _rz(base_rotation) if i == 0 else np.eye(4)
        if i > 0:
            T[0, 3] = L[i - 1]
        T_tree.append(T)
        # a thin rod along x: I_xx = 0, I_yy = I_zz (only I_zz acts in the plane; the triangle
        # inequality I_xx + I_yy >= I_zz of a real body needs I_yy too)
        inertia.append(_spatial_inertia(m[i], np.array([c[i], 0.0, 0.0]), np.diag([0.0, Izz[i], Izz[i]])))
        tip = np.eye(4)
        tip[0, 3] = L[i]
        frames[f"link{i + 1}_tip"] = (i, tip)
    frames["tip"] = (n - 1, frames[f"link{n}_tip"][1])
    return Model(name=name, body_names=tuple(f"link{i + 1}" for i in range(n)),
                 body_joint=tuple(f"joint{i + 1}" for i in range(n)), parent=tuple(range(-1, n - 1)),
                 joint_types=("revolute",) * n, axes=np.tile([0.0, 0.0, 1.0], (n, 1)),
                 T_tree=np.array(T_tree), inertia=np.array(inertia), gravity=gravity, frames=frames)


def _per_link(values, n: int, name: str) -> np.ndarray:
    x = check.vector(values, None, name)
    if x.shape != (n,):
        raise check.InputError(f"{name} must have shape ({n},), one entry per link of lengths, got shape {x.shape}")
    return x


def double_pendulum_model(l1: float = 1.0, l2: float = 1.0, m1: float = 1.0, m2: float = 1.0,
                          g: float = 9.81) -> Model:
    """Double pendulum (双摆): point masses m1, m2 at the ends of massless rods l1, l2, gravity -y.

    q = (theta1, phi): theta1 is rod 1's angle from the downward vertical, phi = theta2 - theta1
    the angle of rod 2 relative to rod 1 (the *relative* angles of chapter 4; the absolute angle
    of rod 2 is theta1 + phi). At q = 0 both rods hang down.
    """
    l1, l2, g = check.positive(l1, "l1"), check.positive(l2, "l2"), check.positive(g, "g")
    m1, m2 = check.nonnegative(m1, "m1"), check.nonnegative(m2, "m2")
    check.finite_result(np.array([m1 * l1 * l1, m2 * l2 * l2, m2 * g]), "m l^2 and m g", "l1, l2, m1, m2, g")
    return planar_chain_model([l1, l2], [m1, m2], gravity=(0.0, -g, 0.0), base_rotation=-math.pi / 2,
                              name="double pendulum")


def _random_inertia(rng: np.random.Generator) -> np.ndarray:
    """A physically valid random spatial inertia (principal moments obey the triangle inequality)."""
    mass = rng.uniform(0.5, 3.0)
    com = rng.uniform(-0.2, 0.2, 3)
    d = rng.uniform(0.05, 0.5, 3)  # I = sum of m_k d_k^2-like terms: valid by construction
    principal = np.array([d[1] + d[2], d[0] + d[2], d[0] + d[1]]) * mass * 0.1
    Q = so3_exp(rng.normal(size=3))
    return spatial_inertia(mass, com, Q @ np.diag(principal) @ Q.T)


def random_tree_model(n_bodies: int, rng: np.random.Generator, *, floating_base: bool = False,
                      joint_types=("revolute", "prismatic", "continuous"), chain: bool = False,
                      gravity=GRAVITY) -> Model:
    """A random kinematic tree for tests and benchmarks (parent[i] < i, unaligned axes).

    Each non-root body picks a random earlier parent (``chain=True``: parent = i - 1), a random
    joint type from ``joint_types``, a random unit axis, a random placement and a random
    physically valid inertia. ``floating_base=True`` makes body 0 a free-floating base.
    """
    n = check.integer(n_bodies, "n_bodies", 1, 10_000)
    rng = check.rng(rng)
    floating_base, chain = check.flag(floating_base, "floating_base"), check.flag(chain, "chain")
    if isinstance(joint_types, str) or not isinstance(joint_types, (tuple, list)) or not joint_types:
        raise check.InputError(f"joint_types must be a non-empty tuple of joint types from "
                               f"('revolute', 'prismatic', 'continuous'), got {check.describe(joint_types)}")
    for k, t in enumerate(joint_types):
        check.one_of(t, ("revolute", "prismatic", "continuous"), f"joint_types[{k}]")
    gravity = check.vector(gravity, 3, "gravity")
    parent, types, axes, T_tree, inertia = [], [], [], [], []
    for i in range(n):
        if i == 0:
            parent.append(-1)
        else:
            parent.append(i - 1 if chain else int(rng.integers(0, i)))
        if i == 0 and floating_base:
            types.append("free")
        else:
            types.append(str(joint_types[int(rng.integers(len(joint_types)))]))
        ax = rng.normal(size=3)
        axes.append(ax / np.linalg.norm(ax))
        T = np.eye(4)
        T[:3, :3] = so3_exp(rng.normal(size=3))
        T[:3, 3] = rng.uniform(-0.5, 0.5, 3)
        T_tree.append(T if not (i == 0 and floating_base) else np.eye(4))
        inertia.append(_random_inertia(rng))
    lower = np.array([-2.0 if t == "revolute" else -np.inf for t in types])
    upper = -lower
    return Model(name=f"random tree ({n} bodies)", body_names=tuple(f"body{i}" for i in range(n)),
                 body_joint=tuple(("root_joint" if t == "free" else f"joint{i}") for i, t in enumerate(types)),
                 parent=tuple(parent), joint_types=tuple(types), axes=np.array(axes), T_tree=np.array(T_tree),
                 inertia=np.array(inertia), gravity=gravity, lower=lower, upper=upper)


def subtree_model(model: Model, root: str) -> Model:
    """The bodies of ``root``'s subtree as a model of their own (e.g. one leg of a fixed-base robot).

    root: name of a body whose parent is the world (parent -1), such as 'LF_HIP' of the
    fixed-base ANYmal B. The bodies keep their joints, placements, inertias, limits and frames;
    bodies outside the subtree are dropped. Because the root hangs from the world, the subtree's
    dynamics are exactly its rows and columns of the full model's.
    """
    if not isinstance(model, Model):
        raise ValueError(f"model must be a kinematics_lib Model, got {type(model).__name__}")
    if root not in model.body_names:
        raise ValueError(f"root must be one of the model's bodies {model.body_names}, got {root!r}")
    r = model.body_names.index(root)
    if model.parent[r] != -1:
        raise ValueError(f"root must be attached to the world (parent -1); {root!r} hangs from "
                         f"{model.body_names[model.parent[r]]!r}")
    keep = [r]
    for i in range(r + 1, model.nb):  # parent[i] < i: one forward sweep finds every descendant
        if model.parent[i] in keep:
            keep.append(i)
    new = {old: k for k, old in enumerate(keep)}
    frames = {name: (new[b], T) for name, (b, T) in model.frames.items() if b in new}
    pick = lambda arr: [arr[i] for i in keep]  # noqa: E731
    return Model(name=f"{model.name} ({root} subtree)", body_names=tuple(pick(model.body_names)),
                 body_joint=tuple(pick(model.body_joint)), parent=tuple(new.get(model.parent[i], -1) for i in keep),
                 joint_types=tuple(pick(model.joint_types)), axes=np.array(pick(model.axes)), T_tree=np.array(pick(model.T_tree)),
                 inertia=np.array(pick(model.inertia)), gravity=model.gravity, frames=frames, lower=np.array(pick(model.lower)),
                 upper=np.array(pick(model.upper)))


def virtual_joints_model(model: Model) -> Model:
    """The floating-base ``model`` with its free root joint replaced by six one-dof "virtual joints".

    Document 000 (section 3.4.1) treats a floating base as six virtual joints between the world
    and the base: here prismatic along world x, y, z, then revolute about z, y, x (yaw, pitch,
    roll: R = Rz(yaw) Ry(pitch) Rx(roll)), through five massless bodies ``virtual_x`` ...
    ``virtual_pitch``; the base hangs from the roll joint. q = [x, y, z, yaw, pitch, roll,
    joints] and v = q_dot (nq = nv). The same robot as the free root joint, in other
    coordinates -- singular where cos(pitch) = 0 (see :func:`virtual_to_free`).
    """
    check.model(model)
    if not model.nb or model.joint_types[0] != "free":
        raise check.InputError(f"model must have a floating base (a free root joint, body 0), got {model!r}")
    if not np.allclose(model.T_tree[0], np.eye(4)):
        raise check.InputError("model's free root joint must sit at the world origin (T_tree[0] = identity)")
    names = ("virtual_x", "virtual_y", "virtual_z", "virtual_yaw", "virtual_pitch")
    axes = np.array([[1.0, 0, 0], [0, 1.0, 0], [0, 0, 1.0], [0, 0, 1.0], [0, 1.0, 0], [1.0, 0, 0]])
    six = ("prismatic",) * 3 + ("revolute",) * 3
    shift = lambda i: i + 5 if i >= 0 else -1  # noqa: E731
    return Model(name=f"{model.name} (six virtual joints)", body_names=names + model.body_names,
                 body_joint=tuple(n + "_joint" for n in names) + ("virtual_roll_joint",) + model.body_joint[1:],
                 parent=(-1, 0, 1, 2, 3, 4) + tuple(shift(p) for p in model.parent[1:]),
                 joint_types=six + model.joint_types[1:], axes=np.concatenate([axes, model.axes[1:]]),
                 T_tree=np.concatenate([np.tile(np.eye(4), (6, 1, 1)), model.T_tree[1:]]),
                 inertia=np.concatenate([np.zeros((5, 6, 6)), model.inertia]), gravity=model.gravity,
                 frames={k: (shift(b), T) for k, (b, T) in model.frames.items()},
                 lower=np.concatenate([np.full(6, -np.inf), model.lower[1:]]),
                 upper=np.concatenate([np.full(6, np.inf), model.upper[1:]]))


def virtual_to_free(model: Model, q, v) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(q_free, v_free, J): the state of a :func:`virtual_joints_model` in free-joint coordinates.

    q = [x, y, z, yaw, pitch, roll, joints], v = q_dot (nv,)  ->  q_free = [p, quaternion xyzw,
    joints] (nv + 1,), v_free = J v with J = blockdiag(R^T, E_B, 1) (nv, nv): the base's linear
    velocity R^T p_dot and angular velocity E_B [yaw_dot, pitch_dot, roll_dot] in the base frame,
    E_B = [[-s_pitch, 0, 1], [c_pitch s_roll, c_roll, 0], [c_pitch c_roll, -s_roll, 0]]
    (det = -cos(pitch): the virtual joints' singularity, which the free joint does not have).
    """
    q, v = state(model, q, v, batch=False)
    if model.joint_types[:6] != ("prismatic",) * 3 + ("revolute",) * 3 or model.body_names[:5] != (
            "virtual_x", "virtual_y", "virtual_z", "virtual_yaw", "virtual_pitch"):
        raise check.InputError("model must come from kl.virtual_joints_model (six virtual joints first)")
    yaw, pitch, roll = q[3:6]
    R = rpy_to_matrix([roll, pitch, yaw])  # Rz(yaw) Ry(pitch) Rx(roll)
    sp, cp, sr, cr = math.sin(pitch), math.cos(pitch), math.sin(roll), math.cos(roll)
    J = np.eye(model.nv)
    J[:3, :3] = R.T
    J[3:6, 3:6] = [[-sp, 0.0, 1.0], [cp * sr, cr, 0.0], [cp * cr, -sr, 0.0]]
    q_free = np.concatenate([q[:3], matrix_to_quat(R), q[6:]])
    return q_free, J @ v, J

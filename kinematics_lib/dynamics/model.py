"""Kinematic trees: the frozen :class:`Model` record, the checks of a state (q, v, a) and configurations.

Joint types and jcalc live in :mod:`.joints`, sample models in :mod:`.builders`, the engine's
constant tables (built lazily, ``model._plan``) in :mod:`.plan`.

Bodies are numbered 0..nb-1 with ``parent[i] < i`` (-1 = the fixed world). Body i is attached to
its parent by joint i; the body frame *is* the joint frame (it moves with the joint). Joint
placement ``T_tree[i]`` is the pose of joint frame i in its parent's body frame at q = 0.

Joint types and their coordinates (q) and velocities (v):

=============  =====  =====  =========================================================
type           nq_i   nv_i   meaning
=============  =====  =====  =========================================================
revolute       1      1      rotation q about ``axes[i]`` (joint-frame axes), rad
continuous     1      1      the same without limits (one coordinate, not cos/sin)
prismatic      1      1      translation q along ``axes[i]``, m
free           7      6      floating base: q = [p (3), quaternion x y z w (4)],
                             v = [linear velocity, angular velocity], both in the body
                             frame (Pinocchio's free-flyer convention)
=============  =====  =====  =========================================================

Algorithms never modify a model; all state (q, v, a, tau) is passed in and results returned.
"""

from __future__ import annotations

import contextvars
import functools
import math
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

import numpy as np

from .. import _validate as check

__all__ = [
    "Model",
    "neutral_configuration",
    "random_configuration",
    "GRAVITY",
]

GRAVITY = np.array([0.0, 0.0, -9.81])
#: True while a loader builds a Model from a file whose inertias it has already checked and
#: reported (load_urdf keeps a vendor's impossible inertia as given, with a PhysicsWarning);
#: a Model built in code is always held to physical inertias.
_AS_GIVEN: contextvars.ContextVar = contextvars.ContextVar("kinematics_lib_inertia_as_given", default=False)


def _model_as_given(**fields) -> "Model":
    """A Model whose inertias are kept as given (finite, not necessarily physical): loaders only."""
    token = _AS_GIVEN.set(True)
    try:
        return Model(**fields)
    finally:
        _AS_GIVEN.reset(token)
JOINT_TYPES = ("revolute", "continuous", "prismatic", "free")
_NQ = {"revolute": 1, "continuous": 1, "prismatic": 1, "free": 7}
_NV = {"revolute": 1, "continuous": 1, "prismatic": 1, "free": 6}


def _frozen(a) -> np.ndarray:
    a = np.array(a, dtype=float)
    a.setflags(write=False)
    return a


def _index_tuple(values, name: str) -> tuple:
    """A tuple of ints (body indices)."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__len__"):
        raise check.InputError(f"{name} must be a sequence of body indices, got {check.describe(values)}")
    return tuple(check.integer(p, f"{name}[{i}]") for i, p in enumerate(values))


def _names(values, nb: int, name: str, unique: bool) -> tuple:
    """A tuple of nb strings (unique ones for body and joint names)."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__len__"):
        raise check.InputError(f"{name} must be a sequence of {nb} strings, got {check.describe(values)}")
    if len(values) != nb:
        raise check.InputError(f"{name} must have {nb} entries, one per body (len(parent) = {nb}), got {len(values)}")
    out = tuple(check.text(v, f"{name}[{i}]") for i, v in enumerate(values))
    if unique and len(set(out)) != nb:
        dup = next(v for v in out if out.count(v) > 1)
        raise check.InputError(f"{name} must be unique, {dup!r} appears {out.count(dup)} times")
    return out


def _unit_axes(axes, joint_types: tuple) -> np.ndarray:
    """Joint axes (nb, 3) normalised; non-zero for every 1-dof joint (ignored for 'free')."""
    nb = len(joint_types)
    axes = check.matrix(axes, (nb, 3), "axes")
    scale = np.abs(axes).max(axis=1)
    moving = np.array([t != "free" for t in joint_types], dtype=bool)
    bad = np.flatnonzero(moving & ~(scale > 0.0))
    if bad.size:
        raise check.InputError(f"axes[{bad[0]}] must be non-zero for a {joint_types[bad[0]]} joint, got {axes[bad[0]]}")
    safe = np.where(scale > 0.0, scale, 1.0)[:, None]
    axes = axes / safe  # scaled first, so that a huge axis cannot overflow its norm
    return axes / np.where(moving, np.linalg.norm(axes, axis=1), 1.0)[:, None]


def _frames(frames, body_names: tuple) -> dict:
    """name -> (body index, frozen T_body_frame); every body's own frame is added."""
    try:
        items = dict(frames).items()
    except (TypeError, ValueError):
        raise check.InputError(f"frames must be a mapping name -> (body, T), got {check.describe(frames)}") from None
    nb, out = len(body_names), {}
    for k, value in items:
        label = f"frames[{k!r}]"
        if not isinstance(value, (tuple, list)) or len(value) != 2:
            raise check.InputError(f"{label} must be a pair (body index, T (4, 4)), got {check.describe(value)}")
        b = check.integer(value[0], f"{label}[0] (body index)", -1, nb - 1)
        out[check.text(k, "frames (a key)")] = (b, _frozen(check.transform(value[1], label)))
    for i, n in enumerate(body_names):
        out.setdefault(n, (i, _frozen(np.eye(4))))
    return out


def _limits(values, nb: int, name: str) -> np.ndarray:
    """Joint limits (nb,): +-inf allowed (unlimited), NaN not; None = unlimited."""
    if values is None:
        return np.full(nb, -np.inf if name == "lower" else np.inf)
    a = check._array(values, name)
    if a.shape != (nb,) or np.isnan(a).any():
        raise check.InputError(f"{name} must be a ({nb},) array of limits (inf allowed, NaN not), "
                               f"got {check.describe(a)}")
    return a


@dataclass(frozen=True, eq=False)
class Model:
    """A kinematic tree with inertias (frozen; algorithms take it and never change it).

    name: robot name; body_names (nb,): body (link) names; body_joint (nb,): name of the joint
        attaching each body to its parent; parent (nb,): parent index, -1 for the world.
    joint_types (nb,): 'revolute' | 'continuous' | 'prismatic' | 'free'.
    axes (nb, 3): joint axis in the joint frame (unit; ignored for 'free').
    T_tree (nb, 4, 4): joint placement in the parent body frame (at q = 0).
    inertia (nb, 6, 6): spatial inertia of each body in its own frame, [linear; angular].
    gravity (3,): gravity acceleration in world coordinates, m/s^2.
    frames: name -> (body index, T_body_frame (4, 4)): every link of a URDF, including the
        ones merged away by fixed joints, plus any named point of interest; body -1 means a
        frame fixed to the world (e.g. the root link of a fixed-base robot).
    lower, upper (nb,): joint limits of 1-dof joints (rad or m); +-inf when unlimited.

    Derived at construction: nb, nq, nv, q_slice / v_slice per joint, X_tree (the motion
    transforms of T_tree), and per-joint constant matrices used by :func:`jcalc`.
    """

    name: str
    body_names: tuple
    body_joint: tuple
    parent: tuple
    joint_types: tuple
    axes: np.ndarray
    T_tree: np.ndarray
    inertia: np.ndarray
    gravity: np.ndarray = field(default_factory=lambda: GRAVITY.copy())
    frames: Mapping = field(default_factory=dict)
    lower: np.ndarray | None = None
    upper: np.ndarray | None = None

    def __post_init__(self):
        set_ = object.__setattr__
        set_(self, "name", check.text(self.name, "name"))
        parent = _index_tuple(self.parent, "parent")
        nb = len(parent)
        for i, p in enumerate(parent):
            if not -1 <= p < i:
                raise check.InputError(f"parent[{i}] must satisfy -1 <= parent[i] < i, got {p}")
        set_(self, "parent", parent)
        for name in ("body_names", "body_joint", "joint_types"):
            set_(self, name, _names(getattr(self, name), nb, name, unique=name != "joint_types"))
        for i, t in enumerate(self.joint_types):
            check.one_of(t, JOINT_TYPES, f"joint_types[{i}]")
            if t == "free" and parent[i] != -1:
                raise check.InputError(f"joint_types[{i}] = 'free' is only allowed on a root body")
        set_(self, "axes", _frozen(_unit_axes(self.axes, self.joint_types)))
        T_tree = check._array(self.T_tree, "T_tree")
        if T_tree.shape != (nb, 4, 4):
            raise check.InputError(f"T_tree must have shape ({nb}, 4, 4), got {T_tree.shape}")
        for i in range(nb):
            check.transform(T_tree[i], f"T_tree[{i}]")
        set_(self, "T_tree", _frozen(T_tree))
        if check._array(self.inertia, "inertia").shape != (nb, 6, 6):
            raise check.InputError(f"inertia must have shape ({nb}, 6, 6), got {np.shape(self.inertia)}")
        if _AS_GIVEN.get():  # a file's inertias, checked and reported by its loader (load_urdf)
            set_(self, "inertia", _frozen(check._finite(check._array(self.inertia, "inertia"), "inertia")))
        else:
            set_(self, "inertia", _frozen(check.spatial_inertia(self.inertia, "inertia")))
        set_(self, "gravity", _frozen(check.vector(self.gravity, 3, "gravity")))
        set_(self, "frames", MappingProxyType(_frames(self.frames, self.body_names)))
        for name in ("lower", "upper"):
            set_(self, name, _frozen(_limits(getattr(self, name), nb, name)))
        bad = np.flatnonzero(self.lower > self.upper)
        if bad.size:
            raise check.InputError(f"lower must be <= upper, got lower[{bad[0]}] = {self.lower[bad[0]]} > "
                                   f"upper[{bad[0]}] = {self.upper[bad[0]]}")
        # index bookkeeping
        q_slice, v_slice, iq, iv = [], [], 0, 0
        for t in self.joint_types:
            q_slice.append(slice(iq, iq + _NQ[t]))
            v_slice.append(slice(iv, iv + _NV[t]))
            iq, iv = iq + _NQ[t], iv + _NV[t]
        set_(self, "nb", nb)
        set_(self, "nq", iq)
        set_(self, "nv", iv)
        set_(self, "q_slice", tuple(q_slice))
        set_(self, "v_slice", tuple(v_slice))

    @functools.cached_property
    def _plan(self):
        """The engine's constant tables (:class:`kinematics_lib.dynamics.plan.Plan`), built on first use."""
        from .plan import build_plan

        return build_plan(self)

    @property
    def joint_names(self) -> tuple:
        """Actuated joints in the order of q, excluding a floating base."""
        return tuple(n for n, t in zip(self.body_joint, self.joint_types) if t != "free")

    @property
    def floating_base(self) -> bool:
        return any(t == "free" for t in self.joint_types)

    @property
    def total_mass(self) -> float:
        return float(self.inertia[:, 0, 0].sum())

    @property
    def X_tree(self) -> np.ndarray:
        """Motion transforms parent body -> joint frame at q = 0 (nb, 6, 6)."""
        return self._plan.X_tree

    @property
    def S(self) -> tuple:
        """Motion subspace of each joint in its own frame, (6, nv_i) each (RBDA Table 4.1)."""
        return self._plan.S

    def __repr__(self) -> str:
        kind = "floating" if self.floating_base else "fixed"
        return f"Model({self.name!r}, {self.nb} bodies, nq={self.nq}, nv={self.nv}, {kind} base)"


#: a floating base's quaternion must have |norm - 1| <= QUATERNION_TOLERANCE (it is never renormalised
#: silently; integrating the motion on the manifold keeps it unit)
QUATERNION_TOLERANCE = 1e-6


def _check_quaternions(q: np.ndarray, slices, name: str = "q") -> None:
    """Raise InputError unless every quaternion q[..., s] (s in slices) has unit norm within tolerance."""
    for s in slices:
        quat = q[..., s]
        n2 = np.einsum("...i,...i->...", quat, quat)
        if not np.all(np.abs(n2 - 1.0) <= 2.0 * QUATERNION_TOLERANCE):
            bad = np.sqrt(np.ravel(n2)[np.argmax(np.abs(np.ravel(n2) - 1.0))])
            raise check.InputError(
                f"{name}[{s.start}:{s.stop}] (a floating base's quaternion x, y, z, w) must have unit norm "
                f"(within {QUATERNION_TOLERANCE:g}), got norm {bad:.6g}; normalise it, e.g. "
                f"{name}[{s.start}:{s.stop}] /= np.linalg.norm({name}[{s.start}:{s.stop}])")


def configuration(model: Model, q, batch: bool = True) -> np.ndarray:
    """q checked for ``model``: shape (nq,) (or (N, nq) when ``batch``), finite, unit quaternions.

    The one check of q of every public dynamics function (inner helpers take checked values).
    """
    q = check.batch_vector(q, model.nq, "q", batch)
    if model._plan.quaternions:
        if q.ndim == 1:
            for s in model._plan.quaternions:
                quat = q[s]
                if not abs(quat.dot(quat) - 1.0) <= 2.0 * QUATERNION_TOLERANCE:
                    _check_quaternions(q, (s,))
        else:
            _check_quaternions(q, model._plan.quaternions)
    return q


_ABSENT = object()


def state(model: Model, q, v=_ABSENT, a=_ABSENT, name_a: str = "a", batch: bool = True) -> tuple:
    """(q, [v, [a]]) checked for ``model`` (q by :func:`configuration`; v, a of shape (nv,) or
    (N, nv)), with one batch shape for all; bad input raises InputError naming the argument."""
    check.model(model)
    out = [configuration(model, q, batch)]
    names = ["q"]
    for x, name in ((v, "v"), (a, name_a)):
        if x is not _ABSENT:
            out.append(check.batch_vector(x, model.nv, name, batch))
            names.append(name)
    if len(out) > 1:
        check.same_batch(out, names)
    return tuple(out)


def subtree(model: Model, i: int) -> list[int]:
    """Body i and its descendants, in index (parent) order."""
    out = [i]
    for j in range(i + 1, model.nb):
        if model.parent[j] in out:
            out.append(j)
    return out


def check_articulated_inertia(model: Model, i: int, D: np.ndarray) -> None:
    """Nothing when joint i's articulated inertia D_i = S_i^T I^A_i S_i (nv_i, nv_i) is positive
    definite (RBDA Table 7.1); otherwise a ValueError naming the joint, its subtree and the causes.

    D_i is singular when the joint moves a subtree without inertia along its axis, or when its axis
    repeats a motion the joints below already have (aligned axes): the forward dynamics is then
    undefined. Tolerance 1e-12 of the model's largest inertia entry (kg, kg m, kg m^2).
    """
    if not np.all(np.isfinite(D)):
        check.finite_result(D, "the articulated inertia D", "q, v, tau")
    if not np.linalg.eigvalsh(D)[0] > 1e-12 * max(float(np.abs(model.inertia).max(initial=0.0)), 1e-300):
        raise singular_joint_error(model, i)


def singular_joint_error(model: Model, i: int) -> check.InputError:
    """The ValueError for a singular articulated inertia at joint i (see :func:`check_articulated_inertia`)."""
    names = ", ".join(model.body_names[j] for j in subtree(model, i))
    return check.InputError(
        f"model: joint {model.body_joint[i]!r} moves a subtree without inertia along its axis "
        f"(bodies {names}), or its axis repeats a motion the joints below already have (a singular "
        "configuration, e.g. aligned axes): its articulated inertia D = S^T I^A S is singular and the "
        "forward dynamics is undefined; give those bodies mass, lock the joint or leave the configuration")


# ---------------------------------------------------------------- configurations


def neutral_configuration(model: Model) -> np.ndarray:
    """q with every joint at 0 and a floating base at the origin with identity orientation."""
    q = np.zeros(check.model(model).nq)
    for i, t in enumerate(model.joint_types):
        if t == "free":
            q[model.q_slice[i].start + 6] = 1.0  # quaternion w
    return q


def random_configuration(model: Model, rng: np.random.Generator) -> np.ndarray:
    """Random q: joints uniform within their limits (or [-pi, pi] / [-1, 1] m when unlimited);
    a floating base at a random position in [-1, 1]^3 with a uniformly random unit quaternion."""
    q = np.empty(check.model(model).nq)
    rng = check.rng(rng)
    for i, t in enumerate(model.joint_types):
        s = model.q_slice[i]
        if t == "free":
            quat = rng.normal(size=4)
            quat /= np.linalg.norm(quat)
            q[s] = np.concatenate([rng.uniform(-1.0, 1.0, 3), quat if quat[3] >= 0 else -quat])
        else:
            lo, hi = model.lower[i], model.upper[i]
            default = (-math.pi, math.pi) if t != "prismatic" else (-1.0, 1.0)
            lo = lo if np.isfinite(lo) else default[0]
            hi = hi if np.isfinite(hi) else default[1]
            q[s] = rng.uniform(lo, hi)
    return q

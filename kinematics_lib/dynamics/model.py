"""Kinematic trees: the frozen :class:`Model`, joint calculations, builders and configurations.

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
from typing import Mapping, NamedTuple

import numpy as np

from .. import _validate as check
from ..geometry.rotations import so3_exp
from ..geometry.spatial import motion_transform, spatial_inertia
from ..geometry.kernels import spatial_inertia as _spatial_inertia

__all__ = [
    "Model",
    "jcalc",
    "joint_transforms",
    "neutral_configuration",
    "random_configuration",
    "planar_chain_model",
    "double_pendulum_model",
    "random_tree_model",
    "subtree_model",
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
        derived = _joint_constants(self)
        derived.update(_level_constants(self, derived))
        set_(self, "_derived", derived)

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
        return self._derived["X_tree"]

    @property
    def S(self) -> tuple:
        """Motion subspace of each joint in its own frame, (6, nv_i) each (RBDA Table 4.1)."""
        return self._derived["S"]

    def __repr__(self) -> str:
        kind = "floating" if self.floating_base else "fixed"
        return f"Model({self.name!r}, {self.nb} bodies, nq={self.nq}, nv={self.nv}, {kind} base)"


def _joint_constants(model: Model) -> dict:
    """Per-joint constant matrices so that jcalc is a few additions (Rodrigues' formula).

    revolute:  X_J(q) X_tree = X_tree + sin(q) E1 X_tree + (1 - cos q) E2 X_tree,
               E1 = -diag([a]x, [a]x), E2 = diag([a]x^2, [a]x^2)   (R^T = I - s[a]x + (1-c)[a]x^2)
    prismatic: X_J(q) X_tree = X_tree + q E1 X_tree,  E1 = [[0, -[a]x], [0, 0]]
    """
    X_tree, P1, P2, S = [], [], [], []
    for i, kind in enumerate(model.joint_types):
        T = model.T_tree[i]
        X = motion_transform(T[:3, :3], T[:3, 3])
        a = model.axes[i]
        K = np.array([[0.0, -a[2], a[1]], [a[2], 0.0, -a[0]], [-a[1], a[0], 0.0]])
        E1, E2 = np.zeros((6, 6)), np.zeros((6, 6))
        if kind in ("revolute", "continuous"):
            E1[:3, :3] = E1[3:, 3:] = -K
            E2[:3, :3] = E2[3:, 3:] = K @ K
            s = np.concatenate([np.zeros(3), a])[:, None]
        elif kind == "prismatic":
            E1[:3, 3:] = -K
            s = np.concatenate([a, np.zeros(3)])[:, None]
        else:
            s = np.eye(6)
        for arr in (X, s):
            arr.setflags(write=False)
        X_tree.append(X)
        P1.append(_frozen(E1 @ X))
        P2.append(_frozen(E2 @ X))
        S.append(s)
    one_dof = [t != "free" for t in model.joint_types]
    nb = model.nb  # nb = 0 (a robot whose joints are all fixed to the world) gives empty stacks
    X_tree_a = np.array(X_tree).reshape(nb, 6, 6)
    P1_a, P2_a = np.array(P1).reshape(nb, 6, 6), np.array(P2).reshape(nb, 6, 6)
    S1 = np.array([s[:, 0] if s.shape[1] == 1 else np.zeros(6) for s in S]).reshape(nb, 6)  # (nb, 6), zero rows for free joints
    P = np.stack([X_tree_a, P1_a, P2_a], axis=1).reshape(model.nb, 3, 36)
    return {"X_tree": _frozen(X_tree_a), "P1": _frozen(P1_a), "P2": _frozen(P2_a),
            "P": _frozen(P), "tree_is_identity": tuple(bool(np.array_equal(X, np.eye(6))) for X in X_tree),
            "S": tuple(S), "S1": _frozen(S1),
            "revolute": np.array([t in ("revolute", "continuous") for t in model.joint_types], dtype=bool),
            "a_gravity": _frozen(np.concatenate([-model.gravity, np.zeros(3)])),
            "all_revolute": all(t in ("revolute", "continuous", "free") for t in model.joint_types),
            "one_dof": np.array(one_dof, dtype=bool), "free": tuple(i for i, o in enumerate(one_dof) if not o),
            "v_one": np.array([model.v_slice[i].start for i in range(model.nb) if one_dof[i]], dtype=int),
            "q1": np.array([model.q_slice[i].start if one_dof[i] else 0 for i in range(model.nb)], dtype=int),
            "v1": np.array([model.v_slice[i].start if one_dof[i] else 0 for i in range(model.nb)], dtype=int),
            **_kinematic_constants(model, X_tree, S),
            **_levels(model),
            "Pst": _frozen(np.concatenate([X_tree_a, P1_a, P2_a], axis=1)),
            "PstT": _frozen(np.concatenate([X_tree_a, P1_a, P2_a], axis=1)
                            .reshape(model.nb, 3, 6, 6).transpose(0, 1, 3, 2).reshape(model.nb, 18, 6)),
            "inertia_tol": 1e-12 * max(float(np.abs(model.inertia).max(initial=0.0)), 1e-300),
            "quaternions": tuple(slice(model.q_slice[i].start + 3, model.q_slice[i].start + 7)
                                 for i, o in enumerate(one_dof) if not o)}


class Level(NamedTuple):
    """The bodies of one depth, in level order: positions ``at`` (a slice of the level order),
    their parents' positions ``up`` (a slice, one int when they share a parent, or an index array;
    None for roots), and ``shared``: True when several bodies of the level share a parent."""

    at: slice
    up: object
    shared: bool


def _levels(model: Model) -> dict:
    """Bodies by depth (RBDA's recursions visit a body after its parent: every body of one depth
    can be processed at once). order: level order of the bodies (stable within a depth)."""
    depth = []
    for i in range(model.nb):
        depth.append(0 if model.parent[i] < 0 else depth[model.parent[i]] + 1)
    order = sorted(range(model.nb), key=lambda i: (depth[i], i))
    pos = {b: k for k, b in enumerate(order)}
    levels, start = [], 0
    for t in range(max(depth, default=-1) + 1):
        bodies = [b for b in order if depth[b] == t]
        at = slice(start, start + len(bodies))
        start += len(bodies)
        if t == 0:
            levels.append(Level(at, None, False))
            continue
        ups = [pos[model.parent[b]] for b in bodies]
        if len(set(ups)) == 1:
            up, shared = ups[0], len(ups) > 1
        elif ups == list(range(ups[0], ups[0] + len(ups))):
            up, shared = slice(ups[0], ups[0] + len(ups)), False
        else:
            up, shared = np.array(ups, dtype=int), len(set(ups)) < len(ups)
        levels.append(Level(at, up, shared))
    return {"order": np.array(order, dtype=int), "levels": tuple(levels),
            "position": np.argsort(np.array(order)), "depth": tuple(depth)}


class CrbaStep(NamedTuple):
    """One level up in CRBA's walk to the root, for the bodies of one depth: F = Xup^T F for the
    bodies at positions ``through``; rows ``one`` of F (ancestors ``to_one``, 1-dof) give
    M[rows_one, v_one] = s^T F, rows ``free`` (a free root) give M[rows_free, v_free] = F."""

    through: object
    one: object
    to_one: object
    rows_one: object
    v_one: object
    free: object
    rows_free: object
    v_free: object


class CrbaWalk(NamedTuple):
    """The 1-dof bodies of one depth (level positions ``at``, velocity indices ``v``) and their
    steps to the root."""

    at: object
    v: np.ndarray
    steps: tuple


def _as_index(positions) -> object:
    """A slice when the positions are consecutive (a view, not a copy), else an index array."""
    positions = [int(p) for p in positions]
    if not positions:
        return np.zeros(0, dtype=int)
    if positions == list(range(positions[0], positions[0] + len(positions))):
        return slice(positions[0], positions[0] + len(positions))
    return np.array(positions, dtype=int)


def _crba_walks(model: Model, d: dict, one: np.ndarray, v1: np.ndarray) -> dict:
    """CRBA's walks from every 1-dof body to the root, one depth at a time, and the (row, column)
    of every entry of M they produce, in their order (see ``_crba``)."""
    o, pos = d["order"], d["position"]
    parent = np.array([-1 if model.parent[b] < 0 else pos[model.parent[b]] for b in o], dtype=int)
    walks = []
    for lv in d["levels"]:
        P = np.array([p for p in range(lv.at.start, lv.at.stop) if one[p]], dtype=int)
        if not P.size:
            continue
        steps, cur = [], P
        while parent[cur[0]] >= 0:
            anc = parent[cur]
            m = one[anc]
            free_v = [np.arange(model.v_slice[o[a]].start, model.v_slice[o[a]].stop) for a in anc[~m]]
            steps.append(CrbaStep(
                _as_index(cur),
                (slice(None) if m.all() else np.flatnonzero(m)) if m.any() else None,
                _as_index(anc[m]) if m.any() else None, v1[P][m], v1[anc][m],
                (slice(None) if not m.any() else np.flatnonzero(~m)) if (~m).any() else None,
                np.repeat(v1[P][~m][:, None], 6, axis=1), np.array(free_v, dtype=int).reshape(-1, 6)))
            cur = anc
        walks.append(CrbaWalk(_as_index(P), v1[P], tuple(steps)))
    rows, cols, axes = [], [], []  # every M_ij the walks produce: first the 1-dof ones, then a free root's
    S1 = d["S1"][o]
    for w in walks:
        rows.append(w.v)
        cols.append(w.v)
        axes.append(S1[np.atleast_1d(np.arange(len(o))[w.at])])
        for st in w.steps:
            if st.one is not None:
                rows.append(st.rows_one)
                cols.append(st.v_one)
                axes.append(S1[np.atleast_1d(np.arange(len(o))[st.to_one])])
    for w in walks:
        for st in w.steps:
            if st.free is not None:
                rows.append(st.rows_free.ravel())
                cols.append(st.v_free.ravel())
    cat = lambda x: np.concatenate(x).astype(int) if x else np.zeros(0, dtype=int)  # noqa: E731
    return {"crba_walks": tuple(walks), "crba_rows": cat(rows), "crba_cols": cat(cols),
            "crba_s": _frozen(np.concatenate(axes) if axes else np.zeros((0, 6)))}


def _level_constants(model: Model, d: dict) -> dict:
    """The per-body constants of :func:`_joint_constants` permuted into level order (suffix _lv)."""
    o = d["order"]
    free = tuple(k for k, b in enumerate(o) if model.joint_types[b] == "free")
    one = np.array([model.joint_types[b] != "free" for b in o], dtype=bool)
    from ..geometry.kernels import crm as _crm

    C = -_crm(d["S1"][o])  # v x s = -crm(s) v: the velocity product of a 1-dof joint is linear in v
    return {"bias_lv": _frozen(C), "bias_lv_T": _frozen(np.swapaxes(C, 1, 2).copy()), "inertia_lv": _frozen(model.inertia[o]), "S1_lv": _frozen(d["S1"][o]), "P_lv": _frozen(d["P"][o]),
            "Pst_lv": _frozen(d["Pst"][o]), "PstT_lv": _frozen(d["PstT"][o]), "q1_lv": d["q1"][o], "v1_lv": d["v1"][o],
            "revolute_lv": d["revolute"][o], "free_lv": free, "one_lv": one,
            "v1_one_lv": d["v1"][o][one], "q_free_lv": tuple(model.q_slice[o[k]] for k in free),
            "v_free_lv": tuple(model.v_slice[o[k]] for k in free),
            "X_tree_free_lv": tuple(None if d["tree_is_identity"][o[k]] else d["X_tree"][o[k]] for k in free),
            **_crba_walks(model, d, one, d["v1"][o]),
            "first_moment_lv": _frozen(d["mass"][o, None] * d["com1"][o]),
            "root_columns": tuple((k, _as_index(np.flatnonzero(d["subtree"][o[k]][d["dof_body"]])))
                                  for k in range(d["levels"][0].at.stop if d["levels"] else 0))}


def _kinematic_constants(model: Model, X_tree: list, S: list) -> dict:
    """Constants of the world-frame kinematics: support chains, degree-of-freedom bookkeeping,
    local poses affine in [1, c1, c2] (like Xup), the subtree matrix and the bodies' inertial parts.

    support[i]: the bodies from the root to i (RBDA's kappa(i), as bodies); P4[i] (3, 16) with
    T_tree_i T_J(q_i) = [1, c1, c2] . P4[i]; dof_body (nv,), dof_axis (nv, 3, 2): the body and
    the local motion-subspace column [linear, angular] of every velocity coordinate;
    subtree (nb, nb): subtree[j, i] = 1 when body i is in j's subtree (RBDA's nu(j)).
    """
    nb = model.nb
    support = []
    for i in range(nb):
        chain, j = [], i
        while j >= 0:
            chain.append(j)
            j = model.parent[j]
        support.append(np.array(chain[::-1], dtype=int))
    P4 = np.zeros((nb, 3, 4, 4))
    for i, kind in enumerate(model.joint_types):
        Tt = model.T_tree[i]
        a = model.axes[i]
        P4[i, 0] = Tt
        if kind in ("revolute", "continuous"):
            K = np.zeros((4, 4))
            K[:3, :3] = [[0.0, -a[2], a[1]], [a[2], 0.0, -a[0]], [-a[1], a[0], 0.0]]
            P4[i, 1], P4[i, 2] = Tt @ K, Tt @ K @ K
        elif kind == "prismatic":
            E = np.zeros((4, 4))
            E[:3, 3] = a
            P4[i, 1] = Tt @ E
    dof_body = np.concatenate([np.zeros(0, dtype=int)] + [np.full(model.v_slice[i].stop - model.v_slice[i].start, i)
                                                         for i in range(nb)])
    dof_axis = np.concatenate([np.zeros((0, 6))] + [S[i].T for i in range(nb)]).reshape(model.nv, 2, 3).transpose(0, 2, 1)
    subtree = np.zeros((nb, nb))
    for i in range(nb):
        subtree[support[i], i] = 1.0
    dof_pos = []  # for each body: the positions, within support[i], of the bodies of i's supporting dofs
    for i in range(nb):
        pos = {b: k for k, b in enumerate(support[i])}
        dofs = np.concatenate([np.arange(model.v_slice[b].start, model.v_slice[b].stop) for b in support[i]])
        dof_pos.append((dofs, np.array([pos[b] for b in dof_body[dofs]], dtype=int), _frozen(dof_axis[dofs])))
    mass = model.inertia[:, 0, 0].copy()
    com = np.array([[I[5, 1], I[3, 2], I[4, 0]] for I in model.inertia]).reshape(nb, 3) / np.where(mass > 0, mass, 1.0)[:, None]
    I_c = np.array([I[3:, 3:] + m * (np.outer(c, c) - c @ c * np.eye(3))
                    for I, m, c in zip(model.inertia, mass, com)]).reshape(nb, 3, 3)
    return {"support": tuple(support), "P4": _frozen(P4.reshape(nb, 3, 16)), "dof_body": dof_body,
            "dof_axis": _frozen(dof_axis), "subtree": _frozen(subtree), "support_dofs": tuple(dof_pos),
            "parent_array": np.array(model.parent), "mass": _frozen(mass), "com": _frozen(com),
            "com1": _frozen(np.concatenate([com, np.ones((nb, 1))], axis=1)), "I_c": _frozen(I_c)}


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
    d = model._derived
    if kind == "revolute" or kind == "continuous":
        q = q_i[0]
        Xup = d["X_tree"][i] + math.sin(q) * d["P1"][i] + (1.0 - math.cos(q)) * d["P2"][i]
    elif kind == "prismatic":
        Xup = d["X_tree"][i] + q_i[0] * d["P1"][i]
    else:  # free: the body's pose (R, p) in the world, from [p, quaternion]
        Xup = _free_joint_X(q_i)
        if not d["tree_is_identity"][i]:
            Xup = Xup @ d["X_tree"][i]
    return Xup, d["S"][i]


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
    if model._derived["quaternions"]:
        if q.ndim == 1:
            for s in model._derived["quaternions"]:
                quat = q[s]
                if not abs(quat.dot(quat) - 1.0) <= 2.0 * QUATERNION_TOLERANCE:
                    _check_quaternions(q, (s,))
        else:
            _check_quaternions(q, model._derived["quaternions"])
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


#: States per block of a long batch. The batched algorithms run a batch of more states block by
#: block -- the same lines on q[i:i + BLOCK] -- so that each block's per-body arrays
#: ((nb, BLOCK, 6, 6): 1.9 MB for ANYmal) stay small: in the cache, and their memory reused
#: instead of fresh pages for every temporary. A whole batch of 10^4 states in one go was
#: 1.4-1.8x slower on ANYmal (RNEA, CRBA, ABA; blocks of 512 ... 1024 were the fastest).
BLOCK = 512


def in_blocks(fn):
    """Decorator: ``fn(model, q, *arrays)`` on checked arrays runs a batch longer than
    :data:`BLOCK` block by block (the same lines on each block) and stacks the results (N, ...)."""
    @functools.wraps(fn)
    def run(model: Model, q: np.ndarray, *args: np.ndarray) -> np.ndarray:
        if q.ndim == 1 or q.shape[0] <= BLOCK:
            return fn(model, q, *args)
        first = fn(model, q[:BLOCK], *(x[:BLOCK] for x in args))
        out = np.empty((q.shape[0],) + first.shape[1:])
        out[:BLOCK] = first
        for i in range(BLOCK, q.shape[0], BLOCK):
            out[i:i + BLOCK] = fn(model, q[i:i + BLOCK], *(x[i:i + BLOCK] for x in args))
        return out
    return run


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
    d = model._derived
    suffix = "_lv" if level_order else ""
    qj = q[..., d["q1" + suffix]]  # ([N,] nb); a free joint reads a dummy coordinate, overwritten later
    coeffs = np.empty((model.nb,) + q.shape[:-1] + (3,))
    qj = qj.T  # (nb, [N])
    coeffs[..., 0] = 1.0
    if d["all_revolute"]:
        coeffs[..., 1], coeffs[..., 2] = np.sin(qj), 1.0 - np.cos(qj)
    else:
        rev = d["revolute" + suffix].reshape((model.nb,) + (1,) * (q.ndim - 1))
        coeffs[..., 1] = np.where(rev, np.sin(qj), qj)
        coeffs[..., 2] = np.where(rev, 1.0 - np.cos(qj), 0.0)
    return coeffs


def _joint_transforms(model: Model, q: np.ndarray) -> np.ndarray:
    """:func:`joint_transforms` on a checked q (nq,) -> (nb, 6, 6) or (N, nq) -> (nb, N, 6, 6):
    body first, so that ``Xup[i]`` is body i's transform (or stack of N transforms)."""
    d = model._derived
    coeffs = _joint_coefficients(model, q)
    if q.ndim == 1:
        Xup = (coeffs[:, None, :] @ d["P"]).reshape(model.nb, 6, 6)
    else:  # one (N, 3) @ (3, 36) product per body
        Xup = (coeffs @ d["P"]).reshape(model.nb, q.shape[0], 6, 6)
    for i in d["free"]:
        Xup[i] = _free_joint_X(q[..., model.q_slice[i]])
        if not d["tree_is_identity"][i]:
            Xup[i] = Xup[i] @ d["X_tree"][i]
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


# ---------------------------------------------------------------- builders


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

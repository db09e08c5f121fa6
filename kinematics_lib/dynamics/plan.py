"""The engine's plan: the constant tables the fast recursions read, built once per model.

A :class:`Plan` is computed lazily, the first time a dynamics function runs on a model
(``model._plan``), and never changes (the model is frozen). It holds, per body:

* joint constants so that a joint transform is a few additions (Rodrigues' formula):
  ``Xup_i = X_tree_i + c1 P1_i + c2 P2_i`` with (c1, c2) = (sin q, 1 - cos q) for a revolute
  joint, (q, 0) for a prismatic one (``P`` stacks [X_tree, P1, P2]); motion subspaces ``S``;
* the bodies by depth (``order``, ``levels``): every pass of the engine processes one depth of
  the tree at a time, the bodies of a depth in one stacked product; ``*_lv`` tables are the
  per-body constants permuted into that level order;
* CRBA's walks from every body to the root (``crba_walks``) and the entries of M they fill;
* the kinematic tables of frames and centroidal quantities (``support`` chains, ``P4`` local
  poses, ``support_dofs``, masses and centres of mass).

Only entries that the engine, ``frames`` or ``centroidal`` read are kept (intermediates of the
construction are dropped). The reference recursions (:mod:`.rbda`) use none of this.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import NamedTuple

import numpy as np

from ..geometry.spatial import _crm, motion_transform
from .model import Model, _frozen

__all__: list = []


@dataclass(frozen=True, eq=False, slots=True)
class Plan:
    """The engine's constant tables of one model (see the module docstring; built by :func:`build_plan`)."""

    X_tree: object
    P1: object
    P2: object
    P: object
    tree_is_identity: object
    S: object
    revolute: object
    all_revolute: object
    a_gravity: object
    free: object
    q1: object
    quaternions: object
    inertia_tol: object
    support: object
    P4: object
    support_dofs: object
    parent_array: object
    mass: object
    com1: object
    order: object
    levels: object
    inertia_lv: object
    S1_lv: object
    P_lv: object
    Pst_lv: object
    PstT_lv: object
    q1_lv: object
    v1_lv: object
    revolute_lv: object
    bias_lv: object
    bias_lv_T: object
    free_lv: object
    q_free_lv: object
    v_free_lv: object
    X_tree_free_lv: object
    crba_walks: object
    crba_rows: object
    crba_cols: object
    crba_s: object
    first_moment_lv: object
    root_columns: object


def build_plan(model: Model) -> Plan:
    """The :class:`Plan` of ``model``: joint, level, CRBA and kinematic constants."""
    d = _joint_constants(model)
    d.update(_level_constants(model, d))
    return Plan(**{f.name: d[f.name] for f in fields(Plan)})


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
            "free": tuple(i for i, o in enumerate(one_dof) if not o),
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
            "position": np.argsort(np.array(order))}


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
    C = -_crm(d["S1"][o])  # v x s = -crm(s) v: the velocity product of a 1-dof joint is linear in v
    return {"bias_lv": _frozen(C), "bias_lv_T": _frozen(np.swapaxes(C, 1, 2).copy()), "inertia_lv": _frozen(model.inertia[o]), "S1_lv": _frozen(d["S1"][o]), "P_lv": _frozen(d["P"][o]),
            "Pst_lv": _frozen(d["Pst"][o]), "PstT_lv": _frozen(d["PstT"][o]), "q1_lv": d["q1"][o], "v1_lv": d["v1"][o],
            "revolute_lv": d["revolute"][o], "free_lv": free, "q_free_lv": tuple(model.q_slice[o[k]] for k in free),
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
    return {"support": tuple(support), "P4": _frozen(P4.reshape(nb, 3, 16)), "dof_body": dof_body,
            "subtree": _frozen(subtree), "support_dofs": tuple(dof_pos),
            "parent_array": np.array(model.parent), "mass": _frozen(mass), "com": _frozen(com),
            "com1": _frozen(np.concatenate([com, np.ones((nb, 1))], axis=1))}

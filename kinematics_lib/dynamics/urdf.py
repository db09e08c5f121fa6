"""A small URDF reader: the kinematic and inertial subset, into a frozen :class:`Model`.

Read: ``<link>`` with ``<inertial>`` (origin xyz/rpy, mass, inertia); ``<joint>`` of type
revolute / continuous / prismatic / fixed with origin xyz/rpy, axis, parent, child and limits.
Ignored: visuals, collisions, meshes, materials, transmissions, gazebo tags.

Fixed joints are merged: the child link's inertia is added to its parent body, and the child
link stays available as a *frame* (``model.frames[name]`` = (body, T_body_frame)).
Children of a link are visited in joint-name order, as urdfdom (and hence Pinocchio) does, so
the order of q matches Pinocchio's for the same file.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from importlib import resources
from pathlib import Path

import numpy as np

from .model import GRAVITY, Model
from ..geometry.rotations import rpy_to_matrix
from ..geometry.spatial import _motion_transform, _spatial_inertia

__all__ = ["load_urdf", "anymal_b_urdf"]

SUPPORTED = ("revolute", "continuous", "prismatic", "fixed")


def anymal_b_urdf() -> Path:
    """Path of the shipped ANYmal B URDF (BSD-3-Clause, ANYbotics; see data/anymal_b/README.md)."""
    return Path(str(resources.files("kinematics_lib") / "data" / "anymal_b" / "anymal.urdf"))


def _floats(text: str | None, n: int, default: float, what: str) -> np.ndarray:
    if text is None:
        return np.full(n, default)
    values = [float(x) for x in text.split()]
    if len(values) != n:
        raise ValueError(f"{what} must have {n} numbers, got {text!r}")
    return np.array(values)


def _origin(elem) -> np.ndarray:
    T = np.eye(4)
    o = elem.find("origin") if elem is not None else None
    if o is not None:
        T[:3, :3] = rpy_to_matrix(_floats(o.get("rpy"), 3, 0.0, "origin rpy"))
        T[:3, 3] = _floats(o.get("xyz"), 3, 0.0, "origin xyz")
    return T


def _link_inertia(link) -> np.ndarray:
    """Spatial inertia of a link in its own frame (zero if it has no <inertial>)."""
    inertial = link.find("inertial")
    if inertial is None:
        return np.zeros((6, 6))
    T = _origin(inertial)
    mass = float(inertial.find("mass").get("value"))
    e = inertial.find("inertia")
    ixx, ixy, ixz, iyy, iyz, izz = (float(e.get(k, 0.0)) for k in ("ixx", "ixy", "ixz", "iyy", "iyz", "izz"))
    I_inertial = np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])
    R = T[:3, :3]
    return _spatial_inertia(mass, T[:3, 3], R @ I_inertial @ R.T)


def load_urdf(path, floating_base: bool = False, gravity=GRAVITY) -> Model:
    """Build a :class:`Model` from a URDF file.

    floating_base=True adds a free joint 'root_joint' between the world and the root link
    (q = [p, quaternion x y z w, joints], v = [base linear, base angular (base frame), joints]);
    otherwise the root link is fixed to the world and carries no coordinates.
    ``model.joint_names`` lists the actuated joints in the order of q.
    """
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"path must be an existing URDF file, got {str(path)!r}")
    root = ET.parse(path).getroot()
    if root.tag != "robot":
        raise ValueError(f"{path.name}: the root element must be <robot>, got <{root.tag}>")
    links = {l.get("name"): l for l in root.findall("link")}
    joints = {}
    for j in root.findall("joint"):
        kind = j.get("type")
        if kind not in SUPPORTED:
            raise ValueError(f"{path.name}: joint {j.get('name')!r} has unsupported type {kind!r} "
                             f"(supported: {', '.join(SUPPORTED)})")
        joints[j.get("name")] = j
    children: dict[str, list[str]] = {}
    child_links = set()
    for name in sorted(joints):
        j = joints[name]
        parent, child = j.find("parent").get("link"), j.find("child").get("link")
        if parent not in links or child not in links:
            raise ValueError(f"{path.name}: joint {name!r} refers to an unknown link")
        children.setdefault(parent, []).append(name)
        child_links.add(child)
    roots = [l for l in links if l not in child_links]
    if len(roots) != 1:
        raise ValueError(f"{path.name}: expected exactly one root link, found {roots}")

    body_names, body_joint, parent_of, types, axes, T_tree, inertia, lower, upper = ([] for _ in range(9))
    frames: dict[str, tuple[int, np.ndarray]] = {}

    def add_body(link: str, joint: str, kind: str, parent: int, T: np.ndarray, axis, lo, hi) -> int:
        body_names.append(link)
        body_joint.append(joint)
        parent_of.append(parent)
        types.append(kind)
        axes.append(axis)
        T_tree.append(T)
        inertia.append(_link_inertia(links[link]))
        lower.append(lo)
        upper.append(hi)
        frames[link] = (len(body_names) - 1, np.eye(4))
        return len(body_names) - 1

    def visit(link: str, body: int, T_body_link: np.ndarray) -> None:
        """Walk the subtree of ``link``, which is rigidly attached to ``body`` at T_body_link."""
        for jname in children.get(link, []):
            j = joints[jname]
            child = j.find("child").get("link")
            T = T_body_link @ _origin(j)
            if j.get("type") == "fixed":
                if body < 0:  # fixed to the world: no dynamics, but still a frame
                    frames[child] = (-1, T)
                    visit(child, body, T)
                    continue
                X_child_body = _motion_transform(T[:3, :3], T[:3, 3])
                inertia[body] = inertia[body] + X_child_body.T @ _link_inertia(links[child]) @ X_child_body
                frames[child] = (body, T)
                frames.setdefault(jname, (body, T))
                visit(child, body, T)
                continue
            axis_elem = j.find("axis")
            axis = _floats(axis_elem.get("xyz") if axis_elem is not None else None, 3, 0.0, "axis") \
                if axis_elem is not None else np.array([1.0, 0.0, 0.0])
            lim = j.find("limit")
            lo, hi = -np.inf, np.inf
            if j.get("type") in ("revolute", "prismatic") and lim is not None:
                lo, hi = float(lim.get("lower", "-inf")), float(lim.get("upper", "inf"))
            child_body = add_body(child, jname, j.get("type"), body, T, axis, lo, hi)
            frames.setdefault(jname, (child_body, np.eye(4)))
            visit(child, child_body, np.eye(4))

    (root_link,) = roots
    if floating_base:
        base = add_body(root_link, "root_joint", "free", -1, np.eye(4), np.zeros(3), -np.inf, np.inf)
        visit(root_link, base, np.eye(4))
    else:
        frames[root_link] = (-1, np.eye(4))
        visit(root_link, -1, np.eye(4))
    if not body_names:
        raise ValueError(f"{path.name}: no moving body (every joint is fixed to the world)")
    return Model(name=root.get("name", path.stem), body_names=tuple(body_names), body_joint=tuple(body_joint),
                 parent=tuple(parent_of), joint_types=tuple(types), axes=np.array(axes), T_tree=np.array(T_tree),
                 inertia=np.array(inertia), gravity=gravity, frames=frames, lower=np.array(lower),
                 upper=np.array(upper))

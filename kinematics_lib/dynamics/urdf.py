"""A small URDF reader: the kinematic and inertial subset, into a frozen :class:`Model`.

Read: ``<link>`` with ``<inertial>`` (origin xyz/rpy, mass, inertia); ``<joint>`` of type
revolute / continuous / prismatic / fixed with origin xyz/rpy, axis, parent, child and limits.
Ignored: visuals, collisions, meshes, materials, transmissions, gazebo tags.

Fixed joints are merged: the child link's inertia is added to its parent body, and the child
link stays available as a *frame* (``model.frames[name]`` = (body, T_body_frame)).
Children of a link are visited in joint-name order, as urdfdom (and hence Pinocchio) does, so
the order of q matches Pinocchio's for the same file.

Every malformed file raises ``ValueError`` naming the file, the link or joint and the problem:
malformed XML, missing or duplicate names, a link with two parents, closed loops, unknown links,
missing ``<mass>``/``<inertia>``/``<parent>``/``<child>``, non-numeric or non-finite numbers,
negative masses, zero axes, limits with lower > upper. Unsupported features are refused, not
ignored: planar and floating joints, xacro leftovers (``${...}``, ``$(...)``, ``xacro:``
elements: run ``xacro`` first). Links without ``<inertial>`` are allowed (massless); a moving
subtree without mass makes the mass matrix singular, which the dynamics algorithms report when
they need it.

What real robots' files contain is loaded the way Pinocchio loads it (issue 22):

* a link inertia that no rigid body can have (not positive semi-definite, or principal moments
  that break the triangle inequality I_1 + I_2 >= I_3) -- vendors' CAD exports have them -- is
  kept as given with one :class:`~kinematics_lib.PhysicsWarning` naming the file, the links and
  the violations; ``strict=True`` refuses it (``InputError``). A Model built in code is always
  held to physical inertias.
* a ``<mimic>`` joint is loaded as an independent joint (Pinocchio's default, ``mimic=False``),
  with one PhysicsWarning naming the file and the mimic joints; the coupling q_j = m q_k + o is
  not enforced.
* a robot whose joints are all fixed loads: nq = nv = 0 on a fixed base (every link a frame of
  the world), one free body on a floating base.
"""

from __future__ import annotations

import math
import os
import re
import warnings
import xml.etree.ElementTree as ET
from importlib import resources
from pathlib import Path

import numpy as np

from .. import _validate as check
from .model import GRAVITY, Model, _model_as_given
from ..geometry.rotations import rpy_to_matrix
from ..geometry.kernels import motion_transform as _motion_transform, spatial_inertia as _spatial_inertia

__all__ = ["load_urdf", "anymal_b_urdf"]

SUPPORTED = ("revolute", "continuous", "prismatic", "fixed")
#: relative tolerance of the inertia checks of a link, relative to the inertia of the rigid body it
#: belongs to (so that a negligible placeholder such as ANYmal's 1e-6 dummy passes)
INERTIA_TOL = 1e-5
_XACRO = re.compile(r"\$\{|\$\(")


class _Reader:
    """Error messages that name the file and the element: ``self.fail("joint 'j1'", "problem")``."""

    def __init__(self, path: Path):
        self.path = path

    def fail(self, where: str, problem: str):
        raise check.InputError(f"{self.path.name}: {where}: {problem}")

    def floats(self, where: str, elem, attr: str, n: int, default: float | None) -> np.ndarray:
        text = elem.get(attr) if elem is not None else None
        if text is None:
            if default is None:
                self.fail(where, f"<{elem.tag}> needs the attribute {attr}")
            return np.full(n, default)
        try:
            values = [float(x) for x in text.split()]
        except ValueError:
            self.fail(where, f"<{elem.tag} {attr}={text!r}> must be {n} number(s)")
        if len(values) != n:
            self.fail(where, f"<{elem.tag} {attr}={text!r}> must be {n} number(s), got {len(values)}")
        if not all(math.isfinite(v) for v in values):
            self.fail(where, f"<{elem.tag} {attr}={text!r}> must be finite numbers")
        return np.array(values)

    def origin(self, where: str, elem) -> np.ndarray:
        T = np.eye(4)
        o = elem.find("origin") if elem is not None else None
        if o is not None:
            T[:3, :3] = rpy_to_matrix(self.floats(where, o, "rpy", 3, 0.0))
            T[:3, 3] = self.floats(where, o, "xyz", 3, 0.0)
        return T

    def inertial(self, name: str, link) -> tuple[np.ndarray, np.ndarray]:
        """(spatial inertia (6, 6) in the link frame, I about the CoM (3, 3)); zeros without <inertial>."""
        where = f"link {name!r}"
        inertial = link.find("inertial")
        if inertial is None:
            return np.zeros((6, 6)), np.zeros((3, 3))
        T = self.origin(where, inertial)
        mass_elem, e = inertial.find("mass"), inertial.find("inertia")
        if mass_elem is None:
            self.fail(where, "<inertial> has no <mass value=...>")
        if e is None:
            self.fail(where, "<inertial> has no <inertia ixx=... iyy=... izz=... ixy=... ixz=... iyz=...>")
        (mass,) = self.floats(where, mass_elem, "value", 1, None)
        if mass < 0.0:
            self.fail(where, f"<mass value={mass:g}> must be >= 0 (a negative mass is impossible)")
        ixx, ixy, ixz, iyy, iyz, izz = (self.floats(where, e, k, 1, None)[0]
                                        for k in ("ixx", "ixy", "ixz", "iyy", "iyz", "izz"))
        R = T[:3, :3]
        I_c = R @ np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]]) @ R.T
        return _spatial_inertia(mass, T[:3, 3], I_c), I_c


def anymal_b_urdf() -> Path:
    """Path of the shipped ANYmal B URDF (BSD-3-Clause, ANYbotics; see data/anymal_b/README.md)."""
    return Path(str(resources.files("kinematics_lib") / "data" / "anymal_b" / "anymal.urdf"))


def _parse(path) -> tuple[Path, ET.Element]:
    if not isinstance(path, (str, os.PathLike)):
        raise check.InputError(f"path must be the path of a URDF file (str or Path), got {check.describe(path)}")
    path = Path(path)
    if not path.is_file():
        raise check.InputError(f"path must be an existing URDF file, got {str(path)!r}")
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as err:
        raise check.InputError(f"{path.name}: empty or malformed XML ({err}); the path must name a URDF file") from None
    if root.tag != "robot":
        raise check.InputError(f"{path.name}: the root element must be <robot>, got <{root.tag}>")
    return path, root


def _tag(elem) -> str:
    """The tag as written: '{http://www.ros.org/wiki/xacro}macro' -> 'xacro:macro'."""
    tag = elem.tag
    return "xacro:" + tag.split("}", 1)[1] if tag.startswith("{") and "xacro" in tag else tag


def _no_xacro(r: _Reader, root: ET.Element) -> None:
    """Refuse xacro leftovers: ${...} / $(...) expressions and xacro: elements (run xacro first)."""
    hint = "run xacro first (xacro robot.urdf.xacro > robot.urdf)"
    for attr, value in root.attrib.items():
        if _XACRO.search(value):
            r.fail("<robot>", f"attribute {attr}={value!r} is a xacro expression left over: {hint}")
    for top in root:
        owner = f"{_tag(top)} {top.get('name')!r}" if top.get("name") else f"<{_tag(top)}>"
        for elem in top.iter():
            if "xacro" in elem.tag:
                r.fail(owner, f"<{_tag(elem)}> is a xacro element: xacro is not supported, {hint}")
            for attr, value in elem.attrib.items():
                if _XACRO.search(value):
                    r.fail(owner, f"<{_tag(elem)} {attr}={value!r}> is a xacro expression left over: {hint}")


def _named(r: _Reader, root: ET.Element, tag: str) -> dict:
    """name -> element for every <tag>; names must exist and be unique."""
    out = {}
    for k, elem in enumerate(root.findall(tag)):
        name = elem.get("name")
        if not name:
            r.fail(f"<{tag}> number {k + 1}", "it has no name")
        if name in out:
            r.fail(f"{tag} {name!r}", f"two <{tag}> elements have this name (names must be unique)")
        out[name] = elem
    return out


def _joint_links(r: _Reader, name: str, j, links: dict) -> tuple[str, str]:
    """(parent link, child link) of a joint, both existing and different."""
    where = f"joint {name!r}"
    kind = j.get("type")
    if kind is None:
        r.fail(where, f"it has no type (supported: {', '.join(SUPPORTED)})")
    if kind not in SUPPORTED:
        hint = {"planar": "planar joints are not supported", "floating": "floating joints are not supported "
                "(load_urdf(..., floating_base=True) makes the root free-floating)"}.get(kind, "not a URDF joint type")
        r.fail(where, f"unsupported type {kind!r}: {hint} (supported: {', '.join(SUPPORTED)})")
    ends = []
    for tag in ("parent", "child"):
        e = j.find(tag)
        if e is None or not e.get("link"):
            r.fail(where, f"it has no <{tag} link=...>")
        if e.get("link") not in links:
            r.fail(where, f"its {tag} link {e.get('link')!r} is not a <link> of the file")
        ends.append(e.get("link"))
    if ends[0] == ends[1]:
        r.fail(where, f"its parent and child are the same link {ends[0]!r}")
    return ends[0], ends[1]


def _tree(r: _Reader, links: dict, joints: dict) -> tuple[str, dict, dict]:
    """(root link, children: link -> joint names in name order, joint -> (parent, child)); a tree."""
    ends = {name: _joint_links(r, name, joints[name], links) for name in sorted(joints)}
    parent_joint: dict[str, str] = {}
    children: dict[str, list[str]] = {}
    for name, (parent, child) in ends.items():
        if child in parent_joint:
            r.fail(f"link {child!r}", f"it has two parents (joints {parent_joint[child]!r} and {name!r}): a "
                                      "kinematic tree needs exactly one; closed loops are not supported")
        parent_joint[child] = name
        children.setdefault(parent, []).append(name)
    roots = [l for l in links if l not in parent_joint]
    if len(roots) != 1:
        if not roots:
            r.fail("links", "there is no root link (every link is some joint's child): closed loops are not supported")
        r.fail("links", f"expected exactly one root link (a link that is no joint's child), found {roots}")
    seen, stack = {roots[0]}, [roots[0]]
    while stack:  # every link must hang from the root
        for jname in children.get(stack.pop(), []):
            seen.add(ends[jname][1])
            stack.append(ends[jname][1])
    loose = [l for l in links if l not in seen]
    if loose:
        r.fail(f"links {loose}", f"not connected to the root link {roots[0]!r}: they form a closed loop "
                                 "(closed loops are not supported)")
    return roots[0], children, ends


def _axis_and_limits(r: _Reader, name: str, j) -> tuple[np.ndarray, float, float]:
    where = f"joint {name!r}"
    axis_elem = j.find("axis")
    axis = np.array([1.0, 0.0, 0.0]) if axis_elem is None else r.floats(where, axis_elem, "xyz", 3, None)
    if not np.abs(axis).max() > 0.0:
        r.fail(where, f"<axis xyz='0 0 0'> is not a direction (a {j.get('type')} joint needs a non-zero axis)")
    lo, hi = -np.inf, np.inf
    lim = j.find("limit")
    if j.get("type") in ("revolute", "prismatic") and lim is not None:
        lo = float(r.floats(where, lim, "lower", 1, -np.inf)[0]) if lim.get("lower") is not None else -np.inf
        hi = float(r.floats(where, lim, "upper", 1, np.inf)[0]) if lim.get("upper") is not None else np.inf
        if lo > hi:
            r.fail(where, f"<limit lower={lo} upper={hi}>: lower must be <= upper")
    return axis, lo, hi


def load_urdf(path, floating_base: bool = False, gravity=GRAVITY, strict: bool = False) -> Model:
    """Build a :class:`Model` from a URDF file.

    floating_base=True adds a free joint 'root_joint' between the world and the root link
    (q = [p, quaternion x y z w, joints], v = [base linear, base angular (base frame), joints]);
    otherwise the root link is fixed to the world and carries no coordinates.
    ``model.joint_names`` lists the actuated joints in the order of q (Pinocchio's order; a
    continuous joint has one coordinate here where Pinocchio has cos, sin).
    gravity (3,): m/s^2 in the world frame.
    strict=False loads a physically impossible link inertia as given with a
    :class:`~kinematics_lib.PhysicsWarning` (as Pinocchio loads it); strict=True refuses it.
    Mimic joints load as independent joints (with a PhysicsWarning); a robot whose joints are
    all fixed gives nq = nv = 0 (fixed base) or one free body (floating base).
    A malformed file raises ValueError naming the file, the link or joint and the problem.
    """
    floating_base = check.flag(floating_base, "floating_base")
    strict = check.flag(strict, "strict")
    gravity = check.vector(gravity, 3, "gravity")
    path, root = _parse(path)
    r = _Reader(path)
    _no_xacro(r, root)
    links, joints = _named(r, root, "link"), _named(r, root, "joint")
    if not links:
        r.fail("<robot>", "it has no <link>")
    root_link, children, ends = _tree(r, links, joints)
    link_inertia = {name: r.inertial(name, link) for name, link in links.items()}

    bodies: list[dict] = []  # per body: link, joint, kind, parent, T, axis, limits, inertia, merged links
    frames: dict[str, tuple[int, np.ndarray]] = {}
    world_links: list[tuple[str, np.ndarray]] = []  # links fixed to the world: (name, T_world_link)
    if floating_base:
        bodies.append(dict(link=root_link, joint="root_joint", kind="free", parent=-1, T=np.eye(4),
                           axis=np.zeros(3), lo=-np.inf, hi=np.inf, inertia=link_inertia[root_link][0].copy(),
                           merged=[root_link]))
        frames[root_link] = (0, np.eye(4))
        base = 0
    else:
        frames[root_link] = (-1, np.eye(4))
        world_links.append((root_link, np.eye(4)))
        base = -1
    # depth first, children in joint-name order (as urdfdom): a stack of (joint, body, T_body_link)
    stack = [(jname, base, np.eye(4)) for jname in reversed(children.get(root_link, []))]
    while stack:
        jname, body, T_body_link = stack.pop()
        j, child = joints[jname], ends[jname][1]
        T = T_body_link @ r.origin(f"joint {jname!r}", j)
        if j.get("type") == "fixed":
            frames[child] = (body, T)
            frames.setdefault(jname, (body, T))
            if body < 0:  # fixed to the world: no dynamics, but still a frame
                world_links.append((child, T))
            else:
                X = _motion_transform(T[:3, :3], T[:3, 3])  # body -> child link coordinates
                bodies[body]["inertia"] = bodies[body]["inertia"] + X.T @ link_inertia[child][0] @ X
                bodies[body]["merged"].append(child)
            child_body, T_child = body, T
        else:
            axis, lo, hi = _axis_and_limits(r, jname, j)
            bodies.append(dict(link=child, joint=jname, kind=j.get("type"), parent=body, T=T, axis=axis, lo=lo,
                               hi=hi, inertia=link_inertia[child][0].copy(), merged=[child]))
            child_body, T_child = len(bodies) - 1, np.eye(4)
            frames[child] = (child_body, np.eye(4))
            frames.setdefault(jname, (child_body, np.eye(4)))
        stack.extend((jj, child_body, T_child) for jj in reversed(children.get(child, [])))
    mimic = [n for n in sorted(joints) if joints[n].find("mimic") is not None]
    if mimic:
        listed = ", ".join(f"{n!r} (mimics {joints[n].find('mimic').get('joint')!r})" for n in mimic)
        warnings.warn(f"{path.name}: mimic joints {listed} are loaded as independent joints "
                      "(Pinocchio's default): their coupling is not enforced", check.PhysicsWarning, stacklevel=2)
    problems = _check_inertias(r, bodies, [n for n, _ in world_links], link_inertia, strict)
    if problems:
        warnings.warn(f"{path.name}: physically impossible inertias kept as given (load_urdf(..., strict=True) "
                      f"refuses them): " + "; ".join(problems), check.PhysicsWarning, stacklevel=2)
    build = Model if not problems else _model_as_given
    return build(name=root.get("name", path.stem), body_names=tuple(b["link"] for b in bodies),
                 body_joint=tuple(b["joint"] for b in bodies), parent=tuple(b["parent"] for b in bodies),
                 joint_types=tuple(b["kind"] for b in bodies), axes=np.array([b["axis"] for b in bodies]).reshape(-1, 3),
                 T_tree=np.array([b["T"] for b in bodies]).reshape(-1, 4, 4),
                 inertia=np.array([b["inertia"] for b in bodies]).reshape(-1, 6, 6),
                 gravity=gravity, frames=frames, lower=np.array([b["lo"] for b in bodies]),
                 upper=np.array([b["hi"] for b in bodies]))


def _check_inertias(r: _Reader, bodies: list, world_links: list, link_inertia: dict, strict: bool) -> list:
    """Each link's inertia about its CoM must be physical (PSD, triangle inequality), within
    INERTIA_TOL of the rigid body it is merged into (or of the world-fixed links together).
    strict: refuse the first violation; otherwise return the list "link 'name': violation"."""
    problems = []
    groups = [(b["merged"], np.abs(b["inertia"]).max()) for b in bodies]
    if world_links:
        groups.append((world_links, max(np.abs(link_inertia[n][0]).max() for n in world_links)))
    for names, scale in groups:
        for name in names:
            try:
                check.rotational_inertia(link_inertia[name][1], "inertia", INERTIA_TOL, max(scale, 1e-300))
            except check.InputError as err:
                problem = str(err).split(": ", 1)[-1]
                if strict:
                    r.fail(f"link {name!r}", f"<inertia> is not a physical inertia: {problem}")
                problems.append(f"link {name!r}: {problem}")
    return problems

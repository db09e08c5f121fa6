"""ANYmal B helpers: the feet, a nominal stance, poses with the feet kept on the ground, and the
collision boxes of the URDF (for drawings and the body-size table)."""

from __future__ import annotations

import numpy as np

from .. import _validate as check
import dataclasses

from ..dynamics.model import Model
from ..geometry.spatial import spatial_inertia
from ..geometry.rotations import matrix_to_quat, rpy_to_matrix
from .leg_kinematics import _configuration, _feet, leg_geometry, leg_ik

__all__ = ["ANYMAL_FEET", "ANYMAL_STANCE", "stance_configuration", "urdf_boxes", "add_payload"]

#: the foot frames of ANYmal B, in the model's (Pinocchio's) leg order
ANYMAL_FEET = ("LF_FOOT", "LH_FOOT", "RF_FOOT", "RH_FOOT")

#: a nominal stance of ANYmal B (rad): (HAA, HFE, KFE) per leg, front knees backwards ("X" legs)
ANYMAL_STANCE = {"LF_FOOT": (0.0, 0.4, -0.8), "LH_FOOT": (0.0, -0.4, 0.8),
                 "RF_FOOT": (0.0, 0.4, -0.8), "RH_FOOT": (0.0, -0.4, 0.8)}


def stance_configuration(model: Model, feet, p_feet, p_base, R_base, q_ref=None) -> tuple[np.ndarray, tuple]:
    """(q (nq,), results): the base at (p_base (3,) [m], R_base (3, 3)) in the world and every
    foot of ``feet`` at its world position p_feet (k, 3) [m], by :func:`leg_ik` per leg.

    q_ref (nq,): the configuration whose leg angles pick each leg's branch (default: the legs'
    limit middles). results: the k :class:`IKResult` (check ``converged``: an unreachable foot
    leaves its leg pointing at the target). Legs not in ``feet`` keep q_ref's (or zero) angles.
    """
    check.model(model, "model")
    if not model.floating_base or model.joint_types[0] != "free":
        raise check.InputError(f"model must have a floating base (a free root joint), got {model!r}")
    feet = _feet(model, feet)
    P = check.matrix(p_feet, (len(feet), 3), "p_feet")
    p_base = check.vector(p_base, 3, "p_base")
    R = check.rotation(R_base, "R_base")
    q = np.zeros(model.nq) if q_ref is None else _configuration(model, q_ref, "q_ref").copy()
    q[:3], q[3:7] = p_base, matrix_to_quat(R)
    results = []
    for f, p in zip(feet, P):
        idx = list(leg_geometry(model, f).q_index)
        res = leg_ik(model, f, R.T @ (p - p_base), None if q_ref is None else q[idx])
        q[idx] = res.q
        results.append(res)
    return q, tuple(results)


def urdf_boxes(path, link: str) -> list[tuple[np.ndarray, np.ndarray]]:
    """The collision boxes of ``link`` in a URDF: [(size (3,) [m], T_link_box (4, 4)), ...]."""
    from ..dynamics.shared import parse_urdf as _parse

    path, root = _parse(path)
    link = check.text(link, "link")
    elems = [e for e in root.iter("link") if e.get("name") == link]
    if not elems:
        raise check.InputError(f"link must be a link of {path.name}, got {link!r}")
    out = []
    for col in elems[0].iter("collision"):
        box = col.find("geometry/box")
        if box is None:
            continue
        T = np.eye(4)
        origin = col.find("origin")
        if origin is not None:
            T[:3, :3] = rpy_to_matrix([float(x) for x in origin.get("rpy", "0 0 0").split()])
            T[:3, 3] = [float(x) for x in origin.get("xyz", "0 0 0").split()]
        out.append((np.array([float(x) for x in box.get("size").split()]), T))
    return out



def add_payload(model: Model, mass, p_base) -> Model:
    """The model with a point mass ``mass`` [kg] fixed to the root body at p_base (3,) [m, root frame]."""
    check.model(model, "model")
    m = check.nonnegative(mass, "mass")
    p = check.vector(p_base, 3, "p_base")
    check.finite_result(np.array([m * (p @ p)]), "the payload's inertia m |p|^2", "mass, p_base")
    inertia = np.array(model.inertia)
    inertia[0] = inertia[0] + spatial_inertia(m, p, np.zeros((3, 3)))
    return dataclasses.replace(model, inertia=inertia, name=f"{model.name} + {m:g} kg")

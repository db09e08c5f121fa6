"""Leg kinematics of quadrupeds such as ANYmal: closed-form leg IK and stacked contact Jacobians.

A leg is the chain of three revolute joints HAA -> HFE -> KFE (hip abduction/adduction, hip
flexion/extension, knee flexion/extension) between the base and a foot frame. ``leg_ik`` reads
the leg's geometry from the model's own joint placements (``T_tree``, ``axes``, the foot's frame
offset), so it works for any leg of this structure: the HAA axis parallel to the base x axis at
q = 0 (either direction), HFE and KFE axes parallel to each other and perpendicular to HAA, any
fixed offsets and rotated joint frames in between.

Frames: B = base (the floating base body, or the world for a fixed-base model), H = HAA joint
frame, F = HFE joint frame, K = KFE joint frame; all positions in m, angles in rad.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import _validate as check
from ..arms.ik import IKResult, wrap_angle
from ..contact.shared import frame_names
from ..dynamics.frames import forward_kinematics
from ..dynamics.model import Model
from ..geometry.spatial import spatial_inertia
from ..geometry.rotations import so3_exp
from ..geometry.kernels import cross as _cross, skew as _skew

__all__ = ["LegGeometry", "leg_geometry", "leg_ik", "leg_foot_position", "contact_jacobian", "simple_leg_model"]

TOL_AXIS = 1e-9  # |sin| of the angle between axes that must be parallel / perpendicular
TOL_POSITION = 1e-9  # m: a solution reproducing the target to this is 'converged'
MAX_FEET = 64


@dataclass(frozen=True)
class LegGeometry:
    """The constant geometry of one HAA-HFE-KFE leg, read from a model (all in m, unit axes).

    foot: the foot frame's name; joints (3,): body indices of HAA, HFE, KFE (their q indices
    are ``q_index``, their v indices ``v_index``).
    p_BH, R_BH: HAA joint placement in the base frame; a1: HAA axis in H.
    p_HF, R_HF: HFE placement in H; a2: HFE axis in F.
    p_FK, R_FK: KFE placement in F; a3: KFE axis in K; sigma = a3 . (R_FK^T a2) = +-1.
    c_K: the foot position in K.
    """

    foot: str
    joints: tuple
    q_index: tuple
    v_index: tuple
    p_BH: np.ndarray
    R_BH: np.ndarray
    a1: np.ndarray
    p_HF: np.ndarray
    R_HF: np.ndarray
    a2: np.ndarray
    p_FK: np.ndarray
    R_FK: np.ndarray
    a3: np.ndarray
    sigma: float
    c_K: np.ndarray


def _leg_chain(model: Model, foot: str) -> tuple[int, int, int]:
    """Body indices (HAA, HFE, KFE) of the leg carrying frame ``foot``; ValueError otherwise."""
    if not isinstance(foot, str) or foot not in model.frames:
        names = [n for n in model.frames if "FOOT" in n.upper()] or list(model.frames)[:6]
        raise check.InputError(f"foot must be the name of a frame of the model (e.g. {', '.join(names)}), "
                               f"got {check.describe(foot)}")
    chain, j = [], model.frames[foot][0]
    while j >= 0 and model.joint_types[j] != "free" and len(chain) <= 3:
        chain.append(j)
        j = model.parent[j]
    if len(chain) != 3 or any(model.joint_types[i] not in ("revolute", "continuous") for i in chain):
        raise check.InputError(f"foot {foot!r} must sit on a leg of three revolute joints (HAA, HFE, KFE) "
                               f"below the base, got the joints {[model.body_joint[i] for i in reversed(chain)]}")
    return tuple(reversed(chain))


def leg_geometry(model: Model, foot: str) -> LegGeometry:
    """The :class:`LegGeometry` of the leg carrying ``foot``, checking the leg structure.

    Raises ValueError unless the HAA axis is parallel to the base x axis (R_BH a1 = +-x) and the
    HFE and KFE axes are parallel to each other and perpendicular to HAA at q = 0.
    """
    check.model(model, "model")
    i1, i2, i3 = _leg_chain(model, foot)
    T1, T2, T3 = model.T_tree[i1], model.T_tree[i2], model.T_tree[i3]
    a1, a2, a3 = model.axes[i1], model.axes[i2], model.axes[i3]
    n2_B = T1[:3, :3] @ T2[:3, :3] @ a2
    n3_B = T1[:3, :3] @ T2[:3, :3] @ T3[:3, :3] @ a3
    u_B = T1[:3, :3] @ a1
    problems = []
    if np.linalg.norm(np.cross(u_B, [1.0, 0.0, 0.0])) > TOL_AXIS:
        problems.append(f"the HAA axis in the base frame is {np.round(u_B, 6)}, not +-x")
    if np.linalg.norm(np.cross(n2_B, n3_B)) > TOL_AXIS:
        problems.append("the HFE and KFE axes are not parallel")
    if abs(u_B @ n2_B) > TOL_AXIS:
        problems.append("the HFE axis is not perpendicular to the HAA axis")
    if problems:
        raise check.InputError(f"foot {foot!r} must be on an HAA-HFE-KFE leg: {'; '.join(problems)}")
    body, T_KF = model.frames[foot]
    return LegGeometry(foot=foot, joints=(i1, i2, i3),
                       q_index=tuple(model.q_slice[i].start for i in (i1, i2, i3)),
                       v_index=tuple(model.v_slice[i].start for i in (i1, i2, i3)),
                       p_BH=T1[:3, 3], R_BH=T1[:3, :3], a1=a1, p_HF=T2[:3, 3], R_HF=T2[:3, :3], a2=a2,
                       p_FK=T3[:3, 3], R_FK=T3[:3, :3], a3=a3,
                       sigma=float(np.sign(a3 @ (T3[:3, :3].T @ a2))), c_K=T_KF[:3, 3])


def _foot(g: LegGeometry, q: np.ndarray) -> np.ndarray:
    """p_B (3,): foot position in the base frame, p = p_BH + R_BH R1 (p_HF + R_HF R2 (p_FK + R_FK R3 c))."""
    v = g.p_FK + g.R_FK @ so3_exp(g.a3 * q[2]) @ g.c_K
    w = g.p_HF + g.R_HF @ so3_exp(g.a2 * q[1]) @ v
    return g.p_BH + g.R_BH @ so3_exp(g.a1 * q[0]) @ w


def leg_foot_position(model: Model, foot: str, q_leg) -> np.ndarray:
    """Foot position p_B (3,) in the base frame (m) for the leg's joint angles q_leg (3,) (rad)."""
    g = leg_geometry(model, foot)
    return _foot(g, check.vector(q_leg, 3, "q_leg"))


def _plane_basis(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Two unit vectors (b1, b2) with b1 x b2 = a: coordinates of the plane perpendicular to a."""
    b1 = np.cross(a, [1.0, 0.0, 0.0] if abs(a[0]) < 0.9 else [0.0, 1.0, 0.0])
    b1 /= np.linalg.norm(b1)
    return b1, np.cross(a, b1)


def _angle_about(a: np.ndarray, r0: np.ndarray, r1: np.ndarray) -> float:
    """The angle (rad) turning r0 onto r1 about the unit axis a (both perpendicular to a)."""
    return math.atan2(a @ np.cross(r0, r1), r0 @ r1)


def _planar(g: LegGeometry) -> tuple:
    """The HFE-KFE plane (perpendicular to a2, in F): basis (b1, b2), thigh k and shank m as 2-D
    vectors with their lengths L1, L2 and angles alpha_k, alpha_m (rad)."""
    b1, b2 = _plane_basis(g.a2)
    k, m = g.p_FK, g.R_FK @ g.c_K  # HFE -> KFE, KFE -> foot (at q3 = 0), in F
    L1, L2 = math.hypot(k @ b1, k @ b2), math.hypot(m @ b1, m @ b2)
    return b1, b2, L1, L2, math.atan2(k @ b2, k @ b1), math.atan2(m @ b2, m @ b1)


def _knee_cosine(r: float, L1: float, L2: float) -> float:
    """cos(theta2) = (r^2 - L1^2 - L2^2) / (2 L1 L2), in units of max(r, L1, L2) (no overflow)."""
    s = max(r, L1, L2)
    return ((r / s) ** 2 - (L1 / s) ** 2 - (L2 / s) ** 2) / (2.0 * (L1 / s) * (L2 / s))


def _leg_branches(g: LegGeometry, t: np.ndarray) -> tuple[list, bool]:
    """All (hip, knee) solutions [q1, q2, q3] for the target t (3,) given in H, and whether the
    target is reachable (if not, the solutions are the configurations pointing at it).

    Hip: the HAA rotation keeps the component x_t = a1 . t and the constant offset s = n . w along
    the HFE axis n = R_HF a2; the rest is e_z = +-sqrt(rho^2 - s^2), rho = |t - x_t a1|, along
    e = a1 x n. Knee: a planar 2R arm (thigh L1, shank L2) in the plane perpendicular to a2.
    """
    n = g.R_HF @ g.a2
    e = np.cross(g.a1, n)
    s = n @ (g.p_HF + g.R_HF @ (g.p_FK + g.R_FK @ g.c_K))
    x_t = g.a1 @ t
    r_t = t - x_t * g.a1
    ez2 = (r_t @ r_t) - s * s
    hip_ok = ez2 >= -1e-12 * max(1.0, s * s)
    b1, b2, L1, L2, alpha_k, alpha_m = _planar(g)
    out, ok = [], []
    for ez in (math.sqrt(max(ez2, 0.0)), -math.sqrt(max(ez2, 0.0))):
        r0 = s * n + ez * e
        q1 = _angle_about(g.a1, r0, r_t)
        v = g.R_HF.T @ (x_t * g.a1 + r0 - g.p_HF)  # HFE -> foot wanted, in F
        d1, d2 = v @ b1, v @ b2
        c2 = _knee_cosine(math.hypot(d1, d2), L1, L2)
        for th2 in (math.acos(min(1.0, max(-1.0, c2))), -math.acos(min(1.0, max(-1.0, c2)))):
            th1 = math.atan2(d2, d1) - math.atan2(L2 * math.sin(th2), L1 + L2 * math.cos(th2))
            out.append(np.array([q1, th1 - alpha_k, g.sigma * (th2 - alpha_m + alpha_k)]))
            ok.append(hip_ok and abs(c2) <= 1.0 + 1e-12)
    if any(ok):  # keep the branches that reach (a hip branch may not, when the other does)
        return [b for b, k in zip(out, ok) if k], True
    return out, False


def _near(q: np.ndarray, q_ref: np.ndarray, lower: np.ndarray, upper: np.ndarray) -> np.ndarray:
    """q shifted by multiples of 2 pi to the angles nearest q_ref, and into [lower, upper] if one 2 pi
    step more gets it there."""
    q = q_ref + wrap_angle(q - q_ref)
    q = np.where(q > upper, q - 2 * math.pi, q)
    q = np.where(q < lower, q + 2 * math.pi, q)
    return q


def leg_ik(model: Model, foot: str, p_base, q_ref=None) -> IKResult:
    """Closed-form inverse kinematics of one HAA-HFE-KFE leg: q_leg (3,) with foot(q_leg) = p_base.

    foot: name of the foot frame (e.g. 'LF_FOOT'); p_base (3,): the foot position wanted, in the
    base frame B (m); q_ref (3,): angles (rad) whose nearest branch is returned -- default the
    middle of the joints' limits where both limits are finite, else 0.

    The geometry comes from the model (:func:`leg_geometry`). With t = R_BH^T (p_base - p_BH):
    HAA: the rotation about a1 leaves a1 . t and the offset s along the HFE axis; the in-plane
    distance e_z = +-sqrt(|t_perp|^2 - s^2) gives two hip branches and q1 the angle turning
    (s n + e_z e) onto t_perp. HFE, KFE: a planar 2R arm (law of cosines) in the plane
    perpendicular to the HFE axis, two knee branches. Of the four, the one nearest q_ref (angles
    shifted by 2 pi towards q_ref) is ``q``; all that reach (up to four) are in ``solutions``.

    Returns an :class:`IKResult` with q in the model's joint order (HAA, HFE, KFE), status
    'converged' (position error <= 1e-9 m), 'unreachable' (target out of the workspace: q points
    at it, position_error is the remaining distance) or 'imprecise'; the message says which
    joints, if any, leave their limits. A leg of another structure raises ValueError.
    """
    g = leg_geometry(model, foot)
    p = check.vector(p_base, 3, "p_base")
    lower, upper = model.lower[list(g.joints)], model.upper[list(g.joints)]
    if q_ref is None:
        q_ref = np.where(np.isfinite(lower) & np.isfinite(upper), (lower + upper) / 2, 0.0)
    q_ref = check.vector(q_ref, 3, "q_ref")
    t = g.R_BH.T @ (p - g.p_BH)
    reach = float(np.linalg.norm(g.p_HF) + np.linalg.norm(g.p_FK) + np.linalg.norm(g.c_K))
    size = math.hypot(*t)
    if size > 10.0 * reach:  # far away: aim at it from a target of the same direction
        t = t * (10.0 * reach / size)
    branches, reachable = _leg_branches(g, t)
    solutions = tuple(_near(b, q_ref, lower, upper) for b in branches)
    q = min(solutions, key=lambda s: float(np.linalg.norm(s - q_ref)))
    error = math.hypot(*(_foot(g, q) - p))
    names = [model.body_joint[i] for i, x, lo, hi in zip(g.joints, q, lower, upper) if not lo <= x <= hi]
    limits = f"; outside the limits of {', '.join(names)}" if names else ""
    if not reachable or size > 10.0 * reach:
        return IKResult(q=q, converged=False, iterations=0, position_error=error, orientation_error=0.0,
                        status="unreachable", solutions=solutions,
                        message=f"target outside the workspace of {foot}: {error:.3g} m left{limits}")
    ok = error <= TOL_POSITION
    return IKResult(q=q, converged=ok, iterations=0, position_error=error, orientation_error=0.0,
                    status="converged" if ok else "imprecise", solutions=solutions,
                    message=("closed form, branch nearest q_ref" if ok else
                             f"rounding leaves {error:.3g} m") + limits)


def _configuration(model: Model, q, name: str = "q") -> np.ndarray:
    """q (nq,) checked, with a unit quaternion for a floating base."""
    q = check.vector(q, model.nq, name)
    for i, kind in enumerate(model.joint_types):
        if kind == "free":
            s = model.q_slice[i].start
            check.unit_quaternion(q[s + 3:s + 7], f"{name}[{s + 3}:{s + 7}] (the base quaternion)")
    return q


def _feet(model: Model, feet) -> tuple:
    """A tuple of frame names (one string is one foot)."""
    return frame_names(model, feet, MAX_FEET)


def _point_jacobian(model: Model, T: np.ndarray, body: int, p: np.ndarray) -> np.ndarray:
    """J (3, nv) of the world point p fixed to ``body``: v_p = J v (world axes)."""
    J = np.zeros((3, model.nv))
    j = body
    while j >= 0:
        R, s = T[j][:3, :3], model.v_slice[j]
        kind = model.joint_types[j]
        if kind == "free":  # body-frame twist [v_b; w_b]: v_p = R v_b - [p - p_b]x R w_b
            J[:, s] = np.hstack([R, -_skew(p - T[j][:3, 3]) @ R])
        elif kind == "prismatic":
            J[:, s.start] = R @ model.axes[j]
        else:
            J[:, s.start] = _cross(R @ model.axes[j], p - T[j][:3, 3])
        j = model.parent[j]
    return J


def contact_jacobian(model: Model, q, feet) -> np.ndarray:
    """J_c (3k, nv): the stacked translational Jacobians of the k foot frames, world axes.

    Rows 3i..3i+2 are v_foot_i = J_i v (m/s, world-aligned), the first three rows of
    ``frame_jacobian`` for each foot, computed from one forward-kinematics pass. For a floating
    base (body-frame twist v_b, w_b) the base columns are [R_WB, -[r]x R_WB] with r the foot's
    offset from the base origin: J_foot = [J_base, J_leg, 0].
    feet: a frame name or a list of them (e.g. ['LF_FOOT', 'RF_FOOT', 'LH_FOOT', 'RH_FOOT']).
    """
    check.model(model, "model")
    q = _configuration(model, q)
    feet = _feet(model, feet)
    T = forward_kinematics(model, q)
    rows = []
    for f in feet:
        body, T_BF = model.frames[f]
        if body < 0:
            rows.append(np.zeros((3, model.nv)))
            continue
        rows.append(_point_jacobian(model, T, body, T[body][:3, :3] @ T_BF[:3, 3] + T[body][:3, 3]))
    return np.vstack(rows)


def simple_leg_model(l_thigh: float = 0.25, l_shank: float = 0.33, hip_offset=(0.0, 0.0, 0.0),
                     axis_sign: float = -1.0) -> Model:
    """A fixed-base HAA-HFE-KFE leg with point masses: the idealised leg of document 000's IK.

    HAA about x at the origin; HFE about (0, axis_sign, 0) at ``hip_offset`` (m, in the HAA
    frame); the thigh l_thigh (m) along -z to KFE (same axis); the shank l_shank along -z to the
    frame 'FOOT'. 1 kg at the knee and 0.5 kg at the foot, limits +-pi.
    """
    l1, l2 = check.positive(l_thigh, "l_thigh"), check.positive(l_shank, "l_shank")
    off = check.vector(hip_offset, 3, "hip_offset")
    sign = check.one_of(float(check.scalar(axis_sign, "axis_sign")), (-1.0, 1.0), "axis_sign")
    check.finite_result(np.array([l1 * l1, l2 * l2]), "the links' inertias m l^2", "l_thigh, l_shank")
    T = np.tile(np.eye(4), (3, 1, 1))
    T[1, :3, 3], T[2, :3, 3] = off, (0.0, 0.0, -l1)
    point = lambda m, c: spatial_inertia(m, c, np.zeros((3, 3)))
    inertia = np.array([point(0.5, np.zeros(3)), point(1.0, (0.0, 0.0, -l1)), point(0.5, (0.0, 0.0, -l2))])
    foot = np.eye(4)
    foot[2, 3] = -l2
    return Model(name="simple leg", body_names=("HIP", "THIGH", "SHANK"), body_joint=("HAA", "HFE", "KFE"),
                 parent=(-1, 0, 1), joint_types=("revolute",) * 3,
                 axes=np.array([[1.0, 0.0, 0.0], [0.0, sign, 0.0], [0.0, sign, 0.0]]), T_tree=T,
                 inertia=inertia, frames={"FOOT": (2, foot)}, lower=np.full(3, -math.pi), upper=np.full(3, math.pi))

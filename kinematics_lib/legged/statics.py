"""Statics of a legged robot standing on flat ground: contact forces, joint torques, estimation.

At rest (v = 0, v̇ = 0) the equation of motion M v̇ + h = Sᵀ τ + J_cᵀ f reduces to

    g(q) = Sᵀ τ + J_cᵀ f,

g the generalised gravity force (``gravity_torque``), S = [0, I] the actuated rows, J_c (3k, nv)
the stacked foot Jacobians (``contact_jacobian``) and f (3k,) the forces the ground exerts *on
the robot* at the feet, world axes [N]. Its six base rows are the Newton-Euler balance of the
whole robot, Σ f_i = -m g_vec and Σ (p_i - p_G) x f_i = 0 (g_vec the gravity acceleration, so
Σ f_i points up); its joint rows give τ.
"""

from __future__ import annotations

import numpy as np

from .. import _validate as check
from ..dynamics.algorithms import gravity_torque, rnea
from ..dynamics.centroidal import center_of_mass
from ..dynamics.frames import forward_kinematics
from ..dynamics.model import Model
from ..contact.distribution import distribute_contact_forces
from .leg_kinematics import _configuration, _feet, contact_jacobian

__all__ = ["static_equilibrium_forces", "static_joint_torques", "contact_force_estimate"]

BALANCE_TOL = 1e-6  # base-row residual allowed, relative to m |g| (N, N m)
MAX_MU = 100.0  # friction coefficients beyond this are not physical (and stall the solvers)


def _mu(mu) -> float:
    """A friction coefficient 0 <= mu <= MAX_MU."""
    mu = check.nonnegative(mu, "mu")
    if mu > MAX_MU:
        raise check.InputError(f"mu must be a friction coefficient in [0, {MAX_MU:g}], got {mu:g}")
    return mu


def _floating(model: Model) -> None:
    check.model(model, "model")
    if not model.floating_base or model.joint_types[0] != "free":
        raise check.InputError(f"model must have a floating base (a free root joint), got {model!r}")


def _feet_positions(model: Model, q: np.ndarray, feet: tuple) -> np.ndarray:
    """P (k, 3): world positions of the foot frames (m)."""
    T = forward_kinematics(model, q)
    return np.array([T[b][:3, :3] @ T_BF[:3, 3] + T[b][:3, 3] for b, T_BF in (model.frames[f] for f in feet)])


def _turn(a, b, c) -> float:
    """The z component of (b - a) x (c - a): > 0 for a left turn."""
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def support_polygon(points) -> np.ndarray:
    """The convex hull (n, 2) of the ground points' (x, y), counter-clockwise (monotone chain)."""
    P = check.matrix(points, (None, 3), "points")[:, :2]
    pts = sorted(map(tuple, P))
    if len(pts) < 3:
        return np.array(pts)

    def half(seq):
        out = []
        for p in seq:
            while len(out) >= 2 and _turn(out[-2], out[-1], p) <= 0:
                out.pop()
            out.append(p)
        return out[:-1]

    return np.array(half(pts) + half(pts[::-1]))


def _inside(polygon: np.ndarray, p: np.ndarray) -> bool:
    """Whether the point p (2,) lies in the closed counter-clockwise convex polygon."""
    if len(polygon) < 3:
        return False
    edges = np.roll(polygon, -1, axis=0) - polygon
    return bool(np.all(edges[:, 0] * (p[1] - polygon[:, 1]) - edges[:, 1] * (p[0] - polygon[:, 0]) >= -1e-12))


def static_equilibrium_forces(model: Model, q, feet, mu, n_faces=None) -> np.ndarray:
    """F (k, 3): ground forces on the robot at the feet [N, world axes] holding it still under gravity.

    Σ f_i = -m g_vec and Σ p_i x f_i = p_G x (-m g_vec) (moments about the world origin, hence
    about the CoM p_G too), each f_i in the friction cone of coefficient mu about +z (the
    inscribed n_faces-pyramid; None: the exact cone), with the least Σ |f_i|^2 -- chapter 7's
    ``distribute_contact_forces`` (Clarabel for the exact cone, ProxQP for a pyramid).
    Flat ground, gravity along -z. An infeasible pose (the CoM's
    ground projection outside the support polygon, or too little friction) raises ValueError.
    """
    _floating(model)
    q = _configuration(model, q)
    feet = _feet(model, feet)
    mu = _mu(mu)
    if n_faces is not None:
        n_faces = check.integer(n_faces, "n_faces", 3, 256)
    g = model.gravity
    if not (g[2] < 0.0 and abs(g[0]) + abs(g[1]) <= 1e-12 * abs(g[2])):
        raise check.InputError(f"model.gravity must point along -z (flat ground, normal +z), got {g}")
    P = _feet_positions(model, q, feet)
    p_G = center_of_mass(model, q)
    weight = -model.total_mass * g  # the total ground force, up
    try:  # chapter 7's force distribution: minimum-norm forces in the friction cones
        return distribute_contact_forces(P, np.concatenate([weight, np.cross(p_G, weight)]), mu, n_faces)
    except check.InputError:
        pass  # infeasible: say why in the robot's terms
    where = "inside" if _inside(support_polygon(P), p_G[:2]) else "outside"
    raise check.InputError(
        f"q: no static equilibrium on {len(feet)} feet ({', '.join(feet)}): the CoM projection "
        f"({p_G[0]:.4f}, {p_G[1]:.4f}) m is {where} the support polygon"
        + ("" if where == "outside" else f", and mu = {mu:g} is too little friction"))


def _forces(forces, k: int) -> np.ndarray:
    F = check._array(forces, "forces")
    if F.shape not in ((k, 3), (3 * k,)):
        raise check.InputError(f"forces must have shape ({k}, 3), one row per foot of feet, got shape {F.shape}")
    return check.matrix(F.reshape(k, 3), (k, 3), "forces")


def static_joint_torques(model: Model, q, feet, forces) -> np.ndarray:
    """τ (n,): joint torques [N m] holding the pose q at rest with ground forces ``forces`` (k, 3)
    on the feet: Sᵀ τ = g(q) - J_cᵀ f (M v̇ + h = Sᵀ τ + J_cᵀ f at v = v̇ = 0).

    For a floating base the six base rows of g - J_cᵀ f must vanish (the forces balance gravity);
    a residual above 1e-6 m |g| raises ValueError naming ``forces``.
    """
    check.model(model, "model")
    q = _configuration(model, q)
    feet = _feet(model, feet)
    F = _forces(forces, len(feet))
    residual = gravity_torque(model, q) - contact_jacobian(model, q, feet).T @ F.ravel()
    if not model.floating_base:
        return residual
    base = model.v_slice[0]
    scale = model.total_mass * float(np.linalg.norm(model.gravity))
    err = float(np.abs(residual[base]).max())
    if err > BALANCE_TOL * max(scale, 1e-300):
        raise check.InputError(f"forces must balance gravity at q: on the base rows Σ f = -m g and the "
                               f"moments about the CoM vanish, got a residual of {err:.3g} N / N m")
    return np.delete(residual, np.arange(base.start, base.stop))


def contact_force_estimate(model: Model, q, feet, tau_measured, v=None, a=None) -> np.ndarray:
    """F̂ (k, 3): ground forces on the robot [N, world axes] estimated from the joint torques.

    The joint rows of M v̇ + h = Sᵀ τ + J_cᵀ f give J_jᵀ f = τ_model - τ_measured with
    τ_model the joint rows of RNEA(q, v, a) (default v = a = 0: gravity only) and J_j the joint
    columns of J_c, so f̂ = (J_jᵀ)⁺ (τ_model - τ_measured) (least squares). The force the feet
    exert *on the ground* is -f̂ = (J_jᵀ)⁺ (τ_measured - τ_model).
    """
    _floating(model)
    q = _configuration(model, q)
    feet = _feet(model, feet)
    n = model.nv - 6
    tau = check.vector(tau_measured, n, "tau_measured")
    v = np.zeros(model.nv) if v is None else check.vector(v, model.nv, "v")
    a = np.zeros(model.nv) if a is None else check.vector(a, model.nv, "a")
    J_j = contact_jacobian(model, q, feet)[:, 6:]
    f = np.linalg.lstsq(J_j.T, rnea(model, q, v, a)[6:] - tau, rcond=None)[0]
    return check.finite_result(f.reshape(len(feet), 3), "forces", "tau_measured, v or a")

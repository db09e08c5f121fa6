"""A landing on flat ground: velocity-level time stepping with point-foot contacts and friction,
and a PD + gravity-compensation stand controller.

One step (semi-implicit Euler, contact impulses λ_i = f_i dt on the feet near the ground):

    v_free = v + dt M⁻¹ (Sᵀτ - h),      v⁺ = v_free + M⁻¹ J_cᵀ λ,
    λ = argmin ½ λᵀ (J_c M⁻¹ J_cᵀ) λ + λᵀ (J_c v_free + φ/dt e_z)   s.t. each λ_i in its pyramid,

the convex (Anitescu) form of the contact complementarity problem: its optimality conditions
are φ_i + dt v⁺_n,i >= 0 (no penetration at the end of the step), λ_n,i >= 0 and sticking
(v⁺_t,i = 0) while the force is inside the cone. φ_i is the foot height (m); feet higher than
``margin`` are not considered. Forces f_i = λ_i / dt in world axes [N].
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .. import _validate as check
from ..dynamics.algorithms import crba, kinetic_energy, nonlinear_effects, potential_energy
from ..dynamics.frames import forward_kinematics
from ..dynamics.floating_base import integrate_configuration
from ..dynamics.model import Model
from ..contact.time_stepping import contact_step
from .leg_kinematics import _configuration, _feet, _point_jacobian
from .statics import _floating, _mu, static_equilibrium_forces, static_joint_torques

__all__ = ["foot_contact_step", "LandingResult", "simulate_landing"]

MAX_STEPS = 200_000
MAX_SPEED = 1e3  # m/s, rad/s: beyond this a time step has diverged
MAX_TORQUE = 1e6  # N m


def _feet_world(model: Model, T: np.ndarray, feet: tuple) -> list:
    """[(body, p_W (3,)), ...] of the foot frames from the body poses T."""
    out = []
    for f in feet:
        b, T_BF = model.frames[f]
        out.append((b, T[b][:3, :3] @ T_BF[:3, 3] + T[b][:3, 3] if b >= 0 else T_BF[:3, 3].copy()))
    return out


def _tangents(n_faces: int) -> np.ndarray:
    """(d, 3): d = n_faces friction directions, evenly spread in the ground plane."""
    th = 2.0 * np.pi * np.arange(n_faces) / n_faces
    return np.column_stack([np.cos(th), np.sin(th), np.zeros(n_faces)])


class _StateTerms(NamedTuple):
    """The terms of one state (q, v) that a controller step and the time step share (unchecked):
    M (nv, nv) and h (nv,) of M v̇ + h = τ, pts [(body, p_W (3,)), ...] the feet in the world [m],
    Jc (3k, nv) their stacked translational Jacobians (world axes; zero rows for a world-fixed frame)."""

    M: np.ndarray
    h: np.ndarray
    pts: list
    Jc: np.ndarray


def _state_terms(model: Model, q: np.ndarray, v: np.ndarray, feet: tuple) -> _StateTerms:
    """M = crba(q), h = nonlinear_effects(q, v), the feet's positions and Jacobians: one
    forward-kinematics pass, computed once per state."""
    T = forward_kinematics(model, q)
    pts = _feet_world(model, T, feet)
    Jc = np.vstack([_point_jacobian(model, T, b, p) if b >= 0 else np.zeros((3, model.nv)) for b, p in pts])
    return _StateTerms(crba(model, q), nonlinear_effects(model, q, v), pts, Jc)


def _step(model, q, v, tau, feet, dt, mu, n_faces, margin, tau_ext=None, terms=None):
    """Chapter 7's time step (:func:`contact_step`, Lemke's LCP) with the feet as point contacts:
    N the feet's normal Jacobian rows, D their rows along the n_faces friction directions.
    tau_ext (nv,): an external generalised force (a push), None for none; terms: the
    :class:`_StateTerms` of (q, v) when the caller has them already."""
    if terms is None:  # on its own (a landing): the Jacobians of the feet in contact only
        T = forward_kinematics(model, q)
        M, h, pts = crba(model, q), nonlinear_effects(model, q, v), _feet_world(model, T, feet)
        rows = lambda i: _point_jacobian(model, T, *pts[i])
    else:
        M, h, pts = terms.M, terms.h, terms.pts
        rows = lambda i: terms.Jc[3 * i:3 * i + 3]
    f_ext = np.zeros(model.nv) if tau_ext is None else np.array(tau_ext, dtype=float)
    f_ext[6:] += tau
    f_ext -= h
    active = np.array([p[2] <= margin for _, p in pts])
    F = np.zeros((len(feet), 3))
    if not active.any():
        v_next = v + dt * np.linalg.solve(M, f_ext)
        return integrate_configuration(model, q, v_next, dt), v_next, F
    t_dirs = _tangents(n_faces)
    Js = [rows(i) for i in np.flatnonzero(active)]
    N = np.array([J[2] for J in Js])
    D = np.vstack([t_dirs @ J for J in Js])
    gap = np.array([p[2] for (_, p), a in zip(pts, active) if a])
    step = contact_step(M, v, f_ext, N, D, mu, dt, gap=gap)
    beta = step.beta.reshape(len(Js), n_faces)
    F[active] = (step.p_n[:, None] * np.array([0.0, 0.0, 1.0]) + beta @ t_dirs) / dt
    v_free = step.v_next
    return integrate_configuration(model, q, v_free, dt), v_free, F


def foot_contact_step(model: Model, q, v, tau, feet, dt, mu, n_faces=4, margin=0.01):
    """(q⁺ (nq,), v⁺ (nv,), F (k, 3)): one time step of the floating-base robot on flat ground z = 0.

    tau (nv - 6,): joint torques [N m]; feet: the point contacts (frame names); dt [s]; mu the
    friction coefficient, the cone approximated from inside by the polygon spanned by n_faces
    friction directions (chapter 7's :func:`contact_step`: an LCP solved by Lemke's method); margin [m]: feet below this height are
    candidate contacts. F: the ground forces on the feet [N, world axes] (zero rows in flight).
    """
    _floating(model)
    q = _configuration(model, q)
    v = check.vector(v, model.nv, "v")
    tau = check.vector(tau, model.nv - 6, "tau")
    feet = _feet(model, feet)
    dt = check.positive(dt, "dt")
    for x, name, bound in ((v, "v", MAX_SPEED), (tau, "tau", MAX_TORQUE), (np.array([dt]), "dt", 1.0)):
        if np.abs(x).max(initial=0.0) > bound:
            raise check.InputError(f"{name} must stay below {bound:g} (SI units) for a contact time step, "
                                   f"got {np.abs(x).max():.3g}")
    mu = _mu(mu)
    n_faces = check.integer(n_faces, "n_faces", 3, 64)
    margin = check.nonnegative(margin, "margin")
    return _step(model, q, v, tau, feet, dt, mu, n_faces, margin)


@dataclass(frozen=True)
class LandingResult:
    """A landing run, sampled every ``every`` steps: t (N,) [s], q (N, nq), v (N, nv),
    forces (N, k, 3) [N], tau (N, n) [N m], energy (N,) = kinetic + potential [J];
    forces_qp (k, 3): :func:`static_equilibrium_forces` at the final configuration."""

    t: np.ndarray
    q: np.ndarray
    v: np.ndarray
    forces: np.ndarray
    tau: np.ndarray
    energy: np.ndarray
    forces_qp: np.ndarray
    feet: tuple

    @property
    def base_height(self) -> np.ndarray:
        return self.q[:, 2]


def simulate_landing(model: Model, q0, feet, duration=1.0, dt=1e-3, mu=0.8, Kp=300.0, Kd=8.0,
                     every: int = 5, progress=None) -> LandingResult:
    """Drop the robot from rest at q0 onto flat ground and hold its joints at q0's angles.

    Controller: τ = τ_ff + Kp (q_des - q_j) - Kd v_j with q_des the joint angles of q0 and τ_ff
    the static joint torques (:func:`static_joint_torques`) of the pose with the feet on the
    ground (q0 lowered by the lowest foot's height), applied in proportion to the feet in
    contact at the previous step (gravity compensation of the stance). Time stepping:
    :func:`foot_contact_step`. progress: an object with ``update()`` called once per sample.
    """
    _floating(model)
    q = _configuration(model, q0, "q0").copy()
    feet = _feet(model, feet)
    duration, dt = check.positive(duration, "duration"), check.positive(dt, "dt")
    if dt > 0.1:
        raise check.InputError(f"dt must be at most 0.1 s for a contact time step, got {dt:g}")
    Kp, Kd = check.nonnegative(Kp, "Kp"), check.nonnegative(Kd, "Kd")
    every = check.integer(every, "every", 1, MAX_STEPS)
    n_steps = check.integer(int(round(duration / dt)), "duration / dt", 1, MAX_STEPS)
    T = forward_kinematics(model, q)
    q_ground = q.copy()
    q_ground[2] -= min(p[2] for _, p in _feet_world(model, T, feet))
    tau_ff = static_joint_torques(model, q_ground, feet, static_equilibrium_forces(model, q_ground, feet, mu, 4))
    q_des, v = q[7:].copy(), np.zeros(model.nv)
    rows, in_contact = [], 0.0
    for k in range(n_steps + 1):
        tau = in_contact * tau_ff + Kp * (q_des - q[7:]) - Kd * v[6:]
        if not np.abs(tau).max() <= MAX_TORQUE or not np.abs(v).max() <= MAX_SPEED:
            raise check.InputError(f"the simulation diverged at t = {k * dt:.4g} s: reduce dt, Kp or Kd")
        q_next, v_next, F = _step(model, q, v, tau, feet, dt, mu, 4, 0.01)
        if k % every == 0:
            rows.append((k * dt, q, v, F, tau, kinetic_energy(model, q, v) + potential_energy(model, q)))
            if progress is not None:
                progress.update()
        in_contact = float(np.mean(F[:, 2] > 0.0))
        q, v = q_next, v_next
    t, Q, V, Fs, taus, E = (np.array(x) for x in zip(*rows))
    return LandingResult(t=t, q=Q, v=V, forces=Fs, tau=taus, energy=E, feet=feet,
                         forces_qp=static_equilibrium_forces(model, Q[-1], feet, mu, 4))

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

import numpy as np

from .. import _validate as check
from ..dynamics.algorithms import crba, kinetic_energy, nonlinear_effects, potential_energy
from ..dynamics.frames import forward_kinematics
from ..dynamics.floating_base import integrate
from ..dynamics.model import Model
from ..contact.cones import friction_pyramid
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
        out.append((b, T[b][:3, :3] @ T_BF[:3, 3] + T[b][:3, 3]))
    return out


def _contact_impulses(A: np.ndarray, b: np.ndarray, mu: float, n_faces: int) -> np.ndarray:
    """λ (3k,): min ½ λᵀAλ + bᵀλ subject to the k pyramids C λ_i <= 0 (ProxQP)."""
    import qpsolvers

    k = b.size // 3
    C = np.kron(np.eye(k), friction_pyramid(mu, n_faces))
    P = A + 1e-10 * np.trace(A) / A.shape[0] * np.eye(A.shape[0])  # a redundant contact: still convex
    sol = qpsolvers.solve_problem(qpsolvers.Problem(P, b, C, np.zeros(C.shape[0])), solver="proxqp",
                                  eps_abs=1e-10, eps_rel=0.0, max_iter=2000)
    if not sol.found or not np.isfinite(sol.x).all():
        raise ValueError("the contact problem of this step has no solution for these q, v, tau, dt, mu (the QP solver failed)")
    return sol.x


def _step(model, q, v, tau, feet, dt, mu, n_faces, margin):
    T = forward_kinematics(model, q)
    M = crba(model, q)
    u = np.zeros(model.nv)
    u[6:] = tau
    v_free = v + dt * np.linalg.solve(M, u - nonlinear_effects(model, q, v))
    pts = _feet_world(model, T, feet)
    active = np.array([p[2] <= margin for _, p in pts])
    F = np.zeros((len(feet), 3))
    if active.any():
        J = np.vstack([_point_jacobian(model, T, b, p) for (b, p), a in zip(pts, active) if a])
        Minv_JT = np.linalg.solve(M, J.T)
        bias = np.zeros(J.shape[0])
        bias[2::3] = [p[2] / dt for (_, p), a in zip(pts, active) if a]
        lam = _contact_impulses(J @ Minv_JT, J @ v_free + bias, mu, n_faces)
        v_free = v_free + Minv_JT @ lam
        F[active] = lam.reshape(-1, 3) / dt
    return integrate(model, q, v_free, dt), v_free, F


def foot_contact_step(model: Model, q, v, tau, feet, dt, mu, n_faces=4, margin=0.01):
    """(q⁺ (nq,), v⁺ (nv,), F (k, 3)): one time step of the floating-base robot on flat ground z = 0.

    tau (nv - 6,): joint torques [N m]; feet: the point contacts (frame names); dt [s]; mu the
    friction coefficient (inscribed n_faces-pyramid); margin [m]: feet below this height are
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

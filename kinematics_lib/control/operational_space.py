"""Task-space control laws (任务空间控制) and the closed loops they promise (chapter 10, issue 24).

* **PD + gravity compensation** (Takegaki & Arimoto 1981): τ = K_p (q_d − q) − K_d q̇ + g(q).
  With V = ½ q̇ᵀ M q̇ + ½ eᵀ K_p e (e = q_d − q, a Lyapunov function 李雅普诺夫函数) and the skew
  symmetry of Ṁ − 2C, V̇ = −q̇ᵀ K_d q̇ <= 0: the regulation error goes to zero (LaSalle) for any
  positive K_p, K_d, without a model of M or C -- only g.
* **Operational-space motion control** (操作空间控制, Khatib 1987): with Λ ẍ + μ + p = F at the
  task x (``operational_space_terms``),
  F = Λ (ẍ_d + K_d ė + K_p e) + μ + p, τ = Jᵀ F + Nᵀ τ₀, gives the linear error dynamics
  ë + K_d ė + K_p e = 0 exactly (e = x_d − x). Nᵀ = I − Jᵀ J̄ᵀ (J̄ the dynamically consistent
  inverse) passes a posture torque τ₀ = K_p,n (q_n − q) − K_d,n q̇ of a redundant arm (冗余) without
  any task acceleration (零空间).
* **Orientation error** by the SO(3) logarithm: e_R = log(R_d Rᵀ) (world axes), whose norm is the
  angle of the rotation still to go and which has no singularity below 180°.
* **Hybrid motion/force control** (力位混合控制, document 003 §3.5; Raibert & Craig 1981) on
  chapter 10's wall: the selection matrix S (1 = motion, 0 = force) splits the task axes;
  F = Λ a + μ + p − F_ext with a = S a_motion + (I − S) a_force,
  a_motion = ÿ_d + K_d ė + K_p e along the wall and a_force = k_f (f_d − f) − d_f ẋ into it (f the
  measured normal force on the wall), so the tip slides along the wall while pressing with f_d.

Plants: :class:`TwoLinkArm` (closed-form tip kinematics) or a fixed-base planar ``ModelPlant``
(its frame ``"tip"``, x and y rows; J̇ q̇ from ``kl.frame_jacobian_time_variation``). Laws are callables ``law(t, q, v) -> tau`` for
``kl.simulate_sampled`` / ``kl.simulate_continuous``.
"""

from __future__ import annotations

from typing import Callable, NamedTuple

import numpy as np

from .. import _validate as check
from ..dynamics.frames import frame_jacobian, frame_jacobian_time_variation, frame_placement
from ..geometry.rotations import so3_log
from ..contact.compliant import Wall
from .interaction import _arm, _wall
from .plants import ModelPlant, TwoLinkArm
from .simulation import _as_plant
from .task_space import dynamically_consistent_inverse, operational_space_terms

__all__ = ["pd_gravity_controller", "pd_gravity_lyapunov", "TipTask", "tip_task", "operational_space_controller",
           "orientation_error", "hybrid_force_motion_controller"]


def _gains(x, n: int, name: str) -> np.ndarray:
    """A positive scalar or diagonal (n,) gain."""
    a = check._array(x, name)
    if a.shape not in ((), (n,)):
        raise check.InputError(f"{name} must be a scalar or a diagonal ({n},), got shape {a.shape}")
    check._finite(a, name)
    if np.any(a <= 0.0):
        raise check.InputError(f"{name} must be positive, got {a}")
    return np.broadcast_to(a, (n,)).astype(float)


def pd_gravity_controller(plant, q_d, Kp, Kd) -> Callable:
    """Takegaki-Arimoto regulation law τ = K_p (q_d − q) − K_d q̇ + g(q) (N·m) to the fixed q_d (rad).

    Kp (N·m/rad), Kd (N·m·s/rad): positive scalars or diagonals (n,).
    """
    plant = _as_plant(plant)
    n = plant.nv
    q_d = check.vector(q_d, n, "q_d")
    Kp, Kd = _gains(Kp, n, "Kp"), _gains(Kd, n, "Kd")
    return lambda t, q, v: Kp * (q_d - q) - Kd * v + plant.gravity(q)


def pd_gravity_lyapunov(plant, q, v, q_d, Kp) -> float:
    """V = ½ q̇ᵀ M(q) q̇ + ½ eᵀ K_p e (J), e = q_d − q: the kinetic energy plus the energy of the
    virtual spring. Along PD + gravity compensation, V̇ = −q̇ᵀ K_d q̇ <= 0."""
    plant = _as_plant(plant)
    n = plant.nv
    q, v, q_d = check.vector(q, n, "q"), check.vector(v, n, "v"), check.vector(q_d, n, "q_d")
    Kp = _gains(Kp, n, "Kp")
    e = q_d - q
    with np.errstate(all="ignore"):
        V = 0.5 * v @ plant.mass_matrix(q) @ v + 0.5 * e @ (Kp * e)
    return float(check.finite_result(np.array([V]), "V", "q, v, q_d or Kp")[0])


class TipTask(NamedTuple):
    """The planar tip task of a plant: x(q) (2,) m, J(q) (2, n), Jdot_v(q, v) (2,) m/s²."""

    x: Callable
    J: Callable
    Jdot_v: Callable


def tip_task(plant) -> TipTask:
    """The (x, y) position of the tip of a planar arm: a :class:`TwoLinkArm` (closed forms) or a
    fixed-base ``kl.Model`` / ``ModelPlant`` with a frame ``"tip"`` moving in the x-y plane."""
    if isinstance(plant, TwoLinkArm):
        return TipTask(plant.tip, plant.jacobian, plant.jacobian_dot_v)
    plant = _as_plant(plant)
    if not isinstance(plant, ModelPlant) or "tip" not in plant.model.frames:
        raise check.InputError("plant must be a kl.TwoLinkArm or a fixed-base planar kl.Model with a frame 'tip'")
    model = plant.model

    def J(q):
        return frame_jacobian(model, q, "tip")[:2]

    def Jdot_v(q, v):
        return (frame_jacobian_time_variation(model, q, v, "tip") @ v)[:2]

    return TipTask(lambda q: frame_placement(model, q, "tip")[:2, 3], J, Jdot_v)


def _reference(reference) -> Callable:
    if not callable(reference):
        raise check.InputError("reference must be a callable reference(t) -> (x_d, xd_d, xdd_d), each (2,) m, m/s, m/s²")
    return reference


def operational_space_controller(plant, reference: Callable, Kp, Kd, *, posture=None, Kp_null=10.0,
                                 Kd_null=5.0) -> Callable:
    """Khatib's law for the tip task: τ = Jᵀ (Λ (ẍ_d + K_d ė + K_p e) + μ + p) + Nᵀ τ₀.

    reference(t) -> (x_d, ẋ_d, ẍ_d) (2,) each (e.g. ``kl.sine_reference`` on two task
    coordinates); Kp (1/s²), Kd (1/s): positive scalars or (2,): the promised error dynamics
    ë + K_d ė + K_p e = 0. posture (n,) rad: for a redundant arm, the null-space posture task
    τ₀ = Kp_null (posture − q) − Kd_null q̇ (N·m/rad, N·m·s/rad), projected by
    Nᵀ = I − Jᵀ J̄ᵀ so that it causes no tip acceleration; None: no posture torque.
    """
    plant = _as_plant(plant) if not isinstance(plant, TwoLinkArm) else plant
    task = tip_task(plant)
    n = plant.nv
    reference = _reference(reference)
    Kp, Kd = _gains(Kp, 2, "Kp"), _gains(Kd, 2, "Kd")
    q_n = None if posture is None else check.vector(posture, n, "posture")
    Kpn, Kdn = check.nonnegative(Kp_null, "Kp_null"), check.nonnegative(Kd_null, "Kd_null")

    def law(t, q, v):
        x_d, xd_d, xdd_d = (np.asarray(r, dtype=float) for r in reference(t))
        J, M = task.J(q), plant.mass_matrix(q)
        # Λ, μ + p with the bias C q̇ + g passed as c (g = 0): μ + p = Λ (J M⁻¹ (C q̇ + g) − J̇ q̇)
        Lam, mu, p = operational_space_terms(M, J, task.Jdot_v(q, v), plant.bias(q, v), np.zeros(n))
        e, de = x_d - task.x(q), xd_d - J @ v
        tau = J.T @ (Lam @ (xdd_d + Kd * de + Kp * e) + mu + p)
        if q_n is not None:
            tau0 = Kpn * (q_n - q) - Kdn * v
            tau = tau + tau0 - J.T @ (dynamically_consistent_inverse(M, J).T @ tau0)  # Nᵀ τ₀ = τ₀ − Jᵀ J̄ᵀ τ₀
        return tau

    return law


def orientation_error(R, R_d) -> np.ndarray:
    """e_R = log(R_d Rᵀ) (3,) rad, world axes: the rotation vector that takes R to R_d.

    ‖e_R‖ is the angle still to go (0 ... π), e_R = 0 only at R = R_d; for small errors it is the
    difference of the two orientations, and the law ω̇ = K_p e_R − K_d ω turns about a fixed axis
    as θ̈ + K_d θ̇ + K_p θ = 0, without the singularities of roll-pitch-yaw differences.
    """
    R, R_d = check.rotation(R, "R"), check.rotation(R_d, "R_d")
    return so3_log(R_d @ R.T)


def hybrid_force_motion_controller(arm: TwoLinkArm, wall: Wall, f_d, reference: Callable, *, Kp=400.0, Kd=40.0,
                                   k_f=0.2, d_f=None) -> Callable:
    """Hybrid motion/force law for the tip of ``arm`` on ``wall`` (normal x, the wall pushes along −x).

    Selection S = diag(0, 1): force along x, motion along y. f_d (N) > 0: the normal force the tip
    should exert on the wall; reference(t) -> (y_d, ẏ_d, ÿ_d) (m, m/s, m/s²) along the wall;
    Kp (1/s²), Kd (1/s): the motion loop ë + K_d ė + K_p e = 0; k_f (m/s² per N), d_f (1/s): the
    force loop a_x = k_f (f_d − f) − d_f ẋ with f = −F_ext,x the measured normal force (default
    d_f gives a damping ratio of 0.7 against the wall's stiffness). F = Λ a + μ + p − F_ext.
    """
    arm = _arm(arm)
    wall = _wall(wall)
    f_d = check.positive(f_d, "f_d")
    reference = _reference(reference)
    Kp, Kd, k_f = check.positive(Kp, "Kp"), check.positive(Kd, "Kd"), check.positive(k_f, "k_f")
    w = np.sqrt(k_f * wall.stiffness)  # the force loop's natural frequency against the wall
    d_f = max(2.0 * 0.7 * w - k_f * wall.damping, 0.0) if d_f is None else check.nonnegative(d_f, "d_f")
    S = np.array([0.0, 1.0])

    def law(t, q, v):
        y_d, yd_d, ydd_d = (float(np.asarray(r, dtype=float).ravel()[0]) for r in reference(t))
        J, M = arm.jacobian(q), arm.mass_matrix(q)
        x, xd = arm.tip(q), J @ v
        F_ext = wall.force(x, xd)  # the force sensor at the tip
        a_motion = ydd_d + Kd * (yd_d - xd[1]) + Kp * (y_d - x[1])
        a_force = k_f * (f_d + F_ext[0]) - d_f * xd[0]
        a = S * a_motion + (1.0 - S) * a_force
        Lam, mu, p = operational_space_terms(M, J, arm.jacobian_dot_v(q, v), arm.bias(q, v), np.zeros(2))
        return J.T @ (Lam @ a + mu + p - F_ext)

    return law

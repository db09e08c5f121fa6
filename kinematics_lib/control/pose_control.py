"""Operational-space control of a full pose (位置 + 姿态), the orientation error by the SO(3) logarithm.

The task is the pose T_WF = (R, p) of a frame F of a fixed-base ``kl.Model`` (e.g. ``"tool"`` of
``kl.dh_model(kl.panda_arm())``); its twist [ṗ; ω] = J v with J = ``kl.frame_jacobian`` (frame
origin, world-aligned axes) and its acceleration J a + J̇ v with J̇ = ``kl.frame_jacobian_time_variation``.

* **Pose error** e = [p_d − p; log(R_d Rᵀ)] (m, rad; world axes; ``kl.pose_error``, chapter 3's
  Newton-IK error): the orientation part is the rotation vector still to go (``kl.orientation_error``), zero only at R = R_d, with no
  singularity below 180°.
* **Law** (Khatib's operational space on the 6-D task): the commanded task acceleration
  a_x = A_d + K_d (V_d − J v) + K_p e, F = Λ a_x + μ + p, τ = Jᵀ F + Nᵀ τ₀ (τ₀ a posture torque of a
  redundant arm, Nᵀ = I − Jᵀ J̄ᵀ). It makes J a + J̇ v = a_x exactly, so

      position:          ë_p + K_d ė_p + K_p e_p = 0           (e_p = p_d − p, exact),
      angular velocity:  ė_ω + K_d e_ω + K_p e_R = 0            (e_ω = ω_d − ω, exact),

  and, about one fixed axis n (regulation with R_d constant, R(0) = exp(−θ₀ n) R_d, ω(0) ∥ n),
  e_R = θ n with θ̈ + K_d θ̇ + K_p θ = 0: the same second-order error as the position.
* **Reference** from a Cartesian trajectory (``kl.cartesian_trajectory``): :func:`pose_reference`
  hands a digital controller the sample of its tick (the latest sample at or before t; after the
  end, the final pose at rest).
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from .. import _validate as check
from ..arms.trajectories import CartesianTrajectory
from ..dynamics.frames import frame_jacobian, frame_jacobian_time_variation, frame_placement
from ..dynamics.model import Model
from ..geometry.transforms import pose_error
from .plants import ModelPlant
from .task_space import dynamically_consistent_inverse, operational_space_terms

__all__ = ["pose_reference", "pose_operational_space_controller"]


def pose_reference(trajectory: CartesianTrajectory) -> Callable:
    """reference(t) -> (T_d (4, 4), V_d (6,), A_d (6,)) from a ``kl.cartesian_trajectory``.

    The sample at the latest trajectory time <= t (a digital controller reads it at its ticks: use
    the trajectory's spacing as the control period); before the start the first sample, after the
    end the final pose with zero twist and acceleration.
    """
    if not isinstance(trajectory, CartesianTrajectory):
        raise check.InputError(f"trajectory must be a kl.cartesian_trajectory result, got {check.describe(trajectory)}")
    t_s, T_s, V_s, A_s = (np.asarray(x, dtype=float) for x in trajectory)
    end = (T_s[-1], np.zeros(6), np.zeros(6))
    eps = 1e-9 * max(float(t_s[-1] - t_s[0]), 1.0)

    def reference(t):
        if t > t_s[-1] + eps:
            return end
        k = int(np.clip(np.searchsorted(t_s, t + eps, side="right") - 1, 0, t_s.size - 1))
        return T_s[k], V_s[k], A_s[k]

    return reference


def pose_operational_space_controller(model: Model, frame: str, reference: Callable, Kp, Kd, *, posture=None,
                                      Kp_null=10.0, Kd_null=5.0) -> Callable:
    """τ = Jᵀ (Λ (A_d + K_d (V_d − J v) + K_p e) + μ + p) + Nᵀ τ₀ for the pose of ``frame``.

    model: a fixed-base ``kl.Model`` with at least 6 velocity coordinates; frame: one of its
    frames; reference(t) -> (T_d, V_d, A_d) ((4, 4), (6,), (6,): pose, twist [ṗ; ω] and its rate,
    world axes; e.g. :func:`pose_reference`); Kp (1/s²), Kd (1/s): positive scalars or (6,)
    diagonals [position; orientation]. Promised: ë_p + K_d ė_p + K_p e_p = 0 and
    ė_ω + K_d e_ω + K_p log(R_d Rᵀ) = 0. posture (nv,) rad: the null-space posture task
    τ₀ = Kp_null (posture − q) − Kd_null v of a redundant arm (no task acceleration); None: none.
    Returns law(t, q, v) -> τ (nv,) N·m for ``kl.simulate_sampled`` / ``kl.simulate_continuous``.
    """
    check.model(model)
    if not isinstance(frame, str) or frame not in model.frames:
        raise check.InputError(f"frame must be one of the model's frames, got {frame!r}")
    n = model.nv
    if n < 6:
        raise check.InputError(f"model must have at least 6 velocity coordinates for a 6-D pose task, got {n}")
    if not callable(reference):
        raise check.InputError("reference must be a callable reference(t) -> (T_d (4, 4), V_d (6,), A_d (6,))")
    gains = []
    for x, name in ((Kp, "Kp"), (Kd, "Kd")):
        a = check._finite(check._array(x, name), name)
        if a.shape not in ((), (6,)) or np.any(a <= 0.0):
            raise check.InputError(f"{name} must be a positive scalar or (6,) diagonal, got {a}")
        gains.append(np.broadcast_to(a, (6,)).astype(float))
    Kp, Kd = gains
    q_n = None if posture is None else check.vector(posture, n, "posture")
    Kpn, Kdn = check.nonnegative(Kp_null, "Kp_null"), check.nonnegative(Kd_null, "Kd_null")
    plant = ModelPlant(model)

    def law(t, q, v):
        T_d, V_d, A_d = (np.asarray(r, dtype=float) for r in reference(t))
        J, M = frame_jacobian(model, q, frame), plant.mass_matrix(q)
        e = pose_error(frame_placement(model, q, frame), T_d)  # [p_d − p; log(R_d Rᵀ)]
        a_x = A_d + Kd * (V_d - J @ v) + Kp * e
        Jdv = frame_jacobian_time_variation(model, q, v, frame) @ v
        Lam, mu, p = operational_space_terms(M, J, Jdv, plant.bias(q, v), np.zeros(n))
        tau = J.T @ (Lam @ a_x + mu + p)
        if q_n is not None:
            tau0 = Kpn * (q_n - q) - Kdn * v
            tau = tau + tau0 - J.T @ (dynamically_consistent_inverse(M, J).T @ tau0)
        return tau

    return law

"""Traction: the ground forces of the wheels for given motor torques (F = Hᵀ τ) and the largest
chassis force in a direction under torque limits.

Units and frames: see :mod:`kinematics_lib.mobile` (chapter 9).
"""

from __future__ import annotations

import math

import numpy as np

from .. import _validate as check
from .wheels import _wheels, roller_axis

__all__ = ["wheel_ground_forces", "max_chassis_force"]


def wheel_ground_forces(wheels, tau) -> np.ndarray:
    """Ground forces on the chassis (n, 2) in B from wheel torques tau (n,) [N·m], ideal rollers.

    A free roller transmits force only along its axle e_i; the torque balance R (f e_i · d_i) = τ_i
    gives f_i = τ_i / (R cos γ_i) along e_i. The resulting wrench (F_x, F_y, M_z) equals H^T τ.
    """
    wheels = _wheels(wheels)
    tau = check.vector(tau, None, "tau")
    if tau.shape != (len(wheels),):
        raise check.InputError(f"tau must have shape ({len(wheels)},), one torque per entry of wheels, "
                               f"got shape {tau.shape}")
    F = np.array([t / (w.radius * math.cos(w.gamma)) * roller_axis(w) for w, t in zip(wheels, tau)])
    return check.finite_result(F, "the forces", "tau")


def max_chassis_force(H, tau_max, direction) -> float:
    """Largest s with H^T τ = s u and |τ_i| <= tau_max_i (linear program).

    H (n, 3); tau_max (n,) [N·m] per-wheel torque limits (e.g. friction: μ N_i R cos γ_i);
    direction u (3,) in wrench space (F_x, F_y, M_z), normalised here. Returns s in N (N·m for
    a pure moment): the largest push along u with no other force or moment.
    """
    from scipy.optimize import linprog

    H = check.matrix(H, (None, 3), "H")
    if H.shape[0] == 0:
        raise check.InputError("H must have at least one row (one per wheel), got shape (0, 3)")
    t = check.vector(tau_max, None, "tau_max")
    if t.shape != (H.shape[0],):
        raise check.InputError(f"tau_max must have shape ({H.shape[0]},), one limit per row of H, got shape {t.shape}")
    u = check.vector(direction, 3, "direction")
    if np.any(t < 0):
        raise check.InputError(f"tau_max must be >= 0, got {t}")
    norm_u = math.hypot(*u)
    if norm_u == 0.0:
        raise check.InputError("direction must be a non-zero wrench direction")
    # solved in scaled units (|H| <= 1, tau_max <= 1): the LP never sees 1e300 coefficients
    h_scale, t_scale = max(float(np.abs(H).max()), 1e-300), max(float(t.max()), 1e-300)
    n = H.shape[0]
    res = linprog(np.r_[np.zeros(n), -1.0], A_eq=np.column_stack([H.T / h_scale, -u / norm_u]),
                  b_eq=np.zeros(3), bounds=[(-ti / t_scale, ti / t_scale) for ti in t] + [(0, None)], method="highs")
    if res.status != 0:
        raise check.InputError(f"the linear program for H, tau_max, direction failed: {res.message}")
    return float(check.finite_result(res.x[-1] * h_scale * t_scale, "the force", "H, tau_max"))

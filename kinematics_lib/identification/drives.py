"""Drives through a gearbox (减速器): reflected inertia, output torque, and rotor inertia as armature.

A motor with rotor inertia J_m drives a load of inertia J_l through a reduction n (omega_m =
n omega_l) with efficiency eta. Kinetic energy counts **both** inertias:

    T = 1/2 J_m omega_m^2 + 1/2 J_l omega_l^2 = 1/2 (J_m + J_l / n^2) omega_m^2 = 1/2 (n^2 J_m + J_l) omega_l^2

so the motor sees J_m + J_l / n^2 and the load side sees n^2 J_m + J_l; torques scale the
other way, tau_l = n eta tau_m. On a robot joint the rotor's n^2 J_m adds to the diagonal of
the joint-space inertia matrix (Pinocchio's ``model.armature``): M(q) + diag(n^2 J_m).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .. import _validate as check
from ..dynamics.algorithms import crba, nonlinear_effects
from ..dynamics.model import Model

__all__ = ["M3508_RATIO", "ReflectedInertia", "reflected_inertia", "gear_output_torque", "rotor_armature",
           "mass_matrix_with_armature", "forward_dynamics_with_armature"]

#: the exact reduction of the RoboMaster M3508's planetary gearbox, nominally "19:1" (= 19.2032...)
M3508_RATIO = 3591 / 187


class ReflectedInertia(NamedTuple):
    """motor_side = J_m + J_l / n^2 (seen at the motor shaft), load_side = n^2 J_m + J_l (kg m^2)."""

    motor_side: float
    load_side: float


def _inertia(x, name: str) -> float:
    value = check.scalar(x, name)
    if value < 0:
        raise check.InputError(f"{name} must be >= 0 (an inertia, kg m^2), got {value}")
    return value


def reflected_inertia(J_motor: float, J_load: float, ratio: float) -> ReflectedInertia:
    """Inertia of motor + load seen from either side of a reduction ``ratio`` n = omega_m / omega_l > 0.

    J_motor, J_load (kg m^2, >= 0) -> (J_m + J_l / n^2, n^2 J_m + J_l), from equal kinetic energy.

    >>> r = reflected_inertia(1e-4, 1e-2, 19)
    >>> print(f"{r.motor_side:.13e} {r.load_side:.4f}")
    1.2770083102493e-04 0.0461
    """
    J_m, J_l, n = _inertia(J_motor, "J_motor"), _inertia(J_load, "J_load"), check.positive(ratio, "ratio")
    J_m, J_l, n = np.float64(J_m), np.float64(J_l), np.float64(n)
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        out = (J_m + J_l / n**2, n**2 * J_m + J_l)
    check.finite_result(out, "the reflected inertia", "J_motor, J_load, ratio")
    return ReflectedInertia(float(out[0]), float(out[1]))


def gear_output_torque(tau_motor, ratio: float, efficiency: float = 1.0):
    """tau_l = n eta tau_m (N m): the load-side torque of a motor torque through the gearbox.

    ratio n > 0; efficiency eta in (0, 1]. (When the load drives the motor the losses act the
    other way, tau_m = tau_l eta / n; this is the motoring case.)
    """
    tau = check._finite(check._array(tau_motor, "tau_motor"), "tau_motor")
    n, eta = check.positive(ratio, "ratio"), check.positive(efficiency, "efficiency")
    if eta > 1.0:
        raise check.InputError(f"efficiency must be in (0, 1], got {eta}")
    with np.errstate(over="ignore"):
        out = check.finite_result(n * eta * tau, "tau_l", "tau_motor, ratio")
    return float(out) if out.ndim == 0 else out


def rotor_armature(J_rotor, ratio) -> np.ndarray:
    """n^2 J_m per joint (nv,) in kg m^2: the rotor inertias as seen by the joints (the armature)."""
    J = check.vector(np.atleast_1d(check._array(J_rotor, "J_rotor")), None, "J_rotor")
    if J.shape[0] == 0:
        raise check.InputError("J_rotor must hold one rotor inertia per joint, got an empty array")
    n = check._array(ratio, "ratio")
    if n.shape not in ((), (1,), J.shape):
        raise check.InputError(f"ratio must be a scalar or have shape {J.shape} to match J_rotor, got shape {n.shape}")
    n = check.vector(np.broadcast_to(n, J.shape).copy(), J.shape[0], "ratio")
    if np.any(J < 0) or np.any(n <= 0):
        raise check.InputError("J_rotor must be >= 0 and ratio > 0 for every joint")
    with np.errstate(over="ignore"):
        return check.finite_result(n**2 * J, "the armature", "J_rotor, ratio")


def _armature(model: Model, armature) -> np.ndarray:
    check.model(model)
    arm = check.vector(armature, model.nv, "armature")
    if np.any(arm < 0):
        raise check.InputError("armature must be >= 0 (kg m^2)")
    return arm


def mass_matrix_with_armature(model: Model, q, armature) -> np.ndarray:
    """M(q) + diag(armature) (nv, nv): the joint-space inertia with the rotors' n^2 J_m added.

    armature (nv,) kg m^2 (zeros for a floating base's six coordinates); Pinocchio's
    ``crba`` with ``model.armature`` set returns the same.
    """
    arm = _armature(model, armature)
    return crba(model, q) + np.diag(arm)


def forward_dynamics_with_armature(model: Model, q, v, tau, armature) -> np.ndarray:
    """a = (M(q) + diag(armature))^-1 (tau - C(q, v) v - g(q))  (nv,): forward dynamics with rotors.

    The rotors' gyroscopic terms are neglected (as in Pinocchio's armature model).
    """
    M = mass_matrix_with_armature(model, q, armature)
    tau = check.vector(tau, check.model(model).nv, "tau")
    return check.finite_result(np.linalg.solve(M, tau - nonlinear_effects(model, q, v)), "a", "v, tau")

"""Impedance and admittance control (阻抗控制 / 导纳控制) of a planar arm touching a spring-damper wall.

The plant is :class:`~kinematics_lib.TwoLinkArm` with the wall's force F_ext on its tip:
M q̈ + C q̇ + g = τ + Jᵀ F_ext, i.e. Λ ẍ + μ + p = F + F_ext at the tip (``task_space``).

* **Impedance** (input motion, output force): F = K (x_d − x) − D ẋ, τ = Jᵀ F + g(q). The arm
  behaves like a spring K and damper D pulling the tip to x_d, with the arm's own inertia Λ(q).
  With ``inertia`` M_d (inertia shaping) and a force sensor, the closed loop is the target
  M_d ẍ + D ẋ + K (x − x_d) = F_ext: F = Λ M_d⁻¹ (K e − D ẋ + F_ext) + μ + p − F_ext, τ = Jᵀ F.
* **Admittance** (input force, output motion): the measured force drives the filter
  M ẍ_c + D ẋ_c + K x_c = F_ext (integrated at the control period); x_d + x_c is handed to a stiff
  inner position loop (here τ = Jᵀ (Kp (x_d + x_c − x) + Kd (ẋ_c − ẋ)) + g(q), high gains).

Both are written as laws ``law(t, q, v) -> tau`` for ``kl.simulate_sampled``. The wall is the contact
layer's compliant model (:class:`~kinematics_lib.Wall`); :func:`wall_sensor` reads its force at the
tip, :func:`wall_torque` gives it as the external torque Jᵀ F_ext, and the scenario
``kl.simulate_wall_contact`` runs a law against it, delayed by whole control periods if asked (the
loop delay of document 001's "three causes of instability"). Units: K in N/m, D in N·s/m, M in kg, forces in N, positions in m.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

from .. import _validate as check
from ..contact.compliant import Wall
from .plants import TwoLinkArm
from ._kernel import checked_floats, make_external, make_law

__all__ = ["impedance_controller", "admittance_controller", "wall_sensor", "wall_torque", "critical_delay"]


def _arm(arm) -> TwoLinkArm:
    if not isinstance(arm, TwoLinkArm):
        raise check.InputError(f"arm must be a kl.TwoLinkArm (a planar arm), got {check.describe(arm)}")
    return arm


def _wall(wall) -> Wall:
    if not isinstance(wall, Wall):
        raise check.InputError(f"wall must be a kl.Wall, got {check.describe(wall)}")
    return wall


def _task_gain(x, name: str) -> np.ndarray:
    """A non-negative scalar or diagonal (2,) task-space gain."""
    a = check._array(x, name)
    if a.shape not in ((), (2,)):
        raise check.InputError(f"{name} must be a scalar or a diagonal (2,), got shape {a.shape}")
    check._finite(a, name)
    if np.any(a < 0.0):
        raise check.InputError(f"{name} must be non-negative, got {a}")
    return np.broadcast_to(a, (2,)).astype(float)


def _sensor(force, name: str = "force") -> Callable:
    if not callable(force):
        raise check.InputError(f"{name} must be a callable force(q, v) -> F_ext (2,) N, e.g. kl.wall_sensor(arm, wall)")

    def read(q, v):
        F = np.asarray(force(q, v), dtype=float)
        if F.shape != (2,) or not np.isfinite(F).all():
            raise check.InputError(f"{name} must return a finite force of shape (2,), got {F!r}")
        return F

    return read


def impedance_controller(arm: TwoLinkArm, x_d, K, D, *, inertia=None, force: Callable | None = None) -> Callable:
    """Impedance law ``law(t, q, v) -> tau`` (N·m) pulling the tip to the fixed target x_d (2,) m.

    Without ``inertia``: τ = Jᵀ (K (x_d − x) − D ẋ) + g(q)  (no force sensor needed).
    With ``inertia`` M_d (kg, scalar or (2,)) and ``force`` (a sensor ``force(q, v) -> F_ext``):
    τ = Jᵀ (Λ M_d⁻¹ (K e − D ẋ + F_ext) + μ + p − F_ext), the target M_d ẍ + D ẋ + K (x − x_d) = F_ext.
    """
    arm = _arm(arm)
    x_d = check.vector(x_d, 2, "x_d")
    K, D = _task_gain(K, "K"), _task_gain(D, "D")
    if inertia is None:
        (xd1, xd2), (k1, k2), (d1, d2) = (tuple(a.tolist()) for a in (x_d, K, D))

        def kernel(t, q, v):
            x, J = arm._tip_jacobian(q)
            F1 = k1 * (xd1 - x[0]) - d1 * (J[0][0] * v[0] + J[0][1] * v[1])
            F2 = k2 * (xd2 - x[1]) - d2 * (J[1][0] * v[0] + J[1][1] * v[1])
            g1, g2 = arm._gravity(q)
            return (J[0][0] * F1 + J[1][0] * F2 + g1, J[0][1] * F1 + J[1][1] * F2 + g2)
        return make_law(kernel, 2)
    Md = _task_gain(inertia, "inertia")
    if np.any(Md <= 0.0):
        raise check.InputError(f"inertia must be positive, got {inertia!r}")
    sensor = _sensor(force)

    def shaped(t, q, v):
        J, M = arm.jacobian(q), arm.mass_matrix(q)
        A = J @ np.linalg.solve(M, J.T)
        Lam = np.linalg.inv(A)
        h = arm.bias(q, v)
        F_ext = sensor(q, v)
        a_x = (K * (x_d - arm.tip(q)) - D * (J @ v) + F_ext) / Md
        # τ = Jᵀ (Λ a_x − F_ext) + C q̇ + g − Jᵀ Λ J̇ q̇: the same as Jᵀ(Λ a_x + μ + p − F_ext) for square J
        return J.T @ (Lam @ (a_x - arm.jacobian_dot_v(q, v)) - F_ext) + h

    return shaped


def admittance_controller(arm: TwoLinkArm, x_d, M, D, K, dt, force: Callable, *, Kp=2.0e4, Kd=300.0) -> Callable:
    """Admittance law: the measured force drives M ẍ_c + D ẋ_c + K x_c = F_ext (M kg, D N·s/m, K N/m,
    scalars or (2,)); x_d + x_c goes to a stiff inner position loop τ = Jᵀ (Kp (x_d + x_c − x) +
    Kd (ẋ_c − ẋ)) + g(q) (Kp N/m, Kd N·s/m).

    The filter is integrated (semi-implicit Euler) once per call, so the law must be called once per
    control period dt (s), as ``kl.simulate_sampled`` does; it keeps x_c, ẋ_c (reset when created).
    """
    arm = _arm(arm)
    x_d = check.vector(x_d, 2, "x_d")
    Mf, Df, Kf = _task_gain(M, "M"), _task_gain(D, "D"), _task_gain(K, "K")
    if np.any(Mf <= 0.0):
        raise check.InputError(f"M must be positive (the admittance's virtual mass), got {M!r}")
    Kp, Kd = _task_gain(Kp, "Kp"), _task_gain(Kd, "Kd")
    dt = check.positive(dt, "dt")
    if not callable(force):
        raise check.InputError("force must be a callable force(q, v) -> F_ext (2,) N, e.g. kl.wall_sensor(arm, wall)")
    sensor = getattr(force, "kernel", None) or (lambda q, v: checked_floats(force(np.array(q), np.array(v)), 2, "force"))
    xd, Mf, Df, Kf, Kp, Kd = (tuple(a.tolist()) for a in (x_d, Mf, Df, Kf, Kp, Kd))
    state = [(0.0, 0.0), (0.0, 0.0)]  # x_c, ẋ_c

    def kernel(t, q, v):
        F = sensor(q, v)
        xc, vc = state
        vc = tuple(vc[i] + dt * (F[i] - Df[i] * vc[i] - Kf[i] * xc[i]) / Mf[i] for i in (0, 1))
        xc = tuple(xc[i] + dt * vc[i] for i in (0, 1))
        state[0], state[1] = xc, vc
        x, J = arm._tip_jacobian(q)
        P = [Kp[i] * (xd[i] + xc[i] - x[i]) + Kd[i] * (vc[i] - (J[i][0] * v[0] + J[i][1] * v[1])) for i in (0, 1)]
        g1, g2 = arm._gravity(q)
        return (J[0][0] * P[0] + J[1][0] * P[1] + g1, J[0][1] * P[0] + J[1][1] * P[1] + g2)

    return make_law(kernel, 2)


def wall_sensor(arm: TwoLinkArm, wall: Wall) -> Callable:
    """An ideal force sensor at the tip: ``force(q, v) -> F_ext`` (2,) N, the wall's force on the tip
    of ``arm`` at joint angles q (2,) rad and rates v (2,) rad/s (for the laws' ``force`` argument)."""
    arm, wall = _arm(arm), _wall(wall)

    def kernel(q, v):
        x, J = arm._tip_jacobian(q)
        return (wall.force_x(x[0], J[0][0] * v[0] + J[0][1] * v[1]), 0.0)
    return make_external(kernel, 2)


def wall_torque(arm: TwoLinkArm, wall: Wall) -> Callable:
    """The wall's force on the tip as joint torques: ``external(q, v) -> Jᵀ F_ext`` (2,) N·m, the
    ``external`` argument of :func:`~kinematics_lib.simulate_sampled`."""
    arm, wall = _arm(arm), _wall(wall)

    def kernel(q, v):
        x, J = arm._tip_jacobian(q)
        fx = wall.force_x(x[0], J[0][0] * v[0] + J[0][1] * v[1])
        return (J[0][0] * fx, J[0][1] * fx)
    return make_external(kernel, 2)


def critical_delay(omega_n, zeta) -> float:
    """The loop delay τ_c (s) at which a PD loop on a mass loses stability (phase margin / crossover).

    Loop m ẍ = −K x(t − τ) − D ẋ(t − τ) with K/m = ω_n², D/m = 2 ζ ω_n (rad/s, -): the open loop
    L(s) = (ω_n² + 2 ζ ω_n s) e^{−sτ} / s² crosses |L| = 1 at ω_c = ω_n sqrt(2ζ² + sqrt(4ζ⁴ + 1))
    with the phase margin φ = atan(2 ζ ω_c / ω_n); the delay eats ω_c τ of it, so τ_c = φ / ω_c.
    (ζ = 0.7: ω_n τ_c = 0.737, i.e. f_n = ω_n / 2π = 1 / (8.5 τ_c) at the limit.)

    >>> round(critical_delay(10.0, 0.7) * 10.0, 4)
    0.7371
    """
    w, z = check.positive(omega_n, "omega_n"), check.nonnegative(zeta, "zeta")
    wc = w * math.sqrt(2.0 * z * z + math.hypot(2.0 * z * z, 1.0))  # hypot: no overflow for a huge zeta
    return check.finite_result(math.atan(2.0 * z * wc / w) / wc, "critical delay", "omega_n or zeta")

"""Joint PID control (关节 PID 控制) with derivative on the measurement, a clamped integral and feed-forward.

Document 001's law for joint i, with the error e = q_d - q (rad) and the measured velocity v:

    tau_i = Kp e_i + Ki ∫ e_i dt + Kd (v_d,i - v_i) + tau_ff,i          (N·m)

* **derivative on the measurement**: the damping term uses the measured (or estimated) joint
  velocity, never the difference quotient of the error, so a jump of the set-point q_d does not
  produce a torque spike (the *derivative kick*, 微分冲击);
* **anti-windup** (积分限幅): the integral *term* Ki ∫ e dt (N·m) is clamped to ±i_limit;
* **feed-forward**: ``feedforward`` is added unchanged, e.g. the gravity torque g(q) (重力前馈)
  or a friction estimate.

Units: gains kp in N·m/rad, ki in N·m/(rad·s), kd in N·m·s/rad; i_limit in N·m; dt in s. Every
gain may be a scalar or one value per joint (n,). Closed loop on a rigid joint of inertia J
(J q̈ = tau, set-point regulation): J s² + kd s + kp = 0, or J s³ + kd s² + kp s + ki = 0 with
the integral (:func:`pid_poles`).
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

from .. import _validate as check

__all__ = ["PID", "pid_poles", "pid_controller"]


def _gain(x, name: str) -> np.ndarray:
    """A non-negative finite scalar or vector (n,)."""
    a = check._array(x, name)
    if a.ndim > 1:
        raise check.InputError(f"{name} must be a scalar or a vector (n,), got shape {a.shape}")
    check._finite(a, name)
    if np.any(a < 0.0):
        raise check.InputError(f"{name} must be non-negative (a gain), got {a}")
    return a


def _limit(x, name: str) -> np.ndarray:
    """A non-negative scalar or vector (n,); +inf allowed (no limit)."""
    a = check._array(x, name)
    if a.ndim > 1 or np.any(np.isnan(a)) or np.any(a < 0.0):
        raise check.InputError(f"{name} must be a non-negative scalar or vector (n,), inf for no limit, got {x!r}")
    return a


class PID:
    """A joint PID: ``tau = pid.step(error, velocity, dt)`` once per control period.

    >>> pid = PID(kp=100.0, ki=10.0, kd=5.0, i_limit=0.5)
    >>> round(pid.step(0.1, 0.2, 0.001), 6)      # 100*0.1 + 10*0.1*0.001 - 5*0.2
    9.001
    >>> round(pid.step(0.1, 0.0, 0.001, feedforward=2.0), 6)   # integral 0.002, plus g(q) = 2
    12.002
    """

    def __init__(self, kp, ki=0.0, kd=0.0, i_limit=math.inf):
        self.kp, self.ki, self.kd = _gain(kp, "kp"), _gain(ki, "ki"), _gain(kd, "kd")
        self.i_limit = _limit(i_limit, "i_limit")
        try:
            self._shape = np.broadcast_shapes(self.kp.shape, self.ki.shape, self.kd.shape, self.i_limit.shape)
        except ValueError:
            raise check.InputError("kp, ki, kd and i_limit must be scalars or vectors of one length") from None
        self._i = None  # the integral term Ki ∫ e dt (N·m), created at the first step

    @property
    def i_term(self):
        """The integral term Ki ∫ e dt (N·m) after the last step (0 before the first)."""
        return 0.0 if self._i is None else (float(self._i) if self._i.ndim == 0 else self._i.copy())

    def reset(self) -> None:
        """Forget the integral (e.g. when the controller is switched on again)."""
        self._i = None

    def step(self, error, velocity, dt, *, velocity_ref=0.0, feedforward=0.0):
        """One control period: tau = kp e + clamp(I + ki e dt) + kd (velocity_ref - velocity) + feedforward.

        error = q_d - q (rad), velocity = measured q̇ (rad/s), dt > 0 (s), velocity_ref = q̇_d
        (rad/s), feedforward (N·m); scalars or (n,) arrays of one shape. Returns tau (N·m), a float
        for scalar input, else (n,). The integral is updated first (as in document 001's code).
        """
        e = check._array(error, "error")
        try:
            shape = np.broadcast_shapes(e.shape, self._shape) if e.ndim <= 1 else None
        except ValueError:
            shape = None
        if shape is None or shape != e.shape or (self._i is not None and self._i.shape != e.shape):
            want = self._i.shape if self._i is not None else (self._shape or "a scalar or (n,)")
            raise check.InputError(f"error must have shape {want}, got shape {e.shape}")
        v = self._signal(velocity, "velocity", e.shape)
        v_ref = self._signal(velocity_ref, "velocity_ref", e.shape)
        ff = self._signal(feedforward, "feedforward", e.shape)
        if not math.isfinite(e.sum() + v.sum() + v_ref.sum() + ff.sum()):  # one test for all four
            for x, name in ((e, "error"), (v, "velocity"), (v_ref, "velocity_ref"), (ff, "feedforward")):
                check._finite(x, name)
        dt = check.positive(dt, "dt")
        i_prev = 0.0 if self._i is None else self._i
        self._i = np.minimum(np.maximum(i_prev + self.ki * e * dt, -self.i_limit), self.i_limit)
        tau = self.kp * e + self._i + self.kd * (v_ref - v) + ff
        return float(tau) if tau.ndim == 0 else tau

    @staticmethod
    def _signal(x, name: str, shape: tuple) -> np.ndarray:
        a = check._array(x, name)
        if a.shape == shape or a.shape == ():
            return a
        raise check.InputError(f"{name} must be a scalar or have shape {shape}, got shape {a.shape}")

    def __repr__(self) -> str:
        return f"PID(kp={self.kp}, ki={self.ki}, kd={self.kd}, i_limit={self.i_limit})"


def pid_poles(inertia, kp, ki=0.0, kd=0.0) -> np.ndarray:
    """Closed-loop poles (1/s) of a PID on a rigid joint J q̈ = tau regulating a constant set-point.

    Derivative on the measurement: J s² + kd s + kp = 0 (ki = 0), J s³ + kd s² + kp s + ki = 0
    with the integral. inertia J > 0 (kg·m²), gains >= 0 (scalars). Sorted by real, then imaginary part.

    >>> np.round(pid_poles(1.0, kp=100.0, kd=20.0), 6)   # critically damped: double pole at -10
    array([-10.+0.j, -10.+0.j])
    """
    J = check.positive(inertia, "inertia")
    kp, ki, kd = (float(_gain(check.scalar(x, n), n)) for x, n in ((kp, "kp"), (ki, "ki"), (kd, "kd")))
    coeffs = [J, kd, kp, ki] if ki > 0.0 else [J, kd, kp]
    return np.sort_complex(np.roots(coeffs).astype(complex))


def pid_controller(pid: PID, reference: Callable, dt: float, gravity: Callable | None = None) -> Callable:
    """A control law ``law(t, q, v) -> tau`` for :func:`~kinematics_lib.simulate_sampled`.

    reference(t) -> (q_d, v_d, a_d); the law is ``pid.step(q_d - q, v, dt, velocity_ref=v_d,
    feedforward=gravity(q))`` (gravity None: no feed-forward). The PID is reset first; dt is the
    sampling period the law will be called with (s).
    """
    if not isinstance(pid, PID):
        raise check.InputError(f"pid must be a PID, got {type(pid).__name__}")
    if not callable(reference) or (gravity is not None and not callable(gravity)):
        raise check.InputError("reference (and gravity, when given) must be callables")
    dt = check.positive(dt, "dt")
    pid.reset()

    def law(t, q, v):
        q_d, v_d, _ = reference(t)
        ff = 0.0 if gravity is None else gravity(q)
        return pid.step(q_d - q, v, dt, velocity_ref=v_d, feedforward=ff)

    return law

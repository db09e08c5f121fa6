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
from ._kernel import floats, function_kernel, reference_kernel

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
        self._per_joint = {}  # n -> the gains as tuples of n floats (kp, ki, kd, i_limit)
        self._i = None  # the integral term Ki ∫ e dt (N·m) per joint, a tuple of floats after the first step
        self._scalar = self._shape == ()  # i_term is a float (scalar steps; a loop's update of scalar gains)

    @property
    def i_term(self):
        """The integral term Ki ∫ e dt (N·m) after the last step (0 before the first)."""
        if self._i is None:
            return 0.0
        return self._i[0] if self._scalar and len(self._i) == 1 else np.array(self._i)

    def reset(self) -> None:
        """Forget the integral (e.g. when the controller is switched on again)."""
        self._i = None

    def gains(self, n: int) -> tuple:
        """(kp, ki, kd, i_limit), each a tuple of n floats (the gains broadcast to n joints)."""
        out = self._per_joint.get(n)
        if out is None:
            if self._shape not in ((), (n,)):
                raise check.InputError(f"the PID has {self._shape[0]} joints, the loop {n}")
            out = self._per_joint[n] = tuple(tuple(np.broadcast_to(g, (n,)).tolist())
                                             for g in (self.kp, self.ki, self.kd, self.i_limit))
        return out

    def update(self, e: tuple, v: tuple, dt: float, v_ref: tuple, ff: tuple) -> tuple:
        """The PID law on tuples of floats, unchecked (the loops' kernel; :meth:`step` checks):
        I ← clamp(I + ki e dt, ±i_limit), tau = kp e + I + kd (v_ref − v) + ff per joint."""
        kp, ki, kd, lim = self.gains(len(e))
        i_prev = self._i if self._i is not None else (0.0,) * len(e)
        i = self._i = tuple(min(max(ij + k * ej * dt, -l), l) for ij, k, ej, l in zip(i_prev, ki, e, lim))
        return tuple(p * ej + ij + d * (vr - vj) + f for p, ej, ij, d, vr, vj, f in zip(kp, e, i, kd, v_ref, v, ff))

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
        i_shape = None if self._i is None else (() if self._scalar else (len(self._i),))
        if shape is None or shape != e.shape or (i_shape is not None and i_shape != e.shape):
            want = i_shape if i_shape is not None else (self._shape or "a scalar or (n,)")
            raise check.InputError(f"error must have shape {want}, got shape {e.shape}")
        v = self._signal(velocity, "velocity", e.shape)
        v_ref = self._signal(velocity_ref, "velocity_ref", e.shape)
        ff = self._signal(feedforward, "feedforward", e.shape)
        if not math.isfinite(e.sum() + v.sum() + v_ref.sum() + ff.sum()):  # one test for all four
            for x, name in ((e, "error"), (v, "velocity"), (v_ref, "velocity_ref"), (ff, "feedforward")):
                check._finite(x, name)
        dt = check.positive(dt, "dt")
        n = max(e.size, 1)
        self._scalar = e.ndim == 0
        tau = self.update(*(floats(x, n) for x in (e, v)), dt, *(floats(x, n) for x in (v_ref, ff)))
        return tau[0] if self._scalar else np.array(tau)

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
    sampling period the law will be called with (s). The law's ``kernel`` is the same on float
    tuples (:meth:`PID.update`), the form the simulation loops call.
    """
    if not isinstance(pid, PID):
        raise check.InputError(f"pid must be a PID, got {type(pid).__name__}")
    if not callable(reference) or (gravity is not None and not callable(gravity)):
        raise check.InputError("reference (and gravity, when given) must be callables")
    dt = check.positive(dt, "dt")
    n = pid._shape[0] if pid._shape else getattr(reference, "nv", None)
    pid.reset()
    ref = reference_kernel(reference, n) if n is not None else None
    g = function_kernel(gravity, "gravity")

    def kernel(t, q, v):
        q_d, v_d, _ = (ref or reference_kernel(reference, len(q)))(t)
        if len(q_d) != len(q):
            raise check.InputError(f"reference gives {len(q_d)} joints, the plant has {len(q)}")
        e = tuple(a - b for a, b in zip(q_d, q))
        return pid.update(e, v, dt, v_d, g(q) if g is not None else (0.0,) * len(q))

    def law(t, q, v):
        q = np.atleast_1d(check._array(q, "q"))
        n_q = q.shape[0]
        v = check.vector(np.atleast_1d(check._array(v, "v")), n_q, "v")
        return np.array(kernel(check.scalar(t, "t"), tuple(check.vector(q, n_q, "q").tolist()), tuple(v.tolist())))

    law.kernel = kernel
    return law

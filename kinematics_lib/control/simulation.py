"""Closed-loop simulation (闭环仿真) of a plant and a control law ``law(t, q, v) -> tau``.

* :func:`simulate_sampled` -- a digital controller: the law is evaluated every dt (the control
  period, e.g. 1 ms at 1 kHz), its output held constant until the next sample (zero-order hold),
  optionally delayed by a whole number of samples and saturated at ±tau_limit (actuator limits,
  document 000 §3.5.4); the plant is integrated with semi-implicit Euler, ``substeps`` steps per
  sample. An external torque ``external(q, v)`` (e.g. a wall's force through J^T) acts at every
  substep: it is physics, not control, so it is never delayed.
* :func:`simulate_continuous` -- the law evaluated inside the ODE (an ideal analogue controller),
  integrated by scipy's adaptive Runge-Kutta: the reference for checks against analytic solutions.

A sampled run that leaves |q|, |v| < 1e6 stops early with ``status == "diverged"`` (the arrays end
at the last sample inside the bound); it never returns NaN or inf.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from typing import Callable

import numpy as np

from .. import _validate as check
from ..arms.trajectories import METHODS
from ..arms.shared import time_scaling as _scaling
from ..dynamics.integrators import integrate_adaptive
from ..dynamics.model import Model
from ._kernel import checked_floats, external_kernel, law_kernel, make_reference
from .plants import ModelPlant

__all__ = ["SimulationResult", "simulate_sampled", "simulate_continuous", "constant_reference", "sine_reference",
           "point_to_point_reference"]

MAX_STEPS = 2_000_000
MAX_SUBSTEPS = 1000
BOUND = 1e6


@dataclass(frozen=True)
class SimulationResult:
    """t (N+1,) s; q, v (N+1, n); tau (N+1, n): the torque applied from t_k to t_k+1 (after delay
    and saturation); tau_ext (N+1, n): the external torque at t_k; status "ok" or "diverged"."""

    t: np.ndarray
    q: np.ndarray
    v: np.ndarray
    tau: np.ndarray
    tau_ext: np.ndarray
    status: str
    message: str


def _as_plant(plant):
    if isinstance(plant, Model):
        return ModelPlant(plant)
    if not (hasattr(plant, "nv") and callable(getattr(plant, "forward_dynamics", None))):
        raise check.InputError(f"plant must be a kl.Model or have nv and forward_dynamics, got {type(plant).__name__}")
    return plant


def _torque(x, n: int, name: str) -> np.ndarray:
    a = np.asarray(x, dtype=float)
    if a.shape == ():
        a = np.full(n, float(a))
    if a.shape != (n,) or not math.isfinite(a.sum()):
        raise check.InputError(f"{name} must return a finite torque of shape ({n},), got {x!r}")
    return a


def _setup(plant, law, q0, v0, t_final, dt):
    plant = _as_plant(plant)
    if not callable(law):
        raise check.InputError(f"law must be a callable law(t, q, v) -> tau, got {law!r}")
    n = plant.nv
    q, v = check.vector(q0, n, "q0").copy(), check.vector(v0, n, "v0").copy()
    for x, name in ((q, "q0"), (v, "v0")):
        if np.abs(x).max() >= BOUND:
            raise check.InputError(f"{name} must stay below {BOUND:g} in magnitude (the divergence bound), got {x}")
    t_final, dt = check.positive(t_final, "t_final"), check.positive(dt, "dt")
    steps = max(1, math.ceil(t_final / dt - 1e-9))
    if steps > MAX_STEPS:
        raise check.InputError(f"t_final / dt = {steps} steps exceeds {MAX_STEPS}: increase dt or shorten t_final")
    return plant, n, q, v, steps, dt


def _count(x, name: str, low: int, high: int) -> int:
    if isinstance(x, bool) or not float(check.scalar(x, name)).is_integer() or not low <= x <= high:
        raise check.InputError(f"{name} must be an integer in [{low}, {high}], got {x!r}")
    return int(x)


def simulate_sampled(plant, law: Callable, q0, v0, t_final: float, dt: float, *, delay_steps: int = 0,
                     tau_limit=None, external: Callable | None = None, substeps: int = 1) -> SimulationResult:
    """Digital control at period dt (s): ZOH, delay of ``delay_steps`` samples, saturation, substeps.

    During the first ``delay_steps`` samples the first output is applied (the loop starts primed).
    Returns a :class:`SimulationResult` on the grid t_k = k dt, k = 0 .. ceil(t_final / dt).
    Everything is checked here, once; the loop runs the unchecked float kernels of the plant, the
    law and the external torque (``law.kernel``; a law without one is checked at every call).
    """
    plant, n, q, v, steps, dt = _setup(plant, law, q0, v0, t_final, dt)
    d, sub = _count(delay_steps, "delay_steps", 0, steps), _count(substeps, "substeps", 1, MAX_SUBSTEPS)
    if steps * sub > MAX_STEPS:
        raise check.InputError(f"t_final / dt * substeps = {steps * sub} exceeds {MAX_STEPS}: fewer substeps or a "
                               f"larger dt")
    limit = None if tau_limit is None else np.broadcast_to(check._array(tau_limit, "tau_limit"), (n,))
    if limit is not None and (not np.isfinite(limit).all() or np.any(limit <= 0.0)):
        raise check.InputError(f"tau_limit must be positive, got {tau_limit!r}")
    if external is not None and not callable(external):
        raise check.InputError(f"external must be a callable external(q, v) -> tau_ext, got {external!r}")
    fd = getattr(plant, "_fd", None) or (lambda q_, v_, tau_: checked_floats(
        plant.forward_dynamics(np.array(q_), np.array(v_), np.array(tau_)), n, "forward_dynamics"))
    status, last, arrays = _loop(fd, law_kernel(law, n), tuple(q.tolist()), tuple(v.tolist()), steps, dt, d,
                                 None if limit is None else tuple(limit.tolist()), external_kernel(external, n), sub)
    return _sampled_result(dt, last, status, arrays)


def _loop(fd, law, q: tuple, v: tuple, steps: int, dt: float, delay: int, limit, ext, substeps: int):
    """The sampled loop on float tuples, unchecked: (status, last sample, [Q, V, TAU, EXT] arrays).

    At t_k = k dt: record q, v; tau = law(t_k, q, v) enters a queue of ``delay`` samples (primed with
    the first output), is saturated at ±limit and held for ``substeps`` semi-implicit Euler steps
    of h = dt / substeps (the new velocity moves q) with the external torque ext(q, v) added at
    each; a state leaving |q|, |v| < BOUND stops the loop ('diverged', also on NaN)."""
    n, h = len(q), dt / substeps
    Q, V, TAU, EXT = [], [], [], []
    queue, status, last = deque(), "ok", steps
    for k in range(steps + 1):
        Q.append(q)
        V.append(v)
        queue.append(law(k * dt, q, v))
        if k == 0:
            queue.extendleft([queue[0]] * delay)
        tau = queue.popleft()
        if limit is not None:
            tau = tuple(min(max(x, -m), m) for x, m in zip(tau, limit))
        TAU.append(tau)
        EXT.append(ext(q, v))
        if k == steps:
            break
        for _ in range(substeps):
            e = ext(q, v)
            a = fd(q, v, tuple(x + y for x, y in zip(tau, e)))
            v = tuple(x + h * y for x, y in zip(v, a))
            q = tuple(x + h * y for x, y in zip(q, v))
            if not max(max(map(abs, q)), max(map(abs, v))) < BOUND:  # also catches NaN
                status, last = "diverged", k
                break
        if status != "ok":
            break
    return status, last, [np.array(x, dtype=float).reshape(-1, n) for x in (Q, V, TAU, EXT)]


def _sampled_result(dt: float, last: int, status: str, arrays) -> SimulationResult:
    """The record of a sampled loop that ran samples 0 ... last ('ok', or 'diverged' at last):
    arrays q, v, tau, ext of at least last + 1 rows."""
    t = np.arange(last + 1) * dt
    msg = "ok" if status == "ok" else f"diverged after t = {t[-1]:.4g} s (|q| or |v| > {BOUND:g})"
    return SimulationResult(t, *(a[: last + 1] for a in arrays), status, msg)


def simulate_continuous(plant, law: Callable, q0, v0, t_final: float, dt: float, *, rtol: float = 1e-10,
                        atol: float = 1e-12, external: Callable | None = None) -> SimulationResult:
    """The law applied continuously: x = [q; v], ẋ = [v; FD(q, v, law(t, q, v) + external(q, v))],
    integrated by scipy's adaptive RK45 (``kl.integrate_adaptive``) and sampled every dt."""
    plant, n, q, v, _, dt = _setup(plant, law, q0, v0, t_final, dt)
    ext = (lambda q_, v_: _torque(external(q_, v_), n, "external")) if external is not None else (lambda q_, v_: 0.0)

    def f(t, x):
        q_, v_ = x[:n], x[n:]
        return np.concatenate([v_, plant.forward_dynamics(q_, v_, _torque(law(t, q_, v_), n, "law") + ext(q_, v_))])

    t, X = integrate_adaptive(f, np.concatenate([q, v]), t_final, dt, rtol=rtol, atol=atol)
    Q, V = X[:, :n], X[:, n:]
    tau = np.array([_torque(law(tk, qk, vk), n, "law") for tk, qk, vk in zip(t, Q, V)])
    tau_ext = np.array([np.broadcast_to(ext(qk, vk), (n,)) for qk, vk in zip(Q, V)])
    return SimulationResult(t, Q, V, tau, tau_ext, "ok", "ok")


def _per_joint(x, n: int, name: str) -> np.ndarray:
    a = check._array(x, name)
    if a.shape == ():
        return np.full(n, check.scalar(a, name))
    if a.shape != (n,):
        raise check.InputError(f"{name} must be a scalar or have shape ({n},), one entry per entry of offset, "
                               f"got shape {a.shape}")
    return check.vector(a, n, name)


def constant_reference(q_d) -> Callable:
    """reference(t) -> (q_d, 0, 0): regulation to a fixed set-point (rad)."""
    q_d = check.vector(np.atleast_1d(check._array(q_d, "q_d")), None, "q_d")
    if q_d.size == 0:
        raise check.InputError("q_d must hold at least one joint position (rad)")
    target, zero = tuple(q_d.tolist()), (0.0,) * q_d.size
    reference = make_reference(lambda t: (target, zero, zero))
    reference.nv = q_d.size
    return reference


def point_to_point_reference(q_start, q_goal, duration: float, method: str = "quintic") -> Callable:
    """reference(t) -> (q_d, v_d, a_d): the rest-to-rest straight line of :func:`kinematics_lib.joint_trajectory`
    as a function of time, q_d = q_start + s(t) (q_goal - q_start), v_d = s'(t) (...), a_d = s''(t) (...).

    q_start, q_goal (n,) in rad (or m); duration T > 0 in s; method 'cubic' or 'quintic' (the time
    scaling s, see :func:`kinematics_lib.quintic_time_scaling`); before t = 0 and after T it holds still.
    """
    q0 = check.vector(np.atleast_1d(check._array(q_start, "q_start")), None, "q_start")
    if q0.size == 0:
        raise check.InputError("q_start must hold at least one joint position (rad)")
    dq = check.agreeing(np.atleast_1d(check._array(q_goal, "q_goal")), q0.shape, "q_goal", "q_start") - q0
    duration = check.positive(duration, "duration")
    method = check.one_of(method, METHODS, "method")
    check.finite_result(dq, "q_goal - q_start", "q_start, q_goal")

    start, step = tuple(q0.tolist()), tuple(dq.tolist())

    def kernel(t):
        s, sd, sdd = (float(x) for x in _scaling(method, duration, np.asarray(t)))
        return (tuple(a + s * b for a, b in zip(start, step)), tuple(sd * b for b in step),
                tuple(sdd * b for b in step))

    reference = make_reference(kernel)
    reference.nv = q0.size
    return reference


def sine_reference(offset, amplitude, omega) -> Callable:
    """reference(t) -> (q_d, v_d, a_d) with q_d = offset + amplitude sin(omega t) (rad, rad/s)."""
    q0 = check.vector(np.atleast_1d(check._array(offset, "offset")), None, "offset")
    if q0.size == 0:
        raise check.InputError("offset must hold at least one joint position (rad)")
    A, w = (_per_joint(x, q0.shape[0], name) for x, name in ((amplitude, "amplitude"), (omega, "omega")))

    rows = tuple(zip(q0.tolist(), A.tolist(), w.tolist()))

    def kernel(t):
        s = [math.sin(wi * t) for _, _, wi in rows]
        c = [math.cos(wi * t) for _, _, wi in rows]
        return (tuple(o + a * si for (o, a, _), si in zip(rows, s)), tuple(a * wi * ci for (_, a, wi), ci in zip(rows, c)),
                tuple(-a * wi * wi * si for (_, a, wi), si in zip(rows, s)))

    reference = make_reference(kernel)
    reference.nv = q0.size
    return reference

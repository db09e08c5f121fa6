"""Time integration (数值积分) of x' = f(t, x): explicit Euler, RK4, semi-implicit Euler, adaptive RK.

Every integrator has the same call ``integrate_*(f, state0, t_final, dt, progress=None)`` and
returns ``(t, X)``: the times (N+1,) in s and the states (N+1, len(state0)) on the uniform grid
t_k = k h, h = t_final / N, N = ceil(t_final / dt) (so h <= dt and the run ends at t_final).

* explicit Euler (显式欧拉)   x+ = x + h f(t, x)                                       order 1
* RK4 (四阶龙格-库塔)          classic four-stage Runge-Kutta                            order 4
* semi-implicit Euler         for mechanical states x = [q; qd] (first half positions):
  (半隐式/辛欧拉)             qd+ = qd + h qdd(t, q, qd),  q+ = q + h qd+                order 1
  symplectic when qdd depends on q only (constant mass matrix): the energy error then stays
  bounded and oscillates instead of drifting. For M(q) use the momentum form
  ``kinematics_lib.symplectic_euler_lagrange``.
* adaptive                    scipy's embedded Runge-Kutta pairs (RK45, DOP853) with error
                              control (rtol, atol), sampled on the same grid by dense output.

``progress`` is an optional callable, called with 1 after each output sample (e.g.
``kinematics_lib.notebook.widgets.Progress(n).update``). Bad input raises ValueError; a state that
becomes non-finite during the run raises ValueError naming the time (reduce dt).
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np
from scipy import integrate as _scipy_integrate

from .. import _validate as check

__all__ = [
    "euler_step",
    "rk4_step",
    "semi_implicit_euler_step",
    "integrate_euler",
    "integrate_rk4",
    "integrate_semi_implicit_euler",
    "integrate_adaptive",
    "integrate_fixed_step",
    "count_calls",
    "OSCILLATOR_METHODS",
    "oscillator_step_matrix",
    "oscillator_stability_limit",
    "simulate_oscillator",
]


#: the largest number of output samples a fixed-grid integrator computes (t_final / dt)
MAX_STEPS = 1_000_000


def _derivative(f: Callable, t: float, x: np.ndarray) -> np.ndarray:
    """f(t, x), checked: a finite array of x's shape (so that no step can turn NaN silently)."""
    if not np.isfinite(x).all():
        raise check.InputError(f"the state overflowed (not finite) at t = {t:.6g} s: h is too large (or the "
                               "state itself)")
    dx = np.asarray(f(t, x), dtype=float)
    if dx.shape != x.shape:
        raise check.InputError(f"f(t, x) must return shape {x.shape} like x, got {dx.shape}")
    if not np.isfinite(dx).all():
        raise check.InputError(f"f(t, x) returned a non-finite value at t = {t:.6g} s (x = {check.describe(x)})")
    return dx


def _step_args(f, t, x, h) -> tuple:
    x = check.vector(x, None, "x")
    if x.shape[0] == 0:
        raise check.InputError("x must have at least one entry, got an empty state")
    return check.function(f, "f"), check.scalar(t, "t"), x, check.scalar(h, "h")


def euler_step(f: Callable, t: float, x: np.ndarray, h: float) -> np.ndarray:
    """x(t + h) ≈ x + h f(t, x)   (explicit Euler, local error O(h^2))."""
    f, t, x, h = _step_args(f, t, x, h)
    return check.finite_result(_euler(f, t, x, h), "the new state", "x, h, f's values")


def _euler(f: Callable, t: float, x: np.ndarray, h: float) -> np.ndarray:
    return x + h * _derivative(f, t, x)


def rk4_step(f: Callable, t: float, x: np.ndarray, h: float) -> np.ndarray:
    """One classic Runge-Kutta step: x + h/6 (k1 + 2 k2 + 2 k3 + k4)   (local error O(h^5)).

    >>> rk4_step(lambda t, x: -x, 0.0, np.array([1.0]), 0.1)   # exp(-0.1) = 0.904837418...
    array([0.9048375])
    """
    f, t, x, h = _step_args(f, t, x, h)
    return check.finite_result(_rk4(f, t, x, h), "the new state", "x, h, f's values")


def _rk4(f: Callable, t: float, x: np.ndarray, h: float) -> np.ndarray:
    k1 = _derivative(f, t, x)
    k2 = _derivative(f, t + 0.5 * h, x + 0.5 * h * k1)
    k3 = _derivative(f, t + 0.5 * h, x + 0.5 * h * k2)
    k4 = _derivative(f, t + h, x + h * k3)
    return x + h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4)


def semi_implicit_euler_step(f: Callable, t: float, x: np.ndarray, h: float) -> np.ndarray:
    """x = [q; qd] (even length):  qd+ = qd + h qdd(t, q, qd),  q+ = q + h qd+   (the new velocity moves q)."""
    f, t, x, h = _step_args(f, t, x, h)
    if x.shape[0] % 2:
        raise check.InputError(f"x must be [q; qd] of even length, got shape {x.shape}")
    return check.finite_result(_semi_implicit(f, t, x, h), "the new state", "x, h, f's values")


def _semi_implicit(f: Callable, t: float, x: np.ndarray, h: float) -> np.ndarray:
    n = x.shape[0] // 2
    qd_new = x[n:] + h * _derivative(f, t, x)[n:]
    return np.concatenate([x[:n] + h * qd_new, qd_new])


#: the public one-step methods and their unchecked cores (integrate_fixed_step uses the cores)
_CORES = {euler_step: _euler, rk4_step: _rk4, semi_implicit_euler_step: _semi_implicit}


def _grid(state0, t_final, dt) -> tuple[np.ndarray, np.ndarray, float]:
    x0 = check.vector(state0, None, "state0")
    if x0.shape[0] == 0:
        raise check.InputError("state0 must have at least one entry, got an empty vector")
    t_final = check.positive(t_final, "t_final")
    dt = check.positive(dt, "dt")
    if t_final / dt > MAX_STEPS:
        raise check.InputError(f"t_final / dt must be at most {MAX_STEPS} steps, got t_final = {t_final:g} s, "
                               f"dt = {dt:g} s")
    n = max(1, math.ceil(t_final / dt - 1e-9))
    return x0, np.linspace(0.0, t_final, n + 1), t_final / n


def _first_value(f: Callable, x0: np.ndarray) -> None:
    check.function(f, "f")
    _derivative(f, 0.0, x0)


def _progress(progress):
    if progress is not None:
        check.function(progress, "progress")
    return progress


def integrate_fixed_step(step: Callable, f: Callable, state0, t_final: float, dt: float, progress=None):
    """March any one-step method ``step(f, t, x, h) -> x_next`` over the grid -> (t, X)."""
    step = _CORES.get(check.function(step, "step"), step)
    x, t, h = _grid(state0, t_final, dt)
    _first_value(f, x)
    progress = _progress(progress)
    X = np.empty((t.shape[0], x.shape[0]))
    X[0] = x
    for k in range(1, t.shape[0]):
        x = np.asarray(step(f, t[k - 1], x, h), dtype=float)
        if x.shape != X[0].shape:
            raise check.InputError(f"step(f, t, x, h) must return the state's shape {X[0].shape}, got {x.shape}")
        if not np.all(np.isfinite(x)):
            raise check.InputError(f"the state became non-finite at t = {t[k]:.4g} s: dt = {h:.3g} s is too "
                                   "large for this system (or f, step gave non-finite values)")
        X[k] = x
        if progress is not None:
            progress(1)
    return t, X


def integrate_euler(f: Callable, state0, t_final: float, dt: float, progress=None):
    """Explicit Euler on the grid of the module docstring -> (t (N+1,), X (N+1, n))."""
    return integrate_fixed_step(euler_step, f, state0, t_final, dt, progress)


def integrate_rk4(f: Callable, state0, t_final: float, dt: float, progress=None):
    """Classic RK4 on the grid of the module docstring -> (t (N+1,), X (N+1, n))."""
    return integrate_fixed_step(rk4_step, f, state0, t_final, dt, progress)


def integrate_semi_implicit_euler(f: Callable, state0, t_final: float, dt: float, progress=None):
    """Semi-implicit (symplectic) Euler for x = [q; qd] (even length) -> (t, X)."""
    if check.vector(state0, None, "state0").shape[0] % 2:
        raise check.InputError(f"state0 must be [q; qd] of even length, got shape {np.shape(state0)}")
    return integrate_fixed_step(semi_implicit_euler_step, f, state0, t_final, dt, progress)


def integrate_adaptive(f: Callable, state0, t_final: float, dt: float, rtol: float = 1e-8,
                       atol: float = 1e-10, method: str = "RK45", progress=None):
    """scipy's adaptive Runge-Kutta (``method`` "RK45", "DOP853" or "RK23") with error control.

    The solver picks its own steps so that the local error stays below atol + rtol |x|; the
    states are returned on the uniform grid (spacing <= dt) by its dense output. This is what
    ``scipy.integrate.solve_ivp(f, (0, t_final), state0, t_eval=t)`` computes, stepped here by hand
    so that ``progress`` can follow it.
    """
    x, t, _ = _grid(state0, t_final, dt)
    _first_value(f, x)
    progress = _progress(progress)
    rtol, atol = check.positive(rtol, "rtol"), check.positive(atol, "atol")
    solvers = {"RK45": _scipy_integrate.RK45, "DOP853": _scipy_integrate.DOP853, "RK23": _scipy_integrate.RK23}
    solver = solvers[check.one_of(method, solvers, "method")](lambda tt, xx: _derivative(f, tt, xx), 0.0, x, t[-1],
                                                              rtol=rtol, atol=atol)
    X = np.empty((t.shape[0], x.shape[0]))
    X[0], k = x, 1
    for _ in range(100 * MAX_STEPS):  # bounded: the solver's own steps (each one at least its min_step)
        if k >= t.shape[0]:
            break
        message = solver.step()
        if solver.status == "failed" or not np.all(np.isfinite(solver.y)):
            raise check.InputError(f"the adaptive solver failed at t = {solver.t:.4g} s: {message} "
                                   f"(f may be too stiff or singular there; rtol = {rtol:g}, atol = {atol:g})")
        stop = k + int(np.searchsorted(t[k:], solver.t, side="right"))
        if stop > k:
            X[k:stop] = solver.dense_output()(t[k:stop]).T
            for _ in range(stop - k):
                if progress is not None:
                    progress(1)
            k = stop
    else:
        raise check.InputError(f"the adaptive solver took {100 * MAX_STEPS} steps without reaching t_final = "
                               f"{t[-1]:g} s (rtol = {rtol:g}, atol = {atol:g} too strict for f?)")
    X[-1] = solver.y
    return t, X


def count_calls(f: Callable) -> Callable:
    """Wrap f so that ``wrapped.calls`` counts its evaluations (the cost of an integrator)."""
    check.function(f, "f")

    def wrapped(t, x):
        wrapped.calls += 1
        return f(t, x)

    wrapped.calls = 0
    return wrapped


# ---------------------------------------------------------------- stiff systems: the linear test oscillator

#: the three one-step methods compared on a stiff spring (chapter 4, section "stiff systems")
OSCILLATOR_METHODS = ("explicit", "semi-implicit", "implicit")


def _oscillator_args(omega, zeta, method):
    omega, zeta = check.positive(omega, "omega"), check.nonnegative(zeta, "zeta")
    if omega > 1e8 or zeta > 1e4:
        raise check.InputError(f"omega must be at most 1e8 rad/s and zeta at most 1e4, got {omega:g}, {zeta:g}")
    return omega, zeta, check.one_of(method, OSCILLATOR_METHODS, "method")


def _step_matrix(omega: float, zeta: float, dt: float, method: str) -> np.ndarray:
    w2, c = omega * omega * dt * dt, 2.0 * zeta * omega * dt          # (omega dt)^2 and 2 zeta omega dt
    if method == "explicit":
        return np.array([[1.0, dt], [-omega * omega * dt, 1.0 - c]])
    if method == "semi-implicit":                                       # v first, then x with the new v
        return np.array([[1.0 - w2, dt * (1.0 - c)], [-omega * omega * dt, 1.0 - c]])
    return np.array([[1.0 + c, dt], [-omega * omega * dt, 1.0]]) / (1.0 + c + w2)   # (I - dt A)^-1


def oscillator_step_matrix(omega, zeta, dt, method="explicit") -> np.ndarray:
    """G (2, 2) with [x; v]_(k+1) = G [x; v]_k for x'' + 2 zeta omega x' + omega^2 x = 0.

    A spring k [N/m] and damper on a mass m [kg] (a stiff contact) has omega = sqrt(k/m) [rad/s]
    and damping ratio zeta [-]; dt [s]. With A = [[0, 1], [-omega^2, -2 zeta omega]]:

    * ``"explicit"`` Euler (显式欧拉)         G = I + dt A;
    * ``"semi-implicit"`` (symplectic) Euler  v+ = v + dt (-omega^2 x - 2 zeta omega v), x+ = x + dt v+;
    * ``"implicit"`` (backward) Euler (隐式欧拉)  G = (I - dt A)^-1.

    The run is stable (bounded) when the spectral radius max |eig G| is at most 1; see
    :func:`oscillator_stability_limit` for the largest such dt.
    """
    omega, zeta, method = _oscillator_args(omega, zeta, method)
    dt = check.positive(dt, "dt")
    return check.finite_result(_step_matrix(omega, zeta, dt, method), "G", "omega, zeta, dt")


def oscillator_stability_limit(omega, zeta, method="explicit") -> float:
    """The largest step dt_max [s] for which :func:`oscillator_step_matrix` has max |eig| <= 1.

    Derived from the eigenvalues (chapter 4 derives and checks them):

    * explicit Euler: the eigenvalue lambda of A must lie in the disc |1 + lambda dt| <= 1, so
      dt_max = 2 zeta / omega for zeta <= 1 (0 without damping: every step gains energy) and
      2 / (omega (zeta + sqrt(zeta^2 - 1))) = 2 / |lambda_fast| for an overdamped spring;
    * semi-implicit Euler: det G = 1 - 2 zeta omega dt, tr G = 2 - (omega dt)^2 - 2 zeta omega dt,
      and |tr G| <= 1 + det G gives dt_max = 2 (sqrt(1 + zeta^2) - zeta) / omega
      (2 / omega without damping);
    * implicit Euler: stable for every dt (returns ``inf``).
    """
    omega, zeta, method = _oscillator_args(omega, zeta, method)
    if method == "implicit":
        return float("inf")
    if method == "semi-implicit":
        return 2.0 * (math.sqrt(1.0 + zeta * zeta) - zeta) / omega
    if zeta <= 1.0:
        return 2.0 * zeta / omega
    return 2.0 / (omega * (zeta + math.sqrt(zeta * zeta - 1.0)))


def simulate_oscillator(omega, zeta, x0, v0, dt, t_final=1.0, method="explicit", blowup=1e6):
    """(t (N+1,), X (N+1, 2)): the damped spring x'' + 2 zeta omega x' + omega^2 x = 0 stepped
    with ``method`` (see :func:`oscillator_step_matrix`) from x0 [m], v0 [m/s], step dt [s].

    The grid is t_k = k dt up to t_final [s] (at most 10^6 steps). An unstable run stops at the
    first sample whose amplitude sqrt(x^2 + (v/omega)^2) exceeds ``blowup`` times the initial
    one (so t may end before t_final), instead of overflowing.
    """
    omega, zeta, method = _oscillator_args(omega, zeta, method)
    x0, v0, dt = check.scalar(x0, "x0"), check.scalar(v0, "v0"), check.positive(dt, "dt")
    t_final, blowup = check.positive(t_final, "t_final"), check.positive(blowup, "blowup")
    if t_final / dt > MAX_STEPS:
        raise check.InputError(f"t_final / dt must be at most {MAX_STEPS} steps, got t_final = {t_final:g} s, "
                               f"dt = {dt:g} s")
    if abs(x0) > 1e100 or abs(v0) > 1e100 or blowup > 1e100:
        raise check.InputError("x0, v0 and blowup must be at most 1e100 in magnitude")
    G = _step_matrix(omega, zeta, dt, method)
    n = int(math.floor(t_final / dt + 1e-9))
    X = np.empty((n + 1, 2))
    X[0] = x0, v0
    limit = blowup * max(math.hypot(x0, v0 / omega), 1e-300)
    k = 0
    while k < n:
        X[k + 1] = G @ X[k]
        k += 1
        if math.hypot(X[k, 0], X[k, 1] / omega) > limit:
            break
    return np.arange(k + 1) * dt, X[:k + 1].copy()

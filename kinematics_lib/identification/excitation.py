"""Excitation trajectories: finite Fourier series, optimised for the condition number of the regressor.

Joint i follows (document 001, step 1; Swevers et al. 1997)

    q_i(t) = q0_i + sum_{k=1..K} ( a_ik sin(k w_f t) + b_ik cos(k w_f t) ),   w_f = 2 pi f0,

periodic with period 1 / f0 (document 001: f0 = 0.1 Hz, K = 5 harmonics, so the highest
frequency is K f0 = 0.5 Hz), with the exact derivatives

    q̇_i(t) = sum_k k w_f ( a_ik cos(k w_f t) - b_ik sin(k w_f t) ),
    q̈_i(t) = -sum_k (k w_f)^2 ( a_ik sin(k w_f t) + b_ik cos(k w_f t) ).

Periodicity lets measurements be averaged over periods and keeps the spectrum known (so a
low-pass filter can sit just above K f0). The coefficients are chosen to make the base
regressor well conditioned -- the noise in tau then maps onto the parameters as little as
possible -- while q stays within joint limits and v = q̇ within velocity limits.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import minimize

from .. import _validate as check
from ..dynamics.model import Model

__all__ = ["FourierTrajectory", "fourier_trajectory", "random_excitation", "ExcitationResult", "optimize_excitation"]


@dataclass(frozen=True)
class FourierTrajectory:
    """A finite Fourier series per joint: q0 (n,), a, b (n, K) in rad (or m), f0 in Hz.

    Call ``traj(t)`` with times t (T,) in s to get (q, v, a) = (q, q̇, q̈), each (T, n).
    """

    q0: np.ndarray
    a: np.ndarray
    b: np.ndarray
    f0: float

    def __post_init__(self):
        q0 = check.vector(self.q0, None, "q0")
        if q0.shape[0] == 0:
            raise check.InputError("q0 must hold one offset per joint, got an empty array")
        a = check.matrix(self.a, (None, None), "a")
        if a.shape[0] != q0.shape[0] or a.shape[1] == 0:
            raise check.InputError(f"a must have shape ({q0.shape[0]}, K >= 1), one row per joint of q0, "
                                   f"got shape {a.shape}")
        b = check.matrix(self.b, a.shape, "b")
        object.__setattr__(self, "q0", q0)
        object.__setattr__(self, "a", a)
        object.__setattr__(self, "b", b)
        object.__setattr__(self, "f0", check.positive(self.f0, "f0"))

    @property
    def period(self) -> float:
        return 1.0 / self.f0

    def __call__(self, t):
        t = check.vector(np.atleast_1d(np.asarray(t, dtype=float)), None, "t")
        k = np.arange(1, self.a.shape[1] + 1)
        w = 2.0 * np.pi * self.f0 * k  # (K,) rad/s
        s, c = np.sin(np.outer(t, w)), np.cos(np.outer(t, w))  # (T, K)
        q = self.q0 + s @ self.a.T + c @ self.b.T
        v = (c * w) @ self.a.T - (s * w) @ self.b.T
        acc = -(s * w**2) @ self.a.T - (c * w**2) @ self.b.T
        return check.finite_result((q, v, acc), "the trajectory", "q0, a, b, f0")


def fourier_trajectory(q0, a, b, f0: float = 0.1) -> FourierTrajectory:
    """The Fourier-series trajectory with offsets q0 (n,) and coefficients a, b (n, K); f0 in Hz."""
    return FourierTrajectory(q0, a, b, f0)


def _limits(lower, upper, v_max, n=None):
    lo = check.vector(lower, n, "lower")
    if lo.shape[0] == 0:
        raise check.InputError("lower must hold one limit per joint, got an empty array")
    hi = check.agreeing(upper, lo.shape, "upper", "lower")
    vmax = check.agreeing(v_max, lo.shape, "v_max", "lower")
    if np.any(hi <= lo) or np.any(vmax <= 0):
        raise check.InputError("need lower < upper and v_max > 0 for every joint")
    return lo, hi, vmax


def random_excitation(lower, upper, v_max, n_harmonics: int = 5, f0: float = 0.1, seed: int = 0,
                      amplitude: float = 0.3) -> FourierTrajectory:
    """A random Fourier trajectory inside the limits: q0 mid-range, a, b ~ N(0, amplitude^2 / K)
    (seeded), then scaled down until |q - q0| <= 0.8 half-range and |v| <= 0.8 v_max on a fine grid.

    lower, upper, v_max (n,) in rad and rad/s. The start of :func:`optimize_excitation`.
    """
    lo, hi, vmax = _limits(lower, upper, v_max)
    K = check.integer(n_harmonics, "n_harmonics", 1, 20)
    f0, amplitude = check.positive(f0, "f0"), check.positive(amplitude, "amplitude")
    n = lo.shape[0]
    rng = np.random.default_rng(check.integer(seed, "seed", 0))
    ab = rng.normal(scale=amplitude, size=(2, n, K)) / np.sqrt(K)
    mid, half = (lo + hi) / 2, (hi - lo) / 2
    q, v, _ = FourierTrajectory(mid, ab[0], ab[1], f0)(np.linspace(0.0, 1.0 / f0, 40 * K + 1))
    scale = min(1.0, 0.8 * float(np.min(half / np.maximum(np.abs(q - mid).max(axis=0), 1e-300))),
                0.8 * float(np.min(vmax / np.maximum(np.abs(v).max(axis=0), 1e-300))))
    return FourierTrajectory(mid, ab[0] * scale, ab[1] * scale, f0)


@dataclass(frozen=True)
class ExcitationResult:
    """trajectory: the optimised :class:`FourierTrajectory`; cond_start, cond: condition number
    of the base regressor on the sample times before and after; success, message: the optimiser's
    verdict; max_limit_violation: how far q leaves [lower, upper] at worst, checked on a grid 20
    times finer than the optimisation's samples (rad; <= 0 when inside)."""

    trajectory: FourierTrajectory
    cond_start: float
    cond: float
    success: bool
    message: str
    max_limit_violation: float


def _condition(model, traj, t, columns, extra):
    from .regressor import joint_torque_regressor  # same layer

    q, v, acc = traj(t)
    Y = joint_torque_regressor(model, q, v, acc)[..., columns]
    if extra is not None:
        Y = np.concatenate([Y, extra(v)], axis=-1)
    Y = Y.reshape(-1, Y.shape[-1])
    s = np.linalg.svd(Y, compute_uv=False)
    return s[0] / max(s[-1], 1e-300)


def optimize_excitation(model: Model, columns, lower, upper, v_max, n_harmonics: int = 5, f0: float = 0.1,
                        n_samples: int = 60, seed: int = 0, maxiter: int = 60, extra_columns=None,
                        amplitude: float = 0.3) -> ExcitationResult:
    """Fourier coefficients minimising cond(W_b) subject to lower <= q(t) <= upper, |v(t)| <= v_max.

    columns: the base-parameter columns of the regressor (``BaseParameters.independent``);
    extra_columns: optional function v (T, n) -> (T, n, k) of more regressor columns (friction).
    lower, upper, v_max (n,): limits (rad, rad/s), enforced at 3 n_samples times over one period
    (cond is evaluated at n_samples times).
    Start: :func:`random_excitation` (seeded). cond is unit-dependent (kg, kg m, kg m^2 columns).
    SLSQP minimises log cond; at most ``maxiter`` iterations (bounded). A fixed-base model only.
    """
    if check.model(model).floating_base:
        raise check.InputError("model must be a fixed-base kinematics_lib Model (an excitation of joints only)")
    n = model.nv
    lo, hi, vmax = _limits(lower, upper, v_max, n)
    K = check.integer(n_harmonics, "n_harmonics", 1, 20)
    f0 = check.positive(f0, "f0")
    if isinstance(columns, (str, bytes)) or not np.iterable(columns):
        raise check.InputError(f"columns must be a list of regressor column indices, got {check.describe(columns)}")
    columns = [check.integer(c, "columns[k]", 0, 10 * model.nb - 1) for c in columns]
    if not columns or len(set(columns)) != len(columns):
        raise check.InputError("columns must list distinct base-parameter columns (BaseParameters.independent)")
    if extra_columns is not None:
        check.function(extra_columns, "extra_columns")
    n_samples, maxiter = check.integer(n_samples, "n_samples", 8, 2000), check.integer(maxiter, "maxiter", 0, 1000)
    t = np.arange(n_samples) / n_samples / f0  # one period
    start = random_excitation(lo, hi, vmax, K, f0, seed, amplitude)
    unpack = lambda x: FourierTrajectory(x[:n], x[n:n + n * K].reshape(n, K), x[n + n * K:].reshape(n, K), f0)  # noqa: E731
    x0 = np.concatenate([start.q0, start.a.ravel(), start.b.ravel()])
    t_limits = np.arange(3 * len(t)) / (3 * len(t)) / f0  # the limits on a finer grid (cheap: no regressor)
    Dq, Dv = _derivative_maps(t_limits, n, K, f0)  # q and v are linear in the coefficients x

    def limits(x):
        q, v = Dq @ x, Dv @ x
        return np.concatenate([hi_m - q, q - lo_m, vmax_m - np.abs(v)])

    def limits_jac(x):
        return np.vstack([-Dq, Dq, -np.sign(Dv @ x)[:, None] * Dv])

    hi_m, lo_m, vmax_m = (np.tile(x, len(t_limits)) for x in (hi, lo, vmax))
    cost = lambda x: float(np.log(_condition(model, unpack(x), t, columns, extra_columns)))  # noqa: E731
    res = minimize(cost, x0, method="SLSQP", constraints=[{"type": "ineq", "fun": limits, "jac": limits_jac}],
                   options={"maxiter": maxiter, "ftol": 1e-6})
    best = _shrink_into_limits(unpack(res.x), lo, hi, vmax, np.linspace(0.0, 1.0 / f0, 20 * len(t) + 1))
    q, _, _ = best(np.linspace(0.0, 1.0 / f0, 20 * len(t) + 1))  # check the limits between the samples too
    viol = float(max((q - hi).max(), (lo - q).max()))
    x_best = np.concatenate([best.q0, best.a.ravel(), best.b.ravel()])
    return ExcitationResult(best, float(np.exp(cost(x0))), float(np.exp(cost(x_best))), bool(res.success),
                            str(res.message), viol)


def _derivative_maps(t, n, K, f0):
    """Dq, Dv (T n, n + 2 n K): q(t).ravel() = Dq x and v(t).ravel() = Dv x for x = [q0, a, b]."""
    w = 2.0 * np.pi * f0 * np.arange(1, K + 1)
    s, c = np.sin(np.outer(t, w)), np.cos(np.outer(t, w))
    block = lambda m: np.einsum("jk,il->jilk", m, np.eye(n)).reshape(len(t) * n, n * K)  # noqa: E731
    Dq = np.hstack([np.tile(np.eye(n), (len(t), 1)), block(s), block(c)])
    Dv = np.hstack([np.zeros((len(t) * n, n)), block(c * w), block(-s * w)])
    return Dq, Dv


def _shrink_into_limits(traj: FourierTrajectory, lo, hi, vmax, t) -> FourierTrajectory:
    """The same trajectory with its oscillation about q0 scaled down just enough to respect the
    limits on the times t (an SQP iterate may sit slightly outside them). q0 is clipped inside."""
    q0 = np.clip(traj.q0, lo + 1e-9, hi - 1e-9)
    moved = FourierTrajectory(q0, traj.a, traj.b, traj.f0)
    q, v, _ = moved(t)
    osc = q - q0
    up = np.where(osc.max(axis=0) > 0, (hi - q0) / np.maximum(osc.max(axis=0), 1e-300), np.inf)
    down = np.where(osc.min(axis=0) < 0, (q0 - lo) / np.maximum(-osc.min(axis=0), 1e-300), np.inf)
    speed = vmax / np.maximum(np.abs(v).max(axis=0), 1e-300)
    scale = min(1.0, float(np.min(up)), float(np.min(down)), float(np.min(speed)))
    return FourierTrajectory(q0, traj.a * scale, traj.b * scale, traj.f0)

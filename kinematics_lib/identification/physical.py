"""Physically consistent identification (物理一致性辨识) and Stribeck friction fits (issue 24, item 3).

A body's inertial parameters π = (m, h = m c, I_xx, I_xy, I_yy, I_xz, I_yz, I_zz) (about the body
frame's origin, :data:`PARAMETER_NAMES`) describe a real rigid body -- a non-negative mass
density -- exactly when its **pseudo-inertia** (伪惯量矩阵) is positive semi-definite
(Wensing, Kim & Slotine 2017):

    J(π) = [[Σ, h], [hᵀ, m]] ⪰ 0,   Σ = ½ tr(I) 1 − I  (the second moment ∫ x xᵀ dm).

J is linear in π, so least squares with J_i ⪰ 0 for every body is a semidefinite program:
Clarabel's PSD cone. Plain least squares ignores it and, when the excitation is poor or the noise
large, returns bodies with negative masses or inertias that break the triangle inequality.
Both fits here minimise the same ‖W θ − τ‖² + ε ‖θ − θ₀‖² (ε small: W is rank-deficient in the
full parameters, and the prior θ₀ -- default 0 -- picks the unobservable part); only the
constraint differs.

Friction: the Stribeck curve (the steady state of the LuGre model) fitted to a velocity sweep
by ``scipy.optimize.least_squares``, with standard errors from the Jacobian at the optimum.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import _validate as check
from ..dynamics.model import Model
from ..contact.distribution import _clarabel_solve
from .friction import stribeck_friction
from .regressor import inertial_parameters, joint_torque_regressor

__all__ = ["pseudo_inertia", "pseudo_inertia_eigenvalues", "PhysicalIdentification", "identify_physical_parameters",
           "StribeckFit", "fit_stribeck", "random_regressor_data"]

MAX_BODIES = 64
MAX_SCALE = 1e3   # random_regressor_data: largest amplitude (rad, rad/s, rad/s²) and relative noise


def _pseudo(p: np.ndarray) -> np.ndarray:
    m, h = p[0], p[1:4]
    Ixx, Ixy, Iyy, Ixz, Iyz, Izz = p[4:]
    I = np.array([[Ixx, Ixy, Ixz], [Ixy, Iyy, Iyz], [Ixz, Iyz, Izz]])
    J = np.zeros((4, 4))
    J[:3, :3] = 0.5 * np.trace(I) * np.eye(3) - I
    J[:3, 3] = J[3, :3] = h
    J[3, 3] = m
    return J


def pseudo_inertia(pi) -> np.ndarray:
    """J (4, 4) = [[½ tr(I) 1 − I, h], [hᵀ, m]] of one body's parameters pi (10,) (kg, kg m, kg m²)."""
    return _pseudo(check.vector(pi, 10, "pi"))


def _bodies(params, n_extra: int) -> np.ndarray:
    p = check.vector(params, None, "params")
    n = p.size - n_extra
    if n <= 0 or n % 10 or n // 10 > MAX_BODIES:
        raise check.InputError(f"params must hold 10 inertial parameters per body (then n_extra = {n_extra} more), "
                               f"got {p.size} numbers")
    return p[:n].reshape(-1, 10)


def pseudo_inertia_eigenvalues(params, n_extra: int = 0) -> np.ndarray:
    """The smallest eigenvalue (nb,) [kg m²] of each body's pseudo-inertia, for params (10 nb + n_extra,)
    (n_extra trailing entries, e.g. friction, are ignored). Negative: that body is not physical."""
    n_extra = check.integer(n_extra, "n_extra", 0, 10_000)
    return np.array([np.linalg.eigvalsh(_pseudo(p))[0] for p in _bodies(params, n_extra)])


@dataclass(frozen=True)
class PhysicalIdentification:
    """theta (10 nb + n_extra,): the estimate; min_eigenvalues (nb,) [kg m²] of the pseudo-inertias;
    n_nonphysical: bodies with a negative one (below −tol); constrained: whether J ⪰ 0 was imposed;
    rms (nv,) or (1,): the RMS torque residual of the fit; status (the solver's)."""

    theta: np.ndarray
    min_eigenvalues: np.ndarray
    n_nonphysical: int
    constrained: bool
    rms: np.ndarray
    status: str


def _svec_rows(nb: int, n_extra: int, body: int) -> np.ndarray:
    """A (10, N) -> the 10 entries of svec(J(π_body)) (Clarabel's PSD triangle: the upper triangle
    column by column, off-diagonal entries times √2) as rows of a (10, N) matrix."""
    N = 10 * nb + n_extra
    rows = np.zeros((10, N))
    basis = np.eye(10)
    k = 0
    for j in range(4):
        for i in range(j + 1):
            w = 1.0 if i == j else np.sqrt(2.0)
            for c in range(10):
                rows[k, 10 * body + c] = w * _pseudo(basis[c])[i, j]
            k += 1
    return rows


def random_regressor_data(model, n_samples: int, amplitude: float, noise: float, seed=0) -> tuple[np.ndarray, np.ndarray]:
    """A synthetic identification experiment: (W, τ) with W = Y(q, v, a) (n_samples, nv, 10·nb) the
    joint-torque regressor at n_samples random states q, v, a ~ amplitude · N(0, 1) (rad, rad/s,
    rad/s²; drawn in that order) and τ = W π_true + noise · max|W π_true| · N(0, 1) (n_samples, nv)
    in N·m.

    Small ``amplitude`` and few samples make a poorly exciting experiment; ``noise`` is relative to
    the largest torque. ``seed``: an int or a ``numpy.random.Generator`` (used as is, so one
    generator can also have built the model)."""
    if not isinstance(model, Model) or not model.nb or model.floating_base:
        raise check.InputError("model must be a fixed-base kl.Model with at least one body (random q, v, a per joint)")
    n_samples = check.integer(n_samples, "n_samples", 1, 1_000_000)
    amplitude, noise = check.nonnegative(amplitude, "amplitude"), check.nonnegative(noise, "noise")
    for value, name in ((amplitude, "amplitude"), (noise, "noise")):
        if value > MAX_SCALE:
            raise check.InputError(f"{name} must be at most {MAX_SCALE:g} (a state or noise scale), got {value:g}")
    if isinstance(seed, np.random.Generator):
        rng = seed
    else:
        rng = np.random.default_rng(check.integer(seed, "seed", 0, 2 ** 63 - 1))
    q, v, a = (amplitude * rng.normal(size=(n_samples, n)) for n in (model.nq, model.nv, model.nv))
    W = joint_torque_regressor(model, q, v, a)
    tau = W @ inertial_parameters(model)
    return W, tau + noise * np.abs(tau).max() * rng.normal(size=tau.shape)


def identify_physical_parameters(W, tau, n_extra: int = 0, constrained: bool = True, prior=None,
                                 prior_weight: float = 1e-6, tol: float = 1e-9) -> PhysicalIdentification:
    """Least squares of the full inertial parameters, with every pseudo-inertia J_i ⪰ 0 (constrained)
    or without (plain): min ‖W θ − τ‖² + ε ‖θ − θ₀‖².

    W (N, nv, 10 nb + n_extra) and tau (N, nv), or W (m, p) and tau (m,): the regressor of
    ``joint_torque_regressor`` (full parameters, body after body), optionally followed by n_extra
    unconstrained columns (friction). prior θ₀ (p,) default 0; prior_weight: ε relative to the
    largest eigenvalue of WᵀW. tol [kg m²]: an eigenvalue below −tol counts as non-physical.
    """
    Wa = check._array(W, "W")
    if Wa.ndim == 3:
        shape = Wa.shape[:2]
        tau_a = check.agreeing(tau, shape, "tau", "W")
        W2, t2 = check.matrix(Wa.reshape(-1, Wa.shape[2]), (None, None), "W"), tau_a.reshape(-1)
    else:
        W2 = check.matrix(Wa, (None, None), "W")
        t2 = check.vector(tau, W2.shape[0], "tau")
        shape = (W2.shape[0], 1)
    p = W2.shape[1]
    n_extra = check.integer(n_extra, "n_extra", 0, max(p - 10, 0))
    if (p - n_extra) % 10 or p - n_extra <= 0 or (p - n_extra) // 10 > MAX_BODIES:
        raise check.InputError(f"W must have 10 columns per body plus n_extra = {n_extra}, got {p} columns")
    nb = (p - n_extra) // 10
    constrained = check.flag(constrained, "constrained")
    theta0 = np.zeros(p) if prior is None else check.vector(prior, p, "prior")
    eps = check.nonnegative(prior_weight, "prior_weight")
    tol = check.nonnegative(tol, "tol")
    with np.errstate(all="ignore"):
        A = W2.T @ W2
        scale = float(np.linalg.eigvalsh(A)[-1]) if np.isfinite(A).all() else np.inf
    if not np.isfinite(scale) or scale <= 0.0:
        raise check.InputError("W must be finite and not identically zero")
    if not eps > 0.0 and not constrained:
        raise check.InputError("prior_weight must be > 0 for plain least squares (W is rank-deficient in the full "
                               "parameters)")
    P = (A + eps * scale * np.eye(p)) / scale
    with np.errstate(all="ignore"):
        c = -(W2.T @ t2 + eps * scale * theta0) / scale
    check.finite_result(c, "W^T tau", "W, tau or prior")
    s_c = float(np.abs(c).max()) or 1.0  # the feasible set is a cone: theta(c / s_c) = theta(c) / s_c
    if constrained:
        theta, status = _sdp(P, c / s_c, nb, n_extra)
    else:
        theta, status = np.linalg.solve(P, -c / s_c), "solved"
    theta = theta * s_c
    check.finite_result(theta, "theta", "W or tau")
    eig = pseudo_inertia_eigenvalues(theta, n_extra)
    with np.errstate(all="ignore"):
        rms = np.sqrt(np.mean(((W2 @ theta - t2).reshape(shape)) ** 2, axis=0))
    check.finite_result(rms, "the RMS residual", "W or tau")
    return PhysicalIdentification(theta, eig, int(np.sum(eig < -tol)), constrained, rms, status)


def _sdp(P, c, nb, n_extra):
    import clarabel

    rows = [-_svec_rows(nb, n_extra, i) for i in range(nb)]
    x = _clarabel_solve(P, c, rows, [np.zeros(10 * nb)], [clarabel.PSDTriangleConeT(4)] * nb, 1e-10)
    if x is None:
        raise check.InputError("W, tau: the constrained least squares was not solved by Clarabel")
    return x, "solved"


@dataclass(frozen=True)
class StribeckFit:
    """params (4,) = (f_c [N m], f_s [N m], f_v [N m s/rad], v_s [rad/s]) of the Stribeck curve;
    std (4,): their standard errors; ci95 (4, 2): ±1.96 std; rms [N m]: residual; delta: the shape
    exponent (fixed); cost and status of scipy's least_squares."""

    params: np.ndarray
    std: np.ndarray
    ci95: np.ndarray
    rms: float
    delta: float
    status: int


def _friction_torques(v: np.ndarray, tau_f, v_limit: float, v_kind: str, tau_limit: float, sample: str) -> np.ndarray:
    """tau_f (N,) checked against the velocities v (N,) of a friction experiment: one finite torque
    per sample, |v| <= v_limit [rad/s] (v must be ``v_kind``) and |tau_f| <= tau_limit [N m]."""
    if np.abs(v).max() > v_limit:
        raise check.InputError(f"v must be {v_kind}, |v| <= {v_limit:g} rad/s, got {np.abs(v).max():.3g}")
    tau_f = check._array(tau_f, "tau_f")
    if tau_f.shape != v.shape:
        raise check.InputError(f"tau_f must have the shape of v, {v.shape} (one torque per {sample}), got {tau_f.shape}")
    tau_f = check.vector(tau_f, v.size, "tau_f")
    if np.abs(tau_f).max() > tau_limit:
        raise check.InputError(f"tau_f must be a physical torque, |tau_f| <= {tau_limit:g} N m, got "
                               f"{np.abs(tau_f).max():.3g}")
    return tau_f


def fit_stribeck(v, tau_f, delta: float = 2.0, x0=None) -> StribeckFit:
    """Fit τ_f = sign(v) (f_c + (f_s − f_c) exp(−|v / v_s|^δ)) + f_v v (``stribeck_friction``) to a
    velocity sweep (v (N,) rad/s, tau_f (N,) N m) by ``scipy.optimize.least_squares`` (trust region,
    bounds: all parameters >= 0, v_s > 0). These are also LuGre's static parameters (its steady state).
    Standard errors from σ² (JᵀJ)⁻¹ at the optimum, σ² = ‖r‖² / (N − 4).
    """
    from scipy.optimize import least_squares

    v = check.vector(v, None, "v")
    if v.size < 6 or np.count_nonzero(v) < 5:
        raise check.InputError(f"v must hold at least 6 velocities (5 non-zero) for 4 parameters, got {v.size}")
    tau_f = _friction_torques(v, tau_f, 1e6, "a physical speed", 1e12, "velocity")
    delta = check.positive(delta, "delta")
    if delta > 10.0:
        raise check.InputError(f"delta must be in (0, 10], got {delta:g}")
    vmax = float(np.abs(v).max())
    fmax = max(float(np.abs(tau_f).max()), 1e-12)
    if x0 is None:
        x0 = np.array([0.5 * fmax, 0.8 * fmax, 0.1 * fmax / vmax, 0.1 * vmax])
    x0 = check.vector(x0, 4, "x0")
    scale = np.array([fmax, fmax, fmax / vmax, vmax])

    def resid(x):
        f_c, f_s, f_v, v_s = x * scale
        return (stribeck_friction(v, f_c, f_s, f_v, v_s, delta) - tau_f) / fmax

    lo = np.array([0.0, 0.0, 0.0, 1e-6 / vmax])
    res = least_squares(resid, np.clip(x0 / scale, lo, None) + 1e-12, bounds=(lo, np.inf), method="trf",
                        x_scale="jac", xtol=1e-14, ftol=1e-14, gtol=1e-14)
    params = res.x * scale
    r = res.fun * fmax
    dof = max(v.size - 4, 1)
    sigma2 = float(r @ r) / dof
    J = res.jac * fmax / scale  # d r / d params
    with np.errstate(all="ignore"):
        cov = sigma2 * np.linalg.pinv(J.T @ J)
    std = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    check.finite_result((params, std), "the Stribeck fit", "v or tau_f")
    return StribeckFit(params, std, np.column_stack([params - 1.96 * std, params + 1.96 * std]),
                       float(np.sqrt(np.mean(r ** 2))), delta, int(res.status))

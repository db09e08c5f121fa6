"""Least squares for identification: ordinary, weighted and ridge, with the numbers that judge a fit.

Model: measured torques tau = W theta + e, W (m, r) a stacked regressor of full column rank
(base parameters, possibly with friction columns), e noise. With row weights w (inverse
variances, Lambda = diag(w)) and a ridge term lambda >= 0:

    theta_hat = (W^T Lambda W + lambda I)^-1 W^T Lambda tau            (document 001, step 3)

computed as the least-squares solution of [sqrt(Lambda) W; sqrt(lambda) I] theta = [sqrt(Lambda) tau; 0]
(orthogonal factorisation: forming W^T W squares the condition number). The predicted
covariance (lambda = 0) is s^2 (W^T Lambda W)^-1 with s^2 = r^T Lambda r / (m - r): when w are
the true inverse variances s^2 ~ 1. The fit is judged by the condition number of sqrt(Lambda) W,
the residual, and the RMS error per joint **relative to that joint's peak torque** (the
criterion "RMS error < 5 % of the peak torque" of document 001, step 4).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import _validate as check

__all__ = ["Identification", "TorqueError", "identify_parameters", "torque_prediction_error", "joint_noise_weights"]


@dataclass(frozen=True)
class TorqueError:
    """Prediction error of a model on measured torques, per joint (per channel).

    rms (nv,): sqrt(mean((tau_model - tau)^2)) in N m; peak (nv,): max |tau| (measured);
    relative (nv,): rms / peak; worst: max of relative (the number to compare with 5 %).
    """

    rms: np.ndarray
    peak: np.ndarray
    relative: np.ndarray

    @property
    def worst(self) -> float:
        return float(self.relative.max())

    def __str__(self) -> str:
        cells = ", ".join(f"{100 * r:.2f} %" for r in self.relative)
        return f"RMS error / peak torque per joint: {cells} (worst {100 * self.worst:.2f} %)"


@dataclass(frozen=True)
class Identification:
    """Result of :func:`identify_parameters`.

    params (r,); covariance (r, r) and std (r,): predicted from the residual (for a ridge fit,
    the sandwich s^2 (A + lambda I)^-1 A (A + lambda I)^-1 with A = W^T Lambda W, and the
    estimate is biased); cond: condition number of sqrt(Lambda) W; cond_normal: that of the
    matrix actually inverted, W^T Lambda W + lambda I (cond^2 when lambda = 0);
    residual: tau - W params, in the shape of tau; sigma2: s^2; dof: m - r; fit: the
    :class:`TorqueError` on the identification data itself.
    """

    params: np.ndarray
    covariance: np.ndarray
    std: np.ndarray
    cond: float
    cond_normal: float
    residual: np.ndarray
    sigma2: float
    dof: int
    fit: TorqueError


def _regressor_and_torques(W, tau):
    """(W2 (m, r), tau2 (m,), channels (N, nv) shape or None) from (N, nv, r) & (N, nv) or (m, r) & (m,)."""
    W = check._array(W, "W")
    if W.ndim not in (2, 3):
        raise check.InputError(f"W must have shape (m, r) or (N, nv, r), got shape {W.shape}")
    if not np.all(np.isfinite(W)) or W.size == 0:
        raise check.InputError(f"W must be a non-empty regressor of finite numbers, got {check.describe(W)}")
    if W.ndim == 3:
        tau = check.agreeing(tau, W.shape[:2], "tau", "W")
        shape = W.shape[:2]
    else:
        tau = check.agreeing(tau, W.shape[:1], "tau", "W")[:, None]
        shape = (W.shape[0], 1)
    return W.reshape(-1, W.shape[-1]), tau.reshape(-1), shape


def _weights(weights, shape) -> np.ndarray:
    """Row weights (m,) from None, per channel (nv,) or per row (N, nv) / (m,)."""
    if weights is None:
        return np.ones(shape[0] * shape[1])
    w = check._array(weights, "weights")
    if w.shape == (shape[1],) and shape[1] > 1:
        w = np.broadcast_to(w, shape)
    elif w.shape not in (shape, (shape[0] * shape[1],)) and not (shape[1] == 1 and w.shape == (shape[0],)):
        raise check.InputError(f"weights must have shape ({shape[1]},) per joint or {shape} per sample, got {w.shape}")
    if not np.all(np.isfinite(w)) or np.any(w <= 0):
        raise check.InputError("weights must be finite and positive (inverse variances)")
    return np.asarray(w, dtype=float).reshape(-1)


def torque_prediction_error(W, tau, params) -> TorqueError:
    """RMS error of tau_model = W params against measured tau, per joint and relative to its peak.

    W (N, nv, r) with tau (N, nv) -- per joint -- or W (m, r) with tau (m,) -- one channel.
    params (r,). Use it on an independent validation trajectory (document 001, step 4).
    """
    W2, tau2, shape = _regressor_and_torques(W, tau)
    params = check.vector(params, W2.shape[1], "params")
    err = (W2 @ params - tau2).reshape(shape)
    peak = np.abs(tau2.reshape(shape)).max(axis=0)
    if np.any(peak <= 0):
        raise check.InputError("tau must not be identically zero on a joint (the peak torque scales the error)")
    rms = np.sqrt(np.mean(err**2, axis=0))
    check.finite_result((rms, rms / peak), "the RMS error", "W, tau, params")
    return TorqueError(rms, peak, rms / peak)


def identify_parameters(W, tau, weights=None, ridge: float = 0.0) -> Identification:
    """Weighted / ridge least squares  theta = argmin ||sqrt(Lambda)(W theta - tau)||^2 + ridge ||theta||^2.

    W (N, nv, r) and tau (N, nv) (a trajectory: per-joint statistics), or W (m, r) and tau (m,).
    weights: None (ordinary LS), (nv,) per joint, or one per row; inverse noise variances
    (1 / (N m)^2) give the best linear unbiased estimate. ridge: lambda >= 0 (units of the
    weighted normal matrix). W must have full column rank unless ridge > 0 (use base parameters,
    :func:`~kinematics_lib.identification.identifiability.base_parameters`): a rank-deficient
    W raises, because its parameters are not determined by the data.
    """
    W2, tau2, shape = _regressor_and_torques(W, tau)
    w = _weights(weights, shape)
    lam = check.scalar(ridge, "ridge")
    if lam < 0:
        raise check.InputError(f"ridge must be >= 0, got {lam}")
    m, r = W2.shape
    sw = np.sqrt(w)
    Wt, tt = W2 * sw[:, None], tau2 * sw
    s = np.linalg.svd(Wt, compute_uv=False)
    cond = float(s[0] / s[-1]) if s[-1] > 0 and m >= r else np.inf
    if lam == 0 and (m < r or s[-1] <= 1e-12 * s[0]):
        raise check.InputError(f"W must have full column rank {r} (rank {int(np.sum(s > 1e-12 * s[0]))}): "
                               "identify base parameters, or pass ridge > 0")
    A_aug = np.vstack([Wt, np.sqrt(lam) * np.eye(r)]) if lam > 0 else Wt
    b_aug = np.concatenate([tt, np.zeros(r)]) if lam > 0 else tt
    theta = np.linalg.lstsq(A_aug, b_aug, rcond=None)[0]
    resid = tau2 - W2 @ theta
    dof = max(m - r, 1)
    sigma2 = float(w @ resid**2 / dof)
    A = Wt.T @ Wt
    Ainv = np.linalg.inv(A + lam * np.eye(r))
    cov = sigma2 * (Ainv @ A @ Ainv if lam > 0 else Ainv)
    cond_normal = float(np.linalg.cond(A + lam * np.eye(r)))
    check.finite_result((theta, cov, sigma2), "the estimate", "W, tau, weights")
    fit = torque_prediction_error(W2.reshape(*shape, r), tau2.reshape(shape), theta) if shape[1] > 1 else \
        torque_prediction_error(W2, tau2, theta)
    return Identification(theta, cov, np.sqrt(np.diag(cov)), cond, cond_normal, resid.reshape(shape).squeeze(),
                          sigma2, m - r, fit)


def joint_noise_weights(residual) -> np.ndarray:
    """Per-joint weights 1 / sigma_j^2 (nv,) from a first (ordinary) fit's residual (N, nv).

    The two-step weighted least squares of Gautier: estimate each joint's noise variance from
    its residual, then refit with these inverse variances as weights.
    """
    res = check.matrix(residual, (None, None), "residual")
    var = np.mean(res**2, axis=0)
    if np.any(var <= 0):
        raise check.InputError("residual must not be identically zero on a joint")
    return check.finite_result(1.0 / var, "the weights", "residual")

"""Which parameters a torque measurement can see: rank and base parameters of a stacked regressor.

Stack the regressor over many states, W = [Y(x_1); Y(x_2); ...] (m, p). Torques only ever
show W pi, so a parameter direction in the null space of W is invisible: a body at the root of
a fixed base turning about z shows only its I_zz, a mass at a joint axis looks exactly like
an inertia of the parent, ... The **base parameters** (基参数, minimal parameters) are the r =
rank W combinations that remain, beta = P pi, with W pi = W_b beta for every pi.

QR (Gautier's numerical method): factor W without pivoting; column k is a combination of the
earlier columns when its diagonal |R_kk| is negligible against the column's norm. The other
columns are the base columns W_b (full column rank), the dependent ones obey W_d = W_b K, and

    W pi = W_b pi_b + W_d pi_d = W_b (pi_b + K pi_d)   =>   beta = pi_b + K pi_d.

Each base parameter is then one standard parameter plus the ones regrouped into it (e.g. on a
planar arm ZZ_1 + m_2 L_1^2). SVD gives an orthonormal alternative, beta = V_r^T pi.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import _validate as check

__all__ = ["BaseParameters", "base_parameters", "regressor_rank"]


def _stacked(W, name: str = "W") -> np.ndarray:
    W = check._array(W, name)
    if W.ndim == 3:
        W = W.reshape(-1, W.shape[2])
    if W.ndim != 2 or W.shape[0] == 0 or W.shape[1] == 0:
        raise check.InputError(f"{name} must be a stacked regressor (m, p) or a stack (N, nv, p), got shape {W.shape}")
    if not np.all(np.isfinite(W)):
        raise check.InputError(f"{name} must contain only finite numbers")
    scale = np.abs(W).max()
    return W / scale if scale > 0 else W  # rank and regrouping do not depend on a common scale


@dataclass(frozen=True)
class BaseParameters:
    """The base parameters of a regressor: beta = P pi (r,), W pi == W[..., independent] beta.

    rank r; independent: the standard-parameter columns kept (QR) -- for SVD every column
    mixes and ``independent`` is empty; P (r, p): the map from standard to base parameters;
    method: 'qr' or 'svd'; basis (p, r): for 'svd', V_r with W_b = W V_r.
    """

    rank: int
    independent: tuple
    P: np.ndarray
    method: str
    basis: np.ndarray | None = None

    def base(self, pi) -> np.ndarray:
        """beta (r,) = P pi: the base parameters of a standard parameter vector pi (p,)."""
        return self.P @ check.vector(pi, self.P.shape[1], "pi")

    def regressor(self, W) -> np.ndarray:
        """W_b: the base columns of a regressor (..., p) -> (..., r), so that W pi = W_b beta."""
        W = check._array(W, "W")
        if W.ndim not in (2, 3) or W.shape[-1] != self.P.shape[1] or not np.all(np.isfinite(W)):
            raise check.InputError(f"W must be finite with {self.P.shape[1]} columns, got {check.describe(W)}")
        return W[..., list(self.independent)] if self.method == "qr" else W @ self.basis

    def describe(self, labels, digits: int = 4) -> list[str]:
        """One line per base parameter, e.g. 'Izz[link1] + 0.25 m[link2]' (QR only)."""
        labels = [check.text(x, "labels[k]") for x in labels]
        digits = check.integer(digits, "digits", 1, 12)
        if len(labels) != self.P.shape[1]:
            raise check.InputError(f"labels must have {self.P.shape[1]} entries, got {len(labels)}")
        lines = []
        for row in self.P:
            terms = [(c, labels[k]) for k, c in enumerate(row) if abs(c) > 10.0 ** -(digits + 2)]
            text = " ".join(f"{'+' if c > 0 else '-'} {'' if np.isclose(abs(c), 1.0) else f'{abs(c):.{digits}g} '}{n}"
                            for c, n in terms)
            lines.append(text[2:] if text.startswith("+ ") else text)
        return lines


def regressor_rank(W, rtol: float = 1e-8) -> int:
    """Numerical rank of a stacked regressor (singular values above rtol * the largest)."""
    W = _stacked(W)
    rtol = check.positive(rtol, "rtol")
    if rtol >= 1:
        raise check.InputError(f"rtol must be in (0, 1), got {rtol}")
    s = np.linalg.svd(W, compute_uv=False)
    return int(np.sum(s > rtol * s[0])) if s[0] > 0 else 0


def base_parameters(W, method: str = "qr", rtol: float = 1e-8) -> BaseParameters:
    """Base parameters of a stacked regressor W (m, p) or a stack of regressors (N, nv, p).

    method 'qr': column k is dependent when |R_kk| <= rtol * |W[:, k]| in the unpivoted QR of W
    (a zero column is dependent); K from W_b K = W_d by least squares, P = [I K] in the original
    column order. method 'svd': P = V_r^T (the right singular vectors of the r singular values
    above rtol * sigma_max). Use states rich enough to reach the structural rank (random states,
    not one trajectory): a poor trajectory has a lower rank of its own.
    """
    W = _stacked(W)
    check.one_of(method, ("qr", "svd"), "method")
    rtol = check.positive(rtol, "rtol")
    if rtol >= 1:
        raise check.InputError(f"rtol must be in (0, 1), got {rtol}")
    p = W.shape[1]
    if method == "svd":
        _, s, Vt = np.linalg.svd(W, full_matrices=False)
        r = int(np.sum(s > rtol * s[0])) if s[0] > 0 else 0
        return BaseParameters(r, (), Vt[:r].copy(), "svd", Vt[:r].T.copy())
    R = np.linalg.qr(W, mode="r")
    norms = np.linalg.norm(W, axis=0)
    diag = np.abs(np.diag(R)) if R.shape[0] >= p else np.abs(np.concatenate([np.diag(R), np.zeros(p - R.shape[0])]))
    indep = [k for k in range(p) if norms[k] > 0 and diag[k] > rtol * norms[k]]
    dep = [k for k in range(p) if k not in indep]
    K = np.linalg.lstsq(W[:, indep], W[:, dep], rcond=None)[0] if dep and indep else np.zeros((len(indep), len(dep)))
    P = np.zeros((len(indep), p))
    P[:, indep] = np.eye(len(indep))
    P[:, dep] = K
    return BaseParameters(len(indep), tuple(indep), P, "qr")

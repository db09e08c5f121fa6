"""LuGre friction identified from experiments (LuGre 摩擦参数辨识), issue 24 item 3.

The six LuGre parameters come from two experiments, as in Canudas de Wit et al. (1995):

1. **A velocity sweep** (constant velocities, the bristles settled): the steady state is the
   Stribeck curve g(v) sign(v) + sigma2 v, so :func:`fit_stribeck` gives f_c, f_s, sigma2 = f_v, v_s.
2. **A pre-sliding experiment** (预滑移实验): a displacement far below f_s / sigma0 moved back and
   forth. The bristles hardly slide, tau_f ≈ sigma0 z + (sigma1 + sigma2) v: a spring and a
   damper, whose hysteresis loop gives the bristle stiffness sigma0 and damping sigma1.
   :func:`fit_lugre` fits them to the measured torque with ``scipy.optimize.least_squares``,
   simulating the full LuGre model (:meth:`LuGre.simulate`) with the static parameters of step 1
   held fixed. Its starting point is the linear spring-damper fit of the same data.

Confidence: the standard errors are sqrt(diag(s² (JᵀJ)⁻¹)) with J the Jacobian of the residuals at
the solution and s² = ‖r‖² / (N − 2); ``ci95`` is ±1.96 of them (a local, linearised interval: it
covers the truth about 95 % of the time when the noise is white and the model right).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import _validate as check
from .friction import LuGre
from .physical import StribeckFit, _friction_torques

__all__ = ["LuGreFit", "fit_lugre"]

MAX_SAMPLES = 200_000


@dataclass(frozen=True)
class LuGreFit:
    """The bristle parameters fitted by :func:`fit_lugre`.

    params (2,) = (sigma0 [N m/rad], sigma1 [N m s/rad]); std (2,): their standard errors;
    ci95 (2, 2): params ± 1.96 std; rms [N m]: the torque residual; model: the identified
    :class:`LuGre` (all six parameters); initial (2,): the linear spring-damper estimate the
    fit started from; status: scipy's ``least_squares`` status (> 0: converged).
    """

    params: np.ndarray
    std: np.ndarray
    ci95: np.ndarray
    rms: float
    model: LuGre
    initial: np.ndarray
    status: int


def _static(static) -> tuple[float, float, float, float]:
    """(f_c, f_s, sigma2, v_s) from a StribeckFit or a 4-sequence (f_c, f_s, f_v, v_s)."""
    p = static.params if isinstance(static, StribeckFit) else check.vector(static, 4, "static")
    f_c, f_s, f_v, v_s = (float(x) for x in p)
    if not (0.0 < f_c <= 1e9 and 0.0 < f_s <= 1e9 and 0.0 < v_s <= 1e6 and 0.0 <= f_v <= 1e9):
        raise check.InputError(f"static must be (f_c > 0, f_s > 0, f_v >= 0, v_s > 0) (N m, N m, N m s/rad, rad/s), "
                               f"at most 1e9 (v_s 1e6), got {tuple(p)}")
    return f_c, f_s, f_v, v_s


def fit_lugre(v, tau_f, dt, static, z0: float = 0.0) -> LuGreFit:
    """sigma0 and sigma1 of the LuGre model from a pre-sliding experiment (module docstring).

    v (N,) [rad/s]: the joint velocity sampled every dt [s] (held over each step, as in
    :meth:`LuGre.simulate`); tau_f (N,) [N m]: the measured friction torque at the same samples;
    static: the Stribeck parameters (f_c, f_s, f_v, v_s) of a velocity sweep, a :class:`StribeckFit`
    or a sequence (f_v becomes sigma2); z0 [rad]: the bristle deflection at the first sample.
    Returns a :class:`LuGreFit`.
    """
    from scipy.optimize import least_squares

    v = check.vector(v, None, "v")
    if not 10 <= v.size <= MAX_SAMPLES:
        raise check.InputError(f"v must hold between 10 and {MAX_SAMPLES} samples, got {v.size}")
    if not np.abs(v).max() > 0.0:
        raise check.InputError("v must move: the pre-sliding experiment needs a non-zero velocity")
    tau_f = _friction_torques(v, tau_f, 1e3, "a pre-sliding velocity", 1e9, "sample")
    dt = check.positive(dt, "dt")
    if dt > 1.0:
        raise check.InputError(f"dt must be a sample period of at most 1 s, got {dt:g}")
    f_c, f_s, f_v, v_s = _static(static)
    z0 = check.scalar(z0, "z0")
    if abs(z0) > 1e-2:
        raise check.InputError(f"z0 must be a bristle deflection, |z0| <= 1e-2 rad, got {z0:g}")

    # the linear start: tau_f - sigma2 v = sigma0 x + sigma1 v with x the displacement (z ≈ x + z0)
    x = z0 + dt * np.concatenate([[0.0], np.cumsum(v[:-1])])
    A = np.column_stack([x, v])
    start, *_ = np.linalg.lstsq(A, tau_f - f_v * v, rcond=None)
    if not np.isfinite(start).all() or start[0] <= 0.0:
        raise check.InputError("v, tau_f: the torque does not rise with the displacement (no bristle stiffness "
                               "to fit); is this a pre-sliding experiment?")
    s0 = np.array([start[0], max(start[1], 1e-3 * start[0] * dt)])  # scales of sigma0, sigma1
    fscale = max(float(np.abs(tau_f).max()), 1e-12)

    def model(p):
        return LuGre(sigma0=p[0], sigma1=p[1], sigma2=f_v, f_c=f_c, f_s=f_s, v_s=v_s)

    def resid(y):
        with np.errstate(all="ignore"):
            _, tau = model(y * s0).simulate(v, dt, z0)
        r = (tau - tau_f) / fscale
        return np.where(np.isfinite(r), r, 1e6)

    lo = np.array([1e-9, 0.0])
    res = least_squares(resid, np.clip([1.0, max(start[1], 0.0) / s0[1]], lo, None), bounds=(lo, np.inf),
                        method="trf", x_scale="jac", xtol=1e-12, ftol=1e-12, gtol=1e-12)
    params = res.x * s0
    r = res.fun * fscale
    sigma2 = float(r @ r) / max(v.size - 2, 1)
    J = res.jac * fscale / s0
    with np.errstate(all="ignore"):
        std = np.sqrt(np.clip(np.diag(sigma2 * np.linalg.pinv(J.T @ J)), 0.0, None))
    check.finite_result((params, std), "the LuGre fit", "v or tau_f")
    return LuGreFit(params, std, np.column_stack([params - 1.96 * std, params + 1.96 * std]),
                    float(np.sqrt(np.mean(r ** 2))), model(params), start, int(res.status))

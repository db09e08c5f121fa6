"""Measured signals for identification: noise, zero-phase low-pass filtering, numerical differentiation.

Document 001, step 2: record q and tau at 1 kHz (tau from the motor current times the torque
constant), low-pass filter at 10-20 Hz, then differentiate to get qd and qdd. Two rules make
that work:

* differentiate only **after** filtering: central differences turn encoder noise of standard
  deviation sigma into velocity noise sigma / (sqrt(2) dt) and, differentiated again, into
  acceleration noise sqrt(6) sigma / (4 dt^2) -- at 1 kHz a micro-radian of noise becomes
  0.6 rad/s^2;
* filter with **zero phase** (forward and backward, ``scipy.signal.sosfiltfilt``) and apply the
  same filter to tau ("parallel filtering"): a causal filter delays q against tau, and the
  delay biases the parameters.
"""

from __future__ import annotations

import numpy as np
from scipy.signal import butter, sosfiltfilt

from .. import _validate as check

__all__ = ["lowpass_zero_phase", "central_difference", "add_noise"]


def _series(x, name: str) -> np.ndarray:
    a = check._array(x, name)
    if a.ndim not in (1, 2) or a.shape[0] < 3:
        raise check.InputError(f"{name} must be a time series (T,) or (T, n) with T >= 3 samples, got shape {a.shape}")
    if not np.all(np.isfinite(a)):
        raise check.InputError(f"{name} must contain only finite numbers")
    return a


def lowpass_zero_phase(x, sample_rate: float, cutoff: float, order: int = 4) -> np.ndarray:
    """Butterworth low-pass run forward and backward (zero phase) along axis 0.

    x (T,) or (T, n); sample_rate (Hz) > 0; 0 < cutoff < sample_rate / 2 (Hz); order 1..8 (the
    effective order is doubled by the two passes). T must exceed the filter's padding
    (about 3 (2 order + 1) samples).
    """
    x = _series(x, "x")
    fs, fc = check.positive(sample_rate, "sample_rate"), check.positive(cutoff, "cutoff")
    if fc >= fs / 2:
        raise check.InputError(f"cutoff must be below the Nyquist frequency {fs / 2} Hz, got {fc}")
    if fc / fs < 1e-5:
        raise check.InputError(f"cutoff / sample_rate must be >= 1e-5 (a narrower Butterworth filter is numerically "
                               f"singular), got cutoff = {fc} Hz at sample_rate = {fs} Hz")
    order = check.integer(order, "order", 1, 8)
    sos = butter(order, fc, btype="low", fs=fs, output="sos")
    if x.shape[0] <= 3 * (2 * sos.shape[0] + 1):
        raise check.InputError(f"x is too short ({x.shape[0]} samples) for an order-{order} filter")
    return check.finite_result(sosfiltfilt(sos, x, axis=0), "the filtered signal", "x")


def central_difference(x, dt: float) -> np.ndarray:
    """dx/dt along axis 0 by second-order central differences (one-sided at the ends); dt (s) > 0."""
    x = _series(x, "x")
    with np.errstate(over="ignore"):
        out = np.gradient(x, check.positive(dt, "dt"), axis=0, edge_order=2)
    return check.finite_result(out, "dx/dt", "x, dt")


def add_noise(x, std, rng: np.random.Generator) -> np.ndarray:
    """x + Gaussian noise of standard deviation std (>= 0; scalar or one per column)."""
    x = _series(x, "x")
    s = check._array(std, "std")
    if not np.all(np.isfinite(s)) or np.any(s < 0) or s.ndim > 1 or (s.ndim == 1 and s.shape[0] not in (1, x.shape[-1])):
        raise check.InputError(f"std must be finite and >= 0, got {std!r}")
    check.rng(rng)
    return check.finite_result(x + rng.normal(size=x.shape) * s, "the noisy signal", "x, std")

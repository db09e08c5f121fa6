"""Bandwidth of a PD loop on a mass, and the three frequencies "bandwidth" can mean at the delay limit.

Loop m ẍ = −K x − D ẋ + K x_r (+ D ẋ_r), K/m = ω_n², D/m = 2 ζ ω_n; open loop
L(s) = (ω_n² + 2 ζ ω_n s) / s², closed loop T(s) = L / (1 + L) = (ω_n² + 2 ζ ω_n s) / (s² + 2 ζ ω_n s + ω_n²).

Three frequencies are each called "the bandwidth" (带宽) of such a loop:

* the **natural frequency** ω_n (固有频率) of the closed loop's poles;
* the **−3 dB closed-loop bandwidth** ω_b (the standard definition, 闭环带宽): the frequency at
  which |T(jω)| has fallen to 1/√2 of its low-frequency value 1. Solving
  |T(jω_b)|² = ½ gives  ω_b² = ω_n² (1 + 2ζ² + sqrt((1 + 2ζ²)² + 1)),  ω_b ≈ 2.05 ω_n at ζ = 0.7;
* the **gain crossover** ω_c (穿越频率) of the open loop, |L(jω_c)| = 1:
  ω_c² = ω_n² (2ζ² + sqrt(4ζ⁴ + 1)),  ω_c ≈ 1.54 ω_n at ζ = 0.7.

A loop delay τ adds the phase −ω τ to L and leaves |L| unchanged; the loop is lost when the delay
eats the phase margin at the crossover (``kl.critical_delay``: ω_n τ_c = 0.737 at ζ = 0.7).
:func:`delay_bandwidth_limits` converts that limit into each of the three readings, in Hz and as
the factor k of the rule-of-thumb form f = 1/(k τ). All frequencies are those of the delay-free
design (the gains one picks); the delay does not change the gains.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from .. import _validate as check
from .interaction import critical_delay

__all__ = ["pd_loop_bandwidths", "delay_bandwidth_limits"]


class PDLoopBandwidths(NamedTuple):
    """Frequencies of a PD loop on a mass, all in rad/s: natural ω_n, −3 dB closed-loop ω_b,
    open-loop gain crossover ω_c."""

    natural: float
    minus_3db: float
    crossover: float


class DelayBandwidthLimits(NamedTuple):
    """The largest frequency (Hz) of each reading at which a loop with ``delay`` s is still stable,
    and k = 1 / (f τ) (the limit written as f = 1/(k τ))."""

    delay: float
    zeta: float
    natural_hz: float
    minus_3db_hz: float
    crossover_hz: float
    k_natural: float
    k_minus_3db: float
    k_crossover: float


def pd_loop_bandwidths(omega_n, zeta) -> PDLoopBandwidths:
    """(ω_n, ω_b, ω_c) in rad/s of the PD loop with natural frequency ω_n (rad/s) > 0, damping ζ >= 0.

    ω_b: |T(jω_b)| = 1/√2 with T = (ω_n² + 2ζω_n s)/(s² + 2ζω_n s + ω_n²);
    ω_c: |L(jω_c)| = 1 with L = (ω_n² + 2ζω_n s)/s².

    >>> [round(w, 4) for w in pd_loop_bandwidths(1.0, 0.7)]
    [1.0, 2.049, 1.5428]
    """
    w, z = check.positive(omega_n, "omega_n"), check.nonnegative(zeta, "zeta")
    a = 1.0 + 2.0 * z * z
    wb = w * math.sqrt(a + math.hypot(a, 1.0))
    wc = w * math.sqrt(2.0 * z * z + math.hypot(2.0 * z * z, 1.0))
    check.finite_result((wb, wc), "bandwidth", "omega_n or zeta")
    return PDLoopBandwidths(w, wb, wc)


def delay_bandwidth_limits(delay, zeta=0.7) -> DelayBandwidthLimits:
    """The stability limit of a PD loop on a mass with loop delay ``delay`` (s) > 0 and damping
    ``zeta`` > 0 (without damping no delay is tolerated), read as a natural frequency, a −3 dB closed-loop bandwidth and a crossover (Hz).

    The limit is ω_n τ = ω_n τ_c(ω_n, ζ) (``kl.critical_delay``, scale-free); each reading is
    that ω_n times its ratio from :func:`pd_loop_bandwidths`, divided by 2π.

    >>> lim = delay_bandwidth_limits(0.01)
    >>> round(lim.k_natural, 2), round(lim.k_minus_3db, 2), round(lim.k_crossover, 2)
    (8.52, 4.16, 5.53)
    """
    tau, z = check.positive(delay, "delay"), check.positive(zeta, "zeta")
    wn_tau = critical_delay(1.0, z)  # ω_n τ_c for ω_n = 1: the limit is scale-free
    ratios = pd_loop_bandwidths(1.0, z)
    f = [wn_tau * r / (2.0 * math.pi * tau) for r in ratios]
    k = [1.0 / (fi * tau) for fi in f]
    check.finite_result((*f, *k), "bandwidth limits", "delay (too small) or zeta")
    return DelayBandwidthLimits(tau, z, *f, *k)

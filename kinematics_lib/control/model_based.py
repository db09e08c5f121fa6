"""Computed-torque control (计算力矩控制): feedback linearisation with one inverse-dynamics call.

With the error e = q_d - q (rad), the law

    tau = M(q) (a_d + Kd ė + Kp e) + C(q, q̇) q̇ + g(q) = RNEA(q, q̇, a_ref),  a_ref = a_d + Kd ė + Kp e

cancels the model, so on the *exact* plant every joint obeys ë + Kd ė + Kp e = 0 (document 001):
a linear, decoupled, configuration-independent second-order error with Kp = ω_n², Kd = 2 ζ ω_n
(:func:`pd_gains`) and the closed-form solution :func:`error_dynamics_solution`. The law needs
no M, C or g separately: RNEA evaluated at the reference acceleration a_ref *is* the torque.
In Pinocchio that is ``pinocchio::rnea(model, data, q, v, a_ref)`` -- a_ref is the fifth argument
(``a``), not the third as document 001's comment says (the third is q).

Units: gains Kp in 1/s², Kd in 1/s (they multiply accelerations, not torques); scalars or one
value per joint (nv,).
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from .. import _validate as check
from ..dynamics.algorithms import rnea
from ..dynamics.model import Model
from ._kernel import checked_floats, floats, make_law, reference_kernel
from .pid import _gain
from .plants import TwoLinkArm  # noqa: F401 (the doctests' arm)

__all__ = ["computed_torque", "computed_torque_controller", "pd_gains", "error_dynamics_solution"]


def _inverse_dynamics(model):
    """(nv, id(q, v, a)) of a fixed-base kl.Model (RNEA) or of a plant with ``inverse_dynamics``."""
    if isinstance(model, Model):
        if model.nq != model.nv:
            raise check.InputError("model must have a fixed base (nq == nv): the error q_d - q needs it")
        return model.nv, lambda q, v, a: rnea(model, q, v, a)
    if isinstance(getattr(model, "nv", None), int) and callable(getattr(model, "inverse_dynamics", None)):
        return model.nv, model.inverse_dynamics
    raise check.InputError(f"model must be a fixed-base kl.Model or a plant with nv and inverse_dynamics "
                           f"(e.g. kl.TwoLinkArm), got {check.describe(model)}")


def _gains(Kp, Kd, n: int):
    out = []
    for x, name in ((Kp, "Kp"), (Kd, "Kd")):
        g = _gain(x, name)
        if g.ndim == 1 and g.shape != (n,):
            raise check.InputError(f"{name} must be a scalar or have shape ({n},), one gain per joint, got {g.shape}")
        out.append(g)
    return out


def computed_torque(model, q, v, q_d, v_d, a_d, Kp, Kd) -> np.ndarray:
    """tau (nv,) N·m = RNEA(q, v, a_d + Kd (v_d - v) + Kp (q_d - q)): one inverse-dynamics call.

    model: a fixed-base ``kl.Model`` (or a plant with ``inverse_dynamics``, e.g. a deliberately
    wrong :class:`~kinematics_lib.TwoLinkArm`); q, v: measured state (nv,) rad, rad/s; q_d, v_d,
    a_d: desired position, velocity, acceleration (nv,); Kp (1/s²), Kd (1/s) >= 0.

    >>> arm = TwoLinkArm()
    >>> q = np.radians([30.0, 60.0])
    >>> tau = computed_torque(arm, q, np.zeros(2), q, np.zeros(2), np.zeros(2), 100.0, 20.0)
    >>> np.allclose(tau, arm.gravity(q))       # at rest on target: pure gravity compensation
    True
    """
    n, inverse_dynamics = _inverse_dynamics(model)
    q, v, q_d, v_d, a_d = (check.vector(x, n, name) for x, name in
                           ((q, "q"), (v, "v"), (q_d, "q_d"), (v_d, "v_d"), (a_d, "a_d")))
    Kp, Kd = _gains(Kp, Kd, n)
    a_ref = check.finite_result(a_d + Kd * (v_d - v) + Kp * (q_d - q), "a_ref", "Kp, Kd or the errors")
    return check.finite_result(np.asarray(inverse_dynamics(q, v, a_ref), dtype=float), "tau",
                               "q, v or the reference acceleration")


def computed_torque_controller(model, reference: Callable, Kp, Kd) -> Callable:
    """A control law ``law(t, q, v) -> tau`` for ``kl.simulate_sampled`` / ``simulate_continuous``.

    reference(t) -> (q_d, v_d, a_d) (e.g. ``kl.sine_reference``); ``model`` is the controller's
    *belief* -- pass ``arm.with_masses(1.2)`` to control the true ``arm`` with a 20 % mass error.
    """
    n, inverse_dynamics = _inverse_dynamics(model)
    if not callable(reference):
        raise check.InputError(f"reference must be a callable reference(t) -> (q_d, v_d, a_d), got {reference!r}")
    kp, kd = (floats(g, n) for g in _gains(Kp, Kd, n))
    ref = reference_kernel(reference, n)
    id_kernel = getattr(model, "_id", None) or (lambda q, v, a: checked_floats(
        inverse_dynamics(np.array(q), np.array(v), np.array(a)), n, "inverse_dynamics"))

    def kernel(t, q, v):
        q_d, v_d, a_d = ref(t)
        a = tuple(ad + g * (vd - vj) + p * (qd - qj) for ad, g, vd, vj, p, qd, qj in zip(a_d, kd, v_d, v, kp, q_d, q))
        return id_kernel(q, v, a)

    return make_law(kernel, n)


def pd_gains(omega_n, zeta) -> tuple[float, float]:
    """(Kp, Kd) = (ω_n², 2 ζ ω_n) so that ë + Kd ė + Kp e = 0 has natural frequency ω_n (rad/s) and
    damping ratio ζ (-): the poles are ω_n (-ζ ± sqrt(ζ² - 1)).

    >>> pd_gains(30.0, 1.0)          # document 001's typical computed-torque tuning
    (900.0, 60.0)
    """
    w, z = check.positive(omega_n, "omega_n"), check.nonnegative(zeta, "zeta")
    return check.finite_result((w * w, 2.0 * z * w), "gains", "omega_n or zeta")


def error_dynamics_solution(e0, de0, Kp, Kd, t) -> np.ndarray:
    """e(t) of ë + Kd ė + Kp e = 0 with e(0) = e0, ė(0) = de0, in closed form (every damping).

    e(t) = exp(σt) [e0 c(t) + (de0 - σ e0) s(t)], σ = -Kd/2, w = sqrt(Kd²/4 - Kp) (complex when
    under-damped), c = cosh(w t), s = sinh(w t)/w (= t when critically damped). e0, de0, Kp, Kd:
    scalars or (n,) per joint; t (N,) s. Returns (N,) or (N, n).

    >>> float(np.round(error_dynamics_solution(1.0, 0.0, 100.0, 20.0, [0.1])[0], 6))  # (1 + 10t) e^{-10t}
    0.735759
    """
    tt = check.vector(np.atleast_1d(check._array(t, "t")), None, "t")
    if tt.size == 0:
        raise check.InputError("t must hold at least one time (s)")
    e0, de0 = check._finite(check._array(e0, "e0"), "e0"), check._finite(check._array(de0, "de0"), "de0")
    Kp, Kd = _gain(Kp, "Kp"), _gain(Kd, "Kd")
    try:
        shape = np.broadcast_shapes(e0.shape, de0.shape, Kp.shape, Kd.shape)
    except ValueError:
        raise check.InputError("e0, de0, Kp and Kd must be scalars or vectors of one length") from None
    if len(shape) > 1:
        raise check.InputError(f"e0, de0, Kp and Kd must be scalars or vectors (n,), got shape {shape}")
    T = tt.reshape(-1, *([1] * len(shape)))
    sigma = -0.5 * Kd
    w = np.sqrt((0.25 * Kd * Kd - Kp).astype(complex))
    wt = w * T
    small = np.abs(w) * np.maximum(np.abs(T), 1e-300) < 1e-8
    s = np.where(small, T * (1.0 + wt * wt / 6.0), np.sinh(wt) / np.where(w == 0, 1.0, w))
    with np.errstate(over="ignore", invalid="ignore"):
        e = (np.exp(sigma * T) * (e0 * np.cosh(wt) + (de0 - sigma * e0) * s)).real
    return check.finite_result(e, "e(t)", "t, Kp or Kd (a growing solution)")

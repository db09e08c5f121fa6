"""A simulated identification experiment: measure, process, build the regressor, compare with the truth.

The four steps of document 001's procedure, on a simulated robot whose true parameters we know:

1. excite: a :class:`~kinematics_lib.identification.excitation.FourierTrajectory`;
2. measure (:func:`measure_trajectory`): sample q and tau at ``rate`` Hz; tau from RNEA plus
   Coulomb + viscous joint friction; Gaussian noise on both (encoder and current noise);
3. process (:func:`process_measurements`): zero-phase low-pass filter q and tau alike, then
   differentiate q twice;
4. regress (:func:`identification_data`): base-parameter columns of the rigid-body regressor
   next to the friction columns, theta = [beta; f_v1, f_c1, ...], filtered like tau, trimmed
   and decimated; then least squares.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import _validate as check
from .excitation import FourierTrajectory
from .friction import coulomb_viscous_friction, friction_regressor
from .identifiability import BaseParameters
from .regressor import _batch, _regressor, inertial_parameters, joint_torque_regressor
from .signals import add_noise, central_difference, lowpass_zero_phase

__all__ = ["Measurements", "measure_trajectory", "process_measurements", "identification_regressor",
           "identification_data", "true_identification_parameters"]


@dataclass(frozen=True)
class Measurements:
    """Samples (T,) and (T, n): t (s), q (rad), v (rad/s), a (rad/s^2), tau (N m).

    From :func:`measure_trajectory` q and tau are the noisy measurements and v, a the true
    derivatives (unknown to an experimenter); from :func:`process_measurements` all are estimates.
    """

    t: np.ndarray
    q: np.ndarray
    v: np.ndarray
    a: np.ndarray
    tau: np.ndarray


def _friction_params(x, n: int, name: str) -> np.ndarray:
    a = check._array(x, name)
    a = np.full(n, float(a)) if a.shape == () else check.vector(a, n, name)
    check._finite(a, name)
    if np.any(a < 0):
        raise check.InputError(f"{name} must be >= 0")
    return a


def measure_trajectory(model, trajectory: FourierTrajectory, duration: float, rate: float = 1000.0, f_v=0.0,
                       f_c=0.0, q_noise=0.0, tau_noise=0.0, rng=None) -> Measurements:
    """Sample a robot following ``trajectory`` for ``duration`` s at ``rate`` Hz (document 001: 1 kHz).

    tau = rnea(q, v, a) + f_v v + f_c sign(v) (per joint f_v, f_c >= 0, scalars or (n,));
    q_noise (rad) and tau_noise (N m): standard deviations (scalars or (n,)) of white Gaussian
    noise added to q and tau (needs rng). At most 10^6 samples.
    """
    check.model(model)
    check.instance(trajectory, FourierTrajectory, "trajectory")
    if trajectory.q0.shape[0] != model.nv or model.floating_base:
        raise check.InputError(f"trajectory must move the {model.nv} joints of a fixed-base model")
    fs = check.positive(rate, "rate")
    n_samples = check.integer(round(check.positive(duration, "duration") * fs), "duration * rate", 10, 10**6)
    t = np.arange(n_samples) / fs
    q, v, a = trajectory(t)
    fv, fc = _friction_params(f_v, model.nv, "f_v"), _friction_params(f_c, model.nv, "f_c")
    s_q, s_tau = _friction_params(q_noise, model.nv, "q_noise"), _friction_params(tau_noise, model.nv, "tau_noise")
    tau = joint_torque_regressor(model, q, v, a) @ inertial_parameters(model) + coulomb_viscous_friction(v, fc, fv)
    if np.any(s_q != 0) or np.any(s_tau != 0):
        check.rng(rng)
        q, tau = add_noise(q, s_q, rng), add_noise(tau, s_tau, rng)
    return Measurements(t, q, v, a, tau)


def process_measurements(raw: Measurements, cutoff: float = 15.0, order: int = 4) -> Measurements:
    """Filter q and tau with the same zero-phase Butterworth low-pass (``cutoff`` Hz, ``order``),
    then differentiate the filtered q twice by central differences. Full rate, all samples.

    Only raw.t, raw.q and raw.tau are used (not the true derivatives). Document 001: 10-20 Hz.
    """
    check.instance(raw, Measurements, "raw")
    dt = float(raw.t[1] - raw.t[0])
    q = lowpass_zero_phase(raw.q, 1.0 / dt, cutoff, order)
    tau = lowpass_zero_phase(raw.tau, 1.0 / dt, cutoff, order)
    v = central_difference(q, dt)
    return Measurements(raw.t, q, v, central_difference(v, dt), tau)


def identification_regressor(model, base: BaseParameters, q, v, a, friction: bool = True) -> np.ndarray:
    """W (T, n, r [+ 2n]): the base-parameter columns of Y(q, v, a), then (friction=True) the
    Coulomb + viscous columns [v_j, sign(v_j)] of each joint. theta = [beta; f_v1, f_c1, ...]."""
    check.instance(base, BaseParameters, "base")
    Q, V, A, single = _batch(check.model(model), q, v, a, names=("q", "v", "a"))
    Y = check.finite_result(_regressor(model, Q, V, A), "the regressor", "q, v, a")
    Y = base.regressor(Y[0] if single else Y)
    return np.concatenate([Y, friction_regressor(v)], axis=-1) if check.flag(friction, "friction") else Y


def identification_data(model, base: BaseParameters, data: Measurements, cutoff: float = 15.0, order: int = 4,
                        decimate: int = 10, trim: float = 0.2, friction: bool = True, parallel: bool = True):
    """(W (T', n, p), tau (T', n)): the regressor and torques handed to least squares.

    W is built at full rate from the processed states (:func:`identification_regressor`); with
    ``parallel=True`` its columns pass through the same low-pass as tau did ("parallel
    filtering": tau_f = F[W] theta holds exactly because the filter is linear -- without it the
    smoothed Coulomb jumps in tau no longer match sign(v) in W, and the friction is biased).
    Then ``trim`` s are dropped at both ends (filter transients) and every ``decimate``-th
    sample kept (the signals are band-limited, so decimating loses nothing but time).
    """
    check.instance(data, Measurements, "data")
    dt = float(data.t[1] - data.t[0])
    step = check.integer(decimate, "decimate", 1, 1000)
    edge = check.integer(round(check.nonnegative(trim, "trim") / dt), "trim / dt", 0, data.t.shape[0] // 3)
    W = identification_regressor(model, base, data.q, data.v, data.a, friction)
    if check.flag(parallel, "parallel"):
        W = lowpass_zero_phase(W.reshape(W.shape[0], -1), 1.0 / dt, cutoff, order).reshape(W.shape)
    keep = slice(edge, data.t.shape[0] - edge, step)
    return W[keep], data.tau[keep]


def true_identification_parameters(model, base: BaseParameters, f_v=0.0, f_c=0.0, friction: bool = True) -> np.ndarray:
    """theta = [beta; f_v1, f_c1, ..., f_vn, f_cn]: the true values of :func:`identification_regressor`'s columns."""
    check.instance(base, BaseParameters, "base")
    beta = base.base(inertial_parameters(check.model(model)))
    if not check.flag(friction, "friction"):
        return beta
    fv, fc = _friction_params(f_v, model.nv, "f_v"), _friction_params(f_c, model.nv, "f_c")
    return np.concatenate([beta, np.column_stack([fv, fc]).ravel()])

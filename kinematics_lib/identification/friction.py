"""Joint friction models (摩擦模型): Coulomb + viscous, Stribeck, and the dynamic LuGre model.

Document 001 lists three models of the friction torque tau_f in M qdd + C qd + g + tau_f = tau:

1. Coulomb + viscous (库仑 + 粘滞):  tau_f = f_v v + f_c sign(v)   (2 parameters);
2. Stribeck (斯特里贝克):  tau_f = f_v v + [f_c + (f_s - f_c) exp(-|v / v_s|^delta)] sign(v)
   (5 parameters f_c, f_s, f_v, v_s, delta);
3. LuGre (Canudas de Wit et al. 1995): an internal bristle deflection z (rad or m) with

       dz/dt = v - sigma0 |v| z / g(v),     g(v) = f_c + (f_s - f_c) exp(-(v / v_s)^2),
       tau_f = sigma0 z + sigma1 dz/dt + sigma2 v        (6 parameters).

   The document gives only the first line: the Stribeck curve g(v) and the output equation are
   the missing pieces. In steady sliding dz/dt = 0, z = sign(v) g(v) / sigma0, and tau_f =
   g(v) sign(v) + sigma2 v: the Stribeck model with delta = 2 and f_v = sigma2.

Units: v in rad/s (or m/s), torques in N m (or N), sigma0 in N m/rad, sigma1 in N m s/rad.
sign(0) = 0: the static models give no torque at rest (sticking needs the dynamic model or a
separate stick logic).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import _validate as check
from ..control.pid import PID

__all__ = ["coulomb_viscous_friction", "stribeck_friction", "LuGre", "friction_regressor", "FrictionLoop",
           "simulate_friction_loop"]


def _values(x, name: str) -> np.ndarray:
    """A finite float array (scalar or any shape)."""
    return check._finite(check._array(x, name), name)


def _nonnegative(x, name: str) -> np.ndarray:
    a = _values(x, name)
    if np.any(a < 0):
        raise check.InputError(f"{name} must be >= 0 (a friction parameter), got {x!r}")
    return a


def _positive(x, name: str) -> np.ndarray:
    a = _values(x, name)
    if np.any(a <= 0):
        raise check.InputError(f"{name} must be > 0, got {x!r}")
    return a


def _out(x: np.ndarray):
    return float(x) if np.ndim(x) == 0 else x


def _broadcast(*arrays, names):
    try:
        return np.broadcast_arrays(*arrays)
    except ValueError:
        raise check.InputError(f"{', '.join(names)} must broadcast together, got shapes "
                               f"{', '.join(str(np.shape(a)) for a in arrays)}") from None


def coulomb_viscous_friction(v, f_c, f_v):
    """tau_f = f_v v + f_c sign(v)  (document 001, model 1): Coulomb (库仑) plus viscous (粘滞) friction.

    v: velocity (rad/s), scalar or array; f_c >= 0 (N m), f_v >= 0 (N m s/rad), scalars or
    arrays broadcasting with v (e.g. one per joint). Returns the friction torque, shaped like v.

    >>> coulomb_viscous_friction(0.5, f_c=1.0, f_v=0.2)
    1.1
    """
    v, f_c, f_v = _values(v, "v"), _nonnegative(f_c, "f_c"), _nonnegative(f_v, "f_v")
    _broadcast(v, f_c, f_v, names=("v", "f_c", "f_v"))
    return _out(check.finite_result(f_v * v + f_c * np.sign(v), "tau_f", "v, f_c, f_v"))


def stribeck_friction(v, f_c, f_s, f_v, v_s, delta: float = 2.0):
    """tau_f = f_v v + [f_c + (f_s - f_c) exp(-|v / v_s|^delta)] sign(v)  (document 001, model 2).

    f_c Coulomb level and f_s static (breakaway) level (N m, >= 0), f_v viscous coefficient
    (N m s/rad, >= 0), v_s Stribeck velocity (rad/s, > 0), delta shape exponent (> 0; 2 is
    Gaussian, the LuGre steady state). At |v| << v_s the torque approaches f_s, at |v| >> v_s
    the Coulomb + viscous line. Shaped like v (parameters broadcast with it).

    >>> round(stribeck_friction(0.05, f_c=1.0, f_s=1.5, f_v=0.05, v_s=0.1), 13)
    1.3919003915357
    """
    v = _values(v, "v")
    f_c, f_s, f_v = _nonnegative(f_c, "f_c"), _nonnegative(f_s, "f_s"), _nonnegative(f_v, "f_v")
    v_s, delta = _positive(v_s, "v_s"), _positive(delta, "delta")
    _broadcast(v, f_c, f_s, f_v, v_s, delta, names=("v", "f_c", "f_s", "f_v", "v_s", "delta"))
    with np.errstate(over="ignore"):  # |v / v_s|^delta -> inf only makes the exponential 0
        level = f_c + (f_s - f_c) * np.exp(-np.abs(v / v_s) ** delta)
    return _out(check.finite_result(f_v * v + level * np.sign(v), "tau_f", "v, f_c, f_s, f_v"))


@dataclass(frozen=True)
class LuGre:
    """The LuGre dynamic friction model with all its pieces (the bristle model of Canudas de Wit).

    sigma0: bristle stiffness (N m/rad, > 0); sigma1: bristle damping (N m s/rad, >= 0);
    sigma2: viscous coefficient (N m s/rad, >= 0); f_c, f_s: Coulomb and static levels
    (N m, > 0); v_s: Stribeck velocity (rad/s, > 0).

        g(v)    = f_c + (f_s - f_c) exp(-(v / v_s)^2)          the Stribeck curve (N m)
        dz/dt   = v - sigma0 |v| z / g(v)                       bristle deflection z (rad)
        tau_f   = sigma0 z + sigma1 dz/dt + sigma2 v            the friction torque (N m)

    For |v| small the bristles act as a spring of stiffness sigma0 (pre-sliding, 预滑移): a
    reversal of small motion gives a hysteresis loop instead of Coulomb's jump.
    """

    sigma0: float
    sigma1: float
    sigma2: float
    f_c: float
    f_s: float
    v_s: float

    def __post_init__(self):
        for name in ("sigma0", "f_c", "f_s", "v_s"):
            object.__setattr__(self, name, check.positive(getattr(self, name), name))
        for name in ("sigma1", "sigma2"):
            value = check.scalar(getattr(self, name), name)
            if value < 0:
                raise check.InputError(f"{name} must be >= 0, got {value}")
            object.__setattr__(self, name, value)

    def g(self, v):
        """The Stribeck curve g(v) = f_c + (f_s - f_c) exp(-(v / v_s)^2) > 0 (N m)."""
        v = _values(v, "v")
        with np.errstate(over="ignore"):
            return _out(self.f_c + (self.f_s - self.f_c) * np.exp(-(v / self.v_s) ** 2))

    def z_rate(self, z, v):
        """dz/dt = v - sigma0 |v| z / g(v) (rad/s): the document's one line."""
        z, v = _values(z, "z"), _values(v, "v")
        return _out(check.finite_result(v - self.sigma0 * np.abs(v) * z / self.g(v), "dz/dt", "z, v"))

    def force(self, z, v):
        """tau_f = sigma0 z + sigma1 dz/dt + sigma2 v (N m): the output equation the document omits."""
        z, v = _values(z, "z"), _values(v, "v")
        out = self.sigma0 * z + self.sigma1 * self.z_rate(z, v) + self.sigma2 * v
        return _out(check.finite_result(out, "tau_f", "z, v"))

    def steady_state(self, v):
        """tau_f at constant v after the bristles settle: g(v) sign(v) + sigma2 v (= Stribeck, delta = 2)."""
        v = _values(v, "v")
        return _out(check.finite_result(self.g(v) * np.sign(v) + self.sigma2 * v, "tau_f", "v"))

    def step(self, z: float, v: float, dt: float) -> float:
        """z after dt (s) at constant velocity v: exact, z_ss + (z - z_ss) exp(-sigma0 |v| dt / g(v)).

        Unconditionally stable however stiff the bristles (z_ss = sign(v) g(v) / sigma0).
        """
        z, v, dt = check.scalar(z, "z"), check.scalar(v, "v"), check.positive(dt, "dt")
        return check.finite_result(self._step(z, v, dt), "z", "z, v, dt")

    def _g(self, v: float) -> float:
        r = v / self.v_s
        return self.f_c + (self.f_s - self.f_c) * (math.exp(-r * r) if abs(r) < 40.0 else 0.0)

    def _force(self, z: float, v: float) -> float:
        """tau_f for floats (no checks): sigma0 z + sigma1 (v - sigma0 |v| z / g) + sigma2 v."""
        return self.sigma0 * z + self.sigma1 * (v - self.sigma0 * abs(v) * z / self._g(v)) + self.sigma2 * v

    def _step(self, z: float, v: float, dt: float) -> float:
        gv = self._g(v)
        z_ss = math.copysign(gv / self.sigma0, v) if v != 0.0 else z
        return z_ss + (z - z_ss) * math.exp(-self.sigma0 * abs(v) * dt / gv)

    def simulate(self, v, dt: float, z0: float = 0.0):
        """(z, tau_f), each (T,), along a velocity history v (T,) sampled every dt seconds.

        z[k] and tau_f[k] are at sample k; v is held constant over each step.
        """
        v = check.vector(v, None, "v")
        dt, z = check.positive(dt, "dt"), check.scalar(z0, "z0")
        zs = np.empty(v.shape[0])
        for k, vk in enumerate(v):
            zs[k] = z
            z = self._step(z, float(vk), dt)
        check.finite_result(zs, "z", "v, dt, z0")
        return zs, np.asarray(self.force(zs, v))


def friction_regressor(v) -> np.ndarray:
    """Y_f (n, 2n) with Y_f @ [f_v1, f_c1, ..., f_vn, f_cn] = the Coulomb + viscous torques per joint.

    Row j holds v_j and sign(v_j) in columns 2j, 2j + 1. v (n,) -> (n, 2n); a stack (N, n) ->
    (N, n, 2n). Appended to the rigid-body regressor it identifies friction jointly with the
    inertial parameters (the friction model is linear in f_v and f_c).
    """
    V = _values(v, "v")
    if V.ndim not in (1, 2) or V.shape[-1] == 0:
        raise check.InputError(f"v must have shape (n,) or (N, n), got {V.shape}")
    n = V.shape[-1]
    out = np.zeros(V.shape + (2 * n,))
    idx = np.arange(n)
    out[..., idx, 2 * idx] = V
    out[..., idx, 2 * idx + 1] = np.sign(V)
    return out


@dataclass(frozen=True)
class FrictionLoop:
    """A PID-controlled joint with LuGre friction, sampled at the control rate (arrays (T,)).

    t (s); q, v: joint angle and velocity (rad, rad/s); q_d, v_d: the reference; tau: the
    commanded torque (N m), tau_f: the friction torque, z: the bristle deflection (rad).
    """

    t: np.ndarray
    q: np.ndarray
    v: np.ndarray
    q_d: np.ndarray
    v_d: np.ndarray
    tau: np.ndarray
    tau_f: np.ndarray
    z: np.ndarray

    @property
    def error(self) -> np.ndarray:
        """Tracking error q_d - q (rad)."""
        return self.q_d - self.q


def simulate_friction_loop(inertia: float, friction: LuGre, pid: PID, amplitude: float, frequency: float,
                           t_final: float, dt: float = 1e-3, compensation=None, substeps: int = 10) -> FrictionLoop:
    """A joint J qdd = tau - tau_f tracking q_d = A sin(2 pi f t) with a PID and LuGre friction.

    Every dt (s) the controller computes tau = pid.step(q_d - q, v, dt, velocity_ref = v_d,
    feedforward = J a_d + compensation(v_d)); compensation: None, a function of the *desired*
    velocity, e.g. ``lambda v: kl.stribeck_friction(v, ...)``, or a :class:`LuGre` whose steady
    state (Stribeck, delta = 2) is used -- model-based friction feed-forward (摩擦补偿). The plant runs ``substeps`` semi-implicit Euler steps per control
    period, the bristle state z advancing exactly (:meth:`LuGre.step`). inertia J (kg m^2) > 0;
    amplitude A (rad), frequency f (Hz) > 0; at most 10^6 plant steps. The PID is reset first.
    """
    J = check.positive(inertia, "inertia")
    check.instance(friction, LuGre, "friction")
    check.instance(pid, PID, "pid")
    A, f = check.positive(amplitude, "amplitude"), check.positive(frequency, "frequency")
    dt, T = check.positive(dt, "dt"), check.positive(t_final, "t_final")
    if f * dt >= 0.5:
        raise check.InputError(f"frequency must be below the control loop's Nyquist frequency 1 / (2 dt) = "
                               f"{0.5 / dt:g} Hz, got {f:g} Hz")
    m = check.integer(substeps, "substeps", 1, 1000)
    n = check.integer(round(T / dt), "t_final / dt", 1, 10**6 // m)
    if isinstance(compensation, LuGre):
        model = compensation
        compensation = lambda vd: math.copysign(model._g(vd), vd) * (vd != 0.0) + model.sigma2 * vd  # noqa: E731
    elif compensation is not None:
        check.function(compensation, "compensation")
    pid.gains(1)  # one joint (InputError for a PID of several)
    pid.reset()
    w, h = 2.0 * np.pi * f, dt / m
    out = np.zeros((8, n))
    q, v, z = 0.0, A * w, 0.0  # start on the reference (q_d(0) = 0, v_d(0) = A w)
    for k in range(n):
        t = k * dt
        q_d, v_d, a_d = A * math.sin(w * t), A * w * math.cos(w * t), -A * w * w * math.sin(w * t)
        ff = J * a_d + (0.0 if compensation is None else float(compensation(v_d)))
        tau = pid.update((q_d - q,), (v,), dt, (v_d,), (ff,))[0]  # the PID law, unchecked (inputs checked above)
        out[:, k] = (t, q, v, q_d, v_d, tau, friction._force(z, v), z)
        for _ in range(m):  # the plant between two control samples (zero-order hold on tau)
            tau_f = friction._force(z, v)
            z = friction._step(z, v, h)
            v += h * (tau - tau_f) / J
            q += h * v
        if not (math.isfinite(q) and math.isfinite(v)):
            raise check.InputError("the simulation diverged: reduce dt or the gains (pid), or raise substeps")
    return FrictionLoop(*out)

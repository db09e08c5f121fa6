"""Plants (被控对象) for control simulations: M(q) q̈ + C(q, q̇) q̇ + g(q) + tau_f(q̇) = tau + tau_ext.

A plant is anything with ``nv`` and ``forward_dynamics(q, v, tau) -> q̈``; the controllers of this
layer also use ``inverse_dynamics``, ``mass_matrix``, ``bias`` and ``gravity``.

* :class:`TwoLinkArm` -- the planar two-link arm of document 004 (point masses m1 at the elbow and
  m2 + payload at the tip, gravity along -y), in closed form: fast enough for slider callbacks,
  and checked against ``kl.crba``/``kl.rnea`` on :meth:`TwoLinkArm.model` by the tests.
* :class:`JointInertia` -- n decoupled rigid joints J_i q̈_i = tau_i (no gravity).
* :class:`ModelPlant` -- any fixed-base ``kl.Model`` through ABA/RNEA/CRBA (general, slower).

``friction``: an optional callable tau_f(v) -> (nv,) (N·m), e.g. viscous ``lambda v: 0.1 * v``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from .. import _validate as check
from ..dynamics.algorithms import aba, crba, gravity_torque, nonlinear_effects, rnea
from ..dynamics.builders import planar_chain_model
from ..dynamics.model import Model

__all__ = ["TwoLinkArm", "JointInertia", "ModelPlant"]


def _state(x, n: int, name: str) -> np.ndarray:
    """Fast check of a float state vector (n,): the hot path of the simulations."""
    a = np.asarray(x, dtype=float)
    if a.shape != (n,) or not np.isfinite(a).all():
        return check.vector(x, n, name)  # raises with the standard message
    return a


def _friction(friction, v: np.ndarray) -> np.ndarray | float:
    return 0.0 if friction is None else np.asarray(friction(v), dtype=float)


@dataclass(frozen=True)
class TwoLinkArm:
    """Planar 2R arm in a vertical plane: q1 from the x axis, q2 relative (elbow), rad.

    Point masses m1 at the elbow and m2 + payload at the tip (kg), massless links l1, l2 (m),
    gravity g (m/s²) along -y, optional friction tau_f(v). Closed form (document 004, L = T - V):

        M = [[(m1+m2) l1² + m2 l2² + 2 m2 l1 l2 c2,  m2 l2² + m2 l1 l2 c2], [., m2 l2²]]
        C q̇ = m2 l1 l2 s2 [-(2 q̇1 q̇2 + q̇2²), q̇1²],   g = g [(m1+m2) l1 c1 + m2 l2 c12, m2 l2 c12]

    >>> arm = TwoLinkArm()                  # document 004: l1 = l2 = 1, m1 = 2, m2 = 1
    >>> arm.mass_matrix(np.radians([30.0, 60.0]))
    array([[5. , 1.5],
           [1.5, 1. ]])
    """

    l1: float = 1.0
    l2: float = 1.0
    m1: float = 2.0
    m2: float = 1.0
    payload: float = 0.0
    g: float = 9.81
    friction: Callable | None = None

    nv = 2

    def __post_init__(self):
        for name in ("l1", "l2"):
            check.positive(getattr(self, name), name)
        for name in ("m1", "payload", "g"):
            if check.scalar(getattr(self, name), name) < 0.0:
                raise check.InputError(f"{name} must be non-negative, got {getattr(self, name)}")
        check.positive(self.m2, "m2")  # a massless tip would make M singular
        if self.friction is not None and not callable(self.friction):
            raise check.InputError("friction must be a callable tau_f(v) or None")

    @property
    def tip_mass(self) -> float:
        return self.m2 + self.payload

    def model(self) -> Model:
        """The same arm as a ``kl.Model`` (planar chain, point masses at the link ends)."""
        return planar_chain_model([self.l1, self.l2], [self.m1, self.tip_mass], gravity=(0.0, -self.g, 0.0))

    def with_masses(self, scale: float) -> "TwoLinkArm":
        """The arm with every mass (and the payload) multiplied by ``scale`` > 0: a wrong model."""
        s = check.positive(scale, "scale")
        return TwoLinkArm(self.l1, self.l2, s * self.m1, s * self.m2, s * self.payload, self.g, self.friction)

    # -- the terms, unchecked (the simulations' inner loop) -------------------------------------
    def _M(self, q):
        m2, l1, l2 = self.tip_mass, self.l1, self.l2
        c2 = math.cos(q[1])
        m22 = m2 * l2 * l2
        m12 = m22 + m2 * l1 * l2 * c2
        m11 = (self.m1 + m2) * l1 * l1 + m22 + 2.0 * m2 * l1 * l2 * c2
        return m11, m12, m22

    def _h(self, q, v):
        m2, l1, l2, g = self.tip_mass, self.l1, self.l2, self.g
        s2, c1, c12 = math.sin(q[1]), math.cos(q[0]), math.cos(q[0] + q[1])
        k = m2 * l1 * l2 * s2
        g2 = m2 * g * l2 * c12
        return (-k * (2.0 * v[0] * v[1] + v[1] * v[1]) + (self.m1 + m2) * g * l1 * c1 + g2, k * v[0] * v[0] + g2)

    def _fd(self, q, v, tau):
        m11, m12, m22 = self._M(q)
        h1, h2 = self._h(q, v)
        r = np.asarray(tau, dtype=float) - (h1, h2) - _friction(self.friction, v)
        det = m11 * m22 - m12 * m12
        return np.array([(m22 * r[0] - m12 * r[1]) / det, (m11 * r[1] - m12 * r[0]) / det])

    # -- the public, checked interface ------------------------------------------------------------
    def mass_matrix(self, q) -> np.ndarray:
        """M(q) (2, 2), kg·m²."""
        m11, m12, m22 = self._M(_state(q, 2, "q"))
        return np.array([[m11, m12], [m12, m22]])

    def bias(self, q, v) -> np.ndarray:
        """h = C(q, q̇) q̇ + g(q) (2,), N·m (friction not included)."""
        return np.array(self._h(_state(q, 2, "q"), _state(v, 2, "v")))

    def gravity(self, q) -> np.ndarray:
        """g(q) (2,), N·m: the torques that hold the arm still."""
        return np.array(self._h(_state(q, 2, "q"), np.zeros(2)))

    def inverse_dynamics(self, q, v, a) -> np.ndarray:
        """tau = M(q) a + C q̇ + g (2,), N·m (friction not included)."""
        return self.mass_matrix(q) @ _state(a, 2, "a") + self.bias(q, v)

    def forward_dynamics(self, q, v, tau) -> np.ndarray:
        """q̈ = M⁻¹ (tau - C q̇ - g - tau_f(q̇)) (2,), rad/s²."""
        return self._fd(_state(q, 2, "q"), _state(v, 2, "v"), _state(tau, 2, "tau"))

    def tip(self, q) -> np.ndarray:
        """Tip position (x, y) in m."""
        q = _state(q, 2, "q")
        return np.array([self.l1 * math.cos(q[0]) + self.l2 * math.cos(q[0] + q[1]),
                         self.l1 * math.sin(q[0]) + self.l2 * math.sin(q[0] + q[1])])

    def jacobian(self, q) -> np.ndarray:
        """J (2, 2): tip velocity (ẋ, ẏ) = J q̇ (world axes)."""
        q = _state(q, 2, "q")
        s1, c1, s12, c12 = math.sin(q[0]), math.cos(q[0]), math.sin(q[0] + q[1]), math.cos(q[0] + q[1])
        return np.array([[-self.l1 * s1 - self.l2 * s12, -self.l2 * s12], [self.l1 * c1 + self.l2 * c12, self.l2 * c12]])

    def jacobian_dot_v(self, q, v) -> np.ndarray:
        """J̇ q̇ (2,), m/s²: the tip acceleration at q̈ = 0 (centripetal terms)."""
        q, v = _state(q, 2, "q"), _state(v, 2, "v")
        w1, w12 = v[0] ** 2, (v[0] + v[1]) ** 2
        a, b = q[0], q[0] + q[1]
        return -np.array([self.l1 * math.cos(a) * w1 + self.l2 * math.cos(b) * w12,
                          self.l1 * math.sin(a) * w1 + self.l2 * math.sin(b) * w12])


@dataclass(frozen=True)
class JointInertia:
    """n decoupled rigid joints J_i q̈_i + tau_f,i(q̇) = tau_i (inertia (n,) in kg·m², no gravity)."""

    inertia: tuple
    friction: Callable | None = None

    def __post_init__(self):
        J = check.vector(np.atleast_1d(check._array(self.inertia, "inertia")), None, "inertia")
        if J.size == 0:
            raise check.InputError("inertia must hold at least one joint inertia (kg·m²)")
        if np.any(J <= 0.0):
            raise check.InputError(f"inertia must be positive, got {J}")
        object.__setattr__(self, "inertia", tuple(float(x) for x in J))
        if self.friction is not None and not callable(self.friction):
            raise check.InputError("friction must be a callable tau_f(v) or None")

    @property
    def nv(self) -> int:
        return len(self.inertia)

    def _fd(self, q, v, tau):
        return (np.asarray(tau, dtype=float) - _friction(self.friction, v)) / np.array(self.inertia)

    def forward_dynamics(self, q, v, tau) -> np.ndarray:
        n = self.nv
        return self._fd(_state(q, n, "q"), _state(v, n, "v"), _state(tau, n, "tau"))

    def mass_matrix(self, q) -> np.ndarray:
        _state(q, self.nv, "q")
        return np.diag(self.inertia)

    def gravity(self, q) -> np.ndarray:
        _state(q, self.nv, "q")
        return np.zeros(self.nv)

    def bias(self, q, v) -> np.ndarray:
        _state(q, self.nv, "q"), _state(v, self.nv, "v")
        return np.zeros(self.nv)

    def inverse_dynamics(self, q, v, a) -> np.ndarray:
        return np.array(self.inertia) * _state(a, self.nv, "a") + self.bias(q, v)


class ModelPlant:
    """A fixed-base ``kl.Model`` as a plant: ABA for forward dynamics, RNEA for inverse dynamics."""

    def __init__(self, model: Model, friction: Callable | None = None):
        if not isinstance(model, Model):
            raise check.InputError(f"model must be a kl.Model, got {type(model).__name__}")
        if model.nq != model.nv:
            raise check.InputError("model must have a fixed base (nq == nv) for these controllers")
        if friction is not None and not callable(friction):
            raise check.InputError("friction must be a callable tau_f(v) or None")
        self.model, self.friction, self.nv = model, friction, model.nv

    def _fd(self, q, v, tau):
        return aba(self.model, q, v, np.asarray(tau, dtype=float) - _friction(self.friction, v))

    def forward_dynamics(self, q, v, tau) -> np.ndarray:
        return self._fd(q, v, _state(tau, self.nv, "tau"))

    def mass_matrix(self, q) -> np.ndarray:
        return crba(self.model, q)

    def bias(self, q, v) -> np.ndarray:
        return nonlinear_effects(self.model, q, v)

    def gravity(self, q) -> np.ndarray:
        return gravity_torque(self.model, q)

    def inverse_dynamics(self, q, v, a) -> np.ndarray:
        return rnea(self.model, q, v, a)

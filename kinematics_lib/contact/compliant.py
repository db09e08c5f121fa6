"""Compliant (penalty) contact (柔顺接触): a spring-damper wall that pushes back on what enters it.

Chapter 7 treats contact as rigid: a constraint and a complementarity problem (LCP). The compliant
model is the other classic: the wall is a stiff spring k in parallel with a damper d, its force a
function of the penetration δ and its rate δ̇ alone (Kelvin–Voigt), so no constraint is solved;
the price is a stiff ODE (a small step for a large k). Chapter 10's force and impedance control
press a planar arm's tip on such a wall (its control laws read the force; the scenario
``kl.simulate_wall_contact`` runs them).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import _validate as check

__all__ = ["Wall"]


@dataclass(frozen=True)
class Wall:
    """A vertical spring-damper wall: the half-plane x > ``position`` (m) is inside it.

    With the penetration δ = x − position > 0 the wall pushes the tip back along −x with
    F_x = −max(0, k δ + d δ̇) (it pushes, never pulls); outside it exerts nothing.
    stiffness k (N/m) > 0, damping d (N·s/m) >= 0.

    >>> Wall(1.5, 1000.0, 10.0).force([1.51, 0.0], [0.1, 0.0])    # 1000*0.01 + 10*0.1 = 11 N
    array([-11.,   0.])
    """

    position: float = 1.5
    stiffness: float = 5000.0
    damping: float = 20.0

    def __post_init__(self):
        check.scalar(self.position, "position")
        check.positive(self.stiffness, "stiffness")
        check.nonnegative(self.damping, "damping")

    def force_x(self, x: float, xdot: float) -> float:
        """F_x (N) for the tip's x (m) and ẋ (m/s) as Python floats, unchecked: the kernel of
        :meth:`force` that simulation loops call every step."""
        delta = x - self.position
        return 0.0 if delta <= 0.0 else -max(0.0, self.stiffness * delta + self.damping * xdot)

    def force(self, x, xdot) -> np.ndarray:
        """F_ext (2,) N on the tip at position x (2,) m and velocity ẋ (2,) m/s."""
        x, xdot = check.vector(x, 2, "x"), check.vector(xdot, 2, "xdot")
        return np.array([self.force_x(float(x[0]), float(xdot[0])), 0.0])

"""Rigid-body dynamics of kinematic trees: the frozen ``Model``, the URDF reader, RNEA / CRBA / ABA
and the terms of the equation of motion, frames and Jacobians, centroidal quantities, the
Lagrange method (sympy), the classic Newton-Euler recursion, ODE integrators, the floating-base
configuration space (integrate / difference / S(q)) and balance points (CoP, ZMP, CMP).

``rbda`` holds the reference recursions as the book writes them (``kl.rbda.rnea``, ``crba``,
``aba``: one body at a time, in parent order), which chapter 5 prints; ``kl.rnea``, ``kl.crba``
and ``kl.aba`` run the same algorithms level by level (the private engine), tested equal.

Imports ``geometry`` and ``arms``.
"""

from . import model, joints, builders, rbda, urdf, algorithms, frames, centroidal, lagrange, newton_euler_3d, integrators, floating_base, balance
from .model import *  # noqa: F401,F403
from .joints import *  # noqa: F401,F403
from .builders import *  # noqa: F401,F403
from .urdf import *  # noqa: F401,F403
from .algorithms import *  # noqa: F401,F403
from .frames import *  # noqa: F401,F403
from .centroidal import *  # noqa: F401,F403
from .lagrange import *  # noqa: F401,F403
from .newton_euler_3d import *  # noqa: F401,F403
from .integrators import *  # noqa: F401,F403
from .floating_base import *  # noqa: F401,F403
from .balance import *  # noqa: F401,F403

__all__ = [*model.__all__, *joints.__all__, *builders.__all__, *urdf.__all__, *algorithms.__all__, *frames.__all__, *centroidal.__all__, *lagrange.__all__, *newton_euler_3d.__all__, *integrators.__all__,
           *floating_base.__all__, *balance.__all__]

"""Rigid-body dynamics of kinematic trees: the frozen ``Model``, the URDF reader, RNEA / CRBA / ABA
and the terms of the equation of motion, frames and Jacobians, centroidal quantities, the
Lagrange method (sympy), the classic Newton-Euler recursion, ODE integrators, the floating-base
configuration space (integrate_configuration / difference / S(q)) and balance points (CoP, ZMP, CMP).

Imports ``geometry`` and ``arms``.
"""

from . import model, urdf, algorithms, frames, centroidal, lagrange, newton_euler_3d, integrators, floating_base, balance
from . import shared  # noqa: F401 (lower-layer names for the layers above; not in kl.*)
from .model import *  # noqa: F401,F403
from .urdf import *  # noqa: F401,F403
from .algorithms import *  # noqa: F401,F403
from .frames import *  # noqa: F401,F403
from .centroidal import *  # noqa: F401,F403
from .lagrange import *  # noqa: F401,F403
from .newton_euler_3d import *  # noqa: F401,F403
from .integrators import *  # noqa: F401,F403
from .floating_base import *  # noqa: F401,F403
from .balance import *  # noqa: F401,F403

__all__ = [*model.__all__, *urdf.__all__, *algorithms.__all__, *frames.__all__, *centroidal.__all__, *lagrange.__all__, *newton_euler_3d.__all__, *integrators.__all__,
           *floating_base.__all__, *balance.__all__]

"""Serial arms: DH parameters (numeric and symbolic), geometric Jacobians, inverse kinematics,
the gimbal, robot tables (PUMA 560, Panda, UR5), products of exponentials and trajectories.

Imports only ``geometry``.
"""

from . import dh, symbolic, kinematics, ik, gimbal, robots, trajectories, poe
from . import shared  # noqa: F401 (lower-layer names for the layers above; not in kl.*)
from .dh import *  # noqa: F401,F403
from .symbolic import *  # noqa: F401,F403
from .kinematics import *  # noqa: F401,F403
from .ik import *  # noqa: F401,F403
from .gimbal import *  # noqa: F401,F403
from .robots import *  # noqa: F401,F403
from .trajectories import *  # noqa: F401,F403
from .poe import *  # noqa: F401,F403

__all__ = [*dh.__all__, *symbolic.__all__, *kinematics.__all__, *ik.__all__, *gimbal.__all__, *robots.__all__,
           *trajectories.__all__, *poe.__all__]

"""Legged robots (chapter 8, ANYmal): leg inverse kinematics, contact Jacobians, static
equilibrium and contact-force estimation, a landing simulation.

Imports the maths layers below it (``geometry`` ... ``identification``).
"""

from . import landing, leg_kinematics, stance, statics, whole_body
from . import shared  # noqa: F401 (lower-layer names for the layers above; not in kl.*)
from .landing import *  # noqa: F401,F403
from .leg_kinematics import *  # noqa: F401,F403
from .stance import *  # noqa: F401,F403
from .statics import *  # noqa: F401,F403
from .whole_body import *  # noqa: F401,F403

__all__ = [*leg_kinematics.__all__, *stance.__all__, *statics.__all__, *landing.__all__, *whole_body.__all__]

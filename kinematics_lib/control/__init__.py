"""Control (chapter 10): PID, computed torque, task-space dynamics, impedance and admittance,
the plants and the closed-loop simulations they run on.

Imports the maths layers below it (``geometry`` ... ``contact``).
"""

from . import bandwidth, interaction, interaction_fsm, model_based, operational_space, pid, pose_control, plants, simulation, task_space
from .bandwidth import *  # noqa: F401,F403
from .interaction import *  # noqa: F401,F403
from .interaction_fsm import *  # noqa: F401,F403
from .model_based import *  # noqa: F401,F403
from .operational_space import *  # noqa: F401,F403
from .pid import *  # noqa: F401,F403
from .pose_control import *  # noqa: F401,F403
from .plants import *  # noqa: F401,F403
from .simulation import *  # noqa: F401,F403
from .task_space import *  # noqa: F401,F403

__all__ = [*pid.__all__, *plants.__all__, *simulation.__all__, *model_based.__all__, *task_space.__all__,
           *interaction.__all__, *operational_space.__all__, *interaction_fsm.__all__, *bandwidth.__all__,
           *pose_control.__all__]

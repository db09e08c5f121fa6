"""Scenarios: the worked examples the chapters run, built from the maths layers below.

    satellite   chapter 6: a 3-dof arm on a free-floating satellite, its joint loop and torque
    parking     chapter 7: a parallel-parking manoeuvre of a unicycle robot
    wall        chapter 10: a planar arm pressing on a spring-damper wall under a control law

The maths layers hold the algorithms; a scenario is a particular robot, trajectory or manoeuvre
(its parameters are the example's). Imports the maths layers below it.
"""

from . import parking, satellite, wall
from .parking import *  # noqa: F401,F403
from .satellite import *  # noqa: F401,F403
from .wall import *  # noqa: F401,F403

__all__ = [*satellite.__all__, *parking.__all__, *wall.__all__]

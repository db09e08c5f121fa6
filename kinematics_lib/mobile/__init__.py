"""Wheeled mobile robots: mecanum-wheel kinematics, odometry and traction.

Imports the maths layers below it.
"""

from . import mecanum
from .mecanum import *  # noqa: F401,F403

__all__ = [*mecanum.__all__]

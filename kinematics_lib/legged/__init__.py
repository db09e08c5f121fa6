"""Legged robots (chapter 8, ANYmal): leg inverse kinematics, contact Jacobians, static
equilibrium and contact-force estimation.

Imports the maths layers below it (``geometry`` ... ``identification``).
"""

from . import leg_kinematics
from .leg_kinematics import *  # noqa: F401,F403

__all__ = [*leg_kinematics.__all__]

"""Identification (chapter 11): friction models, drives and reflected inertia, the joint-torque
regressor, base parameters, excitation trajectories, measured signals and least squares.

Imports the maths layers below it (``geometry`` ... ``control``).
"""

from . import friction, drives, regressor, identifiability, excitation, signals, least_squares, experiment, physical, lugre_fit
from .friction import *  # noqa: F401,F403
from .drives import *  # noqa: F401,F403
from .regressor import *  # noqa: F401,F403
from .identifiability import *  # noqa: F401,F403
from .excitation import *  # noqa: F401,F403
from .signals import *  # noqa: F401,F403
from .least_squares import *  # noqa: F401,F403
from .experiment import *  # noqa: F401,F403
from .physical import *  # noqa: F401,F403
from .lugre_fit import *  # noqa: F401,F403

__all__ = [*friction.__all__, *drives.__all__, *regressor.__all__, *identifiability.__all__, *excitation.__all__,
           *signals.__all__, *least_squares.__all__, *experiment.__all__, *physical.__all__, *lugre_fit.__all__]

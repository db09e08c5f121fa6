"""Geometry: rotations and quaternions, rigid transforms, spatial (6-D) vector algebra.

The bottom layer: imports nothing else of kinematics_lib (only ``_validate``).
"""

from . import kernels, rotations, transforms, spatial  # kernels: unchecked, not in kl.* (see its docstring)
from .rotations import *  # noqa: F401,F403
from .transforms import *  # noqa: F401,F403
from .spatial import *  # noqa: F401,F403

__all__ = [*rotations.__all__, *transforms.__all__, *spatial.__all__]

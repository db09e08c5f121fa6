"""kinematics_lib: the shared library of the robot kinematics and dynamics notebooks.

Conventions (one place, see docs/notation.md): SI units and radians; spatial vectors, twists,
wrenches and Jacobian rows in [linear; angular] order; quaternions (x, y, z, w);
``T_AB`` is the pose of B in A so that ``T_AB @ T_BC == T_AC``.

Dependencies point one way: rotations -> transforms -> dh / kinematics / ik (serial arms);
spatial -> model / urdf -> dynamics / centroidal (kinematic trees); lagrange, integrators,
mecanum beside them. The maths modules never import matplotlib or ipywidgets: plotting,
views and widgets are separate modules (``kinematics_lib.plotting``, ``.views``, ``.widgets``),
so everything computes headless.
"""

from . import (centroidal, dh, dynamics, frames, gimbal, ik, integrators, kinematics, lagrange, mecanum, model,
               robots, rotations, spatial, transforms, urdf)
from .centroidal import *  # noqa: F401,F403
from .dh import *  # noqa: F401,F403
from .dynamics import *  # noqa: F401,F403
from .frames import *  # noqa: F401,F403
from .gimbal import *  # noqa: F401,F403
from .ik import *  # noqa: F401,F403
from .integrators import *  # noqa: F401,F403
from .kinematics import *  # noqa: F401,F403
from .lagrange import *  # noqa: F401,F403
from .mecanum import *  # noqa: F401,F403
from .model import *  # noqa: F401,F403
from .robots import *  # noqa: F401,F403
from .rotations import *  # noqa: F401,F403
from .spatial import *  # noqa: F401,F403
from .transforms import *  # noqa: F401,F403
from .urdf import *  # noqa: F401,F403

__version__ = "0.1.0"

__all__ = (rotations.__all__ + transforms.__all__ + dh.__all__ + kinematics.__all__ + ik.__all__
           + robots.__all__ + spatial.__all__ + model.__all__ + urdf.__all__ + dynamics.__all__ + frames.__all__
           + centroidal.__all__ + gimbal.__all__ + lagrange.__all__ + integrators.__all__ + mecanum.__all__)

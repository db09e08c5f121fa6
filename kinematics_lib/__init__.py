"""kinematics_lib: the shared library of the robot kinematics and dynamics notebooks.

Conventions (one place, see docs/notation.md): SI units and radians; spatial vectors, twists,
wrenches and Jacobian rows in [linear; angular] order; quaternions (x, y, z, w);
``T_AB`` is the pose of B in A so that ``T_AB @ T_BC == T_AC``.

The package is layered; each layer imports only the layers listed before it in ``LAYERS``
(tests/test_architecture.py checks it):

    geometry        rotations, transforms, spatial algebra
    arms            DH, Jacobians, IK, gimbal, robot tables
    dynamics        Model, URDF, RNEA/CRBA/ABA, frames, centroidal, Lagrange, Newton-Euler, integrators
    contact         friction cones, KKT/projection, LCP, force distribution
    control         PID, computed torque, task space, impedance/admittance
    identification  friction models, drives, regressor, base parameters, least squares
    legged          leg IK, contact Jacobians, static equilibrium
    mobile          mecanum wheels
    documents       the source documents' formulas as written (errors included)
    notebook        plotting, widgets, views, checks, benchmarking (the only layer with matplotlib/ipywidgets)

Every public name of the maths layers and of ``documents`` is reachable as ``kinematics_lib.name``;
the notebook layer is imported explicitly (``from kinematics_lib.notebook.widgets import ...``).
"""

from ._validate import InputError, PhysicsWarning
from . import arms, contact, control, documents, dynamics, geometry, identification, legged, mobile
from .arms import *  # noqa: F401,F403
from .contact import *  # noqa: F401,F403
from .control import *  # noqa: F401,F403
from .documents import *  # noqa: F401,F403
from .dynamics import *  # noqa: F401,F403
from .dynamics import rbda  # the reference recursions: kl.rbda.rnea, kl.rbda.crba, kl.rbda.aba
from .geometry import *  # noqa: F401,F403
from .identification import *  # noqa: F401,F403
from .legged import *  # noqa: F401,F403
from .mobile import *  # noqa: F401,F403

__version__ = "0.1.0"

#: the layers, bottom to top: each imports only the ones before it
LAYERS = ("geometry", "arms", "dynamics", "contact", "control", "identification", "legged", "mobile",
          "documents", "notebook")

__all__ = ["InputError", "PhysicsWarning", *geometry.__all__, *arms.__all__, *dynamics.__all__, *contact.__all__, *control.__all__,
           *identification.__all__, *legged.__all__, *mobile.__all__, *documents.__all__]

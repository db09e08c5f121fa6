"""Constraints and contact (chapter 7): friction cones, KKT and projected dynamics, Baumgarte
stabilisation, the LCP (Lemke), contact-force distribution and a compliant (spring-damper) wall.

Imports ``geometry``, ``arms`` and ``dynamics``.
"""

from . import compliant, cones, constrained, distribution, floating, lcp, mechanisms, time_stepping
from . import shared  # noqa: F401 (lower-layer names for the layers above; not in kl.*)
from .compliant import *  # noqa: F401,F403
from .cones import *  # noqa: F401,F403
from .constrained import *  # noqa: F401,F403
from .distribution import *  # noqa: F401,F403
from .floating import *  # noqa: F401,F403
from .lcp import *  # noqa: F401,F403
from .mechanisms import *  # noqa: F401,F403
from .time_stepping import *  # noqa: F401,F403

__all__ = [*cones.__all__, *constrained.__all__, *lcp.__all__, *distribution.__all__, *mechanisms.__all__,
           *time_stepping.__all__, *floating.__all__, *compliant.__all__]

"""Constraints and contact (chapter 7): friction cones, KKT and projected dynamics, Baumgarte
stabilisation, the LCP (Lemke) and contact-force distribution.

Imports ``geometry``, ``arms`` and ``dynamics``.
"""

from . import cones, constrained, distribution, floating, lcp, mechanisms, time_stepping
from .cones import *  # noqa: F401,F403
from .constrained import *  # noqa: F401,F403
from .distribution import *  # noqa: F401,F403
from .floating import *  # noqa: F401,F403
from .lcp import *  # noqa: F401,F403
from .mechanisms import *  # noqa: F401,F403
from .time_stepping import *  # noqa: F401,F403

__all__ = [*cones.__all__, *constrained.__all__, *lcp.__all__, *distribution.__all__, *mechanisms.__all__,
           *time_stepping.__all__, *floating.__all__]

"""Chapter 7's scenario: a parallel-parking manoeuvre of a unicycle (car-like) robot.

The nonholonomic kinematics (``kl.unicycle_path``) lives in ``kinematics_lib.contact``; this
module only builds the controls of the example.
"""

from __future__ import annotations

import numpy as np

from .. import _validate as check
from ..contact.mechanisms import MAX_STEPS

__all__ = ["parallel_parking_controls"]


def parallel_parking_controls(speed=0.5, turn=1.0, duration=1.0, n=50) -> np.ndarray:
    """Controls (4 n, 2) of a parallel-parking manoeuvre: forward-left, forward-right, back-right, back-left.

    Each phase lasts ``duration`` [s] in n steps at |v| = speed [m/s], |omega| = turn [rad/s].
    The four arcs return the heading to its start and leave a pure sideways displacement: the
    nonholonomic constraint forbids sideways velocity, not sideways position.
    """
    speed, turn = check.positive(speed, "speed"), check.positive(turn, "turn")
    duration = check.positive(duration, "duration")
    n = check.integer(n, "n", 1, MAX_STEPS // 4)
    phases = [(speed, turn), (speed, -turn), (-speed, -turn), (-speed, turn)]
    return np.repeat(np.array(phases, dtype=float), n, axis=0)

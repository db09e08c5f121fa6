"""Mobility of wheeled robots: the no-slip row of a fixed wheel and the degree of mobility.

Units and frames: see :mod:`kinematics_lib.mobile` (chapter 9).
"""

from __future__ import annotations

import math

import numpy as np

from .. import _validate as check

__all__ = ["no_slip_row", "degree_of_mobility"]


def no_slip_row(x: float, y: float, theta: float) -> np.ndarray:
    """Sliding constraint of a conventional (roller-less) wheel at (x, y) driving along θ:
    the contact velocity across the wheel is zero, n·v_c = 0 with n = (−sin θ, cos θ).

    Row (3,) c with c · v = 0:  c = [n_x, n_y, x n_y − y n_x].
    """
    x, y, theta = check.scalar(x, "x"), check.scalar(y, "y"), check.scalar(theta, "theta")
    n = np.array([-math.sin(theta), math.cos(theta)])
    return check.finite_result(np.array([n[0], n[1], x * n[1] - y * n[0]]), "the row", "x, y")


def degree_of_mobility(C) -> int:
    """δ_m = 3 − rank C: how many chassis twists are free under the sliding constraints C (k, 3).

    An empty C (only roller wheels, or steerable wheels) gives 3: an omnidirectional chassis.
    """
    if np.size(C) == 0 and not isinstance(C, (str, bytes)) and C is not None:
        return 3
    C = check.matrix(C, (None, 3), "C")
    scale = max(float(np.abs(C).max()), 1e-300)
    return 3 - int(np.linalg.matrix_rank(C / scale))

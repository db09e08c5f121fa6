"""Document 004 -- "第 6 章 拉格朗日动力学与标准形式" (Lagrange standard form, ``004_148b5dc45241b455.txt``)
-- its numbers and claims *as written*.

One function per claim that a chapter checks; each docstring cites the section and says what is
wrong (or that it holds). The correct counterparts live in the maths layers. Sections are grouped
by chapter.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    # chapter 4
    "two_link_example",
]


# ================================================================ chapter 4: Lagrange


def two_link_example() -> dict:
    """Section 2, the worked planar two-link example: its inputs and the numbers it prints.

    Point masses m1 = 2 kg at joint 2 and m2 = 1 kg at the tip, L1 = L2 = 1 m, gravity along -y,
    q = (30, 60) deg, qd = (1, -0.5) rad/s, qdd = (2, 1.5) rad/s^2. Returns a new dict with the
    inputs ('m1', 'm2', 'l1', 'l2', 'q' [rad], 'qd', 'qdd') and the printed 'M', 'C', 'G', 'tau'
    (six decimals, N m). **Right, but incomplete:** the document never states g; its G needs
    g = 9.81 m/s^2 (g = 9.8 gives G1 = 25.461147, not 25.487128).
    """
    return {
        "m1": 2.0, "m2": 1.0, "l1": 1.0, "l2": 1.0,
        "q": np.radians([30.0, 60.0]), "qd": np.array([1.0, -0.5]), "qdd": np.array([2.0, 1.5]),
        "M": np.array([[5.0, 1.5], [1.5, 1.0]]),
        "C": np.array([[0.433013, -0.433013], [0.866025, 0.0]]),
        "G": np.array([25.487128, 0.0]),
        "tau": np.array([38.386647, 5.366025]),
    }

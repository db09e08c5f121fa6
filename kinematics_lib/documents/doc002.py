"""Document 002 (kinematics and dynamics for RoboMaster, ``002_96f0a94aa5bb4fd0.txt``): formulas as written.

One function per claim a chapter checks; each docstring names the section and says what is
wrong. The correct versions live in the maths layers.
"""

from __future__ import annotations

import numpy as np

from .. import _validate as check

__all__ = ["reflected_inertia_energy_doc002"]


# ---------------------------------------------------------------------------------------------
# Chapter 11 -- reflected inertia through a gearbox
# ---------------------------------------------------------------------------------------------


def reflected_inertia_energy_doc002(J_motor: float, J_load: float, ratio: float) -> float:
    """Document 002, "减速器课程设计": the energy balance written under J_eff = J_m + J_l / n^2.

    As written: 1/2 J_m omega_m^2 = 1/2 J_eff omega_l^2 with omega_m = n omega_l, which gives
    J_eff = n^2 J_m (returned, kg m^2; J_load is accepted and, as in the document, unused).

    What is wrong: the balance counts only the rotor's kinetic energy, so J_l drops out, and it
    puts J_eff on the *load* speed, so the result is a load-side inertia (n^2 J_m), not the
    motor-side J_m + J_l / n^2 stated above it. The correct balance counts both bodies:
    1/2 J_m omega_m^2 + 1/2 J_l omega_l^2 = 1/2 (J_m + J_l / n^2) omega_m^2.
    (The stated results J_eff = J_m + J_l / n^2 and tau_l = n eta tau_m are right.)
    """
    J_m, n = check.scalar(J_motor, "J_motor"), check.positive(ratio, "ratio")
    J_l = check.scalar(J_load, "J_load")
    if J_m < 0 or J_l < 0:
        raise check.InputError("J_motor and J_load must be >= 0 (kg m^2)")
    with np.errstate(over="ignore"):
        return check.finite_result(float(np.float64(n) ** 2 * J_m), "J_eff", "J_motor, ratio")

"""Identification (chapter 11): friction models, drives and reflected inertia, the joint-torque
regressor, base parameters, excitation trajectories and least squares.

Imports the maths layers below it (``geometry`` ... ``control``).
"""

__all__: list[str] = []

"""Legged robots (chapter 8, ANYmal): leg inverse kinematics, contact Jacobians, static
equilibrium and contact-force estimation.

Imports the maths layers below it (``geometry`` ... ``identification``).
"""

__all__: list[str] = []

"""Control (chapter 10): PID, computed torque, task-space dynamics, impedance and admittance.

Imports the maths layers below it (``geometry`` ... ``contact``).
"""

__all__: list[str] = []

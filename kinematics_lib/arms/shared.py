"""What the arms layer shares with the layers above (public lower-layer names, not in ``kl.*``).

Import it explicitly (``from ..arms.shared import time_scaling``); higher layers never import a
private helper of another package (tests/test_architecture.py).

* ``time_scaling(kind, duration, t) -> (s, s', s'')`` of a *checked* t (array), unchecked;
* ``sympy_scalar(x, name)`` -- x as a finite sympy expression, ValueError naming the argument.
"""

from .symbolic import _sym as sympy_scalar
from .trajectories import _scaling as time_scaling

__all__ = ["time_scaling", "sympy_scalar"]

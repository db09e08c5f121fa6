"""What the contact layer shares with the layers above (public lower-layer names, not in ``kl.*``).

* ``mass_matrix(M, name)`` -- M checked as a square symmetric positive-definite matrix;
* ``delassus(M, J)`` -- J M^-1 J^T (symmetrised), unchecked;
* ``require_independent(A, what)`` -- InputError unless the Delassus matrix A is well conditioned;
* ``clarabel_solve(P, c, rows, rhs, cones, tol)`` -- min 1/2 x'Px + c'x s.t. rhs - rows x in cones
  (Clarabel): x, or None unless solved;
* ``add_friction_cones(rows, rhs, cones, k, mu, N, f0)`` -- append k friction cones for Clarabel.
"""

from .constrained import _delassus as delassus
from .constrained import _independent as require_independent
from .constrained import _mass_matrix as mass_matrix
from .distribution import _add_friction_cones as add_friction_cones
from .distribution import _clarabel_solve as clarabel_solve

__all__ = ["mass_matrix", "delassus", "require_independent", "clarabel_solve", "add_friction_cones"]

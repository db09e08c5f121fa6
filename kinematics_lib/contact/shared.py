"""What the contact layer shares with the layers above (public lower-layer names, not in ``kl.*``).

* ``mass_matrix(M, name)`` -- M checked as a square symmetric positive-definite matrix;
* ``delassus(M, J)`` -- J M^-1 J^T (symmetrised), unchecked;
* ``require_independent(A, what)`` -- InputError unless the Delassus matrix A is well conditioned;
* ``clarabel_solve(P, c, rows, rhs, cones, tol)`` -- min 1/2 x'Px + c'x s.t. rhs - rows x in cones
  (Clarabel): x, or None unless solved;
* ``add_friction_cones(rows, rhs, cones, k, mu, N, f0)`` -- append k friction cones for Clarabel;
* ``frame_names(model, feet, limit)`` -- 1 ... limit frame names of the model, checked (InputError).
"""

from .constrained import _delassus as delassus
from .constrained import _independent as require_independent
from .constrained import _mass_matrix as mass_matrix
from .distribution import _add_friction_cones as add_friction_cones
from .distribution import _clarabel_solve as clarabel_solve
from .floating import _frames as frame_names

__all__ = ["mass_matrix", "delassus", "require_independent", "clarabel_solve", "add_friction_cones", "frame_names"]

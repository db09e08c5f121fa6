"""What the dynamics layer shares with the layers above (public lower-layer names, not in ``kl.*``).

The documents' as-written recursions reuse the pieces of the classic Newton-Euler code; the
legged layer reads the URDF it loads:

* ``revolute_chain(model, q, v, a, q_in_R=True)`` -- per-body R, p, z, m, c, I_c of a revolute
  serial chain (checks that it is one);
* ``inward_local(R, p, z, c, F, N)`` -- the correct local-frame inward pass, unchecked;
* ``dh_arm_state(arm, q, v, a)`` -- (q, v, a) checked against a DHArm;
* ``world_geometry(arm, q)`` -- O, z, r, r_c, I_c of a standard-DH arm in the world frame;
* ``parse_urdf(path)`` -- (Path, XML root) of a URDF file, checked.
"""

from .newton_euler_3d import _inward_local as inward_local
from .newton_euler_3d import _revolute_chain as revolute_chain
from .newton_euler_3d import _state as dh_arm_state
from .newton_euler_3d import _world_geometry as world_geometry
from .urdf import _parse as parse_urdf

__all__ = ["revolute_chain", "inward_local", "dh_arm_state", "world_geometry", "parse_urdf"]

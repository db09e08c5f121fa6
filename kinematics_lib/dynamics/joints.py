"""Joint models: the joint transform and motion subspace of each joint type (RBDA Table 4.1).

``joint_motion(kind, axis, q_i) -> (XJ, S)`` is spatial_v2's ``jcalc``: the motion transform
across the joint (from the joint's placement frame to the moving body frame) and the motion
subspace S (6, nv_i) in body coordinates, [linear; angular] as everywhere in the library.
The parent-to-body transform of body i is then ``Xup[i] = XJ @ model.X_tree[i]``.

=============  ==========================================  =====================================
type           XJ (R, p of the body in the placement)      S
=============  ==========================================  =====================================
revolute       R = exp([axis] q), p = 0                    [0; axis]
continuous     the same (one coordinate, no limits)        [0; axis]
prismatic      R = 1, p = axis q                           [axis; 0]
free           R = R(quaternion), p = q[:3]                1_6 (v = [linear; angular], body frame)
=============  ==========================================  =====================================

The free joint is a floating base's root joint: six degrees of freedom in one joint, S the
6 x 6 identity, so that its velocity is the body's own spatial velocity (the document's six
"virtual joints", three prismatic then three revolute, give the same motion with a different
velocity coordinate; chapter 5 compares them). Inputs are not checked here (see
:func:`kinematics_lib.jcalc` for the checked, public form).
"""

from __future__ import annotations

import numpy as np

from ..geometry.rotations import axis_angle_to_matrix, quat_to_matrix
from ..geometry.spatial import motion_transform

__all__: list = []  # used by the reference algorithms (rbda) of this package; public: kl.jcalc


def joint_motion(kind: str, axis: np.ndarray, q_i: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(XJ (6, 6), S (6, nv_i)) of one joint at its coordinates q_i (rad, m; a free joint: [p, quat xyzw])."""
    if kind == "free":
        return motion_transform(quat_to_matrix(q_i[3:7]), q_i[:3]), np.eye(6)
    if kind == "prismatic":
        return motion_transform(np.eye(3), axis * q_i[0]), np.concatenate([axis, np.zeros(3)])[:, None]
    return motion_transform(axis_angle_to_matrix(axis, q_i[0]), np.zeros(3)), np.concatenate([np.zeros(3), axis])[:, None]

"""Mecanum-wheel (麦克纳姆轮) chassis kinematics: from the roller geometry to the chassis matrix H,
the single-wheel sign check, yaw compensation (yaw 补偿) and wheel odometry (轮式里程计).

Frames and units (chapter 9):

* chassis (body) frame B: x forward, y left, z up, origin at the chassis centre;
* world frame W: z up; the yaw ψ is the angle from W's x axis to B's x axis (counter-clockwise);
* a chassis twist is ``v = (v_x, v_y, ω_z)`` in m/s, m/s, rad/s -- [linear; angular];
* a pose is ``(x, y, ψ)`` in W (m, m, rad);
* wheel speeds are angular speeds in rad/s, positive when the wheel rolls the chassis along its
  driving direction (forward for the standard layout).

The wheel model. Wheel i sits at ``(x_i, y_i)`` in B, drives along ``d_i = (cos θ_i, sin θ_i)``,
has radius ``R_i``, and the axle of the roller touching the ground points along
``e_i = (cos(θ_i + γ_i), sin(θ_i + γ_i))`` (seen from above; γ = 0: omni wheel, γ = ±π/4:
mecanum wheel). A roller rolls freely *across* its axle, so only the velocity component *along*
e_i is set by the wheel:

    v_c,i · e_i = R_i ω_i (d_i · e_i),        v_c,i = (v_x − ω_z y_i, v_y + ω_z x_i)

    ⇒  ω_i = h_i · v,   h_i = [e_x, e_y, x_i e_y − y_i e_x] / (R_i cos γ_i)

and for θ_i = 0:  R ω_i = v_x − ω_z y_i + tan γ_i (v_y + ω_z x_i).  Stacking the rows gives
``ω = H v`` with ``H`` of shape (n, 3).

Modules by topic: ``wheels`` (H from the roller geometry), ``odometry`` (frames, pose
updates, odometry and its simulation), ``sign_check`` (a wheel mounted backwards), ``traction``
(wheel forces), ``mobility`` (no-slip rows, degree of mobility). Imports the maths layers below it.
"""

from . import mobility, odometry, sign_check, traction, wheels
from .mobility import *  # noqa: F401,F403
from .odometry import *  # noqa: F401,F403
from .sign_check import *  # noqa: F401,F403
from .traction import *  # noqa: F401,F403
from .wheels import *  # noqa: F401,F403

__all__ = [*wheels.__all__, *odometry.__all__, *sign_check.__all__, *traction.__all__, *mobility.__all__]

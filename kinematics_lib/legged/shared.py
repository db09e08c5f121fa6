"""What the legged layer shares with the layers above (public lower-layer names, not in ``kl.*``).

* ``planar_leg(g)`` -- the HFE-KFE plane of a LegGeometry: basis (b1, b2), thigh and shank as
  2-D vectors with their lengths and angles (unchecked: g is a LegGeometry).
"""

from .leg_kinematics import _planar as planar_leg

__all__ = ["planar_leg"]

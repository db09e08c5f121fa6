"""Pinocchio's constraint dynamics as the independent reference for chapter 7's contact KKT.

Pinocchio (pinned in the requirements) holds each foot with a ``RigidConstraintModel`` of type
``CONTACT_3D`` on the foot's parent joint at the foot frame's placement, expressed
``LOCAL_WORLD_ALIGNED`` (world axes at the foot), and solves the constrained dynamics with
``initConstraintDynamics`` / ``constraintDynamics``; the forces are ``data.lambda_c``.
"""

from __future__ import annotations

import numpy as np

from .benchmarking import _pinocchio

__all__ = ["pinocchio_contact_dynamics"]


def pinocchio_contact_dynamics(urdf, q, v, tau_generalized, feet, accuracy=1e-14):
    """(a (nv,), f (k, 3)) from Pinocchio for the URDF with a free-flyer root.

    q (nq,) with the base quaternion (x, y, z, w) and v (nv,) with the base twist in the base
    frame are the same coordinates as :func:`kinematics_lib.load_urdf` (``floating_base=True``);
    ``tau_generalized`` (nv,) is the generalized force S^T tau (Pinocchio takes nv entries);
    ``feet`` the frame names. ``accuracy`` is the proximal solver's tolerance (one iteration with
    zero damping is the exact KKT solve).
    """
    pin = _pinocchio()
    model = pin.buildModelFromUrdf(str(urdf), pin.JointModelFreeFlyer())
    data = model.createData()
    models = pin.StdVec_RigidConstraintModel()
    for name in feet:
        frame = model.frames[model.getFrameId(name)]
        models.append(pin.RigidConstraintModel(pin.ContactType.CONTACT_3D, model, frame.parentJoint,
                                               frame.placement, pin.LOCAL_WORLD_ALIGNED))
    datas = pin.StdVec_RigidConstraintData()
    for m in models:
        datas.append(m.createData())
    pin.initConstraintDynamics(model, data, models, datas)
    settings = pin.ProximalSettings(accuracy, 0.0, 1)
    a = pin.constraintDynamics(model, data, np.asarray(q, float), np.asarray(v, float),
                               np.asarray(tau_generalized, float), models, datas, settings)
    return np.array(a), np.array(data.lambda_c).reshape(len(feet), 3)

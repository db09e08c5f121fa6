"""Rigid point contacts on a floating-base model: the selection matrix and the KKT contact dynamics.

A floating-base robot (ANYmal: nq = 19, nv = 18) has six unactuated base coordinates. Its
equation of motion with k point contacts (feet) held on the ground is

    M(q) a + h(q, v) = S^T tau + J_c(q)^T f,        J_c(q) a + Jdot_c v = 0,

with tau the n_j joint torques, S = [0 I] (n_j, nv) the **selection (actuation) matrix**
(选择矩阵), J_c (3k, nv) the stacked translational foot Jacobians (world axes, so f holds the
world-frame contact forces in N), and Jdot_c v the feet's velocity-product accelerations. The
rate map q' = E(q) v of the configuration is a different matrix (chapter 6); the Jacobian with
respect to v, not q, is J_c = (dc/dq) E(q).

Pinocchio's ``constraintDynamics`` with ``RigidConstraintModel(CONTACT_3D, ..., LOCAL_WORLD_ALIGNED)``
solves the same system (chapter 7 checks the two against each other to 1e-8).
"""

from __future__ import annotations

import numpy as np

from .. import _validate as check
from ..dynamics import crba, frame_bias_accelerations, frame_jacobian, nonlinear_effects
from ..dynamics.model import Model, state
from .constrained import kkt_dynamics

__all__ = ["selection_matrix", "contact_constraint_dynamics"]

#: the most contact frames one call takes (a quadruped has four feet; 3 rows each)
MAX_CONTACTS = 16


def _actuated(model: Model) -> np.ndarray:
    """Indices of the velocity coordinates that are not a free (floating-base) joint's."""
    free = [i for i, kind in enumerate(model.joint_types) if kind == "free"]
    skip = set()
    for i in free:
        s = model.v_slice[i]
        skip.update(range(s.start, s.stop))
    return np.array([k for k in range(model.nv) if k not in skip], dtype=int)


def selection_matrix(model) -> np.ndarray:
    """S (n_j, nv): the selection (actuation) matrix, with S^T tau the generalized force of the
    joint torques tau (n_j,). Columns of a free joint (the floating base) are zero, the others
    the identity: S = [0_(n_j x 6)  I_(n_j)] for ANYmal (n_j = 12, nv = 18)."""
    model = check.model(model, "model")
    idx = _actuated(model)
    S = np.zeros((idx.size, model.nv))
    S[np.arange(idx.size), idx] = 1.0
    return S


def _frames(model: Model, feet, limit: int = MAX_CONTACTS) -> tuple:
    """A tuple of 1 ... ``limit`` frame names of ``model`` (one string is one frame)."""
    if isinstance(feet, str):
        feet = (feet,)
    if not isinstance(feet, (tuple, list)) or not 1 <= len(feet) <= limit:
        raise check.InputError(f"feet must be a list of 1 to {limit} frame names, got {check.describe(feet)}")
    for k, f in enumerate(feet):
        if not isinstance(f, str) or f not in model.frames:
            raise check.InputError(f"feet[{k}] must be the name of a frame of the model, got {check.describe(f)}")
    return tuple(feet)


def contact_constraint_dynamics(model, q, v, tau, feet) -> tuple[np.ndarray, np.ndarray]:
    """(a (nv,), f (k, 3)): forward dynamics with the k frames ``feet`` held as rigid point contacts.

    Solves the KKT system [[M, -J_c^T], [J_c, 0]] [a; f] = [S^T tau - h; -Jdot_c v] of the module
    docstring (:func:`kkt_dynamics`), with tau the joint torques (n_j,) = (nv - 6,) for a floating
    base (:func:`selection_matrix`), J_c the translational rows of :func:`frame_jacobian` of each
    frame and Jdot_c v their bias accelerations (:func:`frame_bias_accelerations`, = J̇ v). f[i] is
    the force [N] the ground exerts on frame i, world axes (it may pull: a bilateral contact). Dependent
    contact rows (more than the base and legs can resolve) raise.
    """
    q, v = state(model, q, v, batch=False)
    feet = _frames(model, feet)
    S = selection_matrix(model)
    tau = check.vector(tau, S.shape[0], "tau")
    J = np.vstack([frame_jacobian(model, q, f)[:3] for f in feet])
    Jdot_v = frame_bias_accelerations(model, q, v, feet)[:, :3].reshape(-1)
    a, f = kkt_dynamics(crba(model, q), nonlinear_effects(model, q, v), J, Jdot_v, S.T @ tau)
    return a, f.reshape(len(feet), 3)

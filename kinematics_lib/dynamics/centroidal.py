"""Centre of mass and centroidal momentum (质心动量) of kinematic trees.

The centroidal momentum h_G = [m v_G; L_G] (linear momentum; angular momentum about the centre
of mass G), in world axes, is linear in v: h_G = A_G(q) v with the centroidal momentum matrix
A_G (6, nv) (Orin & Goswami 2008; Pinocchio's ``computeCentroidalMap``).
"""

from __future__ import annotations

import numpy as np

from .. import _validate as check
from .frames import _forward_kinematics
from .model import Model, state
from ..geometry.spatial import inertia_parts, motion_transform

__all__ = ["center_of_mass", "centroidal_momentum_matrix", "centroidal_momentum"]


def center_of_mass(model: Model, q) -> np.ndarray:
    """p_G (3,): world position of the centre of mass, sum_i m_i c_i / sum_i m_i (m)."""
    (q,) = state(model, q, batch=False)
    T = _forward_kinematics(model, q)
    total, moment = 0.0, np.zeros(3)
    for i in range(model.nb):
        m, c, _ = inertia_parts(model.inertia[i])
        total += m
        moment += m * (T[i, :3, :3] @ c + T[i, :3, 3])
    if total <= 0.0:
        raise ValueError("model has zero total mass: the centre of mass is undefined")
    return check.finite_result(moment / total, "p_G", "q")


def centroidal_momentum_matrix(model: Model, q) -> np.ndarray:
    """A_G (6, nv): [m v_G; L_G] = A_G v, [linear; angular] about the CoM, world axes.

    Inward pass of composite inertias in world coordinates IC_j (subtree of j); the column
    block of joint j is IC_j S_w,j (momentum about the world origin), then shifted to G:
    h_G = [[1, 0], [-[p_G]x, 1]] h_O.
    """
    (q,) = state(model, q, batch=False)
    T = _forward_kinematics(model, q)
    nb, parent = model.nb, model.parent
    X_0 = [np.linalg.inv(motion_transform(T[i][:3, :3], T[i][:3, 3])) for i in range(nb)]  # body -> world
    IC = [np.linalg.inv(X_0[i]).T @ model.inertia[i] @ np.linalg.inv(X_0[i]) for i in range(nb)]
    for i in range(nb - 1, -1, -1):
        if parent[i] >= 0:
            IC[parent[i]] = IC[parent[i]] + IC[i]
    A_O = np.zeros((6, model.nv))
    for j in range(nb):
        A_O[:, model.v_slice[j]] = IC[j] @ X_0[j] @ model.S[j]
    p_G = center_of_mass(model, q)
    shift = np.eye(6)
    shift[3:, :3] = -np.array([[0.0, -p_G[2], p_G[1]], [p_G[2], 0.0, -p_G[0]], [-p_G[1], p_G[0], 0.0]])
    return check.finite_result(shift @ A_O, "A_G", "q")


def centroidal_momentum(model: Model, q, v) -> np.ndarray:
    """h_G = A_G(q) v (6,): [linear momentum (kg m/s); angular momentum about the CoM (kg m^2/s)]."""
    q, v = state(model, q, v, batch=False)
    return check.finite_result(centroidal_momentum_matrix(model, q) @ v, "h_G", "q, v")

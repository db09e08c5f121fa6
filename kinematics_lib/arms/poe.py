"""Products of exponentials (指数积公式): forward kinematics and Jacobians from screw axes.

A serial chain of n one-dof joints is described by its home pose M (the end-effector frame at
q = 0) and one screw axis per joint, as the columns of a (6, n) array in [v; w] order (the
library's twist order; Modern Robotics writes [w; v]). For a revolute joint w is the unit axis
and v = -w x r for a point r on the axis; for a prismatic joint w = 0 and v is the unit direction.

Space form (axes in the fixed frame {s} at q = 0):  T(q) = exp([S_1] q_1) ... exp([S_n] q_n) M.
Body form (axes in the end-effector frame at q = 0): T(q) = M exp([B_1] q_1) ... exp([B_n] q_n),
with B_i = Ad(M^-1) S_i. :func:`kinematics_lib.screw_axes` reads M and the axes from a Model.
"""

from __future__ import annotations

import numpy as np

from .. import _validate as check
from ..geometry.transforms import adjoint, se3_exp

__all__ = ["fk_poe", "jacobian_poe"]


def _screws_and_q(screws, q) -> tuple[np.ndarray, np.ndarray]:
    S = check.matrix(screws, (6, None), "screws")
    q = check.vector(q, None, "q")
    if q.shape != (S.shape[1],):
        raise check.InputError(f"q must have shape ({S.shape[1]},), one coordinate per column of screws, "
                               f"got shape {q.shape}")
    return S, q


def fk_poe(M, screws, q, space: bool = True) -> np.ndarray:
    """End-effector pose T (4, 4) by the product of exponentials.

    space=True:  T = exp([S_1] q_1) ... exp([S_n] q_n) M   (screws = space axes S, (6, n));
    space=False: T = M exp([B_1] q_1) ... exp([B_n] q_n)   (screws = body axes B, (6, n)).
    M (4, 4): home pose of the end effector in the fixed frame; screws: columns [v; w] (unit
    screws: |w| = 1, or w = 0 and |v| = 1); q (n,): joint coordinates (rad or m). Modern
    Robotics' FKinSpace / FKinBody with its [w; v] axes reordered to [v; w].
    """
    M = check.transform(M, "M")
    S, q = _screws_and_q(screws, q)
    T = np.eye(4)
    for i in range(S.shape[1]):
        T = T @ se3_exp(S[:, i] * q[i])
    return check.finite_result(T @ M if space else M @ T, "T", "screws, q")


def jacobian_poe(screws, q, space: bool = True) -> np.ndarray:
    """The space or body Jacobian (6, n) of a chain given by its screw axes; rows [v; w].

    space=True:  J_s = [S_1, Ad(e^[S_1]q_1) S_2, ..., Ad(e^[S_1]q_1 ... e^[S_n-1]q_n-1) S_n]:
                 the twist of the end effector in the fixed frame, V_s = J_s qd (v: velocity of
                 the point of the body at the fixed frame's origin);
    space=False: J_b = [Ad(e^-[B_n]q_n ... e^-[B_2]q_2) B_1, ..., B_n]: the twist in the
                 end-effector frame, V_b = J_b qd (v: velocity of its origin, its axes).
    J_b = Ad(T^-1) J_s. screws (6, n): S (space) or B (body), columns [v; w]; q (n,) rad or m.
    Modern Robotics' JacobianSpace / JacobianBody with rows reordered from [w; v] to [v; w].
    kl.frame_jacobian (world-aligned at the frame origin) is [[R, 0], [0, R]] J_b.
    """
    S, q = _screws_and_q(screws, q)
    n = S.shape[1]
    J = S.copy()
    T = np.eye(4)
    if space:
        for i in range(1, n):
            T = T @ se3_exp(S[:, i - 1] * q[i - 1])
            J[:, i] = adjoint(T) @ S[:, i]
    else:
        for i in range(n - 2, -1, -1):
            T = T @ se3_exp(-S[:, i + 1] * q[i + 1])
            J[:, i] = adjoint(T) @ S[:, i]
    return check.finite_result(J, "J", "screws, q")

"""The two contact pieces chapter 8 needs: an inscribed friction pyramid and the least-squares
force distribution on flat ground.

**To be folded:** chapter 7's contact layer (``kinematics_lib.contact``: ``friction_pyramid``,
``distribute_contact_forces``) was not on main when chapter 8 landed; these private stand-ins
do the same job and are to be replaced by calls of the contact layer once it lands.
"""

from __future__ import annotations

import numpy as np

EXACT_CONE_FACES = 32  # the exact cone is approximated from inside by this many faces
MAX_MU = 100.0  # friction coefficients beyond this are not physical (and stall the QP)


def _pyramid(mu: float, n_faces: int) -> np.ndarray:
    """A (n_faces + 1, 3): A f <= 0 is the pyramid inscribed in |f_t| <= mu f_z (normal +z)."""
    th = 2.0 * np.pi * np.arange(n_faces) / n_faces
    A = np.zeros((n_faces + 1, 3))
    A[:n_faces, 0], A[:n_faces, 1], A[:n_faces, 2] = np.cos(th), np.sin(th), -mu * np.cos(np.pi / n_faces)
    A[n_faces, 2] = -1.0
    return A


def _grasp(P: np.ndarray) -> np.ndarray:
    """G (6, 3k): [sum f_i; sum p_i x f_i] = G f."""
    G = np.zeros((6, 3 * len(P)))
    for i, p in enumerate(P):
        G[:3, 3 * i:3 * i + 3] = np.eye(3)
        G[3:, 3 * i:3 * i + 3] = [[0.0, -p[2], p[1]], [p[2], 0.0, -p[0]], [-p[1], p[0], 0.0]]
    return G


def _distribute(P: np.ndarray, wrench: np.ndarray, mu: float, n_faces: int | None) -> np.ndarray | None:
    """F (k, 3): min sum |f_i|^2 with G f = wrench, each f_i in its pyramid (ProxQP); None if infeasible."""
    import qpsolvers

    k = len(P)
    L = float(np.abs(P).max()) or 1.0
    s = max(float(np.abs(wrench[:3]).max()), float(np.abs(wrench[3:]).max()) / L)
    if s == 0.0:
        return np.zeros((k, 3))
    G, w = _grasp(P / L), np.concatenate([wrench[:3], wrench[3:] / L]) / s
    C = np.kron(np.eye(k), _pyramid(mu, n_faces or EXACT_CONE_FACES))
    sol = qpsolvers.solve_problem(qpsolvers.Problem(np.eye(3 * k), np.zeros(3 * k), C, np.zeros(C.shape[0]), G, w),
                                  solver="proxqp", eps_abs=1e-11, eps_rel=0.0, max_iter=5000)
    if not sol.found or not np.isfinite(sol.x).all():
        return None
    f = sol.x - np.linalg.lstsq(G, G @ sol.x - w, rcond=None)[0]  # polish the equilibrium
    if np.abs(G @ f - w).max() > 1e-8 or (C @ f).max() > 1e-8:
        return None
    return (f * s).reshape(k, 3)


def _mu(mu) -> float:
    """A friction coefficient 0 <= mu <= MAX_MU."""
    from .. import _validate as check

    mu = check.nonnegative(mu, "mu")
    if mu > MAX_MU:
        raise check.InputError(f"mu must be a friction coefficient in [0, {MAX_MU:g}], got {mu:g}")
    return mu

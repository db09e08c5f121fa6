"""Contact-force distribution: the forces at k point contacts on flat ground that balance a wrench.

Unknowns f = (f_1, ..., f_k), f_i (3,) in world axes [N] at p_i (3,) [m]. Equilibrium:
G f = wrench with the grasp matrix G = [[I, ..., I], [[p_1]x, ..., [p_k]x]] (6, 3k)
(force; moment about the world origin). Each f_i lies in its friction cone (normal +z), the
exact cone ||f_t|| <= mu f_n or an inscribed pyramid. With k >= 3 non-collinear contacts the
system is under-determined and an objective picks one solution:

* ``norm="l2"``: min sum_i w_i ||f_i||^2 -- a QP (pyramid; proxsuite's ProxQP through qpsolvers)
  or an SOCP (exact cone; Clarabel, interior point), strictly convex: unique;
* ``norm="l1"``: min sum_i w_i ||f_i||_1 -- an LP (pyramid; HiGHS) or an SOCP (Clarabel);
* ``norm="linf"``: min max_ij w_i |f_ij| -- idem.

An infeasible wrench (centre of pressure outside the support polygon, a pull away from the
ground, a tangential load beyond mu) raises; forces violating the constraints are never returned.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sparse

from .. import _validate as check
from ..geometry import skew
from .cones import MAX_FACES, friction_pyramid

__all__ = ["grasp_matrix", "distribute_contact_forces", "contact_wrench"]

MAX_CONTACTS = 64
FEAS_TOL = 1e-8   # equilibrium and cone tolerance, relative to the wrench


def _points(points) -> np.ndarray:
    P = check.matrix(points, (None, 3), "points")
    if not 1 <= P.shape[0] <= MAX_CONTACTS:
        raise check.InputError(f"points must have 1 ... {MAX_CONTACTS} rows (one per contact), got {P.shape[0]}")
    return P


def _grasp(P: np.ndarray) -> np.ndarray:
    k = P.shape[0]
    G = np.zeros((6, 3 * k))
    for i, p in enumerate(P):
        G[:3, 3 * i:3 * i + 3] = np.eye(3)
        G[3:, 3 * i:3 * i + 3] = skew(p)
    return G


def grasp_matrix(points) -> np.ndarray:
    """G (6, 3k) mapping stacked contact forces to the wrench [sum f_i; sum p_i x f_i] about the origin.

    points (k, 3) [m] in world axes.
    """
    return _grasp(_points(points))


def contact_wrench(points, forces) -> np.ndarray:
    """The wrench (6,) [N; N m] of forces (k, 3) at points (k, 3): [sum f_i; sum p_i x f_i] (about the origin)."""
    P = _points(points)
    F = check.matrix(forces, (None, 3), "forces")
    if F.shape[0] != P.shape[0]:
        raise check.InputError(f"forces must have shape ({P.shape[0]}, 3), one row per row of points, "
                               f"got shape {F.shape}")
    return check.finite_result(_grasp(P) @ F.ravel(), "wrench", "points or forces")


def _cone_rows(k: int, mu: float, n_faces: int) -> np.ndarray:
    A = friction_pyramid(mu, n_faces, True)
    return np.kron(np.eye(k), A)


def _qp_pyramid(G, w, mu, n_faces, weights):
    import qpsolvers

    k = G.shape[1] // 3
    P = np.diag(np.repeat(weights, 3))
    problem = qpsolvers.Problem(P, np.zeros(3 * k), _cone_rows(k, mu, n_faces), np.zeros(k * (n_faces + 1)), G, w)
    sol = qpsolvers.solve_problem(problem, solver="proxqp", eps_abs=1e-11, eps_rel=0.0)
    return sol.x if sol.found else None


def _lp_pyramid(G, w, mu, n_faces, weights, norm):
    from scipy.optimize import linprog

    k = G.shape[1] // 3
    n = 3 * k
    W = np.repeat(weights, 3)
    C = _cone_rows(k, mu, n_faces)
    if norm == "l1":  # x = [f, u], |W f| <= u, min sum u
        c = np.concatenate([np.zeros(n), np.ones(n)])
        A_ub = np.block([[C, np.zeros((C.shape[0], n))], [np.diag(W), -np.eye(n)], [-np.diag(W), -np.eye(n)]])
        A_eq = np.hstack([G, np.zeros((6, n))])
    else:  # x = [f, t], |W f| <= t, min t
        c = np.concatenate([np.zeros(n), [1.0]])
        A_ub = np.block([[C, np.zeros((C.shape[0], 1))], [np.diag(W), -np.ones((n, 1))],
                         [-np.diag(W), -np.ones((n, 1))]])
        A_eq = np.hstack([G, np.zeros((6, 1))])
    res = linprog(c, A_ub=A_ub, b_ub=np.zeros(A_ub.shape[0]), A_eq=A_eq, b_eq=w,
                  bounds=[(None, None)] * c.size, method="highs")
    return res.x[:n] if res.status == 0 else None


def _socp_exact(G, w, mu, weights, norm):
    import clarabel

    k = G.shape[1] // 3
    n = 3 * k
    W = np.repeat(weights, 3)
    extra = {"l2": 0, "l1": n, "linf": 1}[norm]
    N = n + extra
    P = np.zeros((N, N))
    c = np.zeros(N)
    if norm == "l2":
        P[:n, :n] = 2.0 * np.diag(W)
    else:
        c[n:] = 1.0
    rows, b, cones = [np.hstack([G, np.zeros((6, extra))])], [w], [clarabel.ZeroConeT(6)]
    if norm != "l2":  # W f - u <= 0 and -W f - u <= 0 (u one per component, or one t)
        U = np.eye(n) if norm == "l1" else np.ones((n, 1))
        rows += [np.hstack([np.diag(W), -U]), np.hstack([-np.diag(W), -U])]
        b.append(np.zeros(2 * n))
        cones.append(clarabel.NonnegativeConeT(2 * n))
    _add_friction_cones(rows, b, cones, k, mu, N, 0)
    x = _clarabel_solve(P, c, rows, b, cones, 1e-11)
    return None if x is None else x[:n]


def _add_friction_cones(rows: list, rhs: list, cones: list, k: int, mu: float, N: int, f0: int) -> None:
    """Append the k friction cones s_i = (mu f_z, f_x, f_y) in the second-order cone (Clarabel's
    form s = b - A x) for the forces stacked from column f0 of an N-column decision vector."""
    import clarabel

    for i in range(k):
        A = np.zeros((3, N))
        A[0, f0 + 3 * i + 2], A[1, f0 + 3 * i], A[2, f0 + 3 * i + 1] = -mu, -1.0, -1.0
        rows.append(A)
        rhs.append(np.zeros(3))
        cones.append(clarabel.SecondOrderConeT(3))


def _clarabel_solve(P, c, rows, rhs, cones, tol: float):
    """min ½ xᵀPx + cᵀx s.t. rhs − rows x in cones, by Clarabel (interior point, tolerances tol):
    x, or None unless solved. A panic inside the solver is reported as None too (private helper
    shared by chapter 7's SOCP, the whole-body QP and the physical identification)."""
    import clarabel

    settings = clarabel.DefaultSettings()
    settings.verbose = False
    settings.tol_gap_abs = settings.tol_gap_rel = settings.tol_feas = tol
    solver = clarabel.DefaultSolver(sparse.csc_matrix(np.triu(P)), c, sparse.csc_matrix(np.vstack(rows)),
                                    np.concatenate(rhs), cones, settings)
    try:
        sol = solver.solve()
    except BaseException as err:  # a Rust panic (pyo3 PanicException) is not an Exception
        if type(err).__name__ != "PanicException":
            raise
        return None
    return np.array(sol.x) if str(sol.status) in ("Solved", "AlmostSolved") else None


def _violation(G, w, f, mu, n_faces) -> float:
    F = f.reshape(-1, 3)
    eq = np.abs(G @ f - w).max()
    if n_faces is None:
        cone = np.max(np.hypot(F[:, 0], F[:, 1]) - mu * F[:, 2])
    else:
        cone = np.max(F @ friction_pyramid(mu, n_faces, True).T)
    return float(max(eq, cone, np.max(-F[:, 2])))


def distribute_contact_forces(points, wrench, mu, n_faces=None, norm="l2", weights=None) -> np.ndarray:
    """Contact forces (k, 3) [N] at points (k, 3) [m] on flat ground that balance ``wrench``.

    Finds f with sum f_i = wrench[:3] [N] and sum p_i x f_i = wrench[3:] [N m] (moments about the
    world origin, world axes), each f_i in its friction cone of coefficient mu (normal +z): the
    exact second-order cone when n_faces is None, else the inscribed n_faces-pyramid; minimising
    sum w_i ||f_i||^2 (norm "l2"), sum w_i ||f_i||_1 ("l1") or max w_i |f_ij| ("linf");
    weights (k,) > 0, default 1. Solvers: ProxQP (l2, pyramid), Clarabel (exact cone), HiGHS
    (l1/linf, pyramid). Raises ValueError naming ``wrench`` when no such forces exist.
    """
    P = _points(points)
    k = P.shape[0]
    wrench = check.vector(wrench, 6, "wrench")
    mu = check.nonnegative(mu, "mu")
    if n_faces is not None:
        n_faces = check.integer(n_faces, "n_faces", 3, MAX_FACES)
    norm = check.one_of(norm, ("l2", "l1", "linf"), "norm")
    weights = np.ones(k) if weights is None else check.vector(weights, None, "weights")
    if weights.shape != (k,):
        raise check.InputError(f"weights must have shape ({k},), one per row of points, got shape {weights.shape}")
    if not (weights > 0.0).all():
        raise check.InputError(f"weights must be positive (one per contact), got {weights}")
    weights = weights / weights.max()
    L = float(np.abs(P).max()) or 1.0
    s = max(float(np.abs(wrench[:3]).max()), float(np.abs(wrench[3:]).max()) / L)
    if s == 0.0:
        return np.zeros((k, 3))
    G = _grasp(P / L)
    w = np.concatenate([wrench[:3], wrench[3:] / L]) / s
    with np.errstate(all="ignore"):
        if n_faces is None:
            f = _socp_exact(G, w, mu, weights, norm)
        elif norm == "l2":
            f = _qp_pyramid(G, w, mu, n_faces, weights)
        else:
            f = _lp_pyramid(G, w, mu, n_faces, weights, norm)
    if f is not None and np.isfinite(f).all():
        f = f - np.linalg.lstsq(G, G @ f - w, rcond=None)[0]  # polish the equilibrium
    if f is None or not np.isfinite(f).all() or _violation(G, w, f, mu, n_faces) > FEAS_TOL:
        cone = "exact friction cone" if n_faces is None else f"inscribed {n_faces}-face pyramid"
        raise check.InputError(
            f"wrench is infeasible at these points: no forces at the {k} contacts inside the {cone} (mu = {mu:g}) "
            "balance it (centre of pressure outside the support polygon, a pull away from the ground, "
            "or a tangential load beyond mu)")
    return check.finite_result((f * s).reshape(k, 3), "forces", "wrench or points")

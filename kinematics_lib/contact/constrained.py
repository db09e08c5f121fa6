"""Constrained dynamics: Lagrange multipliers (KKT), the projection method and Baumgarte terms.

Equations of motion with k constraints J(q) v = 0 (bilateral, holonomic or not):

    M a + h = tau + J^T lam,        J a = -Jdot_v          (acceleration level)

M (n, n) symmetric positive definite, h = C v + g (n,), J (k, n), Jdot_v = Jdot v (k,),
tau (n,) the generalised force S^T tau, lam (k,) the constraint forces. In matrix form this is
the saddle-point (KKT) system  [[M, -J^T], [J, 0]] [a; lam] = [tau - h; -Jdot_v]: a *linear*
system (complementarity appears only with unilateral contacts, see ``lcp``).
"""

from __future__ import annotations

import numpy as np

from .. import _validate as check

__all__ = ["kkt_dynamics", "regularized_kkt_dynamics", "projected_dynamics", "constraint_projector",
           "delassus_matrix", "baumgarte_bias"]

#: condition number of J M^-1 J^T beyond which the constraints are treated as dependent
COND_LIMIT = 1e12


def _mass_matrix(M, name: str = "M") -> np.ndarray:
    M = check.matrix(M, (None, None), name)
    n = M.shape[0]
    if M.shape != (n, n) or n == 0:
        raise check.InputError(f"{name} must be a non-empty square matrix, got shape {M.shape}")
    scale = float(np.abs(M).max())
    if np.abs(M - M.T).max() > 1e-9 * scale:
        raise check.InputError(f"{name} must be symmetric, max |M - M^T| = {np.abs(M - M.T).max():.3e}")
    eig = np.linalg.eigvalsh(M)
    if not eig[0] > 1e-14 * max(eig[-1], 1e-300):
        raise check.InputError(f"{name} must be positive definite, smallest eigenvalue {eig[0]:.3e}")
    return M


def _system(M, h, J, Jdot_v, tau):
    M = _mass_matrix(M)
    n = M.shape[0]
    J = check.matrix(J, (None, n), "J")
    if J.shape[0] == 0 or J.shape[0] > n:
        raise check.InputError(f"J must have 1 ... {n} rows (one per constraint; n = {n} = width of M), "
                               f"got shape {J.shape}")
    k = J.shape[0]
    h = check.vector(h, n, "h")
    tau = check.vector(tau, n, "tau")
    Jdot_v = check.vector(Jdot_v, None, "Jdot_v")
    if Jdot_v.shape != (k,):
        raise check.InputError(f"Jdot_v must have shape ({k},), one entry per row of J, got shape {Jdot_v.shape}")
    return M, h, J, Jdot_v, tau


def _delassus(M: np.ndarray, J: np.ndarray) -> np.ndarray:
    MinvJT = np.linalg.solve(M, J.T)
    A = J @ MinvJT
    return 0.5 * (A + A.T)


def _independent(A: np.ndarray, what: str = "J") -> None:
    eig = np.linalg.eigvalsh(A)
    if not eig[0] > eig[-1] / COND_LIMIT:
        cond = np.inf if eig[0] <= 0.0 else eig[-1] / eig[0]
        raise check.InputError(f"{what} has dependent rows (redundant constraints): cond(J M^-1 J^T) = "
                               f"{cond:.3e}, the multipliers are not unique; use regularized_kkt_dynamics")


def kkt_dynamics(M, h, J, Jdot_v, tau) -> tuple[np.ndarray, np.ndarray]:
    """Constrained forward dynamics by the saddle-point (KKT) system.

    Solves [[M, -J^T], [J, 0]] [a; lam] = [tau - h; -Jdot_v], i.e. M a + h = tau + J^T lam and
    J a = -Jdot_v. M (n, n) SPD, h (n,), J (k, n) of full row rank, Jdot_v (k,), tau (n,).
    Returns a (n,) and lam (k,) (units of tau). Dependent rows of J raise (see
    :func:`regularized_kkt_dynamics`).
    """
    M, h, J, Jdot_v, tau = _system(M, h, J, Jdot_v, tau)
    _independent(_delassus(M, J))
    n, k = M.shape[0], J.shape[0]
    K = np.block([[M, -J.T], [J, np.zeros((k, k))]])
    x = np.linalg.solve(K, np.concatenate([tau - h, -Jdot_v]))
    check.finite_result(x, "a, lam", "M, h, J, Jdot_v or tau")
    return x[:n], x[n:]


def regularized_kkt_dynamics(M, h, J, Jdot_v, tau, damping=1e-6) -> tuple[np.ndarray, np.ndarray]:
    """Constrained dynamics with a regularised Schur complement (redundant constraints allowed).

    lam = -(J M^-1 J^T + damping I)^-1 (J M^-1 (tau - h) + Jdot_v),  a = M^-1 (tau - h + J^T lam).
    damping > 0 (units of J M^-1 J^T) makes dependent rows solvable at the price of a residual
    J a + Jdot_v = damping lam. Returns a (n,), lam (k,).
    """
    M, h, J, Jdot_v, tau = _system(M, h, J, Jdot_v, tau)
    damping = check.positive(damping, "damping")
    a0 = np.linalg.solve(M, tau - h)
    A = _delassus(M, J) + damping * np.eye(J.shape[0])
    lam = -np.linalg.solve(A, J @ a0 + Jdot_v)
    a = a0 + np.linalg.solve(M, J.T @ lam)
    check.finite_result((a, lam), "a, lam", "M, h, J, Jdot_v or tau")
    return a, lam


def delassus_matrix(M, J) -> np.ndarray:
    """The Delassus (inverse operational inertia) matrix  J M^-1 J^T  (k, k), M (n, n) SPD, J (k, n)."""
    M = _mass_matrix(M)
    J = check.matrix(J, (None, M.shape[0]), "J")
    if J.shape[0] == 0:
        raise check.InputError("J must have at least one row (one per constraint), got shape (0, n)")
    with np.errstate(all="ignore"):
        A = _delassus(M, J)
    return check.finite_result(A, "J M^-1 J^T", "M or J")


def constraint_projector(M, J) -> np.ndarray:
    """The projector  P = I - J^T (J M^-1 J^T)^-1 J M^-1  (n, n) of the projection method.

    P J^T = 0 (it removes every constraint force), P^2 = P, rank P = n - k. J (k, n) full row rank.
    """
    M = _mass_matrix(M)
    J = check.matrix(J, (None, M.shape[0]), "J")
    if J.shape[0] == 0 or J.shape[0] > M.shape[0]:
        raise check.InputError(f"J must have 1 ... {M.shape[0]} rows (width of M), got shape {J.shape}")
    A = _delassus(M, J)
    _independent(A)
    P = np.eye(M.shape[0]) - J.T @ np.linalg.solve(A, np.linalg.solve(M, J.T).T)
    return check.finite_result(P, "P", "M or J")


def projected_dynamics(M, h, J, Jdot_v, tau) -> np.ndarray:
    """Forward dynamics by the projection method, without the multipliers.

    P M a = P (tau - h) gives only n - k equations (rank P = n - k); together with J a = -Jdot_v
    they determine a (n,): the stacked system [P M; J] a = [P (tau - h); -Jdot_v] is solved by
    least squares (it is consistent). Equals the a of :func:`kkt_dynamics`.
    """
    M, h, J, Jdot_v, tau = _system(M, h, J, Jdot_v, tau)
    A = _delassus(M, J)
    _independent(A)
    P = np.eye(M.shape[0]) - J.T @ np.linalg.solve(A, np.linalg.solve(M, J.T).T)
    a = np.linalg.lstsq(np.vstack([P @ M, J]), np.concatenate([P @ (tau - h), -Jdot_v]), rcond=None)[0]
    return check.finite_result(a, "a", "M, h, J, Jdot_v or tau")


def baumgarte_bias(Jdot_v, Jv, c, alpha, beta) -> np.ndarray:
    """The stabilised bias  Jdot_v + 2 alpha J v + beta^2 c  to use in place of Jdot_v.

    With it the constraint obeys  c'' + 2 alpha c' + beta^2 c = 0  (Baumgarte): a drifted c
    returns to 0 instead of growing. Jdot_v, Jv = J v = c', c (k,); alpha [1/s] >= 0, beta [1/s] >= 0.
    """
    Jdot_v = check.vector(Jdot_v, None, "Jdot_v")
    k = Jdot_v.shape[0]
    if k == 0:
        raise check.InputError("Jdot_v must have at least one entry (one per constraint)")
    Jv, c = check.vector(Jv, None, "Jv"), check.vector(c, None, "c")
    for name, x in (("Jv", Jv), ("c", c)):
        if x.shape != (k,):
            raise check.InputError(f"{name} must have shape ({k},), one entry per entry of Jdot_v, got shape {x.shape}")
    alpha = np.float64(check.nonnegative(alpha, "alpha"))
    beta = np.float64(check.nonnegative(beta, "beta"))
    with np.errstate(all="ignore"):
        bias = Jdot_v + 2.0 * alpha * Jv + beta * beta * c
    return check.finite_result(bias, "bias", "Jdot_v, Jv, c, alpha or beta")

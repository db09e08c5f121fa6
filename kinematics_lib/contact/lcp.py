"""The linear complementarity problem and Lemke's complementary pivoting algorithm.

LCP(M, q): find z (n,) with  w = M z + q >= 0,  z >= 0,  z^T w = 0.  Rigid contact with
friction leads to it: 0 <= f_n ⊥ (normal velocity) >= 0 and the like for the friction
directions (``contact_step``). With M symmetric positive definite the LCP is the optimality
condition of the QP  min 1/2 z^T M z + q^T z  s.t. z >= 0  (the tests cross-check the two).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from .. import _validate as check

__all__ = ["LCPResult", "solve_lcp", "solve_lcp_enumeration", "lcp_matrix_check", "lcp_by_qp"]

MAX_SIZE = 500        # unknowns accepted by solve_lcp
MAX_ENUMERATION = 16  # 2^16 complementary bases at most


@dataclass(frozen=True)
class LCPResult:
    """The outcome of an LCP solve.

    z, w = M z + q (n,); status "solved", "ray termination" (no solution found: the problem may
    have none) or "max iterations"; iterations: pivots made. z and w are meaningful only when
    status == "solved".
    """

    z: np.ndarray
    w: np.ndarray
    status: str
    iterations: int

    @property
    def solved(self) -> bool:
        return self.status == "solved"


def lcp_matrix_check(M, q) -> tuple[np.ndarray, np.ndarray]:
    """The checked pair (M (n, n), q (n,)) of an LCP (any square M; n <= 500)."""
    M = check.matrix(M, (None, None), "M")
    n = M.shape[0]
    if M.shape != (n, n) or not 1 <= n <= MAX_SIZE:
        raise check.InputError(f"M must be a square matrix of size 1 ... {MAX_SIZE}, got shape {M.shape}")
    return M, check.vector(q, n, "q")


def _pivot(T: np.ndarray, r: int, c: int) -> None:
    T[r] /= T[r, c]
    col = T[:, c].copy()
    col[r] = 0.0
    T -= np.outer(col, T[r])


def _leaving(T: np.ndarray, col: np.ndarray, basis: list, z0: int, n: int, tol: float) -> int | None:
    """The minimum-ratio row (z0 first among ties, then lexicographic), or None for a ray."""
    rows = np.flatnonzero(col > tol)
    if rows.size == 0:
        return None
    for k in [-1, *range(n)]:  # rhs first, then the columns of B^-1 (lexicographic rule)
        ratio = T[rows, k] / col[rows]
        rows = rows[ratio <= ratio.min() + tol * max(1.0, abs(ratio.min()))]
        if k == -1 and any(basis[r] == z0 for r in rows):
            return next(r for r in rows if basis[r] == z0)
        if rows.size == 1:
            break
    return int(rows[0])


def solve_lcp(M, q, max_iter=None) -> LCPResult:
    """Lemke's algorithm for LCP(M, q): w = M z + q >= 0, z >= 0, z^T w = 0.

    Tableau [I, -M, -d, q] over (w, z, z0) with covering vector d = 1; z0 enters, the most
    negative q_i leaves, then the complement of each leaving variable enters (minimum-ratio test,
    lexicographic ties) until z0 leaves ("solved") or a column has no positive entry ("ray
    termination": for a positive definite or copositive-plus M with a feasible LCP this does not
    happen). M (n, n), q (n,); max_iter: pivots allowed (default 50 n + 100, at most 10^6).
    Returns an :class:`LCPResult`; a solved z is polished so that z^T w is at rounding level.
    """
    M, q = lcp_matrix_check(M, q)
    n = M.shape[0]
    limit = 50 * n + 100 if max_iter is None else check.integer(max_iter, "max_iter", 1, 10**6)
    if (q >= 0.0).all():
        return LCPResult(np.zeros(n), q.copy(), "solved", 0)
    sM, sq = max(float(np.abs(M).max()), 1e-300), float(np.abs(q).max())
    # scaled: LCP(M / sM, q / sq) has the solution z' = z sM / sq
    T = np.hstack([np.eye(n), -M / sM, -np.ones((n, 1)), q[:, None] / sq])
    z0, tol = 2 * n, 1e-11
    basis = list(range(n))               # w_i basic
    r = int(np.argmin(T[:, -1]))
    entering, it = z0, 0
    while it < limit:
        it += 1
        _pivot(T, r, entering)
        leaving, basis[r] = basis[r], entering
        if leaving == z0:
            return _solution(M, q, T, basis, n, it, sq / sM)
        entering = leaving + n if leaving < n else leaving - n
        r = _leaving(T, T[:, entering], basis, z0, n, tol)
        if r is None:
            return LCPResult(np.zeros(n), q.copy(), "ray termination", it)
    return LCPResult(np.zeros(n), q.copy(), "max iterations", it)


def _solution(M, q, T, basis, n, it, unscale) -> LCPResult:
    z = np.zeros(n)
    for row, var in enumerate(basis):
        if n <= var < 2 * n:
            z[var - n] = max(T[row, -1], 0.0) * unscale
    active = z > 0.0  # polish: solve the complementary system exactly on the active set
    if active.any():
        try:
            z_a = np.linalg.solve(M[np.ix_(active, active)], -q[active])
            if (z_a >= 0.0).all():
                z[active] = z_a
        except np.linalg.LinAlgError:
            pass
    with np.errstate(all="ignore"):
        w = M @ z + q
    check.finite_result((z, w), "z, w", "M, q")
    return LCPResult(z, w, "solved", it)


def solve_lcp_enumeration(M, q, tol=1e-9) -> list[np.ndarray]:
    """Every solution of LCP(M, q) found by trying all 2^n complementary bases (n <= 16).

    For each subset S: z_S = -M_SS^-1 q_S, z elsewhere 0, accepted when z >= -tol and
    w = M z + q >= -tol (scaled by max(1, |q|)). Returns the list of distinct solutions z (n,)
    (empty when there is none); a reference for small problems, exponential in n.
    """
    M, q = lcp_matrix_check(M, q)
    n = M.shape[0]
    if n > MAX_ENUMERATION:
        raise check.InputError(f"M must have at most {MAX_ENUMERATION} rows for enumeration, got {n}")
    tol = check.positive(tol, "tol") * max(1.0, float(np.abs(q).max()))
    found: list[np.ndarray] = []
    for mask in itertools.product((False, True), repeat=n):
        S = np.array(mask)
        z = np.zeros(n)
        if S.any():
            MSS = M[np.ix_(S, S)]
            if abs(np.linalg.det(MSS)) < 1e-12 * max(1.0, float(np.abs(MSS).max())) ** S.sum():
                continue
            z[S] = np.linalg.solve(MSS, -q[S])
        w = M @ z + q
        if (z >= -tol).all() and (w >= -tol).all() and not any(np.allclose(z, s, atol=tol) for s in found):
            found.append(z)
    return found


def lcp_by_qp(M, q) -> np.ndarray:
    """z of LCP(M, q) for symmetric positive definite M, as the QP  min 1/2 z^T M z + q^T z, z >= 0.

    Its KKT conditions are the LCP (w = M z + q is the bound multiplier); solved by ProxQP
    (proxsuite, through qpsolvers): the independent cross-check of :func:`solve_lcp`.
    M (n, n) SPD, q (n,) -> z (n,).
    """
    import qpsolvers
    from .constrained import _mass_matrix

    M = _mass_matrix(M)
    q = check.vector(q, M.shape[0], "q")
    sM, sq = float(np.abs(M).max()), max(float(np.abs(q).max()), 1e-300)
    with np.errstate(all="ignore"):  # scaled: z = (sq / sM) z' with M' = M / sM, q' = q / sq
        z = qpsolvers.solve_qp(M / sM, q / sq, lb=np.zeros(q.size), solver="proxqp", eps_abs=1e-12, eps_rel=0.0,
                               max_iter=10_000)
        if z is not None:
            z = np.maximum(z, 0.0) * (sq / sM)
    if z is None or not np.isfinite(z).all():
        raise check.InputError("M, q: the QP solver did not converge (M too badly conditioned, or q too large)")
    return z

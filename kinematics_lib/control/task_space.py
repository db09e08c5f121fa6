"""Task-space (operational-space) dynamics (任务空间动力学 / 操作空间), document 003 §3.4.

For a task x with ẋ = J q̇ (J (m, n)), the joint-space equation M q̈ + c + g = τ (c = C q̇) seen at
the task is (Khatib 1987)

    Λ ẍ + μ + p = F,   Λ = (J M⁻¹ Jᵀ)⁻¹,  μ = Λ (J M⁻¹ c − J̇ q̇),  p = Λ J M⁻¹ g,

where F is the task force that the joint torques τ = Jᵀ F produce. The map back from τ to F is
F = J̄ᵀ τ with the dynamically consistent inverse (动力学一致广义逆) J̄ = M⁻¹ Jᵀ Λ. Only when J
is square and non-singular is J̄ᵀ = J⁻ᵀ (document 003's F = J⁻ᵀ τ); for a redundant arm (m < n)
J⁻ᵀ does not exist, and the Moore-Penrose pinv(J)ᵀ τ is *not* the task force: it ignores M.

Shapes: M (n, n) symmetric positive definite (kg·m², kg); J (m, n) with m <= n; vectors (n,) or
(m,). Units follow the task: N and m for a position task.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .. import _validate as check
from .plants import TwoLinkArm  # noqa: F401 (the doctests' arm)

__all__ = ["task_space_inertia", "operational_space_terms", "dynamically_consistent_inverse",
           "OperationalSpaceTerms"]

SINGULAR_RCOND = 1e-10


def _mass_matrix(M) -> tuple[np.ndarray, np.ndarray]:
    """(M, Cholesky factor L) of a symmetric positive-definite M; ValueError naming M otherwise."""
    M = check.matrix(M, (None, None), "M")
    n = M.shape[0]
    if M.shape != (n, n) or n == 0:
        raise check.InputError(f"M must be a non-empty square matrix (n, n), got shape {M.shape}")
    scale = np.abs(M).max()
    if not np.allclose(M, M.T, rtol=1e-9, atol=1e-12 * max(scale, 1e-300)):
        raise check.InputError("M must be symmetric (a mass matrix)")
    try:
        L = np.linalg.cholesky(M)
    except np.linalg.LinAlgError:
        raise check.InputError("M must be positive definite (a mass matrix)") from None
    if not np.isfinite(L).all() or np.diag(L).min() <= np.sqrt(SINGULAR_RCOND * scale) * 1e-3:
        raise check.InputError("M must be positive definite (a mass matrix), it is numerically singular")
    return M, L


def _jacobian(J, n: int) -> np.ndarray:
    J = check.matrix(J, (None, None), "J")
    if J.shape[1] != n or not 1 <= J.shape[0] <= n:
        raise check.InputError(f"J must have shape (m, {n}) with 1 <= m <= {n}: one column per column of M, "
                               f"got shape {J.shape}")
    return J


def _solve(L: np.ndarray, B: np.ndarray) -> np.ndarray:
    """M⁻¹ B from the Cholesky factor L (M = L Lᵀ)."""
    return np.linalg.solve(L.T, np.linalg.solve(L, B))


def _lambda(L: np.ndarray, J: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(Λ, M⁻¹ Jᵀ); ValueError naming J when J M⁻¹ Jᵀ is singular."""
    MinvJt = _solve(L, J.T)
    A = J @ MinvJt
    A = 0.5 * (A + A.T)
    ev = np.linalg.eigvalsh(A)
    if not np.isfinite(ev).all() or ev.max() <= 0.0 or ev.min() <= SINGULAR_RCOND * ev.max():
        rank = int(np.sum(ev > SINGULAR_RCOND * max(ev.max(), 1e-300))) if np.isfinite(ev).all() else 0
        raise check.InputError(f"Λ does not exist: J M⁻¹ Jᵀ is singular (rank {rank} < {J.shape[0]}); J must have "
                               f"full row rank (it loses rank at a kinematic singularity or with dependent task "
                               f"rows) and M must be well conditioned")
    Lam = np.linalg.inv(A)
    return check.finite_result(0.5 * (Lam + Lam.T), "Lambda", "M or J"), MinvJt


def task_space_inertia(M, J) -> np.ndarray:
    """Λ = (J M⁻¹ Jᵀ)⁻¹ (m, m): the inertia the task "feels" (kg for a position task).

    ValueError naming J when J M⁻¹ Jᵀ is singular (J loses rank).

    >>> arm = TwoLinkArm()               # document 004's arm at q = (30°, 60°)
    >>> q = np.radians([30.0, 60.0])
    >>> np.round(task_space_inertia(arm.mass_matrix(q), arm.jacobian(q)), 6)
    array([[1.      , 0.      ],
           [0.      , 3.666667]])
    """
    M, L = _mass_matrix(M)
    return _lambda(L, _jacobian(J, M.shape[0]))[0]


class OperationalSpaceTerms(NamedTuple):
    """Λ (m, m), μ (m,), p (m,) of Λ ẍ + μ + p = F."""

    Lambda: np.ndarray
    mu: np.ndarray
    p: np.ndarray


def operational_space_terms(M, J, Jdot_v, c, g) -> OperationalSpaceTerms:
    """(Λ, μ, p) with Λ = (J M⁻¹ Jᵀ)⁻¹, μ = Λ (J M⁻¹ c − J̇ q̇), p = Λ J M⁻¹ g.

    M (n, n); J (m, n); Jdot_v = J̇ q̇ (m,); c = C(q, q̇) q̇ (n,); g = g(q) (n,). Then
    Λ ẍ + μ + p = F for the task acceleration ẍ = J q̈ + J̇ q̇ under τ = Jᵀ F.
    """
    M, L = _mass_matrix(M)
    n = M.shape[0]
    J = _jacobian(J, n)
    Jdot_v = check.vector(Jdot_v, J.shape[0], "Jdot_v")
    c, g = check.vector(c, n, "c"), check.vector(g, n, "g")
    Lam, MinvJt = _lambda(L, J)
    mu = Lam @ (MinvJt.T @ c - Jdot_v)
    p = Lam @ (MinvJt.T @ g)
    check.finite_result((mu, p), "mu and p", "M, J, Jdot_v, c or g")
    return OperationalSpaceTerms(Lam, mu, p)


def dynamically_consistent_inverse(M, J) -> np.ndarray:
    """J̄ = M⁻¹ Jᵀ Λ (n, m): J J̄ = I, and F = J̄ᵀ τ is the task force that τ produces.

    Dynamically consistent: a torque τ₀ projected by Nᵀ = I − Jᵀ J̄ᵀ causes no task acceleration
    (J M⁻¹ Nᵀ τ₀ = 0). For a square non-singular J, J̄ = J⁻¹.
    """
    M, L = _mass_matrix(M)
    Lam, MinvJt = _lambda(L, _jacobian(J, M.shape[0]))
    return check.finite_result(MinvJt @ Lam, "J_bar", "M or J")

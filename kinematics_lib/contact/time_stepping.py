"""Time-stepping rigid contact with Coulomb friction as an LCP (Stewart-Trinkle / Anitescu-Potra).

Per step of length dt, with velocities v (n,), mass matrix M, external and bias forces f_ext
(n,), normal rows N (c, n) (one per contact; N v = normal separation speed) and d friction
directions per contact D (c d, n) (rows +-t for a planar contact, the pyramid's edge
directions in 3-D), the impulses p_n (c,), beta (c d,) and the sliding-speed estimate gamma (c,)
solve the LCP

    w_n   = N v+ + e-terms          >= 0  ⊥  p_n  >= 0      (no penetration, push only)
    w_b   = D v+ + E gamma          >= 0  ⊥  beta >= 0      (friction opposes sliding)
    w_g   = mu p_n - E^T beta       >= 0  ⊥  gamma >= 0     (inside the friction pyramid)

with v+ = v + M^-1 (dt f_ext + N^T p_n + D^T beta) and E (c d, c) the block of ones that sums each
contact's directions. Its complementarity contains the three cases of 0 <= c ⊥ f_n >= 0 and
stick (gamma = 0) / slip (gamma = sliding speed, |f_t| = mu f_n).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import _validate as check
from .constrained import _mass_matrix
from .lcp import LCPResult, solve_lcp

__all__ = ["ContactStep", "contact_lcp", "contact_step", "contact_step_qp", "incline_box_run", "ball_drop_run"]

MAX_STEPS = 1000  # the worked examples are short runs (a Lemke solve and two QPs per step)


@dataclass(frozen=True)
class ContactStep:
    """One time step: v_next (n,), normal impulses p_n (c,) [N s], friction impulses beta (c d,)
    [N s] along the rows of D, sliding estimate gamma (c,) [m/s], and the LCP result."""

    v_next: np.ndarray
    p_n: np.ndarray
    beta: np.ndarray
    gamma: np.ndarray
    lcp: LCPResult


def _build(M, v, f_ext, N, D, mu, dt, gap, restitution):
    n = M.shape[0]
    c, cd = N.shape[0], D.shape[0]
    d = cd // c
    Minv = np.linalg.inv(M)
    E = np.repeat(np.eye(c), d, axis=0)  # (c d, c): ones where row j is a direction of contact i
    v_free = v + dt * Minv @ f_ext
    A = np.zeros((2 * c + cd, 2 * c + cd))  # [[N W Nᵀ, N W Dᵀ, 0], [D W Nᵀ, D W Dᵀ, E], [mu 1, -Eᵀ, 0]], W = M⁻¹
    A[:c, :c], A[:c, c:c + cd] = N @ Minv @ N.T, N @ Minv @ D.T
    A[c:c + cd, :c], A[c:c + cd, c:c + cd], A[c:c + cd, c + cd:] = D @ Minv @ N.T, D @ Minv @ D.T, E
    A[c + cd:, :c], A[c + cd:, c:c + cd] = mu * np.eye(c), -E.T
    qn = N @ v_free
    bounce = restitution * np.minimum(N @ v, 0.0)
    if gap is None:
        qn = qn + bounce
    else:  # apart and not closing this step: free; closing: Newton's impact law (e > 0) or land exactly (e = 0)
        gap = np.maximum(gap, 0.0)
        closing = gap + dt * qn <= 0.0
        qn = qn + np.where(closing & (restitution > 0.0), bounce, gap / dt)
    q = np.concatenate([qn, D @ v_free, np.zeros(c)])
    return A, q, Minv, v_free, c, cd, n


def _checked(M, v, f_ext, N, D, mu, dt, gap, restitution):
    M = _mass_matrix(M)
    n = M.shape[0]
    v, f_ext = check.vector(v, n, "v"), check.vector(f_ext, n, "f_ext")
    N = check.matrix(N, (None, n), "N")
    c = N.shape[0]
    if not 1 <= c <= 64:
        raise check.InputError(f"N must have 1 ... 64 rows (one per contact), got {c}")
    D = check.matrix(D, (None, n), "D")
    if D.shape[0] == 0 or D.shape[0] % c or D.shape[0] // c > 64:
        raise check.InputError(f"D must have d rows per contact (a multiple of the {c} rows of N), got {D.shape[0]}")
    mu = check.nonnegative(mu, "mu")
    dt = check.positive(dt, "dt")
    if gap is not None:
        gap = check.vector(gap, None, "gap")
        if gap.shape != (c,):
            raise check.InputError(f"gap must have shape ({c},), one entry per row of N, got shape {gap.shape}")
    restitution = check.nonnegative(restitution, "restitution")
    if restitution > 1.0:
        raise check.InputError(f"restitution must be in [0, 1], got {restitution}")
    return M, v, f_ext, N, D, mu, dt, gap, restitution


def contact_lcp(M, v, f_ext, N, D, mu, dt, gap=None, restitution=0.0) -> tuple[np.ndarray, np.ndarray]:
    """The LCP (A (m, m), q (m,)), m = 2c + c d, of one contact time step (see the module docstring).

    M (n, n) SPD; v, f_ext (n,); N (c, n); D (c d, n); mu >= 0; dt [s] > 0; gap (c,) [m]
    optional (positive: apart); restitution e in [0, 1] (Newton's law on the normal speed).
    """
    with np.errstate(all="ignore"):
        A, q, *_ = _build(*_checked(M, v, f_ext, N, D, mu, dt, gap, restitution))
    return check.finite_result((A, q), "A, q", "M, v, f_ext, N, D, dt")


def contact_step(M, v, f_ext, N, D, mu, dt, gap=None, restitution=0.0) -> ContactStep:
    """One time step of rigid contact with friction, its LCP solved by Lemke (:func:`solve_lcp`).

    Arguments as :func:`contact_lcp`. Returns a :class:`ContactStep`; raises if Lemke does not
    solve the LCP (it does for mu >= 0 and SPD M: the matrix is copositive, z^T A z = mu p_n gamma >= 0,
    and Lemke processes this class -- Anitescu & Potra 1997; it is not copositive-plus when mu > 0).
    """
    with np.errstate(all="ignore"):
        A, q, Minv, v_free, c, cd, n = _build(*_checked(M, v, f_ext, N, D, mu, dt, gap, restitution))
    check.finite_result((A, q), "the contact LCP", "M, v, f_ext, N, D, dt")
    N, D = np.asarray(N, float), np.asarray(D, float)
    res = solve_lcp(A, q)
    if not res.solved:
        raise check.InputError(f"the contact LCP was not solved ({res.status}): check M, N, D and mu")
    p_n, beta, gamma = res.z[:c], res.z[c:c + cd], res.z[c + cd:]
    v_next = v_free + Minv @ (N.T @ p_n + D.T @ beta)
    check.finite_result(v_next, "v_next", "M, v, f_ext, dt")
    return ContactStep(v_next, p_n, beta, gamma, res)


def contact_step_qp(M, v, f_ext, N, D, mu, dt) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The same step by two QPs (ProxQP): normal impulses, then friction by maximal dissipation.

    (1) p_n = argmin 1/2 v+^T M v+ over p_n >= 0 with N v+ >= 0 (friction left out);
    (2) beta = argmin 1/2 v+^T M v+ over beta >= 0 with E^T beta <= mu p_n (p_n fixed).
    The pair solves the LCP exactly when the normal and friction directions are decoupled,
    N M^-1 D^T = 0 (a translating body: the box on the incline, the ball); in general it is an
    approximation, which is why the LCP is solved. Returns v_next (n,), p_n (c,), beta (c d,).
    """
    import qpsolvers

    M, v, f_ext, N, D, mu, dt, _, _ = _checked(M, v, f_ext, N, D, mu, dt, None, 0.0)
    c, cd = N.shape[0], D.shape[0]
    Minv = np.linalg.inv(M)
    with np.errstate(all="ignore"):  # 1/2 v+^T M v+ = 1/2 p^T (B M^-1 B^T) p + (B v_free)^T p + const
        v_free = v + dt * Minv @ f_ext
        An, Ad = N @ Minv @ N.T, D @ Minv @ D.T
    check.finite_result((v_free, An, Ad), "the contact QPs", "M, v, f_ext, N, D, dt")
    E = np.kron(np.eye(c), np.ones((cd // c, 1)))
    # scaled: with A = sA A' and b = s b', the minimiser of 1/2 p^T A p + b^T p is p = (s / sA) p''
    s = max(float(np.abs(v_free).max()), 1e-300)
    sn, sd = max(float(np.abs(An).max()), 1e-300), max(float(np.abs(Ad).max()), 1e-300)
    opts = dict(solver="proxqp", eps_abs=1e-12, eps_rel=0.0, max_iter=10_000)
    with np.errstate(all="ignore"):
        p_n = qpsolvers.solve_qp(An / sn, N @ v_free / s, lb=np.zeros(c), **opts)
        beta = None
        if p_n is not None:
            p_n = p_n * s / sn
            b = D @ (v_free + Minv @ N.T @ p_n) / s
            beta = qpsolvers.solve_qp(Ad / sd + 1e-12 * np.eye(cd), b, E.T, mu * p_n * sd / s, lb=np.zeros(cd), **opts)
    if p_n is None or beta is None or not (np.isfinite(p_n).all() and np.isfinite(beta).all()):
        raise check.InputError("the contact QPs were not solved: check M, v, f_ext, N, D, mu")
    beta = beta * s / sd
    v_next = check.finite_result(v_free + Minv @ (N.T @ p_n + D.T @ beta), "v_next", "M, v, f_ext, dt")
    return v_next, p_n, beta


def _bounded(**values) -> None:
    """The worked examples accept physical ranges only (name=(value, largest allowed))."""
    for name, (value, largest) in values.items():
        if value > largest:
            raise check.InputError(f"{name} must be at most {largest:g} in this example, got {value:g}")


def _incline_rows(theta: float):
    t = np.array([np.cos(theta), np.sin(theta)])   # down-slope is -t
    n = np.array([-np.sin(theta), np.cos(theta)])
    return n[None, :], np.array([t, -t])


def incline_box_run(theta, mu, t_final=1.0, dt=0.01, mass=1.0, g=9.81, v0=0.0) -> dict:
    """A box (a translating point contact) released on an incline of angle theta [rad], by Lemke.

    Returns dict t (N,), s (N,) position along the slope (down-slope positive) [m], speed (N,)
    [m/s], p_n and f_t (N-1,) the impulses divided by dt [N], and the QP cross-check
    qp_error = max |v_LCP - v_QP| [m/s]. Analytic: a = g (sin th - mu cos th) if tan th > mu, else 0.
    """
    theta, mu = check.scalar(theta, "theta"), check.nonnegative(mu, "mu")
    if not 0.0 <= theta < np.pi / 2:
        raise check.InputError(f"theta must be in [0, pi/2), got {theta}")
    t_final, dt = check.positive(t_final, "t_final"), check.positive(dt, "dt")
    mass, g, v0 = check.positive(mass, "mass"), check.nonnegative(g, "g"), check.scalar(v0, "v0")
    _bounded(mass=(mass, 1e6), g=(g, 1e3), v0=(abs(v0), 1e3))
    ratio = t_final / dt
    steps = int(np.ceil(ratio - 1e-9)) if ratio <= MAX_STEPS else MAX_STEPS + 1
    if steps > MAX_STEPS:
        raise check.InputError(f"t_final / dt must be at most {MAX_STEPS} steps, got {steps}")
    N, D = _incline_rows(theta)
    M, f = mass * np.eye(2), np.array([0.0, -mass * g])
    down = -D[0]
    v = v0 * down
    x = np.zeros(2)
    s, speed, pn, ft, qp_err = [0.0], [v0], [], [], 0.0
    for _ in range(steps):
        step = contact_step(M, v, f, N, D, mu, dt)
        v_qp, _, _ = contact_step_qp(M, v, f, N, D, mu, dt)
        qp_err = max(qp_err, float(np.abs(step.v_next - v_qp).max()))
        v = step.v_next
        x = x + dt * v
        s.append(float(x @ down))
        speed.append(float(v @ down))
        pn.append(step.p_n[0] / dt)
        ft.append((step.beta[0] - step.beta[1]) / dt)  # friction along +t: up the slope
    return dict(t=np.arange(steps + 1) * dt, s=np.array(s), speed=np.array(speed), p_n=np.array(pn),
                f_t=np.array(ft), qp_error=qp_err)


def ball_drop_run(height=1.0, t_final=1.0, dt=0.01, mass=1.0, g=9.81, restitution=0.0, v_x=0.0, mu=0.5) -> dict:
    """A ball (point mass) dropped from ``height`` [m] onto the ground y = 0, contact by Lemke per step.

    Returns dict t, y, v_y, v_x (N,) and momentum (N, 2) [kg m/s]; the ground's normal impulse
    removes the downward momentum at impact (restitution e = 0: a plastic impact), so momentum is
    not conserved, and kinetic energy is lost.
    """
    height, t_final, dt = check.nonnegative(height, "height"), check.positive(t_final, "t_final"), check.positive(dt, "dt")
    mass, g = check.positive(mass, "mass"), check.nonnegative(g, "g")
    restitution, v_x, mu = check.nonnegative(restitution, "restitution"), check.scalar(v_x, "v_x"), check.nonnegative(mu, "mu")
    _bounded(height=(height, 1e3), mass=(mass, 1e6), g=(g, 1e3), v_x=(abs(v_x), 1e3), restitution=(restitution, 1.0))
    ratio = t_final / dt
    steps = int(np.ceil(ratio - 1e-9)) if ratio <= MAX_STEPS else MAX_STEPS + 1
    if steps > MAX_STEPS:
        raise check.InputError(f"t_final / dt must be at most {MAX_STEPS} steps, got {steps}")
    M, f = mass * np.eye(2), np.array([0.0, -mass * g])
    N, D = np.array([[0.0, 1.0]]), np.array([[1.0, 0.0], [-1.0, 0.0]])
    x, v = np.array([0.0, height]), np.array([v_x, 0.0])
    X, V = [x.copy()], [v.copy()]
    for _ in range(steps):
        step = contact_step(M, v, f, N, D, mu, dt, gap=[x[1]], restitution=restitution)
        v = step.v_next
        x = x + dt * v
        X.append(x.copy())
        V.append(v.copy())
    X, V = np.array(X), np.array(V)
    return dict(t=np.arange(steps + 1) * dt, y=X[:, 1], x=X[:, 0], v_y=V[:, 1], v_x=V[:, 0], momentum=mass * V)

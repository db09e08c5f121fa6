"""Lagrangian dynamics (拉格朗日动力学) with sympy: from T and V to M, C, G and fast numeric functions.

For generalised coordinates q (n,) with kinetic energy T(q, v) = 1/2 v^T M(q) v and potential
energy V(q), the Euler-Lagrange equations (欧拉-拉格朗日方程)

    d/dt (dL/dqd) - dL/dq = tau,   L = T - V,

take the standard form  M(q) a + C(q, v) v + G(q) = tau  with

    M = d^2 T / dv^2                                    (Hessian of T in v, symmetric positive definite)
    C_ij = sum_k 1/2 (dM_ij/dq_k + dM_ik/dq_j - dM_jk/dq_i) qd_k      (Christoffel symbols, 克里斯托费尔符号)
    G = dV/dq.

Only the product C v is fixed by the physics; the Christoffel choice of C is the one that makes
Mdot - 2C skew-symmetric. Units: SI (kg, m, s, rad, N·m); gravity g in m/s^2 is a parameter of
each model (the documents' worked example needs g = 9.81).

Builders: :func:`two_link_lagrangian` (planar arm, point masses at the link ends or midpoints,
gravity along -y, angles from the x axis) and :func:`double_pendulum_lagrangian` (point masses at
the rod ends, angles from the downward vertical, in absolute or relative angles).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Mapping

import numpy as np
import sympy as sp

from .. import _validate as check

__all__ = [
    "LagrangianModel",
    "NumericLagrangian",
    "derive_lagrangian",
    "christoffel_C",
    "christoffel_matrix",
    "to_numeric",
    "two_link_lagrangian",
    "double_pendulum_lagrangian",
    "double_pendulum_positions",
    "absolute_to_relative",
    "relative_to_absolute",
    "forward_dynamics_lagrange",
    "inverse_dynamics_lagrange",
    "mechanical_energy",
    "lagrange_ode",
    "symplectic_euler_lagrange",
    "trajectory_separation",
]


@dataclass(frozen=True)
class LagrangianModel:
    """Symbolic model: coordinates q, velocities v (the symbols of q̇), energies T, V and M (n, n), C (n, n), G (n,).

    params: the remaining symbols (masses, lengths, g), sorted by name; numbers for them are
    given to :func:`to_numeric`.
    """

    q: tuple
    v: tuple
    T: sp.Expr
    V: sp.Expr
    M: sp.ImmutableMatrix
    C: sp.ImmutableMatrix
    G: sp.ImmutableMatrix
    params: tuple

    @property
    def n(self) -> int:
        return len(self.q)


@dataclass(frozen=True)
class NumericLagrangian:
    """Numeric functions of a model with its parameters bound (SI units).

    M(q) -> (n, n), C(q, v) -> (n, n), G(q) -> (n,), T(q, v) and V(q) -> J,
    dM(q) -> (n, n, n) with dM[k] = dM/dq_k (so Mdot = sum_k dM[k] qd_k),
    ``bias(q, v)`` -> C v + G (n,) in one call (the fast path of the integrators).
    """

    n: int
    M: Callable
    dM: Callable
    C: Callable
    G: Callable
    T: Callable
    V: Callable
    bias: Callable
    params: Mapping


def _simplify(matrix: sp.Matrix) -> sp.ImmutableMatrix:
    return sp.ImmutableMatrix(matrix.applyfunc(sp.trigsimp))


def _symbols(x, name: str, n: int | None = None) -> tuple:
    """A non-empty tuple of sympy Symbols (of length n when given)."""
    if isinstance(x, (str, bytes, sp.Basic)) or not isinstance(x, (list, tuple)) or not x:
        raise check.InputError(f"{name} must be a non-empty list of sympy symbols, got {check.describe(x)}")
    if not all(isinstance(s, sp.Symbol) for s in x):
        raise check.InputError(f"{name} must hold sympy Symbols only, got {x!r}")
    if n is not None and len(x) != n:
        raise check.InputError(f"{name} must have {n} symbols, got {len(x)}")
    return tuple(x)


def _expression(x, name: str) -> sp.Expr:
    """A sympy scalar expression (numbers allowed; strings, None and NaN/oo not)."""
    if x is None or isinstance(x, (str, bytes)):
        raise check.InputError(f"{name} must be a sympy expression, got {x!r}")
    try:
        e = sp.sympify(x, strict=True)
    except (sp.SympifyError, TypeError, ValueError):
        raise check.InputError(f"{name} must be a sympy expression, got {check.describe(x)}") from None
    if not isinstance(e, sp.Expr) or e.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
        raise check.InputError(f"{name} must be a finite scalar sympy expression, got {check.describe(x)}")
    return e


def christoffel_C(M: sp.Matrix, q, v) -> sp.ImmutableMatrix:
    """Coriolis/centrifugal matrix from the Christoffel symbols of M (symbolic).

    C_ij = sum_k 1/2 (dM_ij/dq_k + dM_ik/dq_j - dM_jk/dq_i) qd_k ;  M (n, n) in q, v (n,) symbols.
    """
    q = _symbols(q, "q")
    n = len(q)
    v = _symbols(v, "v", n)
    if not isinstance(M, sp.MatrixBase) or M.shape != (n, n):
        raise check.InputError(f"M must be a sympy Matrix of shape ({n}, {n}) (one row per symbol of q), "
                               f"got {check.describe(M)}")
    dM = [sp.Matrix(M).diff(qk) for qk in q]
    C = sp.zeros(n, n)
    for i in range(n):
        for j in range(n):
            C[i, j] = sum(sp.Rational(1, 2) * (dM[k][i, j] + dM[j][i, k] - dM[i][j, k]) * v[k]
                          for k in range(n))
    return _simplify(C)


def christoffel_matrix(dM, v) -> np.ndarray:
    """Numeric Christoffel C (n, n) from dM (n, n, n) with dM[k] = dM/dq_k, and v (n,) in rad/s.

    C_ij = sum_k 1/2 (dM[k]_ij + dM[j]_ik - dM[i]_jk) qd_k.

    >>> h = 0.5  # two-link arm: M = [[a + 2b cos q2, c + b cos q2], [., c]], dM/dq2 = -b sin q2 [[2, 1], [1, 0]]
    >>> dM = np.array([np.zeros((2, 2)), -h * np.array([[2.0, 1.0], [1.0, 0.0]])])
    >>> christoffel_matrix(dM, [1.0, 2.0])
    array([[-1. , -1.5],
           [ 0.5,  0. ]])
    """
    v = check.vector(v, None, "v")
    n = v.shape[0]
    dM = check._finite(check._array(dM, "dM"), "dM")
    if n == 0 or dM.shape != (n, n, n):
        raise check.InputError(f"dM must have shape ({n}, {n}, {n}) to match v's shape ({n},) (n >= 1), "
                               f"got shape {dM.shape}")
    return 0.5 * (np.einsum("kij,k->ij", dM, v) + np.einsum("jik,k->ij", dM, v)
                  - np.einsum("ijk,k->ij", dM, v))


def derive_lagrangian(T: sp.Expr, V: sp.Expr, q, v) -> LagrangianModel:
    """M, C (Christoffel), G of the system with kinetic energy T(q, v) and potential energy V(q).

    T must be a homogeneous quadratic form in v (fixed, time-independent constraints) and V must
    not depend on v; otherwise ValueError. A single pendulum (angle from the downward vertical):

    >>> th, thd, m, l, g = sp.symbols("theta dtheta m l g", positive=True)
    >>> pendulum = derive_lagrangian(m * l**2 * thd**2 / 2, -m * g * l * sp.cos(th), [th], [thd])
    >>> pendulum.M, pendulum.C, pendulum.G, pendulum.params
    (Matrix([[l**2*m]]), Matrix([[0]]), Matrix([[g*l*m*sin(theta)]]), (g, l, m))
    >>> num = to_numeric(pendulum, {"m": 1.0, "l": 2.0, "g": 9.81})
    >>> forward_dynamics_lagrange(num, [np.pi / 2], [0.0])  # horizontal: a = -g / l
    array([-4.905])
    """
    q = _symbols(q, "q")
    v = _symbols(v, "v", len(q))
    T, V = _expression(T, "T"), _expression(V, "V")
    if set(v) & V.free_symbols:
        raise check.InputError("V must depend on q only, not on the velocities v")
    try:
        monoms = sp.Poly(sp.expand(T), *v).monoms()
    except sp.PolynomialError:
        monoms = [()]
    if any(sum(m) != 2 for m in monoms):
        raise check.InputError("T must be a homogeneous quadratic form in v: T = 1/2 v^T M(q) v")
    M = _simplify(sp.hessian(T, v))
    G = _simplify(sp.Matrix([sp.diff(V, qi) for qi in q]))
    C = christoffel_C(M, q, v)
    symbols = (T.free_symbols | V.free_symbols) - set(q) - set(v)
    return LagrangianModel(q, v, T, V, M, C, G, tuple(sorted(symbols, key=lambda s: s.name)))


@lru_cache(maxsize=64)
def _compile(model: LagrangianModel) -> dict:
    """numpy functions of (q, v, p), compiled once per model (common subexpressions shared)."""
    args = [list(model.q), list(model.v), list(model.params)]
    bias = sp.Matrix(model.C) * sp.Matrix(model.v) + sp.Matrix(model.G)
    dM = [sp.Matrix(model.M).diff(qk) for qk in model.q]
    exprs = {"M": model.M, "dM": dM, "C": model.C, "G": list(model.G), "T": model.T, "V": model.V,
             "bias": list(bias)}
    return {k: sp.lambdify(args, e, modules="numpy", cse=True) for k, e in exprs.items()}


def to_numeric(model: LagrangianModel, params: Mapping) -> NumericLagrangian:
    """Bind numbers to the model's parameters (keys: symbol names, e.g. {"m1": 2.0, "g": 9.81}).

    Every parameter must be given, and nothing else (a misspelt name raises ValueError). A
    parameter declared positive (``sp.symbols("m1", positive=True)``, as every mass, length and g
    of the builders here) must be > 0; one declared nonnegative must be >= 0.
    """
    check.instance(model, LagrangianModel, "model")
    if not isinstance(params, Mapping):
        raise check.InputError(f"params must be a mapping symbol name -> value, got {check.describe(params)}")
    names = [s.name for s in model.params]
    given = {str(k): v for k, v in params.items()}
    missing, extra = sorted(set(names) - set(given)), sorted(set(given) - set(names))
    if missing or extra:
        raise check.InputError(f"params must give exactly {names}; missing {missing}, unknown {extra}")
    p = [check.scalar(given[k], f"params[{k!r}]") for k in names]
    for sym, value in zip(model.params, p):
        if (sym.is_positive and value <= 0.0) or (sym.is_nonnegative and value < 0.0):
            kind = "positive" if sym.is_positive else "non-negative"
            raise check.InputError(f"params[{sym.name!r}] must be {kind} (the symbol is declared {kind}), got {value}")
    f, n = _compile(model), model.n
    zero = np.zeros(n)

    def M(q):
        return np.asarray(f["M"](q, zero, p), dtype=float)

    return NumericLagrangian(
        n=n, M=M,
        dM=lambda q: np.asarray(f["dM"](q, zero, p), dtype=float).reshape(n, n, n),
        C=lambda q, v: np.asarray(f["C"](q, v, p), dtype=float),
        G=lambda q: np.asarray(f["G"](q, zero, p), dtype=float),
        T=lambda q, v: f["T"](q, v, p),
        V=lambda q: f["V"](q, zero, p),
        bias=lambda q, v: np.asarray(f["bias"](q, v, p), dtype=float),
        params=dict(zip(names, p)),
    )


def two_link_lagrangian(mass_position: str = "end") -> LagrangianModel:
    """Planar two-link arm, joint angles q1 (from the x axis) and q2 (elbow, relative), gravity -y.

    mass_position "end": point masses m1 at the elbow and m2 at the tip (doc 004);
    "middle": point masses at the link midpoints, rotational inertia ignored (doc 002).
    """
    return _two_link_lagrangian(check.one_of(mass_position, ("end", "middle"), "mass_position"))


@lru_cache(maxsize=None)
def _two_link_lagrangian(mass_position: str) -> LagrangianModel:
    q1, q2, dq1, dq2 = sp.symbols("q1 q2 dq1 dq2", real=True)
    m1, m2, l1, l2, g = sp.symbols("m1 m2 l1 l2 g", positive=True)
    s = 1 if mass_position == "end" else sp.Rational(1, 2)
    elbow = sp.Matrix([l1 * sp.cos(q1), l1 * sp.sin(q1)])
    p1 = s * elbow
    p2 = elbow + s * sp.Matrix([l2 * sp.cos(q1 + q2), l2 * sp.sin(q1 + q2)])
    return _point_masses([p1, p2], [m1, m2], g, (q1, q2), (dq1, dq2))


def _point_masses(points, masses, g, q, v) -> LagrangianModel:
    """T = sum 1/2 m |p_dot|^2, V = sum m g y for point masses at positions ``points`` (x, y)."""
    v_col = sp.Matrix(v)
    T = sum(sp.Rational(1, 2) * m * (p.jacobian(q) * v_col).dot(p.jacobian(q) * v_col)
            for p, m in zip(points, masses))
    V = sum(m * g * p[1] for p, m in zip(points, masses))
    return derive_lagrangian(sp.expand(T), V, q, v)


def double_pendulum_lagrangian(angles: str = "absolute") -> LagrangianModel:
    """Double pendulum (双摆): point masses m1, m2 at the ends of massless rods l1, l2, gravity -y.

    Angles from the downward vertical. "absolute": q = (theta1, theta2), each rod's own angle;
    "relative": q = (theta1, phi) with phi = theta2 - theta1 the angle of rod 2 relative to rod 1.
    V is measured from the lowest position (zero when both rods hang down).
    """
    return _double_pendulum_lagrangian(check.one_of(angles, ("absolute", "relative"), "angles"))


@lru_cache(maxsize=None)
def _double_pendulum_lagrangian(angles: str) -> LagrangianModel:
    m1, m2, l1, l2, g = sp.symbols("m1 m2 l1 l2 g", positive=True)
    if angles == "absolute":
        q = sp.symbols("theta1 theta2", real=True)
        v = sp.symbols("dtheta1 dtheta2", real=True)
        th1, th2 = q
    else:
        q = sp.symbols("theta1 phi", real=True)
        v = sp.symbols("dtheta1 dphi", real=True)
        th1, th2 = q[0], q[0] + q[1]
    p1 = l1 * sp.Matrix([sp.sin(th1), -sp.cos(th1)])
    p2 = p1 + l2 * sp.Matrix([sp.sin(th2), -sp.cos(th2)])
    model = _point_masses([p1, p2], [m1, m2], g, q, v)
    V = sp.expand(model.V + (m1 + m2) * g * l1 + m2 * g * l2)  # zero at the rest position
    return LagrangianModel(model.q, model.v, model.T, V, model.M, model.C, model.G, model.params)


def double_pendulum_positions(q, l1: float, l2: float, angles: str = "absolute") -> np.ndarray:
    """Pivot, mass 1 and mass 2 positions (..., 3, 2) in m for q (..., 2) in rad."""
    check.one_of(angles, ("absolute", "relative"), "angles")
    q = _pairs(q, "q")
    l1, l2 = check.positive(l1, "l1"), check.positive(l2, "l2")
    th1 = q[..., 0]
    th2 = q[..., 1] if angles == "absolute" else q[..., 0] + q[..., 1]
    p1 = l1 * np.stack([np.sin(th1), -np.cos(th1)], axis=-1)
    p2 = p1 + l2 * np.stack([np.sin(th2), -np.cos(th2)], axis=-1)
    out = np.stack([np.zeros_like(p1), p1, p2], axis=-2)
    return check.finite_result(out, "the positions", "l1, l2")


def _pairs(x, name: str, like: np.ndarray | None = None) -> np.ndarray:
    """A finite array of shape (..., 2) (the shape of ``like`` when given)."""
    a = check._finite(check._array(x, name), name)
    if a.shape[-1:] != (2,) or (like is not None and a.shape != like.shape):
        want = "(..., 2)" if like is None else f"{like.shape} like q's"
        raise check.InputError(f"{name} must have shape {want}, got shape {a.shape}")
    return a


def _change_angles(E: np.ndarray, q, v):
    q = _pairs(q, "q")
    out = check.finite_result(q @ E.T, "the angles", "q")
    if v is None:
        return out
    return out, check.finite_result(_pairs(v, "v", like=q) @ E.T, "the rates", "v")


def relative_to_absolute(q, v=None):
    """(theta1, phi) -> (theta1, theta1 + phi); with v also the velocities. Shapes (..., 2)."""
    return _change_angles(np.array([[1.0, 0.0], [1.0, 1.0]]), q, v)


def absolute_to_relative(q, v=None):
    """(theta1, theta2) -> (theta1, theta2 - theta1); with v also the velocities. Shapes (..., 2)."""
    return _change_angles(np.array([[1.0, 0.0], [-1.0, 1.0]]), q, v)


def _num(num) -> "NumericLagrangian":
    return check.instance(num, NumericLagrangian, "num")


def _damping_matrix(damping, n: int) -> np.ndarray:
    """D (n, n) from a scalar d >= 0 (d I), a vector (diag) or a symmetric PSD matrix, in N·m·s/rad."""
    d = check._array(damping, "damping")
    if d.ndim == 0:
        D = check.scalar(d, "damping") * np.eye(n)
    elif d.ndim == 1:
        D = np.diag(check.vector(d, n, "damping"))
    else:
        D = check.matrix(d, (n, n), "damping")
    if not np.allclose(D, D.T) or np.linalg.eigvalsh(0.5 * (D + D.T)).min() < -1e-12:
        raise check.InputError(f"damping must be >= 0 (a symmetric positive semidefinite D), got {damping!r}")
    return D


def forward_dynamics_lagrange(num: NumericLagrangian, q, v, tau=None, damping=0.0) -> np.ndarray:
    """a = M(q)^-1 (tau - C(q, v) v - G(q) - D v)   (n,) in rad/s^2.

    tau: (n,) generalised forces in N·m (default zero); damping: D as for a scalar d (d I), a
    vector (diagonal) or a matrix, acting on the generalised velocities.
    """
    q, v = check.vector(q, _num(num).n, "q"), check.vector(v, num.n, "v")
    tau = np.zeros(num.n) if tau is None else check.vector(tau, num.n, "tau")
    D = _damping_matrix(damping, num.n)
    a = np.linalg.solve(num.M(q), tau - num.bias(q, v) - D @ v)
    return check.finite_result(a, "a", "v, tau, damping")


def inverse_dynamics_lagrange(num: NumericLagrangian, q, v, a) -> np.ndarray:
    """tau = M(q) a + C(q, v) v + G(q)   (n,) in N·m."""
    q, v = check.vector(q, _num(num).n, "q"), check.vector(v, num.n, "v")
    a = check.vector(a, num.n, "a")
    return check.finite_result(num.M(q) @ a + num.bias(q, v), "tau", "v, a")


def mechanical_energy(num: NumericLagrangian, q, v):
    """E = T(q, v) + V(q) in J, for one state (n,) or a trajectory (N, n) -> (N,)."""
    n = _num(num).n
    q = check._finite(check._array(q, "q"), "q")
    v = check._finite(check._array(v, "v"), "v")
    if q.shape[-1:] != (n,) or q.ndim > 2 or (q.ndim == 2 and q.shape[0] == 0):
        raise check.InputError(f"q must have shape ({n},) or (N, {n}), got {q.shape}")
    if v.shape != q.shape:
        raise check.InputError(f"v must have q's shape {q.shape}, got {v.shape}")
    E = np.asarray(num.T(q.T, v.T), dtype=float) + np.asarray(num.V(q.T), dtype=float)
    E = check.finite_result(E, "the energy", "q, v")
    return float(E) if q.ndim == 1 else np.broadcast_to(E, q.shape[:1]).copy()


def lagrange_ode(num: NumericLagrangian, tau=None, damping=0.0) -> Callable:
    """f(t, x) -> dx/dt for the state x = [q; v] (2n,): [v; M^-1 (tau - C v - G - D v)].

    tau: constant (n,) generalised forces (default zero); damping as in forward_dynamics_lagrange.
    """
    n = _num(num).n
    tau = np.zeros(n) if tau is None else check.vector(tau, n, "tau")
    D = _damping_matrix(damping, n)
    M, bias = num.M, num.bias

    def f(t, x):
        q, v = x[:n], x[n:]
        return np.concatenate([v, np.linalg.solve(M(q), tau - bias(q, v) - D @ v)])

    def f2(t, x):  # n = 2: the same solve by Cramer's rule (np.linalg.solve costs more than the model)
        q, v = x[:2], x[2:]
        (a, b), (c, d) = M(q).tolist()
        r0, r1 = (tau - bias(q, v) - D @ v).tolist()
        det = a * d - b * c
        return np.array([x[2], x[3], (d * r0 - b * r1) / det, (a * r1 - c * r0) / det])

    return f2 if n == 2 else f


def symplectic_euler_lagrange(num: NumericLagrangian, state0, t_final: float, dt: float, tau=None,
                              damping=0.0, progress=None):
    """Symplectic Euler in the canonical momenta p = M(q) v (辛欧拉), for x = [q; v] -> (t, X).

        p+ = p + h (1/2 v^T dM/dq(q) v - G(q) + tau - D v),   v = M(q)^-1 p+,
        q+ = q + h v,   v+ = M(q+)^-1 p+

    (dL/dq = 1/2 v^T dM/dq v - G). The new velocity appears on both sides, so each step solves
    for it by fixed-point iteration. Without damping this is a symplectic map for any M(q); the
    naive semi-implicit Euler in (q, v) is symplectic only when M is constant. Grid, progress
    and errors as in :mod:`kinematics_lib.dynamics.integrators`.
    """
    from .integrators import integrate_fixed_step

    n = _num(num).n
    tau = np.zeros(n) if tau is None else check.vector(tau, n, "tau")
    D = _damping_matrix(damping, n)

    def step(f, t, x, h):
        q, v = x[:n], x[n:]
        M, dM, G = num.M(q), num.dM(q), num.G(q)
        M_inv, p = np.linalg.inv(M), M @ v
        v = v + h * (M_inv @ (tau - num.bias(q, v) - D @ v))  # explicit guess, error O(h^2)
        for _ in range(100):
            p_new = p + h * (0.5 * ((dM @ v) @ v) - G + tau - D @ v)
            v_new = M_inv @ p_new
            if abs(v_new - v).max() <= 1e-12 * (1.0 + abs(v_new).max()):
                q_new = q + h * v_new
                return np.concatenate([q_new, np.linalg.solve(num.M(q_new), p_new)])
            v = v_new
        raise check.InputError(f"symplectic Euler: the velocity iteration did not converge at t = {t:.4g} s; "
                               f"reduce dt (now {h:.3g} s)")

    x0 = check.vector(state0, None, "state0")
    if x0.shape != (2 * n,):
        raise check.InputError(f"state0 must be [q; v] of shape ({2 * n},) for this {n}-coordinate model, "
                               f"got shape {x0.shape}")
    ode = lagrange_ode(num, tau, damping)
    check.finite_result(ode(0.0, x0), "the accelerations at state0", "state0, tau, damping")
    try:
        return integrate_fixed_step(step, ode, x0, t_final, dt, progress)
    except check.InputError as err:
        if "non-finite" not in str(err):
            raise
        raise check.InputError(f"{err}; here state0, tau or damping may be too large") from None


def trajectory_separation(ode, x0, t_final: float = 30.0, dt: float = 0.005, dx: float = 1e-9):
    """Sensitivity to initial conditions: (t, gap) for two RK4 runs released ``dx`` rad apart.

    ode: f(t, x) with x = [q, v] (e.g. :func:`lagrange_ode`); the first angle of the second run
    is shifted by dx. gap (N,) is the largest angle difference, wrapped to (-pi, pi], in rad.
    """
    from ..arms.ik import wrap_angle
    from .integrators import integrate_rk4

    check.function(ode, "ode")
    x0 = check.vector(x0, None, "x0")
    if x0.shape[0] == 0 or x0.shape[0] % 2:
        raise check.InputError(f"x0 must be [q; v] of even length >= 2, got shape {x0.shape}")
    n = x0.shape[0] // 2
    dx = check.scalar(dx, "dx")
    try:
        t, A = integrate_rk4(ode, x0, t_final, dt)
        _, B = integrate_rk4(ode, x0 + np.eye(x0.shape[0])[0] * dx, t_final, dt)
    except check.InputError as err:
        if "f(t, x)" in str(err):  # integrate_rk4 calls the ode f
            raise check.InputError(f"ode: {err}") from None
        raise
    return t, np.abs(wrap_angle(A[:, :n] - B[:, :n])).max(axis=1)

"""Whole-body control of a legged robot as one QP (全身控制 / 全身二次规划), document 000 §3.3.3.

Decision x = (a (nv,), τ (n,), f (3k,)): the generalised acceleration, the joint torques and the
ground forces on the k point feet (world axes). Every step solves

    min   Σ_tasks w ‖task residual‖² + w_f ‖f‖² + w_τ ‖τ‖² + w_a ‖a‖²
    s.t.  M a + h = Sᵀ τ + J_cᵀ f + τ_push          (the full equation of motion: 18 rows on ANYmal)
          J_c a + J̇_c v = 0                          (the feet do not accelerate: they stick)
          f_i in the friction cone (exact: Clarabel) or its inscribed pyramid (ProxQP, proxsuite's dense solver)
          |τ| <= τ_max                               (the URDF effort limits)

Tasks (residuals in force units, so that one weight means the same for both):

* CoM: m (p̈_G − p̈_G,des) with m p̈_G = Σ f_i + m g + F_push (Newton's law for the whole robot, exact
  and linear in f: no J̇_G needed); or the base origin: m (p̈_B − p̈_B,des), p̈_B = R (a_lin + ω_b × v_b);
* base orientation: Ī (ω̇_W − ω̇_W,des) with ω̇_W = R a_ang (the base twist is in body axes, so
  ω̇_W = R ω̇_b exactly) and Ī the mean principal moment of the centroidal inertia.

``strict=True`` turns the tasks into equalities: the commanded accelerations must be realised
exactly, so a push too large for the friction cones and torque limits makes the problem
infeasible, and the result says so (``status == "infeasible"``, no arrays) instead of returning
forces that break a constraint. J̇_c v comes from ``kl.frame_bias_accelerations`` (the feet's
classical accelerations at a = 0, equal to ``kl.frame_jacobian_time_variation(...) @ v``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .. import _validate as check
from ..contact.cones import friction_pyramid
from ..contact.shared import add_friction_cones as _add_friction_cones, clarabel_solve as _clarabel_solve
from ..dynamics.centroidal import center_of_mass
from ..dynamics.floating_base import centroidal_inertia
from ..dynamics.frames import frame_bias_accelerations
from ..dynamics.model import Model
from ..geometry.kernels import cross
from ..geometry.rotations import quat_to_matrix, so3_log
from ..dynamics.floating_base import com_jacobian
from .landing import _StateTerms, _state_terms
from .leg_kinematics import _configuration, _feet
from .statics import _floating, _mu

__all__ = ["WholeBodyQPResult", "whole_body_qp", "urdf_effort_limits", "largest_push", "PushRun", "simulate_push"]

FEAS_TOL = 1e-7    # constraint violation accepted after the solve, relative to the problem's scale
MAX_STEPS = 5000  # a push run is short (one QP and one LCP per step)
MAX_PUSH = 1e5  # N


@dataclass(frozen=True)
class WholeBodyQPResult:
    """One whole-body QP: status "optimal" or "infeasible" (then a, tau, forces and the residuals are None).

    a (nv,) [m/s², rad/s²]; tau (n,) [N m]; forces (k, 3) [N, world axes, ground on the robot];
    feet: the contact frames; mu: friction coefficient; dynamics_residual [N, N m] and
    contact_residual [m/s²]: max |M a + h − Sᵀτ − J_cᵀ f − τ_push| and max |J_c a + J̇_c v|;
    task_residual (6,): CoM (or base) acceleration error [m/s²] and base angular acceleration
    error [rad/s²]; solver, solve_time [s] (wall clock of the solver call, for benchmarks only).
    """

    status: str
    message: str
    a: np.ndarray | None
    tau: np.ndarray | None
    forces: np.ndarray | None
    feet: tuple
    mu: float
    dynamics_residual: float | None
    contact_residual: float | None
    task_residual: np.ndarray | None
    solver: str
    solve_time: float

    @property
    def ok(self) -> bool:
        return self.status == "optimal"

    @property
    def friction_ratio(self) -> np.ndarray:
        """‖f_t‖ / (μ f_n) per foot (k,): 1 on the cone's surface (slipping is imminent)."""
        if self.forces is None:
            raise ValueError(f"the QP was {self.status}: there are no forces")
        return _friction_ratio(self.forces, self.mu)


def _friction_ratio(F: np.ndarray, mu: float) -> np.ndarray:
    """‖f_t‖ / (μ f_n) per row of F (k, 3); 0 for a foot without force, inf for a pull or μ = 0 with slip."""
    ft, fn = np.hypot(F[:, 0], F[:, 1]), mu * F[:, 2]
    tiny = 1e-9 * max(float(np.abs(F).max()), 1e-300)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = ft / fn
    return np.where(fn > tiny, r, np.where(ft <= tiny, 0.0, np.inf))


def urdf_effort_limits(model: Model, path) -> np.ndarray:
    """τ_max (n,) [N m or N]: the ``<limit effort=...>`` of each actuated joint of ``model`` read
    from the URDF at ``path``, in the order of the model's joint velocities (after a floating base's
    six). A joint without an effort limit gets inf."""
    from ..dynamics.shared import parse_urdf as _parse

    check.model(model, "model")
    path, root = _parse(path)
    effort = {}
    for j in root.iter("joint"):
        lim = j.find("limit")
        if lim is not None and lim.get("effort") is not None:
            try:
                effort[j.get("name")] = float(lim.get("effort"))
            except ValueError:
                raise check.InputError(f"{path.name}: joint {j.get('name')!r}: effort must be a number, "
                                       f"got {lim.get('effort')!r}") from None
    out = []
    for i, kind in enumerate(model.joint_types):
        if kind == "free":
            continue
        if model.body_joint[i] not in {j.get("name") for j in root.iter("joint")}:
            raise check.InputError(f"path must be the URDF of model {model.name!r}: it has no joint "
                                   f"{model.body_joint[i]!r}")
        e = effort.get(model.body_joint[i], np.inf)
        if not e > 0.0:
            raise check.InputError(f"{path.name}: joint {model.body_joint[i]!r}: effort must be positive, got {e}")
        out.append(e)
    return np.array(out)


def _jdot_v(model: Model, q: np.ndarray, v: np.ndarray, feet: tuple) -> np.ndarray:
    """J̇_c v (3k,): the feet's classical accelerations at a = 0 (world axes, m/s²), stacked."""
    return frame_bias_accelerations(model, q, v, feet)[:, :3].ravel()


class _QPTerms(NamedTuple):
    """The state terms of one whole-body QP (unchecked): the time step's :class:`_StateTerms`
    (M, h, the feet and J_c), J̇_c v (3k,) [m/s²] and Ī [kg m²], the mean principal moment of the
    centroidal inertia. Computed once per state and shared by a strict solve, its soft re-solve
    and the time step."""

    state: _StateTerms
    jdv: np.ndarray
    Ibar: float


def _qp_terms(model: Model, q: np.ndarray, v: np.ndarray, feet: tuple) -> _QPTerms:
    """The :class:`_QPTerms` of a checked state (q, v): Ī = tr(I_G, angular) / 3."""
    Ibar = float(np.trace(centroidal_inertia(model, q)[3:, 3:])) / 3.0
    return _QPTerms(_state_terms(model, q, v, feet), _jdot_v(model, q, v, feet), Ibar)


def _task_rows(model, v, k, task, push, R, Ibar):
    """(A_task (6, N), b_task (6,), scales (6,)): task residual = A x − b in force units."""
    nv, n = model.nv, model.nv - 6
    N = nv + n + 3 * k
    m = model.total_mass
    A, b = np.zeros((6, N)), np.zeros(6)
    if task == "com":  # m p̈_G = Σ f + m g + F_push
        for i in range(k):
            A[:3, nv + n + 3 * i: nv + n + 3 * i + 3] = np.eye(3)
        b[:3] = -m * model.gravity - push
    else:  # m p̈_B = m R (a_lin + ω_b × v_b)
        A[:3, :3] = m * R
        b[:3] = -m * R @ cross(v[3:6], v[:3])
    A[3:, 3:6] = Ibar * R
    return A, b, np.array([m] * 3 + [Ibar] * 3)


def _solve_pyramid(P, c, A_eq, b_eq, G, h):
    """ProxQP's dense solver called directly (the call qpsolvers makes for dense arrays, without
    its per-call conversions): min ½ xᵀP x + cᵀx s.t. A_eq x = b_eq, G x <= h; None unless solved."""
    from proxsuite import proxqp

    res = proxqp.dense.solve(P, c, A_eq, b_eq, G, np.full(h.shape, -np.inf), h, verbose=False, eps_abs=1e-11,
                             eps_rel=0.0, max_iter=10_000)
    return res.x if res.info.status == proxqp.QPSolverOutput.PROXQP_SOLVED and res.x is not None else None


def _solve_cone(P, c, A_eq, b_eq, G, h, k, mu, f0):
    import clarabel

    rows, rhs = [A_eq, G], [b_eq, h]
    cones = [clarabel.ZeroConeT(A_eq.shape[0]), clarabel.NonnegativeConeT(G.shape[0])]
    _add_friction_cones(rows, rhs, cones, k, mu, P.shape[0], f0)
    return _clarabel_solve(P, c, rows, rhs, cones, 1e-10)


def _limits(tau_max, n: int) -> np.ndarray:
    """τ_max (n,) from None (no limit), a scalar or (n,); positive, inf allowed."""
    if tau_max is None:
        return np.full(n, np.inf)
    t = check._array(tau_max, "tau_max")
    if t.shape not in ((), (n,)):
        raise check.InputError(f"tau_max must be a scalar or have shape ({n},), one per joint, got shape {t.shape}")
    t = np.broadcast_to(t, (n,)).astype(float)
    if np.isnan(t).any() or (t <= 0.0).any():
        raise check.InputError(f"tau_max must be positive (inf allowed: no limit), got {t}")
    return t


def _vector3(x, name: str) -> np.ndarray:
    return np.zeros(3) if x is None else check.vector(x, 3, name)


def whole_body_qp(model: Model, q, v, contact_frames, *, mu=0.7, n_faces=4, tau_max=None,
                  com_acceleration=None, base_angular_acceleration=None, push=None, task: str = "com",
                  w_task=1.0, w_force=1e-4, w_torque=1e-4, w_acc=1e-6, strict: bool = False) -> WholeBodyQPResult:
    """The whole-body QP (module docstring) at state (q (nq,), v (nv,)) of a floating-base model.

    contact_frames: the frames whose origins are point contacts (e.g. ``kl.ANYMAL_FEET``);
    mu: friction coefficient; n_faces: the inscribed pyramid's faces (ProxQP), None for the exact
    cone (Clarabel); tau_max: scalar or (n,) [N m] (e.g. :func:`urdf_effort_limits`), None = no
    limit; com_acceleration (3,) [m/s², world], base_angular_acceleration (3,) [rad/s², world]:
    the commanded task accelerations (default 0); push (3,) [N, world]: an external force at the
    base origin; task: "com" or "base" (the point whose acceleration is commanded); w_task > 0:
    task weight, w_force, w_torque, w_acc >= 0: regularisation weights (SI units); strict: tasks as
    equalities. Returns a :class:`WholeBodyQPResult`; an infeasible problem is reported in it.
    """
    _floating(model)
    q = _configuration(model, q)
    v = check.vector(v, model.nv, "v")
    try:
        feet = _feet(model, contact_frames)
    except check.InputError as e:
        raise check.InputError(str(e).replace("feet", "contact_frames", 1)) from None
    mu = _mu(mu)
    if n_faces is not None:
        n_faces = check.integer(n_faces, "n_faces", 3, 64)
    n, nv, k = model.nv - 6, model.nv, len(feet)
    tau_max = _limits(tau_max, n)
    a_des = _vector3(com_acceleration, "com_acceleration")
    w_des = _vector3(base_angular_acceleration, "base_angular_acceleration")
    push = _vector3(push, "push")
    task = check.one_of(task, ("com", "base"), "task")
    w_task = check.positive(w_task, "w_task")
    w_f, w_t, w_a = (check.nonnegative(x, name) for x, name in ((w_force, "w_force"), (w_torque, "w_torque"),
                                                                 (w_acc, "w_acc")))
    strict = check.flag(strict, "strict")
    return _whole_body_qp(model, q, v, feet, mu, n_faces, tau_max, a_des, w_des, push, task, w_task, (w_a, w_t, w_f),
                          strict)


def _whole_body_qp(model, q, v, feet, mu, n_faces, tau_max, a_des, w_des, push, task, w_task, reg, strict,
                   terms=None):
    """The QP of :func:`whole_body_qp` on checked arguments; terms: the :class:`_QPTerms` of
    (q, v) when the caller has them already (a loop computes them once per state)."""
    n, nv, k = model.nv - 6, model.nv, len(feet)
    N, f0 = nv + n + 3 * k, nv + n
    R = quat_to_matrix(q[3:7])
    terms = _qp_terms(model, q, v, feet) if terms is None else terms
    M, h, Jc, jdv = terms.state.M, terms.state.h, terms.state.Jc, terms.jdv
    tau_push = np.zeros(nv)
    tau_push[:3] = R.T @ push
    S_T = np.vstack([np.zeros((6, n)), np.eye(n)])
    A_dyn = np.hstack([M, -S_T, -Jc.T])
    A_con = np.hstack([Jc, np.zeros((3 * k, n + 3 * k))])
    A_task, b_task, scale = _task_rows(model, v, k, task, push, R, terms.Ibar)
    b_task = b_task + scale * np.concatenate([a_des, w_des])
    A_eq = [A_dyn, A_con]
    b_eq = [tau_push - h, -jdv]
    P = np.diag(np.concatenate([np.full(nv, reg[0]), np.full(n, reg[1]), np.full(3 * k, reg[2])]))
    c = np.zeros(N)
    if strict:
        A_eq.append(A_task)
        b_eq.append(b_task)
    else:
        P = P + w_task * A_task.T @ A_task
        c = c - w_task * A_task.T @ b_task
    A_eq, b_eq = np.vstack(A_eq), np.concatenate(b_eq)
    finite = np.isfinite(tau_max)
    E = np.eye(N)[nv:nv + n][finite]
    G, hh = np.vstack([E, -E]), np.concatenate([tau_max[finite], tau_max[finite]])
    pyramid = None if n_faces is None else friction_pyramid(mu, n_faces, True)
    s = max(float(np.abs(b_eq).max()), float(np.abs(b_task).max()), 1.0)  # scale the problem to O(1)
    p_s = float(np.abs(P).max()) or 1.0  # and its cost: x = s x', cost / (s² p_s)
    P, c = P / p_s, c / (s * p_s)
    t0 = time.perf_counter()
    with np.errstate(all="ignore"):
        if n_faces is None:
            x = _solve_cone(P, c, A_eq, b_eq / s, G, hh / s, k, mu, f0)
            solver = "clarabel"
        else:
            C = np.zeros((k * (n_faces + 1), N))
            for i in range(k):  # the pyramid of foot i on its force f_i: block diagonal
                C[i * (n_faces + 1):(i + 1) * (n_faces + 1), f0 + 3 * i:f0 + 3 * i + 3] = pyramid
            x = _solve_pyramid(P, c, A_eq, b_eq / s, np.vstack([G, C]), np.concatenate([hh / s, np.zeros(C.shape[0])]))
            solver = "proxqp"
    elapsed = time.perf_counter() - t0
    if x is not None and np.isfinite(x).all():
        x = x * s
        x = x - _min_norm(A_eq, A_eq @ x - b_eq)  # polish the equalities
    bad = _violation(x, A_eq, b_eq, tau_max, mu, pyramid, nv, n, f0, k, s)
    if x is None or not np.isfinite(x).all() or bad > FEAS_TOL:
        what = "the commanded accelerations" if strict else "the contact and dynamics constraints"
        return WholeBodyQPResult("infeasible", f"no accelerations, torques within ±tau_max and forces inside the "
                                 f"friction {'cone' if n_faces is None else 'pyramid'} (mu = {mu:g}) satisfy {what}",
                                 None, None, None, feet, mu, None, None, None, solver, elapsed)
    a, tau, f = x[:nv], x[nv:f0], x[f0:]
    res_dyn = float(np.abs(M @ a + h - S_T @ tau - Jc.T @ f - tau_push).max())
    res_con = float(np.abs(Jc @ a + jdv).max())
    task_res = (A_task @ x - b_task) / scale
    return WholeBodyQPResult("optimal", "ok", a, tau, f.reshape(k, 3), feet, mu, res_dyn, res_con, task_res, solver,
                             elapsed)


def _min_norm(A: np.ndarray, r: np.ndarray) -> np.ndarray:
    """dx (N,): the least-squares solution of smallest norm of A dx = r, A (m, N), r (m,) --
    ``np.linalg.lstsq(A, r, rcond=None)``'s solution, by rank-revealing QR (LAPACK gelsy, rank
    deficiency allowed) instead of an SVD: 3x cheaper on the QP's 30 x 42 equalities."""
    from scipy.linalg import lstsq

    return lstsq(A, r, cond=np.finfo(float).eps * max(A.shape), lapack_driver="gelsy", check_finite=False)[0]


def _violation(x, A_eq, b_eq, tau_max, mu, pyramid, nv, n, f0, k, s) -> float:
    """The largest constraint violation of x, relative to the problem's scale s (inf for None);
    pyramid: the friction pyramid's rows (None: the exact cone)."""
    if x is None or not np.isfinite(x).all():
        return np.inf
    F = x[f0:].reshape(k, 3)
    eq = np.abs(A_eq @ x - b_eq).max()
    box = np.max(np.abs(x[nv:f0]) - tau_max, initial=-np.inf)
    if pyramid is None:
        cone = np.max(np.hypot(F[:, 0], F[:, 1]) - mu * F[:, 2])
    else:
        cone = np.max(F @ pyramid.T)
    return float(max(eq, box, cone, np.max(-F[:, 2])) / s)


def largest_push(model: Model, q, feet, direction, *, mu=0.7, n_faces=4, tau_max=None, upper=5000.0,
                 tol=0.1) -> float:
    """The largest push [N] along ``direction`` (3,) (world, at the base origin) that the robot
    standing at rest at q can cancel: the strict whole-body QP with zero commanded accelerations
    is feasible below it and infeasible above (bisection to ``tol`` N, search up to ``upper`` N).

    Returns ``upper`` when even that push is cancelled. Bounded by friction: the horizontal part
    of the push cannot exceed μ times the weight (plus the push's downward part).
    """
    _floating(model)
    q = _configuration(model, q)
    feet = _feet(model, feet)
    d = check.vector(direction, 3, "direction")
    if not np.linalg.norm(d) > 0.0:
        raise check.InputError(f"direction must be a non-zero vector, got {d}")
    d = d / np.linalg.norm(d)
    upper, tol = check.positive(upper, "upper"), check.positive(tol, "tol")
    if upper > 1e6 or tol > upper:
        raise check.InputError(f"upper must be at most 1e6 N and tol at most upper, got upper = {upper:g}, tol = {tol:g}")
    kw = dict(mu=mu, n_faces=n_faces, tau_max=tau_max, strict=True)
    v = np.zeros(model.nv)
    if not whole_body_qp(model, q, v, feet, **kw).ok:
        return 0.0
    if whole_body_qp(model, q, v, feet, push=upper * d, **kw).ok:
        return upper
    lo, hi = 0.0, upper
    while hi - lo > tol:
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if whole_body_qp(model, q, v, feet, push=mid * d, **kw).ok else (lo, mid)
    return lo


@dataclass(frozen=True)
class PushRun:
    """A push on a standing robot under the whole-body QP, sampled every step.

    t (N,) [s]; q (N, nq); v (N, nv); push (N, 3) [N]; tau (N, n) [N m]: the torques applied;
    forces (N, k, 3) [N]: the ground forces of the QP whose torques were applied (where the strict
    QP was infeasible, the soft re-solve's; zero rows where neither was solved);
    contact_forces (N, k, 3) [N]: the forces the time stepping produced; qp_ok (N,) bool;
    friction_ratio (N, k): ‖f_t‖ / (μ f_n) of those forces (nan where no QP was solved);
    com (N, 3) [m]; first_infeasible: the first time [s] the QP was infeasible, or None;
    solve_time (N,) [s] (wall clock, for benchmarks only); dynamics_residual (N,) [N, N m] and
    contact_residual (N,) [m/s²]: those of the QP solution whose torques were applied (the soft
    re-solve where the strict QP was infeasible; nan where neither was solved).
    """

    t: np.ndarray
    q: np.ndarray
    v: np.ndarray
    push: np.ndarray
    tau: np.ndarray
    forces: np.ndarray
    contact_forces: np.ndarray
    qp_ok: np.ndarray
    friction_ratio: np.ndarray
    com: np.ndarray
    first_infeasible: float | None
    feet: tuple
    solve_time: np.ndarray
    dynamics_residual: np.ndarray
    contact_residual: np.ndarray


def simulate_push(model: Model, q0, feet, push, *, push_start=0.05, push_duration=0.1, duration=0.4, dt=4e-3,
                  mu=0.7, n_faces=4, tau_max=None, Kp=100.0, Kd=20.0, strict: bool = True,
                  known_push: bool = False) -> PushRun:
    """Push a robot standing at rest at q0 (feet on z = 0) and balance it with :func:`whole_body_qp`.

    The push (3,) [N, world] acts on the base origin from push_start for push_duration [s]; the
    QP knows it only with ``known_push`` (a measured disturbance, then cancelled exactly while the
    QP is feasible); by default the controller feels it through the state. Commanded accelerations: the CoM back to its start,
    p̈_des = Kp (p_G0 − p_G) − Kd ṗ_G, and the base orientation back to its start,
    ω̇_des = Kp log(R_0 Rᵀ) − Kd ω (Kp [1/s²], Kd [1/s]). The torques move the robot through
    chapter 7's time stepping (:func:`foot_contact_step`, Lemke's LCP: the feet may slip or lift).
    A step where the QP is infeasible (``strict``: the commanded accelerations cannot be realised)
    is recorded as such and the QP is re-solved with soft tasks (the best the robot can do).
    """
    from .landing import _step

    _floating(model)
    q = _configuration(model, q0, "q0").copy()
    feet = _feet(model, feet)
    push = check.vector(push, 3, "push")
    if np.abs(push).max() > MAX_PUSH:
        raise check.InputError(f"push must stay below {MAX_PUSH:g} N (a push on a robot), got {push}")
    t0p, tp = check.nonnegative(push_start, "push_start"), check.nonnegative(push_duration, "push_duration")
    duration, dt = check.positive(duration, "duration"), check.positive(dt, "dt")
    if dt > 0.02:
        raise check.InputError(f"dt must be at most 0.02 s for a contact time step, got {dt:g}")
    steps = check.integer(int(round(duration / dt)), "duration / dt", 1, MAX_STEPS)
    mu = _mu(mu)
    Kp, Kd = check.nonnegative(Kp, "Kp"), check.nonnegative(Kd, "Kd")
    if Kp > 1e4 or Kd > 1e3:
        raise check.InputError(f"Kp must be at most 1e4 1/s² and Kd at most 1e3 1/s (stable with dt), got Kp = {Kp:g}, Kd = {Kd:g}")
    strict, known_push = check.flag(strict, "strict"), check.flag(known_push, "known_push")
    kw = dict(mu=mu, n_faces=n_faces, tau_max=tau_max)
    whole_body_qp(model, q, np.zeros(model.nv), feet, **kw)  # checks the remaining arguments once
    n, k = model.nv - 6, len(feet)
    tau_lim = _limits(tau_max, n)
    p_G0, R0 = center_of_mass(model, q), quat_to_matrix(q[3:7])
    v = np.zeros(model.nv)
    rows, first = [], None
    for i in range(steps + 1):
        t = i * dt
        F_push = push if t0p <= t < t0p + tp else np.zeros(3)
        R = quat_to_matrix(q[3:7])
        p_G, pd_G = center_of_mass(model, q), com_jacobian(model, q) @ v
        a_des = Kp * (p_G0 - p_G) - Kd * pd_G
        w_des = Kp * so3_log(R0 @ R.T) - Kd * (R @ v[3:6])
        args = (model, q, v, feet, mu, n_faces, tau_lim, a_des, w_des, F_push if known_push else np.zeros(3), "com", 1.0, (1e-6, 1e-4, 1e-4))
        terms = _qp_terms(model, q, v, feet)  # once per state: both QPs and the time step use them
        res = _whole_body_qp(*args, strict, terms)
        ok = res.ok
        if not ok:
            first = t if first is None else first
            if strict:
                res = _whole_body_qp(*args, False, terms)
        tau = res.tau if res.ok else np.zeros(n)
        tau_ext = np.zeros(model.nv)
        tau_ext[:3] = R.T @ F_push
        try:
            q_next, v_next, F = _step(model, q, v, tau, feet, dt, mu, n_faces or 8, 0.01, tau_ext, terms.state)
        except check.InputError:  # the state left every physical range (the robot was thrown away)
            break
        plan = res.forces if res.ok else np.zeros((k, 3))
        ratio = res.friction_ratio if res.ok else np.full(k, np.nan)
        resid = (res.dynamics_residual, res.contact_residual) if res.ok else (np.nan, np.nan)
        rows.append((t, q, v, F_push, tau, plan, F, ok, ratio, p_G, res.solve_time, *resid))
        if not (np.abs(v_next).max() < 1e3):
            break
        q, v = q_next, v_next
    t, Q, V, Fp, Tau, Pl, Fc, OK, Ra, G, St, Rd, Rc = (np.array(x) for x in zip(*rows))
    return PushRun(t, Q, V, Fp, Tau, Pl, Fc, OK.astype(bool), Ra, G, first, feet, St, Rd, Rc)

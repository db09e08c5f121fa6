"""Document 001 -- "机器人动力学与控制基础" (dynamics and control basics, ``001_6ae5a536efd7a339.txt``)
-- its formulas and claims *as written*, errors included.

One function per claim that a chapter checks; each docstring cites the passage and says what is
wrong. The correct counterparts live in the maths layers (``dynamics`` for chapter 5,
``control`` for chapter 10, ``identification`` for chapter 11). Sections are grouped by chapter;
``fixed=(...)`` switches on a correction where that makes the comparison instructive (its lines
are listed in ``FIXES``).
"""

from __future__ import annotations

import numpy as np

from .. import _validate as check
from ..dynamics.shared import inward_local as _inward_local, revolute_chain as _revolute_chain
from ..geometry.kernels import cross as _cross
from .._validate import InputError
from ._common import fixed_lines, model_arg, nonempty, rows_match

__all__ = [
    # chapter 5
    "ne",
    "rnea",
    "TERM_CLAIMS",
    # chapter 10
    "joint_pid_update",
    "joint_pid_poles",
    "cartesian_impedance",
    "delay_bandwidth",
    # chapter 11
    "identify",
    "lugre",
]

#: lines of each function here that ``fixed=`` can replace by the correct line (see doc_line_errors)
FIXES = {
    "ne": ("omega_dot",),
    "rnea": ("R", "omega", "alpha", "a_c", "f", "n"),
    "joint_pid_update": ("sign",),
    "joint_pid_poles": ("sign",),
}


# ================================================================ chapter 5: Newton-Euler


def ne(model, q, qd, qdd, fixed=()) -> np.ndarray:
    """"牛顿-欧拉法" formula list (link frames) -- reproduced as written, error included.

    R_i = orientation of frame i in frame i-1, r_{i-1} = p_i its origin, z = the joint axis
    (numbers [0, 0, 1] on a DH arm; here the model's axis, always in frame-i coordinates):
        omega_i = R_i^T omega_{i-1} + z qd_i
        omega_dot_i = R_i^T omega_dot_{i-1} + R_i^T (omega_{i-1} x z) qd_i + z qdd_i   <- 'omega_dot'
        v_dot_i = R_i^T (v_dot_{i-1} + omega_dot_{i-1} x r_{i-1} + omega_{i-1} x (omega_{i-1} x r_{i-1}))
        a_ci = v_dot_i + omega_dot_i x r_ci + omega_i x (omega_i x r_ci)
        F_i = m_i a_ci,   N_i = I_ci omega_dot_i + omega_i x (I_ci omega_i)
    The list stops there; the inward pass is the correct one of :func:`kinematics_lib.newton_euler_local`,
    and v_dot_0 = -g. 'omega_dot' replaces R_i^T (omega_{i-1} x z) by (R_i^T omega_{i-1}) x z: z is a
    frame-i vector and must not be crossed with the frame-(i-1) vector omega_{i-1} (the two agree
    only when R_i^T z = z, i.e. on links without twist alpha).
    """
    fixed = fixed_lines(fixed, FIXES["ne"])
    q, qd, qdd, R, p, z, m, c, I = _revolute_chain(model_arg(model), q, qd, qdd, names=("qd", "qdd"))
    n = model.nb
    w, wd, vd = np.zeros(3), np.zeros(3), -model.gravity
    F, N = np.zeros((n, 3)), np.zeros((n, 3))
    for i in range(n):
        Rt = R[i].T
        coupling = _cross(Rt @ w, z[i]) if "omega_dot" in fixed else Rt @ _cross(w, z[i])
        vd = Rt @ (vd + _cross(wd, p[i]) + _cross(w, _cross(w, p[i])))
        wd = Rt @ wd + coupling * qd[i] + z[i] * qdd[i]
        w = Rt @ w + z[i] * qd[i]
        a_c = vd + _cross(wd, c[i]) + _cross(w, _cross(w, c[i]))
        F[i], N[i] = m[i] * a_c, I[i] @ wd + _cross(w, I[i] @ w)
    return _inward_local(R, p, z, c, F, N)


def rnea(model, q, qd, qdd, fixed=()) -> np.ndarray:
    """The C++ ``rnea`` "core loop" ("Pinocchio 的 rnea 即此实现") -- reproduced as written, errors included.

    As written it does not compile (``r.cross(v[i-1])`` crosses a vector with a joint rate;
    ``R_next``, ``r_next`` and, in the second loop, ``j`` are undefined). Our reading: ``v[i-1]``,
    ``a[i-1]`` = the parent joint's rate times its axis; ``R_next``, ``r_next`` = the child's R
    and r; ``j`` = joint i; f, n beyond the last link = 0; omega, alpha start at 0. Lines:
        R = placement rotation                        <- 'R': q never enters (R_tree Rot(z, q_i))
        omega_i = R^T (omega_{i-1} + r x v[i-1]) + z v[i]                       <- 'omega'
        alpha_i = R^T (alpha_{i-1} + r x a[i-1] + omega_{i-1} x (omega_{i-1} x r)) + z a[i]  <- 'alpha'
        a_c = alpha_i x c + omega_i x (omega_i x c)   <- 'a_c': the origin's acceleration (and -g) missing
        F = m a_c,   N = I alpha + omega x I omega
        f_i = R_next^T f_{i+1} + F_i                  <- 'f': child to parent is R_next, not R_next^T
        n_i = R_next^T n_{i+1} + N_i + c x F_i + r_next x (R_next^T f_{i+1})   <- 'n': likewise
        tau_i = z . n_i
    fixed: subset of ('R', 'omega', 'alpha', 'a_c', 'f', 'n'); all fixed gives the correct torques.
    Pinocchio's rnea is not this loop: it is the spatial recursion of kl.rnea.
    """
    fixed = fixed_lines(fixed, FIXES["rnea"])
    q, qd, qdd, R, p, z, m, c, I = _revolute_chain(model_arg(model), q, qd, qdd, q_in_R="R" in fixed,
                                                     names=("qd", "qdd"))
    n = model.nb
    w, al, vd = np.zeros((n + 1, 3)), np.zeros((n + 1, 3)), np.zeros((n + 1, 3))
    vd[-1] = -model.gravity  # row -1 = the world (parent of body 0)
    F, N = np.zeros((n, 3)), np.zeros((n, 3))
    for i in range(n):
        Rt, r = R[i].T, p[i]
        v_par, a_par = (qd[i - 1] * z[i - 1], qdd[i - 1] * z[i - 1]) if i > 0 else (np.zeros(3), np.zeros(3))
        vd[i] = Rt @ (vd[i - 1] + _cross(al[i - 1], r) + _cross(w[i - 1], _cross(w[i - 1], r)))
        if "alpha" in fixed:
            al[i] = Rt @ al[i - 1] + _cross(Rt @ w[i - 1], z[i] * qd[i]) + z[i] * qdd[i]
        else:
            al[i] = Rt @ (al[i - 1] + _cross(r, a_par) + _cross(w[i - 1], _cross(w[i - 1], r))) + z[i] * qdd[i]
        w[i] = Rt @ w[i - 1] + z[i] * qd[i] if "omega" in fixed else Rt @ (w[i - 1] + _cross(r, v_par)) + z[i] * qd[i]
        a_c = _cross(al[i], c[i]) + _cross(w[i], _cross(w[i], c[i])) + (vd[i] if "a_c" in fixed else 0.0)
        F[i], N[i] = m[i] * a_c, I[i] @ al[i] + _cross(w[i], I[i] @ w[i])
    f, nn, tau = np.zeros(3), np.zeros(3), np.zeros(n)
    for i in range(n - 1, -1, -1):
        R_next, r_next = (R[i + 1], p[i + 1]) if i + 1 < n else (np.eye(3), np.zeros(3))
        Rf = R_next @ f if "f" in fixed else R_next.T @ f
        nn = (R_next @ nn if "n" in fixed else R_next.T @ nn) + N[i] + _cross(c[i], F[i]) \
            + _cross(r_next, R_next @ f if "n" in fixed else R_next.T @ f)
        f = Rf + F[i]
        tau[i] = z[i] @ nn
    return tau


#: The "M / C / g" discussion after the C++ loop, as written (fractions of the torque, cost ranks):
#: g(q) "only depends on the configuration, the cheapest to compute", "the main torque source at
#: low speed and heavy load (60 %~90 %)"; M(q) "the most expensive (O(n^2) terms)"; C(q, qd) qd
#: "proportional to the velocity squared, nearly zero at low speed, up to 30 % of gravity at high
#: speed", "computational complexity comparable to M". **What is wrong.** C qd by RNEA (a = 0,
#: minus g) is O(n) like g, while M is O(n^2): only the full matrix C (needed for the skew
#: property, not for the dynamics) costs about as much as M. The 60-90 % and 30 % are not
#: properties of the dynamics but of a robot, a load and a speed: g's share tends to 100 % as the
#: speed goes to 0 and C qd grows like the speed squared (chapter 5 measures both).
TERM_CLAIMS = {
    "gravity share at low speed": (0.60, 0.90),
    "Coriolis over gravity at high speed": 0.30,
    "cost ranking": ("g cheapest", "M most expensive, O(n^2)", "C qd comparable to M"),
}


# ================================================================ chapter 10: control


def joint_pid_update(err, dt, gravity_ff, i_term, prev_err, kp, ki, kd, i_limit=0.5, fixed=()):
    """``JointPID::update`` of document 001 (PID section, C++ struct), line by line.

        i_term += ki * err * dt;  i_term = clamp(i_term, -i_limit, i_limit);
        d_term = -kd * (err - prev_err) / dt;  prev_err = err;
        return kp * err + i_term + d_term + gravity_ff;

    Returns (tau, i_term, prev_err) (N·m, N·m, rad); all arguments scalars, err = q_d - q.

    **What is wrong.** With err = q_d - q and a constant set-point, (err - prev_err)/dt = -q̇, so
    d_term = +kd q̇: *negative* damping. On J q̈ = tau the loop is J s² - kd s + kp = 0, unstable
    for every kd > 0 (:func:`joint_pid_poles`). ``fixed=("sign",)`` uses +kd (the derivative
    of the error, correctly signed); that still differentiates the *error*, so the first sample
    after a set-point jump (and the very first sample, from prev_err = 0) gives a spike
    kd Δerr / dt -- the "derivative kick" the document's own bullet list warns against.
    ``kinematics_lib.PID`` uses the measured velocity instead.
    """
    fixed = fixed_lines(fixed, ("sign",))
    err, dt, g_ff = check.scalar(err, "err"), check.positive(dt, "dt"), check.scalar(gravity_ff, "gravity_ff")
    i_term, prev_err = check.scalar(i_term, "i_term"), check.scalar(prev_err, "prev_err")
    kp, ki, kd, i_limit = (check.scalar(x, n) for x, n in ((kp, "kp"), (ki, "ki"), (kd, "kd"), (i_limit, "i_limit")))
    if min(kp, ki, kd, i_limit) < 0.0:
        raise check.InputError("kp, ki, kd and i_limit must be non-negative")
    i_term += ki * err * dt
    i_term = min(max(i_term, -i_limit), i_limit)  # anti-windup (right)
    sign = 1.0 if "sign" in fixed else -1.0  # as written: -kd
    d_term = sign * kd * (err - prev_err) / dt
    return kp * err + i_term + d_term + g_ff, i_term, err


def joint_pid_poles(inertia, kp, kd, fixed=()) -> np.ndarray:
    """Poles (1/s) of document 001's ``JointPID`` (ki = 0) on a rigid joint J q̈ = tau, as dt -> 0.

    As written, d_term = +kd q̇, so J s² - kd s + kp = 0: poles (kd ± sqrt(kd² - 4 J kp)) / 2J,
    in the right half plane (J = 1, kp = 100, kd = 5: 2.5 ± 9.682j, growing like e^{2.5 t}).
    ``fixed=("sign",)``: J s² + kd s + kp = 0.
    """
    fixed = fixed_lines(fixed, ("sign",))
    J = check.positive(inertia, "inertia")
    kp, kd = check.scalar(kp, "kp"), check.scalar(kd, "kd")
    if kp < 0.0 or kd < 0.0:
        raise check.InputError("kp and kd must be non-negative")
    sign = 1.0 if "sign" in fixed else -1.0
    return np.sort_complex(np.roots([J, sign * kd, kp]).astype(complex))


def cartesian_impedance(J_local, x_err, dx_err, K, D, gravity) -> np.ndarray:
    """Document 001's 6-D Cartesian impedance snippet: tau = J^T (K ∘ x_err + D ∘ dx_err) + g(q).

    J_local (6, n): ``getJointJacobian(model, data, ee_id, LOCAL, J)`` -- rows [v; ω] in the
    frame of the *joint* (its origin and axes; the end-effector frame only if the tool sits on the
    joint origin); the call takes a joint id, and reads what ``computeJointJacobians(model, data,
    q)`` stored (the snippet omits that call: without it J is zero); x_err, dx_err (6,): pose error [position; so(3) log] and its
    rate; K, D (6,): diagonal gains (``cwiseProduct``); gravity (n,): g(q). Returns tau (n,).

    **What is missing.** tau = J^T F is right only if F is expressed in the frame and at the point
    that J refers to. The snippet never says in which frame x_err is computed; the usual choice
    (the target minus the current position, in the world) paired with a LOCAL Jacobian applies the
    force rotated by the end-effector's orientation. Either express x_err, dx_err and K, D in the
    local frame, or use the world-aligned Jacobian (LOCAL_WORLD_ALIGNED); ``getJointJacobian``
    also refers to the joint origin, so a tool offset needs ``getFrameJacobian``.
    """
    J = nonempty(check.matrix(J_local, (None, None), "J_local"), "J_local")
    x_err, dx_err = rows_match(x_err, J, "x_err", "J_local"), rows_match(dx_err, J, "dx_err", "J_local")
    K, D = rows_match(K, J, "K", "J_local"), rows_match(D, J, "D", "J_local")
    g = check.vector(gravity, J.shape[1], "gravity")
    if np.any(K < 0.0) or np.any(D < 0.0):
        raise check.InputError("K and D must be non-negative (diagonal gains)")
    return J.T @ (K * x_err + D * dx_err) + g


def delay_bandwidth(delay) -> tuple[float, float]:
    """Document 001, "three causes of instability", 2 (delay): "closed-loop bandwidth limit ≈
    1/(5~10 × total delay); with a total delay of 10 ms the force-control bandwidth should not
    exceed 10~20 Hz". Returns (1/(10 τ), 1/(5 τ)) in Hz for the delay τ (s) > 0.

    **What holds.** The arithmetic is right (τ = 10 ms gives 10 and 20 Hz). A PD loop on a mass
    with ζ = 0.7 loses stability at ω_n τ = 0.737 (``kl.critical_delay``); which frequency that is
    depends on what "bandwidth" means (``kl.delay_bandwidth_limits``): as the −3 dB closed-loop
    bandwidth (the standard definition, 2.05 ω_n) the limit is 1/(4.2 τ), and both ends of the
    rule are stable (delay margins 2.4 and 1.2); as the open-loop crossover (1.54 ω_n) it is
    1/(5.5 τ) and 1/(5 τ) is just past it; as the natural frequency f_n it is 1/(8.5 τ). The rule
    is a ceiling, not a design point, and it does not say which frequency it means.
    """
    tau = check.positive(delay, "delay")
    return check.finite_result((1.0 / (10.0 * tau), 1.0 / (5.0 * tau)), "bandwidth", "delay (too small)")


# ================================================================ chapter 11: identification and friction


def identify(Y_list, tau_list, lam: float = 1e-6):
    """Document 001, identification procedure, step 3: the Python ``identify()`` as written.

    Stacks the per-sample regressors and torques, solves the normal equations
    (Y^T Y + lam I) pi = Y^T tau, and returns (pi, rms) with rms = sqrt(mean(resid^2)).

    What is wrong:

    * its comment says "weighted least squares + ridge", but no weight enters: it is ordinary
      least squares with a ridge (the weighted form (Y^T W Y + lam I)^-1 Y^T W tau of step 3
      needs a W argument);
    * its docstring gives each sample's regressor the shape "(n x 10*nparams)"; it is
      (n, 10 N_b): ten parameters per *body* (10 * nparams would count each parameter ten times);
    * it returns the absolute RMS (N m) over all joints together, while step 4 judges a fit by
      "RMS error < 5 % of the peak torque": a relative number, and per joint (a joint with
      small torques disappears in a pooled RMS).

    Also: with the 10 N_b *standard* parameters Y^T Y is singular (chapter 11: rank); the tiny
    ridge makes the solve succeed but picks an arbitrary member of the family that fits,
    not the physical parameters, and forming Y^T Y squares the condition number.
    """
    if isinstance(Y_list, (str, bytes)) or not hasattr(Y_list, "__len__") or not len(Y_list) or \
            isinstance(tau_list, (str, bytes)) or not hasattr(tau_list, "__len__") or not len(tau_list):
        raise check.InputError("Y_list and tau_list must be non-empty lists of regressors (n, p) and torques (n,)")
    Ys = [check.matrix(y, (None, None), "Y_list[k]") for y in Y_list]
    if len({y.shape[1] for y in Ys}) != 1:
        raise check.InputError("every Y_list[k] must have the same number of columns")
    Y = np.vstack(Ys)
    tau = np.concatenate([check.vector(t, None, "tau_list[k]") for t in tau_list])
    if tau.shape[0] != Y.shape[0]:
        raise check.InputError(f"tau_list must stack to {Y.shape[0]} entries, got {tau.shape[0]}")
    A = Y.T @ Y + check.scalar(lam, "lam") * np.eye(Y.shape[1])
    try:
        pi = np.linalg.solve(A, Y.T @ tau)
    except np.linalg.LinAlgError:
        raise check.InputError("Y^T Y + lam I is singular: the stacked regressor is rank deficient "
                               "(standard parameters); pass lam > 0 or use base parameters") from None
    resid = Y @ pi - tau
    return check.finite_result((pi, float(np.sqrt(np.mean(resid**2)))), "pi, rms", "Y_list, tau_list, lam")


def lugre(z, v, sigma0: float, g):
    """Document 001, friction model 3 (LuGre) as written: only dz/dt = v - sigma0 |v| z / g(v).

    g must be passed as a function because the document never defines it, and the function
    returns the state rate only, because the document gives no output equation.

    What is missing: the Stribeck curve g(v) = f_c + (f_s - f_c) exp(-(v / v_s)^2) and the
    friction torque tau_f = sigma0 z + sigma1 dz/dt + sigma2 v. The document's "6 parameters"
    are sigma0, sigma1, sigma2, f_c, f_s, v_s, of which its formula shows one (sigma0).
    See :class:`kinematics_lib.LuGre`.
    """
    if not callable(g):
        raise check.InputError("g must be a function g(v) > 0 (the document does not define it)")
    z, v, s0 = check.scalar(z, "z"), check.scalar(v, "v"), check.positive(sigma0, "sigma0")
    try:
        with np.errstate(all="ignore"):
            gv = g(np.float64(v))
    except OverflowError:
        raise InputError(f"g(v) overflowed at v = {v:g}: v too large") from None
    gv = check.positive(gv, "g(v)")
    with np.errstate(all="ignore"):
        dz = np.float64(v) - s0 * abs(np.float64(v)) * z / gv
    return float(check.finite_result(dz, "dz/dt", "z, v, sigma0"))

"""Document 001 (dynamics and control basics, ``001_6ae5a536efd7a339.txt``) as written.

Each function reproduces one formula or code fragment of the document *with its error*; its
docstring names the section and says what is wrong. ``fixed=(...)`` switches on a correction
where that makes the comparison instructive. The correct versions live in ``kinematics_lib.control``.
"""

from __future__ import annotations

import numpy as np

from .. import _validate as check

__all__ = ["joint_pid_update_doc001", "joint_pid_poles_doc001", "cartesian_impedance_doc001"]


def joint_pid_update_doc001(err, dt, gravity_ff, i_term, prev_err, kp, ki, kd, i_limit=0.5, fixed=()):
    """``JointPID::update`` of document 001 (PID section, C++ struct), line by line.

        i_term += ki * err * dt;  i_term = clamp(i_term, -i_limit, i_limit);
        d_term = -kd * (err - prev_err) / dt;  prev_err = err;
        return kp * err + i_term + d_term + gravity_ff;

    Returns (tau, i_term, prev_err) (N·m, N·m, rad); all arguments scalars, err = q_d - q.

    **What is wrong.** With err = q_d - q and a constant set-point, (err - prev_err)/dt = -q̇, so
    d_term = +kd q̇: *negative* damping. On J q̈ = tau the loop is J s² - kd s + kp = 0, unstable
    for every kd > 0 (:func:`joint_pid_poles_doc001`). ``fixed=("sign",)`` uses +kd (the derivative
    of the error, correctly signed); that still differentiates the *error*, so the first sample
    after a set-point jump (and the very first sample, from prev_err = 0) gives a spike
    kd Δerr / dt -- the "derivative kick" the document's own bullet list warns against.
    ``kinematics_lib.PID`` uses the measured velocity instead.
    """
    fixed = tuple(fixed)
    for name in fixed:
        check.one_of(name, ("sign",), "fixed")
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


def joint_pid_poles_doc001(inertia, kp, kd, fixed=()) -> np.ndarray:
    """Poles (1/s) of document 001's ``JointPID`` (ki = 0) on a rigid joint J q̈ = tau, as dt -> 0.

    As written, d_term = +kd q̇, so J s² - kd s + kp = 0: poles (kd ± sqrt(kd² - 4 J kp)) / 2J,
    in the right half plane (J = 1, kp = 100, kd = 5: 2.5 ± 9.682j, growing like e^{2.5 t}).
    ``fixed=("sign",)``: J s² + kd s + kp = 0.
    """
    for name in tuple(fixed):
        check.one_of(name, ("sign",), "fixed")
    J = check.positive(inertia, "inertia")
    kp, kd = check.scalar(kp, "kp"), check.scalar(kd, "kd")
    if kp < 0.0 or kd < 0.0:
        raise check.InputError("kp and kd must be non-negative")
    sign = 1.0 if "sign" in tuple(fixed) else -1.0
    return np.sort_complex(np.roots([J, sign * kd, kp]).astype(complex))


def cartesian_impedance_doc001(J_local, x_err, dx_err, K, D, gravity) -> np.ndarray:
    """Document 001's 6-D Cartesian impedance snippet: tau = J^T (K ∘ x_err + D ∘ dx_err) + g(q).

    J_local (6, n): ``getJointJacobian(model, data, ee_id, LOCAL, J)`` -- rows [v; ω] in the
    *local* (end-effector) frame; x_err, dx_err (6,): pose error [position; so(3) log] and its
    rate; K, D (6,): diagonal gains (``cwiseProduct``); gravity (n,): g(q). Returns tau (n,).

    **What is missing.** tau = J^T F is right only if F is expressed in the frame and at the point
    that J refers to. The snippet never says in which frame x_err is computed; the usual choice
    (the target minus the current position, in the world) paired with a LOCAL Jacobian applies the
    force rotated by the end-effector's orientation. Either express x_err, dx_err and K, D in the
    local frame, or use the world-aligned Jacobian (LOCAL_WORLD_ALIGNED); ``getJointJacobian``
    also refers to the joint origin, so a tool offset needs ``getFrameJacobian``.
    """
    J = check.matrix(J_local, (None, None), "J_local")
    m = J.shape[0]
    x_err, dx_err = check.vector(x_err, m, "x_err"), check.vector(dx_err, m, "dx_err")
    K, D = check.vector(K, m, "K"), check.vector(D, m, "D")
    g = check.vector(gravity, J.shape[1], "gravity")
    if np.any(K < 0.0) or np.any(D < 0.0):
        raise check.InputError("K and D must be non-negative (diagonal gains)")
    return J.T @ (K * x_err + D * dx_err) + g

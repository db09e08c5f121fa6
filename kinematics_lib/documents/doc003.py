"""Document 003 -- "动力学基础：牛顿-欧拉方程、拉格朗日法、关节空间与任务空间动力学模型"
(``003_83f2e4c41dc44137.txt``) -- its formulas *as written*, errors included.

One function per claim that a chapter checks; each docstring cites the section and says what is
wrong. The correct counterparts live in the maths layers. Sections are grouped by chapter.
"""

from __future__ import annotations

import numpy as np

from .. import _validate as check
from .._validate import InputError
from ..dynamics.newton_euler_3d import DHArm
from ..dynamics.shared import dh_arm_state as _state, world_geometry as _world_geometry
from ..geometry.kernels import cross as _cross
from ._common import fixed_lines

__all__ = [
    # chapter 5
    "ne",
    # chapter 10
    "task_force",
]

#: lines of each function here that ``fixed=`` can replace by the correct line (see doc_line_errors)
FIXES = {"ne": ("n", "tau")}
#: functions whose fixes are alternatives (each one alone makes the result right)
ALTERNATIVE_FIXES = ("ne",)


# ================================================================ chapter 5: Newton-Euler


def ne(arm, q, qd, qdd, fixed=()) -> np.ndarray:
    """Section 3.1, Newton-Euler pseudocode -- reproduced as written, error included.

    World frame, standard DH (joint i about z_{i-1}), revolute joints; the document gives no
    start values, we use omega_0 = omega_dot_0 = 0, v_dot_0 = -g. Its lines:
        omega_i, omega_dot_i, v_dot_i, v_dot_ci, F_i, N_i   as in :func:`kinematics_lib.newton_euler_terms`
        f_i = F_i + f_{i+1}
        n_i = N_i + n_{i+1} + r_{i,ci} x F_i + r_{i,i+1} x f_{i+1}   <- 'n': moments about O_i
        tau_i = n_i . z_{i-1}                                        <- 'tau': axis through O_{i-1}
    The n line (Craig's modified-DH form) and the tau line (standard DH) disagree; fixing either
    one is enough: 'n' uses r_{i-1,ci}, r_{i-1,i}; 'tau' uses (n_i + r_{i-1,i} x f_i) . z_{i-1}.
    """
    fixed = fixed_lines(fixed, FIXES["ne"])
    if fixed == {"n", "tau"}:
        raise InputError("fixed may contain 'n' or 'tau', not both (they are alternative corrections)")
    if not isinstance(arm, DHArm):
        raise InputError(f"arm must be a DHArm, got {type(arm).__name__}")
    if set(arm.robot.joint_types) != {"R"}:
        raise InputError("arm must have revolute joints only (the document's pseudocode)")
    q, qd, qdd = _state(arm, q, qd, qdd, names=("qd", "qdd"))
    O, z, r, rc, I = _world_geometry(arm, q)
    n = arm.n
    w, wd, vd = np.zeros(3), np.zeros(3), -arm.gravity
    F, N = np.zeros((n, 3)), np.zeros((n, 3))
    for i in range(n):  # i = 1..n of the document
        wd = wd + qdd[i] * z[i] + _cross(w, qd[i] * z[i])
        w = w + qd[i] * z[i]
        vd = vd + _cross(wd, r[i]) + _cross(w, _cross(w, r[i]))
        vdc = vd + _cross(wd, rc[i]) + _cross(w, _cross(w, rc[i]))
        F[i], N[i] = arm.masses[i] * vdc, I[i] @ wd + _cross(w, I[i] @ w)
    f_next, n_next, tau = np.zeros(3), np.zeros(3), np.zeros(n)
    for i in range(n - 1, -1, -1):  # i = n down to 1
        r_next = r[i + 1] if i + 1 < n else np.zeros(3)  # r_{i,i+1}; f_{n+1} = 0 anyway
        f_i = F[i] + f_next
        if "n" in fixed:
            n_i = N[i] + n_next + _cross(r[i] + rc[i], F[i]) + _cross(r[i], f_next)
        else:
            n_i = N[i] + n_next + _cross(rc[i], F[i]) + _cross(r_next, f_next)
        tau[i] = (n_i + _cross(r[i], f_i)) @ z[i] if "tau" in fixed else n_i @ z[i]
        f_next, n_next = f_i, n_i
    return tau


# ================================================================ chapter 10: control


def task_force(J, tau) -> np.ndarray:
    """Document 003 §3.4's map from joint torques to the task force, as written: F = J⁻ᵀ τ.

    J (m, n), tau (n,) -> F (m,). **What is missing.** J⁻ᵀ exists only for a square, non-singular
    J (m = n, away from singularities); for a redundant arm (m < n) the formula cannot be
    evaluated (ValueError here, naming J). The general task force that τ produces is
    F = J̄ᵀ τ with the dynamically consistent inverse J̄ = M⁻¹ Jᵀ Λ
    (``kl.dynamically_consistent_inverse``); it equals J⁻ᵀ τ when J is square, and the
    Moore-Penrose pinv(J)ᵀ τ, the usual "fix", is not it (it ignores M).
    """
    J = check.matrix(J, (None, None), "J")
    tau = check.vector(tau, J.shape[1], "tau")
    if J.shape[0] != J.shape[1]:
        raise InputError(f"J must be square for J⁻ᵀ (document 003's F = J⁻ᵀ τ), got shape {J.shape}: a redundant "
                         f"arm needs the dynamically consistent inverse")
    if np.linalg.cond(J) > 1e12:
        raise InputError("J must be non-singular for J⁻ᵀ: the arm is at a kinematic singularity")
    return np.linalg.solve(J.T, tau)

"""Document 001 (dynamics and control basics, ``001_6ae5a536efd7a339.txt``): formulas as written.

One function per claim a chapter checks; each docstring names the section and says what is
wrong. The correct versions live in the maths layers.
"""

from __future__ import annotations

import numpy as np

from .. import _validate as check

__all__ = ["identify_doc001", "lugre_doc001"]


# ---------------------------------------------------------------------------------------------
# Chapter 11 -- identification and friction
# ---------------------------------------------------------------------------------------------


def identify_doc001(Y_list, tau_list, lam: float = 1e-6):
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


def lugre_doc001(z, v, sigma0: float, g):
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
    gv = check.positive(g(v), "g(v)")
    return check.finite_result(v - s0 * abs(v) * z / gv, "dz/dt", "z, v, sigma0")

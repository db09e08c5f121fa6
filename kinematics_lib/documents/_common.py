"""Helpers shared by the document modules: the ``fixed=`` argument and the model argument.

Private: the documents' functions validate their arguments like the correct versions do (once,
at the public call) and then run their lines unchecked.
"""

from __future__ import annotations

import numpy as np

from .. import _validate as check
from .._validate import InputError
from ..dynamics.model import Model

_MISSING = object()


def fixed_lines(fixed, allowed: tuple[str, ...], name: str = "fixed") -> frozenset:
    """The set of line names in ``fixed``; InputError unless it is a subset of ``allowed``."""
    if isinstance(fixed, str):
        raise InputError(f"{name} must be a collection of line names from {allowed}, got the string {fixed!r}")
    try:
        lines = frozenset(fixed)
    except TypeError:
        raise InputError(f"{name} must be a collection of line names from {allowed}, got {fixed!r}") from None
    unknown = lines - set(allowed)
    if unknown:
        raise InputError(f"{name} must be a subset of {allowed}, got {sorted(map(str, unknown))}")
    return lines


def model_arg(model, name: str = "model") -> Model:
    """``model`` if it is a :class:`~kinematics_lib.Model`, else InputError."""
    return check.instance(model, Model, name)


def state(model: Model, q, v=_MISSING, a=_MISSING, name_a: str = "a") -> list:
    """Checked (q[, v[, a]]) of ``model``: finite vectors of lengths nq, nv, nv (None refused).

    A floating base's quaternion q[3:7] must have unit norm (a zero quaternion is no rotation).
    """
    out = [check.vector(q, model.nq, "q")]
    if model.floating_base:
        check.unit_quaternion(out[0][3:7], "q[3:7] (the base quaternion)")
    for x, name in ((v, "v"), (a, name_a)):
        if x is not _MISSING:
            out.append(check.vector(x, model.nv, name))
    return out


def rows_match(x, J: np.ndarray, name: str, J_name: str = "J") -> np.ndarray:
    """``x`` as a finite vector with one entry per row of ``J``; the message names both."""
    x = check.vector(x, None, name)
    if x.shape[0] != J.shape[0]:
        raise InputError(f"{name} must have shape ({J.shape[0]},), one entry per row of {J_name}, "
                         f"got shape {x.shape}")
    return x


def nonempty(J: np.ndarray, name: str) -> np.ndarray:
    """``J`` unless it has no rows or no columns."""
    if J.size == 0:
        raise InputError(f"{name} must have at least one row and one column, got shape {J.shape}")
    return J

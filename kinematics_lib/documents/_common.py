"""Helpers shared by the document modules: the ``fixed=`` argument and the model argument.

Private: the documents' functions validate their arguments like the correct versions do (once,
at the public call) and then run their lines unchecked.
"""

from __future__ import annotations

from .. import _validate as check
from .._validate import InputError
from ..dynamics.model import Model


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

"""Checked callables with an unchecked float kernel: validate at the boundary, once.

A control law ``law(t, q, v) -> tau``, a reference ``reference(t) -> (q_d, v_d, a_d)`` or an
external torque ``external(q, v) -> tau_ext`` made by this layer is a plain function that checks
and converts its arguments, calls its ``kernel`` and returns numpy arrays. ``kernel`` (an
attribute of the function) is the same computation on tuples of Python floats, unchecked: the
one simulation loop (:func:`~kinematics_lib.simulate_sampled`) and the other loops of the
library call it every control period, where numpy's per-call overhead on 2-vectors (~1 µs per
operation) would cost 20x the arithmetic. A callable without ``kernel`` (a student's law) is
wrapped by :func:`law_kernel` and friends, which convert and check its output every call.
"""

from __future__ import annotations

import math

import numpy as np

from .. import _validate as check


def floats(x, n: int) -> tuple:
    """x (scalar or (n,)) as a tuple of n Python floats (no checks beyond numpy's conversion)."""
    a = np.asarray(x, dtype=float)
    return (float(a),) * n if a.ndim == 0 else tuple(a.tolist())


def checked_floats(x, n: int, name: str) -> tuple:
    """A scalar or a finite (n,) result of a caller's function as n floats; InputError otherwise."""
    a = np.asarray(x, dtype=float)
    if a.shape == ():
        a = np.full(n, float(a))
    if a.shape != (n,) or not math.isfinite(a.sum()):
        raise check.InputError(f"{name} must return a finite value of shape ({n},), got {x!r}")
    return tuple(a.tolist())


def make_law(kernel, n: int):
    """law(t, q, v) -> tau (n,) array, checking q, v; ``law.kernel(t, q, v)`` on float tuples."""
    def law(t, q, v):
        q, v = check.vector(q, n, "q"), check.vector(v, n, "v")
        return np.array(kernel(check.scalar(t, "t"), tuple(q.tolist()), tuple(v.tolist())))
    law.kernel, law.nv = kernel, n
    return law


def make_external(kernel, n: int):
    """external(q, v) -> tau_ext (n,) array; ``external.kernel(q, v)`` on float tuples."""
    def external(q, v):
        q, v = check.vector(q, n, "q"), check.vector(v, n, "v")
        return np.array(kernel(tuple(q.tolist()), tuple(v.tolist())))
    external.kernel = kernel
    return external


def make_reference(kernel):
    """reference(t) -> (q_d, v_d, a_d) arrays; ``reference.kernel(t)`` -> three float tuples."""
    def reference(t):
        return tuple(np.array(x) for x in kernel(check.scalar(t, "t")))
    reference.kernel = kernel
    return reference


def law_kernel(law, n: int):
    """The float kernel of a law: its own, or a wrapper that checks a caller's law every call."""
    kernel = getattr(law, "kernel", None)
    if kernel is not None and getattr(law, "nv", n) == n:
        return kernel
    return lambda t, q, v: checked_floats(law(t, np.array(q), np.array(v)), n, "law")


def external_kernel(external, n: int):
    """The float kernel of an external torque (None: zero)."""
    if external is None:
        zero = (0.0,) * n
        return lambda q, v: zero
    kernel = getattr(external, "kernel", None)
    if kernel is not None:
        return kernel
    return lambda q, v: checked_floats(external(np.array(q), np.array(v)), n, "external")


def reference_kernel(reference, n: int):
    """The float kernel of a reference: three tuples of n floats at time t."""
    kernel = getattr(reference, "kernel", None)
    if kernel is not None:
        return kernel

    def wrapped(t):
        out = reference(t)
        if not isinstance(out, (tuple, list)) or len(out) != 3:
            raise check.InputError(f"reference(t) must return (q_d, v_d, a_d), got {out!r}")
        return tuple(checked_floats(x, n, "reference") for x in out)
    return wrapped


def function_kernel(f, name: str):
    """The float kernel of a function of q (e.g. ``arm.gravity``): the plant's own unchecked method
    for a bound method of this layer's plants (``_gravity``), else a wrapper checking f(q) every call."""
    if f is None:
        return None
    kernel = getattr(f, "kernel", None)
    owner = getattr(f, "__self__", None)
    if kernel is None and owner is not None and getattr(f, "__name__", "") == "gravity":
        kernel = getattr(owner, "_gravity", None)
    if kernel is not None:
        return kernel
    return lambda q: checked_floats(f(np.array(q)), len(q), name)

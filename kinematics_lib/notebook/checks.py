"""Self-checks for exercises: compare a student's function with the library on many random inputs.

In a student's notebook a check never raises: it returns a :class:`CheckResult` whose text says
what is right, what is wrong (the first failing input, expected and obtained values), or that
the exercise is "not answered yet" (the function still raises ``NotImplementedError``).

Where a grade is decided -- ``nbgrader validate`` and ``nbgrader autograde``, which set
``NBGRADER_EXECUTION`` in the kernel's environment -- a check that did not pass raises
``AssertionError`` with the same message, so the grading cell fails (see :func:`grading`).

The reference cannot be used as the answer: while the student's function runs, the library
functions listed in ``forbid`` (by default the reference itself, when it is a kinematics_lib
function) raise :class:`ReferenceCalled` however they are reached (``kl.name``, an imported
alias, a stored reference), because their code object is swapped for one that raises.
Expected values are computed before the student's code runs.

Because a check that did not pass raises under nbgrader, the variable it would have returned is
never assigned there: a later cell that uses the answer asks :func:`passed` instead, e.g.
``if passed(rk4_step_mine): ...``, which works in both kinds of kernel.
"""

from __future__ import annotations

import contextlib
import os
import types
from dataclasses import dataclass
from typing import Any, Callable, Iterable

import numpy as np

__all__ = ["CheckResult", "ReferenceCalled", "check_function", "check_value", "forbidden", "grading",
           "passed", "random_inputs", "NOT_ANSWERED"]

NOT_ANSWERED = "not answered yet"
GRADING_VARIABLE = "NBGRADER_EXECUTION"
_LAST: dict[str, bool] = {}  # name of the checked function -> did its most recent check pass


def _set_at_process_start(name: str) -> bool:
    """Whether ``name`` was in this process's environment when it started (Linux: /proc/self/environ,
    which ``del os.environ[...]`` does not change); False where that file does not exist."""
    try:
        with open("/proc/self/environ", "rb") as f:
            entries = f.read().split(b"\0")
    except OSError:
        return False
    prefix = name.encode() + b"="
    return any(e.startswith(prefix) and len(e) > len(prefix) for e in entries)


def grading() -> bool:
    """True inside ``nbgrader validate`` / ``autograde``: they set NBGRADER_EXECUTION in the kernel's
    environment (an answer that deletes it from ``os.environ`` does not turn grading off)."""
    return bool(os.environ.get(GRADING_VARIABLE)) or _set_at_process_start(GRADING_VARIABLE)


def passed(function: Callable | str) -> bool:
    """Did the most recent check of ``function`` (or of the function of that name) pass?

    For cells after a self-check that use the answer: under nbgrader a failed check raises, so the
    result variable of the check cell is not assigned, while ``passed`` still answers.
    """
    name = function if isinstance(function, str) else getattr(function, "__name__", "")
    return _LAST.get(name, False)


class ReferenceCalled(RuntimeError):
    """Raised when an answer calls the library function that the exercise asks the student to write."""


def _library_function(fn) -> bool:
    return isinstance(fn, types.FunctionType) and (fn.__module__ or "").startswith("kinematics_lib") \
        and not fn.__code__.co_freevars


@contextlib.contextmanager
def forbidden(functions: Iterable[Callable]):
    """Within the block, each library function in ``functions`` raises :class:`ReferenceCalled`.

    The function object itself is changed (its ``__code__``), so every way of reaching it --
    ``kl.dh_standard``, ``from kinematics_lib import dh_standard as f``, a reference stored
    earlier -- is covered. Restored on exit, also after an exception.
    """
    saved = []
    try:
        for fn in functions:
            if not _library_function(fn):
                raise ValueError(f"forbid must list plain kinematics_lib functions, got {fn!r} (for a cached "
                                 "or wrapped function, forbid the library function that the reference calls)")
            label = f"kl.{fn.__name__}"

            # the swapped code runs with the library module's globals: it brings what it needs
            def refuse(*args, __label=label, __error=ReferenceCalled, **kwargs):
                raise __error(f"{__label} is the reference of this exercise: write it yourself")

            saved.append((fn, fn.__code__, fn.__defaults__, fn.__kwdefaults__))
            fn.__code__ = refuse.__code__
            fn.__defaults__, fn.__kwdefaults__ = refuse.__defaults__, refuse.__kwdefaults__
        yield
    finally:
        for fn, code, defaults, kwdefaults in saved:
            fn.__code__, fn.__defaults__, fn.__kwdefaults__ = code, defaults, kwdefaults


@dataclass(frozen=True)
class CheckResult:
    """passed: all inputs agree; answered: False while the student's code raises NotImplementedError."""

    name: str
    passed: bool
    answered: bool
    message: str

    def __repr__(self) -> str:
        return self.message

    def __bool__(self) -> bool:
        return self.passed


def _fmt(x: Any) -> str:
    if isinstance(x, np.ndarray):
        return np.array2string(np.asarray(x, dtype=float), precision=4, suppress_small=True,
                               max_line_width=100)
    if isinstance(x, float):
        return f"{x:.6g}"
    if isinstance(x, (tuple, list)):
        return "(" + ", ".join(_fmt(v) for v in x) + ")"
    return repr(x)


def _describe_input(args: tuple, kwargs: dict) -> str:
    parts = [_fmt(a) for a in args] + [f"{k}={_fmt(v)}" for k, v in kwargs.items()]
    return ", ".join(parts)


def _compare(got: Any, expected: Any, rtol: float, atol: float) -> str | None:
    """None if equal within tolerance, else a sentence saying how they differ."""
    if isinstance(expected, (bool, np.bool_)):
        return None if bool(got) == bool(expected) else f"expected {expected}, got {got!r}"
    if isinstance(expected, str):
        return None if got == expected else f"expected {expected!r}, got {got!r}"
    if isinstance(expected, (tuple, list)) and not np.isscalar(expected) and any(
            isinstance(e, (np.ndarray, tuple, list)) for e in expected):
        if not isinstance(got, (tuple, list)) or len(got) != len(expected):
            return f"expected a sequence of {len(expected)} items, got {type(got).__name__}"
        for k, (g, e) in enumerate(zip(got, expected)):
            why = _compare(g, e, rtol, atol)
            if why:
                return f"item {k}: {why}"
        return None
    try:
        g = np.asarray(got, dtype=float)
    except (TypeError, ValueError):
        return f"expected a number or an array, got {type(got).__name__}: {got!r}"
    e = np.asarray(expected, dtype=float)
    if g.shape != e.shape:
        return f"expected shape {e.shape}, got shape {g.shape}"
    if not np.all(np.isfinite(g)):
        return f"result contains NaN or inf: {_fmt(g)}"
    if not np.allclose(g, e, rtol=rtol, atol=atol):
        diff = float(np.max(np.abs(g - e)))
        return f"expected {_fmt(e)}, got {_fmt(g)} (max difference {diff:.3g})"
    return None


def random_inputs(sampler: Callable[[np.random.Generator], Any], n: int = 50, seed: int = 0) -> list:
    """``n`` inputs drawn by ``sampler(rng)`` from a seeded generator (same inputs every run).

    The sampler returns a dict (keyword arguments), a tuple (positional arguments) or a value.
    """
    rng = np.random.default_rng(seed)
    return [sampler(rng) for _ in range(n)]


def _split(inp) -> tuple[tuple, dict]:
    if isinstance(inp, dict):
        return (), inp
    if isinstance(inp, tuple):
        return inp, {}
    return (inp,), {}


def check_function(student: Callable, reference: Callable, inputs: Iterable, *, name: str | None = None,
                   rtol: float = 1e-7, atol: float = 1e-9,
                   compare: Callable[[Any, Any], str | None] | None = None,
                   forbid: Iterable[Callable] | None = None) -> CheckResult:
    """Call ``student`` and ``reference`` on every input; report the first disagreement.

    compare: optional function (got, expected) -> None if acceptable, else a reason (e.g. to
    accept either of two equivalent answers); it runs outside the ``forbid`` block.
    forbid: library functions the answer may not call (see :func:`forbidden`); None (default)
    forbids ``reference`` when it is a kinematics_lib function, ``()`` forbids nothing.

    Under nbgrader (:func:`grading`) a result that did not pass raises ``AssertionError``; either
    way :func:`passed` remembers the outcome under ``name``.
    """
    result = _run_check(student, reference, inputs, name, rtol, atol, compare, forbid)
    _LAST[result.name] = result.passed
    if grading() and not result.passed:
        raise AssertionError(result.message)
    return result


def _run_check(student, reference, inputs, name, rtol, atol, compare, forbid) -> CheckResult:
    name = name or getattr(student, "__name__", "your function")
    calls = [_split(inp) for inp in inputs]
    expected = [reference(*args, **kwargs) for args, kwargs in calls]  # before any student code runs
    if forbid is None:
        forbid = (reference,) if _library_function(reference) else ()
    got = []
    with forbidden(list(forbid)):
        for args, kwargs in calls:
            try:
                got.append(student(*args, **kwargs))
            except NotImplementedError:
                return CheckResult(name, False, False,
                                   f"… {name}: {NOT_ANSWERED} (it still raises NotImplementedError)")
            except ReferenceCalled as exc:
                return CheckResult(name, False, True, f"✘ {name} calls the reference: {exc}")
            except Exception as exc:  # report, do not crash the notebook
                return CheckResult(name, False, True, f"✘ {name}({_describe_input(args, kwargs)}) raised "
                                                       f"{type(exc).__name__}: {exc}")
    for (args, kwargs), g, e in zip(calls, got, expected):
        try:
            why = compare(g, e) if compare else _compare(g, e, rtol, atol)
        except Exception as exc:  # a malformed answer must not crash the comparison
            why = f"could not compare the result ({type(exc).__name__}: {exc})"
        if why:
            return CheckResult(name, False, True, f"✘ {name}({_describe_input(args, kwargs)}): {why}")
    return CheckResult(name, True, True, f"✔ {name}: agrees with the reference on {len(calls)} "
                                         f"input{'s' if len(calls) != 1 else ''}")


def check_value(student_fn: Callable[[], Any], expected: Any, *, name: str | None = None,
                rtol: float = 1e-7, atol: float = 1e-9) -> CheckResult:
    """Check a single answer returned by a function of no arguments (raises under nbgrader if wrong)."""
    return check_function(student_fn, lambda: expected, [()], name=name, rtol=rtol, atol=atol, forbid=())

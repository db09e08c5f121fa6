"""Self-checks for exercises: compare a student's function with the library on many random inputs.

A check never raises: it returns a :class:`CheckResult` whose text says what is right, what is
wrong (the first failing input, expected and obtained values), or that the exercise is "not
answered yet" (the function still raises ``NotImplementedError``). Solution notebooks assert
``result.passed`` in their hidden tests.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable

import numpy as np

__all__ = ["CheckResult", "check_function", "check_value", "random_inputs", "NOT_ANSWERED"]

NOT_ANSWERED = "not answered yet"


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
                   compare: Callable[[Any, Any], str | None] | None = None) -> CheckResult:
    """Call ``student`` and ``reference`` on every input; report the first disagreement.

    compare: optional function (got, expected) -> None if acceptable, else a reason (e.g. to
    accept either of two equivalent answers).
    """
    name = name or getattr(student, "__name__", "your function")
    inputs = list(inputs)
    for inp in inputs:
        args, kwargs = _split(inp)
        expected = reference(*args, **kwargs)
        try:
            got = student(*args, **kwargs)
        except NotImplementedError:
            return CheckResult(name, False, False, f"… {name}: {NOT_ANSWERED} (it still raises NotImplementedError)")
        except Exception as exc:  # report, do not crash the notebook
            return CheckResult(name, False, True, f"✘ {name}({_describe_input(args, kwargs)}) raised "
                                                   f"{type(exc).__name__}: {exc}")
        try:
            why = compare(got, expected) if compare else _compare(got, expected, rtol, atol)
        except Exception as exc:  # a malformed answer must not crash the comparison
            why = f"could not compare the result ({type(exc).__name__}: {exc})"
        if why:
            return CheckResult(name, False, True, f"✘ {name}({_describe_input(args, kwargs)}): {why}")
    return CheckResult(name, True, True, f"✔ {name}: agrees with the reference on {len(inputs)} "
                                         f"input{'s' if len(inputs) != 1 else ''}")


def check_value(student_fn: Callable[[], Any], expected: Any, *, name: str | None = None,
                rtol: float = 1e-7, atol: float = 1e-9) -> CheckResult:
    """Check a single answer returned by a function of no arguments."""
    return check_function(student_fn, lambda: expected, [()], name=name, rtol=rtol, atol=atol)

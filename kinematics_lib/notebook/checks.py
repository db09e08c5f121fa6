"""Self-checks for exercises: compare a student's function with the library on many random inputs.

In a student's notebook a check never raises: it returns a :class:`CheckResult` whose text says
what is right, what is wrong (the first failing input, expected and obtained values), or that
the exercise is "not answered yet" (the function still raises ``NotImplementedError``).

Where a grade is decided -- ``nbgrader validate`` and ``nbgrader autograde``, which set
``NBGRADER_EXECUTION`` in the kernel's environment -- a check that did not pass raises
``AssertionError`` with the same message, so the grading cell fails (see :func:`grading`).

The library cannot be used as the answer. While the student's function runs:

* a call from the student's code into kinematics_lib (or Pinocchio) is refused unless the function
  is one of the exercise's building blocks, listed in ``allow`` (by default none); library
  functions calling each other inside an allowed building block are not affected, and
  constructing library objects or reading their attributes and properties is always allowed;
* the reference and the functions listed in ``forbid`` are refused however they are reached
  (``kl.name``, an imported alias, a stored reference, from inside another library function).

A refused call raises :class:`ReferenceCalled`, and the check fails even if the answer catches
it. Expected values are computed before the student's code runs. The gate is a profile hook
(:func:`sys.setprofile`) of the thread that runs the answer; a student who removes it on purpose
is not stopped by code, but it is there to read in the submission.

Because a check that did not pass raises under nbgrader, the variable it would have returned is
never assigned there: a later cell that uses the answer asks :func:`passed` instead, e.g.
``if passed(rk4_step_mine): ...``, which works in both kinds of kernel.
"""

from __future__ import annotations

import contextlib
import importlib.abc
import os
import sys
import threading
import types
from dataclasses import dataclass
from typing import Any, Callable, Iterable

import numpy as np

__all__ = ["CheckResult", "ReferenceCalled", "check_function", "check_value", "forbidden", "grading",
           "library_gate", "notebook_language", "passed", "random_inputs", "NOT_ANSWERED"]

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
    """Raised when an answer calls the library function that the exercise asks the student to write
    (``kind`` "reference") or a library function that is not one of its building blocks ("library")."""

    def __init__(self, message: str, kind: str = "reference"):
        super().__init__(message)
        self.kind = kind


_REFUSALS: list[ReferenceCalled] = []  # refusals during the current answer, kept if the answer catches them


def _library_function(fn) -> bool:
    return isinstance(fn, types.FunctionType) and (fn.__module__ or "").startswith("kinematics_lib") \
        and not fn.__code__.co_freevars


def _refuse(message: str, kind: str = "reference"):
    error = ReferenceCalled(message, kind)
    _REFUSALS.append(error)
    raise error


def _refusing(*args, __label="", __refuse=_refuse, **kwargs):
    """The code a forbidden function runs instead of its own (with the library module's globals,
    so it brings what it needs as keyword defaults)."""
    __refuse(f"{__label} is the reference of this exercise: write it yourself")


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
            if any(fn is done for done, *_ in saved):
                continue  # listed twice (or under two names): swapping again would save the refusing code
            if not _library_function(fn):
                raise ValueError(f"forbid must list plain kinematics_lib functions, got {fn!r} (for a cached "
                                 "or wrapped function, forbid the library function that the reference calls)")
            saved.append((fn, fn.__code__, fn.__defaults__, fn.__kwdefaults__))
            fn.__code__ = _refusing.__code__
            fn.__defaults__, fn.__kwdefaults__ = None, {"__label": f"kl.{fn.__name__}", "__refuse": _refuse}
        yield
    finally:
        for fn, code, defaults, kwdefaults in reversed(saved):
            fn.__code__, fn.__defaults__, fn.__kwdefaults__ = code, defaults, kwdefaults


class _RefusedValue:
    """Stands for a value of a forbidden library table while an answer runs: any use refuses."""

    __slots__ = ("_label",)

    def __init__(self, label: str):
        object.__setattr__(self, "_label", label)

    def _refuse(self, *args, **kwargs):
        _refuse(f"{object.__getattribute__(self, '_label')} holds this exercise's answer: write it yourself")

    def __getattr__(self, name):
        self._refuse()


for _name in ("__getitem__", "__iter__", "__len__", "__contains__", "__call__", "__float__", "__int__",
              "__index__", "__bool__", "__array__", "__add__", "__radd__", "__sub__", "__rsub__", "__mul__",
              "__rmul__", "__truediv__", "__rtruediv__", "__matmul__", "__rmatmul__", "__neg__", "__abs__",
              "__lt__", "__le__", "__gt__", "__ge__", "__eq__", "__ne__", "__hash__", "__format__", "__str__"):
    setattr(_RefusedValue, _name, _RefusedValue._refuse)


@contextlib.contextmanager
def _tables_refused(tables: Iterable[dict]):
    """Within the block the values of each library table (a dict) refuse any use; its keys stay."""
    saved = []
    root = sys.modules.get(_PACKAGE)
    try:
        for table in tables:
            if any(table is done for done, _ in saved):
                continue
            label = next((f"kl.{n}" for n in getattr(root, "__all__", ()) if getattr(root, n, None) is table),
                         "a library table")
            saved.append((table, dict(table)))
            for key in table:
                table[key] = _RefusedValue(f"{label}[{key!r}]")
        yield
    finally:
        for table, content in reversed(saved):
            table.clear()
            table.update(content)


_PACKAGE = __name__.split(".")[0]  # "kinematics_lib"
_PINOCCHIO = "pinocchio"


def _in_library(module_name) -> bool:
    return isinstance(module_name, str) and (module_name == _PACKAGE or module_name.startswith(_PACKAGE + "."))


def _codes_of(fn) -> list:
    """The code objects that running ``fn`` (function, method, property, wrapped function) starts."""
    if isinstance(fn, property):
        return [c for f in (fn.fget, fn.fset, fn.fdel) if f is not None for c in _codes_of(f)]
    if isinstance(fn, (staticmethod, classmethod, types.MethodType)):
        return _codes_of(fn.__func__)
    codes = [fn.__code__] if isinstance(fn, types.FunctionType) else []
    wrapped = getattr(fn, "__wrapped__", None)
    if wrapped is not None and wrapped is not fn:
        codes += _codes_of(wrapped)
    return codes


def _building_block_codes(allow: Iterable) -> frozenset:
    codes = []
    for fn in allow:
        found = _codes_of(fn)
        if not found:
            raise ValueError(f"allow must list Python functions, methods or properties, got {fn!r}")
        codes += found
    return frozenset(codes)


def _attribute_codes() -> frozenset:
    """Code of every property (and cached property) of a library class: reading them is allowed."""
    codes = []
    for name, module in list(sys.modules.items()):
        if not _in_library(name) or module is None:
            continue
        for cls in list(vars(module).values()):
            if isinstance(cls, type) and _in_library(getattr(cls, "__module__", None)):
                for attr in vars(cls).values():
                    if isinstance(attr, property):
                        codes += _codes_of(attr)
                    elif type(attr).__name__ == "cached_property":
                        codes += _codes_of(attr.func)
    return frozenset(codes)


def _label(code, module_name: str) -> str:
    qualname = getattr(code, "co_qualname", code.co_name)
    root = sys.modules.get(_PACKAGE)
    if "." not in qualname and qualname in getattr(root, "__all__", ()):
        return f"kl.{qualname}"
    if "." in qualname and qualname.split(".")[0] in getattr(root, "__all__", ()):
        return f"kl.{qualname}"
    return f"{module_name}.{qualname}"


def _gate_hook(allowed: frozenset, refused: dict, exempt: frozenset, allowed_names: str):
    """A profile function: refuses calls of ``refused`` codes anywhere, and calls into the library
    made directly from non-library code unless their code is allowed or exempt."""
    def hook(frame, event, arg):
        if event != "call":
            return
        code = frame.f_code
        if code is _refusing.__code__:
            return  # a function forbidden() swapped: it raises its own refusal
        label = refused.get(code)
        if label is not None:
            _refuse(f"{label} is the reference of this exercise: write it yourself")
        module = frame.f_globals.get("__name__")
        if not _in_library(module) or module == __name__:
            return
        caller = frame.f_back
        if caller is not None and _in_library(caller.f_globals.get("__name__")):
            return  # the library calling itself, inside a building block
        name = code.co_name
        if code in allowed or code in exempt or (name[:2] == "__" == name[-2:] and name != "__call__"):
            return
        _refuse(f"{_label(code, module)} is not a building block of this exercise (you may call: "
                f"{allowed_names}): write it yourself", "library")
    return hook


class _RefuseImport(importlib.abc.MetaPathFinder):
    """Refuses importing Pinocchio while an answer runs (when it was not imported before)."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname == _PINOCCHIO or fullname.startswith(_PINOCCHIO + "."):
            _refuse(f"import {fullname}: Pinocchio is not a building block of this exercise", "library")
        return None


def _pinocchio_stub(label: str):
    def refused(*args, **kwargs):
        _refuse(f"{label} is not a building block of this exercise: write it yourself", "library")
    return refused


@contextlib.contextmanager
def _pinocchio_blocked(namespaces: Iterable[dict]):
    """Every callable of the imported Pinocchio modules, and every alias of one in ``namespaces``
    (the answer's globals), refuses within the block; importing Pinocchio refuses too."""
    patched, originals = [], {}
    finder = _RefuseImport()
    try:
        for mod_name, module in list(sys.modules.items()):
            if module is None or not (mod_name == _PINOCCHIO or mod_name.startswith(_PINOCCHIO + ".")):
                continue
            for attr, value in list(vars(module).items()):
                if callable(value) and not attr.startswith("__"):
                    originals.setdefault(id(value), value)
                    patched.append((module, attr, value))
                    setattr(module, attr, _pinocchio_stub(f"{mod_name}.{attr}"))
        for namespace in namespaces:
            for key, value in list(namespace.items()):
                if id(value) in originals and originals[id(value)] is value:
                    patched.append((namespace, key, value))
                    namespace[key] = _pinocchio_stub(f"pinocchio: {key}")
        sys.meta_path.insert(0, finder)
        yield
    finally:
        with contextlib.suppress(ValueError):
            sys.meta_path.remove(finder)
        for target, key, value in reversed(patched):
            if isinstance(target, dict):
                target[key] = value
            else:
                setattr(target, key, value)


@contextlib.contextmanager
def library_gate(allow: Iterable = (), refuse: Iterable[Callable] = (), namespaces: Iterable[dict] = ()):
    """Within the block (this thread, and threads started in it): a call into kinematics_lib made
    from code outside the library is refused (:class:`ReferenceCalled`) unless the function is in
    ``allow``; each function in ``refuse`` is refused however it is reached; Pinocchio is refused.

    Methods such as ``__init__`` and properties of library classes are exempt: building library
    objects and reading their attributes is not computing with the library.
    """
    allow = list(allow)
    allowed = _building_block_codes(allow)
    refused = {}
    for fn in refuse:
        for code in _codes_of(fn):
            module = getattr(fn, "__module__", None)
            refused[code] = (_label(code, module) if _in_library(module)
                             else getattr(code, "co_qualname", code.co_name))
    names = ", ".join(sorted({_label(c, "").lstrip(".") for c in allowed})) or "no library function"
    hook = _gate_hook(allowed, refused, _attribute_codes(), names)
    previous, previous_threads = sys.getprofile(), threading.getprofile()
    with _pinocchio_blocked(namespaces):
        threading.setprofile(hook)
        sys.setprofile(hook)
        try:
            yield
        finally:
            sys.setprofile(previous)
            threading.setprofile(previous_threads)


def notebook_language() -> str:
    """'zh' in a kernel that runs a notebook of the Chinese edition (``chapters/zh/``,
    ``exercises/zh/``, ``work/zh/``), else 'en'. jupyter_server tells a kernel the path of its
    notebook in ``JPY_SESSION_NAME``; ``KL_LANG=zh`` or ``en`` overrides it. Under nbval and
    nbgrader (no session) it is 'en', so committed outputs and grading messages stay English."""
    forced = os.environ.get("KL_LANG", "")
    if forced in ("en", "zh"):
        return forced
    folders = os.environ.get("JPY_SESSION_NAME", "").replace("\\", "/").split("/")[:-1]
    return "zh" if "zh" in folders else "en"


@dataclass(frozen=True)
class CheckResult:
    """passed: all inputs agree; answered: False while the student's code raises NotImplementedError.
    ``message`` is English; ``message_zh`` the same in Chinese, shown first (with the English
    below it) in a notebook of the Chinese edition (:func:`notebook_language`)."""

    name: str
    passed: bool
    answered: bool
    message: str
    message_zh: str = ""

    def __repr__(self) -> str:
        if self.message_zh and notebook_language() == "zh":
            return f"{self.message_zh}\n  ({self.message})"
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
                   forbid: Iterable[Callable] | None = None, allow: Iterable = ()) -> CheckResult:
    """Call ``student`` and ``reference`` on every input; report the first disagreement.

    compare: optional function (got, expected) -> None if acceptable, else a reason (e.g. to
    accept either of two equivalent answers); it runs outside the ``forbid`` block.
    allow: the building blocks: library functions, methods or properties the answer may call;
    every other kinematics_lib function (and Pinocchio) is refused when the answer calls it
    (see :func:`library_gate`). Default: none.
    forbid: library functions refused however they are reached, also from inside an allowed
    building block (see :func:`forbidden`), and library tables (dicts) that hold the answer, whose
    values refuse any use; None (default) forbids ``reference`` when it is a kinematics_lib
    function, ``()`` forbids nothing. The reference itself is always refused.

    Under nbgrader (:func:`grading`) a result that did not pass raises ``AssertionError``; either
    way :func:`passed` remembers the outcome under ``name``.
    """
    result = _run_check(student, reference, inputs, name, rtol, atol, compare, forbid, allow)
    _LAST[result.name] = result.passed
    if grading() and not result.passed:
        raise AssertionError(result.message)
    return result


def _refused(name: str, exc: ReferenceCalled) -> CheckResult:
    what = "the reference" if exc.kind == "reference" else "the library"
    what_zh = "参考实现" if exc.kind == "reference" else "库函数"
    return CheckResult(name, False, True, f"✘ {name} calls {what}: {exc}",
                       f"✘ {name} 调用了{what_zh}：请自己写出这个函数")


def _run_check(student, reference, inputs, name, rtol, atol, compare, forbid, allow) -> CheckResult:
    name = name or getattr(student, "__name__", "your function")
    calls = [_split(inp) for inp in inputs]
    expected = [reference(*args, **kwargs) for args, kwargs in calls]  # before any student code runs
    if forbid is None:
        forbid = (reference,) if _library_function(reference) else ()
    tables = [f for f in forbid if isinstance(f, dict)]  # data that holds the answer (e.g. kl.NE_LINE_OPS)
    forbid = [f for f in forbid if not isinstance(f, dict)]
    namespaces = [g for g in {id(f.__globals__): f.__globals__ for f in (student, getattr(student, "__wrapped__", None))
                              if isinstance(f, types.FunctionType)}.values()]
    got = []
    _REFUSALS.clear()
    # the gate first: it records the code of the reference and of `forbid` before forbidden() swaps it
    with library_gate(allow, [reference, *forbid], namespaces), forbidden(forbid), _tables_refused(tables):
        for args, kwargs in calls:
            try:
                got.append(student(*args, **kwargs))
            except NotImplementedError:
                if _REFUSALS:
                    break
                return CheckResult(name, False, False,
                                   f"… {name}: {NOT_ANSWERED} (it still raises NotImplementedError)",
                                   f"… {name}：尚未作答（仍然抛出 NotImplementedError）")
            except ReferenceCalled as exc:
                _REFUSALS.append(exc)
                break
            except Exception as exc:  # report, do not crash the notebook
                if _REFUSALS:
                    break
                return CheckResult(name, False, True, f"✘ {name}({_describe_input(args, kwargs)}) raised "
                                                       f"{type(exc).__name__}: {exc}",
                                   f"✘ {name}({_describe_input(args, kwargs)}) 抛出了异常 {type(exc).__name__}")
            if _REFUSALS:  # refused, and the answer caught it
                break
    if _REFUSALS:
        refusal = _REFUSALS[0]
        _REFUSALS.clear()
        return _refused(name, refusal)
    for (args, kwargs), g, e in zip(calls, got, expected):
        try:
            why = compare(g, e) if compare else _compare(g, e, rtol, atol)
        except Exception as exc:  # a malformed answer must not crash the comparison
            why = f"could not compare the result ({type(exc).__name__}: {exc})"
        if why:
            return CheckResult(name, False, True, f"✘ {name}({_describe_input(args, kwargs)}): {why}",
                               f"✘ {name}({_describe_input(args, kwargs)})：结果与参考实现不一致")
    return CheckResult(name, True, True, f"✔ {name}: agrees with the reference on {len(calls)} "
                                         f"input{'s' if len(calls) != 1 else ''}",
                       f"✔ {name}：在 {len(calls)} 个输入上与参考实现一致")


def check_value(student_fn: Callable[[], Any], expected: Any, *, name: str | None = None,
                rtol: float = 1e-7, atol: float = 1e-9, allow: Iterable = ()) -> CheckResult:
    """Check a single answer returned by a function of no arguments (raises under nbgrader if wrong)."""
    return check_function(student_fn, lambda: expected, [()], name=name, rtol=rtol, atol=atol, forbid=(),
                          allow=allow)

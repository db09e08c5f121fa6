"""Find every slider figure (``interactive_view``) and static figure view in the chapters.

Used by ``benchmarks/bench_views.py`` (times them) and ``tests/test_sliders.py`` (checks their
labels and figure sizes, timing nothing). Works for chapters added later without edits: it
reads ``chapters/*.ipynb``.

Two ways to find them:

* :func:`slider_calls` -- static, from the notebook source alone (``ast``): each
  ``interactive_view(...)`` call with its slider specs and ``labels=``; the view function is
  resolved by running only the notebook's import statements (``partial(f, ...)`` is unwrapped to
  ``f``). Cheap: nothing of the chapter runs.
* :func:`run_chapter` -- dynamic: runs the chapter's code cells in this process (``KL_QUICK=1``)
  with ``interactive_view`` recording what it is given, so views bound to notebook state
  (``partial(view, arm, data, ...)``) can be called; also records each cell whose last
  expression is a call returning a ``View`` (a static figure) so it can be re-evaluated.
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import os
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]


def chapters(root: Path = ROOT) -> list[Path]:
    return sorted((root / "chapters").glob("*.ipynb"))


def code_cells(path: Path) -> list[tuple[int, str]]:
    nb = json.loads(Path(path).read_text(encoding="utf-8"))
    return [(i, "".join(c["source"]) if isinstance(c["source"], list) else c["source"])
            for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code"]


def stored_outputs(path: Path) -> dict[int, list[dict]]:
    nb = json.loads(Path(path).read_text(encoding="utf-8"))
    return {i: c.get("outputs", []) for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code"}


@dataclass
class SliderCall:
    """One ``interactive_view(view, labels=..., **sliders)`` call as written in a chapter."""

    notebook: str
    cell: int
    view_source: str            # the first argument as written
    view_name: str              # the view function's name after unwrapping partial(...)
    sliders: dict[str, Any]     # name -> spec (literal), or "<expr>" when not a literal
    labels: dict[str, str] | None
    view_fn: Callable | None = None   # resolved from the notebook's imports (None if not possible)
    bound: bool = False         # the view is partial(...) over notebook state

    @property
    def id(self) -> str:
        return f"{Path(self.notebook).stem[:2]}:{self.view_name}"


def _literal(node, ns=None):
    """The value of a slider spec: a literal, or an expression of the notebook's imports
    (``list(views.FAULTS)``), else the marker ``"<expr>"``."""
    try:
        return ast.literal_eval(node)
    except ValueError:
        try:
            return eval(compile(ast.Expression(node), "<spec>", "eval"), dict(ns or {}))
        except Exception:
            return "<expr>"


def _imports_namespace(cells: list[tuple[int, str]]) -> dict:
    ns: dict = {"partial": partial}
    for _, src in cells:
        try:
            tree = ast.parse(src)
        except SyntaxError:
            continue
        for node in tree.body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                with contextlib.suppress(Exception):
                    exec(compile(ast.Module([node], []), "<imports>", "exec"), ns)
    return ns


def slider_calls(path: Path) -> list[SliderCall]:
    """Every ``interactive_view(...)`` call in the code cells of notebook ``path``."""
    cells = code_cells(path)
    ns = None
    found = []
    for index, src in cells:
        try:
            tree = ast.parse(src)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None))
                    == "interactive_view") or not node.args:
                continue
            view = node.args[0]
            bound = isinstance(view, ast.Call) and getattr(view.func, "id", "") == "partial"
            target = view.args[0] if bound else view
            if ns is None:
                ns = _imports_namespace(cells)
            try:
                fn = eval(compile(ast.Expression(target), "<view>", "eval"), ns)
            except Exception:
                fn = None
            sliders, labels = {}, None
            for kw in node.keywords:
                if kw.arg == "labels":
                    labels = _literal(kw.value, ns)
                elif kw.arg not in (None, "continuous_update"):
                    sliders[kw.arg] = _literal(kw.value, ns)
            found.append(SliderCall(str(path), index, ast.unparse(view), ast.unparse(target).split(".")[-1],
                                    sliders, labels if isinstance(labels, dict) else None, fn, bound))
    return found


@dataclass
class StaticView:
    """A code cell whose last expression is a call that returned a ``View``."""

    notebook: str
    cell: int
    source: str
    thunk: Callable[[], Any]

    @property
    def id(self) -> str:
        name = self.source.split("(")[0].split(".")[-1]
        return f"{Path(self.notebook).stem[:2]}:{name}"


@dataclass
class RecordedSlider:
    notebook: str
    cell: int
    iv: Any                      # the InteractiveView (its initial figure already rendered)

    @property
    def id(self) -> str:
        fn = self.iv.view_fn
        fn = getattr(fn, "func", fn)
        return f"{Path(self.notebook).stem[:2]}:{getattr(fn, '__name__', 'view')}"


@dataclass
class ChapterRun:
    notebook: str
    sliders: list[RecordedSlider] = field(default_factory=list)
    statics: list[StaticView] = field(default_factory=list)


def run_chapter(path: Path) -> ChapterRun:
    """Run the code cells of ``path`` here (quick mode, output swallowed); record its views."""
    os.environ["KL_QUICK"] = "1"
    os.environ.setdefault("MPLBACKEND", "Agg")
    from kinematics_lib.notebook import widgets
    from kinematics_lib.notebook.widgets import View

    run = ChapterRun(str(path))
    current = {"cell": -1}
    original = widgets.interactive_view

    def recording(*args, **kwargs):
        iv = original(*args, **kwargs)
        run.sliders.append(RecordedSlider(str(path), current["cell"], iv))
        return iv

    ns: dict = {"__name__": "__main__"}
    old_cwd = os.getcwd()
    widgets.interactive_view = recording
    try:
        os.chdir(Path(path).parent)
        for index, src in code_cells(path):
            current["cell"] = index
            tree = ast.parse(src)
            last = tree.body[-1] if tree.body else None
            body = tree.body[:-1] if isinstance(last, ast.Expr) else tree.body
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(ast.Module(body, []), f"<{Path(path).name}:{index}>", "exec"), ns)
                if isinstance(last, ast.Expr):
                    code = compile(ast.Expression(last.value), f"<{Path(path).name}:{index}>", "eval")
                    value = eval(code, ns)
                    if isinstance(value, View) and isinstance(last.value, ast.Call):
                        run.statics.append(StaticView(str(path), index, ast.unparse(last.value),
                                                      partial(eval, code, ns)))
    finally:
        widgets.interactive_view = original
        os.chdir(old_cwd)
    return run

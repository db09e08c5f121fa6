#!/usr/bin/env python3
"""Notebook maintenance: execute in place, normalise, and generate student exercises.

    python tools/nbtools.py execute [--refresh] [NOTEBOOK ...]
                                                     re-execute (default: chapters/ and solutions/),
                                                     then regenerate the exercises of the executed solutions;
                                                     --refresh also replaces the stored outputs of
                                                     nbval-ignore-output cells (timings)
    python tools/nbtools.py exercises                regenerate exercises/ from solutions/
    python tools/nbtools.py check                    exit 1 if exercises/ is out of date

Normalisation makes re-execution of an unchanged tree a no-op: no execution timestamps, no
widget state or widget-view outputs (their model ids are random; the static PNG and the text
stay), a fixed kernelspec and language_info, stream outputs merged (their split depends on
flush timing), and the outputs of nbval-ignore-output cells (timings) kept from the last
``--refresh`` run while their source is unchanged.

Exercise generation uses nbgrader's own preprocessors (ClearSolutions, ClearHiddenTests,
ClearOutput) with ``enforce_metadata=True``, so a solution notebook that passes here also drops
into an nbgrader course unchanged.
"""

from __future__ import annotations

import copy
import json
import os
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}


def notebooks(folder: str) -> list[Path]:
    return sorted(p for p in (ROOT / folder).glob("*.ipynb"))


def normalize(nb):
    """Strip what changes from run to run; keep sources, outputs and nbgrader metadata."""
    nb = copy.deepcopy(nb)
    nb.metadata.pop("widgets", None)
    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    nb.metadata["language_info"] = {"name": "python"}
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        cell.metadata.pop("collapsed", None)
        cell.metadata.pop("scrolled", None)
        if cell.cell_type != "code":
            cell.pop("outputs", None)
            cell.pop("execution_count", None)
            continue
        kept = []
        for out in cell.outputs:
            data = out.get("data")
            if data is not None and WIDGET_VIEW in data:
                del data[WIDGET_VIEW]
                if not data:
                    continue
            out.pop("transient", None)
            if (out.output_type == "stream" and kept and kept[-1].output_type == "stream"
                    and kept[-1].name == out.name):  # how a stream is split depends on flush timing
                kept[-1].text += out.text
                continue
            kept.append(out)
        cell.outputs = kept
    return nb


def write(nb, path: Path) -> None:
    text = nbformat.writes(nb) + "\n"
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def _keep_volatile_outputs(new, old) -> None:
    """Cells tagged nbval-ignore-output (timings, machine facts) change on every run. Keep their
    committed outputs when the cell's source is unchanged, so that re-executing an unchanged tree
    changes nothing; ``execute --refresh`` stores the new ones."""
    previous = {c.get("id"): c for c in old.cells if c.cell_type == "code"}
    for cell in new.cells:
        before = previous.get(cell.get("id"))
        if (cell.cell_type == "code" and "nbval-ignore-output" in cell.metadata.get("tags", [])
                and before is not None and before.source == cell.source):
            cell.outputs = before.outputs


def execute(path: Path, timeout: int = 900, refresh: bool = False) -> None:
    """Run every cell of ``path`` in a fresh kernel (cwd = its folder) and save it normalised."""
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    old = copy.deepcopy(nb)
    env_backup = os.environ.pop("KL_QUICK", None)  # committed notebooks are full runs
    try:
        client = NotebookClient(nb, timeout=timeout, kernel_name="python3", record_timing=False,
                                resources={"metadata": {"path": str(path.parent)}})
        client.execute()
    finally:
        if env_backup is not None:
            os.environ["KL_QUICK"] = env_backup
    nb = normalize(nb)
    if not refresh:
        _keep_volatile_outputs(nb, old)
    write(nb, path)


def to_exercise(solution):
    """Student version of a solution notebook (nbgrader markup removed, outputs cleared)."""
    from nbgrader.preprocessors import ClearHiddenTests, ClearOutput, ClearSolutions

    nb = copy.deepcopy(solution)
    resources = {}
    for pp in (ClearSolutions(enforce_metadata=True), ClearHiddenTests(enforce_metadata=True), ClearOutput()):
        nb, resources = pp.preprocess(nb, resources)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.execution_count = None
    return normalize(nb)


def exercise_path(solution: Path) -> Path:
    return ROOT / "exercises" / solution.name


def make_exercises(only: list[Path] | None = None) -> list[Path]:
    """Write exercises/ from solutions/ (all of them, or only the solution notebooks in ``only``)."""
    written = []
    for sol in notebooks("solutions"):
        if only is not None and sol.resolve() not in {p.resolve() for p in only}:
            continue
        target = exercise_path(sol)
        write(to_exercise(nbformat.read(sol, as_version=4)), target)
        written.append(target)
    if only is None:
        stale = {p.name for p in notebooks("exercises")} - {p.name for p in written}
        for name in sorted(stale):
            (ROOT / "exercises" / name).unlink()
    return written


def out_of_date() -> list[str]:
    """Names of exercises that differ from what ``make_exercises`` would write."""
    problems = []
    expected = {}
    for sol in notebooks("solutions"):
        expected[sol.name] = nbformat.writes(to_exercise(nbformat.read(sol, as_version=4))) + "\n"
    actual = {p.name: p.read_text() for p in notebooks("exercises")}
    for name in sorted(set(expected) | set(actual)):
        if name not in actual:
            problems.append(f"exercises/{name} is missing")
        elif name not in expected:
            problems.append(f"exercises/{name} has no solution in solutions/")
        elif json.loads(actual[name]) != json.loads(expected[name]):
            problems.append(f"exercises/{name} differs from its generated version")
    return problems


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("execute", "exercises", "check"):
        print(__doc__)
        return 2
    if argv[0] == "execute":
        refresh = "--refresh" in argv
        args = [a for a in argv[1:] if a != "--refresh"]
        paths = [Path(a).resolve() for a in args] or notebooks("chapters") + notebooks("solutions")
        for p in paths:
            print(f"executing {p.relative_to(ROOT)}", flush=True)
            execute(p, refresh=refresh)
        for p in make_exercises(None if not args else paths):
            print(f"wrote {p.relative_to(ROOT)}")
        return 0
    if argv[0] == "exercises":
        for p in make_exercises():
            print(f"wrote {p.relative_to(ROOT)}")
        return 0
    problems = out_of_date()
    print("\n".join(problems) or "exercises/ is up to date")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

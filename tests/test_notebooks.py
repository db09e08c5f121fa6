"""The notebook pipeline: exercises generated from solutions, exercises run untouched, house style.

nbval itself (collected from chapters/ and solutions/ by pytest) re-runs every chapter and
solution and compares its text outputs with the committed ones.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import nbtools  # noqa: E402

from kinematics_lib.notebook.checks import NOT_ANSWERED  # noqa: E402

CHAPTERS = sorted((ROOT / "chapters").glob("*.ipynb"))
SOLUTIONS = sorted((ROOT / "solutions").glob("*.ipynb"))
EXERCISES = sorted((ROOT / "exercises").glob("*.ipynb"))
MAX_CODE_LINES = 12


def _read(path: Path):
    return nbformat.read(path, as_version=4)


def test_there_is_something_to_test():
    assert CHAPTERS and SOLUTIONS and EXERCISES


def test_exercises_are_generated_from_solutions():
    problems = nbtools.out_of_date()
    assert not problems, "run `python3 tasks.py exercises`:\n" + "\n".join(problems)


@pytest.mark.parametrize("path", EXERCISES, ids=lambda p: p.name)
def test_untouched_exercise_runs_to_the_end(path):
    """Every student notebook runs without crashing; its checks report 'not answered yet'."""
    from nbclient import NotebookClient

    nb = _read(path)
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    texts = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            assert out.get("output_type") != "error", f"{path.name}: {out.get('ename')}: {out.get('evalue')}"
            texts.append(out.get("text", "") + json.dumps(out.get("data", {}).get("text/plain", "")))
    joined = "\n".join(texts)
    assert NOT_ANSWERED in joined, f"{path.name}: no self-check reported '{NOT_ANSWERED}'"
    assert "✔" not in joined and "✘" not in joined, f"{path.name}: a check passed or failed on an untouched exercise"


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.name)
def test_solution_uses_nbgrader_markup(path):
    nb = _read(path)
    solution_cells = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("solution")]
    test_cells = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade") and c.cell_type == "code"]
    assert solution_cells, f"{path.name} has no nbgrader solution cells"
    assert test_cells, f"{path.name} has no nbgrader test (self-check) cells"
    assert any("### BEGIN SOLUTION" in c.source for c in solution_cells)
    assert any("### BEGIN HIDDEN TESTS" in c.source for c in test_cells)
    ids = [c.metadata["nbgrader"]["grade_id"] for c in nb.cells if "nbgrader" in c.metadata]
    assert len(ids) == len(set(ids)), f"{path.name}: duplicate nbgrader grade_id"


@pytest.mark.parametrize("path", CHAPTERS + SOLUTIONS, ids=lambda p: p.name)
def test_house_style(path):
    """Short code cells, prose first, executed with no stored error."""
    nb = _read(path)
    assert nb.cells[0].cell_type == "markdown", f"{path.name} must open with prose"
    code = [c for c in nb.cells if c.cell_type == "code"]
    md = [c for c in nb.cells if c.cell_type == "markdown"]
    assert len(md) >= 0.5 * len(code), f"{path.name}: too little prose ({len(md)} markdown for {len(code)} code cells)"
    for k, c in enumerate(nb.cells):
        if c.cell_type != "code":
            continue
        lines = [l for l in c.source.splitlines() if l.strip()]
        limit = 40 if "nbgrader" in c.metadata else MAX_CODE_LINES
        assert len(lines) <= limit, f"{path.name} cell {k} has {len(lines)} lines (max {limit}): move code to kinematics_lib"
        assert c.execution_count is not None or not c.source.strip(), f"{path.name} cell {k} was not executed"
        for out in c.outputs:
            assert out.output_type != "error" or "raises-exception" in c.metadata.get("tags", []), \
                f"{path.name} cell {k} stores an error"


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_chapter_has_objectives_and_a_slider(path):
    nb = _read(path)
    assert "learning objectives" in nb.cells[0].source.lower() or "learning objectives" in nb.cells[1].source.lower(), \
        f"{path.name}: the first cells must state the learning objectives"
    assert any("interactive_view(" in c.source for c in nb.cells if c.cell_type == "code"), \
        f"{path.name} has no slider-driven figure (interactive_view)"

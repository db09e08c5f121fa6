"""The notebook pipeline: exercises generated from solutions, exercises run untouched, house style,
the cell locks of nbgrader's release, and the metadata the kernel writes.

nbval itself (collected from chapters/ and solutions/ by pytest) re-runs every chapter and
solution and compares its text outputs with the committed ones. The nbgrader course round trip
is tests/test_nbgrader_course.py; the safety of students' copies is tests/test_student_work.py.
"""

from __future__ import annotations

import copy
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
EXERCISES = nbtools.generated_exercises()  # a student's own notebook in exercises/ is not ours to test
MAX_CODE_LINES = 12


def _read(path: Path):
    return nbformat.read(path, as_version=4)


def test_there_is_something_to_test():
    assert CHAPTERS and SOLUTIONS and EXERCISES


def test_exercises_are_generated_from_solutions():
    problems = nbtools.out_of_date()
    assert not problems, ("regenerate with `python3 tasks.py exercises` (it never overwrites an exercise "
                          "edited by hand; it says how to keep the edit):\n" + "\n".join(problems))


@pytest.mark.parametrize("path", EXERCISES, ids=lambda p: p.name)
def test_untouched_exercise_runs_to_the_end(path):
    """Every student notebook runs without crashing; each of its self-checks reports 'not
    answered yet' (under nbgrader's autograde such a check raises and scores zero:
    tests/test_checks.py; the course round trip autogrades two of these notebooks)."""
    from nbclient import NotebookClient

    nb = _read(path)
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    checks = 0
    for k, cell in enumerate(nb.cells):
        text = ""
        for out in cell.get("outputs", []):
            assert out.get("output_type") != "error", f"{path.name}: {out.get('ename')}: {out.get('evalue')}"
            text += out.get("text", "") + json.dumps(out.get("data", {}).get("text/plain", ""))
        assert "✔" not in text and "✘" not in text, f"{path.name} cell {k}: a check passed or failed untouched"
        g = cell.metadata.get("nbgrader", {})
        if cell.cell_type == "code" and g.get("grade") and not g.get("solution"):
            checks += 1
            assert NOT_ANSWERED in text, f"{path.name} cell {k} ({g.get('grade_id')}): no '{NOT_ANSWERED}'"
    assert checks, f"{path.name}: no self-check cell"


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.name)
def test_solution_uses_nbgrader_markup(path):
    nb = _read(path)
    solution_cells = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("solution")]
    test_cells = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade") and c.cell_type == "code"]
    assert solution_cells, f"{path.name} has no nbgrader solution cells"
    assert test_cells, f"{path.name} has no nbgrader test (self-check) cells"
    assert any("### BEGIN SOLUTION" in c.source for c in solution_cells)
    for c in test_cells:
        gid = c.metadata["nbgrader"]["grade_id"]
        assert "check_function(" in c.source or "check_value(" in c.source, \
            f"{path.name} {gid}: a grading cell decides the grade with check_function/check_value (docs/authoring.md)"
        assert "### BEGIN HIDDEN TESTS" not in c.source, (
            f"{path.name} {gid}: remove the hidden tests; the check itself fails under nbgrader, and hidden "
            "tests make every submission print `Attribute 'checksum' ... has changed` (jupyter/nbgrader#1961)")
    ids = [c.metadata["nbgrader"]["grade_id"] for c in nb.cells if "nbgrader" in c.metadata]
    assert len(ids) == len(set(ids)), f"{path.name}: duplicate nbgrader grade_id"
    for k, c in enumerate(nb.cells):
        if c.cell_type == "markdown" and c.source.startswith("## Exercise"):
            assert c.metadata.get("nbgrader", {}).get("locked"), (
                f"{path.name} cell {k}: an exercise statement is a read-only nbgrader cell "
                "(nbbuild: `# %% [markdown] statement grade_id=...`)")


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


def _expected_locks(meta: dict) -> dict:
    """The locks nbgrader's LockCells gives a cell (its defaults): answers cannot be deleted;
    grading cells and read-only cells can be neither deleted nor edited."""
    g = meta.get("nbgrader", {})
    if g.get("solution"):
        return {"deletable": False}
    if g.get("grade") or g.get("locked"):
        return {"deletable": False, "editable": False}
    return {}


@pytest.mark.parametrize("path", EXERCISES, ids=lambda p: p.name)
def test_exercise_cells_are_locked_like_nbgrader_release(path):
    nb = _read(path)
    locked = 0
    for k, c in enumerate(nb.cells):
        want = _expected_locks(c.metadata)
        got = {key: c.metadata[key] for key in ("deletable", "editable") if key in c.metadata}
        assert got == want, f"{path.name} cell {k}: locks {got}, nbgrader's release has {want}"
        if "nbgrader" in c.metadata:
            assert c.metadata.nbgrader.get("checksum"), f"{path.name} cell {k}: no nbgrader checksum"
        locked += want.get("editable") is False
    assert locked, f"{path.name}: no read-only cell at all"


NOTEBOOKS = CHAPTERS + SOLUTIONS + EXERCISES


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_committed_metadata_is_what_the_kernel_writes(path):
    """JupyterLab writes the kernelspec and the kernel's language_info on opening a notebook; the
    committed ones are exactly those, so opening and saving a chapter does not modify it."""
    nb = _read(path)
    meta = {k: v for k, v in nb.metadata.items() if k != nbtools.OWN_KEY}
    assert meta == {"kernelspec": nbtools.KERNELSPEC, "language_info": nbtools.LANGUAGE_INFO}, \
        f"{path.name}: normalise with `python tools/nbtools.py execute {path.parent.name}/{path.name}`"
    assert (nb.nbformat, nb.nbformat_minor) == (4, 5), f"{path.name}: nbformat {nb.nbformat}.{nb.nbformat_minor}"


def test_kernel_writes_the_committed_metadata():
    """Run a notebook through the pinned kernel: the language_info it reports and its kernelspec
    are what tools/nbtools.py commits (on another interpreter, update LANGUAGE_INFO). The kernel
    reports them on start, so one cell does (nbval executes the chapters themselves)."""
    from jupyter_client.kernelspec import KernelSpecManager
    from nbclient import NotebookClient

    path = CHAPTERS[0]
    committed = copy.deepcopy(_read(path).metadata)
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1 + 1")])
    nb.metadata = copy.deepcopy(committed)
    nb.metadata["language_info"] = {"name": "python"}          # what the kernel must fill in
    NotebookClient(nb, timeout=600, kernel_name=nbtools.KERNELSPEC["name"],
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    assert nb.cells[0].outputs[0]["data"]["text/plain"] == "2"
    assert nb.metadata["language_info"] == committed["language_info"] == nbtools.LANGUAGE_INFO
    spec = KernelSpecManager().get_kernel_spec(nbtools.KERNELSPEC["name"])
    written = {"display_name": spec.display_name, "language": spec.language, "name": nbtools.KERNELSPEC["name"]}
    assert written == committed["kernelspec"] == nbtools.KERNELSPEC


def test_readme_lists_the_points_of_every_notebook():
    table = nbtools.points_table()
    assert table in (ROOT / "README.md").read_text(), (
        "README 'Points' is out of date; paste the output of `python tools/nbtools.py points`:\n" + table)

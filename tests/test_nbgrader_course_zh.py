"""The nbgrader round trip with a Chinese exercise (issue 26): an nbgrader course whose source is the
*translated* solution of one exercise (what tools/translate.py releases as exercises/zh/), graded end
to end: its release is exercises/zh/ cell for cell (sources, locks, checksums), the translated
solution gets every automatic point and the untouched Chinese release none, without checksum
warnings. One notebook, two students, in one course: the English round trip is
tests/test_nbgrader_course.py."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from test_nbgrader_course import _autograded, _config, _configure, _grade_cells

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import translate  # noqa: E402

ASSIGNMENT = "kl_zh"
EXERCISE = "09_mecanum_exercises.ipynb"      # the Chinese exercise graded here (7 automatic points)
STUDENTS = ("solutions", "untouched")


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    from nbgrader.api import Gradebook
    from nbgrader.apps import NbGraderAPI

    pair = translate.pair_for(ROOT / "solutions" / EXERCISE)
    assert pair.catalog.exists(), f"{EXERCISE} has no Chinese catalog: pick a translated exercise"
    translated = nbformat.reads(json.dumps(translate.translated_notebook(pair)), as_version=4)
    root = tmp_path_factory.mktemp("course-zh")
    _configure(root)
    (root / "source" / ASSIGNMENT).mkdir(parents=True)
    nbformat.write(translated, root / "source" / ASSIGNMENT / EXERCISE)
    env = dict(os.environ, PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", ""))
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PATH", env["PATH"])
        out = NbGraderAPI(config=_config(root)).generate_assignment(ASSIGNMENT)
    assert out["success"], out.get("error", "") + out.get("log", "")
    release = root / "release" / ASSIGNMENT / EXERCISE
    for student in STUDENTS:
        submitted = root / "submitted" / student / ASSIGNMENT
        submitted.mkdir(parents=True)
        if student == "solutions":
            nbformat.write(translated, submitted / EXERCISE)
        else:
            shutil.copy(release, submitted / EXERCISE)
    logs, scores = {}, {}
    for student in STUDENTS:        # one after the other: they share the course's gradebook
        run = subprocess.run([sys.executable, "-m", "nbgrader", "autograde", ASSIGNMENT, "--student", student,
                              "--create"], cwd=root, env=env, capture_output=True, text=True, timeout=1800)
        logs[student] = run.stdout + run.stderr
        assert run.returncode == 0, f"autograde {student} failed:\n{logs[student]}"
    with Gradebook(f"sqlite:///{root / 'gradebook.db'}") as gb:
        for student in STUDENTS:
            sub = gb.find_submission_notebook(Path(EXERCISE).stem, ASSIGNMENT, student)
            scores[student] = {g.name: (g.auto_score, g.max_score) for g in sub.grades}
    return {"root": root, "release": release, "translated": translated, "logs": logs, "scores": scores}


def test_release_of_the_translated_solution_is_exercises_zh(course):
    released = nbformat.read(course["release"], as_version=4)
    ours = nbformat.read(ROOT / "exercises" / "zh" / EXERCISE, as_version=4)
    assert len(released.cells) == len(ours.cells)
    for k, (r, o) in enumerate(zip(released.cells, ours.cells)):
        for key in ("cell_type", "id", "source", "metadata"):
            assert r.get(key) == o.get(key), f"cell {k}: {key} differs from nbgrader's release"
    assert any("挑战题" in c.source or "基础题" in c.source for c in released.cells if c.cell_type == "markdown")


def test_translated_solution_scores_full_and_untouched_zero(course):
    autograded = [c.metadata.nbgrader.grade_id for c in _grade_cells(course["translated"]) if _autograded(c)]
    assert autograded
    solved, untouched = course["scores"]["solutions"], course["scores"]["untouched"]
    for grade_id in autograded:
        assert solved[grade_id][0] == solved[grade_id][1] > 0, (grade_id, solved[grade_id])
        assert untouched[grade_id][0] == 0, (grade_id, untouched[grade_id])
    for student, log in course["logs"].items():
        assert "checksum" not in log.lower(), f"{student}: {log[-2000:]}"

"""A real nbgrader course, built from solutions/ in a temporary folder, graded end to end.

generate_assignment from every solution notebook (found by itself: new chapters add more), then
autograde three students on the notebooks of ``GRADED`` (two of them; each autograde executes
every notebook it grades, so grading all of them would run every solution and exercise a
second and third time):

* ``solutions``  -- the solution notebooks: full marks on every autograded cell;
* ``untouched``  -- the released notebooks as they are: zero, and no cell fails other than the checks;
* ``library``    -- every answer replaced by a call of the reference its self-check compares with
  (derived from the ``check_function(answer, reference, ...)`` calls): zero on those items,
  each refused with "calls the reference".

and ``nbgrader validate`` (its Python API: the command exits 0 either way) on one notebook
answered wrongly, left untouched and solved. nbgrader's release must also be what exercises/
holds, cell for cell (sources, locks, checksums), for every notebook, and autograde must print
no checksum warnings.

What autograde would find on the other notebooks is covered without executing them again:
every self-check of every solution stores a pass ("✔", no error) that nbval re-runs and compares
(``test_every_solution_stores_a_pass_on_every_check`` below, with nbval of solutions/): under
autograde a passing check scores (tests/test_checks.py); every self-check of every untouched
exercise says "not answered yet" (tests/test_notebooks.py runs them all), which under autograde
raises and scores zero (tests/test_checks.py); and an answer that calls the reference is refused
for every self-check of every notebook in tests/test_grading_back_doors.py.
"""

from __future__ import annotations

import ast
import copy
import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import nbtools  # noqa: E402

SOLUTIONS = nbtools.notebooks("solutions")
#: The notebooks autograded end to end, by number: the first (also given to validate: no written
#: answer) and one with written answers and a lambda-wrapped reference (chapter 4).
GRADED_NUMBERS = ("02", "04")
GRADED = [s for s in SOLUTIONS if s.name[:2] in GRADED_NUMBERS]
ASSIGNMENT = "kl"
STUDENTS = ("solutions", "untouched", "library")
REFUSED = "calls the reference"


def _grade_cells(nb):
    return [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade")]


def _autograded(cell) -> bool:
    g = cell.metadata.get("nbgrader", {})
    return bool(g.get("grade")) and not g.get("solution")


def reference_calls(nb) -> dict[str, str]:
    """{answer function: reference expression} from the check_function calls of the grading cells.

    ``check_function(mine, ref, ...)`` maps mine -> ref; ``check_function(lambda a: mine(f, a),
    lambda a: kl.ref(f, a), ...)`` (the same arguments on both sides) maps mine -> kl.ref.
    """
    found = {}
    for cell in _grade_cells(nb):
        if cell.cell_type != "code":
            continue
        for node in ast.walk(ast.parse(cell.source)):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None))
                    == "check_function" and len(node.args) >= 2):
                continue
            answer, reference = node.args[:2]
            if isinstance(answer, ast.Name):
                found[answer.id] = ast.unparse(reference)
            elif (isinstance(answer, ast.Lambda) and isinstance(reference, ast.Lambda)
                  and isinstance(answer.body, ast.Call) and isinstance(reference.body, ast.Call)
                  and isinstance(answer.body.func, ast.Name)
                  and [ast.dump(a) for a in answer.body.args] == [ast.dump(a) for a in reference.body.args]):
                found[answer.body.func.id] = ast.unparse(reference.body.func)
    return found


def library_answers(release_nb, references: dict[str, str]):
    """The released notebook with each answer function that has a reference answered by calling it."""
    nb = copy.deepcopy(release_nb)
    for cell in nb.cells:
        g = cell.metadata.get("nbgrader", {})
        if cell.cell_type != "code" or not g.get("solution"):
            continue
        names = [n.name for n in ast.parse(cell.source).body if isinstance(n, ast.FunctionDef)]
        cheats = [f"def {n}(*args, **kwargs):\n    return ({references[n]})(*args, **kwargs)"
                  for n in names if n in references]
        if cheats:
            cell.source += "\n\n\n" + "\n\n\n".join(cheats)
    return nb


WRONG = """

def _kl_wrong(f):
    import functools
    import numpy as np

    @functools.wraps(f)
    def wrong(*args, **kwargs):
        r = f(*args, **kwargs)
        if isinstance(r, (bool, np.bool_)):
            return not r
        try:
            return np.asarray(r, dtype=float) + 0.1
        except (TypeError, ValueError):
            return None
    return wrong
"""


def mixed_answers(solution_nb, release_nb):
    """For validate: the first answer wrong (its result +0.1, negated or None), the second left as
    released (unanswered), every other answer solved. Returns (notebook, wrong id, unanswered id)."""
    nb = copy.deepcopy(solution_nb)
    released = {c.metadata.nbgrader.grade_id: c for c in release_nb.cells if "nbgrader" in c.metadata}
    answers = [c for c in nb.cells if c.cell_type == "code" and c.metadata.get("nbgrader", {}).get("solution")]
    wrong, unanswered = answers[0], answers[1]
    names = [n.name for n in ast.parse(wrong.source).body if isinstance(n, ast.FunctionDef)]
    wrong.source += WRONG + "".join(f"\n{n} = _kl_wrong({n})" for n in names)
    unanswered.source = released[unanswered.metadata.nbgrader.grade_id].source
    return nb, _check_of(nb, wrong), _check_of(nb, unanswered)


def _check_of(nb, answer_cell) -> str:
    """grade_id of the first autograded cell after ``answer_cell``."""
    k = nb.cells.index(answer_cell)
    return next(c.metadata.nbgrader.grade_id for c in nb.cells[k + 1:] if _autograded(c))


@dataclass
class Course:
    root: Path
    logs: dict = field(default_factory=dict)        # student -> autograde log
    scores: dict = field(default_factory=dict)      # (student, notebook, cell) -> (auto, max, needs_manual)
    references: dict = field(default_factory=dict)  # notebook -> {answer: reference}
    validated: str = ""                              # the notebook given to validate
    expected_failures: set = field(default_factory=set)
    validation: dict = field(default_factory=dict)  # Validator results (mixed notebook)
    validation_solved: dict = field(default_factory=dict)  # ... and the solution notebook


CONFIG = """c = get_config()
c.CourseDirectory.root = {root!r}
c.CourseDirectory.course_id = "kinematics"
c.CourseDirectory.db_url = "sqlite:///" + {db!r}
c.Exchange.root = {exchange!r}
c.Execute.timeout = 600          # per cell; a shared CI machine can be slow
"""


def _configure(root: Path) -> None:
    (root / "exchange").mkdir(exist_ok=True)
    (root / "nbgrader_config.py").write_text(CONFIG.format(root=str(root), db=str(root / "gradebook.db"),
                                                           exchange=str(root / "exchange")))


def _config(root: Path):
    from traitlets.config import PyFileConfigLoader

    return PyFileConfigLoader("nbgrader_config.py", path=str(root)).load_config()


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Course:
    """Build the course, autograde the three students in parallel (one course copy each, so that
    they never share a database), and validate a mixed notebook meanwhile."""
    from nbgrader.api import Gradebook
    from nbgrader.apps import NbGraderAPI
    from nbgrader.validator import Validator

    root = tmp_path_factory.mktemp("course")
    _configure(root)
    source = root / "source" / ASSIGNMENT
    source.mkdir(parents=True)
    for sol in SOLUTIONS:
        shutil.copy(sol, source / sol.name)
    result = Course(root)
    env = dict(os.environ)  # nbgrader runs `alembic` by name: the environment's scripts must be on PATH
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PATH", env["PATH"])
        out = NbGraderAPI(config=_config(root)).generate_assignment(ASSIGNMENT)
        assert out["success"], out.get("error", "") + out.get("log", "")
        release = root / "release" / ASSIGNMENT
        jobs = {}
        for student in STUDENTS:
            course_copy = root / "graders" / student
            shutil.copytree(root / "source", course_copy / "source")
            shutil.copytree(root / "release", course_copy / "release")
            shutil.copy(root / "gradebook.db", course_copy / "gradebook.db")
            _configure(course_copy)
            submitted = course_copy / "submitted" / student / ASSIGNMENT
            submitted.mkdir(parents=True)
            for sol in SOLUTIONS:
                result.references[sol.name] = reference_calls(nbformat.read(sol, as_version=4))
            for sol in GRADED:
                if student == "solutions":
                    shutil.copy(sol, submitted / sol.name)
                elif student == "untouched":
                    shutil.copy(release / sol.name, submitted / sol.name)
                else:
                    nbformat.write(library_answers(nbformat.read(release / sol.name, as_version=4),
                                                   result.references[sol.name]), submitted / sol.name)
            jobs[student] = subprocess.Popen(
                [sys.executable, "-m", "nbgrader", "autograde", ASSIGNMENT, "--student", student, "--create"],
                cwd=course_copy, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        # meanwhile: validate one notebook with a wrong, an unanswered and solved answers, and the solutions
        first = SOLUTIONS[0]
        nb, wrong, unanswered = mixed_answers(nbformat.read(first, as_version=4),
                                              nbformat.read(release / first.name, as_version=4))
        (root / "validate").mkdir()
        nbformat.write(nb, root / "validate" / first.name)
        result.validated, result.expected_failures = first.name, {wrong, unanswered}
        result.validation = Validator(config=_config(root)).validate(str(root / "validate" / first.name))
        (root / "validate-solved").mkdir()
        shutil.copy(first, root / "validate-solved" / first.name)
        result.validation_solved = Validator(config=_config(root)).validate(str(root / "validate-solved" / first.name))
    for student, job in jobs.items():
        log, _ = job.communicate(timeout=1800)
        result.logs[student] = log
        assert job.returncode == 0, f"autograde {student} failed:\n{log}"
        course_copy = root / "graders" / student
        with Gradebook(f"sqlite:///{course_copy / 'gradebook.db'}") as gb:
            for notebook in gb.find_assignment(ASSIGNMENT).notebooks:
                sub = gb.find_submission_notebook(notebook.name, ASSIGNMENT, student)
                for grade in sub.grades:
                    result.scores[(student, notebook.name + ".ipynb", grade.name)] = (
                        grade.auto_score, grade.max_score, grade.needs_manual_grade)
    return result


def _graded(course: Course, student: str, name: str):
    return nbformat.read(course.root / "graders" / student / "autograded" / student / ASSIGNMENT / name,
                         as_version=4)


def _cells(notebook: Path, autograded: bool):
    nb = nbformat.read(notebook, as_version=4)
    return [c.metadata.nbgrader.grade_id for c in _grade_cells(nb) if _autograded(c) == autograded]


def test_course_discovers_every_solution_notebook(course):
    released = sorted(p.name for p in (course.root / "release" / ASSIGNMENT).glob("*.ipynb"))
    assert released == [s.name for s in SOLUTIONS]


@pytest.mark.parametrize("sol", SOLUTIONS, ids=lambda p: p.name)
def test_release_is_what_exercises_holds(course, sol):
    """nbgrader's release = exercises/ cell for cell: sources, types, ids, locks, checksums."""
    released = nbformat.read(course.root / "release" / ASSIGNMENT / sol.name, as_version=4)
    ours = nbformat.read(ROOT / "exercises" / sol.name, as_version=4)
    assert len(released.cells) == len(ours.cells)
    for k, (r, o) in enumerate(zip(released.cells, ours.cells)):
        for key in ("cell_type", "id", "source", "metadata"):
            assert r.get(key) == o.get(key), f"{sol.name} cell {k}: {key} differs from nbgrader's release"


def test_solutions_score_full_automatic_marks(course):
    for sol in GRADED:
        for cell in _cells(sol, autograded=True):
            auto, top, manual = course.scores[("solutions", sol.name, cell)]
            assert auto == top and not manual, f"{sol.name} {cell}: {auto}/{top}"


def test_untouched_exercises_score_zero(course):
    for sol in GRADED:
        for cell in _cells(sol, autograded=True):
            auto, top, _ = course.scores[("untouched", sol.name, cell)]
            assert auto == 0, f"{sol.name} {cell}: an untouched exercise scored {auto}/{top}"


def test_manual_answers_wait_for_the_instructor(course):
    """A written answer is never scored automatically: the solutions' wait for manual grading;
    an unanswered one (nbgrader sees the unchanged placeholder) scores zero."""
    for student in STUDENTS:
        for sol in GRADED:
            for cell in _cells(sol, autograded=False):
                auto, top, manual = course.scores[(student, sol.name, cell)]
                if student == "solutions":
                    assert manual, f"{sol.name} {cell}: a written answer must wait for the instructor"
                else:
                    assert manual or auto == 0, f"{student} {sol.name} {cell}: {auto}/{top}"


def test_every_check_has_a_reference_to_call(course):
    """Each self-check names a reference, so the library-calling submission answers every item."""
    for sol in SOLUTIONS:
        nb = nbformat.read(sol, as_version=4)
        answers = [n.name for c in nb.cells if c.cell_type == "code" and c.metadata.get("nbgrader", {}).get("solution")
                   for n in ast.parse(c.source).body if isinstance(n, ast.FunctionDef)]
        missing = [a for a in answers if a not in course.references[sol.name]]
        assert not missing, (f"{sol.name}: no check_function(answer, reference, ...) call for {missing}: "
                             "a self-check compares each answer with a reference (docs/authoring.md)")


def test_calling_the_library_scores_zero(course):
    for sol in GRADED:
        graded = _graded(course, "library", sol.name)
        for cell in _grade_cells(graded):
            if not _autograded(cell):
                continue
            gid = cell.metadata.nbgrader.grade_id
            auto, top, _ = course.scores[("library", sol.name, gid)]
            text = "\n".join(json.dumps(o) for o in cell.get("outputs", []))
            assert auto == 0, f"{sol.name} {gid}: answering with the library's reference scored {auto}/{top}"
            assert REFUSED in text, f"{sol.name} {gid}: scored zero, but not because the reference was refused"


@pytest.mark.parametrize("student", STUDENTS)
def test_only_checks_fail_and_nothing_warns(course, student):
    """Cells other than the self-checks never fail (a cell that uses an answer asks passed()),
    and autograde prints no `Attribute 'checksum' ... has changed` warning."""
    assert "has changed" not in course.logs[student], course.logs[student]
    for sol in GRADED:
        graded = _graded(course, student, sol.name)
        for k, cell in enumerate(graded.cells):
            errors = [o for o in cell.get("outputs", []) if o.output_type == "error"]
            if _autograded(cell) and student != "solutions":
                continue
            assert not errors, (f"{student}: {sol.name} cell {k} failed under autograde: "
                                f"{errors[0].ename}: {errors[0].evalue}")


def test_validate_fails_wrong_and_unanswered_and_passes_solved(course):
    """nbgrader validate (Python API) fails exactly the checks of the wrong and the unanswered
    answer, and passes the solution notebook ("Success!": no failed cell)."""
    assert course.validation_solved == {}, course.validation_solved
    failed = course.validation.get("failed", [])
    assert set(course.validation) == {"failed"}, course.validation
    graded = {c.metadata.nbgrader.grade_id: c.source.strip()
              for c in nbformat.read(ROOT / "solutions" / course.validated, as_version=4).cells if _autograded(c)}
    assert sorted(f["source"] for f in failed) == sorted(graded[g] for g in course.expected_failures), \
        [f["raw_error"][-300:] for f in failed]



def test_the_graded_notebooks_are_solutions():
    assert [s.name[:2] for s in GRADED] == list(GRADED_NUMBERS) and GRADED[0] == SOLUTIONS[0]
    assert any(_cells(s, autograded=False) for s in GRADED), "no written (manually graded) answer"


@pytest.mark.parametrize("sol", SOLUTIONS, ids=lambda p: p.name)
def test_every_solution_stores_a_pass_on_every_check(sol):
    """Each autograded cell of each solution, as committed (what nbval re-runs and compares),
    reports a pass and no error -- what autograde scores full marks -- and no refusal."""
    nb = nbformat.read(sol, as_version=4)
    for cell in _grade_cells(nb):
        if not _autograded(cell):
            continue
        gid = cell.metadata.nbgrader.grade_id
        outputs = cell.get("outputs", [])
        text = "".join(o.get("text", "") + "".join(o.get("data", {}).get("text/plain", "")) for o in outputs)
        assert not [o for o in outputs if o.output_type == "error"], f"{sol.name} {gid}: stores an error"
        compared = "nbval-ignore-output" not in cell.metadata.get("tags", []) and "NBVAL_IGNORE_OUTPUT" not in cell.source
        assert compared, f"{sol.name} {gid}: nbval must compare a check's output (it re-runs the stored pass)"
        assert "✔" in text and "✘" not in text and REFUSED not in text, f"{sol.name} {gid}: {text!r}"

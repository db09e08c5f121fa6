"""No project command destroys or silently overwrites a student's work.

Each test runs the commands on a copy of the repository in a temporary folder (a git repository,
as a clone is): students work in work/ (git-ignored, filled by ``tasks.py work``); ``exercises``
and ``execute`` (tools/nbtools.py, which ``tasks.py exercises|execute`` run) leave every student
copy alone and refuse to overwrite a generated exercise that was edited by hand; the test suite
passes with student copies present. nbtools runs in this process (its ROOT pointed at the copy)
except where the exit code of the real command is the point.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import nbtools  # noqa: E402

COPIED = ["tools", "solutions", "exercises", "chapters", "tests/test_notebooks.py", "tests/nbval_sanitize.cfg",
          "conftest.py", "pyproject.toml", "tasks.py", ".gitignore"]
FIRST = sorted(p.name for p in (ROOT / "solutions").glob("*.ipynb"))[0]   # e.g. 02_..._exercises.ipynb
PREFIX = FIRST.split("_")[0]
OTHER = next((n for n in sorted(p.name for p in (ROOT / "solutions").glob("*.ipynb")) if n.startswith("10_")),
             FIRST)                                                 # the copy_of_10.ipynb


def run(tree: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=tree, capture_output=True, text=True, timeout=900)


@pytest.fixture
def tree(tmp_path, monkeypatch) -> Path:
    """A committed copy of the repository's notebooks and tools; nbtools works on it."""
    for name in COPIED:
        src, dst = ROOT / name, tmp_path / name
        dst.parent.mkdir(parents=True, exist_ok=True)
        (shutil.copytree if src.is_dir() else shutil.copy)(src, dst)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
    for cmd in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "copy"]):
        subprocess.run(git + cmd, cwd=tmp_path, check=True, capture_output=True)
    monkeypatch.setattr(nbtools, "ROOT", tmp_path)
    return tmp_path


def nbtools_main(capsys, *args: str) -> tuple[int, str]:
    code = nbtools.main(list(args))
    return code, capsys.readouterr().out


def answered(path: Path) -> str:
    """The notebook at ``path`` with its first answer written: a student's edit."""
    nb = nbformat.read(path, as_version=4)
    cell = next(c for c in nb.cells if "raise NotImplementedError()" in c.source)
    cell.source = cell.source.replace("raise NotImplementedError()", "return 42  # my own answer")
    return nbformat.writes(nb) + "\n"


def student_copies(tree: Path) -> dict[Path, bytes]:
    """What students keep, all of which must survive everything: work/<first exercise> with an
    answer (the recommended place); in exercises/, a solved notebook saved under another name
    (what the old README advised), a copy of an exercise (``cp``, or File > Save As) left as it
    was and another copy with an answer written in it (issue 19: both carry the generated
    exercise's fingerprint)."""
    assert run(tree, "tasks.py", "work", PREFIX).returncode == 0
    mine = tree / "work" / FIRST
    mine.write_text(answered(mine))
    old_habit = tree / "exercises" / f"my_{FIRST}"
    shutil.copy(tree / "solutions" / FIRST, old_habit)
    copied, answered_copy = tree / "exercises" / f"copy_of_{OTHER}", tree / "exercises" / f"my_{OTHER}"
    shutil.copy(tree / "exercises" / OTHER, copied)
    answered_copy.write_text(answered(tree / "exercises" / OTHER))
    return {p: p.read_bytes() for p in (mine, old_habit, copied, answered_copy)}


def assert_unchanged(files: dict[Path, bytes]) -> None:
    for path, content in files.items():
        assert path.exists(), f"{path.name} was deleted"
        assert path.read_bytes() == content, f"{path.name} was changed"


def test_work_copies_an_exercise_and_never_replaces_it(tree):
    out = run(tree, "tasks.py", "work", PREFIX)
    assert out.returncode == 0, out.stdout + out.stderr
    mine = tree / "work" / FIRST
    assert mine.read_bytes() == (tree / "exercises" / FIRST).read_bytes()
    mine.write_text(answered(mine))
    before = mine.read_bytes()
    again = run(tree, "tasks.py", "work")          # all exercises: the others are copied, mine is kept
    assert again.returncode == 0 and "already exists" in again.stdout, again.stdout
    assert mine.read_bytes() == before
    assert sorted(p.name for p in (tree / "work").glob("*.ipynb")) == sorted(
        p.name for p in (tree / "exercises").glob("*.ipynb"))
    assert run(tree, "tasks.py", "work", "99").returncode == 1
    ignored = subprocess.run(["git", "check-ignore", "-q", f"work/{FIRST}"], cwd=tree)
    assert ignored.returncode == 0, "work/ must be git-ignored (a pull never conflicts with answers)"


def test_student_copies_survive_exercises_and_execute(tree, capsys):
    """Issue 19, item 1: the user's steps (copies of an exercise in exercises/, unedited and
    edited, then ``exercises``, ``exercises --force``, ``execute`` of one solution)."""
    copies = student_copies(tree)
    in_exercises = sorted(p.name for p in copies if p.parent.name == "exercises")
    cli = run(tree, "tools/nbtools.py", "exercises")                 # the real command and its exit code
    assert cli.returncode == 0, cli.stdout + cli.stderr
    assert_unchanged(copies)
    solution = str(tree / "solutions" / FIRST)
    for args in (["exercises"], ["exercises", "--force"], ["execute", solution]):
        code, out = nbtools_main(capsys, *args)
        assert code == 0, f"{args}: {out}"
        assert_unchanged(copies)
        assert "removed" not in out and "REFUSED" not in out, out
        for name in in_exercises:
            assert f"solutions/{name}" not in out, f"{args}: advice names a solution that does not exist\n{out}"
            if args[0] == "exercises":
                assert out.count(f"left alone: exercises/{name} (not generated here)") == 1, out
    code, out = nbtools_main(capsys, "check")
    assert code == 0 and "up to date" in out, out


def test_an_exercise_is_generated_only_under_its_own_name(tree):
    """The fingerprint of a copy names another file: the copy is a student's, whatever it holds."""
    source = tree / "exercises" / OTHER
    copy = tree / "exercises" / f"copy_of_{OTHER}"
    shutil.copy(source, copy)
    assert nbtools.classify(source) == "generated"        # (as if its solution had been removed)
    assert nbtools.classify(copy) == "foreign"
    copy.write_text(answered(source))
    assert nbtools.classify(copy) == "foreign"
    copy.write_text("{ not a notebook")
    assert nbtools.classify(copy) == "foreign"


def test_an_edited_generated_exercise_is_refused_not_overwritten(tree, capsys):
    target = tree / "exercises" / FIRST
    target.write_text(answered(target))
    edited = target.read_bytes()
    cli = run(tree, "tools/nbtools.py", "exercises")          # the real command and its exit code
    assert cli.returncode == nbtools.EXIT_REFUSED, cli.stdout + cli.stderr
    for args in (["exercises"], ["execute", str(tree / "solutions" / FIRST)], ["execute"]):
        code, out = nbtools_main(capsys, *args)
        assert code == nbtools.EXIT_REFUSED, f"{args}: exit {code}\n{out}"
        assert f"exercises/{FIRST}" in out and "work/" in out and "--force" in out, out
        assert "executing" not in out, "execute must refuse before running anything"
        assert target.read_bytes() == edited
    code, out = nbtools_main(capsys, "check")
    assert code == 1 and "edited by hand" in out
    assert nbtools_main(capsys, "exercises", "--force")[0] == 0
    assert target.read_bytes() == (ROOT / "exercises" / FIRST).read_bytes()


def test_stale_exercises_are_removed_only_when_generated_and_unchanged(tree, capsys):
    last = sorted((tree / "solutions").glob("*.ipynb"))[-1]
    last.unlink()
    code, out = nbtools_main(capsys, "exercises")
    assert code == 0 and not (tree / "exercises" / last.name).exists(), out
    assert f"removed exercises/{last.name} (generated from solutions/{last.name}, which was removed)" in out
    subprocess.run(["git", "checkout", "--", f"exercises/{last.name}"], cwd=tree, check=True)
    target = tree / "exercises" / last.name
    target.write_text(answered(target))              # someone had written in it: never removed
    edited = target.read_bytes()
    for args in (["exercises"], ["exercises", "--force"]):
        code, out = nbtools_main(capsys, *args)
        assert code == 0 and target.read_bytes() == edited, f"{args}: {out}"
        assert f"left alone: exercises/{last.name} (edited by hand; solutions/{last.name} was removed" in out, out
        assert "REFUSED" not in out and "put the change into" not in out, out
    code, out = nbtools_main(capsys, "check")
    assert code == 1 and f"exercises/{last.name} has no solution" in out and "edited by hand" in out, out


def test_the_test_suite_never_collects_work():
    lines = {line.split("=", 1)[0].strip(): line for line in (ROOT / "pyproject.toml").read_text().splitlines()
             if "=" in line}
    assert '"work"' in lines["norecursedirs"] and '"work"' not in lines["testpaths"]


def test_the_test_suite_passes_with_student_copies_present(tree):
    """The notebook-pipeline tests pass with students' copies in exercises/ and work/, and none
    of them is a test case: every test id is printed (-v), the exercises' tests are exactly one per
    generated exercise (the list the untouched-exercise run uses too; executing one here would
    only repeat tests/test_notebooks.py)."""
    copies = student_copies(tree)
    selection = "generated_from_solutions or locked or metadata_is"
    out = run(tree, "-m", "pytest", "-v", "-p", "no:warnings", "tests/test_notebooks.py", "-k", selection)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    locked = [line for line in out.stdout.splitlines() if "test_exercise_cells_are_locked_like_nbgrader_release[" in line]
    assert len(locked) == len(list((tree / "solutions").glob("*.ipynb"))) and all("PASSED" in x for x in locked), locked
    assert "my_" not in out.stdout and "copy_of_" not in out.stdout, out.stdout
    assert_unchanged(copies)


def test_work_takes_the_number_with_or_without_its_zero(tree):
    """`tasks.py work 6` and `tasks.py work 06` both choose exercise 06 (issue 19, item 9)."""
    six = next(p.name for p in (tree / "solutions").glob("06_*.ipynb"))
    out = run(tree, "tasks.py", "work", "6")
    assert out.returncode == 0 and f"-> work/{six}" in out.stdout, out.stdout + out.stderr
    assert [p.name for p in (tree / "work").glob("*.ipynb")] == [six]
    again = run(tree, "tasks.py", "work", "06")
    assert again.returncode == 0 and f"work/{six} already exists" in again.stdout, again.stdout
    assert run(tree, "tasks.py", "work", "60").returncode == 1

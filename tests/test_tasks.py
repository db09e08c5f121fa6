"""Commands of ``tasks.py`` that need no environment: ``points`` from a plain shell (issue 19,
item 4) -- with an interpreter that cannot import nbformat, as a Python outside the development
environment is.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLAIN = [sys.executable, "-I", "-S"]   # no site-packages: only the standard library


def test_the_plain_interpreter_has_no_nbformat():
    out = subprocess.run([*PLAIN, "-c", "import nbformat"], capture_output=True, text=True)
    assert out.returncode != 0 and "nbformat" in out.stderr


def test_points_from_a_plain_shell_print_the_readme_table():
    readme = (ROOT / "README.md").read_text()
    for command in (["tools/nbtools.py", "points"], ["tasks.py", "points"]):
        out = subprocess.run([*PLAIN, *command], cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, f"{command}: {out.stderr}"
        table = out.stdout.strip()
        assert table.startswith("| notebook |") and table.count("\n") >= 3, table
        assert table in readme, f"README 'Points' differs from `python3 {' '.join(command)}`:\n{table}"


def _tasks():
    import importlib.util

    spec = importlib.util.spec_from_file_location("kl_tasks", ROOT / "tasks.py")
    tasks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tasks)
    return tasks


SKIPPING = '''
import sys
import pytest

sys.modules["pinocchio"] = None      # as if the pinned Pinocchio were missing


def test_pinned():
    pytest.importorskip("pinocchio")


def test_not_pinned():
    pytest.importorskip("kl_no_such_module")


def test_platform():
    pytest.skip("needs a platform this is not")
'''

MODULE_LEVEL = '''
import pytest

pin = pytest.importorskip("pinocchio", minversion="0")


def test_never_collected():
    pass
'''


def test_the_test_command_names_every_skip_and_fails_a_missing_pinned_dependency(tmp_path):
    """`tasks.py test`'s pytest options on a suite with three kinds of skip, with the repository's
    conftest.py: the reasons of the two legitimate skips are listed, the ten slowest tests are
    printed, and an importorskip of pinned Pinocchio (missing here) fails -- in a test and at
    module level."""
    (tmp_path / "test_skips.py").write_text(SKIPPING)
    (tmp_path / "test_module.py").write_text("import sys\nsys.modules['pinocchio'] = None\n" + MODULE_LEVEL)
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    cmd = _tasks().pytest_command(sys.executable, ["-p", "conftest", "-p", "no:cacheprovider", "--continue-on-collection-errors",
                                                   "--rootdir", str(tmp_path), "-c", str(tmp_path / "pytest.ini"),
                                                   str(tmp_path)])
    env = {k: v for k, v in __import__("os").environ.items() if k != "PYTEST_ADDOPTS"}
    env["PYTHONPATH"] = str(ROOT)
    out = subprocess.run([str(c) for c in cmd], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    text = out.stdout
    assert out.returncode == 1, text + out.stderr
    assert "SKIPPED [1] test_skips.py:13: could not import 'kl_no_such_module'" in text, text
    assert "SKIPPED [1] test_skips.py:17: needs a platform this is not" in text, text
    assert "FAILED test_skips.py::test_pinned" in text and "is pinned in requirements/" in text, text
    assert "ERROR test_module.py - pinocchio (distribution pin) is pinned" in text, text
    assert "slowest 10 durations" in text, text
    assert "2 skipped" in text and "1 failed" in text and "1 error" in text, text


def test_pinned_skip_knows_the_pins():
    import conftest

    pins = conftest.pinned_distributions()
    assert {"pin", "nbgrader", "hypothesis", "example-robot-data", "numpy", "playwright"} <= pins
    assert conftest.pinned_skip("could not import 'pinocchio': No module named 'pinocchio'")
    assert conftest.pinned_skip("could not import 'nbgrader.apps': boom")
    assert conftest.pinned_skip("could not import 'kl_no_such_module': No module named ...") is None
    assert conftest.pinned_skip("Chromium not found at /usr/bin/chromium") is None

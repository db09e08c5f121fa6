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

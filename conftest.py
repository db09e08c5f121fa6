"""Test-suite settings shared by pytest, nbval and the exercise runner.

* ``KL_QUICK=1``: long notebook loops run briefly under test (``kinematics_lib.notebook.widgets.quick_mode``).
  Kernels started by nbval inherit this environment.
* ``MPLBACKEND=Agg`` for any non-notebook code path; notebooks keep the inline backend.
* Randomness in notebooks and tests is seeded explicitly where it is used.
* A pinned dependency never skips a test: ``pytest.importorskip`` of a package pinned in
  ``requirements/dev.txt`` (or the ``student.txt`` it includes) that cannot be imported is
  reported as a failure, at run time and at collection (a module-level importorskip), so a
  broken development environment cannot pass as "skipped".
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

os.environ["KL_QUICK"] = "1"
os.environ.setdefault("MPLBACKEND", "Agg")
os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")

ROOT = Path(__file__).resolve().parent
#: Import names whose distribution is named otherwise (import name -> distribution).
DISTRIBUTION_OF = {"pinocchio": "pin", "yaml": "pyyaml", "example_robot_data": "example-robot-data",
                   "pytest_playwright": "pytest-playwright"}
_COULD_NOT_IMPORT = re.compile(r"could not import '([^']+)'")


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pinned_distributions(path: Path = ROOT / "requirements" / "dev.txt") -> set[str]:
    """Canonical names of the distributions a requirements file pins (following ``-r`` includes)."""
    names = set()
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line.startswith("-r"):
            names |= pinned_distributions(path.parent / line[2:].strip())
        elif line and not line.startswith("-"):
            names.add(_canonical(re.split(r"[\s<>=!~;\[]", line, maxsplit=1)[0]))
    return names


def pinned_skip(reason: str) -> str | None:
    """The failure message for a skip of ``pytest.importorskip`` on a pinned dependency, else None."""
    found = _COULD_NOT_IMPORT.search(str(reason))
    if not found:
        return None
    module = found.group(1).split(".")[0]
    distribution = _canonical(DISTRIBUTION_OF.get(module, module))
    if distribution not in pinned_distributions():
        return None
    return (f"{module} (distribution {distribution}) is pinned in requirements/, so a test that needs it "
            f"fails instead of skipping: install the development environment (python3 tasks.py test). "
            f"The skip said: {reason}")


def _skip_reason(longrepr) -> str:
    if isinstance(longrepr, tuple) and len(longrepr) == 3:   # (file, line, "Skipped: ...")
        return longrepr[2]
    return str(longrepr)


def _fail_a_pinned_skip(report) -> None:
    message = pinned_skip(_skip_reason(report.longrepr)) if report.skipped else None
    if message:
        report.outcome, report.longrepr = "failed", message


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    _fail_a_pinned_skip((yield).get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    _fail_a_pinned_skip((yield).get_result())


def pytest_collection_modifyitems(config, items):
    """Cells whose stored output is a live widget view cannot be compared (nbval has no widget
    manager); they still run, so an exception in a slider callback at its initial value fails.
    Our committed notebooks strip widget views (tools/nbtools.py), so this is a safety net."""
    for item in items:
        cell = getattr(item, "cell", None)
        if cell is None:
            continue
        for out in cell.get("outputs", []):
            if "application/vnd.jupyter.widget-view+json" in out.get("data", {}):
                item.options["check"] = False

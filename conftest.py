"""Test-suite settings shared by pytest, nbval and the exercise runner.

* ``KL_QUICK=1``: long notebook loops run briefly under test (``kinematics_lib.notebook.widgets.quick_mode``).
  Kernels started by nbval inherit this environment.
* ``MPLBACKEND=Agg`` for any non-notebook code path; notebooks keep the inline backend.
* Randomness in notebooks and tests is seeded explicitly where it is used.
"""

import os

os.environ["KL_QUICK"] = "1"
os.environ.setdefault("MPLBACKEND", "Agg")
os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")


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

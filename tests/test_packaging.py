"""The installable library (issue 22, item 2): ``pip install .`` declares every package that
kinematics_lib imports at run time, and the wheel installs into a fresh virtual environment where
every public name imports.

Offline by construction: the wheel is built with ``--no-build-isolation`` (the build backend,
setuptools, is pinned in requirements/dev.txt) and installed with ``--no-index`` into a new venv
that sees the already-installed packages of this environment; a missing declared dependency
makes pip fail instead of downloading it.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
LIB = ROOT / "kinematics_lib"
#: import name -> distribution, for packages whose modules live outside the usual place (cmeel)
#: modules whose distribution does not list them (cmeel wheels install into cmeel.prefix via a .pth)
DISTRIBUTION_OF = {"pinocchio": "pin", "proxsuite": "proxsuite"}
#: distributions a module imports through another package (qpsolvers' solver="proxqp" runs proxsuite)
USED_THROUGH = {"proxsuite": "qpsolvers' solver='proxqp' (kinematics_lib/contact; legged/whole_body calls its dense solver)"}


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def declared() -> tuple[dict, dict]:
    """({distribution: Requirement} of dependencies, {distribution: extra} of the extras)."""
    p = project()
    deps = {_norm(Requirement(r).name): Requirement(r) for r in p["dependencies"]}
    extras = {_norm(Requirement(r).name): extra for extra, reqs in p.get("optional-dependencies", {}).items()
              for r in reqs}
    return deps, extras


def imports() -> dict:
    """{top-level module: [(file, lazily?)]} of every import in kinematics_lib (function bodies included)."""
    found: dict = {}
    for path in LIB.rglob("*.py"):
        tree = ast.parse(path.read_text())
        lazy_nodes = {id(n) for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                      for n in ast.walk(f)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top in sys.stdlib_module_names or top in ("kinematics_lib", "__future__"):
                    continue
                found.setdefault(top, []).append((path.relative_to(ROOT), id(node) in lazy_nodes))
    return found


def distribution(module: str) -> str:
    if module in DISTRIBUTION_OF:
        return DISTRIBUTION_OF[module]
    dists = metadata.packages_distributions().get(module)
    assert dists, f"{module!r} is imported by kinematics_lib but no installed distribution provides it"
    return _norm(dists[0])


def test_every_imported_package_is_declared():
    deps, extras = declared()
    for module, where in sorted(imports().items()):
        dist = distribution(module)
        if dist in deps:
            continue
        assert dist in extras, f"{module} (distribution {dist}) is imported in {where[0][0]} but not declared " \
                               "in pyproject.toml [project] dependencies or an extra"
        eager = [str(f) for f, lazy in where if not lazy]
        assert not eager, f"{module} is optional (extra {extras[dist]!r}) but imported at module level in {eager}"


def test_optional_reference_names_its_extra():
    """Pinocchio is imported lazily, with an error that says which extra installs it."""
    text = (LIB / "notebook" / "benchmarking.py").read_text()
    assert "kinematics-lib[reference]" in text


def test_solver_pins_equal_the_requirements():
    deps, _ = declared()
    student = {}
    for line in (ROOT / "requirements" / "student.txt").read_text().splitlines():
        m = re.match(r"^([A-Za-z0-9_.\-]+)==(\S+)$", line.strip())
        if m:
            student[_norm(m.group(1))] = m.group(2)
    for name in ("qpsolvers", "proxsuite", "clarabel"):
        assert name in deps, f"{name} is not a dependency in pyproject.toml"
        assert str(deps[name].specifier) == f"=={student[name]}", (name, deps[name], student[name])
    for name, how in USED_THROUGH.items():
        assert name in deps, f"{name} is used through {how} and must be declared"


def test_wheel_installs_into_a_fresh_venv_and_every_public_name_imports(tmp_path):
    # setuptools >= 77 builds the wheel offline; requirements/dev.txt pins it, so no skip
    assert int(metadata.version("setuptools").split(".")[0]) >= 77, "install requirements/dev.txt"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PIP_REQUIRE_VIRTUALENV")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    run = lambda *cmd, **kw: subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600, **kw)  # noqa: E731
    # 1. the wheel, built offline from a copy of the working tree (a build writes into its tree)
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE", "kinematics_lib"):
        (shutil.copytree if (ROOT / name).is_dir() else shutil.copy)(ROOT / name, src / name)
    for cache in list(src.rglob("__pycache__")):
        shutil.rmtree(cache)
    built = run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                "-w", str(tmp_path / "dist"), str(src))
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = (tmp_path / "dist").glob("kinematics_lib-*.whl")
    # 2. a fresh venv that sees this environment's packages (after its own: the wheel wins)
    venv = tmp_path / "venv"
    made = run(sys.executable, "-m", "venv", "--without-pip", str(venv))
    assert made.returncode == 0, made.stderr
    python = venv / "bin" / "python"
    purelib = Path(run(str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").stdout.strip())
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (purelib / "_kl_test_parent_env.pth").write_text("".join(f"import site; site.addsitedir({p!r})\n" for p in sorted(ours)))
    # 3. install with --no-index: every declared dependency must already be there, nothing is fetched
    installed = run(sys.executable, "-m", "pip", "--python", str(python), "install", "--no-index", str(wheel))
    assert installed.returncode == 0, installed.stdout + installed.stderr
    # 4. every public name, from the installed copy, in a directory without the sources
    code = ("import kinematics_lib as kl, importlib, pathlib, sys\n"
            f"assert pathlib.Path(kl.__file__).is_relative_to({str(venv)!r}), kl.__file__\n"
            "missing = [n for n in kl.__all__ if not hasattr(kl, n)]\n"
            "assert not missing, missing\n"
            "for m in ('kinematics_lib.notebook.plotting', 'kinematics_lib.notebook.widgets',"
            " 'kinematics_lib.notebook.checks', 'kinematics_lib.notebook.benchmarking'):\n"
            "    importlib.import_module(m)\n"
            "assert kl.anymal_b_urdf().is_file()\n"
            "import numpy as np\n"
            "m = kl.load_urdf(kl.anymal_b_urdf())\n"
            "print(len(kl.__all__), m.nv)\n")
    checked = run(str(python), "-c", code, cwd=str(tmp_path))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    count, nv = checked.stdout.split()
    assert int(count) > 100 and int(nv) == 12
    pip_check = run(sys.executable, "-m", "pip", "--python", str(python), "check")
    assert "kinematics-lib" not in pip_check.stdout, pip_check.stdout

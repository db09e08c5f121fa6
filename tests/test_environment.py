"""The pip path (requirements/*.txt + constraints) and environment.yml describe one tested set."""

from __future__ import annotations

from importlib import metadata
from pathlib import Path

import yaml
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
REQ = ROOT / "requirements"


def pins(path: Path, python: str) -> dict[str, str]:
    """name -> version of the `name==version` lines that apply on ``python``."""
    out = {}
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line or line.startswith("-"):
            continue
        req = Requirement(line)
        if req.marker and not req.marker.evaluate({"python_version": python}):
            continue
        (spec,) = req.specifier
        assert spec.operator == "==", f"{path.name}: {line!r} is not an exact pin"
        out[req.name.lower().replace("_", "-")] = spec.version
    return out


def test_environment_yml_matches_student_requirements():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    deps = env["dependencies"]
    python = next(d for d in deps if isinstance(d, str) and d.startswith("python="))
    version = python.split("=", 1)[1]
    pip_list = next(d["pip"] for d in deps if isinstance(d, dict))
    conda = {}
    for line in pip_list:
        if line.startswith("-e"):
            continue
        name, ver = line.split("==")
        conda[name.lower().replace("_", "-")] = ver
    assert conda == pins(REQ / "student.txt", version)


def test_constraints_agree_with_direct_pins():
    for python in ("3.10", "3.11"):
        locked = pins(REQ / "constraints.txt", python)
        docs = ("docs.txt",) if python != "3.10" else ()   # the site's environment needs Python >= 3.11
        for f in ("student.txt", "dev.txt", *docs):
            for name, ver in pins(REQ / f, python).items():
                assert locked.get(name) == ver, f"{f} pins {name}=={ver}, constraints say {locked.get(name)} (py {python})"


def test_widget_frontend_matches_kernel_side():
    """ipywidgets and jupyterlab_widgets must be a matching pair ("model not found" otherwise)."""
    student = pins(REQ / "student.txt", "3.11")
    requires = metadata.requires("ipywidgets") or []
    lab = next(Requirement(r) for r in requires if r.lower().startswith("jupyterlab"))
    assert student["jupyterlab-widgets"] in lab.specifier, (lab, student["jupyterlab-widgets"])
    assert metadata.version("ipywidgets") == student["ipywidgets"]
    assert metadata.version("jupyterlab_widgets") == student["jupyterlab-widgets"]


def test_installed_versions_are_the_pinned_ones():
    import sys

    import re
    import sysconfig

    def canonical(name: str) -> str:
        return re.sub(r"[-_.]+", "-", name).lower()

    # Only what is installed in this environment's site-packages: a package vendored inside
    # another one (setuptools puts its own importlib_metadata on sys.path) is not an install.
    site = list({sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]})
    installed = {canonical(d.metadata["Name"]): d.version for d in metadata.distributions(path=site)}
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    for name, ver in pins(REQ / "constraints.txt", python).items():
        if canonical(name) not in installed:
            continue  # an optional platform-specific dependency
        assert installed[canonical(name)] == ver, f"{name}: installed {installed[canonical(name)]}, pinned {ver}"


def test_student_lab_does_not_ask_about_news(tmp_path):
    """`tasks.py lab` turns JupyterLab's news and update checks off (issue 14, item 18): the
    server flags, and settings defaults so that the "get notified about official Jupyter news?"
    pop-up (shown while fetchNews is "none") never covers chapter 1."""
    import importlib.util
    import json

    spec = importlib.util.spec_from_file_location("tasks", ROOT / "tasks.py")
    tasks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tasks)
    path = tasks.lab_overrides(tmp_path)
    settings = json.loads(path.read_text())["@jupyterlab/apputils-extension:notification"]
    assert settings == {"fetchNews": "false", "checkForUpdates": False}
    assert path.relative_to(tmp_path).parts[:4] == ("share", "jupyter", "lab", "settings")
    source = (ROOT / "tasks.py").read_text()
    lab = source[source.index("def cmd_lab"):source.index("def cmd_test")]
    assert "--LabApp.news_url=None" in lab and "NeverCheckForUpdate" in lab

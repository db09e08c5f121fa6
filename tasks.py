#!/usr/bin/env python3
"""One entry point for students, instructors and CI; needs only Python >= 3.10.

    python3 tasks.py lab         install the student environment (.venv) and open JupyterLab
    python3 tasks.py work [NN]   copy exercise NN (6 or 06; default: all) into work/, your folder; never overwrites
                                 (--lang zh: the Chinese exercise, into work/zh/)
    python3 tasks.py test        install the development environment (.venv-dev) and run all tests
    python3 tasks.py exercises   regenerate exercises/ from solutions/ (instructor)
    python3 tasks.py execute     re-execute chapters/ and solutions/ in place, then regenerate exercises/
    python3 tasks.py bench       run the performance benchmarks (every benchmarks/bench_*.py; not tests)
    python3 tasks.py translate   write the Chinese edition (chapters/zh, exercises/zh) from translations/zh/
    python3 tasks.py points      print the points per exercise notebook (the README's table; any Python)
    python3 tasks.py site        build the book web site site/ (open site/index.html); --with-solutions for instructors
    python3 tasks.py classroom --check   a local JupyterHub class, nbgrader release -> grade, end to end

Each environment is (re)installed only when its requirement files changed, so a second run
starts at once. Extra arguments after ``test`` go to pytest (e.g. ``-k jacobian``).

Students work in ``work/`` (git-ignored): no command writes, deletes or tests anything there.
``exercises`` and ``execute`` refuse (exit 3) to overwrite a generated exercise that was edited
by hand, name it and say how to keep the edit; ``--force`` overwrites. A notebook in exercises/
that is not a generated exercise under its own name (a copy, a new notebook) is never touched.
The JupyterLab of ``lab`` saves a chapter whose cells you did not edit exactly as committed
(``tools/nbclean.py``), so ``git pull`` does not stop on a chapter you only ran.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
REQ = ROOT / "requirements"
WORK = ROOT / "work"          # the students' folder (git-ignored; never written by other commands)
ENVS = {
    # name: (folder, requirement files)
    "student": (ROOT / ".venv", [REQ / "student.txt"]),
    "dev": (ROOT / ".venv-dev", [REQ / "student.txt", REQ / "dev.txt"]),
    "docs": (ROOT / ".venv-docs", [REQ / "docs.txt"]),   # the book site (Sphinx); Python >= 3.11
    "classroom": (ROOT / ".venv-classroom", [REQ / "student.txt", REQ / "classroom.txt"]),
}
DOCS_PYTHON = (3, 11)   # Sphinx 9 and sphinx-book-theme 1.4 need it
CHROMIUM = ("/usr/bin/chromium", "/usr/bin/chromium-browser")


def say(msg: str) -> None:
    print(f"[tasks] {msg}", flush=True)


def run(cmd, **kw) -> None:
    say(" ".join(str(c) for c in cmd))
    subprocess.run([str(c) for c in cmd], check=True, cwd=kw.pop("cwd", ROOT), **kw)


def python_of(folder: Path) -> Path:
    return folder / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def ensure_env(name: str) -> Path:
    """Create/refresh a virtual environment; skip the install when nothing changed."""
    if sys.version_info < (3, 10):
        sys.exit(f"Python >= 3.10 is required, this is {sys.version.split()[0]}")
    folder, reqs = ENVS[name]
    files = reqs + [REQ / "constraints.txt", ROOT / "pyproject.toml"]
    digest = hashlib.sha256(b"".join(f.read_bytes() for f in files)).hexdigest()
    digest += sys.version.split()[0]
    stamp = folder / ".installed"
    py = python_of(folder)
    if py.exists() and stamp.exists() and stamp.read_text() == digest:
        return py
    if not py.exists():
        say(f"creating {folder.name} with {sys.executable}")
        venv.EnvBuilder(with_pip=True, clear=True).create(folder)
    pip = [py, "-m", "pip", "--disable-pip-version-check"]
    run(pip + ["install", "--quiet", "--upgrade", "pip"])
    cmd = pip + ["install", "--quiet", "-c", REQ / "constraints.txt"]
    for r in reqs:
        cmd += ["-r", r]
    run(cmd)
    run(pip + ["install", "--quiet", "--no-deps", "-e", ROOT])
    stamp.write_text(digest)
    return py


def find_chromium() -> str | None:
    for path in CHROMIUM:
        if Path(path).exists():
            return path
    return shutil.which("chromium") or shutil.which("chromium-browser")


def ensure_chromium() -> str | None:
    """The browser test drives Debian's Chromium; install it with apt when we are allowed to."""
    found = find_chromium()
    if found:
        return found
    apt = shutil.which("apt-get")
    root = hasattr(os, "geteuid") and os.geteuid() == 0
    if apt and root:
        say("installing Chromium for the browser test (apt-get install chromium)")
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        subprocess.run([apt, "update", "-qq"], check=False, env=env)
        subprocess.run([apt, "install", "-y", "-qq", "chromium"], check=False, env=env)
        return find_chromium()
    say("Chromium not found and cannot be installed here (needs root and apt-get): "
        "the browser test will be skipped unless KL_REQUIRE_BROWSER=1")
    return None


#: Defaults for the students' JupyterLab (an overrides file of the environment; a user's own
#: settings still win): no "get notified about official Jupyter news?" pop-up over chapter 1.
LAB_SETTINGS = {"@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False}}


def lab_overrides(folder: Path) -> Path:
    """Write LAB_SETTINGS as the environment's settings overrides; returns the file."""
    path = folder / "share" / "jupyter" / "lab" / "settings" / "overrides.d" / "kinematics-notebooks.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(LAB_SETTINGS, indent=2) + "\n"
    if not path.exists() or path.read_text() != text:
        path.write_text(text)
    return path


def server_config(folder: Path) -> Path:
    """Write the environment's Jupyter server config: the save hook of ``tools/nbclean.py``
    (a chapter saved with unedited cells stays as committed). A Python config file, loaded by
    every Jupyter server of that environment (``<env>/etc/jupyter`` is on its config path);
    the hook is loaded from this repository by file name, so kernels' ``sys.path`` is untouched.
    Returns the file."""
    path = folder / "etc" / "jupyter" / "jupyter_server_config.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    text = ("# Written by `python3 tasks.py lab` (rewritten at every start; edits here are lost).\n"
            "# Saving a notebook of chapters/ or exercises/ whose cells were not edited keeps the committed\n"
            "# file, so `git pull` does not stop on it; see tools/nbclean.py.\n"
            "import importlib.util as _util\n"
            "import warnings as _warnings\n\n"
            f"_spec = _util.spec_from_file_location('kinematics_nbclean', {str(ROOT / 'tools' / 'nbclean.py')!r})\n"
            "_nbclean = _util.module_from_spec(_spec)\n"
            "_spec.loader.exec_module(_nbclean)\n"
            "c.FileContentsManager.pre_save_hook = _nbclean.pre_save_hook\n"
            "# jupyter_server validates a configured hook twice and warns that it overrides itself:\n"
            "_warnings.filterwarnings('ignore', 'Overriding existing pre_save_hook', UserWarning)\n")
    if not path.exists() or path.read_text() != text:
        path.write_text(text)
    return path


def cmd_lab(args) -> int:
    py = ensure_env("student")
    lab_overrides(ENVS["student"][0])
    server_config(ENVS["student"][0])
    # Bound to loopback, token authentication left on (JupyterLab prints the URL with its token);
    # no news feed and no update check (the settings above also stop JupyterLab asking about them).
    cmd = [py, "-m", "jupyterlab", "--ServerApp.ip=127.0.0.1", f"--ServerApp.root_dir={ROOT}",
           "--LabApp.default_url=/lab/tree/chapters/01_introduction.ipynb", "--LabApp.news_url=None",
           "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate", *args]
    if hasattr(os, "geteuid") and os.geteuid() == 0:  # containers often run as root; JupyterLab refuses by default
        say("running as root: adding --ServerApp.allow_root=True")
        cmd.insert(3, "--ServerApp.allow_root=True")
    say(" ".join(str(c) for c in cmd))
    return subprocess.call([str(c) for c in cmd], cwd=ROOT)


def cmd_test(args) -> int:
    py = ensure_env("dev")
    chromium = ensure_chromium()
    env = dict(os.environ)
    if chromium:
        env["KL_CHROMIUM"] = chromium
    if sys.version_info >= DOCS_PYTHON:   # the site test builds the book with the docs environment
        env["KL_DOCS_PYTHON"] = str(ensure_env("docs"))
    else:
        say(f"Python {sys.version.split()[0]} < 3.11: no docs environment, the site test will be skipped "
            "unless KL_REQUIRE_BROWSER=1")
    cmd = [py, "-m", "pytest", *args]
    say(" ".join(str(c) for c in cmd))
    return subprocess.call([str(c) for c in cmd], cwd=ROOT, env=env)


def cmd_exercises(args) -> int:
    py = ensure_env("dev")
    return subprocess.call([str(py), str(ROOT / "tools" / "nbtools.py"), "exercises", *args], cwd=ROOT)


def cmd_execute(args) -> int:
    """Re-execute (tools/nbtools.py execute), then rewrite the Chinese edition, whose code cells
    and outputs are the English ones."""
    py = ensure_env("dev")
    rc = subprocess.call([str(py), str(ROOT / "tools" / "nbtools.py"), "execute", *args], cwd=ROOT)
    if rc == 0:
        rc = subprocess.call([str(py), str(ROOT / "tools" / "translate.py")], cwd=ROOT)
    return rc


def cmd_translate(args) -> int:
    """Write chapters/zh/ and exercises/zh/ from the catalogs in translations/zh/ (tools/translate.py:
    --check, --status, --new NOTEBOOK, --done NOTEBOOK CELL_ID ...)."""
    py = ensure_env("dev")
    return subprocess.call([str(py), str(ROOT / "tools" / "translate.py"), *args], cwd=ROOT)


def _matches(path: Path, arg: str) -> bool:
    """``work 6``, ``work 06``, ``work 06_floating`` and the full name all choose exercise 06."""
    number = path.name.split("_", 1)[0]
    if arg.isdigit() and number.isdigit():
        return int(arg) == int(number)
    return path.name.startswith(arg) or path.stem == arg


def cmd_work(args) -> int:
    """Copy exercises into work/ (all, or those chosen by number or by the start of their name);
    ``--lang zh`` copies the Chinese ones (exercises/zh/) into work/zh/.

    An existing copy is never replaced: the student's answers in work/ are theirs. Needs no
    environment (standard library only)."""
    lang = None
    if "--lang" in args:
        at = args.index("--lang")
        if at + 1 >= len(args) or args[at + 1] not in ("en", "zh"):
            say("--lang takes en or zh")
            return 2
        lang = None if args[at + 1] == "en" else args[at + 1]
        args = args[:at] + args[at + 2:]
    source = ROOT / "exercises" / lang if lang else ROOT / "exercises"
    work = WORK / lang if lang else WORK
    names = {s.name for s in (ROOT / "solutions").glob("*.ipynb")}   # not a student's copy in exercises/
    exercises = sorted(p for p in source.glob("*.ipynb") if p.name in names)
    chosen = [p for p in exercises if not args or any(_matches(p, a) for a in args)]
    unmatched = [a for a in args if not any(_matches(p, a) for p in exercises)]
    for a in unmatched:
        say(f"no exercise matches {a!r}; there are: " + ", ".join(p.stem for p in exercises))
    work.mkdir(parents=True, exist_ok=True)
    for src in chosen:
        dst = work / src.name
        shown = os.path.relpath(dst, ROOT)
        if dst.exists():
            say(f"{shown} already exists: open it (nothing copied; your copy is never replaced)")
            continue
        with open(dst, "xb") as out:   # "x": fails rather than overwrite, even in a race
            out.write(src.read_bytes())
        say(f"copied {os.path.relpath(src, ROOT)} -> {shown}")
    if chosen:
        say("open the copies in JupyterLab (python3 tasks.py lab, folder work/)")
    return 1 if unmatched else 0


def cmd_bench(args) -> int:
    """Run every benchmarks/bench_*.py in turn (bench_dynamics.py gets every argument, the others
    --quick); the worst exit code."""
    py = ensure_env("dev")
    rc, quick = 0, ["--quick"] if "--quick" in args else []
    for script in sorted((ROOT / "benchmarks").glob("bench_*.py")):  # bench_dynamics.py takes every argument
        print(f"[tasks] {script.relative_to(ROOT)}", flush=True)
        extra = args if script.name == "bench_dynamics.py" else quick
        rc = max(rc, subprocess.call([str(py), str(script), *extra], cwd=ROOT))
    return rc


def cmd_points(args) -> int:
    """The README's points table, with this interpreter (tools/nbtools.py needs nothing else for it)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("nbtools", ROOT / "tools" / "nbtools.py")
    nbtools = sys.modules["nbtools"] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(nbtools)
    return nbtools.main(["points", *args])


def cmd_site(args) -> int:
    """Build the book web site into site/ from the committed notebooks (tools/site.py; nothing is
    executed). ``--with-solutions`` also renders solutions/ (instructors: never publish that)."""
    if sys.version_info < DOCS_PYTHON:
        sys.exit(f"the site needs Python >= 3.11 (Sphinx 9), this is {sys.version.split()[0]}")
    py = ensure_env("docs")
    return subprocess.call([str(py), str(ROOT / "tools" / "site.py"), *args], cwd=ROOT)


def ensure_proxy() -> Path:
    """configurable-http-proxy (JupyterHub's proxy) from npm, pinned by classroom/proxy's
    package-lock.json, installed into .venv-classroom/proxy; skipped when nothing changed."""
    src = ROOT / "classroom" / "proxy"
    folder = ENVS["classroom"][0] / "proxy"
    exe = folder / "node_modules" / ".bin" / "configurable-http-proxy"
    files = [src / "package.json", src / "package-lock.json"]
    digest = hashlib.sha256(b"".join(f.read_bytes() for f in files)).hexdigest()
    stamp = folder / ".installed"
    if exe.exists() and stamp.exists() and stamp.read_text() == digest:
        return exe
    npm = shutil.which("npm")
    if not npm:
        sys.exit("the classroom needs Node.js >= 20 and npm (for configurable-http-proxy)")
    folder.mkdir(parents=True, exist_ok=True)
    for f in files:
        shutil.copyfile(f, folder / f.name)
    run([npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"], cwd=folder)
    stamp.write_text(digest)
    return exe


def cmd_classroom(args) -> int:
    """--check: the end-to-end classroom test (tools/classroom.py); --bench N…: the capacity
    benchmark (benchmarks/bench_classroom.py). Installs .venv-classroom and the proxy first."""
    if not args or args[0] not in ("--check", "--bench"):
        print(cmd_classroom.__doc__)
        return 2
    py = ensure_env("classroom")
    ensure_proxy()
    if args[0] == "--check":
        cmd = [py, ROOT / "tools" / "classroom.py", "check", *args[1:]]
    else:
        cmd = [py, ROOT / "benchmarks" / "bench_classroom.py", *args[1:]]
    say(" ".join(str(c) for c in cmd))
    return subprocess.call([str(c) for c in cmd], cwd=ROOT)


COMMANDS = {"lab": cmd_lab, "work": cmd_work, "test": cmd_test, "exercises": cmd_exercises,
            "execute": cmd_execute, "bench": cmd_bench, "points": cmd_points, "site": cmd_site,
            "classroom": cmd_classroom, "translate": cmd_translate}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in COMMANDS:
        print(__doc__)
        return 2
    return COMMANDS[argv[0]](argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

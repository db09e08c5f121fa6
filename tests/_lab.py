"""A real JupyterLab in Debian's Chromium, shared by ``tests/test_browser.py`` (the look) and
``benchmarks/bench_browser.py`` (key press -> new figure).

JupyterLab is started on loopback with authentication disabled *for this server only* (the
user-facing ``tasks.py lab`` keeps token authentication), on a temporary copy of the chapters
so the browser never dirties the sources, with every cell rendered (JupyterLab 4 virtualises
cells scrolled out of view) and no news or update checks (no network). Chromium is Debian's
package driven by Playwright through its executable path (Playwright's browser download is
not used). Standard library only at import time (Playwright is imported where a browser starts).
"""

from __future__ import annotations

import ast
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("KL_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
                 "--disable-dev-shm-usage"]
#: The window every check and measurement uses (issue 13: a widget with its figure fits it).
VIEWPORT = {"width": 1400, "height": 900}
IDLE = '.jp-StatusBar-Widget:has-text("Idle")'
FIGURE = "img.kl-figure"


def _calls_interactive_view(source: str) -> bool:
    try:
        tree = ast.parse(source)
    except SyntaxError:  # a cell with IPython magics: fall back to the text
        return "interactive_view(" in source
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            if (isinstance(f, ast.Name) and f.id == "interactive_view") or (
                    isinstance(f, ast.Attribute) and f.attr == "interactive_view"):
                return True
    return False


def slider_chapters(root: Path = ROOT) -> list[str]:
    """File names of the chapters (``chapters/*.ipynb``) with a code cell calling
    ``interactive_view``: found from the sources, so a chapter added later is included."""
    found = []
    for path in sorted((root / "chapters").glob("*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        for cell in nb["cells"]:
            src = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
            if cell["cell_type"] == "code" and _calls_interactive_view(src):
                found.append(path.name)
                break
    return found


#: The chapters the browser round trip opens (tests/test_browser.py): the two fastest to run, with
#: one and two slider views. Every slider view of every chapter is checked without a browser
#: (tests/test_sliders.py: labels with units, readouts, figure and widget sizes; nbval runs each
#: chapter with its views at their initial values); the browser adds what only a real frontend
#: shows (rendering, the widget round trip to the kernel), which is the same code for every
#: chapter. ``KL_BROWSER_CHAPTERS=all`` opens every slider chapter (about 8 minutes more).
BROWSER_CHAPTERS = ("01_", "02_")


def browser_chapters(root: Path = ROOT) -> list[str]:
    """The slider chapters the browser test opens: those starting with ``BROWSER_CHAPTERS``, or
    all of them when the environment says ``KL_BROWSER_CHAPTERS=all``."""
    found = slider_chapters(root)
    if os.environ.get("KL_BROWSER_CHAPTERS") == "all":
        return found
    return [name for name in found if name.startswith(BROWSER_CHAPTERS)]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def lab_server(workdir: Path | None = None, python: str = sys.executable, root: Path | None = None,
               env: dict | None = None):
    """Start JupyterLab on a copy of ``chapters/`` (or on the folder ``root``, e.g. a clone of
    the repository, with ``env`` added to its environment); yields its base URL, stops it
    afterwards.

    The kernels run with ``KL_QUICK=1`` (the chapters' long loops run briefly; the slider views
    do not depend on it)."""
    with contextlib.ExitStack() as stack:
        if workdir is None:
            workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="kl-lab-")))
        cfg = workdir / "labcfg"
        if root is None:
            root = workdir / "labroot"
            shutil.copytree(ROOT / "chapters", root / "chapters")
        env = dict(os.environ, JUPYTER_CONFIG_DIR=str(cfg / "config"), JUPYTER_RUNTIME_DIR=str(cfg / "runtime"),
                   JUPYTERLAB_SETTINGS_DIR=str(cfg / "settings"), JUPYTERLAB_WORKSPACES_DIR=str(cfg / "ws"),
                   KL_QUICK="1", **(env or {}))
        settings = cfg / "settings" / "@jupyterlab"
        (settings / "notebook-extension").mkdir(parents=True)
        (settings / "notebook-extension" / "tracker.jupyterlab-settings").write_text('{"windowingMode": "none"}')
        (settings / "apputils-extension").mkdir(parents=True)
        (settings / "apputils-extension" / "notification.jupyterlab-settings").write_text(
            '{"fetchNews": "false", "checkForUpdates": false}')
        port = _free_port()
        cmd = [python, "-m", "jupyterlab", "--no-browser", f"--port={port}", "--ServerApp.ip=127.0.0.1",
               "--IdentityProvider.token=", "--ServerApp.password=", "--ServerApp.allow_root=True",
               "--ServerApp.disable_check_xsrf=True", "--LabApp.news_url=None",
               "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate", f"--ServerApp.root_dir={root}"]
        log = open(workdir / "server.log", "w")
        proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(240):
                try:
                    with urllib.request.urlopen(f"{base}/api/status", timeout=1) as r:
                        if r.status == 200:
                            break
                except OSError:
                    time.sleep(0.5)
            else:
                raise RuntimeError("JupyterLab did not start: " + (workdir / "server.log").read_text()[-2000:])
            yield base
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
            log.close()


@contextlib.contextmanager
def chromium():
    """Headless Debian Chromium under Playwright; yields the Browser."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


def delete_sessions(base: str) -> None:
    """Shut down every kernel session (reopening a notebook would otherwise reuse its kernel)."""
    with urllib.request.urlopen(f"{base}/api/sessions") as r:
        sessions = json.load(r)
    for s in sessions:
        req = urllib.request.Request(f"{base}/api/sessions/{s['id']}", method="DELETE")
        urllib.request.urlopen(req).close()


def open_notebook(page, base: str, notebook: str) -> None:
    """Open ``chapters/notebook`` (no tabs from earlier pages) and wait for its kernel."""
    page.goto(f"{base}/lab/tree/chapters/{notebook}?reset")
    page.wait_for_selector(IDLE, timeout=180_000)


#: True once every code cell has run: each input prompt shows an execution count ("[12]:"),
#: none is queued or running ("[*]:") -- more robust than the status bar, which can read "Idle"
#: between two cells of a run.
ALL_RUN = """() => {
    const prompts = [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPrompt')];
    return prompts.length > 0 && prompts.every(p => /\\[\\d+\\]/.test(p.innerText));
}"""


def run_all(page, timeout_ms: int = 600_000) -> None:
    """Run > Run All Cells; wait until every code cell has run, the kernel is idle and every
    widget figure has loaded."""
    page.click('.lm-MenuBar-item:has-text("Run")')
    page.click('.lm-Menu-item[data-command="runmenu:run-all"]')
    # The committed chapters show execution counts already: first see the cells queued ("[*]").
    with contextlib.suppress(Exception):
        page.wait_for_function("""() => [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPrompt')]
                                          .some(p => p.innerText.includes('*'))""", timeout=15_000, polling=50)
    page.wait_for_function(ALL_RUN, timeout=timeout_ms, polling=250)
    page.wait_for_selector(IDLE, timeout=timeout_ms)
    # Widget views render asynchronously after their output arrives: wait until the number of
    # slider widgets has not changed for a second.
    page.wait_for_function("""() => {
        const n = document.querySelectorAll('.kl-interactive').length, now = performance.now();
        const s = window.__klCount;
        if (!s || s.n !== n) { window.__klCount = {n, since: now}; return false; }
        return now - s.since > 1000;
    }""", timeout=60_000, polling=100)
    page.wait_for_function("""() => [...document.querySelectorAll('.kl-interactive img.kl-figure')]
                                      .every(img => img.complete && img.naturalWidth > 0)""", timeout=60_000)


def widget_count(page) -> int:
    return page.evaluate("() => document.querySelectorAll('.kl-interactive').length")


# In-page timing of one control change: armed before the key press (or the option selection);
# t0 is the timeStamp of the first keydown/change event in the document (capture phase), ts the
# moment the box's <img class="kl-figure"> gets a new src (the kernel's PNG has arrived), t1 the
# moment that image has loaded (complete, naturalWidth > 0).
ARM = """(index) => {
    const box = document.querySelectorAll('.kl-interactive')[index];
    const img = box.querySelector('img.kl-figure');
    const old = img.getAttribute('src');
    const state = {t0: null, ts: null, t1: null};
    window.__klTiming = state;
    const start = e => { if (state.t0 === null) state.t0 = e.timeStamp; };
    document.addEventListener('keydown', start, {capture: true, once: true});
    document.addEventListener('change', start, {capture: true, once: true});
    const shown = () => {
        if (state.t1 === null && img.getAttribute('src') !== old && img.complete && img.naturalWidth > 0) {
            state.t1 = performance.now();
            observer.disconnect();
            img.removeEventListener('load', shown);
        }
    };
    const observer = new MutationObserver(() => {
        if (img.getAttribute('src') === old) return;
        if (state.ts === null) state.ts = performance.now();
        shown();
    });
    observer.observe(img, {attributes: true, attributeFilter: ['src']});
    img.addEventListener('load', shown);
}"""
DONE = "() => window.__klTiming && window.__klTiming.t1 !== null"
#: [ms from the key press to the new figure shown, ms of that spent after the new src was set]
ELAPSED = "() => [window.__klTiming.t1 - window.__klTiming.t0, window.__klTiming.t1 - window.__klTiming.ts]"

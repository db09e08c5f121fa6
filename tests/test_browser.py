"""A real browser against JupyterLab: run a chapter, move a slider, see the figure change.

JupyterLab is started on loopback with authentication disabled *for this test server only*
(the user-facing ``tasks.py lab`` keeps token authentication), on a temporary copy of the
chapters so the browser never dirties the sources. Chromium is Debian's package driven by
Playwright through its executable path (Playwright's own browser download is not used).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("KL_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
#: (notebook, how many ArrowRight presses to move its first slider)
NOTEBOOKS = [nb for nb in ("02_rigid_motions_dh.ipynb", "03_jacobians_singularities_ik.ipynb", "09_mecanum_wheels.ipynb")
             if (ROOT / "chapters" / nb).exists()]

pytestmark = pytest.mark.browser


def _require_browser():
    if not Path(CHROMIUM).exists():
        if os.environ.get("KL_REQUIRE_BROWSER") == "1":
            pytest.fail(f"Chromium not found at {CHROMIUM} but KL_REQUIRE_BROWSER=1")
        pytest.skip(f"Chromium not found at {CHROMIUM} (install Debian's chromium package)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def lab_server(tmp_path_factory):
    _require_browser()
    root = tmp_path_factory.mktemp("labroot")
    shutil.copytree(ROOT / "chapters", root / "chapters")
    cfg = tmp_path_factory.mktemp("labcfg")
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(cfg / "config"), JUPYTER_RUNTIME_DIR=str(cfg / "runtime"),
               JUPYTERLAB_SETTINGS_DIR=str(cfg / "settings"), JUPYTERLAB_WORKSPACES_DIR=str(cfg / "ws"),
               KL_QUICK="1")
    # Render every cell (JupyterLab 4 virtualises cells scrolled out of view, which would hide
    # the first slider once "Run all" has scrolled to the end) and do not ask about news.
    settings = cfg / "settings" / "@jupyterlab"
    (settings / "notebook-extension").mkdir(parents=True)
    (settings / "notebook-extension" / "tracker.jupyterlab-settings").write_text('{"windowingMode": "none"}')
    (settings / "apputils-extension").mkdir(parents=True)
    (settings / "apputils-extension" / "notification.jupyterlab-settings").write_text(
        '{"fetchNews": "false", "checkForUpdates": false}')
    port = _free_port()
    cmd = [sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}", "--ServerApp.ip=127.0.0.1",
           "--IdentityProvider.token=", "--ServerApp.password=", "--ServerApp.allow_root=True",
           "--ServerApp.disable_check_xsrf=True", "--LabApp.news_url=None",
           "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate", f"--ServerApp.root_dir={root}"]
    log = open(cfg / "server.log", "w")
    proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                with urllib.request.urlopen(f"{base}/api/status", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                time.sleep(0.5)
        else:
            raise RuntimeError("JupyterLab did not start: " + (cfg / "server.log").read_text()[-2000:])
        yield base
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        log.close()


@pytest.fixture(scope="module")
def browser():
    _require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
            "--disable-dev-shm-usage"])
        yield b
        b.close()


def _image_fingerprint(page, selector: str) -> str:
    """The pixels of an <img> as a data URL (blob URLs change even for equal images)."""
    return page.eval_on_selector(selector, """img => {
        const c = document.createElement('canvas');
        c.width = img.naturalWidth; c.height = img.naturalHeight;
        c.getContext('2d').drawImage(img, 0, 0);
        return c.toDataURL();
    }""")


_LOOK = """() => {
    const unit = /\\[[^\\[\\]]+\\]\\s*$/;
    const panel = document.querySelector('.jp-NotebookPanel-notebook') || document.body;
    const view = panel.getBoundingClientRect();
    const out = [];
    for (const box of document.querySelectorAll('.kl-interactive')) {
        const img = box.querySelector('img.kl-figure');
        const r = img.getBoundingClientRect();
        const b = box.getBoundingClientRect();
        const labels = [...box.querySelectorAll('.widget-slider .widget-label')].map(l => l.innerText.trim());
        out.push({natural: [img.naturalWidth, img.naturalHeight], shown: [r.width, r.height],
                  box: [b.width, b.height], view: [view.width, view.height],
                  unitless: labels.filter(t => !unit.test(t)),
                  readouts: [...box.querySelectorAll('.widget-readout')].map(e => e.innerText.trim())});
    }
    return out;
}"""


def _check_look(page, notebook):
    """Figures at their natural size, every slider label with a unit, readouts without
    floating-point noise, each widget inside the notebook panel of a 1400 x 900 window."""
    widgets = page.evaluate(_LOOK)
    assert widgets, f"{notebook}: no slider widget rendered"
    for k, w in enumerate(widgets):
        where = f"{notebook} widget {k}"
        assert abs(w["shown"][0] - w["natural"][0]) <= 1 and abs(w["shown"][1] - w["natural"][1]) <= 1, (
            f"{where}: figure shown at {w['shown']} px, natural size {w['natural']}")
        assert not w["unitless"], f"{where}: sliders without a unit in their label: {w['unitless']}"
        assert not [r for r in w["readouts"] if "e-" in r or "e+" in r], f"{where}: readouts {w['readouts']}"
        assert w["box"][0] <= w["view"][0] + 1 and w["box"][1] <= w["view"][1] + 1, (
            f"{where}: widget {w['box']} px does not fit the notebook panel {w['view']} px")


def _delete_sessions(base: str) -> None:
    with urllib.request.urlopen(f"{base}/api/sessions") as r:
        sessions = json.load(r)
    for s in sessions:
        req = urllib.request.Request(f"{base}/api/sessions/{s['id']}", method="DELETE")
        urllib.request.urlopen(req).close()


@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_slider_moves_figure(lab_server, browser, notebook):
    _delete_sessions(lab_server)
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    try:
        page.goto(f"{lab_server}/lab/tree/chapters/{notebook}?reset")  # ?reset: no tabs from earlier tests
        page.wait_for_selector('.jp-StatusBar-Widget:has-text("Idle")', timeout=120_000)
        # As committed (not yet run): the static figures are there and no widget error is shown.
        page.wait_for_selector(".jp-OutputArea-output img", state="attached", timeout=60_000)
        assert "Error displaying widget" not in page.inner_text("body")
        page.click('.lm-MenuBar-item:has-text("Run")')
        page.click('.lm-Menu-item[data-command="runmenu:run-all"]')
        figure = ".kl-interactive img.kl-figure"
        page.wait_for_selector(figure, state="attached", timeout=180_000)
        page.wait_for_selector('.jp-StatusBar-Widget:has-text("Idle")', timeout=300_000)
        page.locator(figure).first.scroll_into_view_if_needed()
        _check_look(page, notebook)
        before_img = _image_fingerprint(page, figure)
        before_text = page.locator(".kl-interactive .kl-readout").first.inner_text()
        handle = page.locator(".kl-interactive .noUi-handle").first
        handle.focus()
        for _ in range(5):
            handle.press("ArrowRight")
        page.wait_for_function(
            """(before) => { const r = document.querySelector('.kl-interactive .kl-readout');
                              return r && r.innerText !== before; }""", arg=before_text, timeout=60_000)
        page.wait_for_timeout(500)
        after_img = _image_fingerprint(page, figure)
        assert after_img != before_img, "the figure did not change after moving the slider"
        _check_look(page, notebook)  # same size after the move: no jump
        body = page.inner_text("body")
        assert "Error displaying widget" not in body
        assert "model not found" not in body
        errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
        tracebacks = [t for t in errors.all_inner_texts() if "Traceback" in t or "Error" in t]
        assert not tracebacks, f"errors in the notebook outputs: {tracebacks[:2]}"
    finally:
        page.close()

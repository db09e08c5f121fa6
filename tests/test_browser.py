"""A real browser against JupyterLab: for two chapters with sliders (``_lab.BROWSER_CHAPTERS``;
``KL_BROWSER_CHAPTERS=all``: every chapter with sliders), run it, check the look of every slider
widget, move a slider, see the figure change.

The chapters are found from their sources (``tests/_lab.py``: ``chapters/*.ipynb`` with a code
cell calling ``interactive_view``); every slider view of every chapter, including chapters added
later, is checked without a browser by tests/test_sliders.py. The widgets are found in the page. JupyterLab runs on loopback with authentication disabled *for
this test server only* (the user-facing ``tasks.py lab`` keeps token authentication), on a
temporary copy of the chapters so the browser never dirties the sources; Chromium is Debian's
package driven by Playwright through its executable path. Nothing here is timed: the time from
a key press to the new figure is ``benchmarks/bench_browser.py``'s.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import _lab

NOTEBOOKS = _lab.browser_chapters()   # two chapters; KL_BROWSER_CHAPTERS=all: every slider chapter

pytestmark = pytest.mark.browser


def _require_browser():
    if not Path(_lab.CHROMIUM).exists():
        if os.environ.get("KL_REQUIRE_BROWSER") == "1":
            pytest.fail(f"Chromium not found at {_lab.CHROMIUM} but KL_REQUIRE_BROWSER=1")
        pytest.skip(f"Chromium not found at {_lab.CHROMIUM} (install Debian's chromium package)")


def test_chapters_with_sliders_found():
    """The discovery the browser test relies on finds the slider chapters (not an empty list),
    and the chapters it opens by default are two of them."""
    assert _lab.slider_chapters(), "no chapter calls interactive_view: the browser test would cover nothing"
    assert all((_lab.ROOT / "chapters" / nb).exists() for nb in NOTEBOOKS)
    chosen = [nb for nb in _lab.slider_chapters() if nb.startswith(_lab.BROWSER_CHAPTERS)]
    assert len(chosen) == len(_lab.BROWSER_CHAPTERS), f"browser chapters {_lab.BROWSER_CHAPTERS}: found {chosen}"


@pytest.fixture(scope="module")
def lab_server(tmp_path_factory):
    _require_browser()
    with _lab.lab_server(tmp_path_factory.mktemp("lab")) as base:
        yield base


@pytest.fixture(scope="module")
def browser():
    _require_browser()
    with _lab.chromium() as b:
        yield b


def _image_fingerprint(locator) -> str:
    """The pixels of an <img> as a data URL (blob URLs change even for equal images)."""
    return locator.evaluate("""img => {
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
    problems = []
    for k, w in enumerate(widgets):
        where = f"{notebook} widget {k}"
        if abs(w["shown"][0] - w["natural"][0]) > 1 or abs(w["shown"][1] - w["natural"][1]) > 1:
            problems.append(f"{where}: figure shown at {w['shown']} px, natural size {w['natural']}")
        if w["unitless"]:
            problems.append(f"{where}: sliders without a unit in their label: {w['unitless']}")
        if [r for r in w["readouts"] if "e-" in r or "e+" in r]:
            problems.append(f"{where}: readouts {w['readouts']}")
        if w["box"][0] > w["view"][0] + 1 or w["box"][1] > w["view"][1] + 1:
            problems.append(f"{where}: widget {w['box']} px does not fit the notebook panel {w['view']} px")
    assert not problems, "\n".join(problems)
    return len(widgets)


@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_slider_widgets_look_and_move(lab_server, browser, notebook):
    _lab.delete_sessions(lab_server)
    page = browser.new_page(viewport=_lab.VIEWPORT)
    try:
        _lab.open_notebook(page, lab_server, notebook)
        # As committed (not yet run): the static figures are there and no widget error is shown.
        page.wait_for_selector(".jp-OutputArea-output img", state="attached", timeout=60_000)
        assert "Error displaying widget" not in page.inner_text("body")
        _lab.run_all(page)
        n = _check_look(page, notebook)
        # Move the first slider found (else select a dropdown's next option): a new figure of the same size.
        index = page.evaluate("""() => {
            const boxes = [...document.querySelectorAll('.kl-interactive')];
            const k = boxes.findIndex(b => b.querySelector('.noUi-handle'));
            return k >= 0 ? k : 0; }""")
        box = page.locator(".kl-interactive").nth(index)
        figure = box.locator(_lab.FIGURE)
        box.scroll_into_view_if_needed()
        before = _image_fingerprint(figure)
        page.evaluate(_lab.ARM, index)
        if box.locator(".noUi-handle").count():
            handle = box.locator(".noUi-handle").first
            at_max = handle.evaluate(
                "h => Number(h.getAttribute('aria-valuenow')) >= Number(h.getAttribute('aria-valuemax'))")
            handle.focus()
            handle.press("ArrowLeft" if at_max else "ArrowRight")
        else:
            select = box.locator(".widget-dropdown select").first
            n_options = select.evaluate("s => s.options.length")
            select.select_option(index=(select.evaluate("s => s.selectedIndex") + 1) % n_options)
        page.wait_for_function(_lab.DONE, timeout=60_000)
        assert _image_fingerprint(figure) != before, f"{notebook}: the figure did not change after moving a slider"
        assert _check_look(page, notebook) == n  # same look after the move: no jump
        body = page.inner_text("body")
        assert "Error displaying widget" not in body
        assert "model not found" not in body
        errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
        tracebacks = [t for t in errors.all_inner_texts() if "Traceback" in t or "Error" in t]
        assert not tracebacks, f"{notebook}: errors in the notebook outputs: {tracebacks[:2]}"
    finally:
        page.close()

"""After a kernel restart every slider view says so (issue 19, item 6).

Before, the widgets showed broken-link icons and a moved handle silently left the figure as it
was. Every slider view built by ``interactive_view`` carries a note that CSS shows only under
ipywidgets' ``jupyter-widgets-disconnected`` class (unit test). In a real JupyterLab in Chromium
(``tests/_lab.py``): run a notebook of two slider views built as the chapters build theirs
(``interactive_view``; the note does not depend on the chapter, and tests/test_browser.py runs
real chapters in the browser), check that the note is hidden in every slider view, restart the
kernel the way a student does (Kernel > Restart Kernel..., confirm), and check that every slider
view now shows "the kernel restarted: run the cell again" above its sliders; running the cells
again hides it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import nbformat
import pytest

import _lab
from kinematics_lib.notebook.views import demo_view
from kinematics_lib.notebook.widgets import RESTART_NOTE, interactive_view

NOTEBOOK = "restart.ipynb"
CELLS = ["from kinematics_lib.notebook.views import demo_view\n"
         "from kinematics_lib.notebook.widgets import interactive_view",
         "interactive_view(demo_view, amplitude=(0.0, 2.0, 0.1, 1.0))",
         "interactive_view(demo_view, amplitude=(0.0, 2.0, 0.5, 0.5))"]

#: For every slider view: is its restart note shown, its text, and is it above the sliders?
_NOTES = """() => [...document.querySelectorAll('.kl-interactive')].map(box => {
    const note = box.querySelector('.kl-restart');
    if (!note) return {found: false};
    const shown = getComputedStyle(note).display !== 'none' && note.getBoundingClientRect().height > 0;
    const sliders = box.querySelector('.widget-gridbox') || box.firstElementChild;
    return {found: true, shown, text: note.innerText.trim(),
            above: note.getBoundingClientRect().bottom <= sliders.getBoundingClientRect().top + 1};
})"""


@pytest.fixture(scope="module")
def lab_and_browser(tmp_path_factory):
    if not Path(_lab.CHROMIUM).exists():
        if os.environ.get("KL_REQUIRE_BROWSER") == "1":
            pytest.fail(f"Chromium not found at {_lab.CHROMIUM} but KL_REQUIRE_BROWSER=1")
        pytest.skip(f"Chromium not found at {_lab.CHROMIUM} (install Debian's chromium package)")
    work = tmp_path_factory.mktemp("lab")
    root = work / "labroot"
    (root / "chapters").mkdir(parents=True)
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    nbformat.write(nb, root / "chapters" / NOTEBOOK)
    with _lab.lab_server(work, root=root) as base, _lab.chromium() as browser:
        yield base, browser


def test_every_slider_view_carries_the_restart_note():
    box = interactive_view(demo_view, amplitude=(0.0, 2.0, 0.1, 1.0)).widget()
    notes = [c for c in box.children if "kl-restart" in c._dom_classes]
    assert len(notes) == 1 and RESTART_NOTE in notes[0].value
    css = notes[0].value
    # hidden unless ipywidgets marks the view disconnected (the class it adds when the kernel restarts)
    assert ".kl-restart:not(.jupyter-widgets-disconnected) {display: none !important}" in css


def test_the_installed_widget_frontend_marks_views_disconnected():
    """The class the note relies on is the one the pinned jupyterlab_widgets adds on a restart."""
    static = Path(sys.prefix, "share", "jupyter", "labextensions", "@jupyter-widgets", "jupyterlab-manager", "static")
    scripts = [p.read_text(errors="replace") for p in static.glob("*.js")]
    assert scripts, f"no widget frontend in {static}"
    assert any('addClass("jupyter-widgets-disconnected")' in js for js in scripts)
    assert any('"restarting"===e&&this.disconnect()' in js.replace(" ", "") for js in scripts)


@pytest.mark.browser
def test_slider_views_say_that_the_kernel_restarted(lab_and_browser):
    base, browser = lab_and_browser
    _lab.delete_sessions(base)
    page = browser.new_page(viewport=_lab.VIEWPORT)
    try:
        _lab.open_notebook(page, base, NOTEBOOK)
        _lab.run_all(page)
        notes = page.evaluate(_NOTES)
        assert len(notes) == 2 and all(n["found"] for n in notes), f"a slider view without its note: {notes}"
        assert not any(n["shown"] for n in notes), f"the note shows with a live kernel: {notes}"
        page.click('.lm-MenuBar-item:has-text("Kernel")')
        page.click('.lm-Menu-item[data-command="kernelmenu:restart"]')
        page.click(".jp-Dialog-button.jp-mod-accept")
        page.wait_for_function(f"() => ({_NOTES})().every(n => n.shown)", timeout=60_000, polling=200)
        notes = page.evaluate(_NOTES)
        assert all(n["text"] == RESTART_NOTE and n["above"] for n in notes), notes
        page.wait_for_selector(_lab.IDLE, timeout=120_000)
        _lab.run_all(page)                       # running the cells again: live views, no note
        assert not any(n["shown"] for n in page.evaluate(_NOTES))
    finally:
        page.close()

"""Key press -> new figure, in a real JupyterLab in Debian's Chromium, for every slider widget.

    .venv-dev/bin/python benchmarks/bench_browser.py            # every chapter, every control, 10 presses
    .venv-dev/bin/python benchmarks/bench_browser.py --quick    # first slider (and dropdown) of each widget, 3 presses
    .venv-dev/bin/python benchmarks/bench_browser.py 03 09      # chapters whose file name starts so
    python3 tasks.py bench                                      # with the other benchmarks
    python benchmarks/bench_browser.py --ipympl                 # ipympl against the PNG widget (needs ipympl)

For each chapter of ``chapters/*.ipynb`` (a temporary copy, served by JupyterLab on loopback,
kernels in quick mode; ``tests/_lab.py``) the page is opened at 1400 x 900, every cell is run,
and every ``.kl-interactive`` widget found in the page is measured -- no chapter or view name is
written here, so chapters added later are measured without edits. For a slider, its handle is
focused and ArrowRight pressed ``--presses`` times (ArrowLeft once the slider is at its maximum);
for a dropdown, the next option is selected. Each press waits for the new figure. The time is
measured in the page with ``performance.now()``: from the key press (the keydown event's
timeStamp) to the widget's ``<img class="kl-figure">`` having a new ``src`` that has loaded
(``complete``, ``naturalWidth > 0``) -- kernel round trip, the view's compute and PNG, and the
browser decoding the image; the "image" column is the part after the new ``src`` was set (the
browser loading the PNG blob). Per widget and control: median and max ms; a median over 150 ms
(issue 13) is flagged ``OVER``. Wall-clock time, so other jobs on the machine inflate it: the
load average is printed. Exit status 0 whatever the times (a benchmark, not a test).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import _lab  # noqa: E402

BUDGET_MS = 150.0
PRESS_TIMEOUT_MS = 15_000

# Every control of the widget at ``index``: kind, label, and its position among the widget's
# sliders (or dropdowns).
CONTROLS = """(index) => {
    const box = document.querySelectorAll('.kl-interactive')[index];
    const out = [];
    box.querySelectorAll('.widget-slider').forEach((s, k) => {
        const label = s.querySelector('.widget-label');
        out.push({kind: 'slider', k, label: label ? label.innerText.trim() : `slider ${k}`});
    });
    box.querySelectorAll('.widget-dropdown').forEach((s, k) => {
        const label = s.querySelector('.widget-label');
        out.push({kind: 'dropdown', k, label: label ? label.innerText.trim() : `dropdown ${k}`,
                  options: s.querySelectorAll('option').length});
    });
    return out;
}"""

AT_MAX = """(handle) => Number(handle.getAttribute('aria-valuenow')) >= Number(handle.getAttribute('aria-valuemax'))"""
AT_MIN = """(handle) => Number(handle.getAttribute('aria-valuenow')) <= Number(handle.getAttribute('aria-valuemin'))"""


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


def _one_change(page, index: int, act) -> tuple[float, float] | None:
    """(ms from the control change made by ``act()`` to the new figure shown, ms of it after the
    new src was set); None when no new figure came."""
    page.evaluate(_lab.ARM, index)
    act()
    try:
        page.wait_for_function(_lab.DONE, timeout=PRESS_TIMEOUT_MS, polling=10)
    except Exception:
        return None
    total, image = page.evaluate(_lab.ELAPSED)
    return float(total), float(image)


def measure_control(page, index: int, control: dict, presses: int) -> tuple[list[tuple[float, float]], int]:
    box = page.locator(".kl-interactive").nth(index)
    times, missed = [], 0
    if control["kind"] == "slider":
        handle = box.locator(".widget-slider").nth(control["k"]).locator(".noUi-handle").first
        handle.scroll_into_view_if_needed()
        handle.focus()
        key = "ArrowRight"
        for _ in range(presses):
            if key == "ArrowRight" and handle.evaluate(AT_MAX):
                key = "ArrowLeft"
            elif key == "ArrowLeft" and handle.evaluate(AT_MIN):
                key = "ArrowRight"
            ms = _one_change(page, index, lambda: handle.press(key))
            if ms is None:
                missed += 1
            else:
                times.append(ms)
            page.wait_for_timeout(50)
    else:
        select = box.locator(".widget-dropdown").nth(control["k"]).locator("select")
        select.scroll_into_view_if_needed()
        n = max(control.get("options", 1), 1)
        if n < 2:
            return times, missed
        for _ in range(presses):
            current = select.evaluate("s => s.selectedIndex")
            ms = _one_change(page, index, lambda: select.select_option(index=(current + 1) % n))
            if ms is None:
                missed += 1
            else:
                times.append(ms)
            page.wait_for_timeout(50)
    return times, missed


def _row(name: str, times: list[tuple[float, float]], missed: int) -> str:
    if not times:
        return f"  {name:<52} {'-':>7} {'-':>7} {'-':>7} {0:>4}  no new figure ({missed} presses)"
    total = [t for t, _ in times]
    med, mx, img = statistics.median(total), max(total), statistics.median(i for _, i in times)
    flag = "OVER" if med > BUDGET_MS else "ok"
    extra = f"  ({missed} without a new figure)" if missed else ""
    return f"  {name:<52} {med:7.0f} {mx:7.0f} {img:7.1f} {len(times):>4}  {flag}{extra}"


def bench_chapter(browser, base: str, notebook: str, args) -> list[tuple[str, list[float], int]]:
    _lab.delete_sessions(base)
    page = browser.new_page(viewport=_lab.VIEWPORT)
    rows = []
    try:
        t = time.perf_counter()
        _lab.open_notebook(page, base, notebook)
        _lab.run_all(page)
        run_s = time.perf_counter() - t
        n = _lab.widget_count(page)
        print(f"{notebook}: {n} slider widget(s), opened and run all in {run_s:.1f} s", flush=True)
        if not n:
            return rows
        print(f"  {'widget / control':<52} {'median':>7} {'max':>7} {'image':>7} {'n':>4}  "
              "(ms from key press to new figure; image: of it, from the new src to the image loaded)")
        for index in range(n):
            controls = page.evaluate(CONTROLS, index)
            if args.quick:  # the first slider and the first dropdown of each widget
                controls = [c for c in controls if c["k"] == 0]
            for control in controls:
                times, missed = measure_control(page, index, control, args.presses)
                name = f"#{index} {control['kind']} {control['label']}"
                rows.append((name, times, missed))
                print(_row(name, times, missed), flush=True)
        everything = [x for _, ts, _ in rows for x in ts]
        if everything:
            print(_row("chapter, all presses", everything, 0), flush=True)
    finally:
        page.close()
    return rows


# ---------------------------------------------------------------- ipympl against the PNG image widget

#: (module, view, slider, spec): views of both kinds compared by ``--ipympl`` (2-D curves and a 3-D arm)
IPYMPL_VIEWS = [("kinematics_lib.notebook.views.control", "task_inertia_view", "q1", (-180.0, 180.0, 5.0, 30.0)),
                ("kinematics_lib.notebook.views.control", "pid_sign_view", "kp", (10.0, 400.0, 10.0, 100.0)),
                ("kinematics_lib.notebook.views.rigid", "puma560_view", "q2", (-3.0, 3.0, 0.05, 0.0))]

#: One notebook, two cells per view: (a) the PNG image widget (``interactive_view``); (b) the same
#: view function and slider on an ipympl canvas (``%matplotlib widget``'s canvas, built for the
#: view's figure): the callback updates the artists (figure_once) and calls ``canvas.draw_idle()``,
#: which sends the new image to the frontend (animated artists are drawn as ordinary ones there:
#: ipympl draws the whole figure).
IPYMPL_CELL = """import ipywidgets as w
from ipympl.backend_nbagg import Canvas, FigureManager
from kinematics_lib.notebook.widgets import FigureSlot, interactive_view
from {module} import {view} as view_fn
slot = FigureSlot()
with slot.active():
    fig = view_fn({slider}={value}).figure
for a in fig.findobj(lambda a: a.get_animated()):
    a.set_animated(False)
canvas = Canvas(fig)
manager = FigureManager(canvas, {num})
canvas.header_visible = canvas.footer_visible = canvas.toolbar_visible = False
canvas.resizable = False
slider = w.FloatSlider(min={lo}, max={hi}, step={step}, value={value}, description="{slider}")
def update(change):
    with slot.active():
        view_fn({slider}=change["new"])
    canvas.draw_idle()
slider.observe(update, names="value")
box = w.VBox([slider, canvas])
box.add_class("kl-ipympl")
box"""

#: armed before a key press: t1 when the ipympl canvas of box ``index`` shows other pixels
ARM_IPYMPL = """(index) => {
    const box = document.querySelectorAll('.kl-ipympl')[index];
    const canvas = box.querySelector('.jupyter-matplotlib-figure canvas, canvas');
    const sample = () => {
        const d = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
        let h = 0;
        for (let i = 0; i < d.length; i += 61) h = (h * 31 + d[i]) | 0;
        return h;
    };
    const old = sample();
    const state = {t0: null, ts: null, t1: null};
    window.__klTiming = state;
    document.addEventListener('keydown', e => { if (state.t0 === null) state.t0 = e.timeStamp; },
                              {capture: true, once: true});
    const poll = () => {
        if (state.t1 !== null) return;
        if (sample() !== old) { state.t1 = performance.now(); state.ts = state.t1; return; }
        requestAnimationFrame(poll);
    };
    requestAnimationFrame(poll);
}"""


def _compare_notebook(path: Path, views) -> None:
    import nbformat

    cells = [nbformat.v4.new_code_cell("import kinematics_lib")]
    for num, (module, view, slider, (lo, hi, step, value)) in enumerate(views):
        cells.append(nbformat.v4.new_code_cell(
            f"from {module} import {view}\nfrom kinematics_lib.notebook.widgets import interactive_view\n"
            f"interactive_view({view}, {slider}=({lo}, {hi}, {step}, {value}))"))
        cells.append(nbformat.v4.new_code_cell(IPYMPL_CELL.format(module=module, view=view, slider=slider, lo=lo,
                                                                  hi=hi, step=step, value=value, num=num + 1)))
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)


def _presses(page, handle, arm, index, presses):
    times, key = [], "ArrowRight"
    handle.scroll_into_view_if_needed()
    handle.focus()
    for _ in range(presses):
        if key == "ArrowRight" and handle.evaluate(AT_MAX):
            key = "ArrowLeft"
        elif key == "ArrowLeft" and handle.evaluate(AT_MIN):
            key = "ArrowRight"
        page.evaluate(arm, index)
        handle.press(key)
        try:
            page.wait_for_function(_lab.DONE, timeout=PRESS_TIMEOUT_MS, polling=10)
            times.append(float(page.evaluate(_lab.ELAPSED)[0]))
        except Exception:
            pass
        page.wait_for_timeout(50)
    return times


def _stats(times):
    if not times:
        return "no new figure"
    q = statistics.quantiles(times, n=10) if len(times) > 1 else [times[0]] * 9
    return f"median {statistics.median(times):6.0f} ms, p90 {q[8]:6.0f} ms, n {len(times)}"


def compare_ipympl(presses: int) -> int:
    """Key press -> new figure for the PNG image widget and for ipympl, same view, same kernel;
    one JupyterLab (and notebook) per view."""
    import ipympl  # noqa: F401  (run with an environment that has it; it is not a dependency)

    print(f"ipympl {ipympl.__version__} against the PNG image widget, {presses} presses per view; "
          f"load average {_load()}")
    every = {"png": [], "ipympl": []}
    for view in IPYMPL_VIEWS:
        with tempfile.TemporaryDirectory(prefix="kl-bench-ipympl-") as tmp:
            root = Path(tmp) / "root"
            _compare_notebook(root / "chapters" / "compare.ipynb", [view])
            with _lab.lab_server(Path(tmp), root=root) as base, _lab.chromium() as browser:
                page = browser.new_page(viewport=_lab.VIEWPORT)
                _lab.open_notebook(page, base, "compare.ipynb")
                _lab.run_all(page)
                page.wait_for_function("() => document.querySelectorAll('.kl-ipympl canvas').length > 0",
                                       timeout=60_000)
                page.wait_for_timeout(2000)
                png = _presses(page, page.locator(".kl-interactive").first.locator(".noUi-handle").first,
                               _lab.ARM, 0, presses)
                mpl = _presses(page, page.locator(".kl-ipympl").first.locator(".noUi-handle").first,
                               ARM_IPYMPL, 0, presses)
        every["png"] += png
        every["ipympl"] += mpl
        print(f"  {view[1]:<28} PNG image widget: {_stats(png)};  ipympl: {_stats(mpl)}", flush=True)
    print(f"  {'all views':<28} PNG image widget: {_stats(every['png'])};  ipympl: {_stats(every['ipympl'])}")
    print(f"load average now {_load()}")
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("chapters", nargs="*", help="chapter file name prefixes (default: every chapter)")
    ap.add_argument("--quick", action="store_true", help="first slider and dropdown of each widget, 3 presses")
    ap.add_argument("--presses", type=int, default=None, help="presses per control (default 10, quick 3)")
    ap.add_argument("--ipympl", action="store_true",
                    help="compare ipympl (%%matplotlib widget) with the PNG image widget on a few views")
    args = ap.parse_args(argv)
    if args.presses is None:
        args.presses = 3 if args.quick else 10
    if args.ipympl:
        return compare_ipympl(max(args.presses, 20))
    if not Path(_lab.CHROMIUM).exists():
        sys.path.insert(0, str(ROOT))
        import tasks  # Debian's chromium through apt, when allowed (as `python3 tasks.py test` does)

        _lab.CHROMIUM = tasks.ensure_chromium() or _lab.CHROMIUM
    if not Path(_lab.CHROMIUM).exists():
        print(f"bench_browser: Chromium not found at {_lab.CHROMIUM} (python3 tasks.py test installs Debian's "
              "chromium; or set KL_CHROMIUM): skipped")
        return 0
    notebooks = sorted(p.name for p in (ROOT / "chapters").glob("*.ipynb")
                       if not args.chapters or any(p.name.startswith(c) for c in args.chapters))
    print(f"bench_browser: JupyterLab + Chromium ({_lab.CHROMIUM}), window {_lab.VIEWPORT['width']}x"
          f"{_lab.VIEWPORT['height']}, {args.presses} presses per control"
          f"{' (quick: first slider/dropdown of each widget)' if args.quick else ''}; budget {BUDGET_MS:.0f} ms median")
    print(f"machine: {os.cpu_count()} logical cores, Python {platform.python_version()}, load average {_load()}")
    summary = []
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="kl-bench-browser-") as tmp, \
            _lab.lab_server(Path(tmp)) as base, _lab.chromium() as browser:
        for notebook in notebooks:
            rows = bench_chapter(browser, base, notebook, args)
            times = [t for _, ts, _ in rows for t, _ in ts]
            if times:
                over = sum(statistics.median(t for t, _ in ts) > BUDGET_MS for _, ts, _ in rows if ts)
                summary.append((notebook, statistics.median(times), max(times), len(times), over, len(rows)))
    print(f"\nsummary (ms from key press to new figure; load average now {_load()}; {time.perf_counter() - t0:.0f} s):")
    print(f"  {'chapter':<40} {'median':>8} {'max':>8} {'n':>5}  controls over {BUDGET_MS:.0f} ms")
    for notebook, med, mx, n, over, total in summary:
        print(f"  {notebook:<40} {med:8.0f} {mx:8.0f} {n:>5}  {over}/{total}{'  OVER' if med > BUDGET_MS else ''}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

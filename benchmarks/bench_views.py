"""Time every slider callback and every static figure of the chapters (compute + PNG).

    .venv-dev/bin/python benchmarks/bench_views.py            # all chapters
    .venv-dev/bin/python benchmarks/bench_views.py 03 09      # chapters whose name starts so
    python3 tasks.py bench                                    # with the dynamics benchmark

Discovery (tools/sliders.py): each chapter's code cells run in this process in quick mode with
``interactive_view`` recording what it is given, so chapters added later are timed without
edits. A slider callback is timed as the widget runs it (``InteractiveView._render``: the view
function at the new slider values, then the PNG), one slider moved by one step per call, cycling
through the sliders; the median of ``--calls`` calls is compared with the budget (60 ms); "view ms" is the view
function alone (compute + building the figure), the difference is drawing and encoding the PNG. A static
figure (a cell whose last expression is a call returning a ``View``) is re-evaluated
``--static-calls`` times, PNG included; budget 300 ms. Times are CPU seconds of this thread
(``time.thread_time``), so other jobs on a shared machine do not inflate them; the wall-clock
median is printed beside them. Exit status 0 whatever the times (a benchmark, not a test).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tools")]
os.environ["KL_QUICK"] = "1"
os.environ.setdefault("MPLBACKEND", "Agg")

import sliders as catalog  # noqa: E402

SLIDER_BUDGET_MS = 60.0
STATIC_BUDGET_MS = 300.0


def _moves(iv, n: int):
    """n slider settings: from the initial values, one slider moved one step per call."""
    values = dict(iv.values)
    names = list(iv.sliders)
    direction = {name: 1 for name in names}
    for k in range(n):
        name = names[k % len(names)]
        spec = iv.sliders[name]
        if isinstance(spec, bool) or isinstance(values[name], bool):
            values[name] = not values[name]
        elif isinstance(spec, (list, tuple)) and spec and all(isinstance(s, str) for s in spec):
            values[name] = spec[(list(spec).index(values[name]) + 1) % len(spec)]
        elif isinstance(spec, tuple) and len(spec) == 4:
            lo, hi, step, _ = spec
            nxt = values[name] + direction[name] * step
            if not lo <= nxt <= hi:
                direction[name] *= -1
                nxt = values[name] + direction[name] * step
            values[name] = type(step)(round(nxt, 10)) if isinstance(step, float) else nxt
        yield dict(values)


def _time(fn, n: int):
    cpu, wall = [], []
    for _ in range(n):
        c0, w0 = time.thread_time(), time.perf_counter()
        fn()
        cpu.append(time.thread_time() - c0)
        wall.append(time.perf_counter() - w0)
    return 1e3 * statistics.median(cpu), 1e3 * statistics.median(wall)


def bench_chapter(path: Path, calls: int, static_calls: int):
    from kinematics_lib.notebook.widgets import View

    t0 = time.perf_counter()
    run = catalog.run_chapter(path)
    setup = time.perf_counter() - t0
    rows = []
    for rec in run.sliders:
        iv = rec.iv
        iv._render(iv.values)  # warm-up (caches, imports)
        settings = list(_moves(iv, calls))
        moves = iter(settings)
        cpu, wall = _time(lambda: iv._render(next(moves), compress_level=1), calls)
        # the split: the view function alone (compute + building the figure), the rest is the PNG
        moves = iter(settings)
        def view_only():
            with iv.slot.active():  # as the widget calls it: on its own figure
                iv.view_fn(**next(moves))
        view_cpu, _ = _time(view_only, calls)
        png = iv.initial.figure
        w, h = (round(v) for v in png.get_size_inches() * 90)
        rows.append(("slider", rec.id, rec.cell, cpu, wall, SLIDER_BUDGET_MS, f"{w}x{h}", view_cpu))
    for st in run.statics:
        def once():
            view = st.thunk()
            if isinstance(view, View):
                view.png()
        cpu, wall = _time(once, static_calls)
        rows.append(("static", st.id, st.cell, cpu, wall, STATIC_BUDGET_MS, "", float("nan")))
    return rows, setup


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("chapters", nargs="*", help="chapter name prefixes (default: all)")
    ap.add_argument("--calls", type=int, default=10, help="slider callbacks timed per view")
    ap.add_argument("--static-calls", type=int, default=3, help="evaluations per static figure")
    ap.add_argument("--quick", action="store_true", help="5 callbacks and 1 static evaluation each")
    args = ap.parse_args(argv)
    if args.quick:
        args.calls, args.static_calls = 5, 1
    from kinematics_lib.notebook.benchmarking import machine_description, single_threaded_blas

    print("== slider callbacks and static figures (compute + PNG), ms, median ==")
    print(machine_description())
    paths = [p for p in catalog.chapters() if not args.chapters or any(p.name.startswith(c) for c in args.chapters)]
    over = []
    print(f"{'kind':6} {'view':40} {'cell':>4} {'cpu ms':>8} {'wall ms':>8} {'view ms':>8} {'budget':>6} {'size px':>9}")
    with single_threaded_blas():
        for path in paths:
            try:
                rows, setup = bench_chapter(path, args.calls, args.static_calls)
            except Exception as exc:  # a chapter being written may not run yet: say so, go on
                print(f"{path.name}: could not run ({type(exc).__name__}: {exc})")
                continue
            for kind, name, cell, cpu, wall, budget, size, view_cpu in rows:
                flag = "  OVER" if cpu > budget else ""
                split = f"{view_cpu:8.1f}" if view_cpu == view_cpu else f"{'':8}"
                print(f"{kind:6} {name:40} {cell:4d} {cpu:8.1f} {wall:8.1f} {split} {budget:6.0f} {size:>9}{flag}")
                if flag:
                    over.append(f"{name} ({cpu:.0f} ms > {budget:.0f} ms)")
    print(f"over budget: {len(over)}" + ("" if not over else ": " + ", ".join(over)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

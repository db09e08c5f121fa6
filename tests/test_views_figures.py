"""Every figure of every chapter (issue 19, items 3 and 7), found by ``tools/sliders.py`` -- chapters
added later included:

* **the same bytes on another machine.** ``tasks.py execute`` on an unchanged tree rewrote chapter
  8's M(q) figure: its colour scale started at the smallest |M_ij|, a round-off value (1e-17 where
  the exact entry is 0) that changes with the order of floating-point operations -- another BLAS
  kernel, another CPU, a refactored CRBA. Here two fresh processes run every chapter (quick mode)
  and render the initial figure of every slider view and every static figure; the second process
  uses another OpenBLAS kernel (``OPENBLAS_CORETYPE``, x86-64 only), as another machine would. Every
  PNG and every text must be byte-identical. (The old M(q) figure fails this.)
* **text at least 10 px** at 100 % zoom (points x dpi / 72) for every visible text of every figure:
  titles, axis and tick labels, legend entries, annotations, colour-bar labels;
* chapter 8, executed twice in a temporary copy (nbclient, as ``tasks.py execute`` does), gives
  byte-identical notebooks; and a readout never wraps inside a number or a unit.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tools")]
import sliders as catalog  # noqa: E402

from kinematics_lib.notebook.plotting import MIN_FONT_PT, magnitude_image, new_figure, text_sizes_px  # noqa: E402
from kinematics_lib.notebook.widgets import DPI, View, figure_png  # noqa: E402

MIN_TEXT_PX = MIN_FONT_PT * DPI / 72.0  # 10 px
#: A second OpenBLAS kernel for the other process (x86-64): its dot products round differently.
OTHER_BLAS = {"OPENBLAS_CORETYPE": "Prescott"} if platform.machine().lower() in ("x86_64", "amd64") else {}
#: Figures whose subject is round-off or chaos: they plot errors of 1e-16..1e-10 (or a trajectory
#: that amplifies them), or project 3-D points whose last bits move a line across a pixel edge. On
#: another BLAS kernel their pixels may differ (their text may not); in two runs on one machine --
#: what ``tasks.py execute`` compares -- they are identical like every other figure.
ROUND_OFF_FIGURES = {
    "01:frame_view": "3-D projection",
    "02:puma560_view": "3-D projection",
    "03:drift_view": "log plot of a drift that starts at round-off",
    "03:ik_convergence_view": "log plot of IK errors down to 1e-16",
    "04:energy_curves_view": "log plot of energy errors down to 1e-10 on a chaotic motion",
    "06:quaternion_drift_figure": "the exponential map's error is round-off (1e-14)",
    "11:noisy_identification_view": "least-squares fits plotted to the last pixel",
}


def survey(paths) -> dict:
    """key -> {png sha256, text, smallest texts} of every chapter figure: the initial figure of each
    slider view and each static figure (a cell ending in a call returning a View), run in quick mode."""
    out = {}
    for path in paths:
        run = catalog.run_chapter(Path(path))
        views = [(f"{rec.id}@{rec.cell}", lambda rec=rec: rec.iv.initial) for rec in run.sliders]
        views += [(f"{st.id}@{st.cell}", st.thunk) for st in run.statics]
        for key, make in views:
            view = make()
            png = view.png()
            sizes = text_sizes_px(view.figure)
            out[key] = {"png": hashlib.sha256(png).hexdigest(), "text": view.text,
                        "min_px": min((px for _, px in sizes), default=99.0),
                        "small": sorted({f"{t!r} {px:.1f} px" for t, px in sizes if px < MIN_TEXT_PX - 1e-9})[:6]}
    return out


def _run_survey(env_extra: dict, out: Path) -> dict:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
           "KL_QUICK": "1", "MPLBACKEND": "Agg", "PYTHONHASHSEED": "0", **env_extra}
    subprocess.run([sys.executable, __file__, str(out)], env=env, check=True, cwd=ROOT, timeout=900)
    return json.loads(out.read_text())


@pytest.fixture(scope="module")
def surveys(tmp_path_factory):
    """(A, B): the survey in two fresh processes at once; B with another BLAS kernel and another
    string-hash seed (set iteration order)."""
    tmp = tmp_path_factory.mktemp("figures")
    with ThreadPoolExecutor(2) as pool:
        a = pool.submit(_run_survey, {}, tmp / "a.json")
        b = pool.submit(_run_survey, {**OTHER_BLAS, "PYTHONHASHSEED": "1"}, tmp / "b.json")
        return a.result(), b.result()


def test_every_chapter_figure_is_the_same_in_another_process(surveys):
    a, b = surveys
    assert a.keys() == b.keys() and len(a) >= 40, f"{len(a)} figures found"
    texts = [k for k in a if a[k]["text"] != b[k]["text"]]
    assert not texts, f"texts differ between two runs: {[(k, a[k]['text'], b[k]['text']) for k in texts]}"
    pngs = [k for k in a if a[k]["png"] != b[k]["png"] and k.split("@")[0] not in ROUND_OFF_FIGURES]
    assert not pngs, (f"figures differ between two runs (other BLAS kernel: {OTHER_BLAS}): {pngs} -- a colour "
                      "scale, a limit or a count set by round-off? (plotting.magnitude_image, steady_limits)")


def test_every_chapter_figure_has_text_of_at_least_10_px(surveys):
    small = {k: v["small"] for k, v in surveys[0].items() if v["min_px"] < MIN_TEXT_PX - 1e-9}
    assert not small, f"text smaller than {MIN_TEXT_PX:.0f} px (fontsize < {MIN_FONT_PT} pt at {DPI} dpi): {small}"


def test_text_sizes_sees_legends_ticks_and_annotations():
    fig, ax = new_figure()
    ax.plot([0, 1], [0, 1], label="a line")
    ax.legend(fontsize=6)
    ax.annotate("note", (0.5, 0.5), fontsize=20)
    ax.set_title("title")
    figure_png(fig)
    sizes = dict(text_sizes_px(fig))
    assert sizes["a line"] == pytest.approx(6 * DPI / 72) and sizes["note"] == pytest.approx(20 * DPI / 72)
    assert sizes["title"] > MIN_TEXT_PX and any(t == "0.0" for t in sizes)  # a tick label


def test_magnitude_image_does_not_depend_on_round_off():
    """The old chapter 8 figure set its colour scale from the smallest |M_ij|: 1e-17 or 1e-18 of
    round-off changed every pixel. Two matrices that differ only by round-off give the same PNG."""
    rng = np.random.default_rng(3)
    M = np.kron(np.eye(3), rng.uniform(0.01, 5.0, (3, 3)))
    M[0, 0] = 30.0
    noisy = M.copy()
    noisy[0, 3] = noisy[3, 0] = 3e-17           # an exact zero computed with round-off
    noisy[4, 4] *= 1.0 + 2.2e-16
    pngs, zeros = [], []
    for A in (M, noisy):
        fig, ax = new_figure(size=(3.0, 3.0))
        zeros.append(magnitude_image(ax, A)[1])
        pngs.append(figure_png(fig))
    assert pngs[0] == pngs[1] and zeros == [54, 54]


def test_chapter_8_executes_to_the_same_bytes_twice(tmp_path):
    """What ``tasks.py execute`` does to chapter 8, twice, in a temporary copy: nothing changes."""
    pytest.importorskip("nbclient")
    import nbtools

    name = "08_anymal_case_study.ipynb"
    (tmp_path / "chapters").mkdir()
    nb = tmp_path / "chapters" / name
    shutil.copy(ROOT / "chapters" / name, nb)
    env = os.environ.pop("KL_QUICK", None)  # nbtools.execute runs in full mode, as tasks.py execute
    try:
        nbtools.execute(nb)
        first = nb.read_bytes()
        nbtools.execute(nb)
    finally:
        if env is not None:
            os.environ["KL_QUICK"] = env
    assert nb.read_bytes() == first


if __name__ == "__main__":  # the worker of the survey fixture: python tests/test_views_figures.py OUT.json [NN ...]
    out, prefixes = Path(sys.argv[1]), sys.argv[2:]
    paths = [p for p in catalog.chapters() if not prefixes or any(p.name.startswith(c) for c in prefixes)]
    out.write_text(json.dumps(survey(paths), indent=1, sort_keys=True))

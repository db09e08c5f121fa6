"""The book web site (issue 20): build it, serve it on 127.0.0.1, open every page in Chromium.

The build uses the docs environment (``requirements/docs.txt``), which ``python3 tasks.py test``
installs and passes here as ``KL_DOCS_PYTHON``; without it (or without Chromium) the browser part
is skipped, and fails when ``KL_REQUIRE_BROWSER=1`` (CI). The staging checks at the top need only
the standard library and run everywhere. Nothing is downloaded: the site is served from a
temporary folder by a server in this process, and a request anywhere else fails the test.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import importlib.util
import json
import os
import re
import subprocess
import sys
import threading
import urllib.parse
from pathlib import Path

import pytest

import _lab

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("kl_site_tool", ROOT / "tools" / "site.py")
site_tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(site_tool)

CHAPTERS = sorted(p.name for p in (ROOT / "chapters").glob("*.ipynb"))
ZH_CHAPTERS = sorted(p.name for p in (ROOT / "chapters" / "zh").glob("*.ipynb"))   # the Chinese edition
SLIDER_ZH = "在 JupyterLab 中可交互"
EXERCISES = sorted(p.name for p in (ROOT / "exercises").glob("*.ipynb"))
PHONE = {"width": 390, "height": 844}


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _text(cell) -> str:
    return cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])


def _slider_cells(path: Path) -> int:
    return sum(1 for c in _cells(path) if c["cell_type"] == "code" and site_tool.SLIDER_CALL in _text(c)
               and c.get("outputs"))


# ----------------------------------------------------------------------- staging (no Sphinx)
@pytest.fixture(scope="module")
def staged(tmp_path_factory):
    where = tmp_path_factory.mktemp("site-src") / "src"
    counts = site_tool.stage(False, where)
    return where, counts


def test_stage_takes_exercises_as_released_never_solutions(staged):
    where, counts = staged
    assert counts["solutions"] == 0 and not (where / "solutions").exists()
    assert sorted(p.name for p in (where / "exercises").glob("*.ipynb")) == EXERCISES
    for name in EXERCISES:
        text = (where / "exercises" / name).read_text(encoding="utf-8")
        assert "BEGIN SOLUTION" not in text and "NotImplementedError" in text, name


def test_stage_keeps_every_cell_and_adds_the_boxes(staged):
    """The staged chapter is the committed one plus the run box and one note per slider cell:
    every original cell (outputs included) is there, unchanged, in order."""
    where, counts = staged
    assert counts["sliders"] == sum(_slider_cells(ROOT / "chapters" / c) for c in CHAPTERS) > 0
    for name in CHAPTERS:
        original, staged_cells = _cells(ROOT / "chapters" / name), _cells(where / "chapters" / name)
        assert len(staged_cells) == len(original) + 2 + _slider_cells(ROOT / "chapters" / name)
        kept = [c for c in staged_cells if not str(c.get("id", "")).startswith("kl-site-")]
        title, _, rest = _text(original[0]).partition("\n")
        assert _text(staged_cells[0]).strip() == title
        assert [c.get("outputs") for c in kept[1:]] == [c.get("outputs") for c in original[1:]], name
        assert "Run this chapter" in _text(staged_cells[1])
        assert (where / site_tool.ORIGINALS / "chapters" / name).read_bytes() == (ROOT / "chapters" / name).read_bytes()


def test_stage_reference_pages_come_from_their_sources(staged):
    where, _ = staged
    glossary = (where / "glossary.md").read_text(encoding="utf-8")
    assert "浮动基座" in glossary and "floating base" in glossary
    assert (where / "docs" / "notation.md").read_bytes() == (ROOT / "docs" / "notation.md").read_bytes()
    conventions = (where / "conventions.md").read_text(encoding="utf-8")
    assert "(x, y, z, w)" in conventions and "checked in" in conventions
    index = (where / "index.md").read_text(encoding="utf-8")
    for name in CHAPTERS:
        assert f"(chapters/{name})" in index, f"landing page does not link {name}"


def test_a_rebuild_never_deletes_a_file_it_did_not_write(tmp_path):
    """The build empties its output folder only when every file there is one it wrote, unchanged:
    a notebook a reader saved into site/ (a new file, or an edited download) is never deleted."""
    out = tmp_path / "site"
    (out / "chapters").mkdir(parents=True)
    (out / "index.html").write_text("<html></html>")
    (out / "chapters" / "05.ipynb").write_text("{}")
    assert sorted(site_tool.files_not_built(out)) == ["chapters/05.ipynb", "index.html"]  # no manifest yet
    site_tool.write_manifest(out)
    assert site_tool.files_not_built(out) == []
    (out / "chapters" / "05.ipynb").write_text('{"cells": ["my answer"]}')
    (out / "my_copy.ipynb").write_text("{}")
    assert sorted(site_tool.files_not_built(out)) == ["chapters/05.ipynb", "my_copy.ipynb"]
    with pytest.raises(SystemExit, match="did not write"):
        site_tool.main(["--out", str(out), "--work", str(tmp_path / "work")])
    assert (out / "my_copy.ipynb").exists() and "my answer" in (out / "chapters" / "05.ipynb").read_text()


def test_stage_of_the_chinese_edition(tmp_path):
    """site/zh/: the translated chapters with Chinese boxes; the start page lists every chapter,
    the untranslated ones as links to their English pages."""
    counts = site_tool.stage_zh(tmp_path / "src")
    assert counts["chapters"] == len(ZH_CHAPTERS) > 0
    index = (tmp_path / "src" / "index.md").read_text(encoding="utf-8")
    for c in CHAPTERS:
        stem = c[:-6]
        assert (f"](chapters/{c})" in index) == (c in ZH_CHAPTERS), c
        assert (f'href="../chapters/{stem}.html"' in index) == (c not in ZH_CHAPTERS), c
    staged = (tmp_path / "src" / "chapters" / ZH_CHAPTERS[0]).read_text(encoding="utf-8")
    assert "运行本章" in staged and SLIDER_ZH in staged
    assert site_tool.docnames(tmp_path / "src") == sorted(["index"] + [f"chapters/{c[:-6]}" for c in ZH_CHAPTERS]
                                                         + [f"exercises/{e.name[:-6]}" for e in
                                                            (ROOT / "exercises" / "zh").glob("*.ipynb")])


def test_binder_link_from_one_repository_url(monkeypatch):
    monkeypatch.setenv("KL_SITE_REPOSITORY", "https://github.com/someone/kinematics.git")
    monkeypatch.setenv("KL_SITE_BRANCH", "main")
    repo, branch = site_tool.repository()
    assert (repo, branch) == ("https://github.com/someone/kinematics", "main")
    link = site_tool.binder_link(repo, branch, "chapters/05_newton_euler_recursive.ipynb")
    assert "https://mybinder.org/v2/gh/someone/kinematics/main?labpath=chapters%2F05_newton_euler_recursive.ipynb" in link
    monkeypatch.setenv("KL_SITE_REPOSITORY", "not a url")
    monkeypatch.setattr(site_tool, "ROOT", Path("/nonexistent"))
    assert site_tool.repository()[0] is None


# --------------------------------------------------------------------- the site in a browser
def _require(what: str, ok: bool) -> None:
    if not ok:
        if os.environ.get("KL_REQUIRE_BROWSER") == "1":
            pytest.fail(f"{what} missing but KL_REQUIRE_BROWSER=1")
        pytest.skip(f"{what} missing (python3 tasks.py test installs it)")


@pytest.fixture(scope="module")
def site(tmp_path_factory, pytestconfig):
    docs_python = os.environ.get("KL_DOCS_PYTHON", "")
    _require("the docs environment (KL_DOCS_PYTHON)", bool(docs_python) and Path(docs_python).exists())
    _require(f"Chromium ({_lab.CHROMIUM})", Path(_lab.CHROMIUM).exists())
    tmp = tmp_path_factory.mktemp("site")
    run = subprocess.run([docs_python, str(ROOT / "tools" / "site.py"), "--quiet", "--out", str(tmp / "site"),
                          "--work", str(tmp / "work")], cwd=ROOT, capture_output=True, text=True,
                         env={k: v for k, v in os.environ.items() if not k.startswith("KL_SITE_")})
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    summary = [line for line in run.stdout.splitlines() if line.startswith("[site] built")]
    reporter = pytestconfig.pluginmanager.get_plugin("terminalreporter")
    if reporter and summary:
        reporter.write_line("\n" + summary[-1])
    return tmp / "site"


class _Handler(http.server.SimpleHTTPRequestHandler):
    log = None

    def log_message(self, *args):  # quiet
        pass

    def send_head(self):
        del self.headers["If-Modified-Since"]   # always the full answer: every request must be a 200
        return super().send_head()

    def log_request(self, code="-", size="-"):
        self.log.append((self.path, int(code) if str(code).isdigit() else code))


@pytest.fixture(scope="module")
def server(site):
    log: list = []
    handler = type("H", (_Handler,), {"log": log})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(site)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", log
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture(scope="module")
def browser(site):
    with _lab.chromium() as b:
        yield b


def _pages(site: Path) -> list[str]:
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html")
                  if not any(part.startswith("_") for part in p.relative_to(site).parts))


_INSPECT = """async () => {
    if (window.MathJax && MathJax.startup && MathJax.startup.promise) { await MathJax.startup.promise; }
    await document.fonts.ready;
    const imgs = [...document.images];
    await Promise.all(imgs.map(i => i.complete ? null : new Promise(r => { i.onload = i.onerror = r; })));
    const art = document.querySelector('article.bd-article') || document.body;
    const maths = [...art.querySelectorAll('.math')];
    return {
        title: document.title,
        images: imgs.map(i => ({src: i.getAttribute('src'), natural: [i.naturalWidth, i.naturalHeight],
                                shown: [i.getBoundingClientRect().width, i.getBoundingClientRect().height],
                                visible: i.offsetParent !== null})),
        links: [...document.querySelectorAll('a[href]')].map(a => a.href),
        maths: maths.length, typeset: maths.filter(m => m.querySelector('mjx-container')).length,
        rawDollars: (art.innerText.match(/\\$\\$/g) || []).length,
        codeOverflow: [...art.querySelectorAll('.cell_input pre')]
            .filter(p => p.scrollWidth > p.clientWidth + 1).map(p => p.innerText.split('\\n').find(l => l.length > 60) || p.innerText.slice(0, 80)),
        pageWidth: document.documentElement.scrollWidth,
        sourceSays: art.querySelectorAll('.admonition.kl-source-says').length,
        sliderNotes: art.querySelectorAll('p.kl-slider-note').length,
        runBox: art.querySelectorAll('.admonition.kl-run-box').length,
        downloads: [...art.querySelectorAll('.kl-run-box a.download, .kl-run-box a[download]')].map(a => a.href),
        prevNext: document.querySelectorAll('.prev-next-area a').length,
        pageToc: document.querySelectorAll('.bd-sidebar-secondary nav.page-toc a, #bd-toc-nav a').length,
        langSwitch: [...document.querySelectorAll('a.kl-lang-switch')].map(a => a.href),
    };
}"""


def _open(context, url: str, base: str):
    """Open ``url``; returns (page, report of the page) with its requests, console errors and statuses."""
    page = context.new_page()
    seen = {"outside": [], "bad": [], "console": []}
    page.on("request", lambda r: None if r.url.startswith(base + "/") or r.url.startswith("data:")
            or r.url.startswith("blob:") else seen["outside"].append(r.url))
    page.on("response", lambda r: None if r.status == 200 else seen["bad"].append((r.url, r.status)))
    page.on("requestfailed", lambda r: seen["bad"].append((r.url, r.failure)))
    page.on("console", lambda m: seen["console"].append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: seen["console"].append(str(e)))
    pending: set = set()
    page.on("request", lambda r: pending.add(r.url))
    page.on("requestfinished", lambda r: pending.discard(r.url))
    page.on("requestfailed", lambda r: pending.discard(r.url))
    page.goto(url, wait_until="load")
    info = page.evaluate(_INSPECT)   # waits for MathJax, the images and the fonts
    with contextlib.suppress(Exception):   # reported below as "never answered" if it does not settle
        page.wait_for_function("() => document.fonts.status === 'loaded'", timeout=10_000)
    seen["bad"] += [(u, "never answered") for u in sorted(pending)]
    return page, info, seen


def _nb_title(path: Path) -> str:
    return next(line[2:].strip() for line in _text(_cells(path)[0]).splitlines() if line.startswith("# "))


@pytest.mark.browser
def test_every_page_in_a_browser(site, server, browser):
    """Every page: HTTP 200 for everything it loads, nothing outside 127.0.0.1, no console error,
    every image loaded at (never above) its natural size, math typeset (no raw $$), every
    internal link and anchor resolves, code cells without horizontal scroll at 1400 px, one
    column at 390 px; chapter pages have the run box, the callouts, the slider notes."""
    base, log = server
    pages = _pages(site)
    assert {"index.html", "glossary.html", "conventions.html", "docs/notation.html"} <= set(pages)
    assert {f"chapters/{c[:-6]}.html" for c in CHAPTERS} <= set(pages)
    assert {f"exercises/{e[:-6]}.html" for e in EXERCISES} <= set(pages)
    assert not any(p.startswith("solutions/") for p in pages)
    assert {f"zh/chapters/{c[:-6]}.html" for c in ZH_CHAPTERS} | ({"zh/index.html"} if ZH_CHAPTERS else set()) <= set(pages)
    problems, links = [], set()
    wide = browser.new_context(viewport=_lab.VIEWPORT)
    try:
        for rel in pages:
            page, info, seen = _open(wide, f"{base}/{rel}", base)
            if rel.startswith("chapters/"):   # the same page on a phone: one column, nothing wider
                page.set_viewport_size(PHONE)
                width = page.evaluate("""() => new Promise(r => requestAnimationFrame(() =>
                                         requestAnimationFrame(() => r(document.documentElement.scrollWidth))))""")
                if width > PHONE["width"] + 1:
                    problems.append(f"{rel}: {width} px wide at {PHONE['width']} px (not one column)")
            page.close()
            where = rel
            problems += [f"{where}: request outside the site: {u}" for u in seen["outside"]]
            problems += [f"{where}: {u} answered {s}" for u, s in seen["bad"]]
            problems += [f"{where}: console error: {t}" for t in seen["console"]]
            for img in info["images"]:
                if img["natural"][0] == 0:
                    problems.append(f"{where}: image {img['src']} did not load")
                elif img["visible"] and img["shown"][0] > img["natural"][0] + 1:
                    problems.append(f"{where}: image {img['src']} upscaled {img['natural']} -> {img['shown']}")
            if info["codeOverflow"]:
                problems.append(f"{where}: code cells scroll horizontally at 1400 px: {info['codeOverflow'][:3]}")
            if info["rawDollars"]:
                problems.append(f"{where}: {info['rawDollars']} raw $$ left")
            if info["typeset"] != info["maths"]:
                problems.append(f"{where}: {info['maths'] - info['typeset']} of {info['maths']} formulas not typeset")
            if rel not in ("index.html", "zh/index.html") and Path(rel).name not in ("search.html", "genindex.html") \
                    and not info["prevNext"]:
                problems.append(f"{where}: no previous/next links")
            links.update(info["links"])
            if ZH_CHAPTERS and Path(rel).name not in ("search.html", "genindex.html"):
                if len(info["langSwitch"]) != 1:   # English / 中文 on every page (its target is checked below)
                    problems.append(f"{where}: {len(info['langSwitch'])} language switches")
                elif rel.startswith(("chapters/", "zh/chapters/")) and Path(rel).name in {
                        c[:-6] + ".html" for c in ZH_CHAPTERS} and not info["langSwitch"][0].endswith(
                        ("chapters/" if rel.startswith("zh/") else "zh/chapters/") + Path(rel).name):
                    problems.append(f"{where}: the language switch does not lead to the same chapter")
            if rel.startswith("chapters/"):
                nb = ROOT / "chapters" / (Path(rel).stem + ".ipynb")
                if not info["title"].startswith(_nb_title(nb)):
                    problems.append(f"{where}: page title {info['title']!r} is not the chapter title")
                if info["maths"] == 0:
                    problems.append(f"{where}: no math on a chapter page")
                if info["runBox"] != 1 or not any(u.endswith(".ipynb") for u in info["downloads"]):
                    problems.append(f"{where}: run box with the notebook download missing")
                if info["sliderNotes"] != _slider_cells(nb):
                    problems.append(f"{where}: {info['sliderNotes']} slider notes, {_slider_cells(nb)} slider cells")
                callouts = sum(len(re.findall(r"(?:^|[.:]\s+|>\s*)\*\*The source says\*\*", _text(c), re.M))
                               for c in _cells(nb) if c["cell_type"] == "markdown")
                if info["sourceSays"] != callouts:
                    problems.append(f"{where}: {info['sourceSays']} source-says admonitions, {callouts} callouts")
                if not info["pageToc"]:
                    problems.append(f"{where}: no table of contents of the page")
        # every internal link resolves (a file of the site; its anchor exists in it)
        cache: dict[str, str] = {}
        for url in sorted(links):
            if not url.startswith(base + "/"):
                continue
            parts = urllib.parse.urlsplit(url)
            path = urllib.parse.unquote(parts.path).lstrip("/")
            target = site / path
            if target.is_dir():
                target = target / "index.html"
            if not target.is_file():
                problems.append(f"broken internal link {url}")
                continue
            if parts.fragment and target.suffix == ".html":
                html = cache.setdefault(str(target), target.read_text(encoding="utf-8"))
                if f'id="{parts.fragment}"' not in html:
                    problems.append(f"broken anchor {url}")
    finally:
        wide.close()
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:60])
    assert all(code == 200 for _, code in log), [entry for entry in log if entry[1] != 200][:10]


@pytest.mark.browser
@pytest.mark.parametrize("query, expected", [("浮动基座", "glossary.html"), ("floating base", "glossary.html"),
                                             ("rnea", "chapters/05_newton_euler_recursive.html"),
                                             ("伴随变换", "zh/chapters/02_rigid_motions_dh.html"),
                                             ("麦克纳姆轮", "zh/chapters/09_mecanum_wheels.html")])
def test_search_finds(site, server, browser, query, expected):
    """The English search, and the Chinese edition's search (site/zh/search.html) on Chinese text."""
    base, _ = server
    edition = "zh/" if expected.startswith("zh/") else ""
    if edition and not (ROOT / "chapters" / "zh" / Path(expected).with_suffix(".ipynb").name).exists():
        pytest.fail(f"{expected} is not in the Chinese edition: update this test")
    context = browser.new_context(viewport=_lab.VIEWPORT)
    try:
        page = context.new_page()
        page.goto(f"{base}/{edition}search.html?q={urllib.parse.quote(query)}")
        page.wait_for_selector("#search-results ul.search li", timeout=30_000)
        page.wait_for_function("() => !document.querySelector('#search-progress') || "
                               "document.querySelector('#search-progress').innerText.trim() === ''",
                               timeout=30_000)
        found = page.eval_on_selector_all("#search-results ul.search li a", "as => as.map(a => a.href)")
    finally:
        context.close()
    assert any(urllib.parse.urlsplit(u).path.lstrip("/") == expected for u in found), (query, found[:15])


@pytest.mark.browser
def test_print_stylesheet(site, server, browser):
    """Print to PDF: navigation, sidebars and the run box hidden, code wrapped instead of cut."""
    base, _ = server
    context = browser.new_context(viewport=_lab.VIEWPORT)
    try:
        page = context.new_page()
        page.goto(f"{base}/chapters/{CHAPTERS[4][:-6]}.html", wait_until="load")
        page.emulate_media(media="print")
        shown = page.evaluate("""() => ({
            hidden: ['.bd-sidebar-primary', '.bd-sidebar-secondary', '.bd-header', '.prev-next-area', '.kl-run-box']
                .map(s => document.querySelector(s)).filter(e => e && getComputedStyle(e).display !== 'none').map(e => e.className),
            wrap: getComputedStyle(document.querySelector('.cell_input pre')).whiteSpace})""")
        pdf = page.pdf(format="A4")
    finally:
        context.close()
    assert shown["hidden"] == [], shown
    assert shown["wrap"] == "pre-wrap", shown
    assert pdf[:5] == b"%PDF-" and pdf.count(b"/Type /Page") > 5


def test_with_solutions_adds_them_for_instructors(tmp_path):
    """``--with-solutions`` stages solutions/ beside the exercises (the default never does)."""
    counts = site_tool.stage(True, tmp_path / "src")
    assert counts["solutions"] == len(EXERCISES)
    assert "BEGIN SOLUTION" in (tmp_path / "src" / "solutions" / EXERCISES[0]).read_text(encoding="utf-8")
    assert "solutions/" in (tmp_path / "src" / "index.md").read_text(encoding="utf-8")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX paths")
def test_site_refuses_to_delete_a_foreign_folder(tmp_path):
    """--out pointing at a folder that is not a previous build is left alone."""
    mine = tmp_path / "notes"
    mine.mkdir()
    (mine / "essay.txt").write_text("mine")
    with contextlib.suppress(SystemExit):
        site_tool.main(["--out", str(mine), "--work", str(tmp_path / "work")])
    assert (mine / "essay.txt").read_text() == "mine"

#!/usr/bin/env python3
"""Build the book web site ``site/`` from the committed, executed notebooks (nothing is executed).

    python tools/site.py [--out site] [--with-solutions]      (run with the docs environment's Python;
                                                              ``python3 tasks.py site`` does that)

Sphinx + myst-nb + sphinx-book-theme; configuration, extension and style sheet in ``docs/site/``.
The Sphinx source folder is *staged* in ``build/site-src/`` from the repository, so no text is kept
twice in git:

* ``index.md``       the README's title, introduction and "What the collection covers" (its notebook
                     names become links), then the exercises and reference pages;
* ``chapters/``      the chapters as committed, with a "Run this chapter" box after the title
                     (download, exercise page, the two README commands, a Binder link) and the line
                     "interactive in JupyterLab" under every slider cell's static figure;
* ``exercises/``     the exercises as released to students (``exercises/``); ``--with-solutions``
                     adds ``solutions/`` (instructors only: never publish that build);
* ``conventions.md`` the README's "Conventions" section and chapter 1's conventions table;
* ``glossary.md``    chapter 1's bilingual glossary (its section "Glossary" up to the summary);
* ``docs/notation.md`` the notation page as it is in ``docs/`` (chapter 1 links to it there).

The Chinese edition (``chapters/zh``, ``exercises/zh``, written by tools/translate.py) is a second
Sphinx build of the same configuration into ``site/zh/``: its start page from ``README.zh.md`` and
a table of every chapter (untranslated ones link to the English page); every page of either
edition links the other (the same page when it exists there) in its header.

The Binder links are built from one repository URL: ``KL_SITE_REPOSITORY`` (e.g.
``https://github.com/OWNER/REPO``; ``KL_SITE_BRANCH``, default ``main``), else the ``origin``
remote when it is on GitHub; without either the box says so instead of linking.
Prints the build time and the number of pages. Standard library only, except Sphinx itself
(run as ``python -m sphinx`` in the docs environment).
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONF = ROOT / "docs" / "site"
STAGE = ROOT / "build" / "site-src"
DOCTREES = ROOT / "build" / "site-doctrees"
ORIGINALS = "_notebooks"   # the notebooks as committed, for the download links (not pages)
SLIDER_CALL = "interactive_view("
SLIDER_NOTE = ("*▶ Interactive in JupyterLab:* the figure above is the static view at the sliders' "
               "initial values; run the chapter in JupyterLab to move them.")
SLIDER_NOTE_ZH = ("*▶ 在 JupyterLab 中可交互：* 上图是滑块初始值下的静态视图；在 JupyterLab 中运行本章，"
                  "即可拖动滑块。")
ZH = "zh"    # the Chinese edition: chapters/zh, exercises/zh (tools/translate.py) -> site/zh/
RUN_COMMANDS = ("python3 tasks.py lab    # install the student environment and open JupyterLab\n"
                "python3 tasks.py test   # install the development environment and run every test")


# ----------------------------------------------------------------------------------- sources
def _md_sections(text: str, level: int = 2) -> dict[str, str]:
    """The ``##`` sections of a markdown text by title (code fences respected), text without the heading."""
    out, title, buf, fence = {}, None, [], False
    for line in text.splitlines():
        if line.startswith("```"):
            fence = not fence
        if not fence and re.match(rf"^#{{{level}}} ", line):
            if title is not None:
                out[title] = "\n".join(buf).strip() + "\n"
            title, buf = line[level + 1:].strip(), []
        elif title is not None:
            buf.append(line)
    if title is not None:
        out[title] = "\n".join(buf).strip() + "\n"
    return out


def _section(sections: dict[str, str], title: str, where: str) -> str:
    if title not in sections:
        sys.exit(f"[site] {where} has no section '## {title}' (the site takes a page from it)")
    return sections[title]


def _source(cell) -> str:
    return cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])


def _markdown_cell(text: str) -> dict:
    return {"cell_type": "markdown", "id": "", "metadata": {}, "source": text}


def repository() -> tuple[str | None, str]:
    """(GitHub repository URL or None, branch) for the Binder links."""
    url = os.environ.get("KL_SITE_REPOSITORY", "").strip()
    if not url:
        try:
            url = subprocess.run(["git", "remote", "get-url", "origin"], cwd=ROOT, capture_output=True,
                                 text=True, check=False).stdout.strip()
        except OSError:
            url = ""
    m = re.match(r"^(?:https://github\.com/|git@github\.com:)([\w.-]+)/([\w.-]+?)(?:\.git)?/?$", url)
    branch = os.environ.get("KL_SITE_BRANCH", "main").strip() or "main"
    return (f"https://github.com/{m.group(1)}/{m.group(2)}" if m else None), branch


def binder_link(repo: str | None, branch: str, path: str) -> str:
    if repo is None:
        return ("a Binder link appears here when the site is built with `KL_SITE_REPOSITORY` set to "
                "the repository's GitHub URL (the publishing workflow sets it)")
    owner_name = repo.removeprefix("https://github.com/")
    return (f"[launch this notebook on Binder](https://mybinder.org/v2/gh/{owner_name}/{branch}"
            f"?labpath={path.replace('/', '%2F')}) (Binder builds `environment.yml`; the first start takes minutes)")


# ------------------------------------------------------------------------------- notebooks
def _box(title: str, lines: list[str], css: str) -> str:
    body = "\n".join(lines)
    return f"````{{admonition}} {title}\n:class: {css}\n\n{body}\n````\n"


def stage_notebook(src: Path, dst: Path, box: str, note: str = SLIDER_NOTE, links=None) -> int:
    """Copy a notebook, insert ``box`` after its title and the slider note under every slider cell
    (``links``: a function that rewrites the links of a markdown text); returns the number of
    slider cells."""
    nb = json.loads(src.read_text(encoding="utf-8"))
    cells, sliders = [], 0
    for k, cell in enumerate(nb["cells"]):
        cell = copy.deepcopy(cell)
        if links is not None and cell["cell_type"] == "markdown":
            cell["source"] = links(_source(cell))
        text = _source(cell)
        if k == 0 and cell["cell_type"] == "markdown" and text.startswith("# "):
            title, _, rest = text.partition("\n")
            cells.append(dict(cell, source=title + "\n"))   # the original cell (its id) keeps the title
            cells.append(_markdown_cell(box))
            cells.append(_markdown_cell(rest.lstrip("\n")) if rest.strip() else None)
            cells = [c for c in cells if c is not None]
            continue
        cells.append(cell)
        if cell["cell_type"] == "code" and SLIDER_CALL in text and cell.get("outputs"):
            sliders += 1
            cells.append(_markdown_cell(f"```{{rst-class}} kl-slider-note\n```\n{note}\n"))
    for k, cell in enumerate(cells):
        if not cell.get("id"):
            cell["id"] = f"kl-site-{k}"
    nb["cells"] = cells
    dst.parent.mkdir(parents=True, exist_ok=True)
    dst.write_text(json.dumps(nb, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return sliders


CHAPTER_BOX = {   # the "Run this chapter" box of each edition: (title, download, exercises, run, open, cloud)
    "en": ("Run this chapter",
           "* **Download** the notebook: {dl} (committed executed: every number and figure below is in it).",
           "* **Exercises**: {link} (self-checked; `python3 tasks.py work {nn}` copies it into your `work/` folder).",
           "* **Run it live** on your computer (Python ≥ 3.10, nothing else), in the repository's folder:",
           "  then open `{path}` in JupyterLab and *Run → Run All Cells*: the sliders come alive.",
           "* **Or in the cloud**: {binder}."),
    "zh": ("运行本章",
           "* **下载**本章 notebook：{dl}（已执行并提交：下面的每个数字和图都在其中）。",
           "* **练习**：{link}（自动检查；`python3 tasks.py work {nn} --lang zh` 把它复制到你的 `work/zh/` 文件夹）。",
           "* 在自己的电脑上**运行**（只需 Python ≥ 3.10），在仓库文件夹中执行：",
           "  然后在 JupyterLab 中打开 `{path}`，选择 *Run → Run All Cells*：滑块即可使用。",
           "* **或在云端运行**：{binder}。"),
}


def chapter_box(name: str, exercise: str | None, repo, branch, lang: str = "en") -> str:
    """The box under a chapter's title: download, its exercises, the two commands, Binder."""
    title, download, exercises, run, open_it, cloud = CHAPTER_BOX[lang]
    path = f"chapters/{name}" if lang == "en" else f"chapters/{lang}/{name}"
    lines = [download.format(dl=f"{{download}}`{name} </{ORIGINALS}/chapters/{name}>`")]
    if exercise:
        lines.append(exercises.format(link=f"[{Path(exercise).stem}](../exercises/{exercise})", nn=name[:2]))
    lines += [run, "", "  ```bash", *("  " + line for line in RUN_COMMANDS.splitlines()), "  ```", "",
              open_it.format(path=path), cloud.format(binder=binder_link(repo, branch, path))]
    return _box(title, lines, "kl-run-box")


EXERCISE_BOX = {   # (title, download, chapter, work, cloud) of each edition
    "en": ("Work on these exercises", "* **Download** the notebook: {dl}.", "* **Chapter**: {link}.",
           "* **Work on it** in your own folder: `python3 tasks.py work {nn}` copies it into `work/`, "
           "`python3 tasks.py lab` opens JupyterLab; each answer is a function checked by the cell below it.",
           "* **Or in the cloud**: {binder}."),
    "zh": ("完成这些练习", "* **下载** notebook：{dl}。", "* **对应章节**：{link}。",
           "* 在自己的文件夹中**完成练习**：`python3 tasks.py work {nn} --lang zh` 把它复制到 `work/zh/`，"
           "`python3 tasks.py lab` 打开 JupyterLab；每个答案是一个函数，由其下方的单元格检查。",
           "* **或在云端运行**：{binder}。"),
}


def exercise_box(name: str, chapter: str | None, repo, branch, solved: bool = False, lang: str = "en") -> str:
    """The box under an exercise's title (``solved``: a solution page, instructors only)."""
    title, download, chapter_line, work, cloud = EXERCISE_BOX[lang]
    folder = "solutions" if solved else "exercises"
    lines = [download.format(dl=f"{{download}}`{name} </{ORIGINALS}/{folder}/{name}>`")]
    if solved:
        lines.insert(0, "* **Instructors only**: these are the solutions (built with `--with-solutions`).")
    if chapter:
        lines.append(chapter_line.format(link=f"[{Path(chapter).stem}](../chapters/{chapter})"))
    path = f"exercises/{name}" if lang == "en" else f"exercises/{lang}/{name}"
    lines += [work.format(nn=name[:2]), cloud.format(binder=binder_link(repo, branch, path))]
    return _box(title, lines, "kl-run-box")


# ----------------------------------------------------------------------------------- pages
def _linked_table(text: str, names: set[str]) -> str:
    """README notebook paths in backticks become links to their pages."""
    return re.sub(r"`((?:chapters|exercises)/[\w.-]+\.ipynb)`",
                  lambda m: f"[{Path(m.group(1)).stem}]({m.group(1)})" if m.group(1) in names else m.group(0), text)


def _title(nb_path: Path) -> str:
    nb = json.loads(nb_path.read_text(encoding="utf-8"))
    for line in _source(nb["cells"][0]).splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return nb_path.stem


def _toc(caption: str, folder: str, items: list[str]) -> str:
    """A hidden toctree of the pages ``folder/<stem>`` of ``items`` (the sidebar's section ``caption``)."""
    return (f"```{{toctree}}\n:caption: {caption}\n:hidden:\n:maxdepth: 2\n\n"
            + "\n".join(f"{folder}/{Path(i).stem}" for i in items) + "\n```\n")


def write_pages(stage: Path, chapters: list[str], exercises: list[str], solutions: list[str]) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    title = readme.splitlines()[0].removeprefix("# ").strip()
    intro = next(p for p in readme.split("\n## ", 1)[0].split("\n", 1)[1].strip().split("\n\n")
                 if not p.startswith("English ·"))   # its first paragraph (after the language line)
    sections = _md_sections(readme)
    names = {f"chapters/{c}" for c in chapters} | {f"exercises/{e}" for e in exercises}
    covers = _linked_table(_section(sections, "What the collection covers", "README.md"), names)
    ex_rows = "\n".join(f"| [{_title(stage / 'exercises' / e)}](exercises/{e}) | "
                        f"[chapter {e[:2].lstrip('0')}](chapters/{c}) |"
                        for e in exercises for c in chapters if c[:2] == e[:2])
    index = [f"# {title}\n", intro + "\n",
             _box("Read, download, run", [
                 "Every chapter below is a page of this book, rendered from its committed, executed notebook: "
                 "prose, formulas, code, printed numbers and the static figure of every slider. Each page links "
                 "its notebook for download. To run the notebooks and move the sliders, install the collection "
                 "on your computer (Python ≥ 3.10, nothing else) and, in its folder:", "",
                 "```bash", RUN_COMMANDS, "```", "",
                 "Build this site yourself with `python3 tasks.py site` (it writes `site/`, open "
                 "`site/index.html`; no internet needed to read it)."], "kl-run-box"),
             "## What the collection covers\n", covers,
             "## Exercises\n",
             "One notebook per chapter from chapter 2 on, as released to students: each answer is a "
             "function, checked by the cell below it.\n",
             "| exercises | chapter |\n| --- | --- |\n" + ex_rows + "\n",
             "## Reference\n",
             "* [Conventions](conventions.md): units, frames, orders, gravity, floating base, DH.\n"
             "* [Notation](docs/notation.md): every symbol of the chapters and its name in the code.\n"
             "* [Glossary (术语表)](glossary.md): the terms in English and Chinese, with their chapters.\n",
             _toc("Chapters", "chapters", chapters), _toc("Exercises", "exercises", exercises)]
    if solutions:
        index.append(_toc("Solutions (instructors)", "solutions", solutions))
    index.append("```{toctree}\n:caption: Reference\n:hidden:\n\nconventions\ndocs/notation\nglossary\n```\n")
    (stage / "index.md").write_text("\n".join(index), encoding="utf-8")

    ch1 = json.loads((ROOT / "chapters" / chapters[0]).read_text(encoding="utf-8"))
    ch1_text = "\n\n".join(_source(c) for c in ch1["cells"] if c["cell_type"] == "markdown")
    ch1_sections = _md_sections(ch1_text)
    table = next((v for k, v in ch1_sections.items() if "conventions in one table" in k), None)
    glossary = next((v for k, v in ch1_sections.items() if k.split(" ", 1)[-1].startswith("Glossary")), None)
    if table is None or glossary is None:
        sys.exit("[site] chapter 1 lost its sections 'The conventions in one table' or 'Glossary'")
    link = f"[chapter 1](chapters/{chapters[0]})"
    (stage / "conventions.md").write_text(
        "# Conventions\n\n" + _section(sections, "Conventions", "README.md") + "\n## Where each one is checked\n\n"
        + f"From {link}, which checks each convention numerically.\n\n"
        + re.sub(r"^The same table opens.*?\n\n", "", table, flags=re.S), encoding="utf-8")
    (stage / "glossary.md").write_text(
        f"# Glossary (术语表)\n\nFrom {link}; search finds a term in either language.\n\n"
        + glossary.replace("\n### ", "\n## "), encoding="utf-8")
    (stage / "docs").mkdir(exist_ok=True)
    shutil.copy2(ROOT / "docs" / "notation.md", stage / "docs" / "notation.md")


def stage(with_solutions: bool, where: Path = STAGE) -> dict:
    """Write the Sphinx source folder ``where`` (emptied first); returns what it holds."""
    if where.exists():
        shutil.rmtree(where)
    where.mkdir(parents=True)
    repo, branch = repository()
    chapters = sorted(p.name for p in (ROOT / "chapters").glob("*.ipynb"))
    exercises = sorted(p.name for p in (ROOT / "exercises").glob("*.ipynb"))
    solutions = sorted(p.name for p in (ROOT / "solutions").glob("*.ipynb")) if with_solutions else []
    for folder in ("chapters", "exercises") + (("solutions",) if with_solutions else ()):
        shutil.copytree(ROOT / folder, where / ORIGINALS / folder, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    by_number = lambda items, n: next((i for i in items if i[:2] == n), None)  # noqa: E731
    sliders = 0
    for c in chapters:
        sliders += stage_notebook(ROOT / "chapters" / c, where / "chapters" / c,
                                  chapter_box(c, by_number(exercises, c[:2]), repo, branch))
    for e in exercises:
        stage_notebook(ROOT / "exercises" / e, where / "exercises" / e,
                       exercise_box(e, by_number(chapters, e[:2]), repo, branch, solved=False))
    for s in solutions:
        stage_notebook(ROOT / "solutions" / s, where / "solutions" / s,
                       exercise_box(s, by_number(chapters, s[:2]), repo, branch, solved=True))
    write_pages(where, chapters, exercises, solutions)
    return {"chapters": len(chapters), "exercises": len(exercises), "solutions": len(solutions), "sliders": sliders}


# ------------------------------------------------------------------------ the Chinese edition
def _english_page(path: str, text: str, up: str = "../") -> str:
    """A link from a page of the Chinese edition (``up``: from it to site/zh/, then one more) to a
    page of the English one."""
    text = re.sub(r"`([^`]*)`", r"<code>\1</code>", text)
    return f'<a href="{up}{path}">{text}</a>'


def _links_to_english(folder: str):
    """For a notebook of ``<folder>/zh/``: a relative link that leaves the Chinese edition (an
    untranslated chapter ``../05_….ipynb``, ``../../docs/notation.md``) becomes a link to that
    page of the English site, which the Chinese one sits in (``site/zh/``)."""
    here = ROOT / folder / ZH

    def fix(match):
        label, url = match[1], match[2]
        path, _, anchor = url.partition("#")
        if not path.startswith("../"):
            return match[0]
        target = (here / path).resolve().relative_to(ROOT).with_suffix(".html").as_posix()
        return _english_page(target + (f"#{anchor}" if anchor else ""), label, up="../../")
    return lambda text: re.sub(r"\[([^\]]*)\]\(([^)\s]+)\)", fix, text)


def _edition_rows(stage: Path, folder: str, translated: list[str]) -> list[str]:
    """Table rows of every English notebook of ``folder``: a link to its Chinese page, or to the
    English page while it is not translated."""
    rows = []
    for name in sorted(p.name for p in (ROOT / folder).glob("*.ipynb")):
        if name in translated:
            rows.append(f"| [{_title(stage / folder / name)}]({folder}/{name}) | 中文 |")
        else:
            page = _english_page(f"{folder}/{name[:-6]}.html", _title(ROOT / folder / name))
            rows.append(f"| {page} | 英文（尚未翻译） |")
    return rows


def write_pages_zh(stage: Path, chapters: list[str], exercises: list[str]) -> None:
    readme = (ROOT / "README.zh.md").read_text(encoding="utf-8")
    title = readme.splitlines()[0].removeprefix("# ").strip()
    intro = readme.split("\n## ", 1)[0].split("\n", 1)[1].strip().split("\n\n")
    intro = next(p for p in intro if not p.startswith(("[", "<", ">")))   # the first paragraph of prose
    rows, ex_rows = _edition_rows(stage, "chapters", chapters), _edition_rows(stage, "exercises", exercises)
    index = [f"# {title}\n", intro + "\n",
             _box("阅读、下载、运行", [
                 "下面每一章都是本书的一页，由已提交、已执行的 notebook 生成：正文、公式、代码、打印的数字以及每个滑块的"
                 "静态图。中文版与英文版的代码和输出完全相同，只有正文是翻译。要运行 notebook、拖动滑块，请在自己的电脑上"
                 "安装本书（只需 Python ≥ 3.10），在其文件夹中执行：", "",
                 "```bash", RUN_COMMANDS, "```", "",
                 "然后在 JupyterLab 中打开 `chapters/zh/`。用 `python3 tasks.py site` 可以自己生成这个网站。"], "kl-run-box"),
             "## 章节\n", "| 章节 | 语言 |\n| --- | --- |\n" + "\n".join(rows) + "\n",
             "## 练习\n", "| 练习 | 语言 |\n| --- | --- |\n" + "\n".join(ex_rows) + "\n",
             "## 参考\n",
             f"* {_english_page('glossary.html', '术语表（Glossary）')}：中英文术语对照及其所在章节。\n"
             f"* {_english_page('conventions.html', '约定（Conventions）')}：单位、坐标系、顺序、重力、浮动基座、DH。\n"
             f"* {_english_page('docs/notation.html', '符号（Notation）')}：各章的每个符号及其在代码中的名称。\n",
             _toc("章节", "chapters", chapters), _toc("练习", "exercises", exercises)]
    (stage / "index.md").write_text("\n".join(index), encoding="utf-8")


def stage_zh(where: Path) -> dict:
    """The Sphinx source folder of the Chinese edition (chapters/zh, exercises/zh), emptied first."""
    if where.exists():
        shutil.rmtree(where)
    where.mkdir(parents=True)
    repo, branch = repository()
    chapters = sorted(p.name for p in (ROOT / "chapters" / ZH).glob("*.ipynb"))
    exercises = sorted(p.name for p in (ROOT / "exercises" / ZH).glob("*.ipynb"))
    for folder in ("chapters", "exercises"):
        if (ROOT / folder / ZH).is_dir():
            shutil.copytree(ROOT / folder / ZH, where / ORIGINALS / folder,
                            ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    by_number = lambda items, n: next((i for i in items if i[:2] == n), None)  # noqa: E731
    sliders = 0
    for c in chapters:
        sliders += stage_notebook(ROOT / "chapters" / ZH / c, where / "chapters" / c,
                                  chapter_box(c, by_number(exercises, c[:2]), repo, branch, ZH), SLIDER_NOTE_ZH,
                                  _links_to_english("chapters"))
    for e in exercises:
        stage_notebook(ROOT / "exercises" / ZH / e, where / "exercises" / e,
                       exercise_box(e, by_number(chapters, e[:2]), repo, branch, lang=ZH), SLIDER_NOTE_ZH,
                       _links_to_english("exercises"))
    write_pages_zh(where, chapters, exercises)
    return {"chapters": len(chapters), "exercises": len(exercises), "solutions": 0, "sliders": sliders}


def docnames(src: Path) -> list[str]:
    """The pages of a staged source folder (what other pages link as ``name.html``)."""
    return sorted(p.relative_to(src).with_suffix("").as_posix() for p in src.rglob("*")
                  if p.suffix in (".md", ".ipynb") and not p.relative_to(src).parts[0].startswith("_"))


MANIFEST = ".kl-site-files.json"   # in the output folder: every file the build wrote, with its hash


def _digests(out: Path) -> dict:
    return {p.relative_to(out).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(out.rglob("*")) if p.is_file() and p.name != MANIFEST}


def write_manifest(out: Path) -> None:
    (out / MANIFEST).write_text(json.dumps(_digests(out), indent=0) + "\n", encoding="utf-8")


def files_not_built(out: Path) -> list[str]:
    """Files in ``out`` that the last build did not write, or that changed since (someone saved
    work there): the build never deletes those. Without a manifest every file counts."""
    try:
        built = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        built = {}
    return [name for name, digest in _digests(out).items() if built.get(name) != digest]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=str(ROOT / "site"), help="output folder (default: site/)")
    ap.add_argument("--with-solutions", action="store_true", help="also render solutions/ (instructors only)")
    ap.add_argument("--quiet", action="store_true", help="only warnings and the summary")
    ap.add_argument("--work", default=str(STAGE.parent), help="folder for the staged sources and Sphinx's cache (default: build/)")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    out = Path(args.out).resolve()
    if out.exists() and any(out.iterdir()):
        foreign = files_not_built(out)
        if foreign:
            sys.exit(f"[site] {out} holds files this command did not write ({', '.join(foreign[:5])}"
                     f"{' …' if len(foreign) > 5 else ''}): not touching it; move them, or pass another --out")
        shutil.rmtree(out)   # a previous build, unchanged: start clean so no page of an older layout survives
    work = Path(args.work).resolve()
    src, doctrees = work / STAGE.name, work / DOCTREES.name
    html = work / "site-html"   # Sphinx writes here (myst-nb puts jupyter_execute/ beside it), then copied to out
    html_zh = work / "site-html-zh"
    for folder in (html, html_zh):
        if folder.exists():
            shutil.rmtree(folder)
    counts = stage(args.with_solutions, src)
    src_zh = work / (STAGE.name + "-zh")
    has_zh = any((ROOT / "chapters" / ZH).glob("*.ipynb"))
    counts_zh = stage_zh(src_zh) if has_zh else None
    repo, branch = repository()
    builds = [("en", src, doctrees, html, docnames(src_zh) if has_zh else [])]
    if has_zh:
        builds.append(("zh", src_zh, work / (DOCTREES.name + "-zh"), html_zh, docnames(src)))
    for lang, source, trees, target, other in builds:
        cmd = [sys.executable, "-m", "sphinx", "-b", "html", "-c", str(CONF), "-d", str(trees),
               "-W", "--keep-going", "-j", "1", str(source), str(target)]
        if args.quiet:
            cmd.insert(3, "-q")
        print("[site] " + " ".join(cmd), flush=True)
        env = dict(os.environ, KL_SITE_BRANCH=branch, KL_SITE_LANG=lang, KL_SITE_OTHER_PAGES=json.dumps(other))
        if repo:
            env["KL_SITE_REPOSITORY_RESOLVED"] = repo
        rc = subprocess.call(cmd, cwd=ROOT, env=env)
        if rc:
            print(f"[site] Sphinx failed on the {lang} edition (exit {rc})", file=sys.stderr)
            return rc
    shutil.copytree(html, out, dirs_exist_ok=True)
    if has_zh:
        shutil.copytree(html_zh, out / ZH, dirs_exist_ok=True)
    write_manifest(out)
    pages = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.html")
                   if not p.relative_to(out).parts[0].startswith("_") and p.relative_to(out).parts[0] != ZH and p.name not in ("genindex.html", "search.html"))
    print(f"[site] built {out}/index.html in {time.perf_counter() - t0:.1f} s: {len(pages)} pages "
          f"({counts['chapters']} chapters, {counts['exercises']} exercises"
          + (f", {counts['solutions']} solutions" if counts["solutions"] else "")
          + f", {len(pages) - counts['chapters'] - counts['exercises'] - counts['solutions']} other), "
          f"{counts['sliders']} slider figures"
          + (f"; Chinese edition in {out}/{ZH}/: {counts_zh['chapters']} chapters, {counts_zh['exercises']} exercises"
             if counts_zh else ""), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Sphinx extension of the book site.

* "**The source says** … **here is why** …" callouts become admonitions of class
  ``kl-source-says`` (a paragraph, or the block quote it opens, with the math and lists right
  after it);
* a Chinese callout "**文档原文** … **为什么** …" (the Chinese edition) becomes the same admonition;
* every page links its other edition (English / 中文) in the article header: the same page when the
  other edition has it, else that edition's start page (``KL_SITE_LANG``, ``KL_SITE_OTHER_PAGES``
  set by tools/site.py);
* the search index also holds every run of Chinese characters of a page and each of its
  2-, 3- and 4-character pieces, so "浮动基座" is found inside a longer run
  (Sphinx's English index only keeps whole ``\\w+`` words).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from docutils import nodes
from sphinx.search import en

import json
import os

TITLE = "The source says … here is why"
TITLE_ZH = "文档原文 … 为什么"
OPENERS = {"the source says": TITLE, "文档原文": TITLE_ZH}
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")


def _callout_start(par: nodes.Node) -> int | None:
    """Index of the child ``**The source says**`` that opens a callout in this paragraph: the
    first thing in it, or the start of a sentence; None when there is none (a mention of the
    callout format, "“The source says … here is why …”", is not one)."""
    if not isinstance(par, nodes.paragraph):
        return None
    before = ""
    for k, child in enumerate(par.children):
        if isinstance(child, nodes.strong) and child.astext().strip().lower() in OPENERS:
            if not before.strip() or before.rstrip().endswith((".", ":", "。", "：")):
                return k
        before += child.astext()
    return None


def source_says(app, doctree) -> None:
    for par in list(doctree.findall(nodes.paragraph)):
        k = _callout_start(par)
        parent = par.parent
        if k is None or parent is None or isinstance(parent, nodes.admonition):
            continue
        box = nodes.admonition(classes=["kl-source-says"])
        title = OPENERS[par.children[k].astext().strip().lower()]
        box += nodes.title(title, title)
        if isinstance(parent, nodes.block_quote) and parent.index(par) == 0:
            box.extend(child.deepcopy() for child in parent.children)
            parent.replace_self(box)
            continue
        at = parent.index(par)
        taken = []
        for sib in parent.children[at + 1:]:
            if isinstance(sib, (nodes.math_block, nodes.bullet_list, nodes.enumerated_list)):
                taken.append(sib)
            else:
                break
        head = nodes.paragraph("", "", *[c.deepcopy() for c in par.children[k:]])
        box += head
        box.extend(t.deepcopy() for t in taken)
        for t in taken:
            parent.remove(t)
        if any(c.astext().strip() for c in par.children[:k]):
            kept = nodes.paragraph("", "", *[c.deepcopy() for c in par.children[:k]])
            par.replace_self([kept, box])
        else:
            par.replace_self(box)


class SearchEnglishCJK(en.SearchEnglish):
    """English search, plus the Chinese terms of the glossary and the chapters."""

    def split(self, input: str) -> list[str]:
        words = super().split(input)
        for run in CJK.findall(input):
            words.append(run)
            for n in (2, 3, 4):
                words.extend(run[i:i + n] for i in range(len(run) - n + 1) if len(run) > n)
        return words

    def word_filter(self, word: str) -> bool:
        return bool(CJK.fullmatch(word)) or super().word_filter(word)

    def stem(self, word: str) -> str:
        return word if CJK.fullmatch(word) else super().stem(word)


def committed_sources(app, exc) -> None:
    """``_sources/`` (the theme's download button) gets the committed notebooks that tools/site.py
    staged in ``_notebooks/``, not the staged copies with the site's boxes."""
    if exc is not None or app.builder.format != "html":
        return
    originals = Path(app.srcdir) / "_notebooks"
    for nb in originals.rglob("*.ipynb"):
        target = Path(app.outdir) / "_sources" / nb.relative_to(originals)
        if target.exists():
            shutil.copyfile(nb, target)


def lang_switch(app, pagename, templatename, context, doctree) -> None:
    """``kl_lang_switch`` for the template kl-lang-switch.html: the link to the other edition."""
    lang = os.environ.get("KL_SITE_LANG", "en")
    other_pages = set(json.loads(os.environ.get("KL_SITE_OTHER_PAGES", "[]")))
    if lang == "en" and not other_pages:
        return                       # no Chinese edition built: no switch
    up = "../" * pagename.count("/")
    root = up + ("zh/" if lang == "en" else "../")
    target = pagename if pagename in other_pages else "index"
    context["kl_lang_switch"] = (
        {"href": root + target + ".html", "hreflang": "zh", "label": "中文", "title": "中文版（本页的翻译或中文版首页）"}
        if lang == "en" else
        {"href": root + target + ".html", "hreflang": "en", "label": "English", "title": "The English edition of this page"})


def setup(app):
    app.connect("html-page-context", lang_switch)
    app.connect("doctree-read", source_says)
    app.connect("build-finished", committed_sources)
    app.add_search_language(SearchEnglishCJK)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}

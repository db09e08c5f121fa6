"""Sphinx extension of the book site.

* "**The source says** … **here is why** …" callouts become admonitions of class
  ``kl-source-says`` (a paragraph, or the block quote it opens, with the math and lists right
  after it);
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

TITLE = "The source says … here is why"
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")


def _callout_start(par: nodes.Node) -> int | None:
    """Index of the child ``**The source says**`` that opens a callout in this paragraph: the
    first thing in it, or the start of a sentence; None when there is none (a mention of the
    callout format, "“The source says … here is why …”", is not one)."""
    if not isinstance(par, nodes.paragraph):
        return None
    before = ""
    for k, child in enumerate(par.children):
        if isinstance(child, nodes.strong) and child.astext().strip().lower() == "the source says":
            if not before.strip() or before.rstrip().endswith((".", ":")):
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
        box += nodes.title(TITLE, TITLE)
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


def setup(app):
    app.connect("doctree-read", source_says)
    app.connect("build-finished", committed_sources)
    app.add_search_language(SearchEnglishCJK)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}

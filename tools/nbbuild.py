#!/usr/bin/env python3
"""Write a notebook from a "percent" script (authoring aid; the .ipynb stays the source of truth).

    python tools/nbbuild.py draft.py chapters/02_rigid_motions_dh.ipynb

Cell markers, one per line:

    # %% [markdown]                      a markdown cell (its lines may start with "# ")
    # %%                                 a code cell
    # %% {"tags": ["nbval-ignore-output"]}            a code cell with metadata (JSON)
    # %% solution grade_id=ex2_dh                     nbgrader solution cell (autograded answer)
    # %% tests grade_id=ex2_dh_check points=2         nbgrader grading cell (read-only): the self-check
    # %% [markdown] task grade_id=ex2_explain points=1  nbgrader manually graded markdown answer
    # %% [markdown] statement grade_id=ex2_dh_statement  nbgrader read-only cell: an exercise's statement

Cell ids are derived from the position and content, so rebuilding an unchanged draft gives the
same file. The notebook is written unexecuted; run ``python tools/nbtools.py execute FILE``.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
import sys
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

sys.path.insert(0, str(Path(__file__).resolve().parent))
from nbtools import KERNELSPEC, LANGUAGE_INFO  # noqa: E402

MARK = re.compile(r"^# %%(?P<md> \[markdown\])?(?P<rest>.*)$")


def _nbgrader(kind: str, opts: dict) -> dict:
    grade_id = opts.get("grade_id")
    if not grade_id:
        raise ValueError(f"an nbgrader '{kind}' cell needs grade_id=...")
    meta = {"schema_version": 3, "grade_id": grade_id, "locked": False, "solution": False, "grade": False}
    if kind == "solution":
        meta.update(solution=True)
    elif kind == "tests":
        meta.update(grade=True, locked=True, points=int(opts.get("points", 1)))
    elif kind == "task":
        meta.update(solution=True, grade=True, points=int(opts.get("points", 1)))
    elif kind == "statement":
        meta.update(locked=True)
    return {"nbgrader": meta}


def _metadata(rest: str) -> dict:
    rest = rest.strip()
    if not rest:
        return {}
    if rest.startswith("{"):
        return json.loads(rest)
    words = rest.split()
    kind, opts = words[0], dict(w.split("=", 1) for w in words[1:])
    if kind not in ("solution", "tests", "task", "statement"):
        raise ValueError(f"unknown cell marker {rest!r}")
    return _nbgrader(kind, opts)


def parse(text: str):
    cells, kind, meta, lines = [], None, {}, []

    def flush():
        if kind is None:
            return
        body = "\n".join(lines).strip("\n")
        if kind == "markdown":
            body = "\n".join(l[2:] if l.startswith("# ") else ("" if l == "#" else l)
                             for l in body.split("\n"))
            cell = new_markdown_cell(body, metadata=meta)
        else:
            cell = new_code_cell(body, metadata=meta)
        cells.append(cell)

    for line in text.split("\n"):
        m = MARK.match(line)
        if m:
            flush()
            kind = "markdown" if m.group("md") else "code"
            meta, lines = _metadata(m.group("rest")), []
        elif kind is not None:
            lines.append(line)
    flush()
    nb = new_notebook(cells=cells)
    nb.metadata["kernelspec"] = dict(KERNELSPEC)         # what the pinned kernel writes (nbtools)
    nb.metadata["language_info"] = copy.deepcopy(LANGUAGE_INFO)
    for k, cell in enumerate(nb.cells):
        cell["id"] = hashlib.sha1(f"{k}:{cell.source}".encode()).hexdigest()[:12]
    return nb


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__)
        return 2
    nb = parse(Path(argv[0]).read_text())
    nbformat.validate(nb)
    Path(argv[1]).write_text(nbformat.writes(nb) + "\n")
    print(f"wrote {argv[1]} ({len(nb.cells)} cells)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

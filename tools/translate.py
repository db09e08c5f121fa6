#!/usr/bin/env python3
"""The Chinese edition: translation catalogs -> chapters/zh/ and exercises/zh/.

    python tools/translate.py                write every Chinese notebook that has a catalog
    python tools/translate.py --check        exit 1 if a catalog is stale or incomplete, or a
                                             generated Chinese notebook is out of date
    python tools/translate.py --status       translated / stale / missing cells per notebook
    python tools/translate.py --new NOTEBOOK start a catalog (every entry marked pending)
    python tools/translate.py --done NOTEBOOK CELL_ID [CELL_ID ...]
                                             record that these entries translate the English
                                             cells as they are now (after you checked them)

The English notebooks are the source. Each translated notebook has one catalog,
``translations/zh/<folder>/<name>.md``, a Markdown file a reviewer reads like a chapter: for each
markdown cell of the English notebook, a marker line

    <!-- cell <cell id> en-sha256 <first 16 hex digits of the English cell's SHA-256> -->

followed by the Chinese text of that cell. The hash says which English text the translation was
made from: when an English cell changes, its hash no longer matches and ``--check`` (and
tests/test_translation.py) names the notebook, the cell and the English text now there.

Chapters translate ``chapters/<name>`` into ``chapters/zh/<name>``: the same code cells, outputs,
cell ids and metadata, the markdown replaced and its relative links re-pointed from the new folder.
Exercises translate the *solution* ``solutions/<name>`` (catalog ``translations/zh/exercises/<name>.md``)
and release it with nbgrader's preprocessors exactly as ``tasks.py exercises`` does, so
``exercises/zh/<name>`` carries its own cell locks and checksums. Solutions stay English.

Students' files are sacred here too: a notebook in ``chapters/zh`` or ``exercises/zh`` that differs
from both what this tool writes and what git has committed was edited by someone; it is named and
left alone (exit 3) unless ``--force``. Files in those folders that no catalog produces are never
touched.
"""

from __future__ import annotations

import copy
import hashlib
import json
import posixpath
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent))

ROOT = Path(__file__).resolve().parents[1]
LANG = "zh"
CATALOGS = ROOT / "translations" / LANG
PENDING = "pending"
MARKER = re.compile(r"^<!-- cell (?P<id>[A-Za-z0-9_-]+) en-sha256 (?P<sha>[0-9a-f]{16}|pending) -->$")
HEADER = ("<!-- Chinese translation catalog of {source}. One entry per markdown cell of the English "
          "notebook: the marker line, then the Chinese text. After editing an entry, check it against "
          "the English cell and run `python3 tasks.py translate --done {source} <cell id>`. "
          "Generated from it: {target}. -->\n")
EXIT_REFUSED = 3


def english_hash(source: str) -> str:
    """First 16 hex digits of the SHA-256 of an English cell's source (its exact text)."""
    return hashlib.sha256(source.encode("utf-8")).hexdigest()[:16]


# --- which notebooks -------------------------------------------------------------------------

@dataclass(frozen=True)
class Pair:
    """One translated notebook: its English source, its catalog and the Chinese notebook written."""
    source: Path       # chapters/NN.ipynb or solutions/NN_exercises.ipynb
    catalog: Path      # translations/zh/chapters/NN.md or translations/zh/exercises/NN_exercises.md
    target: Path       # chapters/zh/NN.ipynb or exercises/zh/NN_exercises.ipynb

    @property
    def is_exercise(self) -> bool:
        return self.target.parent.parent.name == "exercises"


def pair_for(notebook: Path) -> Pair:
    """The pair of an English chapter, a solution or an exercise path (relative or absolute)."""
    path = (ROOT / notebook).resolve() if not Path(notebook).is_absolute() else Path(notebook)
    folder, name = path.parent.name, path.name
    if folder == "chapters":
        return Pair(path, CATALOGS / "chapters" / f"{path.stem}.md", ROOT / "chapters" / LANG / name)
    if folder in ("solutions", "exercises"):
        return Pair(ROOT / "solutions" / name, CATALOGS / "exercises" / f"{path.stem}.md",
                    ROOT / "exercises" / LANG / name)
    raise ValueError(f"notebook: expected a file in chapters/, solutions/ or exercises/, got {notebook}")


def pairs() -> list[Pair]:
    """Every notebook that has a catalog (the Chinese edition as it stands)."""
    found = []
    for catalog in sorted(CATALOGS.glob("chapters/*.md")):
        found.append(pair_for(ROOT / "chapters" / f"{catalog.stem}.ipynb"))
    for catalog in sorted(CATALOGS.glob("exercises/*.md")):
        found.append(pair_for(ROOT / "solutions" / f"{catalog.stem}.ipynb"))
    return found


def rel(path: Path) -> str:
    try:
        return path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


# --- catalogs --------------------------------------------------------------------------------

@dataclass
class Entry:
    cell_id: str
    sha: str           # english_hash of the English text it translates, or PENDING
    text: str          # the Chinese markdown


@dataclass
class Catalog:
    entries: dict[str, Entry] = field(default_factory=dict)

    @classmethod
    def read(cls, path: Path) -> "Catalog":
        catalog, current, lines = cls(), None, []

        def close():
            if current is not None:
                current.text = "\n".join(lines).strip("\n")
                catalog.entries[current.cell_id] = current

        for line in path.read_text(encoding="utf-8").splitlines():
            match = MARKER.match(line)
            if match:
                close()
                if match["id"] in catalog.entries:
                    raise ValueError(f"{rel(path)}: cell {match['id']} appears twice")
                current, lines = Entry(match["id"], match["sha"], ""), []
            elif current is not None:
                lines.append(line)
        close()
        return catalog

    def text(self, pair: Pair, order: list[str]) -> str:
        """The catalog file, entries in the English notebook's cell order (unknown ones last)."""
        ids = [i for i in order if i in self.entries] + [i for i in self.entries if i not in order]
        header = HEADER.format(source=rel(pair.source), target=rel(pair.target))
        return header + "".join(f"\n<!-- cell {i} en-sha256 {self.entries[i].sha} -->\n{self.entries[i].text}\n"
                                for i in ids)


def read_notebook(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def markdown_cells(nb: dict) -> list[tuple[str, str]]:
    """(cell id, source) of every markdown cell, in order."""
    out = []
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            source = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
            out.append((cell["id"], source))
    return out


@dataclass
class Status:
    pair: Pair
    translated: list[str]                 # cell ids up to date
    pending: list[tuple[str, str]]        # (cell id, English text): never translated
    stale: list[tuple[str, str]]          # (cell id, English text now): English changed since
    missing: list[tuple[str, str]]        # (cell id, English text): no entry at all
    orphans: list[str]                    # entries for cells the English notebook no longer has

    @property
    def complete(self) -> bool:
        return not (self.pending or self.stale or self.missing or self.orphans)

    def problems(self) -> list[str]:
        where = rel(self.pair.source)
        out = []
        for kind, items in (("never translated", self.pending), ("English changed since it was translated", self.stale),
                            ("no catalog entry", self.missing)):
            for cell_id, english in items:
                excerpt = english if len(english) < 600 else english[:600] + " …"
                out.append(f"{where}, cell {cell_id}: {kind}; the English cell now reads:\n    "
                           + excerpt.replace("\n", "\n    "))
        for cell_id in self.orphans:
            out.append(f"{rel(self.pair.catalog)}: entry {cell_id} has no markdown cell in {where} (delete it)")
        return out


def status(pair: Pair) -> Status:
    catalog = Catalog.read(pair.catalog)
    result = Status(pair, [], [], [], [], [])
    cells = markdown_cells(read_notebook(pair.source))
    for cell_id, english in cells:
        entry = catalog.entries.get(cell_id)
        if entry is None:
            result.missing.append((cell_id, english))
        elif entry.sha == PENDING:
            result.pending.append((cell_id, english))
        elif entry.sha != english_hash(english):
            result.stale.append((cell_id, english))
        else:
            result.translated.append(cell_id)
    known = {cell_id for cell_id, _ in cells}
    result.orphans = [i for i in catalog.entries if i not in known]
    return result


def new_catalog(pair: Pair) -> None:
    """Start a catalog: one pending entry per markdown cell, holding the English to translate."""
    if pair.catalog.exists():
        raise SystemExit(f"{rel(pair.catalog)} exists; edit it (entries for new cells: --status lists them)")
    cells = markdown_cells(read_notebook(pair.source))
    catalog = Catalog({i: Entry(i, PENDING, text) for i, text in cells})
    pair.catalog.parent.mkdir(parents=True, exist_ok=True)
    pair.catalog.write_text(catalog.text(pair, [i for i, _ in cells]), encoding="utf-8")
    print(f"wrote {rel(pair.catalog)}: {len(cells)} entries to translate")


def mark_done(pair: Pair, cell_ids: list[str]) -> None:
    """Record that the entries of ``cell_ids`` translate the English cells as they are now."""
    catalog = Catalog.read(pair.catalog)
    cells = markdown_cells(read_notebook(pair.source))
    english = dict(cells)
    for cell_id in cell_ids:
        if cell_id not in english:
            raise SystemExit(f"{rel(pair.source)} has no markdown cell {cell_id}")
        if cell_id not in catalog.entries:
            catalog.entries[cell_id] = Entry(cell_id, PENDING, english[cell_id])
            print(f"{cell_id}: added (write its Chinese, then run --done again)")
            continue
        catalog.entries[cell_id].sha = english_hash(english[cell_id])
    pair.catalog.write_text(catalog.text(pair, [i for i, _ in cells]), encoding="utf-8")


# --- building the Chinese notebooks ----------------------------------------------------------

LINK = re.compile(r"(\]\()([^)\s]+)(\))")


def repoint_links(markdown: str, source_dir: Path, target_dir: Path) -> str:
    """Relative links written for ``source_dir`` re-pointed so that they work from ``target_dir``:
    a link to a notebook that also has a Chinese version goes to that version, any other relative
    link to the same file as before."""
    def fix(match):
        url = match[2]
        if re.match(r"^[a-z][a-z0-9+.-]*:", url) or url.startswith(("#", "/")):
            return match[0]
        path, _, anchor = url.partition("#")
        if not path:
            return match[0]
        original = (source_dir / path).resolve()
        if original.suffix == ".ipynb" and pair_exists_for(original):
            original = pair_for(original).target.resolve()
        new = posixpath.relpath(original.as_posix(), target_dir.resolve().as_posix())
        return f"{match[1]}{new}{'#' + anchor if anchor else ''}{match[3]}"
    return LINK.sub(fix, markdown)


def pair_exists_for(path: Path) -> bool:
    if path.parent.name not in ("chapters", "solutions", "exercises"):
        return False
    return pair_for(path).catalog.exists()


def translated_notebook(pair: Pair) -> dict:
    """The English source with its markdown cells replaced by the catalog's Chinese (the catalog
    must be complete and current: see ``status``)."""
    state = status(pair)
    if not state.complete:
        raise ValueError("catalog incomplete or stale:\n" + "\n".join(state.problems()))
    catalog = Catalog.read(pair.catalog)
    nb = copy.deepcopy(read_notebook(pair.source))
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            text = repoint_links(catalog.entries[cell["id"]].text, pair.source.parent, pair.target.parent)
            cell["source"] = text.splitlines(keepends=True)
    nb["metadata"].setdefault("kinematics_lib", {})["translation"] = {
        "lang": LANG, "from": rel(pair.source), "catalog": rel(pair.catalog),
        "by": "python3 tasks.py translate (tools/translate.py); edit the catalog, never this file"}
    return nb


def generated_text(pair: Pair) -> str:
    """What ``pair.target`` must contain."""
    import nbformat
    from nbclean import cells_fingerprint
    nb = nbformat.reads(json.dumps(translated_notebook(pair)), as_version=4)   # sources as strings
    stamp = nb.metadata["kinematics_lib"]["translation"]
    if pair.is_exercise:
        import nbtools
        nb = nbtools.to_exercise(nb, pair.source.name)
    stamp["cells_sha256"] = cells_fingerprint(nb)
    nb.metadata["kinematics_lib"]["translation"] = stamp
    return nbformat.writes(nb) + "\n"


def _edited_by_someone(target: Path, new_text: str) -> bool:
    """True when ``target`` has cells that someone wrote: it exists, and its cells are neither
    those this tool wrote into it (the fingerprint in its metadata) nor those git has committed."""
    if not target.exists():
        return False
    text = target.read_text(encoding="utf-8")
    if text == new_text:
        return False
    from nbclean import cells_fingerprint, committed_text
    try:
        nb = json.loads(text)
        stamp = nb["metadata"]["kinematics_lib"]["translation"]
        if stamp.get("cells_sha256") == cells_fingerprint(nb):
            return False          # as generated (only outputs may differ: a run is not an edit)
    except (ValueError, KeyError, TypeError):
        pass
    return committed_text(target.parent, target.name) != text


def build(force: bool = False, check: bool = False) -> int:
    problems, refused, changed = [], [], []
    terms = glossary_terms()
    for pair in pairs():
        state = status(pair)
        if not state.complete:
            problems += state.problems()
            continue
        problems += glossary_problems(pair, terms)
        new_text = generated_text(pair)
        current = pair.target.read_text(encoding="utf-8") if pair.target.exists() else None
        if current == new_text:
            continue
        if check:
            problems.append(f"{rel(pair.target)} is out of date: run `python3 tasks.py translate`")
            continue
        if _edited_by_someone(pair.target, new_text) and not force:
            refused.append(rel(pair.target))
            continue
        pair.target.parent.mkdir(parents=True, exist_ok=True)
        pair.target.write_text(new_text, encoding="utf-8")
        changed.append(rel(pair.target))
    for line in changed:
        print(f"wrote {line}")
    for line in problems:
        print(line)
    if refused:
        print("left alone (edited by hand, not as committed): " + ", ".join(refused)
              + "\n  keep your edit under another name, or rerun with --force to overwrite it")
    if problems:
        return 1
    return EXIT_REFUSED if refused else 0


# --- the chapter-1 glossary, used consistently ------------------------------------------------

GLOSSARY_SOURCE = ROOT / "chapters" / "01_introduction.ipynb"
_HAN = re.compile(r"[\u4e00-\u9fff]")


def _split(text: str, seps: str) -> list[str]:
    return [part.strip() for part in re.split(seps, text) if part.strip()]


def _alternatives(group: str) -> list[str]:
    """"kinetic / potential energy" -> kinetic energy, potential energy; "generalised velocity /
    force" -> generalised velocity, generalised force (a shared head or tail word is repeated)."""
    parts = _split(group, r" / ")
    words = [p.split() for p in parts]
    if len(parts) > 1 and len(words[-1]) > 1 and all(len(w) == 1 for w in words[:-1]):
        tail = " ".join(words[-1][1:])
        return [f"{p} {tail}" for p in parts[:-1]] + [parts[-1]]
    if len(parts) > 1 and len(words[0]) > 1 and all(len(w) == 1 for w in words[1:]):
        head = " ".join(words[0][:-1])
        return [parts[0]] + [f"{head} {p}" for p in parts[1:]]
    return parts


def glossary_terms(nb: dict | None = None) -> list[tuple[str, set[str]]]:
    """(English term, accepted Chinese forms) from the bilingual tables of chapter 1.

    A row "A / B | 甲 / 乙" (or "A, B | 甲、乙") pairs A with 甲 and B with 乙 (a shared word is
    repeated: "kinetic / potential energy" is "kinetic energy" and "potential energy"); when the
    counts differ every English form accepts every Chinese one. English asides in parentheses are
    dropped ("centre of mass (CoM)" is matched as "centre of mass"); Chinese parentheses add accepted
    forms ("正运动学（正解）" accepts 正运动学 and 正解)."""
    nb = nb or read_notebook(GLOSSARY_SOURCE)
    terms = []
    for _, source in markdown_cells(nb):
        for line in source.splitlines():
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) < 2 or not _HAN.search(cells[1]) or _HAN.search(cells[0]) or cells[0] == "English":
                continue
            if re.fullmatch(r"\d+", cells[0]):
                continue          # the chapter list, not the glossary
            english = [alt for group in _split(re.sub(r"\s+\([^)]*\)", "", cells[0]), r", ")
                       for alt in _alternatives(group)]
            extra = set()
            for inner in re.findall(r"（([^）]*)）", cells[1]):
                extra |= {f for f in _split(inner, r" / |、|，") if _HAN.search(f)}
            chinese = _split(re.sub(r"（[^）]*）", "", cells[1]), r"\s*/\s*|、|，")
            if len(english) == len(chinese):
                terms += [(e, {c} | extra) for e, c in zip(english, chinese)]
            else:
                terms += [(e, set(chinese) | extra) for e in english]
    return terms


# Ordinary English words whose glossary sense is one of several (a wheel rolls, slip ratio, the
# pitch joint, a chassis's yaw is its 航向): not checked cell by cell.
AMBIGUOUS = {"roll", "pitch", "yaw", "slip", "stick"}


def _is_verbatim_token(term: str) -> bool:
    """Acronyms and code words (URDF, RNEA, atan2) are written the same in Chinese text."""
    return bool(re.fullmatch(r"[A-Z0-9][A-Za-z0-9()./-]*|[a-z]+[0-9]+", term))


def glossary_problems(pair: Pair, terms: list[tuple[str, set[str]]] | None = None) -> list[str]:
    """Translated cells whose English contains a glossary term but whose Chinese uses none of the
    term's Chinese forms. Longer terms win (\"gimbal lock\" is not also \"gimbal\")."""
    terms = sorted((t for t in (terms if terms is not None else glossary_terms()) if t[0] not in AMBIGUOUS),
                   key=lambda t: -len(t[0]))
    catalog = Catalog.read(pair.catalog)
    out = []
    for cell_id, english in markdown_cells(read_notebook(pair.source)):
        entry = catalog.entries.get(cell_id)
        if entry is None or entry.sha == PENDING:
            continue
        text = re.sub(r"\s+", "", entry.text)
        bare = re.sub(r"（[^）]*）", "", text)          # 航向（yaw）补偿 is 航向补偿
        masked = re.sub(r"```.*?```|`[^`]*`", " ", english, flags=re.DOTALL)   # code is not prose
        for term, forms in terms:
            pattern = re.compile(r"(?<![A-Za-z])" + re.escape(term) + r"(?:e?s)?(?![A-Za-z])", re.IGNORECASE)
            if not pattern.search(masked):
                continue
            masked = pattern.sub(" ", masked)
            # an angle's name is also the name of its joint or motion: 俯仰角 accepts 俯仰
            accepted = {re.sub(r"\s+", "", f) for f in forms} | {f[:-1] for f in forms if f.endswith("角")}
            if any(f in text or f in bare for f in accepted):
                continue
            if _is_verbatim_token(term) and term in entry.text:
                continue
            out.append(f"{rel(pair.catalog)}, cell {cell_id}: the English says \"{term}\"; "
                       f"the glossary's Chinese is {' / '.join(sorted(forms))}, not found in the translation")
    return out


def main(argv: list[str]) -> int:
    if argv[:1] == ["--new"] and len(argv) == 2:
        new_catalog(pair_for(Path(argv[1])))
        return 0
    if argv[:1] == ["--done"] and len(argv) >= 3:
        mark_done(pair_for(Path(argv[1])), argv[2:])
        return 0
    if argv == ["--status"]:
        for pair in pairs():
            s = status(pair)
            print(f"{rel(pair.source)}: {len(s.translated)} translated, {len(s.pending)} pending, "
                  f"{len(s.stale)} stale, {len(s.missing)} missing, {len(s.orphans)} orphaned")
        return 0
    if argv in ([], ["--force"], ["--check"]):
        return build(force="--force" in argv, check="--check" in argv)
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

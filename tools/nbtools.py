#!/usr/bin/env python3
"""Notebook maintenance: execute in place, normalise, and generate student exercises.

    python tools/nbtools.py execute [--refresh] [--force] [NOTEBOOK ...]
                                                     re-execute (default: chapters/ and solutions/),
                                                     then regenerate the exercises of the executed solutions;
                                                     --refresh also replaces the stored outputs of
                                                     nbval-ignore-output cells (timings)
    python tools/nbtools.py exercises [--force]      regenerate exercises/ from solutions/
    python tools/nbtools.py check                    exit 1 if exercises/ is out of date
    python tools/nbtools.py points                   the points per notebook (the README's instructor table)

Normalisation makes re-execution of an unchanged tree a no-op: no execution timestamps, no
widget state or widget-view outputs (their model ids are random; the static PNG and the text
stay), exactly the kernelspec and language_info that the pinned kernel reports (so JupyterLab,
which writes them on opening a notebook, leaves a chapter unmodified), stream outputs merged
(their split depends on flush timing), and the outputs of nbval-ignore-output cells (timings)
kept from the last ``--refresh`` run while their source is unchanged.

Exercise generation runs nbgrader's own preprocessors in the order of ``nbgrader
generate_assignment`` (LockCells, ClearSolutions, ClearOutput, ClearHiddenTests,
ClearMarkScheme, ComputeChecksums, with metadata enforced), so ``exercises/`` carries the cell
locks and checksums of nbgrader's release, and a solution notebook that passes here drops into
an nbgrader course unchanged.

Student work is never destroyed. Each generated exercise records a fingerprint of its cells
and the solution it was generated from (notebook metadata ``kinematics_lib.generated``). A file
is a generated exercise only if that solution has the file's own name: a copy of an exercise
under another name (File > Save As, ``cp``) or any other notebook in ``exercises/`` is a
student's and is never deleted or changed, not even with ``--force`` (the output says "left
alone: ..."). A generated exercise whose cells no longer match its fingerprint was edited by
hand: ``exercises``/``execute`` then stop before writing anything, with exit status 3, name the
file and say how to keep the edit (``--force`` overwrites it). A generated exercise whose
solution was removed is removed too, but only if unedited.

``points`` reads the solutions as plain JSON and needs only the standard library (``python3
tasks.py points`` runs it with any Python); the other commands need the development environment.
"""

from __future__ import annotations

import copy
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

try:
    import nbformat
except ModuleNotFoundError:  # `points` reads the notebooks as JSON: it runs with the standard library alone
    nbformat = None

if str(Path(__file__).resolve().parent) not in sys.path:  # nbclean beside this file, even under `python -I`
    sys.path.insert(0, str(Path(__file__).resolve().parent))
from nbclean import (KERNELSPEC, LANGUAGE_INFO, WIDGET_VIEW, cells_fingerprint, committed_text,  # noqa: E402,F401
                     normalize)

ROOT = Path(__file__).resolve().parents[1]
OWN_KEY = "kinematics_lib"   # notebook metadata of generated exercises: {"generated": {...}}
EXIT_REFUSED = 3


def notebooks(folder: str) -> list[Path]:
    return sorted(p for p in (ROOT / folder).glob("*.ipynb"))


def rel(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def write(nb, path: Path) -> None:
    text = nbformat.writes(nb) + "\n"
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def _keep_volatile_outputs(new, old) -> None:
    """Cells tagged nbval-ignore-output (timings, machine facts) change on every run. Keep their
    committed outputs when the cell's source is unchanged, so that re-executing an unchanged tree
    changes nothing; ``execute --refresh`` stores the new ones."""
    previous = {c.get("id"): c for c in old.cells if c.cell_type == "code"}
    for cell in new.cells:
        before = previous.get(cell.get("id"))
        if (cell.cell_type == "code" and "nbval-ignore-output" in cell.metadata.get("tags", [])
                and before is not None and before.source == cell.source):
            cell.outputs = before.outputs


def execute(path: Path, timeout: int = 900, refresh: bool = False) -> None:
    """Run every cell of ``path`` in a fresh kernel (cwd = its folder) and save it normalised."""
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    old = copy.deepcopy(nb)
    env_backup = os.environ.pop("KL_QUICK", None)  # committed notebooks are full runs
    try:
        client = NotebookClient(nb, timeout=timeout, kernel_name=KERNELSPEC["name"], record_timing=False,
                                resources={"metadata": {"path": str(path.parent)}})
        client.execute()
    finally:
        if env_backup is not None:
            os.environ["KL_QUICK"] = env_backup
    reported = nb.metadata.get("language_info", {})
    if reported != LANGUAGE_INFO:
        print(f"  note: this kernel reports language_info {reported}; the notebook keeps the pinned "
              f"{LANGUAGE_INFO} (tools/nbtools.py LANGUAGE_INFO)", flush=True)
    nb = normalize(nb)
    if not refresh:
        _keep_volatile_outputs(nb, old)
    write(nb, path)


# --- exercises ---------------------------------------------------------------------------------

def to_exercise(solution, source_name: str | None = None):
    """Student version of a solution notebook, as ``nbgrader generate_assignment`` releases it
    (solutions and hidden tests removed, outputs cleared, cells locked, checksums), plus the
    fingerprint that lets ``exercises`` recognise a hand-edited copy."""
    from nbgrader.preprocessors import (CheckCellMetadata, ClearHiddenTests, ClearMarkScheme, ClearOutput,
                                        ClearSolutions, ComputeChecksums, LockCells)

    nb = copy.deepcopy(solution)
    resources = {}
    for pp in (LockCells(), ClearSolutions(enforce_metadata=True), ClearOutput(), CheckCellMetadata(),
               ClearHiddenTests(enforce_metadata=True), ClearMarkScheme(enforce_metadata=True),
               ComputeChecksums(), CheckCellMetadata()):
        nb, resources = pp.preprocess(nb, resources)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.execution_count = None
    nb = normalize(nb)
    nb.metadata[OWN_KEY] = {"generated": {
        "from": f"solutions/{source_name}" if source_name else "solutions/",
        "by": "python3 tasks.py exercises (tools/nbtools.py); edit the solution, never this file",
        "cells_sha256": cells_fingerprint(nb)}}
    return nb


def exercise_path(solution: Path) -> Path:
    return ROOT / "exercises" / solution.name


def generated_text(solution: Path) -> str:
    nb = to_exercise(nbformat.read(solution, as_version=4), solution.name)
    return nbformat.writes(nb) + "\n"


def _read_json_notebook(text: str):
    try:
        return nbformat.reads(text, as_version=4)
    except Exception:  # noqa: BLE001 - unreadable means: do not touch
        return None


def generated_as(nb) -> str | None:
    """The file name an exercise was generated as (its fingerprint names its solution,
    ``solutions/<name>``, and the exercise has the same name), or None (no fingerprint)."""
    stamp = nb.metadata.get(OWN_KEY, {}).get("generated")
    source = stamp.get("from") if isinstance(stamp, dict) else None
    if isinstance(source, str) and source.startswith("solutions/") and source != "solutions/":
        return source.split("/", 1)[1]
    return None


def classify(path: Path, new_text: str | None = None) -> str:
    """What ``path`` in exercises/ is, for the generator:

    'same'      its content is what would be written (nothing to do);
    'generated' it IS the exercise generated under this name (its fingerprint names
                ``solutions/<its own name>``), unchanged since (safe to replace or remove);
    'edited'    that exercise with cells changed by hand (never overwritten without --force,
                never removed);
    'foreign'   anything else, e.g. a student's copy of an exercise under another name or a new
                notebook (never touched, even with --force).

    ``new_text`` is given when ``path`` is the exercise of a current solution (what would be
    written there); a file in that place is never 'foreign', since regeneration must write it.
    """
    text = path.read_text(errors="replace")
    if new_text is not None and text == new_text:
        return "same"
    nb = _read_json_notebook(text)
    if nb is None:
        return "edited" if new_text is not None else "foreign"
    name = generated_as(nb)
    if name == path.name:
        stamp = nb.metadata[OWN_KEY]["generated"]
        return "generated" if stamp.get("cells_sha256") == cells_fingerprint(nb) else "edited"
    if new_text is None:
        return "foreign"         # a copy (its fingerprint names another file) or someone's notebook
    if name is not None:
        return "edited"          # another exercise copied over this one
    # no fingerprint: an exercise generated before fingerprints existed, or someone's notebook
    if cells_fingerprint(nb) == cells_fingerprint(nbformat.reads(new_text, as_version=4)):
        return "generated"       # same cells: only outputs/metadata differ, nothing written by a person
    committed = committed_text(path.parent, path.name)
    if committed is not None:
        old = _read_json_notebook(committed)
        if old is not None and cells_fingerprint(old) == cells_fingerprint(nb):
            return "generated"   # exactly as committed: git keeps it, replacing it loses nothing
    return "edited"


def free_copy_name(path: Path) -> Path:
    """A name in work/ that does not exist yet, for keeping a copy of ``path``."""
    target = ROOT / "work" / path.name
    k = 2
    while target.exists():
        target = ROOT / "work" / f"{path.stem}-{k}{path.suffix}"
        k += 1
    return target


@dataclass
class Plan:
    write: list            # (target, text)
    remove: list           # targets (generated under their own name, unchanged, solution gone)
    refused: list          # (target, reason) hand-edited exercise of a current solution, kept
    foreign: list          # (target, why) left alone: students' files, edited exercises of removed solutions


def plan_exercises(only: list[Path] | None = None, force: bool = False) -> Plan:
    """Decide what regenerating exercises/ does, without writing anything."""
    plan = Plan([], [], [], [])
    wanted = None if only is None else {p.resolve() for p in only}
    solutions = notebooks("solutions")
    for sol in solutions:
        if wanted is not None and sol.resolve() not in wanted:
            continue
        target = exercise_path(sol)
        text = generated_text(sol)
        state = classify(target, text) if target.exists() else "generated"
        if state == "same":
            continue
        if state == "edited" and not force:
            plan.refused.append((target, f"its cells differ from the version generated from solutions/{sol.name}"))
            continue
        plan.write.append((target, text))
    if only is None:
        names = {s.name for s in solutions}
        for ex in notebooks("exercises"):
            if ex.name in names:
                continue
            state = classify(ex)
            if state == "generated":
                plan.remove.append(ex)
            elif state == "edited":   # never removed, not even with --force: someone wrote in it
                plan.foreign.append((ex, f"edited by hand; solutions/{ex.name} was removed, so nothing "
                                         "regenerates it: move it to work/ if the edit is yours, or delete it"))
            else:
                plan.foreign.append((ex, "not generated here"))
    return plan


def refusal_message(plan: Plan, command: str) -> str:
    """How to keep or discard each refused edit (every refused file is the exercise of an existing
    solution, so the advice names files that exist)."""
    lines = []
    for target, reason in plan.refused:
        name = target.relative_to(ROOT).as_posix()
        keep = free_copy_name(target).relative_to(ROOT).as_posix()
        lines += [f"REFUSED: {name} was edited by hand ({reason}); nothing was written.",
                  "  To keep the edit, copy it into work/ (your folder, which no command touches), then regenerate:",
                  f"      mkdir -p work && cp {name} {keep}",
                  f"      python3 tasks.py {command} --force",
                  f"  Authors: put the change into solutions/{target.name} (the single source) instead.",
                  f"  To discard the edit: python3 tasks.py {command} --force"]
    return "\n".join(lines)


def apply_plan(plan: Plan) -> list[str]:
    done = []
    for target, text in plan.write:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
        done.append(f"wrote {rel(target)}")
    for target in plan.remove:
        target.unlink()
        done.append(f"removed {rel(target)} (generated from solutions/{target.name}, which was removed)")
    for target, why in plan.foreign:
        done.append(f"left alone: {rel(target)} ({why})")
    return done


def make_exercises(only: list[Path] | None = None, force: bool = False) -> list[Path]:
    """Write exercises/ from solutions/ (all of them, or only the solution notebooks in ``only``).
    Raises RuntimeError (with the refusal message) if a hand-edited exercise would be replaced."""
    plan = plan_exercises(only, force)
    if plan.refused:
        raise RuntimeError(refusal_message(plan, "exercises"))
    apply_plan(plan)
    return [t for t, _ in plan.write]


def out_of_date() -> list[str]:
    """Problems with exercises/: missing, stale or different from what generation would write.
    A notebook that was never generated here (a student's copy) is not a problem and is ignored."""
    problems = []
    names = set()
    for sol in notebooks("solutions"):
        names.add(sol.name)
        target = exercise_path(sol)
        if not target.exists():
            problems.append(f"exercises/{sol.name} is missing")
            continue
        text = generated_text(sol)
        actual = _read_json_notebook(target.read_text(errors="replace"))
        if actual is None or json.loads(nbformat.writes(actual)) != json.loads(text):
            edited = classify(target, text) == "edited"
            problems.append(f"exercises/{sol.name} differs from its generated version"
                            + (" (edited by hand: `python3 tasks.py exercises` says how to keep the edit)"
                               if edited else ""))
    for ex in notebooks("exercises"):
        state = "foreign" if ex.name in names else classify(ex)
        if state == "generated":
            problems.append(f"exercises/{ex.name} has no solution in solutions/ (`python3 tasks.py exercises` "
                            "removes it)")
        elif state == "edited":
            problems.append(f"exercises/{ex.name} has no solution in solutions/ and was edited by hand "
                            "(no command removes it: move it to work/ or delete it)")
    return problems


def generated_exercises() -> list[Path]:
    """The notebooks of exercises/ that are generated from a solution (not students' copies)."""
    names = {s.name for s in notebooks("solutions")}
    return [p for p in notebooks("exercises") if p.name in names]


def points_table() -> str:
    """Markdown table of the points per solution notebook: autograded (self-checks) and written
    answers graded by hand (nbgrader "manually graded answer" cells). Reads the notebooks as plain
    JSON, so it needs only the standard library."""
    rows, total = [], [0, 0]
    for sol in notebooks("solutions"):
        auto = manual = 0
        for cell in json.loads(sol.read_text(encoding="utf-8"))["cells"]:
            g = cell.get("metadata", {}).get("nbgrader", {})
            if g.get("grade"):
                if g.get("solution"):
                    manual += g.get("points", 0)
                else:
                    auto += g.get("points", 0)
        rows.append(f"| `{sol.name}` | {auto} | {manual} | {auto + manual} |")
        total[0] += auto
        total[1] += manual
    head = ["| notebook | automatic (self-checks) | manual (written answers) | total |",
            "| --- | --- | --- | --- |"]
    return "\n".join(head + rows + [f"| **all** | **{total[0]}** | **{total[1]}** | **{sum(total)}** |"])


def main(argv: list[str]) -> int:
    if argv[:1] == ["points"]:
        print(points_table())
        return 0
    if not argv or argv[0] not in ("execute", "exercises", "check"):
        print(__doc__)
        return 2
    if nbformat is None:
        print(f"`{argv[0]}` needs nbformat, nbclient and nbgrader (the development environment): "
              f"run `python3 tasks.py {argv[0]}`, which installs and uses it")
        return 2
    command, flags = argv[0], {a for a in argv[1:] if a.startswith("--")}
    args = [a for a in argv[1:] if not a.startswith("--")]
    unknown = flags - {"--refresh", "--force"}
    if unknown or (command != "execute" and "--refresh" in flags) or (command == "check" and flags):
        print(f"unknown option(s) {sorted(unknown or flags)}\n{__doc__}")
        return 2
    force = "--force" in flags
    if command == "check":
        problems = out_of_date()
        print("\n".join(problems) or "exercises/ is up to date")
        return 1 if problems else 0
    if command == "execute":
        paths = [Path(a).resolve() for a in args] or notebooks("chapters") + notebooks("solutions")
        only = None if not args else paths
        before = plan_exercises(only, force)           # refuse before spending minutes executing
        if before.refused:
            print(refusal_message(before, "execute"))
            return EXIT_REFUSED
        for p in paths:
            print(f"executing {rel(p)}", flush=True)
            execute(p, refresh="--refresh" in flags)
    else:
        only = None
    plan = plan_exercises(only, force)
    if plan.refused:
        print(refusal_message(plan, command))
        return EXIT_REFUSED
    for line in apply_plan(plan):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

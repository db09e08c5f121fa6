"""What changes in a notebook from run to run, and JupyterLab's save hook that drops it.

Standard library only: ``tools/nbtools.py`` imports it, and so does the students' JupyterLab
server through the config that ``python3 tasks.py lab`` writes.

``normalize(nb)`` strips what differs between two runs of the same notebook: execution
timestamps, widget state (``metadata.widgets``) and widget-view outputs (their model ids are
random; the static PNG and the text stay), a kernelspec or ``language_info`` other than the
pinned kernel's, and the split of stream outputs. It works on an ``nbformat`` notebook and on
the plain JSON dict that JupyterLab sends to the server.

``pre_save_hook`` is that server's ``FileContentsManager.pre_save_hook``. For a notebook that git
tracks in this repository's ``chapters/`` or ``exercises/``:

* if its cells (type, source, attachments) are those of the committed version, the committed
  version is saved: a chapter that was only read and run (in any order, with any slider values)
  stays byte-identical to the commit, so ``git pull`` never stops on it;
* otherwise (a cell was edited) the notebook is saved with every edit kept and only the
  run-to-run noise removed (``normalize``).

Any other notebook (``work/``, a copy under a new name, a file git does not track) is saved as
JupyterLab sends it. A failing hook never blocks a save: jupyter_server logs the error and saves
the notebook unchanged.
"""

from __future__ import annotations

import copy
import hashlib
import json
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
HOOKED_FOLDERS = ("chapters", "exercises")
TRANSLATED = ("zh",)    # chapters/zh, exercises/zh: the Chinese edition (tools/translate.py)
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
# What JupyterLab writes when it opens a notebook with the pinned kernel (ipykernel 7.4.0 from
# requirements/, the CI interpreter CPython 3.11.7): its kernelspec and the kernel_info reply's
# language_info. Committing exactly this keeps an opened, run and saved chapter's metadata
# unchanged; tests/test_notebooks.py re-executes a chapter and compares.
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
LANGUAGE_INFO = {
    "codemirror_mode": {"name": "ipython", "version": 3},
    "file_extension": ".py",
    "mimetype": "text/x-python",
    "name": "python",
    "nbconvert_exporter": "python",
    "pygments_lexer": "ipython3",
    "version": "3.11.7",
}


def _text(value) -> str:
    """A notebook string: JSON on disk may split it into a list of lines."""
    return "".join(value) if isinstance(value, list) else value


def normalize(nb):
    """A copy of ``nb`` without what changes from run to run; sources, outputs and nbgrader
    metadata are kept."""
    nb = copy.deepcopy(nb)
    nb["metadata"].pop("widgets", None)
    nb["metadata"]["kernelspec"] = copy.deepcopy(KERNELSPEC)
    nb["metadata"]["language_info"] = copy.deepcopy(LANGUAGE_INFO)
    for cell in nb["cells"]:
        meta = cell.setdefault("metadata", {})
        for key in ("execution", "collapsed", "scrolled"):
            meta.pop(key, None)
        if cell["cell_type"] != "code":
            cell.pop("outputs", None)
            cell.pop("execution_count", None)
            continue
        kept = []
        for out in cell.get("outputs", []):
            data = out.get("data")
            if data is not None and WIDGET_VIEW in data:
                del data[WIDGET_VIEW]
                if not data:
                    continue
            out.pop("transient", None)
            last = kept[-1] if kept else None
            if (out["output_type"] == "stream" and last is not None and last["output_type"] == "stream"
                    and last["name"] == out["name"]):  # how a stream is split depends on flush timing
                last["text"] = _text(last["text"]) + _text(out["text"])
                continue
            kept.append(out)
        cell["outputs"] = kept
    return nb


def cells_fingerprint(nb) -> str:
    """sha256 of what a person can write in a notebook: each cell's type, source and attachments."""
    h = hashlib.sha256()
    for cell in nb["cells"]:
        h.update(json.dumps([cell["cell_type"], _text(cell["source"]), cell.get("attachments", {})],
                            sort_keys=True, ensure_ascii=False).encode())
    return h.hexdigest()


def committed_text(folder: Path, name: str) -> str | None:
    """The content of ``name`` (a path relative to ``folder``, a folder of a git work tree) at
    git's HEAD, or None (not tracked, not a git checkout, or no git)."""
    try:
        out = subprocess.run(["git", "-C", str(folder), "cat-file", "blob", f"HEAD:./{name}"], capture_output=True,
                             timeout=30, check=True)
        return out.stdout.decode("utf-8")
    except (OSError, UnicodeDecodeError, subprocess.SubprocessError):
        return None


def pre_save_hook(model, path, contents_manager, **kwargs):
    """jupyter_server's ``FileContentsManager.pre_save_hook`` (see the module docstring)."""
    if model.get("type") != "notebook" or not isinstance(model.get("content"), dict):
        return
    try:
        name = Path(contents_manager.root_dir, path).resolve().relative_to(REPO)
    except ValueError:
        return  # not in this repository
    if name.parts[0] not in HOOKED_FOLDERS or not (
            len(name.parts) == 2 or (len(name.parts) == 3 and name.parts[1] in TRANSLATED)):
        return
    committed = committed_text(REPO, name.as_posix())
    if committed is None:
        return  # git does not track it: a notebook of the student's own, saved as it is
    sent, before = model["content"], json.loads(committed)
    # jupyter_server turns the content into a notebook (nbformat.from_dict) and writes it as
    # nbtools does: the committed JSON comes back byte for byte (tests/test_save_hook.py)
    model["content"] = before if cells_fingerprint(sent) == cells_fingerprint(before) else normalize(sent)

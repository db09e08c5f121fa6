#!/usr/bin/env python3
"""Hand out the collection: copy chapters/ and exercises/ into a user's home, never replacing a file.

    python3 hand_out.py COLLECTION HOME      (the image's start hook, see classroom/Dockerfile)

Used at every server start, by classroom/jupyterhub_config.py (one server) and by the image in
Kubernetes (z2jh-values.yaml): a new student gets everything; a returning student gets only what
was added since, and every file they already have (an answered exercise, an edited chapter) stays
as it is. Standard library only.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

HANDED_OUT = ("chapters", "exercises")   # never solutions/


def hand_out(collection: Path, home: Path, owner: tuple[int, int] | None = None) -> list[Path]:
    """Copy the missing files of collection/{chapters,exercises} into home; returns the copies.
    owner: (uid, gid) for new files and folders when run as root for another account."""
    copied = []
    if not home.exists():
        home.mkdir(parents=True, mode=0o700)
        if owner:
            os.chown(home, *owner)
    for folder in HANDED_OUT:
        src_root = Path(collection) / folder
        if not src_root.is_dir():
            continue
        for src in sorted(src_root.rglob("*")):
            if ".ipynb_checkpoints" in src.parts or "__pycache__" in src.parts:
                continue
            dst = home / src.relative_to(collection)
            if src.is_dir():
                if dst.is_dir():
                    continue
                dst.mkdir(parents=True)
            elif dst.exists() or dst.is_symlink():      # the student's file wins
                continue
            else:
                dst.parent.mkdir(parents=True, exist_ok=True)
                with open(src, "rb") as fin, open(dst, "xb") as fout:   # "x": never replaces, even in a race
                    shutil.copyfileobj(fin, fout)
                copied.append(dst)
            if owner:
                os.chown(dst, *owner)
    return copied


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    done = hand_out(Path(sys.argv[1]), Path(sys.argv[2]).expanduser())
    print(f"hand_out: {len(done)} new files in {sys.argv[2]}")

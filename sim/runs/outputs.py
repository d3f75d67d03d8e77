"""Output files of the commands, checked before the work that fills them: a path below a file,
in a missing or read-only folder, or naming a folder is refused in one line at once, instead of
failing after minutes of computing."""

from __future__ import annotations

import os
from pathlib import Path

from sim.core.errors import CanastaError


def writable_file(path: str | os.PathLike, make_parent: bool = False) -> Path:
    """`path` as a file this process can create or overwrite (with `make_parent`, in a folder
    that can be created); CanastaError saying why not."""
    p = Path(path)
    if p.is_dir():
        raise CanastaError(f"{p} is a folder; give a file name (e.g. {p / 'out.csv'})")
    parent = p.parent if str(p.parent) else Path(".")
    for up in (parent, *parent.parents):
        if up.exists():
            if not up.is_dir():
                raise CanastaError(f"cannot write {p}: {up} is a file, not a folder")
            break
    if not parent.exists():
        if make_parent:
            return p
        raise CanastaError(f"cannot write {p}: folder {parent} does not exist")
    if p.exists() and not os.access(p, os.W_OK):
        raise CanastaError(f"cannot write {p}: the file is read-only")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise CanastaError(f"cannot write {p}: folder {parent} is not writable")
    return p

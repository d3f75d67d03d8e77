"""Output files of the commands: checked before the work that fills them, and written whole or
not at all.

- `writable_file`: a path below a file, in a missing or read-only folder (probed by creating a
  file there), or naming a folder is refused in one line at once, instead of failing after
  minutes of computing.
- `atomic_files`: every output is written under a temporary name beside its final one and
  renamed over it only when all of a command's files are written, so a full disk, a crash or
  Ctrl-C leaves the earlier files (or none) in place, never a truncated one.  A target that
  exists and is not a regular file (/dev/null, a pipe) is written directly.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from sim.core.errors import CanastaError

__all__ = ["writable_file", "atomic_files", "write_atomic"]


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
    if not os.access(parent, os.W_OK | os.X_OK) or not _can_create(parent):
        raise CanastaError(f"cannot write {p}: folder {parent} is not writable")
    return p


def _can_create(folder: Path) -> bool:
    """Can this process create a file in `folder`?  (Permission bits do not tell for root, a
    read-only mount or /proc: try it.)"""
    try:
        fd, name = tempfile.mkstemp(prefix=".canasta-probe-", dir=folder)
    except OSError:
        return False
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(name)
    return True


def _temp_beside(path: Path) -> Path:
    """A fresh name in the folder of `path`, with its suffix (writers pick the format by it)."""
    return path.with_name(f".{path.stem}.tmp-{os.getpid()}-{id(path) % 10**6}{path.suffix}")


@contextlib.contextmanager
def atomic_files(*paths: str | os.PathLike) -> Iterator[tuple[Path, ...]]:
    """Temporary paths to write `paths` to; renamed over them when the block ends without an
    error (all of them, or none), removed when it fails.

        with atomic_files(out, out.with_suffix(".png")) as (table, png):
            save(table); fig.savefig(png)
    """
    finals = [Path(p) for p in paths]
    temps = []
    for f in finals:
        direct = f.exists() and not f.is_file()  # /dev/null, a pipe: no rename over it
        temps.append(f if direct else _temp_beside(f))
    try:
        yield tuple(temps)
        _swap_in([(t, f) for t, f in zip(temps, finals, strict=True) if t != f])
    finally:
        for t, f in zip(temps, finals, strict=True):
            if t != f:
                with contextlib.suppress(OSError):
                    t.unlink()


def _swap_in(pairs: list[tuple[Path, Path]]) -> None:
    """Rename each temporary file over its final name, all or none: the earlier files are
    moved aside first and put back if a rename fails."""
    if len(pairs) == 1:  # one file: a rename replaces it atomically
        os.replace(*pairs[0])
        return
    aside: list[tuple[Path, Path]] = []
    placed: list[Path] = []
    try:
        for _, f in pairs:
            if f.exists():
                keep = f.with_name(f".{f.name}.old-{os.getpid()}")
                os.replace(f, keep)
                aside.append((keep, f))
        for t, f in pairs:
            os.replace(t, f)
            placed.append(f)
    except BaseException:
        for f in placed:
            with contextlib.suppress(OSError):
                f.unlink()
        for keep, f in aside:
            with contextlib.suppress(OSError):
                os.replace(keep, f)
        raise
    for keep, _ in aside:
        with contextlib.suppress(OSError):
            keep.unlink()


def write_atomic(path: str | os.PathLike, data: str | bytes, encoding: str = "utf-8") -> Path:
    """Write `data` to `path` whole or not at all (see `atomic_files`)."""
    with atomic_files(path) as (tmp,):
        with open(tmp, "wb") as fh:
            fh.write(data.encode(encoding) if isinstance(data, str) else data)
    return Path(path)

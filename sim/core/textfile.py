"""Small text files a user gives (position files, hand records, stacked decks): read whole, but
only when they are what they claim to be.

`read_small_text` refuses, in one line naming the file, a path that is missing or a folder, a
file larger than its kind ever is (checked before reading it: a 60 MB file is refused at once,
not after filling memory), bytes that are not UTF-8 text, and a file that cannot be read; a
leading UTF-8 byte-order mark (as some editors write) is dropped.
"""

from __future__ import annotations

import os
from pathlib import Path

from sim.core.errors import CanastaError

__all__ = ["read_small_text"]


def read_small_text(
    path: str | os.PathLike,
    what: str,
    max_bytes: int,
    error: type[CanastaError] = CanastaError,
) -> str:
    """The text of the `what` (e.g. "position file") at `path`, at most `max_bytes` long."""
    if not isinstance(path, str | os.PathLike) or not str(path).strip():
        raise error(f"{what} {path!r}: give the path of a file")
    p = Path(path)
    if p.is_dir():
        raise error(f"{what} {p} is a folder; give a file")
    if not p.exists():
        raise error(f"{what} {p} not found")
    try:
        size = p.stat().st_size
        if size > max_bytes:
            raise error(
                f"{what} {p}: {size:,} bytes is more than a {what} holds (at most "
                f"{max_bytes:,}); is it the right file?"
            )
        data = p.read_bytes()
    except OSError as exc:
        raise error(f"{what} {p}: cannot read it ({exc.strerror or type(exc).__name__})") from None
    if b"\0" in data:
        raise error(f"{what} {p}: not a text file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(f"{what} {p}: not a text file (byte {exc.start} is not UTF-8)") from None
    return text.removeprefix("\ufeff")

"""Checkpoints of long commands (equity, tune, review, analyze): finished units of work kept on
disk as they finish, so an interrupted command continues with ``--resume`` to the result an
uninterrupted run gives.

A checkpoint is an append-only file: a header naming the command and its settings (everything
the result depends on), then one record per finished unit (a key and its value, pickled, with
its length and a CRC-32).  A record is appended and flushed to the operating system as soon as
its unit finishes, so a kill -9 or a power cut loses at most the units under way; a record cut
short by the kill fails its length or CRC and is dropped on reading.  Every unit's result
depends only on the settings and its key (seeded work), which makes the resumed result
identical to an uninterrupted one.

- Without ``--resume`` a checkpoint left by an interrupted run is refused in one line (add
  ``--resume`` to continue it, or delete it), so finished work is never thrown away silently.
- With ``--resume`` its settings must be the command's own.
- When the command has written its result, the checkpoint is deleted.

The file sits beside the command's output (``OUT.partial``), or without an output file in the
current folder (``.canasta-CMD-HASH.partial``, HASH from the settings).  Checkpoints are this
lab's own files: they are unpickled, so do not resume from a file of unknown origin.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import pickle
import struct
import zlib
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any

from sim.core.errors import CanastaError

__all__ = ["Checkpoint", "CheckpointError", "checkpoint_path", "active", "records", "MAGIC"]

MAGIC = b"canasta-checkpoint 1\n"
_REC = struct.Struct("<QI")  # length, crc32 of the pickled (key, value)
_ACTIVE: list[Checkpoint] = []  # the open checkpoints of this process (for the Ctrl-C message)


class CheckpointError(CanastaError):
    """A checkpoint that cannot be used: another command's, other settings, or left over."""


def _canonical(settings: dict) -> str:
    return json.dumps(settings, sort_keys=True, default=str, separators=(",", ":"))


def checkpoint_path(command: str, settings: dict, out: str | os.PathLike | None = None) -> Path:
    """Where the checkpoint of `command` with `settings` lives: beside `out`, else in the
    current folder under a name made from the settings."""
    if out is not None and str(out) not in ("", "-"):
        o = Path(out)
        return o.with_name(o.name + ".partial")
    digest = hashlib.blake2b(_canonical(settings).encode(), digest_size=6).hexdigest()
    return Path.cwd() / f".canasta-{command}-{digest}.partial"


def active() -> list[Checkpoint]:
    """The checkpoints this process has open (what a Ctrl-C leaves behind)."""
    return list(_ACTIVE)


def records(path: str | os.PathLike) -> int:
    """Whole records in the checkpoint file at `path` (0 when it is missing)."""
    try:
        data = Path(path).read_bytes()
    except OSError:
        return 0
    end = data.find(b"\n", len(MAGIC)) if data.startswith(MAGIC) else -1
    if end < 0:
        return 0
    pos, n = end + 1, 0
    while pos + _REC.size <= len(data):
        length, crc = _REC.unpack_from(data, pos)
        body = data[pos + _REC.size : pos + _REC.size + length]
        if len(body) != length or zlib.crc32(body) != crc:
            break
        pos += _REC.size + length
        n += 1
    return n


class Checkpoint:
    """The finished units of one command (see the module docstring).

    ``resume=False`` starts a new checkpoint (refusing one left by an interrupted run);
    ``resume=True`` continues the one at `path` (refusing a missing one or other settings).
    Use `get` / `put` (or `run`) per unit and `finish` when the result is written."""

    def __init__(self, path: str | os.PathLike, command: str, settings: dict, resume: bool) -> None:
        self.path = Path(path)
        self.command = command
        self.header = _canonical({"command": command, "settings": settings})
        self.done: dict[Hashable, Any] = {}
        if resume:
            self._load(command)
        elif self.path.exists():
            raise CheckpointError(
                f"{self.path} holds the finished work of an interrupted `canasta {command}`: add "
                "--resume to continue it, or delete the file to start over"
            )
        self._fh: Any = None
        self._open(append=resume)
        _ACTIVE.append(self)

    # ------------------------------------------------------------------ reading

    def _load(self, command: str) -> None:
        if not self.path.is_file():
            raise CheckpointError(
                f"--resume: nothing to resume, {self.path} does not exist (run without --resume)"
            )
        data = self.path.read_bytes()
        if not data.startswith(MAGIC):
            raise CheckpointError(f"{self.path} is not a checkpoint of canasta {command}")
        end = data.find(b"\n", len(MAGIC))
        header = data[len(MAGIC) : end].decode("utf-8", "replace") if end >= 0 else ""
        if header != self.header:
            raise CheckpointError(
                f"--resume: {self.path} was made by other settings (or another command); give the "
                "settings of the interrupted run, or delete it to start over"
            )
        pos, good = end + 1, end + 1
        while pos + _REC.size <= len(data):
            length, crc = _REC.unpack_from(data, pos)
            body = data[pos + _REC.size : pos + _REC.size + length]
            if len(body) != length or zlib.crc32(body) != crc:
                break  # the record a kill cut short: its unit runs again
            key, value = pickle.loads(body)
            self.done[key] = value
            pos += _REC.size + length
            good = pos
        self._valid = good

    # ------------------------------------------------------------------ writing

    def _open(self, append: bool) -> None:
        if append:
            with open(self.path, "r+b") as fh:  # drop a torn last record before appending
                fh.truncate(self._valid)
            self._fh = open(self.path, "ab", buffering=0)
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".new")
        try:
            with open(tmp, "wb") as fh:
                fh.write(MAGIC + self.header.encode() + b"\n")
            os.replace(tmp, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise
        self._fh = open(self.path, "ab", buffering=0)

    def __contains__(self, key: Hashable) -> bool:
        return key in self.done

    def get(self, key: Hashable, default: Any = None) -> Any:
        return self.done.get(key, default)

    def put(self, key: Hashable, value: Any) -> None:
        """Record one finished unit (one write call: a kill leaves it whole or detectably cut)."""
        body = pickle.dumps((key, value), protocol=pickle.HIGHEST_PROTOCOL)
        self._fh.write(_REC.pack(len(body), zlib.crc32(body)) + body)
        self.done[key] = value

    def run(self, key: Hashable, fn: Callable[[], Any]) -> Any:
        """The unit's value: from the checkpoint, else computed by `fn` and recorded."""
        if key in self.done:
            return self.done[key]
        value = fn()
        self.put(key, value)
        return value

    def close(self) -> None:
        """Stop writing; the file stays when it holds finished work (an interrupted run)."""
        if self._fh is not None:
            self._fh.close()
            self._fh = None
            if not self.done:  # nothing finished: nothing to resume
                with contextlib.suppress(OSError):
                    self.path.unlink()
        with contextlib.suppress(ValueError):
            _ACTIVE.remove(self)

    def finish(self) -> None:
        """The result is written: delete the checkpoint."""
        self.close()
        with contextlib.suppress(OSError):
            self.path.unlink()


class NoCheckpoint:
    """The same interface, keeping nothing (a command run from Python without a checkpoint)."""

    path = None
    done: dict = {}

    def __contains__(self, key: Hashable) -> bool:
        return False

    def get(self, key: Hashable, default: Any = None) -> Any:
        return default

    def put(self, key: Hashable, value: Any) -> None:
        pass

    def run(self, key: Hashable, fn: Callable[[], Any]) -> Any:
        return fn()

    def close(self) -> None:
        pass

    def finish(self) -> None:
        pass

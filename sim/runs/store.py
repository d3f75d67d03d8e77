"""Run folders: manifest, parquet shards per chunk, resume bookkeeping, reading back.

Layout of a run folder (docs/DATA.md)::

    runs/x/manifest.json              written first: what was asked (rules, strategies, seed, ...)
    runs/x/hands/part-000123.parquet  one shard per chunk and table (zstd, compact int types)
    runs/x/decisions/part-000123.parquet
    runs/x/games/part-000123.parquet
    runs/x/done/000123                written last: the chunk is complete (JSON row counts)
    runs/x/.lock                      locked (flock) by the process writing the folder

Every file is written under a temporary name in its final folder and renamed with os.replace,
so a file with a final name is always complete.  A chunk counts as done iff its marker and its
three shards exist; everything else (``*.tmp`` files, shards of unfinished chunks) is removed on
resume and never read.  Reading (``read_run``) only looks at shards of done chunks.

The tables' column types and parquet encoding live in ``sim.runs.encode`` (run in the
workers); the checks of damaged shards in ``sim.runs.integrity``.

Notebook use::

    from sim.runs.store import read_run
    hands = read_run("runs/x", columns=["game", "score_t0", "score_t1", "end_reason"])
    hands[["score_t0", "score_t1"]].describe()
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq

from sim.core.errors import CanastaError, one_line
from sim.runs import integrity
from sim.runs.encode import (  # noqa: F401 - re-exported: the store's names of before
    COLUMN_DTYPES,
    COMPRESSION,
    HAND_SCALAR_FIELDS,
    HAND_TEAM_FIELDS,
    KEY_COLUMNS,
    RUN_COLUMNS,
    TABLES,
    _match_keys,
    chunk_payload,
    conform_frames,
    decode_table,
    encode_table,
    encode_tables,
    frame_tables,
    record_tables,
    records_to_frames,
)
from sim.runs.integrity import DamagedShardError, RunFolderError

FORMAT = "canasta-run"
FORMAT_VERSION = 2  # 2: page checksums, each shard's chunk key range, marker sizes
READ_VERSIONS = (1, 2)  # version 1 folders are read (and resumed) without the key-range checks
MANIFEST = "manifest.json"
DONE_DIR = "done"
TMP_SUFFIX = ".tmp"
LOCK = ".lock"  # held (flock) by the process writing into the folder

# settings that make two runs the same experiment (compared on --resume / reuse of a folder)
EXPERIMENT_KEYS = ("rules", "strategies", "seed", "mode", "total", "chunk_size", "log_decisions")

# what the readers and --resume use from a manifest
MANIFEST_KEYS = EXPERIMENT_KEYS + ("n_chunks",)

_PART_RE = re.compile(r"^part-(\d+)\.parquet$")
_MARK_RE = re.compile(r"^(\d+)$")


# ----------------------------------------------------------------------------- names


def shard_name(index: int) -> str:
    return f"part-{index:06d}.parquet"


def shard_path(root: str | os.PathLike, table: str, index: int) -> Path:
    return Path(root) / table / shard_name(index)


def marker_path(root: str | os.PathLike, index: int) -> Path:
    return Path(root) / DONE_DIR / f"{index:06d}"


# ----------------------------------------------------------------------------- writing


def _atomic_write(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + TMP_SUFFIX)
    with open(tmp, "wb") as fh:
        fh.write(data)
    os.replace(tmp, path)


def write_chunk(
    root: str | os.PathLike,
    index: int,
    payload: Mapping[str, bytes],
    rows: Mapping[str, int],
    key: Mapping[str, int] | None = None,
) -> None:
    """Write the three shards of chunk `index` (tmp + rename each), then its done marker
    (row counts, byte sizes and key range of the shards: what --resume and readers check)."""
    root = Path(root)
    for table in TABLES:
        _atomic_write(shard_path(root, table, index), payload[table])
    record: dict[str, Any] = {"rows": dict(rows), "bytes": {t: len(payload[t]) for t in TABLES}}
    if key is not None:
        record["key"] = dict(key)
    _atomic_write(marker_path(root, index), json.dumps(record).encode())


def _json_default(obj: Any) -> Any:
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.floating):
        return float(obj)
    if isinstance(obj, np.ndarray | tuple | set):
        return list(obj)
    raise TypeError(f"not JSON-serialisable: {type(obj).__name__}")


def normalize(obj: Any) -> Any:
    """JSON round trip: what a manifest holds after writing and reading."""
    return json.loads(json.dumps(obj, default=_json_default))


def write_manifest(root: str | os.PathLike, manifest: Mapping[str, Any]) -> None:
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    text = json.dumps(manifest, indent=2, default=_json_default) + "\n"
    _atomic_write(root / MANIFEST, text.encode())


def read_manifest(path: str | os.PathLike) -> dict[str, Any]:
    """The manifest of a run folder; RunFolderError if it is missing or not a canasta run."""
    if not isinstance(path, str | os.PathLike):
        raise RunFolderError(f"{path!r}: give the run folder as a path, e.g. 'runs/x'")
    root = Path(path)
    if root.is_file() and root.name == MANIFEST:
        root = root.parent
    mpath = root / MANIFEST
    if not root.exists():
        raise RunFolderError(f"{root}: no such run folder")
    if not mpath.is_file():
        raise RunFolderError(f"{root} is not a canasta run folder (no {MANIFEST})")
    try:
        manifest = json.loads(mpath.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RunFolderError(
            f"{root} is not a canasta run folder (corrupt {MANIFEST}: {exc})"
        ) from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise RunFolderError(
            f"{root} is not a canasta run folder ({MANIFEST} has no format '{FORMAT}')"
        )
    if manifest.get("version") not in READ_VERSIONS:
        raise RunFolderError(
            f"{root}: run format version {manifest.get('version')!r}, this canasta-lab reads "
            f"{', '.join(map(str, READ_VERSIONS))}"
        )
    missing = [k for k in MANIFEST_KEYS if k not in manifest]
    if missing:
        raise RunFolderError(
            f"{root} is not a canasta run folder (corrupt {MANIFEST}: no '{missing[0]}'); "
            "choose another folder, or delete this one and run again"
        )
    return manifest


def chunk_key_of(manifest: Mapping[str, Any], index: int) -> dict[str, int] | None:
    """The key range chunk `index` of this run must hold (None for version-1 folders, whose
    shards do not record it)."""
    if manifest.get("version", FORMAT_VERSION) < 2:
        return None
    size, total = int(manifest["chunk_size"]), int(manifest["total"])
    start = index * size
    return integrity.chunk_key(index, int(manifest["seed"]), start, min(size, total - start))


# ----------------------------------------------------------------------------- chunk states


def _indices(folder: Path, regex: re.Pattern[str]) -> set[int]:
    if not folder.is_dir():
        return set()
    out = set()
    for name in os.listdir(folder):
        m = regex.match(name)
        if m:
            out.add(int(m.group(1)))
    return out


def done_chunks(root: str | os.PathLike, n_chunks: int | None = None) -> list[int]:
    """Indices of complete chunks: marker and all shards exist (sorted)."""
    root = Path(root)
    done = _indices(root / DONE_DIR, _MARK_RE)
    for table in TABLES:
        done &= _indices(root / table, _PART_RE)
    if n_chunks is not None:
        done = {i for i in done if 0 <= i < n_chunks}
    return sorted(done)


def intact_chunks(
    root: str | os.PathLike, indices: Iterable[int], manifest: Mapping[str, Any] | None = None
) -> list[int]:
    """The chunks among `indices` whose shards are whole (sim.runs.integrity): each one's size,
    row count and key range are the ones its marker and the run's plan give, and every page's
    checksum matches.  Shards are not synced to disk (that would cost about 1 ms per file), so
    after a power cut a marker can outlive the data it vouches for; a copy can put one chunk's
    shard in another's place; resuming redoes such a chunk instead of trusting it.  Reads every
    shard once (the measured cost is in docs/DATA.md)."""
    root = Path(root)
    manifest = manifest if manifest is not None else read_manifest(root)
    indices = list(indices)
    # the parquet reader releases the GIL: one thread per core reads the shards side by side
    with ThreadPoolExecutor(max_workers=max(1, min(8, os.cpu_count() or 1))) as pool:
        bad = list(pool.map(lambda i: bool(chunk_problems(root, i, manifest, data=True)), indices))
    return [i for i, b in zip(indices, bad, strict=True) if not b]


def chunk_problems(root: Path, index: int, manifest: Mapping[str, Any], data: bool) -> list[str]:
    """What is wrong with done chunk `index` (empty if nothing): its marker, each shard's
    footer and, with `data`, each shard's pages."""
    rec = integrity.read_marker(marker_path(root, index))
    if rec is None:
        return [f"done marker {marker_path(root, index)} is unreadable"]
    key = chunk_key_of(manifest, index)
    if key is not None and rec.get("key") not in (None, key):
        return [f"done marker {marker_path(root, index)} is another chunk's"]
    out = []
    for t in TABLES:
        path = shard_path(root, t, index)
        why = integrity.footer_problem(
            path, key, rec["rows"].get(t), (rec.get("bytes") or {}).get(t)
        )
        if why is None and data:
            why = integrity.data_problem(path)
        if why:
            out.append(f"{path} {why}")
    return out


def clean_unfinished(root: str | os.PathLike, keep: Iterable[int]) -> int:
    """Delete temporary files and every file of a chunk not in `keep`; returns files removed."""
    root = Path(root)
    keep = set(keep)
    removed = 0
    for sub in (root, *(root / t for t in TABLES), root / DONE_DIR):
        if not sub.is_dir():
            continue
        for name in os.listdir(sub):
            p = sub / name
            if not p.is_file():
                continue
            if TMP_SUFFIX in name:
                p.unlink()
                removed += 1
                continue
            if sub == root:
                continue
            m = (_MARK_RE if sub.name == DONE_DIR else _PART_RE).match(name)
            if m and int(m.group(1)) not in keep:
                p.unlink()
                removed += 1
    return removed


def folder_has_files(root: Path) -> bool:
    """Whether the folder holds anything but our lock and temporary files (a kill -9 during
    the first manifest write leaves only those: such a folder is started afresh)."""
    return root.is_dir() and any(
        e.name != LOCK and not e.name.endswith(TMP_SUFFIX) for e in os.scandir(root)
    )


@contextlib.contextmanager
def lock_folder(root: Path) -> Iterator[None]:
    """Hold the folder's lock while writing into it: a second run into the same folder (which
    could overwrite the first one's temporary files, or clean them up on --resume) is refused
    with a one-line RunFolderError.  The operating system drops the lock when the process ends,
    also on kill -9, so a stale lock file never blocks a later run."""
    root.mkdir(parents=True, exist_ok=True)
    fh = open(root / LOCK, "a+")  # held open until the run ends (no with-block)
    try:
        fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        fh.seek(0)
        holder = fh.read().strip() or "another process"
        fh.close()
        raise RunFolderError(
            f"{root} is in use by another run ({holder}); wait for it to end or choose another "
            "--out"
        ) from None
    try:
        fh.seek(0)
        fh.truncate()
        fh.write(f"pid {os.getpid()}")
        fh.flush()
        yield
    finally:
        fcntl.flock(fh, fcntl.LOCK_UN)
        fh.close()


def compare_experiment(there: Mapping[str, Any], here: Mapping[str, Any]) -> str | None:
    """One-line description of the first setting that differs, or None."""
    labels = {
        "strategies": "strategies",
        "seed": "seed",
        "mode": "mode (--hands/--games)",
        "total": "number of hands/games",
        "chunk_size": "chunk size",
        "log_decisions": "decision log rate",
        "log_detail": "decision log detail (--log-detail)",
    }
    a_rules, b_rules = there.get("rules") or {}, normalize(here.get("rules") or {})
    if a_rules != b_rules and not (isinstance(a_rules, dict) and isinstance(b_rules, dict)):
        return f"rules differ ({a_rules!r} there, {b_rules!r} here)"
    if a_rules != b_rules:
        for k in sorted(set(a_rules) | set(b_rules)):
            if a_rules.get(k) != b_rules.get(k):
                return f"rules differ ({k}: {a_rules.get(k)!r} there, {b_rules.get(k)!r} here)"
    for key in EXPERIMENT_KEYS + ("log_detail",):
        if key == "rules":
            continue
        a, b = there.get(key), normalize(here.get(key))
        if key == "log_detail":  # manifests written before --log-detail existed: basic
            a, b = a or "basic", b or "basic"
        if a != b:
            if key == "strategies":
                a = ",".join(a or [])
                b = ",".join(b or [])
            return f"{labels[key]} differs ({a} there, {b} here)"
    return None


# ----------------------------------------------------------------------------- reading


def shard_files(path: str | os.PathLike, table: str = "hands") -> list[Path]:
    """Shards of `table` of the done chunks, in chunk order, after checking each one's footer
    against its marker and the run's plan (size, rows, key range).  A marker whose shard is
    missing, or a shard that fails a check, is a one-line DamagedShardError naming it."""
    if table not in TABLES:
        raise CanastaError(f"unknown table '{table}': choose one of {', '.join(TABLES)}")
    root = Path(path)
    manifest = read_manifest(root)
    n = int(manifest["n_chunks"])
    marked = {i for i in _indices(root / DONE_DIR, _MARK_RE) if 0 <= i < n}
    for t in TABLES:
        lost = sorted(marked - _indices(root / t, _PART_RE))
        if lost:
            raise DamagedShardError(
                f"{root}: chunk {lost[0]} is marked done but its shard "
                f"{shard_path(root, t, lost[0])} "
                f"is missing; {integrity.damage_hint(root)}"
            )
    files = []
    for i in sorted(marked):
        rec = integrity.read_marker(marker_path(root, i))
        if rec is None:
            raise DamagedShardError(
                f"{root}: done marker {marker_path(root, i)} is unreadable; "
                f"{integrity.damage_hint(root)}"
            )
        key = chunk_key_of(manifest, i)
        if key is not None:
            rec = {
                **rec,
                "key": key,
            }  # the plan's range, not the marker's (a marker can be copied too)
        files.append((i, shard_path(root, table, i), rec))
    integrity.check_footers(root, files, table)
    return [f for _, f, _ in files]


def unfinished_note(path: str | os.PathLike, manifest: Mapping[str, Any]) -> str | None:
    """One line saying that a run is unfinished (None if it is complete)."""
    n = int(manifest["n_chunks"])
    done = len(done_chunks(path, n))
    if done == n:
        return None
    return (
        f"{path} is an unfinished run ({done}/{n} chunks done): the tables cover the finished "
        f"chunks only; `canasta simulate --out {path} --resume` finishes it"
    )


def _filter_expression(filters: Any) -> Any:
    if filters is None or isinstance(filters, ds.Expression):
        return filters
    try:
        return pq.filters_to_expression(filters)
    except (TypeError, ValueError, pa.ArrowException) as exc:
        raise CanastaError(
            f"bad filters {filters!r} ({one_line(exc)[:120]}); give a pyarrow.dataset expression "
            "or [(column, op, value), ...]"
        ) from None


@contextlib.contextmanager
def readable_shards(root: str | os.PathLike) -> Iterator[None]:
    """Reading a run's shards directly: a damaged one (a parquet reader's error, e.g. after a
    power cut or a copy cut short) becomes a one-line DamagedShardError that says the cure.
    (``scan`` and ``shard_files`` name the shard; this is the fallback for other reads.)"""
    try:
        yield
    except DamagedShardError:
        raise
    except (OSError, pa.ArrowException) as exc:
        what = one_line(exc)[:160]
        raise DamagedShardError(
            f"{root}: a damaged shard ({what}); {integrity.damage_hint(root)}"
        ) from None


def read_run(
    path: str | os.PathLike,
    table: str = "hands",
    columns: Sequence[str] | None = None,
    filters: Any = None,
) -> pd.DataFrame:
    """One table of a run folder as a DataFrame (rows in key order).

    `columns`: the columns to load (only those are read from disk).  `filters`: a
    pyarrow.dataset expression (``pyarrow.dataset.field("game") < 100``) or pandas-style
    DNF tuples (``[("end_reason", "==", 1)]``).  Only complete chunks are read; every shard
    is checked (sim.runs.integrity) and a damaged one raises a DamagedShardError naming it.
    """
    read_manifest(path)
    if isinstance(columns, str):
        raise CanastaError(f"columns={columns!r}: give a list of column names, e.g. ['{columns}']")
    files = shard_files(path, table)
    columns = list(columns) if columns is not None else None
    expr = _filter_expression(filters)
    if not files:
        return _empty_frame(path, table, columns)
    return integrity.scan(files, columns, expr, path).to_pandas()


def _empty_frame(
    path: str | os.PathLike | None, table: str, columns: list[str] | None
) -> pd.DataFrame:
    cols = list(KEY_COLUMNS[table]) if columns is None else columns
    return pd.DataFrame(
        {c: pd.Series([], dtype=COLUMN_DTYPES[table].get(c, "object")) for c in cols}
    )


def now_iso() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")

"""Checking a run's shards: page checksums, each chunk's key range, sizes and row counts.

Every shard is written with parquet page checksums (CRC32 of each data page, checked by the
reader) and carries its chunk's key range in its footer metadata (``canasta.chunk``: chunk
index, seed, first and last game).  The chunk's done marker records the same range plus the
row count and byte size of each shard.  A shard is trusted only if

- its size is the one its marker recorded (a truncated or extended file fails here),
- its footer reads and counts the marker's rows,
- its key range is its own chunk's (a shard copied over another chunk's fails here, even with
  the same row count) and the key columns' statistics lie inside that range,
- and, where the data are read, every page's checksum matches (a flipped byte inside a data
  page fails here; without the check the reader would return wrong numbers or fail to
  decompress).

``--resume`` runs every check on every done chunk (reading each shard once, see
``verify_chunk``) and plays a chunk that fails again; the readers check the footers of the
shards they open and verify the page checksums of what they read (``scan``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq

from sim.core.errors import CanastaError, one_line

CHUNK_META_KEY = b"canasta.chunk"
# errors a parquet reader raises on damaged bytes (OSError covers pyarrow's IO and CRC errors)
READ_ERRORS = (OSError, pa.ArrowException, ValueError, KeyError, TypeError)


class RunFolderError(CanastaError):
    """A run folder that cannot be used as asked.  The message is one line."""


class DamagedShardError(RunFolderError):
    """A shard of a run folder does not hold what its chunk's marker says; one line naming it."""


def chunk_key(index: int, seed: int, start: int, count: int) -> dict[str, int]:
    """The key range of chunk `index`: games start .. start+count-1 of `seed`."""
    return {
        "chunk": int(index),
        "seed": int(seed),
        "first_game": int(start),
        "last_game": int(start + count - 1),
    }


def with_chunk_key(
    schema_meta: Mapping[bytes, bytes] | None, key: Mapping[str, int] | None
) -> dict:
    """Schema metadata plus the chunk's key range (the columns' bytes are unchanged)."""
    meta = dict(schema_meta or {})
    if key is not None:
        meta[CHUNK_META_KEY] = json.dumps(dict(key), sort_keys=True).encode()
    return meta


def damage_hint(root: str | os.PathLike) -> str:
    return f"`canasta simulate --out {root} --resume` plays its chunk again"


def _stats_range(md: pq.FileMetaData, column: str) -> tuple[int, int] | None:
    """(min, max) of an integer key column over the row groups, from the footer statistics."""
    names = md.schema.names
    if column not in names or md.num_rows == 0:
        return None
    col = names.index(column)
    lo = hi = None
    for g in range(md.num_row_groups):
        st = md.row_group(g).column(col).statistics
        if st is None or not st.has_min_max:
            return None
        lo = st.min if lo is None else min(lo, st.min)
        hi = st.max if hi is None else max(hi, st.max)
    assert lo is not None and hi is not None  # num_rows > 0, so there is at least one row group
    return int(lo), int(hi)


def footer_problem(
    path: Path, key: Mapping[str, int] | None, rows: int | None, size: int | None
) -> str | None:
    """Why the shard's file or footer does not match its marker (None if it does)."""
    try:
        actual = path.stat().st_size
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    if size is not None and actual != size:
        return f"has {actual} bytes, its marker says {size}"
    try:
        md = pq.read_metadata(path)
    except READ_ERRORS as exc:
        return f"has an unreadable footer ({one_line(exc)[:120]})"
    if rows is not None and md.num_rows != rows:
        return f"holds {md.num_rows} rows, its marker says {rows}"
    if key is None:
        return None
    raw = (md.metadata or {}).get(CHUNK_META_KEY)
    try:
        found = json.loads(raw) if raw is not None else None
    except (ValueError, UnicodeDecodeError):
        found = None
    if not isinstance(found, dict):
        return "has no chunk key range in its footer"
    if found != dict(key):
        return (
            f"holds chunk {found.get('chunk')} (seed {found.get('seed')}, games "
            f"{found.get('first_game')}..{found.get('last_game')}), not chunk {key['chunk']} "
            f"(seed {key['seed']}, games {key['first_game']}..{key['last_game']})"
        )
    seeds, games = _stats_range(md, "seed"), _stats_range(md, "game")
    if seeds is not None and seeds != (key["seed"], key["seed"]):
        return f"holds seeds {seeds[0]}..{seeds[1]}, its chunk's seed is {key['seed']}"
    if games is not None and not key["first_game"] <= games[0] <= games[1] <= key["last_game"]:
        first, last = key["first_game"], key["last_game"]
        return f"holds games {games[0]}..{games[1]}, outside its chunk's {first}..{last}"
    return None


def data_problem(path: Path, columns: Sequence[str] | None = None) -> str | None:
    """Why the shard's pages do not read back (checksum or decoding failure), or None."""
    try:
        pq.read_table(
            path,
            columns=list(columns) if columns is not None else None,
            page_checksum_verification=True,
        )
    except READ_ERRORS as exc:
        return f"has a damaged data page ({one_line(exc)[:120]})"
    return None


def read_marker(path: Path) -> dict[str, Any] | None:
    """A done marker's record, or None if it is unreadable."""
    try:
        rec = json.loads(path.read_text())
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    if not isinstance(rec, dict) or not isinstance(rec.get("rows"), dict):
        return None
    return rec


def scan_format() -> ds.ParquetFileFormat:
    """Parquet format whose reads verify every page checksum."""
    return ds.ParquetFileFormat(
        default_fragment_scan_options=ds.ParquetFragmentScanOptions(page_checksum_verification=True)
    )


def scan(
    files: Sequence[Path], columns: Sequence[str] | None, filters: Any, root: str | os.PathLike
) -> pa.Table:
    """Read `files` as one table, verifying page checksums.  A filter or column the table does
    not have is a CanastaError naming it; a damaged page a DamagedShardError naming its shard."""
    dataset = ds.dataset([str(f) for f in files], format=scan_format())
    names = dataset.schema.names
    if columns is not None:
        unknown = [c for c in columns if c not in names]
        if unknown:
            raise CanastaError(
                f"unknown column '{unknown[0]}'; the table's columns: {', '.join(names)}"
            )
    if filters is not None:
        try:  # the filter against an empty table of the same schema: its errors are the user's
            ds.dataset(dataset.schema.empty_table()).to_table(filter=filters)
        except (pa.ArrowException, TypeError, ValueError) as exc:
            raise CanastaError(f"bad filter {filters}: {one_line(exc)[:160]}") from None
    try:
        return dataset.to_table(
            columns=list(columns) if columns is not None else None, filter=filters
        )
    except READ_ERRORS:
        pass
    for f in files:  # which shard: read them one by one (only on this error path)
        why = data_problem(Path(f), columns)
        if why:
            raise DamagedShardError(
                f"{root}: damaged shard {f} ({why}); {damage_hint(root)}"
            ) from None
    raise DamagedShardError(f"{root}: a shard failed to read; {damage_hint(root)}")


def check_footers(
    root: Path, files: Iterable[tuple[int, Path, Mapping[str, Any]]], table: str
) -> None:
    """DamagedShardError naming the first shard whose file or footer does not match its
    chunk's marker: (chunk index, shard path, marker record with 'key' / 'rows' / 'bytes')."""
    for index, path, rec in files:
        key = rec.get("key")
        why = footer_problem(path, key, rec["rows"].get(table), (rec.get("bytes") or {}).get(table))
        if why:
            raise DamagedShardError(
                f"{root}: damaged shard {path} of chunk {index} ({why}); {damage_hint(root)}"
            )

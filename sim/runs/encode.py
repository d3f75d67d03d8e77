"""Chunk records as parquet: column types, flattening of the record arrays into the tables of
docs/DATA.md, and the encoding of each table (zstd, compact types, page checksums, the chunk's
key range in the footer).  Runs in the workers; `sim.runs.store` writes the bytes."""

from __future__ import annotations

import inspect
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from sim.core.enums import (
    CARD_COLUMNS,
    SUIT_COLUMNS,
    decision_record_dt,
    game_record_dt,
    hand_record_dt,
)
from sim.runs import integrity

TABLES = ("hands", "decisions", "games")
COMPRESSION = "zstd"


# ----------------------------------------------------------------------------- column types


def _dtype_map() -> dict[str, dict[str, np.dtype]]:
    """Compact numpy dtype of every integer column of each table, from the record dtypes."""
    out: dict[str, dict[str, np.dtype]] = {}
    for table, rec in (
        ("hands", hand_record_dt),
        ("decisions", decision_record_dt),
        ("games", game_record_dt),
    ):
        m: dict[str, np.dtype] = {}
        assert rec.names is not None and rec.fields is not None  # record dtypes are structured
        for name in rec.names:
            dt = rec.fields[name][0]
            if dt.subdtype is not None:
                base, shape = dt.subdtype
                for t in range(shape[0]):
                    m[f"{name}_t{t}"] = base
            else:
                m[name] = dt
        out[table] = m
    out["hands"]["players"] = np.dtype(np.int8)
    out["games"]["capped"] = np.dtype(np.int8)
    out["decisions"].update(
        score_us=np.dtype(np.int32), score_them=np.dtype(np.int32), went_out_us=np.dtype(np.int8)
    )
    # --log-detail cards (the strategy column is a dictionary-encoded string: see strategy_column)
    out["decisions"].update(
        {c.name: np.dtype(c.dtype) for c in CARD_COLUMNS + SUIT_COLUMNS if c.dtype is not str}
    )
    return out


COLUMN_DTYPES = _dtype_map()
# one data page per column and chunk (up to the 1 MB page size): recent pyarrow (26 here) ends a
# page at 20,000 rows by default, and each page costs a compressor set-up and a checksum (about 1 us
# per logged hand with the card columns; files 1.5% smaller); older ones have no row cap (option
# absent).
_PAGE_ROWS = (
    {"max_rows_per_page": 1 << 20}
    if "max_rows_per_page" in inspect.signature(pq.ParquetWriter).parameters
    else {}
)
KEY_COLUMNS = {
    "hands": ("seed", "game", "hand"),
    "decisions": ("seed", "game", "hand"),
    "games": ("seed", "game"),
}
# decision columns that hold one value for a whole hand (or nearly): plain lz4 makes them
# almost as small as zstd does, at half its cost (0.4 us less per logged hand, 4% more bytes)
RUN_COLUMNS = {"decisions": ("seed", "game", "hand", "cum_us", "cum_them", "pile_frozen")}
# --log-detail cards: the card columns (int8 values, which parquet stores as INT32) under lz4
# rather than zstd: half the encoding time for about twice the bytes (docs/DATA.md)
FAST_COLUMNS = {
    "decisions": tuple(c.name for c in CARD_COLUMNS + SUIT_COLUMNS if c.dtype is not str)
}
# ... and a decision table with card columns has every column under lz4 (the basic ones too:
# 1.9 us less per logged hand for 16% more bytes, issue 15's cost budget); basic logs keep zstd
CARDS_MARK = "pile_top"
# card columns that hold -1 (no card): BYTE_STREAM_SPLIT would put their sign bytes (0x00 or
# 0xff by row) into three streams lz4 compresses poorly; PLAIN is faster and smaller on them
SIGNED_CARD_COLUMNS = ("pile_top", "drawn_1", "drawn_2", "act_kind", "act_target")

HAND_TEAM_FIELDS = (
    "score",
    "meld_points",
    "canasta_bonus",
    "red3_points",
    "go_out_bonus",
    "hand_penalty",
    "canastas",
    "natural_canastas",
    "red3",
    "opened",
    "pile_takes",
    "cum_before",
)
HAND_SCALAR_FIELDS = (
    "dealer",
    "end_reason",
    "went_out_seat",
    "went_out_team",
    "concealed",
    "turns",
    "decisions",
)


def records_to_frames(
    hands: np.ndarray,
    decisions: np.ndarray,
    games: np.ndarray,
    rules: Any,
    strategies: Sequence[str],
) -> dict[str, pd.DataFrame]:
    """Reference flattening of the record arrays into the table columns of docs/DATA.md.

    (The engine's ``ChunkResult.to_frames`` delegates here.)  Decision columns score_us /
    score_them / went_out_us missing from the records are added by ``conform_frames``.
    """
    n_teams = int(rules.n_teams)
    players = int(rules.players)
    n = len(hands)
    h: dict[str, Any] = {
        "seed": hands["seed"],
        "game": hands["game"],
        "hand": hands["hand"],
        "rules": pd.Series([str(rules.name)] * n, dtype="string"),
        "players": np.full(n, players, dtype=np.int8),
    }
    for s in range(players):
        h[f"strategy_s{s}"] = pd.Series([str(strategies[s])] * n, dtype="string")
    for f in HAND_SCALAR_FIELDS:
        h[f] = hands[f]
    for t in range(n_teams):
        for f in HAND_TEAM_FIELDS:
            h[f"{f}_t{t}"] = hands[f][:, t]
    g: dict[str, Any] = {
        "seed": games["seed"],
        "game": games["game"],
        "hands": games["hands"],
        "winner_team": games["winner_team"],
    }
    for t in range(n_teams):
        g[f"final_t{t}"] = games["final"][:, t]
    g["capped"] = games["capped"]
    # the engine's records carry score_us / score_them / went_out_us; other chunk functions may
    # leave them out, and conform_frames then joins them from the hands
    d = {
        name: decisions[name]
        for name in decision_record_dt.names or ()
        if name in (decisions.dtype.names or ())
    }
    return {
        "hands": pd.DataFrame(h, copy=True),
        "decisions": pd.DataFrame(d, copy=True),
        "games": pd.DataFrame(g, copy=True),
    }


def _is_sorted(cols: list[np.ndarray]) -> bool:
    n = len(cols[0]) if cols else 0
    if n < 2:
        return True
    # lexicographic non-decreasing check
    eq_prefix = np.ones(n - 1, dtype=bool)
    for c in cols:
        a, b = c[:-1], c[1:]
        if np.any(eq_prefix & (b < a)):
            return False
        eq_prefix &= b == a
    return True


def _sort_by_key(df: pd.DataFrame, keys: Sequence[str]) -> pd.DataFrame:
    cols = [df[k].to_numpy() for k in keys]
    if _is_sorted(cols):
        return df.reset_index(drop=True)
    order = np.lexsort(cols[::-1])  # stable: keeps the engine's order within a key
    return df.iloc[order].reset_index(drop=True)


def _match_keys(hk: tuple[np.ndarray, ...], dk: tuple[np.ndarray, ...]) -> np.ndarray:
    """Row of each decision key (seed, game, hand) among the hand keys; -1 if absent."""
    hs, hg, hh = hk
    ds_, dg, dh = dk
    if len(hs) and np.all(hs == hs[0]) and np.all(ds_ == hs[0]) and hh.min() >= 0 and dh.min() >= 0:
        width = int(max(hh.max(), dh.max())) + 1  # one seed per chunk: key = game * width + hand
        hkey = hg * width + hh
        dkey = dg * width + dh
        order = np.argsort(hkey, kind="stable")
        sk = hkey[order]
        pos = np.minimum(np.searchsorted(sk, dkey), len(sk) - 1)
        return np.where(sk[pos] == dkey, order[pos], -1)
    return pd.MultiIndex.from_arrays(list(hk)).get_indexer(pd.MultiIndex.from_arrays(list(dk)))


def _join_outcome(dec: pd.DataFrame, hands: pd.DataFrame, n_teams: int) -> pd.DataFrame:
    """Add score_us, score_them, went_out_us to the decisions of a chunk (from its hands)."""
    n = len(dec)
    if all(c in dec.columns for c in ("score_us", "score_them", "went_out_us")):
        return dec
    scores = np.stack([hands[f"score_t{t}"].to_numpy(np.int64) for t in range(n_teams)], axis=1)
    if n:
        hk = (
            hands["seed"].to_numpy(np.int64),
            hands["game"].to_numpy(np.int64),
            hands["hand"].to_numpy(np.int64),
        )
        dk = (
            dec["seed"].to_numpy(np.int64),
            dec["game"].to_numpy(np.int64),
            dec["hand"].to_numpy(np.int64),
        )
        idx = _match_keys(hk, dk)
        if np.any(idx < 0):
            bad = int(np.argmin(idx))
            raise RuntimeError(
                f"decision row {bad} (game {dk[1][bad]}, hand {dk[2][bad]}) has no hand record in "
                "its chunk"
            )
        team = dec["team"].to_numpy(np.int64)
        s = scores[idx]  # (n, n_teams)
        rows = np.arange(n)
        us = s[rows, team]
        if n_teams == 2:
            them = s[rows, 1 - team]
        elif n_teams > 2:
            other = s.astype(np.float64)
            other[rows, team] = -np.inf
            them = other.max(axis=1)
        else:
            them = np.zeros(n)
        went = hands["went_out_team"].to_numpy(np.int64)[idx] == team
    else:
        us = np.zeros(0)
        them = np.zeros(0)
        went = np.zeros(0, dtype=bool)
    dec = dec.copy()
    dec["score_us"] = np.asarray(us).astype(np.int32)
    dec["score_them"] = np.asarray(them).astype(np.int32)
    dec["went_out_us"] = np.asarray(went).astype(np.int8)
    return dec


def conform_frames(frames: Mapping[str, pd.DataFrame], n_teams: int) -> dict[str, pd.DataFrame]:
    """Compact integer types, the joined decision columns and key order for one chunk."""
    out: dict[str, pd.DataFrame] = {}
    hands = frames["hands"]
    for table in TABLES:
        df = frames[table]
        if table == "decisions":
            df = _join_outcome(df, hands, n_teams)
        casts = {
            c: dt for c, dt in COLUMN_DTYPES[table].items() if c in df.columns and df[c].dtype != dt
        }
        if casts:
            df = df.astype(casts)
        for c in df.columns:
            if c == "rules" or c.startswith("strategy_s"):
                if df[c].dtype != "string":
                    df[c] = df[c].astype("string")
        out[table] = _sort_by_key(df, KEY_COLUMNS[table])
    return out


def _to_arrow(df: pd.DataFrame) -> pa.Table:
    table = pa.Table.from_pandas(df, preserve_index=False)
    # plain utf8 strings whatever the pandas string flavour
    fields = [
        pa.field(f.name, pa.string()) if pa.types.is_large_string(f.type) else f
        for f in table.schema
    ]
    schema = pa.schema(fields, metadata=table.schema.metadata)
    return table.cast(schema) if schema != table.schema else table


# the pandas metadata of each table layout (written into every shard so that reading back
# restores the same column dtypes, whichever path built the shard)
_PANDAS_METADATA: dict[tuple, dict] = {}


def _pandas_metadata(table: pa.Table) -> dict:
    key = tuple((f.name, str(f.type)) for f in table.schema)
    meta = _PANDAS_METADATA.get(key)
    if meta is None:
        empty = table.slice(0, 0).to_pandas()
        for f in table.schema:
            if pa.types.is_string(f.type):
                empty[f.name] = empty[f.name].astype("string")
        meta = dict(pa.Schema.from_pandas(empty, preserve_index=False).metadata or {})
        _PANDAS_METADATA[key] = meta
    return meta


def _column(values: np.ndarray, dtype: np.dtype) -> pa.Array:
    return pa.array(np.ascontiguousarray(values, dtype=dtype))


def record_tables(
    hands: np.ndarray,
    decisions: np.ndarray | Mapping[str, np.ndarray],
    games: np.ndarray,
    rules: Any,
    strategies: Sequence[str],
) -> dict[str, pa.Table] | None:
    """The chunk's three tables straight from the record arrays, without pandas: the same
    columns, order and types as ``conform_frames(records_to_frames(...))`` (a test holds the two
    equal).  `decisions` is a decision_record_dt array or a mapping of its columns (the engine's
    column-wise log: contiguous columns go to arrow without a copy).  None when the records need
    the general path: decisions without the outcome columns, or keys out of order."""
    names = tuple(decisions) if isinstance(decisions, Mapping) else (decisions.dtype.names or ())
    if not all(c in names for c in ("score_us", "score_them", "went_out_us")):
        return None
    for rec, table in ((hands, "hands"), (decisions, "decisions"), (games, "games")):
        if not _is_sorted([rec[k] for k in KEY_COLUMNS[table]]):
            return None
    n_teams = int(rules.n_teams)
    players = int(rules.players)
    n = len(hands)
    hd = COLUMN_DTYPES["hands"]
    h: dict[str, pa.Array] = {k: _column(hands[k], hd[k]) for k in ("seed", "game", "hand")}
    h["rules"] = pa.repeat(pa.scalar(str(rules.name), pa.string()), n)
    h["players"] = pa.array(np.full(n, players, dtype=np.int8))
    for s in range(players):
        h[f"strategy_s{s}"] = pa.repeat(pa.scalar(str(strategies[s]), pa.string()), n)
    for f in HAND_SCALAR_FIELDS:
        h[f] = _column(hands[f], hd[f])
    for t in range(n_teams):
        for f in HAND_TEAM_FIELDS:
            h[f"{f}_t{t}"] = _column(hands[f][:, t], hd[f"{f}_t{t}"])
    gd = COLUMN_DTYPES["games"]
    g: dict[str, pa.Array] = {
        k: _column(games[k], gd[k]) for k in ("seed", "game", "hands", "winner_team")
    }
    for t in range(n_teams):
        g[f"final_t{t}"] = _column(games["final"][:, t], gd[f"final_t{t}"])
    g["capped"] = _column(games["capped"], gd["capped"])
    dd = COLUMN_DTYPES["decisions"]
    d = {k: _column(decisions[k], dd[k]) for k in decision_record_dt.names or ()}
    if (
        "pile_top" in names
    ):  # --log-detail cards: the strategy, then the card columns the engine gave
        d["strategy"] = strategy_column(np.asarray(decisions["seat"]), strategies)
        for c in CARD_COLUMNS + SUIT_COLUMNS:
            if c.name in names:
                d[c.name] = _column(decisions[c.name], dd[c.name])
    return {"hands": pa.table(h), "decisions": pa.table(d), "games": pa.table(g)}


def strategy_column(seat: np.ndarray, strategies: Sequence[str]) -> pa.DictionaryArray:
    """The decider's strategy per row (from its table seat), dictionary encoded: the run's
    distinct strategy names in seat order, an int8 index per row."""
    names = list(dict.fromkeys(str(x) for x in strategies))
    index_of_seat = np.array([names.index(str(x)) for x in strategies], dtype=np.int8)
    # self-play (one name): every index is 0, without a lookup per row (0.15 us per logged hand)
    index = np.zeros(len(seat), np.int8) if len(names) == 1 else index_of_seat[seat]
    return pa.DictionaryArray.from_arrays(pa.array(index), pa.array(names, pa.string()))


def frame_tables(frames: Mapping[str, pd.DataFrame]) -> dict[str, pa.Table]:
    """The general path: conformed DataFrames as arrow tables."""
    return {table: _to_arrow(frames[table]) for table in TABLES}


def encode_table(table: pa.Table, name: str, key: Mapping[str, int] | None = None) -> bytes:
    """One table as the bytes of a parquet file.

    Columns without nulls are declared non-nullable (no definition levels to write), numbers
    use the BYTE_STREAM_SPLIT encoding under zstd (smaller than dictionaries here, and twice as
    fast to write), the constant strings (rules, strategies) dictionaries; only the key columns
    carry min/max statistics (enough for filters on keys); the decision columns that stay
    constant through a hand are plain lz4; a decisions table with card columns is lz4
    throughout, its card columns BYTE_STREAM_SPLIT but those that hold -1 (PLAIN); one data
    page per column (see _PAGE_ROWS).  Measured on 2,500 greedy hands with full decision logs:
    7.7 us per hand for the basic decisions (20.8 with pyarrow's defaults), 16.5 with the card
    columns (benchmarks/bench_log_cost.py, docs/DATA.md).  Every page carries a CRC32 checksum
    and the footer the chunk's key range `key` (sim.runs.integrity)."""
    fields = [
        pa.field(f.name, f.type, nullable=table.column(i).null_count > 0)
        for i, f in enumerate(table.schema)
    ]
    meta = dict(table.schema.metadata or {}) or _pandas_metadata(table)
    meta = integrity.with_chunk_key(meta, key)
    table = pa.Table.from_arrays(table.columns, schema=pa.schema(fields, metadata=meta))
    # the column names once: `table.column_names` builds a new list at each use (asked per
    # card column, that cost 10 ms per chunk, 4 us per logged hand)
    present = set(table.column_names)
    strings = [
        f.name for f in fields if pa.types.is_string(f.type) or pa.types.is_dictionary(f.type)
    ]
    runs = {k for k in RUN_COLUMNS.get(name, ()) if k in present}
    cards = name == "decisions" and CARDS_MARK in present
    plain = runs | {k for k in SIGNED_CARD_COLUMNS if k in present} if cards else runs
    numbers = {
        f.name: "PLAIN" if f.name in plain else "BYTE_STREAM_SPLIT"
        for f in fields
        if f.name not in strings
    }
    lz4 = runs | {k for k in FAST_COLUMNS.get(name, ()) if k in present}
    compression: str | dict[str, str] = COMPRESSION
    if cards:
        compression = "lz4_raw"
    elif lz4:
        compression = {f.name: "lz4_raw" if f.name in lz4 else COMPRESSION for f in fields}
    keys = [k for k in KEY_COLUMNS[name] if k in present]
    sink = pa.BufferOutputStream()
    pq.write_table(
        table,
        sink,
        compression=compression,
        use_dictionary=strings or False,
        column_encoding=numbers or None,
        write_statistics=keys or False,
        write_batch_size=1 << 18,  # fewer, larger batches: faster than the default 1024 rows
        write_page_checksum=True,
        **_PAGE_ROWS,
    )
    return sink.getvalue().to_pybytes()


def encode_tables(
    tables: Mapping[str, pa.Table], key: Mapping[str, int] | None = None
) -> dict[str, bytes]:
    """Each table of a chunk as parquet bytes (done in the worker)."""
    return {name: encode_table(tables[name], name, key) for name in TABLES}


def chunk_payload(
    res: Any, rules: Any, strategies: Sequence[str], key: Mapping[str, int] | None = None
) -> tuple[dict[str, bytes], dict[str, int]]:
    """A chunk function's result as parquet bytes per table and row counts: straight from the
    records when possible, else through pandas (records_to_frames + conform_frames)."""
    columns = getattr(res, "decision_columns", None)
    tables = record_tables(
        res.hands, columns if columns is not None else res.decisions, res.games, rules, strategies
    )
    if tables is None:
        frames = records_to_frames(res.hands, res.decisions, res.games, rules, strategies)
        tables = frame_tables(conform_frames(frames, int(rules.n_teams)))
    return encode_tables(tables, key), {name: tables[name].num_rows for name in TABLES}


def decode_table(data: bytes) -> pd.DataFrame:
    return pq.read_table(pa.BufferReader(data)).to_pandas()

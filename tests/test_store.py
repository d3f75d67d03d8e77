"""The record -> parquet fast path writes exactly what the general (pandas) path writes."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from sim.core.rules import RuleSet
from sim.play.engine import run_chunk
from sim.runs import store

TABLES = [
    ("classic", 4, None, "hands"),
    ("classic", 6, "2x3", "hands"),
    ("german", 5, None, "games"),
    ("samba", 4, None, "hands"),
]


def _general(res, rules, strategies) -> dict[str, pa.Table]:
    frames = store.records_to_frames(res.hands, res.decisions, res.games, rules, strategies)
    return store.frame_tables(store.conform_frames(frames, int(rules.n_teams)))


@pytest.mark.parametrize("preset,players,layout,mode", TABLES)
def test_fast_path_equals_general_path(preset, players, layout, mode):
    rules = (
        RuleSet.preset(preset, players=players, team_layout=layout)
        if layout
        else RuleSet.preset(preset, players=players)
    )
    strategies = tuple(["greedy", "expert"][i % 2] for i in range(players))
    res = run_chunk(rules, strategies, 3, 10, 6 if mode == "games" else 40, mode=mode, log_rate=0.5)
    fast = store.record_tables(res.hands, res.decision_columns, res.games, rules, strategies)
    assert fast is not None
    # the engine's columns and the records assembled from them give the same tables
    from_records = store.record_tables(res.hands, res.decisions, res.games, rules, strategies)
    for name in store.TABLES:
        assert fast[name].equals(from_records[name]), name
    general = _general(res, rules, strategies)
    for name in store.TABLES:
        assert fast[name].column_names == general[name].column_names, name
        assert [f.type for f in fast[name].schema] == [f.type for f in general[name].schema], name
        assert fast[name].num_rows > 0 or name == "games" and mode == "hands"
        a = store.decode_table(store.encode_table(fast[name], name))
        b = store.decode_table(store.encode_table(general[name], name))
        pd.testing.assert_frame_equal(a, b, check_exact=True, obj=name)
        # and the bytes decode to the general path's DataFrame itself (dtypes included)
        ref = store.conform_frames(
            store.records_to_frames(res.hands, res.decisions, res.games, rules, strategies),
            int(rules.n_teams),
        )[name]
        pd.testing.assert_frame_equal(a, ref, check_exact=True, obj=name)


def test_fast_path_declines_what_it_cannot_do():
    rules = RuleSet.preset("classic")
    s = ("greedy",) * 4
    res = run_chunk(rules, s, 3, 0, 20, log_rate=1.0)
    no_outcome = res.decisions[[n for n in res.decisions.dtype.names if n != "went_out_us"]]
    assert store.record_tables(res.hands, no_outcome, res.games, rules, s) is None
    shuffled = res.hands[np.r_[1, 0, 2 : len(res.hands)]]
    assert store.record_tables(shuffled, res.decisions, res.games, rules, s) is None
    # chunk_payload then takes the general path and still writes every row
    payload, rows = store.chunk_payload(type(res)(shuffled, res.decisions, res.games), rules, s)
    assert rows["hands"] == 20 and rows["decisions"] == len(res.decisions)
    back = store.decode_table(payload["hands"])
    assert back["game"].tolist() == sorted(back["game"].tolist())


def test_encoding_is_compact_and_non_nullable():
    import pyarrow.parquet as pq

    rules = RuleSet.preset("classic")
    s = ("greedy",) * 4
    res = run_chunk(rules, s, 3, 0, 200, log_rate=1.0)
    tables = store.record_tables(res.hands, res.decisions, res.games, rules, s)
    data = store.encode_table(tables["decisions"], "decisions")
    meta = pq.ParquetFile(pa.BufferReader(data)).metadata
    col = meta.row_group(0).column(meta.schema.names.index("action"))
    assert "BYTE_STREAM_SPLIT" in col.encodings
    assert col.compression == "ZSTD"
    # the columns constant through a hand: plain lz4
    for name in store.RUN_COLUMNS["decisions"]:
        run_col = meta.row_group(0).column(meta.schema.names.index(name))
        assert (
            run_col.compression.startswith("LZ4") and "BYTE_STREAM_SPLIT" not in run_col.encodings
        ), name
    schema = pq.read_schema(pa.BufferReader(data))
    assert not any(f.nullable for f in schema)
    # statistics on the keys (for filters), none on the features
    assert meta.row_group(0).column(meta.schema.names.index("game")).is_stats_set
    assert not col.is_stats_set
    assert len(data) / 200 < 600  # bytes per hand with full decision logs (about 400)


def test_cards_decisions_are_lz4_with_plain_signed_card_columns():
    """With the card columns every decision column is lz4 (the basic ones too); the card
    columns that hold -1 are PLAIN, the others BYTE_STREAM_SPLIT; a basic shard keeps zstd."""
    import pyarrow.parquet as pq

    rules = RuleSet.preset("classic")
    s = ("greedy",) * 4
    res = run_chunk(rules, s, 3, 0, 100, log_rate=1.0, log_detail="cards")
    tables = store.record_tables(res.hands, res.decision_columns, res.games, rules, s)
    meta = pq.ParquetFile(
        pa.BufferReader(store.encode_table(tables["decisions"], "decisions"))
    ).metadata
    cols = {meta.schema.names[i]: meta.row_group(0).column(i) for i in range(meta.num_columns)}
    assert all(c.compression.startswith("LZ4") for c in cols.values())
    for name in ("pile_top", "drawn_1", "drawn_2", "act_kind", "act_target"):
        assert "BYTE_STREAM_SPLIT" not in cols[name].encodings, name
    for name in ("hand_A", "meld_us_K", "red3_them", "action", "n_legal"):
        assert "BYTE_STREAM_SPLIT" in cols[name].encodings, name
    basic = run_chunk(rules, s, 3, 0, 100, log_rate=1.0)
    btables = store.record_tables(basic.hands, basic.decision_columns, basic.games, rules, s)
    bmeta = pq.ParquetFile(
        pa.BufferReader(store.encode_table(btables["decisions"], "decisions"))
    ).metadata
    assert bmeta.row_group(0).column(bmeta.schema.names.index("action")).compression == "ZSTD"

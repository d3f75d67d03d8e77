"""Damaged run folders (issue 12): flipped page bytes with the footer intact, a shard copied over
another chunk's (same row count), a truncated footer, a done marker without its data.  Each is
found by --resume (which plays the chunk again, giving the fresh run's data) and named in one
line by every reader: read_run, reports.summary, reports.runs (report, odds) and the CLI."""

from __future__ import annotations

import json
import shutil

import fake_engine
import pandas as pd
import pyarrow.parquet as pq
import pytest
from fake_engine import seat

import sim.cli.main as cli
from reports.summary import summarize
from sim.core.rules import RuleSet
from sim.play import engine
from sim.runs import runner, store

RULES = RuleSet.preset("classic")
FAKE = fake_engine.run_chunk


def run(out, **kw):
    args = dict(hands=1000, seed=3, jobs=1, chunk_size=250, log_decisions=0.3, progress=False)
    args.update(kw)
    with seat(FAKE):
        return runner.simulate(RULES, "expert,greedy", out=out, **args)


def frames(out):
    return {t: store.read_run(out, t) for t in store.TABLES}


def flip_page_byte(path):
    """Flip one byte inside the first data page, leaving the footer intact."""
    md = pq.read_metadata(path)
    col = md.row_group(0).column(md.schema.names.index("score_t0"))
    pos = col.data_page_offset + col.total_compressed_size // 2
    data = bytearray(path.read_bytes())
    data[pos] ^= 0x5A
    path.write_bytes(bytes(data))


def swap_in_other_chunk(path, other):
    shutil.copyfile(other, path)


def truncate_footer(path):
    data = path.read_bytes()
    path.write_bytes(data[:-20])


def drop_data(path):
    path.unlink()


DAMAGE = {
    "flipped page byte": (flip_page_byte, "damaged data page"),
    "swapped shard": (None, "holds chunk 1"),
    "truncated footer": (truncate_footer, "bytes, its marker says"),
    "marker without data": (drop_data, "marked done but its shard"),
}


@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    out = tmp_path_factory.mktemp("fresh") / "run"
    run(out)
    return frames(out)


@pytest.mark.parametrize("kind", list(DAMAGE))
def test_damage_is_named_by_readers_and_replayed_by_resume(
    tmp_path, fresh, kind, monkeypatch, capsys
):
    out = tmp_path / "run"
    run(out)
    victim = out / "hands" / "part-000002.parquet"
    damage, words = DAMAGE[kind]
    if damage is None:  # chunk 1's shard over chunk 2's: same row count (250 hands each)
        swap_in_other_chunk(victim, out / "hands" / "part-000001.parquet")
        assert pq.read_metadata(victim).num_rows == 250
        # and the marker made to agree on the size: only the key range can tell
        marker = out / "done" / "000002"
        rec = json.loads(marker.read_text())
        rec["bytes"]["hands"] = victim.stat().st_size
        marker.write_text(json.dumps(rec))
    else:
        damage(victim)

    # every reader names the shard in one line
    for read in (
        lambda: store.read_run(out),
        lambda: summarize(runner.RunResult.open(out)),
        lambda: __import__("reports.runs", fromlist=["open_run"]).open_run(out).read("hands"),
    ):
        with pytest.raises(store.DamagedShardError) as exc:
            read()
        msg = str(exc.value)
        assert "\n" not in msg and "part-000002" in msg and words in msg and "--resume" in msg, msg
    monkeypatch.setattr(engine, "run_chunk", FAKE)
    for argv in (["odds", str(out)], ["report", str(out), "-o", str(tmp_path / "r.html")]):
        assert cli.main(argv) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "part-000002" in err[0] and "Traceback" not in err[0], err

    # --resume finds it, plays that chunk alone again, and the data equal a fresh run's
    fake_engine.CALLS.clear()
    r = run(out, resume=True)
    assert fake_engine.CALLS == [(500, 250)] and r.chunks_run == 1
    again = frames(out)
    for t in store.TABLES:
        pd.testing.assert_frame_equal(again[t], fresh[t], check_exact=True)


def test_page_checksums_and_key_range_are_written(tmp_path):
    out = tmp_path / "run"
    run(out)
    for t in store.TABLES:
        md = pq.read_metadata(out / t / "part-000003.parquet")
        assert (
            md.metadata[b"canasta.chunk"]
            == b'{"chunk": 3, "first_game": 750, "last_game": 999, "seed": 3}'
        )
    # a flipped byte that a plain parquet reader returns as wrong numbers, the checksums refuse
    path = out / "hands" / "part-000003.parquet"
    before = pq.read_table(path)
    flip_page_byte(path)
    assert not pq.read_table(path).equals(before)
    with pytest.raises(OSError, match="CRC"):
        pq.read_table(path, page_checksum_verification=True)
    assert store.intact_chunks(out, range(4)) == [0, 1, 2]


def test_resume_checks_every_chunk_even_when_complete(tmp_path):
    """A complete run with a damaged shard: --resume replays that chunk (not 'nothing to do')."""
    out = tmp_path / "run"
    run(out)
    flip_page_byte(out / "hands" / "part-000000.parquet")
    fake_engine.CALLS.clear()
    r = run(out, resume=True)
    assert fake_engine.CALLS == [(0, 250)] and not r.already_complete


def test_readers_say_when_a_run_is_unfinished(tmp_path, monkeypatch, capsys):
    out = tmp_path / "run"
    run(out)
    for t in (*store.TABLES, "done"):
        name = "000003" if t == "done" else "part-000003.parquet"
        (out / t / name).unlink()
    monkeypatch.setattr(engine, "run_chunk", FAKE)
    for argv in (["odds", str(out)], ["report", str(out), "-o", str(tmp_path / "r.html")]):
        assert cli.main(argv) == 0
        err = capsys.readouterr().err
        assert "unfinished run (3/4 chunks done)" in err and f"--out {out} --resume" in err, err


def test_checksums_and_key_range_leave_the_column_data_unchanged():
    """The shards' data are the same as without the integrity additions: equal tables, equal
    pandas metadata, and a file only a few bytes per page longer."""
    import pyarrow as pa

    from sim.runs import encode

    res = FAKE(RULES, ("expert", "greedy") * 2, 3, 0, 300, mode="hands", log_rate=1.0)
    payload, _ = encode.chunk_payload(
        res,
        RULES,
        ("expert", "greedy") * 2,
        {"chunk": 0, "seed": 3, "first_game": 0, "last_game": 299},
    )
    plain = {}
    orig = pq.write_table
    try:
        pq.write_table = lambda *a, **k: orig(*a, **{**k, "write_page_checksum": False})
        plain, _ = encode.chunk_payload(res, RULES, ("expert", "greedy") * 2, None)
    finally:
        pq.write_table = orig
    for t in store.TABLES:
        a, b = pq.read_table(pa.BufferReader(payload[t])), pq.read_table(pa.BufferReader(plain[t]))
        assert a.equals(b)
        meta_a, meta_b = dict(a.schema.metadata), dict(b.schema.metadata)
        assert meta_a.pop(b"canasta.chunk") and meta_a == meta_b
        # a CRC field (about 6 bytes) per page header, a page or two per column chunk, and the
        # key range in the footer
        md = pq.read_metadata(pa.BufferReader(payload[t]))
        assert 0 < len(payload[t]) - len(plain[t]) < 200 + 16 * md.num_columns * md.num_row_groups

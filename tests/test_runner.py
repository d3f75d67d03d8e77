"""`canasta simulate` / sim.runs.runner / sim.runs.store against the fake core
(tests/fake_engine.py)."""

from __future__ import annotations

import json

import fake_engine
import pandas as pd
import pyarrow.dataset as pads
import pytest
from fake_engine import seat

import sim.cli.main as cli
from sim.core.errors import CanastaError
from sim.core.rules import RuleSet
from sim.play import engine
from sim.runs import runner, store
from sim.runs.engines import ChunkEngine

FAKE = fake_engine.run_chunk
RULES = RuleSet.preset("classic")
SORT = {
    "hands": ["seed", "game", "hand"],
    "games": ["seed", "game"],
    "decisions": ["seed", "game", "hand", "turn"],
}


def tables(result) -> dict[str, pd.DataFrame]:
    return {t: result.read(t) for t in store.TABLES}


def assert_same(a: dict[str, pd.DataFrame], b: dict[str, pd.DataFrame]) -> None:
    for t in store.TABLES:
        assert list(a[t].columns) == list(b[t].columns), t
        pd.testing.assert_frame_equal(a[t], b[t], check_exact=True, obj=t)
        # already in key order (no re-sorting needed)
        keys = a[t][SORT[t]]
        pd.testing.assert_frame_equal(
            keys, keys.sort_values(SORT[t], kind="stable").reset_index(drop=True)
        )


@pytest.fixture
def fake_cli(monkeypatch):
    monkeypatch.setattr(engine, "run_chunk", FAKE)
    return FAKE


def sim_run(out=None, engine=FAKE, **kw):
    args = dict(hands=1800, seed=5, jobs=1, chunk_size=250, log_decisions=0.2, progress=False)
    args.update(kw)
    with seat(engine):
        return runner.simulate(RULES, "expert,greedy", out=out, **args)


# ----------------------------------------------------------------------------- determinism


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    out = tmp_path_factory.mktemp("ref") / "run"
    return tables(sim_run(out))


def test_jobs_and_chunk_sizes_do_not_change_results(tmp_path, reference):
    a = tables(sim_run(tmp_path / "a", jobs=2, chunk_size=250))
    b = tables(sim_run(tmp_path / "b", jobs=2, chunk_size=777))
    c = tables(sim_run(tmp_path / "c", jobs=1, chunk_size=1800))
    assert_same(reference, a)
    assert_same(reference, b)
    assert_same(reference, c)
    assert len(reference["hands"]) == 1800
    assert len(reference["decisions"]) > 0
    assert len(reference["games"]) == 0


def test_in_memory_equals_folder(reference):
    mem = sim_run(None, chunk_size=400)
    assert mem.path is None
    assert_same(reference, tables(mem))


def test_games_mode_chunkings(tmp_path):
    a = tables(sim_run(tmp_path / "a", hands=None, games=60, chunk_size=7, jobs=2))
    b = tables(sim_run(None, hands=None, games=60, chunk_size=60))
    assert_same(a, b)
    assert len(a["games"]) == 60
    assert a["hands"].groupby("game").size().tolist() == a["games"]["hands"].tolist()


def test_decision_outcome_join(reference):
    h, d = reference["hands"], reference["decisions"]
    m = d.merge(h, on=["seed", "game", "hand"])
    score_us = m["score_t0"].where(m["team"] == 0, m["score_t1"])
    score_them = m["score_t1"].where(m["team"] == 0, m["score_t0"])
    assert (m["score_us"] == score_us).all()
    assert (m["score_them"] == score_them).all()
    assert (m["went_out_us"] == (m["went_out_team"] == m["team"]).astype("int8")).all()


def test_compact_types_and_strategy_columns(reference):
    h = reference["hands"]
    assert (
        h["end_reason"].dtype == "int8"
        and h["turns"].dtype == "int16"
        and h["score_t1"].dtype == "int32"
    )
    assert h["players"].dtype == "int8"
    assert (h["rules"] == "classic").all()
    # per-team strategies expanded to seats: seats 0, 2 team 0 (expert), 1, 3 team 1 (greedy)
    assert [h[f"strategy_s{s}"].iloc[0] for s in range(4)] == [
        "expert",
        "greedy",
        "expert",
        "greedy",
    ]
    d = reference["decisions"]
    assert d["action"].dtype == "int16" and d["went_out_us"].dtype == "int8"


def test_per_seat_strategies():
    with seat(FAKE):
        r = runner.simulate(RULES, "a,b,c,d", hands=10, jobs=1, progress=False)
    assert r.manifest["strategies"] == ["a", "b", "c", "d"]
    assert r.manifest["team_strategies"] == ["a+c", "b+d"]
    assert runner.expand_strategies(RULES, "random") == ("random",) * 4
    with pytest.raises(ValueError, match="one strategy per team"):
        with seat(FAKE):
            runner.simulate(RULES, "a,b,c", hands=10)


# ----------------------------------------------------------------------------- resume


def test_resume_after_lost_shards_and_garbage(tmp_path, reference):
    out = tmp_path / "run"
    sim_run(out)
    n = 8  # 1800 / 250
    assert store.done_chunks(out) == list(range(n))
    (out / "hands" / "part-000002.parquet").unlink()
    (out / "done" / "000004").unlink()
    (out / "decisions" / "part-000006.parquet").unlink()
    garbage = out / "hands" / "part-000007.parquet.tmp"
    garbage.write_bytes(b"half a parquet file")
    (out / "games" / "part-000005.parquet.tmp").write_bytes(b"\x00" * 10)
    assert store.done_chunks(out) == [0, 1, 3, 5, 7]
    # a marker without its shard is damage: the reader names it (and --resume replays it)
    with pytest.raises(
        store.DamagedShardError, match=r"chunk 2 is marked done but its shard .*hands/part-000002"
    ):
        store.read_run(out)
    (out / "done" / "000002").unlink()
    (out / "done" / "000006").unlink()
    # reading an incomplete run only sees complete chunks, never the tmp files
    assert len(store.read_run(out)) == 5 * 250 - 250 + 50  # chunks 0,1,3,5 full, 7 holds 50

    # without --resume: refused
    with pytest.raises(store.RunFolderError, match="--resume"):
        sim_run(out)
    fake_engine.CALLS.clear()
    r = sim_run(out, resume=True)
    assert sorted(fake_engine.CALLS) == [
        (500, 250),
        (1000, 250),
        (1500, 250),
    ]  # only the lost chunks
    assert r.chunks_run == 3 and r.complete
    assert not garbage.exists()
    assert not list(out.rglob("*.tmp"))
    assert_same(reference, tables(r))


def test_resume_redoes_chunks_whose_shards_are_damaged(tmp_path, reference):
    """After a power cut a done marker can survive data that never reached the disk (shards
    are not synced): --resume checks every done chunk's footers against its marker."""
    out = tmp_path / "run"
    sim_run(out)
    hands1 = out / "hands" / "part-000001.parquet"
    hands1.write_bytes(b"\x00" * hands1.stat().st_size)  # zero-filled, as after a crash
    dec3 = out / "decisions" / "part-000003.parquet"
    dec3.write_bytes(dec3.read_bytes()[:100])  # truncated
    (out / "done" / "000005").write_text('{"rows": {"hands": 1}}')  # a marker that lies
    assert store.done_chunks(out) == list(range(8))  # by their files all still look done
    with pytest.raises(store.RunFolderError, match=r"damaged shard .*part-000001.*--resume"):
        store.read_run(out)
    assert store.intact_chunks(out, range(8)) == [0, 2, 4, 6, 7]
    fake_engine.CALLS.clear()
    r = sim_run(out, resume=True)
    assert sorted(fake_engine.CALLS) == [(250, 250), (750, 250), (1250, 250)]
    assert r.chunks_run == 3 and r.complete
    assert_same(reference, tables(r))


def test_interrupt_keeps_finished_chunks_and_resumes(tmp_path, reference):
    out = tmp_path / "run"
    with pytest.raises(runner.RunInterrupted) as exc:
        sim_run(out, engine=fake_engine.run_chunk_failing_at(1000))
    assert exc.value.done == 4 and exc.value.n_chunks == 8
    assert store.done_chunks(out) == [0, 1, 2, 3]
    r = sim_run(out, resume=True)
    assert_same(reference, tables(r))


def test_cli_interrupt_message(tmp_path, monkeypatch, capsys):
    out = tmp_path / "run"
    monkeypatch.setattr(engine, "run_chunk", fake_engine.run_chunk_failing_at(200))
    rc = cli.main(
        [
            "simulate",
            "--hands",
            "500",
            "--chunk-size",
            "100",
            "--jobs",
            "1",
            "--out",
            str(out),
            "--no-progress",
        ]
    )
    err = capsys.readouterr().err
    assert rc == 130
    assert f"canasta simulate --out {out} --resume" in err and "2/5 chunks" in err
    monkeypatch.setattr(engine, "run_chunk", FAKE)
    # resume picks every setting from the manifest
    rc = cli.main(["simulate", "--out", str(out), "--resume", "--no-progress", "--jobs", "1"])
    assert rc == 0
    with seat(FAKE):
        fresh = runner.simulate(RULES, None, hands=500, chunk_size=100, jobs=1, progress=False)
    assert_same(tables(fresh), tables(runner.RunResult.open(out)))


# ----------------------------------------------------------------------------- refusals


def one_line_error(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert err, "no message"
    last = err[-1]
    assert last.startswith("canasta simulate: error: "), err
    return last


def test_cli_refuses_other_experiment(tmp_path, fake_cli, capsys):
    out = str(tmp_path / "run")
    base = [
        "simulate",
        "--hands",
        "300",
        "--chunk-size",
        "100",
        "--jobs",
        "1",
        "--out",
        out,
        "--no-progress",
    ]
    assert cli.main(base + ["--seed", "1"]) == 0
    capsys.readouterr()
    assert cli.main(base + ["--seed", "2"]) == 2
    msg = one_line_error(capsys)
    assert "seed differs (1 there, 2 here)" in msg and "--out" in msg and "--resume" in msg
    assert cli.main(base + ["--seed", "1", "--set", "go_out_bonus=150"]) == 2
    assert "go_out_bonus: 100 there, 150 here" in one_line_error(capsys)
    assert cli.main(base + ["--seed", "1", "--strategies", "expert,random"]) == 2
    assert "strategies differs" in one_line_error(capsys)
    assert cli.main(base + ["--seed", "1", "--log-decisions", "0.5"]) == 2
    assert "log rate" in one_line_error(capsys)
    assert cli.main(base[:1] + ["--games", "300"] + base[3:] + ["--seed", "1"]) == 2
    assert "mode" in one_line_error(capsys)
    # same experiment, complete: nothing to do, exit 0, summary printed
    assert cli.main(base + ["--seed", "1"]) == 0
    cap = capsys.readouterr()
    assert "already holds this complete run" in cap.err and "300 hands" in cap.out


@pytest.mark.parametrize("state", ["no_manifest", "corrupt", "not_ours", "empty_json"])
def test_cli_refuses_foreign_or_corrupt_folder(tmp_path, fake_cli, capsys, state):
    out = tmp_path / "run"
    out.mkdir()
    if state == "no_manifest":
        (out / "notes.txt").write_text("my thesis")
    elif state == "corrupt":
        (out / "manifest.json").write_text('{"format": "canasta-run", "vers')
    elif state == "not_ours":
        (out / "manifest.json").write_text(json.dumps({"format": "something-else"}))
    else:
        (out / "manifest.json").write_text(json.dumps({"format": "canasta-run", "version": 1}))
    for extra in ([], ["--resume"]):
        rc = cli.main(["simulate", "--hands", "100", "--out", str(out), "--no-progress", *extra])
        assert rc == 2
        assert "not a canasta run folder" in one_line_error(capsys)
    assert sorted(p.name for p in out.iterdir()) in (["notes.txt"], ["manifest.json"])  # untouched


def test_cli_unfinished_needs_resume(tmp_path, fake_cli, capsys):
    out = tmp_path / "run"
    sim_run(out, hands=500, chunk_size=100, log_decisions=0.0, seed=0)
    (out / "done" / "000003").unlink()
    rc = cli.main(
        [
            "simulate",
            "--strategies",
            "expert,greedy",
            "--hands",
            "500",
            "--chunk-size",
            "100",
            "--seed",
            "0",
            "--out",
            str(out),
            "--no-progress",
        ]
    )
    assert rc == 2
    msg = one_line_error(capsys)
    assert "unfinished run" in msg and "4/5" in msg and "--resume" in msg


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--hands", "-5"], "--hands -5 is out of range: give 1 .."),
        (["--hands", "0"], "--hands 0 is out of range: give 1 .."),
        (["--hands", "1e16"], "out of range"),
        (["--hands", "lots"], "not a whole number"),
        (["--games", "2.5"], "not a whole number"),
        (["--log-decisions", "1.5"], "between 0 and 1"),
        (["--log-decisions", "-0.1"], "between 0 and 1"),
        (["--log-decisions", "some"], "not a number"),
        (["--chunk-size", "0"], "--chunk-size 0 is out of range"),
        (["--jobs", "0"], "--jobs 0"),
        (["--seed", "-1"], "--seed -1 is out of range"),
        (["--seed", str(2**64)], "out of range: give 0 .. 9,223,372,036,854,775,807"),
        (["--set", "go_out_bonus=100", "--set", "go_out_bonus=200"], "given twice"),
        (["--strategies", "a,b,c"], "one strategy per team (2) or one per seat (4)"),
        (["--strategies", "a,,b"], "an empty name"),
        (["--players", "7"], "--players 7 is out of range: give 2 .. 6"),
        (["--rules", "bridge"], "unknown preset"),
        (["--set", "go_out_bonnus=1"], "did you mean 'go_out_bonus'"),
        (["--set", "players=6"], "--players"),
        (["--backend", "spark"], "choose loky or dask"),
        (["--backend", "loky", "--scheduler", "tcp://127.0.0.1:1"], "needs --backend dask"),
        (["--scheduler", "localhost"], "tcp://HOST"),
    ],
)
def test_cli_option_errors_are_one_line(tmp_path, fake_cli, capsys, argv, words):
    rc = cli.main(["simulate", "--out", str(tmp_path / "x"), "--no-progress", *argv])
    assert rc == 2
    assert words in one_line_error(capsys)
    assert not (tmp_path / "x").exists()


def test_unknown_strategy_checked_against_registry(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(runner, "registered_strategies", lambda: ("random", "greedy"))
    rc = cli.main(["simulate", "--strategies", "greddy,random", "--out", str(tmp_path / "x")])
    assert rc == 2
    msg = one_line_error(capsys)
    assert "unknown strategy 'greddy' (did you mean 'greedy'?)" in msg


def test_cli_summary_and_defaults(tmp_path, fake_cli, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rc = cli.main(["simulate", "--hands", "2k", "--jobs", "1", "--no-progress"])
    out = capsys.readouterr().out.splitlines()
    assert rc == 0
    assert out[0].startswith("2,000 hands (classic, 4 players, seed 0)")
    text = "\n".join(out)
    assert "mean score per hand [95% CI]" in text and "team 0 (expert) - team 1 (greedy)" in text
    assert out[-2].startswith("hands ended: went out") and "stock exhausted" in out[-2]
    assert "runs/default" in out[-1]
    m = store.read_manifest(tmp_path / "runs" / "default")
    assert m["seed"] == 0 and m["mode"] == "hands" and m["total"] == 2000 and m["players"] == 4


# ----------------------------------------------------------------------------- manifest, reading


def test_manifest_contents(tmp_path):
    out = tmp_path / "run"
    r = sim_run(out, command="canasta simulate --test")
    m = json.loads((out / "manifest.json").read_text())
    assert m == r.manifest == store.read_manifest(out)
    assert m["format"] == "canasta-run" and m["version"] == 2
    assert RuleSet.from_dict(m["rules"]) == RULES
    assert m["strategies"] == ["expert", "greedy", "expert", "greedy"]
    assert (m["seed"], m["mode"], m["total"], m["hands"], m["games"]) == (
        5,
        "hands",
        1800,
        1800,
        None,
    )
    assert (m["chunk_size"], m["n_chunks"], m["log_decisions"]) == (250, 8, 0.2)
    assert {"numba", "numpy", "pandas", "pyarrow", "canasta-lab"} <= set(m["versions"])
    assert m["command"] == "canasta simulate --test" and m["created"]
    for table in store.TABLES:
        files = sorted(p.name for p in (out / table).iterdir())
        assert files == [f"part-{i:06d}.parquet" for i in range(8)]
    meta = pads.dataset(str(out / "hands" / "part-000000.parquet")).to_table().schema
    assert str(meta.field("end_reason").type) == "int8"
    import pyarrow.parquet as pq

    md = pq.ParquetFile(out / "hands" / "part-000000.parquet").metadata
    assert md.row_group(0).column(0).compression == "ZSTD"


def test_read_run_columns_and_filters(tmp_path, reference):
    out = tmp_path / "run"
    sim_run(out)
    df = store.read_run(out, columns=["game", "score_t0"])
    assert list(df.columns) == ["game", "score_t0"]
    pd.testing.assert_frame_equal(df, reference["hands"][["game", "score_t0"]])
    f = store.read_run(out, "decisions", columns=["game", "action"], filters=[("game", "<", 100)])
    expect = reference["decisions"].loc[reference["decisions"]["game"] < 100, ["game", "action"]]
    pd.testing.assert_frame_equal(f, expect.reset_index(drop=True))
    g = store.read_run(out, "hands", filters=pads.field("end_reason") == 2)
    assert (g["end_reason"] == 2).all() and len(g) == (reference["hands"]["end_reason"] == 2).sum()
    assert store.read_run(out, "games").empty
    with pytest.raises(CanastaError, match="unknown column 'nope'"):
        store.read_run(out, columns=["nope"])
    # a filter on a column that does not exist is the caller's mistake, not a damaged shard
    for bad in (pads.field("nope") == 1, [("nope", "==", 1)]):
        with pytest.raises(CanastaError, match="nope") as exc:
            store.read_run(out, filters=bad)
        assert not isinstance(exc.value, store.DamagedShardError) and "damaged" not in str(
            exc.value
        )
    with pytest.raises(CanastaError, match="bad filters"):
        store.read_run(out, filters=[("game",)])
    r = runner.RunResult.open(out)
    assert len(r.hands) == 1800 and r.complete


# ----------------------------------------------------------------------------- dask


def test_dask_local_cluster_equals_local(tmp_path, reference):
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=False,
        protocol="tcp",
        host="127.0.0.1",
        dashboard_address=None,
    ) as cluster:
        r = sim_run(tmp_path / "run", backend="dask", scheduler=cluster.scheduler_address, jobs=2)
        assert_same(reference, tables(r))
        assert (
            cluster.scheduler.task_groups or cluster.scheduler.transition_counter > 0
        )  # ran on dask


def test_dask_unreachable_scheduler_is_one_line(tmp_path, fake_cli, capsys, monkeypatch):
    monkeypatch.setattr(runner, "DASK_CONNECT_TIMEOUT", "1s")
    rc = cli.main(
        [
            "simulate",
            "--hands",
            "10",
            "--scheduler",
            "tcp://127.0.0.1:9",
            "--out",
            str(tmp_path / "x"),
        ]
    )
    assert rc == 2
    assert "cannot reach the dask scheduler tcp://127.0.0.1:9" in one_line_error(capsys)
    assert not (tmp_path / "x").exists()  # refused before the run folder is made


def test_join_with_several_seeds():
    import numpy as np

    hk = (np.array([1, 1, 2, 2]), np.array([0, 1, 0, 1]), np.array([0, 0, 0, 0]))
    dk = (np.array([2, 1, 2, 3]), np.array([1, 0, 0, 0]), np.array([0, 0, 0, 0]))
    assert store._match_keys(hk, dk).tolist() == [3, 0, 2, -1]
    same = (np.array([7, 7, 7]), np.array([5, 5, 6]), np.array([0, 1, 0]))
    assert store._match_keys(
        same, (np.array([7, 7]), np.array([6, 5]), np.array([0, 1]))
    ).tolist() == [2, 1]


def test_zero_hands_and_progress_bar(tmp_path, capsys):
    with pytest.raises(CanastaError, match="hands=0: must be a whole number 1 .."):
        with seat(FAKE):
            runner.simulate(RULES, "random", hands=0, out=tmp_path / "z", progress=False)
    assert not (tmp_path / "z").exists()
    with seat(FAKE):
        runner.simulate(RULES, "random", hands=300, chunk_size=100, jobs=1, out=None, progress=True)
    assert "300/300" in capsys.readouterr().err


def test_a_folder_in_use_is_refused(tmp_path, fake_cli, capsys):
    """A second run into a folder another run is writing to stops with one line (it could
    overwrite the first run's temporary files or clean them away on --resume)."""
    out = tmp_path / "busy"
    with store.lock_folder(out):
        with pytest.raises(store.RunFolderError, match="in use by another run"):
            sim_run(out)
        code = cli.main(["simulate", "--hands", "500", "--out", str(out), "--no-progress"])
        assert code == 2
        err = one_line_error(capsys)
        assert "in use by another run" in err and "pid" in err
    # released: the run goes ahead in the same folder, and the lock file does not make it foreign
    assert len(sim_run(out).read("hands")) == 1800


def test_out_that_is_a_file_is_refused(tmp_path, fake_cli, capsys):
    path = tmp_path / "file.txt"
    path.write_text("x")
    code = cli.main(["simulate", "--hands", "500", "--out", str(path), "--no-progress"])
    assert code == 2
    assert "is a file, not a run folder" in one_line_error(capsys)


def test_gc_frozen_once_in_workers_only(monkeypatch):
    """Loky workers freeze the cycle collector's view after their first chunk, once; the
    caller's own process (jobs=1) never does."""
    import gc

    calls = []
    monkeypatch.setattr(gc, "freeze", lambda: calls.append(1))
    monkeypatch.setattr(runner, "_gc_frozen", False)
    args = (ChunkEngine("fake", FAKE), RULES, ("greedy",) * 4, 5, 0, 0, 10, "hands", 0.0, False)
    runner.run_chunk_task(*args)
    assert calls == []
    runner.run_chunk_task(*args, True)
    runner.run_chunk_task(*args, True)
    assert calls == [1]
    assert not runner._workers_are_ours("loky", 1)
    assert runner._workers_are_ours("loky", 2)
    assert not runner._workers_are_ours("dask", 2)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_huge_run_does_not_build_its_chunk_list(tmp_path, jobs):
    """--hands 1e12 is 50 million chunks: they are made as the workers ask for them (a list of
    them would take minutes and gigabytes before the first chunk)."""
    import resource
    import time

    size = runner.default_chunk_size("hands", 10**12)
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0 = time.perf_counter()
    with pytest.raises(runner.RunInterrupted) as exc:
        with seat(fake_engine.run_chunk_failing_at(5 * size)):
            runner.simulate(
                RULES,
                "greedy",
                hands=10**12,
                out=tmp_path / "huge",
                jobs=jobs,
                progress=False,
            )
    assert exc.value.n_chunks == 10**12 // size == 50_000_000
    assert time.perf_counter() - t0 < 60
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss0) / 1024
    assert grown_mb < 500, f"memory grew by {grown_mb:.0f} MB"
    assert store.read_manifest(tmp_path / "huge")["total"] == 10**12


def test_a_small_run_without_jobs_plays_in_this_process():
    small, big = runner.SMALL_RUN["hands"], runner.SMALL_RUN["games"]
    assert runner.default_jobs("hands", runner.DEFAULT_HANDS) == 1  # the default run
    assert (
        runner.default_jobs("hands", small) == 1 and runner.default_jobs("hands", small + 1) == -1
    )
    assert runner.default_jobs("games", big) == 1 and runner.default_jobs("games", big + 1) == -1
    assert (
        runner.default_jobs("hands", 10, backend="dask") == -1
    )  # a cluster's workers: all of them


@pytest.mark.parametrize(
    ("argv", "jobs"),
    [
        ([], 1),
        (["--hands", "100001"], -1),
        (["--hands", "10", "--jobs", "2"], 2),
        (["--games", "10001"], -1),
    ],
)
def test_the_command_passes_the_default_number_of_workers(monkeypatch, tmp_path, argv, jobs):
    seen = []

    class Stop(Exception):
        pass

    def fake_simulate(*args, **kw):
        seen.append(kw["jobs"])
        raise Stop

    monkeypatch.setattr(runner, "simulate", fake_simulate)
    with pytest.raises(Stop):
        cli.main(["simulate", "--out", str(tmp_path / "x"), "--no-progress", *argv])
    assert seen == [jobs]


# ----------------------------------------------------------------------------- chunk sizes


@pytest.mark.parametrize(
    "mode, total, rate, size",
    [
        (
            "hands",
            10_000_000,
            0.0,
            20_000,
        ),  # unlogged: large chunks (a chunk's fixed cost is ~5 ms)
        ("hands", 10_000_000, 0.05, 5_000),  # logged: the decision buffers grow with the chunk
        ("hands", 1_000_000, 0.0, 15_625),  # about 64 chunks, so every core gets work
        ("hands", 1_000_000, 1.0, 5_000),
        ("hands", 20_000, 0.0, 313),
        ("hands", 1_000, 0.0, 250),  # never below 250 hands
        ("games", 1_000_000, 0.0, 2_000),
        ("games", 1_000_000, 0.5, 500),
        ("games", 1_000, 0.0, 25),
    ],
)
def test_default_chunk_sizes(mode, total, rate, size):
    assert runner.default_chunk_size(mode, total, rate) == size


def test_resume_without_chunk_size_keeps_the_folders_chunks(tmp_path, reference):
    """A folder written with other chunks (e.g. before a default changed) resumes with its own
    chunk size when none is given, instead of being refused as another experiment."""
    out = tmp_path / "run"
    with pytest.raises(runner.RunInterrupted):
        sim_run(out, chunk_size=300, engine=fake_engine.run_chunk_failing_at(900))
    assert runner.default_chunk_size("hands", 1800, 0.2) != 300
    r = sim_run(out, resume=True, chunk_size=None)
    assert r.complete and r.chunks_run == 3
    assert r.manifest["chunk_size"] == 300
    assert_same(reference, tables(r))
    # a new folder without chunk_size gets the default
    r2 = sim_run(tmp_path / "new", chunk_size=None)
    assert r2.manifest["chunk_size"] == runner.default_chunk_size("hands", 1800, 0.2)

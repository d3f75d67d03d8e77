"""Compiling ahead of time: the notice, the run clock that starts after compilation, and
`canasta warmup` on a dask cluster."""

from __future__ import annotations

import io
import re
import time

import fake_engine
import pytest
from fake_engine import seat

from sim.cli.main import main
from sim.cli.warmup import warm_cluster
from sim.core.rules import RuleSet
from sim.play import engine
from sim.play.compile import warm
from sim.runs import runner


@pytest.fixture
def timings(monkeypatch, tmp_path):
    """The compile timings of a fresh cache folder."""
    monkeypatch.setattr(warm, "_timings_path", lambda: tmp_path / warm.TIMINGS_NAME)
    return tmp_path / warm.TIMINGS_NAME


def test_notice_is_silent_when_the_cache_is_warm(timings):
    out = io.StringIO()
    with warm.compile_notice("the game core", "play:random", stream=out):
        pass
    assert out.getvalue() == "" and not timings.exists()


def test_notice_says_one_line_and_next_time_how_long_it_took(monkeypatch, timings):
    monkeypatch.setattr(warm, "NOTICE_AFTER", 0.05)
    out = io.StringIO()
    with warm.compile_notice("the game core", "play:random", stream=out, spinner=False):
        time.sleep(1.6)
    assert out.getvalue() == "canasta: compiling the game core (first run only)\n"
    took = warm.last_compile_seconds("play:random")  # timed on this machine
    assert took is not None and took >= 2
    out = io.StringIO()
    with warm.compile_notice("the game core", "play:random", stream=out, spinner=False):
        time.sleep(0.3)
    assert out.getvalue() == (
        f"canasta: compiling the game core (first run only, about {took} s the last time)\n"
    )
    assert warm.last_compile_seconds("play:heuristic") is None


def test_notice_spins_on_a_terminal(monkeypatch, timings):
    monkeypatch.setattr(warm, "NOTICE_AFTER", 0.05)
    out = io.StringIO()
    with warm.compile_notice("the game core", "play:random", stream=out, spinner=True):
        time.sleep(0.7)
    text = out.getvalue()
    assert text.count("\r") >= 3  # the spinner redrew the line
    assert re.search(r": done in \d+ s\n$", text)


def test_run_clock_starts_after_compilation(monkeypatch):
    # the compilation (here a stand-in that takes 1.5 s) is not counted in the run's time
    calls = []
    monkeypatch.setattr(engine, "run_chunk", fake_engine.run_chunk)
    monkeypatch.setattr(
        runner,
        "warm_simulate",
        lambda checks, logs: (calls.append((checks, logs)), time.sleep(1.5)),
    )
    r = runner.simulate(
        RuleSet.preset("classic"), "expert,greedy", hands=200, jobs=1, progress=False
    )
    assert calls == [((False,), (False,))]  # no --check, no logs: only the loop without either
    assert r.elapsed < 1.0


def test_no_compilation_step_for_a_foreign_chunk_function(monkeypatch):
    monkeypatch.setattr(
        runner, "warm_simulate", lambda checks, logs: pytest.fail("compiled for a fake engine")
    )
    with seat(fake_engine.run_chunk):
        runner.simulate(
            RuleSet.preset("classic"),
            "expert,greedy",
            hands=50,
            jobs=1,
            progress=False,
        )


def test_warmup_compiles_on_every_worker_of_a_local_cluster():
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        result = warm_cluster(cluster.scheduler_address, ("simulate",))
    assert len(result) == 2
    assert len({info["pid"] for info in result.values()}) == 2
    assert all(info["compiled"] >= 1 and "simulate" in info["seconds"] for info in result.values())


def test_warmup_refuses_a_bad_scheduler_address(capsys):
    assert main(["warmup", "--scheduler", "nonsense"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "tcp://HOST:8786" in err[0]


def test_play_compiles_only_the_strategies_it_plays():
    """`canasta play` with the random strategy compiles (or loads) the kernels random's Python
    body calls (registry.PYTHON_BODY: legal_actions_nb, randint_nb), and neither the heuristic's
    nor greedy's decision kernel nor random's own: a fresh process, so no other test's
    compilation counts."""
    import os
    import subprocess
    import sys

    code = (
        "from sim.play.compile.warm import warm_play; warm_play(['random', 'random']); "
        "from strategies import greedy, heuristic, random_play; "
        "from sim.core.legal import legal_actions_nb; from sim.core.rng import randint_nb; "
        "print(len(legal_actions_nb.signatures), len(randint_nb.signatures), "
        "len(random_play.decide_nb.signatures), "
        "len(greedy.decide_nb.signatures), len(heuristic.decide_nb.signatures))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env=dict(os.environ),
    )
    assert out.stdout.split() == ["1", "1", "0", "0", "0"]


def test_play_is_timed_by_the_decision_functions_it_compiles():
    assert warm.play_compile_key(["random"]) == "play:random"
    assert warm.play_compile_key(["expert", "greedy:x=1"]) == "play:greedy,heuristic"
    assert warm.play_compile_key(["patient", "expert"]) == warm.play_compile_key(["expert"])


def test_a_run_compiles_the_loop_without_the_checks_and_logs_it_does_not_use():
    """run_chunk passes check=None and log_rate=None when they are off: numba then compiles a
    loop variant without that code (branches on `is not None`, pruned by type)."""
    from numba import types

    from sim.play.selfplay.loop import play_chunk_nb

    rules = RuleSet.preset("classic")
    engine.run_chunk(rules, ("greedy",) * 4, 0, 0, 2)
    engine.run_chunk(rules, ("greedy",) * 4, 0, 0, 2, log_rate=1.0, check=True)
    kinds = {
        (isinstance(sig[8], types.NoneType), isinstance(sig[9], types.NoneType))
        for sig in play_chunk_nb.signatures
    }
    assert {(True, True), (False, False)} <= kinds


def test_play_without_a_position_compiles_no_knowledge_kernels():
    import os
    import subprocess
    import sys

    code = (
        "from sim.play.compile.warm import warm_play; warm_play(['random'], knowledge=False); "
        "from sim.play.worlds import knowledge as k; from sim.play.selfplay import step; "
        "print(len(k.know_update_nb.signatures), len(k.know_after_nb.signatures), "
        "len(step.observe_nb.signatures))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env=dict(os.environ),
    )
    assert out.stdout.split() == ["0", "0", "1"]

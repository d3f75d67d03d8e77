"""The run summary (reports.summary) printed by `canasta simulate`: every number with its CI."""

from __future__ import annotations

import re

import fake_engine
import numpy as np
import pytest
from fake_engine import seat

import sim.cli.main as cli
from reports import stats
from reports.summary import summarize
from sim.core.rules import RuleSet
from sim.play import engine
from sim.runs import runner


@pytest.fixture(scope="module")
def games_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("sum") / "g"
    rules = RuleSet.preset("classic", 6, "3x2")
    with seat(fake_engine.run_chunk):
        return runner.simulate(
            rules,
            "expert,greedy,random",
            games=120,
            seed=2,
            out=out,
            jobs=1,
            chunk_size=25,
            progress=False,
        )


def test_summary_folder_equals_in_memory_and_independent_computation(games_run):
    s = summarize(games_run)
    h = games_run.hands
    with seat(fake_engine.run_chunk):
        mem = runner.simulate(
            RuleSet.preset("classic", 6, "3x2"),
            "expert,greedy,random",
            games=120,
            seed=2,
            jobs=1,
            chunk_size=40,
            progress=False,
        )
    s2 = summarize(mem)
    assert np.allclose(s.teams[["estimate", "low", "high"]], s2.teams[["estimate", "low", "high"]])
    assert s.hands == len(h) and s.games == 120 and len(s.pairs) == 3  # all three pairs
    # the pair difference, clustered by game, computed here from the rows directly
    d = h["score_t0"] - h["score_t2"]
    ci = stats.cluster_mean_ci(d.to_numpy(), h["game"].to_numpy())
    row = s.pairs[(s.pairs["a"] == 0) & (s.pairs["b"] == 2)].iloc[0]
    assert np.allclose([row["estimate"], row["low"], row["high"]], [ci.mean, ci.low, ci.high])
    won = s.teams["won_estimate"].sum()
    assert abs(won - 1) < 1e-9  # the shares of hands won add up (ties split)
    g = games_run.games
    wins0 = (g["winner_team"] == 0).sum() + (g["winner_team"] < 0).sum() / 3
    assert abs(s.game_teams["estimate"].iloc[0] - wins0 / len(g)) < 1e-12
    assert (s.game_teams["low"] < s.game_teams["estimate"]).all()


def test_simulate_prints_every_estimate_with_its_ci(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(engine, "run_chunk", fake_engine.run_chunk)
    rc = cli.main(
        [
            "simulate",
            "--hands",
            "3000",
            "--jobs",
            "1",
            "--no-progress",
            "--seed",
            "4",
            "--out",
            str(tmp_path / "r"),
        ]
    )
    out = capsys.readouterr().out
    assert rc == 0
    h = runner.RunResult.open(tmp_path / "r").hands
    ci = stats.mean_ci(h["score_t0"] - h["score_t1"])
    line = next(x for x in out.splitlines() if x.startswith("team 0 (expert) - team 1 (greedy)"))
    est, lo, hi = (
        float(v.replace(",", "")) for v in re.findall(r"[-+]?[\d,]+\.?\d*", line.split(")")[-1])
    )
    assert abs(est - ci.mean) <= 0.5 and abs(lo - ci.low) <= 0.5 and abs(hi - ci.high) <= 0.5
    assert re.search(r"\d+\.\d% \[\d+\.\d, \d+\.\d\]", out)  # hands won with its CI
    assert "hands ended: went out" in out and "[" in out.splitlines()[-2]


def test_report_leads_with_the_answer_for_all_pairs_and_games(games_run, tmp_path):
    from reports.report import SECTIONS, build_report

    res = build_report(games_run.path, tmp_path / "r.html")
    md = (tmp_path / "r.md").read_text()  # named after -o
    heads = [ln[3:] for ln in md.splitlines() if ln.startswith("## ")]
    assert (
        heads[0] == "Answer" and heads[-1] == "Experiment settings" and set(SECTIONS) <= set(heads)
    )
    answer = md.split("## Answer")[1].split("## ")[0]
    s = summarize(games_run)
    for r in s.pairs.itertuples():  # all three pairs, each with its CI, in one sentence each
        said = {
            f"95% CI {a:,.{d}f} to {b:,.{d}f}"
            for a, b in ((r.low, r.high), (-r.high, -r.low))
            for d in (0, 1)
        }  # the winner first: the interval may be turned round
        assert any(x in answer for x in said), (said, answer)
    assert answer.count("points per hand") == 3 and "of 120 games" in answer
    games = md.split("## Games won")[1].split("## ")[0]
    assert games.count("(95% CI ") == 6  # 3 teams' games won + 3 pairs' final difference
    assert res["images"] >= 5

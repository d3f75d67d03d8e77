"""Games started at given cumulative scores, and the game equity table built from them."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from reports import equity
from sim.cli.main import main
from sim.core.rules import RuleSet
from sim.play.engine import run_chunk
from sim.play.pyplay import play_hand_py

CLASSIC = RuleSet.preset("classic")


def test_a_team_starting_near_the_target_wins_far_more_often():
    even = run_chunk(CLASSIC, ["expert"] * 4, 5, 0, 60, mode="games").games
    near = run_chunk(
        CLASSIC, ["expert"] * 4, 5, 0, 60, mode="games", start_scores=[CLASSIC.game_target - 1, 0]
    ).games
    assert 10 < (even["winner_team"] == 0).sum() < 50
    assert (near["winner_team"] == 0).sum() >= 55
    # the start is part of the running total: one hand from target-1 usually ends the game
    assert near["hands"].mean() < even["hands"].mean()


def test_start_scores_reach_the_first_hands_rules_and_records():
    """Hands played at cumulative scores (3000, -100) are the hands GameState deals with those
    scores (initial-meld minimums 120 and 15), not the hands at 0-0."""
    start = [3000, -100]
    res = run_chunk(CLASSIC, ["expert"] * 4, 11, 0, 12, mode="hands", start_scores=start)
    assert (res.hands["cum_before"][:, :2] == start).all()
    zero = run_chunk(CLASSIC, ["expert"] * 4, 11, 0, 12, mode="hands")
    differ = 0
    for i, rec in enumerate(res.hands):
        gs = play_hand_py(CLASSIC, ["expert"] * 4, 11, i, 0, start)
        assert [int(x) for x in rec["score"][:2]] == gs.score_breakdown()["score"]
        differ += int((zero.hands["score"][i] != rec["score"]).any())
    from sim.core.enums import Off

    assert list(gs.state[Off.TEAM_MIN : Off.TEAM_MIN + 2]) == [120, 15]
    assert differ > 0, "the minimums by cumulative score changed no hand of 12"


def test_start_scores_per_game_rows_and_totals():
    rows = np.array([[0, 0], [4000, 100], [100, 4000]])
    res = run_chunk(CLASSIC, ["greedy"] * 4, 3, 7, 3, mode="games", start_scores=rows)
    h = pd.DataFrame(
        {"game": res.hands["game"], "s0": res.hands["score"][:, 0], "s1": res.hands["score"][:, 1]}
    )
    sums = h.groupby("game")[["s0", "s1"]].sum().to_numpy()
    g = res.games[np.argsort(res.games["game"])]
    assert (g["final"][:, :2] == rows + sums).all()
    first = res.hands[res.hands["hand"] == 0]
    assert (first[np.argsort(first["game"])]["cum_before"][:, :2] == rows).all()
    # a game's result depends on its own row only (chunking cannot change it)
    alone = run_chunk(CLASSIC, ["greedy"] * 4, 3, 8, 1, mode="games", start_scores=rows[1])
    assert alone.games["final"][0, 0] == g["final"][1, 0]


@pytest.mark.parametrize("bad", [[1, 2, 3], [[1, 2]] * 2, [1.5, 2.0], [2**31, 0]])
def test_bad_start_scores_are_refused(bad):
    with pytest.raises(ValueError, match="start_scores"):
        run_chunk(CLASSIC, ["random"] * 4, 0, 0, 3, mode="games", start_scores=bad)


def _family_half(pooled: pd.DataFrame, checks: int) -> pd.Series:
    """Each cell's Wilson half-width at the level that keeps ``checks`` comparisons at a
    family-wise 95% (Bonferroni): the cells share game keys, their errors are not independent."""
    from scipy.special import ndtri

    z = float(ndtri(1 - 0.05 / (2 * checks)))
    lo, hi = equity.wilson(pooled["wins"].to_numpy(), pooled["games"].to_numpy(), z=z)
    return pd.Series((hi - lo) / 2, index=pooled.index)


@pytest.fixture(scope="module")
def table():
    return equity.equity_table(CLASSIC, ["expert"] * 4, step=2000, games=300, seed=2)


def test_table_is_monotonic_in_own_score_and_symmetric(table):
    pooled = table[table["team"] == -1].set_index(["us", "them"])
    pts = sorted(pooled.index.get_level_values(0).unique())
    assert pts == [0, 2000, 4000]
    assert (pooled["games"] == 300).all()
    for b in pts:
        for a0, a1 in zip(pts, pts[1:], strict=False):
            lo, hi = pooled.loc[(a0, b)], pooled.loc[(a1, b)]
            assert lo["ci_low"] <= hi["ci_high"], f"P(win) falls from own {a0} to {a1} at them={b}"
    # symmetric strategies: P(a, b) + P(b, a) = 1 within the intervals, checked at a
    # family-wise 95% (the 6 distinct checks at 1 - 0.05/6 each)
    half = _family_half(pooled, checks=len(pts) * (len(pts) + 1) // 2)
    for a in pts:
        for b in pts:
            total = pooled.loc[(a, b), "p_win"] + pooled.loc[(b, a), "p_win"]
            assert abs(total - 1) <= half[(a, b)] + half[(b, a)], (a, b)
    assert pooled.loc[(4000, 0), "p_win"] > 0.8 > 0.2 > pooled.loc[(0, 4000), "p_win"]
    # the team rows add up to the pooled ones
    teams = table[table["team"] >= 0].groupby(["us", "them"])[["games", "wins"]].sum()
    assert np.allclose(teams.to_numpy(), pooled[["games", "wins"]].to_numpy())


def test_table_same_whatever_jobs(table):
    two = equity.equity_table(CLASSIC, ["expert"] * 4, step=2000, games=300, seed=2, jobs=2)
    pd.testing.assert_frame_equal(two, table)


def test_lookup_and_file_round_trip(table, tmp_path):
    path = equity.save_equity(table, tmp_path / "eq.parquet")
    e = equity.load_equity(path)
    pooled = table[table["team"] == -1]
    for r in pooled.itertuples():
        assert e.p_win(r.us, r.them) == pytest.approx(r.p_win)
    mid = e.p_win(1000, 0)
    assert mid == pytest.approx((e.p_win(0, 0) + e.p_win(2000, 0)) / 2)
    assert e.after_hand(4800, 1000, 300, 100) == 1.0  # the hand ends the game: won
    assert e.after_hand(4800, 4900, 300, 250) == 0.0
    assert e.after_hand(4800, 4800, 300, 300) == 0.5
    assert (
        e.after_hand(0, 0, 2000, 0)
        == pytest.approx(e.p_win(2000, 0))
        == pytest.approx(e.of_totals(2000, 0))
    )
    assert e.after_hand(-500, 0, 0, 0) == pytest.approx(e.p_win(0, 0))  # below the grid: its edge
    t1 = table[(table["team"] == 1) & (table["us"] == 2000) & (table["them"] == 0)]["p_win"].iloc[0]
    assert equity.load_equity(path, team=1).p_win(2000, 0) == pytest.approx(t1)
    np.testing.assert_allclose(
        e.after_hand(np.array([0, 4800]), 0, np.array([0, 300]), 0), [e.p_win(0, 0), 1.0]
    )
    (tmp_path / "x.parquet").write_text("nope")
    with pytest.raises(ValueError, match="not a parquet"):
        equity.load_equity(tmp_path / "x.parquet")
    with pytest.raises(ValueError, match="no such equity table"):
        equity.load_equity(tmp_path / "missing.parquet")
    text = equity.format_table(table)
    assert len({len(line) for line in text.splitlines()}) == 1  # aligned


def test_wilson_interval_covers_at_the_nominal_rate():
    rng = np.random.default_rng(0)
    for p, n in ((0.5, 50), (0.1, 200), (0.9, 400), (0.03, 300)):
        wins = rng.binomial(n, p, size=4000)
        lo, hi = equity.wilson(wins, np.full(4000, n))
        cover = ((lo <= p) & (p <= hi)).mean()
        assert 0.93 <= cover <= 0.975, (p, n, cover)


def test_run_equity_counts_a_game_once_per_cell_and_splits_ties():
    hands = pd.DataFrame(
        {
            "seed": 0,
            "game": [0, 0, 0, 1, 1],
            "hand": [0, 1, 2, 0, 1],
            "cum_before_t0": [0, 100, 900, 0, 600],
            "cum_before_t1": [0, 50, 1200, 0, 300],
        }
    )
    games = pd.DataFrame(
        {"seed": 0, "game": [0, 1], "final_t0": [3000, 5200], "final_t1": [5100, 5200]}
    )
    df = equity.run_equity(hands, games, 2, 5000, step=500).set_index(["team", "us", "them"])
    assert df.loc[(0, 0, 0), "games"] == 2  # game 0 twice in (0, 0) counts once
    assert df.loc[(0, 0, 0), "wins"] == 0.5  # game 1 tied: half a win each
    assert df.loc[(1, 0, 0), "wins"] == 1.5
    assert df.loc[(0, 500, 0), "games"] == 1 and df.loc[(1, 1000, 500), "wins"] == 1.0


@pytest.mark.parametrize(
    "argv, msg",
    [
        (["-o", "x.csv"], "parquet"),
        (["--step", "0", "-o", "x.parquet"], "--step"),
        (["--games", "0", "-o", "x.parquet"], "--games"),
        (["--strategies", "nosuch", "-o", "x.parquet"], "unknown strategy"),
    ],
)
def test_cli_bad_input_one_line_exit_2(argv, msg, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["equity", *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and msg in err[0]


def test_cli_writes_table_and_heatmap(tmp_path, capsys):
    out = tmp_path / "eq.parquet"
    assert (
        main(
            [
                "equity",
                "--strategies",
                "expert,greedy",
                "--step",
                "2500",
                "--games",
                "40",
                "-o",
                str(out),
            ]
        )
        == 0
    )
    text = capsys.readouterr().out
    assert "team 0 (expert,expert)" in text and "team 1 (greedy,greedy)" in text
    assert out.is_file() and out.with_suffix(".png").stat().st_size > 5000
    e = equity.load_equity(out, team=0)
    assert e.meta["strategies"] == ["expert", "greedy", "expert", "greedy"]


def test_analyze_reads_an_equity_file(table, tmp_path, capsys):
    # canasta analyze --equity FILE adds each action's P(win the game) from the position's scores
    import json

    from sim.cli.main import main

    path = equity.save_equity(table, tmp_path / "eq.parquet")
    pos = Path(__file__).resolve().parents[1] / "docs" / "position-example.txt"
    assert main(["analyze", str(pos), "--rollouts", "40", "--json", "--equity", str(path)]) == 0
    actions = json.loads(capsys.readouterr().out)["actions"]
    assert all(0.0 <= a["p_win"] <= 1.0 for a in actions)
    assert (
        main(["analyze", str(pos), "--rollouts", "40", "--equity", str(tmp_path / "none.parquet")])
        == 2
    )


def test_each_team_starts_at_the_row_score_once_under_every_dealer():
    for n_active, n_teams in ((2, 2), (3, 3), (4, 2), (6, 2), (6, 3)):
        cycle = np.arange(n_active * n_teams)
        pairs = set(zip(cycle % n_active, equity.us_team(cycle, n_active, n_teams), strict=True))
        assert len(pairs) == n_active * n_teams  # every (first dealer, team at the row) once


def test_one_strategy_two_teams_is_even_on_the_diagonal_and_complementary():
    """p(a, b) + p(b, a) = 1 and p(a, a) = 50% within the intervals (one strategy at every
    seat; the team at the row's score alternates under every dealer), 2,000 games per cell."""
    t = equity.equity_table(CLASSIC, ["greedy"] * 4, step=2500, games=2000, seed=4)
    pooled = t[t["team"] == -1].set_index(["us", "them"])
    half = _family_half(pooled, checks=3)  # two diagonal cells, one pair: family-wise 95%
    pts = sorted(pooled.index.get_level_values(0).unique())
    assert pts == [0, 2500] and (pooled["games"] == 2000).all()
    for a in pts:
        assert abs(pooled.loc[(a, a), "p_win"] - 0.5) <= half[(a, a)], a
        for b in pts:
            total = pooled.loc[(a, b), "p_win"] + pooled.loc[(b, a), "p_win"]
            assert abs(total - 1) <= half[(a, b)] + half[(b, a)], (a, b)
    assert pooled.loc[(2500, 0), "p_win"] > 0.6


def test_the_table_fits_100_columns_in_spaced_blocks_and_marks_few_games():
    t = equity.equity_table(CLASSIC, ["greedy"] * 4, step=500, games=12, seed=1)
    text = equity.format_table(t)
    lines = text.splitlines()
    assert max(len(x) for x in lines) <= 100 and "" in lines  # 10 columns: more than one block
    assert not any(re.search(r"\](\S| \S)", x) for x in lines)  # cells two spaces apart
    assert "us \\ them" in lines[0] and "  " in lines[1]
    few = t.assign(games=np.where(t["us"] == 0, 3, t["games"]))
    marked = equity.format_table(few)
    assert "]*" in marked and "* fewer than 10 games" in marked


def test_heatmap_is_colour_blind_safe_with_n_and_ci_and_leaves_out_few_games():
    t = equity.equity_table(CLASSIC, ["greedy"] * 4, step=2500, games=20, seed=1)
    few = t.assign(games=np.where((t["us"] == 0) & (t["them"] == 2500), 4, t["games"]))
    fig = equity.heatmap(few)
    ax = fig.axes[0]
    im = ax.images[0]
    assert im.cmap.name.startswith("RdBu")  # ColorBrewer's diverging red-blue, not red-green
    assert int(np.ma.getmaskarray(im.get_array()).sum()) == 1  # the 4-game cell left out
    texts = [x.get_text() for x in ax.texts]
    assert "n=4" in texts and sum(bool(re.search(r"\[\d+, \d+\]\nn=20", x)) for x in texts) == 3

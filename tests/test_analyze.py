"""`canasta analyze` (reports/analyze.py, sim/play/rollouts/actions.py): right values, right
ranking, same results whatever --jobs, the documented formats."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest

from reports.analyze import (
    analyze,
    decision_from_position,
    decision_from_view,
    format_table,
    to_json,
)
from reports.position import parse_position
from sim.cli.main import main
from sim.core.apply import SCORE_ROWS, apply_action_nb
from sim.core.enums import MAX_TEAMS, N_ACTIONS, N_KINDS, Act, Off, Phase
from sim.play.rollouts.actions import hand_result_nb
from sim.play.selfplay.step import build_obs_nb
from sim.play.worlds.sampler import Know, observe_nb, sample_worlds_nb
from strategies.registry import decide_nb, parse_spec

RANKS = ["4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def _endgame(
    me: str,
    opp: str,
    pile: str,
    stock: str,
    melds_us=("4", "5", "6", "7", "8"),
    wild_us=("2 2 2", "", "2 2 2", "", ""),
    wild_them=("2 2 JK", "JK JK JK", "", "", "", ""),
):
    """A 2-player classic position where every card not in `me`, `opp`, `pile`, `stock` is
    melded (ranks `melds_us` by us, the rest by them) and every red three is laid."""
    from reports.position import parse_cards

    used = parse_cards(" ".join([me, opp, pile, stock, *wild_us, *wild_them]))
    lines = [
        "players: 2",
        f"hand: {me}",
        f"pile_cards: {pile}",
        "red3 us: 2",
        "red3 them: 2",
        f"hand_sizes: {len(me.split())} {len(opp.split())}",
        f"stock: {len(stock.split())}",
    ]
    them = [r for r in RANKS if r not in melds_us]
    groups = {"us": [], "them": []}
    for team, ranks, wild in (("us", melds_us, wild_us), ("them", them, wild_them)):
        for r, w in zip(ranks, list(wild) + [""] * len(ranks), strict=False):
            k = parse_cards(r).argmax()
            groups[team].append(" ".join([r] * int(8 - used[k])) + (" " + w if w else ""))
    lines += [f"melds {t}: {' | '.join(g)}" for t, g in groups.items()]
    return "\n".join(lines) + "\n"


def _with_known_opponent(dec, opp: str):
    from reports.position import parse_cards

    c = parse_cards(opp)
    dec.know[Know.KNOWN + 1 * N_KINDS : Know.KNOWN + 2 * N_KINDS] = c
    return dec


def _exact(dec, action: int, spec: str) -> float:
    """E[result] over every order of the (only hidden) stock, played out deterministically with
    the Python loop (heuristic strategies use no randomness)."""
    w = np.zeros((1, Off.STATE_SIZE), np.int32)
    assert (
        sample_worlds_nb(
            dec.obs, dec.know, dec.params, 0, 0, w, -1, np.zeros(24), 0, np.zeros(2, np.int64)
        )
        == 0
    )
    world = w[0]
    n = int(world[Off.STOCK_LEN])
    stock = world[Off.STOCK : Off.STOCK + n].copy()
    sid, knobs = parse_spec(spec)
    obs = np.zeros(Off.STATE_SIZE, np.int32)
    buf = np.zeros(N_ACTIONS, np.int32)
    rng = np.zeros(2, np.uint64)
    score = np.zeros((SCORE_ROWS, MAX_TEAMS), np.int32)
    vals = []
    for perm in itertools.permutations(range(n)):
        st = world.copy()
        st[Off.STOCK : Off.STOCK + n] = stock[list(perm)]
        assert apply_action_nb(st, dec.params, action) == 0
        while st[Off.PHASE] != Phase.OVER:
            build_obs_nb(st, st[Off.SEAT], obs, False)
            assert (
                apply_action_nb(st, dec.params, decide_nb(sid, obs, dec.params, knobs, rng, buf))
                == 0
            )
        us, them, _ = hand_result_nb(st, dec.params, 0, score)
        vals.append(us - them)
    return float(np.mean(vals))


def test_exact_endgame_values_agree_with_rollouts():
    text = _endgame(me="5 5 9", opp="3 3 7", pile="4 6 5", stock="3 3 8 10")
    dec = _with_known_opponent(decision_from_position(parse_position(text)), "3 3 7")
    assert sorted(dec.texts) == ["draw", "take 5 5", "take onto 5s"]
    df = analyze(dec, "expert", rollouts=400, seed=2).set_index("action")
    exact = {t: _exact(dec, a, "expert") for a, t in zip(dec.actions, dec.texts, strict=True)}
    assert len(set(exact.values())) >= 2  # the actions really differ
    for t, v in exact.items():
        assert df.loc[t, "ci_low"] <= v <= df.loc[t, "ci_high"], (t, v, df.loc[t].to_dict())
    best = df.index[0]
    other = df.index[1]
    d = exact[other] - exact[best]
    assert df.loc[other, "diff_ci_low"] <= d <= df.loc[other, "diff_ci_high"]


def _after_draw(text: str, opp_known: str, top: str):
    """The viewer's decision after drawing `top` (moved to the top of the stock of one world)."""
    from reports.position import card_kind

    dec = _with_known_opponent(decision_from_position(parse_position(text)), opp_known)
    w = np.zeros((1, Off.STATE_SIZE), np.int32)
    assert (
        sample_worlds_nb(
            dec.obs, dec.know, dec.params, 0, 0, w, -1, np.zeros(24), 0, np.zeros(2, np.int64)
        )
        == 0
    )
    st = w[0]
    n = int(st[Off.STOCK_LEN])
    kinds = list(st[Off.STOCK : Off.STOCK + n] & 15)
    j = kinds.index(card_kind(top))
    st[Off.STOCK], st[Off.STOCK + j] = st[Off.STOCK + j], st[Off.STOCK]
    assert apply_action_nb(st, dec.params, Act.DRAW) == 0
    obs = np.zeros(Off.STATE_SIZE, np.int32)
    observe_nb(st, 0, 0, obs, False)
    return decision_from_view(obs, dec.know, dec.params, 0, "after draw")


def test_going_out_is_ranked_best():
    # us has canastas and a meld of 5s; after drawing a 5 the viewer holds 5 5 5 9: adding the
    # 5s and discarding the 9 goes out (the rollout strategy adds the rest by itself)
    text = _endgame(me="5 5 9", opp="3 3 7 10 10", pile="4 6 8", stock="3 3 5 J Q K A 9 9 9")
    dec = _after_draw(text, "3 3 7 10 10", "5")
    df = analyze(dec, "expert", rollouts=200, seed=1)
    assert df["action"].iloc[0] == "add 5 to 5s"
    assert df["p_out"].iloc[0] == 1.0
    assert (df["diff_ci_high"].iloc[1:] < 0).all()


def test_discard_that_hands_the_next_opponent_the_pile_is_worse():
    # the opponent is known to hold 10 10 (it took them with the pile); a big unfrozen pile
    text = _endgame(
        me="10 J K",
        opp="3 3 10 10 Q",
        pile="4 6 8 A A K Q J 9 9 7 7 6 8 4 9",
        stock="3 3 5 5 A J Q K 9",
    )
    dec = _after_draw(text, "3 3 10 10 Q", "5")
    df = analyze(dec, "expert", rollouts=300, seed=4).set_index("action")
    assert df.loc["discard 10", "diff_ci_high"] < 0
    assert df.loc["discard 10", "mean"] < df.loc["discard 5", "mean"] - 100


def test_same_results_whatever_jobs_and_until_ci_stops():
    pos = parse_position(
        (Path(__file__).resolve().parent.parent / "docs" / "position-example.txt").read_text()
    )
    a = analyze(pos, "expert", rollouts=1600, until_ci=20, jobs=1, seed=3)
    b = analyze(pos, "expert", rollouts=1600, until_ci=20, jobs=2, seed=3)
    assert a.equals(b)
    assert 100 < a.attrs["rollouts"] <= 1600  # several batches
    for r in a.iloc[1:].to_dict("records"):
        if r["rollouts"] == a.attrs["rollouts"] and a.attrs["rollouts"] < 1600:
            assert (r["diff_ci_high"] - r["diff_ci_low"]) / 2 <= 20
        elif r["rollouts"] < a.attrs["rollouts"]:
            assert r["diff_ci_high"] < 0  # dropped early: clearly worse
        # an action dropped early is never "not separable from the best", whatever the best
        # became after it was dropped; it is marked x in the table
        assert not (r["dropped"] and r["tie"])
        assert r["dropped"] == (r["rollouts"] < a.attrs["rollouts"])
    dropped = a.loc[a["dropped"], "action"]
    table = format_table(a).splitlines()
    assert all(any(ln.startswith("x " + act) for ln in table) for act in dropped)
    c = analyze(pos, "expert", rollouts=100, seed=3, jobs=2)
    assert c.equals(analyze(pos, "expert", rollouts=100, seed=3))


def test_json_object_and_cli(tmp_path, capsys):
    text = _endgame(me="5 5 9", opp="3 3 7", pile="4 6 5", stock="3 3 8 10")
    f = tmp_path / "pos.txt"
    f.write_text(text)
    assert main(["analyze", str(f), "--rollouts", "50", "--seed", "1", "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert list(obj)[:4] == ["position", "strategy", "rollouts", "actions"]
    assert obj["rollouts"] == 50 and obj["strategy"] == "expert"
    keys = [
        "action",
        "mean",
        "ci_low",
        "ci_high",
        "diff_to_best",
        "diff_ci_low",
        "diff_ci_high",
        "p_out",
        "rollouts",
    ]
    for item in obj["actions"]:
        assert list(item)[: len(keys)] == keys
    means = [x["mean"] for x in obj["actions"]]
    assert means[0] == max(means)
    df = analyze(parse_position(text), rollouts=50, seed=1)
    assert to_json(df)["actions"][0]["mean"] == obj["actions"][0]["mean"]
    assert main(["analyze", str(f)]) == 0
    out = capsys.readouterr().out
    assert "take 5 5" in out and max(map(len, out.splitlines())) <= 100


@pytest.mark.parametrize(
    "extra,needle",
    [
        (["--rollouts", "1"], "give 2 .."),
        (["--until-ci", "0"], "give a number > 0"),
        (["--strategies", "nosuch"], "unknown strategy"),
        (["--strategies", "expert,greedy,expert"], "one per seat"),
        (["--seed", "-1"], "--seed: -1 is out of range"),
        (["--uniform", "--infer", "expert"], "contradict"),
    ],
)
def test_bad_input_is_one_line_exit_2(tmp_path, capsys, extra, needle):
    f = tmp_path / "pos.txt"
    f.write_text(_endgame(me="5 5 9", opp="3 3 7", pile="4 6 5", stock="3 3 8 10"))
    assert main(["analyze", str(f), *extra]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and needle in err[0]


def test_viewer_must_be_the_seat_to_act(tmp_path, capsys):
    f = tmp_path / "pos.txt"
    f.write_text(_endgame(me="5 5 9", opp="3 3 7", pile="4 6 5", stock="3 3 8 10") + "to_move: 1\n")
    assert main(["analyze", str(f)]) == 2
    assert "seat to act" in capsys.readouterr().err


def test_equity_hook_adds_p_win():
    text = _endgame(me="5 5 9", opp="3 3 7", pile="4 6 5", stock="3 3 8 10") + "scores: 4000 4500\n"
    df = analyze(
        parse_position(text), rollouts=60, seed=1, equity=lambda us, them: (us > them).astype(float)
    )
    assert {"p_win", "p_win_low", "p_win_high"} <= set(df.columns)
    assert ((df["p_win"] >= 0) & (df["p_win"] <= 1)).all()


def test_interval_coverage_on_the_exact_endgame():
    """Over many seeds the 95% intervals (each action's mean, and the paired difference) cover
    the exact values about 95% of the time, also when --until-ci decides when to stop."""
    text = _endgame(me="5 5 9", opp="3 3 7", pile="4 6 5", stock="3 3 8 10")
    dec = _with_known_opponent(decision_from_position(parse_position(text)), "3 3 7")
    exact = {t: _exact(dec, a, "expert") for a, t in zip(dec.actions, dec.texts, strict=True)}
    runs, hits, diff_hits, diffs = 60, 0, 0, 0
    for seed in range(runs):
        df = analyze(
            dec, "expert", rollouts=60, seed=1000 + seed, until_ci=60 if seed % 2 else None
        ).set_index("action")
        t = "draw"
        hits += df.loc[t, "ci_low"] <= exact[t] <= df.loc[t, "ci_high"]
        best = df.index[0]
        for other in df.index[1:]:
            if df.loc[other, "rollouts"] >= 60:
                d = exact[other] - exact[best]
                diff_hits += df.loc[other, "diff_ci_low"] <= d <= df.loc[other, "diff_ci_high"]
                diffs += 1
    assert hits / runs >= 0.85, hits
    assert diffs > 40 and diff_hits / diffs >= 0.85, (diff_hits, diffs)


def test_paired_rollouts_are_the_numbers_behind_the_table():
    from reports.analyze import paired_rollouts

    dec = decision_from_position(
        parse_position(_endgame(me="5 5 9", opp="3 3 7", pile="4 6 5", stock="3 3 8 10"))
    )
    us, them, went = paired_rollouts(dec, "expert", 80, seed=5)
    df = analyze(dec, "expert", rollouts=80, seed=5).set_index("action_id")
    for j, a in enumerate(dec.actions):
        assert df.loc[a, "mean"] == pytest.approx((us[:, j] - them[:, j]).mean())
        assert df.loc[a, "p_out"] == pytest.approx(went[:, j].mean())
    tail = paired_rollouts(dec, "expert", 30, seed=5, start=50)
    assert (tail[0] == us[50:]).all()  # rollout i depends only on (seed, i)

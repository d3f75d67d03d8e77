"""canasta review: replaying hands, the decision list, marks, luck bookkeeping, the evaluator's
paired intervals and blindness to hidden cards, and the outputs."""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest

from reports import review_eval
from reports.hand_file import HandFileError, read_hand_file
from reports.review import MARKS, decision_points, hand_by_key, mark_for, review
from reports.review_out import format_text, write_html
from sim.cli.main import main
from sim.core.enums import FIRST_NATURAL, LAST_NATURAL, N_KINDS, N_SUITED, Act, Off
from sim.core.rules import RuleSet
from sim.play.game import GameState
from sim.play.history import format_history

CLASSIC = RuleSet.preset("classic")
EXPERTS = ["expert"] * 4


@pytest.fixture(scope="module")
def rec():
    return hand_by_key(CLASSIC, EXPERTS, seed=7, game=0, hand=1)


def test_hand_by_key_carries_the_games_scores(rec):
    assert rec.key == (7, 0, 1) and len(rec.cum) == 2 and sum(map(abs, rec.cum)) > 0
    assert rec.replay().is_over
    with pytest.raises(ValueError, match="--hand 99 does not exist"):
        hand_by_key(CLASSIC, EXPERTS, seed=7, game=0, hand=99)


def test_a_play_history_and_a_hand_record_give_the_same_hand(rec, tmp_path):
    text = format_history(rec.new_state, rec.actions, EXPERTS)
    (tmp_path / "h.txt").write_text(text)
    back = read_hand_file(tmp_path / "h.txt")
    assert back.actions == rec.actions and back.key == rec.key and back.cum == rec.cum
    assert back.strategies == EXPERTS
    gs = rec.new_state()
    texts = []
    for a in rec.actions:
        texts.append(gs.text(a))
        gs.apply(a)
    record = (
        "rules: classic\nplayers: 4\nkey: seed=7 game=0 hand=1   # the deal\n"
        f"scores: {rec.cum[0]} {rec.cum[1]}\nactions:\n"
        + "; ".join(texts[:5])
        + "\n"
        + "\n".join(texts[5:])
        + "\n"
    )
    (tmp_path / "r.txt").write_text(record)
    assert read_hand_file(tmp_path / "r.txt").actions == rec.actions
    lines = record.split("\n")
    lines[4] = "; ".join([texts[0], "draw"] + texts[2:5])  # a second draw in one turn
    (tmp_path / "bad.txt").write_text("\n".join(lines))
    with pytest.raises(HandFileError, match=r"bad.txt:5: "):
        read_hand_file(tmp_path / "bad.txt")
    (tmp_path / "short.txt").write_text(
        record.split("\n")[0] + "\nkey: seed=7 game=0 hand=1\nactions: draw\n"
    )
    with pytest.raises(HandFileError, match="not over"):
        read_hand_file(tmp_path / "short.txt")


def test_a_hand_record_with_a_stacked_deck(tmp_path):
    from deckbuilder import full_deck_ids

    from sim.core.cards import card_token
    from sim.play.pyplay import play_hand_py

    deck = " ".join(card_token(c) for c in full_deck_ids(2))
    gs = play_hand_py(CLASSIC, ["greedy"] * 4, gs=GameState.new_hand(CLASSIC, deck=deck, dealer=0))
    replay = GameState.new_hand(CLASSIC, deck=deck, dealer=0)
    texts = []
    for a in gs.actions:
        texts.append(replay.text(a))
        replay.apply(a)
    (tmp_path / "d.txt").write_text(f"deck: {deck}\ndealer: 0\nactions: " + "; ".join(texts) + "\n")
    back = read_hand_file(tmp_path / "d.txt")
    assert back.actions == gs.actions and back.replay().score_breakdown() == gs.score_breakdown()


def test_decision_points_are_the_seats_actions(rec):
    pts, final = decision_points(rec, [2])
    gs = rec.new_state()
    mine = []
    for i, a in enumerate(rec.actions):
        if gs.seat_table[gs.seat] == 2:
            mine.append(i)
        gs.apply(a)
    assert [p.index for p in pts] == mine and final.is_over
    assert all(p.played in p.legal for p in pts)
    with pytest.raises(ValueError, match="--seat 7"):
        decision_points(rec, [7])


def test_marks_follow_the_documented_thresholds():
    assert [t for t, _, _ in MARKS] == [200.0, 100.0, 50.0]
    assert (
        mark_for(49, 10) == ""
        and mark_for(50, 1) == "?!"
        and mark_for(100, 1) == "?"
        and mark_for(250, 1) == "??"
    )
    assert mark_for(300, -5) == ""  # not separable from the best: no mark


Z95 = 1.959963984540054


class FakeEvaluator:
    """Action a is worth base(point) - 150 if a is the played action at a chosen point, with a
    fixed paired noise-free world structure: every action's values per world are known."""

    def __init__(self, bad_index: int, rec):
        self.bad_index = bad_index
        self.rec = rec
        self.calls = []

    def __call__(self, gs, actions, rollouts, seed):
        idx = len(gs.history)
        self.calls.append(idx)
        played = self.rec.actions[idx] if idx < len(self.rec.actions) else -1
        base = 10.0 * idx
        vals = np.tile(np.linspace(-30, 30, rollouts), (len(actions), 1)) + base
        for j, a in enumerate(actions):
            if idx == self.bad_index and a == played:
                vals[j] -= 150
            elif a != played:
                vals[j] -= 1 + a % 7  # the played action is the best elsewhere
        return review_eval.summarize(vals.T.copy(), list(actions))


def test_review_bookkeeping_with_a_known_evaluator(rec):
    """Expert self-play reviewed against expert: the played action is expert's choice, so the
    best-action player's walk follows the hand until the bad point, where it takes the best."""
    pts, _ = decision_points(rec, [1])
    bad = next(p.index for p in pts if len(p.legal) > 1 and p.played != Act.DRAW)
    fake = FakeEvaluator(bad, rec)
    rv = review(rec, [1], fake, rollouts=40, seed=3, accounting=False)
    assert sorted({c for c in fake.calls if c <= pts[-1].index} & {p.index for p in pts}) == [
        p.index for p in pts
    ]
    d = rv.decisions.set_index("index")
    assert d.loc[bad, "mark"] == "?" and 142 <= d.loc[bad, "lost"] <= 149
    assert (d.drop(bad)["mark"] == "").all() and (d.drop(bad)["lost"] == 0).all()
    assert (d["vs_choice"] == 0).all() and (d["choice"] == d["played"]).all()
    row = rv.summary.iloc[0]
    assert row["mistakes"] == 1 and row["path_lost"] == pytest.approx(d.loc[bad, "lost"])
    w = rv.walk.set_index("index")
    assert w["on_path"].loc[:bad].all() and not w["on_path"].loc[bad + 1 :].any()
    assert w.loc[bad, "gain"] == pytest.approx(d.loc[bad, "lost"])
    assert (w.loc[: bad - 1, "gain"] == 0).all()
    # skill lost = the walk's gains over S's choice (+ the played path's losses against it: 0)
    assert row["skill_lost"] == pytest.approx(w["gain"].sum())
    assert row["walk_gain"] == pytest.approx(w["gain"].sum()) and row["vs_choice"] == 0
    assert rv.walk_actions[1][:bad] == rec.actions[:bad]
    assert rv.walk_actions[1][bad] != rec.actions[bad]
    assert "summary per team" in format_text(rv)
    js = json.loads(json.dumps(rv.to_json()))
    assert js["thresholds"][0]["mark"] == "??" and len(js["decisions"]) == len(pts)
    assert len(js["walk"]) == len(rv.walk) and "accounting" not in js


def _swap_hidden_card(gs: GameState, viewer: int) -> GameState:
    """A copy where one natural card of another seat's hand and one natural stock card of
    another rank trade places (the viewer cannot tell the two states apart)."""
    import copy

    g = copy.deepcopy(gs)
    st = g.state
    other = next(s for s in range(g.n_seats) if s != viewer)
    pos = int(st[Off.STOCK_POS])
    for p in range(pos, pos + int(st[Off.STOCK_LEN])):
        j = int(st[Off.STOCK + p]) & 15
        for k in range(FIRST_NATURAL, LAST_NATURAL + 1):
            hand = Off.HAND_SUITS + other * N_SUITED
            if (
                j == k
                or not FIRST_NATURAL <= j <= LAST_NATURAL
                or st[Off.HANDS + other * N_KINDS + k] == 0
            ):
                continue
            suit = next(u for u in range(4) if st[hand + u * 11 + k - FIRST_NATURAL] > 0)
            js = int(st[Off.STOCK + p]) >> 4
            st[hand + suit * 11 + k - FIRST_NATURAL] -= 1
            st[Off.HANDS + other * N_KINDS + k] -= 1
            st[hand + js * 11 + j - FIRST_NATURAL] += 1
            st[Off.HANDS + other * N_KINDS + j] += 1
            st[Off.STOCK + p] = k | (suit << 4)
            return g
    raise AssertionError("no card to swap")


def test_the_evaluator_never_reads_hidden_cards(rec):
    pts, _ = decision_points(rec, [0])
    p = next(p for p in pts if len(p.legal) > 2)
    swapped = _swap_hidden_card(p.state, p.seat)
    assert not np.array_equal(swapped.state, p.state.state)
    ev = review_eval.make_evaluator(CLASSIC, "expert")
    a = ev(p.state, p.legal, 24, 5)
    b = ev(swapped, p.legal, 24, 5)
    pd.testing.assert_frame_equal(a, b)
    # threads share the worlds without changing them
    c = review_eval.make_evaluator(CLASSIC, "expert", jobs=2)(p.state, p.legal, 24, 5)
    pd.testing.assert_frame_equal(a, c)


def test_cli_review_table_json_and_page(tmp_path, capsys):
    out = tmp_path / "r.html"
    argv = [
        "review",
        "--seed",
        "7",
        "--hand",
        "1",
        "--seat",
        "3",
        "--rollouts",
        "12",
        "-o",
        str(out),
    ]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "summary per team" in text and "luck" in text
    assert max(len(x) for x in text.splitlines()) <= 100, max(text.splitlines(), key=len)
    # the accounting's row adds up to the hand result printed beside it
    lines = text.splitlines()
    row = lines[lines.index(next(x for x in lines if x.startswith("accounting of"))) + 2].split()
    terms = [float(row[k]) for k in (1, 4, 7, 10)]  # team, then "v ± h" four times, result
    assert abs(sum(terms) - float(row[13])) <= 2, row  # printed rounded to whole points
    page = out.read_text()
    assert 'name="viewport"' in page and "<svg" in page  # the timeline, drawn inline
    assert "<script src" not in page and 'src="http' not in page and "<link" not in page
    assert (
        main(["review", "--seed", "7", "--hand", "1", "--seat", "3", "--rollouts", "12", "--json"])
        == 0
    )
    js = json.loads(capsys.readouterr().out)
    assert js["seats"] == [3] and js["hand"]["key"] == [7, 0, 1]
    assert all(re.fullmatch(r"(\?\?|\?|\?!|)", d["mark"]) for d in js["decisions"])


@pytest.mark.parametrize(
    "argv, msg",
    [
        (["--seat", "9"], "--seat 9"),
        (["--seat", "x"], "--seat 'x'"),
        (["-o", "r.pdf"], "must end in .html"),
        (["--hand", "50"], "does not exist"),
        (["--rollouts", "1"], "--rollouts: 1 is out of range"),
        (["nosuchfile.txt"], "no such file"),
        (["--strategies", "nosuch"], "unknown strategy"),
        (["--uniform", "--infer", "expert"], "contradict"),
    ],
)
def test_cli_bad_input_one_line_exit_2(argv, msg, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["review", *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and msg in err[0], err


def test_write_html_refuses_other_suffixes(rec, tmp_path):
    rv = review(rec, [0], FakeEvaluator(-1, rec), rollouts=10, walk=False, accounting=False)
    with pytest.raises(ValueError, match=".html"):
        write_html(rv, tmp_path / "x.png")


def test_cli_review_all_seats_with_equity_and_inferred_worlds(tmp_path, capsys):
    from reports.equity import _finish, save_equity

    pts = [0, 2500]
    rows = [(-1, a, b, 100, 50.0 + (a - b) / 100) for a in pts for b in pts]
    df = _finish(
        pd.DataFrame(rows, columns=["team", "us", "them", "games", "wins"]),
        {"game_target": 5000, "n_teams": 2},
    )
    path = save_equity(df, tmp_path / "eq.parquet")
    argv = [
        "review",
        "--seed",
        "7",
        "--hand",
        "1",
        "--seat",
        "all",
        "--rollouts",
        "4",
        "--equity",
        str(path),
        "--infer",
        "expert",
        "--json",
    ]
    assert main(argv) == 0
    js = json.loads(capsys.readouterr().out)
    assert js["seats"] == [0, 1, 2, 3] and {d["seat"] for d in js["decisions"]} == {0, 1, 2, 3}
    assert {s["team"] for s in js["summary"]} == {0, 1}
    assert all(
        0 <= d["p_win"] <= 100 and d["p_win_low"] <= d["p_win"] <= d["p_win_high"]
        for d in js["decisions"]
    )
    assert all(d["p_lost_low"] <= d["p_lost"] <= d["p_lost_high"] for d in js["decisions"])
    assert all("p_win_lost" in s and s["p_win_lost_half"] >= 0 for s in js["summary"])
    (tmp_path / "bad.parquet").write_text("x")
    assert main(["review", "--seed", "7", "--equity", str(tmp_path / "bad.parquet")]) == 2


def test_summed_intervals_cover():
    """The per-team sums of independent terms (the losses along the played path, the walk's
    gains) carry intervals from the sum of the terms' variances: with terms of known truth they
    cover about 95% of the time."""
    from reports.review import _summary
    from reports.review_judge import WALK_COLUMNS

    rng = np.random.default_rng(4)
    truth_lost = np.array([300.0, -50.0, 400.0, 0.0, 500.0])
    truth_gain = np.array([-80.0, 40.0, 120.0, 0.0])
    se_lost = np.array([30.0, 20.0, 50.0, 25.0, 40.0])
    se_gain = np.array([60.0, 35.0, 45.0, 80.0])
    hit_path = hit_skill = 0
    trials = 600
    for _ in range(trials):
        lost = truth_lost + rng.normal(0, se_lost)
        dec = pd.DataFrame(
            {
                "team": 0,
                "seat": 0,
                "legal": 5,
                "mark": "",
                "lost": lost,
                "lost_low": lost - Z95 * se_lost,
                "lost_high": lost + Z95 * se_lost,
                "vs_choice": 0.0,
                "vs_choice_low": 0.0,
                "vs_choice_high": 0.0,
            }
        )
        gain = truth_gain + rng.normal(0, se_gain)
        walk = pd.DataFrame(
            {
                "walk_team": 0,
                "gain": gain,
                "gain_low": gain - Z95 * se_gain,
                "gain_high": gain + Z95 * se_gain,
            },
            columns=WALK_COLUMNS,
        )
        s = _summary(dec, walk, None, [0], {0: 0}).iloc[0]
        hit_path += abs(s["path_lost"] - truth_lost.sum()) <= s["path_half"]
        hit_skill += abs(s["skill_lost"] - truth_gain.sum()) <= s["skill_half"]
    assert 0.92 * trials <= hit_path <= 0.975 * trials
    assert 0.92 * trials <= hit_skill <= 0.975 * trials


def test_a_random_player_loses_far_more_per_decision_than_expert():
    """The real evaluator on real hands: seat 0 played by random vs by expert (others expert).
    Six hands each (about 110 decisions); measured with the tuned expert sets: random loses
    about 156 points per decision, expert about 87 (the evaluator's rollouts often find a
    better play than the heuristic's, as the search players do)."""
    ev = review_eval.make_evaluator(CLASSIC, "expert")
    rate = {}
    for strat in ("random", "expert"):
        lost = n = 0
        for seed in (1, 2, 3, 4, 5, 6):
            rec = hand_by_key(CLASSIC, [strat, "expert", "expert", "expert"], seed, 0, 0)
            rv = review(rec, [0], ev, rollouts=100, seed=1, walk=False, accounting=False)
            s = rv.summary.iloc[0]
            lost += s["path_lost"]
            n += s["decisions"]
        rate[strat] = lost / n
    assert rate["random"] > 1.5 * rate["expert"] + 10, rate


@pytest.mark.parametrize(
    "argv, seat, label",
    [
        (["--rules", "samba", "--players", "4", "--seed", "3", "--seat", "0"], 0, "samba-4p"),
        (
            ["--players", "5", "--seed", "3", "--hand", "1", "--seat", "4"],
            4,
            "classic-5p",
        ),  # seat 3 sits out
    ],
)
def test_cli_review_of_a_samba_and_a_five_player_hand(argv, seat, label, capsys):
    assert main(["review", *argv, "--rollouts", "4", "--infer", "expert", "--json"]) == 0
    js = json.loads(capsys.readouterr().out)
    assert js["hand"]["rules"] == label and js["seats"] == [seat]
    dec = js["decisions"]
    assert len(dec) > 5 and {d["seat"] for d in dec} == {seat}
    assert all(d["lost_low"] <= d["lost"] <= d["lost_high"] for d in dec)
    assert any(d["legal"] > 1 for d in dec)
    acct = js["accounting"]["summary"]
    for t in acct:
        total = t["expected"] + t["luck"] + t["own_play"] + t["others_play"]
        assert total == pytest.approx(t["result"], abs=0.01)
    assert {r["event"] for r in js["luck"]} >= {"deal", "draw"}


def test_options_beside_a_hand_file_adjust_its_rules_or_are_refused(tmp_path):
    """review FILE --set ...: the file's rules (german here) with the override added, never the
    classic preset; a contradicting option is refused, and so is one that names a deal."""
    from sim.cli.main import main
    from sim.core.rules import RuleSet

    german = RuleSet.preset("german", 4)
    r = hand_by_key(german, EXPERTS, seed=3, game=0, hand=0)
    (tmp_path / "g.txt").write_text(format_history(r.new_state, r.actions, EXPERTS))
    got = read_hand_file(tmp_path / "g.txt", options={"set": {"go_out_bonus": 150}})
    assert got.rules.name == "german" and got.rules.go_out_bonus == 150
    with pytest.raises(HandFileError, match="--rules classic but"):
        read_hand_file(tmp_path / "g.txt", options={"rules": "classic"})
    assert main(["review", str(tmp_path / "g.txt"), "--seed", "4"]) == 2

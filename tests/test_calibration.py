"""Decision analysis checked against play: review's skill lost against the gain a best-action
player realizes on the same deals, no winner's curse (null tests), the hand accounting that adds up
exactly, true-state values against an enumerated endgame, analyze's fresh gap."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from test_analyze import _endgame, _exact, _with_known_opponent

from reports import review_eval
from reports.accounting import _Valuer, account
from reports.analyze import analyze, decision_from_game, decision_from_position, paired_rollouts
from reports.position import parse_position
from reports.review import hand_by_key, mark_for, review
from reports.review_judge import FRESH, judge
from reports.stats import cluster_mean_ci, mean_ci
from sim.core.rules import RuleSet
from sim.play.worlds.sampler import sample_worlds_nb

CLASSIC = RuleSet.preset("classic")


def test_the_accounting_adds_up_exactly():
    """Per team: expected + luck + own play + others' play = the result, to rounding; a decision
    that is S's own choice is 0 exactly; every action has its decision term and every draw its
    chance term; a chance term's interval is a t interval over the paired rollouts."""
    rec = hand_by_key(CLASSIC, ["expert", "greedy", "expert", "greedy"], 5, 0, 0)
    acct = account(rec, "expert", rollouts=24, seed=3)
    s = acct.summary
    total = s["expected"] + s["luck"] + s["own_play"] + s["others_play"]
    assert np.allclose(total, s["result"], atol=1e-6)
    assert (s["result"] == -s["result"][::-1].to_numpy()).all()  # two teams: zero-sum
    t0 = acct.terms[acct.terms["team"] == 0]
    dec = t0[t0["event"] == "decision"]
    assert len(dec) == len(rec.actions) and list(dec["index"]) == list(range(len(rec.actions)))
    assert (dec.loc[dec["action"] == dec["choice"], "value"] == 0).all()
    greedy = dec[dec["seat"].isin([1, 3]) & (dec["action"] != dec["choice"])]
    assert len(greedy) > 3 and (greedy["value"] != 0).all()
    assert s.loc[0, "others_play"] == pytest.approx(greedy["value"].sum())
    draws = t0[t0["event"] == "draw"]
    assert len(draws) == sum(1 for a in rec.actions if a == 0)
    assert {"deal", "upcard"} <= set(t0["event"])
    assert ((t0["low"] <= t0["value"]) & (t0["value"] <= t0["high"])).all()
    # every equity shown carries its interval; after the last event the equity is the result
    assert (t0["before_half"] >= 0).all() and t0["after_half"].iloc[-1] == 0
    for k in (0, len(acct.events) // 2):
        b = acct.cols[acct.events[k]["before"]][:, 0]
        h = mean_ci(b).half_width
        assert h > 0 and t0["before_half"].iloc[k] == pytest.approx(h)
    e = acct.events[-1]
    x = acct.cols[e["after"]][:, 0] - acct.cols[e["before"]][:, 0]
    if e["after"] != e["before"]:
        ci = mean_ci(x)
        row = t0.iloc[-1]
        assert (row["low"], row["high"]) == pytest.approx((ci.low, ci.high))


def test_true_state_values_match_the_enumerated_endgame():
    """The accounting's equity of a true state (the stock shuffled, every other card known) is
    the exact mean over the stock's orders, within its 95% interval, for every action."""
    text = _endgame(me="5 5 9", opp="3 3 7", pile="4 6 5", stock="3 3 8 10")
    dec = _with_known_opponent(decision_from_position(parse_position(text)), "3 3 7")
    w = np.zeros((1, dec.obs.shape[0]), np.int32)
    args = (dec.obs, dec.know, dec.params, 0, 0, w, -1, np.zeros(24), 0, np.zeros(2, np.int64))
    assert sample_worlds_nb(*args) == 0
    val = _Valuer(RuleSet.preset("classic", 2), dec.params, "expert", 300, 9, 2)
    for a, t in zip(dec.actions, dec.texts, strict=True):
        x = val.cols[val.state(w[0], a)][:, 0]
        ci = mean_ci(x)
        assert ci.low <= _exact(dec, a, "expert") <= ci.high, t


class Clones:
    """The null where every action is the same move: k labels, each the played action rolled out
    on its own worlds (seed, label), so every label has the same true value."""

    def __init__(self, move: int):
        self.move = move

    def __call__(self, gs, labels, rollouts, seed):
        cols = [self._values(gs, rollouts, self._key(seed, lab)) for lab in labels]
        return review_eval.summarize(np.column_stack(cols), list(labels))

    @staticmethod
    def _key(seed: int, label: int) -> int:
        """A seed of its own per (seed, label), the fresh bit included."""
        return ((seed >> 62) * 7919 + (seed % 2**62) * 31 + label) % 2**62

    def _values(self, gs, rollouts, seed):
        dec = decision_from_game(gs)
        us, them, _ = paired_rollouts(dec, "expert", rollouts, seed, actions=[self.move])
        j = dec.actions.index(self.move)
        return (us[:, j] - them[:, j]).astype(float)


def test_no_winners_curse_where_every_action_is_the_same_move():
    """24 labels for one move (the null: all equal).  Picking the best label and measuring its
    gap on the same worlds marks the played label at several times the 5% (the winner's curse);
    measured on fresh worlds, as the review does, marks come at no more than the nominal rate."""
    rec = hand_by_key(CLASSIC, ["expert"] * 4, 7, 0, 1)
    gs = rec.new_state()
    for a in rec.actions[:12]:
        gs.apply(a)
    move = rec.actions[12]
    clones = Clones(move)
    labels = list(range(24))
    fresh_marks = same_marks = 0
    trials = 60
    for seed in range(trials):
        v = judge(clones, gs, labels, 0, 0, 12, 1000 + seed)
        fresh_marks += v.lost[1] > 0 and mark_for(v.lost[0], v.lost[1]) != ""
        sel = clones(gs, labels, 12, 1000 + seed)
        if int(sel.index[0]) != 0:
            r = sel.loc[0]
            same_marks += mark_for(float(r["diff_to_best"]), float(r["diff_ci_low"])) != ""
    assert fresh_marks <= 0.05 * trials + 2  # binomial(60, 0.05): P(> 5) ~ 8%, > 5 rare
    assert same_marks >= 2.5 * 0.05 * trials, same_marks  # measured: 11 of 60


def test_no_marks_where_the_played_action_is_exactly_best():
    """An endgame small enough to enumerate: drawing is the exact best; over many seeds a review
    of "draw" marks it at no more than the nominal 5%."""
    text = _endgame(me="9 9 K", opp="3 3 7", pile="4 6 5", stock="3 3 8 10")
    dec = _with_known_opponent(decision_from_position(parse_position(text)), "3 3 7")
    exact = {a: _exact(dec, a, "expert") for a in dec.actions}
    draw = max(exact, key=exact.get)
    assert dec.texts[dec.actions.index(draw)] == "draw" and len(exact) == 2

    def evaluate(_, actions, rollouts, seed):
        us, them, _ = paired_rollouts(dec, "expert", rollouts, seed, actions=actions)
        cols = [dec.actions.index(a) for a in actions]
        return review_eval.summarize((us - them)[:, cols].astype(float), list(actions))

    trials, marks, picked = 120, 0, 0
    for seed in range(trials):
        v = judge(evaluate, None, dec.actions, draw, draw, 6, 50 + seed)
        picked += v.best != draw
        marks += mark_for(v.lost[0], v.lost[1]) != ""
    assert picked >= 5  # the selection often prefers the worse action at 6 rollouts
    assert marks <= 0.05 * trials


def test_fresh_worlds_are_not_the_selection_worlds():
    rec = hand_by_key(CLASSIC, ["expert"] * 4, 7, 0, 1)
    gs = rec.new_state()
    ev = review_eval.make_evaluator(CLASSIC, "expert")
    legal = gs.legal_actions()
    a = ev(gs, legal, 30, 77)
    b = ev(gs, legal, 30, 77 ^ FRESH)
    assert not np.allclose(a.loc[legal, "mean"], b.loc[legal, "mean"])
    sub = ev(gs, legal[:2], 30, 77)  # a subset of the actions: the same worlds
    pd.testing.assert_series_equal(sub["mean"], a.loc[sub.index, "mean"])


def test_analyze_measures_its_gap_on_fresh_worlds():
    rec = hand_by_key(CLASSIC, ["expert"] * 4, 7, 0, 1)
    gs = rec.new_state()
    for a in rec.actions[:12]:
        gs.apply(a)
    dec = decision_from_game(gs)
    df = analyze(dec, "expert", rollouts=40, seed=3, progress=False)
    at = df.attrs
    top = int(df["action_id"].iloc[0])
    assert at["choice_id"] in dec.actions
    if top == at["choice_id"]:
        assert at["gap"] == 0 and at["gap_rollouts"] == 0
        return
    us, them, _ = paired_rollouts(dec, "expert", 40, 3, start=40)
    v = (us - them).astype(float)
    d = v[:, dec.actions.index(top)] - v[:, dec.actions.index(at["choice_id"])]
    assert at["gap"] == pytest.approx(d.mean()) and at["gap_rollouts"] == 40
    assert at["gap_low"] <= at["gap"] <= at["gap_high"]


def test_review_predicts_what_the_best_action_player_realizes():
    """The calibration in small (benchmarks/bench_calibration.py runs it at scale, where it also
    separates the losses summed along the hand played): on 20 classic 4-player expert deals at 10
    rollouts per action, review's skill lost from the seat's knowledge for seat 0 (the walk's
    summed fresh gains, inferred worlds) against the luck-adjusted gain the best-action player
    realizes on the same deals (its result minus the hand's, less the two hands' chance terms);
    the two agree within the 99% interval of their paired difference, while the gaps measured on
    the worlds that picked the best, summed along the hand played, are far off.  The headline
    skill lost, on the actual cards, is that luck-adjusted gain itself."""
    ev = review_eval.make_evaluator(CLASSIC, "expert")
    pred, curse, real = [], [], []
    for d in range(20):
        rec = hand_by_key(CLASSIC, ["expert"] * 4, 11, d, 0)
        rv = review(rec, [0], ev, "expert", rollouts=10, seed=d, prior_hands=24)
        s = rv.summary.iloc[0]
        walk = account(rec, "expert", 24, d + 11, actions=rv.walk_actions[0]).summary.iloc[0]
        pred.append(s["skill_known"])
        curse.append(rv.decisions["selection_lost"].sum())
        real.append(walk["own_play"])
        assert s["skill_basis"] == "cards" and s["skill_lost"] == pytest.approx(real[-1])
        luck = walk["luck"] - rv.accounting.summary.iloc[0]["luck"]
        gap = rv.walk_result[0] - rv.result[0] - luck
        assert gap == pytest.approx(walk["own_play"], abs=1e-6)  # the identity behind it
    pred, curse, real = map(np.asarray, (pred, curse, real))
    ok = mean_ci(real - pred, 0.99)
    assert ok.low <= 0 <= ok.high, ok
    bad = mean_ci(real - curse, 0.99)
    assert bad.high < 0, bad


@pytest.mark.parametrize("players", [4, 3])
def test_analyze_predicts_the_gap_play_realizes(players):
    """analyze in small (benchmarks/bench_calibration.py runs it at scale): at every third
    decision of seat 0 with more than two legal actions in 16 expert deals, its fresh gap of the
    top action over expert's choice (12 rollouts per action, inferred worlds) against the gap the
    two actions realize from the true position (every card where it is, the stock shuffled, 24
    paired play-outs); they agree within the 99% interval clustered by deal, while the gap read
    on the worlds that ranked the actions (the winner's curse) is far above it."""
    rules = RuleSet.preset("classic", players)
    fresh, sel, real, deal = [], [], [], []
    for d in range(16):
        rec = hand_by_key(rules, ["expert"] * players, 11, d, 0)
        gs = rec.new_state()
        val = _Valuer(rules, gs.params, "expert", 24, d + 5, gs.n_teams)
        for i, a in enumerate(rec.actions):
            if gs.seat_table[gs.seat] == 0 and len(gs.legal_actions()) > 2 and i % 3 == 0:
                dec = decision_from_game(gs)
                df = analyze(dec, "expert", 12, seed=1000 * d + i, infer="expert", progress=False)
                top, choice = int(df["action_id"].iloc[0]), int(df.attrs["choice_id"])
                x = val.cols[val.state(gs.state, top)][:, 0]
                x = x - val.cols[val.state(gs.state, choice)][:, 0]
                fresh.append(df.attrs["gap"])
                real.append(float(x.mean()))
                sel.append(-float(df.loc[df["action_id"] == choice, "diff_to_best"].iloc[0]))
                deal.append(d)
            gs.apply(a)
    fresh, sel, real, deal = map(np.asarray, (fresh, sel, real, deal))
    assert len(fresh) >= 60 and (fresh != 0).sum() >= 20
    ok = cluster_mean_ci(real - fresh, deal, 0.99)
    assert ok.low <= 0 <= ok.high, ok
    bad = cluster_mean_ci(real - sel, deal, 0.99)
    assert bad.high < 0, bad

"""Knob tuning (reports.tune), multi-team duplicate play (reports.duplicate), `canasta tune`."""

import json

import numpy as np
import pytest

from reports.compare import play_duplicate
from reports.duplicate import DuplicateError, play_against, play_pairs, seatings
from reports.tune import (
    KnobRange,
    TuneError,
    knob_activity,
    parse_knob_ranges,
    spec_of,
    start_values,
    tune,
)
from sim.cli.main import main
from sim.core.rules import RuleSet

C4 = RuleSet.preset("classic", 4)
C3 = RuleSet.preset("classic", 3)


def test_seatings_put_each_strategy_on_every_team_once():
    assert seatings(C4, "a", "b") == [("a", "b", "a", "b"), ("b", "a", "b", "a")]
    assert seatings(C3, "a", "b") == [("a", "b", "b"), ("b", "a", "b"), ("b", "b", "a")]
    s6 = seatings(RuleSet.preset("german", 6, "3x2"), "a", "b")
    assert len(s6) == 3 and all(seat.count("a") == 2 for seat in s6)


def test_two_team_duplicate_equals_compare_paired_difference():
    got = play_against(C4, ["expert"], ["greedy"], seed=5, start=3, count=12, jobs=1, chunk=5)
    d1, d2 = play_duplicate(C4, ["expert", "greedy"], 5, 3, 12, jobs=1)[("expert", "greedy")]
    np.testing.assert_allclose(got[("expert", "greedy")], (d1 + d2) / 2)


def test_three_team_duplicate_is_chunk_independent_and_self_pair_is_zero():
    a = play_pairs(C3, [("expert", "greedy"), ("greedy", "greedy")], 9, 0, 8, jobs=1, chunk=3)
    b = play_pairs(C3, [("expert", "greedy")], 9, 0, 8, jobs=1, chunk=8)
    np.testing.assert_array_equal(a[("expert", "greedy")], b[("expert", "greedy")])
    assert not a[("greedy", "greedy")].any()
    assert a[("expert", "greedy")].any()
    with pytest.raises(DuplicateError):
        play_pairs(C3, [("expert", "greedy")], 9, 0, 0)


def test_knob_ranges_parse_and_reject_bad_input():
    ks = parse_knob_ranges(["open_threshold=0:150", "safe_discard=0:12.5"], "expert")
    assert ks == [
        KnobRange("open_threshold", 0, 150, True),
        KnobRange("safe_discard", 0, 12.5, False),
    ]
    assert ks[0].value(0.5) == 75 and ks[1].value(1.2) == 12.5
    for bad in ("nope=0:1", "open_threshold=5:1", "open_threshold=0-150", "open_threshold=a:b"):
        with pytest.raises(TuneError):
            parse_knob_ranges([bad], "expert")
    assert start_values("expert:hold_melds=0", ks[:1] + [KnobRange("hold_melds", 0, 1)]) == {
        "open_threshold": 80.0,
        "hold_melds": 0.0,
    }
    assert (
        spec_of("expert:hold_melds=0", {"safe_discard": 2.5})
        == "expert:hold_melds=0,safe_discard=2.5"
    )


def test_knob_activity_tells_a_live_knob_from_a_dead_one():
    # expert goes out as soon as it may (go_out_min_canastas=1), so the opponent-cards trigger is
    # dead
    space = [KnobRange("open_threshold", 0, 150), KnobRange("go_out_opp_cards_le", 0, 6)]
    strategy = "expert:go_out_min_canastas=1"
    act = knob_activity(
        C4, strategy, start_values(strategy, space), space, "greedy", seed=3, hands=15, jobs=1
    )
    changed = dict(zip(act["knob"], act["hands_changed"], strict=True))
    assert changed["open_threshold"] > 0
    assert changed["go_out_opp_cards_le"] == 0
    assert (act["hands"] == 30).all()


def _small_tune(jobs):
    space = [KnobRange("open_threshold", 0, 150), KnobRange("take_pair_min_pile", 1, 8)]
    return tune(
        "expert",
        C4,
        ["greedy"],
        budget=900,
        space=space,
        seed=4,
        jobs=jobs,
        test_hands=10,
        generations=1,
        popsize=3,
        activity_hands=3,
        progress=False,
    )


def test_tune_same_seed_same_result_whatever_jobs():
    r1, r2 = _small_tune(1), _small_tune(2)
    assert r1.best_spec == r2.best_spec
    assert r1.history.equals(r2.history)
    assert r1.test.equals(r2.test)
    assert r1.test_seed != r1.seed and r1.hands_played <= 900
    row = r1.test.set_index("opponent").loc["mean"]
    assert row["gain_low"] <= row["gain_mean"] <= row["gain_high"]
    assert json.loads(json.dumps(r1.to_dict()))["best_spec"] == r1.best_spec
    assert "re-test on 10 fresh deals" in r1.summary()


def test_tune_rejects_bad_input():
    with pytest.raises(TuneError, match="too small"):
        tune("expert", C4, ["greedy"], budget=100, progress=False)
    with pytest.raises(TuneError, match="opponent"):
        tune("expert", C4, [], budget=10_000, progress=False)
    with pytest.raises(TuneError, match="no knob to tune"):
        tune("greedy", C4, ["random"], budget=10_000, progress=False)


def test_cli_tune_help_and_errors(capsys):
    assert (
        main(["tune", "--help"]) == 0
    )  # main returns argparse's exit status, never raises SystemExit
    assert "example:" in capsys.readouterr().out
    assert main(["tune", "expert", "--budget", "10"]) == 2
    assert "too small" in capsys.readouterr().err
    assert main(["tune", "expert", "--budget", "10000", "--knob", "foo=1:2"]) == 2
    assert main(["tune", "expert", "--budget", "10000", "--players", "9"]) == 2

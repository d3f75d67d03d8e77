"""Tuned knob sets per table (strategies/tuned/expert_v1.json): shipped, complete, and played."""

import numpy as np
import pytest

from sim.core.rules import RuleSet
from sim.play.engine import run_chunk
from strategies import expert_v1
from strategies.registry import knob_values, parse_spec
from strategies.tuned import table_knobs, tuned_tables

TABLES = [
    "classic-2p",
    "classic-3p",
    "classic-4p",
    "classic-5p",
    "classic-6p-2x3",
    "classic-6p-3x2",
    "german-2p",
    "german-3p",
    "german-4p",
    "german-5p",
    "german-6p-2x3",
    "german-6p-3x2",
    "samba-4p",
]


def _spec(values: dict) -> str:
    return "expert-v1:" + ",".join(f"{k}={v:g}" for k, v in values.items())


def test_every_table_has_a_recorded_set():
    tables = tuned_tables("expert-v1")
    assert sorted(tables) == sorted(TABLES)
    for name, rec in tables.items():
        assert set(rec["knobs"]) <= set(expert_v1.KNOBS), name
        assert (
            rec["command"].startswith("canasta tune ") and f"--seed {rec['seed']}" in rec["command"]
        )
        assert rec["budget"] > 0 and rec["date"][:4].isdigit()
        rules = RuleSet.preset(
            *name.split("-", 1)[0:1],
            int(name.split("-")[1][:-1]),
            name.split("-")[2] if name.count("-") == 2 else None,
        )
        assert rules.label == name


def test_expert_v1_plays_the_set_of_its_table_and_a_spec_still_overrides():
    rules = RuleSet.preset("classic", 4)
    tuned = knob_values("expert-v1", rules.label)
    assert tuned == {**expert_v1.KNOBS, **table_knobs("expert-v1", "classic-4p")}
    assert tuned != expert_v1.KNOBS
    assert np.array_equal(parse_spec("expert-v1", rules.label)[1], parse_spec(_spec(tuned))[1])
    plain = run_chunk(rules, ["expert-v1", "greedy"] * 2, 3, 0, 40).hands["score"]
    explicit = run_chunk(rules, [_spec(tuned), "greedy"] * 2, 3, 0, 40).hands["score"]
    untuned = run_chunk(rules, [_spec(expert_v1.KNOBS), "greedy"] * 2, 3, 0, 40).hands["score"]
    np.testing.assert_array_equal(plain, explicit)
    assert not np.array_equal(plain, untuned)
    over = knob_values("expert-v1:open_threshold=123", rules.label)
    assert over == {**tuned, "open_threshold": 123.0}


def test_a_table_without_a_set_uses_the_module_knobs():
    assert (
        table_knobs("expert-v1", "no-such-table") == {}
        and table_knobs("greedy", "classic-4p") == {}
    )
    assert knob_values("expert-v1", "no-such-table") == expert_v1.KNOBS
    assert knob_values("expert-v1") == expert_v1.KNOBS


@pytest.mark.parametrize("table", ["classic-4p", "samba-4p"])
def test_sets_hold_only_numbers_in_range(table):
    for k, v in table_knobs("expert-v1", table).items():
        assert np.isfinite(v) and v >= 0, (k, v)

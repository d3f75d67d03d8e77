"""Every knob of `expert-v1` (the heuristic under `expert`) changes a decision on some fixed deals.

Each knob goes from the low to the high end of its tuning range (reports.tune.HEURISTIC_RANGES)
with the other knobs at the table's tuned set (as shipped), against greedy, and the hands'
whole action sequences are compared (reports.tune.knob_activity).  Some knobs act only under
another knob or at some tables (strategies/heuristic.py says which): go_out_opp_cards_le only
when go_out_min_canastas exceeds the rules' number (classic-4p's set has 2), concealed only when
the opening rules would not open anyway (rare: deal 65 of classic-2p), late_stock only when the
stock runs that low before the hand ends.  If a retuned set moves them, pick new deals with the
same function.
"""

import pytest

from reports.tune import HEURISTIC_RANGES, knob_activity
from sim.core.rules import RuleSet
from strategies import expert_v1
from strategies.registry import knob_values

# knob -> (preset, players, first deal key, deals); the rest: classic-4p, deals 0..11
CASES = {
    "concealed": ("classic", 2, 60, 8),
    "late_stock": ("german", 3, 0, 8),
    "open_with_pile_only": ("classic", 2, 0, 8),
    "black3_stop": ("german", 3, 0, 8),
    "go_out_min_canastas": ("classic", 4, 0, 12),
}


def test_every_knob_of_expert_v1_has_a_tuning_range():
    assert set(expert_v1.KNOBS) <= set(HEURISTIC_RANGES)


@pytest.mark.parametrize("knob", list(expert_v1.KNOBS))
def test_knob_changes_a_decision(knob):
    preset, players, first, deals = CASES.get(knob, ("classic", 4, 0, 12))
    rules = RuleSet.preset(preset, players)
    values = knob_values("expert-v1", rules.label)
    act = knob_activity(
        rules,
        "expert-v1",
        values,
        [HEURISTIC_RANGES[knob]],
        "greedy",
        seed=0,
        hands=deals,
        jobs=1,
        start=first,
    )
    assert int(act["hands_changed"].iloc[0]) > 0, f"{knob} changed no decision at {rules.label}"

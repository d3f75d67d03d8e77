"""`expert-v1`: the heuristic player's knob setting tuned per table in November 2026, frozen.

Plays `strategies.heuristic` with the knob values below and, at each of the 13 tables of the
tuning, the set in strategies/tuned/expert_v1.json (found with `canasta tune`, see
benchmarks/tune_tables.py).  It never changes, so every earlier result that names it (or
names `expert` before the improved player took that name) can be reproduced, and every
stronger player is measured against it.  Its plan is the heuristic's plan that
`strategies.expert` describes.
Every knob can still be overridden: `expert-v1:open_threshold=0,safe_discard=1`.
"""

from __future__ import annotations

from strategies.heuristic import decide_nb, knobs_with

KNOBS: dict[str, float] = knobs_with(
    open_threshold=80,
    freeze_when=2,
    pair_hold=2,
    take_pair_min_pile=3,
    take_min_pile=5,
    meld_all_when_opp_cards_le=2,
    hold_melds=1,
    safe_discard=9,
    black3_stop=0,
    shed_high_when_ending=0,
)

__all__ = ["KNOBS", "decide_nb"]

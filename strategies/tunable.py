"""`tunable`: the heuristic player with every knob exposed at a sensible default.

`strategies.heuristic` documents the knobs and the decision plan.  The defaults reproduce a
sensible player (opens when it can, takes piles of 5+ with a natural + wild, freezes when the
opponents opened first, safe discards, black threes as stops from 5 cards, goes out with one
canasta or when an opponent is down to 5 cards).  Sweep them from the command line:
`tunable:open_threshold=70,freeze_when=2,go_out_min_canastas=2`.
"""

from __future__ import annotations

from strategies.heuristic import DEFAULTS, decide_nb

KNOBS: dict[str, float] = dict(DEFAULTS)

__all__ = ["KNOBS", "decide_nb"]

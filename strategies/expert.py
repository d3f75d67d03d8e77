"""`expert`: the strongest knob setting of `strategies.heuristic` found so far.

(The plan is filled in after tuning; see the module's KNOBS.)
"""

from __future__ import annotations

from strategies.heuristic import decide_nb, knobs_with

KNOBS: dict[str, float] = knobs_with()

__all__ = ["KNOBS", "decide_nb"]

"""`expert`: the heuristic player of `expert-v1` steered by a decision model learned from search.

At every decision the heuristic proposes the move `expert-v1` would play (its knob set tuned for
the table: strategies/tuned/expert_v1.json); a linear model over (position, action) features
then scores every legal action and plays the best one when it beats the heuristic's by more
than `margin` points (strategies/learned.py; the model's weights, fitted to rollout values of
every legal action at decisions of self-play, are package data in strategies/models/expert.json
with their training command, seed and data size).  The model sees only the seat's observation.

`expert:model=-1` plays the heuristic alone, i.e. exactly `expert-v1`; every heuristic knob can
still be overridden (`expert:open_threshold=0`).
"""

from __future__ import annotations

from strategies import expert_v1
from strategies.learned import DEFAULTS, decide_nb

KNOBS: dict[str, float] = {**DEFAULTS, **expert_v1.KNOBS, "model": 0.0, "margin": 0.0}

__all__ = ["KNOBS", "decide_nb"]

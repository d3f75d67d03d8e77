"""`pile-control`: play for the discard pile and deny it to the opponents.

Plan (docs/STRATEGY.md sections 1, 5, 6; one knob setting of `strategies.heuristic`):
- Takes every pile it legally can with a natural pair or onto a meld, and with a natural + wild
  from 3 cards on.
- Freezes the pile with a two (never a joker) when the opponents have opened and its team has
  not, and when the pile (4+ cards) is unfrozen for the next opponent and every non-wild discard
  is dangerous -- unless its side holds fewer cards than theirs (a frozen pile goes to the side
  with more pairs).
- Keeps black threes as stops and plays one when the pile holds 4+ cards.
- Discards by danger first: a rank the next opponent's team has melded is worst while the pile
  is unfrozen for them (take onto the meld; in Classic also ranks of their canastas); against a
  natural-pair take the rule of 8 counts the copies seen (own hand, every meld, the pile's
  counts) and the chance the next opponent holds two of the rest; a rank the next opponent
  discarded last is half as dangerous.  Keeps pairs.
- Otherwise plays like `tunable`'s defaults (opens when it can, goes out with one canasta).
"""

from __future__ import annotations

from strategies.heuristic import decide_nb, knobs_with

KNOBS: dict[str, float] = knobs_with(
    freeze_when=2,
    pair_hold=1,
    take_min_pile=3,
    safe_discard=1.5,
    black3_stop=4,
)

__all__ = ["KNOBS", "decide_nb"]

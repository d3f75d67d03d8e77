"""`patient`: hold cards, open with the pile, meld late, go out concealed when it pays.

Plan (docs/STRATEGY.md sections 2, 3, 7; one knob setting of `strategies.heuristic`):
- Opens from hand only when forced: the opponents have opened and we have not, or the hand may
  end (an opponent who may go out is short of cards, or the stock is low).  Otherwise it opens
  by taking the pile with a natural pair.
- Keeps natural pairs and triples in hand (they take frozen piles); after opening it adds
  naturals to its melds, starts new melds only from five of a rank or when the hand may end, and
  spends wilds only to complete a canasta this turn.
- While its team has not melded, goes out concealed as soon as the whole hand can be melded
  with a canasta (classic: 200 instead of 100; German billing: 1,000).
- Goes out voluntarily only with two canastas (or when an opponent is down to 3 cards or the
  stock is low); otherwise holds two cards back.
- Discards the least useful card (no danger estimate), black threes first; never freezes.
Every knob of `heuristic.KNOB_TABLE` can be changed: `patient:go_out_min_canastas=1`.
"""

from __future__ import annotations

from strategies.heuristic import decide_nb, knobs_with

KNOBS: dict[str, float] = knobs_with(
    open_with_pile_only=1,
    max_wild_commit=1,
    freeze_when=0,
    go_out_min_canastas=2,
    go_out_opp_cards_le=3,
    pair_hold=1,
    take_min_pile=6,
    meld_all_when_opp_cards_le=3,
    hold_melds=1,
    safe_discard=0,
    black3_stop=0,
    concealed=1,
)

__all__ = ["KNOBS", "decide_nb"]

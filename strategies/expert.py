"""`expert`: the heuristic player of `expert-v1` steered by a decision model learned from search.

At every decision the heuristic proposes the move `expert-v1` would play; a linear model over
(position, action) features then scores the candidate actions and plays the best one when it
beats the heuristic's by more than `margin` points (strategies/learned.py; the weights, fitted
to rollout values of every legal action at decisions of self-play, are package data in
strategies/models/expert.json with their training command, seed and data size).  The model
sees only the seat's observation.  Whether the model plays is chosen per table
(strategies/tuned/expert.json, over expert-v1's sets in strategies/tuned/expert_v1.json): it
plays where it was measured to win (every table but german-3p; samba-4p and the 6-player 2x3
tables with models fitted at their own table); german-3p plays a heuristic knob set tuned
against expert-v1 (`model=-1`).

Plan of the heuristic (docs/STRATEGY.md section numbers; each knob value was chosen by
duplicate-deal sweeps against greedy, patient and pile-control, see benchmarks/bench_strength.py):
- Draw (section 1): takes every pile it can take onto a team meld; with a natural pair only from
  3 cards on (a pair is worth keeping for a bigger pile); with a natural + wild from 5 cards
  (joker first: a joker scores 50 melded and costs 50 left in hand).
- Opening (section 2): opens with the pile; from hand only with 80 points more than the minimum
  (`open_threshold`) -- measured: opening early from hand costs more than it gains.
- Melding (sections 3, 4): keeps natural pairs and triples in hand (they take frozen piles),
  adds naturals to team melds, starts new melds only from five of a rank, spends wilds only to
  complete a canasta this turn, unless it goes out (then everything goes down) or an opponent
  whose team may go out is down to 2 cards (then triples and wilds go down, pairs stay).
- Freezing (section 5): with a two, when the opponents have opened and we have not, or when the
  pile (4+ cards) is unfrozen for the next opponent and every other discard is dangerous while
  our side holds at least as many cards as theirs.
- Discarding (section 6): black threes first (free, safe discards; keeping them as stops
  measured worse); then by danger x pile size with a heavy weight (`safe_discard` = 9): ranks the
  next opponent's team has melded while the pile is unfrozen for it, the chance the next
  opponent holds a natural pair of the rank (rule of 8: copies seen in own hand, all melds and
  the pile), halved for the rank it discarded last; then singletons before pairs, low before
  high.
- Going out (section 7): as soon as its team has the canastas the rules ask for.
The knob values below are the fallback for rules without a tuned table.  Every knob can be
overridden on top of the table's set: `expert:model=-1` is the heuristic alone,
`expert:margin=150,open_threshold=0`.
"""

from __future__ import annotations

from strategies import expert_v1
from strategies.learned import DEFAULTS, decide_nb

# the fallback model: fitted at classic 4p against a panel of players, margin chosen there
KNOBS: dict[str, float] = {**DEFAULTS, **expert_v1.KNOBS, "model": 10.0, "margin": 75.0}

__all__ = ["KNOBS", "decide_nb"]

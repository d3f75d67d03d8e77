"""`expert`: the strongest knob setting of `strategies.heuristic` found so far.

Plan (docs/STRATEGY.md section numbers; each knob value was chosen by duplicate-deal sweeps
against greedy, patient and pile-control, see benchmarks/bench_strength.py):
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
The knob values below are the untuned fallback.  At each of the 13 tables (every preset and
player count, six players in both layouts) expert plays the knob set tuned for it
(strategies/tuned/expert_v1.json, found with `canasta tune`; the registry picks it by the table's
`RuleSet.label`), which can differ a lot from this plan: e.g.
classic-6p-2x3 takes with a natural pair from 2 cards, melds freely (hold_melds=0, pair_hold=0)
and keeps black threes as stops.  Every knob can still be overridden:
`expert:open_threshold=0,safe_discard=1` (on top of the table's set).
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

"""An independent pure-Python referee for one hand of Canasta.

It re-reads a finished hand -- the rule parameters, the deck in order, the dealer, the
cumulative scores and the flat action ids (`Act`) -- deals the cards itself, replays every
action, decides on its own whether each one was legal and computes the score.  It is written
from docs/RULES.md and docs/ENGINE.md for readability, not speed, and it deliberately shares no code
with the numba core (only the constants of `sim.core.enums`), so that the two can check each other.

    result = referee_hand(params, deck_kinds, dealer, cum_scores, actions)

raises `IllegalAction` (with the step index, the action id and a one-line reason) at the first
action that is not legal, or when the hand is not over exactly where the action list ends.
`RefereeState` is the readable position; `RefereeState.is_legal(action)` probes one position.

Samba (`Par.SEQUENCES`, `Par.MULTI_MELDS`, docs/ENGINE.md "Samba"): the deck holds card codes
`kind | suit << 4`; hands keep per-suit counts of the natural ranks 4..A, the pile and the stock
keep the codes.  A natural card that leaves the hand by a discard or a group meld takes the suit
docs/ENGINE.md prescribes (`RefereeState.pick_suit`).  Several group melds of one rank: one *open*
meld per rank (`melds`), closed canastas in `closed`; sequences in `seqs` (MAX_SEQS slots).

The opening look-ahead ("can the minimum still be reached this turn?") is an exact search here:
every way to use the hand's naturals in sequences (extensions of the team's sequences and new
runs of 3..CANASTA_SIZE suited cards, within the free slots) combined with a dynamic programme
over group melds (several melds per rank, wild-card limits, closed canastas).  The core uses a
lower bound, so the referee allows a superset of the core's opening melds, never fewer.

One job per module, each class adding one to the one before:
    names      action and card texts, IllegalAction
    params     Rules: the parameter array under readable names
    position   Meld, Seq, Position: the cards and where they lie, the deal
    moves      Moves(Position): the plain effect of an action on the cards
    searches   the opening searches' pure, cached parts
    opening    Opening(Position): the opening look-ahead
    legality   Legality(Opening, Moves): is_legal with a one-line reason
    score      RefereeResult, hand_score
    state      RefereeState(Legality): turns, apply, result; referee_hand
"""

from sim.core.referee.names import IllegalAction, action_name, card_name
from sim.core.referee.params import Rules
from sim.core.referee.position import Meld, Seq
from sim.core.referee.score import RefereeResult
from sim.core.referee.state import RefereeState, referee_hand

__all__ = [
    "IllegalAction",
    "Meld",
    "RefereeResult",
    "RefereeState",
    "Rules",
    "Seq",
    "action_name",
    "card_name",
    "referee_hand",
]

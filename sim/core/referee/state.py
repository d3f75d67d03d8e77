"""The referee proper: a position that deals, checks and plays actions turn by turn, and
`referee_hand`, which replays a whole hand and scores it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sim.core.enums import Act, End, Phase
from sim.core.referee.legality import Legality
from sim.core.referee.names import TAKE_SEQS, TAKES, IllegalAction
from sim.core.referee.score import RefereeResult, hand_score


class RefereeState(Legality):
    """The readable position of one hand, dealt, with the first turn started; `apply` checks and
    plays one action, `is_legal` probes one, `result` scores the finished hand."""

    def __init__(
        self,
        params: Iterable[int],
        deck_kinds: Sequence[int],
        dealer: int,
        cum_scores: Sequence[int],
    ) -> None:
        super().__init__(params, deck_kinds, dealer, cum_scores)
        self._deal()
        self._start_turn((self.dealer + 1) % self.n_seats)

    def _take_actions(self) -> tuple[int, ...]:
        return TAKES + (TAKE_SEQS if self.rules.sequences else ())

    def _start_turn(self, seat: int) -> None:
        r = self.rules
        if r.max_turns > 0 and self.turns >= r.max_turns:
            self.end_reason = End.TURN_LIMIT
            self.phase = Phase.OVER
            return
        self.seat = seat
        self.turns += 1
        self.phase = Phase.DRAW
        self.pending = 0
        self.took_pile = False
        self.aside = []
        self.melded_before = self.seat_melded[seat]
        self.canastas_this_turn = 0
        if not self.stock and all(self.is_legal(a) is not None for a in self._take_actions()):
            self.end_reason = End.EXHAUSTED
            self.phase = Phase.OVER

    def _go_out(self, with_discard: bool) -> None:
        self.end_reason = End.WENT_OUT
        self.went_out_seat = self.seat
        self.went_out_discard = with_discard
        self.concealed = (not self.melded_before) and self.canastas_this_turn >= 1
        self.phase = Phase.OVER

    def apply(self, action: int, step: int | None = None) -> None:
        """Check and play one action, then run the automatic events that follow it."""
        a = int(action)
        reason = self.is_legal(a)
        if reason is not None:
            raise IllegalAction(self.decisions if step is None else step, a, reason)
        self.decisions += 1
        self._move(a)
        if self.over:
            return
        if a == Act.DECLINE:
            self.end_reason = End.EXHAUSTED
            self.phase = Phase.OVER
        elif Act.DISCARD <= a < Act.SEQ_NEW:
            if self.hand_total() == 0:
                self._go_out(with_discard=True)
            else:
                self._start_turn((self.seat + 1) % self.n_seats)
        elif a != Act.DRAW and self.hand_total() == 0:
            self._go_out(with_discard=False)

    def result(self) -> RefereeResult:
        """The score of the (finished) hand, per team (`score.hand_score`)."""
        return hand_score(self)


def referee_hand(
    params: Iterable[int],
    deck_kinds: Sequence[int],
    dealer: int,
    cum_scores: Sequence[int],
    actions: Sequence[int],
) -> RefereeResult:
    """Deal, replay and check one hand; its score.  Raises IllegalAction at the first illegal
    action, at an action after the hand ended, or (step = len(actions), action = -1) when the
    hand is not over after the last action."""
    state = RefereeState(params, deck_kinds, dealer, cum_scores)
    for step, action in enumerate(actions):
        state.apply(int(action), step)
    if not state.over:
        phase = "draw" if state.phase == Phase.DRAW else "meld/discard"
        raise IllegalAction(
            len(actions), -1, f"the hand is not over: seat {state.seat} is to act ({phase} phase)"
        )
    return state.result()

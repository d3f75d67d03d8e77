"""A Python game-state API over the numba core: create a hand from a key or a stacked deck, list
legal actions, apply actions (ids or text), read hands, melds, pile and scores.

It drives exactly the same kernels as the fast loops, one action at a time, for tests, analysis
and users who want to step through a hand.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from sim.core import limits
from sim.core.actions import ActionTextError, action_text_at, parse_action_at, sequences_at
from sim.core.apply import SCORE_ROWS, do_action_nb, init_hand_nb, score_hand_nb
from sim.core.cards import (
    DeckError,
    card_token,
    deck_codes,
    kind_name,
    parse_deck_text,
    read_deck_file,
)
from sim.core.enums import (
    JOKER_ID,
    MAX_TEAMS,
    N_ACTIONS,
    N_KINDS,
    End,
    Off,
    Par,
    Phase,
)
from sim.core.errors import CanastaError, check_int
from sim.core.legal import WHY_TEXT, legal_actions_nb, why_illegal_nb
from sim.core.readers import code_kind
from sim.core.rng import STREAM_DECK, seed_rng_nb, shuffle_nb
from sim.core.rules import RuleSet
from sim.play.selfplay.loop import deck_composition_nb, fill_deck_nb
from sim.play.worlds.sampler import Know, know_after_nb, know_init_nb, know_update_nb, observe_nb

if TYPE_CHECKING:
    from sim.play.positions.text import Position

END_TEXT = {
    End.RUNNING: "running",
    End.WENT_OUT: "went out",
    End.EXHAUSTED: "stock exhausted",
    End.RED3_LAST: "red three was the last stock card",
    End.TURN_LIMIT: "turn limit",
}
SCORE_PARTS = (
    "score",
    "meld_points",
    "canasta_bonus",
    "red3_points",
    "go_out_bonus",
    "hand_penalty",
    "canastas",
    "natural_canastas",
)


class IllegalActionError(CanastaError):
    """An action the rules do not allow here; the message says why."""


@dataclass
class Step:
    seat: int  # active seat
    action: int
    text: str


@dataclass
class GameState:
    rules: RuleSet
    state: np.ndarray
    params: np.ndarray
    deck: np.ndarray  # card codes (kind | suit << 4), top first, as dealt
    seat_table: tuple[int, ...]  # table seat of each active seat
    key: tuple[int, int, int] | None = None
    history: list[Step] = field(default_factory=list)
    # what each seat knows beyond its observation (sim.play.worlds.sampler.Know), one row per seat
    know: np.ndarray | None = None
    pile_hidden: int = 0  # bottom pile cards nobody has seen (positions typed by a person)
    # False: no `know` is kept (position() and knowledge() refuse); `canasta play` then compiles
    # no knowledge kernels (sim.play.worlds.knowledge) unless it writes a position
    tracks_knowledge: bool = True

    def __post_init__(self) -> None:
        if self.know is None and self.tracks_knowledge:
            self.know = np.zeros((self.n_seats, Know.SIZE), np.int32)
            for s in range(self.n_seats):
                know_init_nb(self.know[s], s, self.pile_hidden)

    @property
    def _knows(self) -> np.ndarray:
        """``know``, which __post_init__ fills unless the hand does not track it (int32[n_seats,
        Know.SIZE])."""
        if self.know is None:
            raise CanastaError(
                "this hand keeps no knowledge (GameState.new_hand(track_knowledge=False))"
            )
        return self.know

    # ------------------------------------------------------------------ creation
    @classmethod
    def new_hand(
        cls,
        rules: RuleSet | None = None,
        seed: int = 0,
        game: int = 0,
        hand: int = 0,
        cum_scores: list[int] | None = None,
        dealer: int | None = None,
        deck: str | list[int] | None = None,
        deck_file: str | None = None,
        track_knowledge: bool = True,
    ) -> GameState:
        """A hand dealt from the key (seed, game, hand) or from a stacked deck (text or card ids,
        or a file), with the given cumulative scores (they set each team's minimum).
        ``track_knowledge=False``: keep no record of what each seat knows (``position()`` and
        ``knowledge()`` then refuse), which spares compiling the knowledge kernels.

        Every argument is checked first (ranges: sim.core.limits); bad input raises a one-line
        ``CanastaError``."""
        rules = rules if rules is not None else RuleSet.preset("classic")
        if not isinstance(rules, RuleSet):
            raise CanastaError(f"rules={rules!r}: give a RuleSet, e.g. RuleSet.preset('classic')")
        seed = check_int("seed", seed, *limits.SEED)
        game = check_int("game", game, *limits.GAME)
        hand = check_int("hand", hand, *limits.HAND)
        cum_scores = _check_cum(cum_scores, rules.n_teams)
        if dealer is not None:
            dealer = check_int("dealer", dealer, 0, rules.n_active - 1)
        deck = _check_deck(deck)
        reason = rules.engine_supported()
        if reason:
            raise CanastaError(reason)
        params = rules.to_params(hand).astype(np.int32)
        comp = np.zeros(N_KINDS, np.int64)
        n_cards = deck_composition_nb(params, comp)
        key = None
        if deck_file is not None:
            kinds = deck_codes(read_deck_file(deck_file, rules.decks))
        elif isinstance(deck, str):
            kinds = deck_codes(parse_deck_text(deck, rules.decks))
        elif deck is not None:
            kinds = deck_codes(parse_deck_text(" ".join(card_token(c) for c in deck), rules.decks))
        else:
            kinds = np.zeros(200, np.int32)
            fill_deck_nb(comp, kinds)
            rng = np.zeros(2, np.uint64)
            seed_rng_nb(rng, seed, game, hand, STREAM_DECK)
            shuffle_nb(rng, kinds, n_cards)
            kinds = kinds[:n_cards].copy()
            key = (seed, game, hand)
        n_act = rules.n_active
        if dealer is None:
            dealer = (game + hand) % n_act
        if not 0 <= dealer < n_act:
            raise CanastaError(f"dealer={dealer}: must be an active seat 0..{n_act - 1}")
        cum = np.zeros(MAX_TEAMS, np.int32)
        for t, v in enumerate(cum_scores or []):
            cum[t] = v
        state = np.zeros(Off.STATE_SIZE, np.int32)
        init_hand_nb(state, params, kinds.astype(np.int32), n_cards, dealer, cum)
        return cls(
            rules,
            state,
            params,
            kinds.astype(np.int32),
            tuple(rules.active_seats(hand)),
            key,
            tracks_knowledge=bool(track_knowledge),
        )

    @classmethod
    def from_position(
        cls, position: Position, rules: RuleSet | None = None, seed: int = 0
    ) -> GameState:
        """A hand at the decision of ``position`` (sim.play.positions.text.Position): the cards its
        viewer has not seen are dealt at random (sim.play.worlds.sampler, stream keyed by ``seed``),
        the viewer keeps what it knows.  ``rules``: default the position's own (else classic).
        Raises ValueError (one line) for an impossible position."""
        from sim.core import limits
        from sim.play.positions.text import Position
        from sim.play.rollouts.from_position import position_to_state, prepare, rules_for_position

        if not isinstance(position, Position):
            got = "None" if position is None else type(position).__name__
            raise CanastaError(
                f"from_position needs a Position (parse_position or load_position), got {got}"
            )
        seed = check_int("seed", seed, *limits.SEED)
        rules = rules_for_position(position, rules)
        setup = prepare(position, rules)
        state = position_to_state(position, rules, int(seed))
        know = np.zeros((setup.n_seats, Know.SIZE), np.int32)
        for s in range(setup.n_seats):
            know_init_nb(know[s], s, position.pile_hidden)
        know[position.me] = setup.know
        return cls(
            rules,
            state,
            setup.params,
            np.zeros(0, np.int32),
            tuple(range(setup.n_seats)),
            None,
            know=know,
            pile_hidden=position.pile_hidden,
        )

    def position(self, seat: int | None = None) -> Position:
        """What ``seat`` (default: the seat to act) knows here, as a
        sim.play.positions.text.Position (`format_position` writes it as text)."""
        from sim.play.positions.from_state import position_from_state

        s = self.seat if seat is None else int(seat)
        return position_from_state(self.state, self._knows[s], self.rules, s)

    # ------------------------------------------------------------------ reading
    @property
    def seat(self) -> int:
        return int(self.state[Off.SEAT])

    @property
    def team(self) -> int:
        return int(self.state[Off.TEAM_OF_SEAT + self.seat])

    @property
    def is_over(self) -> bool:
        return int(self.state[Off.PHASE]) == Phase.OVER

    @property
    def phase(self) -> str:
        return ("draw", "meld", "over")[int(self.state[Off.PHASE])]

    @property
    def end_reason(self) -> str:
        return END_TEXT[int(self.state[Off.END_REASON])]

    @property
    def n_seats(self) -> int:
        return int(self.state[Off.N_SEATS])

    @property
    def n_teams(self) -> int:
        return int(self.state[Off.N_TEAMS])

    def _check_seat(self, seat: int | None) -> int:
        return self.seat if seat is None else check_int("seat", seat, 0, self.n_seats - 1)

    def hand_counts(self, seat: int | None = None) -> np.ndarray:
        s = self._check_seat(seat)
        return self.state[Off.HANDS + s * N_KINDS : Off.HANDS + (s + 1) * N_KINDS].copy()

    def hand(self, seat: int | None = None) -> list[str]:
        counts = self.hand_counts(seat)
        return [kind_name(k) for k in _display_order() for _ in range(int(counts[k]))]

    def melds(self, team: int) -> dict[str, tuple[int, int, int]]:
        """{rank: (naturals, twos, jokers)} of the team's melds."""
        team = check_int("team", team, 0, self.n_teams - 1)
        out = {}
        for k in _display_order():
            i = team * N_KINDS + k
            n, t, j = (int(self.state[o + i]) for o in (Off.MELD_NAT, Off.MELD_TWO, Off.MELD_JOKER))
            if n + t + j:
                out[kind_name(k)] = (n, t, j)
        return out

    def pile(self) -> list[str]:
        return [
            kind_name(code_kind(int(k)))
            for k in self.state[Off.PILE : Off.PILE + self.state[Off.PILE_LEN]]
        ]

    @property
    def pile_top(self) -> int:
        return int(self.state[Off.PILE_TOP])

    @property
    def pile_frozen(self) -> bool:
        return int(self.state[Off.PILE_FREEZE]) > 0

    @property
    def stock_size(self) -> int:
        return int(self.state[Off.STOCK_LEN])

    def red_threes(self, team: int) -> int:
        return int(self.state[Off.TEAM_RED3 + team])

    def team_opened(self, team: int) -> bool:
        return bool(self.state[Off.TEAM_OPENED + team])

    def observation(self, seat: int | None = None) -> np.ndarray:
        """What ``seat`` (default: the seat to act) sees: the public part and its own hand,
        without the pile cards nobody has seen (`sim.play.worlds.sampler.observe_nb`), exactly as
        the self-play kernels build it (suits only under Samba rules)."""
        obs = np.zeros(Off.STATE_SIZE, np.int32)
        samba = bool(self.params[Par.SEQUENCES] or self.params[Par.MULTI_MELDS])
        hidden = (
            int(self._knows[0, Know.PILE_HIDDEN]) if self.tracks_knowledge else self.pile_hidden
        )
        observe_nb(self.state, self.seat if seat is None else seat, hidden, obs, samba)
        return obs

    def knowledge(self, seat: int | None = None) -> np.ndarray:
        """A copy of what ``seat`` knows beyond its observation (int32[Know.SIZE])."""
        return self._knows[self.seat if seat is None else seat].copy()

    # ------------------------------------------------------------------ acting
    def legal_actions(self) -> list[int]:
        buf = np.zeros(N_ACTIONS, np.int32)
        n = legal_actions_nb(self.state, Off.HANDS + self.seat * N_KINDS, self.params, buf)
        return [int(a) for a in buf[:n]]

    def legal_texts(self) -> list[str]:
        return [self.text(a) for a in self.legal_actions()]

    def sequences(self, team: int) -> dict[int, tuple[int, int, int]]:
        """{slot: (suit, low kind, length)} of the team's Samba sequences."""
        return sequences_at(self.state, team)

    def text(self, action: int) -> str:
        """The action's text here (sim.core.actions.action_text_at: the one vocabulary)."""
        return action_text_at(self.state, self._action_id(action))

    def why_illegal(self, action: int | str) -> str | None:
        a = self._action_id(action)
        why = int(why_illegal_nb(self.state, Off.HANDS + self.seat * N_KINDS, self.params, a))
        return None if why == 0 else WHY_TEXT[why]

    def apply(self, action: int | str) -> None:
        if self.is_over:
            raise IllegalActionError("the hand is over; no more actions")
        a = self._action_id(action)
        text = self.text(a)
        seat = self.seat
        why = int(why_illegal_nb(self.state, Off.HANDS + seat * N_KINDS, self.params, a))
        if why:
            raise IllegalActionError(
                f"illegal action {text!r} for seat {self.seat_table[seat]}: {WHY_TEXT[why]}"
            )
        for s in range(self.n_seats if self.tracks_knowledge else 0):
            know_update_nb(self._knows[s], self.state, self.params, a)
        # checked just above: the `do` half alone (apply_action_nb would check again, and
        # `canasta play` would compile one more kernel, linking the whole core once more)
        do_action_nb(self.state, self.params, a)
        for s in range(self.n_seats if self.tracks_knowledge else 0):
            know_after_nb(self._knows[s], self.state)
        self.history.append(Step(seat, a, text))

    def _action_id(self, action: int | str) -> int:
        """An action id from text or an id; anything else, or an id outside 0..N_ACTIONS-1, is
        an ActionTextError (the engine's own check says why a valid id is illegal)."""
        if isinstance(action, str):
            return parse_action_at(self.state, action)
        if isinstance(action, bool) or not isinstance(action, numbers.Integral):
            raise ActionTextError(
                f"action {action!r}: give an action id 0..{N_ACTIONS - 1} or text like 'draw'"
            )
        if not 0 <= int(action) < N_ACTIONS:
            raise ActionTextError(
                f"action {int(action)}: no such action id; ids run 0..{N_ACTIONS - 1}"
            )
        return int(action)

    # ------------------------------------------------------------------ scoring
    def score_breakdown(self) -> dict[str, list[int]]:
        """Per team: score, meld points, canasta bonus, red-three points, going-out bonus,
        hand penalty, canastas, natural canastas (meaningful once the hand is over)."""
        out = np.zeros((SCORE_ROWS, MAX_TEAMS), np.int32)
        score_hand_nb(self.state, self.params, out)
        return {
            name: [int(v) for v in out[i, : self.n_teams]] for i, name in enumerate(SCORE_PARTS)
        }

    @property
    def actions(self) -> list[int]:
        return [s.action for s in self.history]


def _check_cum(cum_scores: Any, n_teams: int) -> list[int] | None:
    if cum_scores is None:
        return None
    if isinstance(cum_scores, str | bytes) or not hasattr(cum_scores, "__len__"):
        raise CanastaError(f"cum_scores={cum_scores!r}: give one whole number per team ({n_teams})")
    if len(cum_scores) == 0:  # no scores: every team starts at 0
        return None
    if len(cum_scores) != n_teams:
        raise CanastaError(
            f"cum_scores has {len(cum_scores)} scores; give one per team ({n_teams})"
        )
    return [check_int(f"cum_scores[{t}]", v, *limits.CUM_SCORE) for t, v in enumerate(cum_scores)]


def _check_deck(deck: Any) -> Any:
    """Deck text, or card ids 0..(JOKER_ID) as a sequence of whole numbers."""
    if deck is None or isinstance(deck, str):
        return deck
    if not hasattr(deck, "__iter__"):
        raise DeckError(f"deck={deck!r}: give deck text ('AS 10H ...') or a list of card ids")
    ids = []
    for i, c in enumerate(deck):
        if (
            isinstance(c, bool)
            or not isinstance(c, numbers.Integral)
            or not 0 <= int(c) <= JOKER_ID
        ):
            raise DeckError(
                f"deck[{i}]={c!r}: card ids run 0..{JOKER_ID} (0..51 suited cards, {JOKER_ID} the "
                "joker)"
            )
        ids.append(int(c))
    return ids


def _display_order() -> list[int]:
    # jokers and twos first, then A K Q ... 4, black threes last
    return [13, 0, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]

"""The game model of one table: the engine's GameState of the hand being played drives it.

A table is its settings and its hands; a hand is how it was dealt (a key or a stacked deck, the
dealer, the scores before it) and its actions.  Everything else (the state, what each seat
knows, the cards each draw brought) is rebuilt by replaying the actions through the engine, so
a table restored from the store is exactly the table that was left.

Every change bumps ``version``; a move names the version it was chosen at, and a move chosen
at an older version is refused (409): two tabs of one seat, or a click after a bot moved, never
act on a table they have not seen.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from sim.core.actions import ActionTextError
from sim.core.cards import kind_name, parse_kind
from sim.core.enums import N_KINDS, Act, Kind, Off
from sim.core.errors import CanastaError
from sim.core.rules import RuleSet
from sim.play.game import GameState, IllegalActionError
from sim.table.settings import HUMAN, TableError, TableSettings

__all__ = ["HandLog", "Table", "Move"]

WILD = (Kind.TWO, Kind.JOKER)


@dataclass
class HandLog:
    """One hand: how to deal it again and its actions (engine action ids)."""

    index: int
    cum: list[int]  # cumulative team scores before the hand
    actions: list[int] = field(default_factory=list)
    key: tuple[int, int, int] | None = None  # (seed, game, hand) of the deal
    deck: list[int] | None = None  # card ids, top first, when the deal is a stacked deck
    dealer: int | None = None  # active seat of the dealer (None: the key's rotation)
    result: list[int] | None = None  # hand score per team once the hand is over

    def new_state(self, rules: RuleSet) -> GameState:
        if self.deck is not None:
            return GameState.new_hand(
                rules, 0, 0, 0, self.cum or None, dealer=self.dealer, deck=self.deck
            )
        seed, game, hand = self.key or (0, 0, self.index)
        return GameState.new_hand(rules, seed, game, hand, self.cum or None, dealer=self.dealer)

    def to_json(self) -> dict:
        return {
            "index": self.index,
            "cum": self.cum,
            "actions": self.actions,
            "key": list(self.key) if self.key else None,
            "deck": self.deck,
            "dealer": self.dealer,
            "result": self.result,
        }

    @classmethod
    def from_json(cls, d: dict) -> HandLog:
        return cls(
            int(d["index"]),
            [int(x) for x in d.get("cum") or []],
            [int(a) for a in d.get("actions") or []],
            tuple(int(x) for x in d["key"]) if d.get("key") else None,  # type: ignore[arg-type]
            [int(c) for c in d["deck"]] if d.get("deck") else None,
            None if d.get("dealer") is None else int(d["dealer"]),
            [int(x) for x in d["result"]] if d.get("result") else None,
        )


@dataclass
class Move:
    """What a seat asked for: one action (id or text), or cards to meld (planned into actions)."""

    action: int | str | None = None
    cards: list[str] | None = None


# saver(table, hand) is called with the hand as it will be, before the table changes; if it
# raises, the table does not change (nothing is applied that is not stored)
Saver = Callable[["Table", HandLog], None]


class Table:
    """A running table (see the module docstring).  Thread-safe: every method that reads or
    changes it holds ``lock``; ``changed`` is notified on every change."""

    def __init__(
        self,
        table_id: str,
        settings: TableSettings,
        hands: list[HandLog] | None = None,
        saver: Saver | None = None,
        imported: bool = False,
    ) -> None:
        self.id = table_id
        self.settings = settings
        self.rules = settings.rule_set()
        self.saver = saver
        self.imported = imported
        self.lock = threading.RLock()
        self.changed = threading.Condition(self.lock)
        self.version = 0
        self.closed = False
        self.hands: list[HandLog] = hands or [self._deal(0, [0] * self.rules.n_teams)]
        self.gs = self._replay(self.hands[-1])
        # per hand: action index -> cards the draw brought (private to the drawing seat)
        self.drawn: dict[int, dict[int, list[str]]] = {}
        self._rebuild_drawn()

    # ------------------------------------------------------------------ reading
    @property
    def hand(self) -> HandLog:
        return self.hands[-1]

    @property
    def hand_over(self) -> bool:
        return self.gs.is_over

    @property
    def game_over(self) -> bool:
        """The table is finished: its one hand is over, or a game's target was reached."""
        if not self.gs.is_over:
            return False
        if self.settings.mode == "hand" or self.imported:
            return True
        return max(self.totals()) >= self.rules.game_target or len(self.hands) >= int(
            self.rules.max_hands
        )

    def totals(self) -> list[int]:
        """Cumulative team scores after the hands finished so far."""
        cum = list(self.hand.cum)
        if self.hand.result is not None:
            cum = [c + r for c, r in zip(cum, self.hand.result, strict=True)]
        return cum

    @property
    def to_act(self) -> int | None:
        """Table seat to act, or None when the hand is over."""
        return None if self.gs.is_over else self.gs.seat_table[self.gs.seat]

    def is_human(self, seat: int) -> bool:
        return self.settings.seats[seat] == HUMAN

    @property
    def bot_to_act(self) -> bool:
        s = self.to_act
        return s is not None and not self.is_human(s) and not self.imported

    def active_seat(self, table_seat: int) -> int | None:
        """The engine seat of a table seat in the current hand (None: it sits this hand out)."""
        table = self.gs.seat_table
        return table.index(table_seat) if table_seat in table else None

    # ------------------------------------------------------------------ changing
    def act(self, seat: int, move: Move, version: int | None) -> list[int]:
        """Play ``move`` for table ``seat``; returns the actions applied.  TableError: 409 when
        it is not the seat's turn or the table moved on since ``version``; 400 when the engine
        refuses the move (its reason) or the move does not read."""
        with self.lock:
            self._check_turn(seat, version)
            actions = self.plan(move)
            trial = copy.deepcopy(self.gs)
            drawn = [_apply_checked(trial, a) for a in actions]
            self._commit(trial, actions, drawn)
            return actions

    def plan(self, move: Move) -> list[int]:
        """The engine actions of a move (a meld of selected cards may take several)."""
        gs = self.gs
        if move.cards is not None:
            return plan_cards(gs, move.cards)
        if move.action is None:
            raise TableError("give an action (its id or its text, e.g. 'draw') or cards to meld")
        try:
            a = gs._action_id(move.action)
        except ActionTextError as exc:
            raise TableError(str(exc)) from None
        why = gs.why_illegal(a)
        if why:
            raise TableError(f"{gs.text(a)}: {why}")
        return [a]

    def bot_step(self, decide: Callable[[GameState, int], int]) -> bool:
        """One bot move: ``decide(snapshot, hand index)`` chooses on a copy, outside the lock;
        the move is applied only if the table did not change meanwhile.  Returns True if a bot
        moved."""
        with self.lock:
            if not self.bot_to_act or self.closed:
                return False
            snap, version, hand = copy.deepcopy(self.gs), self.version, self.hand.index
        action = decide(snap, hand)
        with self.lock:
            if self.version != version or self.closed:
                return False
            trial = copy.deepcopy(self.gs)
            drawn = _apply_checked(trial, action)
            self._commit(trial, [action], [drawn])
            return True

    def undo(self, seat: int) -> int:
        """Take back ``seat``'s last decision of this hand (and every move after it); practice
        tables with one human only.  Returns the number of actions taken back."""
        with self.lock:
            if not self.settings.practice:
                raise TableError("a rated game has no undo (start a practice game)", 409)
            if len(self.settings.humans) > 1:
                raise TableError(
                    "undo is for tables with one person (others would lose moves)", 409
                )
            if self.gs.is_over:
                raise TableError("the hand is over: nothing to take back", 409)
            table = self.gs.seat_table
            mine = [i for i, st in enumerate(self.gs.history) if table[st.seat] == seat]
            if not mine:
                raise TableError("you have made no move in this hand yet", 409)
            keep = mine[-1]
            taken = len(self.hand.actions) - keep
            hand = copy.deepcopy(self.hand)
            hand.actions = hand.actions[:keep]
            if self.saver is not None:
                self.saver(self, hand)
            self.hands[-1] = hand
            self.gs = self._replay(hand)
            self._rebuild_drawn()
            self._bump()
            return taken

    def next_hand(self) -> None:
        """Deal the next hand of a game (the current one must be over, the game not)."""
        with self.lock:
            if not self.gs.is_over:
                raise TableError("the hand is still being played", 409)
            if self.game_over:
                raise TableError("the game is over: start a new one", 409)
            hand = self._deal(len(self.hands), self.totals())
            if self.saver is not None:
                self.saver(self, hand)
            self.hands.append(hand)
            self.gs = self._replay(hand)
            self._bump()

    def wait(self, version: int, timeout: float) -> int:
        """Block until the version differs from ``version`` (or ``timeout`` seconds)."""
        with self.changed:
            self.changed.wait_for(lambda: self.version != version or self.closed, timeout)
            return self.version

    def close(self) -> None:
        with self.changed:
            self.closed = True
            self.changed.notify_all()

    # ------------------------------------------------------------------ internals
    def _check_turn(self, seat: int, version: int | None) -> None:
        if version is not None and version != self.version:
            raise TableError(
                f"the table moved on (version {self.version}, your move was chosen at "
                f"{version}): look again and choose",
                409,
            )
        if self.gs.is_over:
            raise TableError("the hand is over: no more moves", 409)
        if self.to_act != seat:
            raise TableError(f"it is seat {self.to_act}'s turn, not yours (seat {seat})", 409)

    def _commit(self, trial: GameState, actions: list[int], drawn: list) -> None:
        hand = copy.deepcopy(self.hand)
        first = len(hand.actions)
        hand.actions = hand.actions + [int(a) for a in actions]
        if trial.is_over:
            hand.result = [int(x) for x in trial.score_breakdown()["score"]]
        if self.saver is not None:
            self.saver(self, hand)  # raises: nothing changes
        self.hands[-1] = hand
        self.gs = trial
        mine = self.drawn.setdefault(hand.index, {})
        for i, cards in enumerate(drawn):
            if cards is not None:
                mine[first + i] = cards
        self._bump()

    def _rebuild_drawn(self) -> None:
        self.drawn = {}
        for h in self.hands:
            gs = h.new_state(self.rules)
            d: dict[int, list[str]] = {}
            for i, a in enumerate(h.actions):
                cards = apply_noting(gs, a)
                if cards is not None:
                    d[i] = cards
            self.drawn[h.index] = d

    def _bump(self) -> None:
        self.version += 1
        self.changed.notify_all()

    def _deal(self, index: int, cum: list[int]) -> HandLog:
        return HandLog(index, list(cum), [], key=(self.settings.seed, 0, index))

    def _replay(self, hand: HandLog) -> GameState:
        gs = hand.new_state(self.rules)
        for i, a in enumerate(hand.actions):
            try:
                gs.apply(a)
            except (IllegalActionError, CanastaError) as exc:
                raise TableError(
                    f"table {self.id}, hand {hand.index}: stored action {i + 1} does not replay "
                    f"({exc}); the stored game is damaged",
                    409,
                ) from None
        return gs


def apply_noting(gs: GameState, action: int) -> list[str] | None:
    """Apply ``action``; for a draw from the stock, return the cards it brought (red threes
    drawn are laid at once and are public: they are not listed)."""
    if action != Act.DRAW:
        gs.apply(action)
        return None
    seat = gs.seat
    was = gs.hand_counts(seat)
    gs.apply(action)
    got = np.maximum(gs.hand_counts(seat) - was, 0)
    return [kind_name(k) for k in range(N_KINDS) for _ in range(int(got[k]))]


def _apply_checked(gs: GameState, action: int) -> list[str] | None:
    try:
        return apply_noting(gs, action)
    except IllegalActionError as exc:
        raise TableError(str(exc)) from None


def plan_cards(gs: GameState, cards: list[str]) -> list[int]:
    """Selected cards -> the engine actions that lay them: a new meld of three (naturals, or two
    naturals and a wild card) and then one add per further card, or adds to the team's meld of
    their rank.  Each step is checked by the engine; the first refusal is a TableError with the
    engine's reason (nothing is applied)."""
    if not isinstance(cards, list) or not cards or not all(isinstance(c, str) for c in cards):
        raise TableError("cards: select the cards to meld (a list like ['K', 'K', '2'])")
    try:
        kinds = [parse_kind(c.strip().upper().rstrip("CDHS") or c) for c in cards]
    except (CanastaError, ValueError) as exc:
        raise TableError(f"cards: {exc}") from None
    naturals = sorted({k for k in kinds if k not in WILD})
    if len(naturals) != 1:
        raise TableError(
            "select the cards of one rank (and wild cards to go with them), e.g. K K 2"
        )
    rank = naturals[0]
    nat = [k for k in kinds if k == rank]
    wild = [k for k in kinds if k in WILD]
    trial = copy.deepcopy(gs)
    team = trial.team
    has_meld = int(trial.state[Off.MELD_NAT + team * N_KINDS + rank]) > 0
    steps: list[str] = []
    name = kind_name(rank)
    if not has_meld:
        if len(nat) >= 3:
            steps.append(f"meld {name} {name} {name}")
            nat = nat[3:]
        elif len(nat) == 2 and wild:
            steps.append(f"meld {name} {name} {kind_name(wild[0])}")
            nat, wild = [], wild[1:]
        else:
            raise TableError(
                f"a new meld of {name}s needs at least two natural {name}s and three cards"
            )
    steps += [f"add {name} to {name}s"] * len(nat)
    steps += [f"add {kind_name(w)} to {name}s" for w in wild]
    out = []
    for text in steps:
        try:
            a = trial._action_id(text)
        except ActionTextError as exc:
            raise TableError(str(exc)) from None
        why = trial.why_illegal(a)
        if why:
            raise TableError(f"{text}: {why}")
        trial.apply(a)
        out.append(a)
    return out

"""An independent pure-Python referee for one hand of Canasta.

It re-reads a finished hand -- the rule parameters, the deck in order, the dealer, the
cumulative scores and the flat action ids (`Act`) -- deals the cards itself, replays every
action, decides on its own whether each one was legal and computes the score.  It is written
from RULES.md and docs/ENGINE.md for readability, not speed, and it deliberately shares no code
with the numba core (only the constants of `sim.core.enums`), so that the two can check each other.

    result = referee_hand(params, deck_kinds, dealer, cum_scores, actions)

raises `IllegalAction` (with the step index, the action id and a one-line reason) at the first
action that is not legal, or when the hand is not over exactly where the action list ends.
`RefereeState` is the readable position; `RefereeState.is_legal(action)` probes one position.

Samba (`Par.SEQUENCES`, `Par.MULTI_MELDS`, docs/ENGINE.md "Samba"): the deck holds card codes
`kind | suit << 4`; hands keep per-suit counts of the natural ranks 4..A, the pile and the stock
keep the codes.  A natural card that leaves the hand by a discard or a group meld takes the suit
ENGINE.md prescribes (`RefereeState.pick_suit`).  Several group melds of one rank: one *open*
meld per rank (`melds`), closed canastas in `closed`; sequences in `seqs` (MAX_SEQS slots).

The opening look-ahead ("can the minimum still be reached this turn?") is an exact search here:
every way to use the hand's naturals in sequences (extensions of the team's sequences and new
runs of 3..CANASTA_SIZE suited cards, within the free slots) combined with a dynamic programme
over group melds (several melds per rank, wild-card limits, closed canastas).  The core uses a
lower bound, so the referee allows a superset of the core's opening melds, never fewer.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache

from sim.core.enums import (
    FIRST_NATURAL,
    KIND_NAMES,
    LAST_NATURAL,
    MAX_SEQS,
    N_ACTIONS,
    N_KINDS,
    Act,
    End,
    Kind,
    Par,
    Phase,
)

NATURALS = tuple(range(FIRST_NATURAL, LAST_NATURAL + 1))  # kinds of the ranks 4..A
WILDS = (Kind.TWO, Kind.JOKER)
TAKES = (Act.TAKE_PAIR, Act.TAKE_NAT_TWO, Act.TAKE_NAT_JOKER, Act.TAKE_ONTO)
TAKE_SEQS = tuple(range(Act.TAKE_SEQ, N_ACTIONS))  # take the pile onto a sequence (Samba)
SUIT_NAMES = "CDHS"

# When a team that has opened takes the pile with hand cards (a pair, or a natural and a wild
# card), the cards that take it come from the hand before the pile is picked up (True: the
# physical order, which the core follows).  False melds the suits picked after the pile joined
# the hand; kind counts are the same either way, only the suits left in the hand differ.
PAIR_BEFORE_PILE = True
END_NAMES = {End.RUNNING: "running", End.WENT_OUT: "went out", End.EXHAUSTED: "exhausted",
             End.RED3_LAST: "red three last", End.TURN_LIMIT: "turn limit"}


# ----------------------------------------------------------------------------- errors, names


def action_name(action: int) -> str:
    """Readable text of an action id, e.g. 'meld 7 7 JK', 'add 2 to Ks', 'discard 9'."""
    a = int(action)
    simple = {Act.DRAW: "draw", Act.TAKE_PAIR: "take pair", Act.TAKE_NAT_TWO: "take nat+2",
              Act.TAKE_NAT_JOKER: "take nat+JK", Act.TAKE_ONTO: "take onto meld",
              Act.DECLINE: "decline"}
    if a in simple:
        return simple[a]
    if Act.MELD <= a < Act.ADD_NAT:
        kind, variant = divmod(a - Act.MELD, 3)
        name = KIND_NAMES[kind]
        return f"meld {name} {name} " + (name, "2", "JK")[variant]
    if Act.ADD_NAT <= a < Act.ADD_TWO:
        return f"add {KIND_NAMES[a - Act.ADD_NAT]} to {KIND_NAMES[a - Act.ADD_NAT]}s"
    if Act.ADD_TWO <= a < Act.ADD_JOKER:
        return f"add 2 to {KIND_NAMES[a - Act.ADD_TWO]}s"
    if Act.ADD_JOKER <= a < Act.DISCARD:
        return f"add JK to {KIND_NAMES[a - Act.ADD_JOKER]}s"
    if Act.DISCARD <= a < Act.SEQ_NEW:
        return f"discard {KIND_NAMES[a - Act.DISCARD]}"
    if Act.SEQ_NEW <= a < Act.SEQ_ADD:
        suit, low = divmod(a - Act.SEQ_NEW, 9)
        low += FIRST_NATURAL
        return "meld " + " ".join(card_name(k, suit) for k in range(low, min(low + 3, N_KINDS)))
    if Act.SEQ_ADD <= a < Act.TAKE_SEQ:
        slot, end = divmod(a - Act.SEQ_ADD, 2)
        return f"add to sequence {slot} {('below', 'above')[end]}"
    if Act.TAKE_SEQ <= a < N_ACTIONS:
        slot, end = divmod(a - Act.TAKE_SEQ, 2)
        return f"take onto sequence {slot} {('below', 'above')[end]}"
    return f"action#{a}"


def card_name(kind: int, suit: int) -> str:
    """'7H' for a natural rank with its suit, else the kind's name."""
    if kind in NATURALS:
        return KIND_NAMES[kind] + SUIT_NAMES[suit]
    return KIND_NAMES[kind]


class IllegalAction(Exception):
    """An action that is not legal in its position (or a hand that ends in the wrong place)."""

    def __init__(self, step: int, action: int, reason: str) -> None:
        self.step = int(step)
        self.action = int(action)
        self.reason = reason
        what = action_name(action) if action >= 0 else "end of the action list"
        super().__init__(f"step {self.step} ({what}): {reason}")


# ----------------------------------------------------------------------------- rule parameters


class Rules:
    """The parameter array as named Python ints (read once, never changed)."""

    def __init__(self, params: Sequence[int]) -> None:
        p = [int(x) for x in params]
        self.n_active = p[Par.N_ACTIVE]
        self.n_teams = p[Par.N_TEAMS]
        self.hand_size = p[Par.HAND_SIZE]
        self.draw_count = p[Par.DRAW_COUNT]
        self.max_wild = p[Par.MAX_WILD]
        self.wild_le_nat = bool(p[Par.WILD_LE_NAT])
        self.min_naturals = p[Par.MIN_NATURALS]
        self.canasta_size = p[Par.CANASTA_SIZE]
        self.wild_onto_canasta = bool(p[Par.WILD_ONTO_CANASTA])
        self.take_nat_wild = bool(p[Par.TAKE_NAT_WILD])
        self.take_onto_meld = bool(p[Par.TAKE_ONTO_MELD])
        self.take_onto_canasta = p[Par.TAKE_ONTO_CANASTA]  # 0 never, 1 yes, 2 natural pair only
        self.canastas_to_go_out = p[Par.CANASTAS_TO_GO_OUT]
        self.go_out_bonus = p[Par.GO_OUT_BONUS]
        self.go_out_no_discard_bonus = p[Par.GO_OUT_NO_DISCARD_BONUS]
        self.concealed_bonus = p[Par.CONCEALED_BONUS]
        self.concealed_needs_min = bool(p[Par.CONCEALED_NEEDS_MIN])
        self.red3_need_canastas = p[Par.RED3_NEED_CANASTAS]
        self.red3_table = p[Par.RED3_TABLE : Par.RED3_TABLE + 7]
        self.black3_min = p[Par.BLACK3_MELD_MIN]
        self.black3_max = p[Par.BLACK3_MELD_MAX]
        self.min_below_zero = p[Par.MIN_BELOW_ZERO]
        self.band_from = p[Par.MIN_BAND_FROM : Par.MIN_BAND_FROM + 4]
        self.band_value = p[Par.MIN_BAND_VALUE : Par.MIN_BAND_VALUE + 4]
        self.natural_canasta = p[Par.NATURAL_CANASTA]
        self.mixed_canasta = p[Par.MIXED_CANASTA]
        self.upcard_freezes = bool(p[Par.UPCARD_FREEZES])
        self.exhausted_forced_take = bool(p[Par.EXHAUSTED_FORCED_TAKE])
        self.red3_last_ends = bool(p[Par.RED3_LAST_ENDS])
        self.value = p[Par.CARD_VALUE : Par.CARD_VALUE + N_KINDS]
        self.team_of_seat = p[Par.TEAM_OF_SEAT : Par.TEAM_OF_SEAT + self.n_active]
        self.max_turns = p[Par.MAX_TURNS]
        self.sequences = bool(p[Par.SEQUENCES])
        self.multi = bool(p[Par.MULTI_MELDS])
        self.samba_bonus = p[Par.SAMBA_BONUS]
        # Samba-style rules take the general (slower) opening search below
        self.general = self.sequences or self.multi
        self.group_key = (self.max_wild, self.wild_le_nat, self.min_naturals, self.canasta_size,
                          self.wild_onto_canasta, self.multi)

    def minimum_for(self, cum: int) -> int:
        """Initial-meld minimum: below zero its own value, else the band with the largest start
        <= cum (the first such band on ties, so unused bands never win)."""
        if cum < 0:
            return self.min_below_zero
        best_from, best = -1, self.band_value[0]
        for start, value in zip(self.band_from, self.band_value, strict=True):
            if start <= cum and start > best_from:
                best_from, best = start, value
        return best

    def wild_fits(self, nat: int, wild: int, size_before: int) -> bool:
        """May one more wild card join a meld that then has `nat` naturals and `wild` wilds
        (`size_before` cards before the wild card is added)?"""
        if wild > self.max_wild:
            return False
        if self.wild_le_nat and wild > nat:
            return False
        return self.wild_onto_canasta or size_before < self.canasta_size

    def extra_wild_capacity(self, nat: int, wild: int, naturals_to_add: int) -> int:
        """Most wild cards that can still join a meld (nat, wild) while `naturals_to_add` more
        naturals join it, one card at a time in the best order (a wild as early as allowed)."""
        added = 0
        while True:
            if self.wild_fits(nat, wild + 1, nat + wild):
                wild += 1
                added += 1
            elif naturals_to_add > 0:
                nat += 1
                naturals_to_add -= 1
            else:
                return added

    def new_meld_wild_range(self, n: int) -> tuple[int, int] | None:
        """(fewest, most) wild cards a new meld of `n` naturals (all of them) can hold, or None
        when `n` naturals cannot make a new meld at all."""
        options = []
        if n >= 3 and n >= self.min_naturals:  # meld x x x, then adds
            options.append((0, self.extra_wild_capacity(3, 0, n - 3)))
        if n >= 2 and self.min_naturals <= 2 and self.wild_fits(2, 1, 2):  # meld x x wild
            options.append((1, 1 + self.extra_wild_capacity(2, 1, n - 2)))
        if not options:
            return None
        return min(o[0] for o in options), max(o[1] for o in options)


# ----------------------------------------------------------------------------- state


@dataclass
class Meld:
    """A team meld: naturals, twos and jokers in it."""

    nat: int = 0
    two: int = 0
    joker: int = 0

    @property
    def wild(self) -> int:
        return self.two + self.joker

    @property
    def size(self) -> int:
        return self.nat + self.two + self.joker


@dataclass
class Seq:
    """A Samba sequence: `length` consecutive naturals of one suit from kind `low` up."""

    suit: int
    low: int
    length: int

    def next_kind(self, end: int) -> int:
        """The kind that extends it below (end 0) or above (end 1)."""
        return self.low - 1 if end == 0 else self.low + self.length

    def text(self) -> str:
        return f"{card_name(self.low, self.suit)}..{card_name(self.low + self.length - 1, self.suit)}"


@dataclass
class RefereeResult:
    """Score of one hand, per team, and how it ended."""

    score: list[int]
    meld_points: list[int]
    canasta_bonus: list[int]
    red3_points: list[int]
    go_out_bonus: list[int]
    hand_penalty: list[int]
    end_reason: int
    went_out_seat: int
    concealed: bool
    turns: int
    canastas: list[int]
    red3: list[int]
    natural_canastas: list[int] = field(default_factory=list)
    opened: list[bool] = field(default_factory=list)
    pile_takes: list[int] = field(default_factory=list)
    decisions: int = 0


class RefereeState:
    """The readable position of one hand.

    hands[seat][kind]        cards of each kind in each active seat's hand
    suits[seat][suit][kind]  of those, the naturals 4..A per suit (Samba sequences need them)
    melds[team][kind]        Meld(nat, two, joker): the team's (open) meld of that kind
    closed[team][kind]       [Meld, ...]: closed canastas of that rank (several melds per rank)
    seqs[team][slot]         Seq(suit, low, length) or None (Samba sequences)
    stock                    card codes (kind | suit << 4), top card first (index 0)
    pile                     card codes, bottom first, top card last
    aside                    pile cards (codes) held aside while the taker's opening is pending
    plus the flags of the turn (phase, seat, pending, took_pile, ...) and of the hand.
    """

    def __init__(
        self,
        params: Sequence[int],
        deck_kinds: Sequence[int],
        dealer: int,
        cum_scores: Sequence[int],
    ) -> None:
        self.rules = r = Rules(params)
        n = r.n_active
        if not 0 <= dealer < n:
            raise ValueError(f"dealer {dealer} is not an active seat 0..{n - 1}")
        if len(cum_scores) < r.n_teams:
            raise ValueError(f"need {r.n_teams} cumulative scores, got {len(cum_scores)}")
        self.n_seats = n
        self.n_teams = r.n_teams
        self.dealer = int(dealer)
        self.cum_scores = [int(c) for c in cum_scores[: r.n_teams]]
        self.team_min = [r.minimum_for(c) for c in self.cum_scores]
        self.hands: list[list[int]] = [[0] * N_KINDS for _ in range(n)]
        self.suits: list[list[list[int]]] = [[[0] * N_KINDS for _ in range(4)] for _ in range(n)]
        self.melds: list[dict[int, Meld]] = [{} for _ in range(r.n_teams)]
        self.closed: list[dict[int, list[Meld]]] = [{} for _ in range(r.n_teams)]
        self.seqs: list[list[Seq | None]] = [[None] * MAX_SEQS for _ in range(r.n_teams)]
        self.red3 = [0] * r.n_teams
        self.opened = [False] * r.n_teams
        self.pile_takes = [0] * r.n_teams
        self.seat_melded = [False] * n
        # card codes: kind in bits 0-3, suit in bits 4-5 (a plain kind list is suit 0)
        self.stock: list[int] = [int(c) for c in deck_kinds]
        self.pile: list[int] = []
        self.pile_freeze = 0
        # the turn
        self.phase = Phase.DRAW
        self.seat = -1
        self.turns = 0
        self.pending = 0
        self.took_pile = False
        self.aside: list[int] = []
        self.melded_before = False
        self.canastas_this_turn = 0
        # the end
        self.end_reason = End.RUNNING
        self.went_out_seat = -1
        self.concealed = False
        self.went_out_discard = False
        self.decisions = 0
        self._deal()
        self._start_turn((self.dealer + 1) % n)

    # ------------------------------------------------------------------ small helpers

    @property
    def over(self) -> bool:
        return self.end_reason != End.RUNNING

    @property
    def team(self) -> int:
        """Team of the seat to act."""
        return self.rules.team_of_seat[self.seat]

    @property
    def hand(self) -> list[int]:
        """Hand of the seat to act."""
        return self.hands[self.seat]

    def hand_total(self) -> int:
        """Cards the player to act holds, counting pile cards held aside."""
        return sum(self.hand) + len(self.aside)

    def canastas(self, team: int) -> int:
        """Open melds of canasta size + closed canastas + sambas."""
        cs = self.rules.canasta_size
        n = sum(1 for k, m in self.melds[team].items() if k in NATURALS and m.size >= cs)
        n += sum(len(c) for c in self.closed[team].values())
        n += sum(1 for q in self.seqs[team] if q is not None and q.length >= cs)
        return n

    def may_go_out(self, team: int) -> bool:
        return self.canastas(team) >= self.rules.canastas_to_go_out

    def _draw_stock(self) -> int:
        if not self.stock:
            raise ValueError("the deck is too short for the deal")
        return self.stock.pop(0)

    def _give(self, seat: int, code: int) -> None:
        """A card (code) joins a seat's hand."""
        kind = code & 15
        self.hands[seat][kind] += 1
        if kind in NATURALS:
            self.suits[seat][code >> 4][kind] += 1

    def pick_suit(self, seat: int, kind: int) -> int:
        """The suit of the copy of natural `kind` that leaves `seat`'s hand by a discard or a
        group meld (ENGINE.md, Samba): with sequences in play the suit with the fewest
        same-suit neighbours in the hand -- the ranks kind-2, kind-1, kind+1, kind+2 of that suit
        held at least once (each rank counts once, however many copies; the card's own rank does
        not count) -- ties to the lowest suit; otherwise the first suit held."""
        mine = self.suits[seat]
        held = [s for s in range(4) if mine[s][kind] > 0]
        if not held:
            return 0  # suits unknown (a hand built by hand in a test): nothing to track
        if not self.rules.sequences:
            return held[0]

        def near(s: int) -> int:
            return sum(1 for j in (kind - 2, kind - 1, kind + 1, kind + 2)
                       if FIRST_NATURAL <= j <= LAST_NATURAL and mine[s][j] > 0)

        return min(held, key=lambda s: (near(s), s))

    def _remove(self, kind: int, n: int = 1) -> list[int]:
        """Take `n` cards of `kind` out of the hand of the player to act (naturals one at a time,
        each with the suit `pick_suit` chooses); their codes."""
        seat = self.seat
        out = []
        for _ in range(n):
            self.hands[seat][kind] -= 1
            if kind in NATURALS:
                suit = self.pick_suit(seat, kind)
                if self.suits[seat][suit][kind] > 0:
                    self.suits[seat][suit][kind] -= 1
                out.append(kind | suit << 4)
            else:
                out.append(kind)
        return out

    def _remove_suited(self, kind: int, suit: int) -> None:
        self.hands[self.seat][kind] -= 1
        self.suits[self.seat][suit][kind] -= 1

    def legal_actions(self) -> list[int]:
        return [a for a in range(N_ACTIONS) if self.is_legal(a) is None]

    def describe(self) -> str:
        """A few lines for error messages and debugging."""
        lines = [f"turn {self.turns} seat {self.seat} phase {self.phase} end {self.end_reason}"]
        for s in range(self.n_seats):
            cards = " ".join(f"{KIND_NAMES[k]}x{c}" for k, c in enumerate(self.hands[s]) if c)
            lines.append(f"  seat {s} (team {self.rules.team_of_seat[s]}): {cards}")
        for t in range(self.n_teams):
            melds = " ".join(f"{KIND_NAMES[k]}:{m.nat}+{m.two}*2+{m.joker}*JK"
                             for k, m in sorted(self.melds[t].items()))
            closed = " ".join(f"{KIND_NAMES[k]}:{m.nat}+{m.two}*2+{m.joker}*JK"
                              for k, ms in sorted(self.closed[t].items()) for m in ms)
            seqs = " ".join(q.text() for q in self.seqs[t] if q is not None)
            lines.append(f"  team {t} opened={self.opened[t]} red3={self.red3[t]} {melds}"
                         + (f" closed {closed}" if closed else "") + (f" seqs {seqs}" if seqs else ""))
        lines.append(f"  pile {[card_name(c & 15, c >> 4) for c in self.pile]} freeze={self.pile_freeze} "
                     f"stock {len(self.stock)} pending {self.pending} aside {len(self.aside)}")
        return "\n".join(lines)

    # ------------------------------------------------------------------ deal and turns

    def _deal(self) -> None:
        r = self.rules
        n = self.n_seats
        for i in range(r.hand_size * n):
            self._give((self.dealer + 1 + i) % n, self._draw_stock())
        # the upcard, and more while it is wild or a red three (these freeze the pile)
        card = self._draw_stock()
        self.pile.append(card)
        while card & 15 in (Kind.TWO, Kind.JOKER, Kind.RED3):
            if r.upcard_freezes:
                self.pile_freeze += 1
            card = self._draw_stock()
            self.pile.append(card)
        # red threes of the deal: laid and replaced, seat by seat from the dealer's left
        for i in range(n):
            seat = (self.dealer + 1 + i) % n
            hand = self.hands[seat]
            while hand[Kind.RED3] > 0:
                hand[Kind.RED3] -= 1
                self.red3[r.team_of_seat[seat]] += 1
                self._give(seat, self._draw_stock())

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

    # ------------------------------------------------------------------ legality

    def is_legal(self, action: int) -> str | None:
        """None when `action` is legal for the player to act, else a one-line reason."""
        a = int(action)
        if self.over:
            return f"the hand is over ({END_NAMES[self.end_reason]})"
        if not 0 <= a < N_ACTIONS:
            return f"unknown action id {a}"
        if self.phase == Phase.DRAW:
            if a == Act.DRAW:
                return None if self.stock else "the stock is empty: take the pile or decline"
            if a == Act.DECLINE:
                if self.stock:
                    return "decline only when the stock is empty"
                if self.rules.exhausted_forced_take and any(
                        self.is_legal(t) is None for t in (Act.TAKE_ONTO,) + TAKE_SEQS):
                    # the core also counts a sequence the top card extends as a meld it fits
                    return "the top card fits a team meld: the take is forced on an empty stock"
                return None
            if a in TAKES:
                return self._take_reason(a) or self._after_move_reason(a)
            if a in TAKE_SEQS:
                return self._take_seq_reason(a) or self._after_move_reason(a)
            return "draw phase: draw from the stock or take the pile first"
        # meld phase
        if a in (Act.DRAW, Act.DECLINE) or a in TAKES or a in TAKE_SEQS:
            return "this player already drew this turn"
        if Act.MELD <= a < Act.ADD_NAT:
            return self._meld_reason(a) or self._after_move_reason(a)
        if Act.ADD_NAT <= a < Act.DISCARD:
            return self._add_reason(a) or self._after_move_reason(a)
        if Act.DISCARD <= a < Act.SEQ_NEW:
            return self._discard_reason(a)
        if Act.SEQ_NEW <= a < Act.TAKE_SEQ:
            return self._seq_reason(a) or self._after_move_reason(a)
        return f"unused action id {a}"

    def _take_reason(self, a: int) -> str | None:
        r = self.rules
        hand = self.hand
        team = self.team
        if not self.pile:
            return "the pile is empty"
        top = self.pile[-1] & 15
        if top not in NATURALS:
            return f"the top card {KIND_NAMES[top]} is not a natural 4..A"
        frozen = self.pile_freeze > 0 or not self.opened[team]
        meld = self.melds[team].get(top)
        if r.multi:  # the top card could only join a (closed) canasta of its rank; a pair
            # starts a new meld of the rank instead (ENGINE.md, Samba)
            canasta = meld is None and bool(self.closed[team].get(top)) and a != Act.TAKE_PAIR
        else:
            canasta = meld is not None and meld.size >= r.canasta_size
        if canasta and r.take_onto_canasta == 0:
            return f"the team's {KIND_NAMES[top]}s are a canasta: that rank cannot be taken"
        if a == Act.TAKE_PAIR:
            if hand[top] < 2:
                return f"no natural pair of {KIND_NAMES[top]} in hand"
            if meld is None and 3 < r.min_naturals:
                return f"a new meld needs {r.min_naturals} naturals"
            return None
        why_frozen = "frozen pile (a wild card in it)" if self.pile_freeze > 0 else \
            "pile frozen until the team's initial meld"
        if canasta and r.take_onto_canasta == 2:
            return f"onto the canasta of {KIND_NAMES[top]}s only with a natural pair"
        if a in (Act.TAKE_NAT_TWO, Act.TAKE_NAT_JOKER):
            if frozen:
                return f"{why_frozen}: only a natural pair takes it"
            if not r.take_nat_wild:
                return "taking with a natural and a wild card is not allowed"
            wild = Kind.TWO if a == Act.TAKE_NAT_TWO else Kind.JOKER
            if hand[top] < 1 or hand[wild] < 1:
                return f"needs a natural {KIND_NAMES[top]} and a {KIND_NAMES[wild]} in hand"
            if meld is None:
                if r.min_naturals > 2:
                    return f"a new meld needs {r.min_naturals} naturals"
                if not r.wild_fits(2, 1, 2):
                    return "wild card limit of the meld"
            elif not r.wild_fits(meld.nat + 2, meld.wild + 1, meld.size + 2):
                return "wild card limit of the meld"
            return None
        # TAKE_ONTO
        if frozen:
            return f"{why_frozen}: only a natural pair takes it"
        if not r.take_onto_meld:
            return "taking the top card onto a meld is not allowed"
        if meld is None:
            return f"the team has no {'open ' if r.multi else ''}meld of {KIND_NAMES[top]}s"
        return None

    def _take_seq_reason(self, a: int) -> str | None:
        """TAKE_SEQ: the top card, of the right kind and suit, extends a team sequence; only on
        a pile that is not frozen for the team."""
        if not self.rules.sequences:
            return "sequences are not part of these rules"
        team = self.team
        if not self.pile:
            return "the pile is empty"
        kind, suit = self.pile[-1] & 15, self.pile[-1] >> 4
        if kind not in NATURALS:
            return f"the top card {KIND_NAMES[kind]} is not a natural 4..A"
        if self.pile_freeze > 0:
            return "frozen pile (a wild card in it): only a natural pair takes it"
        if not self.opened[team]:
            return "pile frozen until the team's initial meld: only a natural pair takes it"
        slot, end = divmod(a - Act.TAKE_SEQ, 2)
        seq = self.seqs[team][slot]
        reason = self._extend_reason(seq, end)
        if reason:
            return reason
        if kind != seq.next_kind(end) or suit != seq.suit:
            return f"the top card {card_name(kind, suit)} does not extend {seq.text()}"
        return None

    def _extend_reason(self, seq: Seq | None, end: int) -> str | None:
        if seq is None:
            return "the team has no sequence in that slot"
        if seq.length >= self.rules.canasta_size:
            return f"{seq.text()} is a samba: it grows no further"
        if not FIRST_NATURAL <= seq.next_kind(end) <= LAST_NATURAL:
            return "a sequence runs from 4 to A"
        return None

    def _seq_reason(self, a: int) -> str | None:
        """SEQ_NEW (three suited cards low..low+2 into the first free slot) and SEQ_ADD (the
        next card below or above a team sequence)."""
        if not self.rules.sequences:
            return "sequences are not part of these rules"
        team = self.team
        if Kind.BLACK3 in self.melds[team]:
            return "black threes were melded: only going out remains"
        mine = self.suits[self.seat]
        if a < Act.SEQ_ADD:
            suit, low = divmod(a - Act.SEQ_NEW, 9)
            low += FIRST_NATURAL
            if low + 2 > LAST_NATURAL:
                return "a sequence runs from 4 to A"
            missing = [card_name(k, suit) for k in range(low, low + 3) if mine[suit][k] < 1]
            if missing:
                return f"no {' '.join(missing)} in hand"
            if None not in self.seqs[team]:
                return f"the team already has {MAX_SEQS} sequences"
            return None
        slot, end = divmod(a - Act.SEQ_ADD, 2)
        seq = self.seqs[team][slot]
        reason = self._extend_reason(seq, end)
        if reason:
            return reason
        kind = seq.next_kind(end)
        if mine[seq.suit][kind] < 1:
            return f"no {card_name(kind, seq.suit)} in hand"
        return None

    def _meld_reason(self, a: int) -> str | None:
        r = self.rules
        kind, variant = divmod(a - Act.MELD, 3)
        hand = self.hand
        team = self.team
        if kind != Kind.BLACK3 and kind not in NATURALS:
            return f"{KIND_NAMES[kind]} cannot be melded"
        if kind in self.melds[team]:  # several melds per rank: only one open at a time
            return f"the team already has {'an open' if r.multi else 'a'} meld of {KIND_NAMES[kind]}s"
        if kind != Kind.BLACK3 and Kind.BLACK3 in self.melds[team]:
            return "black threes were melded: only going out remains"
        naturals = 3 if variant == 0 else 2
        if hand[kind] < naturals:
            return f"not {naturals} {KIND_NAMES[kind]} in hand"
        if naturals < r.min_naturals:
            return f"a new meld needs {r.min_naturals} naturals"
        if variant:
            if kind == Kind.BLACK3:
                return "black threes are melded without wild cards"
            wild = Kind.TWO if variant == 1 else Kind.JOKER
            if hand[wild] < 1:
                return f"no {KIND_NAMES[wild]} in hand"
            if not r.wild_fits(2, 1, 2):
                return "wild card limit of the meld"
        if kind == Kind.BLACK3:
            return self._black3_reason(meld_size_after=3, cards_used=3)
        return None

    def _add_reason(self, a: int) -> str | None:
        r = self.rules
        base = Act.ADD_NAT if a < Act.ADD_TWO else Act.ADD_TWO if a < Act.ADD_JOKER else Act.ADD_JOKER
        kind = a - base
        card = kind if base == Act.ADD_NAT else Kind.TWO if base == Act.ADD_TWO else Kind.JOKER
        team = self.team
        if kind != Kind.BLACK3 and kind not in NATURALS:
            return f"there are no melds of {KIND_NAMES[kind]}"
        meld = self.melds[team].get(kind)
        closed = r.multi and bool(self.closed[team].get(kind))
        if meld is None and not closed:
            return f"the team has no meld of {KIND_NAMES[kind]}s"
        if self.hand[card] < 1:
            return f"no {KIND_NAMES[card]} in hand"
        if kind == Kind.BLACK3:
            if base != Act.ADD_NAT:
                return "black threes are melded without wild cards"
            return self._black3_reason(meld_size_after=meld.size + 1, cards_used=1)
        if Kind.BLACK3 in self.melds[team]:
            return "black threes were melded: only going out remains"
        if base != Act.ADD_NAT:
            if meld is None:  # only closed canastas of the rank
                return "no wild card joins a closed canasta"
            if meld.wild + 1 > r.max_wild:
                return f"a meld holds at most {r.max_wild} wild cards"
            if r.wild_le_nat and meld.wild + 1 > meld.nat:
                return "wild cards may not outnumber the naturals"
            if not r.wild_onto_canasta and meld.size >= r.canasta_size:
                return "no wild card onto a completed canasta"
        return None

    def _black3_reason(self, meld_size_after: int, cards_used: int) -> str | None:
        r = self.rules
        others = self.hand_total() - self.hand[Kind.BLACK3]  # cards that are not black threes
        b3_left = self.hand[Kind.BLACK3] - cards_used
        if others > 1:
            return "black threes only as the last meld when going out (at most one other card may be left, to discard)"
        if not self.may_go_out(self.team):
            return "black threes only when going out, and the team may not go out"
        if meld_size_after > r.black3_max:
            return f"a black-three meld has at most {r.black3_max} cards"
        # the black threes still in hand are added, except one that may be the final discard
        finals = [meld_size_after + b3_left]
        if others == 0 and b3_left > 0:
            finals.append(meld_size_after + b3_left - 1)
        if not any(r.black3_min <= f <= r.black3_max for f in finals):
            return f"a black-three meld must end with {r.black3_min} to {r.black3_max} cards"
        return None

    def _discard_reason(self, a: int) -> str | None:
        kind = a - Act.DISCARD
        if self.hand[kind] < 1:
            return f"no {KIND_NAMES[kind]} in hand"
        if self.hand_total() == 1:
            return self._going_out_reason()
        team = self.team
        if Kind.BLACK3 in self.melds[team]:
            return "black threes were melded: this turn must end by going out"
        if not self.opened[team] and self.pending > 0:
            return (f"initial meld pending ({self.pending} < {self.team_min[team]}): "
                    "no discard unless going out concealed")
        return None

    def _going_out_reason(self) -> str | None:
        """Why the player to act may not go out now (None: may), from the current position."""
        r = self.rules
        team = self.team
        if not self.may_go_out(team):
            return (f"going out needs {r.canastas_to_go_out} canasta(s), the team has "
                    f"{self.canastas(team)}")
        if not self.opened[team]:
            if self.melded_before or self.canastas_this_turn < 1:
                return (f"initial meld not made ({self.pending} < {self.team_min[team]}) and "
                        "not a concealed going out")
            if r.concealed_needs_min or self.took_pile:
                return (f"initial meld not made ({self.pending} < {self.team_min[team]}): "
                        "this concealed going out still needs the minimum")
        return None

    def _after_move_reason(self, a: int) -> str | None:
        """Checks on the position after a meld/add/take: hand size and the opening."""
        sim = copy.deepcopy(self)
        sim._move(a)
        team = sim.team
        total = sim.hand_total()
        if total == 0:
            return sim._going_out_reason()
        if total < 2 and not sim.may_go_out(team) and not sim._last_card_goes_out():
            return (f"must keep at least two cards: the team has {sim.canastas(team)} "
                    f"canasta(s), needs {self.rules.canastas_to_go_out} to go out")
        if not sim.opened[team]:
            need = sim.team_min[team] - sim.pending
            if self.rules.general:
                if sim._general_max_points(stop_at=need) >= need:
                    return None
                if sim.concealed_out_possible():
                    return None
                return (f"initial meld: {sim.pending} laid and the hand cannot add {need} more "
                        f"(minimum {sim.team_min[team]}), and no concealed going out is possible")
            more = sim.max_more_points()
            if sim.pending + more >= sim.team_min[team]:
                return None
            if sim.concealed_out_possible():
                return None
            return (f"initial meld: {sim.pending} laid + at most {more} more from the hand "
                    f"< {sim.team_min[team]}, and no concealed going out is possible")
        return None

    def _last_card_goes_out(self) -> bool:
        """With one card left in hand (nothing aside): can adding it to a team meld or sequence
        complete what the team needs and go out?  (Laying the last two cards of a canasta at
        once is one move at the table; the engine lays them one by one.)"""
        if self.aside or sum(self.hand) != 1:
            return False
        candidates = list(range(Act.ADD_NAT, Act.DISCARD))
        if self.rules.sequences:
            candidates += list(range(Act.SEQ_ADD, Act.TAKE_SEQ))
        for a in candidates:
            reason = self._add_reason(a) if a < Act.DISCARD else self._seq_reason(a)
            if reason is not None:
                continue
            after = copy.deepcopy(self)
            after._move(a)
            if after.hand_total() == 0 and after._going_out_reason() is None:
                return True
        return False

    # ------------------------------------------------------------------ opening searches

    def max_more_points(self) -> int:
        """The most card points the player to act could still meld from the hand this turn
        (not the cards held aside; black threes not counted).

        The hand-size rule is respected: unless the team may already go out, the player keeps
        two cards (cards held aside join the hand once the minimum is reached, so they count
        as kept cards).  Exhaustive: for every rank every usable number of naturals (with the
        wild cards that meld could then hold) is tried, a dynamic programme over
        (naturals used, fewest wilds needed, most wilds placeable) -> best natural points.
        Samba-style rules (sequences, several melds per rank): `_general_max_points`."""
        if self.rules.general:
            return self._general_max_points()
        r = self.rules
        hand = self.hand
        melds = self.melds[self.team]
        keep = 0 if self.may_go_out(self.team) else max(0, 2 - len(self.aside))
        budget = sum(hand) - keep  # cards that may still leave the hand by melding
        if budget <= 0:
            return 0
        states: dict[tuple[int, int, int], int] = {(0, 0, 0): 0}
        for k in NATURALS:
            n = hand[k]
            options: list[tuple[int, int, int]] = []  # (naturals used, fewest, most wilds)
            if k in melds:
                m = melds[k]
                options = [(u, 0, r.extra_wild_capacity(m.nat, m.wild, u)) for u in range(n + 1)]
            else:
                options = [(0, 0, 0)]
                for u in range(2, n + 1):
                    rng = r.new_meld_wild_range(u)
                    if rng is not None:
                        options.append((u, rng[0], rng[1]))
            if len(options) == 1 and options[0][2] == 0:
                continue
            nxt: dict[tuple[int, int, int], int] = {}
            for (used, lo, hi), pts in states.items():
                for u, olo, ohi in options:
                    if used + u > budget:
                        continue
                    key = (used + u, lo + olo, hi + ohi)
                    value = pts + u * r.value[k]
                    if nxt.get(key, -1) < value:
                        nxt[key] = value
            states = nxt
        wild_values = sorted([r.value[Kind.JOKER]] * hand[Kind.JOKER]
                             + [r.value[Kind.TWO]] * hand[Kind.TWO], reverse=True)
        best = 0
        for (used, lo, hi), pts in states.items():
            w = min(hi, len(wild_values), budget - used)
            if w < lo:
                continue
            best = max(best, pts + sum(wild_values[:w]))
        return best

    def _group_states(self, team: int) -> tuple[tuple[int, int, bool, bool], ...]:
        """Per natural rank: (naturals, wilds, has an open meld, has a closed canasta)."""
        out = []
        for k in NATURALS:
            m = self.melds[team].get(k)
            closed = bool(self.closed[team].get(k))
            out.append((m.nat, m.wild, True, closed) if m is not None else (0, 0, False, closed))
        return tuple(out)

    def sequence_usages(self, team: int, suits: list[list[int]]) -> dict[tuple[int, ...], int]:
        """Every way to lay naturals of the hand (per-suit counts `suits`) in sequences this
        turn: extensions of the team's sequences and new runs of 3..CANASTA_SIZE cards in the
        free slots.  {cards used per natural rank: most sambas completed}.  Without sequences
        only the empty usage."""
        r = self.rules
        zero = (0,) * len(NATURALS)
        if not r.sequences:
            return {zero: 0}
        free = sum(1 for q in self.seqs[team] if q is None)
        combined: dict[tuple[tuple[int, ...], int], int] = {(zero, 0): 0}  # (usage, new runs)
        for s in range(4):
            counts = tuple(suits[s][k] for k in NATURALS)
            existing = tuple(sorted((q.low - FIRST_NATURAL, q.length) for q in self.seqs[team]
                                    if q is not None and q.suit == s))
            if not any(counts):
                continue
            options = _suit_runs(counts, existing, r.canasta_size, free)
            nxt: dict[tuple[tuple[int, ...], int], int] = {}
            for (usage, runs), sambas in combined.items():
                for u2, runs2, sambas2 in options:
                    if runs + runs2 > free:
                        continue
                    key = (tuple(x + y for x, y in zip(usage, u2, strict=True)), runs + runs2)
                    if nxt.get(key, -1) < sambas + sambas2:
                        nxt[key] = sambas + sambas2
            combined = nxt
        out: dict[tuple[int, ...], int] = {}
        for (usage, _runs), sambas in combined.items():
            out[usage] = max(out.get(usage, -1), sambas)
        return out

    def _general_max_points(self, stop_at: int | None = None) -> int:
        """max_more_points for Samba-style rules, exact: every way to use naturals in sequences
        (`sequence_usages`) combined with the best group melds of the rest (`_group_best`).
        With `stop_at`, returns as soon as that many points are found."""
        r = self.rules
        hand = self.hand
        team = self.team
        keep = 0 if self.may_go_out(team) else max(0, 2 - len(self.aside))
        budget = sum(hand) - keep
        if budget <= 0:
            return 0
        target = stop_at if stop_at is not None else 1 << 30
        # an upper bound first: the `budget` most valuable meldable cards
        values = sorted((r.value[k] for k in NATURALS + WILDS for _ in range(hand[k])), reverse=True)
        if sum(values[:budget]) < target:
            target = 1 << 30  # cannot stop early; compute the exact maximum
        wild_values = tuple(sorted([r.value[Kind.JOKER]] * hand[Kind.JOKER]
                                   + [r.value[Kind.TWO]] * hand[Kind.TWO], reverse=True))
        nats = tuple(hand[k] for k in NATURALS)
        nat_values = tuple(r.value[k] for k in NATURALS)
        states = self._group_states(team)
        usages = self.sequence_usages(team, self.suits[self.seat])
        best = 0
        for usage in sorted(usages, key=sum):  # group melds alone first
            used = sum(usage)
            if used > budget:
                continue
            pts = sum(u * v for u, v in zip(usage, nat_values, strict=True))
            rest = tuple(n - u for n, u in zip(nats, usage, strict=True))
            pts += _group_best(r.group_key, rest, budget - used, wild_values, states, nat_values)
            best = max(best, pts)
            if best >= target:
                return best
        return best

    def concealed_out_possible(self) -> bool:
        """Can the player to act still go out concealed this turn: every card in hand (and
        aside) melded except at most one discard, the team then with enough canastas and at
        least one of them completed this turn (and the minimum, where it is needed)?"""
        r = self.rules
        team = self.team
        if self.melded_before:
            return False
        if self.aside:  # the pile was taken and the minimum is not made: no going out yet
            return False
        need_min = not self.opened[team] and (r.concealed_needs_min or self.took_pile)
        cards = list(self.hand)
        for c in self.aside:
            cards[c & 15] += 1
        melds = self.melds[team]
        have = self.canastas(team)
        if r.general:
            usages = self.sequence_usages(team, self.suits[self.seat])
            states = self._group_states(team)
        for discard in [None] + [k for k in range(N_KINDS) if cards[k] > 0]:
            rest = list(cards)
            if discard is not None:
                rest[discard] -= 1
            if rest[Kind.RED3]:
                continue
            b3 = melds.get(Kind.BLACK3)
            if rest[Kind.BLACK3] or b3 is not None:
                total = rest[Kind.BLACK3] + (b3.size if b3 else 0)
                if b3 is None and rest[Kind.BLACK3] < 3:
                    continue
                if not r.black3_min <= total <= r.black3_max:
                    continue
            if need_min:  # only hand cards count toward the minimum, never pile cards
                points = sum(min(rest[k], self.hand[k]) * r.value[k] for k in range(N_KINDS))
                if self.pending + points < self.team_min[team]:
                    continue
            wilds = rest[Kind.TWO] + rest[Kind.JOKER]
            if r.general:
                nats = [rest[k] for k in NATURALS]
                for usage, sambas in usages.items():
                    left = tuple(n - u for n, u in zip(nats, usage, strict=True))
                    if min(left) < 0:
                        continue
                    new = _groups_use_all(r.group_key, left, wilds, states)
                    if new < 0:
                        continue
                    new += sambas
                    if have + new >= r.canastas_to_go_out and self.canastas_this_turn + new >= 1:
                        return True
                continue
            ranges: list[tuple[int, int, int]] = []  # (fewest, most wilds, cards without wilds)
            ok = True
            for k in NATURALS:
                n = rest[k]
                m = melds.get(k)
                if m is not None:
                    if m.size >= r.canasta_size:
                        ranges.append((0, r.extra_wild_capacity(m.nat, m.wild, n), -1))
                    else:
                        ranges.append((0, r.extra_wild_capacity(m.nat, m.wild, n), m.size + n))
                elif n:
                    rng = r.new_meld_wild_range(n)
                    if rng is None:
                        ok = False
                        break
                    ranges.append((rng[0], rng[1], n))
            if not ok:
                continue
            new = _most_new_canastas(tuple(ranges), wilds, r.canasta_size)
            if new < 0:
                continue
            if have + new >= r.canastas_to_go_out and self.canastas_this_turn + new >= 1:
                return True
        return False

    # ------------------------------------------------------------------ applying actions

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

    def _lay(self, points: int) -> None:
        """Bookkeeping after cards worth `points` were melded by the player to act."""
        team = self.team
        self.seat_melded[self.seat] = True
        if not self.opened[team]:
            self.pending += points
            if self.pending >= self.team_min[team]:
                self.opened[team] = True
        if self.opened[team] and self.aside:
            for c in self.aside:
                self._give(self.seat, c)
            self.aside = []

    def _add_cards(self, kind: int, nat: int = 0, two: int = 0, joker: int = 0) -> int:
        """Put cards on the team's (open) meld of `kind` (creating it); returns their points.
        With several melds per rank a meld that reaches CANASTA_SIZE is closed at once."""
        r = self.rules
        melds = self.melds[self.team]
        m = melds.setdefault(kind, Meld())
        before = m.size
        m.nat += nat
        m.two += two
        m.joker += joker
        if kind in NATURALS and before < r.canasta_size <= m.size:
            self.canastas_this_turn += 1
            if r.multi:
                del melds[kind]
                self.closed[self.team].setdefault(kind, []).append(m)
        return nat * r.value[kind] + two * r.value[Kind.TWO] + joker * r.value[Kind.JOKER]

    def _extend_seq(self, slot: int, end: int) -> int:
        """The next card (already out of the hand) joins the team's sequence; its points."""
        r = self.rules
        seq = self.seqs[self.team][slot]
        kind = seq.next_kind(end)
        if end == 0:
            seq.low -= 1
        seq.length += 1
        if seq.length == r.canasta_size:
            self.canastas_this_turn += 1
        return r.value[kind]

    def _move(self, a: int) -> None:
        """The plain effect of a legal action on the cards (no turn change)."""
        r = self.rules
        hand = self.hand
        team = self.team
        if a == Act.DRAW:
            self.phase = Phase.MELD
            for _ in range(r.draw_count):
                if not self.stock:
                    break
                card = self.stock.pop(0)
                while card & 15 == Kind.RED3:
                    self.red3[team] += 1
                    if not self.stock:
                        if r.red3_last_ends:
                            self.end_reason = End.RED3_LAST
                            self.phase = Phase.OVER
                        card = -1
                        break
                    card = self.stock.pop(0)
                if card >= 0:
                    self._give(self.seat, card)
                if self.over:
                    break
            return
        if a == Act.DECLINE:
            return
        if a in TAKES or a in TAKE_SEQS:
            top = self.pile.pop()
            rest = self.pile
            self.pile = []
            self.pile_freeze = 0
            self.phase = Phase.MELD
            self.took_pile = True
            self.pile_takes[team] += 1
            for c in rest:
                if c & 15 == Kind.RED3:
                    self.red3[team] += 1
                elif self.opened[team] and not PAIR_BEFORE_PILE:
                    self._give(self.seat, c)  # see PAIR_BEFORE_PILE
                else:
                    self.aside.append(c)
            top &= 15
            if a == Act.TAKE_PAIR:
                self._remove(top, 2)
                points = self._add_cards(top, nat=3)
            elif a == Act.TAKE_NAT_TWO:
                self._remove(top)
                self._remove(Kind.TWO)
                points = self._add_cards(top, nat=2, two=1)
            elif a == Act.TAKE_NAT_JOKER:
                self._remove(top)
                self._remove(Kind.JOKER)
                points = self._add_cards(top, nat=2, joker=1)
            elif a == Act.TAKE_ONTO:
                points = self._add_cards(top, nat=1)
            else:
                points = self._extend_seq(*divmod(a - Act.TAKE_SEQ, 2))
            self._lay(points)
            return
        if Act.MELD <= a < Act.ADD_NAT:
            kind, variant = divmod(a - Act.MELD, 3)
            if variant == 0:
                self._remove(kind, 3)
                points = self._add_cards(kind, nat=3)
            elif variant == 1:
                self._remove(kind, 2)
                self._remove(Kind.TWO)
                points = self._add_cards(kind, nat=2, two=1)
            else:
                self._remove(kind, 2)
                self._remove(Kind.JOKER)
                points = self._add_cards(kind, nat=2, joker=1)
            self._lay(points)
            return
        if Act.ADD_NAT <= a < Act.ADD_TWO:
            kind = a - Act.ADD_NAT
            self._remove(kind)
            if kind not in self.melds[team] and self.closed[team].get(kind):
                self.closed[team][kind][-1].nat += 1  # onto a closed canasta
                self._lay(r.value[kind])
            else:
                self._lay(self._add_cards(kind, nat=1))
            return
        if Act.ADD_TWO <= a < Act.ADD_JOKER:
            self._remove(Kind.TWO)
            self._lay(self._add_cards(a - Act.ADD_TWO, two=1))
            return
        if Act.ADD_JOKER <= a < Act.DISCARD:
            self._remove(Kind.JOKER)
            self._lay(self._add_cards(a - Act.ADD_JOKER, joker=1))
            return
        if Act.SEQ_NEW <= a < Act.SEQ_ADD:
            suit, low = divmod(a - Act.SEQ_NEW, 9)
            low += FIRST_NATURAL
            for k in range(low, low + 3):
                self._remove_suited(k, suit)
            slot = self.seqs[team].index(None)
            self.seqs[team][slot] = Seq(suit, low, 3)
            if 3 >= r.canasta_size:
                self.canastas_this_turn += 1
            self._lay(sum(r.value[k] for k in range(low, low + 3)))
            return
        if Act.SEQ_ADD <= a < Act.TAKE_SEQ:
            slot, end = divmod(a - Act.SEQ_ADD, 2)
            seq = self.seqs[team][slot]
            self._remove_suited(seq.next_kind(end), seq.suit)
            self._lay(self._extend_seq(slot, end))
            return
        kind = a - Act.DISCARD
        self.pile.extend(self._remove(kind))
        if kind in WILDS:
            self.pile_freeze += 1
        _ = hand

    # ------------------------------------------------------------------ score

    def result(self) -> RefereeResult:
        """The score of the (finished) hand, per team, as ENGINE.md 'Score of a hand' (and its
        Samba section: closed canastas and sequences count, a samba earns SAMBA_BONUS)."""
        r = self.rules
        nt = self.n_teams
        cs = r.canasta_size
        meld_points = [0] * nt
        canasta_bonus = [0] * nt
        canastas = [0] * nt
        naturals = [0] * nt
        red3_points = [0] * nt
        go_out = [0] * nt
        penalty = [0] * nt
        opened = [False] * nt
        for t in range(nt):
            groups = [(k, m) for k, m in self.melds[t].items()]
            groups += [(k, m) for k, ms in self.closed[t].items() for m in ms]
            for k, m in groups:
                meld_points[t] += (m.nat * r.value[k] + m.two * r.value[Kind.TWO]
                                   + m.joker * r.value[Kind.JOKER])
                if k in NATURALS and m.size >= cs:
                    canastas[t] += 1
                    if m.wild == 0:
                        naturals[t] += 1
                        canasta_bonus[t] += r.natural_canasta
                    else:
                        canasta_bonus[t] += r.mixed_canasta
            seqs = [q for q in self.seqs[t] if q is not None]
            for q in seqs:
                meld_points[t] += sum(r.value[k] for k in range(q.low, q.low + q.length))
                if q.length >= cs:
                    canastas[t] += 1
                    canasta_bonus[t] += r.samba_bonus
            opened[t] = self.opened[t] or bool(groups) or bool(seqs)
            if self.red3[t]:
                value = r.red3_table[min(self.red3[t], 6)]
                if r.red3_need_canastas == 0:
                    plus = opened[t]
                else:
                    plus = canastas[t] >= r.red3_need_canastas
                red3_points[t] = value if plus else -value
        if self.end_reason == End.WENT_OUT:
            t = r.team_of_seat[self.went_out_seat]
            if self.concealed and r.concealed_bonus > 0:
                go_out[t] = r.concealed_bonus
            elif self.went_out_discard:
                go_out[t] = r.go_out_bonus
            else:
                go_out[t] = r.go_out_no_discard_bonus
        for s in range(self.n_seats):
            t = r.team_of_seat[s]
            penalty[t] += sum(c * r.value[k] for k, c in enumerate(self.hands[s]))
            if s == self.seat:
                penalty[t] += sum(r.value[c & 15] for c in self.aside)
        score = [meld_points[t] + canasta_bonus[t] + red3_points[t] + go_out[t] - penalty[t]
                 for t in range(nt)]
        return RefereeResult(
            score=score,
            meld_points=meld_points,
            canasta_bonus=canasta_bonus,
            red3_points=red3_points,
            go_out_bonus=go_out,
            hand_penalty=penalty,
            end_reason=self.end_reason,
            went_out_seat=self.went_out_seat,
            concealed=bool(self.concealed and self.end_reason == End.WENT_OUT),
            turns=self.turns,
            canastas=canastas,
            red3=list(self.red3),
            natural_canastas=naturals,
            opened=opened,
            pile_takes=list(self.pile_takes),
            decisions=self.decisions,
        )


# ----------------------------------------------------------------------------- searches


@cache
def _group_outcomes(key: tuple, n: int, nat: int, wild: int, is_open: bool,
                    closed_any: bool) -> frozenset[tuple[int, int]]:
    """Group melds of one rank: every (wild cards placed, canastas completed) reachable by
    melding exactly `n` more naturals of the rank, one card at a time as the actions allow.
    The rank's current state: an open meld (`nat`, `wild`) if `is_open`, closed canastas if
    `closed_any`.  `key` = Rules.group_key (max wild, wild <= naturals, naturals of a new meld,
    canasta size, wild onto a canasta, several melds per rank)."""
    max_wild, wild_le_nat, min_naturals, size, wild_onto, multi = key
    out: set[tuple[int, int]] = set()
    if n == 0:
        out.add((0, 0))

    def fits(nat_after: int, wild_after: int, size_before: int) -> bool:
        return (wild_after <= max_wild and (not wild_le_nat or wild_after <= nat_after)
                and (wild_onto or size_before < size))

    def go(nat2: int, wild2: int, used: int, dw: int, size_before: int) -> None:
        crossed = 1 if size_before < size <= nat2 + wild2 else 0
        if multi and nat2 + wild2 >= size:  # closed at once: a new meld may start
            sub = _group_outcomes(key, n - used, 0, 0, False, True)
        else:
            sub = _group_outcomes(key, n - used, nat2, wild2, True, closed_any)
        for w, c in sub:
            out.add((w + dw, c + crossed))

    if is_open:
        if n > 0:
            go(nat + 1, wild, 1, 0, nat + wild)
        if fits(nat, wild + 1, nat + wild):
            go(nat, wild + 1, 0, 1, nat + wild)
    else:
        if n >= 3 and min_naturals <= 3:
            go(3, 0, 3, 0, 0)
        if n >= 2 and min_naturals <= 2 and fits(2, 1, 2):
            go(2, 1, 2, 1, 0)
        if multi and closed_any and n > 0:  # `add 7 to 7s` with no open meld: onto a closed one
            out |= _group_outcomes(key, n - 1, 0, 0, False, True)
    return frozenset(out)


def _intervals(values: list[int]) -> list[tuple[int, int]]:
    """Sorted distinct ints as maximal runs (lo, hi)."""
    out: list[tuple[int, int]] = []
    for v in values:
        if out and v == out[-1][1] + 1:
            out[-1] = (out[-1][0], v)
        else:
            out.append((v, v))
    return out


@lru_cache(maxsize=1 << 15)
def _group_best(key: tuple, rest: tuple[int, ...], budget: int, wild_values: tuple[int, ...],
                states: tuple, nat_values: tuple[int, ...]) -> int:
    """The most points group melds can add with at most `budget` cards: `rest` naturals per
    rank, wild cards worth `wild_values` (best first), each rank in state `states[i]`.  A
    dynamic programme over (naturals used, fewest wilds, most wilds) -> natural points."""
    nw = len(wild_values)
    dp: dict[tuple[int, int, int], int] = {(0, 0, 0): 0}
    for i, n in enumerate(rest):
        options = []
        for u in range(n + 1):
            ws = sorted({w for w, _ in _group_outcomes(key, u, *states[i])})
            options += [(u, lo, hi) for lo, hi in _intervals(ws)]
        if options == [(0, 0, 0)]:
            continue
        nxt: dict[tuple[int, int, int], int] = {}
        for (used, lo, hi), pts in dp.items():
            for u, olo, ohi in options:
                if used + u > budget or lo + olo > nw:
                    continue
                k2 = (used + u, lo + olo, min(hi + ohi, nw))
                v = pts + u * nat_values[i]
                if nxt.get(k2, -1) < v:
                    nxt[k2] = v
        dp = nxt
    best = 0
    for (used, lo, hi), pts in dp.items():
        w = min(hi, nw, budget - used)
        if w >= lo:
            best = max(best, pts + sum(wild_values[:w]))
    return best


def _groups_use_all(key: tuple, rest: tuple[int, ...], wilds: int, states: tuple) -> int:
    """Group melds that use every one of `rest` naturals and exactly `wilds` wild cards: the
    most canastas they complete, or -1 when impossible."""
    dp = {0: 0}  # wilds placed -> most canastas
    for i, n in enumerate(rest):
        outs = _group_outcomes(key, n, *states[i])
        nxt: dict[int, int] = {}
        for w, c in dp.items():
            for ow, oc in outs:
                if w + ow <= wilds and nxt.get(w + ow, -1) < c + oc:
                    nxt[w + ow] = c + oc
        if not nxt:
            return -1
        dp = nxt
    return dp.get(wilds, -1)


@lru_cache(maxsize=1 << 14)
def _suit_runs(counts: tuple[int, ...], existing: tuple[tuple[int, int], ...], size: int,
               free: int) -> tuple[tuple[tuple[int, ...], int, int], ...]:
    """Sequences of one suit: every (cards used per rank, new runs, sambas completed) from
    `counts` (per rank index 0..10 = kinds 4..A): the team's sequences `existing` (low index,
    length) extended at either end, then at most `free` new runs of 3..`size` cards."""
    found: dict[tuple[tuple[int, ...], int], int] = {}
    top = len(counts) - 1

    def new_runs(cnt: tuple[int, ...], min_a: int, min_len: int, runs: int, sambas: int) -> None:
        usage = tuple(c0 - c for c0, c in zip(counts, cnt, strict=True))
        if found.get((usage, runs), -1) < sambas:
            found[(usage, runs)] = sambas
        if runs >= free:
            return
        for a in range(min_a, top + 1):
            for length in range(3, size + 1):
                if a + length - 1 > top:
                    break
                if a == min_a and length < min_len:
                    continue
                if any(cnt[j] < 1 for j in range(a, a + length)):
                    break
                c2 = list(cnt)
                for j in range(a, a + length):
                    c2[j] -= 1
                new_runs(tuple(c2), a, length, runs + 1, sambas + (length == size))

    def extend(i: int, cnt: tuple[int, ...], sambas: int) -> None:
        if i == len(existing):
            new_runs(cnt, 0, 3, 0, sambas)
            return
        low, length = existing[i]
        if length >= size:
            extend(i + 1, cnt, sambas)
            return
        for d in range(size - length + 1):
            if d and (low - d < 0 or cnt[low - d] < 1):
                break
            for e in range(size - length - d + 1):
                hi = low + length - 1 + e
                if e and (hi > top or cnt[hi] < 1):
                    break
                c2 = list(cnt)
                for j in list(range(low - d, low)) + list(range(low + length, hi + 1)):
                    c2[j] -= 1
                extend(i + 1, tuple(c2), sambas + (length + d + e == size))

    extend(0, counts, 0)
    return tuple((usage, runs, sambas) for (usage, runs), sambas in found.items())


@lru_cache(maxsize=4096)
def _most_new_canastas(ranges: tuple[tuple[int, int, int], ...], wilds: int, size: int) -> int:
    """Spread exactly `wilds` wild cards over melds with (fewest, most, cards without wilds)
    each (-1 cards: already a canasta); the most melds that reach `size` cards, or -1 when the
    wild cards cannot all be placed."""
    if not ranges:
        return 0 if wilds == 0 else -1
    (lo, hi, base), tail = ranges[0], ranges[1:]
    best = -1
    for w in range(lo, min(hi, wilds) + 1):
        sub = _most_new_canastas(tail, wilds - w, size)
        if sub < 0:
            continue
        best = max(best, sub + (1 if base >= 0 and base + w >= size else 0))
    return best


# ----------------------------------------------------------------------------- the referee


def referee_hand(
    params: Sequence[int],
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
        raise IllegalAction(len(actions), -1,
                            f"the hand is not over: seat {state.seat} is to act ({phase} phase)")
    return state.result()

"""The referee's position: the cards of one hand and where they lie (hands with suits, team
melds, closed canastas, sequences, stock, pile), the flags of the turn, and the deal.

Card codes are `kind | suit << 4`, as in the deck the referee is given.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sim.core.enums import (
    FIRST_NATURAL,
    KIND_NAMES,
    LAST_NATURAL,
    MAX_SEQS,
    N_KINDS,
    End,
    Kind,
    Phase,
)
from sim.core.referee.names import NATURALS, card_name
from sim.core.referee.params import Rules


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
        return (
            f"{card_name(self.low, self.suit)}..{card_name(self.low + self.length - 1, self.suit)}"
        )


class Position:
    """The readable position of one hand: the cards, where they lie, and the flags of the turn.

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
        params: Iterable[int],
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
            return sum(
                1
                for j in (kind - 2, kind - 1, kind + 1, kind + 2)
                if FIRST_NATURAL <= j <= LAST_NATURAL and mine[s][j] > 0
            )

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

    def describe(self) -> str:
        """A few lines for error messages and debugging."""
        lines = [f"turn {self.turns} seat {self.seat} phase {self.phase} end {self.end_reason}"]
        for s in range(self.n_seats):
            cards = " ".join(f"{KIND_NAMES[k]}x{c}" for k, c in enumerate(self.hands[s]) if c)
            lines.append(f"  seat {s} (team {self.rules.team_of_seat[s]}): {cards}")
        for t in range(self.n_teams):
            melds = " ".join(
                f"{KIND_NAMES[k]}:{m.nat}+{m.two}*2+{m.joker}*JK"
                for k, m in sorted(self.melds[t].items())
            )
            closed = " ".join(
                f"{KIND_NAMES[k]}:{m.nat}+{m.two}*2+{m.joker}*JK"
                for k, ms in sorted(self.closed[t].items())
                for m in ms
            )
            seqs = " ".join(q.text() for q in self.seqs[t] if q is not None)
            lines.append(
                f"  team {t} opened={self.opened[t]} red3={self.red3[t]} {melds}"
                + (f" closed {closed}" if closed else "")
                + (f" seqs {seqs}" if seqs else "")
            )
        lines.append(
            f"  pile {[card_name(c & 15, c >> 4) for c in self.pile]} freeze={self.pile_freeze} "
            f"stock {len(self.stock)} pending {self.pending} aside {len(self.aside)}"
        )
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

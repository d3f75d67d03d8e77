"""The plain effect of a legal action on the cards: drawing, taking the pile, melding, adding,
sequences and discarding, with the bookkeeping of the initial meld (no legality, no turn change).
"""

from __future__ import annotations

from sim.core.enums import FIRST_NATURAL, Act, End, Kind, Phase
from sim.core.referee.names import NATURALS, TAKE_SEQS, TAKES, WILDS
from sim.core.referee.position import Meld, Position, Seq

# When a team that has opened takes the pile with hand cards (a pair, or a natural and a wild
# card), the cards that take it come from the hand before the pile is picked up (True: the
# physical order, which the core follows).  False melds the suits picked after the pile joined
# the hand; kind counts are the same either way, only the suits left in the hand differ.
PAIR_BEFORE_PILE = True


class Moves(Position):
    """A position that can play the effect of an action (`_move`)."""

    def _move(self, a: int) -> None:
        """The plain effect of a legal action on the cards (no turn change)."""
        if a == Act.DRAW:
            self._move_draw()
        elif a == Act.DECLINE:
            return
        elif a in TAKES or a in TAKE_SEQS:
            self._move_take(a)
        elif Act.MELD <= a < Act.ADD_NAT:
            self._move_meld(*divmod(a - Act.MELD, 3))
        elif Act.ADD_NAT <= a < Act.DISCARD:
            self._move_add(a)
        elif Act.SEQ_NEW <= a < Act.SEQ_ADD:
            suit, low = divmod(a - Act.SEQ_NEW, 9)
            self._move_new_sequence(suit, low + FIRST_NATURAL)
        elif Act.SEQ_ADD <= a < Act.TAKE_SEQ:
            slot, end = divmod(a - Act.SEQ_ADD, 2)
            seq = self.seqs[self.team][slot]
            assert seq is not None  # legality checked the slot
            self._remove_suited(seq.next_kind(end), seq.suit)
            self._lay(self._extend_seq(slot, end))
        else:
            kind = a - Act.DISCARD
            self.pile.extend(self._remove(kind))
            if kind in WILDS:
                self.pile_freeze += 1

    def _move_draw(self) -> None:
        """Draw `draw_count` cards; red threes are laid and replaced; a red three as the last
        stock card may end the hand."""
        r = self.rules
        team = self.team
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

    def _move_take(self, a: int) -> None:
        """Take the pile: its red threes are laid, the rest is held aside until the team has
        opened; the top card is melded at once with the hand cards the action names."""
        team = self.team
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

    def _move_meld(self, kind: int, variant: int) -> None:
        """A new group meld: three naturals (variant 0), or two and a two (1) or a joker (2)."""
        if variant == 0:
            self._remove(kind, 3)
            points = self._add_cards(kind, nat=3)
        else:
            wild = Kind.TWO if variant == 1 else Kind.JOKER
            self._remove(kind, 2)
            self._remove(wild)
            points = self._add_cards(kind, nat=2, two=int(variant == 1), joker=int(variant == 2))
        self._lay(points)

    def _move_add(self, a: int) -> None:
        """One card onto the team's meld of its rank (a natural may join a closed canasta)."""
        r = self.rules
        team = self.team
        if a < Act.ADD_TWO:
            kind = a - Act.ADD_NAT
            self._remove(kind)
            if kind not in self.melds[team] and self.closed[team].get(kind):
                self.closed[team][kind][-1].nat += 1  # onto a closed canasta
                self._lay(r.value[kind])
            else:
                self._lay(self._add_cards(kind, nat=1))
        elif a < Act.ADD_JOKER:
            self._remove(Kind.TWO)
            self._lay(self._add_cards(a - Act.ADD_TWO, two=1))
        else:
            self._remove(Kind.JOKER)
            self._lay(self._add_cards(a - Act.ADD_JOKER, joker=1))

    def _move_new_sequence(self, suit: int, low: int) -> None:
        """Three suited naturals low..low+2 into the team's first free sequence slot."""
        r = self.rules
        team = self.team
        for k in range(low, low + 3):
            self._remove_suited(k, suit)
        slot = self.seqs[team].index(None)
        self.seqs[team][slot] = Seq(suit, low, 3)
        if 3 >= r.canasta_size:
            self.canastas_this_turn += 1
        self._lay(sum(r.value[k] for k in range(low, low + 3)))

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
        assert seq is not None  # legality checked the slot
        kind = seq.next_kind(end)
        if end == 0:
            seq.low -= 1
        seq.length += 1
        if seq.length == r.canasta_size:
            self.canastas_this_turn += 1
        return r.value[kind]

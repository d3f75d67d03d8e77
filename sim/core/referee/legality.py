"""Legality: for the player to act, whether an action id is legal now, and if not, a one-line
reason.  Each kind of action has its own reason; every move that lays cards is then played on a
copy to check what it leaves (the hand-size rule, the initial-meld minimum still reachable)."""

from __future__ import annotations

import copy

from sim.core.enums import (
    FIRST_NATURAL,
    KIND_NAMES,
    LAST_NATURAL,
    MAX_SEQS,
    N_ACTIONS,
    Act,
    Kind,
    Phase,
)
from sim.core.referee.moves import Moves
from sim.core.referee.names import END_NAMES, NATURALS, TAKE_SEQS, TAKES, card_name
from sim.core.referee.opening import Opening
from sim.core.referee.position import Seq


class Legality(Opening, Moves):
    """A position that can tell whether an action is legal (`is_legal`)."""

    def legal_actions(self) -> list[int]:
        return [a for a in range(N_ACTIONS) if self.is_legal(a) is None]

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
                    self.is_legal(t) is None for t in (Act.TAKE_ONTO,) + TAKE_SEQS
                ):
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
        why_frozen = (
            "frozen pile (a wild card in it)"
            if self.pile_freeze > 0
            else "pile frozen until the team's initial meld"
        )
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
        assert seq is not None  # _extend_reason refuses an empty slot
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
        assert seq is not None  # _extend_reason refuses an empty slot
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
            return (
                f"the team already has {'an open' if r.multi else 'a'} meld of {KIND_NAMES[kind]}s"
            )
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
        base = (
            Act.ADD_NAT if a < Act.ADD_TWO else Act.ADD_TWO if a < Act.ADD_JOKER else Act.ADD_JOKER
        )
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
            assert meld is not None  # black threes are never closed
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
            return (
                "black threes only as the last meld when going out (at most one other card may "
                "be left, to discard)"
            )
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
            return (
                f"initial meld pending ({self.pending} < {self.team_min[team]}): "
                "no discard unless going out concealed"
            )
        return None

    def _going_out_reason(self) -> str | None:
        """Why the player to act may not go out now (None: may), from the current position."""
        r = self.rules
        team = self.team
        if not self.may_go_out(team):
            return (
                f"going out needs {r.canastas_to_go_out} canasta(s), the team has "
                f"{self.canastas(team)}"
            )
        if not self.opened[team]:
            if self.melded_before or self.canastas_this_turn < 1:
                return (
                    f"initial meld not made ({self.pending} < {self.team_min[team]}) and "
                    "not a concealed going out"
                )
            if r.concealed_needs_min or self.took_pile:
                return (
                    f"initial meld not made ({self.pending} < {self.team_min[team]}): "
                    "this concealed going out still needs the minimum"
                )
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
            return (
                f"must keep at least two cards: the team has {sim.canastas(team)} "
                f"canasta(s), needs {self.rules.canastas_to_go_out} to go out"
            )
        if not sim.opened[team]:
            need = sim.team_min[team] - sim.pending
            if self.rules.general:
                if sim._general_max_points(stop_at=need) >= need:
                    return None
                if sim.concealed_out_possible():
                    return None
                return (
                    f"initial meld: {sim.pending} laid and the hand cannot add {need} more "
                    f"(minimum {sim.team_min[team]}), and no concealed going out is possible"
                )
            more = sim.max_more_points()
            if sim.pending + more >= sim.team_min[team]:
                return None
            if sim.concealed_out_possible():
                return None
            return (
                f"initial meld: {sim.pending} laid + at most {more} more from the hand "
                f"< {sim.team_min[team]}, and no concealed going out is possible"
            )
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

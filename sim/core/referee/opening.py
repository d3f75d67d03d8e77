"""The opening look-ahead: how many more points the player to act could still meld this turn,
and whether a concealed going out is still possible (both decide whether a move that leaves the
initial meld pending is legal).

Classic rules: an exhaustive dynamic programme over the ranks.  Samba-style rules (sequences,
several melds per rank): every way to use the hand's naturals in sequences combined with the best
group melds of the rest (`searches`).  Exact, where the core uses a lower bound, so the referee
allows a superset of the core's opening melds, never fewer.
"""

from __future__ import annotations

from sim.core.enums import FIRST_NATURAL, N_KINDS, Kind
from sim.core.referee.names import NATURALS, WILDS
from sim.core.referee.position import Meld, Position
from sim.core.referee.searches import (
    group_best,
    groups_use_all,
    most_new_canastas,
    suit_runs,
)


class Opening(Position):
    """A position that can answer the opening look-ahead's questions."""

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
        wild_values = sorted(
            [r.value[Kind.JOKER]] * hand[Kind.JOKER] + [r.value[Kind.TWO]] * hand[Kind.TWO],
            reverse=True,
        )
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
            existing = tuple(
                sorted(
                    (q.low - FIRST_NATURAL, q.length)
                    for q in self.seqs[team]
                    if q is not None and q.suit == s
                )
            )
            if not any(counts):
                continue
            options = suit_runs(counts, existing, r.canasta_size, free)
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
        values = sorted(
            (r.value[k] for k in NATURALS + WILDS for _ in range(hand[k])), reverse=True
        )
        if sum(values[:budget]) < target:
            target = 1 << 30  # cannot stop early; compute the exact maximum
        wild_values = tuple(
            sorted(
                [r.value[Kind.JOKER]] * hand[Kind.JOKER] + [r.value[Kind.TWO]] * hand[Kind.TWO],
                reverse=True,
            )
        )
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
            pts += group_best(r.group_key, rest, budget - used, wild_values, states, nat_values)
            best = max(best, pts)
            if best >= target:
                return best
        return best

    def concealed_out_possible(self) -> bool:
        """Can the player to act still go out concealed this turn: every card in hand (and
        aside) melded except at most one discard, the team then with enough canastas and at
        least one of them completed this turn (and the minimum, where it is needed)?"""
        if self.melded_before:
            return False
        if self.aside:  # the pile was taken and the minimum is not made: no going out yet
            return False
        cards = list(self.hand)
        general = None  # Samba-style rules: the sequence usages and group states, once
        if self.rules.general:
            general = (
                self.sequence_usages(self.team, self.suits[self.seat]),
                self._group_states(self.team),
            )
        for discard in [None] + [k for k in range(N_KINDS) if cards[k] > 0]:
            rest = list(cards)
            if discard is not None:
                rest[discard] -= 1
            if not self._threes_and_minimum_allow(rest):
                continue
            if general is not None:
                new = self._general_new_canastas(rest, *general)
            else:
                new = self._plain_new_canastas(rest)
            if new >= 0 and self._enough_to_go_out(new):
                return True
        return False

    def _enough_to_go_out(self, new: int) -> bool:
        """With `new` more canastas completed this turn, may the team go out concealed?"""
        have = self.canastas(self.team)
        return have + new >= self.rules.canastas_to_go_out and self.canastas_this_turn + new >= 1

    def _threes_and_minimum_allow(self, rest: list[int]) -> bool:
        """Melding every card of `rest`: no red three, the black threes a legal black-three meld,
        and the initial-meld minimum where this concealed going out needs it."""
        r = self.rules
        team = self.team
        if rest[Kind.RED3]:
            return False
        b3 = self.melds[team].get(Kind.BLACK3)
        if rest[Kind.BLACK3] or b3 is not None:
            total = rest[Kind.BLACK3] + (b3.size if b3 else 0)
            if b3 is None and rest[Kind.BLACK3] < 3:
                return False
            if not r.black3_min <= total <= r.black3_max:
                return False
        if not self.opened[team] and (r.concealed_needs_min or self.took_pile):
            # only hand cards count toward the minimum, never pile cards
            points = sum(min(rest[k], self.hand[k]) * r.value[k] for k in range(N_KINDS))
            if self.pending + points < self.team_min[team]:
                return False
        return True

    def _general_new_canastas(
        self,
        rest: list[int],
        usages: dict[tuple[int, ...], int],
        states: tuple[tuple[int, int, bool, bool], ...],
    ) -> int:
        """Samba-style rules: the most canastas completed by melding every natural and wild
        card of `rest` in sequences (`usages`, from `sequence_usages`) and group melds (the
        ranks in `states`), or -1 when that is impossible."""
        r = self.rules
        wilds = rest[Kind.TWO] + rest[Kind.JOKER]
        nats = [rest[k] for k in NATURALS]
        best = -1
        for usage, sambas in usages.items():
            left = tuple(n - u for n, u in zip(nats, usage, strict=True))
            if min(left) < 0:
                continue
            new = groups_use_all(r.group_key, left, wilds, states)
            if new >= 0:
                best = max(best, new + sambas)
        return best

    def _plain_new_canastas(self, rest: list[int]) -> int:
        """Classic rules: the most canastas completed by adding every card of `rest` to the
        team's melds or to new melds, or -1 when that is impossible."""
        r = self.rules
        melds: dict[int, Meld] = self.melds[self.team]
        ranges: list[tuple[int, int, int]] = []  # (fewest, most wilds, cards without wilds)
        for k in NATURALS:
            n = rest[k]
            m = melds.get(k)
            if m is not None:
                size = -1 if m.size >= r.canasta_size else m.size + n
                ranges.append((0, r.extra_wild_capacity(m.nat, m.wild, n), size))
            elif n:
                rng = r.new_meld_wild_range(n)
                if rng is None:
                    return -1
                ranges.append((rng[0], rng[1], n))
        wilds = rest[Kind.TWO] + rest[Kind.JOKER]
        return most_new_canastas(tuple(ranges), wilds, r.canasta_size)

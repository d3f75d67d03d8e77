"""A running hand as a position: what one seat knows there (sim.play.positions.text's format)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from sim.core.enums import N_KINDS, N_SUITED
from sim.play.positions.text import Meld, Position, PositionError

if TYPE_CHECKING:
    from sim.core.rules import RuleSet

__all__ = ["position_from_state"]


def position_from_state(state: np.ndarray, know: np.ndarray, rules: RuleSet, seat: int) -> Position:
    """What ``seat`` knows of a running hand (a full state, int32[STATE_SIZE], and that seat's
    knowledge, sim.play.worlds.sampler layout) as a Position.  Reads the public fields, the seat's
    own hand and the pile's cards above the ones nobody has seen.  ValueError if the hand is
    over."""
    from sim.core.enums import Off, Phase
    from sim.play.positions.last_turn import discard_visible, turns_from_know
    from sim.play.positions.samba import closed_melds, sequences_of
    from sim.play.worlds.sampler import Know

    if int(state[Off.PHASE]) == Phase.OVER:
        raise PositionError("the hand is over: there is no decision to describe")
    n, nt = int(state[Off.N_SEATS]), int(state[Off.N_TEAMS])
    eng = [-1] * nt
    for s in range(n):
        eng[(s % nt - seat % nt) % nt] = int(state[Off.TEAM_OF_SEAT + s])
    melds = []
    for t in eng:
        ms = []
        for k in range(N_KINDS):
            i = t * N_KINDS + k
            nat, two, jk = (
                int(state[Off.MELD_NAT + i]),
                int(state[Off.MELD_TWO + i]),
                int(state[Off.MELD_JOKER + i]),
            )
            if nat + two + jk:
                ms.append(Meld(k, nat, two, jk))
        if rules.multiple_melds_per_rank:
            ms += closed_melds(state, t, rules.canasta_size, rules.max_wild_per_meld)
        melds.append(ms)
    hidden, size = int(know[Know.PILE_HIDDEN]), int(state[Off.PILE_LEN])
    pile = [int(c) & 15 for c in state[Off.PILE + hidden : Off.PILE + size]]
    known = {
        s: know[Know.KNOWN + s * N_KINDS : Know.KNOWN + (s + 1) * N_KINDS].astype(np.int64)
        for s in range(n)
        if s != seat and know[Know.KNOWN + s * N_KINDS : Know.KNOWN + (s + 1) * N_KINDS].any()
    }
    pos = Position(
        rules.players,
        rules.decks,
        seat,
        int(state[Off.SEAT]),
        state[Off.HANDS + seat * N_KINDS : Off.HANDS + (seat + 1) * N_KINDS].astype(np.int64),
        melds,
        [int(state[Off.TEAM_RED3 + t]) for t in eng],
        size,
        pile[-1] if pile else -1,
        int(state[Off.PILE_FREEZE]) > 0,
        [int(x) for x in state[Off.HAND_SIZE : Off.HAND_SIZE + n]],
        int(state[Off.STOCK_LEN]),
        [int(state[Off.CUM_SCORE + t]) for t in eng],
        int(state[Off.TURN]),
        pile_cards=pile or None,
        melded=[s for s in range(n) if state[Off.SEAT_MELDED + s]],
        rules=rules.name,
        overrides={k: getattr(rules, k) for k in rules.differences_from_preset()},
        team_layout=rules.team_layout or None,
        phase="draw" if int(state[Off.PHASE]) == Phase.DRAW else "meld",
        opened=[bool(state[Off.TEAM_OPENED + t]) for t in eng],
        known=known,
        last_discard=[int(x) for x in state[Off.LAST_DISCARD : Off.LAST_DISCARD + n]],
        last_turns=turns_from_know(know, state, seat),
    )
    if rules.sequences:
        pos.hand_suits = (
            state[Off.HAND_SUITS + seat * N_SUITED : Off.HAND_SUITS + (seat + 1) * N_SUITED]
            .reshape(4, 11)
            .astype(np.int64)
        )
        pos.sequences = [sequences_of(state, t) for t in eng]
        pos.pile_top_suit = int(state[Off.PILE_TOP_SUIT]) if size else -1
    # only the turns a reader can use: the seat's discard still shows on the pile
    pos.last_turns = {
        s: lt for s, lt in pos.last_turns.items() if discard_visible(pos, (pos.to_move - s) % n)
    }
    if pos.phase == "meld":
        aside = know[Know.ASIDE : Know.ASIDE + N_KINDS].astype(np.int64)
        pos.took_pile = bool(state[Off.TOOK_PILE])
        pos.pending = int(state[Off.PENDING_VALUE])
        pos.aside = aside if int(state[Off.ASIDE_LEN]) else None
        pos.canastas_this_turn = int(state[Off.CANASTAS_THIS_TURN])
        pos.melded_before = bool(state[Off.MELDED_BEFORE])
    return pos

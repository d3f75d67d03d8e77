"""The last turn of another seat in a position file, for model-consistent worlds (``--infer``).

A position may list, for seats other than the viewer, what each did on its last complete turn
(the turn that ended with its ``last_discard``)::

    last_turn 1: draw | melded 7 7 7 2 | discard 9
    last_turn 3: take K K | took 5 9 K K | melded K | discard 4

Parts are separated by ``|``: first the draw or take as `canasta play` names it (``draw`` = it
declined the pile; ``take K K``, ``take K 2``, ``take K JK``, ``take onto Ks``; the names
without the card, ``take pair``, ``take nat+2``, ``take nat+JK``, ``take onto meld``, and
Samba's ``take onto sequence SLOT up|down``, are read too), then optionally ``took CARDS`` (a
take: the pile it took, bottom first, top last; without it the take is not checked), ``melded
CARDS`` (the cards it laid from its hand after the draw or take, the take's own cards not
included) and ``discard CARD`` (required; it sets, or must agree with, ``last_discard``).

`LastTurn` holds one such line; `turns_from_know` reads them off a running hand (what the viewer
saw: public information only); `draw_snapshot` turns one into the knowledge entries of
sim.play.worlds.knowledge (``DSNAP`` and the turn's counts) that sim.play.worlds.infer checks.
Built from the position alone, that snapshot is approximate: the table at the draw is the table at
the discard (sim.play.rollouts.from_position's discard snapshot) less what the seat laid during the
turn (naturals by rank; a meld left with fewer than two naturals is removed with its wild cards),
the pile the one it took (a take) or the one it discarded onto (a draw), the stock one draw larger.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.core.actions import ActionTextError, action_text, action_text_with_top, parse_action
from sim.core.enums import KIND_NAMES, MAX_SEQS, N_KINDS, Act, Kind, Off, Par, Phase
from sim.play.positions.cards import card_kind, cards_text, parse_cards

__all__ = [
    "LastTurn",
    "parse_last_turn",
    "parse_last_turns",
    "last_turn_text",
    "turns_from_know",
    "draw_snapshot",
    "undo_later_turns",
    "discard_visible",
    "DRAW_ACTIONS",
]

DRAW_ACTIONS = {
    action_text(a): a
    for a in (Act.DRAW, Act.TAKE_PAIR, Act.TAKE_NAT_TWO, Act.TAKE_NAT_JOKER, Act.TAKE_ONTO)
}
DRAW_ACTIONS.update({action_text(a): a for a in range(Act.TAKE_SEQ, Act.TAKE_SEQ + 2 * MAX_SEQS)})


@dataclass
class LastTurn:
    action: int  # Act.DRAW or a take
    discard: int  # kind
    melded: np.ndarray  # counts per kind laid from the hand after the draw or take
    took: list[int] | None = None  # the pile taken (kinds, bottom first), a take only
    top: int = -1  # kind of the pile's top card it took (-1: not known), a take only


def _cards(text: str, label: str, error) -> np.ndarray:

    c = parse_cards(text)
    if c[Kind.RED3]:
        raise error(f"{label}: red threes never stay in a hand")
    return c


def parse_last_turn(seat: int, text: str, error) -> LastTurn:
    """One ``last_turn S:`` value; ``error``: the exception type to raise (one line)."""

    label = f"last_turn {seat}"
    parts = [p.strip() for p in text.split("|")]
    action, top = _draw_or_take(parts[0], label, error)
    melded, took, discard = np.zeros(N_KINDS, np.int64), None, None
    for p in parts[1:]:
        word, _, rest = p.partition(" ")
        word = word.lower()
        if word == "melded":
            melded = _cards(rest, label, error)
        elif word == "took" and action != Act.DRAW:
            took = [card_kind(t) for t in rest.replace(",", " ").split()]
            if not took or took[-1] == Kind.RED3:
                raise error(
                    f"{label}: took lists the pile taken, bottom first, its top (not a red three) "
                    "last"
                )
        elif word == "discard" and len(rest.split()) == 1:
            discard = card_kind(rest)
            if discard == Kind.RED3:
                raise error(f"{label}: a red three is never discarded")
        else:
            raise error(
                f"{label}: {p!r}; write 'took CARDS' (a take), 'melded CARDS' or 'discard CARD'"
            )
    if discard is None:
        raise error(f"{label}: give the discard that ended the turn ('| discard CARD')")
    if took and top >= 0 and took[-1] != top:
        raise error(
            f"{label}: {parts[0]!r} takes a {KIND_NAMES[top]} but took ends with "
            f"{KIND_NAMES[took[-1]]} (the pile's top card comes last)"
        )
    return LastTurn(action, discard, melded, took, top)


def _draw_or_take(text: str, label: str, error) -> tuple[int, int]:
    """(action id, kind of the top card it names or -1) of a last turn's first part."""
    first = " ".join(text.lower().split()).replace("jk", "JK")
    if first in DRAW_ACTIONS:
        return DRAW_ACTIONS[first], -1
    hint = (
        f"{label}: starts with {text!r}; write draw, take K K, take K 2, take K JK or take onto Ks"
    )
    try:
        a = parse_action(text)
    except ActionTextError:
        raise error(hint) from None
    if a not in (Act.TAKE_PAIR, Act.TAKE_NAT_TWO, Act.TAKE_NAT_JOKER, Act.TAKE_ONTO):
        raise error(hint)
    from sim.core.cards import parse_kind

    words = text.split()
    rank = words[1] if a != Act.TAKE_ONTO else words[2][:-1]  # take K K | take onto Ks
    return a, parse_kind(rank)


def last_turn_text(lt: LastTurn) -> str:

    top = lt.top if lt.top >= 0 else (lt.took[-1] if lt.took else -1)
    parts = [action_text_with_top(lt.action, top)]  # as canasta play names it
    if lt.took:
        parts.append("took " + " ".join(KIND_NAMES[k] if k != Kind.RED3 else "R3" for k in lt.took))
    if lt.melded.sum():
        parts.append("melded " + cards_text(lt.melded))
    parts.append(f"discard {KIND_NAMES[lt.discard]}")
    return " | ".join(parts)


def discard_visible(position, d: int) -> bool:
    """Does the pile still show the last discard of the seat d seats before the seat to move,
    under the discards of the seats after it (so that its decision can be rebuilt)?"""
    listed, last = list(position.pile_cards or []), position.last_discard
    n = len(position.hand_sizes)
    if last is None or position.took_pile or len(listed) < d or not 0 < d < n:
        return False
    m = position.to_move
    order = [(m - 1 - j) % n for j in range(d)]  # the later seats' discards, then its own
    if (m - d) % n == position.me or any(listed[-1 - j] != last[order[j]] for j in range(d)):
        return False
    return len(listed) > d or position.pile_hidden == 0  # else the top then is one nobody knows


def _take_cards(action: int, top: int) -> np.ndarray:
    from sim.play.worlds.knowledge import take_hand_cards_nb

    out = np.zeros(N_KINDS, np.int64)
    take_hand_cards_nb(action, top, out)
    return out


def turns_from_know(know: np.ndarray, state: np.ndarray, viewer: int) -> dict[int, LastTurn]:
    """The last turns the viewer saw of the other seats (those whose knowledge holds both the
    draw or take and the discard of that turn)."""
    from sim.play.worlds.knowledge import Know

    out = {}
    for s in range(int(state[Off.N_SEATS])):
        if (
            s == viewer
            or not know[Know.SNAP_VALID + s]
            or not know[Know.DRAW_VALID + s]
            or state[Off.LAST_DISCARD + s] < 0
        ):
            continue
        base = Know.DSNAP + s * Off.PUB_SIZE
        action, top, d = (
            int(know[Know.DRAW_ACT + s]),
            int(know[base + Off.PILE_TOP]),
            int(state[Off.LAST_DISCARD + s]),
        )
        melded = know[Know.TURN_OUT + s * N_KINDS : Know.TURN_OUT + (s + 1) * N_KINDS].astype(
            np.int64
        )
        took = None
        if action != Act.DRAW:
            melded -= _take_cards(action, top)
            if not know[Know.TURN_UNK + s]:
                counts = know[base + Off.PILE_COUNTS : base + Off.PILE_COUNTS + N_KINDS].copy()
                counts[top] -= 1
                took = [k for k in range(N_KINDS) for _ in range(int(counts[k]))] + [top]
        melded[d] -= 1
        if (melded < 0).any():
            continue
        out[s] = LastTurn(action, d, melded, took, top if action < Act.TAKE_SEQ else -1)
    return out


def _table_before(snap: np.ndarray, team: int, laid: np.ndarray) -> None:
    """The team's melds less the cards laid this turn (naturals by rank, then wild cards from
    the melds that turn touched); a meld left with fewer than 2 naturals goes, wild cards too."""
    touched = []
    for k in range(N_KINDS):
        i = team * N_KINDS + k
        if laid[k] and k not in (Kind.TWO, Kind.JOKER):
            snap[Off.MELD_NAT + i] = max(int(snap[Off.MELD_NAT + i]) - int(laid[k]), 0)
            touched.append(i)
    wild = {Off.MELD_TWO: int(laid[Kind.TWO]), Off.MELD_JOKER: int(laid[Kind.JOKER])}
    for i in touched:
        for off in (Off.MELD_TWO, Off.MELD_JOKER):
            if snap[Off.MELD_NAT + i] < 2:
                snap[off + i] = 0
            take = min(wild[off], int(snap[off + i]))
            snap[off + i] -= take
            wild[off] -= take
            snap[off + i] = min(int(snap[off + i]), int(snap[Off.MELD_NAT + i]))
    if not any(
        snap[o + team * N_KINDS + k]
        for o in (Off.MELD_NAT, Off.MELD_TWO, Off.MELD_JOKER)
        for k in range(N_KINDS)
    ):
        snap[Off.TEAM_OPENED + team] = 0


def draw_snapshot(know: np.ndarray, params: np.ndarray, seat: int, lt: LastTurn) -> None:
    """Fill seat's draw-or-take entries of ``know`` from its typed last turn, given the discard
    snapshot already there (``SNAP_VALID``); nothing without it."""
    from sim.play.worlds.knowledge import Know

    if not know[Know.SNAP_VALID + seat]:
        return
    snap = know[Know.SNAP + seat * Off.PUB_SIZE : Know.SNAP + (seat + 1) * Off.PUB_SIZE].copy()
    take = _take_cards(lt.action, lt.took[-1]) if lt.took else np.zeros(N_KINDS, np.int64)
    brought = np.zeros(N_KINDS, np.int64)
    if lt.took:
        for k in lt.took[:-1]:
            brought[k] += k != Kind.RED3
        snap[Off.PILE_COUNTS : Off.PILE_COUNTS + N_KINDS] = np.bincount(lt.took, minlength=N_KINDS)
        snap[Off.PILE_LEN] = len(lt.took)
        snap[Off.PILE_TOP] = lt.took[-1]
        snap[Off.PILE_FREEZE] = sum(k in (Kind.TWO, Kind.JOKER, Kind.RED3) for k in lt.took)
    drawn = int(params[Par.DRAW_COUNT]) if lt.action == Act.DRAW else 0
    laid = lt.melded + take
    if lt.took and lt.action < Act.TAKE_SEQ:
        laid = laid.copy()
        laid[lt.took[-1]] += 1  # the top card went onto the meld with the take's cards
    _table_before(snap, int(snap[Off.TEAM_OF_SEAT + seat]), laid)
    snap[Off.HAND_SIZE + seat] += int((lt.melded + take).sum()) - int(brought.sum()) - drawn
    snap[Off.STOCK_LEN] += drawn
    snap[Off.PHASE] = Phase.DRAW
    for f in (
        Off.TOOK_PILE,
        Off.PENDING_VALUE,
        Off.ASIDE_LEN,
        Off.CANASTAS_THIS_TURN,
        Off.MELDED_BEFORE,
    ):
        snap[f] = 0
    row = slice(seat * N_KINDS, (seat + 1) * N_KINDS)
    known = know[Know.KNOWN + row.start : Know.KNOWN + row.stop].astype(np.int64)
    know[Know.DSNAP + seat * Off.PUB_SIZE : Know.DSNAP + (seat + 1) * Off.PUB_SIZE] = snap
    know[Know.SNAP + seat * Off.PUB_SIZE + Off.TOOK_PILE] = int(lt.action != Act.DRAW)
    know[Know.DRAW_VALID + seat] = 1
    know[Know.DRAW_ACT + seat] = lt.action
    know[Know.TURN_UNK + seat] = 0 if (lt.action == Act.DRAW or lt.took) else 1
    know[Know.KNOWN_AT_DRAW + row.start : Know.KNOWN_AT_DRAW + row.stop] = np.maximum(
        known - brought, 0
    )
    out = lt.melded + take
    out[lt.discard] += 1
    know[Know.TURN_OUT + row.start : Know.TURN_OUT + row.stop] = out
    know[Know.TURN_IN + row.start : Know.TURN_IN + row.stop] = brought


def _laid(params: np.ndarray, lt: LastTurn) -> tuple[np.ndarray, int, int]:
    """(cards the turn put on the table, including a take's top card; the change of the hand
    size from its draw decision to the end of the turn; the cards it drew)."""
    top = lt.took[-1] if lt.took else -1
    take = _take_cards(lt.action, top) if top >= 0 else np.zeros(N_KINDS, np.int64)
    laid = lt.melded + take
    brought = sum(1 for k in (lt.took or [])[:-1] if k != Kind.RED3)
    drawn = int(params[Par.DRAW_COUNT]) if lt.action == Act.DRAW else 0
    delta = drawn + brought - int(laid.sum()) - 1
    if top >= 0 and lt.action < Act.TAKE_SEQ:
        laid = laid.copy()
        laid[top] += 1
    return laid, delta, drawn


def undo_later_turns(know: np.ndarray, params: np.ndarray, position, n: int) -> None:
    """In each typed snapshot of seat s (discard and draw), undo the turns typed for the seats that
    played after s (up to the seat to move): their laid cards leave their team's melds, their
    hands get back the size they had then and the stock the cards they drew."""
    from sim.play.worlds.knowledge import Know

    m = position.to_move
    for d in range(1, n):
        s = (m - d) % n
        later = [(m - 1 - j) % n for j in range(d - 1)]
        for j in later:
            lt = position.last_turns.get(j)
            if lt is None:
                continue
            laid, delta, drawn = _laid(params, lt)
            for base, valid in ((Know.SNAP, Know.SNAP_VALID), (Know.DSNAP, Know.DRAW_VALID)):
                if not know[valid + s]:
                    continue
                snap = know[base + s * Off.PUB_SIZE : base + (s + 1) * Off.PUB_SIZE]
                _table_before(snap, int(snap[Off.TEAM_OF_SEAT + j]), laid)
                snap[Off.HAND_SIZE + j] -= delta
                snap[Off.STOCK_LEN] += drawn


def parse_last_turns(raw, players, me, last, error) -> dict:
    turns = {}
    for s in range(6):
        if f"last_turn {s}" not in raw:
            continue
        if s >= players or s == me:
            raise error(
                f"last_turn {s}: give the last turn of another seat 0..{players - 1} (not me)"
            )
        lt = parse_last_turn(s, raw[f"last_turn {s}"], error)
        if last is not None and last[s] not in (-1, lt.discard):
            raise error(
                f"last_turn {s}: ends with discard {KIND_NAMES[lt.discard]} but last_discard "
                f"says {KIND_NAMES[last[s]]}"
            )
        turns[s] = lt
    return turns

"""Readable action text, both ways: `draw`, `take 7 7`, `take 7 2`, `take 7 JK`,
`take onto 7s`, `decline`, `meld 7 7 7`, `meld 7 7 2`, `meld 7 7 JK`, `add 7 to 7s`,
`add 2 to 7s`, `add JK to 7s`, `discard 9`; Samba `meld 4H 5H 6H`, `add 7H to 4H..6H`,
`take 7H onto 4H..6H`.

One vocabulary: every command, table, JSON and position names an action by `action_text_at`
(the text of an action where it is played: the pile's top card and the team's sequences
there) and reads it back by `parse_action_at`; `GameState.legal_texts()` is that text.
`action_text` (no position: `take pair`, `extend sequence 0 up`) names an action id alone, for
messages about an id that has no position."""

from __future__ import annotations

import numpy as np

from sim.core.cards import kind_name, parse_kind
from sim.core.enums import FIRST_NATURAL, LAST_NATURAL, MAX_SEQS, Act, Kind, Off
from sim.core.errors import CanastaError

SYNTAX = (
    "draw | take R R | take R 2 | take R JK | take onto Rs | decline | meld R R R | meld R R 2 | "
    "meld R R JK | add C to Rs | discard C | Samba: meld 4H 5H 6H | add 7H to 4H..6H | take 7H "
    "onto 4H..6H"
)
SUITS = "CDHS"


def _suited(kind: int, suit: int) -> str:
    return kind_name(kind) + SUITS[suit]


def sequence_text(suit: int, low: int, length: int) -> str:
    return f"{_suited(low, suit)}..{_suited(low + length - 1, suit)}"


def _parse_suited(tok: str) -> tuple[int, int]:
    t = tok.strip().upper()
    if len(t) < 2 or t[-1] not in SUITS:
        raise ValueError(f"{tok!r} is not a suited card like 7H")
    kind = parse_kind(t[:-1])
    if not FIRST_NATURAL <= kind <= LAST_NATURAL:
        raise ValueError(f"{tok!r}: sequences hold natural cards 4..A only")
    return kind, SUITS.index(t[-1])


class ActionTextError(CanastaError):
    """Action text that does not read as an action: one line with the syntax."""


def action_text(action: int) -> str:
    if action == Act.DRAW:
        return "draw"
    if action == Act.DECLINE:
        return "decline"
    if action in (Act.TAKE_PAIR, Act.TAKE_NAT_TWO, Act.TAKE_NAT_JOKER, Act.TAKE_ONTO):
        return {
            Act.TAKE_PAIR: "take pair",
            Act.TAKE_NAT_TWO: "take nat+2",
            Act.TAKE_NAT_JOKER: "take nat+JK",
            Act.TAKE_ONTO: "take onto meld",
        }[action]
    if Act.MELD <= action < Act.ADD_NAT:
        kind, v = divmod(action - Act.MELD, 3)
        k = kind_name(kind)
        return f"meld {k} {k} " + (k, "2", "JK")[v]
    for base, card in ((Act.ADD_NAT, None), (Act.ADD_TWO, "2"), (Act.ADD_JOKER, "JK")):
        if base <= action < base + 15:
            kind = action - base
            return f"add {card or kind_name(kind)} to {kind_name(kind)}s"
    if Act.DISCARD <= action < Act.SEQ_NEW:
        return f"discard {kind_name(action - Act.DISCARD)}"
    if Act.SEQ_NEW <= action < Act.SEQ_ADD:
        suit, low = divmod(action - Act.SEQ_NEW, 9)
        low += FIRST_NATURAL
        return "meld " + " ".join(_suited(k, suit) for k in range(low, low + 3))
    if Act.SEQ_ADD <= action < Act.N_ACTIONS:
        slot, end = divmod(action - (Act.SEQ_ADD if action < Act.TAKE_SEQ else Act.TAKE_SEQ), 2)
        verb = "extend" if action < Act.TAKE_SEQ else "take onto"
        return f"{verb} sequence {slot} {'down' if end == 0 else 'up'}"
    return f"<unknown action {action}>"


def sequence_action_text(action: int, seqs: dict[int, tuple[int, int, int]]) -> str:
    """`add 7H to 4H..6H` / `take 7H onto 4H..6H` given the team's sequences
    {slot: (suit, low kind, length)}."""
    rel = action - (Act.SEQ_ADD if action < Act.TAKE_SEQ else Act.TAKE_SEQ)
    slot, end = divmod(rel, 2)
    if slot not in seqs:
        return action_text(action)
    suit, low, length = seqs[slot]
    new_kind = low - 1 if end == 0 else low + length
    card = _suited(new_kind, suit) if FIRST_NATURAL <= new_kind <= LAST_NATURAL else "?"
    target = sequence_text(suit, low, length)
    return f"add {card} to {target}" if action < Act.TAKE_SEQ else f"take {card} onto {target}"


def action_text_with_top(action: int, top: int) -> str:
    """Take actions read better with the top card: `take 7 7`, `take 7 2`, `take onto 7s`."""
    if top < 0 or action not in (
        Act.TAKE_PAIR,
        Act.TAKE_NAT_TWO,
        Act.TAKE_NAT_JOKER,
        Act.TAKE_ONTO,
    ):
        return action_text(action)
    k = kind_name(top)
    return {
        Act.TAKE_PAIR: f"take {k} {k}",
        Act.TAKE_NAT_TWO: f"take {k} 2",
        Act.TAKE_NAT_JOKER: f"take {k} JK",
        Act.TAKE_ONTO: f"take onto {k}s",
    }[action]


def sequences_at(arr: np.ndarray, team: int) -> dict[int, tuple[int, int, int]]:
    """{slot: (suit, low kind, length)} of ``team``'s Samba sequences in a state or an
    observation ``arr`` (public fields)."""
    out = {}
    for q in range(MAX_SEQS):
        j = team * MAX_SEQS + q
        if arr[Off.SEQ_LEN + j]:
            out[q] = (
                int(arr[Off.SEQ_SUIT + j]),
                int(arr[Off.SEQ_LOW + j]),
                int(arr[Off.SEQ_LEN + j]),
            )
    return out


def _acting_team(arr: np.ndarray) -> int:
    return int(arr[Off.TEAM_OF_SEAT + int(arr[Off.SEAT])])


def action_text_at(arr: np.ndarray, action: int) -> str:
    """The text of ``action`` for the seat to act in ``arr`` (a state or its observation): the
    one name of an action (`GameState.legal_texts`, analyze, review, mistakes, play)."""
    a = int(action)
    if a >= Act.SEQ_ADD:
        return sequence_action_text(a, sequences_at(arr, _acting_team(arr)))
    return action_text_with_top(a, int(arr[Off.PILE_TOP]))


def parse_action_at(arr: np.ndarray, text: str) -> int:
    """The action id of ``text`` for the seat to act in ``arr`` (the inverse of
    `action_text_at`); ActionTextError (one line) for text that is no action there."""
    return parse_action(text, int(arr[Off.PILE_TOP]), sequences_at(arr, _acting_team(arr)))


def _rank_of_plural(tok: str) -> int:
    t = tok.strip()
    if t.lower().endswith("s") and len(t) > 1:
        t = t[:-1]
    return parse_kind(t)


def parse_action(
    text: str, top: int = -1, seqs: dict[int, tuple[int, int, int]] | None = None
) -> int:
    """Parse action text (case-insensitive); `top` is the pile's top kind, checked for takes;
    `seqs` the acting team's sequences {slot: (suit, low kind, length)} for Samba extensions."""
    words = text.strip().split()
    if not words:
        raise ActionTextError(f"empty action; write one of: {SYNTAX}")
    w0 = words[0].lower()
    try:
        seq = _parse_sequence_words(words, seqs)
        if seq is not None:
            return seq
        if w0 == "draw" and len(words) == 1:
            return Act.DRAW
        if w0 == "decline" and len(words) == 1:
            return Act.DECLINE
        if w0 == "take":
            if len(words) == 3 and words[1].lower() == "onto":
                kind = _rank_of_plural(words[2])
                _check_top(kind, top, text)
                return Act.TAKE_ONTO
            if len(words) == 3:
                kind = parse_kind(words[1])
                second = parse_kind(words[2])
                _check_top(kind, top, text)
                if second == kind:
                    return Act.TAKE_PAIR
                if second == Kind.TWO:
                    return Act.TAKE_NAT_TWO
                if second == Kind.JOKER:
                    return Act.TAKE_NAT_JOKER
        if w0 == "meld" and len(words) == 4:
            k = [parse_kind(w) for w in words[1:]]
            kind = k[0]
            if k[1] == kind:
                if k[2] == kind:
                    return Act.MELD + kind * 3
                if k[2] == Kind.TWO:
                    return Act.MELD + kind * 3 + 1
                if k[2] == Kind.JOKER:
                    return Act.MELD + kind * 3 + 2
        if w0 == "add" and len(words) == 4 and words[2].lower() == "to":
            card = parse_kind(words[1])
            kind = _rank_of_plural(words[3])
            if card == kind:
                return Act.ADD_NAT + kind
            if card == Kind.TWO:
                return Act.ADD_TWO + kind
            if card == Kind.JOKER:
                return Act.ADD_JOKER + kind
        if w0 == "discard" and len(words) == 2:
            return Act.DISCARD + parse_kind(words[1])
    except ValueError as exc:
        raise ActionTextError(f"cannot read action {text!r}: {exc}") from None
    raise ActionTextError(f"cannot read action {text!r}; write one of: {SYNTAX}")


def _check_top(kind: int, top: int, text: str) -> None:
    if top >= 0 and kind != top:
        raise ActionTextError(
            f"cannot read action {text!r}: the top discard is {kind_name(top)}, not "
            f"{kind_name(kind)}"
        )
    if not FIRST_NATURAL <= kind <= LAST_NATURAL:
        raise ActionTextError(f"cannot read action {text!r}: only a natural rank 4..A can be taken")


def _parse_sequence_words(
    words: list[str], seqs: dict[int, tuple[int, int, int]] | None
) -> int | None:
    w = [x.lower() for x in words]
    if (
        w[0] == "meld"
        and len(words) == 4
        and all(x[-1:].upper() in SUITS and len(x) >= 2 for x in words[1:])
    ):
        cards = [_parse_suited(x) for x in words[1:]]
        kinds = [k for k, _ in cards]
        suit = cards[0][1]
        if any(su != suit for _, su in cards) or kinds != list(range(kinds[0], kinds[0] + 3)):
            raise ValueError(
                "a new sequence is three consecutive cards of one suit, low to high, e.g. 4H 5H 6H"
            )
        if kinds[0] + 2 > LAST_NATURAL:
            raise ValueError("a sequence runs from 4 to A")
        return Act.SEQ_NEW + suit * 9 + kinds[0] - FIRST_NATURAL
    if len(w) == 4 and w[0] == "extend" and w[1] == "sequence" and w[3] in ("up", "down"):
        return Act.SEQ_ADD + int(w[2]) * 2 + (w[3] == "up")
    if (
        len(w) == 5
        and w[0] == "take"
        and w[1] == "onto"
        and w[2] == "sequence"
        and w[4] in ("up", "down")
    ):
        return Act.TAKE_SEQ + int(w[3]) * 2 + (w[4] == "up")
    if (
        len(w) == 4
        and ((w[0] == "add" and w[2] == "to") or (w[0] == "take" and w[2] == "onto"))
        and ".." in w[3]
    ):
        kind, suit = _parse_suited(words[1])
        lo_t, hi_t = words[3].split("..", 1)
        lo, lo_s = _parse_suited(lo_t)
        hi, hi_s = _parse_suited(hi_t)
        for slot, (s_suit, s_low, s_len) in (seqs or {}).items():
            if (s_suit, s_low, s_low + s_len - 1) == (lo_s, lo, hi) and lo_s == hi_s:
                if suit != s_suit or kind not in (s_low - 1, s_low + s_len):
                    raise ValueError(f"{words[1]} does not extend {words[3]}")
                end = 0 if kind == s_low - 1 else 1
                return (Act.SEQ_ADD if w[0] == "add" else Act.TAKE_SEQ) + slot * 2 + end
        raise ValueError(f"the team has no sequence {words[3]}")
    return None

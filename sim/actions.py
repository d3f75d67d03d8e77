"""Readable action text, both ways: `draw`, `take 7 7`, `take 7 2`, `take 7 JK`,
`take onto 7s`, `decline`, `meld 7 7 7`, `meld 7 7 2`, `meld 7 7 JK`, `add 7 to 7s`,
`add 2 to 7s`, `add JK to 7s`, `discard 9`."""

from __future__ import annotations

from sim.cards import kind_name, parse_kind
from sim.enums import FIRST_NATURAL, LAST_NATURAL, Act, Kind

SYNTAX = "draw | take R R | take R 2 | take R JK | take onto Rs | decline | meld R R R | meld R R 2 | meld R R JK | add C to Rs | discard C"


class ActionTextError(ValueError):
    pass


def action_text(action: int) -> str:
    if action == Act.DRAW:
        return "draw"
    if action == Act.DECLINE:
        return "decline"
    if action in (Act.TAKE_PAIR, Act.TAKE_NAT_TWO, Act.TAKE_NAT_JOKER, Act.TAKE_ONTO):
        return {Act.TAKE_PAIR: "take pair", Act.TAKE_NAT_TWO: "take nat+2", Act.TAKE_NAT_JOKER: "take nat+JK", Act.TAKE_ONTO: "take onto meld"}[action]
    if Act.MELD <= action < Act.ADD_NAT:
        kind, v = divmod(action - Act.MELD, 3)
        k = kind_name(kind)
        return f"meld {k} {k} " + (k, "2", "JK")[v]
    for base, card in ((Act.ADD_NAT, None), (Act.ADD_TWO, "2"), (Act.ADD_JOKER, "JK")):
        if base <= action < base + 15:
            kind = action - base
            return f"add {card or kind_name(kind)} to {kind_name(kind)}s"
    if Act.DISCARD <= action < Act.N_ACTIONS:
        return f"discard {kind_name(action - Act.DISCARD)}"
    return f"<unknown action {action}>"


def action_text_with_top(action: int, top: int) -> str:
    """Take actions read better with the top card: `take 7 7`, `take 7 2`, `take onto 7s`."""
    if top < 0 or action not in (Act.TAKE_PAIR, Act.TAKE_NAT_TWO, Act.TAKE_NAT_JOKER, Act.TAKE_ONTO):
        return action_text(action)
    k = kind_name(top)
    return {
        Act.TAKE_PAIR: f"take {k} {k}",
        Act.TAKE_NAT_TWO: f"take {k} 2",
        Act.TAKE_NAT_JOKER: f"take {k} JK",
        Act.TAKE_ONTO: f"take onto {k}s",
    }[action]


def _rank_of_plural(tok: str) -> int:
    t = tok.strip()
    if t.lower().endswith("s") and len(t) > 1:
        t = t[:-1]
    return parse_kind(t)


def parse_action(text: str, top: int = -1) -> int:
    """Parse action text (case-insensitive); `top` is the pile's top kind, checked for takes."""
    words = text.strip().split()
    if not words:
        raise ActionTextError(f"empty action; write one of: {SYNTAX}")
    w0 = words[0].lower()
    try:
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
        raise ActionTextError(f"cannot read action {text!r}: the top discard is {kind_name(top)}, not {kind_name(kind)}")
    if not FIRST_NATURAL <= kind <= LAST_NATURAL:
        raise ActionTextError(f"cannot read action {text!r}: only a natural rank 4..A can be taken")

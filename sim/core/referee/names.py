"""The referee's vocabulary: the kinds it groups, the text of an action id and of a card, and
the error it raises at an illegal action.

The action texts are those of `sim.core.actions.action_text` (tests/test_referee.py checks every
action id), written out again here because the referee shares no code with the core.
"""

from __future__ import annotations

from sim.core.enums import FIRST_NATURAL, KIND_NAMES, LAST_NATURAL, N_ACTIONS, Act, End, Kind

NATURALS = tuple(range(FIRST_NATURAL, LAST_NATURAL + 1))  # kinds of the ranks 4..A
WILDS = (Kind.TWO, Kind.JOKER)
TAKES = (Act.TAKE_PAIR, Act.TAKE_NAT_TWO, Act.TAKE_NAT_JOKER, Act.TAKE_ONTO)
TAKE_SEQS = tuple(range(Act.TAKE_SEQ, N_ACTIONS))  # take the pile onto a sequence (Samba)
SUIT_NAMES = "CDHS"
END_NAMES = {
    End.RUNNING: "running",
    End.WENT_OUT: "went out",
    End.EXHAUSTED: "exhausted",
    End.RED3_LAST: "red three last",
    End.TURN_LIMIT: "turn limit",
}
_SIMPLE = {
    Act.DRAW: "draw",
    Act.TAKE_PAIR: "take pair",
    Act.TAKE_NAT_TWO: "take nat+2",
    Act.TAKE_NAT_JOKER: "take nat+JK",
    Act.TAKE_ONTO: "take onto meld",
    Act.DECLINE: "decline",
}


def action_name(action: int) -> str:
    """Readable text of an action id, e.g. 'meld 7 7 JK', 'add 2 to Ks', 'discard 9',
    'meld 4H 5H 6H', 'extend sequence 0 down', 'take onto sequence 1 up'."""
    a = int(action)
    if a in _SIMPLE:
        return _SIMPLE[a]
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
        return "meld " + " ".join(card_name(k, suit) for k in range(low, low + 3))
    if Act.SEQ_ADD <= a < Act.TAKE_SEQ:
        slot, end = divmod(a - Act.SEQ_ADD, 2)
        return f"extend sequence {slot} {('down', 'up')[end]}"
    if Act.TAKE_SEQ <= a < N_ACTIONS:
        slot, end = divmod(a - Act.TAKE_SEQ, 2)
        return f"take onto sequence {slot} {('down', 'up')[end]}"
    return f"<unknown action {a}>"


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

"""The kernels' status array: its codes, its slots and the invariant checks' codes, each
declared beside its text.

A self-play kernel reports how it stopped in a small int64 array `status` (the caller's, zeroed):
`status[Slot.CODE]` is a `Status` code; after `ILLEGAL` the `Illegal` slots say who chose what,
after `INVARIANT` the `Broken` slots say which check failed where (`Check`, text in CHECK_TEXT),
after `NO_WORLD` the `NoWorld` slots why no world could be dealt.  A kernel that plays
rollouts also says at which one it stopped (`Slot.ROLLOUT`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from sim.core.layout import code_table

if TYPE_CHECKING:  # the layouts' field names (stubs written by tests/layout_stubs.py)
    from sim.play.selfplay._layouts import CheckT, StatusT

Status: StatusT
Status, STATUS_TEXT = code_table(
    "StatusT",
    (
        ("OK", "finished"),
        ("ILLEGAL", "a strategy chose an illegal action"),
        ("INVARIANT", "--check found a broken invariant"),
        ("BUFFER", "a record buffer is too small: the caller reruns the chunk with larger ones"),
        ("NO_WORLD", "no world agrees with what the seat knows (a rollout could not deal)"),
    ),
)


class IllegalT(NamedTuple):
    """Slots of the status array after Status.ILLEGAL."""

    CODE: int = 0
    SEAT: int = 1  # engine seat that chose
    ACTION: int = 2
    WHY: int = 3  # sim.core.legal Why code, text in WHY_TEXT
    GAME: int = 4
    HAND: int = 5
    STRATEGY: int = 6  # strategy id (strategies.registry.STRATEGY_NAMES)


class BrokenT(NamedTuple):
    """Slots of the status array after Status.INVARIANT."""

    CODE: int = 0
    CHECK: int = 1  # Check code, text in CHECK_TEXT
    GAME: int = 2
    HAND: int = 3
    TURN: int = 4  # -1: before the first turn (a rollout: the dealt position itself)


class NoWorldT(NamedTuple):
    """Slots of the status array after Status.NO_WORLD."""

    CODE: int = 0
    ERROR: int = 1  # the world sampler's error code, text in sim.play.worlds.deal.ERROR_TEXT


class SlotT(NamedTuple):
    """Slots of the status array the kernels use in every case."""

    CODE: int = 0  # a Status code
    ROLLOUT: int = 7  # rollout kernels: the rollout at which they stopped
    SEAT_TABLE: int = 8  # [MAX_SEATS] the hand's engine seat -> table seat (scratch)
    CANDIDATE: int = 14  # sim.play.rollouts.actions: the candidate action's column
    SIZE: int = 16  # length of the status array


Illegal = IllegalT()
Broken = BrokenT()
NoWorld = NoWorldT()
Slot = SlotT()

Check: CheckT
Check, _CHECK_TEXTS = code_table(
    "CheckT",
    (
        ("FINE", "no invariant broken"),
        ("CARDS", "a card is missing or counted twice (card accounting)"),
        ("PILE_COUNTS", "the pile's kind counts do not match its cards"),
        ("PILE_FREEZE", "the frozen state or top card does not match the pile"),
        (
            "HAND_SIZE",
            "a hand size does not match the hand's cards (or a red three stayed in a hand)",
        ),
        ("EMPTY_HAND", "a hand reached zero cards without going out"),
        ("MELD", "an illegal meld is on the table"),
        ("NOT_OPENED", "a team has melds without having made its initial meld"),
        ("SCORE_PARTS", "the score breakdown does not add up"),
        ("MELDED_POINTS", "the melded points do not match the cards on the table"),
        ("DEAD_END", "the player to act has no legal action (dead end)"),
        ("SUITS", "a hand's suited card counts do not match its kind counts"),
        ("SEQUENCE", "an illegal sequence is on the table"),
        ("LOGGED_CANASTAS", "a decision row's canasta counts do not match the table"),
    ),
)
CHECK_TEXT: dict[int, str] = dict(enumerate(_CHECK_TEXTS))  # Check code -> what broke


def action_text_safe(action: int) -> str:
    """An action id as text for an error message; the bare number if it is no valid action."""
    try:
        from sim.core.actions import action_text

        return repr(action_text(action))
    except Exception:  # any failure: only for the message
        return str(action)

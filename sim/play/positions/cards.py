"""Card text of position files: card tokens, counts per kind, a meld, the error they raise.

Shared by the position format (`sim.play.positions.text`), its Samba parts (`.samba`) and the
last turns of other seats (`.last_turn`), which all read and write cards the same way.

Cards are rank tokens ``2 3 4 5 6 7 8 9 10 J Q K A`` or ``JK`` (joker), optionally with a suit
letter (``7h``, ``3S``) -- suits are ignored except for threes: ``3``, ``3C``, ``3S`` are black
threes; ``3D``, ``3H``, ``R3`` are red threes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from sim.core.enums import KIND_NAMES, N_KINDS, Kind
from sim.core.errors import CanastaError

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = [
    "PositionError",
    "Meld",
    "card_kind",
    "parse_cards",
    "cards_text",
    "pack_limits",
    "DISPLAY",
    "WILD",
    "MAX_WILD",
    "MIN_NATURALS",
    "CANASTA_SIZE",
]


class PositionError(CanastaError):
    """A position file or text that is malformed or describes an impossible position."""


MAX_WILD = 3
MIN_NATURALS = 2
CANASTA_SIZE = 7
DISPLAY = (13, 0, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 14)  # JK 2 A K ... 4 3 R3

_RANK_KIND = {
    "2": Kind.TWO,
    "4": Kind.FOUR,
    "5": Kind.FIVE,
    "6": Kind.SIX,
    "7": Kind.SEVEN,
    "8": Kind.EIGHT,
    "9": Kind.NINE,
    "10": Kind.TEN,
    "J": Kind.JACK,
    "Q": Kind.QUEEN,
    "K": Kind.KING,
    "A": Kind.ACE,
    "JK": Kind.JOKER,
    "R3": Kind.RED3,
}
WILD = (Kind.TWO, Kind.JOKER)


def card_kind(token: str) -> int:
    """Kind of a card token (see the module docstring)."""
    t = token.strip().upper()
    if t in ("JK", "JOKER", "R3"):
        return _RANK_KIND["JK" if t != "R3" else "R3"]
    rank, suit = (t[:-1], t[-1]) if len(t) >= 2 and t[-1] in "CDHS" else (t, "")
    if rank == "3":
        return Kind.RED3 if suit in ("D", "H") else Kind.BLACK3
    if rank in _RANK_KIND and rank not in ("JK", "R3"):
        return _RANK_KIND[rank]
    raise PositionError(
        f"unknown card {token!r} (use 2-10 J Q K A JK, optionally with a suit C D H S)"
    )


def parse_cards(text: str) -> np.ndarray:
    """Card tokens -> counts per kind."""
    counts = np.zeros(N_KINDS, np.int64)
    for tok in text.replace(",", " ").split():
        counts[card_kind(tok)] += 1
    return counts


def cards_text(counts: Sequence[int] | np.ndarray) -> str:
    """Counts per kind -> card tokens (jokers and twos first, black threes last)."""
    return " ".join(
        KIND_NAMES[k] if k != Kind.RED3 else "R3" for k in DISPLAY for _ in range(int(counts[k]))
    )


def pack_limits(decks: int) -> np.ndarray:
    lim = np.full(N_KINDS, 4 * decks, np.int64)
    lim[Kind.BLACK3] = 2 * decks
    lim[Kind.RED3] = 2 * decks
    lim[Kind.JOKER] = 2 * decks
    return lim


@dataclass
class Meld:
    kind: int  # natural rank kind
    naturals: int
    twos: int
    jokers: int

    @property
    def size(self) -> int:
        return self.naturals + self.twos + self.jokers

    @property
    def is_canasta(self) -> bool:
        return self.size >= CANASTA_SIZE

    def text(self) -> str:
        return " ".join(
            [KIND_NAMES[self.kind]] * self.naturals + ["2"] * self.twos + ["JK"] * self.jokers
        )

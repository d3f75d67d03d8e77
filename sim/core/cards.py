"""Card text: tokens like `AS 10H 3D 2C JK`, kinds, and stacked-deck files."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np

from sim.core.enums import JOKER_ID, KIND_NAMES, RANK_TOKENS, SUIT_TOKENS, Kind
from sim.core.errors import CanastaError
from sim.core.readers import make_code

RED_SUITS = (1, 2)  # diamonds, hearts


class DeckError(CanastaError):
    """A malformed or incomplete deck: one line naming the bad token or the missing card."""


def card_token(card_id: int) -> str:
    if card_id == JOKER_ID:
        return "JK"
    return RANK_TOKENS[card_id % 13] + SUIT_TOKENS[card_id // 13]


def parse_card(token: str) -> int:
    """'AS' / '10h' / 'jk' -> card id; raises DeckError naming the token."""
    t = token.strip().upper()
    if t in ("JK", "JOKER"):
        return JOKER_ID
    if len(t) >= 2 and t[-1] in SUIT_TOKENS and t[:-1] in RANK_TOKENS:
        return SUIT_TOKENS.index(t[-1]) * 13 + RANK_TOKENS.index(t[:-1])
    raise DeckError(
        f"bad card token {token!r}: write rank (2-10, J, Q, K, A) + suit (C, D, H, S), e.g. 10H, "
        "or JK"
    )


def kind_of_card(card_id: int) -> int:
    if card_id == JOKER_ID:
        return Kind.JOKER
    rank, suit = card_id % 13, card_id // 13
    if rank == 0:
        return Kind.TWO
    if rank == 1:
        return Kind.RED3 if suit in RED_SUITS else Kind.BLACK3
    return rank  # ranks 4..A are kinds 2..12


def kind_name(kind: int) -> str:
    return KIND_NAMES[kind]


def parse_kind(token: str) -> int:
    """'7', 'K', 'JK', '2', '3' (black three) -> kind; raises ValueError."""
    t = token.strip().upper()
    if t == "JOKER":
        t = "JK"
    if t in KIND_NAMES:
        return KIND_NAMES.index(t)
    raise ValueError(f"unknown card {token!r}: use 2-10, J, Q, K, A, JK, or 3 for a black three")


def full_deck_ids(decks: int) -> list[int]:
    return [c for _ in range(decks) for c in range(52)] + [JOKER_ID] * (2 * decks)


def parse_deck_text(text: str, decks: int) -> list[int]:
    """A stacked deck: every card of `decks` packs exactly once per pack, in dealing order."""
    tokens = [t for line in text.splitlines() for t in line.split("#", 1)[0].split()]
    ids = [parse_card(t) for t in tokens]
    want = Counter(full_deck_ids(decks))
    have = Counter(ids)
    for card, n in sorted(have.items()):
        if n > want[card]:
            raise DeckError(
                f"card {card_token(card)} appears {n} times; {decks} packs hold {want[card]}"
            )
    for card, n in sorted(want.items()):
        if have[card] < n:
            missing = n - have[card]
            raise DeckError(
                f"deck has {len(ids)} cards, needs {sum(want.values())}: missing {card_token(card)}"
                + (f" ({missing} times)" if missing > 1 else "")
            )
    return ids


DECK_FILE_BYTES = 100_000  # three packs of card tokens are about 1 kB


def read_deck_file(path: str | Path, decks: int) -> list[int]:
    from sim.core.textfile import read_small_text

    text = read_small_text(path, "deck file", DECK_FILE_BYTES, DeckError)
    p = Path(path)
    try:
        return parse_deck_text(text, decks)
    except DeckError as exc:
        raise DeckError(f"deck file {str(p)!r}: {exc}") from None


def card_code(card_id: int) -> int:
    """The engine's code of a card: kind | suit << 4 (jokers: kind only)."""
    if card_id == JOKER_ID:
        return Kind.JOKER
    return make_code(kind_of_card(card_id), card_id // 13)


def deck_codes(ids: list[int]) -> np.ndarray:
    return np.array([card_code(c) for c in ids], np.int32)

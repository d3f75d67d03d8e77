"""The Samba parts of a position file: suits, sequences, closed canastas.

Under rules with sequences (the ``samba`` preset) a position also gives

- the suit of every natural card in the hand (``hand: 7H 7S K K JK ...`` — natural ranks 4..A need
  a suit letter C D H S; wild cards and threes do not) and of the pile's top card
  (``pile_top: 9H`` or the last card of ``pile_cards``);
- each team's sequences: ``sequences us: 4H 5H 6H | 9S 10S JS QS`` (3 to 7 consecutive naturals
  of one suit, 4 up to ace; listed in the order they were laid, which numbers them for ``extend
  sequence N``);
- closed canastas as melds of ``canasta_size`` cards or more among ``melds us:`` (several of one
  rank allowed when ``multiple_melds_per_rank``; at most one open meld per rank).

The engine keeps only totals of closed canastas (per rank: how many, their naturals; per team:
their twos, jokers and natural canastas), so a position written from a hand splits those totals
into canastas (`closed_melds`): the same totals, a possible split.
"""

from __future__ import annotations

import numpy as np

from sim.core.enums import FIRST_NATURAL, KIND_NAMES, LAST_NATURAL, MAX_SEQS, N_KINDS, Kind, Off
from sim.play.positions.cards import DISPLAY, Meld, card_kind

__all__ = [
    "SUIT_LETTERS",
    "samba_keys",
    "top_suit_of",
    "check_suits",
    "parse_suited",
    "parse_sequences",
    "sequence_text",
    "suited_text",
    "closed_melds",
    "sequences_of",
]

SUIT_LETTERS = "CDHS"
MAX_SEQ_LEN = 7


def _suit_of(token: str) -> int:
    t = token.strip().upper()
    return (
        SUIT_LETTERS.index(t[-1])
        if len(t) >= 2 and t[-1] in SUIT_LETTERS and t not in ("JK",)
        else -1
    )


def parse_suited(text: str, label: str, error) -> tuple[np.ndarray, np.ndarray]:
    """Card tokens -> (counts per kind, suited naturals int64[4, 11]); every natural needs a
    suit."""

    counts = np.zeros(N_KINDS, np.int64)
    suits = np.zeros((4, 11), np.int64)
    for tok in text.replace(",", " ").split():
        k = card_kind(tok)
        counts[k] += 1
        if FIRST_NATURAL <= k <= LAST_NATURAL:
            s = _suit_of(tok)
            if s < 0:
                raise error(
                    f"{label}: {tok!r} needs a suit under Samba rules (sequences): e.g. {tok}H"
                )
            suits[s, k - FIRST_NATURAL] += 1
    return counts, suits


def top_suit(token: str, kind: int, samba: bool, error) -> int:
    """The suit of the pile's top card token (-1: none given; required for a natural under Samba;
    a joker's is 0, as the engine codes it)."""
    if kind == Kind.JOKER:
        return 0
    s = _suit_of(token)
    if samba and FIRST_NATURAL <= kind <= LAST_NATURAL and s < 0:
        raise error(
            f"pile top {token!r}: give its suit under Samba rules (sequences), e.g. {token}H"
        )
    return s


def parse_sequences(team: str, text: str, error) -> list[tuple[int, int, int]]:
    """``4H 5H 6H | 9S 10S JS`` -> [(suit, low kind, length)], in the order given."""

    out = []
    for part in (p for p in text.split("|") if p.strip()):
        toks = part.split()
        label = f"sequences {team}: {part.strip()!r}"
        kinds = [card_kind(t) for t in toks]
        suits = {_suit_of(t) for t in toks}
        if not 3 <= len(toks) <= MAX_SEQ_LEN:
            raise error(f"{label}: a sequence has 3 to {MAX_SEQ_LEN} cards")
        if (
            len(suits) != 1
            or -1 in suits
            or any(not FIRST_NATURAL <= k <= LAST_NATURAL for k in kinds)
        ):
            raise error(f"{label}: naturals 4..A of one suit, each with its suit letter")
        ks = sorted(kinds)
        if ks != list(range(ks[0], ks[0] + len(ks))):
            raise error(f"{label}: the ranks must follow each other")
        out.append((suits.pop(), ks[0], len(ks)))
    if len(out) > MAX_SEQS:
        raise error(f"sequences {team}: at most {MAX_SEQS} per team")
    return out


def suited_text(counts, suits) -> str:
    """Cards with suits for the naturals (wild cards first, then A down to 4, black threes)."""

    toks = []
    for k in DISPLAY:
        if FIRST_NATURAL <= k <= LAST_NATURAL:
            toks += [
                KIND_NAMES[k] + SUIT_LETTERS[s]
                for s in range(4)
                for _ in range(int(suits[s, k - FIRST_NATURAL]))
            ]
        else:
            toks += [KIND_NAMES[k] if k != Kind.RED3 else "R3"] * int(counts[k])
    return " ".join(toks)


def sequence_text(seq: tuple[int, int, int]) -> str:
    suit, low, n = seq
    return " ".join(KIND_NAMES[k] + SUIT_LETTERS[suit] for k in range(low, low + n))


def sequences_of(state: np.ndarray, team: int) -> list[tuple[int, int, int]]:
    out = []
    for q in range(MAX_SEQS):
        j = team * MAX_SEQS + q
        if state[Off.SEQ_LEN + j]:
            out.append(
                (
                    int(state[Off.SEQ_SUIT + j]),
                    int(state[Off.SEQ_LOW + j]),
                    int(state[Off.SEQ_LEN + j]),
                )
            )
    return out


def closed_melds(state: np.ndarray, team: int, size: int, max_wild: int):
    """The team's closed canastas as melds (sim.play.positions.text.Meld) with the engine's totals:
    per rank their number and naturals, per team their twos, jokers and natural canastas.  The
    wild cards go to the canastas of the ranks with the fewest naturals first."""

    melds = []
    for k in range(N_KINDS):
        c = int(state[Off.CLOSED_COUNT + team * N_KINDS + k])
        nat = int(state[Off.CLOSED_NAT + team * N_KINDS + k])
        for j in range(c):
            melds.append(Meld(k, nat // c + (1 if j < nat % c else 0), 0, 0))
    wild = [Kind.TWO] * int(state[Off.CLOSED_TWO + team]) + [Kind.JOKER] * int(
        state[Off.CLOSED_JOKER + team]
    )
    mixed = len(melds) - int(state[Off.CLOSED_NATURAL + team])
    order = sorted(melds, key=lambda m: m.naturals)[:mixed]
    for i, card in enumerate(wild):  # round robin over the mixed ones, at most max_wild each
        m = order[i % len(order)] if order else None
        if m is None or m.twos + m.jokers >= max_wild:
            m = min(order, key=lambda x: x.twos + x.jokers) if order else None
        if m is None:
            break
        if card == Kind.TWO:
            m.twos += 1
        else:
            m.jokers += 1
    return melds


def samba_keys(raw, ruleset, teams, error) -> dict:
    """hand_suits and sequences under rules with sequences (sim.play.positions.samba)."""
    if not ruleset.sequences:
        bad = [t for t in teams if f"sequences {t}" in raw]
        if bad:
            raise error(f"sequences {bad[0]}: sequences need rules with sequences (rules: samba)")
        return {}
    _, suits = parse_suited(raw.get("hand", ""), "hand", error)
    return {
        "hand_suits": suits,
        "sequences": [parse_sequences(t, raw.get(f"sequences {t}", ""), error) for t in teams],
    }


def top_suit_of(raw, top: int, error) -> int:
    if top < 0:
        return -1
    tok = (
        raw["pile_cards"].replace(",", " ").split()[-1]
        if "pile_cards" in raw
        else raw["pile_top"].split()[0]
    )
    return top_suit(tok, top, True, error)


def check_suits(pos, error) -> None:
    """Under Samba: no suited natural more often than the packs hold (hand, sequences, top)."""
    if pos.hand_suits is None:
        return
    suited = pos.hand_suits.copy()
    for q in (q for qs in pos.sequences or [] for q in qs):
        suited[q[0], q[1] - 2 : q[1] - 2 + q[2]] += 1
    if pos.pile_top_suit >= 0:
        suited[pos.pile_top_suit, pos.pile_top - 2] += 1
    over = np.argwhere(suited > pos.decks)
    if over.size:
        s, r = (int(x) for x in over[0])
        raise error(
            f"{KIND_NAMES[r + 2]}{'CDHS'[s]}: {int(suited[s, r])} seen but {pos.decks} packs hold "
            f"{pos.decks}"
        )

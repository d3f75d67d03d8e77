"""Position files: what one seat knows at one decision point, as text a person can type.

Format (docs/position-example.txt): one ``key: value`` per line; ``#`` starts a comment; blank
lines are ignored; keys are case-insensitive.  Cards are rank tokens ``2 3 4 5 6 7 8 9 10 J Q K
A`` or ``JK`` (joker), optionally with a suit letter (``7h``, ``3S``) -- suits are ignored except
for threes: ``3``, ``3C``, ``3S`` are black threes; ``3D``, ``3H``, ``R3`` are red threes (never
in a hand or a meld; laid red threes are counts).  Teams are named from the viewer's side: ``us``
(the team of ``me``), ``them`` and, with three teams, ``them2``.

    rules: classic             # rule preset (default classic)
    set: go_out_bonus=200; game_target=10000   # --set values, separated by ';'
    team_layout: 2x3           # six players only
    players: 4                 # 2..6 (required); with 5, the four seats of the hand, in turn order
    decks: 2                   # packs (default: the rules' own)
    me: 0                      # the viewer's seat (default 0); teams = seat % n_teams
    to_move: 0                 # seat whose turn it is (default: me)
    phase: draw                # draw (before drawing / taking) or meld (after it; default draw)
    hand: 7 7 K K JK 2 5 9 9 A
    melds us: 7 7 7 2 | K K K K K JK 2     # melds separated by |
    melds them: Q Q Q
    red3 us: 1                 # red threes laid (default 0)
    opened: us them            # teams that have made their initial meld (default: teams with melds)
    pile: 12                   # pile size (default 0, or the number of pile_cards)
    pile_top: 9                # required when the pile is not empty and pile_cards is not given
    pile_cards: 5 9 JK 7 9     # optional: the pile's known cards, bottom first (last = top);
                               # with pile: N > their number, the N - len lowest cards are unknown
    frozen: no                 # yes/no (default no; a wild card in the known pile implies yes)
    hand_sizes: 10 8 11 9      # one per seat, seat 0 first; hand_sizes[me] = len(hand)
    known 1: 10 10             # cards known to be in seat 1's hand (taken with the pile)
    stock: 43                  # cards left in the stock
    scores: 1250 980           # cumulative scores, us then them (default 0 0)
    turn: 17                   # 0-based turn number in the hand (optional)
    melded: 0 2                # seats that have melded this hand (decides concealed going out)
    last_discard: - 9 5 K      # per seat: the kind each seat discarded last, '-' for none
    last_turn 1: draw | melded 7 7 7 | discard 9    # another seat's last turn (last_turn.py):
    last_turn 3: take K K | took 5 K K | discard K   # for --infer; its discard sets last_discard
    # phase: meld only
    took_pile: no              # the seat to move took the pile this turn
    pending: 0                 # points laid this turn towards the team's unmade initial meld
    aside: 9 9 4               # pile cards held aside until that minimum is reached (viewer only)
    canastas_this_turn: 0      # canastas completed this turn by the seat to move
    melded_before: yes         # the seat to move had melded before this turn

Checks (each failure is a ValueError with a one-line message): known keys, well-formed cards
and numbers, seats in range, a meld has 3+ cards of one natural rank 4..A plus wild cards with
at least 2 naturals, at most 3 wild cards and no more wild cards than naturals, no threes in
melds, one meld per rank per team, no card kind more often than the packs hold, every seat's
known cards fit its hand, and stock + pile + hands + aside + melds + red threes = 54 * decks.
Samba: suits, sequences and closed canastas, see sim/play/positions/samba.py.  Five players: the
position describes the four who play the hand (seats 0..3 in turn order, teams alternate).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sim.core import limits
from sim.core.enums import KIND_NAMES, N_KINDS, Kind
from sim.play.positions.cards import (
    CANASTA_SIZE,
    MAX_WILD,
    MIN_NATURALS,
    WILD,
    Meld,
    PositionError,
    card_kind,
    cards_text,
    pack_limits,
    parse_cards,
)
from sim.play.positions.last_turn import last_turn_text, parse_last_turns
from sim.play.positions.samba import (
    check_suits,
    samba_keys,
    sequence_text,
    suited_text,
    top_suit_of,
)

__all__ = [
    "PositionError",
    "Position",
    "Meld",
    "parse_position",
    "load_position",
    "format_position",
    "parse_cards",
    "card_kind",
    "pack_limits",
    "TEAM_NAMES",
]


TEAM_NAMES = ("us", "them", "them2")


@dataclass
class Position:
    players: int
    decks: int
    me: int
    to_move: int
    hand: np.ndarray  # counts per kind
    melds: list[list[Meld]]  # per team index (0 = us)
    red3: list[int]
    pile_size: int
    pile_top: int  # kind or -1
    frozen: bool
    hand_sizes: list[int]
    stock: int
    scores: list[int]
    turn: int | None = None
    extra: dict = field(default_factory=dict)
    pile_cards: list[int] | None = None  # the pile's known (top) cards, bottom first
    melded: list[int] | None = None  # seats known to have melded this hand
    rules: str | None = None  # rule preset name
    overrides: dict = field(default_factory=dict)  # --set values (typed)
    team_layout: str | None = None
    phase: str = "draw"  # draw | meld
    opened: list[bool] | None = None  # per team; None: teams with melds
    known: dict = field(default_factory=dict)  # seat -> counts per kind known in its hand
    last_discard: list[int] | None = None  # per seat: kind or -1
    took_pile: bool = False
    pending: int = 0
    aside: np.ndarray | None = None  # counts per kind
    canastas_this_turn: int = 0
    melded_before: bool | None = None
    last_turns: dict = field(default_factory=dict)  # seat -> sim.play.positions.last_turn.LastTurn
    # Samba (sim.play.positions.samba): suits of the hand's naturals int64[4, 11], the top's suit,
    # each team's sequences [(suit, low kind, length)]
    hand_suits: np.ndarray | None = None
    pile_top_suit: int = -1
    sequences: list | None = None

    @property
    def n_teams(self) -> int:
        return len(self.melds)

    def team_of_seat(self, seat: int) -> int:
        """Team index from the viewer's side (0 = us)."""
        nt = self.n_teams
        return (seat % nt - self.me % nt) % nt

    def canastas(self, team: int) -> int:
        return sum(m.is_canasta for m in self.melds[team])

    def team_opened(self, team: int) -> bool:
        return self.opened[team] if self.opened is not None else bool(self.melds[team])

    @property
    def pile_hidden(self) -> int:
        """Pile cards below the known ones, whose kinds the viewer does not know."""
        if self.pile_cards:
            return self.pile_size - len(self.pile_cards)
        return max(self.pile_size - 1, 0)


# ----------------------------------------------------------------------------- parsing


MAX_BYTES = 100_000  # a position is a few hundred bytes; its file is refused beyond this
TURN_MAX = 10**6  # turns of a hand (a hand is refused long before that)
PENDING_MAX = 10**5  # points laid towards an unmade minimum (minimums are at most a few hundred)


def _int(key: str, value: str, lo: int | None = None, hi: int | None = None) -> int:
    text = value.strip()
    if len(text) > 30:  # never a number of a position; int() of a huge text is slow
        raise PositionError(f"{key}: {text[:20]!r}... is not a whole number")
    try:
        v = int(text)
    except ValueError:
        raise PositionError(f"{key}: {value!r} is not a whole number") from None
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        rng = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        raise PositionError(f"{key}: {v} is out of range ({rng})")
    return v


def _bool(key: str, value: str) -> bool:
    v = value.strip().lower()
    if v in ("yes", "y", "true", "1"):
        return True
    if v in ("no", "n", "false", "0"):
        return False
    raise PositionError(f"{key}: expected yes or no, got {value!r}")


def _meld(team: str, text: str, b3_range: tuple[int, int] = (0, 0)) -> Meld:
    c = parse_cards(text)
    label = f"meld {text.strip()!r} of {team}"
    if c[Kind.RED3]:
        raise PositionError(f"{label}: red threes are never melded (they are laid out: red3)")
    if c[Kind.BLACK3]:
        # black threes are melded only by a player going out, without wild cards (the rules'
        # black_threes_meld_min .. _max of them; min 0: never)
        lo, hi = b3_range
        if lo == 0:
            raise PositionError(f"{label}: these rules never meld black threes")
        if int(c.sum()) != int(c[Kind.BLACK3]) or not lo <= int(c[Kind.BLACK3]) <= hi:
            raise PositionError(
                f"{label}: a meld of black threes holds {lo} to {hi} of them and nothing else"
            )
        return Meld(Kind.BLACK3, int(c[Kind.BLACK3]), 0, 0)
    naturals = [k for k in range(N_KINDS) if c[k] and k not in WILD]
    if len(naturals) != 1:
        raise PositionError(f"{label}: a meld needs naturals of exactly one rank")
    k = naturals[0]
    m = Meld(k, int(c[k]), int(c[Kind.TWO]), int(c[Kind.JOKER]))
    wild = m.twos + m.jokers
    if m.size < 3:
        raise PositionError(f"{label}: a meld needs at least 3 cards")
    if m.naturals < MIN_NATURALS:
        raise PositionError(f"{label}: fewer than {MIN_NATURALS} naturals")
    if wild > MAX_WILD:
        raise PositionError(f"{label}: {wild} wild cards (at most {MAX_WILD})")
    if wild > m.naturals:
        raise PositionError(f"{label}: more wild cards than naturals")
    return m


KEYS = (
    {
        "players",
        "decks",
        "me",
        "to_move",
        "hand",
        "pile",
        "pile_top",
        "frozen",
        "hand_sizes",
        "stock",
        "scores",
        "turn",
        "pile_cards",
        "melded",
        "rules",
        "set",
        "team_layout",
        "phase",
        "opened",
        "last_discard",
        "took_pile",
        "pending",
        "aside",
        "canastas_this_turn",
        "melded_before",
    }
    | {f"melds {t}" for t in TEAM_NAMES}
    | {f"red3 {t}" for t in TEAM_NAMES}
    | {f"known {s}" for s in range(6)}
    | {f"last_turn {s}" for s in range(6)}
    | {f"sequences {t}" for t in TEAM_NAMES}
)
MELD_PHASE_KEYS = ("took_pile", "pending", "aside", "canastas_this_turn", "melded_before")


def _read_lines(text: str) -> dict[str, str]:
    raw: dict[str, str] = {}
    for lineno, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        key, colon, value = line.partition(":")
        if not colon:
            raise PositionError(f"line {lineno}: expected 'key: value', got {line!r}")
        key = " ".join(key.lower().split())
        for multi in (
            "to move",
            "pile top",
            "hand sizes",
            "pile cards",
            "team layout",
            "last discard",
            "took pile",
            "canastas this turn",
            "melded before",
            "last turn",
        ):
            key = key.replace(multi, multi.replace(" ", "_"))
        if key not in KEYS:
            raise PositionError(f"line {lineno}: unknown key {key!r}")
        if key in raw:
            raise PositionError(f"line {lineno}: {key!r} given twice")
        raw[key] = value.strip()
    return raw


def _parse_rules(raw: dict[str, str]) -> tuple[str | None, dict, str | None]:
    from sim.core.errors import CanastaError
    from sim.core.rules import parse_overrides

    items = [x.strip() for x in raw.get("set", "").split(";") if x.strip()]
    try:
        overrides = parse_overrides(items)
    except CanastaError as exc:
        raise PositionError(f"set: {exc}") from None
    return raw.get("rules") or None, overrides, raw.get("team_layout") or None


def _ruleset(name, players, layout, overrides):
    from sim.core.rules import RuleSet

    try:
        return RuleSet.preset(name or "classic", players, layout, **overrides)
    except (ValueError, TypeError) as exc:
        raise PositionError(f"rules: {str(exc).splitlines()[0]}") from None


def _parse_teams(raw, players, n_teams, decks, ruleset=None):
    teams = TEAM_NAMES[:n_teams]
    for t in TEAM_NAMES[n_teams:]:
        if f"melds {t}" in raw or f"red3 {t}" in raw:
            raise PositionError(f"team {t!r} does not exist with {players} players")
    melds: list[list[Meld]] = []
    for t in teams:
        b3 = (
            (ruleset.black_threes_meld_min, ruleset.black_threes_meld_max)
            if ruleset is not None
            else (0, 0)
        )
        ms = [_meld(t, part, b3) for part in raw.get(f"melds {t}", "").split("|") if part.strip()]
        multi = ruleset is not None and ruleset.multiple_melds_per_rank
        ranks = [
            m.kind for m in ms if not (multi and m.size >= ruleset.canasta_size)
        ]  # closed canastas
        dup = {r for r in ranks if ranks.count(r) > 1}
        if dup:
            raise PositionError(
                f"melds {t}: two open melds of {KIND_NAMES[min(dup)]}s (one per rank"
                + (", closed canastas aside)" if multi else ")")
            )
        melds.append(ms)
    red3 = [_int(f"red3 {t}", raw.get(f"red3 {t}", "0"), 0, 2 * decks) for t in teams]
    opened = None
    if "opened" in raw:
        names = raw["opened"].replace(",", " ").split()
        bad = [x for x in names if x.lower() not in teams and x != "-"]
        if bad:
            raise PositionError(f"opened: unknown team {bad[0]!r} (use {', '.join(teams)} or -)")
        opened = [t in [x.lower() for x in names] for t in teams]
    return melds, red3, opened


def _parse_pile(raw, decks):
    pile_cards = None
    if "pile_cards" in raw:
        pile_cards = [card_kind(t) for t in raw["pile_cards"].replace(",", " ").split()]
        if not pile_cards:
            raise PositionError(
                "pile_cards: list the pile's cards bottom first (or leave the key out)"
            )
        if pile_cards[-1] == Kind.RED3:
            raise PositionError("pile_cards: a red three is never the top card of the pile")
    size = (
        _int("pile", raw["pile"], 0, 54 * decks)
        if "pile" in raw
        else (len(pile_cards) if pile_cards else 0)
    )
    if pile_cards and size < len(pile_cards):
        raise PositionError(f"pile: {size} but pile_cards lists {len(pile_cards)} cards")
    top = -1
    if "pile_top" in raw:
        toks = raw["pile_top"].split()
        if len(toks) != 1:
            raise PositionError("pile_top: give exactly one card")
        top = card_kind(toks[0])
        if top == Kind.RED3:
            raise PositionError("pile_top: a red three is never on the pile")
    if pile_cards:
        if top >= 0 and top != pile_cards[-1]:
            raise PositionError(
                f"pile_top: {KIND_NAMES[top]} but pile_cards ends with {KIND_NAMES[pile_cards[-1]]}"
            )
        top = pile_cards[-1]
    if size > 0 and top < 0:
        raise PositionError("pile_top is required when the pile is not empty")
    if size == 0 and top >= 0:
        raise PositionError("pile_top given but the pile is empty (pile: 0)")
    frozen = _pile_frozen(raw, size, top, pile_cards)
    return size, top, frozen, pile_cards


def _pile_frozen(raw, size, top, pile_cards) -> bool:
    frozen = _bool("frozen", raw.get("frozen", "no"))
    if top in WILD:
        frozen = True
    if pile_cards:
        has_freezer = any(k in WILD or k == Kind.RED3 for k in pile_cards)
        complete = size == len(pile_cards)
        if (
            "frozen" in raw
            and frozen != has_freezer
            and top not in WILD
            and (complete or has_freezer)
        ):
            raise PositionError(
                f"frozen: {raw['frozen']} contradicts pile_cards "
                f"({'a' if has_freezer else 'no'} wild card or red three in the pile)"
            )
        frozen = has_freezer or (frozen and not complete)
    elif frozen and size == 1 and top not in WILD:
        raise PositionError("frozen: a pile of one natural card cannot be frozen")
    if size == 0 and frozen:
        raise PositionError("frozen: an empty pile cannot be frozen")
    return frozen


def _parse_seats(raw, players, me, hand, decks):
    """``players``: the seats in the hand (four of five players play each hand)."""
    if "hand_sizes" not in raw:
        raise PositionError("the position needs 'hand_sizes:' (one number per seat)")
    sizes = [
        _int("hand_sizes", v, 0, 54 * decks) for v in raw["hand_sizes"].replace(",", " ").split()
    ]
    if len(sizes) != players:
        raise PositionError(f"hand_sizes: {len(sizes)} numbers for {players} seats in the hand")
    if sizes[me] != int(hand.sum()):
        raise PositionError(
            f"hand_sizes: seat {me} (me) holds {sizes[me]} but the hand lists {int(hand.sum())} "
            "cards"
        )
    known = {}
    for s in range(6):
        if f"known {s}" not in raw:
            continue
        if s >= players or s == me:
            raise PositionError(
                f"known {s}: give the known cards of another seat 0..{players - 1} (not me)"
            )
        c = parse_cards(raw[f"known {s}"])
        if c[Kind.RED3]:
            raise PositionError(f"known {s}: red threes never stay in a hand")
        if c.sum() > sizes[s]:
            raise PositionError(
                f"known {s}: {int(c.sum())} cards known but seat {s} holds {sizes[s]}"
            )
        known[s] = c
    last = None
    if "last_discard" in raw:
        toks = raw["last_discard"].replace(",", " ").split()
        if len(toks) != players:
            raise PositionError(
                f"last_discard: {len(toks)} entries for {players} seats (use - for none)"
            )
        last = [-1 if t == "-" else card_kind(t) for t in toks]
        if Kind.RED3 in last:
            raise PositionError("last_discard: a red three is never discarded")
    turns = parse_last_turns(raw, players, me, last, PositionError)
    if turns:
        last = last or [-1] * players
        for s, lt in turns.items():
            last[s] = lt.discard
    melded = None
    if "melded" in raw:
        listed = [
            _int("melded", v, 0, players - 1)
            for v in raw["melded"].replace(",", " ").split()
            if v != "-"
        ]
        twice = sorted({s for s in listed if listed.count(s) > 1})
        if twice:
            raise PositionError(f"melded: seat {twice[0]} is listed twice")
        melded = sorted(listed)
    return sizes, known, last, melded, turns


def _parse_turn_state(raw, phase: str) -> dict:
    if phase == "draw":
        extra = [k for k in MELD_PHASE_KEYS if k in raw]
        if extra:
            raise PositionError(
                f"{extra[0]}: only with phase: meld (after drawing or taking the pile)"
            )
        return {}
    aside = parse_cards(raw["aside"]) if "aside" in raw else None
    if aside is not None and aside[Kind.RED3]:
        raise PositionError("aside: red threes from the pile are laid at once")
    out = {
        "took_pile": _bool("took_pile", raw.get("took_pile", "no")),
        "pending": _int("pending", raw.get("pending", "0"), 0, PENDING_MAX),
        "aside": aside if aside is not None and aside.sum() else None,
        "canastas_this_turn": _int("canastas_this_turn", raw.get("canastas_this_turn", "0"), 0, 20),
    }
    if "melded_before" in raw:
        out["melded_before"] = _bool("melded_before", raw["melded_before"])
    if out["aside"] is not None and not out["took_pile"]:
        raise PositionError(
            "aside: cards are held aside only after taking the pile (took_pile: yes)"
        )
    return out


def parse_position(text: str) -> Position:
    """Parse and validate a position (see the module docstring); PositionError (one line) for
    anything that is not a possible position."""
    if not isinstance(text, str):
        got = "None" if text is None else type(text).__name__
        raise PositionError(f"parse_position needs the position's text (a str), got {got}")
    if len(text) > MAX_BYTES:
        raise PositionError(f"a position of {len(text):,} characters; at most {MAX_BYTES:,}")
    raw = _read_lines(text.removeprefix("\ufeff"))
    if "players" not in raw:
        raise PositionError("the position needs 'players: N'")
    players = _int("players", raw["players"], 2, 6)
    rules, overrides, layout = _parse_rules(raw)
    ruleset = _ruleset(rules, players, layout, overrides)
    seats, n_teams = ruleset.n_active, ruleset.n_teams  # five players: four play each hand
    decks = _int("decks", raw.get("decks", str(ruleset.decks)), 1, 3)
    me = _int("me", raw.get("me", "0"), 0, seats - 1)
    to_move = _int("to_move", raw.get("to_move", str(me)), 0, seats - 1)
    phase = raw.get("phase", "draw").strip().lower()
    if phase not in ("draw", "meld"):
        raise PositionError(
            f"phase: {phase!r}; use draw (before drawing or taking) or meld (after it)"
        )
    samba = samba_keys(raw, ruleset, TEAM_NAMES[:n_teams], PositionError)
    hand = parse_cards(raw.get("hand", ""))
    if hand[Kind.RED3]:
        raise PositionError("hand: red threes are laid at once, they cannot stay in a hand")
    melds, red3, opened = _parse_teams(raw, players, n_teams, decks, ruleset)
    pile_size, pile_top, frozen, pile_cards = _parse_pile(raw, decks)
    sizes, known, last, melded, turns = _parse_seats(raw, seats, me, hand, decks)
    if "stock" not in raw:
        raise PositionError("the position needs 'stock: N' (cards left in the stock)")
    stock = _int("stock", raw["stock"], 0, 54 * decks)
    lo, hi = limits.CUM_SCORE
    scores = [
        _int("scores", v, lo, hi) for v in raw.get("scores", " ".join(["0"] * n_teams)).split()
    ]
    if len(scores) != n_teams:
        raise PositionError(f"scores: {len(scores)} numbers for {n_teams} teams")
    turn = _int("turn", raw["turn"], 0, TURN_MAX) if "turn" in raw else None
    pos = Position(
        players,
        decks,
        me,
        to_move,
        hand,
        melds,
        red3,
        pile_size,
        pile_top,
        frozen,
        sizes,
        stock,
        scores,
        turn,
        pile_cards=pile_cards,
        melded=melded,
        rules=rules,
        overrides=overrides,
        team_layout=layout,
        phase=phase,
        opened=opened,
        known=known,
        last_discard=last,
        last_turns=turns,
        **samba,
        **_parse_turn_state(raw, phase),
    )
    if pos.sequences is not None:
        pos.pile_top_suit = top_suit_of(raw, pile_top, PositionError)
    _check_position(pos)
    return pos


def _check_position(pos: Position) -> None:
    """The checks across keys: card accounting, who can have melded or opened."""
    seen = pos.hand.copy()
    for ms in pos.melds:
        for m in ms:
            seen[m.kind] += m.naturals
            seen[Kind.TWO] += m.twos
            seen[Kind.JOKER] += m.jokers
    seen[Kind.RED3] += sum(pos.red3)
    for seq in (q for qs in pos.sequences or [] for q in qs):
        seen[seq[1] : seq[1] + seq[2]] += 1
    for k in pos.pile_cards or ([pos.pile_top] if pos.pile_top >= 0 else []):
        seen[k] += 1
    for c in pos.known.values():
        seen += c
    aside = 0 if pos.aside is None else int(pos.aside.sum())
    if pos.aside is not None:
        seen += pos.aside
    lim = pack_limits(pos.decks)
    over = np.flatnonzero(seen > lim)
    if over.size:
        k = int(over[0])
        raise PositionError(
            f"{KIND_NAMES[k]}: {int(seen[k])} cards seen but {pos.decks} packs hold {int(lim[k])}"
        )
    melded = sum(m.size for ms in pos.melds for m in ms) + sum(
        q[2] for qs in pos.sequences or [] for q in qs
    )
    check_suits(pos, PositionError)
    total = pos.stock + pos.pile_size + sum(pos.hand_sizes) + aside + melded + sum(pos.red3)
    if total != 54 * pos.decks:
        raise PositionError(
            f"cards do not add up: stock {pos.stock} + pile {pos.pile_size} + hands "
            f"{sum(pos.hand_sizes)} "
            + (f"+ aside {aside} " if aside else "")
            + f"+ melds {melded} + red threes {sum(pos.red3)} = {total}, but {pos.decks} packs "
            f"hold {54 * pos.decks}"
        )
    if aside and pos.pile_size:
        raise PositionError(
            "aside: cards are held aside right after taking the pile, so the pile is empty"
        )
    mover_team = pos.team_of_seat(pos.to_move)
    for t in range(pos.n_teams):
        if (
            pos.melds[t]
            and not pos.team_opened(t)
            and not (t == mover_team and pos.phase == "meld" and pos.pending > 0)
        ):
            raise PositionError(
                f"opened: team {TEAM_NAMES[t]} has melds on the table, so it has opened "
                "(only the team to move can have melds before reaching its minimum: pending: N)"
            )
    for t in range(pos.n_teams):
        if any(m.kind == Kind.BLACK3 for m in pos.melds[t]) and not (
            t == mover_team and pos.phase == "meld"
        ):
            raise PositionError(
                f"melds {TEAM_NAMES[t]}: black threes are melded only by a player going out, "
                "so only the team to move can have them on the table, in its meld phase"
            )
    if pos.pending and not _on_table(pos, mover_team):
        raise PositionError(
            "pending: points laid this turn need melds of the team to move on the table"
        )
    for s in pos.melded or []:
        if not _on_table(pos, pos.team_of_seat(s)):
            raise PositionError(
                f"melded: seat {s} cannot have melded, its team has no melds on the table"
            )
    _check_table(pos, mover_team, lim)


def _on_table(pos: Position, team: int) -> bool:
    """Whether ``team`` has anything melded on the table: melds or (Samba) sequences."""
    return bool(pos.melds[team]) or bool(pos.sequences is not None and pos.sequences[team])


def _table_counts(pos: Position, team: int) -> np.ndarray:
    """Cards of each kind in the team's melds (and sequences) on the table."""
    c = np.zeros(N_KINDS, np.int64)
    for m in pos.melds[team]:
        c[m.kind] += m.naturals
        c[Kind.TWO] += m.twos
        c[Kind.JOKER] += m.jokers
    for seq in (pos.sequences or [[]] * pos.n_teams)[team]:
        c[seq[1] : seq[1] + seq[2]] += 1
    return c


def _canastas(pos: Position, team: int) -> int:
    return sum(m.is_canasta for m in pos.melds[team]) + sum(
        q[2] >= CANASTA_SIZE for q in (pos.sequences or [[]] * pos.n_teams)[team]
    )


def _check_table(pos: Position, mover_team: int, lim: np.ndarray) -> None:
    """What the table shows against what the position claims happened: a team that opened has
    melds, canastas completed this turn are canastas of the team to move, a seat's last turn
    melded no more than its team has on the table and took no more than the packs hold."""
    for t in range(pos.n_teams):
        if pos.opened is not None and pos.opened[t] and not _on_table(pos, t):
            raise PositionError(
                f"opened: team {TEAM_NAMES[t]} has opened but has no melds on the table "
                "(melds stay on the table once laid)"
            )
    if pos.canastas_this_turn > _canastas(pos, mover_team):
        raise PositionError(
            f"canastas_this_turn: {pos.canastas_this_turn} but the team to move has "
            f"{_canastas(pos, mover_team)} canastas on the table"
        )
    for s, lt in pos.last_turns.items():
        team = pos.team_of_seat(s)
        table = _table_counts(pos, team)
        over = np.flatnonzero(lt.melded > table)
        if over.size:
            k = int(over[0])
            raise PositionError(
                f"last_turn {s}: melded {int(lt.melded[k])} {KIND_NAMES[k]} but its team has "
                f"{int(table[k])} on the table (melds stay on the table)"
            )
        if lt.took:
            took = np.bincount(np.asarray(lt.took, np.int64), minlength=N_KINDS)
            over = np.flatnonzero(took > lim)
            if over.size or len(lt.took) > 54 * pos.decks:
                k = int(over[0]) if over.size else int(np.argmax(took))
                raise PositionError(
                    f"last_turn {s}: took {int(took[k])} {KIND_NAMES[k]} but "
                    f"{pos.decks} packs hold {int(lim[k])}"
                )


def load_position(path) -> Position:
    """The position in the file at `path` (see the module docstring); PositionError (one line
    naming the file) for a missing file, a folder, a file too large or not text, and every
    error of `parse_position`."""
    from sim.core.textfile import read_small_text

    text = read_small_text(path, "position file", MAX_BYTES, PositionError)
    p = Path(path)
    try:
        return parse_position(text)
    except PositionError as exc:  # name the file: the parser only knows the line
        raise PositionError(f"{p}: {exc}") from None


# ----------------------------------------------------------------------------- writing


def _set_text(overrides: dict) -> str:
    parts = []
    for name, v in overrides.items():
        if isinstance(v, bool):
            val = "yes" if v else "no"
        elif name == "minimum_bands":
            val = ",".join(f"{a}:{m}" for a, m in v)
        elif isinstance(v, (tuple, list)):
            val = ",".join(str(x) for x in v)
        else:
            val = str(v)
        parts.append(f"{name}={val}")
    return "; ".join(parts)


def _hand_text(pos: Position) -> str:
    if pos.hand_suits is None:
        return cards_text(pos.hand)
    return suited_text(pos.hand, pos.hand_suits)


def format_position(pos: Position) -> str:
    """The text of ``pos`` (parse_position reads it back)."""
    teams = TEAM_NAMES[: pos.n_teams]
    out = [f"# {pos.players} players, seen by seat {pos.me}"]
    if pos.rules:
        out.append(f"rules: {pos.rules}")
    if pos.overrides:
        out.append(f"set: {_set_text(pos.overrides)}")
    if pos.team_layout:
        out.append(f"team_layout: {pos.team_layout}")
    out += [
        f"players: {pos.players}",
        f"decks: {pos.decks}",
        f"me: {pos.me}",
        f"to_move: {pos.to_move}",
        f"phase: {pos.phase}",
        f"hand: {_hand_text(pos)}",
    ]
    for t, name in enumerate(teams):
        if pos.melds[t]:
            out.append(f"melds {name}: " + " | ".join(m.text() for m in pos.melds[t]))
        if pos.sequences and pos.sequences[t]:
            out.append(
                f"sequences {name}: " + " | ".join(sequence_text(q) for q in pos.sequences[t])
            )
        if pos.red3[t]:
            out.append(f"red3 {name}: {pos.red3[t]}")
    out.append("opened: " + (" ".join(n for t, n in enumerate(teams) if pos.team_opened(t)) or "-"))
    out.append(f"pile: {pos.pile_size}")
    suit = (
        "CDHS"[pos.pile_top_suit] if pos.pile_top_suit >= 0 and pos.pile_top != Kind.JOKER else ""
    )
    if pos.pile_cards:
        out.append(
            "pile_cards: "
            + " ".join(KIND_NAMES[k] if k != Kind.RED3 else "R3" for k in pos.pile_cards)
            + suit
        )
    elif pos.pile_top >= 0:
        out.append(f"pile_top: {KIND_NAMES[pos.pile_top]}{suit}")
    out.append(f"frozen: {'yes' if pos.frozen else 'no'}")
    out.append("hand_sizes: " + " ".join(str(x) for x in pos.hand_sizes))
    for s, c in sorted(pos.known.items()):
        if c.sum():
            out.append(f"known {s}: {cards_text(c)}")
    out += [f"stock: {pos.stock}", "scores: " + " ".join(str(x) for x in pos.scores)]
    if pos.turn is not None:
        out.append(f"turn: {pos.turn}")
    if pos.melded is not None:
        out.append("melded: " + (" ".join(str(s) for s in pos.melded) or "-"))
    if pos.last_discard is not None:
        out.append(
            "last_discard: " + " ".join("-" if k < 0 else KIND_NAMES[k] for k in pos.last_discard)
        )
    if pos.last_turns:
        out += [f"last_turn {s}: {last_turn_text(lt)}" for s, lt in sorted(pos.last_turns.items())]
    if pos.phase == "meld":
        out += [
            f"took_pile: {'yes' if pos.took_pile else 'no'}",
            f"pending: {pos.pending}",
            f"canastas_this_turn: {pos.canastas_this_turn}",
        ]
        if pos.aside is not None:
            out.append(f"aside: {cards_text(pos.aside)}")
        if pos.melded_before is not None:
            out.append(f"melded_before: {'yes' if pos.melded_before else 'no'}")
    return "\n".join(out) + "\n"

"""Position files for ``canasta odds --position FILE --rollouts N``: format, parser, checks.

Format: one ``key: value`` per line; ``#`` starts a comment; blank lines are ignored; keys are
case-insensitive.  Cards are rank tokens ``2 3 4 5 6 7 8 9 10 J Q K A`` or ``JK`` (joker),
optionally with a suit letter (``7h``, ``3S``) -- suits are ignored except for threes:
``3``, ``3C``, ``3S`` are black threes; ``3D``, ``3H``, ``R3`` are red threes (never allowed in a
hand or a meld; laid red threes are counts).  Teams are named from the viewer's side: ``us``
(the team of ``me``), ``them`` and, with three teams, ``them2``.

    # a 4-player classic position, seen by seat 0
    players: 4                 # 2..6 (required)
    decks: 2                   # packs (default 2, 3 with 5-6 players)
    me: 0                      # the viewer's seat (default 0); teams = seat % n_teams
    to_move: 0                 # seat whose turn it is (default: me)
    hand: 7 7 K K JK 2 5 9 9 A
    melds us: 7 7 7 2 | K K K K K JK 2     # melds separated by |
    melds them: Q Q Q
    red3 us: 1                 # red threes laid (default 0)
    red3 them: 0
    pile: 12                   # pile size (default 0)
    pile_top: 9                # required when the pile is not empty
    frozen: no                 # yes/no (default no; a wild card on top implies yes)
    hand_sizes: 10 8 11 9      # one per seat, seat 0 first; hand_sizes[me] = len(hand)
    stock: 43                  # cards left in the stock
    scores: 1250 980           # cumulative scores, us then them (default 0 0)
    turn: 17                   # turn number in the hand (optional)
    pile_cards: 5 9 JK 7 9     # optional: the whole pile, bottom first (last = top)
    melded: 0                  # optional: seats that have melded before this turn (default:
                               # none, except a one-seat team with melds on the table)

Checks (each failure is a ValueError with a one-line message): known keys, well-formed cards
and numbers, seats in range, a meld has 3+ cards of one natural rank 4..A plus wild cards with
at least 2 naturals, at most 3 wild cards and no more wild cards than naturals, no threes in
melds, one meld per rank per team, no card kind more often than the packs hold
(counting hand, melds, red threes and the known pile cards), and cards in stock + pile + hands +
melds + red threes = 54 * decks.  With ``pile_cards`` the pile size and top follow from it (if
``pile``/``pile_top`` are given too they must agree) and ``frozen`` is derived (a wild card or red
three in it freezes it); a red three is never its top card.

Rollouts (``rollout``) deal the unseen cards at random (see ``sim.play.rollout`` for the rules of that
random completion) and play the hand out with the chosen strategies.  ``n_teams`` is 2 for 2, 4 and 6 players, 3 for 3 players;
5 players are refused (the sit-out rotation makes "whose seat" ambiguous).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from sim.core.enums import KIND_NAMES, N_KINDS, Kind

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Position", "RolloutResult", "parse_position", "load_position", "parse_cards", "rollout"]

TEAM_NAMES = ("us", "them", "them2")
MAX_WILD = 3
MIN_NATURALS = 2
CANASTA_SIZE = 7

_RANK_KIND = {
    "2": Kind.TWO, "4": Kind.FOUR, "5": Kind.FIVE, "6": Kind.SIX, "7": Kind.SEVEN,
    "8": Kind.EIGHT, "9": Kind.NINE, "10": Kind.TEN, "J": Kind.JACK, "Q": Kind.QUEEN,
    "K": Kind.KING, "A": Kind.ACE, "JK": Kind.JOKER, "R3": Kind.RED3,
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
    raise ValueError(f"unknown card {token!r} (use 2-10 J Q K A JK, optionally with a suit C D H S)")


def parse_cards(text: str) -> np.ndarray:
    """Card tokens -> counts per kind."""
    counts = np.zeros(N_KINDS, np.int64)
    for tok in text.replace(",", " ").split():
        counts[card_kind(tok)] += 1
    return counts


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
    pile_cards: list[int] | None = None  # the whole pile, bottom first, when listed
    melded: list[int] | None = None  # seats known to have melded before this turn

    @property
    def n_teams(self) -> int:
        return len(self.melds)

    def team_of_seat(self, seat: int) -> int:
        """Team index from the viewer's side (0 = us)."""
        nt = self.n_teams
        return (seat % nt - self.me % nt) % nt

    def canastas(self, team: int) -> int:
        return sum(m.is_canasta for m in self.melds[team])


def _int(key: str, value: str, lo: int | None = None, hi: int | None = None) -> int:
    try:
        v = int(value)
    except ValueError:
        raise ValueError(f"{key}: {value!r} is not a whole number") from None
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        rng = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        raise ValueError(f"{key}: {v} is out of range ({rng})")
    return v


def _bool(key: str, value: str) -> bool:
    v = value.strip().lower()
    if v in ("yes", "y", "true", "1"):
        return True
    if v in ("no", "n", "false", "0"):
        return False
    raise ValueError(f"{key}: expected yes or no, got {value!r}")


def _meld(team: str, text: str) -> Meld:
    c = parse_cards(text)
    label = f"meld {text.strip()!r} of {team}"
    if c[Kind.BLACK3] or c[Kind.RED3]:
        raise ValueError(f"{label}: threes cannot be melded here")
    naturals = [k for k in range(N_KINDS) if c[k] and k not in WILD]
    if len(naturals) != 1:
        raise ValueError(f"{label}: a meld needs naturals of exactly one rank")
    k = naturals[0]
    m = Meld(k, int(c[k]), int(c[Kind.TWO]), int(c[Kind.JOKER]))
    wild = m.twos + m.jokers
    if m.size < 3:
        raise ValueError(f"{label}: a meld needs at least 3 cards")
    if m.naturals < MIN_NATURALS:
        raise ValueError(f"{label}: fewer than {MIN_NATURALS} naturals")
    if wild > MAX_WILD:
        raise ValueError(f"{label}: {wild} wild cards (at most {MAX_WILD})")
    if wild > m.naturals:
        raise ValueError(f"{label}: more wild cards than naturals")
    return m


KEYS = {
    "players", "decks", "me", "to_move", "hand", "pile", "pile_top", "frozen", "hand_sizes",
    "stock", "scores", "turn", "pile_cards", "melded",
} | {f"melds {t}" for t in TEAM_NAMES} | {f"red3 {t}" for t in TEAM_NAMES}


def parse_position(text: str) -> Position:
    """Parse and validate a position (see the module docstring)."""
    raw: dict[str, str] = {}
    for lineno, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        key, colon, value = line.partition(":")
        key = " ".join(key.lower().replace("_", " ").split()).replace("to move", "to_move")
        key = key.replace("pile top", "pile_top").replace("hand sizes", "hand_sizes")
        key = key.replace("pile cards", "pile_cards")
        if not colon:
            raise ValueError(f"line {lineno}: expected 'key: value', got {line!r}")
        if key not in KEYS:
            raise ValueError(f"line {lineno}: unknown key {key!r}")
        if key in raw:
            raise ValueError(f"line {lineno}: {key!r} given twice")
        raw[key] = value.strip()
    if "players" not in raw:
        raise ValueError("the position needs 'players: N'")
    players = _int("players", raw["players"], 2, 6)
    if players == 5:
        raise ValueError("players: 5-player positions are not supported (sit-out rotation)")
    n_teams = 2 if players in (2, 4, 6) else 3
    decks = _int("decks", raw.get("decks", "3" if players >= 5 else "2"), 1, 3)
    me = _int("me", raw.get("me", "0"), 0, players - 1)
    to_move = _int("to_move", raw.get("to_move", str(me)), 0, players - 1)
    hand = parse_cards(raw.get("hand", ""))
    if hand[Kind.RED3]:
        raise ValueError("hand: red threes are laid at once, they cannot stay in a hand")
    teams = TEAM_NAMES[:n_teams]
    for t in TEAM_NAMES[n_teams:]:
        if f"melds {t}" in raw or f"red3 {t}" in raw:
            raise ValueError(f"team {t!r} does not exist with {players} players")
    melds: list[list[Meld]] = []
    for t in teams:
        ms = [_meld(t, part) for part in raw.get(f"melds {t}", "").split("|") if part.strip()]
        ranks = [m.kind for m in ms]
        dup = {r for r in ranks if ranks.count(r) > 1}
        if dup:
            raise ValueError(f"melds {t}: two melds of {KIND_NAMES[min(dup)]}s (one meld per rank)")
        melds.append(ms)
    red3 = [_int(f"red3 {t}", raw.get(f"red3 {t}", "0"), 0, 2 * decks) for t in teams]
    pile_cards = None
    if "pile_cards" in raw:
        pile_cards = [card_kind(t) for t in raw["pile_cards"].replace(",", " ").split()]
        if not pile_cards:
            raise ValueError("pile_cards: list the pile's cards bottom first (or leave the key out)")
        if "pile" in raw and _int("pile", raw["pile"], 0) != len(pile_cards):
            raise ValueError(f"pile: {raw['pile']} but pile_cards lists {len(pile_cards)} cards")
    pile_size = len(pile_cards) if pile_cards else _int("pile", raw.get("pile", "0"), 0, 54 * decks)
    pile_top = -1
    if "pile_top" in raw:
        toks = raw["pile_top"].split()
        if len(toks) != 1:
            raise ValueError("pile_top: give exactly one card")
        pile_top = card_kind(toks[0])
        if pile_top == Kind.RED3:
            raise ValueError("pile_top: a red three is never on the pile")
    if pile_cards:
        if pile_top >= 0 and pile_top != pile_cards[-1]:
            raise ValueError(f"pile_top: {KIND_NAMES[pile_top]} but pile_cards ends with {KIND_NAMES[pile_cards[-1]]}")
        pile_top = pile_cards[-1]
        if pile_top == Kind.RED3:
            raise ValueError("pile_cards: a red three is never the top card of the pile")
    if pile_size > 0 and pile_top < 0:
        raise ValueError("pile_top is required when the pile is not empty")
    if pile_size == 0 and pile_top >= 0:
        raise ValueError("pile_top given but the pile is empty (pile: 0)")
    frozen = _bool("frozen", raw.get("frozen", "no"))
    if pile_top in WILD:
        frozen = True
    if pile_cards:
        has_freezer = any(k in WILD or k == Kind.RED3 for k in pile_cards)
        if "frozen" in raw and frozen != has_freezer and pile_top not in WILD:
            raise ValueError(f"frozen: {raw['frozen']} contradicts pile_cards "
                             f"({'a' if has_freezer else 'no'} wild card or red three in the pile)")
        frozen = has_freezer
    elif frozen and pile_size == 1 and pile_top not in WILD:
        raise ValueError("frozen: a pile of one natural card cannot be frozen")
    if pile_size == 0 and frozen:
        raise ValueError("frozen: an empty pile cannot be frozen")
    if "hand_sizes" not in raw:
        raise ValueError("the position needs 'hand_sizes:' (one number per seat)")
    sizes = [_int("hand_sizes", v, 0, 54 * decks) for v in raw["hand_sizes"].replace(",", " ").split()]
    if len(sizes) != players:
        raise ValueError(f"hand_sizes: {len(sizes)} numbers for {players} players")
    if sizes[me] != int(hand.sum()):
        raise ValueError(f"hand_sizes: seat {me} (me) holds {sizes[me]} but the hand lists {int(hand.sum())} cards")
    stock = _int("stock", raw.get("stock", "-1"), 0, 54 * decks) if "stock" in raw else None
    if stock is None:
        raise ValueError("the position needs 'stock: N' (cards left in the stock)")
    scores = [_int("scores", v) for v in raw.get("scores", " ".join(["0"] * n_teams)).split()]
    if len(scores) != n_teams:
        raise ValueError(f"scores: {len(scores)} numbers for {n_teams} teams")
    turn = _int("turn", raw["turn"], 0) if "turn" in raw else None
    melded_seats = None
    if "melded" in raw:
        melded_seats = sorted({_int("melded", v, 0, players - 1) for v in raw["melded"].replace(",", " ").split()})

    # card accounting
    seen = hand.copy()
    for ms in melds:
        for m in ms:
            seen[m.kind] += m.naturals
            seen[Kind.TWO] += m.twos
            seen[Kind.JOKER] += m.jokers
    seen[Kind.RED3] += sum(red3)
    if pile_cards:
        for k in pile_cards:
            seen[k] += 1
    elif pile_top >= 0:
        seen[pile_top] += 1
    lim = pack_limits(decks)
    over = np.flatnonzero(seen > lim)
    if over.size:
        k = int(over[0])
        raise ValueError(f"{KIND_NAMES[k]}: {int(seen[k])} cards seen but {decks} packs hold {int(lim[k])}")
    melded = sum(m.size for ms in melds for m in ms)
    total = stock + pile_size + sum(sizes) + melded + sum(red3)
    if total != 54 * decks:
        raise ValueError(
            f"cards do not add up: stock {stock} + pile {pile_size} + hands {sum(sizes)} + melds "
            f"{melded} + red threes {sum(red3)} = {total}, but {decks} packs hold {54 * decks}"
        )
    if melded_seats:
        for s in melded_seats:
            t = (s % n_teams - me % n_teams) % n_teams
            if not melds[t]:
                raise ValueError(f"melded: seat {s} cannot have melded, its team has no melds on the table")
    return Position(players, decks, me, to_move, hand, melds, red3, pile_size, pile_top, frozen,
                    sizes, stock, scores, turn, pile_cards=pile_cards, melded=melded_seats)


def load_position(path) -> Position:
    p = Path(path)
    if not p.is_file():
        raise ValueError(f"position file {p} not found")
    return parse_position(p.read_text())


@dataclass
class RolloutResult:
    """Tables of `rollout` (teams named from the viewer's side: us, them, them2).

    teams:   team, seats, P(the hand ends by this team going out) with its Wilson 95% CI,
             expected hand score with its 95% t CI.
    within:  team, k, P(this team goes out within k turns) + Wilson 95% CI.  Turn 1 is the
             current turn of ``to_move``, turn 2 the next player's, and so on.
    endings: how the hands ended (went out / stock exhausted / red three last / turn limit),
             share and mean number of turns.
    records: the raw rollout records (sim.play.rollout.rollout_record_dt, engine team numbers).
    """

    teams: pd.DataFrame
    within: pd.DataFrame
    endings: pd.DataFrame
    records: np.ndarray
    strategies: tuple[str, ...]
    rollouts: int
    seed: int

    def to_text(self) -> str:
        import pandas as pd

        with pd.option_context("display.width", 200, "display.max_columns", 50):
            wide = self.within.assign(
                cell=[f"{p:.3f} [{lo:.3f}, {hi:.3f}]" for p, lo, hi in
                      zip(self.within["p"], self.within["low"], self.within["high"], strict=True)]
            ).pivot(index="k", columns="team", values="cell")
            wide = wide[[t for t in self.teams["team"] if t in wide.columns]]
            wide.columns.name = None
            lines = [
                f"{self.rollouts} rollouts, strategies {', '.join(self.strategies)}, seed {self.seed}",
                "",
                "Per team: P(the hand ends by this team going out) and expected hand score (95% CIs)",
                self.teams.to_string(index=False, float_format="%.3f"),
                "",
                "P(team goes out within k turns), turn 1 = the current turn (Wilson 95% CI)",
                wide.to_string(),
                "",
                "How the hands ended",
                self.endings.to_string(index=False, float_format="%.3f"),
            ]
        return "\n".join(lines)


END_NAMES = {0: "running", 1: "went out", 2: "stock exhausted", 3: "red three last", 4: "turn limit"}


def rollout(position: Position, rules=None, strategy="expert", rollouts: int = 1000, seed: int = 0,
            within=(1, 2, 3, 5, 10), check: bool = False) -> RolloutResult:
    """Going-out odds and expected hand scores from ``rollouts`` random completions of the hidden
    cards (sim.play.rollout), each played out with ``strategy`` (one spec for every seat, or a list of
    one per seat).  ``rules``: a sim.core.rules.RuleSet (default: classic for the position's players).
    Rollout i depends only on (seed, i)."""
    import pandas as pd

    from reports.stats import mean_ci, wilson_ci
    from sim.play.rollout import prepare, run_rollouts

    ks = sorted({int(k) for k in within})
    if any(k < 1 for k in ks):
        raise ValueError(f"within: turns must be >= 1, got {list(within)}")
    setup = prepare(position, rules)
    specs = [strategy] if isinstance(strategy, str) else list(strategy)
    rec = run_rollouts(setup, specs, int(rollouts), int(seed), check)
    n = rec.shape[0]
    nt = position.n_teams
    team_rows, within_rows = [], []
    for pt in range(nt):
        et = setup.engine_team[pt]
        out = rec["went_out_team"] == et
        p, lo, hi = wilson_ci(int(out.sum()), n)
        sc = mean_ci(rec["score"][:, et])
        seats = " ".join(str(s) for s in range(position.players) if position.team_of_seat(s) == pt)
        team_rows.append({"team": TEAM_NAMES[pt], "seats": seats, "p_out": p, "p_low": lo, "p_high": hi,
                          "score": sc.mean, "score_low": sc.low, "score_high": sc.high})
        for k in ks:
            c = int((out & (rec["turns"] <= k)).sum())
            p, lo, hi = wilson_ci(c, n)
            within_rows.append({"team": TEAM_NAMES[pt], "k": k, "p": p, "low": lo, "high": hi})
    end_rows = []
    for code, name in END_NAMES.items():
        sel = rec["end_reason"] == code
        if sel.any():
            end_rows.append({"ended": name, "share": sel.mean(), "n": int(sel.sum()),
                             "mean_turns": float(rec["turns"][sel].mean())})
    names = tuple(specs) if len(specs) > 1 else (specs[0],)
    return RolloutResult(pd.DataFrame(team_rows), pd.DataFrame(within_rows), pd.DataFrame(end_rows),
                         rec, names, n, int(seed))

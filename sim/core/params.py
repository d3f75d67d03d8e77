"""Every rule parameter, declared once, and the engine's parameter array derived from them.

Each field of `RuleParams` is one declaration: its name, type and classic default (the field
itself), and through `param()` its one-line meaning, the range of values the engine accepts,
the rows it fills in the int32 parameter array (`Par`, read by the kernels) and its value in the
presets that change it.  `sim.core.rules.RuleSet` adds the behaviour (presets, validation,
seats, `to_params`, descriptions); `Par` and `N_PARAMS` are re-exported by `sim.core.enums`.

Adding a rule parameter = one field here, its use (kernels read `params[Par.NAME]`), its test
and its description in docs/RULES.md (CONTRIBUTING.md has the checklist).

Ranges keep every score representable: the engine keeps scores in int32 and logs some counts
in int16, so the largest bonus, card value and safety cap are bounded (`SCORE_MAX`,
`CARD_VALUE_MAX`, `MAX_TURNS_MAX`, `MAX_HANDS_MAX`); tests/test_rules.py computes the
worst-case cumulative score from these ranges and checks it fits.
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sim.core.errors import CanastaError
from sim.core.kinds import MAX_CARDS, MAX_SEATS, N_KINDS
from sim.core.layout import Field, layout

if TYPE_CHECKING:  # the layouts' field names (stubs written by tests/layout_stubs.py)
    from sim.core._layouts import ParT

BIG = 1_000_000_000  # a minimum band starting here is unused
INT32_MAX = 2**31 - 1

SCORE_MAX = 10_000  # any one bonus, red-three score or initial-meld minimum
CARD_VALUE_MAX = 200  # card points: a turn's melded points (<= MAX_CARDS cards) fit int16
MAX_TURNS_MAX = 30_000  # turns per hand are logged as int16
MAX_HANDS_MAX = 1_000
GAME_TARGET_MAX = 1_000_000
MAX_CANASTAS = MAX_CARDS // 3  # melds of 3+ cards a team can hold at most


class RulesError(CanastaError):
    """An impossible, inconsistent or unknown rule setting.  The message is always one line."""

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(str(message).split()))


# One-line description of each preset (docs/RULES.md section 9; the presets' values are declared
# with each parameter below, except those that depend on the player count: RuleSet.preset).
PRESETS: dict[str, str] = {
    "classic": "Official Canasta Laws: 2 packs (3 for six players), draw 1, 1 canasta to go out "
    "(2 for six players), concealed going out 200, game to 5,000",
    "german": "German billing of seed 000: like classic, but a completed canasta blocks the pile "
    "for its rank, red threes count plus with >= 1 canasta, going out 100 (200 without a "
    "discard), hand canasta 1,000",
    "samba": "Samba (seed 004), 4 players only: 3 packs, 15 cards, draw 2, sequences, several "
    "melds per rank, 2 canastas to go out, game to 10,000",
}

STANDARD_CARD_VALUES: tuple[int, ...] = (20, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10, 20, 50, 100)
assert len(STANDARD_CARD_VALUES) == N_KINDS

RED3_CLASSIC: tuple[int, ...] = (0, 100, 200, 300, 800, 800, 800)  # 2 packs: all four 800
RED3_SIX_PLAYERS: tuple[int, ...] = (0, 100, 200, 300, 400, 1000, 1200)  # 3 packs (official)
RED3_SAMBA: tuple[int, ...] = (0, 100, 200, 300, 400, 500, 1000)  # all six 1,000

BANDS_CLASSIC: tuple[tuple[int, int], ...] = ((0, 50), (1500, 90), (3000, 120), (BIG, 150))
BANDS_SAMBA: tuple[tuple[int, int], ...] = ((0, 50), (1500, 90), (3000, 120), (7000, 150))

TAKE_ONTO_CANASTA_CODES: dict[str, int] = {"no": 0, "yes": 1, "pair": 2}

Encoder = Callable[[Any, int], Sequence[int]]


@dataclass(frozen=True)
class Spec:
    """What a parameter means and how the engine receives it (the metadata of its field)."""

    meaning: str
    lo: int | None  # every int of the value (each entry of a list) lies in lo..hi
    hi: int | None
    par: tuple[Field, ...]  # the rows of the parameter array it fills, in order
    encode: Encoder | None  # (rule set, hand index) -> the ints of those rows; None: the value
    presets: Mapping[str, Any]  # preset name -> its value there

    def range_text(self) -> str:
        return "" if self.lo is None else f"{self.lo:,}..{self.hi:,}"


def param(
    default: Any,
    meaning: str,
    *,
    lo: int | None = None,
    hi: int | None = None,
    par: str | tuple[Field, ...] | None = None,
    width: int = 1,
    encode: Encoder | None = None,
    **presets: Any,
) -> Any:
    """A RuleParams field: `default` (classic), its meaning, range lo..hi, its Par row `par`
    (`width` ints; or several rows as Fields with an `encode`), and `preset=value` pairs."""
    rows = (Field(par, width, meaning),) if isinstance(par, str) else tuple(par or ())
    spec = Spec(meaning, lo, hi, rows, encode, presets)
    return dataclasses.field(default=default, metadata={"spec": spec})


def _teams(r: Any, hand: int) -> list[int]:
    teams = list(r.active_team_of_seat(hand))
    return [r.n_active, r.n_teams, *teams, *[-1] * (MAX_SEATS - len(teams)), int(r.players == 5)]


def _bands(r: Any, hand: int) -> list[int]:
    return [a for a, _ in r.minimum_bands] + [m for _, m in r.minimum_bands]


def _take_onto(r: Any, hand: int) -> list[int]:
    return [TAKE_ONTO_CANASTA_CODES[r.pile_take_onto_canasta]]


@dataclass(frozen=True)
class RuleParams:
    """The parameters of a rule set (the classic four-player game by default).  Behaviour and
    validation: `sim.core.rules.RuleSet`."""

    name: str = param("classic", "preset the rule set starts from")
    players: int = param(4, "players at the table", lo=2, hi=6, par="N_PLAYERS")
    team_layout: str = param(
        "",  # "" = derived from players ("2x3" for six)
        "teams: TxS = T teams of S players (seats alternate, partners opposite); 2+3 = five "
        "players",
        par=(
            Field("N_ACTIVE", 1, "players in a hand (4 with five players: one sits out)"),
            Field("N_TEAMS", 1, "teams"),
            Field("TEAM_OF_SEAT", MAX_SEATS, "team of each active seat (-1 unused)"),
            Field("FIVE_SITOUT", 1, "1: five players, one of the three-team sits out each hand"),
        ),
        encode=_teams,
    )
    decks: int = param(2, "52-card packs, each with 2 jokers", lo=2, hi=3, par="DECKS", samba=3)
    hand_size: int = param(
        11, "cards dealt to each active player", lo=1, hi=MAX_CARDS, par="HAND_SIZE", samba=15
    )
    draw_count: int = param(
        1, "cards drawn from the stock per turn", lo=1, hi=MAX_CARDS, par="DRAW_COUNT", samba=2
    )
    max_wild_per_meld: int = param(
        3,
        "wild cards (jokers, twos) in one meld at most",
        lo=0,
        hi=MAX_CARDS,
        par="MAX_WILD",
        samba=2,
    )
    wild_le_naturals: bool = param(
        True, "wild cards in a meld never more than naturals", par="WILD_LE_NAT"
    )
    min_naturals: int = param(
        2, "natural cards a meld needs at least", lo=1, hi=3, par="MIN_NATURALS"
    )
    canasta_size: int = param(
        7, "cards in a meld that make it a canasta", lo=3, hi=MAX_CARDS, par="CANASTA_SIZE"
    )
    wild_onto_canasta: bool = param(
        True,
        "wild cards may be added to a completed canasta",
        par="WILD_ONTO_CANASTA",
        samba=False,
    )
    pile_take_natural_plus_wild: bool = param(
        True,
        "an unfrozen pile may be taken with one natural + one wild card from the hand",
        par="TAKE_NAT_WILD",
        samba=False,
    )
    pile_take_onto_meld: bool = param(
        True,
        "an unfrozen pile may be taken by adding its top card to a team meld",
        par="TAKE_ONTO_MELD",
    )
    pile_take_onto_canasta: str = param(
        "yes",
        "pile whose top card matches a completed team canasta: yes / no / pair (only with a "
        "natural pair)",
        par=(Field("TAKE_ONTO_CANASTA", 1, "0 never, 1 yes, 2 only with a natural pair"),),
        encode=_take_onto,
        german="no",
        samba="pair",
    )
    sequences: bool = param(
        False, "Samba sequences of 3-7 suited naturals allowed", par="SEQUENCES", samba=True
    )
    multiple_melds_per_rank: bool = param(
        False, "a team may hold several melds of one rank (Samba)", par="MULTI_MELDS", samba=True
    )
    samba_bonus: int = param(
        1500, "bonus of a 7-card sequence (samba)", lo=0, hi=SCORE_MAX, par="SAMBA_BONUS"
    )
    canastas_to_go_out: int = param(
        1,
        "canastas a team needs before one of its players may go out",
        lo=0,
        hi=MAX_CANASTAS,
        par="CANASTAS_TO_GO_OUT",
        samba=2,
    )
    go_out_bonus: int = param(
        100,
        "going out with a final discard",
        lo=0,
        hi=SCORE_MAX,
        par="GO_OUT_BONUS",
        german=100,
        samba=200,
    )
    go_out_no_discard_bonus: int = param(
        100,
        "going out without a final discard",
        lo=0,
        hi=SCORE_MAX,
        par="GO_OUT_NO_DISCARD_BONUS",
        german=200,
        samba=200,
    )
    concealed_bonus: int = param(
        200,
        "concealed going out, in total (0 = nothing extra)",
        lo=0,
        hi=SCORE_MAX,
        par="CONCEALED_BONUS",
        german=1000,
        samba=0,
    )
    concealed_needs_minimum: bool = param(
        False,
        "a concealed going out must still reach the initial-meld minimum",
        par="CONCEALED_NEEDS_MIN",
        samba=True,
    )
    red_threes_need_canastas: int = param(
        0,
        "red threes count plus with this many canastas (0 = once the team has made its initial "
        "meld)",
        lo=0,
        hi=MAX_CANASTAS,
        par="RED3_NEED_CANASTAS",
        german=1,
        samba=2,
    )
    red_three_scores: tuple[int, ...] = param(
        RED3_CLASSIC,
        "score of 0..6 laid red threes",
        lo=0,
        hi=SCORE_MAX,
        par="RED3_TABLE",
        width=7,
        samba=RED3_SAMBA,
    )
    black_threes_meld_min: int = param(
        3,
        "black threes melded when going out: at least (0 = never)",
        lo=0,
        hi=6,
        par="BLACK3_MELD_MIN",
    )
    black_threes_meld_max: int = param(
        4,
        "black threes melded when going out: at most",
        lo=0,
        hi=6,
        par="BLACK3_MELD_MAX",
        samba=6,
    )
    game_target: int = param(
        5000,
        "a game ends after the hand in which a team reaches this",
        lo=1,
        hi=GAME_TARGET_MAX,
        par="GAME_TARGET",
        samba=10_000,
    )
    minimum_below_zero: int = param(
        15,
        "initial-meld minimum for a negative cumulative score",
        lo=0,
        hi=SCORE_MAX,
        par="MIN_BELOW_ZERO",
    )
    minimum_bands: tuple[tuple[int, int], ...] = param(
        BANDS_CLASSIC,
        "initial-meld minimum from each cumulative score on",
        lo=0,
        hi=BIG,
        par=(
            Field("MIN_BAND_FROM", 4, "cumulative score where each band starts"),
            Field("MIN_BAND_VALUE", 4, "minimum in that band"),
        ),
        encode=_bands,
        samba=BANDS_SAMBA,
    )
    natural_canasta_bonus: int = param(
        500, "canasta without wild cards", lo=0, hi=SCORE_MAX, par="NATURAL_CANASTA"
    )
    mixed_canasta_bonus: int = param(
        300, "canasta with wild cards", lo=0, hi=SCORE_MAX, par="MIXED_CANASTA"
    )
    upcard_freezes: bool = param(
        True,
        "a wild card or red three turned as the upcard freezes the pile",
        par="UPCARD_FREEZES",
    )
    exhausted_forced_take: bool = param(
        True,
        "stock exhausted: a player must take a discard that fits a team meld",
        par="EXHAUSTED_FORCED_TAKE",
    )
    red_three_last_ends: bool = param(
        True, "a red three drawn as the last stock card ends the hand", par="RED3_LAST_ENDS"
    )
    card_values: tuple[int, ...] = param(
        STANDARD_CARD_VALUES,
        "card points by kind (2 3 4 5 6 7 8 9 10 J Q K A JK R3)",
        lo=0,
        hi=CARD_VALUE_MAX,
        par="CARD_VALUE",
        width=N_KINDS,
    )
    max_turns: int = param(
        2000, "safety cap on turns per hand", lo=1, hi=MAX_TURNS_MAX, par="MAX_TURNS"
    )
    max_hands: int = param(
        200, "safety cap on hands per game", lo=1, hi=MAX_HANDS_MAX, par="MAX_HANDS"
    )


def spec_of(name: str) -> Spec:
    """The declaration of parameter `name`."""
    return _SPECS[name]


_FIELDS = dataclasses.fields(RuleParams)
_SPECS: dict[str, Spec] = {f.name: f.metadata["spec"] for f in _FIELDS}
PARAM_NAMES: tuple[str, ...] = tuple(_SPECS)
PARAM_TYPES: dict[str, str] = {f.name: str(f.type) for f in _FIELDS}

# The int32 parameter array: every parameter's rows, in declaration order.
PAR_LAYOUT: tuple[Field, ...] = tuple(row for s in _SPECS.values() for row in s.par)
Par: ParT = layout("ParT", PAR_LAYOUT, "N_PARAMS")
N_PARAMS: int = Par.N_PARAMS
PAR_WIDTHS: dict[str, int] = {row.name: row.width for row in PAR_LAYOUT}


def preset_values(preset: str) -> dict[str, Any]:
    """The parameters the preset sets to a value of its own (other than per player count)."""
    return {name: s.presets[preset] for name, s in _SPECS.items() if preset in s.presets}


def _suggest(word: str, choices: Sequence[str]) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.5)
    return f" (did you mean '{close[0]}'?)" if close else ""


def check_names(names: Sequence[str] | Mapping[str, Any]) -> None:
    """Refuse unknown parameter names, suggesting the closest valid one."""
    for key in names:
        if key not in _SPECS:
            raise RulesError(
                f"unknown rule parameter '{key}'{_suggest(str(key), PARAM_NAMES)}; "
                "`canasta rules classic` lists every parameter"
            )


def _ints(value: Any) -> list[tuple[str, int]]:
    """(suffix, int) for every int in a parameter's value ('' for a plain int)."""
    if isinstance(value, bool | str):
        return []
    if isinstance(value, int):
        return [("", value)]
    out: list[tuple[str, int]] = []
    for i, v in enumerate(value):
        out += [(f"[{i}]{sub}", x) for sub, x in _ints(v)]
    return out


def check_ranges(r: RuleParams) -> None:
    """Refuse a value outside its declared range (one line naming the parameter and range)."""
    for name, s in _SPECS.items():
        if s.lo is None or s.hi is None:
            continue
        for sub, v in _ints(getattr(r, name)):
            if not s.lo <= v <= s.hi:
                raise RulesError(
                    f"{name}{sub}={v}: must be >= {s.lo} and <= {s.hi:,} ({s.meaning}; the range "
                    "keeps every score within the engine's 32-bit integers)"
                )


def encode(r: RuleParams, hand: int) -> list[int]:
    """The parameter array's ints in Par order (see RuleSet.to_params)."""
    out: list[int] = []
    for name, s in _SPECS.items():
        if not s.par:
            continue
        values = (
            list(s.encode(r, hand))
            if s.encode
            else [int(v) for _, v in _ints(getattr(r, name))] or [int(getattr(r, name))]
        )
        if len(values) != sum(row.width for row in s.par):  # pragma: no cover - tests/test_rules.py
            raise AssertionError(f"{name}: {len(values)} ints for rows {s.par}")
        out += values
    return out

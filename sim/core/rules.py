"""Rule sets: a validated, immutable bundle of every parameter of docs/RULES.md.

A `RuleSet` is what the user chooses (a preset, a player count, a few overrides); `to_params()`
turns it into the int32 array the numba core reads at the `Par` indices (derived from the
parameters' declarations in sim/core/params.py).

    >>> r = RuleSet.preset("classic", players=6, team_layout="3x2")
    >>> r.decks, r.hand_size, r.game_target, r.n_teams
    (3, 13, 7500, 3)
    >>> r.minimum_for(3200)
    120

Every impossible or inconsistent setting is refused in `__post_init__` with a `RulesError`
whose message is one line naming the parameter, the value and what would be right.

`replace()` changes fields literally (it does not re-derive hand size, packs, ... from a new
player count); to change the player count start again from `RuleSet.preset()`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from sim.core.kinds import KIND_NAMES, N_KINDS, Kind
from sim.core.params import (
    BIG,
    INT32_MAX,
    PAR_WIDTHS,
    PRESETS,
    RED3_SIX_PLAYERS,
    STANDARD_CARD_VALUES,
    TAKE_ONTO_CANASTA_CODES,
    RuleParams,
    RulesError,
    _suggest,
    check_names,
    check_ranges,
    encode,
    preset_values,
    spec_of,
)
from sim.core.rules_text import parse_overrides, parse_value

__all__ = [
    "BIG",
    "PAR_WIDTHS",
    "PRESETS",
    "RulesError",
    "RuleSet",
    "KIND_KEYS",
    "TAKE_ONTO_CANASTA_CODES",
    "parse_value",
    "parse_overrides",
]

# Keys of card_values in to_dict() (Kind order); also accepted: the tokens 2 3 4 .. A JK R3.
KIND_KEYS: tuple[str, ...] = tuple(f.lower() for f in Kind._fields)
_KIND_TOKENS: tuple[str, ...] = tuple(t.lower() for t in KIND_NAMES)

HAND_SIZE_BY_PLAYERS: dict[int, int] = {2: 15, 3: 13, 4: 11, 5: 11, 6: 13}
# Team layouts: "TxS" = T teams of S players; five players "2+3" (see RuleSet.active_seats).
_DERIVED_LAYOUT: dict[int, str] = {2: "2x1", 3: "3x1", 4: "2x2", 5: "2+3"}
SIX_LAYOUTS: tuple[str, ...] = ("2x3", "3x2")
FIVE_TEAM_A: tuple[int, ...] = (0, 2)
FIVE_TEAM_B: tuple[int, ...] = (1, 3, 4)  # one of them sits out each hand, in rotation


_UNSET: Any = object()  # preset()'s arguments not given


@dataclass(frozen=True)
class RuleSet(RuleParams):
    """Every rule parameter of docs/RULES.md (declared in sim/core/params.py, one field each,
    with its meaning, range and presets' values).  The defaults are the classic four-player game.

    Tuple fields accept lists (JSON); `card_values` also accepts a mapping kind -> points
    (keys as in KIND_KEYS or the tokens 2 3 4 .. A JK R3), missing kinds keep the standard value.
    """

    BIG: ClassVar[int] = BIG

    # ------------------------------------------------------------------ construction

    @classmethod
    def param_names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in dataclasses.fields(cls))

    @classmethod
    def presets(cls) -> dict[str, str]:
        """Preset name -> one-line description."""
        return dict(PRESETS)

    @classmethod
    def check_names(cls, names: Sequence[str] | Mapping[str, Any]) -> None:
        """Refuse unknown parameter names, suggesting the closest valid one."""
        check_names(names)

    @classmethod
    def preset(
        cls,
        name: Any = _UNSET,
        players: Any = _UNSET,
        team_layout: Any = _UNSET,
        /,
        **overrides: Any,
    ) -> RuleSet:
        """The preset `name` for `players` (default 4; and `team_layout` for six), then
        `overrides`.  `name`, `players` and `team_layout` may be given by position or by
        keyword, once each (twice: RulesError)."""
        given = {"name": name, "players": players, "team_layout": team_layout}
        for fixed, value in given.items():
            if fixed in overrides:
                if value is not _UNSET:
                    raise RulesError(
                        f"{fixed} is given twice ({value!r} and {overrides[fixed]!r}); give it once"
                    )
                given[fixed] = overrides.pop(fixed)
        name = given["name"]
        players = 4 if given["players"] is _UNSET else given["players"]
        team_layout = None if given["team_layout"] is _UNSET else given["team_layout"]
        if name is _UNSET:
            raise RulesError("give a preset name, e.g. RuleSet.preset('classic')")
        if not isinstance(name, str) or name not in PRESETS:
            raise RulesError(
                f"unknown preset {name!r}{_suggest(str(name), list(PRESETS))}: "
                f"choose one of {', '.join(PRESETS)}"
            )
        cls.check_names(overrides)
        if team_layout is not None and not isinstance(team_layout, str):
            raise RulesError(f"team_layout={team_layout!r}: give 2x3 or 3x2 (six players)")
        if type(players) is not int or not 2 <= players <= 6:
            raise RulesError(f"players={players!r}: Canasta is played by 2 to 6 players")
        layout = team_layout or ""
        kw: dict[str, Any] = {"name": name, "players": players, "team_layout": layout}
        if name != "samba":  # Samba is the four-player game of seed 004 (others are refused)
            kw["hand_size"] = HAND_SIZE_BY_PLAYERS[players]
            if players == 6:
                if not layout:
                    layout = kw["team_layout"] = "2x3"
                kw.update(decks=3, canastas_to_go_out=2, red_three_scores=RED3_SIX_PLAYERS)
                if layout == "3x2":
                    # Three teams of two play to 7,500.  docs/RULES.md gives the 150 band only for
                    # the two-team game to 10,000 (from 7,500); with a target of 7,500 such a band
                    # could never apply, so the 3x2 game keeps the classic bands (top 120).
                    kw["game_target"] = 7500
                else:
                    kw["game_target"] = 10_000
                    kw["minimum_bands"] = ((0, 50), (1500, 90), (3000, 120), (7500, 150))
        kw.update(preset_values(name))
        kw.update(overrides)
        return cls(**kw)

    def replace(self, **overrides: Any) -> RuleSet:
        """A copy with the given fields changed (literally; validated again)."""
        self.check_names(overrides)
        return dataclasses.replace(self, **overrides)

    # ------------------------------------------------------------------ validation

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.type == "int":
                object.__setattr__(self, f.name, _as_int(f.name, value))
            elif f.type == "bool":
                object.__setattr__(self, f.name, _as_bool(f.name, value))
            elif f.type == "str":
                if not isinstance(value, str):
                    raise RulesError(
                        f"{f.name}={value!r} must be a string, not {type(value).__name__}"
                    )
        object.__setattr__(
            self, "red_three_scores", _as_int_tuple("red_three_scores", self.red_three_scores, 7)
        )
        object.__setattr__(self, "minimum_bands", _as_bands(self.minimum_bands))
        object.__setattr__(self, "card_values", _as_card_values(self.card_values))
        self._validate()

    def _validate(self) -> None:
        if self.name not in PRESETS:
            raise RulesError(
                f"name='{self.name}': unknown preset; choose one of {', '.join(PRESETS)}"
            )
        p = self.players
        if not 2 <= p <= 6:
            raise RulesError(f"players={p}: Canasta is played by 2 to 6 players")
        if p == 6:
            if self.team_layout == "":
                object.__setattr__(self, "team_layout", "2x3")
            if self.team_layout not in SIX_LAYOUTS:
                raise RulesError(
                    f"team_layout='{self.team_layout}' with 6 players: choose '2x3' "
                    "(2 teams of 3: seats 0+2+4, 1+3+5) or '3x2' (3 teams of 2: seats 0+3, 1+4, "
                    "2+5)"
                )
        else:
            derived = _DERIVED_LAYOUT[p]
            if self.team_layout == "":
                object.__setattr__(self, "team_layout", derived)
            if self.team_layout != derived:
                raise RulesError(
                    f"team_layout='{self.team_layout}' with {p} players: the only layout is "
                    f"'{derived}'; '2x3' and '3x2' are for six players"
                )
        if self.name == "samba" and p != 4:
            raise RulesError(
                f"players={p}: samba is the four-player partnership game of seed 004; "
                "use classic or german for other player counts"
            )
        self._validate_cards()
        self._validate_melds()
        self._validate_scores()
        teams = self.team_of_seat
        if sorted(set(teams)) != list(range(self.n_teams)):  # pragma: no cover - layouts are fixed
            raise RulesError(
                f"team_layout='{self.team_layout}' is not a partition of the {p} seats"
            )
        check_ranges(self)

    def _validate_cards(self) -> None:
        """Packs, deal and draw: the cards must suffice."""
        if self.decks not in (2, 3):
            raise RulesError(
                f"decks={self.decks}: a game uses 2 or 3 packs (3 for Samba and six players)"
            )
        if self.hand_size < 1:
            raise RulesError(f"hand_size={self.hand_size}: each player needs at least 1 card")
        cards = 54 * self.decks
        n = self.n_active
        need = n * self.hand_size + 2
        if need > cards:
            raise RulesError(
                f"hand_size={self.hand_size} with {n} active players needs {n}*{self.hand_size} "
                f"+ 1 upcard + 1 stock card = {need} cards but {self.decks} packs hold {cards}; "
                f"use hand_size <= {(cards - 2) // n}" + (" or decks=3" if self.decks == 2 else "")
            )
        if self.draw_count < 1:
            raise RulesError(f"draw_count={self.draw_count}: a player draws at least 1 card")

    def _validate_melds(self) -> None:
        """Meld and canasta sizes, wild cards, taking the pile, going out."""
        if self.max_wild_per_meld < 0:
            raise RulesError(
                f"max_wild_per_meld={self.max_wild_per_meld}: must be >= 0 (0 = no wild cards in "
                "melds)"
            )
        if not 1 <= self.min_naturals <= 3:
            raise RulesError(
                f"min_naturals={self.min_naturals}: a meld needs 1 to 3 naturals "
                "(a new meld has 3 cards; the official value is 2)"
            )
        if self.canasta_size < 3:
            raise RulesError(
                f"canasta_size={self.canasta_size}: a canasta has at least 3 cards (official 7)"
            )
        naturals = 4 * self.decks
        wild = min(self.max_wild_per_meld, 6 * self.decks)
        if self.wild_le_naturals:
            wild = min(wild, naturals)
        if self.canasta_size > naturals + wild:
            raise RulesError(
                f"canasta_size={self.canasta_size} can never be reached: {self.decks} packs hold "
                f"{naturals} naturals of a rank and a meld takes at most {wild} wild cards; "
                f"use canasta_size <= {naturals + wild}"
            )
        if self.pile_take_onto_canasta not in TAKE_ONTO_CANASTA_CODES:
            raise RulesError(
                f"pile_take_onto_canasta='{self.pile_take_onto_canasta}': choose 'yes', 'no' "
                "or 'pair' (only with a natural pair from the hand)"
            )
        if self.canastas_to_go_out < 0:
            raise RulesError(f"canastas_to_go_out={self.canastas_to_go_out}: must be >= 0")
        if self.red_threes_need_canastas < 0:
            raise RulesError(
                f"red_threes_need_canastas={self.red_threes_need_canastas}: must be >= 0 "
                "(0 = red threes count plus once the team has made its initial meld)"
            )

    def _validate_scores(self) -> None:
        """Red threes, black threes and the initial-meld minimums."""
        r3 = self.red_three_scores
        if (
            any(v < 0 for v in r3)
            or any(b < a for a, b in zip(r3, r3[1:], strict=False))
            or r3[0] != 0
        ):
            raise RulesError(
                f"red_three_scores={list(r3)}: need 7 scores for 0..6 red threes, starting at 0, "
                "non-negative and non-decreasing (classic 0,100,200,300,800,800,800)"
            )
        lo, hi = self.black_threes_meld_min, self.black_threes_meld_max
        if lo == 0 and hi == 0:
            pass  # black threes are never melded
        elif lo < 3 or hi < lo:
            raise RulesError(
                f"black_threes_meld_min/max={lo}/{hi}: a black-three meld has at least 3 cards "
                "and min <= max (classic 3/4, Samba 3/6; 0/0 = never)"
            )
        elif lo > 2 * self.decks:
            raise RulesError(
                f"black_threes_meld_min={lo}: {self.decks} packs hold only {2 * self.decks} "
                "black threes (use 0/0 to forbid black-three melds)"
            )
        self._validate_bands()

    def _validate_bands(self) -> None:
        bands = self.minimum_bands
        text = ",".join(f"{a}:{m}" for a, m in bands)
        froms = [a for a, _ in bands]
        mins = [m for _, m in bands]
        if froms[0] != 0:
            raise RulesError(
                f"minimum_bands={text}: the first band must start at score 0 "
                "(negative scores use minimum_below_zero)"
            )
        for a, b in zip(froms, froms[1:], strict=False):
            if not (a < b or a == b == BIG):
                raise RulesError(
                    f"minimum_bands={text}: band starts must increase (unused bands start at {BIG})"
                )
        if any(m < 0 for m in mins) or any(b < a for a, b in zip(mins, mins[1:], strict=False)):
            raise RulesError(
                f"minimum_bands={text}: minimums must be >= 0 and not decrease (classic 50,90,120)"
            )

    # ------------------------------------------------------------------ seats and teams

    @property
    def n_active(self) -> int:
        """Players in a hand (4 with five players: one sits out)."""
        return 4 if self.players == 5 else self.players

    @property
    def n_teams(self) -> int:
        if self.players in (2, 3):
            return self.players
        if self.players == 6 and self.team_layout == "3x2":
            return 3
        return 2

    @property
    def team_of_seat(self) -> tuple[int, ...]:
        """Team of each table seat (seats alternate, partners opposite)."""
        p = self.players
        if p in (2, 3):
            return tuple(range(p))
        if p == 5:
            return tuple(0 if s in FIVE_TEAM_A else 1 for s in range(5))
        if p == 6 and self.team_layout == "3x2":
            return tuple(s % 3 for s in range(6))
        return tuple(s % 2 for s in range(p))

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        """Seats of each team."""
        tos = self.team_of_seat
        return tuple(
            tuple(s for s in range(self.players) if tos[s] == t) for t in range(self.n_teams)
        )

    def sitting_out(self, hand_index: int) -> int | None:
        """Table seat sitting out hand `hand_index` (five players), else None."""
        _check_hand_index(hand_index)
        if self.players != 5:
            return None
        return FIVE_TEAM_B[hand_index % 3]

    def active_seats(self, hand_index: int = 0) -> tuple[int, ...]:
        """Table seats playing hand `hand_index`, in the order they play (engine seats 0..n-1).

        Five players: (A0, Bx, A1, By) — team A (seats 0, 2) always plays, the members of B
        (seats 1, 3, 4) sit out in rotation: seat 1 in hand 0, seat 3 in hand 1, seat 4 in hand 2.
        """
        _check_hand_index(hand_index)
        if self.players != 5:
            return tuple(range(self.players))
        out = FIVE_TEAM_B[hand_index % 3]
        bx, by = (s for s in FIVE_TEAM_B if s != out)
        return (FIVE_TEAM_A[0], bx, FIVE_TEAM_A[1], by)

    def active_team_of_seat(self, hand_index: int = 0) -> tuple[int, ...]:
        """Team of each active seat of hand `hand_index` (index = engine seat)."""
        tos = self.team_of_seat
        return tuple(tos[s] for s in self.active_seats(hand_index))

    # ------------------------------------------------------------------ derived values

    def minimum_for(self, cumulative_score: int) -> int:
        """Initial-meld minimum for a team with this cumulative score before the hand."""
        if cumulative_score < 0:
            return self.minimum_below_zero
        minimum = self.minimum_bands[0][1]
        for start, value in self.minimum_bands:
            if cumulative_score >= start:
                minimum = value
        return minimum

    def engine_supported(self) -> str | None:
        """None if the numba core can play this rule set, else a one-line reason."""
        if self.sequences and self.canasta_size > 9:
            return "sequences longer than 9 cards (4..A holds 11 ranks) need canasta_size <= 9"
        return None

    @property
    def label(self) -> str:
        """Short label, e.g. 'classic-4p' or 'classic-6p-3x2'."""
        base = f"{self.name}-{self.players}p"
        return f"{base}-{self.team_layout}" if self.players == 6 else base

    # ------------------------------------------------------------------ engine parameters

    def to_params(self, hand_index: int = 0) -> np.ndarray:
        """The int32 parameter array (length Par.N_PARAMS) for hand `hand_index`."""
        return np.array(encode(self, hand_index), dtype=np.int32)

    # ------------------------------------------------------------------ description, manifests

    def describe(self) -> list[tuple[str, str, str]]:
        """(parameter, value, one-line meaning) for every parameter, plus the teams."""
        rows: list[tuple[str, str, str]] = []
        for f in dataclasses.fields(self):
            spec = spec_of(f.name)
            meaning = spec.meaning + (f" ({spec.range_text()})" if spec.range_text() else "")
            rows.append((f.name, _format_value(f.name, getattr(self, f.name)), meaning))
            if f.name == "team_layout":
                seats = " | ".join("+".join(str(s) for s in team) for team in self.teams)
                extra = (
                    "; team 1 sits out one member per hand in rotation, so 4 play"
                    if self.players == 5
                    else ""
                )
                rows.append(("teams", seats, f"table seats of each team{extra}"))
        return rows

    def to_dict(self) -> dict[str, Any]:
        """JSON-able dict of every parameter; `from_dict` restores an equal RuleSet."""
        d: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name == "card_values":
                value = dict(zip(KIND_KEYS, value, strict=True))
            elif f.name == "minimum_bands":
                value = [list(b) for b in value]
            elif f.name == "red_three_scores":
                value = list(value)
            d[f.name] = value
        return d

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleSet:
        """Inverse of to_dict(); parameters missing from `data` take the preset's values."""
        if not isinstance(data, Mapping):
            got = "None" if data is None else type(data).__name__
            raise RulesError(f"a rule set must be a mapping of parameters, not {got}")
        d = dict(data)
        cls.check_names(d)
        name = d.pop("name", "classic")
        players = d.pop("players", 4)
        layout = d.pop("team_layout", None) or None
        return cls.preset(name, players, layout, **d)

    def differences_from_preset(self) -> dict[str, Any]:
        """Parameters that differ from the plain preset (same name, players, layout)."""
        base = RuleSet.preset(self.name, self.players, self.team_layout).to_dict()
        mine = self.to_dict()
        return {k: v for k, v in mine.items() if base[k] != v}


# ----------------------------------------------------------------------------- helpers


def _check_hand_index(hand_index: int) -> None:
    if (
        isinstance(hand_index, bool)
        or not isinstance(hand_index, int | np.integer)
        or hand_index < 0
    ):
        raise RulesError(f"hand_index={hand_index!r}: must be an int >= 0")


def _as_int(name: str, value: Any) -> int:
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        raise RulesError(f"{name}={value!r} must be an int, not {type(value).__name__}")
    value = int(value)
    if not -INT32_MAX <= value <= INT32_MAX:
        raise RulesError(f"{name}={value}: out of the int32 range of the engine")
    return value


def _as_bool(name: str, value: Any) -> bool:
    if not isinstance(value, bool | np.bool_):
        raise RulesError(
            f"{name}={value!r} must be a bool (true/false), not {type(value).__name__}"
        )
    return bool(value)


def _as_int_tuple(name: str, value: Any, length: int) -> tuple[int, ...]:
    if isinstance(value, str | bytes | Mapping) or not isinstance(value, Sequence | np.ndarray):
        raise RulesError(f"{name}={value!r} must be a list of {length} ints")
    if len(value) != length:
        raise RulesError(
            f"{name}={list(value)!r} must have exactly {length} entries, not {len(value)}"
        )
    return tuple(_as_int(f"{name}[{i}]", v) for i, v in enumerate(value))


def _as_bands(value: Any) -> tuple[tuple[int, int], ...]:
    name = "minimum_bands"
    if isinstance(value, str | bytes | Mapping) or not isinstance(value, Sequence):
        raise RulesError(f"{name}={value!r} must be 4 (from_score, minimum) pairs")
    if len(value) != 4:
        raise RulesError(
            f"{name}={value!r} must have exactly 4 (from_score, minimum) pairs, not {len(value)} "
            f"(unused bands start at {BIG})"
        )
    pairs = [_as_int_tuple(f"{name}[{i}]", pair, 2) for i, pair in enumerate(value)]
    return tuple((a, m) for a, m in pairs)


def _kind_index(key: str) -> int:
    k = str(key).strip().lower()
    if k in KIND_KEYS:
        return KIND_KEYS.index(k)
    if k in _KIND_TOKENS:
        return _KIND_TOKENS.index(k)
    raise RulesError(
        f"card_values: unknown card kind '{key}'{_suggest(k, KIND_KEYS)}; "
        f"kinds are {', '.join(KIND_KEYS)}"
    )


def _as_card_values(value: Any) -> tuple[int, ...]:
    if isinstance(value, Mapping):
        values = list(STANDARD_CARD_VALUES)
        for key, v in value.items():
            values[_kind_index(key)] = _as_int(f"card_values[{key}]", v)
        return tuple(values)
    return _as_int_tuple("card_values", value, N_KINDS)


def _format_value(name: str, value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if name == "card_values":
        return " ".join(f"{t.upper()}={v}" for t, v in zip(_KIND_TOKENS, value, strict=True))
    if name == "minimum_bands":
        return " ".join(f"{a}:{m}" if a < BIG else "-" for a, m in value)
    if name == "red_three_scores":
        return ",".join(str(v) for v in value)
    return str(value)

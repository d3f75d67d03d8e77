"""A new table's settings, from the new-game form (JSON), checked: one-line TableError otherwise."""

from __future__ import annotations

import math
import numbers
import secrets
from dataclasses import asdict, dataclass, field
from typing import Any

from sim.core import limits
from sim.core.errors import CanastaError
from sim.core.rules import RuleSet, parse_overrides

__all__ = ["TableError", "TableSettings", "HUMAN", "default_bot", "check_player"]

HUMAN = "human"
MODES = ("hand", "game")
MAX_NAME = 40


class TableError(CanastaError):
    """A request the table cannot do: one line saying what is wrong and what would be right.
    ``status`` is the HTTP status the app answers with."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def default_bot() -> str:
    """The lab's default player (the strategy commands default to for the first team)."""
    from sim.runs.runner import DEFAULT_STRATEGIES

    return DEFAULT_STRATEGIES[0]


def check_player(spec: str, table: str) -> str:
    """A bot spec as written, or TableError naming what is wrong: a compiled strategy with its
    knobs, or a search player (pimc, ismcts)."""
    from sim.play.search.spec import is_search, parse_search
    from strategies.registry import parse_spec

    if not isinstance(spec, str) or not spec.strip():
        raise TableError(f"player {spec!r}: give 'human' or a strategy such as {default_bot()}")
    spec = spec.strip()
    try:
        if is_search(spec):
            parse_search(spec)
        else:
            parse_spec(spec, table)
    except CanastaError as exc:
        raise TableError(f"player {spec!r}: {exc}") from None
    return spec


def _whole(name: str, value: Any, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TableError(f"{name}={value!r}: give a whole number {lo} .. {hi}")
    if not lo <= int(value) <= hi:
        raise TableError(f"{name}={int(value)}: give a whole number {lo} .. {hi}")
    return int(value)


def _flag(name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise TableError(f"{name}={value!r}: give true or false")
    return value


@dataclass
class TableSettings:
    """What a table plays: rules, who sits where, one hand or a game, seed, practice or rated."""

    rules: str = "classic"
    players: int = 4
    team_layout: str | None = None
    sets: list[str] = field(default_factory=list)  # --set values, 'name=value'
    seats: list[str] = field(default_factory=list)  # per table seat: 'human' or a bot spec
    names: list[str] = field(default_factory=list)  # per table seat, for display
    mode: str = "hand"  # one hand, or a whole game to the target
    seed: int = 0
    practice: bool = True  # practice: hints, tutor, undo; rated: none of them
    tutor: bool = False
    tutor_threshold: float = 100.0  # points of equity lost that make the tutor warn

    def rule_set(self) -> RuleSet:
        kw = {"team_layout": self.team_layout} if self.team_layout else {}
        return RuleSet.preset(self.rules, self.players, **kw, **parse_overrides(self.sets))

    @property
    def humans(self) -> list[int]:
        return [s for s, p in enumerate(self.seats) if p == HUMAN]

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Any, random_seed: bool = True) -> TableSettings:
        """Settings from the form's JSON object; unknown keys and bad values are a TableError.
        A missing or null seed draws a random one (when ``random_seed``)."""
        if not isinstance(data, dict):
            raise TableError("the new-game request must be a JSON object")
        known = set(cls.__dataclass_fields__) | {"set"}
        extra = sorted(set(data) - known)
        if extra:
            raise TableError(
                f"unknown setting {extra[0]!r}; settings: {', '.join(sorted(known - {'sets'}))}"
            )
        s = cls()
        rules = data.get("rules", "classic")
        if not isinstance(rules, str):
            raise TableError(f"rules={rules!r}: give a preset name such as classic")
        s.rules = rules
        s.players = _whole("players", data.get("players", 4), 2, 6)
        layout = data.get("team_layout") or None
        if layout is not None and not isinstance(layout, str):
            raise TableError(f"team_layout={layout!r}: give 2x3 or 3x2 (six players)")
        s.team_layout = layout
        sets = data.get("set", data.get("sets", []))
        if isinstance(sets, str):
            sets = [x for x in (p.strip() for p in sets.replace(";", "\n").splitlines()) if x]
        if not isinstance(sets, list) or not all(isinstance(x, str) for x in sets):
            raise TableError("set: give rule overrides as text, 'name=value' one per line")
        s.sets = [x.strip() for x in sets if x.strip()]
        try:
            rules_obj = s.rule_set()
            reason = rules_obj.engine_supported()
        except CanastaError as exc:
            raise TableError(str(exc)) from None
        if reason:
            raise TableError(reason)
        seats = data.get("seats")
        if seats is None:
            seats = [HUMAN] + [default_bot()] * (s.players - 1)
        if not isinstance(seats, list) or len(seats) != s.players:
            raise TableError(f"seats: give one player per seat ({s.players}): 'human' or a bot")
        s.seats = [
            HUMAN if isinstance(p, str) and p.strip() == HUMAN else check_player(p, rules_obj.label)
            for p in seats
        ]
        if not s.humans:
            raise TableError("seats: at least one seat must be 'human' (you)")
        names = data.get("names") or []
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise TableError("names: give a list of seat names (text)")
        s.names = [
            (names[i].strip()[:MAX_NAME] if i < len(names) and names[i].strip() else "")
            or (f"Player {i}" if p == HUMAN else f"{p.split(':')[0]} · seat {i}")
            for i, p in enumerate(s.seats)
        ]
        mode = data.get("mode", "hand")
        if mode not in MODES:
            raise TableError(f"mode={mode!r}: give 'hand' (one hand) or 'game' (to the target)")
        s.mode = mode
        seed = data.get("seed")
        if seed is None or seed == "":
            if not random_seed:
                raise TableError("seed: give a whole number")
            seed = secrets.randbelow(2**31)
        if isinstance(seed, str) and seed.strip().isdigit():
            seed = int(seed.strip())
        s.seed = _whole("seed", seed, *limits.SEED)
        s.practice = _flag("practice", data.get("practice", True))
        s.tutor = _flag("tutor", data.get("tutor", False)) and s.practice
        thr = data.get("tutor_threshold", 100.0)
        ok = isinstance(thr, numbers.Real) and not isinstance(thr, bool)
        if not ok or not math.isfinite(float(thr)) or not 0 < float(thr) <= 10_000:
            raise TableError(f"tutor_threshold={thr!r}: give points of equity, 0 < t <= 10000")
        s.tutor_threshold = float(thr)
        return s

    @classmethod
    def stored(cls, data: dict) -> TableSettings:
        """Settings as the store kept them (already checked when the game was made)."""
        return cls(**{k: v for k, v in data.items() if k in cls.__dataclass_fields__})

"""Read a played hand for `canasta review FILE`: the history `canasta play` prints, or the compact
hand record of docs/hand-record.md.

Both give the rules, the deal (a key (seed, game, hand), or a stacked deck), the dealer, the
cumulative scores before the hand and the actions in order; every action is checked by
replaying it (an illegal or unreadable one is refused with its line number).
"""

from __future__ import annotations

import re
from pathlib import Path

from sim.core.errors import CanastaError
from sim.core.rules import RuleSet, parse_overrides
from sim.core.textfile import read_small_text
from sim.play.game import GameState, IllegalActionError

__all__ = ["read_hand_file", "HandFileError"]


class HandFileError(CanastaError):
    """A hand file that cannot be read: one line naming the line and the problem."""


_KEY = re.compile(r"^key:\s*seed=(\d+)\s+game=(\d+)\s+hand=(\d+)\s*$")
_HEAD = re.compile(r"^rules (\S+); dealer: seat (\d+);")
_LABEL = re.compile(r"^([a-z_]+)-(\d)p(?:-(\dx\d))?$")
_SEAT = re.compile(r"^\s+seat (\d+) \(team \d+\), ([^:]+):")
_NOTE = re.compile(r"\s+(->|\[|\(lays|\(red three)")


MAX_BYTES = 1_000_000  # a hand record or history of a whole hand is a few kB


SEAT_NAMES = ("human", "?")  # a strategies line may name these seats besides the players


def read_hand_file(path, rules: RuleSet | None = None, options: dict | None = None):
    """A `reports.review.HandRecord` from the file.

    ``rules`` replaces the file's rules.  ``options`` adjusts them as the command line does:
    {"rules": preset, "players": n, "team_layout": layout, "set": {name: value}} (each may be
    missing or None); an option that contradicts the file (another preset, player count or
    layout, or a --set value the file sets otherwise) is refused, the others are added (a
    `canasta play` history names only the preset and the players, not --set values)."""
    if not isinstance(path, str | Path) or not str(path).strip():
        raise HandFileError(
            f"hand file {path!r}: give the path of a history printed by canasta play, or a "
            "hand record"
        )
    if rules is not None and not isinstance(rules, RuleSet):
        raise HandFileError(f"rules={rules!r}: give a RuleSet (or None: the file's rules)")
    p = Path(path)
    if not p.exists():
        raise HandFileError(
            f"{path}: no such file (give a history printed by canasta play, or a hand record)"
        )
    text = read_small_text(p, "hand file", MAX_BYTES, HandFileError)
    lines = text.splitlines()
    first = next((ln for ln in lines if ln.strip() and not ln.lstrip().startswith("#")), "")
    try:
        if _HEAD.match(first):
            return _play_history(p, lines, rules, options or {})
        return _hand_record(p, lines, rules, options or {})
    except HandFileError:
        raise
    except (
        CanastaError,
        ValueError,
        KeyError,
        TypeError,
        OverflowError,
    ) as exc:  # the rules', deal's or GameState's
        raise HandFileError(f"{p}: {_first_line(exc)}") from None


def _first_line(exc: Exception) -> str:
    text = str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)
    return " ".join(text.splitlines()[0].split()) if text.strip() else type(exc).__name__


def _whole(p: Path, what: str, text: str) -> int:
    if not re.fullmatch(r"\s*[+-]?\d+\s*", text):
        raise HandFileError(f"{p}: {what}: {text.strip()!r} is not a whole number")
    return int(text)


def _scores(p: Path, line: int | None, text: str) -> list[int]:
    """Cumulative scores 'S0, S1' or 'S0 S1' (their range is checked by GameState)."""
    where = f"{p}:{line}" if line else str(p)
    return [_whole(Path(where), "scores", x) for x in text.replace(",", " ").split()]


def _rules_of(
    p: Path, preset: str | None, players: int | None, layout: str | None, sets: dict, options
) -> RuleSet:
    """The file's rules (preset, players, layout, set values) adjusted by `options`."""
    given = {"rules": preset, "players": players, "team_layout": layout}
    for key, option in (
        ("rules", "--rules"),
        ("players", "--players"),
        ("team_layout", "--team-layout"),
    ):
        mine = options.get(key)
        if mine is not None and given[key] is not None and mine != given[key]:
            raise HandFileError(f"{option} {mine} but {p} says {key}: {given[key]}; give it once")
        if mine is not None:
            given[key] = mine
    more = options.get("set") or {}
    for name, value in more.items():
        if name in sets and sets[name] != value:
            raise HandFileError(
                f"--set {name} contradicts {p}'s set: {name}={sets[name]}; give it once"
            )
    return RuleSet.preset(
        given["rules"] or "classic",
        4 if given["players"] is None else given["players"],
        given["team_layout"],
        **{**sets, **more},
    )


def _label_parts(p: Path, label: str) -> tuple[str, int, str | None]:
    m = _LABEL.match(label)
    if not m:
        raise HandFileError(
            f"{p}: rules label {label!r} is not preset-<players>p; give --rules/--players"
        )
    return m.group(1), int(m.group(2)), m.group(3) or None


def _play_history(p: Path, lines: list[str], rules: RuleSet | None, options: dict):
    from reports.review import HandRecord

    head = _HEAD.match(lines[0].strip()) or _HEAD.match(next(ln for ln in lines if _HEAD.match(ln)))
    assert head is not None  # next() picked a line that _HEAD matches
    rules = rules or _rules_of(p, *_label_parts(p, head.group(1)), {}, options)
    key: tuple[int, int, int] | None = None
    cum: list[int] = []
    strategies: dict[int, str] = {}
    actions_text: list[tuple[int, str]] = []
    in_turns = False
    for n, ln in enumerate(lines, 1):
        m = _KEY.match(ln.strip())
        if m:
            key = _key(Path(f"{p}:{n}"), m)
        if ln.startswith("scores before the hand:"):
            cum = _scores(p, n, ln.split(":", 1)[1])
        m = _SEAT.match(ln)
        if m and not in_turns:
            strategies[int(m.group(1))] = m.group(2).strip()
        if ln.startswith("turn "):
            in_turns = True
            continue
        if ln.startswith("hand over"):
            break
        if in_turns and ln.startswith("  ") and ln.strip():
            actions_text.append((n, _NOTE.split(ln.strip(), maxsplit=1)[0].strip()))
    if key is None:
        raise HandFileError(
            f"{p}: the history has no 'key: seed=.. game=.. hand=..' line (a stacked deck's "
            "history "
            "cannot be replayed: write a hand record with deck:, see docs/hand-record.md)"
        )
    dealer = int(head.group(2))
    strat = [strategies.get(s, "?") for s in range(rules.players)] if strategies else None
    rec = HandRecord(rules, [], key=key, dealer=dealer, cum=cum, strategies=strat)
    rec.actions = _parse_actions(p, rec, actions_text)
    return rec


def _hand_record(p: Path, lines: list[str], rules: RuleSet | None, options: dict):
    from reports.review import HandRecord

    fields: dict[str, str] = {}
    at: dict[str, int] = {}  # each field's line number, for the messages
    sets: list[str] = []
    actions_text: list[tuple[int, str]] = []
    in_actions = False
    for n, raw in enumerate(lines, 1):
        ln = raw.split("#", 1)[0].strip()
        if not ln:
            continue
        if in_actions:
            actions_text += _actions_of(p, n, ln)
            continue
        if ":" not in ln:
            raise HandFileError(
                f"{p}:{n}: expected 'name: value' (rules, players, set, key, deck, dealer, scores, "
                f"strategies, actions), got {ln!r}"
            )
        name, value = (x.strip() for x in ln.split(":", 1))
        name = name.lower()
        if name == "actions":
            in_actions = True
            actions_text += _actions_of(p, n, value)
        elif name == "set":
            sets.append(value)
        elif name in (
            "rules",
            "players",
            "team_layout",
            "key",
            "deck",
            "dealer",
            "scores",
            "strategies",
        ):
            if name in fields:
                raise HandFileError(
                    f"{p}:{n}: {name} is given twice (also on line {at[name]}); give it once"
                )
            if not value:
                raise HandFileError(f"{p}:{n}: {name}: an empty value")
            fields[name], at[name] = value, n
        else:
            raise HandFileError(f"{p}:{n}: unknown field {name!r}; see docs/hand-record.md")
    try:
        if rules is None:
            players = (
                _whole(Path(f"{p}:{at['players']}"), "players", fields["players"])
                if "players" in fields
                else None
            )
            if players is not None and not 2 <= players <= 6:
                raise HandFileError(f"{p}:{at['players']}: players: {players}; give 2 .. 6")
            rules = _rules_of(
                p,
                fields.get("rules"),
                players,
                fields.get("team_layout"),
                parse_overrides(sets),
                options,
            )
        key: tuple[int, int, int] | None = None
        if "key" in fields:
            m = re.match(r"^seed=(\d+)\s+game=(\d+)\s+hand=(\d+)$", fields["key"])
            if not m:
                raise HandFileError(f"{p}: key: write 'seed=S game=G hand=H'")
            key = _key(Path(f"{p}:{at['key']}"), m)
        deck = None
        if "deck" in fields:
            from sim.core.cards import parse_deck_text

            deck = [
                int(c) for c in parse_deck_text(fields["deck"], rules.decks)
            ]  # checks every card once
        if (key is None) == (deck is None):
            raise HandFileError(
                f"{p}: give exactly one of key: (a dealt hand) or deck: (a stacked deck)"
            )
        dealer = (
            _whole(Path(f"{p}:{at['dealer']}"), "dealer", fields["dealer"])
            if "dealer" in fields
            else None
        )
        cum = _scores(p, at.get("scores"), fields.get("scores", ""))
        if cum and len(cum) != rules.n_teams:
            raise HandFileError(
                f"{p}: scores: give {rules.n_teams} cumulative scores (one per team)"
            )
        strategies = None
        if "strategies" in fields:
            from sim.play.specs import check_specs
            from strategies.registry import split_specs

            where = f"{p}:{at['strategies']}: strategies"
            try:
                strategies = split_specs(fields["strategies"])
                # who played: the lab's players, "human" for a person, "?" for unknown
                check_specs([x for x in strategies if x not in SEAT_NAMES])
            except CanastaError as exc:
                raise HandFileError(f"{where}: {exc}") from None
            if len(strategies) == 1:
                strategies *= rules.players
            if len(strategies) != rules.players:
                raise HandFileError(
                    f"{where}: {len(strategies)} for {rules.players} seats; "
                    "give one or one per seat"
                )
        rec = HandRecord(
            rules, [], key=key, deck=deck, dealer=dealer, cum=cum, strategies=strategies
        )
        rec.new_state()
    except HandFileError:
        raise
    except (ValueError, KeyError, TypeError) as exc:
        raise HandFileError(f"{p}: {_first_line(exc)}") from None
    rec.actions = _parse_actions(p, rec, actions_text)
    return rec


def _actions_of(p: Path, n: int, text: str) -> list[tuple[int, str]]:
    """The actions of one line ('draw; discard 5'): an empty one between two ';' is refused."""
    parts = [a.strip() for a in text.split(";")]
    if parts and not parts[-1]:
        parts.pop()  # a line may end with ';'
    if any(not a for a in parts):
        raise HandFileError(f"{p}:{n}: an empty action between two ';'")
    return [(n, a) for a in parts]


def _key(where: Path, m: re.Match) -> tuple[int, int, int]:
    """(seed, game, hand) of a key line, each in its documented range (sim.core.limits)."""
    from sim.core import limits

    out = []
    for name, text, (lo, hi) in zip(
        ("seed", "game", "hand"), m.groups(), (limits.SEED, limits.GAME, limits.HAND), strict=True
    ):
        v = int(text)
        if not lo <= v <= hi:
            raise HandFileError(f"{where}: key: {name}={text} is out of range {lo} .. {hi}")
        out.append(v)
    return out[0], out[1], out[2]


def _parse_actions(p: Path, rec, actions_text: list[tuple[int, str]]) -> list[int]:
    gs: GameState = rec.new_state()
    out = []
    for n, text in actions_text:
        if gs.is_over:
            raise HandFileError(f"{p}:{n}: the hand is already over before {text!r}")
        try:
            a = gs._action_id(text)
            gs.apply(a)
        except (IllegalActionError, ValueError) as exc:
            raise HandFileError(f"{p}:{n}: {text!r}: {str(exc).splitlines()[0]}") from None
        out.append(int(a))
    if not gs.is_over:
        raise HandFileError(
            f"{p}: the hand is not over after its {len(out)} actions (list every action to the end)"
        )
    return out

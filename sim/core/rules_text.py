"""Command-line text of rule parameters: `--set name=value` into typed values.

The rule set itself (sim/core/rules.py) takes Python values; this module reads the text a
user types, so the domain model knows nothing about command-line syntax.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sim.core.params import BIG, PARAM_TYPES, RulesError, check_names

__all__ = ["parse_value", "parse_overrides"]

# parameters chosen by their own option (and file key), never by --set / set:
_CHOSEN_APART = {
    "name": "choose the preset with --rules NAME (rules: NAME in a file)",
    "players": "give the player count with --players N (players: N in a file)",
    "team_layout": "give the layout with --team-layout 2x3|3x2 (team_layout: in a file)",
}

_TRUE = ("1", "true", "yes", "on", "y")
_FALSE = ("0", "false", "no", "off", "n")


def parse_value(name: str, text: str) -> Any:
    """Parse the text of `--set name=value` into the field's type.

    ints: 5000, 10_000 or 10,000; bools: yes/no, true/false, on/off, 1/0;
    red_three_scores: 0,100,200,300,800,800,800;
    minimum_bands: 0:50,1500:90,3000:120,7000:150 (fewer than 4 bands are padded with unused ones);
    card_values: 15 comma-separated ints in kind order, or kind:points pairs (joker:60,two:25).
    """
    check_names([name])
    ftype = PARAM_TYPES[name]
    t = text.strip()
    try:
        if name == "red_three_scores":
            return tuple(int(x) for x in t.split(","))
        if name == "minimum_bands":
            bands = []
            for part in t.split(","):
                a, m = part.split(":")
                bands.append((int(a), int(m)))
            while 0 < len(bands) < 4:
                bands.append((BIG, bands[-1][1]))
            return tuple(bands)
        if name == "card_values":
            if ":" in t or "=" in t:
                pairs = [part.replace("=", ":").split(":") for part in t.split(",")]
                return {k.strip(): int(v) for k, v in pairs}
            return tuple(int(x) for x in t.split(","))
    except ValueError:
        raise RulesError(
            f"{name}='{text}' cannot be read; examples: red_three_scores=0,100,200,300,800,800,800 "
            "minimum_bands=0:50,1500:90,3000:120,7000:150 card_values=joker:60,two:25"
        ) from None
    if ftype == "bool":
        if t.lower() in _TRUE:
            return True
        if t.lower() in _FALSE:
            return False
        raise RulesError(f"{name}='{text}' must be yes or no (true/false, 1/0)")
    if ftype == "int":
        try:
            return int(t.replace(",", ""))
        except ValueError:
            raise RulesError(f"{name}='{text}' must be an integer") from None
    return t


def parse_overrides(items: Sequence[str] | None) -> dict[str, Any]:
    """['name=value', ...] (from --set) -> {name: typed value}."""
    out: dict[str, Any] = {}
    for item in items or ():
        name, sep, text = item.partition("=")
        name = name.strip()
        if not sep or not name:
            raise RulesError(f"--set expects name=value, got '{item}'")
        if name in _CHOSEN_APART:
            raise RulesError(f"{name}={text.strip()} is not a rule override: {_CHOSEN_APART[name]}")
        if name in out:
            raise RulesError(f"--set {name} is given twice; give each parameter once")
        out[name] = parse_value(name, text)
    return out

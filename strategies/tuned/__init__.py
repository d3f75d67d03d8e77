"""Tuned knob sets, one per table: `<strategy>.json` in this folder (package data).

A file holds {"strategy": name, "tables": {table: {"knobs": {knob: value}, "command": ...,
"seed": ..., "budget": ..., "date": ..., ...}}}; a table is named like `RuleSet.label`
("classic-4p", "german-6p-3x2", "samba-4p").  The registry starts a strategy's knob vector from
its table's set when there is one (then the spec's own knobs override it); a table without a set
(or rules changed with --set, which keep their preset's table) uses the module's KNOBS.
benchmarks/tune_tables.py writes the files; `canasta tune` reproduces each table's search.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

__all__ = ["table_knobs", "tuned_tables"]

# a strategy that plays another one's tuned sets (same decision function, same knobs)
SETS_OF: dict[str, str] = {"expert": "expert-v1"}


@cache
def _load(strategy: str) -> dict:
    name = f"{SETS_OF.get(strategy, strategy).replace('-', '_')}.json"
    path = resources.files(__name__).joinpath(name)
    if not path.is_file():
        return {}
    return json.loads(path.read_text())


def tuned_tables(strategy: str) -> dict[str, dict]:
    """{table: record} of the strategy's tuned sets (empty when it has none)."""
    return dict(_load(strategy).get("tables", {}))


def table_knobs(strategy: str, table: str | None) -> dict[str, float]:
    """The tuned knob values of ``strategy`` at ``table`` ({} without a set)."""
    if not table:
        return {}
    rec = _load(strategy).get("tables", {}).get(table)
    return {k: float(v) for k, v in rec["knobs"].items()} if rec else {}

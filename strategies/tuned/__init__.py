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

# a strategy whose tuned sets start from another one's (its own file, if any, adds knobs or
# overrides them per table): expert plays expert-v1's heuristic knobs under its decision model
SETS_OF: dict[str, str] = {"expert": "expert-v1"}


@cache
def _file(strategy: str) -> dict:
    path = resources.files(__name__).joinpath(f"{strategy.replace('-', '_')}.json")
    return json.loads(path.read_text()) if path.is_file() else {}


@cache
def _load(strategy: str) -> dict:
    """The strategy's records: those of the strategy it starts from (SETS_OF), each table's
    knobs updated by its own file's."""
    own = _file(strategy)
    if strategy not in SETS_OF:
        return own
    tables = {t: dict(r) for t, r in _load(SETS_OF[strategy]).get("tables", {}).items()}
    for t, r in own.get("tables", {}).items():
        knobs = {**tables.get(t, {}).get("knobs", {}), **r.get("knobs", {})}
        tables[t] = {**tables.get(t, {}), **r, "knobs": knobs}
    return {**own, "tables": tables}


def tuned_tables(strategy: str) -> dict[str, dict]:
    """{table: record} of the strategy's tuned sets (empty when it has none)."""
    return dict(_load(strategy).get("tables", {}))


def table_knobs(strategy: str, table: str | None) -> dict[str, float]:
    """The tuned knob values of ``strategy`` at ``table`` ({} without a set)."""
    if not table:
        return {}
    rec = _load(strategy).get("tables", {}).get(table)
    return {k: float(v) for k, v in rec["knobs"].items()} if rec else {}

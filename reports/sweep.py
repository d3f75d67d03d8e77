"""Knob sweeps: a grid of settings of a tunable strategy against a fixed opponent.

Assumption (until the strategy knob interface exists): a strategy *spec* string
``name:k1=v1,k2=v2`` is passed unchanged as the strategy name to ``run_chunk``; the core /
strategy registry parses it.  Knobs already in ``strategy`` ("tunable:freeze_when=2") are kept
unless the grid overrides them.  Every setting plays the same duplicate deals (same seed and
deal keys), so the differences between settings are themselves paired.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pandas as pd

from reports.compare import compare
from sim.core.errors import CanastaError

__all__ = ["make_spec", "parse_spec", "parse_knobs", "sweep"]


def _fmt(v) -> str:
    if isinstance(v, bool):
        return "1" if v else "0"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """"name:k=v,k2=v2" -> ("name", {"k": "v", "k2": "v2"}) (strategies.registry.split_spec,
    the one reader of strategy specs)."""
    from strategies.registry import split_spec  # noqa: PLC0415

    return split_spec(spec)


def make_spec(strategy: str, knobs: dict) -> str:
    """Strategy spec string with ``knobs`` merged over the spec's own knobs (order kept)."""
    name, base = parse_spec(strategy)
    merged = {**base, **{k: _fmt(v) for k, v in knobs.items()}}
    if not merged:
        return name
    return name + ":" + ",".join(f"{k}={v}" for k, v in merged.items())


def _num(text: str):
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text


def parse_knobs(items: list[str]) -> dict[str, list]:
    """CLI knob grid: ["open_threshold=50,70,90", "freeze_when=1,2"] -> dict of value lists."""
    out: dict[str, list] = {}
    for item in items:
        k, eq, vals = item.partition("=")
        values = [v.strip() for v in vals.split(",") if v.strip()]
        if not eq or not k.strip() or not values:
            raise CanastaError(f"bad --knob {item!r} (expected name=v1,v2,...)")
        if k.strip() in out:
            raise CanastaError(f"--knob {k.strip()} is given twice; list all its values in one --knob")
        out[k.strip()] = [_num(v) for v in values]
    return out


def sweep(
    strategy: str,
    knobs: dict[str, list],
    opponent: str,
    rules=None,
    hands: int = 10_000,
    seed: int = 0,
    until_ci: float | None = None,
    max_hands: int = 1_000_000,
    jobs: int = -1,
    chunk_fn: Callable | None = None,
    level: float = 0.95,
) -> pd.DataFrame:
    """Play every knob combination of ``strategy`` against ``opponent`` on duplicate deals.

    Returns one row per setting, sorted by mean_diff_per_hand (best first), with the knob
    values as columns, the spec string, and the compare() statistics (setting minus opponent)."""
    if not isinstance(knobs, dict) or not knobs:
        raise CanastaError(f"knobs={knobs!r}: give a dict of knob name -> list of values, e.g. {{'open_threshold': [50, 70]}}")
    if any(isinstance(v, str) or not hasattr(v, "__iter__") for v in knobs.values()):
        raise CanastaError(f"knobs={knobs!r}: each knob needs a list of values, e.g. {{'open_threshold': [50, 70]}}")
    names = list(knobs)
    fixed = set(parse_spec(strategy)[1]) & set(names)
    if fixed:
        k = sorted(fixed)[0]
        raise CanastaError(f"knob {k} is both fixed in {strategy!r} and swept; give it in one place")
    for k in names:
        if not list(knobs[k]):
            raise CanastaError(f"knob {k!r} has no values")
    rows = []
    for combo in itertools.product(*(list(knobs[k]) for k in names)):
        setting = dict(zip(names, combo, strict=True))
        spec = make_spec(strategy, setting)
        if spec == opponent:
            raise CanastaError(f"setting {spec!r} is the opponent itself")
        df = compare([spec, opponent], rules, hands, None, seed, until_ci, max_hands, jobs,
                     chunk_fn, level)
        row = {**setting, "spec": spec, "opponent": opponent}
        row.update(df.drop(columns=["a", "b"]).iloc[0].to_dict())
        rows.append(row)
    out = pd.DataFrame(rows)
    out = out.sort_values("mean_diff_per_hand", ascending=False, kind="stable")
    out.insert(0, "rank", range(1, len(out) + 1))
    return out.reset_index(drop=True)

"""Knob sweeps: a grid of settings of a tunable strategy against a fixed opponent.

Assumption (until the strategy knob interface exists): a strategy *spec* string
``name:k1=v1,k2=v2`` is passed unchanged as the strategy name to ``run_chunk``; the core /
strategy registry parses it.  Knobs already in ``strategy`` ("tunable:freeze_when=2") are kept
unless the grid overrides them.  Every setting plays the same duplicate deals (same seed and
deal keys), so the differences between settings are themselves paired: each setting is shown
as its paired difference to the baseline (the strategy as given) with a CI over deals, settings
not told apart from the best are marked tied, knobs without an effect are flagged, and the
winner is played again against the baseline on fresh deals (another seed): picking the best of
many noisy settings inflates its edge (the winner's curse), the retest does not.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pandas as pd

from reports import stats
from reports.compare import compare
from sim.core.errors import CanastaError
from sim.runs.progress import progress_bar

__all__ = ["make_spec", "parse_spec", "parse_knobs", "sweep"]


def _fmt(v) -> str:
    if isinstance(v, bool):
        return "1" if v else "0"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """ "name:k=v,k2=v2" -> ("name", {"k": "v", "k2": "v2"}) (strategies.registry.split_spec,
    the one reader of strategy specs)."""
    from strategies.registry import split_spec

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
        values = [v.strip() for v in vals.split(",")]
        if not eq or not k.strip() or not all(values):
            raise CanastaError(f"bad --knob {item!r} (expected name=v1,v2,...)")
        if k.strip() in out:
            raise CanastaError(
                f"--knob {k.strip()} is given twice; list all its values in one --knob"
            )
        out[k.strip()] = [_num(v) for v in values]
    return out


def _paired(df: pd.DataFrame) -> np.ndarray:
    """Per-deal paired difference (setting minus opponent) of a one-pair compare() result."""
    d1, d2 = next(iter(df.attrs["diffs"].values()))
    return (d1 + d2) / 2.0


def _vs(x: np.ndarray, y: np.ndarray, level: float) -> stats.CI:
    """CI of mean(x - y) on the deals both were played on (a prefix of the same deal keys)."""
    n = min(x.size, y.size)
    return stats.paired_diff_ci(x[:n], y[:n], level)


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
    level: float = 0.95,
    retest: bool = True,
    progress: Any = None,
) -> pd.DataFrame:
    """Play every knob combination of ``strategy`` and ``strategy`` itself (the baseline)
    against ``opponent`` on the same duplicate deals.

    Returns one row per setting, best first: knob values, spec, the compare() statistics
    (setting minus opponent), ``vs_baseline`` with ``vs_baseline_low/high`` (the paired
    difference setting minus baseline, per hand, CI over deals), ``vs_best_low/high`` (the same
    against the first row) and ``tied_best`` (that CI includes 0: not told apart from the best).
    ``out.attrs["baseline"]``: the baseline's compare() row.  ``out.attrs["knobs"]``: per knob,
    its largest paired effect and whether it has none (``no_effect``: play identical on every
    deal, or every value's CI against the knob's first value includes 0).
    ``out.attrs["retest"]``: the winner against the baseline again on ``hands`` fresh deals
    (seed + 1), free of the winner's curse of picking the best of many noisy settings."""
    if not isinstance(knobs, dict) or not knobs:
        raise CanastaError(
            f"knobs={knobs!r}: give a dict of knob name -> list of values, e.g. "
            f"{{'open_threshold': [50, 70]}}"
        )
    if any(isinstance(v, str) or not hasattr(v, "__iter__") for v in knobs.values()):
        raise CanastaError(
            f"knobs={knobs!r}: each knob needs a list of values, e.g. "
            f"{{'open_threshold': [50, 70]}}"
        )
    names = list(knobs)
    from reports.checks import compare_args
    from sim.play.specs import COMPILED, check_spec

    compare_args(hands, None, seed, until_ci, max_hands, jobs, level)

    check_spec(strategy, "strategy", COMPILED)  # sweep varies a compiled strategy's knobs
    check_spec(opponent, "opponent")
    for k in names:
        if not isinstance(k, str) or not list(knobs[k]):
            raise CanastaError(f"knob {k!r} has no values")
        for v in knobs[k]:  # every setting is a valid spec before any deal is played
            if isinstance(v, bool) or not isinstance(v, int | float):
                raise CanastaError(f"knob {k}={v!r}: give numbers")
            check_spec(make_spec(strategy, {k: v}), "--knob", COMPILED)

    # compares: the baseline, every setting, and the retest's winner and baseline
    settings = 1 + int(np.prod([len(list(knobs[k])) for k in names])) + 2 * int(retest)
    first = 2 * (hands if until_ci is None else min(hands, max_hands))  # both seatings
    with progress_bar(progress, settings * first, "deal", "sweep") as bar:
        out = _sweep(
            strategy,
            knobs,
            names,
            opponent,
            rules,
            hands,
            seed,
            until_ci,
            max_hands,
            jobs,
            level,
            retest,
            bar,
        )
        bar.total = bar.n  # the retest of a winning baseline plays once, not twice
        bar.refresh()
    return out


def _sweep(
    strategy,
    knobs,
    names,
    opponent,
    rules,
    hands,
    seed,
    until_ci,
    max_hands,
    jobs,
    level,
    retest,
    bar,
) -> pd.DataFrame:
    def play(spec: str, s: int) -> pd.DataFrame:
        return compare(
            [spec, opponent],
            rules,
            hands,
            None,
            s,
            until_ci,
            max_hands,
            jobs,
            level,
            progress=bar,
        )

    base_df = play(strategy, seed)
    base = _paired(base_df)
    rows, paired = [], []
    for combo in itertools.product(*(list(knobs[k]) for k in names)):
        setting = dict(zip(names, combo, strict=True))
        spec = make_spec(strategy, setting)
        if spec == opponent:
            raise CanastaError(f"setting {spec!r} is the opponent itself")
        df = play(spec, seed)
        x = _paired(df)
        vb = _vs(x, base, level)
        row = {**setting, "spec": spec, "opponent": opponent}
        row.update(df.drop(columns=["a", "b"]).iloc[0].to_dict())
        row.update(vs_baseline=vb.mean, vs_baseline_low=vb.low, vs_baseline_high=vb.high)
        rows.append(row)
        paired.append(x)
    out = pd.DataFrame(rows)
    order = np.argsort(-out["mean_diff_per_hand"].to_numpy(), kind="stable")
    out = out.iloc[order].reset_index(drop=True)
    paired = [paired[i] for i in order]
    best = [_vs(x, paired[0], level) for x in paired]
    out["vs_best_low"] = [c.low for c in best]
    out["vs_best_high"] = [c.high for c in best]
    out["tied_best"] = [(c.low <= 0 <= c.high) or i == 0 for i, c in enumerate(best)]
    out.insert(0, "rank", range(1, len(out) + 1))
    out.attrs["baseline"] = base_df.iloc[0].to_dict()
    out.attrs["knobs"] = _knob_effects(out, knobs, paired, level)
    if retest:
        out.attrs["retest"] = _retest(out.iloc[0]["spec"], strategy, play, seed + 1, level)
    return out


def _knob_effects(
    out: pd.DataFrame, knobs: dict[str, list], paired: list[np.ndarray], level: float
):
    """Per knob: for each value, the paired difference to the knob's first value with the other
    knobs held fixed (averaged over their combinations, per deal)."""
    rows = []
    names = list(knobs)
    n = min(x.size for x in paired)
    arr = np.stack([x[:n] for x in paired])
    for k in names:
        values = list(dict.fromkeys(knobs[k]))
        others = [o for o in names if o != k]
        key = (
            out[others].astype(str).agg("|".join, axis=1) if others else pd.Series([""] * len(out))
        )
        per_value = []
        for v in values:
            sel = (out[k] == v).to_numpy()
            order = np.argsort(key[sel].to_numpy(), kind="stable")
            per_value.append(arr[sel][order])
        identical = all(np.array_equal(per_value[0], p) for p in per_value[1:])
        effects = [
            stats.mean_ci(p.mean(axis=0) - per_value[0].mean(axis=0), level) for p in per_value[1:]
        ]
        biggest = max(effects, key=lambda c: abs(c.mean)) if effects else None
        none = identical or all(c.low <= 0 <= c.high for c in effects)
        rows.append(
            {
                "knob": k,
                "values": ",".join(str(v) for v in values),
                "largest_effect": biggest.mean if biggest else np.nan,
                "largest_effect_low": biggest.low if biggest else np.nan,
                "largest_effect_high": biggest.high if biggest else np.nan,
                "play_identical": identical,
                "no_effect": none,
            }
        )
    return pd.DataFrame(rows)


def _retest(winner: str, baseline: str, play, seed: int, level: float) -> dict:
    w = _paired(play(winner, seed))
    if winner == baseline:
        return {
            "spec": winner,
            "seed": seed,
            "deals": int(w.size),
            "vs_baseline": 0.0,
            "vs_baseline_low": 0.0,
            "vs_baseline_high": 0.0,
            "confirmed": False,
        }
    c = _vs(w, _paired(play(baseline, seed)), level)
    return {
        "spec": winner,
        "seed": seed,
        "deals": c.n,
        "vs_baseline": c.mean,
        "vs_baseline_low": c.low,
        "vs_baseline_high": c.high,
        "confirmed": bool(c.low > 0),
    }

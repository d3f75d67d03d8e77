"""The search-player table of the README: pimc at its default budget (32 worlds) against the
table's tuned expert, one row per table, combined over the runs of `bench_search.py seat`.

    python benchmarks/search_tables.py [--seed 51]

Runs of one table with the same seed over disjoint deal ranges (--start) are parts of one sample
of deals: their combined mean is the deal-weighted mean, and its standard error
sqrt(sum n_i^2 se_i^2) / N (independent parts), where se_i comes back from each run's 95% t
interval.  Five-player tables are measured in whole games (the unit of the pairing); their
per-hand figure is per game divided by the hands per game.  Writes
benchmarks/results/search_tables.json and prints a markdown table.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from scipy import stats as st

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "benchmarks" / "results" / "search.jsonl"
OUT = ROOT / "benchmarks" / "results" / "search_tables.json"
DEFAULT_SPECS = ("pimc", "pimc:worlds=32")
ORDER = (
    "classic-2p",
    "classic-3p",
    "classic-4p",
    "classic-5p",
    "classic-6p-2x3",
    "classic-6p-3x2",
    "german-2p",
    "german-3p",
    "german-4p",
    "german-5p",
    "german-6p-2x3",
    "german-6p-3x2",
    "samba-4p",
)


def _runs(seed: int) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for line in SRC.read_text().splitlines():
        d = json.loads(line)
        if (
            d.get("seed") == seed
            and d.get("spec") in DEFAULT_SPECS
            and d.get("base") == "expert"
            and d.get("opponents", "expert") == "expert"
            and d["design"].startswith("one searching seat")
        ):
            out.setdefault(d["table"], []).append(d)
    return out


def combine(runs: list[dict]) -> dict:
    """Deal-weighted mean and 95% interval of disjoint runs (per hand; per game for games)."""
    starts = sorted((r["start"], r["start"] + r["deals"]) for r in runs)
    for (_, hi), (lo, _) in zip(starts, starts[1:], strict=False):
        if lo < hi:
            raise SystemExit(f"{runs[0]['table']}: overlapping deal ranges {starts}")
    games = "unit" in runs[0]
    key = (
        ("mean_diff_per_game", "ci_low_per_game", "ci_high_per_game")
        if games
        else ("mean_diff_per_hand", "ci_low", "ci_high")
    )
    n_total = sum(r["deals"] for r in runs)
    mean = sum(r["deals"] * r[key[0]] for r in runs) / n_total
    var = 0.0
    for r in runs:
        se = (r[key[2]] - r[key[1]]) / (2 * st.t.ppf(0.975, r["deals"] - 1))
        var += (r["deals"] * se) ** 2
    half = st.norm.ppf(0.975) * var**0.5 / n_total
    row = {
        "table": runs[0]["table"],
        "deals": n_total,
        "unit": "game" if games else "hand",
        "ranges": starts,
        "mean": round(mean, 1),
        "ci_low": round(mean - half, 1),
        "ci_high": round(mean + half, 1),
    }
    if games:
        hands = sum(r["hands"] for r in runs)
        per = hands / n_total
        row.update(
            hands=hands,
            hands_per_game=round(per, 2),
            mean_per_hand=round(mean / per, 1),
            ci_low_per_hand=round((mean - half) / per, 1),
            ci_high_per_hand=round((mean + half) / per, 1),
        )
    return row


def main() -> None:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--seed", type=int, default=51)
    args = p.parse_args()
    runs = _runs(args.seed)
    rows = [combine(runs[t]) for t in ORDER if t in runs]
    OUT.write_text(json.dumps({"seed": args.seed, "rows": rows}, indent=1) + "\n")
    print("| table | deals | pimc minus expert, points per hand [95% CI] | ahead |")
    print("|---|---|---|---|")
    for r in rows:
        if r["unit"] == "game":
            cell = (
                f"{r['mean_per_hand']:+.0f} [{r['ci_low_per_hand']:+.0f}, "
                f"{r['ci_high_per_hand']:+.0f}] "
                f"({r['mean']:+.0f} [{r['ci_low']:+.0f}, {r['ci_high']:+.0f}] per game)"
            )
            n = f"{r['deals']:,} games ({r['hands']:,} hands)"
        else:
            cell = f"{r['mean']:+.0f} [{r['ci_low']:+.0f}, {r['ci_high']:+.0f}]"
            n = f"{r['deals']:,}"
        print(f"| {r['table']} | {n} | {cell} | {'yes' if r['ci_low'] > 0 else 'not separable'} |")
    missing = [t for t in ORDER if t not in runs]
    if missing:
        print("not measured:", ", ".join(missing))


if __name__ == "__main__":
    main()

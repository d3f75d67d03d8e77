"""The ladder: every built-in player against tuned `expert`, per table, plus a Bradley-Terry rating.

Per table, every pair of players plays the same duplicate deals (``reports.duplicate``: A on one
team's seats, B on the others, A's team going round all teams).  For a pair (A, B) the deal's
difference is (advantage of A seated alone against B - advantage of B seated alone against A) / 2;
at a 2-team table this is exactly ``canasta compare``'s paired difference, at a 3-team table it
averages the two ways of seating one strategy against two teams of the other. Printed per player:
mean difference per hand against tuned expert (`expert` at its table, strategies/tuned/) with its
95% CI over deals (expert-untuned: expert's module knobs at every table), and the Bradley-Terry /
Elo rating of the round robin (deal wins; bootstrap CI over deals,
``reports.stats.bradley_terry_bootstrap``), plus each player's hands/s in self-play (one core, noisy
on a shared machine).  Results: benchmarks/results/ladder/<table>.json.

Example:
  nice -n 10 python benchmarks/bench_ladder.py --tables classic-4p --deals 2000 --jobs 2
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from pathlib import Path

import numpy as np
from tune_tables import TABLES, UNTUNED, table_name

from reports import stats
from reports.duplicate import play_pairs
from sim.core.rules import RuleSet
from sim.play.engine import run_chunk

ROOT = Path(__file__).resolve().parents[1]

OUT = ROOT / "benchmarks" / "results" / "ladder"
# expert: the learned player (the reference); expert-v1: the tuned heuristic; UNTUNED: the
# heuristic's module knobs written out, the same player at every table (no tuned set applies)
PLAYERS = ["expert", "expert-v1", UNTUNED, "pile-control", "patient", "greedy", "tunable", "random"]
LABELS = {UNTUNED: "expert-untuned"}
REFERENCE = "expert"


def pair_differences(rules, players, seed, deals, jobs) -> dict[tuple[str, str], np.ndarray]:
    """{(a, b): per-deal difference a - b} for every pair a before b in ``players``."""
    pairs = list(itertools.combinations(players, 2))
    todo = pairs if rules.n_teams == 2 else pairs + [(b, a) for a, b in pairs]
    got = play_pairs(rules, todo, seed, 0, deals, jobs)
    if rules.n_teams == 2:
        return {p: got[p] for p in pairs}
    return {(a, b): (got[(a, b)] - got[(b, a)]) / 2.0 for a, b in pairs}


def rating(players, diffs, seed) -> list[dict]:
    k = len(players)
    idx = {s: i for i, s in enumerate(players)}
    n = len(next(iter(diffs.values())))
    units = np.zeros((n, k, k))
    for (a, b), p in diffs.items():
        i, j = idx[a], idx[b]
        units[:, i, j] += (p > 0) + 0.5 * (p == 0)
        units[:, j, i] += (p < 0) + 0.5 * (p == 0)
    bt = stats.bradley_terry_bootstrap(units, 0.95, n_boot=200, seed=seed)
    elo = stats.to_elo(bt.theta)
    shift = elo - stats.ELO_SCALE * bt.theta
    return [
        {
            "player": s,
            "elo": float(elo[i]),
            "elo_low": float(shift[i] + stats.ELO_SCALE * bt.low[i]),
            "elo_high": float(shift[i] + stats.ELO_SCALE * bt.high[i]),
        }
        for i, s in enumerate(players)
    ]


def speed(rules, player: str, hands: int) -> float:
    seats = [player] * rules.players
    run_chunk(rules, seats, 0, 0, 20)  # compile / warm up
    t = time.perf_counter()
    run_chunk(rules, seats, 0, 0, hands)
    return hands / (time.perf_counter() - t)


def ladder(rules, players, seed, deals, jobs, speed_hands) -> dict:
    diffs = pair_differences(rules, players, seed, deals, jobs)
    rows = {r["player"]: r for r in rating(players, diffs, seed)}
    for s in players:
        if s == REFERENCE:
            rows[s].update(vs_expert=0.0, vs_low=0.0, vs_high=0.0)
            continue
        d = diffs[(REFERENCE, s)] if (REFERENCE, s) in diffs else -diffs[(s, REFERENCE)]
        ci = stats.mean_ci(-d)  # the player minus expert
        rows[s].update(vs_expert=ci.mean, vs_low=ci.low, vs_high=ci.high)
    for s in players:
        rows[s]["hands_per_s"] = speed(rules, s, speed_hands) if speed_hands else None
    for s in players:
        rows[s]["spec"], rows[s]["player"] = s, LABELS.get(s, s)
    out = sorted(rows.values(), key=lambda r: -r["elo"])
    return {"table": rules.label, "deals": deals, "seed": seed, "players": out}


def show(res: dict) -> str:
    lines = [
        f"{res['table']} ({res['deals']:,} duplicate deals per pair, seed {res['seed']})",
        f"  {'player':<14}{'vs tuned expert (pts/hand)':>30}{'Elo [95% CI]':>24}{'hands/s':>10}",
    ]
    for r in res["players"]:
        vs = f"{r['vs_expert']:+.0f} [{r['vs_low']:+.0f}, {r['vs_high']:+.0f}]"
        elo = f"{r['elo']:.0f} [{r['elo_low']:.0f}, {r['elo_high']:.0f}]"
        hs = f"{r['hands_per_s']:,.0f}" if r["hands_per_s"] else "-"
        lines.append(f"  {r['player']:<14}{vs:>30}{elo:>24}{hs:>10}")
    return "\n".join(lines)


def markdown(results: Path = OUT) -> str:
    """README tables from the saved results: points per hand against tuned expert [95% CI] and
    Elo, one row per table; hands/s of each player in self-play."""
    done = [(table_name(*t), results / f"{table_name(*t)}.json") for t in TABLES]
    done = [(n, json.loads(f.read_text())) for n, f in done if f.exists()]
    if not done:
        return "no ladder results yet"
    names = [
        r["player"] for r in sorted(done[0][1]["players"], key=lambda r: PLAYERS.index(r["spec"]))
    ]
    out = ["| table | " + " | ".join(names) + " |", "|---|" + "---:|" * len(names)]
    for n, res in done:
        by = {r["player"]: r for r in res["players"]}
        cells = []
        for p in names:
            r = by[p]
            vs = (
                "0 (reference)"
                if p == REFERENCE
                else f"{r['vs_expert']:+.0f} [{r['vs_low']:+.0f}, {r['vs_high']:+.0f}]"
            )
            cells.append(f"{vs}, Elo {r['elo']:.0f}")
        out.append(f"| {n} | " + " | ".join(cells) + " |")
    out += ["", "| table | " + " | ".join(names) + " |", "|---|" + "---:|" * len(names)]
    for n, res in done:
        by = {r["player"]: r for r in res["players"]}
        out.append(
            f"| {n} | "
            + " | ".join(
                f"{by[p]['hands_per_s']:,.0f}" if by[p]["hands_per_s"] else "-" for p in names
            )
            + " |"
        )
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--tables", nargs="*", default=None, help="table names (default all 13)")
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument(
        "--speed-hands", type=int, default=2000, help="self-play hands per speed figure (0: skip)"
    )
    ap.add_argument(
        "--markdown", action="store_true", help="only print the README tables of saved results"
    )
    args = ap.parse_args()
    if args.markdown:
        print(markdown())
        return 0
    OUT.mkdir(parents=True, exist_ok=True)
    for preset, players, layout in TABLES:
        name = table_name(preset, players, layout)
        if args.tables and name not in args.tables:
            continue
        rules = RuleSet.preset(preset, players, layout)
        res = ladder(rules, PLAYERS, args.seed, args.deals, args.jobs, args.speed_hands)
        (OUT / f"{name}.json").write_text(json.dumps(res, indent=1))
        print(show(res), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

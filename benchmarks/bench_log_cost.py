"""Where the time of a fully logged hand goes: the core's play without and with decision logs,
building the arrow tables, and parquet encoding of each table, in CPU microseconds per hand.
Prints a table and writes benchmarks/results/log_cost.json.

    python benchmarks/bench_log_cost.py                      # greedy, classic 4p, basic and cards
    python benchmarks/bench_log_cost.py --strategy expert --rounds 9

Every stage runs in this process (time.process_time, so other processes' load counts less than
in wall time), chunk after chunk as a worker does (reused decision buffers); the stages take
turns within each round and the table gives each stage's median over the rounds.  The ratio
column is the logged hand's total over the unlogged hand's, round by round (median [min, max]):
what `bench_simulate.py` measures as a whole, minus the runner and the file writes.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import time
from pathlib import Path

from sim.core.rules import RuleSet
from sim.play.engine import run_chunk
from sim.runs import encode, integrity, runner

ROOT = Path(__file__).resolve().parents[1]

RESULTS = ROOT / "benchmarks" / "results" / "log_cost.json"
STAGES = ("play", "tables", "encode_decisions", "encode_hands_games")


def one_chunk(rules, strategies, detail: str | None, start: int, count: int) -> dict[str, float]:
    """CPU seconds of each stage for one chunk (detail None: no decision log)."""
    c0 = time.process_time()
    res = run_chunk(
        rules,
        strategies,
        7,
        start,
        count,
        log_rate=1.0 if detail else 0.0,
        reuse_buffers=True,
        **({"log_detail": detail} if detail else {}),
    )
    c1 = time.process_time()
    tables = encode.record_tables(
        res.hands, res.decision_columns or res.decisions, res.games, rules, strategies
    )
    assert tables is not None
    c2 = time.process_time()
    key = integrity.chunk_key(start // count, 7, start, count)
    dec = encode.encode_table(tables["decisions"], "decisions", key)
    c3 = time.process_time()
    encode.encode_table(tables["hands"], "hands", key)
    encode.encode_table(tables["games"], "games", key)
    c4 = time.process_time()
    return {
        "play": c1 - c0,
        "tables": c2 - c1,
        "encode_decisions": c3 - c2,
        "encode_hands_games": c4 - c3,
        "rows": tables["decisions"].num_rows,
        "bytes": len(dec),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--strategy", default="greedy", help="self-play strategy (default greedy)")
    ap.add_argument("--chunk-size", type=int, default=2_500, help="hands per chunk (default 2500)")
    ap.add_argument("--chunks", type=int, default=4, help="chunks per stage and round (default 4)")
    ap.add_argument(
        "--rounds", type=int, default=5, help="rounds, the stages taking turns (default 5)"
    )
    ap.add_argument("--output", default=str(RESULTS), help="JSON results file")
    args = ap.parse_args(argv)

    rules = RuleSet.preset("classic", players=4)
    strategies = (args.strategy,) * 4
    details: list[str | None] = [None, "basic", "cards"]
    for d in details:  # compile / load the kernels first
        one_chunk(rules, strategies, d, 0, 50)
    gc.freeze()
    per: dict[str, list[dict[str, float]]] = {str(d): [] for d in details}
    n = args.chunk_size
    for _ in range(max(1, args.rounds)):
        for d in details:
            gc.collect()
            parts = [one_chunk(rules, strategies, d, i * n, n) for i in range(args.chunks)]
            per[str(d)].append({k: sum(p[k] for p in parts) / (n * args.chunks) for k in parts[0]})
    out = {}
    for d, rounds in per.items():
        med = {k: statistics.median(r[k] for r in rounds) for k in rounds[0]}
        cell = {f"{k}_us": round(med[k] * 1e6, 2) for k in STAGES}
        cell["total_us"] = round(sum(med[k] for k in STAGES) * 1e6, 2)
        cell["decision_rows_per_hand"] = round(med["rows"], 2)
        cell["decision_bytes_per_hand"] = round(med["bytes"], 1)
        out["none" if d == "None" else d] = cell
    base = [
        sum(r[k] for k in STAGES) for r in per["None"]
    ]  # an unlogged run builds and writes all three too
    for d in ("basic", "cards"):
        ratios = [sum(r[k] for k in STAGES) / b for r, b in zip(per[d], base, strict=True)]
        out[d]["ratio_median"] = round(statistics.median(ratios), 2)
        out[d]["ratio_min_max"] = [round(min(ratios), 2), round(max(ratios), 2)]
    print(
        f"CPU us per hand, {args.strategy} classic 4p, chunks of {n:,}, median of {args.rounds} "
        "rounds "
        f"({args.chunks} chunks each); load average {os.getloadavg()[0]:.1f}"
    )
    head = (
        f"{'log':>6} {'play':>7} {'tables':>7} {'enc dec':>8} {'enc h+g':>8} {'total':>7} "
        f"{'ratio':>14} {'B/hand':>7}"
    )
    print(head)
    print("-" * len(head))
    for d, c in out.items():
        ratio = f"x{c['ratio_median']} {c['ratio_min_max']}" if "ratio_median" in c else ""
        print(
            f"{d:>6} {c['play_us']:>7} {c['tables_us']:>7} {c['encode_decisions_us']:>8} "
            f"{c['encode_hands_games_us']:>8} {c['total_us']:>7} {ratio:>14} "
            f"{c['decision_bytes_per_hand']:>7}"
        )
    result = {
        "benchmark": "log_cost",
        "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "versions": runner.package_versions(),
        "strategy": args.strategy,
        "rules": "classic",
        "players": 4,
        "chunk_size": n,
        "chunks": args.chunks,
        "rounds": args.rounds,
        "load_average": os.getloadavg(),
        "per_hand": out,
    }
    Path(args.output).write_text(json.dumps(result, indent=2) + "\n")
    print(f"written {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

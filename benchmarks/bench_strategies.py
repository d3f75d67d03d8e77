"""Hands per second of every strategy on one core (classic, four players, all seats the same
strategy, compile time excluded), plus the Python tier (PyGreedy through sim.play.pyplay).
Writes benchmarks/results/strategies.json.

    python benchmarks/bench_strategies.py [--hands 20000]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path

from sim.core.rules import RuleSet
from sim.play.engine import run_chunk
from sim.play.pyplay import play_hand_py
from strategies.python_tier import PyGreedy
from strategies.registry import STRATEGY_NAMES

ROOT = Path(__file__).resolve().parents[1]

GOALS = {"greedy": 100_000, "expert": 40_000}  # issue 14: `canasta simulate` without logs, per core


def bench_fast(name: str, hands: int, rules: RuleSet, repeats: int = 3) -> dict:
    run_chunk(rules, [name] * 4, 1, 0, 20)  # compile / load the cache first
    best = float("inf")
    res = None
    for r in range(repeats):
        t0 = time.perf_counter()
        res = run_chunk(rules, [name] * 4, 100 + r, 0, hands)
        best = min(best, time.perf_counter() - t0)
    h = res.hands
    return {
        "hands_per_s": round(hands / best),
        "decisions_per_hand": round(float(h["decisions"].mean()), 1),
        "turns_per_hand": round(float(h["turns"].mean()), 1),
        "goal": GOALS.get(name),
    }


def bench_python(hands: int, rules: RuleSet) -> dict:
    play_hand_py(rules, [PyGreedy()] * 4, 1, 0, 0)
    t0 = time.perf_counter()
    for g in range(hands):
        play_hand_py(rules, [PyGreedy()] * 4, 7, g, 0)
    dt = time.perf_counter() - t0
    return {"hands_per_s": round(hands / dt, 1)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--py-hands", type=int, default=100)
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "strategies.json"))
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args(argv)
    rules = RuleSet.preset("classic")
    rows = {}
    for name in STRATEGY_NAMES:
        n = args.hands // 4 if name == "random" else args.hands
        rows[name] = bench_fast(name, n, rules)
        print(
            f"{name:>13}: {rows[name]['hands_per_s']:>8,} hands/s  "
            f"({rows[name]['decisions_per_hand']} decisions/hand)",
            flush=True,
        )
    rows["python:PyGreedy"] = bench_python(args.py_hands, rules)
    print(
        f"{'PyGreedy':>13}: {rows['python:PyGreedy']['hands_per_s']:>8,} hands/s (Python tier, "
        "play_hand_py)"
    )
    if not args.no_write:
        out = {
            "rules": "classic, 4 players, every seat the same strategy, hands mode",
            "method": "best of 3 runs of run_chunk after a warm-up (compile excluded), one "
            "process, one core",
            "hands": args.hands,
            "cpu": platform.processor() or platform.machine(),
            "cpus_available": os.cpu_count(),
            "python": platform.python_version(),
            "strategies": rows,
        }
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

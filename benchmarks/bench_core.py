"""Core speed: random self-play hands per second on one core, and the numba compile time.

    python benchmarks/bench_core.py [--hands 20000] [--rules classic] [--players 4]

Prints hands/s (compile excluded) and the compile time cold (empty numba cache) and warm
(cache filled), each measured in a fresh subprocess; writes benchmarks/results/core.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"

_PROBE = """
import time, json, sys
t0 = time.perf_counter()
from sim.core.rules import RuleSet
from sim.play.engine import run_chunk
rules = RuleSet.preset(sys.argv[1], players=int(sys.argv[2]))
run_chunk(rules, (sys.argv[3],) * rules.players, seed=0, start=0, count=1)
print(json.dumps({"first_hand_s": time.perf_counter() - t0}))
"""


def compile_time(cache_dir: str, preset: str, players: int, strategy: str) -> float:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    out = subprocess.run(
        [sys.executable, "-c", _PROBE, preset, str(players), strategy],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])["first_hand_s"]


def hands_per_second(
    preset: str, players: int, strategy: str, hands: int, repeats: int = 3
) -> dict:
    from sim.core.rules import RuleSet
    from sim.play.engine import run_chunk

    rules = RuleSet.preset(preset, players=players)
    seats = (strategy,) * rules.players
    run_chunk(rules, seats, seed=0, start=0, count=10)  # compile / load
    best = 0.0
    turns = decisions = 0.0
    for r in range(repeats):
        t = time.perf_counter()
        res = run_chunk(rules, seats, seed=r + 1, start=0, count=hands)
        dt = time.perf_counter() - t
        best = max(best, hands / dt)
        turns = float(res.hands["turns"].mean())
        decisions = float(res.hands["decisions"].mean())
    return {
        "hands_per_s": round(best),
        "mean_turns": round(turns, 1),
        "mean_decisions": round(decisions, 1),
        "decisions_per_s": round(best * decisions),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--hands", type=int, default=20000)
    ap.add_argument("--rules", default="classic")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--strategy", default="random")
    ap.add_argument(
        "--no-compile", action="store_true", help="skip the cold/warm compile measurement"
    )
    args = ap.parse_args(argv)
    result = {
        "benchmark": "core random self-play",
        "rules": args.rules,
        "players": args.players,
        "strategy": args.strategy,
        "hands": args.hands,
        "machine": platform.processor() or platform.machine(),
        "cpus": os.cpu_count(),
        "when": time.strftime("%Y-%m-%d %H:%M:%S"),
    }
    if not args.no_compile:
        with tempfile.TemporaryDirectory() as cache:
            result["compile_cold_s"] = round(
                compile_time(cache, args.rules, args.players, args.strategy), 2
            )
            result["compile_warm_s"] = round(
                compile_time(cache, args.rules, args.players, args.strategy), 2
            )
    result.update(hands_per_second(args.rules, args.players, args.strategy, args.hands))
    for k, v in result.items():
        print(f"{k:>16}: {v}")
    RESULTS.mkdir(exist_ok=True)
    name = f"core_{args.rules}_{args.players}p_{args.strategy}.json"
    (RESULTS / name).write_text(json.dumps(result, indent=2) + "\n")
    print(f"written {RESULTS / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Where a chunk's CPU time goes without logs: the kernel (`play_chunk_nb`), the rest of
`run_chunk`, and the parquet encoding of the chunk (`store.chunk_payload`), as hands per CPU
second of this process (CPU time varies less than elapsed time on a shared machine).

    python benchmarks/bench_hot_path.py [--strategy greedy] [--chunks 200] [--chunk-size 5000]

To compare two versions, run it from each tree in turn (PYTHONPATH=<tree>), several rounds.
Prints one line; with --output appends it as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import sim.play.engine as engine
from sim.core.rules import RuleSet
from sim.runs import integrity, store

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--strategy", default="greedy")
    ap.add_argument("--chunks", type=int, default=200)
    ap.add_argument("--chunk-size", type=int, default=5000)
    ap.add_argument("--rules", default="classic")
    ap.add_argument(
        "--output", default=None, help="append the result as one JSON line to this file"
    )
    args = ap.parse_args(argv)
    rules = RuleSet.preset(args.rules)
    seats = (args.strategy,) * rules.players
    engine.run_chunk(rules, seats, 1, 0, 10)  # compile / load the cache
    kernel = engine.play_chunk_nb
    spent = {"kernel": 0.0, "run_chunk": 0.0, "encode": 0.0}

    def timed(*a):
        t = time.process_time()
        out = kernel(*a)
        spent["kernel"] += time.process_time() - t
        return out

    engine.play_chunk_nb = timed  # run_chunk looks the kernel up at call time
    size = args.chunk_size
    for i in range(args.chunks):
        t = time.process_time()
        res = engine.run_chunk(rules, seats, 5, i * size, size, reuse_buffers=True)
        spent["run_chunk"] += time.process_time() - t
        t = time.process_time()
        store.chunk_payload(res, rules, seats, integrity.chunk_key(i, 5, i * size, size))
        spent["encode"] += time.process_time() - t
    engine.play_chunk_nb = kernel
    n = args.chunks * size
    row = {
        "strategy": args.strategy,
        "rules": rules.label,
        "hands": n,
        "chunk_size": size,
        "kernel_hands_per_cpu_s": round(n / spent["kernel"]),
        "run_chunk_hands_per_cpu_s": round(n / spent["run_chunk"]),
        "with_encoding_hands_per_cpu_s": round(n / (spent["run_chunk"] + spent["encode"])),
        "load_average": os.getloadavg()[0],
    }
    print(json.dumps(row))
    if args.output:
        with open(args.output, "a") as f:
            f.write(json.dumps(row) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

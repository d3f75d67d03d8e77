"""Cold compile time of the self-play logging kernel (`play_chunk_nb` and everything it calls):
a fresh NUMBA_CACHE_DIR, one fully logged hand, wall and CPU seconds of the process.

    python benchmarks/bench_compile.py                       # this checkout
    python benchmarks/bench_compile.py --tree /tmp/main-copy --label before
    python benchmarks/bench_compile.py --detail cards     # the run_chunk call logs with cards

CPU time is the figure to compare on a shared machine (wall time grows with the load).
Appends a row to benchmarks/results/compile.json.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "compile.json"

CHILD = """
import inspect, resource, sys, time
t0 = time.perf_counter()
from sim.core.rules import RuleSet
from sim.play.engine import run_chunk
kw = {"log_detail": sys.argv[1]} if "log_detail" in inspect.signature(run_chunk).parameters else {}
run_chunk(RuleSet.preset("classic"), ("greedy",) * 4, 1, 0, 5, log_rate=1.0, **kw)
ru = resource.getrusage(resource.RUSAGE_SELF)
print(time.perf_counter() - t0, ru.ru_utime + ru.ru_stime)
"""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--tree", default=str(ROOT), help="source tree to compile (default this checkout)"
    )
    ap.add_argument("--label", default="this checkout")
    ap.add_argument("--detail", default="basic", choices=("basic", "cards"))
    ap.add_argument("--output", default=str(RESULTS))
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="numba-cold-") as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=args.tree)
        out = subprocess.run(
            [sys.executable, "-c", CHILD, args.detail],
            env=env,
            cwd=args.tree,
            capture_output=True,
            text=True,
            check=True,
        )
    wall, cpu = (float(x) for x in out.stdout.split()[-2:])
    row = {
        "label": args.label,
        "tree": args.tree,
        "detail": args.detail,
        "wall_s": round(wall, 1),
        "cpu_s": round(cpu, 1),
        "load_1min": os.getloadavg()[0],
        "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    print(
        f"{args.label}: cold compile wall {wall:.1f} s, cpu {cpu:.1f} s (load "
        f"{row['load_1min']:.1f})"
    )
    path = Path(args.output)
    rows = json.loads(path.read_text()) if path.is_file() else []
    rows.append(row)
    path.write_text(json.dumps(rows, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

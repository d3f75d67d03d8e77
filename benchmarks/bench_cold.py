"""Cold start of the two first commands a new user runs: `canasta play` and `canasta simulate`
with their built-in defaults, each with an empty numba cache (a fresh NUMBA_CACHE_DIR), wall
and CPU seconds of the whole command (its worker processes included).

    python benchmarks/bench_cold.py                          # this checkout, both commands
    python benchmarks/bench_cold.py --tree /tmp/main-copy --label before --what play

On a shared machine compare CPU seconds (wall time grows with the load, printed alongside);
on an idle 2-core machine a cold compile's wall time is about its CPU time (numba compiles in
one thread).  Appends one row per command to benchmarks/results/cold.json.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "cold.json"
COMMANDS = {"play": ["play"], "simulate": ["simulate"]}


def cold_run(tree: str, what: str) -> tuple[float, float]:
    """(wall s, CPU s) of one command with an empty numba cache; the run folder is temporary."""
    with tempfile.TemporaryDirectory(prefix="numba-cold-") as cache, tempfile.TemporaryDirectory() as out:
        args = COMMANDS[what] + (["--out", str(Path(out) / "run")] if what == "simulate" else [])
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=tree)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "sim.cli", *args], env=env, cwd=tree, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tree", default=str(ROOT), help="source tree to run (default this checkout)")
    ap.add_argument("--label", default="this checkout")
    ap.add_argument("--what", default="play,simulate", help="comma list of: play, simulate")
    ap.add_argument("--output", default=str(RESULTS))
    args = ap.parse_args(argv)
    path = Path(args.output)
    rows = json.loads(path.read_text()) if path.is_file() else []
    for what in args.what.split(","):
        if what not in COMMANDS:
            ap.error(f"--what {what!r}: use play and/or simulate")
        wall, cpu = cold_run(args.tree, what)
        load = os.getloadavg()[0]
        print(f"{args.label}: cold `canasta {what}` wall {wall:.1f} s, cpu {cpu:.1f} s (load {load:.1f})")
        rows.append({"label": args.label, "command": f"canasta {' '.join(COMMANDS[what])}", "wall_s": round(wall, 1),
                     "cpu_s": round(cpu, 1), "load_1min": round(load, 2), "created": time.strftime("%Y-%m-%dT%H:%M:%S%z")})
        path.write_text(json.dumps(rows, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

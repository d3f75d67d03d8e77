"""Cold start of the two first commands a new user runs: `canasta play` and `canasta simulate`
with their built-in defaults, each with an empty numba cache (a fresh NUMBA_CACHE_DIR), wall
and CPU seconds of the whole command (its worker processes included).

    python benchmarks/bench_cold.py                          # this checkout, both commands
    python benchmarks/bench_cold.py --tree /tmp/main-copy --label before --what play
    python benchmarks/bench_cold.py --env CANASTA_COMPILE_HELPER=0 --label "no helper"  # 1 process

The goal is wall time, which on a shared machine grows with the load: each row also has the CPU
seconds (the command and its processes: the compile helper of sim/play/compile/parallel_warm.py, the
run's workers) and the 1-minute load average when it ended; compare rows measured in turn.
Without the helper a cold compile is one thread (wall about CPU on an idle machine); with it,
two processes share the compile on two cores.  Appends one row per command to
benchmarks/results/cold.json.
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


def cold_run(tree: str, what: str, extra_env: dict[str, str] | None = None) -> tuple[float, float]:
    """(wall s, CPU s) of one command with an empty numba cache; the run folder is temporary."""
    with (
        tempfile.TemporaryDirectory(prefix="numba-cold-") as cache,
        tempfile.TemporaryDirectory() as out,
    ):
        args = COMMANDS[what] + (["--out", str(Path(out) / "run")] if what == "simulate" else [])
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=tree, **(extra_env or {}))
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "sim.cli", *args],
            env=env,
            cwd=tree,
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
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
    ap.add_argument(
        "--env",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an environment variable for the command, e.g. CANASTA_COMPILE_HELPER=0",
    )
    args = ap.parse_args(argv)
    if not all("=" in e for e in args.env):
        ap.error("--env: give NAME=VALUE")
    extra_env = dict(e.split("=", 1) for e in args.env)
    path = Path(args.output)
    rows = json.loads(path.read_text()) if path.is_file() else []
    for what in args.what.split(","):
        if what not in COMMANDS:
            ap.error(f"--what {what!r}: use play and/or simulate")
        wall, cpu = cold_run(args.tree, what, extra_env)
        load = os.getloadavg()[0]
        print(
            f"{args.label}: cold `canasta {what}` wall {wall:.1f} s, cpu {cpu:.1f} s (load "
            f"{load:.1f})"
        )
        rows.append(
            {
                "label": args.label,
                "command": f"canasta {' '.join(COMMANDS[what])}",
                "wall_s": round(wall, 1),
                "cpu_s": round(cpu, 1),
                "load_1min": round(load, 2),
                "env": extra_env,
                "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            }
        )
        path.write_text(json.dumps(rows, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

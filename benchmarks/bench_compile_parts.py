"""Where a cold compile goes: per numba function, its exclusive CPU seconds and how many
signatures were compiled (a fresh NUMBA_CACHE_DIR, the warm-ups of `canasta simulate` and
`canasta play`).

    python benchmarks/bench_compile_parts.py                 # simulate + play, this checkout
    python benchmarks/bench_compile_parts.py --what play --top 20     # `canasta play` (random)
    python benchmarks/bench_compile_parts.py --what play --strategies expert --sigs

Two things make a cold compile slow (docs/ENGINE.md, "Compile time"):
- numba links a callee's LLVM module into its caller's and optimizes the result again, so each
  separately compiled level of calls re-optimizes everything below it;
- every distinct argument type set compiles a function (and all it calls) once more, and a
  constant argument (`f(x, 0)`), or a variable set from a constant, is typed as that literal
  value first.  Functions listed with several signatures show where that happens.
Exclusive time = the compile event's time minus that of the compiles nested in it.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = """
import collections, resource, sys, time
from numba.core import event as ev
stack, excl, sigs = [], collections.defaultdict(float), collections.defaultdict(list)
class Listener(ev.Listener):
    def on_start(self, event):
        f = event.data["dispatcher"].py_func
        name = f.__module__ + "." + f.__qualname__
        stack.append([name, str(event.data["args"]), time.process_time(), 0.0])
    def on_end(self, event):
        name, args, t0, child = stack.pop()
        dt = time.process_time() - t0
        excl[name] += dt - child
        sigs[name].append(args)
        if stack:
            stack[-1][3] += dt
ev.register("numba:compile", Listener())
from sim.play.compile.warm import warm_play, warm_simulate
if sys.argv[1] in ("simulate", "both"):
    warm_simulate((False,), (False,))  # `canasta simulate`'s default: no --check, no logs
if sys.argv[1] == "play":
    # canasta play's default: random only, no position
    warm_play(sys.argv[3].split(","), knowledge=False)
if sys.argv[1] == "both":
    warm_play()  # every strategy
ru = resource.getrusage(resource.RUSAGE_SELF)
n_sigs = sum(map(len, sigs.values()))
print(f"process CPU {ru.ru_utime + ru.ru_stime:.1f} s; {len(excl)} functions, {n_sigs} signatures")
print(" excl_s  sigs  function")
for name, s in sorted(excl.items(), key=lambda kv: -kv[1])[: int(sys.argv[2])]:
    print(f"{s:7.2f} {len(sigs[name]):5d}  {name}")
    if sys.argv[4] == "1" and len(sigs[name]) > 1:
        for a in sigs[name]:
            print("                 ", a)
"""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--what", default="both", choices=("simulate", "play", "both"))
    ap.add_argument(
        "--tree", default=str(ROOT), help="source tree to compile (default this checkout)"
    )
    ap.add_argument("--top", type=int, default=40, help="functions to list")
    ap.add_argument(
        "--strategies",
        default="random",
        help="--what play: the strategies played (default random, as `canasta play`)",
    )
    ap.add_argument(
        "--sigs",
        action="store_true",
        help="list the signatures of functions compiled more than once",
    )
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="numba-cold-") as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=args.tree)
        out = subprocess.run(
            [
                sys.executable,
                "-c",
                CHILD,
                args.what,
                str(args.top),
                args.strategies,
                str(int(args.sigs)),
            ],
            env=env,
            cwd=args.tree,
            capture_output=True,
            text=True,
            check=True,
        )
    print(out.stdout, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())

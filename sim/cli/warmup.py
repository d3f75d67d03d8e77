"""`canasta warmup`: compile the game core ahead of time, here or on every dask worker."""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sim.play.compile.warm import (
    compile_notice,
    warm_play,
    warm_simulate,
)

EPILOG = """examples:
  canasta warmup                              compile everything on this machine, once (a few
                                              minutes on 2 cores); later commands start in a second
  canasta warmup --only simulate              only the self-play kernels of `canasta simulate`
  canasta warmup --scheduler tcp://HOST:8786  compile on every worker of a dask cluster at once,
                                              before a `canasta simulate --backend dask` run
"""


def warm_rollouts() -> None:
    """Compile the rollout kernels of `canasta odds --position` on the documented example."""
    from reports.position import load_position, rollout

    example = Path(__file__).resolve().parents[2] / "docs" / "position-example.txt"
    if example.exists():
        rollout(load_position(example), strategy="random", rollouts=1, seed=0)


GROUPS: dict[str, Callable[[], None]] = {
    "simulate": warm_simulate,
    "play": warm_play,
    "rollouts": warm_rollouts,
}


def warm(groups: tuple[str, ...], notice: bool = False) -> dict[str, float]:
    """Compile (or load from the cache) each group's kernels; the seconds each took."""
    times = {}
    for name in groups:
        t0 = time.perf_counter()
        if notice:
            with compile_notice(f"the {name} kernels", f"warmup:{name}"):
                GROUPS[name]()
        else:
            GROUPS[name]()
        times[name] = round(time.perf_counter() - t0, 2)
    return times


def worker_warm(groups: tuple[str, ...]) -> dict[str, Any]:
    """Run in a dask worker: warm up; the seconds per group and what that process now holds."""
    from sim.play.selfplay.loop import play_chunk_nb

    seconds = warm(groups)
    return {"seconds": seconds, "pid": os.getpid(), "compiled": len(play_chunk_nb.signatures)}


def warm_cluster(scheduler: str, groups: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    """Warm every worker of the dask cluster at `scheduler` at once; per worker address, what
    `worker_warm` returned.  Each worker keeps the machine code in its own numba cache
    directory (beside the installed package, or NUMBA_CACHE_DIR), so this is done once per
    installation, not once per run."""
    from distributed import Client

    with Client(scheduler, timeout="10s") as client:
        return dict(client.run(worker_warm, groups))


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "warmup",
        help="compile the game core ahead of time (here or on a dask cluster)",
        description="Compile the numba kernels once, so that later commands start at "
        "once. With --scheduler, every worker of a dask cluster compiles.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--only",
        action="append",
        choices=tuple(GROUPS),
        default=None,
        help="compile only these kernels (repeatable; default all)",
    )
    p.add_argument(
        "--scheduler",
        default=None,
        metavar="tcp://HOST:PORT",
        help="a dask.distributed scheduler: compile on each of its workers",
    )
    p.set_defaults(run=run)
    return p


def run(args: argparse.Namespace) -> int:
    groups = tuple(dict.fromkeys(args.only)) if args.only else tuple(GROUPS)
    if args.scheduler is None:
        times = warm(groups, notice=True)
        print("compiled: " + ", ".join(f"{name} {sec:.1f} s" for name, sec in times.items()))
        return 0
    if not re.fullmatch(r"(tcp|tls|ucx|inproc)://\S+", args.scheduler):
        raise ValueError(f"--scheduler '{args.scheduler}': give an address like tcp://HOST:8786")
    print(f"canasta warmup: compiling on every worker of {args.scheduler} ...", file=sys.stderr)
    try:
        results = warm_cluster(args.scheduler, groups)
    except OSError as exc:
        raise ValueError(f"cannot reach the dask scheduler at {args.scheduler}: {exc}") from None
    for address, info in sorted(results.items()):
        secs = ", ".join(f"{name} {sec:.1f} s" for name, sec in info["seconds"].items())
        print(f"{address}: {secs}")
    print(f"{len(results)} worker(s) ready")
    return 0

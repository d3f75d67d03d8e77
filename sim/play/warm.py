"""Compiling the game core ahead of time, and telling the user while it happens.

numba compiles a kernel on its first call and caches the machine code on disk (``cache=True``,
in ``__pycache__`` beside the sources, or ``NUMBA_CACHE_DIR``).  The first run on a fresh
install therefore spends about a minute compiling before it plays a hand; later runs load the
cache in about a second.  This module

- compiles the kernels a command needs by calling them once on a tiny input
  (``warm_simulate``, ``warm_play``), so that a run's
  throughput and ETA are measured after compilation and worker processes load a ready cache;
- shows one line and a spinner on a terminal while that takes long (``compile_notice``);
- (``sim.cli.warmup``, the ``canasta warmup`` command, adds the rollout kernels and warms every
  worker of a dask cluster.)
"""

from __future__ import annotations

import contextlib
import itertools
import sys
import threading
import time
from collections.abc import Iterator
from typing import TextIO

# Measured on the project's 2-core machine class with a cold cache (benchmarks/bench_core.py):
# the self-play kernels with every strategy, the step-through kernels, the rollout kernels.
COLD_COMPILE_SECONDS = {"simulate": 70, "play": 70, "rollouts": 40}
NOTICE_AFTER = 1.0  # seconds: a warm cache loads faster than this, a compilation takes longer


@contextlib.contextmanager
def compile_notice(what: str, seconds: int, stream: TextIO | None = None,
                   spinner: bool | None = None) -> Iterator[None]:
    """Announce a compilation that takes longer than NOTICE_AFTER seconds.

    One line on `stream` (stderr by default), then, when `stream` is a terminal (or `spinner`
    is True), a spinner with the seconds elapsed until the block ends.  Nothing is printed when
    the block is quick (the cache was warm)."""
    out = stream if stream is not None else sys.stderr
    if spinner is None:
        spinner = bool(getattr(out, "isatty", lambda: False)())
    done = threading.Event()
    shown = threading.Event()
    t0 = time.perf_counter()

    def announce() -> None:
        if done.wait(NOTICE_AFTER):
            return
        shown.set()
        line = f"canasta: compiling {what} (first run only, about {seconds} s)"
        if not spinner:
            print(line, file=out, flush=True)
            return
        for mark in itertools.cycle("|/-\\"):
            print(f"\r{line} {mark} {time.perf_counter() - t0:4.0f} s", end="", file=out, flush=True)
            if done.wait(0.25):
                break
        print(f"\r{line}: done in {time.perf_counter() - t0:.0f} s", file=out, flush=True)

    thread = threading.Thread(target=announce, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()


def warm_simulate() -> None:
    """Compile the self-play kernels (every strategy, logging and --check paths, hands and games)."""
    from sim.core.rules import RuleSet
    from sim.play.engine import run_chunk
    from strategies.registry import STRATEGY_NAMES

    rules = RuleSet.preset("classic")
    seats = tuple(STRATEGY_NAMES[i % len(STRATEGY_NAMES)] for i in range(rules.players))
    run_chunk(rules, seats, 0, 0, 1, mode="hands", log_rate=1.0, check=True)


def warm_play() -> None:
    """Compile the step-through kernels of ``canasta play`` and ``GameState``."""
    from sim.core.rules import RuleSet
    from sim.play.pyplay import play_hand_py

    play_hand_py(RuleSet.preset("classic"), ["random"] * 4, seed=0)

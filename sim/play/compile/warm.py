"""Compiling the game core ahead of time, and telling the user while it happens.

numba compiles a kernel on its first call and caches the machine code on disk (``cache=True``,
in ``__pycache__`` beside the sources, or ``NUMBA_CACHE_DIR``).  The first run on a fresh
install therefore spends half a minute or so compiling before it plays a hand (only the kernels
the command runs: docs/PERFORMANCE.md, "Compile time"); later runs load the cache in about a
second.  This module

- compiles the kernels a command needs by calling them once on a tiny input
  (``warm_simulate``, ``warm_play``), so that a run's
  throughput and ETA are measured after compilation and worker processes load a ready cache;
  on a cold cache a helper process compiles part of them at the same time
  (``sim.play.compile.parallel_warm``);
- shows one line and a spinner on a terminal while that takes long (``compile_notice``);
- (``sim.cli.warmup``, the ``canasta warmup`` command, adds the rollout kernels and warms every
  worker of a dask cluster.)
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TextIO

NOTICE_AFTER = 1.0  # seconds: a warm cache loads faster than this, a compilation takes longer
TIMINGS_NAME = "canasta-compile-seconds.json"  # beside the kernel cache's stamp


def _timings_path() -> Path:
    from sim.kernel_cache import stamp_folder

    return stamp_folder() / TIMINGS_NAME


def last_compile_seconds(key: str) -> int | None:
    """How long the compile of `key` took the last time it ran on this machine (None: never)."""
    try:
        value = json.loads(_timings_path().read_text()).get(key)
    except (OSError, ValueError, AttributeError):
        return None
    return int(value) if isinstance(value, int | float) and value > 0 else None


def _record_compile_seconds(key: str, seconds: float) -> None:
    """Remember a compile's duration for the next notice (best effort: never fails)."""
    path = _timings_path()
    with contextlib.suppress(OSError, ValueError, AttributeError):
        old = json.loads(path.read_text()) if path.is_file() else {}
        old[key] = round(seconds)
        tmp = path.with_name(f"{path.name}.{os.getpid()}")
        tmp.write_text(json.dumps(old, sort_keys=True))
        tmp.replace(path)


@contextlib.contextmanager
def compile_notice(
    what: str, key: str, stream: TextIO | None = None, spinner: bool | None = None
) -> Iterator[None]:
    """Announce a compilation that takes longer than NOTICE_AFTER seconds.

    One line on `stream` (stderr by default), with how long the compile of `key` took the last
    time on this machine if it ran before, then, when `stream` is a terminal (or `spinner` is
    True), a spinner with the seconds elapsed until the block ends; a compile that was shown is
    timed for the next notice.  Nothing is printed when the block is quick (the cache was
    warm)."""
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
        last = last_compile_seconds(key)
        took = f", about {last} s the last time" if last else ""
        line = f"canasta: compiling {what} (first run only{took})"
        if not spinner:
            print(line, file=out, flush=True)
            return
        for mark in itertools.cycle("|/-\\"):
            print(
                f"\r{line} {mark} {time.perf_counter() - t0:4.0f} s", end="", file=out, flush=True
            )
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
    if shown.is_set():  # a real compile (a warm cache loads in well under NOTICE_AFTER)
        _record_compile_seconds(key, time.perf_counter() - t0)


def warm_simulate(
    checks: Sequence[bool] = (False, True), logs: Sequence[bool] = (False, True)
) -> None:
    """Compile the self-play kernels (every strategy, hands and games) for each combination of
    `checks` (the loop without the --check invariants, with them) and `logs` (without the
    decision logging, with it): each is a compilation of its own (sim/play/selfplay/loop.py,
    play_chunk_nb), so a command compiles only the one it runs."""
    from sim.core.rules import RuleSet
    from sim.play.compile import parallel_warm as pw
    from sim.play.engine import run_chunk
    from strategies.registry import STRATEGY_NAMES

    rules = RuleSet.preset("classic")
    seats = tuple(STRATEGY_NAMES[i % len(STRATEGY_NAMES)] for i in range(rules.players))

    def finish() -> None:
        for check in dict.fromkeys(bool(c) for c in checks):
            for log in dict.fromkeys(bool(x) for x in logs):
                run_chunk(
                    rules, seats, 0, 0, 1, mode="hands", log_rate=1.0 if log else 0.0, check=check
                )

    pw.warm_in_parallel(pw.PLAY_CHUNK, pw.SIMULATE_OWN, pw.SIMULATE_HELPER, finish)


def play_compile_key(strategies: Sequence[str] | None = None) -> str:
    """The name a `warm_play(strategies)` compile is timed under: its decision functions."""
    from strategies.registry import KERNEL_OF, KERNELS, STRATEGY_NAMES, split_spec

    names = [split_spec(s)[0] for s in (STRATEGY_NAMES if strategies is None else strategies)]
    kernels = sorted(
        {list(KERNELS)[KERNEL_OF[STRATEGY_NAMES.index(n)]] for n in names if n in STRATEGY_NAMES}
    )
    return "play:" + ",".join(kernels or ["random"])


def warm_play(strategies: Sequence[str] | None = None, knowledge: bool = True) -> None:
    """Compile the step-through kernels of ``canasta play`` and ``GameState``, and the decision
    kernels of `strategies` (specs or names; None: every strategy); names that are not
    compiled strategies (the search players) are left out.  `knowledge`: also the kernels that
    keep what each seat knows (``GameState.new_hand(track_knowledge=True)``, positions)."""
    from sim.core.rules import RuleSet
    from sim.play.compile import parallel_warm as pw
    from sim.play.game import GameState
    from sim.play.pyplay import play_hand_py
    from strategies.registry import KERNEL_OF, KERNELS, STRATEGY_NAMES, split_spec

    names = [split_spec(s)[0] for s in (STRATEGY_NAMES if strategies is None else strategies)]
    one_each = {KERNEL_OF[STRATEGY_NAMES.index(n)]: n for n in names if n in STRATEGY_NAMES}
    seats = list(one_each.values()) or ["random"]
    decide = [
        step
        for n in seats
        for step in pw.play_decide_steps(list(KERNELS)[KERNEL_OF[STRATEGY_NAMES.index(n)]])
    ]

    def finish() -> None:
        rules = RuleSet.preset("classic")
        play_hand_py(
            rules,
            [seats[i % len(seats)] for i in range(4)],
            seed=0,
            gs=GameState.new_hand(rules, track_knowledge=knowledge),
        )

    own = (*pw.PLAY_OWN, *(pw.PLAY_KNOWLEDGE if knowledge else ()), *decide, *pw.PLAY_OWN_LAST)
    pw.warm_in_parallel(pw.PLAY_TOP, own, pw.PLAY_HELPER, finish)

"""A cold compile in two processes: a helper process compiles some kernels into numba's cache
while this process compiles others, and each loads from the cache what the other finished.

numba compiles a kernel's callees before the kernel, one at a time and in one thread; before
compiling any of them it looks in the on-disk cache (``Dispatcher.compile`` tries
``load_overload`` first).  So on a cold cache a second process that compiles independent parts
of the game core (``Unit``s: a kernel and its argument types, exactly as its callers pass them)
shortens the wall time on a machine with a free core: when this process then needs one of them,
numba loads the helper's machine code from the cache instead of compiling it.  The helper
writes into the same cache (numba writes its index and data files to a temporary name and
renames them into place, so a reader never sees half a file).

Nothing depends on the helper: a unit it has not finished is compiled here as it would be
without it, a helper that fails or is killed changes nothing, and the helper ends with this
process (it watches a pipe from us; Ctrl-C reaches only us: it runs in its own session).  The
unit lists only order work; a stale argument type (after an edit) costs time, never a result:
tests/test_parallel_warm.py checks them against what the kernels' callers compile.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any, NamedTuple


class Unit(NamedTuple):
    """One kernel compiled for one signature: module, function name, argument types (numba's
    notation, e.g. ``"int32[::1], int64"``)."""

    module: str
    name: str
    args: str


class Decide(NamedTuple):
    """A step standing for the strategies' decision functions that one side compiles: every
    compiled decision function of the registry (`strategies.registry.KERNELS`, those not
    inlined into their callers), the first for this process ("own"), the others for the helper
    ("helper").  Expanded where it runs (`decision_units`), so that a new strategy needs no
    line here."""

    side: str


class Await(NamedTuple):
    """A step of a unit list: wait until the other process has finished `unit` (so that the
    next unit, which calls it, loads it instead of compiling it a second time); an Await of a
    `Decide` waits for each of its units."""

    unit: Unit | Decide


A = "int32[::1]"  # the state, params, hand and scratch arrays
SIG_WHY = f"{A}, int64, {A}, int64, int32"  # why_take_nb, why_meld_nb, why_seq_nb
SIG_STATE_ACTION = f"{A}, {A}, int64"  # do_action_nb, draw_one_nb
SIG_DECIDE = f"{A}, {A}, float64[::1], uint64[::1], {A}"  # a strategy's decide_nb

WHY_TAKE = Unit("sim.core.why", "why_take_nb", SIG_WHY)
WHY_MELD = Unit("sim.core.why", "why_meld_nb", SIG_WHY)
WHY_SEQ = Unit("sim.core.why", "why_seq_nb", SIG_WHY)
WHY_ILLEGAL = Unit("sim.core.why", "why_illegal_nb", f"{A}, int64, {A}, int64")
LEGAL = Unit("sim.core.legal", "legal_actions_nb", f"{A}, int64, {A}, {A}")
DRAW_ONE = Unit("sim.core.apply", "draw_one_nb", SIG_STATE_ACTION)
MELD_CARDS = Unit(
    "sim.core.apply",
    "_meld_cards_nb",
    f"{A}, {A}, int32, int32, int64, int64, int64, int64, int64, bool",
)
TAKE_PILE = Unit("sim.core.apply", "_take_pile_nb", f"{A}, {A}, int32, int32")
DO_ACTION = Unit("sim.core.apply", "do_action_nb", SIG_STATE_ACTION)
SCORE_HAND = Unit("sim.core.apply", "score_hand_nb", f"{A}, {A}, int32[:, ::1]")
KNOW_UPDATE = Unit("sim.play.worlds.knowledge", "know_update_nb", f"{A}, {A}, {A}, int64")
OBSERVE = Unit("sim.play.selfplay.step", "observe_nb", f"{A}, int64, int64, {A}, bool")
MELD_LOOKAHEAD = Unit(
    "sim.core.why", "meld_lookahead_nb", f"{A}, int64, {A}, int32, int64, int64, int64, int64, bool"
)
WHY_DISCARD = Unit("sim.core.why", "_why_discard_nb", f"{A}, int64, {A}, int64, int32")
BLACK3_AFTER = Unit("sim.core.why", "_why_black3_after_nb", f"{A}, {A}, {A}, int32, int64")
AFTER_MOVE = Unit("sim.core.why", "_after_move_ok_nb", f"{A}, {A}, {A}, int32, int64, int64")
MAX_MELD = Unit("sim.core.opening", "max_meld_points_nb", f"{A}, {A}, {A}, int32, int64")
SEQ_PLAN = Unit("sim.core.opening", "seq_plan_points_nb", f"{A}, int64, {A}, int32")
CAN_GO_OUT = Unit("sim.core.opening", "can_go_out_concealed_nb", f"{A}, {A}, {A}, int32")
FINISH_POSSIBLE = Unit("sim.core.opening", "finish_possible_nb", f"{A}, {A}, {A}, int32")
INIT_HAND = Unit("sim.core.apply", "init_hand_nb", f"{A}, {A}, {A}, int64, int64, {A}")
PLAY_CHUNK = Unit("sim.play.selfplay.loop", "play_chunk_nb", "")  # only asked whether it is cached
DECK_COMPOSITION = Unit(
    "sim.play.selfplay.loop", "deck_composition_nb", f"{A}, int64[::1]"
)  # GameState.new_hand's
FILL_DECK = Unit("sim.play.selfplay.loop", "fill_deck_nb", f"int64[::1], {A}")
SEED_RNG = Unit("sim.core.rng", "seed_rng_nb", "uint64[::1], int64, int64, int64, int64")
SHUFFLE = Unit("sim.core.rng", "shuffle_nb", f"uint64[::1], {A}, int64")
RANDINT = Unit("sim.core.rng", "randint_nb", "uint64[::1], int64")
OUTCOME = Unit(
    "sim.play.selfplay.loop",
    "_outcome_to_decisions_nb",
    f"int8[:, ::1], int32[:, ::1], int64, int64, {A}, int32[:, ::1], int32",
)
# the self-play loop of `canasta simulate`'s default run (no logs, no --check, no search agent:
# those arguments are None), as play_chunk_nb calls it
D2 = "[:, ::1]"
PLAY_OUT = Unit(
    "sim.play.selfplay.loop",
    "play_out_nb",
    f"{A}, {A}, int64[::1], float64{D2}, uint64{D2}, {A}, {A}, int64, int64, int64, none, "
    f"int8{D2}, "
    f"int16{D2}, int32{D2}, int64{D2}, int64, none, int64[::1], int64[::1], int64[::1], bool, "
    f"int8{D2}, none",
)


def decision_units(side: str) -> tuple[Unit, ...]:
    """The decision functions `Decide(side)` stands for: every decision function of the registry
    that is compiled on its own (not `inline="always"`), in the registry's order, the first one
    this process's ("own"), the others the helper's.  All of them have the signature of the
    strategy contract (SIG_DECIDE), as the self-play loop and Python callers pass it."""
    from strategies.registry import KERNELS

    units = [
        _decide_unit(fn)
        for fn in KERNELS.values()
        if getattr(fn, "targetoptions", {}).get("inline", "never") != "always"
    ]
    return tuple(units[:1] if side == "own" else units[1:])


def _decide_unit(fn: Any) -> Unit:
    """A decision function's unit: its module and name, the contract's argument types."""
    return Unit(fn.py_func.__module__, fn.py_func.__name__, SIG_DECIDE)


def play_decide_steps(kernel: str) -> tuple[Step, ...]:
    """What a decision function compiles when Python calls it (`registry.decision_kernel`): its
    own kernel after legal_actions_nb, which the helper compiles; nothing for one that runs its
    Python body (`registry.PYTHON_BODY`: its compiled callees are core kernels)."""
    from strategies.registry import KERNELS, PYTHON_BODY

    if kernel in PYTHON_BODY:
        return ()
    return (Await(LEGAL), _decide_unit(KERNELS[kernel]))


# Who compiles what, and when.  Nearly every kernel calls why_illegal_nb, which waits for the
# longest chain of the rules core: the opening kernels -> _after_move_ok_nb -> why_take_nb,
# meld_lookahead_nb -> why_meld_nb, why_seq_nb -> why_illegal_nb; after it, the kernels that
# link it.  Each process takes branches of that chain and waits (Await) for the other's kernels
# that its next unit calls; the kernels that need none of the chain fill the waits.  The orders
# below came from a list-scheduling search over the per-kernel costs (benchmarks/
# bench_compile_parts.py; the helper starts about a second before this process).  The lists
# name only the core's kernels: the strategies' decision functions come from the registry
# (`Decide`, `play_decide_steps`), so a new strategy is scheduled without a line here.
# `canasta play` (GameState): no apply_action_nb (GameState.apply checks, then calls do_action_nb).
# The helper, started first, takes the opening kernels that gate _after_move_ok_nb; after
# why_illegal_nb the three kernels that link it (legal_actions_nb, init_hand_nb, do_action_nb,
# 2.5-3.5 CPU seconds each) are split 2:1, the small ones beside do_action_nb.
PLAY_HELPER = (
    OBSERVE,
    SHUFFLE,
    FINISH_POSSIBLE,
    CAN_GO_OUT,
    Await(SEQ_PLAN),
    Await(MAX_MELD),
    AFTER_MOVE,
    Await(BLACK3_AFTER),
    MELD_LOOKAHEAD,
    FILL_DECK,
    WHY_SEQ,
    MELD_CARDS,
    SEED_RNG,
    RANDINT,
    Await(WHY_ILLEGAL),
    LEGAL,
    Await(DRAW_ONE),
    INIT_HAND,
)
PLAY_OWN = (
    SEQ_PLAN,
    MAX_MELD,
    BLACK3_AFTER,
    SCORE_HAND,
    Await(AFTER_MOVE),
    WHY_TAKE,
    WHY_DISCARD,
    Await(MELD_LOOKAHEAD),
    WHY_MELD,
    Await(WHY_SEQ),
    WHY_ILLEGAL,
    TAKE_PILE,
    DECK_COMPOSITION,
    DRAW_ONE,
    Await(MELD_CARDS),
    DO_ACTION,
)
PLAY_KNOWLEDGE = (KNOW_UPDATE,)  # GameState keeping what each seat knows (play --position-at)
PLAY_OWN_LAST = (
    Await(LEGAL),
    Await(INIT_HAND),
    Await(FILL_DECK),
    Await(SEED_RNG),
    Await(SHUFFLE),
)  # after the strategies' kernels
PLAY_TOP = OBSERVE  # cached: `canasta play` has run here before (the loop does not compile it)
# simulate: its longest chain goes on from why_illegal_nb to legal_actions_nb, the decision
# functions, play_out_nb and play_chunk_nb (the warm-up's, last), so the small
# kernels play_chunk_nb calls (the deck, the random streams, the decision outcomes) are compiled
# in the waits instead of inside play_chunk_nb
_SIMULATE_SMALL = (DECK_COMPOSITION, FILL_DECK, SEED_RNG, SHUFFLE, OUTCOME)
SIMULATE_HELPER = (
    SEQ_PLAN,
    BLACK3_AFTER,
    MAX_MELD,
    FINISH_POSSIBLE,
    Await(CAN_GO_OUT),
    AFTER_MOVE,
    WHY_DISCARD,
    MELD_LOOKAHEAD,
    WHY_TAKE,
    *_SIMULATE_SMALL,
    Await(WHY_ILLEGAL),
    LEGAL,
    Decide("helper"),
    Await(DRAW_ONE),
    INIT_HAND,
)
SIMULATE_OWN = (
    SCORE_HAND,
    CAN_GO_OUT,
    DRAW_ONE,
    Await(AFTER_MOVE),
    WHY_SEQ,
    Await(MELD_LOOKAHEAD),
    WHY_MELD,
    Await(WHY_TAKE),
    Await(WHY_DISCARD),
    WHY_ILLEGAL,
    TAKE_PILE,
    MELD_CARDS,
    DO_ACTION,
    Await(LEGAL),
    Decide("own"),
    Await(Decide("helper")),
    PLAY_OUT,
    Await(INIT_HAND),
    Await(OUTCOME),
)


def kernel(unit: Unit) -> Any:
    return getattr(importlib.import_module(unit.module), unit.name)


def arg_types(unit: Unit) -> tuple:
    """The unit's argument types as numba types (the key numba's cache files them under)."""
    from numba.core import sigutils

    args, _ = sigutils.normalize_signature(f"({unit.args},)")
    return tuple(args)


def compile_unit(unit: Unit) -> None:
    """Compile (or load from the cache) one kernel for one signature."""
    kernel(unit).compile(arg_types(unit))


def is_cached(unit: Unit) -> bool:
    """Whether numba's cache holds an index for the unit's kernel (a cheap test of a warm
    cache; numba's private layout: on any surprise say no, which only costs a helper)."""
    try:
        return Path(kernel(unit)._cache._cache_file._index_path).is_file()
    except (AttributeError, ImportError, OSError):
        return False


Step = Unit | Await | Decide


def expand(steps: Sequence[Step]) -> list[Unit | Await]:
    """The steps with each `Decide` (and each Await of one) replaced by its units."""
    out: list[Unit | Await] = []
    for step in steps:
        if isinstance(step, Decide):
            out += decision_units(step.side)
        elif isinstance(step, Await) and isinstance(step.unit, Decide):
            out += [Await(u) for u in decision_units(step.unit.side)]
        else:
            out.append(step)
    return out


AWAIT_SECONDS = 120.0  # at most, per Await: a helper that stalls costs this, never a result


def spec_of(unit: Unit | Decide) -> str:
    return f"={unit.side}" if isinstance(unit, Decide) else ":".join(unit)


def unit_of(spec: str) -> Unit | Decide:
    if spec.startswith("="):
        return Decide(spec[1:])
    module, name, args = spec.split(":", 2)
    return Unit(module, name, args)


class Peer:
    """The units the other process reports finished, one spec per line of `stream`; `closed`
    once the stream ends (the other process finished or died)."""

    def __init__(self, stream: IO[bytes], on_close: Callable[[], None] | None = None) -> None:
        self.done: set[str] = set()
        self.closed = False
        self._cond = threading.Condition()
        self._on_close = on_close
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream: IO[bytes]) -> None:
        with contextlib.suppress(OSError, ValueError):  # a pipe closed under us: the end
            for line in stream:
                with self._cond:
                    self.done.add(line.decode().strip())
                    self._cond.notify_all()
        with self._cond:
            self.closed = True
            self._cond.notify_all()
        if self._on_close is not None:
            self._on_close()

    def wait_for(self, unit: Unit, timeout: float = AWAIT_SECONDS) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: spec_of(unit) in self.done or self.closed, timeout)


class Helper:
    """The helper process: `python -m sim.play.compile.parallel_warm STEP...`, in its own session (a
    Ctrl-C at the terminal reaches only this process, which then ends it), silent on stderr;
    it reports each finished unit on its stdout and reads ours from its stdin, and ends when
    its stdin closes (we finished, or died)."""

    def __init__(self, steps: Sequence[Step], top: Unit | None = None) -> None:
        root = str(Path(__file__).resolve().parents[2])
        env = dict(
            os.environ,
            PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])),
        )
        args = [("@" + spec_of(s.unit)) if isinstance(s, Await) else spec_of(s) for s in steps]
        if top is not None:  # started early (start_early): it first checks the cache itself
            args.insert(0, "?" + spec_of(top))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "sim.play.compile.parallel_warm", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            start_new_session=True,
        )
        assert self.proc.stdout is not None
        self.peer = Peer(self.proc.stdout)

    def wait_for(self, unit: Unit) -> bool:
        return self.peer.wait_for(unit)

    def tell(self, unit: Unit) -> None:
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write((spec_of(unit) + "\n").encode())
            self.proc.stdin.flush()
        except OSError:  # it has ended: nobody waits for us
            pass

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for pipe in (self.proc.stdin, self.proc.stdout):
            with contextlib.suppress(OSError):
                if pipe is not None:
                    pipe.close()


def helper_wanted() -> bool:
    """A helper only pays with a second processor; CANASTA_COMPILE_HELPER=0 turns it off."""
    if os.environ.get("CANASTA_COMPILE_HELPER", "1").strip() in ("0", "no", "false", "off"):
        return False
    cpus = (
        os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else range(os.cpu_count() or 1)
    )
    return len(cpus) >= 2


# the helper of each command (`canasta play`, `canasta simulate`): the kernel whose presence in
# the cache means a warm cache, and the helper's steps
PLANS: dict[str, tuple[Unit, tuple[Step, ...]]] = {
    "play": (PLAY_TOP, PLAY_HELPER),
    "simulate": (PLAY_CHUNK, SIMULATE_HELPER),
}
_early: dict[tuple[Step, ...], Helper] = {}  # started by start_early, not yet taken by start_helper


def start_early(command: str) -> None:
    """Start the helper of `command` (a key of PLANS) now, before the command has imported its
    libraries (a second or so of a cold start that the helper then spends compiling); the
    command's warm-up takes it over (start_helper).  On a warm cache it ends by itself once it
    has checked the cache (or when the warm-up, which checks too, stops it: stop_early)."""
    top, steps = PLANS[command]
    if steps not in _early and helper_wanted() and not looks_cached(top):
        with contextlib.suppress(OSError):
            _early[steps] = Helper(steps, top)


def looks_cached(unit: Unit) -> bool:
    """A quick look, without importing numba, for a cache index of the unit's kernel (numba's
    file name `<module>.<function>-<line>.py<version>.nbi`, in NUMBA_CACHE_DIR or beside the
    module in __pycache__).  A wrong answer costs time only: a warm cache that is missed starts a
    helper that checks again and ends; a cold one taken for warm starts its helper later."""
    src = Path(__file__).resolve().parents[2].joinpath(*unit.module.split(".")).with_suffix(".py")
    pattern = f"{src.stem}.{unit.name}-*.nbi"
    user_dir = os.environ.get("NUMBA_CACHE_DIR")
    where = Path(user_dir) if user_dir else src.parent / "__pycache__"
    try:
        return where.is_dir() and next(where.rglob(pattern), None) is not None
    except OSError:
        return False


def stop_early() -> None:
    """Stop the helpers start_early started that no warm-up took over."""
    while _early:
        _early.popitem()[1].stop()


def start_helper(steps: Sequence[Step]) -> Helper | None:
    if not helper_wanted():
        return None
    early = _early.pop(tuple(steps), None)
    if early is not None:
        if early.proc.poll() is None:
            return early
        early.stop()  # it found the cache warm before this process did: start afresh
    try:
        return Helper(steps)
    except OSError:  # no process to spare: compile everything here
        return None


def run_steps(steps: Sequence[Step], compile_one: Callable[[Unit], None], other: Any) -> None:
    """Compile the units of `steps` in order; an Await waits for the other process (`other`:
    `wait_for(unit)`, `tell(unit)`; None: no other process, nothing to wait for)."""
    for step in expand(steps):
        if isinstance(step, Await):
            if other is not None:
                other.wait_for(step.unit)
            continue
        compile_one(step)
        if other is not None:
            other.tell(step)


def warm_in_parallel(
    top: Unit,
    own: Sequence[Step],
    helper_steps: Sequence[Step],
    finish: Callable[[], None],
    compile_one: Callable[[Unit], None] = compile_unit,
    cached: Callable[[Unit], bool] = is_cached,
    start: Callable[[Sequence[Step]], Any] = start_helper,
) -> None:
    """Run `finish` (the command's warm-up: it loads the kernels from the cache, or compiles
    them); when the cache holds no `top` kernel yet (a cold cache), first compile `own` here
    while a helper process compiles `helper_steps`.  The helper is stopped when `finish`
    returns or anything fails: what it finished stays in the cache, the rest is not needed."""
    if cached(top):
        stop_early()
        finish()
        return
    helper = start(helper_steps)
    try:
        run_steps(own, compile_one, helper)
        finish()
    finally:
        if helper is not None:
            helper.stop()


class _Parent:
    """Helper side: the parent's finished units (our stdin) and ours (our stdout)."""

    def __init__(self) -> None:
        # the parent closed our stdin: it finished (or died), and needs nothing more from us
        self.peer = Peer(sys.stdin.buffer, on_close=lambda: os._exit(0))

    def wait_for(self, unit: Unit) -> bool:
        return self.peer.wait_for(unit)

    def tell(self, unit: Unit) -> None:
        with contextlib.suppress(OSError):
            sys.stdout.write(spec_of(unit) + "\n")
            sys.stdout.flush()


def steps_of(args: Sequence[str], cached: Callable[[Unit], bool] = is_cached) -> list[Step]:
    """The helper's steps from its arguments (`Helper`): unit specs, '@spec' an Await, and first
    '?spec' (a helper started early) when none is needed if that unit is cached."""
    if args and args[0].startswith("?"):
        top = unit_of(args[0][1:])
        if isinstance(top, Unit) and cached(top):
            return []
        args = args[1:]
    return [Await(unit_of(a[1:])) if a.startswith("@") else unit_of(a) for a in args]


def helper_main(args: Sequence[str]) -> int:
    parent = _Parent()
    steps = steps_of(args)

    def compile_quietly(unit: Unit) -> None:
        with contextlib.suppress(
            Exception
        ):  # a unit that does not compile is the parent's to compile
            compile_unit(unit)

    run_steps(steps, compile_quietly, parent)
    return 0


def _main() -> None:
    code = helper_main(sys.argv[1:])
    # at once: a thread still reads our stdin, which an orderly interpreter exit would wait on
    sys.stdout.flush()
    os._exit(code)


if __name__ == "__main__":
    _main()

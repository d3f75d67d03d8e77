"""A cold compile in two processes (sim/play/compile/parallel_warm.py): the unit lists only wait for
what the other side compiles and never deadlock, a failed or missing helper changes nothing but
the time, a warm cache starts no helper, an interrupt stops the helper, and the lists' argument
types are the ones the kernels' callers compile (a stale list would cost time, not results)."""

from __future__ import annotations

import threading

import pytest

from sim.play.compile import parallel_warm as pw
from strategies.registry import KERNELS

PLANS = {
    "simulate": (pw.expand(pw.SIMULATE_OWN), pw.expand(pw.SIMULATE_HELPER)),
    **{
        f"play {name}": (
            [*pw.PLAY_OWN, *pw.play_decide_steps(name), *pw.PLAY_OWN_LAST],
            pw.PLAY_HELPER,
        )
        for name in KERNELS
    },
    "play knowledge": (
        [*pw.PLAY_OWN, *pw.PLAY_KNOWLEDGE, *pw.play_decide_steps("random"), *pw.PLAY_OWN_LAST],
        pw.PLAY_HELPER,
    ),
}


def test_the_decision_functions_come_from_the_registry(monkeypatch):
    # a new decision function needs no line in sim/: it is scheduled like the others
    from strategies import greedy, registry

    new = registry.KERNELS | {"newcomer": greedy._discard_nb}
    monkeypatch.setattr(registry, "KERNELS", new)
    units = pw.decision_units("own") + pw.decision_units("helper")
    assert [u.name for u in units] == ["decide_nb", "decide_nb", "_discard_nb"]  # random inlined
    assert pw.play_decide_steps("newcomer")[-1] == pw.Unit(
        "strategies.greedy", "_discard_nb", pw.SIG_DECIDE
    )
    assert pw.play_decide_steps("random") == ()  # its Python body calls core kernels
    assert pw.unit_of(pw.spec_of(pw.Decide("helper"))) == pw.Decide("helper")


def _units(steps):
    return [s for s in steps if isinstance(s, pw.Unit)]


@pytest.mark.parametrize("plan", PLANS)
def test_each_side_waits_only_for_units_the_other_compiles(plan):
    own, helper = PLANS[plan]
    for waiting, other in ((own, helper), (helper, own)):
        awaited = [s.unit for s in waiting if isinstance(s, pw.Await)]
        assert awaited and set(awaited) <= set(_units(other))
    assert not set(_units(own)) & set(_units(helper))  # nobody compiles a unit twice


class _Side:
    """One side of a fake pair: records what it compiled, tells the other side, waits on it."""

    def __init__(self, log: list) -> None:
        self.done: set = set()
        self.cond = threading.Condition()
        self.log = log
        self.other: _Side | None = None

    def compile(self, unit) -> None:
        self.log.append(unit)

    def wait_for(self, unit) -> bool:
        assert self.other is not None
        with self.other.cond:
            return self.other.cond.wait_for(lambda: unit in self.other.done, timeout=5)

    def tell(self, unit) -> None:
        with self.cond:
            self.done.add(unit)
            self.cond.notify_all()


@pytest.mark.parametrize("plan", PLANS)
def test_the_two_lists_never_deadlock_and_wait_before_each_call(plan):
    own, helper = PLANS[plan]
    log: list = []
    a, b = _Side(log), _Side(log)
    a.other, b.other = b, a
    waited: list = []

    def run(steps, side):
        def wait_for(unit):
            ok = side.wait_for(unit)
            waited.append((unit, ok, unit in log))
            return ok

        proxy = type("P", (), {"wait_for": staticmethod(wait_for), "tell": staticmethod(side.tell)})
        pw.run_steps(steps, side.compile, proxy)

    t = threading.Thread(target=run, args=(helper, b))
    t.start()
    run(own, a)
    t.join(10)
    assert not t.is_alive()
    assert sorted(map(str, log)) == sorted(map(str, _units(own) + _units(helper)))
    assert waited and all(ok and compiled for _, ok, compiled in waited)


class _FakeHelper:
    def __init__(self, steps, alive=True):
        self.steps = list(steps)
        self.alive = alive
        self.stopped = False

    def wait_for(self, unit):
        return not self.alive  # a dead helper: nothing to wait for

    def tell(self, unit):
        pass

    def stop(self):
        self.stopped = True


def test_a_cold_cache_starts_a_helper_and_then_runs_the_warm_up():
    started, compiled, finished = [], [], []

    def start(steps):
        started.append(_FakeHelper(steps))
        return started[-1]

    own = (pw.WHY_MELD, pw.Await(pw.WHY_TAKE), pw.LEGAL)
    pw.warm_in_parallel(
        pw.PLAY_CHUNK,
        own,
        (pw.WHY_TAKE,),
        lambda: finished.append(1),
        compile_one=compiled.append,
        cached=lambda u: False,
        start=start,
    )
    assert [h.steps for h in started] == [[pw.WHY_TAKE]] and started[0].stopped
    assert compiled == [pw.WHY_MELD, pw.LEGAL] and finished == [1]


def test_a_warm_cache_only_loads():
    calls = []
    pw.warm_in_parallel(
        pw.PLAY_CHUNK,
        (pw.WHY_MELD,),
        (pw.WHY_TAKE,),
        lambda: calls.append("finish"),
        compile_one=lambda u: calls.append(u),
        cached=lambda u: True,
        start=lambda steps: pytest.fail("started a helper on a warm cache"),
    )
    assert calls == ["finish"]


@pytest.mark.parametrize(
    "helper", [None, _FakeHelper((), alive=False)], ids=["no helper", "helper died"]
)
def test_without_a_working_helper_everything_compiles_here(helper):
    compiled, finished = [], []
    own = (pw.Await(pw.AFTER_MOVE), pw.WHY_MELD, pw.Await(pw.WHY_ILLEGAL), pw.LEGAL)
    pw.warm_in_parallel(
        pw.PLAY_CHUNK,
        own,
        (pw.AFTER_MOVE, pw.WHY_ILLEGAL),
        lambda: finished.append(1),
        compile_one=compiled.append,
        cached=lambda u: False,
        start=lambda steps: helper,
    )
    assert compiled == [pw.WHY_MELD, pw.LEGAL] and finished == [1]


def test_an_interrupt_stops_the_helper():
    helper = _FakeHelper(())

    def compile_one(unit):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        pw.warm_in_parallel(
            pw.PLAY_CHUNK,
            (pw.WHY_MELD,),
            (pw.WHY_TAKE,),
            lambda: None,
            compile_one=compile_one,
            cached=lambda u: False,
            start=lambda steps: helper,
        )
    assert helper.stopped


def test_the_helper_can_be_turned_off(monkeypatch):
    monkeypatch.setenv("CANASTA_COMPILE_HELPER", "0")
    assert not pw.helper_wanted() and pw.start_helper((pw.WHY_TAKE,)) is None


def test_units_have_the_argument_types_their_callers_compile(monkeypatch):
    """After the warm-ups, each unit's kernel is in numba's cache under the unit's argument
    types (among the types other callers compiled it for, e.g. the rollout kernels).  A stale
    unit (after an edit) is missing there when the cache was written without the helper: this
    test then fails, while the commands only lose time."""
    from sim.play.compile.warm import warm_play, warm_simulate

    monkeypatch.setenv("CANASTA_COMPILE_HELPER", "0")  # what is compiled here, the callers compiled
    warm_simulate((False,), (False,))
    warm_play()
    units = {u for plan in PLANS.values() for side in plan for u in _units(side)}
    for unit in sorted(units):
        index = pw.kernel(unit)._cache._cache_file._load_index()
        assert pw.arg_types(unit) in [key[0] for key in index], unit


class _EarlyHelper(_FakeHelper):
    """A started helper process, as far as start_helper can tell (running until stopped)."""

    def __init__(self, steps, top=None):
        super().__init__(steps)
        self.top = top
        self.proc = self

    def poll(self):
        return 0 if self.stopped else None


@pytest.fixture
def early_helpers(monkeypatch):
    """Early helpers are fakes, wanted, and the cache looks cold."""
    monkeypatch.setattr(pw, "Helper", _EarlyHelper)
    monkeypatch.setattr(pw, "helper_wanted", lambda: True)
    monkeypatch.setattr(pw, "looks_cached", lambda unit: False)


def test_a_helper_started_early_is_taken_over_by_the_warm_up(early_helpers):
    pw.start_early("play")
    early = pw._early[pw.PLAY_HELPER]
    assert early.top == pw.PLAY_TOP and early.steps == list(pw.PLAY_HELPER)
    assert pw.start_helper(pw.PLAY_HELPER) is early and not early.stopped
    assert not pw._early  # taken: nothing left for stop_early
    pw.start_early("simulate")
    late = pw._early[pw.SIMULATE_HELPER]
    pw.stop_early()
    assert late.stopped and not pw._early


def test_a_warm_cache_stops_a_helper_started_early(early_helpers):
    pw.start_early("simulate")
    early = pw._early[pw.SIMULATE_HELPER]
    pw.warm_in_parallel(
        pw.PLAY_CHUNK,
        (pw.WHY_MELD,),
        pw.SIMULATE_HELPER,
        lambda: None,
        compile_one=lambda u: pytest.fail("compiled on a warm cache"),
        cached=lambda u: True,
    )
    assert early.stopped and not pw._early


def test_a_helper_started_early_checks_the_cache_first():
    args = ["?" + pw.spec_of(pw.PLAY_TOP), pw.spec_of(pw.WHY_TAKE), "@" + pw.spec_of(pw.WHY_MELD)]
    assert pw.steps_of(args, cached=lambda u: u == pw.PLAY_TOP) == []
    assert pw.steps_of(args, cached=lambda u: False) == [pw.WHY_TAKE, pw.Await(pw.WHY_MELD)]
    assert pw.steps_of(args[1:], cached=lambda u: True) == [pw.WHY_TAKE, pw.Await(pw.WHY_MELD)]


@pytest.mark.parametrize(
    ("argv", "started"),
    [
        (["play", "--seed", "3"], "play"),
        (["simulate", "--hands", "10"], "simulate"),
        (["rules"], None),
        (["play", "--help"], None),
        (["simulate", "--scheduler=tcp://h:1"], None),
        ([], None),
    ],
)
def test_the_command_line_starts_the_helper_before_loading_the_libraries(
    monkeypatch, argv, started
):
    from sim.cli import main

    calls = []
    monkeypatch.setattr(pw, "start_early", calls.append)
    stop = main._start_compiling(argv)
    assert calls == ([started] if started else []) and (stop is pw.stop_early) == bool(started)


def test_a_warm_cache_is_seen_without_numba_and_starts_no_early_helper(monkeypatch, tmp_path):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(pw, "Helper", _EarlyHelper)
    monkeypatch.setattr(pw, "helper_wanted", lambda: True)
    assert not pw.looks_cached(pw.PLAY_TOP)
    (tmp_path / "play_0123").mkdir()
    (tmp_path / "play_0123" / "step.observe_nb-232.py311.nbi").write_bytes(b"")
    assert pw.looks_cached(pw.PLAY_TOP) and not pw.looks_cached(pw.PLAY_CHUNK)
    pw.start_early("play")
    assert not pw._early


def test_the_quick_look_agrees_with_numba(monkeypatch, tmp_path):
    """The file name looks_cached expects is the one numba writes (numba's private layout)."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    code = (
        "from sim.play.selfplay.step import observe_nb; "
        "print(observe_nb._cache._cache_file._index_path)"
    )
    import os
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env=dict(os.environ),
    )
    index = out.stdout.strip()
    assert index.startswith(str(tmp_path)) and not pw.looks_cached(pw.PLAY_TOP)
    os.makedirs(os.path.dirname(index), exist_ok=True)
    open(index, "wb").close()
    assert pw.looks_cached(pw.PLAY_TOP)

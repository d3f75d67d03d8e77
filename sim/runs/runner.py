"""Parallel Monte Carlo runs: chunks of hands (or whole games) through joblib, parquet shards.

    from sim.core.rules import RuleSet
    from sim.runs.runner import simulate
    r = simulate(RuleSet.preset("classic"), "expert,greedy", hands=100_000, seed=1, out="runs/x")
    r.hands.groupby("went_out_team")[["score_t0", "score_t1"]].mean()

A run is split into chunks of consecutive game indices; chunk i is played by one call of the
core's ``run_chunk`` in a worker (loky processes, or a dask cluster through joblib's dask
backend), encoded there as zstd parquet and written by this process as it arrives
(``sim.runs.store``).  Every hand is determined by its key (seed, game, hand), so the data do not
depend on the number of workers or on the chunk size; only the chunk files differ.
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

import pandas as pd

from sim.core import limits
from sim.core.errors import CanastaError, check_int
from sim.core.rules import RuleSet
from sim.play.compile.warm import compile_notice, warm_simulate
from sim.play.specs import check_spec
from sim.runs import engines, integrity, store, workers
from sim.runs.engines import Engine
from sim.runs.progress import new_bar
from sim.runs.result import RunResult, hands_per_second  # noqa: F401 - the runner's names of before
from sim.runs.store import RunFolderError
from strategies import registry

DEFAULT_HANDS = 20_000
DEFAULT_CHUNK_HANDS = 5_000  # hands per chunk of a run with decision logs (mode "hands")
DEFAULT_CHUNK_GAMES = (
    500  # games per chunk of a run with decision logs (mode "games": a classic game is ~5-10 hands)
)
# without decision logs: a chunk has a fixed cost of about 5 ms (three parquet writers, four
# files, the engine's tables), a fifth of a greedy chunk of 5,000 hands; 20,000 hands cut it to
# 0.25 us per hand (whole `simulate --jobs 1`, 1M greedy hands: 84,900-88,900 hands/s with
# chunks of 5,000 against 92,300-94,900 with 20,000).  Logged runs keep the smaller chunks:
# their decision buffers grow with the chunk (about 120 rows per hand).
UNLOGGED_CHUNK_HANDS = 20_000
UNLOGGED_CHUNK_GAMES = 2_000
DEFAULT_STRATEGIES = ("expert", "greedy")  # team 0, other teams
BACKENDS = ("loky", "dask")
LOG_DETAILS = ("basic", "cards")  # decision columns: those of every log, or also the cards
DASK_CONNECT_TIMEOUT = "10s"


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C during a run: finished chunks are kept on disk."""

    def __init__(self, path: Path | None, done: int, n_chunks: int) -> None:
        super().__init__(f"interrupted after {done}/{n_chunks} chunks")
        self.path = path
        self.done = done
        self.n_chunks = n_chunks


# ----------------------------------------------------------------------------- plan


@dataclass(frozen=True)
class Plan:
    """Chunk i plays games [i*chunk_size, min((i+1)*chunk_size, total))."""

    mode: str  # "hands" or "games"
    total: int
    chunk_size: int

    @property
    def n_chunks(self) -> int:
        return -(-self.total // self.chunk_size) if self.total else 0

    def chunk(self, index: int) -> tuple[int, int]:
        start = index * self.chunk_size
        return start, min(self.chunk_size, self.total - start)


def default_chunk_size(mode: str, total: int, log_rate: float = 0.0) -> int:
    """Up to 20,000 hands (2,000 games) per chunk, 5,000 (500) when decisions are logged, smaller
    for small runs so that every core gets work (about 64 chunks); depends on the run's size and
    log rate only, never on the number of workers (and results never depend on the chunks)."""
    if mode == "hands":
        cap, floor = (DEFAULT_CHUNK_HANDS if log_rate > 0 else UNLOGGED_CHUNK_HANDS), 250
    else:
        cap, floor = (DEFAULT_CHUNK_GAMES if log_rate > 0 else UNLOGGED_CHUNK_GAMES), 25
    return max(1, min(cap, max(floor, -(-total // 64))))


# at most this many (hands, or games with --games) a run without --jobs plays in this process
SMALL_RUN = {"hands": 100_000, "games": 10_000}


def default_jobs(mode: str, total: int, backend: str = "loky") -> int:
    """Workers of a run when the user names none: all cores (-1), but a small run (at most
    SMALL_RUN) plays in this process: starting loky workers (each imports the libraries and loads
    the compiled core) costs more than they save.  Measured on 2 cores, warm cache, whole
    command: the default 20,000 hands 2.8 s in one process against 5.1-7.7 s with two workers,
    200,000 hands 6.1 against 5.1 s.  Results are the same whatever the number of workers."""
    return 1 if backend == "loky" and total <= SMALL_RUN[mode] else -1


# ----------------------------------------------------------------------------- strategies


def registered_strategies() -> tuple[str, ...]:
    """Names of the engine's strategy registry, then the search players (sim.play.search)."""
    from sim.play.openspiel.bot import BOT_NAMES
    from sim.play.search.spec import SEARCH_NAMES

    return tuple(registry.STRATEGY_NAMES) + SEARCH_NAMES + BOT_NAMES


def default_team_strategies(
    n_teams: int, available: Sequence[str] | None = None
) -> tuple[str, ...]:
    """expert for team 0, greedy for the others (what exists of them)."""
    first, rest = DEFAULT_STRATEGIES
    if available:
        if first not in available:
            first = available[0]
        if rest not in available:
            rest = available[0]
    return (first,) + (rest,) * (n_teams - 1)


def split_strategies(text: str) -> list[str]:
    """'expert,greedy:aggr=0.5,bluff=1' -> ['expert', 'greedy:aggr=0.5,bluff=1'] (the registry's
    one reader of strategy lists, strategies.registry.split_specs)."""
    return registry.split_specs(text)


def expand_strategies(rules: RuleSet, strategies: str | Sequence[str] | None) -> tuple[str, ...]:
    """Strategies per table seat from one per team (len n_teams) or one per seat (len players);
    a single name is used for every seat."""
    if strategies is None:
        strategies = default_team_strategies(rules.n_teams, registered_strategies())
    if isinstance(strategies, str):
        strategies = split_strategies(strategies)
    if not isinstance(strategies, Sequence) or not all(isinstance(s, str) for s in strategies):
        raise CanastaError(
            f"strategies {strategies!r}: give names like 'expert,greedy' or a list of them"
        )
    names = [s.strip() for s in strategies]
    if any(not s for s in names):
        raise CanastaError(f"--strategies '{','.join(names)}': empty strategy name")
    players, n_teams = int(rules.players), int(rules.n_teams)
    if len(names) == players:
        return tuple(names)
    if len(names) == 1:  # one strategy for every seat (self-play)
        return tuple(names) * players
    if len(names) == n_teams:
        return tuple(names[t] for t in rules.team_of_seat)
    raise CanastaError(
        f"--strategies '{','.join(names)}': give one strategy per team ({n_teams}) "
        f"or one per seat ({players}), not {len(names)}"
    )


def check_strategy_names(
    names: Sequence[str], available: Sequence[str] | None, option: str = ""
) -> None:
    """One-line StrategyError for an unknown strategy or a bad knob (every spec, of any kind:
    sim.play.specs.check_spec) when the registry exists (`available` is not None)."""
    if available is None:
        return
    for spec in names:
        check_spec(spec, option)


def check_engine_supports(rules: RuleSet) -> None:
    """The core's own refusal of rules it cannot play yet, before any worker starts."""
    reason = rules.engine_supported()
    if reason:
        raise CanastaError(reason)


def team_labels(rules: RuleSet, seat_strategies: Sequence[str]) -> list[str]:
    tos = rules.team_of_seat
    out = []
    for t in range(rules.n_teams):
        names = list(dict.fromkeys(seat_strategies[s] for s in range(rules.players) if tos[s] == t))
        out.append("+".join(names))
    return out


# ----------------------------------------------------------------------------- validation


def _check_rate(value: Any) -> float:
    try:
        rate = float(value)
    except (TypeError, ValueError):
        raise CanastaError(f"log_decisions={value!r} must be a number between 0 and 1") from None
    if not 0.0 <= rate <= 1.0:  # also refuses nan
        raise CanastaError(
            f"log_decisions={value!r} must be between 0 and 1 (fraction of hands logged)"
        )
    return rate


def package_versions() -> dict[str, str]:
    out = {"python": sys.version.split()[0]}
    for pkg in (
        "canasta-lab",
        "numba",
        "numpy",
        "pandas",
        "pyarrow",
        "joblib",
        "dask",
        "distributed",
    ):
        try:
            out[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            out[pkg] = "not installed"
    return out


# ----------------------------------------------------------------------------- worker side


def _check_detail(value: Any, engine: Engine) -> str:
    if value not in LOG_DETAILS:
        raise ValueError(f"log_detail={value!r}: choose {' or '.join(LOG_DETAILS)}")
    if value != "basic" and "log_detail" not in engine.options:
        raise ValueError(f"log_detail={value!r}: engine {engine.name} logs basic rows only")
    return value


def run_chunk_task(
    engine: Engine,
    rules: RuleSet,
    strategies: tuple[str, ...],
    seed: int,
    index: int,
    start: int,
    count: int,
    mode: str,
    log_rate: float,
    check: bool,
    freeze_gc: bool = False,
    log_detail: str = "basic",
) -> tuple[int, dict[str, bytes], dict[str, int]]:
    """Play one chunk and encode its tables (runs in a worker).  freeze_gc: the process is a
    worker of ours (loky), see _freeze_gc_once."""
    kw: dict[str, Any] = {"reuse_buffers": True} if "reuse_buffers" in engine.options else {}
    if log_detail != "basic":
        kw["log_detail"] = log_detail
    res = engine.run_chunk(
        rules, strategies, seed, start, count, mode=mode, log_rate=log_rate, check=check, **kw
    )
    payload, rows = store.chunk_payload(
        res, rules, strategies, integrity.chunk_key(index, seed, start, count)
    )
    if freeze_gc:
        _freeze_gc_once()
    return index, payload, rows


_gc_frozen = False


def _workers_are_ours(backend: str, jobs: int) -> bool:
    """Chunks run in loky worker processes of this run (with one job they run in this one)."""
    from joblib import effective_n_jobs

    return backend == "loky" and effective_n_jobs(jobs) > 1


def _freeze_gc_once() -> None:
    """After a worker's first chunk, the imported libraries and the compiled core stay for
    good: moving them out of the cycle collector's sight spares its full passes over them
    (measured in a worker: 35-50 ms each, about one per 3 s of fully logged play; after the
    freeze 0.1 ms).  Garbage made later is collected as before.  Not done in the caller's own
    process (jobs=1: a notebook's objects are not ours to freeze) nor in dask workers (shared
    with other work)."""
    global _gc_frozen
    if not _gc_frozen:
        _gc_frozen = True
        gc.freeze()


# ----------------------------------------------------------------------------- execution


def _reach_scheduler(scheduler: str) -> None:
    """One-line ValueError when the dask scheduler does not answer (nothing written yet)."""
    from dask.distributed import Client

    try:
        Client(scheduler, timeout=DASK_CONNECT_TIMEOUT).close()
    except (OSError, TimeoutError) as exc:
        msg = " ".join(str(exc).split())[:200]
        raise ValueError(f"cannot reach the dask scheduler {scheduler}: {msg}") from None


@contextlib.contextmanager
def _backend(backend: str, scheduler: str | None, jobs: int) -> Iterator[Any]:
    """joblib's backend for the run; yields the dask Client (None for loky)."""
    if backend == "loky":
        yield None
        return
    import joblib
    from dask.distributed import Client, LocalCluster

    cluster = None
    try:
        if scheduler:
            client = Client(scheduler, timeout=DASK_CONNECT_TIMEOUT)
        else:
            n = (os.cpu_count() or 1) if jobs < 0 else jobs
            cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True)
            client = Client(cluster)
    except (OSError, TimeoutError) as exc:
        msg = " ".join(str(exc).split())[:200]
        raise CanastaError(f"cannot reach the dask scheduler {scheduler}: {msg}") from None
    try:
        with joblib.parallel_config(backend="dask"):
            yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _execute(
    tasks: Iterable[tuple[int, int, int]],
    engine: Engine,
    rules: RuleSet,
    strategies: tuple[str, ...],
    seed: int,
    mode: str,
    log_rate: float,
    check: bool,
    jobs: int,
    backend: str,
    log_detail: str = "basic",
) -> Iterator[tuple[int, dict[str, bytes], dict[str, int]]]:
    """Results of the chunks in completion order (dispatch is bounded by pre_dispatch)."""
    from joblib import Parallel, delayed  # loky with workers.loky_kwargs() below, or dask

    if _stop_in_worker(backend, jobs, strategies, engine):
        # one job, but chunks a compiled kernel would hold for long: in one worker, so that
        # Ctrl-C stops them at once (this process waits in Python)
        for i, start, count in tasks:
            yield workers.stoppable(
                run_chunk_task,
                engine,
                rules,
                strategies,
                seed,
                i,
                start,
                count,
                mode,
                log_rate,
                check,
                False,
                log_detail,
            )
        return
    kw: dict[str, Any] = dict(
        n_jobs=jobs, return_as="generator_unordered", batch_size=1, pre_dispatch="2*n_jobs"
    )
    if backend == "loky":
        kw.update(workers.loky_kwargs())  # workers end when this process dies (even by kill -9)
    freeze = _workers_are_ours(backend, jobs)
    gen = Parallel(**kw)(
        delayed(run_chunk_task)(
            engine,
            rules,
            strategies,
            seed,
            i,
            start,
            count,
            mode,
            log_rate,
            check,
            freeze,
            log_detail,
        )
        for i, start, count in tasks
    )
    try:
        yield from gen
    finally:
        close = getattr(gen, "close", None)
        if close is not None:
            close()


SLOW_SPECS = ("pimc", "ismcts", "openspiel-")  # search players: seconds to hours a decision


def _stop_in_worker(backend: str, jobs: int, strategies: tuple[str, ...], engine: Engine) -> bool:
    """Run one job's chunks in a worker (not in this process): the real engine with a search
    player seated, whose single decisions can outlast any Ctrl-C a person waits for."""
    from joblib import effective_n_jobs

    real = engine is engines.CORE
    slow = any(s.split(":", 1)[0].startswith(SLOW_SPECS) for s in strategies)
    return backend == "loky" and effective_n_jobs(jobs) == 1 and real and slow


def _compile_first(client: Any, check: bool, log: bool) -> None:
    """Compile the kernels before the clock starts, so throughput and ETA measure play only.

    Workers on this machine then load the cache this process wrote (about a second); the
    workers of a remote dask cluster compile at once, each into its own cache (`canasta warmup
    --scheduler` does it ahead of time)."""
    with compile_notice("the game core", f"simulate:check={check},log={log}"):
        if client is not None:
            client.run(warm_simulate, (check,), (log,))
        else:
            warm_simulate((check,), (log,))


def _progress_bar(enabled: bool, plan: Plan, initial: int) -> Any:
    return new_bar(plan.total, "hand" if plan.mode == "hands" else "game", enabled, initial=initial)


# ----------------------------------------------------------------------------- simulate


def build_manifest(
    rules: RuleSet,
    seat_strategies: tuple[str, ...],
    plan: Plan,
    seed: int,
    log_rate: float,
    check: bool,
    command: str | None,
    log_detail: str = "basic",
) -> dict[str, Any]:
    return {
        "format": store.FORMAT,
        "version": store.FORMAT_VERSION,
        "rules": rules.to_dict(),
        "players": int(rules.players),
        "n_teams": int(rules.n_teams),
        "team_of_seat": list(rules.team_of_seat),
        "strategies": list(seat_strategies),
        "team_strategies": team_labels(rules, seat_strategies),
        "seed": seed,
        "mode": plan.mode,
        "total": plan.total,
        "hands": plan.total if plan.mode == "hands" else None,
        "games": plan.total if plan.mode == "games" else None,
        "chunk_size": plan.chunk_size,
        "n_chunks": plan.n_chunks,
        "log_decisions": log_rate,
        "log_detail": log_detail,
        "check": bool(check),
        "tables": list(store.TABLES),
        "versions": package_versions(),
        "command": command,
        "created": store.now_iso(),
    }


def _same_experiment(root: Path, manifest: dict[str, Any]) -> dict[str, Any]:
    """The folder's manifest if it holds this experiment; else a one-line RunFolderError."""
    existing = store.read_manifest(root)
    diff = store.compare_experiment(existing, manifest)
    if diff:
        raise RunFolderError(
            f"{root} holds a different run: {diff}; choose a new --out, or use --resume "
            "without changing settings to finish that run"
        )
    return existing


def _prepare_folder(
    root: Path, manifest: dict[str, Any], resume: bool
) -> tuple[dict[str, Any], list[int] | None]:
    """Create or reuse the run folder (simulate has refused a file or a foreign folder before
    locking it); returns (manifest in force, done chunks or None if new)."""
    if not store.folder_has_files(root):
        store.write_manifest(root, manifest)
        for sub in (*store.TABLES, store.DONE_DIR):
            (root / sub).mkdir(exist_ok=True)
        return manifest, None
    existing = _same_experiment(root, manifest)
    n = existing["n_chunks"]
    done = store.done_chunks(root, n)
    if len(done) < n and not resume:
        raise RunFolderError(
            f"{root} holds an unfinished run of this experiment ({len(done)}/{n} chunks done); "
            "add --resume to finish it, or choose a new --out"
        )
    if resume:
        done = store.intact_chunks(
            root, done, existing
        )  # a chunk with a damaged shard is done again
        store.clean_unfinished(root, done)
        for sub in (*store.TABLES, store.DONE_DIR):
            (root / sub).mkdir(exist_ok=True)
    return existing, done


def _resumed_chunk_size(root: Path, mode: str) -> int | None:
    """The chunk size of the run in `root` when resuming without one (a folder written before
    the default changed keeps its chunks); None when there is no such run (the checks that
    follow explain what is wrong with the folder)."""
    try:
        there = store.read_manifest(root)
    except RunFolderError:  # missing or damaged: _prepare_folder reports it
        return None
    size = there.get("chunk_size")
    return size if there.get("mode") == mode and isinstance(size, int) else None


def _check_plan(
    hands: int | None, games: int | None, chunk_size: int | None, log_rate: float = 0.0
) -> Plan:
    """The run's chunks from hands= or games= and chunk_size= (each in its documented range)."""
    if hands is not None and games is not None:
        raise CanastaError("give either hands or games, not both")
    if games is not None:
        mode, total = "games", check_int("games", games, *limits.RUN_COUNT)
    else:
        mode, total = (
            "hands",
            check_int("hands", DEFAULT_HANDS if hands is None else hands, *limits.RUN_COUNT),
        )
    if chunk_size is None:
        chunk_size = default_chunk_size(mode, total, log_rate)
    return Plan(mode, total, check_int("chunk_size", chunk_size, *limits.CHUNK))


def _check_out(root: Path, manifest: dict[str, Any]) -> None:
    """Refuse an --out that cannot hold this run before anything is written."""
    if root.exists() and not root.is_dir():
        raise RunFolderError(f"{root} is a file, not a run folder; choose another --out")
    for up in root.parents:
        if up.exists():
            if not up.is_dir():
                raise RunFolderError(
                    f"cannot make {root}: {up} is a file, not a folder; choose another --out"
                )
            break
    if store.folder_has_files(root):
        _same_experiment(root, manifest)  # refuse a foreign folder before writing anything into it


def _in_memory(
    manifest: dict[str, Any],
    payloads: dict[int, dict[str, bytes]],
    elapsed: float,
    n_tasks: int,
    units: int,
) -> RunResult:
    """The result of a run without a folder: its shards decoded into frames."""
    frames = {}
    for table in store.TABLES:
        parts = [store.decode_table(payloads[i][table]) for i in sorted(payloads)]
        frames[table] = (
            pd.concat(parts, ignore_index=True) if parts else store._empty_frame(None, table, None)
        )
    return RunResult(
        None, manifest, frames=frames, elapsed=elapsed, chunks_run=n_tasks, units_run=units
    )


def simulate(
    rules: RuleSet,
    strategies: str | Sequence[str] | None,
    hands: int | None = None,
    games: int | None = None,
    seed: int = 0,
    out: str | os.PathLike | None = None,
    jobs: int = -1,
    chunk_size: int | None = None,
    log_decisions: float = 0.0,
    backend: str = "loky",
    scheduler: str | None = None,
    resume: bool = False,
    check: bool = False,
    progress: bool | None = None,
    *,
    command: str | None = None,
    on_start: Callable[[], None] | None = None,
    log_detail: str = "basic",
) -> RunResult:
    """Play `hands` independent hands or `games` whole games; write a run folder or keep frames.

    - `strategies`: one per team or one per table seat (comma string or sequence).
    - `out=None`: run in memory (small runs) and return the frames in the RunResult.
    - An existing `out` of the same experiment that is complete is returned as is (nothing is
      replayed); an unfinished one needs `resume=True`; another experiment is refused.
    - `log_detail`: "basic" (the decision columns of docs/DATA.md) or "cards" (also the cards
      behind each decision: hand counts, pile top, cards drawn and played, melds on the table).
    - The hands are played by `sim.runs.engines.current()`: the core, unless a test seated
      a stand-in engine.
    - Ctrl-C raises RunInterrupted (a KeyboardInterrupt) after the finished chunks are saved.
    - `on_start`: called once the folder is accepted, just before the chunks are played.
    """
    if not isinstance(rules, RuleSet):
        raise CanastaError(f"rules={rules!r}: give a RuleSet, e.g. RuleSet.preset('classic')")
    log_rate = _check_rate(log_decisions)
    if chunk_size is None and resume and out is not None:
        chunk_size = _resumed_chunk_size(Path(out), "games" if games is not None else "hands")
    plan = _check_plan(hands, games, chunk_size, log_rate)
    mode = plan.mode
    seed = check_int("seed", seed, *limits.SEED)
    jobs = check_int("jobs", jobs, *limits.JOBS)
    if jobs == 0:
        raise CanastaError("jobs=0: use a positive number of workers, or -1 for all cores")
    if backend not in BACKENDS:
        raise CanastaError(f"backend '{backend}': choose loky or dask")
    if scheduler and backend != "dask":
        raise CanastaError("a dask scheduler needs backend 'dask'")

    seat_strategies = expand_strategies(rules, strategies)
    engine = engines.current()
    if engine.registry:
        check_strategy_names(seat_strategies, registered_strategies())
        check_engine_supports(rules)
    log_detail = _check_detail(log_detail, engine)

    manifest = build_manifest(
        rules, seat_strategies, plan, seed, log_rate, check, command, log_detail
    )
    root = Path(out) if out is not None else None
    if root is not None:
        _check_out(root, manifest)
    if backend == "dask" and scheduler:
        _reach_scheduler(scheduler)  # an unreachable cluster is refused before the folder is made
    # what the folder held before: a run that fails before its first chunk leaves it so
    before = _entries(root)
    try:
        return _run_locked(
            root,
            manifest,
            plan,
            resume,
            progress,
            backend,
            scheduler,
            jobs,
            on_start,
            engine,
            check,
            log_rate,
            rules,
            seat_strategies,
            seed,
            mode,
            log_detail,
        )
    except Exception:
        if root is not None and before is not None and not store.done_chunks(root):
            _restore(root, before)
        raise


def _entries(root: Path | None) -> set[str] | None:
    """The names in `root` (empty: it does not exist); None for no folder."""
    if root is None:
        return None
    return {p.name for p in root.iterdir()} if root.is_dir() else set()


def _restore(root: Path, before: set[str]) -> None:
    """Remove what a failed run created in `root` (the whole folder if it made it)."""
    import shutil

    if not before:
        shutil.rmtree(root, ignore_errors=True)
        return
    for p in root.iterdir():
        if p.name not in before:
            if p.is_dir():
                shutil.rmtree(p, ignore_errors=True)
            else:
                p.unlink(missing_ok=True)


def _run_locked(
    root: Path | None,
    manifest: dict[str, Any],
    plan: Plan,
    resume: bool,
    progress: bool | None,
    backend: str,
    scheduler: str | None,
    jobs: int,
    on_start: Callable[[], None] | None,
    engine: Engine,
    check: bool,
    log_rate: float,
    rules: RuleSet,
    seat_strategies: tuple[str, ...],
    seed: int,
    mode: str,
    log_detail: str,
) -> RunResult:
    # the folder stays locked while this process may write into it
    with store.lock_folder(root) if root is not None else contextlib.nullcontext():
        done: list[int] = []
        if root is not None:
            manifest, found = _prepare_folder(root, manifest, resume)
            if found is not None:
                done = found
                if len(done) == plan.n_chunks:
                    return RunResult(root, manifest, already_complete=True)
        done_set = set(done)
        # made as the workers ask for them: memory does not grow with the number of chunks
        tasks = ((i, *plan.chunk(i)) for i in range(plan.n_chunks) if i not in done_set)
        initial = sum(plan.chunk(i)[1] for i in done)
        n_tasks = plan.n_chunks - len(done_set)
        if progress is None:
            progress = bool(getattr(sys.stderr, "isatty", lambda: False)())

        payloads: dict[int, dict[str, bytes]] = {}
        finished = len(done)
        hands_played = 0
        try:
            with _backend(backend, scheduler, jobs) as client:
                if on_start is not None:  # the backend is reached: the run starts
                    on_start()
                if n_tasks and engine is engines.CORE:
                    _compile_first(client, check, log_rate > 0)
                t0 = time.perf_counter()
                with _progress_bar(progress, plan, initial) as bar:
                    for index, payload, rows in _execute(
                        tasks,
                        engine,
                        rules,
                        seat_strategies,
                        seed,
                        mode,
                        log_rate,
                        check,
                        jobs,
                        backend,
                        log_detail,
                    ):
                        if root is not None:
                            store.write_chunk(
                                root, index, payload, rows, store.chunk_key_of(manifest, index)
                            )
                        else:
                            payloads[index] = payload
                        finished += 1
                        hands_played += rows["hands"]
                        bar.update(plan.chunk(index)[1])
                        elapsed = time.perf_counter() - t0
                        if mode == "games" and elapsed > 0:
                            bar.set_postfix_str(
                                f"{hands_played / elapsed:,.0f} hands/s", refresh=False
                            )
        except KeyboardInterrupt:
            if root is not None:
                store.clean_unfinished(root, store.done_chunks(root, plan.n_chunks))
            raise RunInterrupted(root, finished, plan.n_chunks) from None
        elapsed = time.perf_counter() - t0
        units = plan.total - initial

        if root is not None:
            return RunResult(root, manifest, elapsed=elapsed, chunks_run=n_tasks, units_run=units)
        return _in_memory(manifest, payloads, elapsed, n_tasks, units)

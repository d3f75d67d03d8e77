"""Engines: what plays the chunks of hands of a run, a comparison or a sweep.

Every run plays through the core, `CORE` (`sim.play.engine.run_chunk`).  An engine is anything
with the `Engine` protocol: a `run_chunk` with the core's arguments and records (docs/DATA.md),
the keyword options it takes beyond the basic call, and whether it plays the registry's
strategies (whose names a run checks before it starts).  The tests seat stand-in engines
(tests/fake_engine.py, tests/synthetic_engine.py: the same records without numba) with `using`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from sim.core.rules import RuleSet

__all__ = ["Engine", "ChunkEngine", "CORE", "CORE_OPTIONS", "current", "using"]


class Engine(Protocol):
    """Plays `count` hands (or games) keyed (seed, start + i, ...); returns a ChunkResult-like
    object (``.hands``, ``.games``, ``.decisions`` record arrays, docs/DATA.md)."""

    @property
    def name(self) -> str: ...

    @property
    def options(self) -> frozenset[str]:
        """Keyword options of `run_chunk` beyond the basic call (`CORE_OPTIONS` of the core)."""
        ...

    @property
    def registry(self) -> bool:
        """Whether it plays the strategies of the registry (a run checks their names first)."""
        ...

    def run_chunk(
        self,
        rules: RuleSet,
        strategies: Sequence[str],
        seed: int,
        start: int,
        count: int,
        mode: str = "hands",
        log_rate: float = 0.0,
        check: bool = False,
        **options: Any,
    ) -> Any: ...


@dataclass(frozen=True)
class ChunkEngine:
    """An engine that is one chunk function (picklable when the function is a module's)."""

    name: str
    fn: Callable[..., Any]
    options: frozenset[str] = frozenset()
    registry: bool = False

    def run_chunk(
        self,
        rules: RuleSet,
        strategies: Sequence[str],
        seed: int,
        start: int,
        count: int,
        mode: str = "hands",
        log_rate: float = 0.0,
        check: bool = False,
        **options: Any,
    ) -> Any:
        unknown = set(options) - self.options
        if unknown:
            raise TypeError(f"engine {self.name!r} takes no option {', '.join(sorted(unknown))}")
        # the basic call's defaults are not passed: a stand-in that neither logs nor checks
        # need not take them
        if log_rate:
            options["log_rate"] = log_rate
        if check:
            options["check"] = check
        return self.fn(rules, strategies, seed, start, count, mode=mode, **options)


def _core_run_chunk(*args: Any, **kwargs: Any) -> Any:
    from sim.play import engine  # at call time: the import is numba's, and tests may patch it

    return engine.run_chunk(*args, **kwargs)


# reuse_buffers: write into this process's buffers (the result is encoded at once); log_detail:
# "cards" too; luck: the chance terms; start_scores: the games' scores before their first hand
CORE_OPTIONS = frozenset({"reuse_buffers", "log_detail", "luck", "start_scores"})
CORE = ChunkEngine("core", _core_run_chunk, CORE_OPTIONS, registry=True)
_current: list[Engine] = [CORE]


def current() -> Engine:
    """The engine runs play with now: the core, unless a `using` block seated another."""
    return _current[-1]


@contextlib.contextmanager
def using(engine: Engine) -> Iterator[Engine]:
    """Play with `engine` inside the block (the runs, comparisons and sweeps started there)."""
    at = len(_current)
    _current.append(engine)
    try:
        yield engine
    finally:
        del _current[at]

"""Knob tuning: CMA-ES over a strategy's knobs, scored on duplicate deals, re-tested on fresh ones.

Design (``tune``):
1. Search.  The knobs to tune (``KnobRange``: name, lo, hi, integer or not) are scaled to
   [0, 1]; CMA-ES (the ``cma`` library, seeded) starts at the strategy's own knob values.  Each
   generation asks ``popsize`` candidates, rounds integer knobs, and plays every distinct
   candidate *and the starting knobs* against every opponent on the same new duplicate deals
   (``reports.duplicate.play_against``: common random numbers).  A candidate's score is its
   gain over the start on those deals (points per hand, mean over the opponents), so scores of
   different generations are comparable.
2. Selection.  The CMA-ES mean and the best distinct candidates of the search are played again
   on further tuning deals (same seed, new keys); the best mean gain wins (the start may win).
3. Re-test.  The winner and the start play ``test_hands`` deals of a seed never used in
   tuning (``test_seed`` = seed + TEST_SEED_OFFSET); the paired 95% CI of the gain is over
   those deals.
4. Activity.  For each tuned knob, the winner with that knob at ``lo`` and at ``hi`` plays the
   first ``activity_hands`` tuning deals in every seating against the first opponent with every
   decision logged; a hand counts as changed when the two action sequences differ.  A knob with
   no changed hand changed no decision in those hands (``TuneResult.inert``).

``budget`` is the number of hands played in steps 1 and 2 (every deal is played once per
seating); steps 3 and 4 come on top.  Results depend on the seed only, never on ``jobs``.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from reports import stats
from reports.compare import resolve_rules
from reports.duplicate import play_against, run_calls, seatings
from reports.sweep import parse_spec
from sim.core import limits
from sim.core.errors import CanastaError, check_int
from sim.play import engine
from sim.runs.progress import new_bar, on_terminal
from strategies.registry import StrategyError, knob_defaults, knob_values

__all__ = [
    "KnobRange",
    "TuneError",
    "TuneResult",
    "HEURISTIC_RANGES",
    "default_space",
    "parse_knob_ranges",
    "tune",
    "knob_activity",
    "TEST_SEED_OFFSET",
]

TEST_SEED_OFFSET = 1_000_000_000  # re-test seed = tuning seed + this (never a tuning seed)
MIN_DEALS = 50  # fewest deals per candidate evaluation
SEARCH_SHARE = 0.8  # of the budget; the rest is the selection step
SELECT_MIN_DEALS = 10  # fewest deals of the selection replay


class TuneError(CanastaError):
    """Bad tuning input (unknown knob, empty range, budget too small): one-line message."""


@dataclass(frozen=True)
class KnobRange:
    """A knob searched between lo and hi (integer knobs are rounded)."""

    name: str
    lo: float
    hi: float
    integer: bool = True

    def value(self, u: float) -> float:
        """The knob value at position u in [0, 1]."""
        v = self.lo + min(max(u, 0.0), 1.0) * (self.hi - self.lo)
        return float(round(v)) if self.integer else round(v, 3)

    def position(self, v: float) -> float:
        return min(max((v - self.lo) / (self.hi - self.lo), 0.0), 1.0)


# search ranges of the heuristic player's knobs (strategies/heuristic.py documents them)
HEURISTIC_RANGES: dict[str, KnobRange] = {
    k.name: k
    for k in (
        KnobRange("open_threshold", 0, 150),
        KnobRange("open_with_pile_only", 0, 1),
        KnobRange("max_wild_commit", 0, 3),
        KnobRange("freeze_when", 0, 2),
        KnobRange("go_out_min_canastas", 1, 3),
        KnobRange("go_out_opp_cards_le", 0, 6),
        KnobRange("pair_hold", 0, 2),
        KnobRange("take_min_pile", 1, 10),
        KnobRange("take_pair_min_pile", 1, 8),
        KnobRange("meld_all_when_opp_cards_le", 0, 6),
        KnobRange("hold_melds", 0, 1),
        KnobRange("safe_discard", 0, 15, integer=False),
        KnobRange("black3_stop", 0, 8),
        KnobRange("concealed", 0, 1),
        KnobRange("joker_first", 0, 1),
        KnobRange("late_stock", 0, 40),  # 15 changed almost no decision: hands end before that
        KnobRange("shed_high_when_ending", 0, 1),
    )
}


def _knob_names(strategy: str) -> dict[str, float]:
    """The knobs of the tuned strategy (a compiled strategy of the registry)."""
    from sim.play.specs import COMPILED, check_spec

    try:
        check_spec(strategy, "strategy", COMPILED)
        return knob_defaults(strategy.split(":", 1)[0].strip())
    except StrategyError as exc:
        raise TuneError(str(exc)) from None


def check_space(strategy: str, space: Sequence[KnobRange]) -> list[KnobRange]:
    """`space` as a list of KnobRanges of knobs `strategy` has, each lo < hi within the
    knob's documented range (strategies.registry.knob_domain), each knob once; else TuneError."""
    from strategies.registry import knob_domain

    if isinstance(space, KnobRange) or not isinstance(space, Sequence | set | tuple):
        raise TuneError(f"space={space!r}: give a list of KnobRange (or --knob name=lo:hi)")
    known = _knob_names(strategy)
    base = strategy.split(":", 1)[0].strip()
    out: dict[str, KnobRange] = {}
    for k in space:
        if not isinstance(k, KnobRange):
            raise TuneError(f"space: {k!r} is not a KnobRange(name, lo, hi)")
        if k.name not in known:
            raise TuneError(
                f"strategy {base!r} has no knob {k.name!r} (its knobs: {', '.join(known)})"
            )
        if k.name in out:
            raise TuneError(f"knob {k.name} is given twice; give each knob once")
        ok = all(
            isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
            for v in (k.lo, k.hi)
        )
        if not ok or not k.lo < k.hi:
            raise TuneError(f"knob {k.name}={k.lo!r}:{k.hi!r}: need finite numbers lo < hi")
        dom = knob_domain(base, k.name)
        if k.lo < dom.lo or k.hi > dom.hi or (dom.choices and not k.integer):
            raise TuneError(
                f"knob {k.name}={_fmt(k.lo)}:{_fmt(k.hi)} leaves its range {dom.text()} "
                f"(canasta strategies {base})"
            )
        out[k.name] = k
    return list(out.values())


def default_space(strategy: str) -> list[KnobRange]:
    """The searched knobs of a strategy: every knob it has with a range in HEURISTIC_RANGES."""
    space = [HEURISTIC_RANGES[k] for k in _knob_names(strategy) if k in HEURISTIC_RANGES]
    if not space:
        raise TuneError(
            f"strategy {strategy.split(':')[0]!r} has no knob to tune; give --knob name=lo:hi"
        )
    return space


def parse_knob_ranges(items: Sequence[str], strategy: str) -> list[KnobRange]:
    """["open_threshold=0:150", "safe_discard=0:12.5"] -> KnobRanges (integer unless a bound has a
    '.')."""
    known = _knob_names(strategy)
    if isinstance(items, str) or not isinstance(items, Sequence):
        raise TuneError(f"knob ranges {items!r}: give a list like ['open_threshold=0:150']")
    out: dict[str, KnobRange] = {}
    for item in items:
        if not isinstance(item, str):
            raise TuneError(f"knob range {item!r}: write name=lo:hi, e.g. open_threshold=0:150")
        name, eq, rng = item.partition("=")
        lo_s, colon, hi_s = rng.partition(":")
        name = name.strip()
        if not eq or not colon:
            raise TuneError(f"bad --knob {item!r}: write name=lo:hi, e.g. open_threshold=0:150")
        if name not in known:
            raise TuneError(
                f"strategy {strategy.split(':')[0]!r} has no knob {name!r} (its knobs: "
                f"{', '.join(known)})"
            )
        if name in out:
            raise TuneError(f"--knob {name} is given twice; give each knob once")
        try:
            lo, hi = float(lo_s), float(hi_s)
        except ValueError:
            raise TuneError(f"bad --knob {item!r}: lo and hi must be numbers") from None
        if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
            raise TuneError(f"bad --knob {item!r}: need lo < hi")
        out[name] = KnobRange(name, lo, hi, integer="." not in lo_s + hi_s)
    return check_space(strategy, list(out.values()))


def _fmt(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


def spec_of(strategy: str, values: dict[str, float]) -> str:
    """strategy spec with ``values`` written over the spec's own knobs."""
    base, own = parse_spec(strategy)
    merged = {**own, **{k: _fmt(v) for k, v in values.items()}}
    return base + (":" + ",".join(f"{k}={v}" for k, v in merged.items()) if merged else "")


def start_values(
    strategy: str, space: Sequence[KnobRange], table: str | None = None
) -> dict[str, float]:
    """The starting value of every searched knob: what the spec plays at ``table`` (its own
    value, else the table's tuned set, else the module default; strategies.registry.knob_values)."""
    try:
        values = knob_values(strategy, table)
    except StrategyError as exc:
        raise TuneError(str(exc)) from None
    return {k.name: float(values[k.name]) for k in space}


@dataclass
class TuneResult:
    """What ``tune`` found.  ``test`` rows: one per opponent plus "mean": start_mean, best_mean
    (points per hand against that opponent on the fresh deals) and gain (best - start, paired)
    with 95% CIs.  ``history``: every candidate of the search (generation, spec, gain over the
    start on that generation's deals).  ``activity``: per knob, hands whose decisions differ
    between the knob at lo and at hi."""

    strategy: str
    rules: str
    opponents: list[str]
    seed: int
    test_seed: int
    budget: int
    hands_played: int
    start: dict[str, float]
    best: dict[str, float]
    start_spec: str
    best_spec: str
    history: pd.DataFrame
    selection: pd.DataFrame
    test: pd.DataFrame
    activity: pd.DataFrame
    settings: dict = field(default_factory=dict)

    @property
    def inert(self) -> list[str]:
        """Knobs that changed no decision in the activity hands."""
        a = self.activity
        return [] if a.empty else list(a.loc[a["hands_changed"] == 0, "knob"])

    @property
    def changed(self) -> dict[str, tuple[float, float]]:
        return {k: (self.start[k], v) for k, v in self.best.items() if v != self.start[k]}

    def to_dict(self) -> dict:
        return {
            "strategy": self.strategy,
            "rules": self.rules,
            "opponents": self.opponents,
            "seed": self.seed,
            "test_seed": self.test_seed,
            "budget": self.budget,
            "hands_played": self.hands_played,
            "start": self.start,
            "best": self.best,
            "start_spec": self.start_spec,
            "best_spec": self.best_spec,
            "inert": self.inert,
            "test": self.test.to_dict(orient="records"),
            "activity": self.activity.to_dict(orient="records"),
            "selection": self.selection.to_dict(orient="records"),
            "history": self.history.to_dict(orient="records"),
            **self.settings,
        }

    def summary(self) -> str:
        t = self.test.set_index("opponent")
        lines = [
            f"tuned {self.strategy} at {self.rules} against {', '.join(self.opponents)}: "
            f"{self.hands_played:,} tuning hands (seed {self.seed})",
            f"winner: {self.best_spec}",
        ]
        ch = self.changed
        lines.append(
            "changed knobs: "
            + (
                ", ".join(f"{k} {_fmt(a)} -> {_fmt(b)}" for k, (a, b) in ch.items())
                if ch
                else "none (the starting knobs won)"
            )
        )
        n = int(t["deals"].iloc[0])
        lines.append(
            f"re-test on {n:,} fresh deals (seed {self.test_seed}, never used in tuning), points "
            "per hand:"
        )
        lines.append(f"  {'opponent':<14}{'start':>22}{'winner':>22}{'gain (paired)':>24}")
        for opp, r in t.iterrows():
            opp = opp if len(opp) <= 13 else opp[:12] + "~"  # a long spec: its start
            cells = [
                f"{r[c + '_mean']:+8.1f} [{r[c + '_low']:+6.1f}, {r[c + '_high']:+6.1f}]"
                for c in ("start", "best", "gain")
            ]
            lines.append(
                f"  {opp:<14}" + "".join(f"{c:>22}" for c in cells[:2]) + f"{cells[2]:>24}"
            )
        if not self.activity.empty:
            hands = int(self.activity["hands"].iloc[0])
            inert = self.inert
            lines.append(
                f"knobs that changed no decision in {hands:,} hands (lo vs hi): "
                + (", ".join(inert) if inert else "none")
            )
        return "\n".join(lines)


# ----------------------------------------------------------------------------- scoring


def _objective(
    paired: dict[tuple[str, str], np.ndarray], spec: str, opponents: Sequence[str]
) -> np.ndarray:
    """Per-deal mean over the opponents of spec's paired advantage."""
    return np.mean([paired[(spec, o)] for o in opponents], axis=0)


def _hands_per_deal(rules, candidates: Sequence[str], opponents: Sequence[str]) -> int:
    pairs = sum(1 for c in dict.fromkeys(candidates) for o in dict.fromkeys(opponents) if c != o)
    return pairs * rules.n_teams


class _Progress:
    def __init__(self, total: int, enabled: bool) -> None:
        self.bar = (
            new_bar(total, "hands", enabled and on_terminal(), "tune", leave=False)
            if enabled
            else None
        )

    def add(self, n: int, note: str = "") -> None:
        if self.bar is not None:
            self.bar.update(n)
            if note:
                self.bar.set_postfix_str(note)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _plan(budget: int, popsize: int, per_deal: int, generations: int) -> tuple[int, int]:
    """(generations, deals per generation) spending SEARCH_SHARE of the budget."""
    search = budget * SEARCH_SHARE
    need = MIN_DEALS * (popsize + 1) * per_deal
    if search < need:
        raise TuneError(
            f"--budget {budget:,} hands is too small: one generation of {popsize} candidates "
            f"needs {math.ceil(need / SEARCH_SHARE):,} (at least {MIN_DEALS} deals each)"
        )
    deals = int(search // (generations * (popsize + 1) * per_deal))
    if deals < MIN_DEALS:
        generations = max(1, int(search // (MIN_DEALS * (popsize + 1) * per_deal)))
        deals = MIN_DEALS
    return generations, deals


def _search(
    rules,
    strategy,
    space,
    opponents,
    start_spec,
    seed,
    generations,
    deals,
    popsize,
    jobs,
    progress,
    ckpt,
) -> tuple[pd.DataFrame, list[float], int]:
    """CMA-ES generations; returns (history, final CMA mean position, hands played).  A
    generation kept in the checkpoint is told to CMA-ES again without playing it (its
    candidates are the same: CMA-ES is seeded, and told the same scores)."""
    import cma

    x0 = [
        k.position(v) for k, v in zip(space, start_values(start_spec, space).values(), strict=True)
    ]
    opts = {
        "bounds": [0.0, 1.0],
        "seed": seed % (2**31 - 2) + 1,
        "popsize": popsize,
        "verbose": -9,
        "CMA_stds": None,
    }
    es = cma.CMAEvolutionStrategy(x0, 0.3, opts)
    rows, played = [], 0
    for g in range(generations):
        xs = es.ask()
        specs = [
            spec_of(strategy, {k.name: k.value(u) for k, u in zip(space, x, strict=True)})
            for x in xs
        ]
        cands = list(dict.fromkeys([start_spec, *specs]))
        n = _hands_per_deal(rules, cands, opponents) * deals
        kept = ckpt.get(("generation", g))
        if kept is not None and kept[0] != cands:
            raise TuneError(
                "the checkpoint's candidates differ from this run's: it was made by another "
                "version of the lab; delete it to start over"
            )
        if kept is None:
            paired = play_against(rules, cands, opponents, seed, g * deals, deals, jobs)
            base = _objective(paired, start_spec, opponents)
            gains = {c: float((_objective(paired, c, opponents) - base).mean()) for c in cands}
            ckpt.put(("generation", g), (cands, gains))
        else:
            gains = kept[1]
        played += n
        es.tell(xs, [-gains[s] for s in specs])
        for i, s in enumerate(specs):
            rows.append({"generation": g, "candidate": i, "spec": s, "gain_vs_start": gains[s]})
        progress.add(n, f"gen {g + 1}/{generations} best {max(gains.values()):+.1f}")
    return pd.DataFrame(rows), list(es.mean), played


def _select(
    rules,
    strategy,
    space,
    opponents,
    start_spec,
    history,
    mean_pos,
    seed,
    first_key,
    hands,
    jobs,
    progress,
    top: int = 4,
) -> tuple[pd.DataFrame, str, int]:
    """Replay the CMA-ES mean, the best distinct candidates and the start on ``hands`` hands'
    worth of new deals; the best mean gain wins.  Fewer candidates when the hands are short
    (at least SELECT_MIN_DEALS deals); none left: the CMA-ES mean wins unreplayed."""
    mean_spec = spec_of(
        strategy, {k.name: k.value(u) for k, u in zip(space, mean_pos, strict=True)}
    )
    ranked = history.groupby("spec")["gain_vs_start"].mean().sort_values(ascending=False)
    cands = list(dict.fromkeys([start_spec, mean_spec, *ranked.index[:top]]))
    while len(cands) > 1 and hands // _hands_per_deal(rules, cands, opponents) < SELECT_MIN_DEALS:
        cands.pop()
    if len(cands) < 2:
        return (
            pd.DataFrame(columns=["spec", "deals", "gain_vs_start", "ci_low", "ci_high"]),
            mean_spec,
            0,
        )
    deals = hands // _hands_per_deal(rules, cands, opponents)
    paired = play_against(rules, cands, opponents, seed, first_key, deals, jobs)
    n = _hands_per_deal(rules, cands, opponents) * deals
    progress.add(n, "selection")
    base = _objective(paired, start_spec, opponents)
    rows = []
    for c in cands:
        ci = stats.mean_ci(_objective(paired, c, opponents) - base)
        rows.append(
            {
                "spec": c,
                "deals": deals,
                "gain_vs_start": ci.mean,
                "ci_low": ci.low,
                "ci_high": ci.high,
            }
        )
    sel = (
        pd.DataFrame(rows)
        .sort_values("gain_vs_start", ascending=False, kind="stable")
        .reset_index(drop=True)
    )
    return sel, str(sel["spec"].iloc[0]), n


def _retest(
    rules, start_spec, best_spec, opponents, test_seed, deals, jobs, progress
) -> pd.DataFrame:
    cands = [start_spec, best_spec]
    paired = play_against(rules, cands, opponents, test_seed, 0, deals, jobs)
    progress.add(_hands_per_deal(rules, cands, opponents) * deals, "re-test")
    rows = []
    for label, pick in [(o, [o]) for o in opponents] + [("mean", list(opponents))]:
        s = _objective(paired, start_spec, pick)
        b = _objective(paired, best_spec, pick)
        row: dict = {"opponent": label, "deals": deals}
        for name, x in (("start", s), ("best", b), ("gain", b - s)):
            ci = stats.mean_ci(x)
            row.update({f"{name}_mean": ci.mean, f"{name}_low": ci.low, f"{name}_high": ci.high})
        rows.append(row)
    return pd.DataFrame(rows)


def _action_digests(rules, seats, seed, start, count) -> np.ndarray:
    """Per deal key, a digest of the whole action sequence of the hand (every seat)."""
    res = engine.run_chunk(rules, seats, seed, start, count, mode="hands", log_rate=1.0)
    cols = res.decision_columns
    assert cols is not None  # log_rate=1.0 logs every decision
    game = np.asarray(cols["game"])
    key = np.stack([np.asarray(cols["seat"], np.int64), np.asarray(cols["action"], np.int64)], 1)
    order = np.argsort(game, kind="stable")  # rows of a hand stay in play order
    game, key = game[order], key[order]
    cuts = np.searchsorted(game, np.arange(start, start + count + 1))
    out = np.zeros(count, np.uint64)
    for i in range(count):
        d = hashlib.blake2b(key[cuts[i] : cuts[i + 1]].tobytes(), digest_size=8).digest()
        out[i] = np.frombuffer(d, np.uint64)[0]
    return out


def knob_activity(
    rules,
    strategy: str,
    values: dict[str, float],
    space: Sequence[KnobRange],
    opponent: str,
    seed: int,
    hands: int,
    jobs: int = -1,
    start: int = 0,
) -> pd.DataFrame:
    """Per knob, the deals (of keys start..start+hands-1, every seating against ``opponent``) whose
    action sequences differ between the knob at lo and at hi, the other knobs at ``values``.

    Columns: knob, lo, hi, hands (deals x seatings), hands_changed."""
    calls, tags = [], []
    for k in space:
        for end in (k.lo, k.hi):
            spec = spec_of(strategy, {**values, k.name: end})
            for j, seats in enumerate(seatings(rules, spec, opponent)):
                calls.append((rules, seats, seed, start, hands))
                tags.append((k.name, end, j))
    digests = dict(zip(tags, run_calls(calls, jobs, _action_digests), strict=True))
    n_seat = rules.n_teams
    rows = []
    for k in space:
        changed = sum(
            int((digests[(k.name, k.lo, j)] != digests[(k.name, k.hi, j)]).sum())
            for j in range(n_seat)
        )
        rows.append(
            {
                "knob": k.name,
                "lo": k.lo,
                "hi": k.hi,
                "hands": hands * n_seat,
                "hands_changed": changed,
            }
        )
    return pd.DataFrame(rows)


def _check_numbers(budget, seed, jobs, test_hands, generations, popsize, activity_hands) -> tuple:
    """tune's numbers as ints in their documented ranges (sim.core.limits), else TuneError."""
    try:
        out = (
            check_int("budget", budget, *limits.TUNE_BUDGET),
            check_int("seed", seed, *limits.TUNE_SEED),
            check_int("jobs", jobs, *limits.JOBS),
            check_int("test_hands", test_hands, *limits.TEST_DEALS),
            check_int("generations", generations, *limits.GENERATIONS),
            None if popsize is None else check_int("popsize", popsize, *limits.POPSIZE),
            check_int("activity_hands", activity_hands, 1, limits.TEST_DEALS[1]),
        )
    except CanastaError as exc:
        raise TuneError(str(exc)) from None
    if out[2] == 0:
        raise TuneError("jobs=0: give a number of workers, or -1 for all cores")
    return out


def check_settings(
    strategy, rules, opponents, budget, space, seed, test_hands, generations, popsize
) -> dict:
    """Everything a tuning result depends on, checked (TuneError) and as plain values: what a
    checkpoint of `tune` is made for (jobs and progress change nothing)."""
    budget, seed, _, test_hands, generations, popsize, _ = _check_numbers(
        budget, seed, 1, test_hands, generations, popsize, 200
    )
    space = check_space(strategy, space) if space is not None else default_space(strategy)
    return {
        "strategy": strategy,
        "rules": resolve_rules(rules).to_dict(),
        "opponents": list(opponents),
        "budget": budget,
        "space": [vars(k) for k in space],
        "seed": seed,
        "test_hands": test_hands,
        "generations": generations,
        "popsize": popsize,
    }


def tune(
    strategy: str,
    rules,
    opponents: Sequence[str],
    budget: int,
    space: Sequence[KnobRange] | None = None,
    seed: int = 0,
    jobs: int = -1,
    test_hands: int = 2000,
    generations: int = 12,
    popsize: int | None = None,
    activity_hands: int = 200,
    progress: bool = True,
    command: str = "",
    checkpoint=None,
) -> TuneResult:
    """Tune ``strategy``'s knobs at ``rules`` against ``opponents`` (module docstring).

    rules: a RuleSet or a preset name.  budget: hands played by the search and selection steps.
    space: the knobs and ranges (default ``default_space(strategy)``).  test_hands: fresh deals of
    the re-test.  checkpoint: a sim.runs.checkpoint.Checkpoint keeping each finished generation
    and step (``canasta tune --resume``; the resumed result is the uninterrupted one).
    Raises TuneError on bad input."""
    from sim.runs.checkpoint import NoCheckpoint

    ckpt = checkpoint if checkpoint is not None else NoCheckpoint()
    budget, seed, jobs, test_hands, generations, popsize, activity_hands = _check_numbers(
        budget, seed, jobs, test_hands, generations, popsize, activity_hands
    )
    from sim.play.specs import check_spec
    from strategies.registry import split_specs

    _knob_names(strategy)
    try:
        rules = resolve_rules(rules)  # a RuleSet, or a preset name (4 players)
        if isinstance(opponents, str):
            opponents = split_specs(opponents)
        if not isinstance(opponents, Sequence) or not all(isinstance(o, str) for o in opponents):
            raise TuneError(f"opponents={opponents!r}: give strategy names, e.g. ['greedy']")
        for o in opponents:
            check_spec(o, "--vs")  # any seat: compiled, search player or OpenSpiel bot
    except TuneError:
        raise
    except CanastaError as exc:
        raise TuneError(str(exc)) from None
    twice = [o for o in dict.fromkeys(opponents) if list(opponents).count(o) > 1]
    if twice:
        raise TuneError(f"--vs {twice[0]} is listed twice; give each opponent once")
    opponents = list(opponents)
    if not opponents:
        raise TuneError("give at least one opponent (--vs)")
    space = check_space(strategy, space) if space is not None else default_space(strategy)
    if (
        len(space) < 2
    ):  # cma's bounded search fails in one dimension ("dimension needed") after a generation
        raise TuneError(
            f"tune searches at least 2 knobs (CMA-ES), got {len(space)}: give two or more --knob, "
            f"or use `canasta sweep` for one knob"
        )
    start = start_values(strategy, space, rules.label)
    start_spec = spec_of(strategy, start)
    if start_spec in opponents:
        raise TuneError(f"the opponent {start_spec!r} is the tuned strategy itself")
    lam = popsize or 4 + int(3 * math.log(len(space)))  # cma's default population size
    per_deal = len(opponents) * rules.n_teams
    gens, deals = _plan(budget, lam, per_deal, generations)
    total = budget + 2 * per_deal * test_hands + 2 * len(space) * rules.n_teams * activity_hands
    bar = _Progress(total, progress)
    try:
        history, mean_pos, played = _search(
            rules, strategy, space, opponents, start_spec, seed, gens, deals, lam, jobs, bar, ckpt
        )
        selection, best_spec, n = ckpt.run(
            ("selection",),
            lambda: _select(
                rules,
                strategy,
                space,
                opponents,
                start_spec,
                history,
                mean_pos,
                seed,
                gens * deals,
                budget - played,
                jobs,
                bar,
            ),
        )
        played += n
        test = ckpt.run(
            ("retest",),
            lambda: _retest(
                rules,
                start_spec,
                best_spec,
                opponents,
                seed + TEST_SEED_OFFSET,
                test_hands,
                jobs,
                bar,
            ),
        )
        best = {**start, **{k: float(v) for k, v in parse_spec(best_spec)[1].items() if k in start}}
        activity = ckpt.run(
            ("activity",),
            lambda: knob_activity(
                rules, strategy, best, space, opponents[0], seed, activity_hands, jobs
            ),
        )
        bar.add(2 * len(space) * rules.n_teams * activity_hands)
    finally:
        bar.close()
    settings = {
        "generations": gens,
        "deals_per_generation": deals,
        "popsize": lam,
        "test_hands": test_hands,
        "activity_hands": activity_hands,
        "space": [vars(k) for k in space],
        "command": command,
        "date": _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
    return TuneResult(
        strategy,
        getattr(rules, "label", str(rules)),
        opponents,
        seed,
        seed + TEST_SEED_OFFSET,
        budget,
        played,
        start,
        best,
        start_spec,
        best_spec,
        history,
        selection,
        test,
        activity,
        settings,
    )

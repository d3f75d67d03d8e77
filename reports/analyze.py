"""Decision analysis: score every legal action of a position by rollouts (``canasta analyze``).

Every legal action at the position is played, then every seat continues with the rollout strategy;
the worlds (the cards the viewer has not seen) are dealt by sim.play.worlds.sampler and the same
worlds and random streams serve every action (common random numbers), so the differences between
actions are paired: their intervals are computed on the per-world differences.

The result (`analyze`) is a DataFrame, best action first, one row per legal action:

- ``action``: its text (sim.core.actions);
- ``mean``, ``ci_low``, ``ci_high``: the viewer's team's hand result — its hand score minus the
  best opposing team's — in points, with a 95% t interval over the rollouts;
- ``diff_to_best``, ``diff_ci_low``, ``diff_ci_high``: the mean paired difference to the best
  action over the worlds both were played in, with its 95% t interval (0 for the best itself);
- ``p_out``: the share of rollouts in which the viewer's team went out;
- ``rollouts``: rollouts of this action (fewer for actions dropped early by ``until_ci``);
- ``tie``: True when the difference to the best is not separable from zero (its interval
  holds 0); the best action itself is False;
- ``p_win``, ``p_win_low``, ``p_win_high`` (only with an ``equity`` function): the mean of
  equity(cum_us + hand_us, cum_them + hand_them) — P(the viewer's team wins the game) — with its
  95% t interval.

Successive elimination (``until_ci=H``): rollouts run in batches over the actions still in play;
after each batch, an action whose difference to the current best is below zero with 95%
confidence is dropped; it stops when every remaining difference has a half-width <= H (or only
one action is left) or ``rollouts`` is reached.  The batch sizes follow from the results so far
(`_next_batch`), and rollout i depends only on (seed, i): the same results whatever ``jobs``.
"""

from __future__ import annotations

import math
import numbers
import textwrap
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from reports.stats import mean_ci
from sim.core import limits
from sim.core.errors import CanastaError, check_int
from sim.runs.progress import new_bar, on_terminal

__all__ = [
    "Decision",
    "AnalysisError",
    "decision_from_position",
    "decision_from_game",
    "decision_from_view",
    "analyze",
    "paired_rollouts",
    "to_json",
    "format_table",
    "BATCH",
]

BATCH = 100  # rollouts in the first batch of successive elimination (then sized by `_next_batch`)


class AnalysisError(CanastaError):
    """A position or a setting that cannot be analysed (one line saying why)."""


@dataclass
class Decision:
    """One decision as the viewer (the seat to act) knows it."""

    obs: (
        np.ndarray
    )  # int32[STATE_SIZE], the viewer's observation (sim.play.worlds.sampler.observe_nb)
    know: np.ndarray  # int32[Know.SIZE]
    params: np.ndarray  # int32[N_PARAMS]
    actions: list[int]  # legal actions
    texts: list[str]
    viewer: int
    cum_us: int
    cum_them: int
    label: str = ""
    table: str = ""  # RuleSet.label: strategies tuned per table play this table's set


def _legal(obs: np.ndarray, params: np.ndarray) -> list[int]:
    from sim.core.enums import N_ACTIONS, Off
    from sim.core.legal import legal_actions_nb

    buf = np.zeros(N_ACTIONS, np.int32)
    n = legal_actions_nb(obs, Off.HANDS, params, buf)
    return [int(a) for a in buf[:n]]


def _texts(obs: np.ndarray, actions: list[int]) -> list[str]:
    from sim.core.actions import action_text_at

    return [action_text_at(obs, a) for a in actions]


def _cums(obs: np.ndarray, viewer: int) -> tuple[int, int]:
    from sim.core.enums import Off

    team = int(obs[Off.TEAM_OF_SEAT + viewer])
    others = [int(obs[Off.CUM_SCORE + t]) for t in range(int(obs[Off.N_TEAMS])) if t != team]
    return int(obs[Off.CUM_SCORE + team]), max(others) if others else 0


def decision_from_view(
    obs, know, params, viewer: int, label: str = "", table: str = ""
) -> Decision:
    """The decision of ``viewer`` (the seat to act) from its observation and knowledge
    (sim.play.worlds.sampler); AnalysisError if the hand is over or another seat is to act."""
    from sim.core.enums import Off, Phase

    if int(obs[Off.PHASE]) == Phase.OVER:
        raise AnalysisError("the hand is over at this position: no decision to analyse")
    if int(obs[Off.SEAT]) != viewer:
        raise AnalysisError(
            f"seat {int(obs[Off.SEAT])} is to act, not the viewer (seat {viewer}): "
            "analyse a position seen by the seat to act"
        )
    actions = _legal(obs, params)
    if not actions:
        raise AnalysisError("no legal action at this position")
    cu, ct = _cums(obs, viewer)
    return Decision(obs, know, params, actions, _texts(obs, actions), viewer, cu, ct, label, table)


def decision_from_game(gs, seat: int | None = None, label: str = "") -> Decision:
    """The decision of the seat to act in a sim.play.game.GameState, as that seat knows it."""
    seat = gs.seat if seat is None else int(seat)
    return decision_from_view(
        gs.observation(seat), gs.knowledge(seat), gs.params, seat, label, gs.rules.label
    )


def decision_from_position(position, rules=None, label: str = "") -> Decision:
    """The decision of a typed position (sim.play.positions.text.Position) of its viewer (``me``
    must be ``to_move``).  ``rules``: a RuleSet (default: the position's own, else classic)."""
    from reports.position import Position
    from sim.core.apply import begin_turn_nb
    from sim.core.enums import Off
    from sim.core.rules import RuleSet
    from sim.play.rollouts.from_position import prepare

    if not isinstance(position, Position):
        raise AnalysisError("decision_from_position needs a Position (load_position, ...)")
    if rules is not None and not isinstance(rules, RuleSet):
        raise AnalysisError(f"rules={rules!r}: give a RuleSet (or None: the position's rules)")
    if position.me != position.to_move:
        raise AnalysisError(
            f"to_move: {position.to_move} but me: {position.me}; analyze scores the "
            "actions of the seat to act, so the viewer must be that seat"
        )
    setup = prepare(position, rules)
    obs = setup.obs.copy()
    if setup.begin:
        # begin_turn reads the hand of the seat to act at its own slot of a full state
        st = obs.copy()
        me = position.me
        st[Off.HANDS : Off.HANDS + 15] = 0
        st[Off.HANDS + me * 15 : Off.HANDS + (me + 1) * 15] = obs[Off.HANDS : Off.HANDS + 15]
        st[Off.HAND_SUITS : Off.HAND_SUITS + 44] = 0  # Samba: the suits go with the hand
        st[Off.HAND_SUITS + me * 44 : Off.HAND_SUITS + (me + 1) * 44] = obs[
            Off.HAND_SUITS : Off.HAND_SUITS + 44
        ]
        begin_turn_nb(st, setup.params)
        obs[: Off.PUB_SIZE] = st[: Off.PUB_SIZE]
    return decision_from_view(obs, setup.know, setup.params, position.me, label, setup.table)


def _strategy_arrays(strategies, n_seats: int, table: str = "", option: str = "strategies"):
    from sim.core.enums import MAX_SEATS
    from strategies.registry import MAX_KNOBS, parse_spec

    specs = rollout_specs(strategies, n_seats, option)
    ids = np.zeros(MAX_SEATS, np.int64)
    knobs = np.zeros((MAX_SEATS, MAX_KNOBS), np.float64)
    for s, spec in enumerate(specs):
        ids[s], knobs[s] = parse_spec(spec, table or None)
    return specs, ids, knobs


def rollout_specs(strategies, n_seats: int, option: str = "strategies") -> list[str]:
    """Rollout strategies, one per seat, from one spec or one per seat ('a,b,c,d' text, read by
    the registry's one reader, or a list): compiled strategies only, each checked (a search
    player would search inside every rollout; AnalysisError naming `option`)."""
    from sim.play.specs import COMPILED, check_spec
    from strategies.registry import split_specs

    try:
        if isinstance(strategies, str):
            specs = split_specs(strategies)
        elif isinstance(strategies, list | tuple) and all(isinstance(x, str) for x in strategies):
            specs = [x.strip() for x in strategies]
        else:
            raise AnalysisError(
                f"{option}={strategies!r}: give a strategy spec or one per seat, e.g. 'expert'"
            )
        if len(specs) == 1:
            specs = specs * n_seats
        if len(specs) != n_seats:
            raise AnalysisError(
                f"{option}: {len(specs)} strategies for {n_seats} seats: give one, or one per seat"
            )
        for spec in dict.fromkeys(specs):
            check_spec(spec, option, COMPILED)
    except AnalysisError:
        raise
    except CanastaError as exc:
        raise AnalysisError(str(exc)) from None
    return specs


UNIT = 4000  # action-rollouts per kernel call (a fraction of a second): Ctrl-C is seen between


def _chunk(dec: Decision, active, ids, knobs, seed, start, n, model):
    """Rollouts [start, start+n) of the active actions (a worker's unit), in kernel calls of
    about UNIT action-rollouts each: rollout i depends only on (seed, i), so the split changes
    no result, and Python (a Ctrl-C) gets a turn between the calls."""
    step = max(1, UNIT // max(1, int(np.count_nonzero(active))))
    if n <= step:
        return _kernel_call(dec, active, ids, knobs, seed, start, n, model)
    parts = [
        _kernel_call(dec, active, ids, knobs, seed, lo, min(step, start + n - lo), model)
        for lo in range(start, start + n, step)
    ]
    return (
        np.concatenate([p[0] for p in parts]),
        np.concatenate([p[1] for p in parts]),
        np.concatenate([p[2] for p in parts]),
        sum(p[3] for p in parts),
    )


def _kernel_call(dec: Decision, active, ids, knobs, seed, start, n, model):
    """Rollouts [start, start+n) of the active actions in one call of the compiled kernel."""
    from sim.core.legal import WHY_TEXT
    from sim.play.rollouts.actions import rollout_actions_nb
    from sim.play.selfplay.status import Illegal, NoWorld, Slot, Status, action_text_safe
    from sim.play.worlds.sampler import ERROR_TEXT

    a = len(dec.actions)
    us = np.zeros((n, a), np.int32)
    them = np.zeros((n, a), np.int32)
    went = np.zeros((n, a), np.int8)
    status = np.zeros(Slot.SIZE, np.int64)
    stats = np.zeros(2, np.int64)
    mid, mknobs, tries = model
    rollout_actions_nb(
        dec.obs,
        dec.know,
        dec.params,
        np.asarray(dec.actions, np.int32),
        active,
        ids,
        knobs,
        int(seed),
        int(start),
        int(mid),
        mknobs,
        int(tries),
        us,
        them,
        went,
        status,
        stats,
    )
    if status[Slot.CODE] == Status.NO_WORLD:
        raise AnalysisError(
            "the position is impossible: "
            f"{ERROR_TEXT.get(int(status[NoWorld.ERROR]), 'world error')}"
        )
    if status[Slot.CODE] == Status.ILLEGAL:
        raise RuntimeError(
            f"seat {int(status[Illegal.SEAT])} chose an illegal action "
            f"{action_text_safe(int(status[Illegal.ACTION]))} "
            f"({WHY_TEXT[int(status[Illegal.WHY])]}) "
            f"in rollout {int(status[Slot.ROLLOUT])}, seed {seed}"
        )
    return us, them, went, stats


def _run(dec, active, ids, knobs, seed, start, n, model, jobs, pool):
    """Rollouts [start, start+n) split over ``jobs`` workers; identical whatever ``jobs``."""
    if jobs <= 1 or n < 2 * jobs:
        return _chunk(dec, active, ids, knobs, seed, start, n, model)
    from joblib import delayed

    cuts = np.linspace(start, start + n, jobs + 1).astype(int)
    parts = pool(
        delayed(_chunk)(dec, active, ids, knobs, seed, int(lo), int(hi - lo), model)
        for lo, hi in zip(cuts[:-1], cuts[1:], strict=True)
        if hi > lo
    )
    return (
        np.concatenate([p[0] for p in parts]),
        np.concatenate([p[1] for p in parts]),
        np.concatenate([p[2] for p in parts]),
        sum(p[3] for p in parts),
    )


def paired_rollouts(
    decision: Decision,
    strategies="expert",
    rollouts: int = 1000,
    seed: int = 0,
    start: int = 0,
    infer: str | None = None,
    infer_tries: int = 100,
    actions=None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The raw paired results behind `analyze`: rollouts start .. start+rollouts-1 of every
    action of ``decision`` on the same worlds.  Returns (us, them, went), each of shape
    (rollouts, n_actions): the viewer's team's hand score, the best opposing team's, and 1 if the
    viewer's team went out (int32, int32, int8).  Rollout i depends only on (seed, i).
    ``actions``: roll out only these action ids (legal ones; the other columns stay 0)."""
    from sim.core.enums import Off

    if not isinstance(decision, Decision):
        raise AnalysisError("paired_rollouts needs a Decision (decision_from_position, ...)")
    active = np.ones(len(decision.actions), np.int8)
    if actions is not None:
        wanted = {int(a) for a in actions}
        if not wanted <= set(decision.actions):
            raise AnalysisError(
                f"actions {sorted(wanted - set(decision.actions))} are not legal here"
            )
        active = np.array([a in wanted for a in decision.actions], np.int8)

    rollouts, _, _, seed, infer_tries = _check_args(rollouts, None, 1, seed, infer_tries)
    try:
        start = check_int("start", start, *limits.GAME)
    except CanastaError as exc:
        raise AnalysisError(str(exc)) from None
    _, ids, knobs = _strategy_arrays(strategies, int(decision.obs[Off.N_SEATS]), decision.table)
    model = (-1, np.zeros(knobs.shape[1]), 0)
    if infer:
        mid, mk = _strategy_arrays(infer, 1, decision.table, "infer")[1:]
        model = (int(mid[0]), mk[0].copy(), int(infer_tries))
    us, them, went, _ = _chunk(
        decision,
        active,
        ids,
        knobs,
        int(seed),
        int(start),
        int(rollouts),
        model,
    )
    return us, them, went


def _best(res: np.ndarray, n: np.ndarray, active: np.ndarray) -> int:
    means = [res[: n[a], a].mean() if active[a] else -math.inf for a in range(res.shape[1])]
    return int(np.argmax(means))


def _eliminate(res, n, active, until_ci) -> float:
    """Drop the actions clearly worse than the best; returns the largest half-width of a
    remaining difference to the best (0 when the analysis can stop)."""
    best = _best(res, n, active)
    worst = 0.0
    for a in np.flatnonzero(active):
        if a == best:
            continue
        m = min(n[a], n[best])
        ci = mean_ci(res[:m, a].astype(np.float64) - res[:m, best])
        if ci.high < 0:
            active[a] = 0
        elif ci.half_width > until_ci:
            worst = max(worst, ci.half_width)
    return 0.0 if active.sum() <= 1 else worst


def _next_batch(done: int, worst: float, until_ci: float | None, cap: int) -> int:
    """Rollouts of the next batch: without ``until_ci`` a twentieth of them (at least
    BATCH): rollout i depends only on (seed, i), so batches change no result, they are what a
    checkpoint keeps and what the progress bar counts; with ``until_ci`` the first BATCH, then
    the rollouts the widest remaining interval still needs (half-widths shrink as 1/sqrt(n)),
    +10%, at least BATCH and at most doubling.  A function of the results so far, which depend
    only on the seed: the same batches whatever the number of workers."""
    if until_ci is None:
        return min(cap - done, max(BATCH, -(-cap // 20)))
    if done == 0:
        return min(BATCH, cap)
    need = math.ceil(done * ((worst / until_ci) ** 2 - 1.0) * 1.1)
    return min(max(need, BATCH), done, cap - done)


def _check_args(
    rollouts, until_ci, jobs, seed, infer_tries
) -> tuple[int, float | None, int, int, int]:
    """The settings as (int, float, int, int, int) in their documented ranges (sim.core.limits)."""
    try:
        rollouts = check_int("rollouts", rollouts, *limits.ROLLOUTS_PER_ACTION)
        jobs = check_int("jobs", jobs, *limits.WORKERS)
        seed = check_int("seed", seed, *limits.SEED)
        infer_tries = check_int("infer_tries", infer_tries, 1, 10**6)
    except CanastaError as exc:
        raise AnalysisError(str(exc)) from None
    if until_ci is not None:
        ok = (
            isinstance(until_ci, numbers.Real)
            and not isinstance(until_ci, bool)
            and 0 < float(until_ci) < math.inf
        )
        if not ok:
            raise AnalysisError(f"until_ci={until_ci!r}: give a finite half-width > 0 points")
        until_ci = float(until_ci)
    return rollouts, until_ci, jobs, seed, infer_tries


def analyze(
    decision,
    strategies="expert",
    rollouts: int = 1000,
    until_ci: float | None = None,
    jobs: int = 1,
    seed: int = 0,
    rules=None,
    infer: str | None = None,
    infer_tries: int = 100,
    equity: Callable[[np.ndarray, np.ndarray], np.ndarray | float] | None = None,
    progress: bool | None = None,
    on_batch: Callable[[int, float], None] | None = None,
    checkpoint=None,
) -> pd.DataFrame:
    """Score every legal action of ``decision`` (a `Decision`, a reports.position.Position or a
    sim.play.game.GameState: its seat to act) by ``rollouts`` paired rollouts per action (the cap
    with ``until_ci``).  ``strategies``: one spec for every seat or one per seat.  ``infer``: a
    model strategy; worlds then agree with each opponent's last discard under it (up to
    ``infer_tries`` redraws).  ``equity(us_total, them_total)``: P(the viewer's team wins the
    game) from cumulative scores after the hand (arrays), which adds p_win columns.
    ``on_batch(rollouts, widest)``: called after each batch with the rollouts per action done so
    far and the widest half-width of a difference still open (inf without ``until_ci``); what
    it raises stops the analysis (a progress display, a cancel button).  Returns the
    table described in the module docstring (``attrs``: rollouts, strategy, seed, infer stats).
    ``checkpoint``: a sim.runs.checkpoint.Checkpoint keeping every finished batch (``canasta
    analyze --resume``).  Raises AnalysisError (a CanastaError) for bad input."""
    from sim.runs.checkpoint import NoCheckpoint

    ckpt = checkpoint if checkpoint is not None else NoCheckpoint()
    rollouts, until_ci, jobs, seed, infer_tries = _check_args(
        rollouts, until_ci, jobs, seed, infer_tries
    )
    if equity is not None and not callable(equity):
        raise AnalysisError(
            f"equity={equity!r}: give a function of (us_total, them_total), e.g. "
            "load_equity(path).of_totals"
        )
    dec = _as_decision(decision, rules)
    from sim.core.enums import Off

    specs, ids, knobs = _strategy_arrays(strategies, int(dec.obs[Off.N_SEATS]), dec.table)
    model = (-1, np.zeros(knobs.shape[1]), 0)
    if infer:
        mid, mk = _strategy_arrays(infer, 1, dec.table, "infer")[1:]
        model = (int(mid[0]), mk[0].copy(), int(infer_tries))
    a = len(dec.actions)
    us = np.zeros((rollouts, a), np.int32)
    them = np.zeros((rollouts, a), np.int32)
    went = np.zeros((rollouts, a), np.int8)
    n = np.zeros(a, np.int64)
    active = np.ones(a, np.int8)
    stats = np.zeros(2, np.int64)
    pool = _pool(jobs)
    bar = _bar(progress, rollouts * a)
    try:
        start, worst = 0, math.inf
        while start < rollouts and worst > 0:
            size = _next_batch(start, worst, until_ci, int(rollouts))
            key = (infer or "", start, size, active.tobytes())
            if key in ckpt:
                u, t, w, st = ckpt.get(key)
            else:
                u, t, w, st = _run(
                    dec, active.copy(), ids, knobs, int(seed), start, size, model, int(jobs), pool
                )
                ckpt.put(key, (u, t, w, st))
            sel = active.astype(bool)
            us[start : start + size, sel], them[start : start + size, sel] = u[:, sel], t[:, sel]
            went[start : start + size, sel] = w[:, sel]
            stats += st
            start += size
            n[sel] = start
            bar.update(size * int(sel.sum()))
            if until_ci is not None and start < rollouts:
                # after the last batch nothing is dropped: every open action has all rollouts
                worst = _eliminate(us - them, n, active, until_ci)
            if on_batch is not None:
                on_batch(start, worst)
    finally:
        bar.close()
        if pool is not None:
            pool.__exit__(None, None, None)
    df = _table(dec, us, them, went, n, active, equity)
    df.attrs.update(_fresh_gap(dec, df, specs, ids, knobs, int(seed), int(start), model))
    df.attrs.update(
        {
            "rollouts": int(n.max()),
            "strategy": ",".join(dict.fromkeys(specs)),
            "seed": int(seed),
            "infer": infer,
            "worlds": f"inferred with {infer}" if infer else "uniform",
            "infer_constrained": int(stats[0]),
            "infer_failed": int(stats[1]),
            "position": dec.label,
        }
    )
    return df


def strategy_choice(dec: Decision, spec: str) -> int:
    """The action strategy ``spec`` plays at ``dec`` (from the viewer's observation; its random
    stream keyed (0, 0, 0, STREAM_PLAYERS))."""
    from sim.core.enums import N_ACTIONS
    from sim.core.rng import STREAM_PLAYERS, seed_rng_nb
    from strategies.registry import decide_nb, parse_spec

    sid, knobs = parse_spec(spec, dec.table or None)
    rng = np.zeros(2, np.uint64)
    seed_rng_nb(rng, 0, 0, 0, STREAM_PLAYERS)
    return int(decide_nb(sid, dec.obs, dec.params, knobs, rng, np.zeros(N_ACTIONS, np.int32)))


def _fresh_gap(dec: Decision, df: pd.DataFrame, specs, ids, knobs, seed: int, start: int, model):
    """The top action's gain over the viewer's strategy's choice, measured on fresh worlds: the
    rollouts after the ones the ranking used (indices start .. start+m-1, m = the top action's
    rollouts), so the choice of the top action does not bias the gap (the winner's curse)."""
    viewer = dec.viewer
    choice = strategy_choice(dec, specs[viewer if len(specs) > 1 else 0])
    top = int(df["action_id"].iloc[0])
    out = {
        "choice": dec.texts[dec.actions.index(choice)],
        "choice_id": choice,
        "gap": 0.0,
        "gap_low": 0.0,
        "gap_high": 0.0,
        "gap_rollouts": 0,
    }
    if top == choice:
        return out
    m = int(df["rollouts"].iloc[0])
    active = np.array([a in (top, choice) for a in dec.actions], np.int8)
    us, them, _, _ = _chunk(dec, active, ids, knobs, seed, start, m, model)
    v = (us - them).astype(np.float64)
    ci = mean_ci(v[:, dec.actions.index(top)] - v[:, dec.actions.index(choice)])
    out.update(gap=ci.mean, gap_low=ci.low, gap_high=ci.high, gap_rollouts=m)
    return out


def _as_decision(decision, rules) -> Decision:
    if isinstance(decision, Decision):
        return decision
    from reports.position import Position
    from sim.play.game import GameState

    if isinstance(decision, Position):
        return decision_from_position(decision, rules)
    if isinstance(decision, GameState):
        return decision_from_game(decision)
    got = "None" if decision is None else type(decision).__name__
    raise AnalysisError(f"analyze needs a Decision, Position or GameState, got {got}")


def _pool(jobs: int):
    if jobs <= 1:
        return None
    from sim.runs.workers import parallel

    return parallel(jobs).__enter__()


def _bar(progress: bool | None, total: int):
    return new_bar(total, "rollout", on_terminal() if progress is None else progress)


def _table(dec, us, them, went, n, active, equity) -> pd.DataFrame:
    res = (us - them).astype(np.float64)
    best = _best(res, n, np.ones(len(n), np.int8) if active.sum() == 0 else active)
    rows = []
    for a in range(len(dec.actions)):
        m = int(n[a])
        ci = mean_ci(res[:m, a])
        if a == best:
            d = (0.0, 0.0, 0.0)
        else:
            k = min(m, int(n[best]))
            dci = mean_ci(res[:k, a] - res[:k, best])
            d = (dci.mean, dci.low, dci.high)
        row = {
            "action": dec.texts[a],
            "mean": ci.mean,
            "ci_low": ci.low,
            "ci_high": ci.high,
            "diff_to_best": d[0],
            "diff_ci_low": d[1],
            "diff_ci_high": d[2],
            "p_out": float(went[:m, a].mean()),
            "rollouts": m,
            # an action dropped by successive elimination was worse than the best of its
            # moment with 95% confidence: never "not separable", whatever the later best
            "tie": bool(a != best and active[a] and d[2] >= 0),
            "dropped": bool(not active[a] and a != best),
            "action_id": dec.actions[a],
        }
        if equity is not None:
            pw = mean_ci(
                np.asarray(equity(dec.cum_us + us[:m, a], dec.cum_them + them[:m, a]), np.float64)
            )
            row.update({"p_win": pw.mean, "p_win_low": pw.low, "p_win_high": pw.high})
        rows.append(row)
    df = pd.DataFrame(rows)
    order = np.argsort(-df["mean"].to_numpy(), kind="stable")
    order = np.concatenate([[best], [i for i in order if i != best]])
    return df.iloc[order].reset_index(drop=True)


def to_json(df: pd.DataFrame) -> dict:
    """The ``--json`` object: {"position", "strategy", "rollouts", "actions": [...]}, best first."""
    keys = (
        "action",
        "mean",
        "ci_low",
        "ci_high",
        "diff_to_best",
        "diff_ci_low",
        "diff_ci_high",
        "p_out",
        "rollouts",
    )
    flags = ("tie", "dropped")
    extra = [c for c in (*flags, "p_win", "p_win_low", "p_win_high") if c in df.columns]
    acts = []
    for r in df.to_dict("records"):
        item = {
            k: (int(r[k]) if k == "rollouts" else r[k] if k == "action" else float(r[k]))
            for k in keys
        }
        item.update({c: (bool(r[c]) if c in flags else float(r[c])) for c in extra})
        acts.append(item)
    out = {
        "position": df.attrs.get("position", ""),
        "strategy": df.attrs.get("strategy", ""),
        "rollouts": df.attrs.get("rollouts", 0),
        "actions": acts,
        "worlds": df.attrs.get("worlds", "uniform"),
    }
    if "choice" in df.attrs:
        a = df.attrs
        out["strategy_choice"] = a["choice"]
        out["gap"] = {
            "mean": float(a["gap"]),
            "ci_low": float(a["gap_low"]),
            "ci_high": float(a["gap_high"]),
            "rollouts": int(a["gap_rollouts"]),
        }
    return out


def format_table(df: pd.DataFrame) -> str:
    """The terminal table (at most 100 columns): best first, ties marked with '='."""
    win = "p_win" in df.columns
    lines = [
        f"{'':2}{'action':<22}{'mean':>8}  {'95% CI':<16}{'diff':>8}  {'paired 95% CI':<16}"
        f"{'P(out)':>7}" + ("  P(win)" if win else "") + f"{'n':>8}"
    ]
    for i, r in enumerate(df.to_dict("records")):
        mark = "* " if i == 0 else ("= " if r["tie"] else "x " if r.get("dropped") else "  ")
        ci = f"[{r['ci_low']:.0f}, {r['ci_high']:.0f}]"
        dci = "" if i == 0 else f"[{r['diff_ci_low']:.0f}, {r['diff_ci_high']:.0f}]"
        pw = f"  {r['p_win']:.3f} " if win else ""
        lines.append(
            f"{mark}{r['action']:<22}{r['mean']:>8.1f}  {ci:<16}{r['diff_to_best']:>8.1f}  "
            f"{dci:<16}{r['p_out']:>7.3f}{pw}{r['rollouts']:>8,}"
        )
    lines += textwrap.wrap(
        "* best   = not separable from the best (paired 95% CI holds 0); mean = hand score of the "
        "viewer's team minus the best opposing team's, in points",
        100,
    )
    if "dropped" in df.columns and df["dropped"].any():
        lines.append(
            "x dropped early: worse than the best of its moment with 95% confidence (--until-ci)"
        )
    a = df.attrs
    if "choice" in a:
        if a["gap_rollouts"] == 0:
            lines.append(f"the strategy's own choice here is the best: {a['choice']}")
        else:
            lines += textwrap.wrap(
                f"{df['action'].iloc[0]} gains {a['gap']:.0f} [{a['gap_low']:.0f}, "
                f"{a['gap_high']:.0f}] over the strategy's choice {a['choice']} (95% CI on "
                f"{a['gap_rollouts']} fresh worlds, not the ones that ranked the actions)",
                100,
            )
    return "\n".join(lines)

"""One decision judged without the winner's curse, and the walk of the best-action player.

`judge` scores a decision in two independent steps:

1. selection: every legal action in ``rollouts`` worlds (the evaluator's seed for the point);
   the best is the one with the highest mean, or the reference action (the played one in a
   review) when no action beats it on these worlds;
2. measurement: the best, the played action and the continuation strategy's choice again, on
   ``rollouts`` fresh worlds (the point's seed with bit 62 flipped: independent of the
   selection's), paired among themselves.  Every figure a review reports -- equity lost, its
   interval, the mark, the values -- comes from these fresh worlds.

The mean of the best of several noisy means is biased upward (the winner's curse: on classic
4-player expert hands at 100 rollouts per action, the selection worlds put the best action 180
points above expert's choice where fresh worlds put it 98 above); measured on fresh worlds the gap
of the selected action is unbiased, so a mark (fresh interval excluding 0) comes at no more than
the nominal rate where the played action is in fact the best.

`walk` plays the deal again with the reviewed seats of one team taking the judged best action at
each of their decisions and every other seat playing the continuation strategy S, and judges
every decision on the way: the sum of the fresh gains over S's choice along this walk estimates
what the best-action player gains over S on this deal (the performance difference lemma: the
advantages of the better player's choices summed along ITS path).  Summing the one-step losses
along the reviewed player's own path instead ("path" in a review) counts again and again
improvements the better player makes once, and ends in positions it would not reach: on the
same hands that sum is about twice the realized gain.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

import numpy as np
import pandas as pd

from sim.play.game import GameState

__all__ = ["strategy_choice", "FRESH", "Verdict", "judge", "walk", "point_seed", "WALK_COLUMNS"]

FRESH = 1 << 62  # the measurement's seed: the point's seed with this bit flipped


def strategy_choice(gs, spec: str, seed: int, index: int) -> int:
    """The action the fast strategy ``spec`` would choose at this point (seeded by (seed,
    index))."""
    from sim.core.enums import N_ACTIONS
    from sim.core.rng import STREAM_PLAYERS, seed_rng_nb
    from strategies.registry import decide_nb, parse_spec

    sid, knobs = parse_spec(
        spec, gs.rules.label
    )  # a strategy tuned per table plays its table's set
    rng = np.zeros(2, np.uint64)
    seed_rng_nb(rng, seed, index, 1, STREAM_PLAYERS)
    buf = np.zeros(N_ACTIONS, np.int32)
    return int(decide_nb(sid, gs.observation(gs.seat), gs.params, knobs, rng, buf))


def point_seed(seed: int, index: int) -> int:
    """The evaluator's seed of the decision with action index ``index`` of a hand."""
    return seed * 1_000_003 + index


@dataclass
class Verdict:
    """A judged decision: ``best`` (from the selection worlds), the gaps measured on fresh
    worlds as (mean, 95% low, 95% high), and the fresh table rows of the actions."""

    best: int
    selection_gap: float  # selection worlds: mean(best) - mean(reference)
    lost: tuple[float, float, float]  # best - played
    vs_choice: tuple[float, float, float]  # choice - played
    gain: tuple[float, float, float]  # best - choice
    rows: dict[int, pd.Series]  # fresh table row of best, played and choice
    p_lost: tuple[float, float, float] | None  # P(win) best - played, percent (equity table)
    selection: pd.DataFrame  # the selection table (the played action's fresh one if it is alone)


def _gap(
    table: pd.DataFrame,
    x: int,
    y: int,
    col: str = "diff_to_best",
    low: str = "diff_ci_low",
    high: str = "diff_ci_high",
) -> tuple[float, float, float]:
    """mean(x) - mean(y) with its paired 95% interval, from a table of both (best first)."""
    if x == y:
        return (0.0, 0.0, 0.0)
    if int(table.index[0]) == x:
        r = table.loc[y]
        return (float(r[col]), float(r[low]), float(r[high]))
    r = table.loc[x]
    return (-float(r[col]), -float(r[high]), -float(r[low]))


def judge(
    evaluate,
    state,
    legal,
    played: int,
    choice: int,
    rollouts: int,
    seed: int,
    reference: int | None = None,
) -> Verdict:
    """Judge the decision at ``state`` (see the module docstring).  ``reference``: the action
    ties go to (default ``played``)."""
    reference = played if reference is None else reference
    fseed = seed ^ FRESH
    tables: dict[tuple[int, ...], pd.DataFrame] = {}

    def fresh(*acts: int) -> pd.DataFrame:
        key = tuple(sorted(set(acts)))
        if key not in tables:
            tables[key] = evaluate(state, list(key), rollouts, fseed)
        return tables[key]

    if len(legal) > 1:
        sel = evaluate(state, list(legal), rollouts, seed)
        if reference not in sel.index:
            raise RuntimeError(f"the evaluator returned no row for action {reference}")
        best = int(sel.index[0])
        if float(sel.loc[reference, "diff_to_best"]) <= 0:  # nothing beats it on these worlds
            best = reference
        sel_gap = float(sel.loc[reference, "diff_to_best"]) if best != reference else 0.0
    else:
        best, sel_gap, sel = played, 0.0, None
    lost = _gap(fresh(best, played), best, played) if best != played else (0.0, 0.0, 0.0)
    vs = _gap(fresh(choice, played), choice, played) if choice != played else (0.0, 0.0, 0.0)
    gain = _gap(fresh(best, choice), best, choice) if best != choice else (0.0, 0.0, 0.0)
    rows = {}
    for a in {best, played, choice}:
        t = next((t for k, t in tables.items() if a in k), None)
        rows[a] = (t if t is not None else fresh(a)).loc[a]
    p_lost = None
    if "p_win" in rows[played].index:
        p_lost = (
            _gap(fresh(best, played), best, played, "p_lost", "p_lost_low", "p_lost_high")
            if best != played
            else (0.0, 0.0, 0.0)
        )
    return Verdict(
        best, sel_gap, lost, vs, gain, rows, p_lost, fresh(played) if sel is None else sel
    )


WALK_COLUMNS = [
    "walk_team",
    "index",
    "turn",
    "seat",
    "team",
    "legal",
    "played",
    "choice",
    "gain",
    "gain_low",
    "gain_high",
    "on_path",
]


def walk(
    rec,
    team: int,
    seats: set[int],
    evaluate,
    strategy: str,
    rollouts: int,
    seed: int,
    cache: dict[int, Verdict],
    bar=None,
) -> tuple[pd.DataFrame, list[int], GameState]:
    """The best-action player's walk for ``team``: its table ``seats`` take the judged best
    action (ties to S's choice), every other seat plays S.  ``cache``: the verdicts of the played
    path by action index (reused while the walk has not left it, when they judged against S's
    choice).  Returns (one row per judged decision, the walk's actions, its final GameState)."""
    from sim.core.enums import Off

    gs: GameState = rec.new_state()
    table = gs.seat_table
    rows, actions = [], []
    on_path = True
    i = 0
    while not gs.is_over:
        seat = gs.seat
        choice = strategy_choice(gs, strategy, seed, i)
        action = choice
        if table[seat] in seats and int(gs.state[Off.TEAM_OF_SEAT + seat]) == team:
            legal = gs.legal_actions()
            if len(legal) > 1:
                v = cache.get(i) if on_path else None
                if v is None or rec.actions[i] != choice:
                    v = judge(
                        evaluate,
                        copy.deepcopy(gs),
                        legal,
                        choice,
                        choice,
                        rollouts,
                        point_seed(seed, i),
                    )
                action = v.best
                rows.append(
                    {
                        "walk_team": team,
                        "index": i,
                        "turn": int(gs.state[Off.TURN]) + 1,
                        "seat": table[seat],
                        "team": team,
                        "legal": len(legal),
                        "played": gs.text(action),
                        "choice": gs.text(choice),
                        "gain": v.gain[0],
                        "gain_low": v.gain[1],
                        "gain_high": v.gain[2],
                        "on_path": on_path,
                    }
                )
                if bar is not None:
                    bar.update(1)
        if on_path and (i >= len(rec.actions) or action != rec.actions[i]):
            on_path = False
        gs.apply(action)
        actions.append(int(action))
        i += 1
    return pd.DataFrame(rows, columns=WALK_COLUMNS), actions, gs


def half(low, high) -> np.ndarray:
    return (np.asarray(high, float) - np.asarray(low, float)) / 2

"""The evaluator `canasta review` scores decisions with: every legal action played in the same
sampled worlds (common random numbers), every seat continuing with one strategy.

Worlds come from `sim.play.worlds.sample_worlds_nb`, built from the deciding seat's observation
and knowledge alone (`GameState.observation` / `GameState.knowledge`): the rollouts never read a
card that seat could not see.  World i and the strategies' random streams of rollout i depend
only on (seed, i), the same for every action, so the differences between actions are paired
(one value per world) and the result does not depend on the number of threads.
"""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pandas as pd
from numba import njit

from sim.core.apply import SCORE_ROWS, apply_action_nb, score_hand_nb
from sim.core.enums import MAX_SEATS, MAX_TEAMS, N_ACTIONS, N_KINDS, Off
from sim.core.rng import STREAM_PLAYERS, seed_rng_nb
from sim.play.game import GameState
from sim.play.loop import OK, deck_composition_nb, play_out_nb
from sim.play.worlds import ERROR_TEXT, sample_worlds_nb
from strategies.registry import MAX_KNOBS, parse_spec

__all__ = ["DEFAULT_ROLLOUTS", "make_evaluator", "action_rollouts_nb", "summarize"]

DEFAULT_ROLLOUTS = 1000
Z95 = 1.959963984540054


@njit(cache=True, nogil=True)
def action_rollouts_nb(worlds, params, actions, team, strat_ids, knobs, seed, start, out, status) -> int:
    """out[j, i] := the hand result of ``team`` (its score minus the best other team's) when
    ``actions[j]`` is played in world i (int32[n, STATE_SIZE]) and every seat then plays its
    strategy; seat s's stream is keyed (seed, start + i, 1, STREAM_PLAYERS + 1 + s), the same for
    every action.  Returns OK, or status[0] != OK with the failing world in status[7]."""
    state = np.zeros(Off.STATE_SIZE, np.int32)
    obs = np.zeros(Off.STATE_SIZE, np.int32)
    buf = np.zeros(N_ACTIONS, np.int32)
    rng = np.zeros((MAX_SEATS, 2), np.uint64)
    composition = np.zeros(N_KINDS, np.int64)
    totals = np.zeros(N_KINDS, np.int64)
    score = np.zeros((SCORE_ROWS, MAX_TEAMS), np.int32)
    no8 = np.zeros((1, 0), np.int8)
    no16 = np.zeros((1, 0), np.int16)
    no32 = np.zeros((1, 0), np.int32)
    no64 = np.zeros((1, 0), np.int64)
    deck_composition_nb(params, composition)
    for i in range(worlds.shape[0]):
        for j in range(actions.shape[0]):
            for k in range(state.shape[0]):
                state[k] = worlds[i, k]
            why = apply_action_nb(state, params, actions[j])
            if why != 0:
                status[0] = 1
                status[1] = actions[j]
                status[2] = why
                status[7] = start + i
                return status[0]
            for s in range(state[Off.N_SEATS]):
                seed_rng_nb(rng[s], seed, start + i, 1, STREAM_PLAYERS + 1 + s)
            play_out_nb(state, params, strat_ids, knobs, rng, obs, buf, seed, start + i, 0, False,
                        no8, no16, no32, no64, 0, False, composition, totals, status)
            if status[0] != OK:
                status[7] = start + i
                return status[0]
            score_hand_nb(state, params, score)
            best = -(1 << 30)
            for t in range(state[Off.N_TEAMS]):
                if t != team and score[0, t] > best:
                    best = score[0, t]
            if state[Off.N_TEAMS] == 1:
                best = 0
            out[j, i] = score[0, team] - best
    return OK


def summarize(values: np.ndarray, actions: list[int]) -> pd.DataFrame:
    """Per action (rows of ``values``, one column per world): mean, 95% CI, and the paired
    difference to the best action (best mean - this action's, one value per world) with its CI."""
    n = values.shape[1]
    mean = values.mean(axis=1)
    half = Z95 * values.std(axis=1, ddof=1) / math.sqrt(n)
    best = int(np.argmax(mean))
    diff = values[best][None, :] - values
    dmean = diff.mean(axis=1)
    dhalf = Z95 * diff.std(axis=1, ddof=1) / math.sqrt(n)
    df = pd.DataFrame({"action": actions, "mean": mean, "ci_low": mean - half, "ci_high": mean + half,
                       "diff_to_best": dmean, "diff_ci_low": dmean - dhalf, "diff_ci_high": dmean + dhalf,
                       "rollouts": n})
    return df.set_index("action", drop=False).sort_values("mean", ascending=False, kind="stable")


def make_evaluator(rules, strategy: str = "expert", jobs: int = 1):
    """``evaluate(gs, actions, rollouts, seed) -> DataFrame`` (see `summarize`) for the seat to act
    in ``gs``; ``jobs`` threads share the worlds (results independent of it)."""
    sid, kn = parse_spec(strategy)
    ids = np.full(MAX_SEATS, sid, np.int64)
    knobs = np.zeros((MAX_SEATS, MAX_KNOBS), np.float64)
    knobs[:] = kn
    jobs = max(1, int(jobs))

    def evaluate(gs: GameState, actions: list[int], rollouts: int, seed: int) -> pd.DataFrame:
        seat = gs.seat
        obs = gs.observation(seat)
        know = gs.knowledge(seat)
        acts = np.asarray(actions, np.int32)
        values = np.zeros((len(actions), rollouts), np.int64)
        bounds = np.linspace(0, rollouts, min(jobs, rollouts) + 1).astype(int)

        def part(lo: int, hi: int) -> None:
            worlds = np.zeros((hi - lo, Off.STATE_SIZE), np.int32)
            code = sample_worlds_nb(obs, know, gs.params, seed, lo, worlds, -1, knobs[0], 0, np.zeros(2, np.int64))
            if code != 0:
                raise ValueError(f"cannot sample worlds for seat {gs.seat_table[seat]}: {ERROR_TEXT.get(code, code)}")
            status = np.zeros(16, np.int64)
            out = np.zeros((len(actions), hi - lo), np.int64)
            if action_rollouts_nb(worlds, gs.params, acts, gs.team, ids, knobs, seed, lo, out, status) != OK:
                raise RuntimeError(f"rollout {int(status[7])} failed (status {list(status[:4])}) at seed {seed}")
            values[:, lo:hi] = out

        if len(bounds) > 2:
            with ThreadPoolExecutor(len(bounds) - 1) as pool:
                list(pool.map(lambda k: part(bounds[k], bounds[k + 1]), range(len(bounds) - 1)))
        else:
            part(0, rollouts)
        return summarize(values.astype(float), [int(a) for a in actions])

    return evaluate

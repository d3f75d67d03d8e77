"""Rollouts of every candidate action at one decision, with common random numbers.

`rollout_actions_nb` is the engine behind ``canasta analyze`` (reports/analyze.py): for rollout
index i it samples ONE world from the viewer's observation and knowledge (sim.play.worlds.sampler,
stream keyed (seed, i)), and for every active candidate action it plays that action in a copy of the
world and then the rest of the hand with the seats' strategies, each seat's random stream keyed
(seed, i, 0, STREAM_PLAYERS + 1 + seat) — the same world and the same streams for every action, so
the differences between actions are paired.  Rollout i depends only on (seed, i): the same results
whatever the batch sizes or the number of workers.

Strategies in a rollout see what their seat could see: `play_out_hidden_nb` builds every observation
with `sim.play.selfplay.step.observe_nb`, which leaves the pile cards nobody has seen (the buried
cards of a typed position, dealt at random into the world) out of the pile counts.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.apply import SCORE_ROWS, score_hand_nb
from sim.core.enums import MAX_CARDS, MAX_SEATS, MAX_TEAMS, N_ACTIONS, N_KINDS, End, Off
from sim.core.rng import STREAM_PLAYERS, seed_rng_nb
from sim.play.selfplay.status import NoWorld, Slot, Status
from sim.play.selfplay.step import apply_step_nb, play_out_hidden_nb
from sim.play.worlds.sampler import (
    STREAM_WORLD,
    Know,
    one_model_nb,
    sample_consistent_nb,
    sample_world_nb,
)

__all__ = ["rollout_actions_nb", "hand_result_nb"]


@njit(cache=True, _nrt=False)
def hand_result_nb(state, params, team, score) -> tuple:
    """(the team's hand score, the best opposing team's, 1 if the team went out else 0)."""
    score_hand_nb(state, params, score)
    us = score[0, team]
    them = -(1 << 30)
    for t in range(state[Off.N_TEAMS]):
        if t != team and score[0, t] > them:
            them = score[0, t]
    if state[Off.N_TEAMS] == 1:
        them = 0
    ws = state[Off.WENT_OUT_SEAT]
    went = (
        1
        if state[Off.END_REASON] == End.WENT_OUT
        and ws >= 0
        and state[Off.TEAM_OF_SEAT + ws] == team
        else 0
    )
    return us, them, went


@njit(cache=True)
def rollout_actions_nb(
    obs,
    know,
    params,
    actions,
    active,
    strat_ids,
    knobs,
    seed,
    start,
    model_id,
    model_knobs,
    tries,
    out_us,
    out_them,
    out_went,
    status,
    stats,
) -> int:
    """Rollouts start .. start+n-1 (n = out_us.shape[0]) of every active candidate action.

    Parameters
    ----------
    obs : int32[STATE_SIZE]     the viewer's observation (the viewer is the seat to act)
    know : int32[Know.SIZE]     the viewer's knowledge (sim.play.worlds.sampler)
    actions : int32[A]          candidate actions, all legal at ``obs``
    active : int8[A]            1: roll this action out, 0: leave its columns untouched
    strat_ids : int64[MAX_SEATS], knobs : float64[MAX_SEATS, MAX_KNOBS]  the seats' strategies
    model_id : int              < 0: uniform worlds; else model-consistent worlds (model knobs
                                float64[MAX_KNOBS], ``tries`` redraws, stats int64[2] += as in
                                `sample_consistent_nb`)
    out_us, out_them : int32[n, A]  hand score of the viewer's team / of the best opposing team
    out_went : int8[n, A]       1 if the viewer's team went out
    status : int64[Slot.SIZE]   Status.OK; ILLEGAL (the `Illegal` slots; strategy -1: the
                                candidate itself) or NO_WORLD (the `NoWorld` slots), with the
                                rollout in Slot.ROLLOUT and the candidate in Slot.CANDIDATE
    Returns the number of rollouts done.
    """
    world = np.zeros(Off.STATE_SIZE, np.int32)
    state = np.zeros(Off.STATE_SIZE, np.int32)
    sobs = np.zeros(Off.STATE_SIZE, np.int32)
    mobs = np.zeros(Off.STATE_SIZE, np.int32)
    model_ids, model_kn = one_model_nb(model_id, model_knobs)
    buf = np.zeros(N_ACTIONS, np.int32)
    pool = np.zeros(MAX_CARDS, np.int32)
    unseen = np.zeros(N_KINDS, np.int64)
    suit_next = np.zeros(N_KINDS, np.int64)
    wrng = np.zeros(2, np.uint64)
    rng = np.zeros((MAX_SEATS, 2), np.uint64)
    score = np.zeros((SCORE_ROWS, MAX_TEAMS), np.int32)
    viewer = know[Know.VIEWER]
    team = obs[Off.TEAM_OF_SEAT + viewer]
    hidden0 = know[Know.PILE_HIDDEN]
    for j in range(out_us.shape[0]):
        i = start + j
        seed_rng_nb(wrng, seed, i, 0, STREAM_WORLD)
        if model_id < 0:
            code = sample_world_nb(obs, know, params, wrng, world, pool, unseen, suit_next)
        else:
            code = sample_consistent_nb(
                obs,
                know,
                params,
                wrng,
                world,
                pool,
                unseen,
                suit_next,
                model_ids,
                model_kn,
                tries,
                mobs,
                buf,
                stats,
            )
        if code != 0:
            status[NoWorld.CODE] = Status.NO_WORLD
            status[NoWorld.ERROR] = code
            status[Slot.ROLLOUT] = i
            return j
        for a in range(actions.shape[0]):
            if active[a] == 0:
                continue
            for x in range(Off.STATE_SIZE):
                state[x] = world[x]
            for s in range(state[Off.N_SEATS]):
                seed_rng_nb(rng[s], seed, i, 0, STREAM_PLAYERS + 1 + s)
            # the candidate itself (strategy -1), then the rest of the hand
            if apply_step_nb(state, params, actions[a], True, -1, status) == 0:
                play_out_hidden_nb(
                    state,
                    params,
                    strat_ids,
                    knobs,
                    rng,
                    sobs,
                    buf,
                    hidden0,
                    status,
                    None,
                    None,
                    None,
                )
            if status[Slot.CODE] != Status.OK:
                status[Slot.ROLLOUT] = i
                status[Slot.CANDIDATE] = a
                return j
            us, them, went = hand_result_nb(state, params, team, score)
            out_us[j, a] = us
            out_them[j, a] = them
            out_went[j, a] = went
    return out_us.shape[0]

"""Rollouts of every candidate action at one decision, with common random numbers.

`rollout_actions_nb` is the engine behind ``canasta analyze`` (reports/analyze.py): for rollout
index i it samples ONE world from the viewer's observation and knowledge (sim.play.worlds.sampler, stream
keyed (seed, i)), and for every active candidate action it plays that action in a copy of the
world and then the rest of the hand with the seats' strategies, each seat's random stream keyed
(seed, i, 0, STREAM_PLAYERS + 1 + seat) — the same world and the same streams for every action, so
the differences between actions are paired.  Rollout i depends only on (seed, i): the same results
whatever the batch sizes or the number of workers.

Strategies in a rollout see what their seat could see: `play_out_hidden_nb` builds every
observation with `sim.play.worlds.sampler.observe_nb`, which leaves the pile cards nobody has seen (the
buried cards of a typed position, dealt at random into the world) out of the pile counts.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.apply import SCORE_ROWS, apply_action_nb, score_hand_nb
from sim.core.enums import MAX_CARDS, MAX_SEATS, MAX_TEAMS, N_ACTIONS, N_KINDS, End, Off, Par, Phase
from sim.core.rng import STREAM_PLAYERS, seed_rng_nb
from sim.play.selfplay.loop import ILLEGAL, OK
from sim.play.worlds.sampler import (
    STREAM_WORLD,
    Know,
    observe_nb,
    one_model_nb,
    sample_consistent_nb,
    sample_world_nb,
)
from strategies.registry import decide_nb

__all__ = ["WORLD_ERROR", "play_out_hidden_nb", "rollout_actions_nb", "hand_result_nb"]

WORLD_ERROR = (
    5  # status[0]: the world sampler failed, status[1] = its code (sim.play.worlds.sampler)
)


@njit(cache=True, _nrt=False)
def play_out_hidden_nb(state, params, strat_ids, knobs, rng, obs, buf, hidden, status) -> None:
    """Play ``state`` to the end of the hand; seat s decides with strategy strat_ids[s] (knobs
    float64[MAX_SEATS, MAX_KNOBS], stream rng[s]) from its observation without the ``hidden``
    bottom pile cards (until the pile is taken).  An illegal action sets status[0] = ILLEGAL,
    status[1..3] = seat, action, why, status[6] = strategy id."""
    samba = params[Par.SEQUENCES] != 0 or params[Par.MULTI_MELDS] != 0
    while state[Off.PHASE] != Phase.OVER:
        if state[Off.PILE_LEN] == 0:
            hidden = 0
        seat = state[Off.SEAT]
        observe_nb(state, seat, hidden, obs, samba)
        action = decide_nb(strat_ids[seat], obs, params, knobs[seat], rng[seat], buf)
        why = apply_action_nb(state, params, action)
        if why != 0:
            status[0] = ILLEGAL
            status[1] = seat
            status[2] = action
            status[3] = why
            status[6] = strat_ids[seat]
            return


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
    status : int64[8]           OK, or ILLEGAL (status[1..3] seat, action, why; status[4] the
                                rollout index; status[5] the candidate's column) or WORLD_ERROR
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
        if code != OK:
            status[0] = WORLD_ERROR
            status[1] = code
            return j
        for a in range(actions.shape[0]):
            if active[a] == 0:
                continue
            for x in range(Off.STATE_SIZE):
                state[x] = world[x]
            for s in range(state[Off.N_SEATS]):
                seed_rng_nb(rng[s], seed, i, 0, STREAM_PLAYERS + 1 + s)
            why = apply_action_nb(state, params, actions[a])
            if why != 0:
                status[0] = ILLEGAL
                status[1] = viewer
                status[2] = actions[a]
                status[3] = why
            else:
                play_out_hidden_nb(state, params, strat_ids, knobs, rng, sobs, buf, hidden0, status)
            if status[0] != OK:
                status[4] = i
                status[5] = a
                return j
            us, them, went = hand_result_nb(state, params, team, score)
            out_us[j, a] = us
            out_them[j, a] = them
            out_went[j, a] = went
    return out_us.shape[0]

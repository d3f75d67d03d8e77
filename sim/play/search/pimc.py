"""`pimc`: determinized (perfect-information) Monte Carlo search over rollouts.

At a decision of its seat the player

1. asks its base strategy (default expert) what it would play, from the seat's observation;
2. if the decision is of a searched class (``search`` mask: take = the draw phase, discard = a
   meld-phase decision where the base discards, meld = one where it melds or adds, out = any
   meld-phase decision with at most ``OUT_HAND`` cards in hand) and has two or more legal
   actions, samples ``worlds`` worlds from the observation and the seat's knowledge
   (`sim.play.worlds`: model-consistent worlds, where each opponent's hidden cards agree with its
   last discard under the base strategy, cards known to be in a hand kept there; ``infer`` = 0:
   uniform worlds);
3. plays every legal action in every world (``rollouts`` times, each with its own players'
   random streams: only useful for a random base strategy), then the rest of the hand with the
   base strategy at every seat, and scores it as (our hand score - the best opposing one);
   every action sees the same worlds and streams (common random numbers);
4. plays the action with the best mean paired gain over the base's choice if that gain exceeds
   ``guard`` standard errors of the paired differences (the deviation guard), else the base's
   choice.

Nothing here reads a hidden card: the kernel gets the observation and the knowledge array, and
its random streams are keyed by (seed, game, hand, the hand's public decision counter), so two
true states with the same observation give the same decision.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.apply import SCORE_ROWS, apply_action_nb
from sim.core.enums import MAX_CARDS, MAX_SEATS, MAX_TEAMS, N_ACTIONS, N_KINDS, Act, Off, Phase
from sim.core.legal import legal_actions_nb
from sim.core.rng import STREAM_PLAYERS, key_nb, seed_rng_nb
from sim.play.analysis import hand_result_nb, play_out_hidden_nb
from sim.play.worlds import STREAM_WORLD, Know, sample_consistent_nb, sample_world_nb

__all__ = ["pimc_decide_nb", "searched_nb", "decision_key_nb", "OUT_HAND", "STREAM_SEARCH",
           "ST_SEARCHED", "ST_DEVIATED", "ST_ROLLOUTS", "ST_ERRORS"]

OUT_HAND = 4  # "out" class: meld-phase decisions with at most this many cards in hand
STREAM_SEARCH = 32  # the search's random streams: key (seed, game, hand, STREAM_SEARCH + decisions)
# counters in the stats array (int64[8]) every search kernel adds to
ST_SEARCHED = 0  # decisions searched
ST_DEVIATED = 1  # decisions where the search left the base strategy's choice
ST_ROLLOUTS = 2  # rollouts played
ST_ERRORS = 3  # decisions where the world sampler failed (the base's choice was played)
ST_CONSTRAINED = 4  # model-consistent sampling: seats constrained (sim.play.worlds stats[0])
ST_UNMATCHED = 5  # ... of which no redraw agreed with the model (stats[1])


@njit(cache=True, _nrt=False)
def searched_nb(obs: np.ndarray, base_action: int, mask: int) -> bool:
    """Is this decision of a class the ``mask`` searches (1 take, 2 discard, 4 meld, 8 out)?"""
    if obs[Off.PHASE] == Phase.DRAW:
        return (mask & 1) != 0
    if (mask & 8) != 0:
        n = 0
        for k in range(N_KINDS):
            n += obs[Off.HANDS + k]
        if n <= OUT_HAND:
            return True
    if Act.DISCARD <= base_action < Act.SEQ_NEW:
        return (mask & 2) != 0
    return (mask & 4) != 0


@njit(cache=True, _nrt=False)
def decision_key_nb(seed: int, game: int, hand: int, obs: np.ndarray) -> int:
    """The search's seed at this decision: a hash of the hand key and the public decision counter
    (a non-negative int63)."""
    k = key_nb(seed, game, hand, STREAM_SEARCH + obs[Off.DECISIONS])
    return int(k >> np.uint64(1))


@njit(cache=True, _nrt=False)
def _world_nb(obs, know, params, wrng, world, pool, unseen, suit_next, infer, base_id, base_knobs,
              tries, mobs, buf, wstats) -> int:
    if infer:
        return sample_consistent_nb(obs, know, params, wrng, world, pool, unseen, suit_next,
                                    base_id, base_knobs, tries, mobs, buf, wstats)
    return sample_world_nb(obs, know, params, wrng, world, pool, unseen, suit_next)


@njit(cache=True)
def pimc_decide_nb(obs: np.ndarray, know: np.ndarray, params: np.ndarray, base_id: int,
                   base_knobs: np.ndarray, base_action: int, worlds: int, rollouts: int, mask: int,
                   guard: float, tries: int, infer: bool, dseed: int, stats: np.ndarray) -> int:
    """The pimc player's action at the viewer's decision.

    Parameters
    ----------
    obs : int32[STATE_SIZE]     the viewer's observation (`sim.play.worlds.observe_nb`); the viewer
                                is the seat to act
    know : int32[Know.SIZE]     the viewer's knowledge
    params : int32[N_PARAMS]    rule parameters
    base_id, base_knobs : the base strategy (float64[MAX_KNOBS]): rollouts and world model
    base_action : int           what the base strategy plays here (the guard's reference)
    worlds, rollouts : int      worlds sampled; rollouts per world and action
    mask : int                  searched decision classes (`searched_nb`)
    guard : float               deviate only when the paired gain exceeds guard standard errors
    tries : int                 model-consistent sampling: redraws per constrained seat
    infer : bool                model-consistent (True) or uniform (False) worlds
    dseed : int                 the decision's seed (`decision_key_nb`)
    stats : int64[8]            counters (ST_*), added to
    Returns the action to play.
    """
    if not searched_nb(obs, base_action, mask):
        return base_action
    buf = np.zeros(N_ACTIONS, np.int32)
    n_act = legal_actions_nb(obs, Off.HANDS, params, buf)
    if n_act <= 1:
        return base_action
    actions = buf[:n_act].copy()
    ref = -1
    for a in range(n_act):
        if actions[a] == base_action:
            ref = a
    if ref < 0:
        return base_action
    stats[ST_SEARCHED] += 1
    world = np.zeros(Off.STATE_SIZE, np.int32)
    state = np.zeros(Off.STATE_SIZE, np.int32)
    sobs = np.zeros(Off.STATE_SIZE, np.int32)
    mobs = np.zeros(Off.STATE_SIZE, np.int32)
    pool = np.zeros(MAX_CARDS, np.int32)
    unseen = np.zeros(N_KINDS, np.int64)
    suit_next = np.zeros(N_KINDS, np.int64)
    wrng = np.zeros(2, np.uint64)
    rng = np.zeros((MAX_SEATS, 2), np.uint64)
    score = np.zeros((SCORE_ROWS, MAX_TEAMS), np.int32)
    ids = np.full(MAX_SEATS, base_id, np.int64)
    knobs = np.zeros((MAX_SEATS, base_knobs.shape[0]), np.float64)
    for s in range(MAX_SEATS):
        knobs[s] = base_knobs
    wstats = np.zeros(2, np.int64)
    status = np.zeros(8, np.int64)
    viewer = know[Know.VIEWER]
    team = obs[Off.TEAM_OF_SEAT + viewer]
    hidden0 = know[Know.PILE_HIDDEN]
    vals = np.zeros(n_act, np.float64)
    sums = np.zeros(n_act, np.float64)  # paired differences to the base's choice
    sq = np.zeros(n_act, np.float64)
    n = 0
    for i in range(worlds):
        seed_rng_nb(wrng, dseed, i, 0, STREAM_WORLD)
        code = _world_nb(obs, know, params, wrng, world, pool, unseen, suit_next, infer, base_id,
                         base_knobs, tries, mobs, buf, wstats)
        if code != 0:
            stats[ST_ERRORS] += 1
            return base_action
        for r in range(rollouts):
            for a in range(n_act):
                for x in range(Off.STATE_SIZE):
                    state[x] = world[x]
                for s in range(state[Off.N_SEATS]):
                    seed_rng_nb(rng[s], dseed, i, r, STREAM_PLAYERS + 1 + s)
                apply_action_nb(state, params, actions[a])
                play_out_hidden_nb(state, params, ids, knobs, rng, sobs, buf, hidden0, status)
                if status[0] != 0:  # an illegal base move in a rollout: keep the base's choice
                    stats[ST_ERRORS] += 1
                    return base_action
                us, them, _ = hand_result_nb(state, params, team, score)
                vals[a] = us - them
            stats[ST_ROLLOUTS] += n_act
            n += 1
            for a in range(n_act):
                d = vals[a] - vals[ref]
                sums[a] += d
                sq[a] += d * d
    stats[ST_CONSTRAINED] += wstats[0]
    stats[ST_UNMATCHED] += wstats[1]
    best = ref
    best_mean = 0.0
    best_se = 0.0
    for a in range(n_act):
        m = sums[a] / n
        if a != ref and m > best_mean:
            var = (sq[a] - n * m * m) / (n - 1) if n > 1 else 0.0
            best = a
            best_mean = m
            best_se = np.sqrt(max(var, 0.0) / n)
    if best != ref and best_mean > guard * best_se:
        stats[ST_DEVIATED] += 1
        return actions[best]
    return base_action

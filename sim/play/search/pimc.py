"""`pimc`: determinized (perfect-information) Monte Carlo search over rollouts.

At a decision of its seat the player

1. asks its base strategy (default expert-v1) what it would play, from the seat's observation;
2. if the decision is of a searched class (``search`` mask: take = the draw phase, discard = a
   meld-phase decision where the base discards, meld = one where it melds or adds, out = any
   meld-phase decision with at most ``OUT_HAND`` cards in hand) and has two or more legal
   actions, samples ``worlds`` worlds from the observation and the seat's knowledge
   (`sim.play.worlds.sampler`: model-consistent worlds, where each opponent's hidden cards agree
   with its last discard under the base strategy, cards known to be in a hand kept there;
   ``infer`` = 0: uniform worlds);
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

from typing import NamedTuple

import numpy as np
from numba import njit

from sim.core.apply import SCORE_ROWS, apply_action_nb
from sim.core.enums import MAX_CARDS, MAX_SEATS, MAX_TEAMS, N_ACTIONS, N_KINDS, Act, Off, Phase
from sim.core.legal import legal_actions_nb
from sim.core.rng import STREAM_PLAYERS, key_nb, seed_rng_nb
from sim.play.rollouts.actions import hand_result_nb
from sim.play.selfplay.status import Slot
from sim.play.selfplay.step import play_out_hidden_nb
from sim.play.worlds.sampler import STREAM_WORLD, Know, sample_consistent_nb, sample_world_nb
from strategies.registry import MAX_KNOBS

__all__ = [
    "pimc_decide_nb",
    "searched_nb",
    "decision_key_nb",
    "OUT_HAND",
    "STREAM_SEARCH",
    "ST_SEARCHED",
    "ST_DEVIATED",
    "ST_ROLLOUTS",
    "ST_ERRORS",
    "Scratch",
    "new_scratch",
]

OUT_HAND = 4  # "out" class: meld-phase decisions with at most this many cards in hand
STREAM_SEARCH = 32  # the search's random streams: key (seed, game, hand, STREAM_SEARCH + decisions)
# counters in the stats array (int64[8]) every search kernel adds to
ST_SEARCHED = 0  # decisions searched
ST_DEVIATED = 1  # decisions where the search left the base strategy's choice
ST_ROLLOUTS = 2  # rollouts played
ST_ERRORS = 3  # decisions where the world sampler failed (the base's choice was played)
ST_CONSTRAINED = (
    4  # model-consistent sampling: seats constrained (sim.play.worlds.sampler stats[0])
)
ST_UNMATCHED = 5  # ... of which no redraw agreed with the model (stats[1])


class Scratch(NamedTuple):
    """The search kernels' working arrays, allocated once per chunk (`new_scratch`) and reused by
    every decision, so the kernels allocate nothing.  Every array a decision reads is written
    (or reset) by that decision first: results do not depend on earlier decisions."""

    world: np.ndarray  # int32[STATE_SIZE]  a sampled world
    state: np.ndarray  # int32[STATE_SIZE]  the rollout's state (pimc)
    sobs: np.ndarray  # int32[STATE_SIZE]  observations in rollouts
    mobs: np.ndarray  # int32[STATE_SIZE]  the world model's observations
    pool: np.ndarray  # int32[MAX_CARDS]
    unseen: np.ndarray  # int64[N_KINDS]
    suit_next: np.ndarray  # int64[N_KINDS]
    wrng: np.ndarray  # uint64[2]  the world's stream
    rng: np.ndarray  # uint64[MAX_SEATS, 2]  the rollout players' streams
    score: np.ndarray  # int32[SCORE_ROWS, MAX_TEAMS]
    ids: np.ndarray  # int64[MAX_SEATS]  the base strategy at every seat
    knobs: np.ndarray  # float64[MAX_SEATS, n_knobs]  its knobs
    wstats: np.ndarray  # int64[2]  world sampler counters
    status: np.ndarray  # int64[Slot.SIZE]  rollout status
    buf: np.ndarray  # int32[N_ACTIONS]  legal actions
    actions: np.ndarray  # int32[N_ACTIONS]  the decision's legal actions (pimc)
    legal: np.ndarray  # int32[N_ACTIONS]  (ismcts)
    untried: np.ndarray  # int32[N_ACTIONS]  (ismcts)
    vals: np.ndarray  # float64[N_ACTIONS]  (pimc)
    sums: np.ndarray  # float64[N_ACTIONS]  (pimc)
    sq: np.ndarray  # float64[N_ACTIONS]  (pimc)
    child: np.ndarray  # int32[cap, N_ACTIONS]  the ismcts tree (cap = iterations + 2)
    visits: np.ndarray  # float64[cap]
    avail: np.ndarray  # float64[cap]
    total: np.ndarray  # float64[cap]
    path: np.ndarray  # int32[cap]


def new_scratch(iters: int = 0, n_knobs: int = MAX_KNOBS) -> Scratch:
    """Working arrays for search decisions: ``iters`` = the most ismcts iterations of any seat
    (0: pimc only), ``n_knobs`` = the width of the knob vectors."""
    cap = max(int(iters), 0) + 2
    st = lambda: np.zeros(Off.STATE_SIZE, np.int32)  # noqa: E731
    act = lambda dt: np.zeros(N_ACTIONS, dt)  # noqa: E731
    return Scratch(
        st(),
        st(),
        st(),
        st(),
        np.zeros(MAX_CARDS, np.int32),
        np.zeros(N_KINDS, np.int64),
        np.zeros(N_KINDS, np.int64),
        np.zeros(2, np.uint64),
        np.zeros((MAX_SEATS, 2), np.uint64),
        np.zeros((SCORE_ROWS, MAX_TEAMS), np.int32),
        np.zeros(MAX_SEATS, np.int64),
        np.zeros((MAX_SEATS, n_knobs), np.float64),
        np.zeros(2, np.int64),
        np.zeros(Slot.SIZE, np.int64),
        act(np.int32),
        act(np.int32),
        act(np.int32),
        act(np.int32),
        act(np.float64),
        act(np.float64),
        act(np.float64),
        np.full((cap, N_ACTIONS), -1, np.int32),
        np.zeros(cap),
        np.zeros(cap),
        np.zeros(cap),
        np.zeros(cap, np.int32),
    )


@njit(cache=True, _nrt=False)
def base_players_nb(
    sc: Scratch,
    base_id: int,
    base_knobs: np.ndarray,
    table_ids: np.ndarray,
    table_knobs: np.ndarray,
    viewer: int,
    use_table: bool,
) -> None:
    """The players of the rollouts and the world model (``sc.ids``, ``sc.knobs``): the base
    strategy at the viewer's seat, and at every other seat the base too or, with ``use_table``,
    the strategy seated there (``table_ids`` int64[MAX_SEATS], ``table_knobs`` float64[MAX_SEATS,
    n_knobs])."""
    for s in range(MAX_SEATS):
        if use_table and s != viewer:
            sc.ids[s] = table_ids[s]
            for j in range(table_knobs.shape[1]):
                sc.knobs[s, j] = table_knobs[s, j]
        else:
            sc.ids[s] = base_id
            for j in range(base_knobs.shape[0]):
                sc.knobs[s, j] = base_knobs[j]


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
def _world_nb(
    obs,
    know,
    params,
    wrng,
    world,
    pool,
    unseen,
    suit_next,
    infer,
    model_ids,
    model_knobs,
    tries,
    mobs,
    buf,
    wstats,
) -> int:
    if infer:
        return sample_consistent_nb(
            obs,
            know,
            params,
            wrng,
            world,
            pool,
            unseen,
            suit_next,
            model_ids,
            model_knobs,
            tries,
            mobs,
            buf,
            wstats,
        )
    return sample_world_nb(obs, know, params, wrng, world, pool, unseen, suit_next)


@njit(cache=True, _nrt=False)
def pimc_decide_nb(
    obs: np.ndarray,
    know: np.ndarray,
    params: np.ndarray,
    base_id: int,
    base_knobs: np.ndarray,
    base_action: int,
    worlds: int,
    rollouts: int,
    mask: int,
    guard: float,
    tries: int,
    infer: bool,
    dseed: int,
    stats: np.ndarray,
    sc: Scratch,
) -> int:
    """The pimc player's action at the viewer's decision.

    Parameters ---------- obs : int32[STATE_SIZE]     the viewer's observation
    (`sim.play.worlds.sampler.observe_nb`); the viewer
                                is the seat to act
    know : int32[Know.SIZE]     the viewer's knowledge
    params : int32[N_PARAMS]    rule parameters
    base_id, base_knobs : the base strategy (float64[MAX_KNOBS]); the rollouts' players and the
                                world model are ``sc.ids``/``sc.knobs`` (`base_players_nb`)
    base_action : int           what the base strategy plays here (the guard's reference)
    worlds, rollouts : int      worlds sampled; rollouts per world and action
    mask : int                  searched decision classes (`searched_nb`)
    guard : float               deviate only when the paired gain exceeds guard standard errors
    tries : int                 model-consistent sampling: redraws per constrained seat
    infer : bool                model-consistent (True) or uniform (False) worlds
    dseed : int                 the decision's seed (`decision_key_nb`)
    stats : int64[8]            counters (ST_*), added to
    sc : Scratch                working arrays (`new_scratch`)
    Returns the action to play.
    """
    if not searched_nb(obs, base_action, mask):
        return base_action
    buf = sc.buf
    n_act = legal_actions_nb(obs, Off.HANDS, params, buf)
    if n_act <= 1:
        return base_action
    actions = sc.actions
    for a in range(n_act):
        actions[a] = buf[a]
    ref = -1
    for a in range(n_act):
        if actions[a] == base_action:
            ref = a
    if ref < 0:
        return base_action
    stats[ST_SEARCHED] += 1
    sc.wstats[:] = 0
    sc.status[:] = 0
    world, state, sobs, mobs, pool = sc.world, sc.state, sc.sobs, sc.mobs, sc.pool
    unseen, suit_next, wrng, rng, score = sc.unseen, sc.suit_next, sc.wrng, sc.rng, sc.score
    ids, knobs, wstats, status = sc.ids, sc.knobs, sc.wstats, sc.status
    viewer = know[Know.VIEWER]
    team = obs[Off.TEAM_OF_SEAT + viewer]
    hidden0 = know[Know.PILE_HIDDEN]
    vals, sums, sq = sc.vals, sc.sums, sc.sq  # sums, sq: paired differences to the base's choice
    for a in range(n_act):
        sums[a] = 0.0
        sq[a] = 0.0
    n = 0
    for i in range(worlds):
        seed_rng_nb(wrng, dseed, i, 0, STREAM_WORLD)
        code = _world_nb(
            obs,
            know,
            params,
            wrng,
            world,
            pool,
            unseen,
            suit_next,
            infer,
            ids,
            knobs,
            tries,
            mobs,
            buf,
            wstats,
        )
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
                play_out_hidden_nb(
                    state, params, ids, knobs, rng, sobs, buf, hidden0, status, None, None, None
                )
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
            # the spread floored at one point: when every world gave the same difference (few
            # worlds, a forced ending) the standard error is not zero, or any guard would pass
            best_se = np.sqrt(max(var, 1.0) / n)
    if best != ref and best_mean > guard * best_se:
        stats[ST_DEVIATED] += 1
        return actions[best]
    return base_action

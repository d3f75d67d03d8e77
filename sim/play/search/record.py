"""Rollout values of every legal action at sampled decisions of self-play: training data for a
fast player that imitates search (expert iteration).

`record_chunk` plays hands of a table of compiled strategies through the self-play loop
(`sim.play.selfplay.loop.play_chunk_nb`) with a `RecordAgent`: at a sampled decision of a
recording seat, it samples ``worlds`` worlds from that seat's observation and knowledge
(model-consistent worlds, as `pimc` samples them: sim.play.worlds.sampler), plays every legal
action in every world and then the rest of the hand with the table's strategies (common random
numbers: every action sees the same worlds and streams), and records the seat's observation, the
legal actions, the strategy's own choice and, per action, the mean and standard error of the
paired difference of (our hand score - the best opposing one) to the strategy's choice. The seat
then plays its strategy's choice (``explore`` = 0: the data come from the states the strategy
itself reaches, DAgger's on-policy states) or, with ``explore`` = g > 0, the best action when
its gain exceeds g standard errors (the states of the improved player).

Nothing here reads a hidden card: the rollouts start from worlds sampled from the observation
and knowledge; the decision's random streams are keyed by the hand key and the public decision
counter (`sim.play.search.pimc.decision_key_nb`), so the records depend on the hand keys only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numba import njit, types
from numba.extending import overload

from sim.core.apply import apply_action_nb
from sim.core.enums import MAX_SEATS, MAX_TEAMS, OBS_SIZE, Off
from sim.core.legal import legal_actions_nb
from sim.core.rng import STREAM_PLAYERS, seed_rng_nb
from sim.core.rules import RuleSet
from sim.play.rollouts.actions import hand_result_nb, play_out_hidden_nb
from sim.play.search.pimc import Scratch, base_players_nb, decision_key_nb, new_scratch
from sim.play.selfplay.agent import agent_after, agent_before, agent_decide, agent_hand_start
from sim.play.selfplay.loop import play_chunk_nb
from sim.play.worlds.sampler import (
    STREAM_WORLD,
    Know,
    know_after_nb,
    know_init_nb,
    know_update_nb,
    mask_pile_nb,
    sample_consistent_nb,
)
from strategies.registry import decide_nb

__all__ = ["MAX_ACTIONS", "Records", "RecordAgent", "record_chunk"]

MAX_ACTIONS = 96  # decisions with more legal actions are not recorded (rare)


class RecordAgent(NamedTuple):
    """The recorder's context for `play_chunk_nb` (its ``agent``)."""

    cfg: np.ndarray  # float64[4]: worlds, tries, record rate (0..1), explore (0: play the base)
    seats: np.ndarray  # int64[MAX_SEATS]  1: the table seat records
    cur: np.ndarray  # int64[MAX_SEATS]  ... per seat of the current hand
    know: np.ndarray  # int32[MAX_SEATS, Know.SIZE]
    n: np.ndarray  # int64[1]  decisions recorded
    obs: np.ndarray  # int16[cap, OBS_SIZE]  the observation (public part + own hand)
    actions: np.ndarray  # int16[cap, MAX_ACTIONS]  legal actions (-1 past n_act)
    n_act: np.ndarray  # int16[cap]
    base: np.ndarray  # int16[cap]  index of the strategy's own choice
    mean: np.ndarray  # float32[cap, MAX_ACTIONS]  mean paired gain over the base's choice
    se: np.ndarray  # float32[cap, MAX_ACTIONS]  its standard error
    key: np.ndarray  # int64[cap, 3]  game, hand, decision counter
    sc: Scratch


@njit(cache=True, _nrt=False)
def _hand_start_nb(agent, state, seat_table) -> None:
    for s in range(MAX_SEATS):
        agent.cur[s] = 0
    for s in range(state[Off.N_SEATS]):
        agent.cur[s] = agent.seats[seat_table[s]]
        if agent.cur[s] != 0:
            know_init_nb(agent.know[s], s, 0)


@njit(cache=True, _nrt=False)
def _rollouts_nb(agent, obs, know, params, n_act, ref, dseed) -> None:
    """Mean and standard error of each action's paired gain over action ``ref``, into row
    agent.n[0] (the actions are in agent.sc.actions)."""
    sc = agent.sc
    worlds = int(agent.cfg[0])
    tries = int(agent.cfg[1])
    viewer = know[Know.VIEWER]
    team = obs[Off.TEAM_OF_SEAT + viewer]
    hidden0 = know[Know.PILE_HIDDEN]
    for a in range(n_act):
        sc.sums[a] = 0.0
        sc.sq[a] = 0.0
    n = 0
    for i in range(worlds):
        seed_rng_nb(sc.wrng, dseed, i, 0, STREAM_WORLD)
        code = sample_consistent_nb(
            obs,
            know,
            params,
            sc.wrng,
            sc.world,
            sc.pool,
            sc.unseen,
            sc.suit_next,
            sc.ids,
            sc.knobs,
            tries,
            sc.mobs,
            sc.buf,
            sc.wstats,
        )
        if code != 0:
            continue
        bad = False
        for a in range(n_act):
            for x in range(Off.STATE_SIZE):
                sc.state[x] = sc.world[x]
            for s in range(sc.state[Off.N_SEATS]):
                seed_rng_nb(sc.rng[s], dseed, i, 0, STREAM_PLAYERS + 1 + s)
            apply_action_nb(sc.state, params, sc.actions[a])
            sc.status[0] = 0
            play_out_hidden_nb(
                sc.state,
                params,
                sc.ids,
                sc.knobs,
                sc.rng,
                sc.sobs,
                sc.buf,
                hidden0,
                sc.status,
                None,
                None,
                None,
            )
            if sc.status[0] != 0:
                bad = True
                break
            us, them, _ = hand_result_nb(sc.state, params, team, sc.score)
            sc.vals[a] = us - them
        if bad:
            continue
        n += 1
        for a in range(n_act):
            d = sc.vals[a] - sc.vals[ref]
            sc.sums[a] += d
            sc.sq[a] += d * d
    r = agent.n[0]
    for a in range(n_act):
        m = sc.sums[a] / n if n > 0 else 0.0
        var = (sc.sq[a] - n * m * m) / (n - 1) if n > 1 else 0.0
        agent.mean[r, a] = m
        agent.se[r, a] = np.sqrt(max(var, 0.0) / n) if n > 0 else 0.0


@njit(cache=True, _nrt=False)
def _decide_nb(agent, state, obs, params, seat, strat_ids, knobs, rng, buf, seed, game, hand):
    if agent.cur[seat] == 0:
        return decide_nb(strat_ids[seat], obs, params, knobs[seat], rng[seat], buf)
    know = agent.know[seat]
    mask_pile_nb(state, know[Know.PILE_HIDDEN] if state[Off.PILE_LEN] > 0 else 0, obs)
    base = decide_nb(strat_ids[seat], obs, params, knobs[seat], rng[seat], buf)
    r = agent.n[0]
    if r >= agent.obs.shape[0]:
        return base
    dseed = decision_key_nb(seed, game, hand, obs)
    if (dseed % 1000003) >= agent.cfg[2] * 1000003:
        return base
    sc = agent.sc
    n_act = legal_actions_nb(obs, Off.HANDS, params, sc.buf)
    if n_act <= 1 or n_act > agent.actions.shape[1]:
        return base
    ref = -1
    for a in range(n_act):
        sc.actions[a] = sc.buf[a]
        if sc.buf[a] == base:
            ref = a
    if ref < 0:
        return base
    base_players_nb(sc, strat_ids[seat], knobs[seat], strat_ids, knobs, seat, True)
    _rollouts_nb(agent, obs, know, params, n_act, ref, dseed)
    for x in range(agent.obs.shape[1]):
        agent.obs[r, x] = obs[x]
    for a in range(agent.actions.shape[1]):
        agent.actions[r, a] = sc.actions[a] if a < n_act else -1
    agent.n_act[r] = n_act
    agent.base[r] = ref
    agent.key[r, 0] = game
    agent.key[r, 1] = hand
    agent.key[r, 2] = obs[Off.DECISIONS]
    agent.n[0] = r + 1
    g = agent.cfg[3]
    if g <= 0:
        return base
    best = ref
    best_m = 0.0
    for a in range(n_act):
        if agent.mean[r, a] > best_m and agent.mean[r, a] > g * agent.se[r, a]:
            best = a
            best_m = agent.mean[r, a]
    return sc.actions[best]


@njit(cache=True, _nrt=False)
def _before_nb(agent, state, params, action) -> None:
    for s in range(state[Off.N_SEATS]):
        if agent.cur[s] != 0:
            know_update_nb(agent.know[s], state, params, action)


@njit(cache=True, _nrt=False)
def _after_nb(agent, state) -> None:
    for s in range(state[Off.N_SEATS]):
        if agent.cur[s] != 0:
            know_after_nb(agent.know[s], state)


def _is_rec(agent) -> bool:
    return isinstance(agent, types.NamedTuple) and agent.instance_class is RecordAgent


@overload(agent_hand_start)
def _ov_hand_start(agent, state, seat_table):
    if _is_rec(agent):
        return lambda agent, state, seat_table: _hand_start_nb(agent, state, seat_table)


@overload(agent_decide)
def _ov_decide(agent, state, obs, params, seat, strat_ids, knobs, rng, buf, seed, game, hand):
    if _is_rec(agent):

        def impl(agent, state, obs, params, seat, strat_ids, knobs, rng, buf, seed, game, hand):
            return _decide_nb(
                agent, state, obs, params, seat, strat_ids, knobs, rng, buf, seed, game, hand
            )

        return impl


@overload(agent_before)
def _ov_before(agent, state, params, action):
    if _is_rec(agent):
        return lambda agent, state, params, action: _before_nb(agent, state, params, action)


@overload(agent_after)
def _ov_after(agent, state):
    if _is_rec(agent):
        return lambda agent, state: _after_nb(agent, state)


@dataclass
class Records:
    """Recorded decisions (row i of every array is one decision)."""

    table: str  # RuleSet.label
    obs: np.ndarray  # int16[n, OBS_SIZE]
    actions: np.ndarray  # int16[n, MAX_ACTIONS]
    n_act: np.ndarray  # int16[n]
    base: np.ndarray  # int16[n]
    mean: np.ndarray  # float32[n, MAX_ACTIONS]
    se: np.ndarray  # float32[n, MAX_ACTIONS]
    key: np.ndarray  # int64[n, 3]


def record_chunk(
    rules: RuleSet,
    strategies: tuple[str, ...] | list[str],
    seed: int,
    start: int,
    count: int,
    *,
    worlds: int = 16,
    tries: int = 64,
    rate: float = 0.1,
    explore: float = 0.0,
    seats: tuple[int, ...] = (0,),
    cap: int = 10000,
) -> Records:
    """Play hands keyed (seed, start + i, 0) with ``strategies`` (one per table seat, compiled
    strategies only) and record a ``rate`` share of the decisions of the table ``seats`` (at
    most ``cap``): see the module docstring."""
    from sim.core.enums import DEC_GROUPS, game_record_dt, hand_record_dt
    from sim.play.selfplay.status import Slot, Status
    from strategies.registry import MAX_KNOBS, parse_spec

    reason = rules.engine_supported()
    if reason:
        raise ValueError(reason)
    if len(strategies) != rules.players:
        raise ValueError(f"{len(strategies)} strategies for {rules.players} seats: one per seat")
    if not (worlds >= 2 and tries >= 0 and 0.0 <= rate <= 1.0 and cap >= 1 and count >= 0):
        raise ValueError("record_chunk: worlds >= 2, tries >= 0, 0 <= rate <= 1, cap >= 1")
    n_rot = 3 if rules.players == 5 else 1
    params_rot = np.stack([rules.to_params(h) for h in range(n_rot)]).astype(np.int32)
    seat_tables = np.full((n_rot, MAX_SEATS), -1, np.int64)
    for h in range(n_rot):
        active = rules.active_seats(h)
        seat_tables[h, : len(active)] = active
    ids = np.zeros(MAX_SEATS, np.int64)
    knobs = np.zeros((MAX_SEATS, MAX_KNOBS), np.float64)
    for s, spec in enumerate(strategies):
        ids[s], knobs[s] = parse_spec(spec, rules.label)
    seat_mask = np.zeros(MAX_SEATS, np.int64)
    for s in seats:
        seat_mask[s] = 1
    agent = RecordAgent(
        np.array([worlds, tries, rate, explore], np.float64),
        seat_mask,
        np.zeros(MAX_SEATS, np.int64),
        np.zeros((MAX_SEATS, Know.SIZE), np.int32),
        np.zeros(1, np.int64),
        np.zeros((cap, OBS_SIZE), np.int16),
        np.full((cap, MAX_ACTIONS), -1, np.int16),
        np.zeros(cap, np.int16),
        np.zeros(cap, np.int16),
        np.zeros((cap, MAX_ACTIONS), np.float32),
        np.zeros((cap, MAX_ACTIONS), np.float32),
        np.zeros((cap, 3), np.int64),
        new_scratch(0),
    )
    hand_out = np.zeros(count + 1, hand_record_dt)
    game_out = np.zeros(count + 1, game_record_dt)
    d = tuple(np.empty((len(names), 1), dtype) for names, dtype in DEC_GROUPS)
    status = np.zeros(Slot.SIZE, np.int64)
    play_chunk_nb(
        params_rot,
        seat_tables,
        ids,
        knobs,
        seed,
        start,
        count,
        0,
        None,
        None,
        hand_out,
        game_out,
        d[0],
        d[1],
        d[2],
        d[3],
        0,
        status,
        np.zeros((1, MAX_TEAMS), np.int32),
        False,
        np.empty((1, 1), np.int8),
        False,
        agent,
    )
    if status[Slot.CODE] != Status.OK:
        raise RuntimeError(f"record_chunk: the loop stopped with status {status[: Slot.SIZE]}")
    n = int(agent.n[0])
    return Records(
        rules.label,
        agent.obs[:n].copy(),
        agent.actions[:n].copy(),
        agent.n_act[:n].copy(),
        agent.base[:n].copy(),
        agent.mean[:n].copy(),
        agent.se[:n].copy(),
        agent.key[:n].copy(),
    )

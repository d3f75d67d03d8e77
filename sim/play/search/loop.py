"""Search players at a table: their context for the self-play loop of `sim.play.selfplay.loop`.

Every table plays through `sim.play.selfplay.loop.play_chunk_nb` (same deals, keys, records,
decision logs, card-detail logs, luck terms and start scores).  A table with search players passes a
`SearchAgent` as the loop's ``agent``; this module implements the loop's four agent hooks
(`sim.play.selfplay.agent`) for it:

- at each hand's start, each searching seat gets its row of the search configuration (``cfg``,
  float64[MAX_SEATS, CFG_SIZE], layout `Cfg`, by table seat in ``table_cfg``) and a fresh
  knowledge array (`sim.play.worlds.sampler.know_init_nb`);
- at a searching seat's decision, the search decides from that seat's observation and knowledge
  only (`search_decide_nb`); every other seat plays its compiled strategy, as at a plain table;
- before and after each action, every searching seat's knowledge follows it
  (`sim.play.worlds.sampler.know_update_nb`, `know_after_nb`).

A searching seat's strategy id and knobs in the loop's ``table_strats`` / ``table_knobs`` are its
base strategy's.  The search's random streams are keyed by the hand key and the public decision
counter (`sim.play.search.pimc.decision_key_nb`), so a hand's result depends only on its key,
whatever the number of workers or the chunk size.  The search kernels work in the agent's
scratch arrays (`sim.play.search.pimc.Scratch`), allocated once per chunk.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, types
from numba.extending import overload

from sim.core.enums import MAX_SEATS, Off
from sim.play.search.ismcts import ismcts_decide_nb
from sim.play.search.pimc import (
    Scratch,
    base_players_nb,
    decision_key_nb,
    new_scratch,
    pimc_decide_nb,
    searched_nb,
)
from sim.play.selfplay.agent import agent_after, agent_before, agent_decide, agent_hand_start
from sim.play.worlds.sampler import Know, know_after_nb, know_init_nb, know_update_nb, mask_pile_nb
from strategies.registry import decide_nb

__all__ = [
    "Cfg",
    "CFG_SIZE",
    "NONE",
    "PIMC",
    "ISMCTS",
    "SearchAgent",
    "new_agent",
    "search_decide_nb",
]

NONE = 0
PIMC = 1
ISMCTS = 2


class CfgT(NamedTuple):
    """Columns of a seat's search configuration (float64)."""

    KIND: int = 0  # NONE, PIMC, ISMCTS
    BUDGET: int = 1  # pimc: worlds; ismcts: iterations
    ROLLOUTS: int = 2  # pimc: rollouts per world and action
    MASK: int = 3  # searched decision classes (sim.play.search.pimc.searched_nb)
    GUARD: int = 4  # deviation guard in standard errors (pimc)
    TRIES: int = 5  # model-consistent worlds: redraws per seat (0: uniform worlds)
    EXPLORE: int = 6  # ismcts: UCB exploration constant (points)
    MODEL: int = 7  # 1: the other seats are modelled by the strategies seated there; 0: by the base


Cfg = CfgT()
CFG_SIZE = 8


class SearchAgent(NamedTuple):
    """The search players' context for `sim.play.selfplay.loop.play_chunk_nb` (its ``agent``)."""

    table_cfg: np.ndarray  # float64[MAX_SEATS, CFG_SIZE]  search configuration per table seat
    cfg: np.ndarray  # float64[MAX_SEATS, CFG_SIZE]  ... per seat of the current hand
    know: np.ndarray  # int32[MAX_SEATS, Know.SIZE]  each searching seat's knowledge
    stats: np.ndarray  # int64[8]  search counters (sim.play.search.pimc ST_*), added to
    sc: Scratch  # the search kernels' working arrays


def new_agent(table_cfg: np.ndarray) -> SearchAgent:
    """A fresh context for one chunk: ``table_cfg`` float64[MAX_SEATS, CFG_SIZE] by table seat."""
    table_cfg = np.ascontiguousarray(table_cfg, np.float64)
    ismcts = table_cfg[:, Cfg.KIND] == ISMCTS
    iters = int(table_cfg[ismcts, Cfg.BUDGET].max()) if ismcts.any() else 0
    return SearchAgent(
        table_cfg,
        np.zeros_like(table_cfg),
        np.zeros((MAX_SEATS, Know.SIZE), np.int32),
        np.zeros(8, np.int64),
        new_scratch(iters),
    )


@njit(cache=True, _nrt=False)
def search_decide_nb(
    cfg: np.ndarray,
    obs: np.ndarray,
    know: np.ndarray,
    params: np.ndarray,
    base_id: int,
    base_knobs: np.ndarray,
    table_ids: np.ndarray,
    table_knobs: np.ndarray,
    rng: np.ndarray,
    seed: int,
    game: int,
    hand: int,
    stats: np.ndarray,
    sc: Scratch,
) -> int:
    """The action of a searching seat (its row ``cfg``) from its observation ``obs`` and knowledge
    ``know`` only; ``rng`` is the seat's stream (the base strategy's own draws); ``sc`` the
    working arrays (`sim.play.search.pimc.new_scratch`, with the seat's ismcts iterations).
    ``table_ids`` int64[MAX_SEATS], ``table_knobs`` float64[MAX_SEATS, n_knobs]: the strategy
    seated at each seat of the hand (a searching seat's base), the model of the other seats when
    ``cfg[Cfg.MODEL]`` is 1 (who sits where is public; their cards are not)."""
    base_action = decide_nb(base_id, obs, params, base_knobs, rng, sc.buf)
    dseed = decision_key_nb(seed, game, hand, obs)
    tries = int(cfg[Cfg.TRIES])
    if searched_nb(obs, base_action, int(cfg[Cfg.MASK])):  # the players of its rollouts and worlds
        base_players_nb(
            sc, base_id, base_knobs, table_ids, table_knobs, obs[Off.SEAT], cfg[Cfg.MODEL] != 0
        )
    if cfg[Cfg.KIND] == PIMC:
        return pimc_decide_nb(
            obs,
            know,
            params,
            base_id,
            base_knobs,
            base_action,
            int(cfg[Cfg.BUDGET]),
            int(cfg[Cfg.ROLLOUTS]),
            int(cfg[Cfg.MASK]),
            cfg[Cfg.GUARD],
            tries,
            tries > 0,
            dseed,
            stats,
            sc,
        )
    return ismcts_decide_nb(
        obs,
        know,
        params,
        base_id,
        base_knobs,
        base_action,
        int(cfg[Cfg.BUDGET]),
        int(cfg[Cfg.MASK]),
        cfg[Cfg.EXPLORE],
        tries,
        tries > 0,
        dseed,
        stats,
        sc,
    )


# ------------------------------------------------------------------ the loop's hooks
# (sim.play.selfplay.loop)


def _is_agent(agent) -> bool:
    return isinstance(agent, types.NamedTuple) and agent.instance_class is SearchAgent


@njit(cache=True, _nrt=False)
def _hand_start_nb(agent: SearchAgent, state: np.ndarray, seat_table: np.ndarray) -> None:
    for s in range(MAX_SEATS):
        for j in range(CFG_SIZE):
            agent.cfg[s, j] = 0.0
    for s in range(state[Off.N_SEATS]):
        for j in range(CFG_SIZE):
            agent.cfg[s, j] = agent.table_cfg[seat_table[s], j]
        if agent.cfg[s, Cfg.KIND] != NONE:
            know_init_nb(agent.know[s], s, 0)


@njit(cache=True, _nrt=False)
def _decide_nb(
    agent, state, obs, params, seat, strat_ids, knobs, rng, buf, seed, game, hand
) -> int:
    """``obs`` = `build_obs_nb` of ``seat``: a searching seat's also leaves out the pile cards it
    has not seen (together `sim.play.worlds.sampler.observe_nb`)."""
    if agent.cfg[seat, Cfg.KIND] == NONE:
        return decide_nb(strat_ids[seat], obs, params, knobs[seat], rng[seat], buf)
    know = agent.know[seat]
    mask_pile_nb(state, know[Know.PILE_HIDDEN] if state[Off.PILE_LEN] > 0 else 0, obs)
    return search_decide_nb(
        agent.cfg[seat],
        obs,
        know,
        params,
        strat_ids[seat],
        knobs[seat],
        strat_ids,
        knobs,
        rng[seat],
        seed,
        game,
        hand,
        agent.stats,
        agent.sc,
    )


@njit(cache=True, _nrt=False)
def _before_nb(agent: SearchAgent, state: np.ndarray, params: np.ndarray, action: int) -> None:
    for s in range(state[Off.N_SEATS]):
        if agent.cfg[s, Cfg.KIND] != NONE:
            know_update_nb(agent.know[s], state, params, action)


@njit(cache=True, _nrt=False)
def _after_nb(agent: SearchAgent, state: np.ndarray) -> None:
    for s in range(state[Off.N_SEATS]):
        if agent.cfg[s, Cfg.KIND] != NONE:
            know_after_nb(agent.know[s], state)


@overload(agent_hand_start)
def _ov_hand_start(agent, state, seat_table):
    if _is_agent(agent):
        return lambda agent, state, seat_table: _hand_start_nb(agent, state, seat_table)


@overload(agent_decide)
def _ov_decide(agent, state, obs, params, seat, strat_ids, knobs, rng, buf, seed, game, hand):
    if _is_agent(agent):

        def impl(agent, state, obs, params, seat, strat_ids, knobs, rng, buf, seed, game, hand):
            return _decide_nb(
                agent, state, obs, params, seat, strat_ids, knobs, rng, buf, seed, game, hand
            )

        return impl


@overload(agent_before)
def _ov_before(agent, state, params, action):
    if _is_agent(agent):
        return lambda agent, state, params, action: _before_nb(agent, state, params, action)


@overload(agent_after)
def _ov_after(agent, state):
    if _is_agent(agent):
        return lambda agent, state: _after_nb(agent, state)

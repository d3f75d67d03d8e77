"""`ismcts`: single-observer information-set MCTS (Cowling, Powley and Whitehouse, 2012).

One tree over the searching seat's information sets, keyed by its action history from the decision:
each iteration samples a determinization (a world consistent with the seat's observation and
knowledge, `sim.play.worlds.sampler`, model-consistent with ``tries`` > 0), descends the tree
choosing among the actions legal in THAT determinization by UCB1 with availability counts (a child's
exploration term uses how often it was available, not its parent's visits), expands one untried
action (the base strategy's choice first), plays the rest of the hand with the base strategy at
every seat, and backs up (our hand score - the best opposing one).

The tree covers the seat's own decisions of the current turn (after a draw the cards drawn differ
between determinizations: that is where availability matters); once another seat is to act, the
iteration is a rollout.  The action played is the root's most visited child.  Budget:
``iters`` iterations; ``c``: the exploration constant in points.  Decisions outside the searched
classes (the ``search`` mask, as for pimc) are the base strategy's.  Nothing here reads a hidden
card (the kernel gets the observation and the knowledge array only).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.apply import apply_action_nb
from sim.core.enums import N_KINDS, Off, Phase
from sim.core.legal import legal_actions_nb
from sim.core.rng import STREAM_PLAYERS, randint_nb, seed_rng_nb
from sim.play.rollouts.actions import hand_result_nb
from sim.play.search.pimc import (
    ST_DEVIATED,
    ST_ERRORS,
    ST_ROLLOUTS,
    ST_SEARCHED,
    Scratch,
    searched_nb,
)
from sim.play.selfplay.step import play_out_hidden_nb
from sim.play.worlds.sampler import STREAM_WORLD, Know, sample_consistent_nb, sample_world_nb

__all__ = ["ismcts_decide_nb"]


@njit(cache=True, _nrt=False)
def _new_node_nb(
    child: np.ndarray, visits: np.ndarray, avail: np.ndarray, total: np.ndarray, ch: int
) -> None:
    """Node ``ch`` fresh: no children, no visits (the scratch tree is reused across decisions)."""
    for a in range(child.shape[1]):
        child[ch, a] = -1
    visits[ch] = 0.0
    avail[ch] = 0.0
    total[ch] = 0.0


@njit(cache=True, _nrt=False)
def ismcts_decide_nb(
    obs: np.ndarray,
    know: np.ndarray,
    params: np.ndarray,
    base_id: int,
    base_knobs: np.ndarray,
    base_action: int,
    iters: int,
    mask: int,
    c: float,
    tries: int,
    infer: bool,
    dseed: int,
    stats: np.ndarray,
    sc: Scratch,
) -> int:
    """The ismcts player's action at the viewer's decision (arguments as in
    `sim.play.search.pimc.pimc_decide_nb`; ``iters`` iterations, exploration constant ``c``;
    ``sc`` from `sim.play.search.pimc.new_scratch` with at least ``iters`` iterations)."""
    if not searched_nb(obs, base_action, mask):
        return base_action
    buf = sc.buf
    if legal_actions_nb(obs, Off.HANDS, params, buf) <= 1:
        return base_action
    stats[ST_SEARCHED] += 1
    cap = iters + 2
    child, visits, avail, total, path = sc.child, sc.visits, sc.avail, sc.total, sc.path
    _new_node_nb(child, visits, avail, total, 0)
    n_nodes = 1
    sc.wstats[:] = 0
    sc.status[:] = 0
    world, sobs, mobs, pool, unseen = sc.world, sc.sobs, sc.mobs, sc.pool, sc.unseen
    suit_next, wrng, rng, score = sc.suit_next, sc.wrng, sc.rng, sc.score
    ids, knobs, wstats, status = sc.ids, sc.knobs, sc.wstats, sc.status
    legal, untried = sc.legal, sc.untried
    viewer = know[Know.VIEWER]
    team = obs[Off.TEAM_OF_SEAT + viewer]
    hidden0 = know[Know.PILE_HIDDEN]
    for it in range(iters):
        seed_rng_nb(wrng, dseed, it, 0, STREAM_WORLD)
        if infer:
            code = sample_consistent_nb(
                obs,
                know,
                params,
                wrng,
                world,
                pool,
                unseen,
                suit_next,
                ids,
                knobs,
                tries,
                mobs,
                buf,
                wstats,
            )
        else:
            code = sample_world_nb(obs, know, params, wrng, world, pool, unseen, suit_next)
        if code != 0:
            stats[ST_ERRORS] += 1
            return base_action
        for s in range(world[Off.N_SEATS]):
            seed_rng_nb(rng[s], dseed, it, 0, STREAM_PLAYERS + 1 + s)
        node = 0
        depth = 0
        path[0] = 0
        # selection / expansion while the viewer is to act in this turn
        while world[Off.PHASE] != Phase.OVER and world[Off.SEAT] == viewer:
            n = legal_actions_nb(world, Off.HANDS + viewer * N_KINDS, params, legal)
            nu = 0
            for j in range(n):
                ch = child[node, legal[j]]
                if ch < 0:
                    untried[nu] = legal[j]
                    nu += 1
                else:
                    avail[ch] += 1.0
            if nu > 0 and n_nodes < cap:
                # expand: the base strategy's choice first, else a random untried action
                pick = untried[randint_nb(wrng, nu)]
                if depth == 0:
                    for j in range(nu):
                        if untried[j] == base_action:
                            pick = base_action
                ch = n_nodes
                n_nodes += 1
                _new_node_nb(child, visits, avail, total, ch)
                child[node, pick] = ch
                avail[ch] = 1.0
                apply_action_nb(world, params, pick)
                depth += 1
                path[depth] = ch
                break
            best = -1
            best_u = -1e300
            for j in range(n):
                ch = child[node, legal[j]]
                if ch < 0:
                    continue
                u = total[ch] / visits[ch] + c * np.sqrt(np.log(avail[ch]) / visits[ch])
                if u > best_u:
                    best_u = u
                    best = legal[j]
            if best < 0:
                break
            node = child[node, best]
            apply_action_nb(world, params, best)
            depth += 1
            path[depth] = node
        play_out_hidden_nb(
            world, params, ids, knobs, rng, sobs, buf, hidden0, status, None, None, None
        )
        if status[0] != 0:
            stats[ST_ERRORS] += 1
            return base_action
        stats[ST_ROLLOUTS] += 1
        us, them, _ = hand_result_nb(world, params, team, score)
        v = float(us - them)
        for d in range(depth + 1):
            visits[path[d]] += 1.0
            total[path[d]] += v
    best = base_action  # ties go to the base strategy's choice
    most = visits[child[0, base_action]] if child[0, base_action] >= 0 else -1.0
    n = legal_actions_nb(obs, Off.HANDS, params, legal)
    for j in range(n):
        ch = child[0, legal[j]]
        if ch >= 0 and visits[ch] > most:
            most = visits[ch]
            best = legal[j]
    if best != base_action:
        stats[ST_DEVIATED] += 1
    return best

"""Python-tier play: the same engine driven one decision at a time from Python.

Strategies here are either registered fast-strategy names (called through the compiled
dispatcher) or Python objects with `decide(obs, params, legal, rng) -> action id` (see
strategies/python_tier.py).  Slower than the kernels, identical in rules.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.core.enums import MAX_SEATS, N_ACTIONS, Off
from sim.core.legal import legal_actions_nb
from sim.core.rng import STREAM_PLAYERS, seed_rng_nb
from sim.core.rules import RuleSet
from sim.play.game import GameState
from strategies.registry import decision_kernel, parse_spec


class StrategyIllegalError(RuntimeError):
    pass


def _seat_deciders(rules: RuleSet, strategies: list[Any], hand: int) -> list[Any]:
    table = rules.active_seats(hand)
    return [strategies[t] for t in table]


def play_hand_py(
    rules: RuleSet,
    strategies: list[Any],
    seed: int = 0,
    game: int = 0,
    hand: int = 0,
    cum_scores: list[int] | None = None,
    gs: GameState | None = None,
) -> GameState:
    """Play one hand (keyed like the kernels, so fast strategies decide identically)."""
    gs = gs or GameState.new_hand(rules, seed, game, hand, cum_scores)
    deciders = _seat_deciders(rules, strategies, hand)
    rngs = np.zeros((MAX_SEATS, 2), np.uint64)
    for s in range(gs.n_seats):
        seed_rng_nb(rngs[s], seed, game, hand, STREAM_PLAYERS + 1 + s)
    buf = np.zeros(N_ACTIONS, np.int32)
    specs = {}
    while not gs.is_over:
        seat = gs.seat
        obs = gs.observation(seat)
        d = deciders[seat]
        if isinstance(d, str):
            if d not in specs:  # its own kernel: only the strategies that play get compiled
                sid, knobs = parse_spec(d, rules.label)
                specs[d] = decision_kernel(sid), knobs
            decide, knobs = specs[d]
            action = int(decide(obs, gs.params, knobs, rngs[seat], buf))
            name = d
        else:
            n = legal_actions_nb(obs, Off.HANDS, gs.params, buf)
            action = int(d.decide(obs, gs.params, [int(a) for a in buf[:n]], rngs[seat]))
            name = type(d).__name__
        why = gs.why_illegal(action) if 0 <= action < N_ACTIONS else "unknown action id"
        if why:
            raise StrategyIllegalError(
                f"strategy {name!r} chose illegal action {action} ({gs.text(action)}): {why}; "
                f"replay with key seed={seed} game={game} hand={hand}"
            )
        gs.apply(action)
    return gs

"""One bot decision at the table, from that bot's seat's observation and knowledge only.

Compiled strategies decide from the seat's observation (as in self-play); search players
(pimc, ismcts) search worlds dealt from the seat's knowledge (`sim.play.search.api`).  Every
decision's random stream is keyed by (table seed, hand, decision index, seat), so the same table
replays the same bot moves whatever happened before a restart: resuming needs only the actions.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from sim.core.enums import MAX_SEATS, N_ACTIONS
from sim.core.rng import STREAM_PLAYERS, seed_rng_nb
from sim.play.game import GameState

__all__ = ["bot_action"]


@lru_cache(maxsize=64)
def _fast(spec: str, table: str) -> tuple[int, np.ndarray]:
    from strategies.registry import parse_spec

    return parse_spec(spec, table)


def _model_table(gs: GameState, specs: list[str], base: str) -> tuple[np.ndarray, np.ndarray]:
    """Who sits where (public): the compiled strategy of each bot seat, the base at the others."""
    from sim.play.search.api import model_table
    from sim.play.search.spec import is_search
    from sim.table.settings import HUMAN

    bid, bk = _fast(base, gs.rules.label)
    seated = {}
    for s, t in enumerate(gs.seat_table):
        spec = specs[t]
        if spec != HUMAN and not is_search(spec):
            seated[s] = _fast(spec, gs.rules.label)
    ids, knobs = model_table(bid, bk, seated)
    return ids[:MAX_SEATS], knobs


def bot_action(gs: GameState, specs: list[str], seed: int, hand: int) -> int:
    """The action the bot at the seat to act plays (``specs``: per table seat)."""
    from sim.play.search.spec import is_search, parse_search
    from strategies.registry import decision_kernel

    seat = gs.seat
    spec = specs[gs.seat_table[seat]]
    index = len(gs.history)
    if is_search(spec):
        from sim.play.search.api import search_decide

        table = _model_table(gs, specs, parse_search(spec).base)
        action, _ = search_decide(
            spec, gs.state, gs.knowledge(seat), gs.params, (seed, hand, index), table
        )
        return int(action)
    sid, knobs = _fast(spec, gs.rules.label)
    rng = np.zeros(2, np.uint64)
    seed_rng_nb(rng, seed, hand, index, STREAM_PLAYERS + 1 + seat)
    buf = np.zeros(N_ACTIONS, np.int32)
    return int(decision_kernel(sid)(gs.observation(seat), gs.params, knobs, rng, buf))

"""Python face of the search players: one decision from a full state and the seat's knowledge."""

from __future__ import annotations

import numpy as np

from sim.core.enums import MAX_SEATS, Off, Par
from sim.core.rng import STREAM_PLAYERS, seed_rng_nb
from sim.play.search.loop import ISMCTS, Cfg, search_decide_nb
from sim.play.search.pimc import new_scratch
from sim.play.search.spec import base_arrays, parse_search
from sim.play.worlds.sampler import Know, observe_nb

__all__ = ["search_decide", "model_table"]


def model_table(
    base_id: int, base_knobs: np.ndarray, seated: dict[int, tuple[int, np.ndarray]] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The ``table`` of `search_decide`: the base strategy at every seat but those of ``seated``
    (seat -> (strategy id, knob vector))."""
    ids = np.full(MAX_SEATS, base_id, np.int64)
    knobs = np.tile(np.asarray(base_knobs, np.float64), (MAX_SEATS, 1))
    for seat, (sid, kn) in (seated or {}).items():
        ids[seat], knobs[seat] = sid, kn
    return ids, knobs


def search_decide(
    spec: str,
    state: np.ndarray,
    know: np.ndarray,
    params: np.ndarray,
    key: tuple[int, int, int] = (0, 0, 0),
    table: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[int, np.ndarray]:
    """The action the search player ``spec`` (e.g. ``"pimc:worlds=16"``) plays for the seat to
    act in ``state`` (int32[STATE_SIZE]; only that seat's observation of it is used) with that
    seat's knowledge ``know`` (int32[Know.SIZE], `sim.play.game.GameState.knowledge`), under
    the hand key ``key`` = (seed, game, hand), as the search loop would.  Returns (action, the
    search counters int64[8], sim.play.search.pimc ST_*).  ``table`` = (ids int64[MAX_SEATS],
    knobs float64[MAX_SEATS, MAX_KNOBS]): the strategy seated at each seat, the model of the other
    seats under ``model=table``; None = the base strategy at every seat."""
    sp = parse_search(spec)
    seat = int(state[Off.SEAT])
    if int(know[Know.VIEWER]) != seat:
        raise ValueError(
            f"the knowledge array is seat {int(know[Know.VIEWER])}'s, but seat {seat} is to act"
        )
    base_id, base_knobs = base_arrays(sp)
    samba = bool(params[Par.SEQUENCES] != 0 or params[Par.MULTI_MELDS] != 0)
    obs = np.zeros(Off.STATE_SIZE, np.int32)
    hidden = int(know[Know.PILE_HIDDEN]) if state[Off.PILE_LEN] > 0 else 0
    observe_nb(state, seat, hidden, obs, samba)
    seed, game, hand = (int(x) for x in key)
    rng = np.zeros((MAX_SEATS, 2), np.uint64)
    seed_rng_nb(rng[seat], seed, game, hand, STREAM_PLAYERS + 1 + seat)
    stats = np.zeros(8, np.int64)
    cfg = sp.cfg()
    sc = new_scratch(int(cfg[Cfg.BUDGET]) if cfg[Cfg.KIND] == ISMCTS else 0, base_knobs.shape[0])
    table_ids, table_knobs = (
        model_table(base_id, base_knobs)
        if table is None
        else (np.ascontiguousarray(table[0], np.int64), np.ascontiguousarray(table[1], np.float64))
    )
    action = search_decide_nb(
        cfg,
        obs,
        know,
        params,
        base_id,
        base_knobs,
        table_ids,
        table_knobs,
        rng[seat],
        seed,
        game,
        hand,
        stats,
        sc,
    )
    return int(action), stats

"""Worlds a seat cannot tell apart: deal the cards it has not seen over the places it cannot see.

A search player, a rollout from a position and `canasta analyze` all need the same thing: from
what ONE seat knows, full engine states ("worlds") that agree with everything it knows and are
otherwise random.  This module is that sampler, plus the bookkeeping of what a seat knows beyond
its observation.

What a seat knows
-----------------
1. Its observation ``obs`` (int32[STATE_SIZE], built by `observe_nb`): the public part of the
   state and its own hand at ``Off.HANDS`` — exactly what strategies get (`build_obs_nb`), except
   that pile cards nobody has seen (``hidden`` of them at the bottom of the pile: only positions
   typed by a person have any) are left out of ``PILE_COUNTS`` and ``PILE_FREEZE`` (which is then
   the number of KNOWN freezing cards, at least 1 when the pile is frozen).
2. A knowledge array ``know`` (int32[Know.SIZE], layout `Know`; `new_know` / `know_init_nb` at the
   deal), kept up to date by `know_update_nb` before each action is applied and `know_after_nb`
   after it, from public information only (`sim.play.game.GameState` does this for every seat):

   - ``PILE_HIDDEN``: cards at the bottom of the pile whose kinds nobody knows (0 in a real game);
   - ``KNOWN[s, kind]``: cards every player knows to be in seat s's hand: the pile cards it took
     (the known ones), less those it has melded or discarded since (per kind, never below 0);
   - ``ASIDE[kind]``: the viewer's own pile cards held aside while its initial meld is pending
     (the observation does not list them);
   - ``SNAP_VALID[s]`` / ``SNAP[s, :PUB_SIZE]``: the public part (as masked for the viewer) at
     seat s's last discard decision, while s has not acted since: what a model strategy holding
     s's hand would have seen when it chose that discard (``LAST_DISCARD[s]`` in the observation);
   - the same for the draw or take that began that turn, with the cards that left and joined
     s's hand since (sim.play.worlds.knowledge).

Worlds
------
`sample_world_nb` writes one world into ``out`` (int32[STATE_SIZE]): the observation's public
fields, the viewer's hand, every other seat's known cards, the known pile cards (top card last)
and the viewer's aside cards, and then the unseen cards — the packs minus everything above, minus
melds and laid red threes — dealt uniformly at random over the hidden places:

- every unseen red three goes to the stock (a red three is laid as soon as it is drawn or dealt,
  so it is never in a hand, and the hidden part of a typed pile is assumed to hold none);
- the hidden pile cards: natural cards and black threes when the pile is not frozen; any
  non-red-three card when a known card freezes it; when it is frozen by hidden cards only, at
  least one wild card among them (rejection sampling, 256 tries, then one unseen wild card is
  forced into the bottom slot: not uniform, and only reachable when wild cards are very scarce);
- every other seat gets ``HAND_SIZE[s] - sum(KNOWN[s])`` cards, the stock the rest, in a uniformly
  random order (red threes included).

Inputs are the observation and ``know`` alone: two true states that agree on them give
bit-identical worlds for the same random stream.  Natural cards get suits in a fixed rotation,
except under Samba rules (sequences), where suits matter: there the viewer's own cards keep their
suits, and every other natural card gets a uniformly random suit among the copies the viewer has
not seen (the packs less its hand, the sequences and the pile's top card).  Private fields the
observation does not carry are reset (``PILE_TAKES`` = 0).

`sample_worlds_nb` fills a batch: world j of a call with ``start`` uses the stream keyed
(seed, start + j, 0, STREAM_WORLD), so world i depends only on (seed, i) and the inputs.

`sample_consistent_nb` (sim.play.worlds.infer) also asks a model strategy: for each other seat
whose last turn it saw, that seat's hidden cards are redrawn (up to ``tries`` times) until the
model, holding them, would have made that turn's discard and its draw (declining the pile) or
take, each at the snapshot of that decision.

Modules: knowledge (sim.play.worlds.knowledge), uniform dealing (sim.play.worlds.deal),
model-consistent dealing (sim.play.worlds.infer); this module gathers them and deals batches.

Error codes (returned, never raised, by the kernels): `OK` 0, `COUNTS` (the observation and the
knowledge account for more cards of a kind than the packs hold, or the unseen cards do not fill
the hidden places), `PILE` (the hidden pile cannot be filled under its constraints).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.enums import MAX_CARDS, N_ACTIONS, N_KINDS, Off
from sim.core.rng import seed_rng_nb
from sim.play.selfplay.step import mask_pile_nb, observe_nb
from sim.play.worlds.deal import (
    COUNTS,
    ERROR_TEXT,
    OK,
    PILE,
    STREAM_WORLD,
    WILD_TRIES,
    sample_world_nb,
    unseen_nb,
)
from sim.play.worlds.infer import model_agrees_nb, one_model_nb, sample_consistent_nb
from sim.play.worlds.knowledge import (
    Know,
    know_after_nb,
    know_init_nb,
    know_update_nb,
    new_know,
)

__all__ = [
    "Know",
    "OK",
    "COUNTS",
    "PILE",
    "ERROR_TEXT",
    "WILD_TRIES",
    "know_init_nb",
    "know_update_nb",
    "mask_pile_nb",
    "observe_nb",
    "unseen_nb",
    "sample_world_nb",
    "sample_consistent_nb",
    "one_model_nb",
    "sample_worlds_nb",
    "model_agrees_nb",
    "know_after_nb",
    "new_know",
    "STREAM_WORLD",
]


@njit(cache=True)
def sample_worlds_nb(
    obs: np.ndarray,
    know: np.ndarray,
    params: np.ndarray,
    seed: int,
    start: int,
    out: np.ndarray,
    model_id: int,
    model_knobs: np.ndarray,
    tries: int,
    stats: np.ndarray,
) -> int:
    """Worlds start .. start+n-1 into out[0:n] (int32[n, STATE_SIZE]); world i uses the stream
    keyed (seed, i, 0, STREAM_WORLD), so it depends only on (seed, i) and the inputs. ``model_id`` <
    0: uniform worlds (`sample_world_nb`), else model-consistent ones (`sample_consistent_nb` with
    ``tries``; stats int64[2] as there).  Returns OK or an error code."""
    rng = np.zeros(2, np.uint64)
    pool = np.zeros(MAX_CARDS, np.int32)
    unseen = np.zeros(N_KINDS, np.int64)
    suit_next = np.zeros(N_KINDS, np.int64)
    mobs = np.zeros(Off.STATE_SIZE, np.int32)
    model_ids, model_kn = one_model_nb(model_id, model_knobs)
    buf = np.zeros(N_ACTIONS, np.int32)
    for j in range(out.shape[0]):
        seed_rng_nb(rng, seed, start + j, 0, STREAM_WORLD)
        if model_id < 0:
            code = sample_world_nb(obs, know, params, rng, out[j], pool, unseen, suit_next)
        else:
            code = sample_consistent_nb(
                obs,
                know,
                params,
                rng,
                out[j],
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
            return code
    return OK

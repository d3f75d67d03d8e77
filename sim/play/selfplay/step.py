"""One play-out step: what a seat sees, its strategy's choice, and the action applied.

Every loop that plays hands out is built from these: the self-play loop (`sim.play.selfplay.loop`),
rollouts from a position and of candidate actions (`sim.play.rollouts`), the search players'
rollouts (`sim.play.search`), the Python loop of OpenSpiel tables and the benchmark recorders.

- `observe_nb` builds a seat's observation: the public part and its own hand (`build_obs_nb`),
  less the ``hidden`` bottom pile cards nobody has seen (`mask_pile_nb`).
- `decide_step_nb` asks the seat to move for its action from that observation.
- `apply_step_nb` verifies the action (unless the caller knows it legal) and applies it; an
  illegal one is written into the status array's `Illegal` slots and nothing changes.
- `play_out_hidden_nb` plays a state to the end of the hand with these steps (the rollouts').

The small ones are inlined into their callers (``inline="always"``), so a loop built from them
compiles to the same code as one written out.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.apply import do_action_nb
from sim.core.enums import N_KINDS, N_SUITED, Kind, Off, Par, Phase
from sim.core.legal import why_illegal_nb
from sim.play.selfplay.checks import check_state_nb, flag_invariant_nb
from sim.play.selfplay.status import Illegal, Status
from strategies.registry import decide_nb

__all__ = [
    "build_obs_nb",
    "mask_pile_nb",
    "observe_nb",
    "decide_step_nb",
    "apply_step_nb",
    "play_out_hidden_nb",
]


@njit(cache=True, _nrt=False, inline="always")  # once per decision: no call (~5% of a greedy hand)
def build_obs_nb(state: np.ndarray, seat: int, obs: np.ndarray, samba: bool = True) -> None:
    """The acting seat's view: the public part and its own hand, nothing else.  Without Samba
    rules (samba=False) the Samba-only fields and the suits, which stay zero, are not copied.
    (Plain loops: numba's slice assignment is several times slower than this.)"""
    # constant trip counts: the copies compile to straight vector moves (with a trip count
    # known only at run time, the copy of the classic part cost about twice as much)
    if samba:
        for i in range(Off.PUB_SIZE):
            obs[i] = state[i]
    else:
        for i in range(Off.PUB_CLASSIC):
            obs[i] = state[i]
    h = Off.HANDS + seat * N_KINDS
    for k in range(N_KINDS):
        obs[Off.HANDS + k] = state[h + k]
    if samba:
        h = Off.HAND_SUITS + seat * N_SUITED
        for k in range(N_SUITED):
            obs[Off.HAND_SUITS + k] = state[h + k]


@njit(cache=True, _nrt=False)
def mask_pile_nb(state: np.ndarray, hidden: int, obs: np.ndarray) -> None:
    """Remove the ``hidden`` bottom pile cards of ``state`` from ``obs``'s PILE_COUNTS and
    PILE_FREEZE (which becomes the known freezing cards, at least 1 if the pile is frozen)."""
    if hidden <= 0:
        return
    frozen = state[Off.PILE_FREEZE] > 0
    known_freeze = 0
    for j in range(hidden):
        obs[Off.PILE_COUNTS + (state[Off.PILE + j] & 15)] -= 1
    known_freeze = (
        obs[Off.PILE_COUNTS + Kind.TWO]
        + obs[Off.PILE_COUNTS + Kind.JOKER]
        + obs[Off.PILE_COUNTS + Kind.RED3]
    )
    if not frozen:
        obs[Off.PILE_FREEZE] = 0
    else:
        obs[Off.PILE_FREEZE] = known_freeze if known_freeze > 0 else 1


@njit(cache=True, _nrt=False)
def observe_nb(state: np.ndarray, seat: int, hidden: int, obs: np.ndarray, samba: bool) -> None:
    """``seat``'s observation of ``state`` with the ``hidden`` bottom pile cards left out
    (`build_obs_nb`, then `mask_pile_nb`)."""
    build_obs_nb(state, seat, obs, samba)
    mask_pile_nb(state, np.int64(hidden), obs)


@njit(cache=True, _nrt=False, inline="always")
def decide_step_nb(state, params, strat_ids, knobs, rng, obs, buf, hidden, samba) -> int:
    """The action of the seat to move: its strategy ``strat_ids[seat]`` (knobs ``knobs[seat]``,
    stream ``rng[seat]``) decides from its observation without the ``hidden`` bottom pile
    cards."""
    seat = state[Off.SEAT]
    observe_nb(state, seat, hidden, obs, samba)
    return decide_nb(strat_ids[seat], obs, params, knobs[seat], rng[seat], buf)


@njit(cache=True, _nrt=False, inline="always")
def apply_step_nb(
    state: np.ndarray,
    params: np.ndarray,
    action: int,
    verify: bool,
    strategy: int,
    status: np.ndarray,
) -> int:
    """Apply ``action`` for the seat to move; returns 0, or the `Why` code of an illegal action.

    ``verify``: check the action first (`why_illegal_nb`); False only when the decision function
    already found it legal on the seat's observation (`strategies.registry.CHOOSES_LEGAL`).  An
    illegal action changes nothing and sets the `Illegal` slots CODE, SEAT, ACTION, WHY and
    STRATEGY (``strategy``: the strategy id, -1 for a candidate action of an analysis); the
    caller adds where it happened (GAME and HAND, or `Slot.ROLLOUT`)."""
    why = (
        why_illegal_nb(state, Off.HANDS + state[Off.SEAT] * N_KINDS, params, action)
        if verify
        else np.int64(0)
    )
    if why == 0:
        do_action_nb(state, params, action)
    else:
        status[Illegal.CODE] = Status.ILLEGAL
        status[Illegal.SEAT] = state[Off.SEAT]
        status[Illegal.ACTION] = action
        status[Illegal.WHY] = why
        status[Illegal.STRATEGY] = strategy
    return int(why)


@njit(cache=True, _nrt=False)
def play_out_hidden_nb(
    state, params, strat_ids, knobs, rng, obs, buf, hidden, status, check, composition, totals
) -> None:
    """Play ``state`` to the end of the hand: seat s decides with strategy strat_ids[s] (knobs
    float64[MAX_SEATS, MAX_KNOBS], stream rng[s]) from its observation without the ``hidden``
    bottom pile cards (until the pile is taken), and every action is verified.

    An illegal action stops the play-out with the `Illegal` slots set (`apply_step_nb`).  With
    ``check`` (not None; ``composition`` and ``totals`` int64[N_KINDS] as for `check_state_nb`)
    the invariants are checked after every action, and a broken one stops it with the `Broken`
    slots set (hand 0, the turn).  Nothing else of ``status`` is written (`Slot.ROLLOUT` is the
    caller's)."""
    samba = params[Par.SEQUENCES] != 0 or params[Par.MULTI_MELDS] != 0
    while state[Off.PHASE] != Phase.OVER:
        if state[Off.PILE_LEN] == 0:
            hidden = 0
        seat = state[Off.SEAT]
        action = decide_step_nb(state, params, strat_ids, knobs, rng, obs, buf, hidden, samba)
        if apply_step_nb(state, params, action, True, strat_ids[seat], status) != 0:
            return
        if check is not None:
            code = check_state_nb(state, params, composition, totals, buf)
            if code != 0:
                flag_invariant_nb(status, code, 0, 0, state[Off.TURN])
                return

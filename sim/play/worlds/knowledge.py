"""What a seat knows beyond its observation, kept up to date from public information only.

The knowledge array ``know`` (int32[Know.SIZE], layout `Know`; `new_know` / `know_init_nb` at the
deal) is updated by `know_update_nb` before each action is applied and `know_after_nb` after it
(`sim.play.game.GameState` does this for every seat).  Its parts:

- ``PILE_HIDDEN``: cards at the bottom of the pile whose kinds nobody knows (0 in a real game);
- ``KNOWN[s, kind]``: cards every player knows to be in seat s's hand: the pile cards it took
  (the known ones), less those it has melded or discarded since (per kind, never below 0);
- ``ASIDE[kind]``: the viewer's own pile cards held aside while its initial meld is pending
  (the observation does not list them);
- ``SNAP_VALID[s]`` / ``SNAP[s, :PUB_SIZE]``: the public part (as masked for the viewer) at seat
  s's last discard decision, while s has not acted since: what a model strategy holding s's hand
  would have seen when it chose that discard (``LAST_DISCARD[s]`` in the observation);
- the draw-or-take decision of the same turn (``DRAW_VALID[s]``, set when s draws or takes and
  used only together with ``SNAP_VALID[s]``): ``DSNAP[s]`` the public part then, ``DRAW_ACT[s]``
  the action (a draw: s declined the pile; a take), ``KNOWN_AT_DRAW[s, kind]`` the known cards of
  its hand then, ``TURN_OUT[s, kind]`` the cards that left its hand since (the take's own cards,
  melds, additions, the discard), ``TURN_IN[s, kind]`` the known pile cards the take brought and
  ``TURN_UNK[s]`` the hidden ones.  So s's hand at that decision was: its hand now + TURN_OUT -
  TURN_IN, less the cards it drew (unseen; their number follows from the hand sizes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from sim.core.enums import MAX_SEATS, MAX_SEQS, N_KINDS, Act, Kind, Off
from sim.core.layout import Field, layout
from sim.play.selfplay.step import mask_pile_nb

if TYPE_CHECKING:  # the layouts' field names (stubs written by tests/layout_stubs.py)
    from sim.play.worlds._layouts import KnowT

__all__ = [
    "Know",
    "know_init_nb",
    "know_update_nb",
    "know_after_nb",
    "new_know",
    "is_take_nb",
    "take_hand_cards_nb",
]

_SK = MAX_SEATS * N_KINDS
KNOW_ROWS = (
    Field("VIEWER", 1, "the seat whose knowledge this is"),
    Field("PILE_HIDDEN", 1, "bottom pile cards whose kinds nobody knows"),
    Field("ASIDE", N_KINDS, "the viewer's pile cards held aside (initial meld pending)"),
    Field("KNOWN", _SK, "[seat, kind] cards known to be in each hand"),
    Field("SNAP_VALID", MAX_SEATS, "1: SNAP holds the seat's last discard decision"),
    Field("SNAP", MAX_SEATS * Off.PUB_SIZE, "[seat, PUB_SIZE] public part at that decision"),
    Field("DRAW_VALID", MAX_SEATS, "1: the draw-or-take decision of that turn is recorded"),
    Field("DRAW_ACT", MAX_SEATS, "the action then (DRAW or a take)"),
    Field("TURN_UNK", MAX_SEATS, "hidden pile cards that take brought"),
    Field("KNOWN_AT_DRAW", _SK, "[seat, kind] KNOWN at that decision"),
    Field("TURN_OUT", _SK, "[seat, kind] cards that left the hand since (discard included)"),
    Field("TURN_IN", _SK, "[seat, kind] known pile cards the take brought"),
    Field("DSNAP", MAX_SEATS * Off.PUB_SIZE, "[seat, PUB_SIZE] public part at that decision"),
)
Know: KnowT = layout("KnowT", KNOW_ROWS, "SIZE")


@njit(cache=True, _nrt=False)
def know_init_nb(know: np.ndarray, viewer: int, pile_hidden: int) -> None:
    """Reset ``know`` (int32[Know.SIZE]) for ``viewer`` at a point where nothing is known beyond
    the observation (a fresh deal: ``pile_hidden`` = 0)."""
    for i in range(know.shape[0]):
        know[i] = 0
    know[Know.VIEWER] = viewer
    know[Know.PILE_HIDDEN] = pile_hidden


@njit(cache=True, _nrt=False, inline="always")
def _forget_nb(know, seat, kind, n) -> None:
    i = Know.KNOWN + seat * N_KINDS + kind
    know[i] = know[i] - n if know[i] > n else 0


@njit(cache=True, _nrt=False, inline="always")
def _out_nb(know, seat, kind, n) -> None:
    """n cards of ``kind`` left ``seat``'s hand: no longer known there, and part of its turn."""
    _forget_nb(know, seat, kind, n)
    know[Know.TURN_OUT + seat * N_KINDS + kind] += n


@njit(cache=True, _nrt=False)
def is_take_nb(action: int) -> bool:
    """A take of the pile (the top card with cards from the hand, onto a meld or a sequence)."""
    return (Act.TAKE_PAIR <= action <= Act.TAKE_ONTO) or action >= Act.TAKE_SEQ


@njit(cache=True, _nrt=False)
def take_hand_cards_nb(action: int, top: int, out: np.ndarray) -> None:
    """The cards a take puts from the hand onto the table with the top card (int64 or int32
    [N_KINDS], added to ``out``)."""
    if action == Act.TAKE_PAIR:
        out[top] += 2
    elif action == Act.TAKE_NAT_TWO:
        out[top] += 1
        out[Kind.TWO] += 1
    elif action == Act.TAKE_NAT_JOKER:
        out[top] += 1
        out[Kind.JOKER] += 1


@njit(cache=True, _nrt=False)
def _snap_nb(know, state, hidden, base) -> None:
    for i in range(Off.PUB_SIZE):
        know[base + i] = state[i]
    mask_pile_nb(state, np.int64(hidden), know[base : base + Off.PUB_SIZE])


@njit(cache=True, _nrt=False)
def _draw_decision_nb(know, state, seat, action, hidden) -> None:
    """Another seat draws or takes: record that decision (its turn starts afresh)."""
    _snap_nb(know, state, hidden, Know.DSNAP + seat * Off.PUB_SIZE)
    know[Know.DRAW_VALID + seat] = 1
    know[Know.DRAW_ACT + seat] = action
    know[Know.TURN_UNK + seat] = 0
    for k in range(N_KINDS):
        i = seat * N_KINDS + k
        know[Know.KNOWN_AT_DRAW + i] = know[Know.KNOWN + i]
        know[Know.TURN_OUT + i] = 0
        know[Know.TURN_IN + i] = 0


@njit(cache=True, _nrt=False)
def _take_nb(know, state, seat, action, viewer, hidden) -> None:
    top = state[Off.PILE_TOP]
    if action == Act.TAKE_PAIR:
        _out_nb(know, seat, top, 2)
    elif action == Act.TAKE_NAT_TWO:
        _out_nb(know, seat, top, 1)
        _out_nb(know, seat, Kind.TWO, 1)
    elif action == Act.TAKE_NAT_JOKER:
        _out_nb(know, seat, top, 1)
        _out_nb(know, seat, Kind.JOKER, 1)
    opened = state[Off.TEAM_OPENED + state[Off.TEAM_OF_SEAT + seat]] != 0
    n = state[Off.PILE_LEN]
    for j in range(n - 1):  # the cards below the top join the hand (or wait aside)
        k = state[Off.PILE + j] & 15
        if k == Kind.RED3:
            continue
        if seat == viewer:
            if not opened:
                know[Know.ASIDE + k] += 1
        elif j >= hidden:
            know[Know.KNOWN + seat * N_KINDS + k] += 1
            know[Know.TURN_IN + seat * N_KINDS + k] += 1
        else:
            know[Know.TURN_UNK + seat] += 1
    know[Know.PILE_HIDDEN] = 0


@njit(cache=True, _nrt=False)
def _sequence_nb(know, state, seat, action) -> None:
    """Samba sequences: the naturals they take from the hand."""
    if action < Act.SEQ_ADD:
        low = (action - Act.SEQ_NEW) % 9 + 2
        for k in range(low, low + 3):
            _out_nb(know, seat, k, 1)
        return
    slot = (action - Act.SEQ_ADD) // 2
    j = state[Off.TEAM_OF_SEAT + seat] * MAX_SEQS + slot
    k = (
        state[Off.SEQ_LOW + j] - 1
        if (action - Act.SEQ_ADD) % 2 == 0
        else state[Off.SEQ_LOW + j] + state[Off.SEQ_LEN + j]
    )
    _out_nb(know, seat, k, 1)


@njit(cache=True, _nrt=False)
def know_update_nb(know: np.ndarray, state: np.ndarray, params: np.ndarray, action: int) -> None:
    """Record what the viewer learns from ``action``, BEFORE it is applied to ``state`` (the full
    int32[STATE_SIZE] state; only public fields are read, plus the pile's cards when the viewer
    itself takes them, which it then sees).  Call it for every action, whoever acts."""
    seat = state[Off.SEAT]
    viewer = know[Know.VIEWER]
    hidden = know[Know.PILE_HIDDEN]
    if seat != viewer:
        know[Know.SNAP_VALID + seat] = 0
    if action == Act.DECLINE:
        return
    if action == Act.DRAW or is_take_nb(action):
        if seat != viewer:
            _draw_decision_nb(know, state, seat, action, hidden)
        if action != Act.DRAW:
            _take_nb(know, state, seat, action, viewer, hidden)
        return
    if seat == viewer:
        return
    if action >= Act.SEQ_NEW:
        if action < Act.TAKE_SEQ:
            _sequence_nb(know, state, seat, action)
        return
    if action >= Act.DISCARD:
        _out_nb(know, seat, action - Act.DISCARD, 1)
        _snap_nb(know, state, hidden, Know.SNAP + seat * Off.PUB_SIZE)
        know[Know.SNAP_VALID + seat] = 1
        return
    if action < Act.ADD_NAT:
        k = (action - Act.MELD) // 3
        variant = (action - Act.MELD) % 3
        if variant == 0:
            _out_nb(know, seat, k, 3)
        else:
            _out_nb(know, seat, k, 2)
            _out_nb(know, seat, Kind.TWO if variant == 1 else Kind.JOKER, 1)
    elif action < Act.ADD_TWO:
        _out_nb(know, seat, action - Act.ADD_NAT, 1)
    elif action < Act.ADD_JOKER:
        _out_nb(know, seat, Kind.TWO, 1)
    else:
        _out_nb(know, seat, Kind.JOKER, 1)


@njit(cache=True, _nrt=False)
def know_after_nb(know: np.ndarray, state: np.ndarray) -> None:
    """After an action is applied: the viewer's aside cards joined its hand once no card is
    aside any more (its initial meld was reached).  Call after every applied action."""
    if state[Off.ASIDE_LEN] == 0:
        for k in range(N_KINDS):
            know[Know.ASIDE + k] = 0


def new_know(viewer: int, pile_hidden: int = 0) -> np.ndarray:
    """A fresh knowledge array (int32[Know.SIZE]) for ``viewer``."""
    know = np.zeros(Know.SIZE, np.int32)
    know_init_nb(know, int(viewer), int(pile_hidden))
    return know

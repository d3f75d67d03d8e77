"""`greedy`: take everything, meld everything, go out as soon as the rules allow.

Plan (a fixed priority list, no lookahead, no randomness):

Draw phase -- the first legal of
  1. `take onto` (the top card onto a team meld: costs nothing),
  2. `take 7 7` (a natural pair),
  3. `take 7 JK`, then `take 7 2` (a natural + a wild; jokers first, see below),
  4. Samba: `take 7H onto 4H..6H` (the top card extends a team sequence),
  5. `draw`; with the stock exhausted: `decline`.
Meld phase -- the first legal of
  0. Samba: extend a team sequence, then a new sequence (strategies/sequences.py),
  1. add a natural to a team meld (aces down to fours),
  2. a new meld of three naturals (aces down to fours),
  3. a new meld of a natural pair + a wild (joker before two),
  4. add a wild to a team meld: jokers before twos (docs/STRATEGY.md section 4: "meld jokers,
     freeze with twos" -- a joker scores 50 melded and costs 50 left in hand), into the largest
     meld that is not yet a canasta (ties: the higher rank), then onto canastas,
  5. black threes (only legal as the last melds of a going out),
  6. discard the least useful card: black three first, then natural singletons before pairs
     before triples, lower card value first, lower rank first; wild cards only if nothing else
     is left (two before joker).
The team opens as soon as any meld is legal (the engine's opening check makes a meld legal only
while the minimum stays reachable) and goes out as soon as melding leaves at most one card.
If none of its choices is legal it plays the first legal action (never happens in practice).

`strategies.python_tier.PyGreedy` is a line-by-line Python port: keep the two in step.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.enums import FIRST_NATURAL, LAST_NATURAL, N_KINDS, Act, Kind, Off, Par, Phase
from sim.core.legal import (
    discard_ok_nb,
    legal_actions_nb,
    meld_ok_nb,
    take_ok_nb,
    why_illegal_nb,
)
from sim.core.readers import lowest_bit_nb, meld_nat_nb, team_of_nb
from strategies.sequences import sequence_move_nb, sequence_take_nb

KNOBS: dict[str, float] = {}

# discard order keys, shared with the Python port
WILD_DISCARD_BASE = 10_000


@njit(cache=True, _nrt=False, inline="always")  # split out for reading only: no call cost
def _draw_nb(obs: np.ndarray, params: np.ndarray) -> int:
    """Draw phase: the first legal take (onto, pair, natural + joker, natural + two), a take
    onto a sequence, draw, decline; -1: none of them (the caller plays the first legal action)."""
    H = Off.HANDS
    top = obs[Off.PILE_TOP]
    if (
        obs[Off.PILE_LEN] > 0
        and FIRST_NATURAL <= top <= LAST_NATURAL
        and obs[H + top] + meld_nat_nb(obs, team_of_nb(obs), top) > 0
    ):
        # only then can a take be legal (a cheap filter; the engine's check decides).  A loop
        # over an index, not over a tuple of the actions: numba unrolls a tuple of constants,
        # and every copy of the call is a call site (see decide_nb)
        team = team_of_nb(obs)
        for i in range(4):
            a = (
                Act.TAKE_ONTO
                if i == 0
                else (
                    Act.TAKE_PAIR
                    if i == 1
                    else (Act.TAKE_NAT_JOKER if i == 2 else Act.TAKE_NAT_TWO)
                )
            )
            if take_ok_nb(obs, params, team, a):
                return a
    a = sequence_take_nb(obs, params) if params[Par.SEQUENCES] != 0 else -1  # no call without Samba
    if a >= 0:
        return a
    if obs[Off.STOCK_LEN] > 0:
        return Act.DRAW  # what why_illegal_nb asks of a draw in the draw phase
    if why_illegal_nb(obs, H, params, Act.DECLINE) == 0:
        return Act.DECLINE
    return -1


@njit(cache=True, _nrt=False)
def decide_nb(
    obs: np.ndarray, params: np.ndarray, knobs: np.ndarray, rng: np.ndarray, buf: np.ndarray
) -> int:
    # Each callee has one call site here: numba gives every call site two stack slots that
    # this function's entry zeroes on every call (3.6% of a greedy hand with 17 sites), so
    # the steps below hand their candidates to one check, in their order.
    H = Off.HANDS
    phase = obs[Off.PHASE]
    if phase == Phase.DRAW:
        a = _draw_nb(obs, params)
        if a >= 0:
            return a
    elif phase == Phase.MELD:
        team = team_of_nb(obs)
        csize = params[Par.CANASTA_SIZE]
        hopeless = False
        if (
            obs[Off.TEAM_OPENED + team] == 0
            and obs[Off.PENDING_VALUE] == 0
            and obs[Off.ASIDE_LEN] == 0
            and params[Par.SEQUENCES] == 0
        ):
            # exact shortcut (saves the opening oracle): no meld is legal when the hand's card
            # points cannot reach the minimum and no rank plus the wilds can make a canasta
            # (concealed)
            wilds = obs[H + Kind.TWO] + obs[H + Kind.JOKER]
            pts = 0
            most = 0
            for k in range(FIRST_NATURAL, LAST_NATURAL + 1):
                pts += obs[H + k] * params[Par.CARD_VALUE + k]
                if obs[H + k] > most:
                    most = obs[H + k]
            pts += (
                obs[H + Kind.TWO] * params[Par.CARD_VALUE + Kind.TWO]
                + obs[H + Kind.JOKER] * params[Par.CARD_VALUE + Kind.JOKER]
            )
            hopeless = pts < obs[Off.TEAM_MIN + team] and most + wilds < csize
        if not hopeless:
            # 0. Samba: sequences first (a samba is worth 1,500)
            a = (
                sequence_move_nb(obs, params) if params[Par.SEQUENCES] != 0 else -1
            )  # no call without Samba
            if a >= 0:
                return a
            a = _first_meld_nb(obs, params, team, csize)
            if a >= 0:
                return a
        return _discard_nb(obs, params, buf)
    # a finished hand, or no choice of the draw phase legal: the first legal action, if any
    n = legal_actions_nb(obs, H, params, buf)
    return buf[0] if n > 0 else -1


@njit(cache=True, _nrt=False, inline="always")  # split out for reading only: no call cost
def _first_meld_nb(obs: np.ndarray, params: np.ndarray, team: int, csize: int) -> int:
    """Meld phase steps 1-5 in order: the first legal candidate, or -1 (then discard)."""
    H = Off.HANDS
    # the candidates of steps 1-3 as bit masks over the natural ranks, bit LAST_NATURAL - k
    # for rank k (the lowest set bit is the highest rank): computed once without branches,
    # then only the set bits are visited (a check does not change obs: it restores it)
    base = team * N_KINDS
    hand = obs[H : H + N_KINDS]
    nat = obs[Off.MELD_NAT + base : Off.MELD_NAT + base + N_KINDS]
    twos = obs[Off.MELD_TWO + base : Off.MELD_TWO + base + N_KINDS]
    jokers = obs[Off.MELD_JOKER + base : Off.MELD_JOKER + base + N_KINDS]
    held = np.int64(0)
    pair = np.int64(0)
    trip = np.int64(0)
    melded = np.int64(0)
    for k in range(FIRST_NATURAL, LAST_NATURAL + 1):
        c = hand[k]
        r = LAST_NATURAL - k
        held |= np.int64(c > 0) << r
        pair |= np.int64(c >= 2) << r
        trip |= np.int64(c >= 3) << r
        melded |= np.int64(nat[k] + twos[k] + jokers[k] > 0) << r
    wild = obs[H + Kind.JOKER] + obs[H + Kind.TWO] > 0
    # steps: 1. naturals onto team melds; 2. new natural melds; 3. pair + wild (per rank the
    # joker, then the two); 4. wild additions: jokers first, into the largest meld that is not
    # yet a canasta, then onto canastas (ties: the higher rank), best first without sorting;
    # 5. black threes (going out only).  Steps 3 and 4 need a wild card in hand.
    step = 1
    m = held & melded
    nxt = -1  # step 3: the rank whose two-meld comes next (-1: the next rank)
    w = 0  # step 4: 0 jokers, 1 twos
    tried = np.int64(0)  # step 4: ranks already tried with this wild
    while step <= 5:
        a = -1
        if step <= 2:
            if m == 0:
                step += 1
                m = (trip & ~melded) if step == 2 else ((pair & ~melded) if wild else np.int64(0))
                continue
            r = LAST_NATURAL - lowest_bit_nb(m)
            m &= m - 1
            a = Act.ADD_NAT + r if step == 1 else Act.MELD + r * 3
        elif step == 3:
            if nxt < 0:
                if m == 0:
                    step = 4
                    continue
                nxt = LAST_NATURAL - lowest_bit_nb(m)
                m &= m - 1
                if obs[H + Kind.JOKER] > 0:
                    a = Act.MELD + nxt * 3 + 2
            else:
                if obs[H + Kind.TWO] > 0:
                    a = Act.MELD + nxt * 3 + 1
                nxt = -1
        elif step == 4:
            if not wild or w >= 2:
                step = 5
                continue
            if obs[H + (Kind.JOKER if w == 0 else Kind.TWO)] == 0:
                w += 1
                tried = np.int64(0)
                continue
            best_k = -1
            best_key = -1
            for j in range(FIRST_NATURAL, LAST_NATURAL + 1):
                if tried & (np.int64(1) << j):
                    continue
                s = nat[j] + twos[j] + jokers[j]
                if s == 0:
                    continue
                key = (0 if s >= csize else 100000) + s * 16 + j
                if key > best_key:
                    best_key = key
                    best_k = j
            if best_k < 0:
                w += 1
                tried = np.int64(0)
                continue
            tried |= np.int64(1) << best_k
            a = (Act.ADD_JOKER if w == 0 else Act.ADD_TWO) + best_k
        else:
            step = 6
            if obs[H + Kind.BLACK3] > 0:
                a = (
                    Act.ADD_NAT + Kind.BLACK3
                    if meld_nat_nb(obs, team, Kind.BLACK3) > 0
                    else Act.MELD + Kind.BLACK3 * 3
                )
        if a >= 0 and meld_ok_nb(obs, params, team, a):
            return a
    return -1


@njit(cache=True, _nrt=False)
def _discard_nb(obs: np.ndarray, params: np.ndarray, buf: np.ndarray) -> int:
    """6. discard the least useful card."""
    H = Off.HANDS
    hand = obs[H : H + N_KINDS]
    value = params[Par.CARD_VALUE : Par.CARD_VALUE + N_KINDS]
    best = -1
    best_key = 1 << 30
    # the kind tests fold away (the loop is unrolled); the held test is a select, not a branch
    for k in range(N_KINDS - 1):  # never a red three (cannot be held anyway)
        c = hand[k]
        if k == Kind.BLACK3:
            key = 0
        elif k == Kind.TWO or k == Kind.JOKER:
            key = WILD_DISCARD_BASE + value[k]
        else:
            key = min(c, 3) * 1000 + value[k] * 16 + k
        key = key if c > 0 else 1 << 30
        if key < best_key:
            best_key = key
            best = k
    if best >= 0 and discard_ok_nb(obs, params, team_of_nb(obs), best):
        return Act.DISCARD + best
    n = legal_actions_nb(obs, H, params, buf)
    return buf[0] if n > 0 else -1

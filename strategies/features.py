"""Features of a (position, action) pair for the learned players (strategies/learned.py).

A decision's legal actions fall into groups (`G`: draw, take, decline, meld, add a natural,
add a wild card, discard a natural, a black three, a wild card, Samba sequences); each group has
its own weights over the same slots: slot 0 = the action is the heuristic's choice, then the
decision's context (`context_nb`: pile, freeze, stock, hand sizes, canastas, threats; the same
for every action of a decision), then the group's own features (`action_nb`: e.g. for a
discard the chance the next opponent can take the pile with it, how many of the rank we hold,
its card value).  Everything is read from the seat's observation (public state + own hand):
no hidden card.

A model is a float64[N_GROUPS, N_SLOTS] weight table: score(a) = W[g(a)] . slots(a).  The
functions return tuples (no arrays: the kernels run without numba's allocator).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from sim.core.enums import FIRST_NATURAL, LAST_NATURAL, MAX_SEATS, N_KINDS, Act, Kind, Off, Par
from sim.core.readers import canastas_nb, meld_size_nb, team_of_nb


class GroupT(NamedTuple):
    DRAW: int = 0
    TAKE: int = 1
    DECLINE: int = 2
    MELD: int = 3
    ADD_NAT: int = 4
    ADD_WILD: int = 5
    DISC_NAT: int = 6
    DISC_B3: int = 7
    DISC_WILD: int = 8
    SEQ: int = 9


G = GroupT()
N_GROUPS = 10
GROUP_NAMES = tuple(GroupT._fields)

CONTEXT_NAMES = (
    "bias",
    "pile/10",
    "frozen for us",
    "unfrozen for next opp",
    "stock/40",
    "my cards/10",
    "next opp cards/10",
    "fewest opp cards/10",
    "opp canastas/2",
    "our canastas/2",
    "we opened",
    "opp opened",
    "stock <= 10",
    "opp may go out soon",
    "we may go out",
    "partner cards/10",
    "pile points/100",
    "opp melded cards/20",
)
N_CONTEXT = len(CONTEXT_NAMES)
N_SPEC = 14
SPEC_NAMES: dict[str, tuple[str, ...]] = {
    "DRAW": (),
    "TAKE": ("nat+wild", "joker", "pair", "onto", "pile cards we can use/10", "sequence"),
    "DECLINE": (),
    "MELD": (
        "with a two",
        "with a joker",
        "card value/10",
        "rank left in hand/3",
        "cards left/10",
        "cards left <= 2",
        "opening",
        "black threes",
        "opp melded rank",
    ),
    "ADD_NAT": (
        "meld size/7",
        "completes canasta",
        "meld has wilds",
        "onto canasta",
        "cards left/10",
        "cards left <= 2",
        "rank left in hand/3",
        "card value/10",
    ),
    "ADD_WILD": (
        "joker",
        "meld size/7",
        "completes canasta",
        "wilds after/3",
        "cards left/10",
        "cards left <= 2",
        "onto canasta",
        "spoils a natural",
    ),
    "DISC_NAT": (
        "onto danger",
        "pair chance",
        "natural+wild chance",
        "danger x pile/10",
        "single",
        "pair",
        "three or more",
        "card value/10",
        "we melded it",
        "next opp discarded it last",
        "partner discarded it last",
        "unseen copies/8",
        "dead rank",
        "pile/10 x pair",
    ),
    "DISC_B3": ("black threes held", "pile/10 x unfrozen for next opp"),
    "DISC_WILD": ("joker", "freezes the pile", "pile/10 x freezes"),
    "SEQ": ("new", "extend", "cards left/10", "cards left <= 2"),
}
N_SLOTS = 1 + N_CONTEXT + N_SPEC


@njit(cache=True, _nrt=False, inline="always")
def group_of_nb(action: int) -> int:
    if action == Act.DRAW:
        return G.DRAW
    if action <= Act.TAKE_ONTO:
        return G.TAKE
    if action == Act.DECLINE:
        return G.DECLINE
    if action < Act.ADD_NAT:
        return G.MELD
    if action < Act.ADD_TWO:
        return G.ADD_NAT
    if action < Act.DISCARD:
        return G.ADD_WILD
    if action < Act.SEQ_NEW:
        k = action - Act.DISCARD
        if k == Kind.BLACK3:
            return G.DISC_B3
        if k == Kind.TWO or k == Kind.JOKER:
            return G.DISC_WILD
        return G.DISC_NAT
    if action < Act.TAKE_SEQ:
        return G.SEQ
    return G.TAKE


@njit(cache=True, _nrt=False)
def context_nb(obs: np.ndarray, params: np.ndarray) -> tuple:
    """(the decision's context slots: UniTuple of N_CONTEXT float64, `CONTEXT_NAMES`; the
    numbers `action_nb` needs for every action of the decision: a tuple, `decision_nb`)."""
    team = team_of_nb(obs)
    seat = obs[Off.SEAT]
    n_seats = obs[Off.N_SEATS]
    nxt = seat + 1 if seat + 1 < n_seats else 0
    lho_team = obs[Off.TEAM_OF_SEAT + nxt]
    nh = 0
    for k in range(N_KINDS):
        nh += obs[Off.HANDS + k]
    opp_min = 1000
    partner = 0
    pool = obs[Off.STOCK_LEN]
    partner_last = -1
    for s in range(n_seats):
        hs = obs[Off.HAND_SIZE + s]
        if s != seat:
            pool += hs
        t = obs[Off.TEAM_OF_SEAT + s]
        if t != team:
            if hs < opp_min:
                opp_min = hs
        elif s != seat and hs > partner:
            partner = hs
            partner_last = obs[Off.LAST_DISCARD + s]
    if pool < 1:
        pool = 1
    opp_opened = 0.0
    opp_can = 0
    threat = False
    csize = params[Par.CANASTA_SIZE]
    need = params[Par.CANASTAS_TO_GO_OUT]
    for t in range(obs[Off.N_TEAMS]):
        if t == team:
            continue
        c = canastas_nb(obs, params, t)
        if c > opp_can:
            opp_can = c
        if obs[Off.TEAM_OPENED + t] != 0:
            opp_opened = 1.0
        few = False  # a seat of team t holds 4 or fewer cards
        for s in range(n_seats):
            if obs[Off.TEAM_OF_SEAT + s] == t and obs[Off.HAND_SIZE + s] <= 4:
                few = True
        if few and not threat:
            if c >= need:
                threat = True
            elif c == need - 1:
                for k in range(FIRST_NATURAL, LAST_NATURAL + 1):
                    ms = meld_size_nb(obs, t, k)
                    if csize - 2 <= ms < csize:
                        threat = True
    if opp_min == 1000:
        opp_min = 0
    my_can = canastas_nb(obs, params, team)
    pile_pts = 0
    for k in range(N_KINDS):
        pile_pts += obs[Off.PILE_COUNTS + k] * params[Par.CARD_VALUE + k]
    opp_melded = 0
    if lho_team != team:
        for k in range(N_KINDS):
            opp_melded += obs[Off.MELD_NAT + lho_team * N_KINDS + k]
    frozen_us = obs[Off.PILE_FREEZE] > 0 or obs[Off.TEAM_OPENED + team] == 0
    unfrozen_lho = (
        lho_team != team and obs[Off.PILE_FREEZE] == 0 and obs[Off.TEAM_OPENED + lho_team] != 0
    )
    stock = obs[Off.STOCK_LEN]
    ctx = (
        1.0,
        obs[Off.PILE_LEN] / 10.0,
        1.0 if frozen_us else 0.0,
        1.0 if unfrozen_lho else 0.0,
        stock / 40.0,
        nh / 10.0,
        obs[Off.HAND_SIZE + nxt] / 10.0,
        opp_min / 10.0,
        min(opp_can, 3) / 2.0,
        min(my_can, 3) / 2.0,
        1.0 if obs[Off.TEAM_OPENED + team] != 0 else 0.0,
        opp_opened,
        1.0 if stock <= 10 else 0.0,
        1.0 if threat else 0.0,
        1.0 if my_can >= need else 0.0,
        partner / 10.0,
        pile_pts / 100.0,
        opp_melded / 20.0,
    )
    dc = (team, nh, nxt, lho_team, obs[Off.HAND_SIZE + nxt], unfrozen_lho, pool, partner_last)
    return ctx, dc


@njit(cache=True, _nrt=False, inline="always")
def _pair_chance_nb(unseen, pool, lho_cards) -> float:
    """P(the next opponent's lho_cards of `pool` cards hold 2+ of `unseen` copies), binomial."""
    p = unseen / pool
    q = 1.0 - p
    qh = 1.0  # q ** (lho_cards - 1) by multiplication (a few cards: cheaper than pow)
    for _ in range(lho_cards - 1):
        qh *= q
    return 1.0 - qh * q - lho_cards * p * qh


@njit(cache=True, _nrt=False, inline="always")
def action_nb(obs: np.ndarray, params: np.ndarray, action: int, g: int, dc: tuple) -> tuple:
    """The group-specific slots of ``action`` of group ``g`` (UniTuple of N_SPEC float64;
    `SPEC_NAMES` of its group, zeros after them); ``dc``: the decision's numbers from
    `context_nb`."""
    H = Off.HANDS
    team, nh, nxt, lho_team, lho_cards, unfrozen_lho, pool, partner_last = dc
    csize = params[Par.CANASTA_SIZE]
    f0 = f1 = f2 = f3 = f4 = f5 = f6 = f7 = f8 = f9 = f10 = f11 = f12 = f13 = 0.0
    if g == G.TAKE:
        if action == Act.TAKE_NAT_TWO or action == Act.TAKE_NAT_JOKER:
            f0 = 1.0
        f1 = 1.0 if action == Act.TAKE_NAT_JOKER else 0.0
        f2 = 1.0 if action == Act.TAKE_PAIR else 0.0
        f3 = 1.0 if action == Act.TAKE_ONTO else 0.0
        use = 0
        for k in range(FIRST_NATURAL, LAST_NATURAL + 1):
            pc = obs[Off.PILE_COUNTS + k]
            if pc > 0 and (obs[H + k] + pc >= 3 or meld_size_nb(obs, team, k) > 0):
                use += pc
        f4 = use / 10.0
        f5 = 1.0 if action >= Act.TAKE_SEQ else 0.0
    elif g == G.MELD:
        k = (action - Act.MELD) // 3
        v = (action - Act.MELD) % 3
        f0 = 1.0 if v == 1 else 0.0
        f1 = 1.0 if v == 2 else 0.0
        f2 = params[Par.CARD_VALUE + k] / 10.0
        used = 3 if v == 0 else 2
        f3 = (obs[H + k] - used) / 3.0
        f4 = (nh - 3) / 10.0
        f5 = 1.0 if nh - 3 <= 2 else 0.0
        f6 = 1.0 if obs[Off.TEAM_OPENED + team] == 0 else 0.0
        f7 = 1.0 if k == Kind.BLACK3 else 0.0
        for t in range(obs[Off.N_TEAMS]):
            if t != team and meld_size_nb(obs, t, k) > 0:
                f8 = 1.0
    elif g == G.ADD_NAT:
        k = action - Act.ADD_NAT
        ms = meld_size_nb(obs, team, k)
        w = obs[Off.MELD_TWO + team * N_KINDS + k] + obs[Off.MELD_JOKER + team * N_KINDS + k]
        f0 = ms / 7.0
        f1 = 1.0 if ms + 1 == csize else 0.0
        f2 = 1.0 if w > 0 else 0.0
        f3 = 1.0 if ms >= csize else 0.0
        f4 = (nh - 1) / 10.0
        f5 = 1.0 if nh - 1 <= 2 else 0.0
        f6 = (obs[H + k] - 1) / 3.0
        f7 = params[Par.CARD_VALUE + k] / 10.0
    elif g == G.ADD_WILD:
        joker = action >= Act.ADD_JOKER
        k = action - (Act.ADD_JOKER if joker else Act.ADD_TWO)
        ms = meld_size_nb(obs, team, k)
        w = obs[Off.MELD_TWO + team * N_KINDS + k] + obs[Off.MELD_JOKER + team * N_KINDS + k]
        f0 = 1.0 if joker else 0.0
        f1 = ms / 7.0
        f2 = 1.0 if ms + 1 == csize else 0.0
        f3 = (w + 1) / 3.0
        f4 = (nh - 1) / 10.0
        f5 = 1.0 if nh - 1 <= 2 else 0.0
        f6 = 1.0 if ms >= csize else 0.0
        f7 = 1.0 if w == 0 and ms < csize else 0.0
    elif g == G.DISC_NAT:
        k = action - Act.DISCARD
        pile = obs[Off.PILE_LEN]
        c = obs[H + k]
        seen = c + obs[Off.PILE_COUNTS + k]
        for t in range(obs[Off.N_TEAMS]):
            seen += obs[Off.MELD_NAT + t * N_KINDS + k]
        unseen = 4 * params[Par.DECKS] - seen
        if lho_team != team:
            if unfrozen_lho:
                ls = meld_size_nb(obs, lho_team, k)
                oc = params[Par.TAKE_ONTO_CANASTA]
                if ls > 0 and params[Par.TAKE_ONTO_MELD] != 0 and (ls < csize or oc == 1):
                    f0 = 1.0
                if unseen >= 1 and params[Par.TAKE_NAT_WILD] != 0:
                    p1 = unseen * lho_cards / pool
                    f2 = p1 if p1 < 1.0 else 1.0
            if unseen >= 2:
                f1 = _pair_chance_nb(unseen, pool, lho_cards)
        danger = f0
        if f1 > danger:
            danger = f1
        if 0.35 * f2 > danger:
            danger = 0.35 * f2
        f3 = danger * (pile + 1) / 10.0
        f4 = 1.0 if c == 1 else 0.0
        f5 = 1.0 if c == 2 else 0.0
        f6 = 1.0 if c >= 3 else 0.0
        f7 = params[Par.CARD_VALUE + k] / 10.0
        f8 = 1.0 if meld_size_nb(obs, team, k) > 0 else 0.0
        f9 = 1.0 if lho_team != team and obs[Off.LAST_DISCARD + nxt] == k else 0.0
        f10 = 1.0 if partner_last == k else 0.0
        f11 = unseen / 8.0
        f12 = 1.0 if unseen <= 1 else 0.0
        f13 = (pile / 10.0) if c == 2 else 0.0
    elif g == G.DISC_B3:
        f0 = obs[H + Kind.BLACK3] / 2.0
        if unfrozen_lho:
            f1 = obs[Off.PILE_LEN] / 10.0
    elif g == G.DISC_WILD:
        f0 = 1.0 if action == Act.DISCARD + Kind.JOKER else 0.0
        f1 = 1.0 if obs[Off.PILE_FREEZE] == 0 else 0.0
        f2 = f1 * obs[Off.PILE_LEN] / 10.0
    elif g == G.SEQ:
        new = action < Act.SEQ_ADD
        f0 = 1.0 if new else 0.0
        f1 = 0.0 if new else 1.0
        left = nh - (3 if new else 1)
        f2 = left / 10.0
        f3 = 1.0 if left <= 2 else 0.0
    return (f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13)


@njit(cache=True, _nrt=False, inline="always")
def context_dot_nb(w: np.ndarray, g: int, ctx: tuple) -> float:
    """The context part of group g's score: W[g, 1:1 + N_CONTEXT] . ctx."""
    s = 0.0
    for j in range(N_CONTEXT):
        s += w[g, 1 + j] * ctx[j]
    return s


@njit(cache=True, _nrt=False, inline="always")
def spec_dot_nb(w: np.ndarray, g: int, is_base: float, spec: tuple) -> float:
    """The rest of group g's score: W[g, 0] * is_base + W[g, 1 + N_CONTEXT:] . spec."""
    s = w[g, 0] * is_base
    for j in range(N_SPEC):
        s += w[g, 1 + N_CONTEXT + j] * spec[j]
    return s


@njit(cache=True)
def features_nb(obs_rows, params, actions, n_act, base, out_g, out_x) -> None:
    """Training rows: for decision i and its legal action a (``actions`` int16[n, A], ``n_act``,
    ``base`` the index of the heuristic's choice), the group out_g[i, a] and the slots
    out_x[i, a, :] (float32[n, A, N_SLOTS])."""
    obs = np.zeros(Off.STATE_SIZE, np.int32)
    for i in range(obs_rows.shape[0]):
        for x in range(obs_rows.shape[1]):
            obs[x] = obs_rows[i, x]
        ctx, dc = context_nb(obs, params)
        for a in range(n_act[i]):
            act = actions[i, a]
            g = group_of_nb(act)
            spec = action_nb(obs, params, act, g, dc)
            out_g[i, a] = g
            out_x[i, a, 0] = 1.0 if a == base[i] else 0.0
            for j in range(N_CONTEXT):
                out_x[i, a, 1 + j] = ctx[j]
            for j in range(N_SPEC):
                out_x[i, a, 1 + N_CONTEXT + j] = spec[j]


__all__ = [
    "G",
    "N_GROUPS",
    "N_SLOTS",
    "N_CONTEXT",
    "N_SPEC",
    "GROUP_NAMES",
    "CONTEXT_NAMES",
    "SPEC_NAMES",
    "MAX_SEATS",
    "group_of_nb",
    "context_nb",
    "action_nb",
    "context_dot_nb",
    "spec_dot_nb",
    "features_nb",
]

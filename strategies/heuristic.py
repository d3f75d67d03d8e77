"""The shared heuristic player behind `patient`, `pile-control`, `expert` and `tunable`.

One compiled decision function, steered by a knob vector (the `KNOBS` of those modules, all in
the order of `KNOB_TABLE` below), so the four strategies cost one compilation and every knob of
every one of them can be swept from the command line (`expert:freeze_when=0`).
docs/STRATEGY.md states the rules of thumb it follows; section numbers below refer to it.

Knobs (float values; 0/1 for switches): `KNOB_TABLE` below, one row per knob (name, default,
meaning); the default row is a sensible middle-of-the-road player and the presets override some.

Decision plan:
  draw phase   stock empty: decline when allowed.  Otherwise take onto a team meld, take with a
               natural pair (pile >= take_pair_min_pile), take with a natural + wild (pile >=
               take_min_pile), else draw.
  meld phase   not opened and nothing pending: concealed going out if possible (knob), else open
               when the opening rules above allow it, else discard.  Opening in progress: meld
               until the minimum is reached.  Opened: add naturals to team melds; new natural
               melds (unless hold_melds); wilds that complete a canasta now; pair + wild melds
               (unless pair_hold); more wilds only when the hand may end.  While we do not want
               to go out, no meld may leave fewer than two cards; when we do, everything is
               melded and the last card discarded.
  discard      the lowest score of: usefulness to us (pairs, triples, ranks we melded), card value
               (low first; high first when the hand may end), danger for the next opponent times
               the pile size, black three as a stop, a two to freeze (knobs).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from sim.core.enums import FIRST_NATURAL, LAST_NATURAL, N_KINDS, Act, Kind, Off, Par, Phase
from sim.core.legal import (
    can_go_out_concealed_nb,
    canastas_nb,
    discard_ok_nb,
    legal_actions_nb,
    max_meld_points_nb,
    meld_ok_nb,
    take_ok_nb,
    why_illegal_nb,
    wild_capacity_nb,
)
from sim.core.readers import lowest_bit_nb, meld_nat_nb, meld_size_nb, team_of_nb
from strategies.knobs import Knob, knob_defaults, knob_index
from strategies.knobs import knobs_with as _knobs_with
from strategies.sequences import sequence_move_nb, sequence_take_nb

if TYPE_CHECKING:  # the layouts' field names (stubs written by tests/layout_stubs.py)
    from strategies._layouts import HeuristicKnobs

KNOB_TABLE: tuple[Knob, ...] = (
    Knob("open_threshold", 0.0, "open from hand only with >= minimum + this many meldable points"),
    Knob(
        "open_with_pile_only",
        0.0,
        "1: open from hand only when forced -- the opponents have opened and we "
        "have not, the hand may end soon, or the stock is low (section 2)",
    ),
    Knob(
        "max_wild_commit",
        1.0,
        "wild cards we put into one meld that is not being completed into a "
        "canasta this turn (completing a canasta may use more) (section 4)",
    ),
    Knob(
        "freeze_when",
        1.0,
        "0 never freeze; 1 freeze with a two when the opponents have opened and we "
        "have not; 2 also when the pile (>= 4 cards) is unfrozen for the next opponent and every "
        "non-wild discard is dangerous, unless our side holds fewer cards than theirs (section 5)",
    ),
    Knob(
        "go_out_min_canastas",
        1.0,
        "go out voluntarily only with this many team canastas (at least the rules' number) ...",
    ),
    Knob(
        "go_out_opp_cards_le",
        5.0,
        "... or as soon as an opponent holds this few cards, or the stock is "
        "low (section 7); acts only when go_out_min_canastas is above the rules' number (else the "
        "player goes out as soon as it may)",
    ),
    Knob(
        "pair_hold",
        0.0,
        "1: keep natural pairs in hand (no pair + wild melds) unless opening, going "
        "out or the hand may end; 2: also keep them when the hand may end (section 3)",
    ),
    Knob(
        "take_min_pile",
        5.0,
        "take an unfrozen pile with a natural + a wild only from this many cards (section 1)",
    ),
    Knob("take_pair_min_pile", 1.0, "take with a natural pair only from this many cards"),
    Knob(
        "meld_all_when_opp_cards_le",
        4.0,
        "meld everything when an opponent whose team may go out holds this few cards (section 3)",
    ),
    Knob(
        "hold_melds",
        0.0,
        "1: no new melds of naturals from hand once opened, except to complete a "
        "canasta (5+ of a rank) or when the hand may end (section 3)",
    ),
    Knob(
        "safe_discard",
        1.0,
        "weight of the danger estimate in the discard choice (0: plain least useful "
        "card) -- melded ranks of the next opponent, rule of 8, its last discard (section 6)",
    ),
    Knob(
        "black3_stop",
        5.0,
        "a black three is kept as a stop and played when the pile holds this many "
        "cards (0: black threes are discarded first, like greedy) (section 5)",
    ),
    Knob(
        "concealed",
        0.0,
        "1: while the team has not melded, go out concealed when the whole hand can be "
        "melded with a canasta (section 7); acts only when the opening rules would not open "
        "(open_with_pile_only=1, a high open_threshold): else the opening melds the same cards",
    ),
    Knob(
        "joker_first", 1.0, "1: meld jokers first and keep twos (freeze with twos); 0: twos first"
    ),
    Knob(
        "late_stock",
        6.0,
        'the hand "may end" when the stock holds this few cards (hands seldom last '
        "until the stock is below 15: useful values are higher)",
    ),
    Knob(
        "shed_high_when_ending",
        1.0,
        "1: when the hand may end, discard high cards first (they would "
        "count against us); 0: low cards first as always (section 6)",
    ),
)
K: HeuristicKnobs = knob_index(
    "HeuristicKnobs", KNOB_TABLE
)  # K.<name>: the knob's position in the vector
DEFAULTS: dict[str, float] = knob_defaults(KNOB_TABLE)


def knobs_with(**overrides: float) -> dict[str, float]:
    """DEFAULTS with some values replaced (keeps the knob order)."""
    return _knobs_with(KNOB_TABLE, **overrides)


@njit(
    cache=True, _nrt=False, inline="always"
)  # a thin caller of the core: compiled alone it re-optimizes the core linked below it
def _first_legal_nb(obs, params, buf) -> int:
    n = legal_actions_nb(obs, Off.HANDS, params, buf)
    return buf[0] if n > 0 else -1


@njit(cache=True, _nrt=False)
def decide_nb(
    obs: np.ndarray, params: np.ndarray, knobs: np.ndarray, rng: np.ndarray, buf: np.ndarray
) -> int:
    H = Off.HANDS
    team = team_of_nb(obs)
    need_can = params[Par.CANASTAS_TO_GO_OUT]
    stock = obs[Off.STOCK_LEN]
    if obs[Off.PHASE] == Phase.DRAW:
        return _draw_nb(obs, params, knobs, buf, team)  # (take_ok_nb's precondition)
    if obs[Off.PHASE] != Phase.MELD:  # a finished hand: no legal action (the first legal, if any)
        return _first_legal_nb(obs, params, buf)
    # the meld phase from here on (meld_ok_nb's precondition, in _meld_choice_nb and _black3_nb)

    # ---------------------------------------------------------------- context
    nh = np.int64(0)  # np.int64(0), not 0: see _table_nb
    for k in range(N_KINDS):
        nh += obs[H + k]
    my_can, opp_opened, opp_min_cards, my_side_cards, opp_side_cards = _table_nb(obs, params, team)
    opened = obs[Off.TEAM_OPENED + team] != 0
    late = stock <= knobs[K.late_stock]
    # the hand ends soon when an opponent whose team may go out holds few cards: such an
    # opponent holds at least opp_min_cards, so the threat scan (canastas of every opposing
    # team) runs only when those are few enough
    meld_all_le = knobs[K.meld_all_when_opp_cards_le]
    ending = late or (
        opp_min_cards <= meld_all_le and _threat_cards_nb(obs, params, team) <= meld_all_le
    )
    out_can = knobs[K.go_out_min_canastas] if knobs[K.go_out_min_canastas] > need_can else need_can
    may_out = my_can >= need_can
    want_out = may_out and (
        my_can >= out_can or opp_min_cards <= knobs[K.go_out_opp_cards_le] or late
    )
    meld_all = ending or want_out

    # ---------------------------------------------------------------- meld phase
    mode = (
        0  # 0 discard only, 1 opened: the meld plan, 2 opening in progress or concealed going out
    )
    if opened:
        mode = 1
    elif obs[Off.PENDING_VALUE] > 0 or obs[Off.ASIDE_LEN] > 0:
        mode = 2  # an opening in progress must reach the minimum
    else:
        if (
            knobs[K.concealed] != 0
            and obs[Off.MELDED_BEFORE] == 0
            and can_go_out_concealed_nb(obs, obs[H : H + N_KINDS], params, team)
        ):
            mode = 2
            want_out = True
            meld_all = True
        else:
            allowed = knobs[K.open_with_pile_only] == 0 or opp_opened or ending
            need = obs[Off.TEAM_MIN + team] + knobs[K.open_threshold]
            # the opening oracle only when the points of the whole hand could reach the need: it
            # melds cards of the hand, every card worth >= 0 points (RuleSet: card_values >= 0)
            if allowed and _hand_points_nb(obs, params) >= need:
                pts = max_meld_points_nb(obs, obs[H : H + N_KINDS], params, team, np.int64(2))
                if pts >= need:
                    mode = 2
    if mode > 0:
        a = (
            sequence_move_nb(obs, params) if params[Par.SEQUENCES] != 0 else -1
        )  # Samba: sequences first
        if a >= 0:
            return a
        a = _meld_choice_nb(
            obs,
            params,
            knobs,
            team,
            nh,
            mode == 2,
            want_out,
            mode == 2 or meld_all,
            want_out or not may_out,
        )
        if a >= 0:
            return a
    a = _discard_nb(
        obs, params, knobs, team, ending, opp_opened, opened, my_side_cards, opp_side_cards
    )
    if a >= 0 and discard_ok_nb(obs, params, team, a - Act.DISCARD):  # a discard (_discard_nb)
        return a
    return _first_legal_nb(obs, params, buf)


@njit(cache=True, _nrt=False, inline="always")  # split out for reading only: no call cost
def _hand_points_nb(obs, params) -> int:
    """The card points of the naturals and wild cards in hand: at least what
    `max_meld_points_nb` can find (it melds only those)."""
    H = Off.HANDS
    pts = (
        obs[H + Kind.TWO] * params[Par.CARD_VALUE + Kind.TWO]
        + obs[H + Kind.JOKER] * params[Par.CARD_VALUE + Kind.JOKER]
    )
    for k in range(FIRST_NATURAL, LAST_NATURAL + 1):
        pts += obs[H + k] * params[Par.CARD_VALUE + k]
    return pts


@njit(cache=True, _nrt=False, inline="always")  # split out for reading only: no call cost
def _draw_nb(obs, params, knobs, buf, team) -> int:
    """The draw phase: decline on an exhausted stock; else take onto a team meld, with a natural
    pair (pile >= take_pair_min_pile), with a natural + wild (pile >= take_min_pile), or draw."""
    H = Off.HANDS
    stock = obs[Off.STOCK_LEN]
    pile = obs[Off.PILE_LEN]
    if stock == 0:
        if why_illegal_nb(obs, H, params, Act.DECLINE) == 0:
            return Act.DECLINE
        for a in (Act.TAKE_ONTO, Act.TAKE_PAIR, Act.TAKE_NAT_JOKER, Act.TAKE_NAT_TWO):
            if why_illegal_nb(obs, H, params, a) == 0:
                return a
        return _first_legal_nb(obs, params, buf)
    a = sequence_take_nb(obs, params) if params[Par.SEQUENCES] != 0 else -1  # no call without Samba
    if a >= 0:
        return a
    top = obs[Off.PILE_TOP]
    if (
        pile == 0
        or top < FIRST_NATURAL
        or top > LAST_NATURAL
        or obs[H + top] + meld_nat_nb(obs, team, top) == 0
    ):
        return Act.DRAW  # no take can be legal (a cheap filter; the engine checks the draw)
    if take_ok_nb(obs, params, team, Act.TAKE_ONTO):
        return Act.TAKE_ONTO
    if pile >= knobs[K.take_pair_min_pile] and take_ok_nb(obs, params, team, Act.TAKE_PAIR):
        return Act.TAKE_PAIR
    if pile >= knobs[K.take_min_pile]:
        first = Act.TAKE_NAT_JOKER if knobs[K.joker_first] != 0 else Act.TAKE_NAT_TWO
        second = Act.TAKE_NAT_TWO if knobs[K.joker_first] != 0 else Act.TAKE_NAT_JOKER
        if take_ok_nb(obs, params, team, first):
            return first
        if take_ok_nb(obs, params, team, second):
            return second
    return Act.DRAW


@njit(cache=True, _nrt=False, inline="always")  # split out for reading only: no call cost
def _table_nb(obs, params, team) -> tuple:
    """What the table says: (our canastas, an opponent has opened, fewest cards of an opponent,
    cards on our side, on theirs)."""
    n_seats = obs[Off.N_SEATS]
    # np.int64(0) / np.bool_(False), not 0 / False: numba types a variable set from a constant
    # as that literal at first and compiles each callee it reaches once more for the literal
    my_can = canastas_nb(obs, params, team)
    opp_opened: np.bool_ = np.bool_(False)
    for t in range(obs[Off.N_TEAMS]):
        if t != team and obs[Off.TEAM_OPENED + t] != 0:
            opp_opened = np.bool_(True)
    opp_min_cards = 1000
    my_side_cards = np.int64(0)
    opp_side_cards = np.int64(0)
    for s in range(n_seats):
        hs = obs[Off.HAND_SIZE + s]
        if obs[Off.TEAM_OF_SEAT + s] == team:
            my_side_cards += hs
        else:
            opp_side_cards += hs
            if hs < opp_min_cards:
                opp_min_cards = hs
    return my_can, opp_opened, opp_min_cards, my_side_cards, opp_side_cards


@njit(cache=True, _nrt=False, inline="always")  # split out for reading only: no call cost
def _threat_cards_nb(obs, params, team) -> int:
    """Fewest cards of an opponent whose team may go out soon (enough canastas, or one short
    with a meld one or two cards short of a canasta); 1000 if there is none.  Never fewer than
    `_table_nb`'s fewest cards of an opponent: the caller asks only when those are few."""
    csize = params[Par.CANASTA_SIZE]
    need_can = params[Par.CANASTAS_TO_GO_OUT]
    threat_teams = 0  # bit t: team t may go out soon
    for t in range(obs[Off.N_TEAMS]):
        if t == team:
            continue
        c = canastas_nb(obs, params, t)
        near = 0
        if c == need_can - 1:  # else c + near >= need_can is decided by c alone (near is 0 or 1)
            for k in range(FIRST_NATURAL, LAST_NATURAL + 1):
                ms = meld_size_nb(obs, t, k)
                if csize - 2 <= ms < csize:
                    near = 1
        if c + near >= need_can:
            threat_teams |= 1 << t
    threat_cards = 1000
    for s in range(obs[Off.N_SEATS]):
        t = obs[Off.TEAM_OF_SEAT + s]
        hs = obs[Off.HAND_SIZE + s]
        if t != team and (threat_teams >> t) & 1 != 0 and hs < threat_cards:
            threat_cards = hs
    return threat_cards


@njit(cache=True, _nrt=False, inline="always")  # split out for reading only: no call cost
def _largest_meld_nb(mask, m_nat, m_two, m_joker) -> int:
    """The rank of `mask` (non-zero, bit k for rank k) whose team meld is the largest (ties:
    the higher rank)."""
    best_k = -1
    best_key = -1
    while mask != 0:
        k = lowest_bit_nb(mask)
        mask &= mask - 1
        key = m_nat[k] + m_two[k] + m_joker[k]
        if key >= best_key:  # visited from the lowest rank up: >= keeps the higher rank on ties
            best_key = key
            best_k = k
    return best_k


@njit(cache=True, _nrt=False)
def _meld_choice_nb(obs, params, knobs, team, nh, opening, going_out, meld_all, allow_out) -> int:
    """The first legal meld/add of the plan, or -1 to discard (in the meld phase only).  `opening`:
    the minimum must be reached (or a concealed going out); `going_out`: we want to go out;
    `meld_all`: everything but kept pairs may be melded (opening, going out, hand ending);
    `allow_out`: melds may leave fewer than 2 cards (the legality check still refuses it when the
    team may not go out)."""
    H = Off.HANDS
    csize = params[Par.CANASTA_SIZE]
    keep = 0 if allow_out else 2
    jokers = obs[H + Kind.JOKER]
    twos = obs[H + Kind.TWO]
    wilds = jokers + twos
    joker_first = knobs[K.joker_first] != 0
    base = team * N_KINDS
    hand = obs[H : H + N_KINDS]
    m_nat = obs[Off.MELD_NAT + base : Off.MELD_NAT + base + N_KINDS]
    m_two = obs[Off.MELD_TWO + base : Off.MELD_TWO + base + N_KINDS]
    m_joker = obs[Off.MELD_JOKER + base : Off.MELD_JOKER + base + N_KINDS]
    hold = knobs[K.hold_melds] != 0 and not meld_all
    # the candidates of each step as bit masks over the natural ranks (bit k), built in one pass
    # without branches (per-rank tests mispredict a lot), then visited in the step's order:
    # best-first by the meld size (steps 1, 3), or from the highest rank down (steps 2, 4)
    adds = np.int64(0)  # step 1: a held rank onto a team meld of 3 .. 3 * csize cards
    trips = np.int64(0)  # step 2: three naturals (five while holding melds) of an unmelded rank
    pairs = np.int64(0)  # step 4: a natural pair of an unmelded rank
    for k in range(FIRST_NATURAL, LAST_NATURAL + 1):
        c = hand[k]
        sz = m_nat[k] + m_two[k] + m_joker[k]
        free = np.int64(sz == 0)
        adds |= (np.int64(c > 0) & np.int64(sz >= 3) & np.int64(sz <= 3 * csize)) << k
        trips |= (np.int64(c >= 3) & (np.int64(not hold) | np.int64(c >= 5)) & free) << k
        pairs |= (np.int64(c >= 2) & free) << k
    # 1. naturals onto team melds (largest meld first, so canastas come sooner; ties: the
    # higher rank)
    if nh - 1 >= keep:
        while adds != 0:
            k = _largest_meld_nb(adds, m_nat, m_two, m_joker)
            adds &= ~(np.int64(1) << k)
            if meld_ok_nb(obs, params, team, Act.ADD_NAT + k):
                return Act.ADD_NAT + k
    # 2. new natural melds (from the highest rank down)
    if nh - 3 >= keep:
        while trips != 0:
            k = _highest_bit_nb(trips)
            trips &= ~(np.int64(1) << k)
            a = Act.MELD + k * 3
            if meld_ok_nb(obs, params, team, a):
                return a
    if wilds == 0:
        return _black3_nb(obs, params, team)
    w_first = Kind.JOKER if (joker_first and jokers > 0) or twos == 0 else Kind.TWO
    add_w = Act.ADD_JOKER if w_first == Kind.JOKER else Act.ADD_TWO
    # 3. wilds that complete a canasta this turn (fewest needed first, ties: the higher rank)
    if nh - 1 >= keep:
        done = np.int64(0)
        for k in range(FIRST_NATURAL, LAST_NATURAL + 1):
            nat = m_nat[k]
            w = m_two[k] + m_joker[k]
            need = csize - (nat + w)
            ok = (
                nat + w != 0
                and need >= 1
                and need <= wilds
                and wild_capacity_nb(params, nat, w) >= need
                and nh - need >= keep
            )
            done |= np.int64(ok) << k
        while done != 0:
            k = _largest_meld_nb(done, m_nat, m_two, m_joker)  # (the fewest wild cards needed)
            done &= ~(np.int64(1) << k)
            if meld_ok_nb(obs, params, team, add_w + k):
                return add_w + k
    # 4. a natural pair + a wild (from the highest rank down)
    if (
        (knobs[K.pair_hold] == 0 or opening or going_out or (meld_all and knobs[K.pair_hold] < 2))
        and knobs[K.max_wild_commit] >= 1
        and nh - 3 >= keep
    ):
        v = 2 if w_first == Kind.JOKER else 1
        while pairs != 0:
            k = _highest_bit_nb(pairs)
            pairs &= ~(np.int64(1) << k)
            a = Act.MELD + k * 3 + v
            if meld_ok_nb(obs, params, team, a):
                return a
    # 5. more wilds: only when everything goes down (largest open meld first, then canastas)
    if meld_all and nh - 1 >= keep:
        tried = 0
        while True:
            best_k = -1
            best_key = -1
            for k in range(FIRST_NATURAL, LAST_NATURAL + 1):
                w = m_two[k] + m_joker[k]
                s = m_nat[k] + w
                if s < 3 or s > 3 * csize or (tried >> k) & 1 != 0:
                    continue
                if not going_out and s < csize and w >= knobs[K.max_wild_commit]:
                    continue
                key = (100000 if s < csize else 0) + s * 16 + k  # open melds before canastas
                if key > best_key:
                    best_key = key
                    best_k = k
            if best_k < 0:
                break
            tried |= 1 << best_k
            if meld_ok_nb(obs, params, team, add_w + best_k):
                return add_w + best_k
    return _black3_nb(obs, params, team)


@njit(cache=True, _nrt=False, inline="always")  # split out for reading only: no call cost
def _highest_bit_nb(mask) -> int:
    """Index of the highest set bit of a non-zero mask of natural-rank bits (bit k)."""
    k = LAST_NATURAL
    while (mask >> k) & 1 == 0:
        k -= 1
    return k


@njit(
    cache=True, _nrt=False, inline="always"
)  # a thin caller of the core: compiled alone it re-optimizes the core linked below it
def _black3_nb(obs, params, team) -> int:
    H = Off.HANDS
    if obs[H + Kind.BLACK3] > 0:
        a = (
            Act.ADD_NAT + Kind.BLACK3
            if meld_nat_nb(obs, team, Kind.BLACK3) > 0
            else Act.MELD + Kind.BLACK3 * 3
        )
        if meld_ok_nb(obs, params, team, a):
            return a
    return -1


@njit(cache=True, _nrt=False, inline="always")  # split out for reading only: no call cost
def _team_row_nb(obs, off, team):
    """The N_KINDS counts of field `off` (MELD_NAT, MELD_TWO, MELD_JOKER) of `team`, as a view."""
    return obs[off + team * N_KINDS : off + team * N_KINDS + N_KINDS]


@njit(cache=True, _nrt=False, inline="always")  # no call cost: typed in each caller
def _pair_chance_nb(unseen, pool, lho_cards, mu0, mp0, mu1, mp1) -> tuple:
    """The chance that the next opponent, holding `lho_cards` of `pool` unseen cards, holds at
    least two of the `unseen` copies of a rank.  It depends on `unseen` alone within one
    discard (pool and lho_cards are the same for every rank), so the last two worked out,
    (mu0, mp0) and (mu1, mp1), are reused, not recomputed.  Returns (chance, mu0, mp0, mu1,
    mp1) with the memo updated."""
    if unseen == mu0:
        return mp0, mu0, mp0, mu1, mp1
    if unseen == mu1:
        return mp1, mu0, mp0, mu1, mp1
    p = unseen / pool
    q = 1.0 - p
    qh = q ** (lho_cards - 1) if lho_cards >= 1 else 1.0
    p2 = 1.0 - qh * q - lho_cards * p * qh
    return p2, unseen, p2, mu0, mp0


@njit(cache=True, _nrt=False, inline="always")  # no call cost: typed in each caller
def _danger_of_nb(
    unseen, ls, onto, onto_canasta, csize, nat_wild, lho_cards, pool, was_last, mu0, mp0, mu1, mp1
) -> tuple:
    """The danger of a discard from its terms: 1 when the next opponent's team has a meld of
    ``ls`` cards of the rank it may take the pile onto (``onto``: the pile is unfrozen for it and
    the rules allow it; onto a canasta only if ``onto_canasta``); else the larger of 0.35 x the
    chance it holds one of the ``unseen`` copies (``nat_wild``: a natural + wild take is open to
    it) and the chance it holds a natural pair (`_pair_chance_nb`, memo ``mu0 .. mp1``); halved
    when it discarded the rank last (``was_last``).  Returns (danger, mu0, mp0, mu1, mp1)."""
    danger = 0.0
    if onto and ls > 0 and (ls < csize or onto_canasta):
        danger = 1.0
    elif nat_wild and unseen >= 1:
        p1 = unseen * lho_cards / pool
        danger = 0.35 * (p1 if p1 < 1.0 else 1.0)
    if unseen >= 2 and danger < 1.0:
        p2, mu0, mp0, mu1, mp1 = _pair_chance_nb(unseen, pool, lho_cards, mu0, mp0, mu1, mp1)
        if p2 > danger:
            danger = p2
    if was_last:
        danger *= 0.5
    return danger, mu0, mp0, mu1, mp1


@njit(cache=True, _nrt=False, inline="always")  # split out for reading only: no call cost
def _danger_nb(
    obs, params, k, c, nxt, lho_team, lho_cards, unfrozen_lho, pool, mu0, mp0, mu1, mp1
) -> tuple:
    """How likely a discard of kind `k` (we hold `c`) lets the next opponent take the pile:
    1 for a rank its team melded while the pile is unfrozen for it; else the chance it holds a
    natural pair of the rank (rule of 8: copies seen in our hand, every meld and the pile), or
    one natural for a natural + wild take; halved for the rank it discarded last.

    The pair chance depends on the unseen copies alone (pool and lho_cards are the same for
    every rank of one discard): the last two worked out, (mu0, mp0) and (mu1, mp1), are reused
    (the same values, not recomputed).  Returns (danger, mu0, mp0, mu1, mp1).

    The plain form, per rank: `_discard_nb` works the same terms out for every rank at once,
    without branches, and both give them to `_danger_of_nb` (tests/test_discard_choice.py
    compares the two choices)."""
    seen = c
    for t in range(obs[Off.N_TEAMS]):
        seen += meld_nat_nb(obs, t, k)
    seen += obs[Off.PILE_COUNTS + k]
    return _danger_of_nb(
        4 * params[Par.DECKS] - seen,
        meld_size_nb(obs, lho_team, k) if unfrozen_lho else 0,
        unfrozen_lho and params[Par.TAKE_ONTO_MELD] != 0,
        params[Par.TAKE_ONTO_CANASTA] == 1,
        params[Par.CANASTA_SIZE],
        unfrozen_lho and params[Par.TAKE_NAT_WILD] != 0,
        lho_cards,
        pool,
        obs[Off.LAST_DISCARD + nxt] == k,
        mu0,
        mp0,
        mu1,
        mp1,
    )


@njit(cache=True, _nrt=False)
def _discard_nb(
    obs, params, knobs, team, ending, opp_opened, opened, my_side_cards, opp_side_cards
) -> int:
    """Score every held kind (lower = discard it) and return the discard action."""
    H = Off.HANDS
    seat = obs[Off.SEAT]
    n_seats = obs[Off.N_SEATS]
    nxt = seat + 1 if seat + 1 < n_seats else 0  # (seat + 1) % n_seats without a division
    lho_team = obs[Off.TEAM_OF_SEAT + nxt]
    lho_cards = obs[Off.HAND_SIZE + nxt]
    pile = obs[Off.PILE_LEN]
    unfrozen_lho = (
        lho_team != team and obs[Off.PILE_FREEZE] == 0 and obs[Off.TEAM_OPENED + lho_team] != 0
    )
    # cards the next opponent could be holding: stock + every other hand
    pool = obs[Off.STOCK_LEN] - obs[Off.HAND_SIZE + seat]
    for s in range(n_seats):
        pool += obs[Off.HAND_SIZE + s]
    if pool < 1:
        pool = 1
    safe_w = knobs[K.safe_discard]
    prize = (pile + 1) * 12.0  # rough worth of the pile to whoever takes it
    with_danger = lho_team != team and safe_w > 0
    pair_score = 60.0 if knobs[K.pair_hold] != 0 else 35.0
    per_point = (1.0 - 2.5 * knobs[K.shed_high_when_ending]) if ending else 1.0
    best = -1
    best_score = 1e18
    best_danger = 0.0
    mu0 = np.int64(-1)  # the pair chances last worked out: none yet
    mu1 = np.int64(-1)
    mp0 = 0.0
    mp1 = 0.0
    # the held ranks as a bit mask, built without branches, then visited in rank order (which
    # ranks are held is unpredictable: a test per rank mispredicts a lot); the terms of a
    # rank's score are read from views indexed by the rank alone (contiguous loads, no
    # negative-index checks)
    hand = obs[H : H + N_KINDS]
    my_nat = _team_row_nb(obs, Off.MELD_NAT, team)
    my_two = _team_row_nb(obs, Off.MELD_TWO, team)
    my_joker = _team_row_nb(obs, Off.MELD_JOKER, team)
    lho_nat = _team_row_nb(obs, Off.MELD_NAT, lho_team)
    lho_two = _team_row_nb(obs, Off.MELD_TWO, lho_team)
    lho_joker = _team_row_nb(obs, Off.MELD_JOKER, lho_team)
    nat0 = _team_row_nb(obs, Off.MELD_NAT, 0)  # MAX_TEAMS = 3: every team's naturals
    nat1 = _team_row_nb(obs, Off.MELD_NAT, 1)
    nat2 = _team_row_nb(obs, Off.MELD_NAT, 2)
    pile_counts = obs[Off.PILE_COUNTS : Off.PILE_COUNTS + N_KINDS]
    n_teams = obs[Off.N_TEAMS]
    two_teams = np.int64(n_teams > 1)  # (the rows of absent teams are read, counted 0 times)
    three_teams = np.int64(n_teams > 2)
    copies = 4 * params[Par.DECKS]
    csize = params[Par.CANASTA_SIZE]
    # the next opponent's team melded the rank while the pile is unfrozen for it: danger 1
    onto = unfrozen_lho and params[Par.TAKE_ONTO_MELD] != 0
    onto_canasta = params[Par.TAKE_ONTO_CANASTA] == 1
    held = np.int64(0)
    for k in range(FIRST_NATURAL, LAST_NATURAL + 1):
        held |= np.int64(hand[k] > 0) << k
    nat_wild = unfrozen_lho and params[Par.TAKE_NAT_WILD] != 0
    last = obs[Off.LAST_DISCARD + nxt]
    while held != 0:
        k = lowest_bit_nb(held)
        held &= held - 1
        c = hand[k]
        val = params[Par.CARD_VALUE + k]
        melded = my_nat[k] + my_two[k] + my_joker[k] > 0
        # 0 for a single, pair_score for a pair, 70 from three; +25 for a rank we melded (exact
        # small sums: the same values as the branches they replace)
        score = (
            np.float64(c == 2) * pair_score + np.float64(c >= 3) * 70.0 + np.float64(melded) * 25.0
        )
        score += per_point * val
        danger = 0.0
        # the danger term is >= 0: a rank already scoring no better than the best cannot win
        # with it, so its danger is not worked out (same choice, the costly part skipped)
        if with_danger and score < best_score:
            # _danger_nb's terms, read without branches
            unseen = copies - (
                c + nat0[k] + two_teams * nat1[k] + three_teams * nat2[k] + pile_counts[k]
            )
            danger, mu0, mp0, mu1, mp1 = _danger_of_nb(
                unseen,
                lho_nat[k] + lho_two[k] + lho_joker[k],
                onto,
                onto_canasta,
                csize,
                nat_wild,
                lho_cards,
                pool,
                last == k,
                mu0,
                mp0,
                mu1,
                mp1,
            )
            score += safe_w * danger * prize
        if score < best_score:
            best_score = score
            best = k
            best_danger = danger
    # black three: a stop when the pile is worth protecting, else a cheap discard
    if obs[H + Kind.BLACK3] > 0:
        stop = knobs[K.black3_stop]
        if stop <= 0:
            b3_score = -1000.0
        elif pile + 1 >= stop:
            b3_score = -500.0
        else:
            b3_score = 12.0
        if b3_score < best_score:
            best_score = b3_score
            best = Kind.BLACK3
            best_danger = 0.0
    # freezing with a two (section 5)
    if obs[H + Kind.TWO] > 0 and obs[Off.PILE_FREEZE] == 0 and best != Kind.BLACK3:
        fw = knobs[K.freeze_when]
        freeze = False
        if fw >= 1 and opp_opened and not opened:
            freeze = True
        if (
            fw >= 2
            and unfrozen_lho
            and pile >= 4
            and best_danger >= 0.5
            and my_side_cards >= opp_side_cards
        ):
            freeze = True
        if freeze:
            return Act.DISCARD + Kind.TWO
    if best >= 0:
        return Act.DISCARD + best
    # only wild cards left: two before joker
    if obs[H + Kind.TWO] > 0:
        return Act.DISCARD + Kind.TWO
    if obs[H + Kind.JOKER] > 0:
        return Act.DISCARD + Kind.JOKER
    return -1

"""Rollouts from a position: deal the unseen cards at random, play the hand out, record the end.

A *position* (reports/position.py) fixes what one player knows: their own hand, the melds and
red threes on the table, the pile's top card (or the whole pile), every seat's hand size, the
stock size and the scores.  `prepare()` turns it into

- ``state0``: a full state (layout `Off`) holding every known card and every public field, with
  the unknown slots (other players' hands, the pile below the top, the stock) still empty, and
- ``deal``: an int32 array describing the random completion (`Deal` offsets): the kinds of the
  unseen cards and how many go to each unknown place.

`complete_nb` fills a copy of ``state0`` from ``deal`` with one random stream and calls
`begin_turn_nb`; `rollouts_nb` does that for rollout i = start .. start+n-1 with the stream keyed
(seed, i) — so rollout i's deal and play depend only on (seed, i), never on n or chunking — and
plays each hand to its end with the strategies, exactly like `sim.play.loop.play_hand_nb`.

Random completion (uniform over the deals consistent with what is known):
- Red threes are never in a hand (they are laid at once), so every unseen red three is in the
  stock, at a uniformly random place.  (A red three under the pile's upcard is possible in a real
  game; it is only modelled when the position lists the whole pile with ``pile_cards``.)
- Pile below the top (when only the top is known), never a red three:
  not frozen -> only natural cards and black threes (a wild card would freeze it);
  frozen and no known wild card in the pile -> uniform among the deals with at least one wild
  card below the top (rejection sampling, 256 tries; after that one unseen wild card is forced
  into the bottom slot and the rest is uniform — "the needed wild first");
  frozen with a wild card on top -> any non-red-three cards.
- The other cards go uniformly to the other players' hands (their sizes) and the stock.

Public fields: phase DRAW at the start of the turn of ``to_move`` (then `begin_turn_nb`, which
may end the hand at once if the stock is empty and no take is legal), TURN = the position's turn
(or 0), DEALER such that ``to_move`` is (dealer + 1 + TURN) % n, TEAM_OPENED = the team has melds
on the table, TEAM_MIN from the cumulative scores (`team_minimum_nb`), PILE_FREEZE = wild cards
and red threes in the pile, LAST_DISCARD = -1, WENT_OUT_SEAT = -1, PILE_TAKES = 0.
SEAT_MELDED (it decides whether a going out is concealed): the seats listed by the position's
``melded:`` key; without it, only the seat of a one-seat team with melds on the table (that seat
must have made them) — in team games the acting player is then assumed not to have melded yet
and partners / opponents likewise, so a going out that completes a canasta counts as concealed.

Card entries of the stock / pile arrays are read with ``& 15`` (the kind).  With the suited core
(``Off.HAND_SUITS`` present: stock / pile hold codes ``kind | suit << 4`` and HAND_SUITS must
match HANDS) the natural cards get suits: the position names none, so the copies of each rank
take the suits in turn (own hand, known pile, melds, then the unseen ones, which the shuffle
spreads at random); threes, twos and jokers stay plain kinds.  Without that layout every card is
a plain kind.  (Numba's cache does not see changes of sim/core/enums.py: after a layout change delete
the caches, see docs.)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numba import njit

from sim.core.apply import SCORE_ROWS, begin_turn_nb, score_hand_nb, team_minimum_nb
from sim.core.enums import (
    FIRST_NATURAL,
    LAST_NATURAL,
    MAX_CARDS,
    MAX_SEATS,
    MAX_TEAMS,
    N_ACTIONS,
    N_KINDS,
    End,
    Kind,
    Off,
    Par,
    Phase,
)
from sim.core.rng import STREAM_DECK, STREAM_PLAYERS, randint_nb, seed_rng_nb
from sim.play.loop import (
    ILLEGAL,
    INVARIANT,
    OK,
    check_state_nb,
    deck_composition_nb,
    flag_invariant_nb,
    play_out_nb,
)

__all__ = [
    "Deal",
    "RolloutSetup",
    "rollout_record_dt",
    "prepare",
    "position_to_state",
    "run_rollouts",
    "complete_nb",
    "rollouts_nb",
]


class DealT(NamedTuple):
    """Offsets into the int32 ``deal`` array that describes a random completion."""

    N_PLAIN: int = 0  # unseen natural cards and black threes (pool[0:N_PLAIN])
    N_WILD: int = 1  # unseen twos and jokers (pool[N_PLAIN:N_PLAIN+N_WILD])
    N_RED3: int = 2  # unseen red threes: all go to the stock
    PILE_UNKNOWN: int = 3  # pile cards below the known ones, PILE[0:PILE_UNKNOWN]
    PILE_MODE: int = 4  # 0 plain cards only, 1 any non-red-three, 2 any with >= 1 wild card
    STOCK_N: int = 5  # stock size
    SEAT_COUNT: int = 6  # [MAX_SEATS] unknown hand cards per seat
    POOL: int = 12  # [MAX_CARDS] kinds of the unseen non-red-three cards, plain first
    SIZE: int = 12 + MAX_CARDS


Deal = DealT()

# Suited hands (the Samba core): HAND_SUITS[seat, suit, natural rank] must match HANDS, and the
# stock / pile hold codes kind | suit << 4.  Without that layout cards are plain kinds.
_HAND_SUITS = int(getattr(Off, "HAND_SUITS", -1))
_PILE_TOP_SUIT = int(getattr(Off, "PILE_TOP_SUIT", -1))
_N_SUITED = 44  # 4 suits x 11 natural ranks
SUITED = _HAND_SUITS >= 0
PILE_PLAIN = 0
PILE_ANY = 1
PILE_NEED_WILD = 2
WILD_TRIES = 256

rollout_record_dt = np.dtype(
    [
        ("went_out_team", np.int8),  # engine team that went out, -1 if the hand ended otherwise
        ("went_out_seat", np.int8),
        ("end_reason", np.int8),  # sim.core.enums.End
        ("concealed", np.int8),
        ("turns", np.int16),  # turn in which the hand ended, the current turn = 1
        ("decisions", np.int32),
        ("score", np.int32, (MAX_TEAMS,)),  # hand score per engine team (score_hand_nb row 0)
    ],
    align=True,
)


# ----------------------------------------------------------------------------- kernels


@njit(cache=True, _nrt=False)
def _is_wild_nb(card: int) -> bool:
    k = card & 15
    return k == Kind.TWO or k == Kind.JOKER


@njit(cache=True, _nrt=False)
def _deal_to_hand_nb(state, seat, card) -> None:
    """One hidden card into a hand (HAND_SIZE already counts it: it comes from the position).
    The single place to extend when hands carry suits (Samba)."""
    k = card & 15
    state[Off.HANDS + seat * N_KINDS + k] += 1
    if _HAND_SUITS >= 0 and FIRST_NATURAL <= k <= LAST_NATURAL:
        state[_HAND_SUITS + seat * _N_SUITED + (card >> 4) * 11 + k - FIRST_NATURAL] += 1


@njit(cache=True, _nrt=False)
def _partial_shuffle_nb(rng, arr, lo, hi, k) -> None:
    """Put a uniform random ordered sample of k entries of arr[lo:hi] into arr[lo:lo+k]."""
    for i in range(k):
        j = lo + i + randint_nb(rng, hi - lo - i)
        tmp = arr[lo + i]
        arr[lo + i] = arr[j]
        arr[j] = tmp


@njit(cache=True, _nrt=False)
def complete_nb(state: np.ndarray, state0: np.ndarray, params: np.ndarray, deal: np.ndarray,
                rng: np.ndarray, pool: np.ndarray) -> None:
    """state := state0 with the unknown slots dealt from ``deal`` (see the module docstring),
    then `begin_turn_nb`.  ``pool`` is int32 scratch of at least MAX_CARDS entries."""
    for i in range(state.shape[0]):  # a plain loop: slice copies need numba's runtime (NRT)
        state[i] = state0[i]
    n_plain = deal[Deal.N_PLAIN]
    nr = n_plain + deal[Deal.N_WILD]
    for i in range(nr):
        pool[i] = deal[Deal.POOL + i]
    p = deal[Deal.PILE_UNKNOWN]
    mode = deal[Deal.PILE_MODE]
    if p > 0:
        if mode == PILE_PLAIN:
            _partial_shuffle_nb(rng, pool, 0, n_plain, p)
        elif mode == PILE_ANY:
            _partial_shuffle_nb(rng, pool, 0, nr, p)
        else:
            ok = False
            for _t in range(WILD_TRIES):
                _partial_shuffle_nb(rng, pool, 0, nr, p)
                for i in range(p):
                    if _is_wild_nb(pool[i]):
                        ok = True
                        break
                if ok:
                    break
            if not ok:
                nw = 0
                for i in range(nr):
                    if _is_wild_nb(pool[i]):
                        nw += 1
                pick = randint_nb(rng, nw)
                for i in range(nr):
                    if _is_wild_nb(pool[i]):
                        if pick == 0:
                            tmp = pool[0]
                            pool[0] = pool[i]
                            pool[i] = tmp
                            break
                        pick -= 1
                _partial_shuffle_nb(rng, pool, 1, nr, p - 1)
        for i in range(p):
            c = pool[i]
            k = c & 15
            state[Off.PILE + i] = c
            state[Off.PILE_COUNTS + k] += 1
            if k == Kind.TWO or k == Kind.JOKER or k == Kind.RED3:
                state[Off.PILE_FREEZE] += 1
    # the rest: uniformly to the other hands, then the stock (with the red threes)
    _partial_shuffle_nb(rng, pool, p, nr, nr - p)
    idx = p
    for s in range(state[Off.N_SEATS]):
        for _ in range(deal[Deal.SEAT_COUNT + s]):
            _deal_to_hand_nb(state, s, pool[idx])
            idx += 1
    n_stock = deal[Deal.STOCK_N]
    m = 0
    while idx < nr:
        state[Off.STOCK + m] = pool[idx]
        idx += 1
        m += 1
    n_r3 = deal[Deal.N_RED3]
    for _ in range(n_r3):
        state[Off.STOCK + m] = Kind.RED3
        m += 1
    if n_r3 > 0:
        # red threes to uniform places of the (already uniformly ordered) stock
        for i in range(n_stock - 1, 0, -1):
            j = randint_nb(rng, i + 1)
            tmp = state[Off.STOCK + i]
            state[Off.STOCK + i] = state[Off.STOCK + j]
            state[Off.STOCK + j] = tmp
    state[Off.STOCK_POS] = 0
    state[Off.STOCK_LEN] = n_stock
    begin_turn_nb(state, params)


@njit(cache=True)
def rollouts_nb(state0, params, deal, strat_ids, knobs, seed, start, n, check, out, status) -> int:
    """Rollouts start .. start+n-1 into out[0:n] (rollout_record_dt); returns how many were done.

    Rollout i deals with the stream key (seed, i, 0, STREAM_DECK) and seat s decides with
    (seed, i, 0, STREAM_PLAYERS + 1 + s).  The completed state is always checked with
    `check_state_nb`; with ``check`` every state after an action too.  On an illegal action
    status[0] = ILLEGAL, status[1..6] = seat, action, why, rollout, 0, strategy id; on a broken
    invariant status[0] = INVARIANT, status[1..4] = code, rollout, hand (-1: the dealt position
    itself), turn.  Rollouts log no decisions.
    """
    state = np.zeros(Off.STATE_SIZE, np.int32)
    obs = np.zeros(Off.STATE_SIZE, np.int32)
    buf = np.zeros(N_ACTIONS, np.int32)
    pool = np.zeros(MAX_CARDS, np.int32)
    rng = np.zeros((MAX_SEATS, 2), np.uint64)
    deal_rng = np.zeros(2, np.uint64)
    composition = np.zeros(N_KINDS, np.int64)
    totals = np.zeros(N_KINDS, np.int64)
    score = np.zeros((SCORE_ROWS, MAX_TEAMS), np.int32)
    no_log8 = np.zeros((1, 0), np.int8)  # rollouts log nothing: empty decision columns
    no_log16 = np.zeros((1, 0), np.int16)
    no_log32 = np.zeros((1, 0), np.int32)
    no_log64 = np.zeros((1, 0), np.int64)
    deck_composition_nb(params, composition)
    turn0 = state0[Off.TURN]
    for j in range(n):
        i = start + j
        seed_rng_nb(deal_rng, seed, i, 0, STREAM_DECK)
        complete_nb(state, state0, params, deal, deal_rng, pool)
        code = check_state_nb(state, params, composition, totals, buf)
        if code != 0:
            flag_invariant_nb(status, code, i, -1, -1)
            return j
        for s in range(state[Off.N_SEATS]):
            seed_rng_nb(rng[s], seed, i, 0, STREAM_PLAYERS + 1 + s)
        play_out_nb(state, params, strat_ids, knobs, rng, obs, buf, seed, i, 0, False,
                    no_log8, no_log16, no_log32, no_log64, 0, check, composition, totals, status)
        if status[0] != OK:
            return j
        score_hand_nb(state, params, score)
        rec = out[j]
        ws = state[Off.WENT_OUT_SEAT]
        went = state[Off.END_REASON] == End.WENT_OUT and ws >= 0
        rec["went_out_seat"] = ws if went else -1
        rec["went_out_team"] = state[Off.TEAM_OF_SEAT + ws] if went else -1
        rec["end_reason"] = state[Off.END_REASON]
        rec["concealed"] = state[Off.CONCEALED]
        rec["turns"] = state[Off.TURN] - turn0 + 1
        rec["decisions"] = state[Off.DECISIONS]
        for t in range(MAX_TEAMS):
            rec["score"][t] = score[0, t] if t < state[Off.N_TEAMS] else 0
    status[0] = OK
    return n


# ----------------------------------------------------------------------------- Python side


@dataclass
class RolloutSetup:
    """Everything the kernels need for one position (see `prepare`)."""

    state0: np.ndarray  # int32[STATE_SIZE], known cards and public fields, unknown slots empty
    params: np.ndarray  # int32[N_PARAMS]
    deal: np.ndarray  # int32[Deal.SIZE]
    engine_team: tuple[int, ...]  # engine team of each position team (0 = us)
    position_team: tuple[int, ...]  # position team of each engine team
    n_seats: int


def _rules_for(position, rules):
    from sim.core.rules import RuleSet

    if rules is None:
        rules = RuleSet.preset("classic", position.players)
    if not isinstance(rules, RuleSet):
        raise TypeError(f"rules must be a sim.core.rules.RuleSet or None, got {type(rules).__name__}")
    reason = rules.engine_supported()
    if reason:
        raise ValueError(reason)
    if rules.sequences or rules.multiple_melds_per_rank:
        raise ValueError("position files cannot describe Samba sequences or several melds per rank yet")
    if rules.players != position.players:
        raise ValueError(f"the rules are for {rules.players} players but the position has {position.players}")
    if rules.players == 5:
        raise ValueError("5-player positions are not supported (sit-out rotation)")
    if rules.decks != position.decks:
        raise ValueError(f"the rules use {rules.decks} packs but the position says decks: {position.decks}")
    return rules


def prepare(position, rules=None) -> RolloutSetup:
    """Known part of the state + the description of the random completion, or ValueError (one
    line) when the position cannot be dealt under these rules."""
    rules = _rules_for(position, rules)
    params = rules.to_params(0).astype(np.int32)
    n = int(params[Par.N_ACTIVE])
    nt = int(params[Par.N_TEAMS])
    if nt != position.n_teams:
        raise ValueError(f"the rules have {nt} teams but the position has {position.n_teams} (team layout)")
    # position team (from the viewer's side) <-> engine team
    eng = [-1] * nt
    for s in range(n):
        pt, et = position.team_of_seat(s), int(params[Par.TEAM_OF_SEAT + s])
        if eng[pt] not in (-1, et):
            raise ValueError("the rules' team layout does not match the position's (teams = seat % teams)")
        eng[pt] = et
    pos_team = [0] * nt
    for pt, et in enumerate(eng):
        pos_team[et] = pt
    me, mover = position.me, position.to_move
    for s, size in enumerate(position.hand_sizes):
        if size == 0:
            raise ValueError(f"hand_sizes: seat {s} holds no cards (only a player who went out can)")

    st = np.zeros(Off.STATE_SIZE, np.int32)
    turn = int(position.turn or 0)
    st[Off.PHASE] = Phase.DRAW
    st[Off.SEAT] = mover
    st[Off.N_SEATS] = n
    st[Off.N_TEAMS] = nt
    st[Off.TURN] = turn
    st[Off.END_REASON] = End.RUNNING
    st[Off.WENT_OUT_SEAT] = -1
    st[Off.DEALER] = (mover - 1 - turn) % n
    for s in range(MAX_SEATS):
        st[Off.TEAM_OF_SEAT + s] = params[Par.TEAM_OF_SEAT + s]
        st[Off.LAST_DISCARD + s] = -1
    for s in range(n):
        st[Off.HAND_SIZE + s] = position.hand_sizes[s]
    st[Off.HANDS + me * N_KINDS : Off.HANDS + (me + 1) * N_KINDS] = position.hand
    known = np.asarray(position.hand, np.int64).copy()
    # suits (only with the suited core): the position knows none, so the copies of each natural
    # rank take the suits in turn (each suit `decks` times): own hand, known pile, melds, unseen
    dealt_suits = [0] * N_KINDS

    def code(k: int) -> int:
        if not SUITED or not FIRST_NATURAL <= k <= LAST_NATURAL:
            return k
        suit = dealt_suits[k] % 4
        dealt_suits[k] += 1
        return k | (suit << 4)

    for k in range(N_KINDS):
        for _ in range(int(position.hand[k])):
            c = code(k)
            if SUITED and FIRST_NATURAL <= k <= LAST_NATURAL:
                st[_HAND_SUITS + me * _N_SUITED + (c >> 4) * 11 + k - FIRST_NATURAL] += 1
    for pt in range(nt):
        t = eng[pt]
        cum = int(position.scores[pt])
        st[Off.CUM_SCORE + t] = cum
        st[Off.TEAM_MIN + t] = team_minimum_nb(params, cum)
        st[Off.TEAM_RED3 + t] = position.red3[pt]
        known[Kind.RED3] += position.red3[pt]
        st[Off.TEAM_OPENED + t] = 1 if position.melds[pt] else 0
        for m in position.melds[pt]:
            i = t * N_KINDS + m.kind
            st[Off.MELD_NAT + i] = m.naturals
            st[Off.MELD_TWO + i] = m.twos
            st[Off.MELD_JOKER + i] = m.jokers
            known[m.kind] += m.naturals
            known[Kind.TWO] += m.twos
            known[Kind.JOKER] += m.jokers
    # who has melded (decides concealed going out)
    if position.melded is not None:
        melded = set(position.melded)
    else:
        melded = set()
        for s in range(n):
            pt = position.team_of_seat(s)
            if position.melds[pt] and sum(position.team_of_seat(x) == pt for x in range(n)) == 1:
                melded.add(s)
    for s in melded:
        st[Off.SEAT_MELDED + s] = 1
    # the pile: known cards on top of `p_unknown` dealt ones
    size = position.pile_size
    if position.pile_cards:
        listed = list(position.pile_cards)
    elif size > 0:
        listed = [position.pile_top]
    else:
        listed = []
    p_unknown = size - len(listed)
    for j, k in enumerate(listed):
        c = code(k)
        st[Off.PILE + p_unknown + j] = c
        if j == len(listed) - 1 and _PILE_TOP_SUIT >= 0:
            st[_PILE_TOP_SUIT] = c >> 4
        st[Off.PILE_COUNTS + k] += 1
        known[k] += 1
        if k in (Kind.TWO, Kind.JOKER, Kind.RED3):
            st[Off.PILE_FREEZE] += 1
    st[Off.PILE_LEN] = size
    st[Off.PILE_TOP] = listed[-1] if listed else -1
    if not listed and _PILE_TOP_SUIT >= 0:
        st[_PILE_TOP_SUIT] = -1
    st[Off.STOCK_LEN] = position.stock
    st[Off.STOCK_POS] = 0

    comp = np.zeros(N_KINDS, np.int64)
    deck_composition_nb(params, comp)
    unseen = comp - known
    if (unseen < 0).any():
        k = int(np.flatnonzero(unseen < 0)[0])
        from sim.core.enums import KIND_NAMES

        raise ValueError(f"{KIND_NAMES[k]}: {int(known[k])} cards known but the packs hold {int(comp[k])}")
    seat_count = [0] * MAX_SEATS
    for s in range(n):
        if s != me:
            seat_count[s] = position.hand_sizes[s]
    slots = sum(seat_count) + p_unknown + position.stock
    if int(unseen.sum()) != slots:
        raise ValueError(f"cards do not add up: {int(unseen.sum())} unseen cards for {slots} unknown places")
    n_r3 = int(unseen[Kind.RED3])
    if n_r3 > position.stock:
        raise ValueError(f"{n_r3} red threes are unseen but the stock holds only {position.stock} cards "
                         "(a red three never stays in a hand: lay them with 'red3 ...')")
    wild_kinds = (Kind.TWO, Kind.JOKER)
    plain = [k for k in range(N_KINDS) if k not in wild_kinds and k != Kind.RED3]
    n_plain = int(sum(unseen[k] for k in plain))
    n_wild = int(unseen[Kind.TWO] + unseen[Kind.JOKER])
    if position.frozen and p_unknown == 0 and st[Off.PILE_FREEZE] == 0:
        raise ValueError("frozen: the pile holds no wild card or red three")
    if not position.frozen:
        mode = PILE_PLAIN
        if p_unknown > n_plain:
            raise ValueError(f"the pile is not frozen, so its {p_unknown} hidden cards are natural, "
                             f"but only {n_plain} natural cards are unseen")
        if st[Off.PILE_FREEZE] > 0 and rules.upcard_freezes:
            raise ValueError("frozen: no, but the pile holds a wild card or red three")
    elif st[Off.PILE_FREEZE] > 0:
        mode = PILE_ANY
    else:
        mode = PILE_NEED_WILD
        if n_wild == 0:
            raise ValueError("the pile is frozen but every wild card is accounted for elsewhere")
    if p_unknown > 0 and mode != PILE_PLAIN and p_unknown > n_plain + n_wild:
        raise ValueError(f"the pile's {p_unknown} hidden cards cannot all be red threes")
    deal = np.zeros(Deal.SIZE, np.int32)
    deal[Deal.N_PLAIN] = n_plain
    deal[Deal.N_WILD] = n_wild
    deal[Deal.N_RED3] = n_r3
    deal[Deal.PILE_UNKNOWN] = p_unknown
    deal[Deal.PILE_MODE] = mode
    deal[Deal.STOCK_N] = position.stock
    deal[Deal.SEAT_COUNT : Deal.SEAT_COUNT + MAX_SEATS] = seat_count
    for pt in range(nt):
        for m in position.melds[pt]:
            for _ in range(m.naturals):
                code(m.kind)
    cards = [code(k) for k in plain for _ in range(int(unseen[k]))]
    cards += [k for k in wild_kinds for _ in range(int(unseen[k]))]
    deal[Deal.POOL : Deal.POOL + len(cards)] = cards
    return RolloutSetup(st, params, deal, tuple(eng), tuple(pos_team), n)


def _rng_array(rng) -> np.ndarray:
    if isinstance(rng, np.ndarray) and rng.dtype == np.uint64 and rng.shape == (2,):
        return rng
    if isinstance(rng, np.random.Generator):
        rng = int(rng.integers(0, 2**62))
    if rng is None:
        rng = 0
    if isinstance(rng, (int, np.integer)) and rng >= 0:
        arr = np.zeros(2, np.uint64)
        seed_rng_nb(arr, int(rng), 0, 0, STREAM_DECK)
        return arr
    raise ValueError(f"rng={rng!r}: give a non-negative int seed, a numpy Generator or a sim.core.rng stream")


def _check_text(code: int) -> str:
    from sim.play.engine import CHECK_TEXT

    return CHECK_TEXT.get(code, f"check {code}")


def position_to_state(position, rules=None, rng=0) -> np.ndarray:
    """One random completion of ``position`` as a full state (int32[STATE_SIZE]) at the start of
    the acting seat's turn.  ``rng``: an int seed, a numpy Generator or a sim.core.rng stream
    (uint64[2], advanced in place).  Raises ValueError (one line) for an impossible position."""
    setup = prepare(position, rules)
    state = np.zeros(Off.STATE_SIZE, np.int32)
    complete_nb(state, setup.state0, setup.params, setup.deal, _rng_array(rng), np.zeros(MAX_CARDS, np.int32))
    comp = np.zeros(N_KINDS, np.int64)
    deck_composition_nb(setup.params, comp)
    code = check_state_nb(state, setup.params, comp, np.zeros(N_KINDS, np.int64), np.zeros(N_ACTIONS, np.int32))
    if code != 0:
        raise ValueError(f"the position is impossible under these rules: {_check_text(code)}")
    return state


def run_rollouts(setup: RolloutSetup, strategies, rollouts: int, seed: int = 0, check: bool = False) -> np.ndarray:
    """Play ``rollouts`` completions of ``setup`` (rollout_record_dt records, engine teams).
    ``strategies``: one spec for every seat or one per seat (strategies.registry.parse_spec)."""
    from sim.core.legal import WHY_TEXT
    from sim.play.engine import action_text_safe
    from strategies.registry import MAX_KNOBS, STRATEGY_NAMES, parse_spec

    if isinstance(strategies, str):
        strategies = [strategies]
    strategies = list(strategies)
    if len(strategies) == 1:
        strategies = strategies * setup.n_seats
    if len(strategies) != setup.n_seats:
        raise ValueError(f"{len(strategies)} strategies for {setup.n_seats} seats: give one, or one per seat")
    if rollouts < 1 or seed < 0:
        raise ValueError("rollouts must be >= 1 and the seed >= 0")
    ids = np.zeros(MAX_SEATS, np.int64)
    knobs = np.zeros((MAX_SEATS, MAX_KNOBS), np.float64)
    for s, spec in enumerate(strategies):
        ids[s], knobs[s] = parse_spec(spec)
    out = np.zeros(rollouts, rollout_record_dt)
    status = np.zeros(16, np.int64)
    done = rollouts_nb(setup.state0, setup.params, setup.deal, ids, knobs, int(seed), 0, int(rollouts),
                       bool(check), out, status)
    if status[0] == ILLEGAL:
        raise RuntimeError(
            f"strategy {STRATEGY_NAMES[int(status[6])]!r} (seat {int(status[1])}) chose an illegal action "
            f"{action_text_safe(int(status[2]))}: {WHY_TEXT[int(status[3])]}; rollout {int(status[4])} seed {seed}")
    if status[0] == INVARIANT:
        if int(status[3]) < 0:
            raise ValueError(f"the position is impossible under these rules: {_check_text(int(status[1]))}")
        raise RuntimeError(f"invariant broken: {_check_text(int(status[1]))} in rollout {int(status[2])} "
                           f"turn {int(status[4])} seed {seed}")
    assert done == rollouts
    return out

"""Rollouts from a position: deal the unseen cards at random, play the hand out, record the end.

A *position* (reports/position.py) fixes what one player knows: their own hand, the melds and
red threes on the table, the pile's top card (or the whole pile), every seat's hand size, the
stock size and the scores.  `prepare()` turns it into

- ``state0``: a full state (layout `Off`) holding every known card and every public field, with
  the unknown slots (other players' hands, the pile below the known cards, the stock) empty,
- ``obs`` / ``know``: what the viewer (``me``) sees and knows (sim.play.worlds.sampler):
  ``state0``'s
  public part and the viewer's hand, the pile counting only its known cards, and the number of
  hidden pile cards, and
- ``deal``: an int32 array summing up the random completion (`Deal` offsets), checked here.

`rollouts_nb` deals rollout i = start .. start+n-1 with sim.play.worlds.sampler.sample_world_nb from
``obs`` / ``know`` alone, stream keyed (seed, i) — so rollout i's deal and play depend only on
(seed, i), never on n or chunking — begins the turn, and plays the hand to its end; every seat
decides from an observation WITHOUT the hidden pile cards (nobody at the table is assumed to know
them: sim.play.selfplay.step.play_out_hidden_nb), so no strategy sees a card its seat could not.

Random completion (uniform over the deals consistent with what is known, sim.play.worlds.sampler):
- Red threes are never in a hand (they are laid at once), so every unseen red three is in the
  stock, at a uniformly random place.  (A red three under the pile's upcard is possible in a real
  game; it is only modelled when the position lists the whole pile with ``pile_cards``.)
- Pile below the known cards, never a red three:
  not frozen -> only natural cards and black threes (a wild card would freeze it);
  frozen and no known wild card in the pile -> uniform among the deals with at least one wild
  card below (rejection sampling, 256 tries; after that one unseen wild card is forced
  into the bottom slot and the rest is uniform);
  frozen with a known wild card -> any non-red-three cards.
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
(``Off.HAND_SUITS`` present: stock / pile hold codes ``kind | suit << 4`` and HAND_SUITS must match
HANDS) the natural cards get suits: the position names none, so the copies of each rank take the
suits in turn (own hand, known pile, melds, then the unseen ones, which the shuffle spreads at
random); threes, twos and jokers stay plain kinds.  Without that layout every card is a plain kind.
(Numba's cache does not see changes of sim/core/enums.py: after a layout change delete the caches,
see docs.)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from sim.core.apply import (
    SCORE_ROWS,
    begin_turn_nb,
    score_hand_nb,
    team_minimum_nb,
)
from sim.core.enums import (
    KIND_NAMES,
    MAX_CARDS,
    MAX_SEATS,
    MAX_SEQS,
    MAX_TEAMS,
    N_ACTIONS,
    N_KINDS,
    N_SUITED,
    End,
    Kind,
    Off,
    Par,
    Phase,
)
from sim.core.rng import STREAM_DECK, STREAM_PLAYERS, seed_rng_nb
from sim.play.positions.cards import PositionError
from sim.play.positions.last_turn import discard_visible, draw_snapshot, undo_later_turns
from sim.play.selfplay.checks import check_state_nb, flag_invariant_nb
from sim.play.selfplay.loop import deck_composition_nb
from sim.play.selfplay.status import Broken, Illegal, NoWorld, Slot, Status
from sim.play.selfplay.step import play_out_hidden_nb
from sim.play.worlds.sampler import (
    ERROR_TEXT,
    Know,
    new_know,
    sample_world_nb,
    unseen_nb,
)

__all__ = [
    "RolloutSetup",
    "rollout_record_dt",
    "prepare",
    "position_to_state",
    "run_rollouts",
    "rollouts_nb",
]


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


@njit(cache=True)
def rollouts_nb(
    obs, know, params, begin, strat_ids, knobs, seed, start, n, check, out, status
) -> int:
    """Rollouts start .. start+n-1 into out[0:n] (rollout_record_dt); returns how many were done.

    Rollout i samples a world from the viewer's observation ``obs`` and knowledge ``know``
    (sim.play.worlds.sampler.sample_world_nb, stream key (seed, i, 0, STREAM_DECK)), begins the turn
    of the seat to move when ``begin`` (`begin_turn_nb`: a start-of-turn position), and plays the
    hand out with seat s deciding with stream (seed, i, 0, STREAM_PLAYERS + 1 + s) from observations
    that leave out the pile cards nobody has seen (`sim.play.selfplay.step.play_out_hidden_nb`).
    The world is always checked with `check_state_nb`; with ``check`` every state after an action
    too.  Stops with the status array's `Illegal`, `Broken` (turn -1: the dealt position itself) or
    `NoWorld` slots set and the rollout in `Slot.ROLLOUT`.  Rollouts log no decisions.
    """
    state = np.zeros(Off.STATE_SIZE, np.int32)
    sobs = np.zeros(Off.STATE_SIZE, np.int32)
    buf = np.zeros(N_ACTIONS, np.int32)
    pool = np.zeros(MAX_CARDS, np.int32)
    unseen = np.zeros(N_KINDS, np.int64)
    suit_next = np.zeros(N_KINDS, np.int64)
    rng = np.zeros((MAX_SEATS, 2), np.uint64)
    deal_rng = np.zeros(2, np.uint64)
    composition = np.zeros(N_KINDS, np.int64)
    totals = np.zeros(N_KINDS, np.int64)
    score = np.zeros((SCORE_ROWS, MAX_TEAMS), np.int32)
    deck_composition_nb(params, composition)
    turn0 = obs[Off.TURN]
    hidden = know[Know.PILE_HIDDEN]
    for j in range(n):
        i = start + j
        seed_rng_nb(deal_rng, seed, i, 0, STREAM_DECK)
        code = sample_world_nb(obs, know, params, deal_rng, state, pool, unseen, suit_next)
        if code != 0:
            status[NoWorld.CODE] = Status.NO_WORLD
            status[NoWorld.ERROR] = code
            status[Slot.ROLLOUT] = i
            return j
        if begin:
            begin_turn_nb(state, params)
        code = check_state_nb(state, params, composition, totals, buf)
        if code != 0:  # the dealt position itself: turn -1
            flag_invariant_nb(status, code, 0, 0, -1)
            status[Slot.ROLLOUT] = i
            return j
        for s in range(state[Off.N_SEATS]):
            seed_rng_nb(rng[s], seed, i, 0, STREAM_PLAYERS + 1 + s)
        if check:
            play_out_hidden_nb(
                state,
                params,
                strat_ids,
                knobs,
                rng,
                sobs,
                buf,
                hidden,
                status,
                True,
                composition,
                totals,
            )
        else:
            play_out_hidden_nb(
                state, params, strat_ids, knobs, rng, sobs, buf, hidden, status, None, None, None
            )
        if status[Slot.CODE] != Status.OK:
            status[Slot.ROLLOUT] = i
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
    status[Slot.CODE] = Status.OK
    return n


# ----------------------------------------------------------------------------- Python side


@dataclass
class RolloutSetup:
    """Everything the kernels need for one position (see `prepare`)."""

    params: np.ndarray  # int32[N_PARAMS]
    obs: np.ndarray  # int32[STATE_SIZE], the viewer's observation (sim.play.worlds.sampler)
    know: (
        np.ndarray
    )  # int32[Know.SIZE], the viewer's knowledge: hidden pile cards, known hands, aside
    engine_team: tuple[int, ...]  # engine team of each position team (0 = us)
    position_team: tuple[int, ...]  # position team of each engine team
    n_seats: int
    begin: bool  # a start-of-turn position: begin_turn_nb runs on every world (it may end the hand)
    table: str = ""  # RuleSet.label: strategies tuned per table play this table's set


def rules_for_position(position, rules):
    from sim.core.rules import RuleSet

    if rules is None:
        rules = RuleSet.preset(
            position.rules or "classic",
            position.players,
            position.team_layout,
            **(position.overrides or {}),
        )
    if not isinstance(rules, RuleSet):
        raise PositionError(
            f"rules must be a sim.core.rules.RuleSet or None, got {type(rules).__name__}"
        )
    reason = rules.engine_supported()
    if reason:
        raise PositionError(reason)
    if rules.sequences and position.sequences is None:
        raise PositionError(
            "the rules have sequences (Samba) but the position was read without them: "
            "give rules: samba in the position"
        )
    if rules.players != position.players:
        raise PositionError(
            f"the rules are for {rules.players} players but the position has {position.players}"
        )
    if rules.decks != position.decks:
        raise PositionError(
            f"the rules use {rules.decks} packs but the position says decks: {position.decks}"
        )
    return rules


def _teams(position, params) -> tuple[list[int], list[int]]:
    """Engine team of each position team, and position team of each engine team."""
    n, nt = int(params[Par.N_ACTIVE]), int(params[Par.N_TEAMS])
    if nt != position.n_teams:
        raise PositionError(
            f"the rules have {nt} teams but the position has {position.n_teams} (team layout)"
        )
    eng = [-1] * nt
    for s in range(n):
        pt, et = position.team_of_seat(s), int(params[Par.TEAM_OF_SEAT + s])
        if eng[pt] not in (-1, et):
            raise PositionError(
                "the rules' team layout does not match the position's (teams = seat % teams)"
            )
        eng[pt] = et
    pos_team = [0] * nt
    for pt, et in enumerate(eng):
        pos_team[et] = pt
    return eng, pos_team


def _seat_melded(position, n: int) -> set[int]:
    """The seats listed by ``melded:``; without it, only the seat of a one-seat team with melds
    on the table (that seat must have made them)."""
    if position.melded is not None:
        return set(position.melded)
    out = set()
    for s in range(n):
        pt = position.team_of_seat(s)
        if position.melds[pt] and sum(position.team_of_seat(x) == pt for x in range(n)) == 1:
            out.add(s)
    return out


def _turn_fields(obs, position, n: int, melded: set[int]) -> None:
    turn, mover = int(position.turn or 0), position.to_move
    obs[Off.PHASE] = Phase.DRAW if position.phase == "draw" else Phase.MELD
    obs[Off.SEAT] = mover
    obs[Off.N_SEATS] = n
    obs[Off.TURN] = turn
    obs[Off.END_REASON] = End.RUNNING
    obs[Off.WENT_OUT_SEAT] = -1
    obs[Off.DEALER] = (mover - 1 - turn) % n
    obs[Off.PILE_TOP_SUIT] = -1
    if position.phase == "meld":
        obs[Off.TOOK_PILE] = 1 if position.took_pile else 0
        obs[Off.PENDING_VALUE] = position.pending
        obs[Off.ASIDE_LEN] = 0 if position.aside is None else int(position.aside.sum())
        obs[Off.CANASTAS_THIS_TURN] = position.canastas_this_turn
        before = position.melded_before if position.melded_before is not None else mover in melded
        obs[Off.MELDED_BEFORE] = 1 if before else 0
    for s in range(MAX_SEATS):
        obs[Off.LAST_DISCARD + s] = (
            -1 if position.last_discard is None or s >= n else position.last_discard[s]
        )
    for s in range(n):
        obs[Off.HAND_SIZE + s] = position.hand_sizes[s]
        obs[Off.SEAT_MELDED + s] = 1 if s in melded else 0


def _team_fields(obs, position, params, eng) -> None:
    multi, size = params[Par.MULTI_MELDS] != 0, int(params[Par.CANASTA_SIZE])
    for pt, t in enumerate(eng):
        cum = int(position.scores[pt])
        obs[Off.CUM_SCORE + t] = cum
        obs[Off.TEAM_MIN + t] = team_minimum_nb(params, cum)
        obs[Off.TEAM_RED3 + t] = position.red3[pt]
        obs[Off.TEAM_OPENED + t] = 1 if position.team_opened(pt) else 0
        for q, (suit, low, n) in enumerate((position.sequences or [[]] * len(eng))[pt]):
            obs[Off.SEQ_SUIT + t * MAX_SEQS + q] = suit
            obs[Off.SEQ_LOW + t * MAX_SEQS + q] = low
            obs[Off.SEQ_LEN + t * MAX_SEQS + q] = n
        for m in position.melds[pt]:
            i = t * N_KINDS + m.kind
            if multi and m.size >= size:  # closed canastas: the engine keeps their totals
                obs[Off.CLOSED_COUNT + i] += 1
                obs[Off.CLOSED_NAT + i] += m.naturals
                obs[Off.CLOSED_TWO + t] += m.twos
                obs[Off.CLOSED_JOKER + t] += m.jokers
                obs[Off.CLOSED_NATURAL + t] += m.twos + m.jokers == 0
                continue
            obs[Off.MELD_NAT + i] = m.naturals
            obs[Off.MELD_TWO + i] = m.twos
            obs[Off.MELD_JOKER + i] = m.jokers


def _pile_fields(obs, position, rules) -> None:
    """The known pile cards (the top one, or the listed ones); PILE_FREEZE counts the known
    freezing cards, 1 when only hidden cards can freeze the pile."""
    listed = (
        list(position.pile_cards)
        if position.pile_cards
        else ([position.pile_top] if position.pile_size else [])
    )
    freeze = 0
    for k in listed:
        obs[Off.PILE_COUNTS + k] += 1
        freeze += 1 if k in (Kind.TWO, Kind.JOKER, Kind.RED3) else 0
    if freeze and not position.frozen and rules.upcard_freezes:
        raise PositionError("frozen: no, but the pile holds a wild card or red three")
    obs[Off.PILE_LEN] = position.pile_size
    obs[Off.PILE_TOP] = listed[-1] if listed else -1
    obs[Off.PILE_TOP_SUIT] = position.pile_top_suit if listed else -1
    obs[Off.PILE_FREEZE] = freeze if freeze else (1 if position.frozen else 0)
    obs[Off.STOCK_LEN] = position.stock


def _check_cards(obs, know, params, position) -> None:
    """One-line reasons why the unseen cards cannot fill the hidden places."""
    comp = np.zeros(N_KINDS, np.int64)
    unseen = np.zeros(N_KINDS, np.int64)
    deck_composition_nb(params, comp)
    if unseen_nb(obs, know, params, unseen) != 0:
        k = int(np.flatnonzero(unseen < 0)[0])
        raise PositionError(
            f"{KIND_NAMES[k]}: {int(comp[k] - unseen[k])} cards known but the packs hold "
            f"{int(comp[k])}"
        )
    hidden = int(know[Know.PILE_HIDDEN])
    n_plain = int(unseen.sum() - unseen[Kind.TWO] - unseen[Kind.JOKER] - unseen[Kind.RED3])
    n_wild = int(unseen[Kind.TWO] + unseen[Kind.JOKER])
    if unseen[Kind.RED3] > position.stock:
        raise PositionError(
            f"{int(unseen[Kind.RED3])} red threes are unseen but the stock holds only "
            f"{position.stock} "
            "cards (a red three never stays in a hand: lay them with 'red3 ...')"
        )
    if hidden and not position.frozen and hidden > n_plain:
        raise PositionError(
            f"the pile is not frozen, so its {hidden} hidden cards are natural, "
            f"but only {n_plain} natural cards are unseen"
        )
    if (
        hidden
        and position.frozen
        and obs[Off.PILE_COUNTS + Kind.TWO]
        + obs[Off.PILE_COUNTS + Kind.JOKER]
        + obs[Off.PILE_COUNTS + Kind.RED3]
        == 0
        and n_wild == 0
    ):
        raise PositionError("the pile is frozen but every wild card is accounted for elsewhere")
    if (
        position.frozen
        and not hidden
        and obs[Off.PILE_COUNTS + Kind.TWO]
        + obs[Off.PILE_COUNTS + Kind.JOKER]
        + obs[Off.PILE_COUNTS + Kind.RED3]
        == 0
    ):
        raise PositionError("frozen: the pile holds no wild card or red three")
    if hidden > n_plain + n_wild:
        raise PositionError(f"the pile's {hidden} hidden cards cannot all be red threes")


def _typed_snapshots(obs, know, position, n: int) -> None:
    """Approximate snapshots of the other seats' last discard decisions (sim.play.worlds.sampler
    SNAP), for model-consistent worlds (``--infer``) from a typed position: seat s, d seats
    before the seat to move, discarded the d-th known pile card from the top, under the
    discards of the seats after it.  The snapshot is the observation with the pile as it was
    before that discard (the d top cards removed) and seat s to act holding one card more;
    the melds and hand sizes of the later seats are taken as they are now (an approximation).
    Needs ``last_discard`` and those pile cards in ``pile_cards``; none when the pile was taken
    since or the listed cards disagree with the last discards."""
    listed = list(position.pile_cards or [])
    hidden = position.pile_hidden
    for d in range(1, n):
        s = (position.to_move - d) % n
        if not discard_visible(position, d):
            continue
        snap = obs[: Off.PUB_SIZE].copy()
        for j in range(d):
            snap[Off.PILE_COUNTS + listed[-1 - j]] -= 1
        snap[Off.PILE_LEN] -= d
        rest = listed[: len(listed) - d]
        snap[Off.PILE_TOP] = rest[-1] if rest else -1
        freeze = sum(1 for k in rest if k in (Kind.TWO, Kind.JOKER, Kind.RED3))
        snap[Off.PILE_FREEZE] = (
            freeze
            if freeze or not rest
            else int(
                bool(obs[Off.PILE_FREEZE])
                and hidden > 0
                and not any(k in (Kind.TWO, Kind.JOKER, Kind.RED3) for k in listed)
            )
        )
        snap[Off.SEAT] = s
        snap[Off.PHASE] = Phase.MELD
        snap[Off.TURN] = max(int(snap[Off.TURN]) - d, 0)
        snap[Off.HAND_SIZE + s] += 1
        for f in (Off.TOOK_PILE, Off.PENDING_VALUE, Off.ASIDE_LEN, Off.CANASTAS_THIS_TURN):
            snap[f] = 0
        snap[Off.MELDED_BEFORE] = snap[Off.SEAT_MELDED + s]
        know[Know.SNAP + s * Off.PUB_SIZE : Know.SNAP + (s + 1) * Off.PUB_SIZE] = snap
        know[Know.SNAP_VALID + s] = 1


def prepare(position, rules=None) -> RolloutSetup:
    """The viewer's observation and knowledge of ``position`` (reports.position.Position), or
    ValueError (one line) when the position cannot be dealt under these rules (default: the
    position's own rules, else classic)."""
    rules = rules_for_position(position, rules)
    params = rules.to_params(0).astype(np.int32)
    n, nt = int(params[Par.N_ACTIVE]), int(params[Par.N_TEAMS])
    eng, pos_team = _teams(position, params)
    for s, size in enumerate(position.hand_sizes):
        if size == 0:
            raise PositionError(
                f"hand_sizes: seat {s} holds no cards (only a player who went out can)"
            )
    obs = np.zeros(Off.STATE_SIZE, np.int32)
    obs[Off.N_TEAMS] = nt
    for s in range(MAX_SEATS):
        obs[Off.TEAM_OF_SEAT + s] = params[Par.TEAM_OF_SEAT + s]
    _turn_fields(obs, position, n, _seat_melded(position, n))
    _team_fields(obs, position, params, eng)
    _pile_fields(obs, position, rules)
    obs[Off.HANDS : Off.HANDS + N_KINDS] = position.hand
    if position.hand_suits is not None:
        obs[Off.HAND_SUITS : Off.HAND_SUITS + N_SUITED] = position.hand_suits.reshape(-1)
    know = new_know(position.me, position.pile_hidden)
    for s, c in position.known.items():
        know[Know.KNOWN + s * N_KINDS : Know.KNOWN + (s + 1) * N_KINDS] = c
    if position.aside is not None:
        know[Know.ASIDE : Know.ASIDE + N_KINDS] = position.aside
    _check_cards(obs, know, params, position)
    _typed_snapshots(obs, know, position, n)
    for s, lt in position.last_turns.items():
        draw_snapshot(know, params, s, lt)
    undo_later_turns(know, params, position, n)
    return RolloutSetup(
        params, obs, know, tuple(eng), tuple(pos_team), n, position.phase == "draw", rules.label
    )


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
    raise PositionError(
        f"rng={rng!r}: give a non-negative int seed, a numpy Generator or a sim.core.rng stream"
    )


def _check_text(code: int) -> str:
    from sim.play.selfplay.status import CHECK_TEXT

    return CHECK_TEXT.get(code, f"check {code}")


def position_to_state(position, rules=None, rng: int = 0) -> np.ndarray:
    """One random completion of ``position`` as a full state (int32[STATE_SIZE]) at the start of
    the acting seat's turn.  ``rng``: an int seed, a numpy Generator or a sim.core.rng stream
    (uint64[2], advanced in place).  Raises ValueError (one line) for an impossible position."""
    setup = prepare(position, rules)
    state = np.zeros(Off.STATE_SIZE, np.int32)
    code = sample_world_nb(
        setup.obs,
        setup.know,
        setup.params,
        _rng_array(rng),
        state,
        np.zeros(MAX_CARDS, np.int32),
        np.zeros(N_KINDS, np.int64),
        np.zeros(N_KINDS, np.int64),
    )
    if code != 0:
        raise PositionError(f"the position is impossible under these rules: {ERROR_TEXT[code]}")
    _keep_pile_order(state, position)
    if setup.begin:
        begin_turn_nb(state, setup.params)
    comp = np.zeros(N_KINDS, np.int64)
    deck_composition_nb(setup.params, comp)
    code = check_state_nb(
        state, setup.params, comp, np.zeros(N_KINDS, np.int64), np.zeros(N_ACTIONS, np.int32)
    )
    if code != 0:
        raise PositionError(f"the position is impossible under these rules: {_check_text(code)}")
    return state


def _keep_pile_order(state: np.ndarray, position) -> None:
    """The known pile cards in the order the position lists them (the sampler places them by
    kind; the order tells which seat discarded which, for --infer)."""
    listed = list(position.pile_cards or [])
    if len(listed) < 2:
        return
    lo = position.pile_hidden
    codes = [int(c) for c in state[Off.PILE + lo : Off.PILE + lo + len(listed)]]
    for j, k in enumerate(listed):
        c = next(c for c in codes if c & 15 == k)
        codes.remove(c)
        state[Off.PILE + lo + j] = c


ROLLOUT_UNIT = 20_000  # rollouts per kernel call (well under a second)


def run_rollouts(
    setup: RolloutSetup, strategies, rollouts: int, seed: int = 0, check: bool = False
) -> np.ndarray:
    """Play ``rollouts`` completions of ``setup`` (rollout_record_dt records, engine teams).
    ``strategies``: one spec for every seat or one per seat (strategies.registry.parse_spec)."""
    from sim.core.legal import WHY_TEXT
    from sim.play.selfplay.status import action_text_safe
    from strategies.registry import MAX_KNOBS, STRATEGY_NAMES, parse_spec

    if isinstance(strategies, str):
        strategies = [strategies]
    strategies = list(strategies)
    if len(strategies) == 1:
        strategies = strategies * setup.n_seats
    if len(strategies) != setup.n_seats:
        raise PositionError(
            f"{len(strategies)} strategies for {setup.n_seats} seats: give one, or one per seat"
        )
    if rollouts < 1 or seed < 0:
        raise PositionError("rollouts must be >= 1 and the seed >= 0")
    ids = np.zeros(MAX_SEATS, np.int64)
    knobs = np.zeros((MAX_SEATS, MAX_KNOBS), np.float64)
    for s, spec in enumerate(strategies):
        ids[s], knobs[s] = parse_spec(spec, setup.table or None)
    out = np.zeros(rollouts, rollout_record_dt)
    status = np.zeros(Slot.SIZE, np.int64)
    done = 0
    # kernel calls of ROLLOUT_UNIT rollouts: rollout i depends only on (seed, i), and Python (a
    # Ctrl-C) gets a turn between the calls
    while done < rollouts and int(status[Slot.CODE]) == Status.OK:
        n = min(ROLLOUT_UNIT, rollouts - done)
        got = rollouts_nb(
            setup.obs,
            setup.know,
            setup.params,
            setup.begin,
            ids,
            knobs,
            int(seed),
            done,
            int(n),
            bool(check),
            out[done : done + n],
            status,
        )
        done += got
        if got < n:
            break
    code, where = int(status[Slot.CODE]), int(status[Slot.ROLLOUT])
    if code == Status.ILLEGAL:
        raise RuntimeError(
            f"strategy {STRATEGY_NAMES[int(status[Illegal.STRATEGY])]!r} "
            f"(seat {int(status[Illegal.SEAT])}) chose an illegal action "
            f"{action_text_safe(int(status[Illegal.ACTION]))}: "
            f"{WHY_TEXT[int(status[Illegal.WHY])]}; "
            f"rollout {where} seed {seed}"
        )
    if code == Status.NO_WORLD:
        raise PositionError(
            "the position is impossible under these rules: "
            f"{ERROR_TEXT[int(status[NoWorld.ERROR])]}"
        )
    if code == Status.INVARIANT:
        check_text = _check_text(int(status[Broken.CHECK]))
        if int(status[Broken.TURN]) < 0:
            raise PositionError(f"the position is impossible under these rules: {check_text}")
        raise RuntimeError(
            f"invariant broken: {check_text} in rollout {where} "
            f"turn {int(status[Broken.TURN])} seed {seed}"
        )
    assert done == rollouts
    return out

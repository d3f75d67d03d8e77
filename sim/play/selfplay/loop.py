"""The self-play loops: deal, ask strategies, apply, score, log — allocation-free per decision.

Kernels fill preallocated record arrays and return how much they used (vectorbt pattern).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.apply import (
    SCORE_ROWS,
    init_hand_nb,
    score_hand_nb,
)
from sim.core.enums import (
    D8,
    D16,
    D32,
    D64,
    FIRST_NATURAL,
    LAST_NATURAL,
    MAX_SEATS,
    MAX_TEAMS,
    N_ACTIONS,
    N_KINDS,
    N_LUCK,
    Act,
    End,
    Kind,
    Off,
    Par,
    Phase,
)
from sim.core.legal import (
    canastas_nb,
    decode_meld_nb,
    legal_actions_nb,
    meld_size_nb,
)
from sim.core.readers import make_code_nb
from sim.core.rng import (
    STREAM_DECK,
    STREAM_PLAYERS,
    key_nb,
    seed_rng_nb,
    seed_rng_row_nb,
    shuffle_nb,
)
from sim.play.selfplay.agent import agent_after, agent_before, agent_decide, agent_hand_start
from sim.play.selfplay.cardlog import drawn_kinds_nb, log_cards_nb
from sim.play.selfplay.checks import check_score_nb, check_state_nb, flag_invariant_nb
from sim.play.selfplay.status import Check, Illegal, Slot, Status
from sim.play.selfplay.step import apply_step_nb, build_obs_nb
from strategies.registry import TRUSTED, decide_nb

# kernel status codes returned in status[Slot.CODE] (named here for the callers;
# sim/play/selfplay/status.py)
OK = Status.OK
ILLEGAL = Status.ILLEGAL
INVARIANT = Status.INVARIANT
BUFFER = Status.BUFFER


@njit(cache=True, _nrt=False)
def deck_composition_nb(params: np.ndarray, out: np.ndarray) -> int:
    """Cards of each kind in the packs (int64[N_KINDS]); returns the number of cards."""
    d = params[Par.DECKS]
    out[:] = 4 * d
    out[Kind.BLACK3] = 2 * d
    out[Kind.RED3] = 2 * d
    out[Kind.JOKER] = 2 * d
    return 54 * d


@njit(cache=True, _nrt=False)
def fill_deck_nb(composition: np.ndarray, deck: np.ndarray) -> int:
    """The unshuffled deck as card codes (kind | suit << 4), pack after pack."""
    n = 0
    packs = composition[Kind.JOKER] // 2
    for _ in range(packs):
        for suit in range(4):
            red = suit == 1 or suit == 2  # diamonds, hearts
            deck[n] = make_code_nb(Kind.TWO, suit)
            deck[n + 1] = make_code_nb(Kind.RED3 if red else Kind.BLACK3, suit)
            n += 2
            for k in range(FIRST_NATURAL, LAST_NATURAL + 1):
                deck[n] = make_code_nb(k, suit)
                n += 1
        deck[n] = Kind.JOKER
        deck[n + 1] = Kind.JOKER
        n += 2
    return n


@njit(cache=True, _nrt=False)
def log_hash_nb(seed: int, game: int, hand: int) -> float:
    """Deterministic uniform in [0, 1) per hand key: which hands have their decisions logged."""
    return float(key_nb(seed, game, hand, 7) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, _nrt=False, inline="always")  # one call site; ~60 arguments to pass otherwise
def _log_decision_nb(
    state, seat_table, action, n_legal, can0, can1, can2, d8, d16, d32, d64, r, seed, game, hand
) -> None:
    """Decision row r, column-wise (layout `D8`, `D16`, `D32`, `D64`): the key, who decides
    what, and the state features (docs/DATA.md).  can0..can2: the canastas of teams 0..2."""
    seat = state[Off.SEAT]
    team = state[Off.TEAM_OF_SEAT + seat]
    n_teams = state[Off.N_TEAMS]
    d64[D64.SEED, r] = seed
    d64[D64.GAME, r] = game
    d32[D32.HAND, r] = hand
    d16[D16.TURN, r] = state[Off.TURN]
    d8[D8.SEAT, r] = seat_table[seat]
    d8[D8.TEAM, r] = team
    if action <= Act.TAKE_ONTO or action >= Act.TAKE_SEQ:
        dt = 0
    elif action == Act.DECLINE:
        dt = 4
    elif action < Act.ADD_NAT:
        dt = 1
    elif action < Act.DISCARD:
        dt = 2
    elif action < Act.SEQ_NEW:
        dt = 3
    else:
        dt = 5
    d8[D8.DECISION_TYPE, r] = dt
    d16[D16.ACTION, r] = action
    d16[D16.N_LEGAL, r] = n_legal
    d8[D8.HAND_SIZE, r] = state[Off.HAND_SIZE + seat]
    d16[D16.PILE_SIZE, r] = state[Off.PILE_LEN]
    d8[D8.PILE_FROZEN, r] = 1 if state[Off.PILE_FREEZE] > 0 else 0
    d8[D8.TEAM_OPENED, r] = state[Off.TEAM_OPENED + team]
    d16[D16.PENDING_VALUE, r] = state[Off.PENDING_VALUE]
    d16[D16.STOCK_SIZE, r] = state[Off.STOCK_LEN]
    d8[D8.CANASTAS_US, r] = can0 if team == 0 else (can1 if team == 1 else can2)
    d32[D32.CUM_US, r] = state[Off.CUM_SCORE + team]
    opp_open = 0
    can_them = 0
    cum_them = -(1 << 30)
    for t in range(n_teams):
        if t != team:
            opp_open = max(opp_open, state[Off.TEAM_OPENED + t])
            can_them = max(can_them, can0 if t == 0 else (can1 if t == 1 else can2))
            cum_them = max(cum_them, state[Off.CUM_SCORE + t])
    d8[D8.OPP_OPENED, r] = opp_open
    d8[D8.CANASTAS_THEM, r] = can_them
    d32[D32.CUM_THEM, r] = cum_them if n_teams > 1 else 0
    n = state[Off.N_SEATS]
    nxt = -1
    mn = 127
    for j in range(1, n):
        s = seat + j
        if s >= n:
            s -= n
        if state[Off.TEAM_OF_SEAT + s] != team:
            hs = state[Off.HAND_SIZE + s]
            if nxt < 0:
                nxt = hs
            if hs < mn:
                mn = hs
    d8[D8.NEXT_OPP_HAND_SIZE, r] = nxt
    d8[D8.MIN_OPP_HAND_SIZE, r] = mn if nxt >= 0 else -1


# inlined into play_chunk_nb (numba IR): compiled as a function of its own, it would re-optimize
# and re-emit the whole core linked below it once more (numba links a callee's LLVM module into
# its caller's and optimizes the result again, at every level of calls).  play_out_nb stays a
# function: inlined too, it saves as much again but makes the expert loop ~5% slower.
@njit(cache=True, _nrt=False, inline="always")
def play_hand_nb(
    state,
    params,
    deck,
    n_cards,
    dealer,
    cum,
    strat_ids,
    knobs,
    rng,
    obs,
    buf,
    seed,
    game,
    hand,
    log,
    d8,
    d16,
    d32,
    d64,
    dec_n,
    check,
    composition,
    totals,
    status,
    cards,
    dc,
    agent,
) -> int:
    """Play one hand to its end from a dealt deck; returns the new number of decision rows.

    Parameters
    ----------
    state : int32[STATE_SIZE]      scratch state, overwritten
    deck : int8/int32[>= n_cards]  the deck as kinds, top first
    strat_ids : int64[MAX_SEATS]   strategy id per active seat
    knobs : float64[MAX_SEATS, MAX_KNOBS]  knob vector per active seat
    rng : uint64[MAX_SEATS, 2]     one random stream per active seat
    d8, d16, d32, d64 : int8/16/32/64[n_fields, capacity]  decision columns (`D8`..`D64`),
                   filled from row dec_n on when `log`
    status : int64[Slot.SIZE]      set on an illegal action or a broken invariant (status.py)
    cards : bool                   also log the card columns (`--log-detail cards`) into
    dc : int8[n_card_fields, capacity]  (layout `sim.core.enums.DC`; a dummy when not `cards`)
    agent : None, or the search players' context (`sim.play.selfplay.agent`)
    """
    init_hand_nb(state, params, deck, n_cards, dealer, cum)
    for s in range(state[Off.N_SEATS]):
        seed_rng_row_nb(rng, s, seed, game, hand, STREAM_PLAYERS + 1 + s)  # no row view (see it)
    if agent is not None:  # (pruned by type; the slice is a view, see above)
        agent_hand_start(agent, state, status[Slot.SEAT_TABLE : Slot.SEAT_TABLE + MAX_SEATS])
    if check is not None:
        code = check_state_nb(state, params, composition, totals, buf)
        if code != 0:
            flag_invariant_nb(status, code, game, hand, -1)
            return dec_n
    return play_out_nb(
        state,
        params,
        strat_ids,
        knobs,
        rng,
        obs,
        buf,
        seed,
        game,
        hand,
        log,
        d8,
        d16,
        d32,
        d64,
        dec_n,
        check,
        composition,
        totals,
        status,
        cards,
        dc,
        agent,
    )


@njit(cache=True, _nrt=False)
def _cached_canastas_wrong_nb(state, params, can0, can1, can2) -> bool:
    """The canasta counts the logging loop carries (recounted only after melds) against a
    full count (a check-mode invariant)."""
    n_teams = state[Off.N_TEAMS]
    for t in range(n_teams):
        if canastas_nb(state, params, t) != (can0 if t == 0 else (can1 if t == 1 else can2)):
            return True
    return False


@njit(cache=True, _nrt=False)
def play_out_nb(
    state,
    params,
    strat_ids,
    knobs,
    rng,
    obs,
    buf,
    seed,
    game,
    hand,
    log,
    d8,
    d16,
    d32,
    d64,
    dec_n,
    check,
    composition,
    totals,
    status,
    cards,
    dc,
    agent,
) -> int:
    """Play a dealt (or otherwise prepared) state to the end of the hand: each seat's strategy
    (or search player: `agent`, sim/play/selfplay/agent.py) decides from its observation, the engine
    applies; optional decision log and invariant checks.  Returns the new number of decision rows.
    On an illegal action status holds Status.ILLEGAL and the `Illegal` slots (seat, action, why,
    game, hand, strategy id); on a broken invariant Status.INVARIANT and the `Broken` slots (check,
    game, hand, turn); sim/play/selfplay/status.py.  With `cards` the rows also get the card columns
    (`sim.play.selfplay.cardlog`) in `dc`."""
    samba = params[Par.SEQUENCES] != 0 or params[Par.MULTI_MELDS] != 0
    # canastas per team for the decision rows (MAX_TEAMS = 3), recounted only for the team
    # that melded last (-2: every team, at the start; -1: none).  Without Samba rules a meld or
    # addition can change the count only if its meld now has canasta size (recount_kind).
    can0 = 0
    can1 = 0
    can2 = 0
    recount = -2
    recount_kind = -1
    csize = params[Par.CANASTA_SIZE]
    drawn1 = -1  # card detail: kinds drawn from the stock this turn,
    drawn2 = -1
    melds_fresh = True  # whether the melds may have changed since the last row,
    prev_team = -1  # and that row's team
    while state[Off.PHASE] != Phase.OVER:
        seat = state[Off.SEAT]
        build_obs_nb(state, seat, obs, samba)
        # a plain table without logs calls the decision function directly (pruned by the arguments'
        # types: no hook is compiled); the logged loop keeps the inlined hook, with which it runs
        # about 9% faster (18.7 against 20.6 us per greedy hand, alternating runs)
        if agent is None and log is None:
            action = decide_nb(strat_ids[seat], obs, params, knobs[seat], rng[seat], buf)
        else:
            action = agent_decide(
                agent, state, obs, params, seat, strat_ids, knobs, rng, buf, seed, game, hand
            )
        agent_before(agent, state, params, action)
        if log is not None and log:  # None: a run without logs (pruned by type, as `check`)
            if dec_n >= d8.shape[1]:
                status[Slot.CODE] = Status.BUFFER
                return dec_n
            # the legal list (from the state, not from the strategy's copy) gives n_legal and
            # verifies the action: a member needs no second check (verify / do)
            n_legal = legal_actions_nb(state, Off.HANDS + seat * N_KINDS, params, buf)
            if (
                recount >= 0
                and recount_kind >= 0
                and meld_size_nb(state, recount, recount_kind) < csize
            ):
                recount = -1
            if recount != -1:
                n_teams = state[Off.N_TEAMS]
                if (
                    recount == -2 or recount == 0
                ):  # np.int64(t): one compiled canastas_nb, not one per literal
                    can0 = canastas_nb(state, params, np.int64(0))
                if (recount == -2 or recount == 1) and n_teams > 1:
                    can1 = canastas_nb(state, params, np.int64(1))
                if (recount == -2 or recount == 2) and n_teams > 2:
                    can2 = canastas_nb(state, params, np.int64(2))
            if check is not None and _cached_canastas_wrong_nb(state, params, can0, can1, can2):
                flag_invariant_nb(status, Check.LOGGED_CANASTAS, game, hand, state[Off.TURN])
                return dec_n
            _log_decision_nb(
                state,
                status[Slot.SEAT_TABLE : Slot.SEAT_TABLE + MAX_SEATS],
                action,
                n_legal,
                can0,
                can1,
                can2,
                d8,
                d16,
                d32,
                d64,
                dec_n,
                seed,
                game,
                hand,
            )
            if cards:
                if state[Off.PHASE] == Phase.DRAW:
                    drawn1 = -1
                    drawn2 = -1
                # typed arguments: a constant-started variable would compile a second, literal
                # version
                log_cards_nb(
                    state,
                    action,
                    np.int64(drawn1),
                    np.int64(drawn2),
                    np.bool_(melds_fresh),
                    np.int64(prev_team),
                    dc,
                    dec_n,
                )
                pos0 = state[Off.STOCK_POS]
                prev_team = state[Off.TEAM_OF_SEAT + seat]
            dec_n += 1
            melds = not (
                action == Act.DRAW or action == Act.DECLINE or Act.DISCARD <= action < Act.SEQ_NEW
            )
            recount = state[Off.TEAM_OF_SEAT + seat] if melds else -1
            melds_fresh = melds
            recount_kind = -1
            if not samba and Act.MELD <= action < Act.DISCARD:
                recount_kind = decode_meld_nb(action)[0]
            verify = True
            for j in range(n_legal):
                if buf[j] == action:
                    verify = False
                    break
        elif (
            check is not None
            or agent is not None
            or TRUSTED[strat_ids[seat]] == 0
            or action < 0
            or action >= N_ACTIONS
        ):
            verify = True
        else:
            # a decision function of CHOOSES_LEGAL (strategies/registry.py) found this action
            # legal on the seat's observation: doing it needs no second verification
            verify = False
        # one call site each of verify and do (inlined: every call site costs this function
        # stack slots that its entry zeroes on every hand)
        why = apply_step_nb(state, params, action, verify, strat_ids[seat], status)
        if why != 0:
            status[Illegal.GAME] = game
            status[Illegal.HAND] = hand
            return dec_n
        if log is not None and log and cards and action == Act.DRAW:
            drawn1, drawn2 = drawn_kinds_nb(state, pos0)
        agent_after(agent, state)
        if check is not None:
            code = check_state_nb(state, params, composition, totals, buf)
            if code != 0:
                flag_invariant_nb(status, code, game, hand, state[Off.TURN])
                return dec_n
    return dec_n


@njit(cache=True, _nrt=False)
def _fill_game_record_nb(g, seed, game, hands, cum, best, n_teams, target) -> None:
    """A finished game's record: its key, hands played, final scores and the winner (-1: a tie)."""
    g["seed"] = seed
    g["game"] = game
    g["hands"] = hands
    g["capped"] = 1 if best < target else 0
    winner = -1
    for t in range(n_teams):
        g["final"][t] = cum[t]
        if cum[t] == best:
            winner = t if winner == -1 else -2
    g["winner_team"] = winner if winner >= 0 else -1


@njit(cache=True, _nrt=False)
def _fill_hand_record_nb(rec, state, params, score, seed, game, hand, seat_table, n_teams) -> None:
    """Every field of the hand's record (zeros for the teams beyond n_teams), so that a reused
    record buffer needs no zeroing; `luck` only while LUCK_ON (a buffer for runs without it is
    kept apart and stays zero: sim.play.engine)."""
    rec["seed"] = seed
    rec["game"] = game
    rec["hand"] = hand
    rec["dealer"] = seat_table[state[Off.DEALER]]
    rec["end_reason"] = state[Off.END_REASON]
    ws = state[Off.WENT_OUT_SEAT]
    rec["went_out_seat"] = seat_table[ws] if ws >= 0 else -1
    rec["went_out_team"] = state[Off.TEAM_OF_SEAT + ws] if ws >= 0 else -1
    rec["concealed"] = state[Off.CONCEALED]
    rec["turns"] = state[Off.TURN] + 1
    rec["decisions"] = state[Off.DECISIONS]
    for t in range(MAX_TEAMS):
        on = t < n_teams
        rec["score"][t] = score[0, t] if on else 0
        rec["meld_points"][t] = score[1, t] if on else 0
        rec["canasta_bonus"][t] = score[2, t] if on else 0
        rec["red3_points"][t] = score[3, t] if on else 0
        rec["go_out_bonus"][t] = score[4, t] if on else 0
        rec["hand_penalty"][t] = score[5, t] if on else 0
        rec["canastas"][t] = score[6, t] if on else 0
        rec["natural_canastas"][t] = score[7, t] if on else 0
        rec["red3"][t] = state[Off.TEAM_RED3 + t] if on else 0
        rec["opened"][t] = state[Off.TEAM_OPENED + t] if on else 0
        rec["pile_takes"][t] = state[Off.PILE_TAKES + t] if on else 0
        rec["cum_before"][t] = state[Off.CUM_SCORE + t] if on else 0
    for s in range(MAX_SEATS):
        rec["seat_of_player"][s] = seat_table[s] if s < state[Off.N_SEATS] else -1
    if state[Off.LUCK_ON] != 0:  # the chance terms (run_chunk(luck=True)), else they stay 0
        for t in range(MAX_TEAMS):
            for f in range(N_LUCK):
                rec["luck"][t * N_LUCK + f] = state[Off.LUCK + t * N_LUCK + f] if t < n_teams else 0


@njit(cache=True, _nrt=False)
def _outcome_to_decisions_nb(d8, d32, start, stop, state, score, n_teams) -> None:
    """Join the hand's outcome into its decision rows (score_us, score_them, went_out_us)."""
    ws = state[Off.WENT_OUT_SEAT]
    went_team = (
        state[Off.TEAM_OF_SEAT + ws] if ws >= 0 and state[Off.END_REASON] == End.WENT_OUT else -1
    )
    # the best opposing score per team (MAX_TEAMS = 3), worked out once, not per row
    s0 = score[0, 0]
    s1 = score[0, 1] if n_teams > 1 else 0
    s2 = score[0, 2] if n_teams > 2 else 0
    them0 = max(s1, s2) if n_teams > 2 else s1
    them1 = max(s0, s2) if n_teams > 2 else s0
    them2 = max(s0, s1)
    if n_teams == 1:
        them0 = 0
    for r in range(start, stop):
        team = d8[D8.TEAM, r]
        d32[D32.SCORE_US, r] = s0 if team == 0 else (s1 if team == 1 else s2)
        d32[D32.SCORE_THEM, r] = them0 if team == 0 else (them1 if team == 1 else them2)
        d8[D8.WENT_OUT_US, r] = 1 if went_team == team else 0


@njit(cache=True)
def play_chunk_nb(
    params_rot,
    seat_tables,
    table_strats,
    table_knobs,
    seed,
    start,
    count,
    games_mode,
    log_rate,
    check,
    hand_out,
    game_out,
    d8,
    d16,
    d32,
    d64,
    dec_reserve,
    status,
    start_cum,
    cards,
    dc,
    luck,
    agent,
) -> tuple:
    """Play `count` hands (games_mode=0: keys (seed, start+i, 0)) or games (games_mode=1) into
    preallocated records.  When a logged hand could find fewer than `dec_reserve` decision rows
    left, or the hand records are full, it stops with status BUFFER and the caller reruns the
    chunk with larger buffers (so the results never depend on buffer sizes).

    Parameters ---------- params_rot : int32[R, N_PARAMS]  rule parameters per sit-out rotation (R =
    3 for five players, else 1) seat_tables : int64[R, MAX_SEATS]  table seat of each active seat,
    per rotation table_strats : int64[MAX_SEATS]  strategy id per table seat table_knobs :
    float64[MAX_SEATS, MAX_KNOBS]  knobs per table seat hand_out : hand_record_dt[:], game_out :
    game_record_dt[:]  hand and game records d8, d16, d32, d64 : int8/16/32/64[n_fields, capacity]
    decision columns (`sim.core.enums.D8`..) start_cum : int32[count or 1, MAX_TEAMS]  cumulative
    scores before the first hand of unit i
                   (row i; a single row applies to every unit; zeros = a game from 0-0)
    cards, dc : log the card columns too, into int8[n_card_fields, capacity] (`sim.core.enums.DC`)
    log_rate : None (no decision logs: numba leaves the logging code out), or the fraction
               0..1 of hands whose decisions are logged
    check : None, or True to verify every action and the invariants (`check_state_nb`); None,
            not False: numba then leaves the checks out of the compiled loop (a branch on
            `check is not None` is pruned by the argument's type), so that a run without
            --check neither compiles nor links them
    luck : bool  record each hand's chance terms (sim/core/luck.py) in hand_out["luck"]
    agent : None, or the search players' context (`sim.play.search.loop.new_agent`)
    Returns (units done, hand rows, game rows, decision rows).
    """
    state = np.zeros(Off.STATE_SIZE, np.int32)
    state[Off.LUCK_ON] = 1 if luck else 0  # init_hand_nb keeps them
    obs = np.zeros(Off.STATE_SIZE, np.int32)
    buf = np.zeros(N_ACTIONS, np.int32)
    rng = np.zeros((MAX_SEATS, 2), np.uint64)
    deck_rng = np.zeros(2, np.uint64)
    composition = np.zeros(N_KINDS, np.int64)
    totals = np.zeros(N_KINDS, np.int64)
    deck = np.zeros(200, np.int32)
    score = np.zeros((SCORE_ROWS, MAX_TEAMS), np.int32)
    cum = np.zeros(MAX_TEAMS, np.int32)
    strat_ids = np.zeros(MAX_SEATS, np.int64)
    knobs = np.zeros((MAX_SEATS, table_knobs.shape[1]), np.float64)
    n_rot = params_rot.shape[0]
    # the rotation's rules and seat table, copied when the rotation changes (a row view per
    # hand costs the reference counts of an owning kernel; hands mode never changes rotation)
    params = np.empty(params_rot.shape[1], params_rot.dtype)
    seat_table = np.empty(seat_tables.shape[1], seat_tables.dtype)
    cur_rot = -1
    n_hands = 0
    n_games = 0
    # np.int64(0), not 0: a variable set from a constant is typed as that literal at first, and
    # numba compiles each kernel it is passed to (play_out_nb...) once more for the literal
    n_dec = np.int64(0)
    done = 0
    for u in range(count):
        game = start + u
        row = u if start_cum.shape[0] > 1 else 0
        for t in range(MAX_TEAMS):
            cum[t] = start_cum[row, t]
        h = np.int64(0)  # see n_dec
        while True:
            rot = h % n_rot
            if rot != cur_rot:
                for i in range(params.shape[0]):
                    params[i] = params_rot[rot, i]
                for i in range(seat_table.shape[0]):
                    seat_table[i] = seat_tables[rot, i]
                cur_rot = rot
            n_teams = params[Par.N_TEAMS]
            n_act = params[Par.N_ACTIVE]
            for s in range(MAX_SEATS):
                status[Slot.SEAT_TABLE + s] = seat_tables[rot, s]
                if s < n_act:
                    strat_ids[s] = table_strats[seat_tables[rot, s]]
                    for k in range(
                        knobs.shape[1]
                    ):  # a loop: a row assignment compiles numba's shape-error message (~1.7 CPU-s)
                        knobs[s, k] = table_knobs[seat_tables[rot, s], k]
            n_cards = deck_composition_nb(params, composition)
            fill_deck_nb(composition, deck)
            seed_rng_nb(
                deck_rng, seed, game, h, np.int64(STREAM_DECK)
            )  # typed: the literal would compile a second signature
            shuffle_nb(deck_rng, deck, n_cards)
            dealer = (game + h) % n_act
            if log_rate is None:  # no decision logs: the logging code is left out (see check)
                log = None
                full = n_hands >= hand_out.shape[0]
            else:
                log = log_rate > 0.0 and log_hash_nb(seed, game, h) < log_rate
                full = (log and d8.shape[1] - n_dec < dec_reserve) or n_hands >= hand_out.shape[0]
            if full:
                status[Slot.CODE] = Status.BUFFER
                return done, n_hands, n_games, n_dec
            dec_start = n_dec
            n_dec = play_hand_nb(
                state,
                params,
                deck,
                n_cards,
                dealer,
                cum,
                strat_ids,
                knobs,
                rng,
                obs,
                buf,
                seed,
                game,
                h,
                log,
                d8,
                d16,
                d32,
                d64,
                n_dec,
                check,
                composition,
                totals,
                status,
                cards,
                dc,
                agent,
            )
            if status[Slot.CODE] != Status.OK:
                return done, n_hands, n_games, n_dec
            score_hand_nb(state, params, score)
            _outcome_to_decisions_nb(d8, d32, dec_start, n_dec, state, score, n_teams)
            if check is not None:
                code = check_score_nb(state, params, score, composition)
                if code != 0:
                    flag_invariant_nb(status, code, game, h, state[Off.TURN])
                    return done, n_hands, n_games, n_dec
            _fill_hand_record_nb(
                hand_out[n_hands], state, params, score, seed, game, h, seat_table, n_teams
            )
            n_hands += 1
            if games_mode == 0:
                break
            best = np.int64(-(1 << 30))
            for t in range(n_teams):
                cum[t] += score[0, t]
                if cum[t] > best:
                    best = cum[t]
            h += 1
            if best >= params[Par.GAME_TARGET] or h >= params[Par.MAX_HANDS]:
                _fill_game_record_nb(
                    game_out[n_games], seed, game, h, cum, best, n_teams, params[Par.GAME_TARGET]
                )
                n_games += 1
                break
        done += 1
    return done, n_hands, n_games, n_dec

"""The self-play loop for tables with search players.

Like `sim.play.loop.play_chunk_nb` (same deals, same keys, same records), but it also keeps the
knowledge array of every searching seat (`sim.play.worlds.know_update_nb` before each action,
`know_after_nb` after it) and asks the search at that seat's decisions.  A seat's search
configuration is a row of ``cfg`` (float64[MAX_SEATS, CFG_SIZE], layout `Cfg`); its strategy id
and knobs in ``table_strats`` / ``table_knobs`` are its base strategy's.

The search's random streams are keyed by the hand key and the public decision counter
(`sim.play.search.pimc.decision_key_nb`), so a hand's result depends only on its key, whatever
the number of workers or the chunk size.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from sim.core.apply import SCORE_ROWS, apply_action_nb, init_hand_nb, score_hand_nb
from sim.core.enums import MAX_SEATS, MAX_TEAMS, N_ACTIONS, N_KINDS, Off, Par, Phase
from sim.core.legal import canastas_nb, legal_actions_nb
from sim.core.rng import STREAM_DECK, STREAM_PLAYERS, seed_rng_nb, shuffle_nb
from sim.play.loop import (
    BUFFER,
    ILLEGAL,
    OK,
    _fill_hand_record_nb,
    _log_decision_nb,
    _outcome_to_decisions_nb,
    check_score_nb,
    check_state_nb,
    deck_composition_nb,
    fill_deck_nb,
    flag_invariant_nb,
    log_hash_nb,
)
from sim.play.search.ismcts import ismcts_decide_nb
from sim.play.search.pimc import decision_key_nb, pimc_decide_nb
from sim.play.worlds import Know, know_after_nb, know_init_nb, know_update_nb, observe_nb
from strategies.registry import decide_nb

__all__ = ["Cfg", "CFG_SIZE", "NONE", "PIMC", "ISMCTS", "play_chunk_search_nb", "search_decide_nb"]

NONE = 0
PIMC = 1
ISMCTS = 2


class CfgT(NamedTuple):
    """Columns of a seat's search configuration (float64)."""

    KIND: int = 0  # NONE, PIMC, ISMCTS
    BUDGET: int = 1  # pimc: worlds; ismcts: iterations
    ROLLOUTS: int = 2  # pimc: rollouts per world and action
    MASK: int = 3  # searched decision classes (sim.play.search.pimc.searched_nb)
    GUARD: int = 4  # deviation guard in standard errors (pimc)
    TRIES: int = 5  # model-consistent worlds: redraws per seat (0: uniform worlds)
    EXPLORE: int = 6  # ismcts: UCB exploration constant (points)


Cfg = CfgT()
CFG_SIZE = 8


@njit(cache=True)
def search_decide_nb(cfg: np.ndarray, obs: np.ndarray, know: np.ndarray, params: np.ndarray,
                     base_id: int, base_knobs: np.ndarray, rng: np.ndarray, seed: int, game: int,
                     hand: int, stats: np.ndarray) -> int:
    """The action of a searching seat (its row ``cfg``) from its observation ``obs`` and knowledge
    ``know`` only; ``rng`` is the seat's stream (the base strategy's own draws)."""
    buf = np.zeros(N_ACTIONS, np.int32)
    base_action = decide_nb(base_id, obs, params, base_knobs, rng, buf)
    dseed = decision_key_nb(seed, game, hand, obs)
    tries = int(cfg[Cfg.TRIES])
    if cfg[Cfg.KIND] == PIMC:
        return pimc_decide_nb(obs, know, params, base_id, base_knobs, base_action, int(cfg[Cfg.BUDGET]),
                              int(cfg[Cfg.ROLLOUTS]), int(cfg[Cfg.MASK]), cfg[Cfg.GUARD], tries,
                              tries > 0, dseed, stats)
    return ismcts_decide_nb(obs, know, params, base_id, base_knobs, base_action, int(cfg[Cfg.BUDGET]),
                            int(cfg[Cfg.MASK]), cfg[Cfg.EXPLORE], tries, tries > 0, dseed, stats)


@njit(cache=True)
def _play_hand_nb(state, params, strat_ids, knobs, cfg, know, rng, obs, buf, seed, game, hand, log,
                  d8, d16, d32, d64, dec_n, check, composition, totals, status, stats) -> int:
    """Play one dealt hand to its end (the loop of `sim.play.loop.play_out_nb`, with knowledge
    tracking and search seats); returns the new number of decision rows."""
    samba = params[Par.SEQUENCES] != 0 or params[Par.MULTI_MELDS] != 0
    n_seats = state[Off.N_SEATS]
    for s in range(n_seats):
        seed_rng_nb(rng[s], seed, game, hand, STREAM_PLAYERS + 1 + s)
        if cfg[s, Cfg.KIND] != NONE:
            know_init_nb(know[s], s, 0)
    while state[Off.PHASE] != Phase.OVER:
        seat = state[Off.SEAT]
        if cfg[seat, Cfg.KIND] != NONE:
            observe_nb(state, seat, know[seat, Know.PILE_HIDDEN] if state[Off.PILE_LEN] > 0 else 0, obs, samba)
            action = search_decide_nb(cfg[seat], obs, know[seat], params, strat_ids[seat], knobs[seat],
                                      rng[seat], seed, game, hand, stats)
        else:
            observe_nb(state, seat, 0, obs, samba)
            action = decide_nb(strat_ids[seat], obs, params, knobs[seat], rng[seat], buf)
        if log:
            if dec_n >= d8.shape[1]:
                status[0] = BUFFER
                return dec_n
            n_legal = legal_actions_nb(state, Off.HANDS + seat * N_KINDS, params, buf)
            can = np.zeros(3, np.int64)
            for t in range(state[Off.N_TEAMS]):
                can[t] = canastas_nb(state, params, t)
            _log_decision_nb(state, status[8:14], action, n_legal, can[0], can[1], can[2],
                             d8, d16, d32, d64, dec_n, seed, game, hand)
            dec_n += 1
        for s in range(n_seats):
            if cfg[s, Cfg.KIND] != NONE:
                know_update_nb(know[s], state, params, action)
        why = apply_action_nb(state, params, action)
        if why != 0:
            status[0] = ILLEGAL
            status[1] = seat
            status[2] = action
            status[3] = why
            status[4] = game
            status[5] = hand
            status[6] = strat_ids[seat]
            return dec_n
        for s in range(n_seats):
            if cfg[s, Cfg.KIND] != NONE:
                know_after_nb(know[s], state)
        if check:
            code = check_state_nb(state, params, composition, totals, buf)
            if code != 0:
                flag_invariant_nb(status, code, game, hand, state[Off.TURN])
                return dec_n
    return dec_n


@njit(cache=True)
def play_chunk_search_nb(params_rot, seat_tables, table_strats, table_knobs, table_cfg, seed, start,
                         count, games_mode, log_rate, check, hand_out, game_out, d8, d16, d32, d64,
                         dec_reserve, status, stats) -> tuple:
    """`sim.play.loop.play_chunk_nb` with search seats: ``table_cfg`` float64[MAX_SEATS, CFG_SIZE]
    per table seat (`Cfg`); stats int64[8] gets the search counters (sim.play.search.pimc ST_*).
    Returns (units done, hand rows, game rows, decision rows)."""
    state = np.zeros(Off.STATE_SIZE, np.int32)
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
    cfg = np.zeros((MAX_SEATS, table_cfg.shape[1]), np.float64)
    know = np.zeros((MAX_SEATS, Know.SIZE), np.int32)
    n_rot = params_rot.shape[0]
    n_hands = 0
    n_games = 0
    n_dec = 0
    done = 0
    for u in range(count):
        game = start + u
        cum[:] = 0
        h = 0
        while True:
            rot = h % n_rot
            params = params_rot[rot]
            n_teams = params[Par.N_TEAMS]
            n_act = params[Par.N_ACTIVE]
            for s in range(MAX_SEATS):
                status[8 + s] = seat_tables[rot, s]
                cfg[s] = 0.0
                if s < n_act:
                    strat_ids[s] = table_strats[seat_tables[rot, s]]
                    knobs[s] = table_knobs[seat_tables[rot, s]]
                    cfg[s] = table_cfg[seat_tables[rot, s]]
            n_cards = deck_composition_nb(params, composition)
            fill_deck_nb(composition, deck)
            seed_rng_nb(deck_rng, seed, game, h, STREAM_DECK)
            shuffle_nb(deck_rng, deck, n_cards)
            dealer = (game + h) % n_act
            log = log_rate > 0.0 and log_hash_nb(seed, game, h) < log_rate
            if (log and d8.shape[1] - n_dec < dec_reserve) or n_hands >= hand_out.shape[0]:
                status[0] = BUFFER
                return done, n_hands, n_games, n_dec
            dec_start = n_dec
            init_hand_nb(state, params, deck, n_cards, dealer, cum)
            if check:
                code = check_state_nb(state, params, composition, totals, buf)
                if code != 0:
                    flag_invariant_nb(status, code, game, h, -1)
                    return done, n_hands, n_games, n_dec
            n_dec = _play_hand_nb(state, params, strat_ids, knobs, cfg, know, rng, obs, buf, seed, game, h,
                                  log, d8, d16, d32, d64, n_dec, check, composition, totals, status, stats)
            if status[0] != OK:
                return done, n_hands, n_games, n_dec
            score_hand_nb(state, params, score)
            _outcome_to_decisions_nb(d8, d32, dec_start, n_dec, state, score, n_teams)
            if check:
                code = check_score_nb(state, params, score, composition)
                if code != 0:
                    flag_invariant_nb(status, code, game, h, state[Off.TURN])
                    return done, n_hands, n_games, n_dec
            _fill_hand_record_nb(hand_out[n_hands], state, params, score, seed, game, h, seat_tables[rot], n_teams)
            n_hands += 1
            if games_mode == 0:
                break
            best = -(1 << 30)
            for t in range(n_teams):
                cum[t] += score[0, t]
                if cum[t] > best:
                    best = cum[t]
            h += 1
            if best >= params[Par.GAME_TARGET] or h >= params[Par.MAX_HANDS]:
                g = game_out[n_games]
                g["seed"] = seed
                g["game"] = game
                g["hands"] = h
                g["capped"] = 1 if best < params[Par.GAME_TARGET] else 0
                winner = -1
                for t in range(n_teams):
                    g["final"][t] = cum[t]
                    if cum[t] == best:
                        winner = t if winner == -1 else -2
                g["winner_team"] = winner if winner >= 0 else -1
                n_games += 1
                break
        done += 1
    return done, n_hands, n_games, n_dec

"""A Python play loop for tables with OpenSpiel bots (``openspiel-ismcts:...``) at some seats.

Same deals and hand records as `sim.play.engine.run_chunk` (deck keyed (seed, game, 0), dealer
(game + hand) mod seats); the lab's strategies decide through the compiled dispatcher, search
players through `sim.play.search.api.search_decide`, and an OpenSpiel bot through its own
search on `sim.play.openspiel.game` states built from the engine's state and the knowledge the
loop keeps for every seat.  A bot's random stream is keyed by the hand key and the public
decision counter, so results depend on the hand key only.  Hands mode only; slow (Python).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.apply import SCORE_ROWS, init_hand_nb, score_hand_nb
from sim.core.enums import MAX_SEATS, MAX_TEAMS, N_ACTIONS, N_KINDS, Off, Par, Phase, hand_record_dt
from sim.core.legal import WHY_TEXT
from sim.core.rng import STREAM_DECK, STREAM_PLAYERS, key_nb, seed_rng_nb, shuffle_nb
from sim.core.rules import RuleSet
from sim.play.openspiel.bot import is_openspiel, make_bot, parse_bot
from sim.play.search.api import model_table, search_decide
from sim.play.search.spec import base_arrays, is_search, parse_search
from sim.play.selfplay.loop import _fill_hand_record_nb, deck_composition_nb, fill_deck_nb
from sim.play.selfplay.status import Illegal, Slot, action_text_safe
from sim.play.selfplay.step import apply_step_nb
from sim.play.worlds.sampler import Know, know_after_nb, know_init_nb, know_update_nb, observe_nb
from strategies.registry import decision_kernel, parse_spec

__all__ = ["run_python_chunk"]

STREAM_BOT = 48


@njit(cache=True)
def _record_nb(hand_out, i, state, params, score, seed, game, hand, seat_table, n_teams) -> None:
    _fill_hand_record_nb(hand_out[i], state, params, score, seed, game, hand, seat_table, n_teams)


def _deal(rules: RuleSet, params: np.ndarray, seed: int, game: int) -> tuple[np.ndarray, int]:
    comp = np.zeros(N_KINDS, np.int64)
    n_cards = int(deck_composition_nb(params, comp))
    deck = np.zeros(200, np.int32)
    fill_deck_nb(comp, deck)
    rng = np.zeros(2, np.uint64)
    seed_rng_nb(rng, seed, game, 0, STREAM_DECK)
    shuffle_nb(rng, deck, n_cards)
    return deck[:n_cards].copy(), n_cards


def run_python_chunk(
    rules: RuleSet, strategies: tuple[str, ...], seed: int, start: int, count: int
) -> np.ndarray:
    """Hand records (hand_record_dt) of hands keyed (seed, start + i, 0)."""
    from sim.play.openspiel import game as openspiel_game

    if rules.n_active != rules.players:
        raise ValueError("OpenSpiel bots need every seat active (2, 3, 4 or 6 players)")
    for spec in strategies:
        if is_openspiel(spec):
            parse_bot(spec)
    params = rules.to_params(0).astype(np.int32)
    game_os = openspiel_game.pyspiel.load_game(openspiel_game.GAME_NAME, {"players": rules.players})
    n = rules.players
    plain = {
        s: parse_spec(spec, rules.label)
        for s, spec in enumerate(strategies)
        if not is_search(spec) and not is_openspiel(spec)
    }
    # model=table: each search seat models a compiled seat by its strategy, the others by its base
    tables = {
        s: model_table(*base_arrays(parse_search(spec), rules.label), plain)
        for s, spec in enumerate(strategies)
        if is_search(spec)
    }
    out = np.zeros(count, hand_record_dt)
    samba = bool(params[Par.SEQUENCES] or params[Par.MULTI_MELDS])
    seat_table = np.full(MAX_SEATS, -1, np.int64)
    seat_table[:n] = np.arange(n)
    for u in range(count):
        game = start + u
        deck, n_cards = _deal(rules, params, seed, game)
        dealer = game % n
        state = np.zeros(Off.STATE_SIZE, np.int32)
        init_hand_nb(state, params, deck, n_cards, dealer, np.zeros(MAX_TEAMS, np.int32))
        know = np.zeros((n, Know.SIZE), np.int32)
        rng = np.zeros((MAX_SEATS, 2), np.uint64)
        for s in range(n):
            know_init_nb(know[s], s, 0)
            seed_rng_nb(rng[s], seed, game, 0, STREAM_PLAYERS + 1 + s)
        moves: list[tuple[int, int]] = []
        obs = np.zeros(Off.STATE_SIZE, np.int32)
        buf = np.zeros(N_ACTIONS, np.int32)
        status = np.zeros(Slot.SIZE, np.int64)
        while state[Off.PHASE] != Phase.OVER:
            seat = int(state[Off.SEAT])
            spec = strategies[seat]
            if is_openspiel(spec):
                cs = openspiel_game.CanastaState.from_engine(
                    game_os, rules, state, know, [int(c) & 15 for c in deck], moves, dealer
                )
                bot_seed = int(
                    key_nb(seed, game, 0, STREAM_BOT + int(state[Off.DECISIONS])) >> np.uint64(33)
                )
                action = int(make_bot(game_os, spec, bot_seed).step(cs))
            elif is_search(spec):
                action, _ = search_decide(
                    spec, state, know[seat], params, (seed, game, 0), tables[seat]
                )
            else:
                observe_nb(state, seat, 0, obs, samba)
                sid, kn = plain[seat]
                action = int(decision_kernel(sid)(obs, params, kn, rng[seat], buf))
            for s in range(n):
                know_update_nb(know[s], state, params, action)
            if apply_step_nb(state, params, action, True, -1, status) != 0:
                raise RuntimeError(
                    f"{spec!r} (seat {seat}) chose an illegal action "
                    f"{action_text_safe(action)}: {WHY_TEXT[int(status[Illegal.WHY])]} "
                    f"at seed={seed} game={game}"
                )
            for s in range(n):
                know_after_nb(know[s], state)
            moves.append((seat, action))
        score = np.zeros((SCORE_ROWS, MAX_TEAMS), np.int32)
        score_hand_nb(state, params, score)
        _record_nb(
            out, u, state, params, score, seed, game, 0, seat_table, int(params[Par.N_TEAMS])
        )
    return out

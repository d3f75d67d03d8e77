"""The heuristic's discard choice skips work it does not need (the danger of a rank that cannot
win, a pair chance it already worked out): it must choose exactly what scoring every held rank
in full chooses, on the positions of real play."""

from __future__ import annotations

import numpy as np

from sim.core.enums import FIRST_NATURAL, LAST_NATURAL, N_ACTIONS, Act, Kind, Off, Par, Phase
from sim.core.readers import meld_size_nb, team_of_nb
from sim.core.rules import RuleSet
from sim.play.game import GameState
from strategies import heuristic
from strategies.heuristic import K
from strategies.registry import parse_spec


def reference_discard(obs, params, knobs, team, ending, opp_opened, opened, mine, theirs) -> int:
    """heuristic._discard_nb as plainly as it reads: every held rank scored with its danger."""
    seat, n_seats = obs[Off.SEAT], obs[Off.N_SEATS]
    nxt = (seat + 1) % n_seats
    lho_team, lho_cards, pile = (
        obs[Off.TEAM_OF_SEAT + nxt],
        obs[Off.HAND_SIZE + nxt],
        obs[Off.PILE_LEN],
    )
    unfrozen = (
        lho_team != team and obs[Off.PILE_FREEZE] == 0 and obs[Off.TEAM_OPENED + lho_team] != 0
    )
    pool = max(
        1, obs[Off.STOCK_LEN] + sum(obs[Off.HAND_SIZE + s] for s in range(n_seats) if s != seat)
    )
    prize = (pile + 1) * 12.0
    best, best_score, best_danger = -1, 1e18, 0.0
    for k in range(FIRST_NATURAL, LAST_NATURAL + 1):
        c = obs[Off.HANDS + k]
        if c == 0:
            continue
        val = params[Par.CARD_VALUE + k]
        score = 0.0 if c == 1 else ((60.0 if knobs[K.pair_hold] != 0 else 35.0) if c == 2 else 70.0)
        if meld_size_nb(obs, team, k) > 0:
            score += 25.0
        score += (1.0 - 2.5 * knobs[K.shed_high_when_ending]) * val if ending else 1.0 * val
        danger = 0.0
        if lho_team != team and knobs[K.safe_discard] > 0:
            danger = heuristic._danger_nb.py_func(
                obs, params, k, c, nxt, lho_team, lho_cards, unfrozen, pool, -1, 0.0, -1, 0.0
            )[0]
            score += knobs[K.safe_discard] * danger * prize
        if score < best_score:
            best, best_score, best_danger = k, score, danger
    if obs[Off.HANDS + Kind.BLACK3] > 0:
        stop = knobs[K.black3_stop]
        score = -1000.0 if stop <= 0 else (-500.0 if pile + 1 >= stop else 12.0)
        if score < best_score:
            best, best_score, best_danger = Kind.BLACK3, score, 0.0
    if obs[Off.HANDS + Kind.TWO] > 0 and obs[Off.PILE_FREEZE] == 0 and best != Kind.BLACK3:
        fw = knobs[K.freeze_when]
        if (fw >= 1 and opp_opened and not opened) or (
            fw >= 2 and unfrozen and pile >= 4 and best_danger >= 0.5 and mine >= theirs
        ):
            return Act.DISCARD + Kind.TWO
    if best >= 0:
        return Act.DISCARD + best
    for w in (Kind.TWO, Kind.JOKER):
        if obs[Off.HANDS + w] > 0:
            return Act.DISCARD + w
    return -1


def test_discard_matches_full_scoring():
    rules = RuleSet.preset("classic")
    specs = [
        "expert",
        "pile-control",
        "tunable:safe_discard=1,freeze_when=2",
        "expert:black3_stop=3",
    ]
    knob_sets = [parse_spec(s, rules.label)[1] for s in specs]
    sid, play_knobs = parse_spec("expert", rules.label)
    buf = np.zeros(N_ACTIONS, np.int32)
    compared = 0
    for game in range(12):
        gs = GameState.new_hand(seed=31, game=game)
        while not gs.is_over:
            obs = gs.observation()
            if obs[Off.PHASE] == Phase.MELD:
                team = team_of_nb(obs)
                for knobs in knob_sets:
                    for ending in (False, True):
                        for opened in (False, True):
                            args = (team, ending, True, opened, 10, 12)
                            got = heuristic._discard_nb(obs, gs.params, knobs, *args)
                            assert got == reference_discard(obs, gs.params, knobs, *args), (
                                game,
                                gs.text(got),
                            )
                            compared += 1
            rng = np.array([game + 1, 7], np.uint64)
            gs.apply(int(heuristic.decide_nb(obs, gs.params, play_knobs, rng, buf)))
    assert compared > 1000

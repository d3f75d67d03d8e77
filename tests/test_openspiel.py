"""The OpenSpiel game python_canasta_lab (optional extra: skipped without open_spiel)."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from sim.core.enums import N_KINDS, Off  # noqa: E402
from sim.core.referee import referee_hand  # noqa: E402
from sim.play.openspiel import game as openspiel_game  # noqa: E402, F401  (registers the game)
from sim.play.worlds.sampler import Know  # noqa: E402


def _game(**params):
    return pyspiel.load_game("python_canasta_lab", {"preset": "classic", "players": 4, **params})


def _deal(state, rng):
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(outcomes, p=probs)))


def random_hand_returns(game, seed: int):
    """Play a random hand; (OpenSpiel's returns, the referee's team scores per player)."""
    rng = np.random.default_rng(seed)
    s = game.new_initial_state()
    _deal(s, rng)
    while not s.is_terminal():
        s.apply_action(int(rng.choice(s.legal_actions())))
    params = s._g.params_arr
    res = referee_hand(
        [int(x) for x in params], list(s.kinds), s._g.dealer, [0, 0, 0], [a for _, a in s.moves]
    )
    teams = [int(s.state[Off.TEAM_OF_SEAT + p]) for p in range(game.num_players())]
    return s.returns(), [float(res.score[t]) for t in teams]


def test_random_sim_test_passes():
    pyspiel.random_sim_test(_game(players=2), num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("players", [2, 4])
def test_returns_equal_the_referees(players):
    game = _game(players=players)
    for seed in range(3):
        ours, ref = random_hand_returns(game, seed)
        assert ours == ref


def test_bad_parameters_are_refused():
    with pytest.raises(Exception, match="players"):
        _game(players=5)
    with pytest.raises(Exception, match="unknown preset"):
        _game(preset="nope")


def test_resample_keeps_the_information_state_and_reads_no_hidden_card():
    game = _game()
    rng = np.random.default_rng(7)
    s = game.new_initial_state()
    _deal(s, rng)
    for _ in range(40):
        s.apply_action(int(rng.choice(s.legal_actions())))
    p = s.current_player()
    r = s.resample_from_infostate(p, lambda: 0.25)
    assert r.information_state_string(p) == s.information_state_string(p)
    assert r.legal_actions() == s.legal_actions()
    others = [q for q in range(4) if q != p]
    assert any(
        not np.array_equal(
            r.state[Off.HANDS + q * N_KINDS : Off.HANDS + (q + 1) * N_KINDS],
            s.state[Off.HANDS + q * N_KINDS : Off.HANDS + (q + 1) * N_KINDS],
        )
        for q in others
    )
    # swap hidden cards between two other seats: the same resampled world
    t = s.clone()
    a, b = others[0], others[1]
    ha, hb = Off.HANDS + a * N_KINDS, Off.HANDS + b * N_KINDS
    for k1 in range(N_KINDS):
        for k2 in range(N_KINDS):
            if (
                k1 != k2
                and t.state[ha + k1] > t.know[p][Know.KNOWN + a * N_KINDS + k1]
                and t.state[hb + k2] > t.know[p][Know.KNOWN + b * N_KINDS + k2]
            ):
                t.state[ha + k1] -= 1
                t.state[ha + k2] += 1
                t.state[hb + k2] -= 1
                t.state[hb + k1] += 1
                break
        else:
            continue
        break
    assert not np.array_equal(t.state, s.state)
    assert np.array_equal(t.resample_from_infostate(p, lambda: 0.25).state, r.state)


def test_openspiel_ismcts_bot_plays_a_legal_move():
    from sim.play.openspiel.bot import make_bot

    game = _game()
    rng = np.random.default_rng(3)
    s = game.new_initial_state()
    _deal(s, rng)
    bot = make_bot(game, "openspiel-ismcts:sims=20", seed=1)
    a = bot.step(s)
    assert a in s.legal_actions()


def test_an_openspiel_bot_takes_a_seat_in_run_chunk():
    from sim.core.rules import RuleSet
    from sim.play.engine import run_chunk

    rules = RuleSet.preset("classic", players=2)
    seats = ["openspiel-ismcts:sims=8", "expert"]
    a = run_chunk(rules, seats, 2, 0, 1).hands
    b = run_chunk(rules, seats, 2, 0, 1).hands
    assert np.array_equal(a, b)  # keyed by the hand key
    plain = run_chunk(rules, ["expert", "expert"], 2, 0, 1).hands
    assert a["turns"][0] > 0 and a["seed"][0] == plain["seed"][0]

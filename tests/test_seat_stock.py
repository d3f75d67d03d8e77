"""Per-seat stock streams (run_chunk(seat_stock=True)): every card stays accounted for, every
draw is uniform over the stock left, a seat's draws do not depend on when the others draw, and
the option changes nothing when it is off."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import chi2

from sim.core.apply import init_hand_nb, seat_stock_top_nb
from sim.core.enums import N_KINDS, Off
from sim.core.rules import RuleSet
from sim.play.engine import run_chunk
from sim.play.selfplay.loop import deck_composition_nb, fill_deck_nb


@pytest.mark.parametrize(
    "preset,players", [("classic", 4), ("samba", 4), ("classic", 6), ("german", 3), ("classic", 2)]
)
def test_every_card_accounted_for(preset, players):
    # --check verifies card conservation and the score by a second route after every action
    rules = RuleSet.preset(preset, players=players)
    seats = tuple(("expert", "greedy")[i % 2] for i in range(players))
    a = run_chunk(rules, seats, 4, 0, 40, check=True, seat_stock=True, luck=True).hands
    b = run_chunk(rules, seats, 4, 0, 40, check=True).hands
    assert len(a) == 40
    # the same deals (dealt hands, upcard) but other draws: some hands end differently
    assert (a["score"] != b["score"]).any()


def _dealt(rules: RuleSet, rng: np.random.Generator) -> np.ndarray:
    """A freshly dealt classic hand with per-seat streams on."""
    params = rules.to_params(0).astype(np.int32)
    composition = np.zeros(N_KINDS, np.int64)
    n = deck_composition_nb(params, composition)
    deck = np.zeros(200, np.int32)
    fill_deck_nb(composition, deck)
    deck[:n] = rng.permutation(deck[:n])
    state = np.zeros(Off.STATE_SIZE, np.int32)
    state[Off.SEAT_STOCK] = 1
    init_hand_nb(state, params, deck, n, 0, np.zeros(8, np.int32))
    return state


def _take_top(state: np.ndarray) -> int:
    code = int(state[Off.STOCK + state[Off.STOCK_POS]])
    state[Off.STOCK_POS] += 1
    state[Off.STOCK_LEN] -= 1
    return code & 15  # code_kind_nb


def test_draws_are_uniform_over_the_stock_left():
    # an adversarial drawer order: the next seat to draw depends on the card just drawn.  Per
    # seat, each draw's kind against its probability given the stock at that moment (Pearson
    # chi-square over seat x kind cells, ~44,000 draws; conservative, as the probabilities vary).
    # A rule that let one seat skip the wild cards of its queue scores ~530 here (measured)
    rules = RuleSet.preset("classic")
    rng = np.random.default_rng(3)
    observed = np.zeros((4, N_KINDS))
    expected = np.zeros((4, N_KINDS))
    for _ in range(700):
        state = _dealt(rules, rng)
        seat = 0
        while state[Off.STOCK_LEN] > 0:
            seat_stock_top_nb(state, seat)
            pos, n = state[Off.STOCK_POS], state[Off.STOCK_LEN]
            kinds = state[Off.STOCK + pos : Off.STOCK + pos + n] & 15  # code_kind_nb, vectorised
            expected[seat] += np.bincount(kinds, minlength=N_KINDS) / n
            kind = _take_top(state)
            observed[seat, kind] += 1
            seat = (seat + 1 + kind) % 4
    used = expected > 0
    stat = float((((observed - expected) ** 2) / expected)[used].sum())
    assert observed.sum() > 40_000
    assert stat < chi2.ppf(0.999, used.sum() - 4)  # one constraint per seat; ~94 for 60 cells


def test_a_seats_draws_do_not_depend_on_when_the_others_draw():
    rules = RuleSet.preset("classic")
    rng = np.random.default_rng(5)
    for _ in range(20):
        state = _dealt(rules, rng)
        other = state.copy()
        mine = [(seat_stock_top_nb(state, 1), _take_top(state))[1] for _ in range(8)]
        for s in (0, 2, 3, 0, 3):  # the others draw first in the second copy
            seat_stock_top_nb(other, s)
            _take_top(other)
        theirs = [(seat_stock_top_nb(other, 1), _take_top(other))[1] for _ in range(8)]
        assert mine == theirs


def test_off_by_default_and_the_stock_is_unchanged():
    rules = RuleSet.preset("classic")
    a = run_chunk(rules, ("expert", "greedy") * 2, 2, 0, 30).hands
    b = run_chunk(rules, ("expert", "greedy") * 2, 2, 0, 30, seat_stock=False).hands
    np.testing.assert_array_equal(a, b)


def test_search_players_refuse_the_option():
    with pytest.raises(ValueError, match="per-seat stock streams"):
        run_chunk(
            RuleSet.preset("classic"), ("pimc:worlds=2", "greedy") * 2, 1, 0, 1, seat_stock=True
        )

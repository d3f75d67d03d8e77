"""The world sampler (sim/play/worlds/sampler.py): exact distribution, no peeking, legal worlds."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest
from scipy.stats import chisquare

from sim.core.enums import (
    MAX_CARDS,
    MAX_SEATS,
    MAX_SEQS,
    MAX_TEAMS,
    N_ACTIONS,
    N_KINDS,
    N_SUITED,
    Kind,
    Off,
)
from sim.core.legal import legal_actions_nb
from sim.core.rules import RuleSet
from sim.play.game import GameState
from sim.play.pyplay import play_hand_py
from sim.play.selfplay.checks import check_state_nb
from sim.play.selfplay.loop import deck_composition_nb
from sim.play.worlds.sampler import (
    COUNTS,
    OK,
    Know,
    new_know,
    observe_nb,
    sample_worlds_nb,
)
from strategies.registry import parse_spec

NATURALS = range(Kind.FOUR, Kind.ACE + 1)


def _tiny_obs(unseen: dict[int, int], opp: int, hidden: int, stock: int, frozen: bool):
    """A 2-player classic observation where only the cards in ``unseen`` are unseen: every other
    card is melded (team 0), laid (red threes) or in the viewer's hand (black threes), the pile's
    known top is a nine."""
    params = RuleSet.preset("classic", 2).to_params(0).astype(np.int32)
    comp = np.zeros(N_KINDS, np.int64)
    deck_composition_nb(params, comp)
    obs = np.zeros(Off.STATE_SIZE, np.int32)
    obs[Off.N_SEATS], obs[Off.N_TEAMS] = 2, 2
    obs[Off.TEAM_OF_SEAT + 1] = 1
    obs[Off.WENT_OUT_SEAT] = -1
    obs[Off.LAST_DISCARD : Off.LAST_DISCARD + 6] = -1
    obs[Off.TEAM_RED3], obs[Off.TEAM_RED3 + 1] = 2, 2
    obs[Off.HANDS + Kind.BLACK3] = 4
    obs[Off.HAND_SIZE], obs[Off.HAND_SIZE + 1] = 4, opp
    left = comp.copy()
    left[Kind.NINE] -= 1  # the pile's top card
    for k in NATURALS:
        obs[Off.MELD_NAT + k] = left[k] - unseen.get(k, 0)
    obs[Off.MELD_TWO + Kind.FOUR] = left[Kind.TWO] - unseen.get(Kind.TWO, 0)
    obs[Off.MELD_JOKER + Kind.FIVE] = left[Kind.JOKER] - unseen.get(Kind.JOKER, 0)
    obs[Off.PILE_LEN] = hidden + 1
    obs[Off.PILE_TOP] = Kind.NINE
    obs[Off.PILE_TOP_SUIT] = 0
    obs[Off.PILE_COUNTS + Kind.NINE] = 1
    obs[Off.PILE_FREEZE] = 1 if frozen else 0
    obs[Off.STOCK_LEN] = stock
    return obs, new_know(0, hidden), params


def _outcome(w, opp: int, hidden: int, stock: int):
    hand = tuple(int(x) for x in w[Off.HANDS + N_KINDS : Off.HANDS + 2 * N_KINDS])
    pile = tuple(sorted(int(c) & 15 for c in w[Off.PILE : Off.PILE + hidden]))
    st = tuple(int(c) & 15 for c in w[Off.STOCK : Off.STOCK + stock])
    return hand, pile, st


CASES = {
    # 5 unseen plain cards over a 2-card hand, 1 hidden (not frozen) pile card and a 2-card stock
    "plain": ({Kind.FOUR: 2, Kind.FIVE: 1, Kind.SIX: 1, Kind.KING: 1}, 2, 1, 2, False),
    # frozen by hidden cards only: at least one of the 2 hidden pile cards is wild
    "frozen": ({Kind.FOUR: 2, Kind.FIVE: 1, Kind.TWO: 1, Kind.JOKER: 1}, 1, 2, 2, True),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_sampler_matches_exact_distribution(name):
    unseen, opp, hidden, stock, frozen = CASES[name]
    obs, know, params = _tiny_obs(unseen, opp, hidden, stock, frozen)
    # exact: every ordering of the physical unseen cards over (pile, hand, stock) is equally
    # likely, among those that meet the pile's constraint
    cards = [k for k, c in unseen.items() for _ in range(c)]
    exact: Counter = Counter()
    for perm in itertools.permutations(cards):
        pile, hand, st = perm[:hidden], perm[hidden : hidden + opp], perm[hidden + opp :]
        wild = any(k in (Kind.TWO, Kind.JOKER) for k in pile)
        if wild != frozen:
            continue
        counts = [0] * N_KINDS
        for k in hand:
            counts[k] += 1
        exact[(tuple(counts), tuple(sorted(pile)), tuple(st))] += 1
    n = 20000
    out = np.zeros((n, Off.STATE_SIZE), np.int32)
    assert (
        sample_worlds_nb(obs, know, params, 3, 0, out, -1, np.zeros(24), 0, np.zeros(2, np.int64))
        == OK
    )
    got = Counter(_outcome(w, opp, hidden, stock) for w in out)
    assert set(got) <= set(exact), set(got) - set(exact)
    keys = sorted(exact)
    total = sum(exact.values())
    f_exp = np.array([exact[k] / total * n for k in keys])
    f_obs = np.array([got.get(k, 0) for k in keys])
    assert len(keys) > 10
    assert chisquare(f_obs, f_exp).pvalue > 0.001


def test_sampler_refuses_counts_that_do_not_add_up():
    obs, know, params = _tiny_obs(CASES["plain"][0], 2, 1, 3, False)  # one place too many
    out = np.zeros((1, Off.STATE_SIZE), np.int32)
    assert (
        sample_worlds_nb(obs, know, params, 0, 0, out, -1, np.zeros(24), 0, np.zeros(2, np.int64))
        == COUNTS
    )


# ----------------------------------------------------------------------------- real hands


def _decision_points(preset: str, players: int, seed: int, every: int = 7):
    """(GameState copy, seat to act) at every `every`-th decision of a hand played by expert."""
    rules = RuleSet.preset(preset, players)
    hand = 1 if players == 5 else 0
    full = play_hand_py(rules, ["expert"] * players, seed, hand=hand)
    gs = GameState.new_hand(rules, seed, hand=hand)
    points = []
    for i, a in enumerate(full.actions):
        if i % every == 3:
            points.append(
                (
                    GameState(
                        gs.rules,
                        gs.state.copy(),
                        gs.params,
                        gs.deck,
                        gs.seat_table,
                        know=gs.know.copy(),
                    ),
                    gs.seat,
                )
            )
        gs.apply(a)
    return points


def _suited_in_play(w) -> np.ndarray:
    """Copies of each suited natural [suit, rank] in the hands, the stock, the pile, sequences."""
    out = (
        w[Off.HAND_SUITS : Off.HAND_SUITS + MAX_SEATS * N_SUITED]
        .reshape(MAX_SEATS, 4, 11)
        .sum(axis=0)
        .astype(np.int64)
    )
    codes = list(w[Off.STOCK + w[Off.STOCK_POS] : Off.STOCK + w[Off.STOCK_POS] + w[Off.STOCK_LEN]])
    codes += list(w[Off.PILE : Off.PILE + w[Off.PILE_LEN]])
    for c in codes:
        if 2 <= c & 15 <= 12:
            out[c >> 4, (c & 15) - 2] += 1
    for j in range(MAX_TEAMS * MAX_SEQS):
        for k in range(w[Off.SEQ_LOW + j], w[Off.SEQ_LOW + j] + w[Off.SEQ_LEN + j]):
            out[w[Off.SEQ_SUIT + j], k - 2] += 1
    return out


def _legal(arr, hand_off, params):
    buf = np.zeros(N_ACTIONS, np.int32)
    n = legal_actions_nb(arr, hand_off, params, buf)
    return sorted(buf[:n].tolist())


@pytest.mark.parametrize(
    "preset,players,seed",
    [
        ("classic", 4, 1),
        ("classic", 2, 2),
        ("classic", 3, 5),
        ("classic", 6, 4),
        ("classic", 5, 3),
        ("samba", 4, 2),
    ],
)
def test_worlds_are_legal_and_look_the_same_to_the_viewer(preset, players, seed):
    comp = np.zeros(N_KINDS, np.int64)
    totals = np.zeros(N_KINDS, np.int64)
    buf = np.zeros(N_ACTIONS, np.int32)
    checked = 0
    samba = preset == "samba"
    for gs, seat in _decision_points(preset, players, seed):
        deck_composition_nb(gs.params, comp)
        obs = gs.observation(seat)
        know = gs.knowledge(seat)
        # what the viewer knows about other hands is really there
        for s in range(gs.n_seats):
            if s != seat:
                assert (
                    know[Know.KNOWN + s * N_KINDS : Know.KNOWN + (s + 1) * N_KINDS]
                    <= gs.hand_counts(s)
                ).all()
        out = np.zeros((12, Off.STATE_SIZE), np.int32)
        assert (
            sample_worlds_nb(
                obs, know, gs.params, 11, 0, out, -1, np.zeros(24), 0, np.zeros(2, np.int64)
            )
            == OK
        )
        view = np.zeros(Off.STATE_SIZE, np.int32)
        for w in out:
            assert check_state_nb(w, gs.params, comp, totals, buf) == 0
            if samba:
                assert (_suited_in_play(w) <= gs.rules.decks).all()
            observe_nb(w, seat, 0, view, samba)
            assert (view == obs).all()
            assert _legal(w, Off.HANDS + seat * N_KINDS, gs.params) == _legal(
                gs.state, Off.HANDS + seat * N_KINDS, gs.params
            )
            for s in range(gs.n_seats):
                if s != seat:
                    k = know[Know.KNOWN + s * N_KINDS : Know.KNOWN + (s + 1) * N_KINDS]
                    assert (w[Off.HANDS + s * N_KINDS : Off.HANDS + (s + 1) * N_KINDS] >= k).all()
            checked += 1
        # the worlds differ where the viewer cannot see
        assert (
            len({w[Off.STOCK : Off.STOCK + 20].tobytes() for w in out}) > 1
            or obs[Off.STOCK_LEN] < 2
        )
    assert checked > 20


@pytest.mark.parametrize("preset", ["classic", "samba"])
def test_scrambled_hidden_cards_give_bit_identical_worlds(preset):
    gs, seat = _decision_points(preset, 4, 9)[4]
    samba = preset == "samba"
    obs, know = gs.observation(seat), gs.knowledge(seat)
    a = np.zeros((30, Off.STATE_SIZE), np.int32)
    assert (
        sample_worlds_nb(obs, know, gs.params, 5, 0, a, -1, np.zeros(24), 0, np.zeros(2, np.int64))
        == OK
    )
    # scramble the true state: another world with the same observation re-deals every hidden card
    scr = a[7].copy()
    assert (
        scr[Off.HANDS : Off.HANDS + 4 * N_KINDS].tobytes()
        != gs.state[Off.HANDS : Off.HANDS + 4 * N_KINDS].tobytes()
    )
    view = np.zeros(Off.STATE_SIZE, np.int32)
    observe_nb(scr, seat, 0, view, samba)
    assert (view == obs).all()
    b = np.zeros_like(a)
    assert (
        sample_worlds_nb(view, know, gs.params, 5, 0, b, -1, np.zeros(24), 0, np.zeros(2, np.int64))
        == OK
    )
    assert a.tobytes() == b.tobytes()
    # the same holds for model-consistent worlds
    sid, knobs = parse_spec("expert", gs.rules.label)
    c = np.zeros_like(a)
    d = np.zeros_like(a)
    stats = np.zeros(2, np.int64)
    assert sample_worlds_nb(obs, know, gs.params, 5, 0, c, sid, knobs, 50, stats) == OK
    assert (
        sample_worlds_nb(view, know, gs.params, 5, 0, d, sid, knobs, 50, np.zeros(2, np.int64))
        == OK
    )
    assert c.tobytes() == d.tobytes()
    assert not (c == a).all()


def test_consistent_worlds_agree_with_the_last_discards():
    from sim.play.worlds.sampler import model_agrees_nb as _model_agrees_nb

    sid, knobs = parse_spec("expert")
    constrained = agreed = 0
    for gs, seat in _decision_points("classic", 4, 3, every=5)[2:8]:
        obs, know = gs.observation(seat), gs.knowledge(seat)
        out = np.zeros((10, Off.STATE_SIZE), np.int32)
        stats = np.zeros(2, np.int64)
        assert sample_worlds_nb(obs, know, gs.params, 1, 0, out, sid, knobs, 200, stats) == OK
        constrained += int(stats[0])
        # re-check every constrained seat of every world with the model
        rng = np.zeros(2, np.uint64)
        mobs = np.zeros(Off.STATE_SIZE, np.int32)
        buf = np.zeros(N_ACTIONS, np.int32)
        for w in out:
            for s in range(gs.n_seats):
                if s == seat or not know[Know.SNAP_VALID + s] or w[Off.LAST_DISCARD + s] < 0:
                    continue
                hidden = (
                    w[Off.HANDS + s * N_KINDS : Off.HANDS + (s + 1) * N_KINDS]
                    - know[Know.KNOWN + s * N_KINDS : Know.KNOWN + (s + 1) * N_KINDS]
                )
                pool = np.array(
                    [k for k in range(N_KINDS) for _ in range(int(hidden[k]))] + [0] * MAX_CARDS,
                    np.int32,
                )
                agreed += bool(
                    _model_agrees_nb(
                        w,
                        know,
                        gs.params,
                        s,
                        pool,
                        0,
                        int(hidden.sum()),
                        sid,
                        knobs,
                        rng,
                        mobs,
                        buf,
                    )
                )
        assert stats[1] <= stats[0]
    assert constrained > 10
    assert agreed >= 0.8 * constrained


# ----------------------------------------------------------------------------- Samba suits


def _tiny_samba():
    """A Samba observation (4 seats, 3 packs) where four cards are unseen: 4C and 4D (the viewer
    holds every other four), a five that is 5H or 5S (one of those two copies is melded), a king
    that is KH or one of two KS (two of those three are melded).  Seat 1 holds 2 cards, the
    pile 1 hidden card under its known top 9C, the stock 1 card; seats 2 and 3 hold none."""
    params = RuleSet.preset("samba", 4).to_params(0).astype(np.int32)
    comp = np.zeros(N_KINDS, np.int64)
    deck_composition_nb(params, comp)
    obs = np.zeros(Off.STATE_SIZE, np.int32)
    obs[Off.N_SEATS], obs[Off.N_TEAMS] = 4, 2
    obs[Off.TEAM_OF_SEAT : Off.TEAM_OF_SEAT + 4] = (0, 1, 0, 1)
    obs[Off.WENT_OUT_SEAT] = -1
    obs[Off.LAST_DISCARD : Off.LAST_DISCARD + 6] = -1
    obs[Off.TEAM_RED3], obs[Off.TEAM_RED3 + 1] = 3, 3
    held = {
        Kind.FOUR: (2, 2, 3, 3),
        Kind.FIVE: (3, 3, 2, 2),
        Kind.KING: (3, 3, 2, 1),
    }  # per suit C D H S
    unseen = {Kind.FOUR: 2, Kind.FIVE: 1, Kind.KING: 1}
    obs[Off.HANDS + Kind.BLACK3] = 6
    for k, per_suit in held.items():
        obs[Off.HANDS + k] = sum(per_suit)
        for s, c in enumerate(per_suit):
            obs[Off.HAND_SUITS + s * 11 + k - 2] = c
    for k in NATURALS:
        obs[Off.MELD_NAT + k] = comp[k] - obs[Off.HANDS + k] - unseen.get(k, 0) - (k == Kind.NINE)
    obs[Off.MELD_TWO + Kind.SIX] = comp[Kind.TWO]
    obs[Off.MELD_JOKER + Kind.SEVEN] = comp[Kind.JOKER]
    obs[Off.HAND_SIZE : Off.HAND_SIZE + 4] = (
        int(obs[Off.HANDS : Off.HANDS + N_KINDS].sum()),
        2,
        0,
        0,
    )
    obs[Off.PILE_LEN], obs[Off.PILE_TOP], obs[Off.PILE_TOP_SUIT] = 2, Kind.NINE, 0
    obs[Off.PILE_COUNTS + Kind.NINE] = 1
    obs[Off.STOCK_LEN] = 1
    return obs, new_know(0, 1), params


def test_samba_sampler_matches_exact_distribution():
    obs, know, params = _tiny_samba()
    c = lambda k, s: k | (s << 4)  # noqa: E731
    exact: Counter = Counter()
    for five, w5 in ((c(Kind.FIVE, 2), 1), (c(Kind.FIVE, 3), 1)):
        for king, wk in ((c(Kind.KING, 2), 1), (c(Kind.KING, 3), 2)):
            for perm in itertools.permutations([c(Kind.FOUR, 0), c(Kind.FOUR, 1), five, king]):
                exact[(tuple(sorted(perm[1:3])), perm[0], perm[3])] += w5 * wk
    n = 20000
    out = np.zeros((n, Off.STATE_SIZE), np.int32)
    assert (
        sample_worlds_nb(obs, know, params, 4, 0, out, -1, np.zeros(24), 0, np.zeros(2, np.int64))
        == OK
    )
    got: Counter = Counter()
    for w in out:
        hs = w[Off.HAND_SUITS + N_SUITED : Off.HAND_SUITS + 2 * N_SUITED]
        hand = tuple(
            sorted(
                (2 + i % 11) | ((i // 11) << 4)
                for i in np.flatnonzero(hs)
                for _ in range(int(hs[i]))
            )
        )
        got[(hand, int(w[Off.PILE]), int(w[Off.STOCK]))] += 1
    assert set(got) <= set(exact), set(got) - set(exact)
    keys = sorted(exact)
    total = sum(exact.values())
    f_exp = np.array([exact[k] / total * n for k in keys])
    f_obs = np.array([got.get(k, 0) for k in keys])
    assert len(keys) > 20
    assert chisquare(f_obs, f_exp).pvalue > 0.001

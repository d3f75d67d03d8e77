"""The learned decision model of `expert` (strategies/learned.py, strategies/features.py): the
compiled player scores actions exactly as the training script's features do, `model=-1` is
expert-v1, the per-table choice, the model file's guard and the fit."""

from __future__ import annotations

import numpy as np
import pytest

from sim.core.enums import N_ACTIONS, Act, Kind, Off, Phase
from sim.core.legal import legal_actions_nb
from sim.core.rules import RuleSet
from sim.play.engine import run_chunk
from sim.play.game import GameState
from strategies import heuristic, learned
from strategies.features import N_CONTEXT, N_SLOTS, features_nb
from strategies.registry import knob_values, parse_spec
from strategies.tuned import table_knobs


def _positions(rules: RuleSet, games: int, seed: int = 5, turns: int = 60):
    """(obs padded to STATE_SIZE, legal actions) of every decision of a few expert-v1 hands."""
    sid, knobs = parse_spec("expert-v1", rules.label)
    buf = np.zeros(N_ACTIONS, np.int32)
    out = []
    for game in range(games):
        gs = GameState.new_hand(rules, seed=seed, game=game)
        while not gs.is_over and gs.state[Off.TURN] < turns:
            obs = np.zeros(Off.STATE_SIZE, np.int32)
            o = gs.observation()
            obs[: o.shape[0]] = o
            n = legal_actions_nb(obs, Off.HANDS, gs.params, buf)
            out.append((obs, buf[:n].copy(), gs.params))
            rng = np.array([3, game], np.uint64)
            gs.apply(int(heuristic.decide_nb(obs, gs.params, knobs, rng, buf)))
    return out


def _reference_choice(obs, legal, params, knobs) -> int:
    """The model's action as benchmarks/train_expert.py scores it: features_nb rows, W[g] . x,
    the best beats the heuristic's choice by more than `margin`; candidates=1 restricts the meld
    phase to the heuristic's choice and the discards."""
    buf = np.zeros(N_ACTIONS, np.int32)
    base = int(heuristic.decide_nb(obs, params, knobs, np.array([7, 11], np.uint64), buf))
    cand = legal
    if obs[Off.PHASE] == Phase.MELD and knobs[learned.K.candidates] != 0:
        disc = (legal >= Act.DISCARD) & (legal < Act.DISCARD + Kind.JOKER + 1)
        cand = np.array([base] + [a for a in legal[disc] if a != base], np.int32)
    if len(cand) <= 1:
        return base
    bi = int(np.flatnonzero(cand == base)[0])
    g = np.zeros((1, len(cand)), np.int8)
    x = np.zeros((1, len(cand), N_SLOTS), np.float32)
    acts = cand[None, :].astype(np.int32)
    features_nb(obs[None, :], params, acts, np.array([len(cand)]), np.array([bi]), g, x)
    w = learned.WEIGHTS[int(knobs[learned.K.model])]
    score = np.einsum("aj,aj->a", x[0].astype(np.float64), w[g[0].astype(np.int64)])
    pick = int(np.argmax(score))
    if pick != bi and score[pick] > score[bi] + knobs[learned.K.margin] + 1e-9:
        return int(cand[pick])
    return base


@pytest.mark.parametrize("candidates", [0, 1])
def test_the_player_scores_actions_as_the_training_features_do(candidates):
    """On every decision of a few hands the compiled player (its inlined, per-decision context
    dot products) plays what the training rows and the stored weights say it should."""
    rules = RuleSet.preset("classic", 4)
    buf = np.zeros(N_ACTIONS, np.int32)
    deviated = 0
    for margin in (0.0, 25.0):
        spec = f"expert:model=3,margin={margin:g},candidates={candidates}"
        _, knobs = parse_spec(spec, rules.label)
        for obs, legal, params in _positions(rules, games=3):
            got = int(learned.decide_nb(obs, params, knobs, np.array([7, 11], np.uint64), buf))
            want = _reference_choice(obs, legal, params, knobs)
            assert got == want, (spec, int(obs[Off.TURN]), got, want)
            rng = np.array([7, 11], np.uint64)
            deviated += got != int(heuristic.decide_nb(obs, params, knobs, rng, buf))
    assert deviated > 20  # the model did act


def test_context_slots_read_the_observation():
    """A few context slots against the observation they describe."""
    rules = RuleSet.preset("classic", 4)
    obs, legal, params = _positions(rules, games=1, turns=30)[-1]
    g = np.zeros((1, len(legal)), np.int8)
    x = np.zeros((1, len(legal), N_SLOTS), np.float32)
    features_nb(
        obs[None, :], params, legal[None, :].astype(np.int32), np.array([len(legal)]),
        np.array([0]), g, x,
    )  # fmt: skip
    ctx = x[0, 0, 1 : 1 + N_CONTEXT]
    hand = obs[Off.HANDS : Off.HANDS + 15].sum()
    assert ctx[0] == 1.0
    assert ctx[1] == pytest.approx(obs[Off.PILE_LEN] / 10.0)
    assert ctx[4] == pytest.approx(obs[Off.STOCK_LEN] / 40.0)
    assert ctx[5] == pytest.approx(hand / 10.0)
    assert (x[0, :, 1 : 1 + N_CONTEXT] == ctx).all()  # the same for every action
    assert x[0, 0, 0] == 1.0 and (x[0, 1:, 0] == 0).all()  # slot 0: the heuristic's choice


TABLES = [
    ("classic", 4, None),
    ("classic", 3, None),
    ("german", 6, "2x3"),
    ("samba", 4, None),
]


@pytest.mark.parametrize("preset,players,layout", TABLES)
def test_model_off_plays_expert_v1_and_the_model_plays_legally(preset, players, layout):
    rules = RuleSet.preset(preset, players=players, team_layout=layout)
    v1 = run_chunk(rules, ["expert-v1"] * players, 21, 0, 12, log_rate=1.0)
    heur = ",".join(f"{k}={v!r}" for k, v in knob_values("expert-v1", rules.label).items())
    off = run_chunk(rules, [f"expert:{heur},model=-1"] * players, 21, 0, 12, log_rate=1.0)
    np.testing.assert_array_equal(v1.hands["score"], off.hands["score"])
    np.testing.assert_array_equal(v1.decisions["action"], off.decisions["action"])
    # the model on every decision it can reach (every legal action scored, no margin): legal
    # play, checked action by action, and other hands than expert-v1's
    on = run_chunk(rules, ["expert:model=3,margin=0,candidates=0"] * players, 21, 0, 12, check=True)
    assert not np.array_equal(v1.hands["score"], on.hands["score"])


def test_the_model_is_a_per_table_choice():
    """Every table's set names a model (or -1: the heuristic alone, i.e. expert-v1); where it is
    -1 and no other knob is set, expert plays expert-v1's hands exactly."""
    from strategies.tuned import tuned_tables

    tables = tuned_tables("expert")
    assert sorted(tables) == sorted(tuned_tables("expert-v1"))
    models = {t: table_knobs("expert", t).get("model") for t in tables}
    assert all(m is not None and -1 <= m < learned.N_MODELS for m in models.values()), models
    assert any(m == -1 for m in models.values()) and any(m >= 0 for m in models.values())
    for t in tables:
        own = {k: v for k, v in knob_values("expert", t).items() if k in knob_values("expert-v1")}
        if models[t] == -1 and own == knob_values("expert-v1", t):
            name, n, *lay = t.split("-")
            rules = RuleSet.preset(name, players=int(n[:-1]), team_layout=lay[0] if lay else None)
            a = run_chunk(rules, ["expert"] * rules.players, 4, 0, 6).hands["score"]
            b = run_chunk(rules, ["expert-v1"] * rules.players, 4, 0, 6).hands["score"]
            np.testing.assert_array_equal(a, b)


def test_margin_changes_decisions():
    rules = RuleSet.preset("classic", 4)
    base = run_chunk(rules, ["expert"] * 4, 2, 0, 40, log_rate=1.0).decisions["action"]
    for knob in ("margin=1000", "margin=0"):
        other = run_chunk(rules, [f"expert:{knob}"] * 4, 2, 0, 40, log_rate=1.0)
        a = other.decisions["action"]
        assert len(a) != len(base) or not np.array_equal(a, base), knob
    # a margin no score difference reaches: the heuristic alone
    huge = run_chunk(rules, ["expert:margin=1e6"] * 4, 2, 0, 10).hands["score"]
    v1 = run_chunk(rules, ["expert-v1"] * 4, 2, 0, 10).hands["score"]
    np.testing.assert_array_equal(huge, v1)


def test_a_changed_model_file_without_its_hash_stops_the_import(monkeypatch):
    monkeypatch.setattr(learned, "MODEL_SHA256", "0" * 64)
    with pytest.raises(ImportError, match="MODEL_SHA256"):
        learned._load_weights()
    monkeypatch.undo()
    w = learned._load_weights()
    assert w.shape[1:] == learned.WEIGHTS.shape[1:] and np.array_equal(w, learned.WEIGHTS)


def test_fit_recovers_known_weights():
    """benchmarks/train_expert.py's weighted ridge fit, on rows whose gains a known weight table
    made (plus noise), finds that table's differences back."""
    from benchmarks.train_expert import fit_weights
    from strategies.features import N_GROUPS

    rng = np.random.default_rng(0)
    n, amax = 3000, 6
    g = rng.integers(0, 3, (n, amax)).astype(np.int8)
    x = rng.normal(size=(n, amax, N_SLOTS)).astype(np.float32)
    base = np.zeros(n, np.int64)
    x[:, :, 0] = 0.0
    x[:, 0, 0] = 1.0
    true = rng.normal(size=(N_GROUPS, N_SLOTS)) * 10
    score = np.einsum("iaj,iaj->ia", x, true[g.astype(np.int64)])
    mean = score - score[:, :1] + rng.normal(size=(n, amax))
    data = dict(
        actions=np.zeros((n, amax), np.int16),
        base=base,
        n_act=np.full(n, amax),
        mean=mean.astype(np.float32),
        se=np.ones((n, amax), np.float32),
    )
    w, info = fit_weights(g, x, data, ridge=1e-6, floor=1.0)
    fitted = np.einsum("iaj,iaj->ia", x, w[g.astype(np.int64)])
    np.testing.assert_allclose(fitted - fitted[:, :1], score - score[:, :1], atol=0.5)
    assert info["decisions"] == n and info["pairs"] == n * (amax - 1)


def test_the_training_recorder_records_paired_gains_keyed_by_the_hand():
    """benchmarks/train_expert.py collect: every recorded decision holds legal actions, the
    recording strategy's own choice at gain 0 (gains are paired differences to it) and finite
    standard errors; and the records of hands 0-1 in one chunk equal those of two one-hand
    chunks (they depend on the hand key only)."""
    from sim.play.search.record import record_chunk

    rules = RuleSet.preset("classic", players=4)
    table = ["expert-v1"] * 4
    kw = dict(worlds=3, rate=0.3, seats=(0, 1, 2, 3), cap=400)
    both = record_chunk(rules, table, 11, 0, 2, **kw)
    parts = [record_chunk(rules, table, 11, s, 1, **kw) for s in (0, 1)]
    n = len(both.n_act)
    assert n > 5
    rows = np.arange(n)
    assert np.all((both.base >= 0) & (both.base < both.n_act))
    assert np.all(both.mean[rows, both.base] == 0.0)
    valid = np.arange(both.actions.shape[1])[None, :] < both.n_act[:, None]
    assert np.all(both.actions[valid] >= 0) and np.all(both.actions[~valid] == -1)
    assert np.all(np.isfinite(both.se[valid])) and np.all(both.se[valid] >= 0)
    assert np.any(both.mean[valid] != 0.0)  # the rollouts told actions apart somewhere
    for name in ("obs", "actions", "n_act", "base", "mean", "se", "key"):
        joined = np.concatenate([getattr(p, name) for p in parts])
        assert np.array_equal(getattr(both, name), joined), name

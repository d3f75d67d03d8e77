"""Decision columns: one declaration (sim.core.enums) behind the records, the kernel layouts, the
store's types and docs/DATA.md; and the `--log-detail cards` columns checked against the game
they describe (hand counts move by exactly the cards drawn and played, the pile top is the card
discarded just before)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sim.core.enums import (
    CARD_COLUMNS,
    DC,
    DEC_CARD_FIELDS,
    DEC_GROUPS,
    DECISION_COLUMNS,
    KIND_NAMES,
    SUIT_COLUMNS,
    Act,
    Kind,
    decision_record_dt,
)
from sim.core.rules import RuleSet
from sim.play.engine import run_chunk
from sim.runs import runner, store

DATA_MD = Path(__file__).resolve().parents[1] / "docs" / "DATA.md"
HAND_COLS = [c.name for c in CARD_COLUMNS if c.name.startswith("hand_")]


def _doc_tables() -> dict[str, str]:
    """Column name -> type cell of every `| column | type | meaning |` table in docs/DATA.md."""
    out: dict[str, str] = {}
    in_table = False
    for line in DATA_MD.read_text().splitlines():
        if line.startswith("| column | type | meaning |"):
            in_table = True
            continue
        if not line.startswith("|"):
            in_table = False
            continue
        if in_table and not line.startswith("|---"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            for name in re.findall(r"`([^`]+)`", cells[0]):
                assert name not in out, f"{name} listed twice in docs/DATA.md"
                out[name] = cells[1]
    return out


def test_docs_list_exactly_the_declared_columns():
    declared = {c.name: c for c in DECISION_COLUMNS + CARD_COLUMNS + SUIT_COLUMNS}
    documented = _doc_tables()
    assert set(documented) == set(declared)
    for name, type_cell in documented.items():
        dt = declared[name].dtype
        assert type_cell == ("dictionary string" if dt is str else np.dtype(dt).name), name


def test_layouts_derive_from_the_declaration():
    assert decision_record_dt.names == tuple(c.name for c in DECISION_COLUMNS)
    grouped = [n for names, _ in DEC_GROUPS for n in names]
    assert sorted(grouped) == sorted(decision_record_dt.names)
    for names, dt in DEC_GROUPS:
        assert all(decision_record_dt.fields[n][0] == np.dtype(dt) for n in names)
    assert DEC_CARD_FIELDS == tuple(
        c.name for c in CARD_COLUMNS + SUIT_COLUMNS if c.dtype is not str
    )
    assert [DC._fields[i].lower() for i in range(len(DC))] == [n.lower() for n in DEC_CARD_FIELDS]
    for c in CARD_COLUMNS + SUIT_COLUMNS + DECISION_COLUMNS:
        if c.dtype is not str:
            assert store.COLUMN_DTYPES["decisions"][c.name] == np.dtype(c.dtype)


def _frame(rules, strategies, count, detail, seed=5):
    res = run_chunk(rules, strategies, seed, 0, count, log_rate=1.0, log_detail=detail)
    tables = store.record_tables(res.hands, res.decision_columns, res.games, rules, strategies)
    return store.decode_table(store.encode_table(tables["decisions"], "decisions"))


@pytest.fixture(scope="module")
def classic():
    rules = RuleSet.preset("classic")
    strategies = ("expert", "greedy", "expert", "greedy")
    return (
        rules,
        strategies,
        _frame(rules, strategies, 30, "cards"),
        _frame(rules, strategies, 30, "basic"),
    )


def test_cards_detail_adds_columns_and_changes_nothing_else(classic):
    rules, strategies, cards, basic = classic
    assert list(basic.columns) == list(decision_record_dt.names)
    assert list(cards.columns) == list(decision_record_dt.names) + [c.name for c in CARD_COLUMNS]
    pd.testing.assert_frame_equal(cards[basic.columns], basic, check_exact=True)
    assert isinstance(cards["strategy"].dtype, pd.CategoricalDtype)
    assert (
        cards["strategy"].astype(str).to_numpy() == np.array(strategies)[cards["seat"].to_numpy()]
    ).all()


def test_shards_read_back_the_kernels_columns():
    """What a reader gets from a chunk's decisions shard is what the kernel logged, column by
    column and with the declared types, across data pages (more rows than a default page) and
    under rules with suit columns (the writer's encodings and codecs must not change values)."""
    for preset in ("classic", "samba"):
        rules = RuleSet.preset(preset)
        strategies = ("greedy", "random", "greedy", "random")
        res = run_chunk(rules, strategies, 11, 0, 300, log_rate=1.0, log_detail="cards")
        payload, rows = store.chunk_payload(res, rules, strategies)
        d = store.decode_table(payload["decisions"])
        cols = res.decision_columns
        assert rows["decisions"] == len(d) == len(cols["seed"]) > 20_000
        assert set(cols) <= set(d.columns)
        for name, values in cols.items():
            assert d[name].dtype == store.COLUMN_DTYPES["decisions"][name], name
            np.testing.assert_array_equal(d[name].to_numpy(), values, err_msg=name)


def test_hand_counts_and_action_cards(classic):
    _, _, d, _ = classic
    hand = d[HAND_COLS].to_numpy(np.int64)
    assert (hand.sum(axis=1) == d["hand_size"]).all()
    act = d["action"].to_numpy()
    disc = (act >= Act.DISCARD) & (act < Act.SEQ_NEW)
    assert (d["act_kind"][disc] == act[disc] - Act.DISCARD).all()
    assert (d["act_naturals"][disc] + d["act_wilds"][disc] == 1).all()
    # the card discarded is in the hand; a new meld's cards too
    kinds = d["act_kind"].to_numpy()
    rows = np.flatnonzero(disc)
    assert (hand[rows, kinds[rows]] >= 1).all()
    melds = np.flatnonzero((act >= Act.MELD) & (act < Act.ADD_NAT))
    assert len(melds) > 0
    assert (hand[melds, kinds[melds]] >= d["act_naturals"].to_numpy()[melds]).all()
    assert (d["act_target"].to_numpy()[melds] == kinds[melds]).all()


def _next_same_turn(d: pd.DataFrame) -> np.ndarray:
    """Rows r whose row r+1 is the same hand, turn and seat (the decision right after r)."""
    key = d[["seed", "game", "hand", "turn", "seat"]].to_numpy()
    return np.flatnonzero((key[1:] == key[:-1]).all(axis=1))


def test_hand_moves_by_exactly_the_cards_drawn_and_played(classic):
    _, _, d, _ = classic
    hand = d[HAND_COLS].to_numpy(np.int64)
    act = d["action"].to_numpy()
    kinds = d["act_kind"].to_numpy()
    nat = d["act_naturals"].to_numpy()
    wild = d["act_wilds"].to_numpy()
    checked = {"draw": 0, "meld": 0}
    for r in _next_same_turn(d):
        delta = hand[r + 1] - hand[r]
        want = np.zeros(len(HAND_COLS), np.int64)
        if act[r] == Act.DRAW:
            for col in ("drawn_1", "drawn_2"):
                k = d[col].iat[r + 1]
                if k >= 0:
                    want[k] += 1
            assert d["drawn_1"].iat[r] == -1  # the draw row itself: nothing drawn yet
            assert d["drawn_1"].iat[r + 1] >= 0
            checked["draw"] += 1
        elif Act.MELD <= act[r] < Act.DISCARD and d["team_opened"].iat[r]:
            # (before the initial meld, a pile taken is held aside and joins the hand with the
            # meld that reaches the minimum: the hand then grows by the pile)
            if kinds[r] in (Kind.TWO, Kind.JOKER):  # a wild card added
                want[kinds[r]] -= wild[r]
            else:
                want[kinds[r]] -= nat[r]
                if wild[r]:  # MELD variant 1 (two) or 2 (joker)
                    want[Kind.TWO if (act[r] - Act.MELD) % 3 == 1 else Kind.JOKER] -= wild[r]
            target = d["act_target"].iat[r]
            if target != Kind.BLACK3:  # (black threes are melded only when going out: no column)
                col = f"meld_us_{KIND_NAMES[target]}"
                assert d[col].iat[r + 1] - d[col].iat[r] == nat[r] + wild[r]
                checked["meld"] += 1
        else:
            continue
        assert (delta == want).all(), (r, act[r], delta, want)
    assert checked["draw"] > 50 and checked["meld"] > 10


def test_rows_match_a_replay_of_their_hands(classic):
    """Replaying the logged actions of some hands (sim.play.game, the step-through API) gives
    the logged hand, melds, pile top and red threes at every row."""
    rules, _, d, _ = classic
    from sim.play.game import GameState

    names = [KIND_NAMES[k] for k in range(Kind.FOUR, Kind.ACE + 1)]
    for game in (0, 3, 7):
        rows = d[d["game"] == game]
        g = GameState.new_hand(rules, seed=5, game=game)
        for row in rows.itertuples(index=False):
            assert g.seat == row.seat and g.team == row.team
            assert list(g.hand_counts()[: Kind.JOKER + 1]) == [getattr(row, c) for c in HAND_COLS]
            us = {k: sum(v) for k, v in g.melds(row.team).items()}
            them = {k: sum(v) for k, v in g.melds(1 - row.team).items()}
            assert [getattr(row, f"meld_us_{k}") for k in names] == [us.get(k, 0) for k in names]
            assert [getattr(row, f"meld_them_{k}") for k in names] == [
                them.get(k, 0) for k in names
            ]
            assert row.pile_top == (g.pile_top if g.pile() else -1)
            assert (row.red3_us, row.red3_them) == (
                g.red_threes(row.team),
                g.red_threes(1 - row.team),
            )
            g.apply(int(row.action))
        assert g.is_over


def test_pile_top_is_the_card_just_discarded(classic):
    _, _, d, _ = classic
    act = d["action"].to_numpy()
    same_hand = (
        d[["seed", "game", "hand"]].to_numpy()[1:] == d[["seed", "game", "hand"]].to_numpy()[:-1]
    ).all(axis=1)
    rows = np.flatnonzero(same_hand & (act[:-1] >= Act.DISCARD) & (act[:-1] < Act.SEQ_NEW))
    assert len(rows) > 50
    assert (d["pile_top"].to_numpy()[rows + 1] == d["act_kind"].to_numpy()[rows]).all()
    assert (d["pile_top"].to_numpy()[rows + 1] >= 0).all()


def test_samba_adds_suit_counts_that_sum_to_the_kinds():
    rules = RuleSet.preset("samba")
    d = _frame(rules, ("expert", "greedy") * 2, 3, "cards")
    assert list(d.columns)[-len(SUIT_COLUMNS) :] == [c.name for c in SUIT_COLUMNS]
    for k in ("4", "9", "A"):
        assert (sum(d[f"hand_{k}{s}"] for s in "CDHS") == d[f"hand_{k}"]).all()
    seq = (d["action"] >= Act.SEQ_NEW) & (d["action"] < Act.TAKE_SEQ)
    assert ((d["act_target"][seq] >= 16) & (d["act_target"][seq] < 24)).all()


def test_cards_detail_same_whatever_the_jobs(tmp_path):
    rules = RuleSet.preset("classic")
    kw = dict(hands=24, seed=9, log_decisions=1.0, progress=False, log_detail="cards")
    one = runner.simulate(rules, "expert,greedy", out=tmp_path / "one", jobs=1, chunk_size=8, **kw)
    two = runner.simulate(rules, "expert,greedy", out=tmp_path / "two", jobs=2, chunk_size=5, **kw)
    assert one.manifest["log_detail"] == "cards"
    assert "hand_JK" in one.decisions.columns
    pd.testing.assert_frame_equal(one.decisions, two.decisions, check_exact=True)


def test_resume_refuses_another_detail(tmp_path):
    rules = RuleSet.preset("classic")
    kw = dict(hands=8, seed=1, chunk_size=4, log_decisions=1.0, progress=False, jobs=1)
    runner.simulate(rules, "greedy", out=tmp_path / "r", log_detail="cards", **kw)
    with pytest.raises(
        store.RunFolderError,
        match=r"log detail \(--log-detail\) differs \(cards there, basic here\)",
    ):
        runner.simulate(rules, "greedy", out=tmp_path / "r", resume=True, **kw)


def test_cli_detail_errors_are_one_line(tmp_path, capsys):
    from sim.cli.main import main

    out = str(tmp_path / "c")
    assert (
        main(["simulate", "--hands", "4", "--log-detail", "cards", "--out", out, "--no-progress"])
        == 2
    )
    assert "--log-detail cards needs decision logs" in capsys.readouterr().err
    base = [
        "simulate",
        "--hands",
        "4",
        "--log-decisions",
        "1",
        "--jobs",
        "1",
        "--out",
        out,
        "--no-progress",
    ]
    assert main(base + ["--log-detail", "cards"]) == 0
    manifest = store.read_manifest(out)
    assert manifest["log_detail"] == "cards" and "--log-detail cards" in manifest["command"]
    capsys.readouterr()
    assert main(base + ["--log-detail", "basic", "--resume"]) == 2
    err = capsys.readouterr().err.strip()
    assert "Traceback" not in err and "cards there, basic here" in err.splitlines()[-1]
    assert main(base + ["--resume"]) == 0  # the manifest's detail when not given


def test_bad_detail_is_one_clear_error():
    with pytest.raises(ValueError, match="log_detail='all'"):
        run_chunk(
            RuleSet.preset("classic"), ("greedy",) * 4, 1, 0, 1, log_rate=1.0, log_detail="all"
        )

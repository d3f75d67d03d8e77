"""Layouts declared once as (name, width, meaning) rows: the state/observation layout `Off`,
the parameter layout `Par` and the hand/game record dtypes are derived from them."""

from __future__ import annotations

import pytest

from sim.core import enums
from sim.core.enums import (
    GAME_COLUMNS,
    HAND_COLUMNS,
    MAX_SEATS,
    N_KINDS,
    OBS_SIZE,
    STATE_LAYOUT,
    Off,
    game_record_dt,
    hand_record_dt,
)
from sim.core.layout import Field, layout
from sim.core.params import PAR_LAYOUT, Par


@pytest.mark.parametrize(
    ("rows", "index", "size"), [(STATE_LAYOUT, Off, "STATE_SIZE"), (PAR_LAYOUT, Par, "N_PARAMS")]
)
def test_layout_is_contiguous(rows, index, size):
    """Each row starts where the previous one ends: no holes, no overlaps, and the size is the
    sum of the widths."""
    at = 0
    for row in rows:
        assert getattr(index, row.name) == at, row.name
        assert row.meaning, row.name
        at += row.width
    assert getattr(index, size) == at


def test_state_layout_parts():
    # the public part, then the hands: an observation is the public part + one hand
    assert Off.PUB_CLASSIC <= Off.PUB_SIZE == Off.HANDS
    assert Off.HAND_SUITS == Off.HANDS + MAX_SEATS * N_KINDS
    assert OBS_SIZE == Off.HAND_SUITS + enums.N_SUITED <= Off.STATE_SIZE
    assert Off.MELD_TWO - Off.MELD_NAT == enums.MAX_TEAMS * N_KINDS


def test_layout_refuses_repeats_and_negative_widths():
    with pytest.raises(ValueError, match="twice"):
        layout("X", (Field("A", 1, "a"), Field("A", 2, "b")), "SIZE")
    with pytest.raises(ValueError, match="negative"):
        layout("X", (Field("A", -1, "a"),), "SIZE")


@pytest.mark.parametrize(
    ("columns", "dt"), [(HAND_COLUMNS, hand_record_dt), (GAME_COLUMNS, game_record_dt)]
)
def test_record_dtypes_follow_their_columns(columns, dt):
    assert dt.names == tuple(c.name for c in columns)
    for c in columns:
        assert c.meaning
        sub = dt[c.name]
        assert (sub.base if c.width > 1 else sub) == c.dtype
        assert (sub.shape[0] if c.width > 1 else 1) == c.width


def test_codes_are_declared_beside_their_text():
    from sim.core.layout import code_table
    from sim.core.legal import WHY_TEXT, Why
    from sim.play.selfplay.status import CHECK_TEXT, STATUS_TEXT, Check, Status

    for codes, texts in ((Why, WHY_TEXT), (Status, STATUS_TEXT), (Check, CHECK_TEXT)):
        assert list(codes) == list(range(len(codes))) and len(texts) == len(codes)
        assert all(texts[c] for c in codes)
    assert Why.OK == 0 and Check.FINE == 0 and Status.OK == 0
    with pytest.raises(ValueError, match="twice"):
        code_table("X", (("A", "a"), ("A", "b")))


def test_status_slots_explain_the_stop():
    """The engine reads a kernel's status through the named slots: an illegal action and a
    broken invariant each come back as one line naming what the kernel wrote."""
    import numpy as np

    from sim.core.enums import Act
    from sim.core.legal import WHY_TEXT, Why
    from sim.play.engine import explain_status
    from sim.play.selfplay.status import CHECK_TEXT, Broken, Check, Illegal, Slot, Status
    from strategies.registry import strategy_id

    tables = np.array([[0, 1, 2, 3, -1, -1]], np.int64)
    st = np.zeros(Slot.SIZE, np.int64)
    assert explain_status(st, 5, tables) is None
    st[
        [
            Illegal.CODE,
            Illegal.SEAT,
            Illegal.ACTION,
            Illegal.WHY,
            Illegal.GAME,
            Illegal.HAND,
            Illegal.STRATEGY,
        ]
    ] = (Status.ILLEGAL, 2, Act.DECLINE, Why.NOT_EXHAUSTED, 41, 3, strategy_id("expert"))
    msg = explain_status(st, 5, tables)
    assert "'expert' (seat 2)" in msg and WHY_TEXT[Why.NOT_EXHAUSTED] in msg
    assert "seed=5 game=41 hand=3" in msg
    st[:] = 0
    st[[Broken.CODE, Broken.CHECK, Broken.GAME, Broken.HAND, Broken.TURN]] = (
        Status.INVARIANT,
        Check.PILE_COUNTS,
        7,
        1,
        12,
    )
    msg = explain_status(st, 5, tables)
    assert CHECK_TEXT[Check.PILE_COUNTS] in msg and "game=7 hand=1 turn=12" in msg


def test_card_code_and_meld_readers():
    """The named readers give what the layout arithmetic gives (compiled and plain Python)."""
    import numpy as np

    from sim.core.enums import MAX_TEAMS, Kind
    from sim.core.readers import (
        code_kind,
        code_kind_nb,
        code_suit,
        code_suit_nb,
        make_code,
        make_code_nb,
        meld_nat_nb,
        meld_size_nb,
        meld_wild_nb,
        team_of_nb,
    )

    for kind in range(N_KINDS):
        for suit in range(4):
            code = make_code(kind, suit)
            assert code == make_code_nb(kind, suit) == kind + 16 * suit
            assert code_kind(code) == code_kind_nb(code) == kind
            assert code_suit(code) == code_suit_nb(code) == suit
    arr = np.random.default_rng(1).integers(0, 9, Off.STATE_SIZE).astype(np.int32)
    arr[Off.SEAT] = 1
    arr[Off.TEAM_OF_SEAT + 1] = 2
    assert team_of_nb(arr) == 2
    for team in range(MAX_TEAMS):
        for kind in (Kind.TWO, Kind.SEVEN, Kind.ACE):
            i = team * N_KINDS + kind
            nat, two, joker = arr[Off.MELD_NAT + i], arr[Off.MELD_TWO + i], arr[Off.MELD_JOKER + i]
            assert meld_nat_nb(arr, team, kind) == nat
            assert meld_wild_nb(arr, team, kind) == two + joker
            assert meld_size_nb(arr, team, kind) == nat + two + joker


def test_the_layout_stubs_are_current():
    # the type checker reads the layouts' fields from stubs written by tests/layout_stubs.py
    import layout_stubs

    assert layout_stubs.stale() == [], "run: python tests/layout_stubs.py"


def test_the_type_checker_sees_a_misspelt_field(tmp_path):
    import importlib

    import layout_stubs
    from mypy import api

    # each layout is annotated with its stub class ...
    for classes in layout_stubs.LAYOUTS.values():
        for cls, (module, name) in classes.items():
            hints = importlib.import_module(module).__annotations__
            assert hints.get(name) == cls, f"{module}: annotate {name} with {cls}"
    # ... and the type checker refuses a field a stub does not have (the stub alone: fast)
    code = tmp_path / "misspelt.py"
    code.write_text(
        "from sim.core._layouts import OffT, ParT\n"
        "def f(off: OffT, par: ParT) -> int:\n"
        "    return off.PHASE + par.DECKS + off.PHSE\n"
    )
    out, _, status = api.run([str(code), "--no-incremental", "--follow-imports=skip"])
    assert status == 1 and '"OffT" has no attribute "PHSE"' in out, out
    assert out.count("error:") == 1, out


def test_the_status_slots_do_not_overlap():
    from sim.core.enums import MAX_SEATS
    from sim.play.selfplay.status import Broken, Illegal, NoWorld, Slot

    used_by_any_stop = set(Illegal) | set(Broken) | set(NoWorld)
    seat_table = set(range(Slot.SEAT_TABLE, Slot.SEAT_TABLE + MAX_SEATS))
    for slot in (Slot.ROLLOUT, Slot.CANDIDATE):
        assert slot not in used_by_any_stop | seat_table
    assert max(used_by_any_stop | seat_table | {Slot.ROLLOUT, Slot.CANDIDATE}) < Slot.SIZE

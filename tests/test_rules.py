"""Rule sets: presets vs docs/RULES.md, refusals, engine parameters, manifests, the `rules` CLI."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from sim.cli.main import main
from sim.core.enums import MAX_SEATS, N_KINDS, N_PARAMS, Kind, Par
from sim.core.rules import BIG, PAR_WIDTHS, PRESETS, RulesError, RuleSet, parse_overrides

ALL_COMBOS: list[tuple[str, int, str | None]] = [
    (name, players, layout)
    for name in ("classic", "german")
    for players in (2, 3, 4, 5, 6)
    for layout in ((None, "2x3", "3x2") if players == 6 else (None,))
] + [("samba", 4, None)]


def _one_line_error(exc: pytest.ExceptionInfo[RulesError]) -> str:
    msg = str(exc.value)
    assert msg and "\n" not in msg
    return msg


# ----------------------------------------------------------------------------- presets


@pytest.mark.parametrize(("players", "hand_size"), [(2, 15), (3, 13), (4, 11), (5, 11), (6, 13)])
@pytest.mark.parametrize("name", ["classic", "german"])
def test_deal_sizes_section_2(name: str, players: int, hand_size: int) -> None:
    r = RuleSet.preset(name, players)
    assert r.hand_size == hand_size
    assert r.decks == (3 if players == 6 else 2)
    assert r.n_active == (4 if players == 5 else players)


def test_default_is_classic_four() -> None:
    assert RuleSet() == RuleSet.preset("classic")
    assert RuleSet.preset("classic", 4) == RuleSet.preset("classic")


def test_classic_values() -> None:
    r = RuleSet.preset("classic")
    assert (r.decks, r.hand_size, r.draw_count) == (2, 11, 1)
    assert (r.max_wild_per_meld, r.wild_le_naturals, r.min_naturals, r.canasta_size) == (
        3,
        True,
        2,
        7,
    )
    assert r.wild_onto_canasta and r.pile_take_natural_plus_wild and r.pile_take_onto_meld
    assert r.pile_take_onto_canasta == "yes"
    assert not r.sequences and not r.multiple_melds_per_rank
    assert r.canastas_to_go_out == 1
    assert (r.go_out_bonus, r.go_out_no_discard_bonus, r.concealed_bonus) == (100, 100, 200)
    assert r.concealed_needs_minimum is False
    assert r.red_threes_need_canastas == 0
    assert r.red_three_scores == (0, 100, 200, 300, 800, 800, 800)
    assert (r.black_threes_meld_min, r.black_threes_meld_max) == (3, 4)
    assert r.game_target == 5000
    assert r.minimum_below_zero == 15
    assert r.minimum_bands == ((0, 50), (1500, 90), (3000, 120), (BIG, 150))
    assert (r.natural_canasta_bonus, r.mixed_canasta_bonus) == (500, 300)
    assert r.upcard_freezes and r.exhausted_forced_take and r.red_three_last_ends
    assert (r.max_turns, r.max_hands) == (2000, 200)
    assert r.engine_supported() is None


def test_card_values_section_1() -> None:
    v = RuleSet().card_values
    assert len(v) == N_KINDS
    assert v[Kind.JOKER] == 50
    assert v[Kind.TWO] == 20 and v[Kind.ACE] == 20
    for k in (Kind.EIGHT, Kind.NINE, Kind.TEN, Kind.JACK, Kind.QUEEN, Kind.KING):
        assert v[k] == 10
    for k in (Kind.FOUR, Kind.FIVE, Kind.SIX, Kind.SEVEN, Kind.BLACK3):
        assert v[k] == 5
    assert v[Kind.RED3] == 100


def test_german_values() -> None:
    g, c = RuleSet.preset("german"), RuleSet.preset("classic")
    assert (g.go_out_bonus, g.go_out_no_discard_bonus, g.concealed_bonus) == (100, 200, 1000)
    assert g.pile_take_onto_canasta == "no"
    assert g.red_threes_need_canastas == 1
    same = {
        "name",
        "go_out_bonus",
        "go_out_no_discard_bonus",
        "concealed_bonus",
        "pile_take_onto_canasta",
        "red_threes_need_canastas",
    }
    for key, value in c.to_dict().items():
        if key not in same:
            assert g.to_dict()[key] == value, key
    assert g.engine_supported() is None


def test_samba_values() -> None:
    s = RuleSet.preset("samba")
    assert (s.decks, s.hand_size, s.draw_count, s.max_wild_per_meld) == (3, 15, 2, 2)
    assert s.wild_le_naturals is True
    assert s.wild_onto_canasta is False and s.pile_take_natural_plus_wild is False
    assert s.pile_take_onto_canasta == "pair"
    assert s.sequences and s.multiple_melds_per_rank
    assert s.canastas_to_go_out == 2
    assert (s.go_out_bonus, s.go_out_no_discard_bonus, s.concealed_bonus) == (200, 200, 0)
    assert s.concealed_needs_minimum is True
    assert s.red_threes_need_canastas == 2
    assert s.red_three_scores == (0, 100, 200, 300, 400, 500, 1000)
    assert (s.black_threes_meld_min, s.black_threes_meld_max) == (3, 6)
    assert s.game_target == 10_000
    assert s.minimum_for(6995) == 120 and s.minimum_for(7000) == 150
    assert s.engine_supported() is None  # the engine plays Samba
    reason = s.replace(canasta_size=10).engine_supported()
    assert reason and "\n" not in reason and "sequences" in reason


@pytest.mark.parametrize("name", ["classic", "german"])
def test_six_players(name: str) -> None:
    two = RuleSet.preset(name, 6)
    assert two.team_layout == "2x3"
    assert RuleSet.preset(name, 6, "2x3") == two
    three = RuleSet.preset(name, 6, "3x2")
    for r in (two, three):
        assert (r.decks, r.hand_size, r.canastas_to_go_out) == (3, 13, 2)
        assert r.red_three_scores == (0, 100, 200, 300, 400, 1000, 1200)
    assert two.game_target == 10_000 and three.game_target == 7500
    assert two.minimum_for(7495) == 120 and two.minimum_for(7500) == 150
    assert three.minimum_for(10**8) == 120  # no 150 band in the game to 7,500
    assert two.team_of_seat == (0, 1, 0, 1, 0, 1) and two.n_teams == 2
    assert three.team_of_seat == (0, 1, 2, 0, 1, 2) and three.n_teams == 3
    assert three.teams == ((0, 3), (1, 4), (2, 5))


def test_minimum_for_bands() -> None:
    r = RuleSet()
    assert [r.minimum_for(s) for s in (-5, 0, 1495, 1500, 2995, 3000, 10**8)] == [
        15,
        50,
        50,
        90,
        90,
        120,
        120,
    ]


def test_teams_and_partition() -> None:
    assert RuleSet.preset("classic", 2).team_of_seat == (0, 1)
    assert RuleSet.preset("classic", 3).team_of_seat == (0, 1, 2)
    assert RuleSet.preset("classic", 4).team_of_seat == (0, 1, 0, 1)
    assert RuleSet.preset("classic", 5).team_of_seat == (0, 1, 0, 1, 1)
    for name, players, layout in ALL_COMBOS:
        r = RuleSet.preset(name, players, layout)
        seats = sorted(s for team in r.teams for s in team)
        assert seats == list(range(players))
        assert len(r.teams) == r.n_teams and all(r.teams)


def test_five_player_rotation() -> None:
    r = RuleSet.preset("classic", 5)
    assert r.n_active == 4 and r.n_teams == 2
    out_counts = {1: 0, 3: 0, 4: 0}
    for h in range(3):
        seats = r.active_seats(h)
        assert len(seats) == 4 and len(set(seats)) == 4
        assert seats[0] == 0 and seats[2] == 2  # team A always plays
        assert r.active_team_of_seat(h) == (0, 1, 0, 1)  # teams alternate
        (out,) = set(range(5)) - set(seats)
        assert out == r.sitting_out(h)
        out_counts[out] += 1
    assert out_counts == {1: 1, 3: 1, 4: 1}
    assert r.active_seats(3) == r.active_seats(0)
    assert RuleSet.preset("classic", 4).active_seats(7) == (0, 1, 2, 3)
    with pytest.raises(RulesError):
        r.active_seats(-1)


# ----------------------------------------------------------------------------- refusals

REFUSALS: list[tuple[str, dict[str, Any], str]] = [
    ("players", {"players": 7}, "2 to 6"),
    ("players", {"players": 1}, "2 to 6"),
    ("decks", {"decks": 4}, "2 or 3"),
    ("decks", {"decks": 1}, "2 or 3"),
    ("cards", {"hand_size": 27}, "108"),
    ("hand_size", {"hand_size": 0}, "hand_size"),
    ("bonus", {"go_out_bonus": -1}, ">= 0"),
    ("bonus", {"concealed_bonus": -200}, ">= 0"),
    ("bonus", {"natural_canasta_bonus": -5}, ">= 0"),
    ("bonus", {"mixed_canasta_bonus": -5}, ">= 0"),
    ("value", {"card_values": {"joker": -50}}, ">= 0"),
    ("value", {"minimum_below_zero": -1}, ">= 0"),
    ("max_wild", {"max_wild_per_meld": -1}, ">= 0"),
    ("min_naturals", {"min_naturals": 0}, "min_naturals"),
    ("min_naturals", {"min_naturals": 4}, "min_naturals"),
    ("canasta_size", {"canasta_size": 2}, "at least 3"),
    ("canasta_size", {"canasta_size": 12}, "never be reached"),
    ("draw_count", {"draw_count": 0}, "at least 1"),
    ("canastas", {"canastas_to_go_out": -1}, ">= 0"),
    ("red3 need", {"red_threes_need_canastas": -1}, ">= 0"),
    ("bands", {"minimum_bands": ((0, 50), (3000, 90), (1500, 120), (BIG, 150))}, "increase"),
    ("bands", {"minimum_bands": ((0, 50), (1500, 120), (3000, 90), (BIG, 150))}, "not decrease"),
    ("bands", {"minimum_bands": ((0, 50), (1500, 90), (3000, 120))}, "exactly 4"),
    ("bands", {"minimum_bands": ((100, 50), (1500, 90), (3000, 120), (BIG, 150))}, "score 0"),
    ("red3", {"red_three_scores": (0, 100, 200)}, "exactly 7"),
    ("red3", {"red_three_scores": (0, 100, 200, 300, 800, 700, 800)}, "non-decreasing"),
    ("red3", {"red_three_scores": (0, 100, 200, 300, 800, -1, 800)}, "non-decreasing"),
    ("black3", {"black_threes_meld_min": 2}, "at least 3"),
    ("black3", {"black_threes_meld_min": 5, "black_threes_meld_max": 4}, "min <= max"),
    ("black3", {"black_threes_meld_min": 5, "black_threes_meld_max": 6}, "black threes"),
    ("take onto canasta", {"pile_take_onto_canasta": "maybe"}, "'pair'"),
    ("game_target", {"game_target": 0}, "game_target"),
    ("max_turns", {"max_turns": 0}, "max_turns"),
    ("max_hands", {"max_hands": 0}, "max_hands"),
    ("type int", {"decks": "2"}, "must be an int"),
    ("type int", {"decks": 2.0}, "must be an int"),
    ("type int", {"hand_size": True}, "must be an int"),
    ("type bool", {"sequences": 1}, "must be a bool"),
    ("type bool", {"upcard_freezes": "yes"}, "must be a bool"),
    ("type str", {"pile_take_onto_canasta": True}, "must be a string"),
    ("type tuple", {"red_three_scores": "0,100"}, "list of 7"),
    ("type tuple", {"card_values": (1, 2, 3)}, "exactly 15"),
    ("card kind", {"card_values": {"jokr": 60}}, "did you mean 'joker'"),
    ("int32", {"game_target": 2**40}, "int32"),
    ("layout", {"team_layout": "3x2"}, "six players"),
    ("preset name", {"name": "bridge"}, "unknown preset"),
]


@pytest.mark.parametrize(("what", "changes", "needle"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_refusals_via_replace(what: str, changes: dict[str, Any], needle: str) -> None:
    with pytest.raises(RulesError) as exc:
        RuleSet().replace(**changes)
    assert needle in _one_line_error(exc)


@pytest.mark.parametrize(("what", "changes", "needle"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_refusals_via_constructor(what: str, changes: dict[str, Any], needle: str) -> None:
    with pytest.raises(RulesError) as exc:
        RuleSet(**changes)
    assert needle in _one_line_error(exc)


def test_refusals_via_preset() -> None:
    for kwargs, needle in [
        ({"name": "samba", "players": 6}, "four-player"),
        ({"name": "samba", "players": 2}, "four-player"),
        ({"name": "classic", "players": 7}, "2 to 6"),
        ({"name": "classic", "players": 6, "team_layout": "2x2"}, "'3x2'"),
        ({"name": "classic", "players": 6, "decks": 2, "hand_size": 18}, "108"),
        ({"name": "classic", "players": 6, "hand_size": 27}, "hand_size <= 26"),
        ({"name": "classic", "players": 5, "hand_size": 27}, "4 active players"),
    ]:
        name = kwargs.pop("name")
        with pytest.raises(RulesError) as exc:
            RuleSet.preset(name, **kwargs)
        assert needle in _one_line_error(exc), kwargs
    # six players on two packs is fine while the cards suffice
    r = RuleSet.preset("classic", 6, decks=2)
    assert r.decks == 2 and r.hand_size == 13
    # the limit is exact: n*hand + upcard + 1 stock card <= 54*decks
    RuleSet.preset("classic", 6, hand_size=26)
    RuleSet.preset("classic", 4, hand_size=26)


def test_unknown_preset_lists_valid() -> None:
    with pytest.raises(RulesError) as exc:
        RuleSet.preset("nosuch")
    msg = _one_line_error(exc)
    for name in PRESETS:
        assert name in msg


def test_unknown_parameter_suggests() -> None:
    with pytest.raises(RulesError) as exc:
        RuleSet.preset("classic", go_out_bonu=150)
    assert "did you mean 'go_out_bonus'" in _one_line_error(exc)
    with pytest.raises(RulesError) as exc:
        RuleSet().replace(canasta_sise=8)
    assert "'canasta_size'" in _one_line_error(exc)
    with pytest.raises(RulesError) as exc:
        RuleSet.from_dict({"zzzzzz": 1})
    assert "zzzzzz" in _one_line_error(exc)


def test_immutable_and_hashable() -> None:
    r = RuleSet()
    with pytest.raises(AttributeError):
        r.decks = 3  # type: ignore[misc]
    assert hash(r) == hash(RuleSet.preset("classic"))
    assert r.replace(decks=3).decks == 3 and r.decks == 2


def test_normalisation_of_lists_and_dicts() -> None:
    r = RuleSet(
        red_three_scores=[0, 100, 200, 300, 800, 800, 800],  # type: ignore[arg-type]
        minimum_bands=[[0, 50], [1500, 90], [3000, 120], [BIG, 150]],  # type: ignore[arg-type]
        card_values={"JK": 60, "two": 25},  # type: ignore[arg-type]
        decks=np.int64(2),  # type: ignore[arg-type]
    )
    assert r.red_three_scores == RuleSet().red_three_scores
    assert r.minimum_bands == RuleSet().minimum_bands
    assert r.card_values[Kind.JOKER] == 60 and r.card_values[Kind.TWO] == 25
    assert r.card_values[Kind.ACE] == 20
    assert type(r.decks) is int


# ----------------------------------------------------------------------------- engine parameters


def test_par_layout_is_contiguous() -> None:
    covered: list[int] = []
    for key in Par._fields:
        if key == "N_PARAMS":
            continue
        start = getattr(Par, key)
        covered += range(start, start + PAR_WIDTHS.get(key, 1))
    assert sorted(covered) == list(range(len(covered))), "Par entries overlap or leave gaps"
    assert len(covered) <= N_PARAMS


def _expected_params(r: RuleSet, hand: int) -> dict[str, list[int]]:
    teams = list(r.active_team_of_seat(hand))
    return {
        "N_PLAYERS": [r.players],
        "N_ACTIVE": [r.n_active],
        "N_TEAMS": [r.n_teams],
        "DECKS": [r.decks],
        "HAND_SIZE": [r.hand_size],
        "DRAW_COUNT": [r.draw_count],
        "MAX_WILD": [r.max_wild_per_meld],
        "WILD_LE_NAT": [int(r.wild_le_naturals)],
        "MIN_NATURALS": [r.min_naturals],
        "CANASTA_SIZE": [r.canasta_size],
        "WILD_ONTO_CANASTA": [int(r.wild_onto_canasta)],
        "TAKE_NAT_WILD": [int(r.pile_take_natural_plus_wild)],
        "TAKE_ONTO_MELD": [int(r.pile_take_onto_meld)],
        "TAKE_ONTO_CANASTA": [{"no": 0, "yes": 1, "pair": 2}[r.pile_take_onto_canasta]],
        "SEQUENCES": [int(r.sequences)],
        "MULTI_MELDS": [int(r.multiple_melds_per_rank)],
        "CANASTAS_TO_GO_OUT": [r.canastas_to_go_out],
        "GO_OUT_BONUS": [r.go_out_bonus],
        "GO_OUT_NO_DISCARD_BONUS": [r.go_out_no_discard_bonus],
        "CONCEALED_BONUS": [r.concealed_bonus],
        "CONCEALED_NEEDS_MIN": [int(r.concealed_needs_minimum)],
        "RED3_NEED_CANASTAS": [r.red_threes_need_canastas],
        "RED3_TABLE": list(r.red_three_scores),
        "BLACK3_MELD_MIN": [r.black_threes_meld_min],
        "BLACK3_MELD_MAX": [r.black_threes_meld_max],
        "GAME_TARGET": [r.game_target],
        "MIN_BELOW_ZERO": [r.minimum_below_zero],
        "MIN_BAND_FROM": [a for a, _ in r.minimum_bands],
        "MIN_BAND_VALUE": [m for _, m in r.minimum_bands],
        "NATURAL_CANASTA": [r.natural_canasta_bonus],
        "MIXED_CANASTA": [r.mixed_canasta_bonus],
        "UPCARD_FREEZES": [int(r.upcard_freezes)],
        "EXHAUSTED_FORCED_TAKE": [int(r.exhausted_forced_take)],
        "RED3_LAST_ENDS": [int(r.red_three_last_ends)],
        "CARD_VALUE": list(r.card_values),
        "TEAM_OF_SEAT": teams + [-1] * (MAX_SEATS - len(teams)),
        "FIVE_SITOUT": [int(r.players == 5)],
        "MAX_TURNS": [r.max_turns],
        "MAX_HANDS": [r.max_hands],
        "SAMBA_BONUS": [r.samba_bonus],
    }


@pytest.mark.parametrize(("name", "players", "layout"), ALL_COMBOS)
def test_to_params_fills_every_index(name: str, players: int, layout: str | None) -> None:
    r = RuleSet.preset(name, players, layout)
    for hand in range(3):
        p = r.to_params(hand)
        assert p.dtype == np.int32 and p.shape == (N_PARAMS,)
        expected = _expected_params(r, hand)
        assert set(expected) == set(Par._fields) - {"N_PARAMS"}, "test misses a Par entry"
        seen = np.zeros(N_PARAMS, dtype=bool)
        for key, values in expected.items():
            start = getattr(Par, key)
            assert len(values) == PAR_WIDTHS.get(key, 1), key
            assert p[start : start + len(values)].tolist() == values, key
            seen[start : start + len(values)] = True
        assert (p[~seen] == 0).all()  # reserved tail


def test_to_params_distinguishes_fields() -> None:
    """Changing any scalar field changes exactly its Par entry (catches swapped indices)."""
    base = RuleSet.preset("classic").to_params()
    cases = {
        "GO_OUT_BONUS": {"go_out_bonus": 123},
        "GO_OUT_NO_DISCARD_BONUS": {"go_out_no_discard_bonus": 124},
        "CONCEALED_BONUS": {"concealed_bonus": 125},
        "NATURAL_CANASTA": {"natural_canasta_bonus": 501},
        "MIXED_CANASTA": {"mixed_canasta_bonus": 301},
        "MAX_TURNS": {"max_turns": 77},
        "MAX_HANDS": {"max_hands": 78},
        "SAMBA_BONUS": {"samba_bonus": 1499},
        "GAME_TARGET": {"game_target": 4000},
        "MIN_BELOW_ZERO": {"minimum_below_zero": 16},
        "DRAW_COUNT": {"draw_count": 2},
        "MAX_WILD": {"max_wild_per_meld": 2},
        "MIN_NATURALS": {"min_naturals": 3},
        "CANASTA_SIZE": {"canasta_size": 8},
        "CANASTAS_TO_GO_OUT": {"canastas_to_go_out": 2},
        "RED3_NEED_CANASTAS": {"red_threes_need_canastas": 1},
        "BLACK3_MELD_MAX": {"black_threes_meld_max": 3},
        "TAKE_ONTO_CANASTA": {"pile_take_onto_canasta": "pair"},
        "UPCARD_FREEZES": {"upcard_freezes": False},
        "EXHAUSTED_FORCED_TAKE": {"exhausted_forced_take": False},
        "RED3_LAST_ENDS": {"red_three_last_ends": False},
        "CONCEALED_NEEDS_MIN": {"concealed_needs_minimum": True},
        "WILD_ONTO_CANASTA": {"wild_onto_canasta": False},
        "TAKE_NAT_WILD": {"pile_take_natural_plus_wild": False},
        "TAKE_ONTO_MELD": {"pile_take_onto_meld": False},
        "WILD_LE_NAT": {"wild_le_naturals": False},
        "SEQUENCES": {"sequences": True},
        "MULTI_MELDS": {"multiple_melds_per_rank": True},
    }
    for key, change in cases.items():
        p = RuleSet().replace(**change).to_params()
        assert np.flatnonzero(p != base).tolist() == [getattr(Par, key)], key


def test_to_params_five_players() -> None:
    r = RuleSet.preset("classic", 5)
    p = r.to_params(1)
    assert p[Par.N_PLAYERS] == 5 and p[Par.N_ACTIVE] == 4 and p[Par.FIVE_SITOUT] == 1
    assert p[Par.TEAM_OF_SEAT : Par.TEAM_OF_SEAT + 6].tolist() == [0, 1, 0, 1, -1, -1]
    assert RuleSet.preset("classic", 6, "3x2").to_params()[Par.N_TEAMS] == 3


# ----------------------------------------------------------------------------- manifests


@pytest.mark.parametrize(("name", "players", "layout"), ALL_COMBOS)
def test_dict_round_trip(name: str, players: int, layout: str | None) -> None:
    r = RuleSet.preset(name, players, layout)
    d = json.loads(json.dumps(r.to_dict()))
    back = RuleSet.from_dict(d)
    assert back == r
    assert back.to_dict() == r.to_dict()


def test_dict_round_trip_with_overrides() -> None:
    r = RuleSet.preset(
        "german",
        6,
        "3x2",
        card_values={"joker": 60},
        minimum_bands=((0, 40), (1000, 80), (BIG, 100), (BIG, 100)),
        pile_take_onto_canasta="pair",
        max_turns=900,
    )
    back = RuleSet.from_dict(json.loads(json.dumps(r.to_dict())))
    assert back == r
    assert set(r.differences_from_preset()) == {
        "card_values",
        "minimum_bands",
        "pile_take_onto_canasta",
        "max_turns",
    }


def test_from_dict_missing_keys_take_preset() -> None:
    assert RuleSet.from_dict({"name": "samba"}) == RuleSet.preset("samba")
    assert RuleSet.from_dict({"players": 6, "team_layout": "3x2"}).game_target == 7500


def test_describe_covers_every_parameter() -> None:
    rows = RuleSet.preset("classic", 5).describe()
    names = [row[0] for row in rows]
    for field in RuleSet.param_names():
        assert field in names
    for row in rows:
        assert all(isinstance(x, str) and x and "\n" not in x for x in row)


def test_parse_overrides() -> None:
    sets = parse_overrides(
        [
            "game_target=10,000",
            "sequences=yes",
            "pile_take_onto_canasta=pair",
            "red_three_scores=0,100,200,300,400,500,1000",
            "minimum_bands=0:50,1500:90",
            "card_values=joker:60,2:25",
        ]
    )
    assert sets["game_target"] == 10_000 and sets["sequences"] is True
    assert sets["minimum_bands"] == ((0, 50), (1500, 90), (BIG, 90), (BIG, 90))
    r = RuleSet.preset("classic", **sets)
    assert r.card_values[Kind.JOKER] == 60 and r.card_values[Kind.TWO] == 25
    assert r.minimum_for(10**6) == 90
    for bad in (
        ["decks"],
        ["decks=two"],
        ["sequences=maybe"],
        ["minimum_bands=0-50"],
        ["nosuch=1"],
    ):
        with pytest.raises(RulesError) as exc:
            parse_overrides(bad)
        _one_line_error(exc)


# ----------------------------------------------------------------------------- CLI


def test_cli_lists_presets(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    for name in PRESETS:
        assert name in out
    assert "not playable" not in out and "not implemented" not in out  # Samba is played


def test_cli_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "classic", "--players", "6", "--team-layout", "3x2"]) == 0
    out = capsys.readouterr().out
    for field in RuleSet.param_names():
        assert field in out
    line = next(ln for ln in out.splitlines() if ln.startswith("game_target "))
    assert "7500" in line
    # aligned: the value column starts at the same offset on every parameter row
    rows = [ln for ln in out.splitlines() if ln.split(" ")[0] in RuleSet.param_names()]
    offsets = {len(ln) - len(ln[len(ln.split(" ")[0]) :].lstrip()) for ln in rows}
    assert len(offsets) == 1


def test_cli_set_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "german", "--set", "go_out_bonus=150", "--players", "6", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["go_out_bonus"] == 150 and d["players"] == 6 and d["name"] == "german"
    assert RuleSet.from_dict(d).decks == 3
    # the player count has its option: --set players= beside it (or instead) is refused
    assert main(["rules", "german", "--players", "4", "--set", "players=6"]) == 2
    assert "--players N" in capsys.readouterr().err


def test_cli_samba_shows_sequences(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "samba"]) == 0
    out = capsys.readouterr().out
    assert "sequences" in out and "not implemented" not in out


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["rules", "nosuch"], "unknown preset"),
        (["rules", "samba", "--players", "6"], "four-player"),
        (["rules", "classic", "--players", "7"], "2 .. 6"),
        (["rules", "classic", "--set", "go_out_bonu=1"], "go_out_bonus"),
        (["rules", "classic", "--set", "hand_size"], "name=value"),
        (["rules", "classic", "--set", "name=german"], "preset"),
        (["rules", "classic", "--players", "6", "--team-layout", "4x4"], "3x2"),
    ],
)
def test_cli_errors_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], needle: str
) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err
    assert lines[0].startswith("canasta rules: error:") and needle in lines[0]

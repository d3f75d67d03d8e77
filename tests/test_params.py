"""Rule parameters are declared once (sim/core/params.py): every one has a meaning and, when it
holds integers, a range; the ranges keep every score representable, and values outside them are
refused with one line naming the parameter and its range."""

from __future__ import annotations

import numpy as np
import pytest

from sim.core.enums import MAX_CARDS, N_PARAMS, Par, hand_record_dt
from sim.core.params import INT32_MAX, PAR_LAYOUT, PARAM_NAMES, PARAM_TYPES, spec_of
from sim.core.rules import RulesError, RuleSet, parse_overrides

INT16_MAX = 2**15 - 1
INT8_MAX = 2**7 - 1


def test_every_parameter_is_declared_with_meaning_and_range():
    for name in PARAM_NAMES:
        spec = spec_of(name)
        assert spec.meaning and "\n" not in spec.meaning, name
        if PARAM_TYPES[name] not in ("str", "bool"):
            assert spec.lo is not None and spec.hi is not None and spec.lo <= spec.hi, name
    # the parameter array is exactly the declared rows
    assert sum(row.width for row in PAR_LAYOUT) == N_PARAMS
    assert len(RuleSet().to_params()) == N_PARAMS


def _worst_case() -> dict[str, int]:
    """Largest gain and loss of one team in one hand, and the cumulative bound, from the ranges."""
    hi = {name: spec_of(name).hi for name in PARAM_NAMES if spec_of(name).hi is not None}
    max_canastas = MAX_CARDS // spec_of("canasta_size").lo  # every meld a canasta or a samba
    card_points = MAX_CARDS * hi["card_values"]
    gain = (
        card_points
        + max_canastas
        * max(hi["natural_canasta_bonus"], hi["mixed_canasta_bonus"], hi["samba_bonus"])
        + hi["red_three_scores"]
        + hi["go_out_bonus"]
        + hi["go_out_no_discard_bonus"]
        + hi["concealed_bonus"]
    )
    loss = card_points + hi["red_three_scores"]
    return {
        "gain": gain,
        "loss": loss,
        "cumulative": hi["max_hands"] * max(gain, loss),
        "card_points": card_points,
        "max_canastas": max_canastas,
        "turns": hi["max_turns"],
    }


def test_ranges_keep_every_score_representable():
    w = _worst_case()
    # scores, their parts and cumulative scores are int32 (state, hand and decision records)
    assert w["cumulative"] < INT32_MAX, w
    # a turn's melded points (decision column pending_value) and turns per hand are int16
    assert w["card_points"] <= INT16_MAX and w["turns"] <= INT16_MAX
    assert hand_record_dt["turns"] == np.int16 and hand_record_dt["canastas"].base == np.int8
    assert w["max_canastas"] <= INT8_MAX


@pytest.mark.parametrize(
    ("changes", "needle"),
    [
        ({"go_out_bonus": 2_147_483_647}, "go_out_bonus=2147483647: must be >= 0 and <= 10,000"),
        (
            {"natural_canasta_bonus": 2_000_000_000},
            "natural_canasta_bonus=2000000000: must be >= 0 and <= 10,000",
        ),
        ({"mixed_canasta_bonus": 10_001}, "mixed_canasta_bonus=10001"),
        ({"card_values": {"joker": 201}}, "card_values[13]=201: must be >= 0 and <= 200"),
        ({"red_three_scores": (0, 100, 200, 300, 800, 800, 20_000)}, "red_three_scores[6]=20000"),
        ({"max_turns": 40_000}, "max_turns=40000: must be >= 1 and <= 30,000"),
        ({"max_hands": 5_000}, "max_hands=5000"),
        ({"game_target": 2_000_000}, "game_target=2000000"),
        ({"samba_bonus": -1}, "samba_bonus=-1: must be >= 0"),
    ],
)
def test_out_of_range_is_refused_in_one_line(changes, needle):
    with pytest.raises(RulesError) as exc:
        RuleSet.preset("classic", **changes)
    msg = str(exc.value)
    assert needle in msg and "\n" not in msg, msg


def test_out_of_range_from_the_command_line_text():
    with pytest.raises(RulesError, match="go_out_bonus=2147483647: must be >= 0 and <= 10,000"):
        RuleSet.preset("classic", **parse_overrides(["go_out_bonus=2147483647"]))


def test_largest_values_score_without_overflow():
    """Every bonus and card value at the top of its range: the hands' score parts add up, the
    games' finals are the sums of their hands, and nothing wraps around."""
    from sim.play.engine import run_chunk

    top = {
        name: spec_of(name).hi
        for name in (
            "go_out_bonus",
            "go_out_no_discard_bonus",
            "concealed_bonus",
            "natural_canasta_bonus",
            "mixed_canasta_bonus",
        )
    }
    rules = RuleSet.preset(
        "classic",
        card_values=(200,) * 15,
        red_three_scores=(0, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000),
        game_target=1_000_000,
        max_hands=6,
        **top,
    )
    res = run_chunk(rules, ["greedy"] * 4, seed=3, start=0, count=3, mode="games", check=True)
    h = res.hands
    parts = (
        h["meld_points"]
        + h["canasta_bonus"]
        + h["red3_points"]
        + h["go_out_bonus"]
        - h["hand_penalty"]
    )
    assert (h["score"] == parts).all()
    assert (h["canasta_bonus"][:, :2] >= 0).all() and h["canasta_bonus"].max() >= 10_000
    for g in range(3):
        mine = h[h["game"] == g]
        assert (res.games["final"][g][:2] == mine["score"][:, :2].sum(axis=0)).all()
    assert np.abs(h["score"]).max() <= _worst_case()["gain"]


def test_par_rows_follow_the_declarations():
    """Each parameter fills its own Par rows: changing one scalar moves exactly its entry."""
    base = RuleSet().to_params()
    p = RuleSet().replace(go_out_bonus=123).to_params()
    assert np.flatnonzero(p != base).tolist() == [Par.GO_OUT_BONUS]

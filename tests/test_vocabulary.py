"""One action vocabulary: every printer and parser names an action as GameState.legal_texts()
does (sim.core.actions.action_text_at), at every table, Samba's sequences included."""

from __future__ import annotations

import pytest

from reports.analyze import decision_from_game
from reports.review import hand_by_key
from sim.core.actions import action_text_at, parse_action_at
from sim.core.enums import Act, Off
from sim.core.rules import RuleSet
from sim.play.history import format_history
from sim.play.positions.text import format_position, parse_position

TABLES = [("classic", p, None) for p in (2, 3, 4, 5)] + [("german", p, None) for p in (2, 3, 5)]
TABLES += [("classic", 6, "2x3"), ("german", 6, "3x2"), ("german", 4, None), ("samba", 4, None)]
TABLES += [("classic", 6, "3x2"), ("german", 6, "2x3")]


def _walk(rules, seed):
    rec = hand_by_key(rules, ["expert"] * rules.players, seed)
    gs = rec.new_state()
    for a in rec.actions:
        yield gs, a
        gs.apply(a)
    yield gs, None


@pytest.mark.parametrize("preset, players, layout", TABLES)
def test_every_printer_and_parser_names_actions_as_legal_texts(preset, players, layout):
    rules = RuleSet.preset(preset, players, layout)
    seen_seq = set()
    for seed in (1, 2) if preset == "samba" else (1,):
        rec = hand_by_key(rules, ["expert"] * players, seed)
        history = format_history(rec.new_state, rec.actions)
        for gs, played in _walk(rules, seed):
            if played is None:
                break
            legal = gs.legal_actions()
            texts = gs.legal_texts()
            assert texts == [action_text_at(gs.state, a) for a in legal]
            obs = gs.observation()
            dec = decision_from_game(gs)  # analyze, review and mistakes print these
            assert dec.actions == legal and dec.texts == texts
            for a, t in zip(legal, texts, strict=True):
                assert parse_action_at(gs.state, t) == a == parse_action_at(obs, t)
                assert gs.why_illegal(t) is None
                if a >= Act.SEQ_ADD:
                    seen_seq.add("take" if a >= Act.TAKE_SEQ else "extend")
                    assert " sequence " not in t  # the cards, not the slot
            assert f"  {gs.text(played)}" in history  # canasta play's history
            if gs.phase == "draw" and int(gs.state[Off.TURN]) % 5 == 0:
                _position_round_trip(gs)
    if preset == "samba":
        assert seen_seq == {"take", "extend"}, seen_seq


def _position_round_trip(gs):
    """A position file names the last turns' takes as play does, and reads back the same."""
    text = format_position(gs.position())
    again = format_position(parse_position(text))
    assert again == text
    for line in text.splitlines():
        if line.startswith("last_turn") and "take" in line:
            first = line.split(":", 1)[1].split("|")[0].strip()
            assert first.startswith(("take onto ", "take ")) and "pair" not in first
            assert "nat+" not in first and "meld" not in first

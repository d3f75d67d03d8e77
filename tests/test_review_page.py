"""The review page and the views behind it: what the seat saw at each decision (and nothing it
could not see), the top actions with the played one, numbered markers that match the table's
rows, labels that never overlap, a page that needs no network."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from reports import review_eval
from reports.review import decision_points, hand_by_key, review
from reports.review_out import write_html
from reports.review_page import _place
from reports.review_view import hand_cards
from sim.core.enums import Off
from sim.core.rules import RuleSet

CLASSIC = RuleSet.preset("classic")


@pytest.fixture(scope="module")
def rv():
    rec = hand_by_key(CLASSIC, ["expert", "greedy"] * 2, seed=7, game=0, hand=1)
    return review(rec, [1], review_eval.make_evaluator(CLASSIC, "expert"), rollouts=8, seed=2)


def test_views_hold_what_the_seat_saw_at_each_decision(rv):
    views = rv.views()
    pts, _ = decision_points(rv.record, [1])
    assert len(views) == len(rv.decisions) == len(pts)
    for v, p, row in zip(views, pts, rv.decisions.itertuples(), strict=True):
        gs = p.state
        assert v["index"] == p.index == row.index
        assert v["hand"] == hand_cards(gs, gs.seat) and len(v["hand"]) == gs.hand_counts().sum()
        assert v["pile"] == {
            "size": int(gs.state[Off.PILE_LEN]),
            "top": None if gs.pile_top < 0 else gs.pile()[-1],
            "frozen": gs.pile_frozen,
        }
        assert v["stock"] == gs.stock_size
        for t in range(gs.n_teams):
            assert v["red_threes"][str(t)] == gs.red_threes(t)
            assert sum(m["size"] for m in v["melds"][str(t)]) == sum(
                sum(x) for x in gs.melds(t).values()
            )
        # the other seats' actions since this seat's previous decision, draws without cards
        assert all(s["seat"] != 1 for s in v["since"])
        assert all(s["action"] == "draw" for s in v["since"] if s["action"].startswith("draw"))
        # the evaluator's top actions, best first, the played one among them, named as
        # legal_texts names them
        top = v["top"]
        assert 1 <= len(top) <= 6 and [a["rank"] for a in top] == sorted(a["rank"] for a in top)
        assert sum(a["played"] for a in top) == 1
        assert next(a for a in top if a["played"])["action"] == row.played
        assert {a["action"] for a in top} <= set(gs.legal_texts())
        assert top[0]["action"] == row.best or row.best == row.played
    # a turn's first decision lists what the three other seats did since the seat's last turn
    firsts = [v for v, p in zip(views, pts, strict=True) if p.state.phase == "draw"]
    assert any(len(v["since"]) >= 3 for v in firsts[1:])
    json.dumps(rv.to_json())  # the views are plain JSON


def test_the_page_numbers_markers_as_the_table_and_needs_no_network(rv, tmp_path):
    page = write_html(rv, tmp_path / "r.html").read_text()
    assert 'name="viewport"' in page and "overflow-x:auto" in page
    assert not re.search(r"(src|href)=\"(https?:)?//", page) and "<link" not in page
    choices = rv.decisions[rv.decisions["legal"] > 1].reset_index(drop=True)
    sections = re.findall(r'<section class="dec" id="d(\d+)"', page)
    assert sections == [str(i) for i in range(1, len(choices) + 1)]
    # every marked decision has a marker linking to its section, numbered as its table row
    marked = [i + 1 for i, m in enumerate(choices["mark"]) if m]
    links = [int(x) for x in re.findall(r'<a href="#d(\d+)"><circle', page)]
    assert links == marked
    rows = re.findall(r'<tr[^>]*><td><a href="#d(\d+)">', page)
    assert rows == sections
    # the played action is highlighted in each decision's top actions
    assert page.count('<tr class="played">') == len(choices)
    assert "ArrowRight" in page and 'id="prev"' in page and 'id="next"' in page


def test_labels_never_overlap():
    rng = np.random.default_rng(1)
    xs, ys = rng.uniform(100, 200, 30), rng.uniform(150, 250, 30)
    anchors = [(float(x), float(y), str(i)) for i, (x, y) in enumerate(zip(xs, ys, strict=True))]
    anchors += [(150.0, 200.0, f"L{i}") for i in range(6)]  # several at one point
    placed = _place(anchors, 1000, 360)
    boxes = []
    for _, _, x, y, text in placed:
        w = 8.4 * len(text) + 6
        boxes.append((x - w / 2, y - 11, x + w / 2, y + 5))
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), (a, b)

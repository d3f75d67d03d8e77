"""The browser table's API, through Starlette's test client: a hand played against bots, the
views each seat receives (only what it may see), links and their limits, bad input, hints, the
tutor, undo, the review, the replay, export and import, persistence across a restart."""

from __future__ import annotations

import copy
import json
import warnings

import numpy as np
import pytest

pytest.importorskip("starlette", reason='the table extra is not installed: pip install ".[table]"')
pytest.importorskip("httpx", reason="Starlette's test client needs httpx")

with warnings.catch_warnings():  # Starlette's note that its test client will move to httpx2
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient
from table_helpers import make_hub, plain_move, play_hand, token_of, wait_turn

from sim.core.enums import N_KINDS, Off
from sim.play.worlds.knowledge import Know
from sim.table.app import make_app
from sim.table.store import Store, StoreError


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    path = tmp_path_factory.mktemp("table") / "t.sqlite3"
    hub = make_hub(path)
    client = TestClient(make_app(hub))
    yield hub, client, {"x-canasta-key": hub.store.owner_key()}, path
    hub.close()


def new_game(client, key, **settings):
    body = {"seats": ["human", "expert", "expert", "expert"], "seed": 5, **settings}
    r = client.post("/api/games", json=body, headers=key)
    assert r.status_code == 200, r.text
    return r.json()


@pytest.fixture(scope="module")
def finished(served):
    """A practice hand at seed 5 played to its end by seat 0 (draw, then discard)."""
    hub, client, key, _ = served
    g = new_game(client, key)
    tok = token_of(g["links"]["0"])
    v = play_hand(client, tok, 0)
    return g, tok, v


@pytest.fixture(scope="module")
def waiting(served):
    """A table at seat 0's first decision (for requests that must change nothing)."""
    hub, client, key, _ = served
    g = new_game(client, key, seed=17)
    tok = token_of(g["links"]["0"])
    return g, tok, wait_turn(client, tok, 0)


# ---------------------------------------------------------------------- a hand against bots


def test_a_hand_is_played_to_its_end_and_scored(served, finished):
    hub, client, key, _ = served
    g, tok, v = finished
    assert v["hand"]["phase"] == "over"
    table = hub.table(g["id"])
    assert v["end"]["score"] == table.gs.score_breakdown()
    assert v["games"]["hands"][0]["score"] == table.gs.score_breakdown()["score"]
    assert sum(x["count"] for x in v["end"]["hands"]) == sum(
        int(table.gs.state[Off.HAND_SIZE + s]) for s in range(4)
    )
    # the seat's own moves are in the log with the cards its draws brought
    mine = [x for x in v["log"] if x["seat"] == 0]
    assert mine and all("drew" in x for x in mine if x["text"] == "draw")
    assert all("drew" not in x for x in v["log"] if x["seat"] != 0)
    # the engine's referee agrees with the stored hand
    from sim.core.referee import referee_hand

    hand = table.hands[0]
    ref = referee_hand(
        table.gs.params,
        list(table.gs.deck),
        int(table.gs.state[Off.DEALER]),
        [0, 0],
        hand.actions,
    )
    assert ref.score == hand.result


def test_legal_actions_are_the_engines_texts(served):
    hub, client, key, _ = served
    g = new_game(client, key, seed=21)
    tok = token_of(g["links"]["0"])
    v = wait_turn(client, tok, 0)
    gs = hub.table(g["id"]).gs
    assert [a["text"] for a in v["legal"]] == gs.legal_texts()
    assert [a["id"] for a in v["legal"]] == gs.legal_actions()
    hand = [c for grp in v["mine"]["cards"] for c in grp["cards"]]
    assert sorted(hand) == sorted(gs.hand(gs.seat))


def test_melding_selected_cards_plans_the_engine_actions():
    from sim.core.cards import kind_name
    from sim.core.rules import RuleSet
    from sim.play.game import GameState
    from sim.table.model import plan_cards
    from sim.table.settings import TableError

    rules = RuleSet.preset("classic")
    for seed in range(60):  # a deal whose first player can lay three naturals after drawing
        gs = GameState.new_hand(rules, seed, cum_scores=[3000, 0])  # minimum 120: not yet
        gs.apply("draw")
        counts = gs.hand_counts(gs.seat)
        k = int(np.argmax(counts[2:13])) + 2
        if counts[k] >= 3:
            break
    else:
        pytest.fail("no deal with three naturals of a rank in 60 seeds")
    name = kind_name(k)
    steps = plan_cards(gs, [name] * int(counts[k]))
    assert gs.text(steps[0]) == f"meld {name} {name} {name}"
    assert all(gs.text(a) == f"add {name} to {name}s" for a in steps[1:])
    with pytest.raises(TableError, match="one rank"):
        plan_cards(gs, ["K", "Q"])
    with pytest.raises(TableError, match="two natural"):
        plan_cards(gs, [name, "JK"])


# ---------------------------------------------------------------------- what a seat sees


def _swap_hidden(table, viewer: int) -> bool:
    """Swap cards between two other seats' hands (cards nobody knows they hold) and reverse
    the stock: nothing the viewer may see changes.  True if a swap was possible."""
    gs = table.gs
    st = gs.state
    others = [a for a in range(gs.n_seats) if gs.seat_table[a] != viewer]
    for i, a in enumerate(others):
        for b in others[i + 1 :]:
            ha = st[Off.HANDS + a * N_KINDS : Off.HANDS + (a + 1) * N_KINDS]
            hb = st[Off.HANDS + b * N_KINDS : Off.HANDS + (b + 1) * N_KINDS]
            ka_known = gs.knowledge(gs.seat_table.index(viewer))[
                Know.KNOWN + a * N_KINDS : Know.KNOWN + (a + 1) * N_KINDS
            ]
            kb_known = gs.knowledge(gs.seat_table.index(viewer))[
                Know.KNOWN + b * N_KINDS : Know.KNOWN + (b + 1) * N_KINDS
            ]
            for x in range(N_KINDS):
                for y in range(N_KINDS):
                    if x != y and ha[x] > ka_known[x] and hb[y] > kb_known[y]:
                        ha[x] -= 1
                        hb[x] += 1
                        hb[y] -= 1
                        ha[y] += 1
                        lo, n = int(st[Off.STOCK_POS]), int(st[Off.STOCK_LEN])
                        st[Off.STOCK + lo : Off.STOCK + lo + n] = st[
                            Off.STOCK + lo : Off.STOCK + lo + n
                        ][::-1].copy()
                        return True
    return False


@pytest.mark.parametrize("seed", [5, 9])
def test_a_seat_receives_the_same_bytes_whatever_the_hidden_cards(served, seed):
    """For every seat, at every turn of the people at a table of two people and two bots:
    swapping the cards it cannot see leaves its JSON byte-identical (while a person is to act
    the table stands still)."""
    hub, client, key, _ = served
    g = new_game(client, key, seats=["human", "expert", "human", "expert"], seed=seed)
    toks = {int(s): token_of(u) for s, u in g["links"].items()}
    table = hub.table(g["id"])
    checked = 0
    for _ in range(16):  # decisions of the people
        v = client.get(f"/api/t/{toks[0]}/state").json()
        while v["hand"]["to_act"] not in toks and v["hand"]["phase"] != "over":
            v = client.get(
                f"/api/t/{toks[0]}/state", params={"since": v["version"], "wait": 5}
            ).json()
        if v["hand"]["phase"] == "over":
            break
        for viewer, vtok in toks.items():
            before = client.get(f"/api/t/{vtok}/state").content
            with table.lock:
                saved = copy.deepcopy(table.gs)
                swapped = _swap_hidden(table, viewer)
            after = client.get(f"/api/t/{vtok}/state").content
            with table.lock:
                table.gs = saved
            if swapped:
                assert after == before, f"seat {viewer} saw hidden cards change"
                checked += 1
        actor = v["hand"]["to_act"]
        r = client.post(
            f"/api/t/{toks[actor]}/act",
            json=plain_move(client.get(f"/api/t/{toks[actor]}/state").json()),
        )
        assert r.status_code == 200, r.text
    assert checked >= 8


def test_the_swap_is_seen_by_the_seats_holding_the_cards(served):
    hub, client, key, _ = served
    g = new_game(client, key, seats=["human", "human", "human", "human"], seed=3)
    toks = {int(s): token_of(u) for s, u in g["links"].items()}
    table = hub.table(g["id"])
    before = {s: client.get(f"/api/t/{t}/state").content for s, t in toks.items()}
    with table.lock:
        assert _swap_hidden(table, 0)
    after = {s: client.get(f"/api/t/{t}/state").content for s, t in toks.items()}
    assert after[0] == before[0]
    assert sum(after[s] != before[s] for s in (1, 2, 3)) == 2


def test_a_running_view_holds_no_other_hand(served):
    hub, client, key, _ = served
    g = new_game(client, key, seed=13)
    tok = token_of(g["links"]["0"])
    v = wait_turn(client, tok, 0)
    text = json.dumps(v)
    assert '"end"' not in text and "seed" in v["settings"] and v["settings"]["seed"] is None
    assert v["mine"]["count"] == sum(len(grp["cards"]) for grp in v["mine"]["cards"])
    assert all(set(s) >= {"cards", "known"} and isinstance(s["cards"], int) for s in v["seats"])


# ---------------------------------------------------------------------- links and bad input


def test_links_act_for_their_own_seat_only(served):
    hub, client, key, _ = served
    g = new_game(client, key, seats=["human", "expert", "human", "expert"], seed=8)
    toks = {int(s): token_of(u) for s, u in g["links"].items()}
    v = client.get(f"/api/t/{toks[0]}/state").json()
    while v["hand"]["to_act"] not in toks:
        v = client.get(f"/api/t/{toks[0]}/state", params={"since": v["version"]}).json()
    actor = v["hand"]["to_act"]
    other = 2 - actor
    ta, to = toks[actor], toks[other]
    va = client.get(f"/api/t/{ta}/state").json()
    # the other person's link cannot act in this turn, nor name the seat to act
    r = client.post(f"/api/t/{to}/act", json={"action": "draw", "version": va["version"]})
    assert r.status_code == 409 and "turn" in r.json()["error"]
    r = client.post(f"/api/t/{to}/act", json={"action": "draw", "seat": actor})
    assert r.status_code == 403
    r = client.get(f"/api/t/{to}/state", params={"seat": actor})
    assert r.status_code == 403
    vo = client.get(f"/api/t/{to}/state").json()
    assert vo["you"] == other and vo["legal"] == [] and va["legal"] != []
    assert vo["mine"] != va["mine"]
    for bad in ("nope", "x" * 24, ta[:-1] + ("a" if ta[-1] != "a" else "b"), "%00" * 10):
        assert client.get(f"/api/t/{bad}/state").status_code == 404
    assert client.get("/api/games").status_code == 403
    assert client.get("/api/games", headers={"x-canasta-key": "guess"}).status_code == 403
    assert client.post("/api/games", json={}).status_code == 403
    assert client.get("/api/stats").status_code == 403


@pytest.mark.parametrize(
    "body,status,words",
    [
        ("not json", 400, "not JSON"),
        ("[1, 2]", 400, "JSON object"),
        ('{"action": 999}', 400, "no such action"),
        ('{"action": "fly away"}', 400, "action"),
        ('{"action": true}', 400, "action id"),
        ('{"action": "draw", "version": "x"}', 400, "version"),
        ('{"action": "draw", "version": -5}', 409, "moved on"),
        ('{"action": "draw", "colour": 1}', 400, "unknown field"),
        ("{}", 400, "give an action"),
        ('{"cards": "K"}', 400, "cards"),
        ('{"action": "meld K K K"}', 400, "K"),
        ('{"action": "discard 5"}', 400, ""),
    ],
)
def test_bad_moves_are_refused_with_a_reason(served, waiting, body, status, words):
    hub, client, key, _ = served
    g, tok, v = waiting
    r = client.post(f"/api/t/{tok}/act", content=body, headers={"content-type": "application/json"})
    assert r.status_code == status, r.text
    assert words in r.json()["error"]
    assert "Traceback" not in r.text
    assert client.get(f"/api/t/{tok}/state").json()["version"] == v["version"]  # nothing applied


def test_the_engines_reason_for_an_illegal_move(served, waiting):
    hub, client, key, _ = served
    g, tok, v = waiting
    gs = hub.table(g["id"]).gs
    illegal = next(a for a in range(8, 98) if gs.why_illegal(a))
    r = client.post(f"/api/t/{tok}/act", json={"action": illegal, "version": v["version"]})
    assert r.status_code == 400 and gs.why_illegal(illegal) in r.json()["error"]


@pytest.mark.parametrize(
    "settings,words",
    [
        ({"players": 9}, "players"),
        ({"players": "four"}, "players"),
        ({"rules": "bridge"}, "preset"),
        ({"seats": ["expert"] * 4}, "human"),
        ({"seats": ["human", "nobody", "expert", "expert"]}, "nobody"),
        ({"seats": ["human", "pimc:worlds=0", "expert", "expert"]}, "worlds"),
        ({"seats": ["human"]}, "one player per seat"),
        ({"seed": -1}, "seed"),
        ({"seed": 1.5}, "seed"),
        ({"mode": "match"}, "mode"),
        ({"tutor_threshold": float("nan")}, "tutor_threshold"),
        ({"set": ["go_out_bonus=lots"]}, "go_out_bonus"),
        ({"colour": "red"}, "unknown setting"),
    ],
)
def test_bad_settings_are_refused(served, settings, words):
    hub, client, key, _ = served
    body = {"seats": ["human", "expert", "expert", "expert"], **settings}
    raw = json.dumps(body, allow_nan=True)
    r = client.post("/api/games", content=raw, headers={**key, "content-type": "application/json"})
    assert r.status_code == 400, r.text
    assert words in r.json()["error"]


def test_unknown_hands_and_hands_still_running(served, finished):
    hub, client, key, _ = served
    g, tok, _ = finished
    for path in ("replay/2", "replay/0", "replay/x", "review/9", "export/3"):
        assert client.get(f"/api/t/{tok}/{path}").status_code == 404, path
    g2 = new_game(client, key, seed=31)
    t2 = token_of(g2["links"]["0"])
    wait_turn(client, t2, 0)
    for path in ("replay/1", "review/1", "export/1", "export/1?format=json"):
        r = client.get(f"/api/t/{t2}/{path}")
        assert r.status_code == 409 and "still being played" in r.json()["error"], path
    assert client.get(f"/api/t/{tok}/export/1?format=pdf").status_code == 400
    assert client.get("/api/nothing").status_code == 404


def test_two_tabs_of_one_seat_stay_consistent(served):
    hub, client, key, _ = served
    g = new_game(client, key, seed=23)
    tok = token_of(g["links"]["0"])
    tab1 = wait_turn(client, tok, 0)
    tab2 = client.get(f"/api/t/{tok}/state").json()
    assert tab1 == tab2
    r = client.post(f"/api/t/{tok}/act", json={"action": "draw", "version": tab1["version"]})
    assert r.status_code == 200
    # the second tab's move, chosen on what it saw, is refused: the table moved on
    r2 = client.post(f"/api/t/{tok}/act", json={"action": "draw", "version": tab2["version"]})
    assert r2.status_code == 409 and "moved on" in r2.json()["error"]
    # its long poll wakes with the new version at once
    now = client.get(f"/api/t/{tok}/state", params={"since": tab2["version"], "wait": 10}).json()
    assert now["version"] > tab2["version"] and now["hand"]["phase"] == "meld"


# ---------------------------------------------------------------------- hints, tutor, undo


def test_a_hint_ranks_every_legal_action_with_intervals(served):
    hub, client, key, _ = served
    g = new_game(client, key, seed=41)
    tok = token_of(g["links"]["0"])
    v = wait_turn(client, tok, 0)
    client.post(f"/api/t/{tok}/act", json={"action": "draw", "version": v["version"]})
    v = client.get(f"/api/t/{tok}/state").json()
    job = client.post(f"/api/t/{tok}/hint").json()
    assert job["status"] in ("waiting", "running", "done")
    job = hub.hints[hub._hint_key(hub.table(g["id"]), 0)]
    assert job.wait(900)
    h = client.get(f"/api/t/{tok}/hint").json()
    assert h["status"] == "done" and h["progress"] == 1.0
    assert sorted(r["id"] for r in h["actions"]) == sorted(a["id"] for a in v["legal"])
    best = h["actions"][0]
    assert best["loss"] == 0 and all(r["ci"][0] <= r["mean"] <= r["ci"][1] for r in h["actions"])
    assert all(r["loss_ci"][0] <= r["loss"] <= r["loss_ci"][1] for r in h["actions"][1:])
    assert all(r["rollouts"] == 120 for r in h["actions"])
    # the same decision asked again: the same job (and the same numbers)
    assert client.post(f"/api/t/{tok}/hint").json()["actions"] == h["actions"]
    assert client.get(f"/api/t/{tok}/state").json()["hint"]["actions"] == h["actions"]


def test_the_tutor_warns_before_a_costly_move_and_lets_it_be_taken_back(served):
    hub, client, key, _ = served
    g = new_game(client, key, seed=41, tutor=True, tutor_threshold=1)
    tok = token_of(g["links"]["0"])
    table = hub.table(g["id"])
    v = wait_turn(client, tok, 0)
    client.post(f"/api/t/{tok}/act", json={"action": "draw", "version": v["version"]})
    v = client.get(f"/api/t/{tok}/state").json()
    client.post(f"/api/t/{tok}/hint")
    hub.hints[hub._hint_key(table, 0)].wait(900)
    rows = client.get(f"/api/t/{tok}/hint").json()["actions"]
    bad = next(r for r in reversed(rows) if r["loss_ci"][0] > 1)
    r = client.post(f"/api/t/{tok}/act", json={"action": bad["id"], "version": v["version"]})
    body = r.json()
    assert (
        r.status_code == 200 and body["applied"] == [] and body["tutor"]["best_id"] == rows[0]["id"]
    )
    assert body["tutor"]["loss"] == bad["loss"] and body["tutor"]["loss_ci"][0] > 1
    assert body["view"]["version"] == v["version"]  # taken back: nothing was played
    # the best move passes without a warning; "play anyway" would need confirm
    r = client.post(
        f"/api/t/{tok}/act", json={"action": bad["id"], "version": v["version"], "confirm": True}
    )
    assert r.status_code == 200 and r.json()["applied"] == [bad["id"]]


def test_undo_in_practice_and_none_in_a_rated_game(served):
    hub, client, key, _ = served
    g = new_game(client, key, seed=43)
    tok = token_of(g["links"]["0"])
    v = wait_turn(client, tok, 0)
    first = v["version"]
    actions_before = list(hub.table(g["id"]).hand.actions)
    client.post(f"/api/t/{tok}/act", json={"action": "draw", "version": first})
    r = client.post(f"/api/t/{tok}/undo")
    assert r.status_code == 200 and r.json()["taken_back"] == 1
    assert hub.table(g["id"]).hand.actions == actions_before
    assert r.json()["view"]["legal"] == v["legal"]
    rated = new_game(client, key, seed=43, practice=False, tutor=True)
    rt = token_of(rated["links"]["0"])
    rv = wait_turn(client, rt, 0)
    assert rv["settings"]["tutor"] is False  # no tutor in a rated game
    client.post(f"/api/t/{rt}/act", json={"action": "draw", "version": rv["version"]})
    assert client.post(f"/api/t/{rt}/undo").status_code == 409
    assert client.post(f"/api/t/{rt}/hint").status_code == 409


# ---------------------------------------------------------------------- after the hand


def test_review_replay_and_export_of_a_finished_hand(served, finished):
    hub, client, key, _ = served
    g, tok, v = finished
    table = hub.table(g["id"])
    job = hub.review(table, 0)
    if job is not None:
        job.finished.wait(900)
    r = client.get(f"/api/t/{tok}/review/1").json()
    assert r["status"] == "done", r
    rv = r["review"]
    assert rv["seats"] == [0]
    mine = [d for d in rv["decisions"]]
    assert len(mine) == sum(1 for x in v["log"] if x["seat"] == 0)
    assert {s["team"] for s in rv["summary"]} == {0}
    s = rv["summary"][0]
    assert {"skill_lost", "luck", "result"} <= set(s)
    assert s["result"] == v["end"]["score"]["score"][0] - v["end"]["score"]["score"][1]
    page = client.get(f"/api/t/{tok}/review/1/page")
    assert page.status_code == 200 and "<html" in page.text.lower()
    # the replay: every step, every hand shown, the last frame the final table
    rp = client.get(f"/api/t/{tok}/replay/1").json()
    assert len(rp["frames"]) == len(table.hands[0].actions) + 1
    assert rp["frames"][0]["text"] == "the deal"
    assert [f["text"] for f in rp["frames"][1:]] == [x["text"] for x in v["log"]]
    last = rp["frames"][-1]
    assert [h["cards"] for h in last["hands"]] == [h["cards"] for h in v["end"]["hands"]]
    assert sum(h["count"] for h in rp["frames"][0]["hands"]) == 4 * 11
    # export: the hand record reads back as the same hand
    text = client.get(f"/api/t/{tok}/export/1?format=record").text
    from reports.hand_file import read_hand_file

    path = hub.store.path.parent / "exported.txt"
    path.write_text(text)
    rec = read_hand_file(path)
    assert rec.actions == table.hands[0].actions and rec.key == (5, 0, 0)
    js = client.get(f"/api/t/{tok}/export/1?format=json").json()
    assert [a["id"] for a in js["actions"]] == table.hands[0].actions
    assert js["score"]["score"] == v["end"]["score"]["score"]


def test_import_a_hand_record_to_replay_and_review(served, finished):
    hub, client, key, _ = served
    _, tok, v = finished
    text = client.get(f"/api/t/{tok}/export/1?format=record").text
    r = client.post("/api/import", json={"text": text, "seat": 1}, headers=key)
    assert r.status_code == 200, r.text
    t1 = token_of(r.json()["links"]["1"])
    iv = client.get(f"/api/t/{t1}/state").json()
    assert iv["hand"]["phase"] == "over" and iv["end"]["score"] == v["end"]["score"]
    assert iv["settings"]["imported"] is True
    assert client.get(f"/api/t/{t1}/replay/1").status_code == 200
    for bad, words in (
        ("", "hand record"),
        ("rules: classic\nkey: seed=1 game=0 hand=0\nactions:\nfly\n", "fly"),
        ("rules: classic\nkey: seed=1 game=0 hand=0\nactions:\ndraw\n", "not over"),
        ("colour: red\n", "unknown field"),
    ):
        r = client.post("/api/import", json={"text": bad}, headers=key)
        assert r.status_code == 400 and words in r.json()["error"], (bad, r.text)
    r = client.post("/api/import", json={"text": text, "seat": 7}, headers=key)
    assert r.status_code == 400


def test_games_list_and_statistics(served, finished):
    hub, client, key, _ = served
    g, tok, v = finished
    job = hub.review(hub.table(g["id"]), 0)
    if job is not None:
        job.finished.wait(900)
    games = client.get("/api/games", headers=key).json()["games"]
    mine = next(x for x in games if x["id"] == g["id"])
    assert mine["status"] == "over" and mine["settings"]["seed"] == 5
    assert mine["links"]["0"].endswith(tok)
    running = [x for x in games if x["status"] == "playing"]
    assert running and all("seed" not in x["settings"] for x in running)
    st = client.get("/api/stats", headers=key).json()
    assert st["hands"] >= 1 and st["reviewed_hands"] >= 1
    assert st["result_per_hand"]["n"] == st["hands"]
    assert st["lost_per_decision"]["mean"] is not None


# ---------------------------------------------------------------------- persistence


def test_a_game_resumes_exactly_after_a_restart(tmp_path):
    path = tmp_path / "t.sqlite3"
    hub = make_hub(path)
    client = TestClient(make_app(hub))
    key = {"x-canasta-key": hub.store.owner_key()}
    g = new_game(client, key, seed=61, mode="game")
    tok = token_of(g["links"]["0"])
    for _ in range(3):
        v = wait_turn(client, tok, 0)
        client.post(f"/api/t/{tok}/act", json=plain_move(v))
    v = wait_turn(client, tok, 0)
    hub.close()
    hub.store.close()
    again = make_hub(path)
    client2 = TestClient(make_app(again))
    v2 = client2.get(f"/api/t/{tok}/state").json()
    for k in ("hand", "seats", "teams", "mine", "legal", "log", "games"):
        assert v2[k] == v[k], k
    assert again.store.owner_key() == key["x-canasta-key"]
    r = client2.post(f"/api/t/{tok}/act", json=plain_move(v2))
    assert r.status_code == 200
    again.close()


def test_a_damaged_database_is_one_clear_message(tmp_path):
    bad = tmp_path / "bad.sqlite3"
    bad.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="not a usable canasta table database"):
        Store(bad)
    other = tmp_path / "other.sqlite3"
    import sqlite3

    db = sqlite3.connect(other)
    db.execute("CREATE TABLE x (a)")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="another program"):
        Store(other)
    with pytest.raises(StoreError, match="folder"):
        Store(tmp_path)


def test_a_store_failure_applies_nothing_and_answers_503(tmp_path):
    hub = make_hub(tmp_path / "t.sqlite3")
    client = TestClient(make_app(hub))
    key = {"x-canasta-key": hub.store.owner_key()}
    g = new_game(client, key, seed=71)
    tok = token_of(g["links"]["0"])
    v = wait_turn(client, tok, 0)
    hub.store.db.execute("DROP TABLE hands")  # the file is damaged under the server
    r = client.post(f"/api/t/{tok}/act", json={"action": "draw", "version": v["version"]})
    assert r.status_code == 503 and "table database" in r.json()["error"]
    assert client.get(f"/api/t/{tok}/state").json()["version"] == v["version"]
    hub.close()


def test_the_command_says_how_to_install_the_extra(monkeypatch, capsys):
    import builtins

    from sim.cli.main import main

    real = builtins.__import__

    def no_starlette(name, *a, **kw):
        if name.split(".")[0] in ("starlette", "uvicorn"):
            raise ImportError(name)
        return real(name, *a, **kw)

    monkeypatch.setattr(builtins, "__import__", no_starlette)
    assert main(["table", "--no-warm"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        'canasta table: error: the table needs its optional extra: pip install ".[table]"'
    ]


def test_the_command_refuses_a_damaged_database(tmp_path, capsys):
    from sim.cli.main import main

    bad = tmp_path / "bad.sqlite3"
    bad.write_bytes(b"\x00garbage" * 200)
    assert main(["table", "--db", str(bad), "--no-warm"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not a usable canasta table database" in err[0]


# ---------------------------------------------------------------------- other tables


@pytest.mark.parametrize(
    "settings",
    [
        {"rules": "samba", "seats": ["human", "expert", "expert", "expert"]},
        {"players": 6, "team_layout": "3x2", "seats": ["human"] + ["greedy"] * 5},
        {"players": 5, "seats": ["human"] + ["expert"] * 4},
        {"players": 2, "seats": ["human", "pimc:worlds=4"]},
    ],
)
def test_every_table_shape_plays(served, settings):
    hub, client, key, _ = served
    g = new_game(client, key, seed=2, **settings)
    tok = token_of(g["links"]["0"])
    table = hub.table(g["id"])
    v = client.get(f"/api/t/{tok}/state").json()
    assert len(v["seats"]) == table.rules.players and len(v["teams"]) == table.rules.n_teams
    if table.active_seat(0) is None:  # five players: this seat sits the hand out
        assert v["mine"] is None and v["in_hand"] is False and v["legal"] == []
        return
    for _ in range(4):
        v = wait_turn(client, tok, 0)
        if v["hand"]["phase"] == "over":
            break
        assert [a["text"] for a in v["legal"]] == table.gs.legal_texts()
        r = client.post(f"/api/t/{tok}/act", json=plain_move(v))
        assert r.status_code == 200, r.text
    if table.rules.sequences:  # Samba: the hand's natural cards carry their suits
        labels = [c for grp in v["mine"]["cards"] if not grp["wild"] for c in grp["cards"]]
        assert any(lab[-1] in "CDHS" for lab in labels)


def test_bots_move_one_at_a_time_at_the_pace(tmp_path):
    hub = make_hub(tmp_path / "t.sqlite3", pace=0.15)
    client = TestClient(make_app(hub))
    key = {"x-canasta-key": hub.store.owner_key()}
    g = new_game(client, key, seed=5, seats=["human", "expert", "expert", "expert"])
    tok = token_of(g["links"]["0"])
    v = wait_turn(client, tok, 0)
    client.post(f"/api/t/{tok}/act", json={"action": "draw", "version": v["version"]})
    v = client.get(f"/api/t/{tok}/state").json()
    discard = next(a for a in v["legal"] if a["text"].startswith("discard"))
    v = client.post(f"/api/t/{tok}/act", json={"action": discard["id"], "version": v["version"]})
    v = v.json()["view"]
    steps = []
    while v["hand"]["to_act"] != 0 and v["hand"]["phase"] != "over":
        nxt = client.get(f"/api/t/{tok}/state", params={"since": v["version"], "wait": 5}).json()
        steps.append((nxt["version"] - v["version"], len(nxt["log"]) - len(v["log"])))
        v = nxt
    # every wake-up shows one more move: the person sees the bots' moves one by one
    assert len(steps) >= 6 and all(s == (1, 1) for s in steps), steps
    hub.close()


def test_a_whole_game_deals_the_next_hand_and_shows_p_win(tmp_path):
    hub = make_hub(tmp_path / "t.sqlite3", equity=True, equity_games=8)
    client = TestClient(make_app(hub))
    key = {"x-canasta-key": hub.store.owner_key()}
    g = new_game(client, key, seed=81, mode="game")
    tok = token_of(g["links"]["0"])
    assert client.post(f"/api/t/{tok}/next").status_code == 409  # the hand is not over
    v = play_hand(client, tok, 0)
    totals = v["games"]["totals"]
    assert totals == v["end"]["score"]["score"] and not v["games"]["over"]
    v = client.post(f"/api/t/{tok}/next").json()
    assert v["hand"]["index"] == 1 and v["hand"]["phase"] != "over"
    assert [t["score"] for t in v["teams"]] == totals  # the scores before hand 2
    table = hub.table(g["id"])
    assert table.hand.key == (81, 0, 1) and table.hand.cum == totals
    # P(win the game) from the equity table (made once, in the background), with its interval
    for _ in range(600):
        pw = client.get(f"/api/t/{tok}/state").json()["games"]["p_win"]
        if pw:
            break
        import time

        time.sleep(0.5)
    assert pw and len(pw) == 2
    assert all(0 <= p["low"] <= p["p"] <= p["high"] <= 1 for p in pw)
    assert hub.store.cached(hub.equity._key(table.rules)) is not None  # kept for next time
    hub.close()


def test_the_command_refuses_an_address_it_cannot_listen_on(tmp_path, capsys):
    import socket

    from sim.cli.main import main

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        code = main(
            ["table", "--db", str(tmp_path / "t.sqlite3"), "--no-warm", "--port", str(port)]
        )
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot listen there" in err[0]
    assert main(["table", "--host", "no such host", "--no-warm", "--db", str(tmp_path / "u")]) == 2
    assert main(["table", "--pace", "nan"]) == 2 and main(["table", "--port", "70000"]) == 2

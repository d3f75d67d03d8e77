"""The browser table in a real browser: Playwright (Python) driving Debian's Chromium against the
app served by uvicorn on localhost.  A person plays a whole hand by clicking, asks for a hint,
opens the review and steps through the replay; two people play at one table from two browser
contexts; the pages at desktop and phone width (420 px) do not overflow sideways.

Screenshots are written to $CANASTA_SHOTS (default: the test's temporary folder) to look at.
Skips only when Chromium or Playwright cannot be found; under CI they must be there (fails)."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason='the table extra is not installed: pip install ".[table]"')

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _chromium() -> str | None:
    for path in ("/usr/bin/chromium", "/usr/bin/chromium-browser"):
        if os.access(path, os.X_OK):
            return path
    return shutil.which("chromium")


def _need(what: str, ok: bool) -> None:
    if ok:
        return
    if os.environ.get("CI"):
        pytest.fail(f"{what} is missing in CI (.ci/run installs it)")
    pytest.skip(f"{what} not found (apt-get install chromium; pip install playwright)")


@pytest.fixture(scope="module")
def browser():
    exe = _chromium()
    _need("Debian's Chromium (/usr/bin/chromium)", exe is not None)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _need("the Python package playwright", False)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    import uvicorn
    from table_helpers import make_hub

    from sim.table.app import make_app

    hub = make_hub(tmp_path_factory.mktemp("browser") / "t.sqlite3", pace=0.0)
    port = _free_port()
    srv = uvicorn.Server(
        uvicorn.Config(
            make_app(hub),
            host="127.0.0.1",
            port=port,
            log_level="warning",
            timeout_graceful_shutdown=1,
        )
    )
    th = threading.Thread(target=srv.run, daemon=True)
    th.start()
    t0 = time.monotonic()
    while not srv.started:
        assert time.monotonic() - t0 < 30, "uvicorn did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", hub
    srv.should_exit = True
    th.join(timeout=10)
    hub.close()


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    out = Path(os.environ.get("CANASTA_SHOTS") or tmp_path_factory.mktemp("shots"))
    out.mkdir(parents=True, exist_ok=True)
    return out


def _no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"] + 1, f"page is {width} px wide"


def _my_turn_or_over(page, seat: int, timeout: float = 900_000) -> str:
    page.wait_for_function(
        f"document.body.dataset.phase === 'over' || document.body.dataset.toAct === '{seat}'",
        timeout=timeout,
    )
    return page.evaluate("document.body.dataset.phase")


def _click_a_move(page) -> None:
    """One decision by clicking: draw; in the meld phase a meld of three selected naturals
    once, else the last discard button."""
    version = page.evaluate("document.body.dataset.version")
    if page.evaluate("view.hand.phase") == "draw":
        page.click("button.act >> nth=0")
    else:
        groups = page.evaluate("view.mine.cards.map(g => [g.rank, g.cards.length, g.wild])")
        triple = [i for i, (r, n, w) in enumerate(groups) if n >= 3 and not w and r != "3"]
        if triple and not page.evaluate("window.triedMeld === true"):
            page.evaluate("window.triedMeld = true")
            first = sum(n for _, n, _ in groups[: triple[0]])
            for k in range(3):
                page.click(f"#hand button.card >> nth={first + k}")
            page.click("#meld-selected")
            page.wait_for_function(
                f"document.body.dataset.version !== '{version}' || "
                "document.querySelector('#error .error') !== null"
            )
            return
        texts = page.locator("button.act").all_inner_texts()
        discards = [i for i, t in enumerate(texts) if t.startswith("discard")]
        page.click(f"button.act >> nth={discards[-1] if discards else 0}")
    page.wait_for_function(f"document.body.dataset.version !== '{version}'")


def _start_game(page, base: str, hub, seed: int, seats: list[str] | None = None) -> None:
    page.goto(f"{base}/?key={hub.store.owner_key()}")
    page.wait_for_selector("#start")
    page.fill("#seed", str(seed))
    for s, who in enumerate(seats or []):
        page.select_option(f"select[data-seat='{s}']", who)
    page.click("#start")


def test_a_person_plays_a_hand_by_clicking_then_reviews_and_replays(browser, server, shots):
    base, hub = server
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.set_default_timeout(120_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    _start_game(page, base, hub, seed=11)
    page.wait_for_selector("#felt .seat", timeout=900_000)
    decisions, hinted = 0, False
    while _my_turn_or_over(page, 0) != "over":
        if not hinted and page.evaluate("view.legal.length") > 1:
            page.click("#hint-button")
            page.wait_for_selector("#hint-table", timeout=900_000)  # a cold cache compiles
            page.wait_for_function(
                "document.querySelector('#hint-progress') === null", timeout=900_000
            )
            rows = page.locator("#hint-table tr").count()
            assert rows == page.evaluate("Math.min(view.legal.length, 12)") + 1
            page.screenshot(path=str(shots / "table-hint-1400.png"), full_page=True)
            hinted = True
        _click_a_move(page)
        decisions += 1
        if decisions == 8:
            page.screenshot(path=str(shots / "table-1400.png"), full_page=True)
    assert hinted and decisions > 5
    assert "The hand is over" in page.inner_text("#end-title")
    page.click("#open-review")
    page.wait_for_selector("#review-summary", timeout=900_000)
    assert page.locator("#review-decisions tr").count() > 1
    page.click("#open-replay")
    page.wait_for_selector("#replay-step")
    last = page.evaluate("replay.frames.length - 1")
    assert page.inner_text("#replay-step") == f"step 0 of {last}"
    assert "The deal" in page.inner_text("#replay-action")
    for _ in range(3):
        page.click("#replay-next")
    page.keyboard.press("ArrowRight")
    assert page.inner_text("#replay-step") == f"step 4 of {last}"
    page.keyboard.press("ArrowLeft")
    page.click("#replay-prev")
    assert page.inner_text("#replay-step") == f"step 2 of {last}"
    page.click("#replay-last")
    assert page.inner_text("#replay-step") == f"step {last} of {last}"
    # every hand is shown in the replay, with the seat's cards as the table saw them
    assert page.locator("#replay strong").count() >= 4
    page.screenshot(path=str(shots / "table-review-1400.png"), full_page=True)
    _no_sideways_scroll(page)
    phone = browser.new_page(viewport={"width": 420, "height": 900})
    phone.set_default_timeout(120_000)
    phone.goto(page.url)
    phone.wait_for_selector("#end-title")
    phone.click("#open-replay")
    phone.wait_for_selector("#replay-step")
    phone.click("#open-review")
    phone.wait_for_selector("#review-summary")
    phone.screenshot(path=str(shots / "table-review-420.png"), full_page=True)
    _no_sideways_scroll(phone)
    assert errors == []
    page.close()
    phone.close()


def test_two_people_at_one_table(browser, server, shots):
    base, hub = server
    host = browser.new_context(viewport={"width": 1400, "height": 1000})
    guest = browser.new_context(viewport={"width": 420, "height": 900})
    host.set_default_timeout(120_000)
    guest.set_default_timeout(120_000)
    a = host.new_page()
    _start_game(a, base, hub, seed=12, seats=["you", "expert", "human", "expert"])
    a.wait_for_selector("#new-links input")
    link = a.locator("#new-links input").input_value()
    a.click("#new-links a")
    a.wait_for_selector("#felt .seat")
    b = guest.new_page()
    b.goto(link)
    b.wait_for_selector("#felt .seat")
    assert a.evaluate("view.you") == 0 and b.evaluate("view.you") == 2
    a_cards = a.evaluate("view.mine.cards")
    assert b.evaluate("view.mine.cards") != a_cards
    # neither page holds another seat's cards: only counts
    assert b.evaluate("view.seats.every(s => typeof s.cards === 'number')")
    turns = {0: 0, 2: 0}
    for _ in range(14):
        seat = a.evaluate("view.hand.to_act")
        if seat not in turns:
            a.wait_for_function(
                "document.body.dataset.toAct === '0' || document.body.dataset.toAct === '2'"
                " || document.body.dataset.phase === 'over'"
            )
            seat = a.evaluate("view.hand.to_act")
        if seat is None:
            break
        page = a if seat == 0 else b
        _my_turn_or_over(page, seat)
        _click_a_move(page)
        turns[seat] += 1
        # the other person's page follows (long poll) to the same version
        other = b if seat == 0 else a
        v = page.evaluate("document.body.dataset.version")
        other.wait_for_function(f"Number(document.body.dataset.version) >= {v}")
        if turns[2] == 2:
            b.screenshot(path=str(shots / "table-420.png"), full_page=True)
            _no_sideways_scroll(b)
    assert turns[0] >= 2 and turns[2] >= 2
    a.screenshot(path=str(shots / "table-two-1400.png"), full_page=True)
    host.close()
    guest.close()

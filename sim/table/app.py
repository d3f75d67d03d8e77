"""The ASGI app (Starlette): pages, the JSON API, static files.

Two kinds of link:

- the host's link ``/?key=K`` (K: the store's owner key, printed by ``canasta table``): new
  games, the list of games with their seats' links, statistics, import;
- a seat's link ``/t/TOKEN``: that seat's table.  Every ``/api/t/TOKEN/...`` request acts for
  that seat only and receives only what it may see; an unknown link is 404.

Errors are JSON ``{"error": "one line"}`` with 400 (a malformed or illegal request, with the
engine's reason), 403 (no or a wrong host key; another seat named), 404 (unknown link, game or
hand), 409 (the table moved on, not your turn, the hand not over) or 503 (the database cannot
be used).  Nothing answers with a traceback.
"""

from __future__ import annotations

import json
import math
import secrets
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from sim.table.hub import Hub
from sim.table.model import Move
from sim.table.settings import TableError, TableSettings

__all__ = ["make_app", "dumps"]

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 1_000_000
MAX_WAIT = 25.0  # seconds a long poll waits for a change


def dumps(obj: Any) -> bytes:
    """Compact JSON; numpy scalars as numbers, non-finite floats as null."""

    def plain(o: Any) -> Any:
        if hasattr(o, "item"):
            return o.item()
        raise TypeError(f"not JSON: {type(o).__name__}")

    def clean(o: Any) -> Any:
        if isinstance(o, float) and not math.isfinite(o):
            return None
        if isinstance(o, dict):
            return {k: clean(v) for k, v in o.items()}
        if isinstance(o, list | tuple):
            return [clean(v) for v in o]
        return o

    return json.dumps(clean(obj), default=plain, separators=(",", ":")).encode()


class JSON(Response):
    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return dumps(content)


def _error(message: str, status: int) -> JSON:
    return JSON({"error": " ".join(str(message).split())}, status_code=status)


Handler = Callable[[Request, dict], Any]


def api(fn: Handler) -> Callable[[Request], Awaitable[Response]]:
    """An endpoint: the JSON body read (400 if it is not a JSON object), the handler run in a
    worker thread, its result as JSON, TableError as its status, anything else as one line."""

    async def endpoint(request: Request) -> Response:
        body: dict = {}
        if request.method == "POST":
            raw = await request.body()
            if len(raw) > MAX_BODY:
                return _error(f"the request is {len(raw):,} bytes; at most {MAX_BODY:,}", 413)
            if raw.strip():
                try:
                    body = json.loads(raw)
                except (ValueError, UnicodeDecodeError):
                    return _error("the request body is not JSON", 400)
                if not isinstance(body, dict):
                    return _error("the request body must be a JSON object", 400)
        try:
            out = await run_in_threadpool(fn, request, body)
        except TableError as exc:
            return _error(str(exc), exc.status)
        except Exception as exc:
            return _error(f"internal error: {type(exc).__name__}: {exc}", 500)
        return out if isinstance(out, Response) else JSON(out)

    return endpoint


def make_app(hub: Hub) -> Starlette:
    owner = hub.store.owner_key()

    def host(request: Request) -> None:
        key = request.headers.get("x-canasta-key") or request.query_params.get("key") or ""
        if not secrets.compare_digest(key.encode(), owner.encode()):
            raise TableError("this needs the host's link (the one canasta table printed)", 403)

    def seat_of(request: Request, body: dict):
        table, seat = hub.seat(request.path_params["token"])
        named = body.get("seat", request.query_params.get("seat"))
        if named is not None and str(named) != str(seat):
            raise TableError("a seat link acts for its own seat only", 403)
        return table, seat

    def links(request: Request, tokens: dict[int, str]) -> dict[str, str]:
        base = str(request.base_url).rstrip("/")
        return {str(s): f"{base}/t/{t}" for s, t in sorted(tokens.items())}

    def hand_index(request: Request, table) -> int:
        raw = request.path_params["hand"]
        if not raw.isdigit() or not 1 <= int(raw) <= len(table.hands):
            raise TableError(f"no hand {raw}: this table has hands 1 .. {len(table.hands)}", 404)
        return int(raw) - 1

    def finished(table, idx: int) -> None:
        if table.hands[idx].result is None:
            raise TableError(f"hand {idx + 1} is still being played", 409)

    # ------------------------------------------------------------------ host
    def status(request: Request, body: dict) -> dict:
        from sim.table import warm

        return {"compiling": warm.state(), "db": str(hub.store.path)}

    def catalogue(request: Request, body: dict) -> dict:
        from sim.core.rules import PRESETS
        from sim.play.search.spec import SEARCH_NAMES
        from sim.table.settings import default_bot
        from strategies.registry import STRATEGY_NAMES

        return {
            "presets": dict(PRESETS),
            "players": list(STRATEGY_NAMES) + list(SEARCH_NAMES),
            "default": default_bot(),
        }

    def new_game(request: Request, body: dict) -> dict:
        host(request)
        settings = TableSettings.from_json(body)
        table, tokens = hub.new_table(settings)
        return {"id": table.id, "links": links(request, tokens)}

    def games(request: Request, body: dict) -> dict:
        host(request)
        out = []
        for g in hub.store.games():
            if g["status"] != "over":
                g["settings"].pop("seed", None)  # the seed deals every card
            g["links"] = links(request, hub.store.tokens(g["id"]))
            out.append(g)
        return {"games": out}

    def stats(request: Request, body: dict) -> dict:
        from sim.table.stats import statistics

        host(request)
        return statistics(hub.store)

    def import_hand(request: Request, body: dict) -> dict:
        from sim.table.records import import_record

        host(request)
        seat = body.get("seat", 0)
        settings, hand = import_record(body.get("text", ""), seat)
        table, tokens = hub.import_table(settings, hand)
        return {"id": table.id, "links": links(request, tokens)}

    # ------------------------------------------------------------------ a seat
    def state(request: Request, body: dict) -> dict:
        table, seat = seat_of(request, body)
        since = request.query_params.get("since")
        if since is not None:
            if not since.lstrip("-").isdigit():
                raise TableError("since: give the version you have (a whole number)")
            wait = request.query_params.get("wait", str(MAX_WAIT))
            try:
                seconds = min(max(float(wait), 0.0), MAX_WAIT)
            except ValueError:
                raise TableError("wait: give seconds (a number)") from None
            if int(since) == table.version and math.isfinite(seconds):
                table.wait(int(since), seconds)
        return hub.view(table, seat)

    def act(request: Request, body: dict) -> dict:
        table, seat = seat_of(request, body)
        extra = sorted(set(body) - {"action", "cards", "version", "confirm", "seat"})
        if extra:
            raise TableError(f"unknown field {extra[0]!r}; give action or cards, and version")
        version = body.get("version")
        if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
            raise TableError("version: give the version the move was chosen at (a whole number)")
        action = body.get("action")
        if action is not None and (isinstance(action, bool) or not isinstance(action, int | str)):
            raise TableError("action: give an action id or its text, e.g. 'draw'")
        move = Move(action=action, cards=body.get("cards"))
        if move.cards is None and move.action is None:
            raise TableError("give an action (id or text) or the cards to meld")
        if body.get("confirm") is not True:
            with table.lock:
                table._check_turn(seat, version)
            warning = hub.tutor_check(table, seat, move)
            if warning is not None:
                return {"applied": [], "tutor": warning, "view": hub.view(table, seat)}
        applied = table.act(seat, move, version)
        return {"applied": applied, "view": hub.view(table, seat)}

    def undo(request: Request, body: dict) -> dict:
        table, seat = seat_of(request, body)
        taken = table.undo(seat)
        return {"taken_back": taken, "view": hub.view(table, seat)}

    def next_hand(request: Request, body: dict) -> dict:
        table, seat = seat_of(request, body)
        table.next_hand()
        return hub.view(table, seat)

    def hint(request: Request, body: dict) -> dict:
        table, seat = seat_of(request, body)
        if request.method == "POST":
            return hub.hint(table, seat).to_json()
        got = hub._hint_state(table, seat)
        if got is None:
            raise TableError("no hint asked for this decision", 404)
        return got

    def review(request: Request, body: dict) -> dict:
        table, seat = seat_of(request, body)
        idx = hand_index(request, table)
        finished(table, idx)
        if request.method == "POST":
            hub.review(table, idx, retry=True)
        return hub.review_state(table, idx)

    def review_page(request: Request, body: dict) -> Response:
        table, seat = seat_of(request, body)
        idx = hand_index(request, table)
        finished(table, idx)
        _, html = hub.store.review(table.id, idx)
        if html is None:
            raise TableError(f"hand {idx + 1} has no review page yet", 404)
        return HTMLResponse(html)

    def replay(request: Request, body: dict) -> dict:
        from sim.table.view import replay_frames

        table, seat = seat_of(request, body)
        idx = hand_index(request, table)
        finished(table, idx)
        with table.lock:
            return replay_frames(table, idx)

    def export(request: Request, body: dict) -> Response:
        from sim.table.records import hand_json, hand_record_text

        table, seat = seat_of(request, body)
        idx = hand_index(request, table)
        finished(table, idx)  # the deal's key would show every hidden card
        kind = request.query_params.get("format", "record")
        name = f"canasta-{table.id}-hand{idx + 1}"
        with table.lock:
            if kind == "record":
                return Response(
                    hand_record_text(table, idx),
                    media_type="text/plain; charset=utf-8",
                    headers={"content-disposition": f'attachment; filename="{name}.txt"'},
                )
            if kind == "json":
                return JSON(
                    hand_json(table, idx),
                    headers={"content-disposition": f'attachment; filename="{name}.json"'},
                )
        raise TableError(f"format={kind!r}: give record (the hand record) or json")

    # ------------------------------------------------------------------ pages
    async def home(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def table_page(request: Request) -> Response:
        return FileResponse(STATIC / "table.html")

    async def not_found(request: Request, exc: Exception) -> Response:
        if request.url.path.startswith("/api/"):
            return _error("no such address", 404)
        return HTMLResponse("<h1>Not found</h1><p>No such page.</p>", status_code=404)

    async def server_error(request: Request, exc: Exception) -> Response:
        return _error(f"internal error: {type(exc).__name__}", 500)

    t = "/api/t/{token}"
    routes = [
        Route("/", home),
        Route("/t/{token}", table_page),
        Route("/api/status", api(status)),
        Route("/api/catalogue", api(catalogue)),
        Route("/api/games", api(games), methods=["GET"]),
        Route("/api/games", api(new_game), methods=["POST"]),
        Route("/api/stats", api(stats)),
        Route("/api/import", api(import_hand), methods=["POST"]),
        Route(f"{t}/state", api(state)),
        Route(f"{t}/act", api(act), methods=["POST"]),
        Route(f"{t}/undo", api(undo), methods=["POST"]),
        Route(f"{t}/next", api(next_hand), methods=["POST"]),
        Route(f"{t}/hint", api(hint), methods=["GET", "POST"]),
        Route(f"{t}/review/{{hand}}", api(review), methods=["GET", "POST"]),
        Route(f"{t}/review/{{hand}}/page", api(review_page)),
        Route(f"{t}/replay/{{hand}}", api(replay)),
        Route(f"{t}/export/{{hand}}", api(export)),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes, exception_handlers={404: not_found, 405: not_found, 500: server_error}
    )
    app.state.hub = hub
    return app

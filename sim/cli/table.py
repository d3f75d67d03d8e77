"""`canasta table`: play at a table in the browser against the lab's players (a local web app)."""

from __future__ import annotations

import argparse
import math
import sys
from typing import Any

from sim.cli.args import whole
from sim.core import limits

EPILOG = """examples:
  canasta table
      start the table at http://127.0.0.1:8765/ and print the host's link: open it, choose the
      rules, your seat and the bots, and play
  canasta table --port 9000 --db ~/canasta.sqlite3   another port and database file
  canasta table --host 0.0.0.0
      a club on the LAN: each person joins through the secret link of their seat (the host's
      page lists them)
  canasta table --pace 0.3 --hint-ci 50           faster bots, quicker (coarser) hints

Games are kept in a SQLite file (default: $XDG_DATA_HOME/canasta/table.sqlite3, i.e.
~/.local/share/canasta/table.sqlite3): stop the server at any time and start it again to resume.
Needs the optional extra: pip install ".[table]"
"""


def _seconds(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(v) or not 0 <= v <= 60:
        raise argparse.ArgumentTypeError(f"{text}: give seconds 0 .. 60")
    return v


def _points(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of points") from None
    if not math.isfinite(v) or not 0 < v <= 10_000:
        raise argparse.ArgumentTypeError(f"{text}: give points, 0 < p <= 10000")
    return v


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "table",
        help="play in the browser against the lab's players (hints, tutor, review, replays)",
        description="Start a local web app where you play Canasta against the lab's players: "
        "hints ranked by rollouts from your seat's knowledge, a tutor that warns before a "
        "costly move, the review of your decisions after each hand, replays of every hand with "
        "all cards shown, your games and statistics kept in a database.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument(
        "--port", type=whole(0, 65535), default=8765, help="port, 0 .. 65535 (default 8765)"
    )
    p.add_argument(
        "--db",
        default=None,
        metavar="PATH",
        help="the SQLite file that keeps the games (default: the user's data directory)",
    )
    p.add_argument(
        "--pace",
        type=_seconds,
        default=0.8,
        metavar="SECONDS",
        help="seconds between two bot moves, 0 .. 60 (default 0.8)",
    )
    p.add_argument(
        "--hint-ci",
        type=_points,
        default=25.0,
        metavar="POINTS",
        help="a hint runs until every difference to the best is known to +- POINTS (95%%; "
        "default 25)",
    )
    p.add_argument(
        "--hint-rollouts",
        type=whole(*limits.ROLLOUTS_PER_ACTION),
        default=20_000,
        metavar="N",
        help="at most N rollouts per action for a hint (default 20000)",
    )
    p.add_argument(
        "--review-rollouts",
        type=whole(*limits.ROLLOUTS_PER_ACTION),
        default=200,
        metavar="N",
        help="rollouts per action of each decision in the review after a hand (default 200)",
    )
    p.add_argument(
        "--no-review", action="store_true", help="do not review hands as soon as they end"
    )
    p.add_argument(
        "--no-warm", action="store_true", help="do not compile the game core at start-up"
    )
    p.set_defaults(run=run)
    return p


def run(args: argparse.Namespace) -> int:
    try:
        import starlette  # noqa: F401
        import uvicorn
    except ImportError:
        print(
            'canasta table: error: the table needs its optional extra: pip install ".[table]"',
            file=sys.stderr,
        )
        return 2
    from sim.table.hints import HintBudget
    from sim.table.hub import Hub, HubConfig
    from sim.table.reviews import ReviewBudget
    from sim.table.store import Store, default_db_path

    store = Store(args.db or default_db_path())  # a damaged file: one line, exit 2
    config = HubConfig(
        pace=args.pace,
        hint=HintBudget(rollouts=args.hint_rollouts, until_ci=args.hint_ci),
        review=ReviewBudget(rollouts=args.review_rollouts),
        auto_review=not args.no_review,
    )
    hub = Hub(store, config)
    from sim.table.app import make_app

    app = make_app(hub)
    if not args.no_warm:
        from sim.table import warm
        from sim.table.settings import default_bot

        warm.start([default_bot()])
    port = args.port or _free_port(args.host)
    _check_listen(args.host, port)
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "::", "") else args.host
    server = uvicorn.Server(
        uvicorn.Config(app, host=args.host, port=port, log_level="warning", access_log=False)
    )
    print(f"canasta table: games kept in {store.path}")
    print(f"canasta table: open http://{shown}:{port}/?key={store.owner_key()}", flush=True)
    print("canasta table: Ctrl-C stops the server (games are kept)", flush=True)
    try:
        server.run()
    finally:
        hub.close()
        store.close()
    return 0


def _socket(host: str):
    import socket

    return socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)


def _free_port(host: str) -> int:
    _check_listen(host, 0)
    with _socket(host) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def _check_listen(host: str, port: int) -> None:
    """One line (CanastaError) when the address cannot be listened on, before the server starts."""
    import socket

    from sim.core.errors import CanastaError

    try:
        with _socket(host) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((host, port))
    except (OSError, OverflowError, UnicodeError) as exc:
        why = getattr(exc, "strerror", None) or str(exc)
        raise CanastaError(
            f"--host {host} --port {port}: cannot listen there ({why}); give another --port, "
            "or --host 127.0.0.1"
        ) from None

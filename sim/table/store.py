"""SQLite persistence of the table (stdlib sqlite3): games, their seats' links, hands, reviews.

Every action is written before the table shows it (sim.table.model's saver), so a server
stopped at any moment resumes exactly where it was.  A file that is not a table database, or
a damaged one, is a `StoreError` with one line saying so and what to do; the app answers 503.

The default file lives in the user's data directory: $XDG_DATA_HOME/canasta/table.sqlite3
(~/.local/share/canasta/ without XDG_DATA_HOME; the platform's data directory elsewhere).
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import sys
import threading
import time
from pathlib import Path
from typing import Any

from sim.table.model import HandLog
from sim.table.settings import TableError, TableSettings

__all__ = ["Store", "StoreError", "default_db_path", "SCHEMA_VERSION"]

SCHEMA_VERSION = 1
APP_ID = 0x43414E54  # 'CANT': PRAGMA application_id of a table database

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    settings TEXT NOT NULL,
    imported INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    token TEXT PRIMARY KEY,
    game TEXT NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS hands (
    game TEXT NOT NULL REFERENCES games(id),
    idx INTEGER NOT NULL,
    data TEXT NOT NULL,
    review TEXT,
    review_html TEXT,
    PRIMARY KEY (game, idx)
);
"""


class StoreError(TableError):
    """The database cannot be used: one line naming the file, the problem and the cure."""

    def __init__(self, message: str) -> None:
        super().__init__(message, 503)


def default_db_path() -> Path:
    """$XDG_DATA_HOME/canasta/table.sqlite3, else the platform's user data directory."""
    xdg = os.environ.get("XDG_DATA_HOME")
    if xdg:
        return Path(xdg) / "canasta" / "table.sqlite3"
    if sys.platform.startswith("linux"):
        return Path.home() / ".local" / "share" / "canasta" / "table.sqlite3"
    try:
        from platformdirs import user_data_dir

        return Path(user_data_dir("canasta", appauthor=False)) / "table.sqlite3"
    except ImportError:
        return Path.home() / ".canasta" / "table.sqlite3"


class Store:
    """One database file; thread-safe (one connection, one lock)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.lock = threading.Lock()
        if self.path.is_dir():
            raise StoreError(f"--db {self.path}: is a folder; give a file name (table.sqlite3)")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(
                f"--db {self.path}: cannot make its folder ({exc.strerror or exc})"
            ) from None
        fresh = not self.path.exists() or self.path.stat().st_size == 0
        try:
            self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._check(fresh)
        except sqlite3.Error as exc:
            raise StoreError(self._damaged(exc)) from None

    def _damaged(self, exc: Exception) -> str:
        return (
            f"--db {self.path}: not a usable canasta table database ({exc}); move it away to "
            "start a new one, or give another --db"
        )

    def _check(self, fresh: bool) -> None:
        db = self.db
        if fresh:
            db.execute(f"PRAGMA application_id = {APP_ID}")
            db.executescript(SCHEMA)
            db.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            db.execute(
                "INSERT OR IGNORE INTO meta VALUES ('owner_key', ?)", (secrets.token_urlsafe(16),)
            )
        app = db.execute("PRAGMA application_id").fetchone()[0]
        if app != APP_ID:
            raise sqlite3.DatabaseError("a SQLite file of another program")
        ok = db.execute("PRAGMA quick_check").fetchone()[0]
        if ok != "ok":
            raise sqlite3.DatabaseError(f"integrity check: {ok}")
        row = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        if row is None or int(row[0]) != SCHEMA_VERSION:
            raise sqlite3.DatabaseError(
                f"schema {row[0] if row else '?'}; this version reads {SCHEMA_VERSION}"
            )

    def _run(self, sql: str, args: tuple = (), many: bool = False) -> list[tuple]:
        with self.lock:
            try:
                cur = self.db.execute(sql, args)
                return cur.fetchall()
            except sqlite3.Error as exc:
                raise StoreError(self._damaged(exc)) from None

    def _write(self, statements: list[tuple[str, tuple]]) -> None:
        """Several statements in one transaction: all of them or none."""
        with self.lock:
            try:
                self.db.execute("BEGIN IMMEDIATE")
                try:
                    for sql, args in statements:
                        self.db.execute(sql, args)
                except BaseException:
                    self.db.execute("ROLLBACK")
                    raise
                self.db.execute("COMMIT")
            except sqlite3.Error as exc:
                raise StoreError(self._damaged(exc)) from None

    # ------------------------------------------------------------------ keys and games
    def owner_key(self) -> str:
        return str(self._run("SELECT value FROM meta WHERE key = 'owner_key'")[0][0])

    def new_game(
        self,
        settings: TableSettings,
        hands: list[HandLog],
        imported: bool = False,
        status: str = "playing",
    ) -> tuple[str, dict[int, str]]:
        """A new game's id and a secret link token for each human seat."""
        gid = secrets.token_hex(6)
        now = time.time()
        tokens = {s: secrets.token_urlsafe(18) for s in settings.humans}
        stmts: list[tuple[str, tuple]] = [
            (
                "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?)",
                (gid, now, now, json.dumps(settings.to_json()), int(imported), status),
            )
        ]
        stmts += [("INSERT INTO seats VALUES (?, ?, ?)", (t, gid, s)) for s, t in tokens.items()]
        stmts += [
            ("INSERT INTO hands (game, idx, data) VALUES (?, ?, ?)", (gid, h.index, _dump(h)))
            for h in hands
        ]
        self._write(stmts)
        return gid, tokens

    def save_hand(self, game: str, hand: HandLog, status: str) -> None:
        self._write(
            [
                (
                    "INSERT INTO hands (game, idx, data) VALUES (?, ?, ?) ON CONFLICT(game, idx) "
                    "DO UPDATE SET data = excluded.data",
                    (game, hand.index, _dump(hand)),
                ),
                (
                    "UPDATE games SET updated = ?, status = ? WHERE id = ?",
                    (time.time(), status, game),
                ),
            ]
        )

    def seat_of(self, token: str) -> tuple[str, int] | None:
        rows = self._run("SELECT game, seat FROM seats WHERE token = ?", (token,))
        return (str(rows[0][0]), int(rows[0][1])) if rows else None

    def tokens(self, game: str) -> dict[int, str]:
        return {
            int(s): str(t)
            for t, s in self._run("SELECT token, seat FROM seats WHERE game = ?", (game,))
        }

    def load(self, game: str) -> tuple[TableSettings, list[HandLog], bool] | None:
        rows = self._run("SELECT settings, imported FROM games WHERE id = ?", (game,))
        if not rows:
            return None
        try:
            settings = TableSettings.stored(json.loads(rows[0][0]))
            hands = [
                HandLog.from_json(json.loads(d))
                for (d,) in self._run("SELECT data FROM hands WHERE game = ? ORDER BY idx", (game,))
            ]
        except (ValueError, KeyError, TypeError) as exc:
            raise StoreError(f"--db {self.path}: game {game} is damaged ({exc})") from None
        if not hands:
            raise StoreError(f"--db {self.path}: game {game} has no hands (damaged)")
        return settings, hands, bool(rows[0][1])

    def games(self) -> list[dict[str, Any]]:
        """Every game, newest first: id, times, settings, status, its hands' results."""
        out = []
        for gid, created, updated, settings, imported, status in self._run(
            "SELECT id, created, updated, settings, imported, status FROM games "
            "ORDER BY created DESC"
        ):
            hands = []
            for idx, data, has_review in self._run(
                "SELECT idx, data, review IS NOT NULL FROM hands WHERE game = ? ORDER BY idx",
                (gid,),
            ):
                try:
                    h = json.loads(data)
                    hands.append(
                        {"index": idx, "result": h.get("result"), "reviewed": bool(has_review)}
                    )
                except ValueError:
                    hands.append({"index": idx, "result": None, "damaged": True})
            try:
                s = json.loads(settings)
            except ValueError:
                s = {}
            out.append(
                {
                    "id": gid,
                    "created": created,
                    "updated": updated,
                    "settings": s,
                    "imported": bool(imported),
                    "status": status,
                    "hands": hands,
                }
            )
        return out

    # ------------------------------------------------------------------ reviews
    def save_review(self, game: str, idx: int, review: dict, html: str | None) -> None:
        self._write(
            [
                (
                    "UPDATE hands SET review = ?, review_html = ? WHERE game = ? AND idx = ?",
                    (json.dumps(review), html, game, idx),
                )
            ]
        )

    def review(self, game: str, idx: int) -> tuple[dict | None, str | None]:
        rows = self._run(
            "SELECT review, review_html FROM hands WHERE game = ? AND idx = ?", (game, idx)
        )
        if not rows or rows[0][0] is None:
            return None, None
        try:
            return json.loads(rows[0][0]), rows[0][1]
        except ValueError:
            return None, None

    def reviews(self) -> list[tuple[str, int, dict, dict]]:
        """(game, hand index, settings, review) of every reviewed hand (statistics)."""
        out = []
        for gid, idx, review, settings in self._run(
            "SELECT h.game, h.idx, h.review, g.settings FROM hands h JOIN games g ON g.id = h.game "
            "WHERE h.review IS NOT NULL ORDER BY g.created, h.idx"
        ):
            try:
                out.append((gid, int(idx), json.loads(settings), json.loads(review)))
            except ValueError:
                continue
        return out

    # ------------------------------------------------------------------ cached values
    def cached(self, key: str) -> Any:
        rows = self._run("SELECT value FROM meta WHERE key = ?", (key,))
        if not rows:
            return None
        try:
            return json.loads(rows[0][0])
        except ValueError:
            return None

    def cache(self, key: str, value: Any) -> None:
        self._write([("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, json.dumps(value)))])

    def close(self) -> None:
        with self.lock:
            self.db.close()


def _dump(hand: HandLog) -> str:
    return json.dumps(hand.to_json())

"""Games: lobby and seats, then a JSON snapshot plus an append-only move log.

`GameRepository` (`db.games`):

- `create_game(chat_id, game_key, options, creator_user_id, seats=(), *, now=None,
  thread_id=None) -> GameRow` (status 'lobby', version 0; `seats` are `(user_id, None)` or
  `(None, bot_level)` pairs, numbered 0, 1, … in order; `thread_id` the forum topic, if any)
- `add_seat(game_id, user_id=None, bot_level=None, *, expected_version=None, now=None)
  -> Seat | None` and `remove_seat(game_id, seat_no, *, expected_version=None, now=None) -> bool`
  (lobby only; later seats move down so seats stay 0..n-1; both bump the version)
- `get_game(game_id) -> GameRow | None`, `seats(game_id) -> list[Seat]`,
  `list_games(*, chat_id=None, user_id=None, statuses=("lobby", "active"), limit=100)`
  (`limit=None`: all)
- `start_game(game_id, expected_version, snapshot_json, turn, deadlines=(), *, now=None) -> bool`
- `commit_move(game_id, expected_version, seat_no, notation, payload, new_snapshot, new_turn,
  new_status="active", deadlines_to_add=(), results=None, *, now=None) -> bool`
- `cancel_game(game_id, expected_version, *, now=None) -> bool`
- `leave_thread(chat_id, thread_id) -> int`: a deleted forum topic's games go to General
- `moves(game_id) -> list[MoveRow]` in `seq` order

Every write that takes `expected_version` is optimistic: it changes the game only if the stored
version still equals it and then bumps the version, so a double click or a stale button applies
once and the loser gets False with nothing changed. Snapshots are opaque JSON text owned by the
game code; storage never parses them.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, cast

import aiosqlite

from storage._base import Repository, execute, execute_many, fetch_all, fetch_one, placeholders
from storage._codec import dump_json, from_epoch, from_epoch_or_none, load_json, to_epoch, utcnow
from storage.deadlines import cancel_pending, insert_deadlines
from storage.models import (
    BOT_LEVELS,
    OPEN_STATUSES,
    BotLevel,
    GameRow,
    GameStatus,
    MoveRow,
    NewDeadline,
    NewResult,
    Seat,
)

_GAME_FIELDS = (
    "id",
    "chat_id",
    "game_key",
    "options",
    "status",
    "snapshot",
    "version",
    "turn",
    "creator_user_id",
    "created_at",
    "updated_at",
    "finished_at",
    "thread_id",
)
_GAME_COLUMNS = ", ".join(_GAME_FIELDS)
_G_GAME_COLUMNS = ", ".join(f"g.{name}" for name in _GAME_FIELDS)
_SEAT_COLUMNS = "game_id, seat_no, user_id, bot_level"
_MOVE_STATUSES: tuple[GameStatus, ...] = ("active", "finished", "cancelled")
_ENDED: tuple[GameStatus, ...] = ("finished", "cancelled")


class _StaleVersion(Exception):
    """Raised inside a transaction to roll it back when the expected version no longer holds."""


def _game(row: sqlite3.Row) -> GameRow:
    return GameRow(
        id=row["id"],
        chat_id=row["chat_id"],
        game_key=row["game_key"],
        options=load_json(row["options"]),
        status=cast(GameStatus, row["status"]),
        snapshot=row["snapshot"],
        version=row["version"],
        turn=row["turn"],
        creator_user_id=row["creator_user_id"],
        created_at=from_epoch(row["created_at"]),
        updated_at=from_epoch(row["updated_at"]),
        finished_at=from_epoch_or_none(row["finished_at"]),
        thread_id=row["thread_id"],
    )


def _seat(row: sqlite3.Row) -> Seat:
    return Seat(
        game_id=row["game_id"],
        seat_no=row["seat_no"],
        user_id=row["user_id"],
        bot_level=cast(BotLevel | None, row["bot_level"]),
    )


def _move(row: sqlite3.Row) -> MoveRow:
    return MoveRow(
        game_id=row["game_id"],
        seq=row["seq"],
        seat_no=row["seat_no"],
        notation=row["notation"],
        payload=load_json(row["payload"]),
        created_at=from_epoch(row["created_at"]),
    )


def _check_occupant(user_id: int | None, bot_level: str | None) -> None:
    if (user_id is None) == (bot_level is None):
        raise ValueError("a seat takes exactly one of a user id or a bot level")
    if bot_level is not None and bot_level not in BOT_LEVELS:
        raise ValueError(f"unknown bot level {bot_level!r}; expected one of {BOT_LEVELS}")


async def _bump_lobby(
    conn: aiosqlite.Connection, game_id: int, expected_version: int | None, stamp: int
) -> bool:
    """Bump the version of a game in the lobby (at `expected_version` if given)."""
    sql = "UPDATE games SET version = version + 1, updated_at = ? WHERE id = ? AND status = 'lobby'"
    params: tuple[object, ...] = (stamp, game_id)
    if expected_version is not None:
        sql += " AND version = ?"
        params += (expected_version,)
    return await execute(conn, sql, params) == 1


class GameRepository(Repository):
    """Games, their seats and their move logs."""

    async def create_game(
        self,
        chat_id: int,
        game_key: str,
        options: Mapping[str, Any],
        creator_user_id: int | None,
        seats: Sequence[tuple[int | None, BotLevel | None]] = (),
        *,
        now: datetime | None = None,
        thread_id: int | None = None,
    ) -> GameRow:
        """Create a game in the lobby (version 0) with the given seats, numbered from 0.

        `thread_id` is the chat's topic the game lives in (a forum's), None without one.
        """
        for user_id, bot_level in seats:
            _check_occupant(user_id, bot_level)
        stamp = to_epoch(now or utcnow())
        async with self._db.transaction() as conn:
            row = await fetch_one(
                conn,
                "INSERT INTO games (chat_id, game_key, options, creator_user_id, created_at,"
                f" updated_at, thread_id) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING {_GAME_COLUMNS}",
                (chat_id, game_key, dump_json(options), creator_user_id, stamp, stamp, thread_id),
            )
            assert row is not None  # INSERT … RETURNING yields the new row
            await execute_many(
                conn,
                f"INSERT INTO seats ({_SEAT_COLUMNS}) VALUES (?, ?, ?, ?)",
                [
                    (row["id"], seat_no, user_id, bot_level)
                    for seat_no, (user_id, bot_level) in enumerate(seats)
                ],
            )
        return _game(row)

    async def leave_thread(self, chat_id: int, thread_id: int) -> int:
        """Move a chat's games out of forum topic `thread_id` (it was deleted); return how many.

        Their news goes to the chat's General topic from then on, after a restart too.
        """
        async with self._db.transaction() as conn:
            return await execute(
                conn,
                "UPDATE games SET thread_id = NULL WHERE chat_id = ? AND thread_id = ?",
                (chat_id, thread_id),
            )

    async def get_game(self, game_id: int) -> GameRow | None:
        """Return the game with this id, or None."""
        async with self._db.read() as conn:
            row = await fetch_one(
                conn, f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)
            )
        return None if row is None else _game(row)

    async def list_games(
        self,
        *,
        chat_id: int | None = None,
        user_id: int | None = None,
        statuses: Sequence[GameStatus] = OPEN_STATUSES,
        limit: int | None = 100,
    ) -> list[GameRow]:
        """Return games in the given statuses, newest activity first.

        Args:
            chat_id: Only games of this chat.
            user_id: Only games where this user has a seat.
            statuses: Only games in one of these statuses (open games by default).
            limit: At most this many games (None: all of them).

        Returns:
            The games, most recently updated first.
        """
        if not statuses:
            return []
        where = [f"g.status IN ({placeholders(len(statuses))})"]
        params: list[object] = list(statuses)
        join = ""
        if chat_id is not None:
            where.append("g.chat_id = ?")
            params.append(chat_id)
        if user_id is not None:
            join = " JOIN seats s ON s.game_id = g.id"
            where.append("s.user_id = ?")
            params.append(user_id)
        params.append(-1 if limit is None else limit)  # (SQLite: a negative limit is none)
        async with self._db.read() as conn:
            rows = await fetch_all(
                conn,
                f"SELECT {_G_GAME_COLUMNS} FROM games g{join} WHERE {' AND '.join(where)}"
                " ORDER BY g.updated_at DESC, g.id DESC LIMIT ?",
                tuple(params),
            )
        return [_game(row) for row in rows]

    async def seats(self, game_id: int) -> list[Seat]:
        """Return a game's seats in seat order."""
        async with self._db.read() as conn:
            rows = await fetch_all(
                conn,
                f"SELECT {_SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY seat_no",
                (game_id,),
            )
        return [_seat(row) for row in rows]

    async def add_seat(
        self,
        game_id: int,
        user_id: int | None = None,
        bot_level: BotLevel | None = None,
        *,
        expected_version: int | None = None,
        now: datetime | None = None,
    ) -> Seat | None:
        """Add a seat after the last one of a game in the lobby.

        Returns:
            The new seat; None when the game is not in the lobby (or not at
            `expected_version`) or the user already has a seat in it.
        """
        _check_occupant(user_id, bot_level)
        stamp = to_epoch(now or utcnow())
        try:
            async with self._db.transaction() as conn:
                if not await _bump_lobby(conn, game_id, expected_version, stamp):
                    raise _StaleVersion
                row = await fetch_one(
                    conn,
                    f"INSERT INTO seats ({_SEAT_COLUMNS})"
                    " SELECT ?, coalesce(max(seat_no) + 1, 0), ?, ? FROM seats WHERE game_id = ?"
                    f" ON CONFLICT DO NOTHING RETURNING {_SEAT_COLUMNS}",
                    (game_id, user_id, bot_level, game_id),
                )
                if row is None:  # UNIQUE (game_id, user_id): already seated
                    raise _StaleVersion
        except _StaleVersion:
            return None
        return _seat(row)

    async def remove_seat(
        self,
        game_id: int,
        seat_no: int,
        *,
        expected_version: int | None = None,
        now: datetime | None = None,
    ) -> bool:
        """Remove a seat of a game in the lobby; later seats move down by one."""
        stamp = to_epoch(now or utcnow())
        try:
            async with self._db.transaction() as conn:
                if not await _bump_lobby(conn, game_id, expected_version, stamp):
                    raise _StaleVersion
                deleted = await execute(
                    conn, "DELETE FROM seats WHERE game_id = ? AND seat_no = ?", (game_id, seat_no)
                )
                if deleted == 0:
                    raise _StaleVersion
                later = await fetch_all(
                    conn,
                    "SELECT seat_no FROM seats WHERE game_id = ? AND seat_no > ? ORDER BY seat_no",
                    (game_id, seat_no),
                )
                # One row at a time, lowest first, so (game_id, seat_no) stays unique throughout.
                for row in later:
                    await execute(
                        conn,
                        "UPDATE seats SET seat_no = seat_no - 1 WHERE game_id = ? AND seat_no = ?",
                        (game_id, row["seat_no"]),
                    )
        except _StaleVersion:
            return False
        return True

    async def start_game(
        self,
        game_id: int,
        expected_version: int,
        snapshot_json: str,
        turn: int,
        deadlines: Sequence[NewDeadline] = (),
        *,
        now: datetime | None = None,
    ) -> bool:
        """Move a game from the lobby to 'active' with its first snapshot and deadlines.

        Returns:
            True when started; False (nothing changed) when the game is not in the lobby at
            `expected_version`.
        """
        stamp = to_epoch(now or utcnow())
        try:
            async with self._db.transaction() as conn:
                changed = await execute(
                    conn,
                    "UPDATE games SET status = 'active', snapshot = ?, turn = ?,"
                    " version = version + 1, updated_at = ?"
                    " WHERE id = ? AND version = ? AND status = 'lobby'",
                    (snapshot_json, turn, stamp, game_id, expected_version),
                )
                if changed == 0:
                    raise _StaleVersion
                await insert_deadlines(self._db, conn, game_id, deadlines, stamp)
        except _StaleVersion:
            return False
        return True

    async def commit_move(
        self,
        game_id: int,
        expected_version: int,
        seat_no: int,
        notation: str,
        payload: Mapping[str, Any],
        new_snapshot: str,
        new_turn: int,
        new_status: GameStatus = "active",
        deadlines_to_add: Sequence[NewDeadline] = (),
        results: Sequence[NewResult] | None = None,
        *,
        now: datetime | None = None,
        keep_deadlines: bool = False,
    ) -> bool:
        """Record one move of an active game in a single transaction.

        Updates the snapshot, turn and status and bumps the version (only if the game is
        'active' at `expected_version`), appends the move to the log with the next `seq`,
        cancels the game's pending deadlines, inserts `deadlines_to_add` and, when `results`
        are given (only with `new_status="finished"`), writes one result row per seat.
        `finished_at` is set when the game ends ('finished' or 'cancelled').
        With `keep_deadlines` the pending deadlines stay as they are and none are added (a step
        of a turn being built, e.g. a Rummikub draft: the turn's clock keeps running).

        Returns:
            True when the move was recorded; False when the version was stale or the game was
            not active, in which case nothing at all changed (a double submission).

        Raises:
            ValueError: `new_status` is 'lobby', results come without 'finished', or the
                results do not name each seat of the game exactly once.
        """
        if new_status not in _MOVE_STATUSES:
            raise ValueError(f"a move cannot put a game back in {new_status!r}")
        if results is not None and new_status != "finished":
            raise ValueError("results are only written with the move that finishes the game")
        stamp = to_epoch(now or utcnow())
        finished_at = stamp if new_status in _ENDED else None
        try:
            async with self._db.transaction() as conn:
                changed = await execute(
                    conn,
                    "UPDATE games SET snapshot = ?, version = version + 1, turn = ?, status = ?,"
                    " updated_at = ?, finished_at = coalesce(?, finished_at)"
                    " WHERE id = ? AND version = ? AND status = 'active'",
                    (
                        new_snapshot,
                        new_turn,
                        new_status,
                        stamp,
                        finished_at,
                        game_id,
                        expected_version,
                    ),
                )
                if changed == 0:
                    raise _StaleVersion
                await execute(
                    conn,
                    "INSERT INTO moves (game_id, seq, seat_no, notation, payload, created_at)"
                    " SELECT ?, coalesce(max(seq), 0) + 1, ?, ?, ?, ? FROM moves WHERE game_id = ?",
                    (game_id, seat_no, notation, dump_json(payload), stamp, game_id),
                )
                if not keep_deadlines:
                    await cancel_pending(conn, game_id)
                    await insert_deadlines(self._db, conn, game_id, deadlines_to_add, stamp)
                if results is not None:
                    await _insert_results(conn, game_id, results, stamp)
        except _StaleVersion:
            return False
        return True

    async def cancel_game(
        self, game_id: int, expected_version: int, *, now: datetime | None = None
    ) -> bool:
        """Cancel a game in the lobby or in play and its pending deadlines.

        Returns:
            True when cancelled; False (nothing changed) when the game has already ended or is
            not at `expected_version`.
        """
        stamp = to_epoch(now or utcnow())
        try:
            async with self._db.transaction() as conn:
                changed = await execute(
                    conn,
                    "UPDATE games SET status = 'cancelled', version = version + 1,"
                    " updated_at = ?, finished_at = ?"
                    " WHERE id = ? AND version = ? AND status IN ('lobby', 'active')",
                    (stamp, stamp, game_id, expected_version),
                )
                if changed == 0:
                    raise _StaleVersion
                await cancel_pending(conn, game_id)
        except _StaleVersion:
            return False
        return True

    async def moves(
        self, game_id: int, *, seat_no: int | None = None, last: int = 0
    ) -> list[MoveRow]:
        """Return a game's move log in `seq` order: one seat's with `seat_no`; the `last` only."""
        where, params = "game_id = ?", [game_id]
        if seat_no is not None:
            where += " AND seat_no = ?"
            params.append(seat_no)
        query = (
            f"SELECT game_id, seq, seat_no, notation, payload, created_at FROM moves WHERE {where}"
        )
        if last:  # the newest `last`, read from the end of the index, put back in order
            query = f"SELECT * FROM ({query} ORDER BY seq DESC LIMIT ?) ORDER BY seq"
            params.append(last)
        else:
            query += " ORDER BY seq"
        async with self._db.read() as conn:
            rows = await fetch_all(conn, query, tuple(params))
        return [_move(row) for row in rows]


async def _insert_results(
    conn: aiosqlite.Connection, game_id: int, results: Sequence[NewResult], stamp: int
) -> None:
    seat_nos = [result.seat_no for result in results]
    row = await fetch_one(conn, "SELECT count(*) FROM seats WHERE game_id = ?", (game_id,))
    players = 0 if row is None else int(row[0])
    if sorted(seat_nos) != list(range(players)):
        raise ValueError(
            f"results must name each of the game's {players} seats once, got seats {seat_nos}"
        )
    await execute_many(
        conn,
        "INSERT INTO results (game_id, seat_no, user_id, score, rank, won, game_key, chat_id,"
        " players, finished_at)"
        " SELECT g.id, s.seat_no, s.user_id, ?, ?, ?, g.game_key, g.chat_id, ?, ?"
        " FROM games g JOIN seats s ON s.game_id = g.id WHERE g.id = ? AND s.seat_no = ?",
        [
            (result.score, result.rank, int(result.won), players, stamp, game_id, result.seat_no)
            for result in results
        ],
    )

"""Finished-game results and the aggregates built on them: leaderboards and records.

`ResultRepository` (`db.results`):

- `game_results(game_id) -> list[ResultRow]` by seat (written by `db.games.commit_move`)
- `leaderboard(chat_id=None, game_key=None, limit=10, year=None, by_points=False,
  platform=None) -> list[LeaderboardRow]`: per user games, wins, points (sum of scores) and
  best score; a chat's or everyone's (with `platform`, only the games of that platform's
  chats: its people are not another platform's), one game's or all, of all time or of the
  games finished in one UTC year (Numfeud's World Ranking: one year, by points)
- `user_stats(user_id, game_key=None) -> LeaderboardRow | None` (zeros when the user has not
  finished a game; None for an unknown user)
- `solo_records(game_key, user_id=None, chat_id=None, year=None, limit=10, platform=None) ->
  list[SoloRecord]`: the games played alone to the end and the best score of each user
  (a chat's results are its own and those of the chats that belong to it: a channel's threads)
- `head_to_head(user_id, other_id) -> HeadToHead`: the finished games two users played together

Rankings order by wins, then points, both descending (`by_points`: points first), then user
id. Bots (seats without a user) have result rows but never appear in rankings. Rankings and
`user_stats` count the games played against someone: a game played alone (NMBR 9 solo) has
nobody to beat and counts only in `solo_records`. Its one seat has `won` set when the game was
played to the end (all rounds); a solo game given up (resigned) has no winner and sets no record.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

from storage._base import Repository, fetch_all, fetch_one
from storage._codec import from_epoch, to_epoch
from storage.models import HeadToHead, LeaderboardRow, ResultRow, SoloRecord

_AGGREGATE = (
    "SELECT r.user_id AS user_id, u.display_name AS display_name, count(*) AS games,"
    " sum(r.won) AS wins, sum(r.score) AS points, max(r.score) AS best"
    " FROM results r JOIN users u ON u.id = r.user_id"
)
_RANKING = " GROUP BY r.user_id ORDER BY wins DESC, points DESC, r.user_id LIMIT ?"
_BY_POINTS = " GROUP BY r.user_id ORDER BY points DESC, wins DESC, r.user_id LIMIT ?"


def _leaderboard_row(row: sqlite3.Row) -> LeaderboardRow:
    return LeaderboardRow(
        user_id=row["user_id"],
        display_name=row["display_name"],
        games=row["games"],
        wins=row["wins"] or 0,
        points=row["points"] or 0,
        best=row["best"],
    )


def _result(row: sqlite3.Row) -> ResultRow:
    return ResultRow(
        game_id=row["game_id"],
        seat_no=row["seat_no"],
        user_id=row["user_id"],
        score=row["score"],
        rank=row["rank"],
        won=bool(row["won"]),
        game_key=row["game_key"],
        chat_id=row["chat_id"],
        players=row["players"],
        finished_at=from_epoch(row["finished_at"]),
    )


class ResultRepository(Repository):
    """Results of finished games and rankings over them."""

    async def game_results(self, game_id: int) -> list[ResultRow]:
        """Return the results of one finished game in seat order (empty if none)."""
        async with self._db.read() as conn:
            rows = await fetch_all(
                conn,
                "SELECT game_id, seat_no, user_id, score, rank, won, game_key, chat_id, players,"
                " finished_at FROM results WHERE game_id = ? ORDER BY seat_no",
                (game_id,),
            )
        return [_result(row) for row in rows]

    async def leaderboard(
        self,
        chat_id: int | None = None,
        game_key: str | None = None,
        limit: int = 10,
        *,
        year: int | None = None,
        by_points: bool = False,
        platform: str | None = None,
    ) -> list[LeaderboardRow]:
        """Return the top users by wins then points (`by_points`: points then wins).

        Within a chat and/or one game if given; with `year`, only the games finished in that UTC
        calendar year; with `platform`, only the games of that platform's chats.
        """
        where, params = _filters(chat_id=chat_id, game_key=game_key, year=year, platform=platform)
        where.append("r.players > 1")
        params.append(limit)
        order = _BY_POINTS if by_points else _RANKING
        async with self._db.read() as conn:
            rows = await fetch_all(
                conn, f"{_AGGREGATE} WHERE {' AND '.join(where)}{order}", tuple(params)
            )
        return [_leaderboard_row(row) for row in rows]

    async def solo_records(
        self,
        game_key: str,
        *,
        user_id: int | None = None,
        chat_id: int | None = None,
        year: int | None = None,
        limit: int = 10,
        excluding: int | None = None,
        platform: str | None = None,
    ) -> list[SoloRecord]:
        """Return the best scores of one-seat games played to the end, highest first.

        Of one user if given, within a chat if given, of one UTC calendar year if given, in the
        chats of one platform if given, leaving out the game `excluding` if given (the record
        before it).
        """
        where, params = _filters(chat_id=chat_id, game_key=game_key, year=year, platform=platform)
        where += ["r.players = 1", "r.won = 1"]
        if user_id is not None:
            where.append("r.user_id = ?")
            params.append(user_id)
        if excluding is not None:
            where.append("r.game_id <> ?")
            params.append(excluding)
        params.append(limit)
        async with self._db.read() as conn:
            rows = await fetch_all(
                conn,
                "SELECT r.user_id, u.display_name, count(*), max(r.score)"
                " FROM results r JOIN users u ON u.id = r.user_id"
                f" WHERE {' AND '.join(where)}"
                " GROUP BY r.user_id ORDER BY max(r.score) DESC, r.user_id LIMIT ?",
                tuple(params),
            )
        return [SoloRecord(*row) for row in rows]

    async def user_stats(self, user_id: int, game_key: str | None = None) -> LeaderboardRow | None:
        """Return one user's games, wins, points and best score (one game's, or all games')."""
        sql = (
            "SELECT u.id AS user_id, u.display_name AS display_name, count(r.game_id) AS games,"
            " sum(r.won) AS wins, sum(r.score) AS points, max(r.score) AS best"
            " FROM users u LEFT JOIN results r ON r.user_id = u.id AND r.players > 1"
        )
        params: tuple[object, ...] = (user_id,)
        if game_key is not None:
            sql += " AND r.game_key = ?"
            params = (game_key, user_id)
        sql += " WHERE u.id = ? GROUP BY u.id"
        async with self._db.read() as conn:
            row = await fetch_one(conn, sql, params)
        return None if row is None else _leaderboard_row(row)

    async def head_to_head(self, user_id: int, other_id: int) -> HeadToHead:
        """Return the finished games both users played (any game, any chat) and how they did.

        A shared win counts for both (and once in `shared`); in a game of three or four, each
        of the two counts.
        """
        async with self._db.read() as conn:
            row = await fetch_one(
                conn,
                "SELECT count(*), sum(a.won), sum(b.won), sum(a.score), sum(b.score),"
                " sum(a.won AND b.won)"
                " FROM results a JOIN results b ON b.game_id = a.game_id"
                " WHERE a.user_id = ? AND b.user_id = ?",
                (user_id, other_id),
            )
        assert row is not None  # an aggregate always yields one row
        games, wins, other_wins, points, other_points, shared = (int(v or 0) for v in row)
        return HeadToHead(games, wins, other_wins, points, other_points, shared)


def _filters(
    *, chat_id: int | None, game_key: str | None, year: int | None, platform: str | None = None
) -> tuple[list[str], list[object]]:
    """Return the WHERE terms and parameters that pick results by chat, game, UTC year, platform."""
    where = ["r.user_id IS NOT NULL"]
    params: list[object] = []
    if platform is not None:
        where.append("r.chat_id IN (SELECT id FROM chats WHERE platform = ?)")
        params.append(platform)
    if chat_id is not None:  # the chat and those that belong to it (a channel's threads)
        where.append("r.chat_id IN (SELECT id FROM chats WHERE id = ? OR parent_id = ?)")
        params += (chat_id, chat_id)
    if game_key is not None:
        where.append("r.game_key = ?")
        params.append(game_key)
    if year is not None:
        where.append("r.finished_at >= ? AND r.finished_at < ?")
        params += (
            to_epoch(datetime(year, 1, 1, tzinfo=UTC)),
            to_epoch(datetime(year + 1, 1, 1, tzinfo=UTC)),
        )
    return where, params

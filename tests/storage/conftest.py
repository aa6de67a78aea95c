"""Fixtures for the storage tests: a real SQLite file per test and a factory of rows."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest

from storage import (
    BotLevel,
    Chat,
    Database,
    GameRow,
    NewDeadline,
    NewResult,
    User,
)

T0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)


def dump(path: Path) -> str:
    """Return every table's schema and rows, read through a second, independent connection."""
    with sqlite3.connect(path) as conn:
        return "\n".join(conn.iterdump())


@dataclass
class Factory:
    """Builds users, chats and games through the public repository API."""

    db: Database
    path: Path
    _users: int = 0

    async def chat(self, platform: str = "console", chat_id: str = "room") -> Chat:
        return await self.db.chats.upsert_chat(platform, chat_id, f"Chat {chat_id}", now=T0)

    async def user(self, name: str, platform: str = "console") -> User:
        self._users += 1
        return await self.db.users.upsert_user(platform, f"u{self._users}", name, now=T0)

    async def lobby(
        self,
        chat: Chat,
        players: Sequence[User | BotLevel],
        game_key: str = "webfeud",
        options: dict[str, object] | None = None,
        now: datetime = T0,
    ) -> GameRow:
        seats: list[tuple[int | None, BotLevel | None]] = [
            (None, player) if isinstance(player, str) else (player.id, None) for player in players
        ]
        creator = next((p.id for p in players if isinstance(p, User)), None)
        return await self.db.games.create_game(
            chat.id, game_key, options or {"lang": "en"}, creator, seats, now=now
        )

    async def active(
        self,
        chat: Chat,
        players: Sequence[User | BotLevel],
        game_key: str = "webfeud",
        deadlines: Sequence[NewDeadline] = (),
        now: datetime = T0,
    ) -> GameRow:
        game = await self.lobby(chat, players, game_key, now=now)
        assert await self.db.games.start_game(
            game.id, game.version, '{"v":1,"turn":0}', 0, deadlines, now=now
        )
        started = await self.db.games.get_game(game.id)
        assert started is not None
        return started

    async def finished(
        self,
        chat: Chat,
        scores: Sequence[tuple[User | BotLevel, int]],
        game_key: str = "webfeud",
        when: datetime = T0,
        *,
        resigned: bool = False,
    ) -> GameRow:
        """Play a game to its end in one move; the highest score wins (ties share rank 1).

        `resigned`: nobody wins (a solo game given up).
        """
        game = await self.active(chat, [player for player, _ in scores], game_key, now=when)
        best = max(score for _, score in scores)
        results = [
            NewResult(
                seat_no=seat_no,
                score=score,
                rank=1 + sum(other > score for _, other in scores),
                won=score == best and not resigned,
            )
            for seat_no, (_, score) in enumerate(scores)
        ]
        assert await self.db.games.commit_move(
            game.id,
            game.version,
            0,
            "end",
            {},
            '{"v":1,"over":true}',
            1,
            "finished",
            (),
            results,
            now=when,
        )
        done = await self.db.games.get_game(game.id)
        assert done is not None
        return done


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "feudbot.sqlite3"


@pytest.fixture
async def db(db_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(db_path)
    yield database
    await database.close()


@pytest.fixture
def make(db: Database, db_path: Path) -> Factory:
    return Factory(db, db_path)


@pytest.fixture
def t0() -> datetime:
    """A fixed, whole-second UTC instant that tests count from."""
    return T0


@pytest.fixture
def dump_db(db_path: Path) -> Callable[[], str]:
    """Return a function dumping the test database through an independent connection."""
    return lambda: dump(db_path)

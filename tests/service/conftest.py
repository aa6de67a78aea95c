"""Fixtures of the service tests: a real SQLite file in tmp_path, a fake clock, a chat helper."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.replies import Reply
from bot.service import CONSOLE, ChatRef, Service, UserRef
from storage import Database

START = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)

Say = Callable[..., Awaitable[list[Reply]]]


class Clock:
    """A settable UTC clock."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, delta: timedelta) -> datetime:
        self.now += delta
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock(START)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "feudbot.sqlite3"


@pytest.fixture
async def db(db_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(db_path)
    try:
        yield database
    finally:
        await database.close()


@pytest.fixture
def service(db: Database, clock: Clock) -> Service:
    return Service(db, clock=clock, render=False)


@pytest.fixture
def say(service: Service) -> Say:
    """Return a helper that sends one line as a console player in a chat."""

    async def send(name: str, text: str, *, chat: str = "room", admin: bool = False) -> list[Reply]:
        return await service.handle(
            ChatRef(CONSOLE, chat), UserRef(CONSOLE, name.lower(), name, admin), text
        )

    return send


@pytest.fixture
def table_rows(db_path: Path) -> Callable[[], dict[str, list[tuple[object, ...]]]]:
    """Return every row of the game tables, read through a second connection."""

    def read() -> dict[str, list[tuple[object, ...]]]:
        conn = sqlite3.connect(db_path)
        try:
            return {
                table: conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()
                for table in ("games", "seats", "moves", "deadlines", "results")
            }
        finally:
            conn.close()

    return read

"""The one aiosqlite connection of the process, its transactions and its repositories.

```python
db = await Database.open("feudbot.sqlite3")   # WAL, foreign keys, migrations applied
async with db:                                # closes on exit
    user = await db.users.upsert_user("discord", 1234, "Alice")
    ok = await db.games.commit_move(game.id, game.version, ...)
```

Repositories (each method is documented in its module):

- `db.users` (`storage.users.UserRepository`) and `db.chats` (`storage.users.ChatRepository`);
- `db.games` (`storage.games.GameRepository`): lobby, seats, start, moves, cancel;
- `db.deadlines` (`storage.deadlines.DeadlineRepository`): the durable dispatcher's queue;
- `db.results` (`storage.results.ResultRepository`): leaderboards and records.

Concurrency: the connection runs in autocommit mode (`isolation_level=None`); every write goes
through `transaction()`, which takes an `asyncio.Lock`, issues `BEGIN IMMEDIATE` and commits or
rolls back, so the statements of two coroutines' transactions never interleave on the one
connection. Reads go through `read()`, which waits for the lock too, so they never see another
coroutine's uncommitted work. Inside a transaction the same task may call any repository method
(it joins the transaction through a SAVEPOINT); it must not hand the work to another task, which
would wait for the lock forever.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Self

import aiosqlite

from storage.deadlines import DeadlineRepository
from storage.games import GameRepository
from storage.migrate import Migration, migrate
from storage.results import ResultRepository
from storage.users import ChatRepository, UserRepository

log = logging.getLogger(__name__)

DeadlineListener = Callable[[datetime], object]

# Waits this long for another process's write lock (e.g. `feudbot migrate` while running).
BUSY_TIMEOUT_MS = 5000


class Database:
    """The process's single SQLite connection: open with `await Database.open(path)`."""

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        """Wrap an open, migrated connection; use `Database.open` instead."""
        self._conn = conn
        self.path = path
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[object] | None = None
        self._savepoints = 0
        self._deadline_listeners: list[DeadlineListener] = []
        self._added_due: list[datetime] = []
        self._closed = False
        self.users = UserRepository(self)
        self.chats = ChatRepository(self)
        self.games = GameRepository(self)
        self.deadlines = DeadlineRepository(self)
        self.results = ResultRepository(self)

    @classmethod
    async def open(
        cls, path: str | os.PathLike[str], *, migrations: Sequence[Migration] | None = None
    ) -> Database:
        """Open the database file (created if missing), turn on WAL and foreign keys, migrate.

        Args:
            path: The SQLite file, or ":memory:" for a throw-away database.
            migrations: Replaces the packaged migrations (tests only).

        Returns:
            The ready database.
        """
        name = str(Path(path)) if not isinstance(path, str) else path
        conn = await aiosqlite.connect(name, isolation_level=None)
        try:
            conn.row_factory = sqlite3.Row
            # journal_mode and foreign_keys cannot change inside a transaction: set them first.
            await conn.execute("PRAGMA journal_mode = WAL")
            await conn.execute("PRAGMA foreign_keys = ON")
            # WAL + NORMAL never corrupts and survives an app crash; only a power cut may lose
            # the last few commits. It saves an fsync per move.
            await conn.execute("PRAGMA synchronous = NORMAL")
            await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            await migrate(conn, migrations)
        except BaseException:
            await conn.close()
            raise
        return cls(conn, name)

    async def close(self) -> None:
        """Wait for the running transaction, then close the connection (idempotent)."""
        async with self._lock:
            if self._closed:
                return
            self._closed = True
            try:
                await self._conn.execute("PRAGMA optimize")
            finally:
                await self._conn.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    def _in_own_transaction(self) -> bool:
        task = asyncio.current_task()
        return task is not None and self._owner is task

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """Run the block as one write transaction (`BEGIN IMMEDIATE`), yielding the connection.

        Commits when the block ends, rolls back when it raises. Nested use by the same task
        becomes a SAVEPOINT that is released or rolled back on its own.
        """
        if self._in_own_transaction():
            async with self._savepoint() as conn:
                yield conn
            return
        async with self._lock:
            self._check_open()
            self._owner = asyncio.current_task()
            self._added_due = []
            try:
                await self._control("BEGIN IMMEDIATE")
                yield self._conn
                await self._control("COMMIT")
            except BaseException:
                if self._conn.in_transaction:
                    await self._control("ROLLBACK")
                self._added_due = []
                raise
            finally:
                self._owner = None
            added, self._added_due = self._added_due, []
        if added:
            self._notify(min(added))

    @asynccontextmanager
    async def _savepoint(self) -> AsyncIterator[aiosqlite.Connection]:
        self._savepoints += 1
        name = f"feudbot_sp{self._savepoints}"
        try:
            await self._control(f"SAVEPOINT {name}")
            try:
                yield self._conn
            except BaseException:
                # SQLite may already have rolled the whole transaction back (e.g. disk full).
                if self._conn.in_transaction:
                    await self._control(f"ROLLBACK TO {name}")
                    await self._control(f"RELEASE {name}")
                raise
            await self._control(f"RELEASE {name}")
        finally:
            self._savepoints -= 1

    @asynccontextmanager
    async def read(self) -> AsyncIterator[aiosqlite.Connection]:
        """Yield the connection for reading, once no other task's transaction is running."""
        if self._in_own_transaction():
            yield self._conn
            return
        async with self._lock:
            self._check_open()
            yield self._conn

    async def _control(self, sql: str) -> None:
        """Run BEGIN/COMMIT/ROLLBACK to completion even if the caller is being cancelled."""
        pending = asyncio.ensure_future(self._run(sql))
        try:
            await asyncio.shield(pending)
        except asyncio.CancelledError:
            # Let the statement finish so `in_transaction` tells the truth, then go on cancelling.
            await asyncio.wait([pending])
            raise

    async def _run(self, sql: str) -> None:
        await self._conn.execute(sql)

    def _check_open(self) -> None:
        if self._closed:
            raise sqlite3.ProgrammingError("the database is closed")

    def add_deadline_listener(self, listener: DeadlineListener) -> None:
        """Call `listener(earliest_due_at)` after each commit that inserted deadlines.

        The dispatcher uses this to wake early when an earlier deadline appears. Listeners run
        synchronously on the event loop and must not raise (errors are logged and ignored).
        """
        self._deadline_listeners.append(listener)

    def remove_deadline_listener(self, listener: DeadlineListener) -> None:
        """Stop calling a listener added with `add_deadline_listener`."""
        self._deadline_listeners.remove(listener)

    def _deadline_added(self, due_at: datetime) -> None:
        """Note a deadline inserted by the running transaction (repositories call this)."""
        self._added_due.append(due_at)

    def _notify(self, earliest: datetime) -> None:
        for listener in tuple(self._deadline_listeners):
            try:
                listener(earliest)
            except Exception:
                log.exception("deadline listener %r failed", listener)

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
- `db.results` (`storage.results.ResultRepository`): leaderboards and records;
- `db.messages` (`storage.messages.MessageRepository`): the chat message showing each game.
- `db.notices` (`storage.notices.NoticeRepository`): what someone was told once in a game.

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
import threading
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Self

import aiosqlite

from storage.deadlines import DeadlineRepository
from storage.games import GameRepository
from storage.messages import MessageRepository
from storage.migrate import Migration, MigrationError, migrate, refuse_foreign, user_version
from storage.notices import NoticeRepository
from storage.results import ResultRepository
from storage.users import ChatRepository, UserRepository, name_key

log = logging.getLogger(__name__)

DeadlineListener = Callable[[datetime], object]

# Waits this long for another process's write lock (e.g. `feudbot migrate` while running).
BUSY_TIMEOUT_MS = 5000
WAL_RETRY_S = 0.05  # between tries to switch a file another opener is switching to WAL


class CannotOpenDatabase(Exception):
    """The database file cannot be used: `str(error)` says which file and why, in one line."""

    def __init__(self, path: str, reason: str) -> None:
        """Name the file and the reason, e.g. "it is a directory"."""
        super().__init__(f"cannot open database {path!r}: {reason}")
        self.path = path
        self.reason = reason


def _path_problem(name: str) -> str | None:
    """Say what is wrong with the place of a database file that SQLite would only call "unable"."""
    if name == ":memory:" or name.startswith("file:"):
        return None
    path = Path(name)
    if path.is_dir():
        return "it is a directory"
    folder = path.parent
    if not folder.exists():
        return f"the folder {str(folder)!r} does not exist"
    if not folder.is_dir():
        return f"{str(folder)!r} is not a folder"
    return None


def _explain(error: sqlite3.Error | MigrationError) -> str:
    """Turn what SQLite or the migration runner raised into the reason of CannotOpenDatabase."""
    if isinstance(error, MigrationError):
        return str(error)
    text = str(error)
    if "file is not a database" in text:
        return "it is not a SQLite database"
    if "readonly" in text or "read-only" in text:
        return "it is read-only; make it (and its folder) writable"
    if "locked" in text or "busy" in text:
        return (
            f"another process has held it locked for over {BUSY_TIMEOUT_MS // 1000} s; "
            "stop that process or try again"
        )
    if "unable to open" in text:
        return "SQLite cannot open or create it; check you may read and write it and its folder"
    return text


async def _turn_on_wal(conn: aiosqlite.Connection) -> None:
    """Switch a connection to WAL, waiting (up to the busy timeout) for another opener.

    Two processes opening a fresh file at once both switch it to WAL; the switch needs the file
    to itself, and SQLite may answer "database is locked" at once instead of calling the busy
    handler, so the switch is retried here for as long as the busy timeout would have waited.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            await conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or loop.time() >= deadline:
                raise
            await asyncio.sleep(WAL_RETRY_S)


async def _connect(name: str) -> aiosqlite.Connection:
    """Open the aiosqlite connection; after a failure, wait until its worker thread has ended.

    aiosqlite stops the thread of a connection that failed to open but does not wait for it:
    left alone, the thread reports its end to an event loop that `asyncio.run` has already
    closed, and prints a second traceback ("Event loop is closed").
    """
    conn = aiosqlite.connect(name, isolation_level=None)
    try:
        return await conn
    except BaseException:
        thread = conn if isinstance(conn, threading.Thread) else getattr(conn, "_thread", None)
        if isinstance(thread, threading.Thread) and thread.is_alive():
            thread.join(timeout=5)  # the stop request is next in its queue: this is quick
        raise


class Database:
    """The process's single SQLite connection: open with `await Database.open(path)`."""

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        """Wrap an open, migrated connection; use `Database.open` instead."""
        self._conn = conn
        self.path = path
        # The schema version the file had before `open` migrated it (0: a new file).
        self.found_version = 0
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
        self.messages = MessageRepository(self)
        self.notices = NoticeRepository(self)

    @classmethod
    async def open(
        cls, path: str | os.PathLike[str], *, migrations: Sequence[Migration] | None = None
    ) -> Database:
        """Open the database file (created if missing), turn on WAL and foreign keys, migrate.

        A file that cannot be used — a directory, a missing folder, not SQLite, newer than the
        code, read-only, locked by another process for longer than the busy timeout — is
        refused here, at start-up, rather than failing every command later.

        Args:
            path: The SQLite file, or ":memory:" for a throw-away database.
            migrations: Replaces the packaged migrations (tests only).

        Returns:
            The ready database.

        Raises:
            CannotOpenDatabase: The file cannot be used; the message says why in one line.
        """
        name = str(Path(path)) if not isinstance(path, str) else path
        problem = _path_problem(name)
        if problem is not None:
            raise CannotOpenDatabase(name, problem)
        try:
            conn = await _connect(name)
        except sqlite3.Error as error:
            raise CannotOpenDatabase(name, _explain(error)) from error
        try:
            conn.row_factory = sqlite3.Row
            # "@дмитрий" finds Дмитрий: names are compared as they look (SQLite folds only ASCII).
            await conn.create_function("name_key", 1, name_key, deterministic=True)
            # Set first: another process's lock is waited for from the first statement on.
            await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            # Before WAL, which stays in the file: a database refused is left as it was.
            await refuse_foreign(conn, migrations)
            # journal_mode and foreign_keys cannot change inside a transaction: set them first.
            await _turn_on_wal(conn)
            await conn.execute("PRAGMA foreign_keys = ON")
            # WAL + NORMAL never corrupts and survives an app crash; only a power cut may lose
            # the last few commits. It saves an fsync per move.
            await conn.execute("PRAGMA synchronous = NORMAL")
            found = await user_version(conn)
            await migrate(conn, migrations)
            await _check_writable(conn)
        except (sqlite3.Error, MigrationError) as error:
            await _close_quietly(conn)
            raise CannotOpenDatabase(name, _explain(error)) from error
        except BaseException:
            await _close_quietly(conn)
            raise
        db = cls(conn, name)
        db.found_version = found
        return db

    async def close(self) -> None:
        """Wait for the running transaction, then close the connection (idempotent, never raises).

        Closing is the last thing a process does, often on its way out after another error:
        a failure here is logged, not raised over it.
        """
        async with self._lock:
            if self._closed:
                return
            self._closed = True
            try:
                await self._conn.execute("PRAGMA optimize")
            except sqlite3.Error as error:  # e.g. the file became read-only: only statistics lost
                log.warning("PRAGMA optimize on closing %s failed: %s", self.path, error)
            await _close_quietly(self._conn)

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


async def _check_writable(conn: aiosqlite.Connection) -> None:
    """Raise the error of a write if the database cannot be written (read-only, locked).

    SQLite opens a read-only file without complaint and reads it; only the first write fails.
    Rewriting `user_version` with its own value inside a rolled-back transaction is a write
    that changes nothing.
    """
    version = await user_version(conn)
    await conn.execute("BEGIN IMMEDIATE")
    try:
        # An int we read ourselves: PRAGMA takes no parameters.
        await conn.execute(f"PRAGMA user_version = {int(version)}")
    finally:
        if conn.in_transaction:
            await conn.execute("ROLLBACK")


async def _close_quietly(conn: aiosqlite.Connection) -> None:
    """Close the connection, logging rather than raising what SQLite says."""
    try:
        await conn.close()
    except sqlite3.Error as error:
        log.warning("closing the database connection failed: %s", error)

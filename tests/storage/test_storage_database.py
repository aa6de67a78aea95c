import ast
import asyncio
import re
import sqlite3
import sys
from pathlib import Path

import pytest

import storage
from storage import Database
from storage.database import BUSY_TIMEOUT_MS, CannotOpenDatabase


class Boom(Exception):
    pass


async def count_users(db):
    async with db.read() as conn:
        [(count,)] = await conn.execute_fetchall("SELECT count(*) FROM users")
    return count


async def add_then_fail(db, platform_id, name, pause=None):
    """Add a user in a transaction, optionally wait, then raise inside the block."""
    async with db.transaction():
        await db.users.upsert_user("console", platform_id, name)
        if pause is not None:
            await pause()
        raise Boom


async def test_transaction_commits_or_rolls_back_whole(db):
    """A block that raises leaves nothing behind; a block that ends is committed."""
    with pytest.raises(Boom):
        await add_then_fail(db, "1", "Alice")
    assert await count_users(db) == 0
    async with db.transaction():
        await db.users.upsert_user("console", "1", "Alice")
        await db.users.upsert_user("console", "2", "Bob")
    assert await count_users(db) == 2


async def test_nested_transaction_is_a_savepoint(db):
    """An inner block that fails is undone alone; the outer block still commits."""
    async with db.transaction():
        await db.users.upsert_user("console", "1", "Alice")
        with pytest.raises(Boom):
            await add_then_fail(db, "2", "Bob")
        await db.users.upsert_user("console", "3", "Cat")
    names = {u.display_name for u in [await db.users.get_user(i) for i in (1, 2, 3)] if u}
    assert names == {"Alice", "Cat"}


async def test_readers_never_see_uncommitted_work(db):
    """Another coroutine's read waits for the running transaction and sees only its outcome."""
    inside = asyncio.Event()
    release = asyncio.Event()

    async def pause():
        inside.set()
        await release.wait()

    task = asyncio.create_task(add_then_fail(db, "1", "Ghost", pause))
    await inside.wait()
    reader = asyncio.create_task(count_users(db))
    await asyncio.sleep(0.05)
    assert not reader.done()
    release.set()
    with pytest.raises(Boom):
        await task
    assert await reader == 0


async def test_transactions_of_coroutines_do_not_interleave(db):
    """Concurrent read-modify-write transactions serialise: no update is lost."""
    user = await db.users.upsert_user("console", "1", "Counter")

    async def increment():
        async with db.transaction() as conn:
            [(name,)] = await conn.execute_fetchall(
                "SELECT display_name FROM users WHERE id = ?", (user.id,)
            )
            await asyncio.sleep(0)
            await conn.execute(
                "UPDATE users SET display_name = ? WHERE id = ?", (name + "+", user.id)
            )

    await asyncio.gather(*(increment() for _ in range(20)))
    assert (await db.users.get_user(user.id)).display_name == "Counter" + "+" * 20


async def test_cancelled_transaction_rolls_back_and_frees_the_connection(db):
    """Cancelling a task mid-transaction rolls it back; the next transaction works."""
    started = asyncio.Event()

    async def slow():
        async with db.transaction():
            await db.users.upsert_user("console", "1", "Ghost")
            started.set()
            await asyncio.sleep(10)

    task = asyncio.create_task(slow())
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await count_users(db) == 0
    await db.users.upsert_user("console", "2", "Alive")
    assert await count_users(db) == 1


async def test_close_is_idempotent_and_final(db_path):
    """Closing twice is harmless; using a closed database raises."""
    db = await Database.open(db_path)
    await db.close()
    await db.close()
    with pytest.raises(sqlite3.ProgrammingError, match="closed"):
        await db.users.get_user(1)


async def test_close_never_raises(db_path):
    """A database that can no longer be written still closes: `PRAGMA optimize` may fail."""
    db = await Database.open(db_path)
    await db.users.upsert_user("console", "1", "Alice")
    await db.users.get_user_by_platform_id("console", "1")  # gives optimize something to do
    async with db.read() as conn:
        await conn.execute("PRAGMA query_only = ON")  # every write fails from here on
    await db.close()
    with pytest.raises(sqlite3.ProgrammingError, match="closed"):
        await db.users.get_user(1)


def junk_file(folder):
    path = folder / "junk.sqlite3"
    path.write_text("junk\n")
    return path


def newer_file(folder):
    path = folder / "newer.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA user_version = 99")
    return path


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (lambda folder: folder, "it is a directory"),
        (lambda folder: folder / "no" / "x.sqlite3", "the folder '.*no' does not exist"),
        (junk_file, "it is not a SQLite database"),
        (newer_file, "it is at schema version 99, newer than this code"),
    ],
    ids=["a directory", "a missing folder", "not SQLite", "newer"],
)
async def test_open_says_in_one_line_what_is_wrong_with_the_file(tmp_path, make, reason):
    """CannotOpenDatabase names the file and the reason; nothing is left open or created."""
    path = make(tmp_path)
    named = re.escape(repr(str(path)))
    with pytest.raises(CannotOpenDatabase, match=f"^cannot open database {named}: {reason}"):
        await Database.open(path)
    assert not (tmp_path / "no").exists()


async def test_open_refuses_a_file_locked_beyond_the_busy_timeout(db_path):
    """Another connection holding the write lock: refused after the timeout, not on a command."""
    await (await Database.open(db_path)).close()
    holder = sqlite3.connect(db_path, isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")
        with pytest.raises(CannotOpenDatabase, match="another process has held it locked"):
            await Database.open(db_path)
    finally:
        holder.close()
    assert BUSY_TIMEOUT_MS == 5000  # the figure the message and docs/hardening.md give


async def test_context_manager_closes(db_path):
    """`async with` closes the database on exit."""
    async with await Database.open(db_path) as db:
        await db.users.upsert_user("console", "1", "Alice")
    with pytest.raises(sqlite3.ProgrammingError):
        await db.users.get_user(1)


def test_storage_imports_only_aiosqlite_and_the_standard_library():
    """The storage package knows games only as JSON: no bot, discord, telegram or PIL imports."""
    root = Path(storage.__file__).parent
    allowed = set(sys.stdlib_module_names) | {"aiosqlite", "storage", "__future__"}
    for source in root.rglob("*.py"):
        tree = ast.parse(source.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                assert name.split(".")[0] in allowed, f"{source.name} imports {name}"

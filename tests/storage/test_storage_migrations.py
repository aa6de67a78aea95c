import asyncio
import sqlite3
from pathlib import Path

import pytest

from storage import Database, MigrationError
from storage.database import CannotOpenDatabase
from storage.migrate import Migration, latest_version, load_migrations

from .conftest import dump

EXPECTED_TABLES = {
    *("users", "chats", "games", "seats", "moves", "deadlines", "results", "game_messages"),
    "game_notices",
}


def tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT name FROM sqlite_schema WHERE type = 'table'").fetchall()
    return {name for (name,) in rows}


def version_of(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])


async def test_empty_file_is_migrated_to_latest_version(db_path):
    """Opening a new file creates every table and sets user_version to the newest migration."""
    db = await Database.open(db_path)
    await db.close()
    assert version_of(db_path) == latest_version() >= 1
    assert tables(db_path) >= EXPECTED_TABLES


async def test_reopening_applies_nothing_again(db_path):
    """Migrations are idempotent: reopening keeps the version, the schema and the data."""
    async with await Database.open(db_path) as db:
        await db.users.upsert_user("console", "1", "Alice")
    with sqlite3.connect(db_path) as conn:
        schema = conn.execute("SELECT sql FROM sqlite_schema ORDER BY name").fetchall()
    async with await Database.open(db_path) as db:
        assert (await db.users.get_user_by_platform_id("console", "1")) is not None
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("SELECT sql FROM sqlite_schema ORDER BY name").fetchall() == schema
    assert version_of(db_path) == latest_version()


async def test_wal_and_foreign_keys_are_on(db):
    """The connection runs in WAL mode with foreign keys enforced and autocommit between writes."""
    async with db.read() as conn:
        [(journal,)] = await conn.execute_fetchall("PRAGMA journal_mode")
        [(foreign_keys,)] = await conn.execute_fetchall("PRAGMA foreign_keys")
        assert not conn.in_transaction
    assert journal == "wal"
    assert foreign_keys == 1


async def test_foreign_keys_are_enforced(db):
    """A game for a chat that does not exist is refused by the foreign key."""
    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
        await db.games.create_game(999, "webfeud", {}, None)


def test_packaged_migrations_are_numbered_from_one():
    """The packaged files load in order with contiguous numbers, the first being 0001_initial."""
    migrations = load_migrations()
    assert [m.version for m in migrations] == list(range(1, len(migrations) + 1))
    assert migrations[0].name == "initial"


async def test_failing_migration_leaves_database_untouched(db_path):
    """A migration that fails halfway is rolled back whole, user_version included."""
    good = Migration(1, "first", "CREATE TABLE a (x INTEGER);")
    bad = Migration(2, "broken", "CREATE TABLE b (x INTEGER);\nINSERT INTO missing VALUES (1);")
    with pytest.raises(CannotOpenDatabase, match="missing") as refused:
        await Database.open(db_path, migrations=[good, bad])
    assert isinstance(refused.value.__cause__, sqlite3.OperationalError)
    assert version_of(db_path) == 0  # the pending files go in whole or not at all
    assert tables(db_path) == set()


async def test_an_upgrade_that_fails_leaves_the_version_the_old_code_opens(db_path):
    """From version 1, files 2 and 3 pending and 3 failing: the file stays at 1, unchanged.

    Before, each file committed on its own: the file was left at version 2, which the old code
    refused as "newer than this code" and the new one could not finish — no way back.
    """
    first = Migration(1, "first", "CREATE TABLE a (x INTEGER);")
    second = Migration(2, "second", "ALTER TABLE a ADD COLUMN y TEXT;")
    broken = Migration(3, "broken", "CREATE TABLE b (x INTEGER);\nINSERT INTO missing VALUES (1);")
    await (await Database.open(db_path, migrations=[first])).close()
    with sqlite3.connect(db_path) as conn:
        conn.execute("INSERT INTO a VALUES (7)")
    before = dump(db_path)
    with pytest.raises(CannotOpenDatabase, match="missing"):
        await Database.open(db_path, migrations=[first, second, broken])
    assert version_of(db_path) == 1
    assert dump(db_path) == before
    await (await Database.open(db_path, migrations=[first])).close()  # the old code opens it


async def test_later_migrations_apply_on_top(db_path):
    """A new file is applied to a database already at an older version, and only it."""
    first = Migration(1, "first", "CREATE TABLE a (x INTEGER);")
    second = Migration(2, "second", "ALTER TABLE a ADD COLUMN y TEXT;")
    await (await Database.open(db_path, migrations=[first])).close()
    await (await Database.open(db_path, migrations=[first, second])).close()
    assert version_of(db_path) == 2
    with sqlite3.connect(db_path) as conn:
        columns = [row[1] for row in conn.execute("PRAGMA table_info(a)")]
    assert columns == ["x", "y"]


async def test_database_newer_than_code_is_refused(db_path):
    """Opening a database whose user_version is beyond the newest migration raises."""
    with sqlite3.connect(db_path) as conn:
        conn.execute(f"PRAGMA user_version = {latest_version() + 1}")
    with pytest.raises(CannotOpenDatabase, match="newer than this code") as refused:
        await Database.open(db_path)
    assert isinstance(refused.value.__cause__, MigrationError)


async def test_gap_in_numbering_is_refused(db_path):
    """Migration numbers must run 1, 2, 3 without gaps."""
    with pytest.raises(CannotOpenDatabase, match="without gaps"):
        await Database.open(db_path, migrations=[Migration(2, "two", "SELECT 1;")])


async def test_migration_may_not_control_the_transaction(db_path):
    """A file containing COMMIT is refused before anything runs."""
    sneaky = Migration(1, "sneaky", "CREATE TABLE a (x INTEGER);\nCOMMIT;")
    with pytest.raises(CannotOpenDatabase, match="runner does that"):
        await Database.open(db_path, migrations=[sneaky])
    assert version_of(db_path) == 0


async def test_tables_at_version_0_are_refused_untouched(db_path):
    """Our tables with user_version reset to 0 (or another program's): refused, not half-built."""
    await (await Database.open(db_path)).close()
    with sqlite3.connect(db_path) as conn:
        conn.execute("PRAGMA user_version = 0")
    before = tables(db_path)
    with pytest.raises(CannotOpenDatabase, match="holds tables but no schema version"):
        await Database.open(db_path)
    assert version_of(db_path) == 0
    assert tables(db_path) == before
    with sqlite3.connect(db_path) as conn:
        conn.execute("CREATE TABLE notes (x TEXT)")
    other = db_path.with_name("other.sqlite3")
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE notes (x TEXT)")
    with pytest.raises(CannotOpenDatabase, match="not a feudbot database"):
        await Database.open(other)
    assert tables(other) == {"notes"}


@pytest.mark.parametrize("version", [0, 99])
async def test_a_refused_database_is_left_byte_for_byte(tmp_path, version):
    """Another program's database, or one newer than the code: refused and not touched at all.

    Before, Database.open switched the file to WAL before it looked at the schema: the refused
    file was left in WAL mode (two header bytes, kept in the file), another program's included.
    """
    path = tmp_path / "theirs.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE notes (x TEXT)")
        conn.execute(f"PRAGMA user_version = {version}")
    before = path.read_bytes()
    with pytest.raises(CannotOpenDatabase, match=r"not a feudbot database|newer than this code"):
        await Database.open(path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["theirs.sqlite3"]


async def test_concurrent_openers_migrate_once(db_path):
    """Two processes opening a fresh file at once both succeed; the schema is applied once."""
    first, second = await asyncio.gather(Database.open(db_path), Database.open(db_path))
    await first.close()
    await second.close()
    assert version_of(db_path) == latest_version()


async def test_moves_trigger_exists_after_migration(db_path):
    """The append-only triggers on moves are part of the initial schema."""
    await (await Database.open(db_path)).close()
    with sqlite3.connect(db_path) as conn:
        triggers = {
            name
            for (name,) in conn.execute("SELECT name FROM sqlite_schema WHERE type = 'trigger'")
        }
    assert {"moves_no_update", "moves_no_delete"} <= triggers


async def test_deadlines_keep_their_rows_when_claims_arrive(db_path):
    """0003 rebuilds the deadlines table for the 'claimed' state: every row, id and index stays."""
    older = load_migrations()[:2]
    db = await Database.open(db_path, migrations=older)
    async with db.transaction() as conn:  # the schema of then: today's repositories may not fit
        await conn.execute(
            "INSERT INTO chats (id, platform, platform_chat_id, title, created_at, updated_at)"
            " VALUES (1, 'console', 'room', 'Room', 5, 5)"
        )
        await conn.execute(
            "INSERT INTO games (id, chat_id, game_key, created_at, updated_at)"
            " VALUES (3, 1, 'webfeud', 5, 5)"
        )
        await conn.execute(
            "INSERT INTO deadlines (id, game_id, kind, due_at, turn, state, payload, created_at)"
            " VALUES (7, 3, 'timeout', 100, 2, 'done', '{\"seat\": 1}', 5),"
            " (9, 3, 'reminder', 50, 2, 'pending', '{}', 5)"
        )
    await db.close()
    db = await Database.open(db_path)
    try:
        assert version_of(db_path) == latest_version()
        kept = [await db.deadlines.get_deadline(i) for i in (7, 9)]
        assert [(d.kind, d.state, d.turn, d.payload) for d in kept] == [
            ("timeout", "done", 2, {"seat": 1}),
            ("reminder", "pending", 2, {}),
        ]
        assert await db.deadlines.claim_deadline(9)
        assert (await db.deadlines.get_deadline(9)).state == "claimed"
    finally:
        await db.close()
    with sqlite3.connect(db_path) as conn:
        indexes = {row[1] for row in conn.execute("PRAGMA index_list(deadlines)")}
    assert {"deadlines_state_due", "deadlines_game_state"} <= indexes


async def upgraded_from(db_path: Path, version: int, *rows: str) -> Database:
    """Store `rows` (SQL inserts) under the schema before `version`, then open it upgraded."""
    older = [m for m in load_migrations() if m.version < version]
    db = await Database.open(db_path, migrations=older)
    async with db.transaction() as conn:  # the schema of then
        for row in rows:
            await conn.execute(row)
    await db.close()
    assert version_of(db_path) == version - 1
    db = await Database.open(db_path)
    assert version_of(db_path) == latest_version() >= version
    return db


async def test_games_from_before_topics_have_no_thread(db_path):
    """0007 adds games.thread_id: a game stored before it has none (NULL), new ones keep theirs."""
    db = await upgraded_from(
        db_path,
        7,
        "INSERT INTO chats (id, platform, platform_chat_id, title, created_at, updated_at)"
        " VALUES (1, 'telegram', '-100', 'Forum', 5, 5)",
        "INSERT INTO games (id, chat_id, game_key, created_at, updated_at)"
        " VALUES (3, 1, 'webfeud', 5, 5)",
    )
    try:
        old = await db.games.get_game(3)
        assert old is not None
        assert old.thread_id is None
        new = await db.games.create_game(1, "webfeud", {}, None, thread_id=17)
        assert (await db.games.get_game(new.id)).thread_id == 17
    finally:
        await db.close()
    with sqlite3.connect(db_path) as conn:
        columns = {row[1]: row[2] for row in conn.execute("PRAGMA table_info(games)")}
    assert columns["thread_id"] == "INTEGER"


async def test_chats_away_from_before_0008_were_removed_not_muted(db_path):
    """0008 adds chats.away_muted: a chat the bot was out of before it was removed from it."""
    db = await upgraded_from(
        db_path,
        8,
        "INSERT INTO chats (id, platform, platform_chat_id, title, created_at, updated_at,"
        " away_since) VALUES (1, 'telegram', '-100', 'Club', 5, 5, 7)",
    )
    try:
        old = await db.chats.get_chat(1)
        assert old is not None
        assert old.away_since is not None
        assert not old.muted
        back = await db.chats.set_away(1, False)
        assert back is not None
        assert back.away_since is None
        muted = await db.chats.set_away(1, True, muted=True)
        assert muted is not None
        assert muted.muted
        assert (await db.chats.get_chat(1)).muted
    finally:
        await db.close()


async def test_chats_from_before_0009_belong_to_none_until_told(db_path):
    """0009 adds chats.parent_id: a chat stored before it is part of none until told so.

    An upsert naming its parent sets it; an upsert naming none keeps it.
    """
    db = await upgraded_from(
        db_path,
        9,
        "INSERT INTO chats (id, platform, platform_chat_id, title, created_at, updated_at)"
        " VALUES (1, 'discord', '500', '#games', 5, 5)",
        "INSERT INTO chats (id, platform, platform_chat_id, title, created_at, updated_at)"
        " VALUES (2, 'discord', '501', '#word-night', 5, 5)",
    )
    try:
        thread = await db.chats.get_chat(2)
        assert thread is not None
        assert thread.parent_id is None
        thread = await db.chats.upsert_chat("discord", "501", None, parent_id=1)
        assert thread.parent_id == 1
        assert thread.title == "#word-night"
        again = await db.chats.upsert_chat("discord", "501", "#word-night-2")
        assert again.parent_id == 1
    finally:
        await db.close()


async def test_chats_from_before_0011_take_photos_until_one_is_refused(db_path):
    """0011 adds chats.photos_refused_at: a chat stored before it takes photos (none refused).

    A refusal noted is read back, by platform, until the chat takes pictures again.
    """
    from datetime import UTC, datetime

    db = await upgraded_from(
        db_path,
        11,
        "INSERT INTO chats (id, platform, platform_chat_id, title, created_at, updated_at)"
        " VALUES (1, 'telegram', '-100', 'Club', 5, 5)",
        "INSERT INTO chats (id, platform, platform_chat_id, title, created_at, updated_at)"
        " VALUES (2, 'discord', '-100', '#games', 5, 5)",
    )
    refused = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
    try:
        assert await db.chats.photos_refused("telegram") == {}
        await db.chats.set_photos_refused("telegram", -100, refused)
        assert await db.chats.photos_refused("telegram") == {"-100": refused}
        assert await db.chats.photos_refused("discord") == {}
    finally:
        await db.close()
    async with await Database.open(db_path) as db:  # kept for the next process
        assert await db.chats.photos_refused("telegram") == {"-100": refused}
        await db.chats.set_photos_refused("telegram", "-100", None)
        assert await db.chats.photos_refused("telegram") == {}

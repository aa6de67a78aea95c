"""The migration runner: numbered `.sql` files applied in order, tracked by `PRAGMA user_version`.

- `load_migrations()` reads `storage/migrations/NNNN_name.sql` with `importlib.resources`; the
  numbers must run 1, 2, 3, … without gaps.
- `migrate(conn)` applies every file numbered above the database's `user_version` in one
  explicit `BEGIN IMMEDIATE … COMMIT`, each file setting `user_version` after it, so a failing
  file leaves the database exactly as it was — at the version the code it came from opens.
  sqlite3's `executescript` is not used: it commits whatever transaction is open first, which
  would break that guarantee. A file that holds
  tables at version 0 (another program's database, or ours with its version reset) is refused
  rather than half-migrated; so is a database newer than the code.
- `split_sql(script)` cuts a script into statements with `sqlite3.complete_statement`, so
  semicolons inside trigger bodies, strings and comments are handled.

Files that have been applied are never edited; a schema change is a new file.
"""

from __future__ import annotations

import importlib.resources
import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

import aiosqlite

MIGRATIONS_PACKAGE = "storage.migrations"
_FILE_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")
# The runner owns the transaction: a file must not open, end or escape it.
_FORBIDDEN = re.compile(r"^(BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE|VACUUM)\b", re.IGNORECASE)


NOT_OURS = (
    "it holds tables but no schema version (PRAGMA user_version is 0): not a feudbot database, "
    "or its version was reset; use a new file"
)


class MigrationError(Exception):
    """The migration files or the database's schema version are inconsistent."""


@dataclass(frozen=True, slots=True)
class Migration:
    """One numbered schema change."""

    version: int
    name: str
    sql: str


def load_migrations(package: str = MIGRATIONS_PACKAGE) -> tuple[Migration, ...]:
    """Return the package's `NNNN_name.sql` files in order, checking they are numbered 1..n."""
    found: list[Migration] = []
    for entry in importlib.resources.files(package).iterdir():
        match = _FILE_NAME.match(entry.name)
        if match is None:
            continue
        sql = entry.read_text(encoding="utf-8")
        found.append(Migration(version=int(match.group(1)), name=match.group(2), sql=sql))
    found.sort(key=lambda migration: migration.version)
    _check_numbering(found)
    return tuple(found)


def latest_version(migrations: Sequence[Migration] | None = None) -> int:
    """Return the schema version the migrations lead to (0 when there are none)."""
    chosen = load_migrations() if migrations is None else migrations
    return chosen[-1].version if chosen else 0


def _check_numbering(migrations: Sequence[Migration]) -> None:
    for expected, migration in enumerate(migrations, start=1):
        if migration.version != expected:
            raise MigrationError(
                f"migration {migration.version:04d}_{migration.name} found where "
                f"{expected:04d} was expected: numbers must run 1, 2, 3, … without gaps"
            )


def split_sql(script: str) -> list[str]:
    """Split a SQL script into complete statements, dropping blank and comment-only text."""
    statements: list[str] = []
    buffer = ""
    *pieces, rest = script.split(";")
    for piece in pieces:
        buffer += piece + ";"
        if sqlite3.complete_statement(buffer):
            if _has_code(buffer):
                statements.append(buffer.strip())
            buffer = ""
    # What follows the last semicolon must be blank or comments.
    rest = buffer + rest
    if _has_code(rest):
        raise MigrationError(f"incomplete SQL statement at the end of the script: {rest.strip()!r}")
    return statements


def _has_code(text: str) -> bool:
    """Return True when `text` holds anything besides whitespace, comments and semicolons."""
    without_block = re.sub(r"/\*.*?\*/", " ", text, flags=re.DOTALL)
    without_line = re.sub(r"--[^\n]*", " ", without_block)
    return without_line.replace(";", " ").strip() != ""


async def user_version(conn: aiosqlite.Connection) -> int:
    """Return the database's `PRAGMA user_version`."""
    rows = list(await conn.execute_fetchall("PRAGMA user_version"))
    return int(rows[0][0])


async def migrate(conn: aiosqlite.Connection, migrations: Sequence[Migration] | None = None) -> int:
    """Apply the migrations above the database's version, all or none; return the version.

    The pending files run in one transaction: one that fails leaves the file at the version it
    had, which the code it came from still opens, rather than between that code and this one.
    The connection must be in autocommit mode (`isolation_level=None`) with no transaction open.
    """
    chosen = load_migrations() if migrations is None else tuple(migrations)
    _check_numbering(chosen)
    current = await user_version(conn)
    _check_not_newer(current, chosen)
    pending = [(m, _statements(m)) for m in chosen if m.version > current]
    if not pending:
        return current
    await conn.execute("BEGIN IMMEDIATE")
    try:
        # Another process may have applied some while we waited for the write lock.
        current = await user_version(conn)
        _check_not_newer(current, chosen)
        if current == 0 and await _table_names(conn):
            # Our own tables at version 0 (a reset user_version) or another program's database:
            # creating the schema over them would fail halfway or mix two programs' data.
            raise MigrationError(NOT_OURS)
        for migration, statements in pending:
            if migration.version > current:
                current = await _apply(conn, migration, statements)
        await conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            await conn.execute("ROLLBACK")
        raise
    return current


async def refuse_foreign(
    conn: aiosqlite.Connection, migrations: Sequence[Migration] | None = None
) -> None:
    """Raise `MigrationError` for a database that is newer than the code or not ours.

    It only reads: run first, before anything that changes the file (the switch to WAL is kept
    in the file), a refused database — another program's, say — is left exactly as it was.
    `migrate` checks again under the write lock.
    """
    # One statement, so one snapshot: another opener may be creating the schema meanwhile.
    rows = list(
        await conn.execute_fetchall(
            "SELECT (SELECT user_version FROM pragma_user_version), (SELECT count(*) FROM "
            "sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite!_%' ESCAPE '!')"
        )
    )
    current, tables = int(rows[0][0]), int(rows[0][1])
    _check_not_newer(current, load_migrations() if migrations is None else migrations)
    if current == 0 and tables:
        raise MigrationError(NOT_OURS)


def _check_not_newer(current: int, migrations: Sequence[Migration]) -> None:
    latest = migrations[-1].version if migrations else 0
    if current > latest:
        raise MigrationError(
            f"it is at schema version {current}, newer than this code ({latest}); "
            "upgrade feudbot to use it"
        )


def _statements(migration: Migration) -> list[str]:
    """Return the file's statements, refusing one that would open, end or escape the transaction."""
    statements = split_sql(migration.sql)
    for statement in statements:
        if _FORBIDDEN.match(_strip_leading_comments(statement)):
            raise MigrationError(
                f"migration {migration.version:04d}_{migration.name} controls the transaction "
                f"itself ({statement.split()[0]}); the runner does that"
            )
    return statements


async def _apply(
    conn: aiosqlite.Connection, migration: Migration, statements: Sequence[str]
) -> int:
    """Run one file inside the runner's transaction and set `user_version` to its number."""
    for statement in statements:
        await conn.execute(statement)
    problems = list(await conn.execute_fetchall("PRAGMA foreign_key_check"))
    if problems:
        raise MigrationError(
            f"migration {migration.version:04d}_{migration.name} leaves "
            f"{len(problems)} foreign-key violation(s), e.g. {tuple(problems[0])}"
        )
    # An int we produced ourselves: PRAGMA takes no parameters.
    await conn.execute(f"PRAGMA user_version = {int(migration.version)}")
    return migration.version


async def _table_names(conn: aiosqlite.Connection) -> list[str]:
    """Return the names of the tables of the database (not SQLite's own)."""
    rows = await conn.execute_fetchall(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite!_%' "
        "ESCAPE '!'"
    )
    return [str(row[0]) for row in rows]


def _strip_leading_comments(statement: str) -> str:
    text = statement.lstrip()
    while text.startswith(("--", "/*")):
        if text.startswith("--"):
            _, _, text = text.partition("\n")
        else:
            _, _, text = text.partition("*/")
        text = text.lstrip()
    return text

"""What every repository shares: a handle on the `Database` and row-fetching helpers."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import aiosqlite

if TYPE_CHECKING:
    from storage.database import Database

Params = tuple[Any, ...]


class Repository:
    """Base class: repositories reach the connection only through the database's lock."""

    def __init__(self, db: Database) -> None:
        """Bind the repository to its database."""
        self._db = db


async def fetch_all(conn: aiosqlite.Connection, sql: str, params: Params = ()) -> list[sqlite3.Row]:
    """Run a query and return every row."""
    return list(await conn.execute_fetchall(sql, params))


async def fetch_one(
    conn: aiosqlite.Connection, sql: str, params: Params = ()
) -> sqlite3.Row | None:
    """Run a query and return its first row, or None."""
    rows = await fetch_all(conn, sql, params)
    return rows[0] if rows else None


# Write helpers leave the cursor to the garbage collector: a finished DML statement holds no
# lock, and an explicit close would cost a second round trip to aiosqlite's worker thread.


async def execute(conn: aiosqlite.Connection, sql: str, params: Params = ()) -> int:
    """Run a write statement and return the number of rows it changed."""
    cursor = await conn.execute(sql, params)
    return cursor.rowcount


async def execute_many(conn: aiosqlite.Connection, sql: str, rows: Iterable[Params]) -> int:
    """Run a write statement once per parameter tuple; return the total rows changed."""
    cursor = await conn.executemany(sql, rows)
    return cursor.rowcount


def placeholders(count: int) -> str:
    """Return `?, ?, …` for an IN list of `count` values."""
    if count < 1:
        raise ValueError("an IN list needs at least one value")
    return ", ".join("?" * count)

"""Durable deadlines: rows the dispatcher sleeps on, claims atomically and hands to the service.

`DeadlineRepository` (`db.deadlines`):

- `add_deadline(game_id, deadline, *, now=None) -> Deadline` (moves and starts add theirs in
  their own transaction through `db.games`)
- `due_deadlines(now, limit=100) -> list[Deadline]`: pending, `due_at <= now`, earliest first
  (ties by id), served by the `(state, due_at)` index
- `next_due_at() -> datetime | None`: when the earliest pending deadline falls due
- `claim_deadline(deadline_id) -> bool`: flips pending → done; True for exactly one caller, which
  is what makes each deadline fire once however many dispatchers race for it
- `retry_deadline(deadline_id, due_at) -> bool`: puts a claimed deadline whose handler failed
  back in the queue for `due_at`, counting the attempt in its payload (``"attempts"``)
- `cancel_deadline(deadline_id) -> bool`
- `pending_deadlines(game_id) -> list[Deadline]`, `get_deadline(deadline_id) -> Deadline | None`

`due_at` is stored as whole unix seconds rounded up, so a deadline never fires early and fires
at most a second late. Handlers stay idempotent by comparing `Deadline.turn` with the game's.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, cast

import aiosqlite

from storage._base import Repository, execute, execute_many, fetch_all, fetch_one
from storage._codec import dump_json, from_epoch, load_json, to_epoch, to_epoch_ceil, utcnow
from storage.models import Deadline, DeadlineState, NewDeadline

if TYPE_CHECKING:
    from storage.database import Database

_COLUMNS = "id, game_id, kind, due_at, turn, state, payload"
_INSERT = (
    "INSERT INTO deadlines (game_id, kind, due_at, turn, payload, created_at)"
    " VALUES (?, ?, ?, ?, ?, ?)"
)


def _deadline(row: sqlite3.Row) -> Deadline:
    return Deadline(
        id=row["id"],
        game_id=row["game_id"],
        kind=row["kind"],
        due_at=from_epoch(row["due_at"]),
        turn=row["turn"],
        state=cast(DeadlineState, row["state"]),
        payload=load_json(row["payload"]),
    )


def _params(game_id: int, deadline: NewDeadline, stamp: int) -> tuple[object, ...]:
    if not deadline.kind:
        raise ValueError("a deadline needs a kind")
    due = to_epoch_ceil(deadline.due_at)
    return (game_id, deadline.kind, due, deadline.turn, dump_json(deadline.payload), stamp)


async def insert_deadlines(
    db: Database,
    conn: aiosqlite.Connection,
    game_id: int,
    deadlines: Sequence[NewDeadline],
    stamp: int,
) -> None:
    """Insert deadlines inside the caller's transaction and tell the dispatcher after commit."""
    if not deadlines:
        return
    rows = [_params(game_id, deadline, stamp) for deadline in deadlines]
    await execute_many(conn, _INSERT, rows)
    db._deadline_added(from_epoch(min(to_epoch_ceil(deadline.due_at) for deadline in deadlines)))


async def cancel_pending(conn: aiosqlite.Connection, game_id: int) -> int:
    """Cancel every pending deadline of a game inside the caller's transaction."""
    return await execute(
        conn,
        "UPDATE deadlines SET state = 'cancelled' WHERE game_id = ? AND state = 'pending'",
        (game_id,),
    )


class DeadlineRepository(Repository):
    """The deadline queue."""

    async def add_deadline(
        self, game_id: int, deadline: NewDeadline, *, now: datetime | None = None
    ) -> Deadline:
        """Insert one pending deadline for a game and return it."""
        params = _params(game_id, deadline, to_epoch(now or utcnow()))
        async with self._db.transaction() as conn:
            row = await fetch_one(conn, f"{_INSERT} RETURNING {_COLUMNS}", params)
            assert row is not None  # INSERT … RETURNING yields the new row
            self._db._deadline_added(from_epoch(row["due_at"]))
        return _deadline(row)

    async def get_deadline(self, deadline_id: int) -> Deadline | None:
        """Return the deadline with this id, or None."""
        async with self._db.read() as conn:
            row = await fetch_one(
                conn, f"SELECT {_COLUMNS} FROM deadlines WHERE id = ?", (deadline_id,)
            )
        return None if row is None else _deadline(row)

    async def due_deadlines(self, now: datetime, limit: int = 100) -> list[Deadline]:
        """Return up to `limit` pending deadlines due at or before `now`, earliest first."""
        async with self._db.read() as conn:
            rows = await fetch_all(
                conn,
                f"SELECT {_COLUMNS} FROM deadlines"
                " WHERE state = 'pending' AND due_at <= ? ORDER BY due_at, id LIMIT ?",
                (to_epoch(now), limit),
            )
        return [_deadline(row) for row in rows]

    async def next_due_at(self) -> datetime | None:
        """Return when the earliest pending deadline falls due, or None when there is none."""
        async with self._db.read() as conn:
            row = await fetch_one(conn, "SELECT min(due_at) FROM deadlines WHERE state = 'pending'")
        return None if row is None or row[0] is None else from_epoch(row[0])

    async def claim_deadline(self, deadline_id: int) -> bool:
        """Mark a pending deadline done; True only for the one caller that flipped it."""
        async with self._db.transaction() as conn:
            changed = await execute(
                conn,
                "UPDATE deadlines SET state = 'done' WHERE id = ? AND state = 'pending'",
                (deadline_id,),
            )
        return changed == 1

    async def retry_deadline(self, deadline_id: int, due_at: datetime) -> bool:
        """Re-queue a claimed (done) deadline for `due_at` and count the failed attempt.

        Returns False when the deadline is not in the done state (nothing changed).
        """
        async with self._db.transaction() as conn:
            changed = await execute(
                conn,
                "UPDATE deadlines SET state = 'pending', due_at = ?,"
                " payload = json_set(payload, '$.attempts',"
                " coalesce(json_extract(payload, '$.attempts'), 0) + 1)"
                " WHERE id = ? AND state = 'done'",
                (to_epoch_ceil(due_at), deadline_id),
            )
            if changed:
                self._db._deadline_added(from_epoch(to_epoch_ceil(due_at)))
        return changed == 1

    async def cancel_deadline(self, deadline_id: int) -> bool:
        """Cancel a pending deadline; False when it was not pending."""
        async with self._db.transaction() as conn:
            changed = await execute(
                conn,
                "UPDATE deadlines SET state = 'cancelled' WHERE id = ? AND state = 'pending'",
                (deadline_id,),
            )
        return changed == 1

    async def pending_deadlines(self, game_id: int) -> list[Deadline]:
        """Return a game's pending deadlines, earliest first."""
        async with self._db.read() as conn:
            rows = await fetch_all(
                conn,
                f"SELECT {_COLUMNS} FROM deadlines WHERE game_id = ? AND state = 'pending'"
                " ORDER BY due_at, id",
                (game_id,),
            )
        return [_deadline(row) for row in rows]

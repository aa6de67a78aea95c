"""Durable deadlines: rows the dispatcher sleeps on, claims atomically and hands to the service.

`DeadlineRepository` (`db.deadlines`):

- `add_deadline(game_id, deadline, *, now=None) -> Deadline` (moves and starts add theirs in
  their own transaction through `db.games`)
- `due_deadlines(now, limit=100, *, platforms=None) -> list[Deadline]`: pending, `due_at <= now`,
  earliest first (ties by id), served by the `(state, due_at)` index; with `platforms`, only
  those of games in chats of these platforms (a process fires only what it can tell)
- `next_due_at(*, platforms=None) -> datetime | None`: when the earliest pending one falls due
- `claim_deadline(deadline_id, now) -> bool`: flips pending → claimed; True for exactly one
  caller, which is what makes each deadline fire once however many dispatchers race for it;
  never one held (its chat's bot left since it was found due)
- `finish_deadline(deadline_id) -> bool`: claimed → done, once its handler has run
- `retry_deadline(deadline_id, due_at) -> bool`: puts a claimed deadline whose handler failed
  back in the queue for `due_at`, counting the attempt in its payload (``"attempts"``)
- `release_deadline(deadline_id) -> bool`: puts a claim back, uncounted (a stop cut its handler
  short); `reclaim_stale(now, lease) -> int`: puts back the claims older than `lease` (their
  process died mid-fire), so a deadline fires at least once
- `cancel_deadline(deadline_id) -> bool`; `prune_settled(before) -> int` deletes the done and
  cancelled ones set before then
- `pending_deadlines(game_id) -> list[Deadline]`, `get_deadline(deadline_id) -> Deadline | None`

`due_at` is stored as whole unix seconds rounded up, so a deadline never fires early and fires
at most a second late. Handlers stay idempotent by comparing `Deadline.turn` with the game's.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, cast

import aiosqlite

from storage._base import Repository, execute, execute_many, fetch_all, fetch_one
from storage._codec import dump_json, from_epoch, load_json, to_epoch, to_epoch_ceil, utcnow
from storage.models import Deadline, DeadlineState, NewDeadline

if TYPE_CHECKING:
    from storage.database import Database

_COLUMNS = "id, game_id, kind, due_at, turn, state, payload, created_at"
_QUALIFIED = ", ".join(f"d.{column.strip()}" for column in _COLUMNS.split(","))
# The chat of a deadline's game: its platform (a process serves only some platforms) and whether
# the bot is out of it (its deadlines are held).
_WITH_CHAT = " JOIN games g ON g.id = d.game_id JOIN chats c ON c.id = g.chat_id"


def _claim(deadline_id: int, claimed: datetime | None) -> tuple[str, tuple[object, ...]]:
    """Return the WHERE clause of one deadline, and of its claim made at `claimed` if given."""
    if claimed is None:
        return "id = ?", (deadline_id,)
    return "id = ? AND claimed_at = ?", (deadline_id, to_epoch(claimed))


def _pending(platforms: Sequence[str] | None) -> tuple[str, tuple[object, ...]]:
    """Return the WHERE clause (and its parameters) of pending deadlines of `platforms`.

    Those of a chat the bot is out of are held: left out.
    """
    held = "d.state = 'pending' AND c.away_since IS NULL"
    if platforms is None:
        return held, ()
    if not platforms:  # a process that serves no platform fires nothing
        return "0", ()
    marks = ", ".join("?" * len(platforms))
    return f"{held} AND c.platform IN ({marks})", tuple(platforms)


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
        created_at=from_epoch(row["created_at"]),
    )


def _params(game_id: int, deadline: NewDeadline, stamp: int) -> tuple[object, ...]:
    if not deadline.kind:
        raise ValueError("a deadline needs a kind")
    due = to_epoch_ceil(deadline.due_at)
    made = stamp if deadline.created_at is None else to_epoch(deadline.created_at)
    return (game_id, deadline.kind, due, deadline.turn, dump_json(deadline.payload), made)


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


async def resume_held(
    db: Database, conn: aiosqlite.Connection, chat_id: int, *, since: int, until: int
) -> None:
    """Put off a chat's pending deadlines by the time they were held (caller's transaction).

    The dispatcher is told after commit. Held from `since` (the bot left), or from when the
    deadline was set if later, to `until`.
    """
    rows = await fetch_all(
        conn,
        "UPDATE deadlines SET due_at = due_at + ? - max(?, created_at)"
        " WHERE state = 'pending' AND game_id IN (SELECT id FROM games WHERE chat_id = ?)"
        " RETURNING due_at",
        (until, since, chat_id),
    )
    if rows:
        db._deadline_added(from_epoch(min(row["due_at"] for row in rows)))


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

    async def due_deadlines(
        self, now: datetime, limit: int = 100, *, platforms: Sequence[str] | None = None
    ) -> list[Deadline]:
        """Return up to `limit` pending deadlines due at or before `now`, earliest first.

        With `platforms`, only the deadlines of games in chats of those platforms.
        """
        where, params = _pending(platforms)
        async with self._db.read() as conn:
            rows = await fetch_all(
                conn,
                f"SELECT {_QUALIFIED} FROM deadlines d{_WITH_CHAT}"
                f" WHERE {where} AND d.due_at <= ? ORDER BY d.due_at, d.id LIMIT ?",
                (*params, to_epoch(now), limit),
            )
        return [_deadline(row) for row in rows]

    async def next_due_at(self, *, platforms: Sequence[str] | None = None) -> datetime | None:
        """Return when the earliest pending deadline (of `platforms`) falls due, or None."""
        where, params = _pending(platforms)
        async with self._db.read() as conn:
            row = await fetch_one(
                conn,
                f"SELECT min(d.due_at) FROM deadlines d{_WITH_CHAT} WHERE {where}",
                params,
            )
        return None if row is None or row[0] is None else from_epoch(row[0])

    async def claim_deadline(self, deadline_id: int, now: datetime | None = None) -> bool:
        """Mark a pending deadline claimed at `now`; True only for the one caller that did.

        Not while it is held: the bot may have left its chat since it was found due.
        """
        async with self._db.transaction() as conn:
            changed = await execute(
                conn,
                "UPDATE deadlines SET state = 'claimed', claimed_at = ?"
                " WHERE id = ? AND state = 'pending' AND NOT EXISTS (SELECT 1 FROM games g"
                " JOIN chats c ON c.id = g.chat_id"
                " WHERE g.id = deadlines.game_id AND c.away_since IS NOT NULL)",
                (to_epoch(now or utcnow()), deadline_id),
            )
        return changed == 1

    async def finish_deadline(self, deadline_id: int, claimed: datetime | None = None) -> bool:
        """Mark a claimed deadline done: its handler has run. False when it was not claimed.

        With `claimed`, only the claim made then: one taken back meanwhile is not ours.
        """
        which, params = _claim(deadline_id, claimed)
        async with self._db.transaction() as conn:
            changed = await execute(
                conn,
                f"UPDATE deadlines SET state = 'done' WHERE state = 'claimed' AND {which}",
                params,
            )
        return changed == 1

    async def retry_deadline(
        self, deadline_id: int, due_at: datetime, claimed: datetime | None = None
    ) -> bool:
        """Re-queue a claimed deadline for `due_at` and count the failed attempt.

        Returns False when the deadline is not claimed (by the claim made at `claimed`).
        """
        which, params = _claim(deadline_id, claimed)
        setting = (
            "due_at = ?, payload = json_set(payload, '$.attempts',"
            " coalesce(json_extract(payload, '$.attempts'), 0) + 1)"
        )
        return await self._requeue(setting, which, (to_epoch_ceil(due_at), *params)) == 1

    async def release_deadline(self, deadline_id: int, claimed: datetime | None = None) -> bool:
        """Put a claimed deadline back as it was, uncounted: a stop cut its handler short."""
        which, params = _claim(deadline_id, claimed)
        return await self._requeue("", which, params) == 1

    async def reclaim_stale(
        self, now: datetime, lease: timedelta, *, platforms: Sequence[str] | None = None
    ) -> int:
        """Put back the claims made before `now - lease`: their process died while firing them.

        With `platforms`, only those of games in chats of these platforms (another process
        fires the rest). Returns how many went back. (A handler runs for seconds; the lease is
        far longer.)
        """
        which = "claimed_at <= ?"
        params: tuple[object, ...] = (to_epoch(now - lease),)
        if platforms is not None:
            marks = ", ".join("?" * len(platforms))
            which += (
                " AND game_id IN (SELECT g.id FROM games g JOIN chats c ON c.id = g.chat_id"
                f" WHERE c.platform IN ({marks}))"
            )
            params += tuple(platforms)
        return await self._requeue("", which, params)

    async def _requeue(self, setting: str, which: str, params: tuple[object, ...]) -> int:
        """Turn claimed rows back to pending and tell the dispatcher; return how many.

        `setting`: more columns to set; `which`: the rows (with `params`).
        """
        extra = f", {setting}" if setting else ""
        async with self._db.transaction() as conn:
            rows = await fetch_all(
                conn,
                f"UPDATE deadlines SET state = 'pending', claimed_at = NULL{extra}"
                f" WHERE state = 'claimed' AND {which} RETURNING due_at",
                params,
            )
            if rows:
                self._db._deadline_added(from_epoch(min(row[0] for row in rows)))
        return len(rows)

    async def prune_settled(self, before: datetime) -> int:
        """Delete the deadlines done or cancelled that were set before `before`; return how many.

        Every move cancels its turn's deadlines and sets new ones (about three rows a move):
        nothing reads the settled ones, so a long-running bot forgets them after a while.
        """
        async with self._db.transaction() as conn:
            return await execute(
                conn,
                "DELETE FROM deadlines WHERE state IN ('done', 'cancelled') AND created_at < ?",
                (to_epoch(before),),
            )

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

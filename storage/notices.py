"""What someone was told once in a game, so that a restart does not tell them again.

`NoticeRepository` (`db.notices`):

- `first_notice(game_id, who, what) -> bool`: records the notice; True the first time only
- `prune_ended(before) -> int`: deletes the notices of games that ended (finished or
  cancelled) before `before`: nothing asks about them any more

The service notes a nudge per turn and a move refused as late; the Telegram adapter its tip
about private moves and its word on how to see one's tiles. The newest notices (`KNOWN`) are
also kept in memory (they are never taken back), so a repeat costs no query; storage alone
decides for the older ones (a bot running for months keeps a nudge a turn of every game).
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from storage._base import Repository, execute
from storage._codec import to_epoch

if TYPE_CHECKING:
    from storage.database import Database

KNOWN = 4096  # notices kept in memory at most (the newest); storage keeps them all


class NoticeRepository(Repository):
    """One row per (game, who, what)."""

    def __init__(self, db: Database) -> None:
        """Bind the repository to its database, knowing no notice yet."""
        super().__init__(db)
        self._known: dict[tuple[int, str, str], None] = {}  # the newest, in order

    async def first_notice(self, game_id: int, who: str, what: str) -> bool:
        """Record that `who` was told `what` in the game; return True if it is the first time."""
        key = (game_id, who, what)
        if key in self._known:
            return False
        async with self._db.transaction() as conn:
            added = await execute(
                conn,
                "INSERT INTO game_notices (game_id, who, what) VALUES (?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                key,
            )
        if len(self._known) >= KNOWN:  # forget the oldest: storage still knows them
            del self._known[next(iter(self._known))]
        self._known[key] = None
        return added > 0

    async def prune_ended(self, before: datetime) -> int:
        """Delete the notices of games that ended before `before`; return how many.

        A game keeps about 17 (a nudge a turn, tips, late moves): a bot running for months
        would keep them for ever, though a game that has ended tells nobody anything again.
        """
        async with self._db.transaction() as conn:
            return await execute(
                conn,
                "DELETE FROM game_notices WHERE game_id IN (SELECT id FROM games"
                " WHERE status IN ('finished', 'cancelled') AND updated_at < ?)",
                (to_epoch(before),),
            )

"""What someone was told once in a game, so that a restart does not tell them again.

`NoticeRepository` (`db.notices`):

- `first_notice(game_id, who, what) -> bool`: records the notice; True the first time only

The service notes a nudge per turn and a move refused as late; the Telegram adapter its tip
about private moves and its word on how to see one's tiles. The newest notices (`KNOWN`) are
also kept in memory (they are never taken back), so a repeat costs no query; storage alone
decides for the older ones (a bot running for months keeps a nudge a turn of every game).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from storage._base import Repository, execute

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

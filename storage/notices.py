"""What someone was told once in a game, so that a restart does not tell them again.

`NoticeRepository` (`db.notices`):

- `first_notice(game_id, who, what) -> bool`: records the notice; True the first time only

The service notes a nudge per turn and a move refused as late; the Telegram adapter its tip
about private moves and its word on how to see one's tiles. The notices recorded since the
start are also kept in memory (they are never taken back), so a repeat costs no query.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from storage._base import Repository, execute

if TYPE_CHECKING:
    from storage.database import Database


class NoticeRepository(Repository):
    """One row per (game, who, what)."""

    def __init__(self, db: Database) -> None:
        """Bind the repository to its database, knowing no notice yet."""
        super().__init__(db)
        self._known: set[tuple[int, str, str]] = set()

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
        self._known.add(key)
        return added > 0

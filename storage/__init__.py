"""Persistence on SQLite through one aiosqlite connection; games are known only as JSON.

Open with `await Database.open(path)` (WAL, foreign keys, migrations applied) and use its
repositories: `db.users`, `db.chats`, `db.games`, `db.deadlines`, `db.results`,
`db.messages`, `db.notices`. They return the
frozen dataclasses of `storage.models`, never rows. This package imports only aiosqlite and the
standard library, never `bot.*`.
"""

from storage.database import Database
from storage.migrate import MigrationError
from storage.models import (
    BOT_LEVELS,
    GAME_STATUSES,
    OPEN_STATUSES,
    BotLevel,
    Chat,
    Deadline,
    DeadlineState,
    GameMessage,
    GameRow,
    GameStatus,
    LeaderboardRow,
    MoveRow,
    NewDeadline,
    NewResult,
    ResultRow,
    Seat,
    SoloRecord,
    User,
)
from storage.users import name_key

__all__ = [
    "BOT_LEVELS",
    "GAME_STATUSES",
    "OPEN_STATUSES",
    "BotLevel",
    "Chat",
    "Database",
    "Deadline",
    "DeadlineState",
    "GameMessage",
    "GameRow",
    "GameStatus",
    "LeaderboardRow",
    "MigrationError",
    "MoveRow",
    "NewDeadline",
    "NewResult",
    "ResultRow",
    "Seat",
    "SoloRecord",
    "User",
    "name_key",
]

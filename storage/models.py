"""The small frozen value objects that repositories return (never raw rows) or accept.

All datetimes are timezone-aware UTC. JSON columns come back decoded (`dict`) except game
snapshots, which stay the exact JSON text the game wrote (`to_json()` output, passed through
untouched). Objects holding a `dict` are immutable by convention but not hashable.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

GameStatus = Literal["lobby", "active", "finished", "cancelled"]
BotLevel = Literal["easy", "medium", "hard"]
DeadlineState = Literal["pending", "claimed", "done", "cancelled"]

GAME_STATUSES: tuple[GameStatus, ...] = ("lobby", "active", "finished", "cancelled")
OPEN_STATUSES: tuple[GameStatus, ...] = ("lobby", "active")
BOT_LEVELS: tuple[BotLevel, ...] = ("easy", "medium", "hard")


@dataclass(frozen=True, slots=True)
class User:
    """A person on one platform (the same human on Discord and Telegram is two users)."""

    id: int
    platform: str
    platform_user_id: str
    display_name: str
    dm_allowed: bool
    handle: str | None = None  # the platform name that is theirs alone (Telegram @username)


@dataclass(frozen=True, slots=True)
class Chat:
    """A channel, group or direct-message conversation where games are played."""

    id: int
    platform: str
    platform_chat_id: str
    title: str | None
    # Since when the bot has been out of the chat (removed from a group), None while it is in:
    # the chat's deadlines are held meanwhile.
    away_since: datetime | None = None
    muted: bool = False  # out as a member that may not write there (muted), not removed
    # The chat this one belongs to (a Discord thread's channel), whose leaderboards count it.
    parent_id: int | None = None


@dataclass(frozen=True, slots=True)
class GameRow:
    """One game: its options, lifecycle status and latest snapshot (JSON text, None in lobby)."""

    id: int
    chat_id: int
    game_key: str
    options: dict[str, Any]
    status: GameStatus
    snapshot: str | None
    version: int
    turn: int
    creator_user_id: int | None
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    # The topic of a forum chat the game lives in (its messages go there); None without one.
    thread_id: int | None = None


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat of a game, taken by exactly one of a user or a bot of some level."""

    game_id: int
    seat_no: int
    user_id: int | None
    bot_level: BotLevel | None

    @property
    def is_bot(self) -> bool:
        """Return True when a bot plays this seat."""
        return self.bot_level is not None


@dataclass(frozen=True, slots=True)
class MoveRow:
    """One entry of a game's append-only move log; `seq` counts from 1."""

    game_id: int
    seq: int
    seat_no: int
    notation: str
    payload: dict[str, Any]
    created_at: datetime


@dataclass(frozen=True, slots=True)
class NewDeadline:
    """A deadline to write in the same transaction as the move or start that creates it."""

    kind: str
    due_at: datetime
    turn: int
    payload: dict[str, Any] = field(default_factory=dict)
    # When its clock started, if before it is written: a turn's clock kept running past a move
    # out of turn keeps its start, so that time the chat was held (`chats.away_since`) counts
    # from then, not from the move. None: when it is written.
    created_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class Deadline:
    """A stored deadline; `due_at` is whole seconds, rounded up so it never fires early."""

    id: int
    game_id: int
    kind: str
    due_at: datetime
    turn: int
    state: DeadlineState
    payload: dict[str, Any]
    # When it was set (its chat's time away counts from then on); not part of its identity.
    created_at: datetime | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class NewResult:
    """The outcome of one seat, given to `commit_move` with the move that finishes a game."""

    seat_no: int
    score: int
    rank: int
    won: bool


@dataclass(frozen=True, slots=True)
class ResultRow:
    """The stored outcome of one seat of a finished game (`user_id` is None for bots)."""

    game_id: int
    seat_no: int
    user_id: int | None
    score: int
    rank: int
    won: bool
    game_key: str
    chat_id: int
    players: int
    finished_at: datetime


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """Two users' finished games together: how many, and the wins and points of each."""

    games: int
    wins: int
    other_wins: int
    points: int
    other_points: int
    shared: int = 0  # wins both had (a tie)


@dataclass(frozen=True, slots=True)
class SoloRecord:
    """A user's games played alone to the end in one game, and the best score among them."""

    user_id: int
    display_name: str
    games: int
    best: int


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    """A user's aggregates over some finished games: count, wins, total and best score."""

    user_id: int
    display_name: str
    games: int
    wins: int
    points: int
    best: int | None


@dataclass(frozen=True, slots=True)
class GameMessage:
    """The chat message that shows a game in one role (`slot`), as a chat adapter keeps it."""

    game_id: int
    slot: str
    chat_id: str
    message_id: str
    data: dict[str, Any] = field(default_factory=dict)

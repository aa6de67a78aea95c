"""The chat messages that show games: which one to edit, and whose buttons to take off.

`MessageRepository` (`db.messages`):

- `get_message(game_id, slot) -> GameMessage | None`
- `put_message(message) -> None`: stores it as the game's message of that slot, replacing any
- `delete_message(game_id, slot) -> bool`
- `game_of_message(platform, chat_id, message_id, slot) -> int | None`: whose message it is
- `delete_chat_messages(platform, chat_id, slot) -> int`: forgets the messages of `slot` in a
  chat that has changed its id (a Telegram group upgraded: its messages cannot be edited now)
- `prune_ended(before) -> int`: deletes the messages of games that ended (finished or
  cancelled) before `before`, but the board of a finished game (a reply to it names the game)

A chat adapter keeps the message that carries a game's buttons (Telegram's board, Discord's
newest game message and its Rummikub draft) here as well as in memory, so that a restart
forgets none: the next move edits that message, and a newer one takes its buttons off it.
Platform ids are stored as text; `data` is the adapter's own JSON object.
"""

from __future__ import annotations

from datetime import datetime

from storage._base import Repository, execute, fetch_one
from storage._codec import dump_json, load_json, to_epoch
from storage.models import GameMessage

# The slot of a Telegram game's board message. A reply to it names its game (`/rematch`,
# `/board`, `/history` typed as one), however old: a finished game keeps it when it is pruned.
BOARD = "board"


class MessageRepository(Repository):
    """One message per (game, slot)."""

    async def get_message(self, game_id: int, slot: str) -> GameMessage | None:
        """Return the game's message of `slot`, if one is kept."""
        async with self._db.read() as conn:
            row = await fetch_one(
                conn,
                "SELECT game_id, slot, chat_id, message_id, data FROM game_messages"
                " WHERE game_id = ? AND slot = ?",
                (game_id, slot),
            )
        if row is None:
            return None
        return GameMessage(
            row["game_id"], row["slot"], row["chat_id"], row["message_id"], load_json(row["data"])
        )

    async def put_message(self, message: GameMessage) -> None:
        """Keep `message` as its game's message of its slot (the one before is forgotten)."""
        async with self._db.transaction() as conn:
            await execute(
                conn,
                "INSERT INTO game_messages (game_id, slot, chat_id, message_id, data)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, slot) DO UPDATE SET"
                " chat_id = excluded.chat_id, message_id = excluded.message_id,"
                " data = excluded.data",
                (
                    message.game_id,
                    message.slot,
                    str(message.chat_id),
                    str(message.message_id),
                    dump_json(message.data),
                ),
            )

    async def delete_message(self, game_id: int, slot: str) -> bool:
        """Forget the game's message of `slot`; return whether one was kept."""
        async with self._db.transaction() as conn:
            changed = await execute(
                conn, "DELETE FROM game_messages WHERE game_id = ? AND slot = ?", (game_id, slot)
            )
        return changed > 0

    async def game_of_message(
        self, platform: str, chat_id: str, message_id: str, slot: str
    ) -> int | None:
        """Return the game whose message of `slot` that chat message is, if any."""
        async with self._db.read() as conn:
            row = await fetch_one(
                conn,
                "SELECT m.game_id FROM game_messages m JOIN games g ON g.id = m.game_id"
                " JOIN chats c ON c.id = g.chat_id WHERE m.slot = ? AND m.chat_id = ?"
                " AND m.message_id = ? AND c.platform = ?",
                (slot, str(chat_id), str(message_id), platform),
            )
        return None if row is None else int(row["game_id"])

    async def delete_chat_messages(self, platform: str, chat_id: str, slot: str) -> int:
        """Forget the messages of `slot` posted in a chat of `platform`; return how many."""
        async with self._db.transaction() as conn:
            return await execute(
                conn,
                "DELETE FROM game_messages WHERE slot = ? AND chat_id = ? AND game_id IN"
                " (SELECT g.id FROM games g JOIN chats c ON c.id = g.chat_id WHERE c.platform = ?)",
                (slot, str(chat_id), platform),
            )

    async def prune_ended(self, before: datetime) -> int:
        """Delete the messages of games that ended before `before`; return how many.

        Nothing edits them or takes their buttons off any more (a Discord game message, its
        draft); a finished game's board stays, as a reply to it still names the game.
        """
        async with self._db.transaction() as conn:
            return await execute(
                conn,
                "DELETE FROM game_messages AS m WHERE EXISTS (SELECT 1 FROM games g"
                " WHERE g.id = m.game_id AND g.updated_at < ? AND (g.status = 'cancelled'"
                " OR (g.status = 'finished' AND m.slot <> ?)))",
                (to_epoch(before), BOARD),
            )

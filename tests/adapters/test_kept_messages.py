"""`KeptMessages`: a game's chat message in one role, in memory and in a real SQLite file."""

from __future__ import annotations

from dataclasses import dataclass

from bot.adapters.common import KeptMessages
from storage import Database, GameMessage


@dataclass(frozen=True)
class Shown:
    chat: int
    message: int
    photo: bool


def load(kept: GameMessage) -> Shown:
    return Shown(int(kept.chat_id), int(kept.message_id), bool(kept.data["photo"]))


def dump(game_id: int, slot: str, shown: Shown) -> GameMessage:
    return GameMessage(game_id, slot, str(shown.chat), str(shown.message), {"photo": shown.photo})


async def test_a_kept_message_outlives_the_process_and_is_forgotten_when_put_none(
    tmp_path,
) -> None:
    """What one run keeps, the next reads; None forgets it in both; slots stay apart."""
    path = tmp_path / "kept.sqlite3"
    async with await Database.open(path) as db:
        chat = await db.chats.upsert_chat("telegram", "-100", "club")
        game = await db.games.create_game(chat.id, "webfeud", {}, None)
        boards = KeptMessages(db, "board", load, dump)
        drafts = KeptMessages(db, "draft", load, dump)
        assert await boards.get(game.id) is None
        await boards.put(game.id, Shown(-100, 7, True))  # after a miss: stored all the same
        await drafts.put(game.id, Shown(-100, 9, False))
        assert await boards.get(game.id) == Shown(-100, 7, True)
    async with await Database.open(path) as db:  # a restart
        boards = KeptMessages(db, "board", load, dump)
        assert await boards.get(game.id) == Shown(-100, 7, True)
        await boards.put(game.id, None)
        assert await boards.get(game.id) is None
    async with await Database.open(path) as db:
        assert await KeptMessages(db, "board", load, dump).get(game.id) is None
        assert await KeptMessages(db, "draft", load, dump).get(game.id) == Shown(-100, 9, False)


async def test_forget_chat_forgets_that_chats_messages_in_memory_and_storage_only(
    tmp_path,
) -> None:
    """A chat Telegram moved away loses its boards; another chat's and another slot's stay."""
    path = tmp_path / "kept.sqlite3"
    async with await Database.open(path) as db:
        old = await db.chats.upsert_chat("telegram", "-100", "club")
        other = await db.chats.upsert_chat("telegram", "-200", "other club")
        moved = await db.games.create_game(old.id, "webfeud", {}, None)
        stays = await db.games.create_game(other.id, "webfeud", {}, None)
        boards = KeptMessages(db, "board", load, dump)
        drafts = KeptMessages(db, "draft", load, dump)
        await boards.put(moved.id, Shown(-100, 7, True))
        await boards.put(stays.id, Shown(-200, 8, True))
        await drafts.put(moved.id, Shown(-100, 9, False))
        await boards.forget_chat("telegram", "-100")
        assert await boards.get(moved.id) is None
        assert await boards.get(stays.id) == Shown(-200, 8, True)
    async with await Database.open(path) as db:  # a restart: storage forgot it too
        assert await KeptMessages(db, "board", load, dump).get(moved.id) is None
        assert await KeptMessages(db, "draft", load, dump).get(moved.id) == Shown(-100, 9, False)

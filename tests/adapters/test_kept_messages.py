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


def kept(db: Database, slot: str) -> KeptMessages[Shown]:
    return KeptMessages(db, slot, load, dump)


async def game_in(db: Database, chat_id: str) -> int:
    """Create a game in a Telegram chat of that id; return the game's id."""
    chat = await db.chats.upsert_chat("telegram", chat_id, f"club {chat_id}")
    return (await db.games.create_game(chat.id, "webfeud", {}, None)).id


async def test_a_kept_message_outlives_the_process_and_is_forgotten_when_put_none(
    tmp_path,
) -> None:
    """What one run keeps, the next reads; None forgets it in both; slots stay apart."""
    path = tmp_path / "kept.sqlite3"
    async with await Database.open(path) as db:
        game = await game_in(db, "-100")
        boards, drafts = kept(db, "board"), kept(db, "draft")
        assert await boards.get(game) is None
        await boards.put(game, Shown(-100, 7, True))  # after a miss: stored all the same
        await drafts.put(game, Shown(-100, 9, False))
        assert await boards.get(game) == Shown(-100, 7, True)
        assert await boards.game_of("telegram", "-100", "7") == game  # a reply to it names it
        assert await drafts.game_of("telegram", "-100", "7") is None  # another slot's
    async with await Database.open(path) as db:  # a restart
        boards = kept(db, "board")
        assert await boards.game_of("telegram", "-100", "7") == game  # from storage
        assert await boards.game_of("discord", "-100", "7") is None
        assert await boards.get(game) == Shown(-100, 7, True)
        await boards.put(game, None)
        assert await boards.get(game) is None
    async with await Database.open(path) as db:
        assert await kept(db, "board").get(game) is None
        assert await kept(db, "draft").get(game) == Shown(-100, 9, False)


async def test_forget_chat_forgets_that_chats_messages_in_memory_and_storage_only(
    tmp_path,
) -> None:
    """A chat Telegram moved away loses its boards; another chat's and another slot's stay."""
    path = tmp_path / "kept.sqlite3"
    async with await Database.open(path) as db:
        moved, stays = await game_in(db, "-100"), await game_in(db, "-200")
        boards, drafts = kept(db, "board"), kept(db, "draft")
        await boards.put(moved, Shown(-100, 7, True))
        await boards.put(stays, Shown(-200, 8, True))
        await drafts.put(moved, Shown(-100, 9, False))
        await boards.forget_chat("telegram", "-100")
        assert await boards.get(moved) is None
        assert await boards.get(stays) == Shown(-200, 8, True)
    async with await Database.open(path) as db:  # a restart: storage forgot it too
        assert await kept(db, "board").get(moved) is None
        assert await kept(db, "draft").get(moved) == Shown(-100, 9, False)


async def test_memory_keeps_the_games_used_last_and_an_older_one_is_read_again(tmp_path) -> None:
    """Past `KEPT_IN_MEMORY` games, the one used longest ago leaves memory (storage keeps it).

    A game in play stays known; one forgotten is read from storage again and can be replaced
    as before. Before, every game touched since the start stayed (9 MB for 50,000 games).
    """
    import sqlite3

    from bot.adapters import common

    KEPT_IN_MEMORY = getattr(common, "KEPT_IN_MEMORY", 4096)  # (before: no bound at all)
    path = tmp_path / "kept.sqlite3"
    many = KEPT_IN_MEMORY + 100
    await (await Database.open(path)).close()
    with sqlite3.connect(path) as conn:  # a bot that has shown many games, each with a board
        conn.execute(
            "INSERT INTO chats (id, platform, platform_chat_id, created_at, updated_at)"
            " VALUES (1, 'telegram', '-100', 0, 0)"
        )
        conn.executemany(
            "INSERT INTO games (id, chat_id, game_key, created_at, updated_at)"
            " VALUES (?, 1, 'webfeud', 0, 0)",
            [(game,) for game in range(1, many + 1)],
        )
        conn.executemany(
            "INSERT INTO game_messages (game_id, slot, chat_id, message_id, data)"
            " VALUES (?, 'board', '-100', ?, '{\"photo\": true}')",
            [(game, str(10 * game)) for game in range(1, many + 1)],
        )
    played, first = many, 1
    async with await Database.open(path) as db:
        boards = kept(db, "board")
        for game in range(1, many + 1):
            assert await boards.get(game) == Shown(-100, 10 * game, True)
            await boards.get(played)  # a move in the game being played, now and then
        assert len(boards.known) == KEPT_IN_MEMORY
        assert played in boards.known
        assert first not in boards.known
        assert await boards.get(first) == Shown(-100, 10, True)  # read from storage again
        assert await boards.game_of("telegram", "-100", "10") == first
        await boards.put(first, Shown(-100, 7, False))
        assert len(boards.known) == KEPT_IN_MEMORY
    async with await Database.open(path) as db:
        assert await kept(db, "board").get(first) == Shown(-100, 7, False)

"""The chat messages that show games, kept so that a restart forgets none."""

from __future__ import annotations

import pytest

from storage import Database, GameMessage


async def test_a_games_message_is_kept_replaced_and_forgotten_per_slot(db, make) -> None:
    """One message per game and slot: put replaces it, delete forgets it, other slots stay."""
    chat = await make.chat("telegram", "-100")
    alice, bob = await make.user("alice", "telegram"), await make.user("bob", "telegram")
    game = await make.active(chat, [alice, bob])
    assert await db.messages.get_message(game.id, "board") is None
    board = GameMessage(game.id, "board", "-100", "7", {"photo": True, "buttons": True})
    await db.messages.put_message(board)
    await db.messages.put_message(GameMessage(game.id, "draft", "-100", "8"))
    assert await db.messages.get_message(game.id, "board") == board
    newer = GameMessage(game.id, "board", "-100", "9", {"photo": False})
    await db.messages.put_message(newer)
    assert await db.messages.get_message(game.id, "board") == newer
    assert await db.messages.delete_message(game.id, "board") is True
    assert await db.messages.delete_message(game.id, "board") is False
    assert await db.messages.get_message(game.id, "board") is None
    assert await db.messages.get_message(game.id, "draft") == GameMessage(
        game.id, "draft", "-100", "8", {}
    )


async def test_a_kept_message_survives_reopening_the_file(db_path, make, db) -> None:
    """What a running bot kept is there for the next process that opens the file."""
    chat = await make.chat("discord", "55")
    game = await make.active(
        chat, [await make.user("a", "discord"), await make.user("b", "discord")]
    )
    kept = GameMessage(game.id, "live", "55", "123456789012345678", {"kind": "draft", "turn": 4})
    await db.messages.put_message(kept)
    await db.close()
    async with await Database.open(db_path) as again:
        assert await again.messages.get_message(game.id, "live") == kept


async def test_a_message_needs_a_game_that_exists(db) -> None:
    """The foreign key refuses a message of no game."""
    import sqlite3

    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
        await db.messages.put_message(GameMessage(999, "board", "1", "2"))


async def test_a_chat_that_changed_its_id_forgets_its_messages_on_that_platform_only(
    db, make
) -> None:
    """A Telegram group upgraded: its boards there are forgotten, a Discord channel's stay."""
    group = await make.chat("telegram", "-4001")
    channel = await make.chat("discord", "-4001")  # the same text, another platform
    tg_game = await make.active(group, [await make.user("a", "telegram")])
    dc_game = await make.active(channel, [await make.user("b", "discord")])
    for game in (tg_game, dc_game):
        await db.messages.put_message(GameMessage(game.id, "board", "-4001", "5"))
    await db.messages.put_message(GameMessage(tg_game.id, "draft", "-4001", "6"))
    assert await db.messages.delete_chat_messages("telegram", "-4001", "board") == 1
    assert await db.messages.get_message(tg_game.id, "board") is None
    assert await db.messages.get_message(tg_game.id, "draft") is not None
    assert await db.messages.get_message(dc_game.id, "board") is not None

"""Chats that change their platform id (a Telegram group upgraded to a supergroup)."""

from __future__ import annotations

from storage import Chat


async def test_move_chat_gives_the_chat_its_new_id_with_its_games_and_results(db, make, t0):
    """The row keeps its id, so games, results (leaderboards) and deadlines follow it."""
    chat = await db.chats.upsert_chat("telegram", -4001, "Small club", now=t0)
    alice, bob = await make.user("alice", "telegram"), await make.user("bob", "telegram")
    active = await make.active(chat, [alice, bob])
    await make.finished(chat, [(alice, 30), (bob, 20)])
    moved = await db.chats.move_chat("telegram", -4001, -1004001, now=t0)
    assert moved == Chat(chat.id, "telegram", "-1004001", "Small club")
    assert await db.chats.get_chat_by_platform_id("telegram", -4001) is None
    assert await db.chats.get_chat_by_platform_id("telegram", "-1004001") == moved
    assert [g.id for g in await db.games.list_games(chat_id=chat.id, statuses=("active",))] == [
        active.id
    ]
    board = await db.results.leaderboard(chat_id=chat.id, game_key="webfeud")
    assert [row.user_id for row in board] == [alice.id, bob.id]
    # Telegram says it twice (in the old group and in the new one): the second finds nothing.
    assert await db.chats.move_chat("telegram", -4001, -1004001, now=t0) is None
    assert await db.chats.get_chat(chat.id) == moved


async def test_move_chat_merges_into_a_chat_already_known_under_the_new_id(db, make, t0):
    """Someone wrote in the supergroup first: the old chat's games and results join that row."""
    old = await db.chats.upsert_chat("telegram", -4001, "Small club", now=t0)
    new = await db.chats.upsert_chat("telegram", -1004001, None, now=t0)
    alice, bob = await make.user("alice", "telegram"), await make.user("bob", "telegram")
    game = await make.active(old, [alice, bob])
    await make.finished(old, [(alice, 30), (bob, 20)])
    moved = await db.chats.move_chat("telegram", "-4001", "-1004001", now=t0)
    assert moved == Chat(new.id, "telegram", "-1004001", "Small club")
    assert await db.chats.get_chat(old.id) is None
    assert (await db.games.get_game(game.id)).chat_id == new.id
    board = await db.results.leaderboard(chat_id=new.id, game_key="webfeud")
    assert [row.user_id for row in board] == [alice.id, bob.id]


async def test_move_chat_of_an_unknown_chat_changes_nothing(db, dump_db):
    """No chat under the old id: None, and the database is untouched."""
    await db.chats.upsert_chat("telegram", -1004001, "Club")
    before = dump_db()
    assert await db.chats.move_chat("telegram", -4001, -1004001) is None
    assert dump_db() == before

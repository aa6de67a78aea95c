from datetime import datetime, timedelta

import pytest

from storage import Chat, Database, User
from storage.migrate import load_migrations


async def test_upsert_user_round_trips(db):
    """A new user comes back from every lookup as the same frozen value."""
    user = await db.users.upsert_user("discord", 123456789012345678, "Alice")
    assert user == User(user.id, "discord", "123456789012345678", "Alice", dm_allowed=False)
    assert await db.users.get_user(user.id) == user
    assert await db.users.get_user_by_platform_id("discord", "123456789012345678") == user


async def test_upsert_user_refreshes_name_and_keeps_id(db):
    """Upserting a known platform id renames the user instead of creating another."""
    first = await db.users.upsert_user("telegram", 42, "Bob")
    second = await db.users.upsert_user("telegram", 42, "Bobby")
    assert second.id == first.id
    assert second.display_name == "Bobby"
    assert (await db.users.get_user(first.id)) == second


async def test_same_platform_id_on_two_platforms_is_two_users(db):
    """Users are unique per (platform, platform_user_id), not per id alone."""
    on_discord = await db.users.upsert_user("discord", 7, "Cat")
    on_telegram = await db.users.upsert_user("telegram", 7, "Cat")
    assert on_discord.id != on_telegram.id


async def test_unknown_user_is_none(db):
    """Lookups of ids and names that do not exist return None."""
    assert await db.users.get_user(404) is None
    assert await db.users.get_user_by_platform_id("console", "nobody") is None
    assert await db.users.find_user_by_name("console", "nobody") is None


async def test_find_user_by_name_ignores_case_within_platform(db, t0):
    """Names match without regard to case, on the given platform only."""
    alice = await db.users.upsert_user("console", "a", "Alice", now=t0)
    await db.users.upsert_user("discord", "a", "alice", now=t0)
    assert await db.users.find_user_by_name("console", "ALICE") == alice


async def test_find_user_by_name_ignores_case_in_every_script(db, t0):
    """Typed "@дмитрий" finds Дмитрий and "@ZOË" Zoë (SQLite's NOCASE folds only ASCII letters).

    Before, they were "I do not know @дмитрий yet", though Дмитрий had played here. An accent
    still tells names apart: "Zoe" is not Zoë; "Zoë" typed with a combining diaeresis is.
    """
    dima = await db.users.upsert_user("telegram", 1, "Дмитрий", now=t0)
    zoe = await db.users.upsert_user("telegram", 2, "Zoë", now=t0)
    for typed, meant in [("дмитрий", dima), ("ДМИТРИЙ", dima), ("ZOË", zoe), ("Zoe\u0308", zoe)]:
        assert await db.users.find_user_by_name("telegram", typed) == meant, typed
    assert await db.users.find_user_by_name("telegram", "Zoe") is None
    assert await db.users.find_user_by_name("discord", "дмитрий") is None


async def test_find_user_by_name_prefers_exact_case_then_recent(db, t0):
    """Among equal names an exact-case match wins, then the most recently seen user."""
    older = await db.users.upsert_user("console", "1", "dora", now=t0)
    newer = await db.users.upsert_user("console", "2", "dora", now=t0 + timedelta(hours=1))
    exact = await db.users.upsert_user("console", "3", "Dora", now=t0)
    assert await db.users.find_user_by_name("console", "dora") == newer
    assert await db.users.find_user_by_name("console", "Dora") == exact
    assert older.id not in {newer.id, exact.id}


async def test_find_users_by_name_in_a_chat_keeps_the_people_who_play_there(db, make, t0):
    """With a chat, only those seated at its games (a lobby, a game, a result) are found."""
    here, there = await make.chat("telegram", "-1"), await make.chat("telegram", "-2")
    sam = await db.users.upsert_user("telegram", "1", "Sam", now=t0)
    other = await db.users.upsert_user("telegram", "2", "Sam", now=t0 + timedelta(hours=1))
    waiting = await db.users.upsert_user("telegram", "3", "sam", now=t0)
    await make.finished(here, [(sam, 10), ("easy", 20)])
    await make.finished(there, [(other, 10), ("easy", 20)])
    await make.lobby(here, [waiting])
    assert await db.users.find_user_by_name("telegram", "Sam") == other  # the latest seen
    assert await db.users.find_users_by_name("telegram", "Sam", chat_id=here.id) == [
        sam,
        waiting,
    ]
    assert await db.users.find_users_by_name("telegram", "sam", chat_id=there.id) == [other]
    assert await db.users.find_users_by_name("telegram", "Sam") == [other, sam, waiting]
    assert await db.users.find_users_by_name("discord", "Sam", chat_id=here.id) == []


async def test_a_handle_finds_its_holder_before_anyone_showing_that_name(db, t0):
    """@bob is the person whose handle (Telegram @username) is bob, whoever else is shown "bob".

    A person without a username plays under their first name; one called "bob", seen later,
    must not take the seat or the record of the real @bob.
    """
    real = await db.users.upsert_user("telegram", 1002, "bob", handle="Bob", now=t0)
    assert real.handle == "bob"
    impostor = await db.users.upsert_user("telegram", 1011, "bob", now=t0 + timedelta(hours=1))
    assert await db.users.find_user_by_name("telegram", "bob") == real
    assert await db.users.find_user_by_name("telegram", "BOB") == real
    # Someone whose handle differs is never found by the name they show.
    await db.users.upsert_user("telegram", 1003, "dora", handle="dora_real", now=t0)
    assert await db.users.find_user_by_name("telegram", "dora") is None
    assert (await db.users.find_user_by_name("telegram", "dora_real")).platform_user_id == "1003"
    # Without a handle, the display name still finds a person (Telegram's @Carol_Smith).
    carol = await db.users.upsert_user("telegram", 1004, "Carol_Smith", now=t0)
    assert await db.users.find_user_by_name("telegram", "carol_smith") == carol
    # A username changes hands: its new holder is @dora_real from then on, in any case typed.
    newcomer = await db.users.upsert_user(
        "telegram", 1005, "Dora_Real", handle="Dora_Real", now=t0 + timedelta(days=30)
    )
    assert (await db.users.get_user_by_platform_id("telegram", 1003)).handle is None
    assert await db.users.find_user_by_name("telegram", "dora_real") == newcomer
    assert await db.users.find_user_by_name("telegram", "DORA_REAL") == newcomer
    # Giving up a username clears the handle: the next upsert without one stores none.
    assert (await db.users.upsert_user("telegram", 1002, "Bobby", now=t0)).handle is None
    assert await db.users.find_user_by_name("telegram", "bob") == impostor


async def test_users_stored_before_handles_existed_are_found_by_name(db_path, t0):
    """A database of schema 1 upgrades: its users get no handle and keep being found."""
    first = await Database.open(db_path, migrations=load_migrations()[:1])
    async with first.transaction() as conn:
        await conn.execute(
            "INSERT INTO users (platform, platform_user_id, display_name, created_at,"
            " updated_at) VALUES ('telegram', '5', 'eve', 0, 0)"
        )
    await first.close()
    upgraded = await Database.open(db_path)
    try:
        eve = await upgraded.users.find_user_by_name("telegram", "Eve")
        assert eve is not None
        assert eve.handle is None
        assert eve.platform_user_id == "5"
        renamed = await upgraded.users.upsert_user("telegram", 5, "eve", handle="eve_x")
        assert renamed.id == eve.id
        assert renamed.handle == "eve_x"
    finally:
        await upgraded.close()


async def test_set_dm_allowed_round_trips(db):
    """The direct-message flag is stored and reported; unknown users report False."""
    user = await db.users.upsert_user("discord", 1, "Eve")
    assert await db.users.set_dm_allowed(user.id, True)
    assert (await db.users.get_user(user.id)).dm_allowed is True
    assert await db.users.set_dm_allowed(user.id, False)
    assert (await db.users.get_user(user.id)).dm_allowed is False
    assert not await db.users.set_dm_allowed(999, True)


async def test_upsert_keeps_dm_allowed(db):
    """Refreshing a user's name does not reset the direct-message flag."""
    user = await db.users.upsert_user("discord", 1, "Eve")
    await db.users.set_dm_allowed(user.id, True)
    assert (await db.users.upsert_user("discord", 1, "Eve2")).dm_allowed is True


async def test_upsert_chat_round_trips_and_keeps_title(db):
    """Chats round-trip; a later upsert without a title keeps the stored one."""
    chat = await db.chats.upsert_chat("telegram", -100123, "Family")
    assert chat == Chat(chat.id, "telegram", "-100123", "Family")
    assert await db.chats.get_chat(chat.id) == chat
    assert await db.chats.upsert_chat("telegram", -100123) == chat
    renamed = await db.chats.upsert_chat("telegram", -100123, "Family games")
    assert renamed.id == chat.id
    assert renamed.title == "Family games"
    assert await db.chats.get_chat_by_platform_id("telegram", "-100123") == renamed
    assert await db.chats.get_chat(999) is None


async def test_naive_datetime_is_refused(db):
    """Storage accepts only timezone-aware times (everything is UTC)."""
    naive = datetime(2025, 1, 1, 12, 0)  # noqa: DTZ001 - the point of the test
    with pytest.raises(ValueError, match="naive"):
        await db.users.upsert_user("console", "x", "X", now=naive)

"""What someone is told once in a game stays told across a restart (`db.notices`, a real file)."""

from __future__ import annotations

from datetime import timedelta

from bot.reminders import Dispatcher
from bot.replies import Reply
from bot.service import CONSOLE, ChatRef, Service, UserRef
from storage import Database

ROOM = ChatRef(CONSOLE, "room")


def person(name: str) -> UserRef:
    return UserRef(CONSOLE, name, name)


async def discard(replies: list[Reply]) -> None:
    """Send nothing: the dispatcher's output is not what these tests look at."""


def reason(replies: list[Reply]) -> str:
    return str(replies[0].event.get("reason", replies[0].kind))


async def test_a_notice_is_new_once_then_known_in_memory_and_storage(db_path) -> None:
    """`first_notice` is True once per (game, who, what), in this run and the next."""
    async with await Database.open(db_path) as db:
        chat = await db.chats.upsert_chat("console", "room", None)
        game = (await db.games.create_game(chat.id, "webfeud", {}, None)).id
        assert await db.notices.first_notice(game, "user 1", "tip")
        assert not await db.notices.first_notice(game, "user 1", "tip")
        assert await db.notices.first_notice(game, "user 2", "tip")  # someone else
        assert await db.notices.first_notice(game, "user 1", "other")  # something else
    async with await Database.open(db_path) as db:  # a restart
        assert not await db.notices.first_notice(game, "user 1", "tip")
        assert not await db.notices.first_notice(game, "user 2", "tip")


async def test_one_nudge_a_turn_and_one_late_refusal_outlive_a_restart(db_path, clock) -> None:
    """A nudge used up stays used, and a move refused as late is played when sent again, though
    the bot restarted in between (both were kept in memory only, and came back).
    """
    async with await Database.open(db_path) as db:
        service = Service(db, clock=clock, render=False)
        await service.handle(ROOM, person("alice"), "/new smartfeud @bob wait=3m seed=2")
        await service.handle(ROOM, person("bob"), "/join")
        await service.handle(ROOM, person("alice"), "/start")
        assert reason(await service.handle(ROOM, person("bob"), "/nudge")) == "nudged"
    async with await Database.open(db_path) as db:
        service = Service(db, clock=clock, render=False)
        assert reason(await service.handle(ROOM, person("bob"), "/nudge")) == "ALREADY_NUDGED"
        # alice's turn passes at its deadline (what it sends is not looked at here)
        await Dispatcher(service, discard).run_due(clock.advance(timedelta(minutes=3)))
        await service.handle(ROOM, person("bob"), "/pass")  # and it comes back to her at once
        assert reason(await service.handle(ROOM, person("alice"), "/pass")) == "TIME_RAN_OUT"
    async with await Database.open(db_path) as db:
        service = Service(db, clock=clock, render=False)
        assert reason(await service.handle(ROOM, person("alice"), "/pass")) == "move_played"

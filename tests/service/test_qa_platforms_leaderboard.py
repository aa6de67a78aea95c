"""QA: one database for Telegram, Discord and the console — whose results a leaderboard shows.

A Telegram "alice" and a Discord "alice" are two people; so is a console's hot-seat "alice"
typed on a machine whose console was opened on the bot's database file.
"""

from __future__ import annotations

from bot.service import CONSOLE, ChatRef, Service, UserRef
from tests.service.test_nmbr9_service import ROUNDS, move_of, state_of

TG_GROUP = ChatRef("telegram", "-100500", "Feud club")
DC_CHANNEL = ChatRef("discord", "900", "#games")
ROOM = ChatRef(CONSOLE, "console")


async def win(service: Service, chat: ChatRef, winner: UserRef, loser: UserRef) -> None:
    """`winner` beats `loser` in a Webfeud game of `chat` (the loser resigns)."""
    await service.handle(chat, winner, "/new webfeud")
    await service.handle(chat, loser, "/join")
    replies = await service.handle(chat, loser, "/resign")
    assert any(r.kind == "game_over" for r in replies)


async def solo(service: Service, db, chat: ChatRef, player: UserRef, seed: int) -> None:
    """`player` plays a solo NMBR 9 game of `chat` to its end."""
    await service.handle(chat, player, f"/new nmbr9 seed={seed}")
    replies = await service.handle(chat, player, "/start")
    game_id = next(r.event["game_id"] for r in replies if r.kind == "game_started")
    for _ in range(ROUNDS):
        state = await state_of(db, game_id)
        await service.handle(chat, player, f"/place {move_of(state, 0)}")


async def test_leaderboard_everywhere_counts_only_the_askers_platform(service, db) -> None:
    """`/leaderboard everywhere` in a Telegram group ranks Telegram's people, none of Discord's.

    Before, it ranked every platform's (and the console's) people together: Discord's alice,
    with two wins, was "1. alice" and the Telegram alice who asked, with one, "2. alice-2" — the
    group read a stranger's record under its own alice's name, and saw Discord's carol, whom
    no Telegram command can name.
    """
    tg_alice, tg_bob = UserRef("telegram", "11", "alice"), UserRef("telegram", "12", "bob")
    dc_alice, dc_carol = UserRef("discord", "21", "alice"), UserRef("discord", "22", "carol")
    await win(service, TG_GROUP, tg_alice, tg_bob)
    for _ in range(2):
        await win(service, DC_CHANNEL, dc_alice, dc_carol)
    console_alice = UserRef(CONSOLE, "alice", "alice")
    await win(service, ROOM, console_alice, UserRef(CONSOLE, "dave", "dave"))
    [board] = await service.handle(TG_GROUP, tg_alice, "/leaderboard webfeud everywhere")
    assert board.text.splitlines()[1:] == [
        "1. alice: 1 win in 1 game, 0 points",
        "2. bob: 0 wins in 1 game, 0 points",
    ]
    # Discord sees its own people, the console its own.
    [board] = await service.handle(DC_CHANNEL, dc_carol, "/leaderboard everywhere")
    assert [row["player"] for row in board.event["rows"]] == ["alice", "carol"]
    [board] = await service.handle(ROOM, console_alice, "/leaderboard webfeud everywhere")
    assert [row["player"] for row in board.event["rows"]] == ["alice", "dave"]


async def test_solo_records_everywhere_are_the_askers_platforms(db, clock) -> None:
    """NMBR 9 solo records "everywhere" are this platform's: one alice's record never another's."""
    service = Service(db, clock=clock, render=False, allow_seed=True)
    tg_alice, dc_alice = UserRef("telegram", "11", "alice"), UserRef("discord", "21", "alice")
    await solo(service, db, TG_GROUP, tg_alice, 1)
    await solo(service, db, DC_CHANNEL, dc_alice, 2)
    group = await db.chats.get_chat_by_platform_id("telegram", TG_GROUP.chat_id)
    tg_best = [r.best for r in await db.results.solo_records("nmbr9", chat_id=group.id)]
    [board] = await service.handle(TG_GROUP, tg_alice, "/leaderboard nmbr9 everywhere")
    assert board.event["solo_records"] == {"alice": tg_best[0]}

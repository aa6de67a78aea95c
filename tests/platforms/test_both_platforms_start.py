"""One process serving both platforms: what each waits for at start-up, and what it does not.

Both loopback fakes run at once (tests/discord/fake_discord.py, tests/telegram/fake_bot_api.py);
the real discord.py client and PTB application talk to them over 127.0.0.1. The Discord fake
holds back its answer to the command sync, or READY, until the test lets it go.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.adapters.platforms import serve_platforms
from bot.games import GAMES
from bot.service import ChatRef, Service, UserRef, load_state
from storage import Database
from tests.platforms.platform_kit import both_settings, fake_bot_api, overdue_game

pytestmark = pytest.mark.timeout(60)


GROUP_ID = -100780
ALICE_TG = 801


async def telegram_overdue(path: Path) -> int:
    """Store a Telegram game whose timeout fell due days ago; return its id."""
    return await overdue_game(
        path,
        ChatRef("telegram", str(GROUP_ID), "Feud club"),
        UserRef("telegram", str(ALICE_TG), "alice"),
    )


@contextlib.asynccontextmanager
async def serving_both(
    path: Path, discord_fake: Any, held: asyncio.Event, before: str
) -> AsyncIterator[None]:
    """Serve both platforms over `path` while the block runs, Discord held back by `held`.

    The block starts once the Telegram game's overdue timeout was told (`before`: while what
    Discord holds back); on leaving, `held` is let go and the process stopped.
    """
    tg_game = await telegram_overdue(path)
    api = fake_bot_api.FakeBotAPI()
    api.group(GROUP_ID, "Feud club")
    async with fake_bot_api.FakeBotServer(api) as base_url:
        settings = both_settings(path, discord_fake, api, base_url)
        stop = asyncio.Event()
        task = asyncio.create_task(serve_platforms(settings, stop=stop))
        try:
            await api.wait_for(
                lambda: any(f"Game #{tg_game} is over" in c.text for c in api.sent()),
                within=20,
                what=f"the Telegram game's end {before}",
            )
            yield
        finally:
            held.set()
            stop.set()
            await asyncio.wait_for(task, 20)


async def bot_owing_a_move(path: Path, chat: ChatRef, person: UserRef) -> int:
    """Store a game against a bot, the person's pass stored but not the bot's answer (a crash).

    The person allows DMs. Returns the game's id.
    """
    db = await Database.open(str(path))
    try:
        service = Service(db, render=False, allow_seed=True)
        replies = await service.handle(chat, person, "/new webfeud bot=easy seed=6")
        game_id = next(r.event["game_id"] for r in replies if r.kind == "game_started")
        row = await db.games.get_game(game_id)
        assert row is not None
        state = load_state(row).apply(0, GAMES["webfeud"].parse_move("pass"))
        assert await db.games.commit_move(
            game_id,
            row.version,
            0,
            "pass",
            {"kind": "move"},
            json.dumps(state.to_json()),
            state.turn,
        )
        user = await db.users.get_user_by_platform_id(person.platform, person.user_id)
        assert user is not None
        await db.users.set_dm_allowed(user.id, True)
        return game_id
    finally:
        await db.close()


async def test_telegrams_deadlines_do_not_wait_for_discords_command_sync(
    discord_fake: Any, tmp_path: Path
) -> None:
    """Discord slow to answer the command sync: Telegram's overdue timeout fires meanwhile.

    Before, the process's one dispatcher started only once Discord's commands were synced (a
    rate-limited sync can take minutes), so Telegram's groups waited for Discord.
    """
    discord_fake.hold_sync = asyncio.Event()
    held = discord_fake.hold_sync
    async with serving_both(tmp_path / "both.sqlite3", discord_fake, held, "during the sync"):
        assert discord_fake.commands == {}  # not synced yet
        assert discord_fake.identifies == 0


async def test_discords_news_waits_for_ready_so_a_refusal_holds_nothing_it_should_not(
    discord_fake: Any, tmp_path: Path
) -> None:
    """Discord's deadlines start at READY: a post refused in #hidden then holds nothing.

    #hidden is a channel of the bot's server where it may not look (403 Missing Access), with a
    game whose bot owes a move (made when Discord's deadlines start). READY is held back until
    Telegram's overdue news is out. Before, the process's one dispatcher started before READY,
    made the bot's move (then fired Telegram's deadlines), and the post refused in #hidden,
    with no server known yet, was taken for a server that removed the bot: alice was told "I
    was removed from #hidden" and the game held.
    """
    path = tmp_path / "both.sqlite3"
    hidden = discord_fake.add_channel("hidden")
    discord_fake.no_access.add(hidden)
    alice = discord_fake.add_user("alice")
    bob = discord_fake.add_user("bob")
    hidden_game = await bot_owing_a_move(
        path, ChatRef("discord", str(hidden), "#hidden"), UserRef("discord", str(alice), "alice")
    )
    games_game = await overdue_game(
        path,
        ChatRef("discord", str(discord_fake.channel_id), "#games"),
        UserRef("discord", str(bob), "bob"),
    )
    discord_fake.hold_ready = asyncio.Event()
    async with serving_both(path, discord_fake, discord_fake.hold_ready, "before READY"):
        discord_fake.hold_ready.set()

        # Discord's deadlines fire after the bots' moves are sent: #games's timeout news
        # comes once the post in #hidden was refused and its refusal weighed.
        def over(message: Any) -> bool:
            return message.public and f"Game #{games_game} is over" in message.text

        if not any(over(m) for m in discord_fake.messages.values()):  # (before, it was)
            await discord_fake.wait_message(over, seconds=20)
    assert "403 50001 Missing Access" in discord_fake.errors  # the bot's move, refused
    assert not [m.text for m in discord_fake.dms_to(alice) if "I was removed" in m.text]
    db = await Database.open(str(path))
    try:
        assert await db.chats.away_chats("discord") == []
        row = await db.games.get_game(hidden_game)
        assert row is not None
        assert row.turn == 2  # the bot's move was made
    finally:
        await db.close()

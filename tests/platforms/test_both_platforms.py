"""`feudbot run` with both tokens: Discord and Telegram in one process, database and dispatcher.

Both loopback fakes run at once (tests/discord/fake_discord.py, tests/telegram/fake_bot_api.py);
the real discord.py client and PTB application talk to them over 127.0.0.1.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.service import ChatRef, UserRef, load_state
from storage import Database
from tests.platforms.platform_kit import both_settings, fake_bot_api, overdue_game, serving

pytestmark = pytest.mark.timeout(60)


GROUP_ID = -100777
ALICE_TG, BOB_TG = 501, 502
TG_GROUP = ChatRef("telegram", str(GROUP_ID), "Feud club")
TG_ALICE = UserRef("telegram", str(ALICE_TG), "Alice")


async def test_one_process_serves_both_platforms_and_routes_deadline_news(
    discord_fake: Any, tmp_path: Path
) -> None:
    """Commands work on both platforms; an overdue Telegram timeout is announced on Telegram."""
    path = tmp_path / "both.sqlite3"
    game_id = await overdue_game(path, TG_GROUP, TG_ALICE)
    api = fake_bot_api.FakeBotAPI()
    group = api.group(GROUP_ID, "Feud club")
    alice_tg = api.user(ALICE_TG, "Alice", "alice")
    alice_dc = discord_fake.add_user("alice")
    async with fake_bot_api.FakeBotServer(api) as base_url:
        settings = both_settings(path, discord_fake, api, base_url)
        async with serving(settings):
            # The shared dispatcher fired the overdue timeout and sent the news to Telegram.
            await api.wait_for(
                lambda: any(
                    "ran out of time" in c.text for c in api.sent("sendPhoto", chat_id=GROUP_ID)
                ),
                within=20,
                what="the timeout announcement in the Telegram group",
            )
            # Commands on Discord…
            inter = await discord_fake.send(discord_fake.build_slash(alice_dc, "help"))
            await discord_fake.wait_answered(inter)
            for _ in range(100):
                if any("/new" in m.text for m in discord_fake.replies_to(inter)):
                    break
                await asyncio.sleep(0.05)
            assert any("/new" in m.text for m in discord_fake.replies_to(inter))
            # …and on Telegram, at the same time.
            api.push(api.message_update(group, alice_tg, "/rules webfeud"))
            await api.wait_for(
                lambda: any("Webfeud" in c.text for c in api.sent("sendMessage", chat_id=GROUP_ID)),
                what="the /rules reply on Telegram",
            )
            sent_before = len(api.sent("sendMessage", chat_id=GROUP_ID))
        # A restart: the timeout already fired, so it does not fire again.
        async with serving(settings):
            api.push(api.message_update(group, alice_tg, "/games"))
            await api.wait_for(
                lambda: len(api.sent("sendMessage", chat_id=GROUP_ID)) >= sent_before + 1,
                what="an answer after the restart",
            )
        news = api.sent("sendPhoto", chat_id=GROUP_ID)
        timeouts = [c for c in news if "ran out of time" in c.text]
        assert len(timeouts) == 1
    assert not any("out of time" in m.text for m in discord_fake.public_messages())
    db = await Database.open(str(path))
    try:
        row = await db.games.get_game(game_id)
    finally:
        await db.close()
    assert row is not None
    state = load_state(row)
    assert state.outcome is not None
    assert state.outcome.reason == "timeout"

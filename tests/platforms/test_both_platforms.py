"""`feudbot run` with both tokens: Discord and Telegram in one process, database and dispatcher.

Both loopback fakes run at once (tests/discord/fake_discord.py, tests/telegram/fake_bot_api.py);
the real discord.py client and PTB application talk to them over 127.0.0.1.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import discord
import discord.gateway
import discord.http
import pytest
import yarl

from bot.adapters.platforms import serve_platforms
from bot.config import Settings
from bot.service import ChatRef, Service, UserRef, load_state
from storage import Database
from tests.support import load_module

pytestmark = pytest.mark.timeout(60)

TESTS = Path(__file__).resolve().parents[1]


fake_discord = load_module("fake_discord", TESTS / "discord" / "fake_discord.py")
fake_bot_api = load_module("fake_bot_api", TESTS / "telegram" / "fake_bot_api.py")

GROUP_ID = -100777
ALICE_TG, BOB_TG = 501, 502


@pytest.fixture
async def discord_fake(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Any]:
    server = fake_discord.FakeDiscord()
    await server.start()
    monkeypatch.setattr(discord.http.Route, "BASE", server.api_base)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(server.gateway_url)
    )
    try:
        yield server
    finally:
        await server.stop()


async def overdue_telegram_game(path: Path) -> int:
    """A Telegram group's Webfeud game whose first turn ran out four days ago."""
    long_ago = datetime.now(UTC) - timedelta(days=7)
    db = await Database.open(str(path))
    try:
        service = Service(db, clock=lambda: long_ago, render=False)
        replies = await service.handle(
            ChatRef("telegram", str(GROUP_ID), "Feud club"),
            UserRef("telegram", str(ALICE_TG), "Alice"),
            "/new webfeud bot=easy",
        )
        return next(r.event["game_id"] for r in replies if r.kind == "game_started")
    finally:
        await db.close()


async def test_one_process_serves_both_platforms_and_routes_deadline_news(
    discord_fake: Any, tmp_path: Path
) -> None:
    """Commands work on both platforms; an overdue Telegram timeout is announced on Telegram."""
    path = tmp_path / "both.sqlite3"
    game_id = await overdue_telegram_game(path)
    api = fake_bot_api.FakeBotAPI()
    group = api.group(GROUP_ID, "Feud club")
    alice_tg = api.user(ALICE_TG, "Alice", "alice")
    alice_dc = discord_fake.add_user("alice")
    async with fake_bot_api.FakeBotServer(api) as base_url:
        settings = Settings(
            db_path=str(path),
            discord_token="fake-token",
            discord_dev_guild_id=discord_fake.guild_id,
            telegram_token=api.token,
            telegram_api_base_url=base_url,
        )
        stop, ready = asyncio.Event(), asyncio.Event()
        task = asyncio.create_task(serve_platforms(settings, stop=stop, ready=ready))
        try:
            await asyncio.wait_for(ready.wait(), 20)
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
        finally:
            stop.set()
            await asyncio.wait_for(task, 20)
        # A restart: the timeout already fired, so it does not fire again.
        stop, ready = asyncio.Event(), asyncio.Event()
        task = asyncio.create_task(serve_platforms(settings, stop=stop, ready=ready))
        try:
            await asyncio.wait_for(ready.wait(), 20)
            api.push(api.message_update(group, alice_tg, "/games"))
            await api.wait_for(
                lambda: len(api.sent("sendMessage", chat_id=GROUP_ID)) >= sent_before + 1,
                what="an answer after the restart",
            )
        finally:
            stop.set()
            await asyncio.wait_for(task, 20)
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

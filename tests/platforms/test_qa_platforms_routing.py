"""QA: one process serving Discord and Telegram over one database — where deadline news goes.

Both loopback fakes run at once (tests/discord/fake_discord.py, tests/telegram/fake_bot_api.py);
the real discord.py client and PTB application talk to them over 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord.gateway
import discord.http
import pytest
import yarl

from bot.adapters.platforms import serve_platforms
from bot.service import ChatRef, UserRef
from tests.platforms.platform_kit import (
    both_settings,
    fake_bot_api,
    fake_discord,
    overdue_game,
    serving,
)

pytestmark = pytest.mark.timeout(60)


GROUP_ID = -100778
ALICE_TG = 601


async def until(check: Callable[[], bool], what: str, within: float = 20) -> None:
    for _ in range(int(within / 0.05)):
        if check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"no {what} within {within} s")


async def test_each_platforms_deadline_news_goes_to_it_alone_and_logs_no_warning(
    discord_fake: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """An overdue timeout on each platform: each told where its game lives, nothing misrouted.

    Before, the Discord adapter, which runs the process's one dispatcher, was handed every
    reply and logged "not sending a timeout reply for ChatTarget(...) via Discord" (a WARNING
    meant for a misrouted reply) for each piece of Telegram news: an operator saw a warning
    for every Telegram reminder and timeout.
    """
    path = tmp_path / "both.sqlite3"
    alice_dc = discord_fake.add_user("alice")
    tg_game = await overdue_game(
        path,
        ChatRef("telegram", str(GROUP_ID), "Feud club"),
        UserRef("telegram", str(ALICE_TG), "alice"),
    )
    dc_game = await overdue_game(
        path,
        ChatRef("discord", str(discord_fake.channel_id), "#games"),
        UserRef("discord", str(alice_dc), "alice"),
    )
    api = fake_bot_api.FakeBotAPI()
    api.group(GROUP_ID, "Feud club")
    caplog.set_level(logging.WARNING)
    async with fake_bot_api.FakeBotServer(api) as base_url:
        settings = both_settings(path, discord_fake, api, base_url)
        async with serving(settings):
            await api.wait_for(
                lambda: any(
                    f"Game #{tg_game} is over (alice's time ran out)" in c.text
                    for c in api.sent(chat_id=GROUP_ID)
                ),
                within=20,
                what="the Telegram game's end in the Telegram group",
            )
            await until(
                lambda: any(
                    f"Game #{dc_game} is over (alice's time ran out)" in m.text
                    for m in discord_fake.public_messages()
                ),
                "the Discord game's end in its channel",
            )
    # Neither platform was told of the other's game.
    assert not any(f"game #{tg_game}" in m.text.lower() for m in discord_fake.messages.values())
    assert not any(f"game #{dc_game}" in c.text.lower() for c in api.sent())
    misrouted = [r.getMessage() for r in caplog.records if "via Discord" in r.getMessage()]
    assert misrouted == []


async def test_telegram_goes_on_alone_while_discord_is_out_of_reach_until_it_is_back(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Discord unreachable at start: Telegram's overdue timeout fires all the same.

    One ERROR line says so; Discord is tried again, and once it listens it is served too.
    Before, the process ended with Telegram (see test_qa_platforms_process.py).
    """
    path = tmp_path / "both.sqlite3"
    tg_game = await overdue_game(
        path,
        ChatRef("telegram", str(GROUP_ID), "Feud club"),
        UserRef("telegram", str(ALICE_TG), "alice"),
    )
    server = fake_discord.FakeDiscord()
    await server.start()
    port = server.port
    monkeypatch.setattr(discord.http.Route, "BASE", server.api_base)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(server.gateway_url)
    )
    await server.stop()  # nothing listens there now: connections are refused
    api = fake_bot_api.FakeBotAPI()
    api.group(GROUP_ID, "Feud club")
    caplog.set_level(logging.ERROR)
    async with fake_bot_api.FakeBotServer(api) as base_url:
        settings = both_settings(path, server, api, base_url)
        stop = asyncio.Event()
        task = asyncio.create_task(serve_platforms(settings, stop=stop, discord_retry=0.5))
        try:
            await api.wait_for(
                lambda: any(f"Game #{tg_game} is over" in c.text for c in api.sent()),
                within=20,
                what="the Telegram game's end while Discord is out of reach",
            )
            [said] = [r.getMessage() for r in caplog.records if "Discord" in r.getMessage()]
            assert said.startswith("cannot reach Discord: ")
            assert said.endswith(
                "; Telegram goes on alone in this process, and Discord is tried again in 0.5 "
                "seconds"
            )
            await server.start(port)  # Discord is back
            await asyncio.wait_for(server.wait_ready(), 20)
            alice = server.add_user("alice")
            inter = await server.send(server.build_slash(alice, "help"))
            await server.wait_answered(inter)
        finally:
            stop.set()
            await asyncio.wait_for(task, 20)
            await server.stop()
    assert [c for c in api.sent() if f"Game #{tg_game} is over" in c.text][1:] == []

"""QA: `feudbot run` with both tokens, as a real process — SIGTERM, one platform failing.

The child is `run_platforms(load_settings())`, the function `feudbot run` calls with both
tokens set, with discord.py pointed at the loopback fake first (Discord's base URL is no
setting); Telegram's comes from TELEGRAM_API_BASE_URL as in production.
"""

from __future__ import annotations

import asyncio
import signal
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.service import ChatRef, Service, UserRef
from storage import Database
from tests.support import ROOT, clean_env, load_module

pytestmark = pytest.mark.timeout(90)

TESTS = Path(__file__).resolve().parents[1]
fake_discord = load_module("fake_discord", TESTS / "discord" / "fake_discord.py")
fake_bot_api = load_module("fake_bot_api", TESTS / "telegram" / "fake_bot_api.py")

GROUP_ID = -100779
ALICE_TG = 701

CHILD = """
import sys
import discord.gateway, discord.http, yarl
discord.http.Route.BASE = sys.argv[1]
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sys.argv[2])
from bot.adapters.platforms import run_platforms
from bot.config import load_settings
raise SystemExit(run_platforms(load_settings()))
"""


@pytest.fixture
async def discord_fake() -> AsyncIterator[Any]:
    server = fake_discord.FakeDiscord()
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


async def start_both(
    tmp_path: Path, api: Any, base_url: str, api_base: str, gateway: str, guild: int
) -> asyncio.subprocess.Process:
    env = clean_env(
        DISCORD_TOKEN="fake-token",
        DISCORD_DEV_GUILD_ID=str(guild),
        TELEGRAM_TOKEN=api.token,
        TELEGRAM_API_BASE_URL=base_url,
        FEUDBOT_DB=str(tmp_path / "both.sqlite3"),
    )
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        CHILD,
        api_base,
        gateway,
        cwd=str(tmp_path),  # no .env there
        env={**env, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


async def overdue_telegram_game(path: Path) -> int:
    """A Telegram group's Webfeud game against a bot whose first turn ran out days ago."""
    long_ago = datetime.now(UTC) - timedelta(days=7)
    db = await Database.open(str(path))
    try:
        service = Service(db, clock=lambda: long_ago, render=False)
        replies = await service.handle(
            ChatRef("telegram", str(GROUP_ID), "Feud club"),
            UserRef("telegram", str(ALICE_TG), "alice"),
            "/new webfeud bot=easy",
        )
        return next(r.event["game_id"] for r in replies if r.kind == "game_started")
    finally:
        await db.close()


async def test_sigterm_stops_both_platforms_cleanly(discord_fake: Any, tmp_path: Path) -> None:
    """Both bots up (a Telegram command answered, Discord identified); SIGTERM: status 0, quiet."""
    api = fake_bot_api.FakeBotAPI()
    group = api.group(GROUP_ID, "Feud club")
    alice = api.user(ALICE_TG, "alice", "alice")
    async with fake_bot_api.FakeBotServer(api) as base_url:
        process = await start_both(
            tmp_path,
            api,
            base_url,
            discord_fake.api_base,
            discord_fake.gateway_url,
            discord_fake.guild_id,
        )
        try:
            await asyncio.wait_for(discord_fake.wait_ready(), 30)
            await api.wait_for(lambda: bool(api.sent("getUpdates")), within=20, what="polling")
            api.push(api.message_update(group, alice, "/rules webfeud"))
            await api.wait_for(
                lambda: any("Webfeud" in c.text for c in api.sent("sendMessage", chat_id=GROUP_ID)),
                what="the /rules reply",
            )
            process.send_signal(signal.SIGTERM)
            _out, err = await asyncio.wait_for(process.communicate(), 30)
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
    assert process.returncode == 0, err.decode()
    assert b"Traceback" not in err, err.decode()


@pytest.mark.xfail(
    strict=True,
    reason="design: with both tokens, Discord failing to start (refused token, out of reach) "
    "ends the whole process, Telegram included; serve_platforms runs the one deadline "
    "dispatcher inside the Discord bot, so Telegram's deadlines never fire while Discord "
    "cannot log in",
)
async def test_discord_out_of_reach_leaves_telegram_served_and_says_so(tmp_path: Path) -> None:
    """Discord unreachable at start-up: Telegram goes on (commands, deadlines), one clear line.

    Today the process logs "cannot reach Discord: …" and exits with status 1 within a second,
    having answered nothing on Telegram and fired none of its overdue deadlines; under a
    supervisor that restarts it, Telegram's groups see a bot that never answers and whose
    turns never time out until Discord is back.
    """
    game_id = await overdue_telegram_game(tmp_path / "both.sqlite3")
    api = fake_bot_api.FakeBotAPI()
    group = api.group(GROUP_ID, "Feud club")
    alice = api.user(ALICE_TG, "alice", "alice")
    with socket.socket() as closed:  # bound, never listening: connections are refused
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
        async with fake_bot_api.FakeBotServer(api) as base_url:
            process = await start_both(
                tmp_path,
                api,
                base_url,
                f"http://127.0.0.1:{port}/api/v10",
                f"ws://127.0.0.1:{port}/gateway",
                1,
            )
            try:
                await api.wait_for(
                    lambda: any(
                        f"Game #{game_id} is over" in c.text for c in api.sent(chat_id=GROUP_ID)
                    ),
                    within=20,
                    what="the overdue Telegram timeout's news",
                )
                api.push(api.message_update(group, alice, "/rules webfeud"))
                await api.wait_for(
                    lambda: any(
                        "Webfeud" in c.text for c in api.sent("sendMessage", chat_id=GROUP_ID)
                    ),
                    what="the /rules reply",
                )
                process.send_signal(signal.SIGTERM)
                _out, err = await asyncio.wait_for(process.communicate(), 30)
            finally:
                if process.returncode is None:
                    process.kill()
                    await process.wait()
    text = err.decode()
    assert "cannot reach Discord" in text
    assert "Telegram" in text.split("cannot reach Discord", 1)[1].splitlines()[0]
    assert "Traceback" not in text

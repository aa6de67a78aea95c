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
from pathlib import Path
from typing import Any

import pytest

from bot.service import ChatRef, UserRef
from tests.platforms.platform_kit import fake_bot_api, overdue_game
from tests.support import ROOT, clean_env

pytestmark = pytest.mark.timeout(90)


GROUP_ID = -100779
ALICE_TG = 701
TG_GROUP = ChatRef("telegram", str(GROUP_ID), "Feud club")
TG_ALICE = UserRef("telegram", str(ALICE_TG), "alice")

CHILD = """
import sys
import discord.gateway, discord.http, yarl
discord.http.Route.BASE = sys.argv[1]
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sys.argv[2])
from bot.adapters.platforms import run_platforms
from bot.config import load_settings
raise SystemExit(run_platforms(load_settings()))
"""


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


async def answered_then_stopped(
    process: asyncio.subprocess.Process,
    api: Any,
    group: Any,
    alice: Any,
) -> bytes:
    """Have the child answer a Telegram command, then SIGTERM it; return its stderr.

    The child is killed if it does not answer or stop in time.
    """
    try:
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
    return err


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
        await asyncio.wait_for(discord_fake.wait_ready(), 30)
        await api.wait_for(lambda: bool(api.sent("getUpdates")), within=20, what="polling")
        err = await answered_then_stopped(process, api, group, alice)
    assert process.returncode == 0, err.decode()
    assert b"Traceback" not in err, err.decode()


async def test_discord_out_of_reach_leaves_telegram_served_and_says_so(tmp_path: Path) -> None:
    """Discord unreachable at start-up: Telegram goes on (commands, deadlines), one clear line.

    Before, the process logged "cannot reach Discord: …" and exited with status 1 within a
    second, having answered nothing on Telegram and fired none of its overdue deadlines; under
    a supervisor that restarts it, Telegram's groups saw a bot that never answered and whose
    turns never timed out until Discord was back.
    """
    game_id = await overdue_game(tmp_path / "both.sqlite3", TG_GROUP, TG_ALICE)
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
            except BaseException:
                process.kill()
                await process.wait()
                raise
            err = await answered_then_stopped(process, api, group, alice)
    text = err.decode()
    assert "cannot reach Discord" in text
    assert "Telegram" in text.split("cannot reach Discord", 1)[1].splitlines()[0]
    assert "Traceback" not in text

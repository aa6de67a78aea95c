"""What the tests of both platforms in one process share: the two fakes and an overdue game."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bot.adapters.platforms import serve_platforms
from bot.config import Settings
from bot.service import ChatRef, Service, UserRef
from storage import Database
from tests.support import load_module

TESTS = Path(__file__).resolve().parents[1]
fake_discord = load_module("fake_discord", TESTS / "discord" / "fake_discord.py")
fake_bot_api = load_module("fake_bot_api", TESTS / "telegram" / "fake_bot_api.py")


async def overdue_game(path: Path, chat: ChatRef, user: UserRef) -> int:
    """Store a Webfeud game against a bot whose first turn ran out days ago; return its id."""
    long_ago = datetime.now(UTC) - timedelta(days=7)
    db = await Database.open(str(path))
    try:
        service = Service(db, clock=lambda: long_ago, render=False)
        replies = await service.handle(chat, user, "/new webfeud bot=easy")
        return next(r.event["game_id"] for r in replies if r.kind == "game_started")
    finally:
        await db.close()


def both_settings(path: Path, discord: Any, api: Any, base_url: str) -> Settings:
    """Return the settings of one process serving both fakes over the database at `path`."""
    return Settings(
        db_path=str(path),
        discord_token="fake-token",
        discord_dev_guild_id=discord.guild_id,
        telegram_token=api.token,
        telegram_api_base_url=base_url,
    )


@contextlib.asynccontextmanager
async def serving(settings: Settings) -> AsyncIterator[None]:
    """Serve both platforms in this process until the block ends; enter once they are ready."""
    stop, ready = asyncio.Event(), asyncio.Event()
    task = asyncio.create_task(serve_platforms(settings, stop=stop, ready=ready))
    try:
        await asyncio.wait_for(ready.wait(), 20)
        yield
    finally:
        stop.set()
        await asyncio.wait_for(task, 20)

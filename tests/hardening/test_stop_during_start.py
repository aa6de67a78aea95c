"""A stop (SIGTERM) while the Telegram bot still sends what fell due while it was down.

After a long outage the first pass of the dispatcher can take minutes under the rate limits (a
group answering 429 for long); a supervisor's stop timeout (systemd: 90 s) would kill the
process in the middle of it, its database never closed cleanly.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from datetime import timedelta
from pathlib import Path
from typing import Any

from hardening_kit import eventually, telegram_fixtures
from telegram.ext import BaseRateLimiter

from bot.adapters.telegram_bot import serve_telegram
from bot.config import Settings
from bot.service import ChatRef, Service, UserRef, utcnow
from storage import Database

GROUP = -100990


class GroupsHeld(BaseRateLimiter[None]):
    """Hold every message to a group until `release` (a group that answers 429 for minutes)."""

    def __init__(self) -> None:
        self.held = 0
        self.release = asyncio.Event()

    async def initialize(self) -> None:
        return None

    async def shutdown(self) -> None:
        return None

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, Any]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: None,
    ) -> Any:
        chat = data.get("chat_id")
        if endpoint.startswith("send") and chat is not None and int(chat) < 0:
            self.held += 1
            await self.release.wait()
        return await callback(*args, **kwargs)


async def test_a_stop_during_the_start_up_burst_is_heeded(tmp_path: Path) -> None:
    """An overdue timeout's news is held by the group's limit; SIGTERM: the bot stops all the same.

    Before, `serve_telegram` sent every overdue deadline's news before it looked at its stop
    event, so the stop waited for the whole burst.
    """
    path = tmp_path / "feud.sqlite3"
    long_ago = utcnow() - timedelta(days=7)
    db = await Database.open(str(path))
    try:
        service = Service(db, clock=lambda: long_ago, render=False)
        chat = ChatRef("telegram", str(GROUP), "Feud club")
        await service.handle(chat, UserRef("telegram", "501", "alice"), "/new webfeud bot=easy")
    finally:
        await db.close()
    fixtures = telegram_fixtures()
    api = fixtures.fake_bot_api.FakeBotAPI()
    api.group(GROUP, "Feud club")
    limiter = GroupsHeld()
    stop, ready = asyncio.Event(), asyncio.Event()
    task = asyncio.create_task(
        serve_telegram(
            Settings(db_path=str(path), telegram_token=api.token),
            stop=stop,
            ready=ready,
            request=fixtures.RecordingRequest(api),
            get_updates_request=fixtures.RecordingRequest(api),
            rate_limiter=limiter,
            poll_timeout=1,
        )
    )
    try:
        await eventually(lambda: limiter.held > 0, "the timeout's news held by the group's limit")
        assert not ready.is_set()  # still in the start-up pass
        stop.set()
        await asyncio.wait_for(task, 30)  # the drain cuts off what is still held
    finally:
        limiter.release.set()
        if not task.done():
            await asyncio.wait_for(task, 30)

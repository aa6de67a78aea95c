"""Run Discord and Telegram in one process over one database, service and deadline dispatcher.

```python
run_platforms(settings)          # both tokens set: `feudbot run` lands here
```

The two adapters never import each other; this module is the only place that knows both. The
Telegram front end starts first (polling or webhook), then the Discord bot, whose deadline
dispatcher starts once it has logged in and hands every reply to both platforms: each adapter
sends only the replies addressed to its own chats and users.

Discord out of reach, refusing the token or closing the gateway for good does not take Telegram
down with it: Telegram goes on alone, with a dispatcher of its own games' deadlines, and one
line in the log says so; Discord out of reach is tried again every `DISCORD_RETRY` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from telegram.error import InvalidToken, NetworkError

from bot.adapters.discord_bot import (
    DISCORD_DOWN,
    discord_failure,
    may_come_back,
    run_discord,
    run_foreground,
)
from bot.adapters.telegram_bot import PLATFORM as TELEGRAM
from bot.adapters.telegram_bot import (
    TelegramFrontEnd,
    dispatching,
    start_failure,
    telegram_running,
)
from bot.config import Settings
from bot.service import Service

log = logging.getLogger(__name__)

DISCORD_RETRY = 300.0  # seconds between tries to reach Discord while Telegram goes on alone


async def serve_platforms(
    settings: Settings,
    *,
    stop: asyncio.Event | None = None,
    ready: asyncio.Event | None = None,
    discord_retry: float = DISCORD_RETRY,
) -> None:
    """Serve both platforms until `stop` is set; Telegram alone while Discord cannot be served.

    `discord_retry`: the seconds between tries to reach Discord meanwhile.
    """
    from storage import Database

    stop = stop or asyncio.Event()
    db = await Database.open(settings.db_path)
    try:
        service = Service(db, allow_seed=settings.allow_seed, reminders=settings.reminders)
        async with telegram_running(settings, service) as telegram:
            while not stop.is_set():
                try:
                    await run_discord(
                        settings,
                        service=service,
                        also_send=telegram.send_replies,
                        also_platform=TELEGRAM,
                        stop=stop,
                        ready=ready,
                    )
                    return
                except DISCORD_DOWN as error:
                    again = may_come_back(error)
                    log.error(
                        "%s; Telegram goes on alone in this process, %s",
                        discord_failure(error),
                        f"and Discord is tried again in {discord_retry:g} seconds"
                        if again
                        else "until the Discord setting is mended and feudbot restarted",
                    )
                    await _telegram_alone(
                        service, telegram, stop, ready, discord_retry if again else None
                    )
    finally:
        await db.close()


async def _telegram_alone(
    service: Service,
    telegram: TelegramFrontEnd,
    stop: asyncio.Event,
    ready: asyncio.Event | None,
    retry_in: float | None,
) -> None:
    """Fire Telegram's deadlines until `stop` is set, or for `retry_in` seconds at most."""
    until = asyncio.Event()

    async def watch() -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), retry_in)
        until.set()

    watcher = asyncio.create_task(watch())
    try:
        await dispatching(service, telegram, until, ready)
    finally:
        watcher.cancel()


def run_platforms(settings: Settings) -> int:
    """Run both bots in the foreground until SIGINT or SIGTERM; return the exit status."""
    if not logging.getLogger().handlers:
        logging.basicConfig(
            level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
        )
    logging.getLogger("httpx").setLevel(logging.WARNING)
    try:
        return run_foreground(lambda stop: serve_platforms(settings, stop=stop))
    except (InvalidToken, NetworkError, OSError) as error:  # Telegram's (Discord's: inside)
        log.error("%s", start_failure(error))
        return 1

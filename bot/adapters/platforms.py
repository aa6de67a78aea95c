"""Run Discord and Telegram in one process over one database and service.

```python
run_platforms(settings)          # both tokens set: `feudbot run` lands here
```

The two adapters never import each other; this module is the only place that knows both. The
Telegram front end starts first (polling or webhook), with the deadline dispatcher of its own
games, which fires at once whatever fell due while the process was down; then the Discord bot,
whose own dispatcher fires Discord's deadlines from its READY on. Neither waits for the other:
Telegram's reminders do not wait for Discord's command sync (which a rate limit can make
long), and Discord's news is not posted before the bot knows its servers (a post refused then
would look like a server that removed it). Each adapter's dispatcher sends only its news.

Discord out of reach, refusing the token or closing the gateway for good does not take Telegram
down with it: Telegram goes on alone, and one line in the log says so; Discord out of reach is
tried again every `DISCORD_RETRY` seconds.
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
from bot.adapters.telegram_bot import dispatching, start_failure, telegram_running
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

    `ready`: set once Telegram's overdue deadlines have fired and Discord is connected (or
    found out of reach). `discord_retry`: the seconds between tries to reach Discord meanwhile.
    """
    from storage import Database

    stop = stop or asyncio.Event()
    db = await Database.open(settings.db_path)
    try:
        service = Service(db, allow_seed=settings.allow_seed, reminders=settings.reminders)
        async with telegram_running(settings, service) as telegram:
            telegram_ready, discord_tried = asyncio.Event(), asyncio.Event()
            ending = asyncio.Event()  # Discord served to the end: Telegram's dispatcher stops
            deadlines = asyncio.create_task(
                dispatching(service, telegram, ending, telegram_ready), name="feudbot-telegram"
            )
            both = asyncio.create_task(_both_ready(telegram_ready, discord_tried, ready))
            try:
                await _serve_discord(settings, service, stop, discord_tried, discord_retry)
            finally:
                ending.set()
                both.cancel()
                await deadlines
    finally:
        await db.close()


async def _serve_discord(
    settings: Settings,
    service: Service,
    stop: asyncio.Event,
    tried: asyncio.Event,
    retry_in: float,
) -> None:
    """Serve Discord until `stop` is set; out of reach, try again every `retry_in` seconds.

    `tried` is set once Discord is connected, or found out of reach.
    """
    while not stop.is_set():
        try:
            await run_discord(settings, service=service, stop=stop, ready=tried)
            return
        except DISCORD_DOWN as error:
            again = may_come_back(error)
            log.error(
                "%s; Telegram goes on alone in this process, %s",
                discord_failure(error),
                f"and Discord is tried again in {retry_in:g} seconds"
                if again
                else "until the Discord setting is mended and feudbot restarted",
            )
            tried.set()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), retry_in if again else None)


async def _both_ready(
    telegram: asyncio.Event, discord: asyncio.Event, ready: asyncio.Event | None
) -> None:
    await telegram.wait()
    await discord.wait()
    if ready is not None:
        ready.set()


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

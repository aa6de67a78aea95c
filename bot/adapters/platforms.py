"""Run Discord and Telegram in one process over one database, service and deadline dispatcher.

```python
run_platforms(settings)          # both tokens set: `feudbot run` lands here
```

The two adapters never import each other; this module is the only place that knows both. The
Telegram front end starts first (polling or webhook), then the Discord bot, whose deadline
dispatcher starts once it has logged in and hands every reply to both platforms: each adapter
sends only the replies addressed to its own chats and users.
"""

from __future__ import annotations

import asyncio
import logging

from telegram.error import InvalidToken, NetworkError

from bot.adapters.discord_bot import run_discord, run_foreground
from bot.adapters.telegram_bot import PLATFORM as TELEGRAM
from bot.adapters.telegram_bot import start_failure, telegram_running
from bot.config import Settings
from bot.service import Service


async def serve_platforms(
    settings: Settings,
    *,
    stop: asyncio.Event | None = None,
    ready: asyncio.Event | None = None,
) -> None:
    """Serve both platforms until `stop` is set (or Discord ends the connection)."""
    from storage import Database

    db = await Database.open(settings.db_path)
    try:
        service = Service(db, allow_seed=settings.allow_seed, reminders=settings.reminders)
        async with telegram_running(settings, service) as telegram:
            await run_discord(
                settings,
                service=service,
                also_send=telegram.send_replies,
                also_platform=TELEGRAM,
                stop=stop,
                ready=ready,
            )
    finally:
        await db.close()


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
        logging.getLogger(__name__).error("%s", start_failure(error))
        return 1

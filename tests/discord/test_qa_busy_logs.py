"""QA (a busy bot in production for months): the log of a normal day on Discord.

Channels lose the bot's Send Messages and get deleted; the bot handles both (news by DM, the
games cancelled). Such a refusal is a situation the bot expects and mends: one WARNING line
says what happened, never an ERROR with a traceback per message, which would bury the real
errors under the reminders of every muted channel.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

import pytest
from discord_harness import clocked

LOGGER = "bot.adapters.discord_bot"


def tracebacks(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        f"{r.levelname} {r.getMessage()}"
        for r in caplog.records
        if r.levelno >= logging.ERROR or r.exc_info
    ]


async def test_news_for_a_channel_that_muted_the_bot_logs_no_traceback(fake, db, caplog):
    """No Send Messages in #games: a reminder's mention and a timeout's news go by DM, quietly.

    Before, each refused post logged "could not send … reply of game …" at ERROR with a
    traceback (and "could not mention user …" for each reminder).
    """
    async with clocked(fake, db) as (h, start):
        await h.slash(h.alice, "notify", dm=True)
        await h.slash(h.alice, "new", game="webfeud", player=str(h.bob))
        fake.no_send.add(fake.channel_id)
        assert h.bot is not None
        assert h.bot.dispatcher is not None
        with caplog.at_level(logging.INFO, logger=LOGGER):
            fired = await h.bot.dispatcher.run_due(now=start + timedelta(hours=72, seconds=5))
        assert "timeout" in [r.kind for r in fired]
        assert fake.dms_to(h.alice)  # the news went by DM, as before
        assert tracebacks(caplog) == []
        assert any(
            r.levelno == logging.WARNING and str(fake.channel_id) in r.getMessage()
            for r in caplog.records
        ), caplog.text


async def test_a_reminder_to_a_channel_deleted_unseen_logs_no_traceback(fake, db, caplog):
    """A channel deleted while the bot was down: its games are cancelled, told in one warning."""
    async with clocked(fake, db) as (h, start):
        await h.slash(h.alice, "new", game="webfeud", player=str(h.bob))
        await fake.delete_channel(fake.channel_id, tell=False)
        assert h.bot is not None
        assert h.bot.dispatcher is not None
        with caplog.at_level(logging.INFO, logger=LOGGER):
            await h.bot.dispatcher.run_due(now=start + timedelta(hours=48, seconds=1))
        row = await db.games.get_game(1)
        assert row is not None
        assert row.status == "cancelled"
        assert tracebacks(caplog) == []


async def test_discord_out_of_reach_while_running_is_one_warning_a_try(fake, harness, caplog):
    """Discord gone mid-run: each try to reconnect is one WARNING line saying what failed.

    Before, discord.py logged every try as "Attempting a reconnect in 1.03s" at ERROR with a
    traceback of some thirty lines (every few seconds, for as long as Discord was away).
    """
    with caplog.at_level(logging.INFO, logger="discord"):
        await fake.stop()  # the gateway closes; nothing listens on its port any more
        for _ in range(600):
            tries = [r for r in caplog.records if "Attempting a reconnect" in r.getMessage()]
            if len(tries) >= 2:
                break
            await asyncio.sleep(0.05)
        await harness.stop()
    assert len(tries) >= 2, caplog.text
    for record in tries:
        assert record.levelname == "WARNING"
        assert record.exc_info is None
        assert "Cannot connect to host 127.0.0.1" in record.getMessage(), record.getMessage()
    assert tracebacks(caplog) == []

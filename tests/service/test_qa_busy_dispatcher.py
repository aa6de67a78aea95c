"""QA (a busy bot in production for months): one chat slow to take its news.

A group whose news is held back — by the platform's limit of 20 messages a minute, a 429 with a
long retry_after, a platform that answers slowly — must not hold back the deadlines that fall
due meanwhile in every other chat: the dispatcher's next pass does not wait for it.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta

from bot.reminders import Dispatcher
from bot.replies import Reply
from bot.service import CONSOLE, ChatRef, Service, UserRef

from .conftest import Clock

HOUR = timedelta(hours=1)


async def new_game(service: Service, chat: str, host: str, guest: str) -> int:
    replies = await service.handle(
        ChatRef(CONSOLE, chat), UserRef(CONSOLE, host, host), f"/new webfeud @{guest} seed=1"
    )
    return next(r.event["game_id"] for r in replies if r.kind == "game_started")


class SlowChatOutbox:
    """Sends at once, except the news of one game, which waits for the gate."""

    def __init__(self, slow_game: int) -> None:
        self.slow_game = slow_game
        self.gate = asyncio.Event()
        self.held = asyncio.Event()
        self.sent: list[Reply] = []

    async def __call__(self, replies) -> None:
        if any(r.event.get("game_id") == self.slow_game for r in replies):
            self.held.set()
            await self.gate.wait()
        self.sent += replies


async def eventually(predicate, what: str) -> None:
    for _ in range(500):
        if predicate():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never: {what}")


async def test_a_chat_slow_to_take_its_news_holds_back_no_deadline_due_later(
    service: Service, clock: Clock
) -> None:
    """Game 1's reminder is held by its chat; game 2's, due an hour later elsewhere, goes out.

    Before, the dispatcher's loop waited for every send of a pass before it looked for the
    next deadlines: one group stuck behind a 429 (retry_after 30 s, three retries: 2 minutes a
    message) froze every reminder and timeout of every other chat meanwhile.
    """
    slow = await new_game(service, "slow", "alice", "bob")
    clock.advance(HOUR)
    fast = await new_game(service, "fast", "carol", "dave")
    clock.advance(47 * HOUR + timedelta(seconds=1))  # game 1's 24 h reminder is due
    outbox = SlowChatOutbox(slow)
    dispatcher = Dispatcher(service, outbox)
    dispatcher.start()
    try:
        await asyncio.wait_for(outbox.held.wait(), 5)
        clock.advance(HOUR)  # game 2's 24 h reminder is due too
        await new_game(service, "third", "erin", "frank")  # a move elsewhere wakes the loop
        await eventually(
            lambda: [r.event["game_id"] for r in outbox.sent] == [fast],
            "game 2's reminder sent while game 1's chat holds its own",
        )
        outbox.gate.set()
        await eventually(lambda: len(outbox.sent) == 2, "game 1's reminder sent once let go")
    finally:
        outbox.gate.set()
        await dispatcher.stop()
    assert [(r.kind, r.event["game_id"]) for r in outbox.sent] == [
        ("reminder", fast),
        ("reminder", slow),
    ]

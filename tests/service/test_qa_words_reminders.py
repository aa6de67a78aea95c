"""QA, word-game club players: a reminder says what missing the turn would cost (SmartFeud)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import timedelta

import pytest

from bot.reminders import Dispatcher
from bot.replies import Reply
from bot.service import CONSOLE, ChatRef, Service, UserRef, load_state
from storage import Database
from tests.service.conftest import Clock

HOUR = timedelta(hours=1)


class Outbox:
    def __init__(self) -> None:
        self.sent: list[Reply] = []

    async def __call__(self, replies: list[Reply]) -> None:
        self.sent += replies


@pytest.fixture
def service(db: Database, clock: Clock) -> Service:
    """A service whose one reminder comes an hour before a deadline."""
    return Service(db, clock=clock, render=False, reminders=(HOUR,))


@pytest.fixture
def say(service: Service) -> Callable[[str, str], Awaitable[list[Reply]]]:
    async def send(name: str, text: str) -> list[Reply]:
        return await service.handle(ChatRef(CONSOLE, "room"), UserRef(CONSOLE, name, name), text)

    return send


async def test_the_reminder_before_a_third_timeout_says_it_loses_the_game(
    db, clock, service, say
) -> None:
    """Two players, wait=24h: alice has passed twice in a row, so missing her turn loses.

    Before, the reminder said only "if you miss it, the turn counts as a pass.", though that
    pass is her third in a row: it puts her out and bob wins, whatever the scores (9 to 0).
    """
    await say("alice", "/new smartfeud @bob wait=24h seed=11")
    await say("alice", "/start")
    await say("alice", "/play 8G HIRED")
    await say("bob", "/swap CJ")
    for name in ("alice", "bob", "alice", "bob"):
        await say(name, "/pass")
    dispatcher = Dispatcher(service, Outbox())
    [reminder] = await dispatcher.run_due(clock.advance(23 * HOUR))
    assert reminder.text == (
        "Your turn in game #1 (SmartFeud) runs out in 1 hour; if you miss it, the turn counts as "
        "a pass, which puts you out and ends the game, won by bob."
    )
    await dispatcher.run_due(clock.advance(HOUR))
    state = load_state(await db.games.get_game(1))
    assert state.outcome is not None
    assert (state.outcome.winners, state.scores) == ((1,), (9, 0))  # as she was told


async def test_a_reminder_with_no_pass_at_stake_is_as_before(clock, service, say) -> None:
    """A first pass in a row puts nobody out: the reminder adds nothing; Webfeud's neither."""
    await say("alice", "/new smartfeud @bob wait=24h seed=11")
    await say("alice", "/start")
    await say("alice", "/play 8G HIRED")
    dispatcher = Dispatcher(service, Outbox())
    [reminder] = await dispatcher.run_due(clock.advance(23 * HOUR))
    assert reminder.text == (
        "Your turn in game #1 (SmartFeud) runs out in 1 hour; if you miss it, the turn counts as "
        "a pass."
    )
    await say("alice", "/new webfeud @bob seed=7")
    reminders = await dispatcher.run_due(clock.advance(71 * HOUR))
    assert [r.text for r in reminders if "Webfeud" in r.text] == [
        "Your turn in game #2 (Webfeud) runs out in 1 hour; if you miss it, you lose the game."
    ]

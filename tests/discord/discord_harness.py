"""The test harness: a fake Discord, a database, and the real bot started and restarted on them."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from datetime import datetime, timedelta
from typing import Any

from fake_discord import FakeDiscord, Interaction, Message

from bot.adapters.discord_bot import HANDLED_EVENT, FeudBot
from bot.service import Service, utcnow
from storage import Database


class Harness:
    """One fake Discord, one database, and a bot that can be started, stopped and restarted."""

    def __init__(self, fake: FakeDiscord, db: Database, *, dev_guild: bool = True) -> None:
        self.fake = fake
        self.db = db
        self.dev_guild = dev_guild
        self.bot: FeudBot | None = None
        self._task: asyncio.Task[None] | None = None
        self.clock: Any = None
        self.racks: list = []  # every rack reply the service produced
        self.alice = fake.add_user("alice")
        self.bob = fake.add_user("bob")
        self.carol = fake.add_user("carol", manage_guild=True)

    def service(self) -> Service:
        """Return a fresh service whose rack replies are recorded (see `assert_racks_private`)."""
        kwargs: dict[str, Any] = {"allow_seed": True}
        if self.clock is not None:
            kwargs["clock"] = self.clock
        service = Service(self.db, **kwargs)
        execute, on_deadline = service.execute, service.on_deadline

        async def spy_execute(*args: Any, **kw: Any) -> list:
            return self._record(await execute(*args, **kw))

        async def spy_deadline(*args: Any, **kw: Any) -> list:
            return self._record(await on_deadline(*args, **kw))

        service.execute = spy_execute  # type: ignore[method-assign]
        service.on_deadline = spy_deadline  # type: ignore[method-assign]
        return service

    def _record(self, replies: list) -> list:
        for reply in replies:
            if reply.kind == "rack":
                self.racks.append(reply)
        return replies

    def assert_racks_private(self) -> None:
        """No rack the service produced ever reached a message the whole channel can see."""
        for msg in self.fake.public_messages():
            for rack in self.racks:
                assert rack.text not in msg.text, (rack.text, msg.text)
                names = {getattr(image, "name", "") for image in rack.images}
                assert not names & {a.filename for a in msg.attachments}, msg.attachments

    async def start(self, **options: Any) -> FeudBot:
        """Start a fresh bot process-alike (new service, new client) and wait until ready."""
        bot = FeudBot(
            self.service(),
            dev_guild_id=self.fake.guild_id if self.dev_guild else None,
            guild_ready_timeout=0.01,
            **options,
        )
        self.bot = bot
        self._task = asyncio.create_task(bot.start("fake-token"))
        ready = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait({ready, self._task}, timeout=15, return_when="FIRST_COMPLETED")
        if self._task in done:
            ready.cancel()
            self._task.result()  # raises what went wrong
        assert ready in done, "the bot did not become ready"
        return bot

    async def stop(self) -> None:
        """Close the bot as a shutdown would."""
        if self.bot is not None:
            await self.bot.close()
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait_for(self._task, 10)
        self.bot, self._task = None, None

    async def restart(self) -> FeudBot:
        """Stop the bot and start a new one on the same database."""
        await self.stop()
        return await self.start()

    async def _run(self, inter: Interaction) -> Interaction:
        assert self.bot is not None
        waiter = asyncio.ensure_future(
            self.bot.wait_for(HANDLED_EVENT, check=lambda i: i.id == inter.id, timeout=15)
        )
        await asyncio.sleep(0)  # let wait_for register before the interaction arrives
        await self.fake.send(inter)
        await waiter
        return inter

    async def slash(self, user: int, name: str, **options: Any) -> Interaction:
        """Run a slash command and wait until the bot has fully answered it."""
        return await self._run(self.fake.build_slash(user, name, **options))

    async def click(self, user: int, message: Message, custom_id: str) -> Interaction:
        """Click a button and wait until the bot has fully answered."""
        return await self._run(self.fake.build_click(user, message, custom_id))

    async def pass_turn(self, user: int, message: Message) -> Interaction:
        """Click Pass under `message`, then "Yes, pass" in the private question; return that click.

        A Pass refused at once (not `user`'s turn) asks nothing: that click is returned.
        """
        inter = await self.click(user, message, message.button("fb:pass:"))
        asked = [
            m
            for m in self.replies(inter)
            if any(c.startswith("fb:passok:") for c in m.custom_ids())
        ]
        if not asked:
            return inter
        [question] = asked
        assert question.ephemeral
        return await self.click(user, question, question.button("fb:passok:"))

    async def autocomplete(self, user: int, name: str, focused: str, **options: Any) -> list:
        """Ask for autocomplete choices; return them."""
        inter = self.fake.build_autocomplete(user, name, focused, **options)
        await self.fake.send(inter)
        await self.fake.wait_answered(inter)
        return inter.choices

    def replies(self, inter: Interaction) -> list[Message]:
        """Return the messages that answer an interaction."""
        return self.fake.replies_to(inter)


class FixedClock:
    """A settable UTC clock."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@contextlib.asynccontextmanager
async def clocked(fake: FakeDiscord, db: Database) -> AsyncIterator[tuple[Harness, datetime]]:
    """Run the bot on a fixed clock (the dispatcher is driven by hand); no reply comes late."""
    h = Harness(fake, db)
    start = utcnow()
    h.clock = FixedClock(start)
    await h.start()
    try:
        yield h, start
    finally:
        await h.stop()
    assert fake.late == []


async def assert_cancelled_for_good(h: Harness, db: Database, start: datetime) -> None:
    """Game #1 is cancelled: no deadline left, and nine days on it has counted for nobody."""
    row = await db.games.get_game(1)
    assert row is not None
    assert row.status == "cancelled"
    assert await db.deadlines.pending_deadlines(1) == []
    assert h.bot is not None
    assert h.bot.dispatcher is not None
    await h.bot.dispatcher.run_due(now=start + timedelta(days=9))
    assert await db.results.leaderboard(chat_id=None, game_key=None, limit=10) == []

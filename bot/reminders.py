"""The durable deadline dispatcher (RoboDanny's reminder cog, see STYLE.md §6).

Deadlines are rows written in the same transaction as the move that creates them. One task
sleeps until the earliest pending one, is woken early when a commit inserts an earlier one
(`Database.add_deadline_listener` sets an `asyncio.Event`), claims each due deadline atomically
(`claim_deadline`: exactly one caller wins, so each fires once) and hands it to
`Service.on_deadline`, whose handlers are idempotent (a timeout applies only if the game's turn
still matches); only then is the deadline done. Overdue deadlines fire at start-up. A handler
that raises (a bug, a locked database) is logged and its deadline re-queued a few times with a
growing delay, so one bad game neither stops the others nor silently loses its timeout. Each
handler runs as a task of its own that a stop lets finish (within `drain`) and tell; one cut off
at the end of the drain puts its deadline back, and a claim whose process died is put back
after `LEASE` (only the claim that was taken back: a late finish by its first firer changes
nothing): every deadline fires at least once. A process fires only the deadlines of the
platforms it serves (`platforms`): another platform's news would have nowhere to go. The clock
is injectable; tests drive `run_due(now)` directly.

```python
dispatcher = Dispatcher(service, send=adapter.send_replies)
dispatcher.start()            # background task
...
await dispatcher.stop()
```
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from datetime import datetime, timedelta
from typing import Any, TypeVar

from bot.replies import ChatTarget, Reply, UserTarget
from bot.service import DeadlineHeld, Service
from storage.models import Deadline

log = logging.getLogger(__name__)

Send = Callable[[Sequence[Reply]], Awaitable[None]]
T = TypeVar("T")

# asyncio sleeps are capped so a clock jump (suspend, NTP) is noticed within this long.
MAX_SLEEP = timedelta(minutes=10)
BATCH = 100
# A handler that raises puts its deadline back after 1, 2, 4, 8 minutes, then gives up (logged).
RETRY_DELAY = timedelta(minutes=1)
MAX_ATTEMPTS = 5
# On stop, news already claimed and being sent gets this long to go out before it is cut off.
DRAIN = timedelta(seconds=10)
# A claim older than this belongs to a process that died while firing it: it goes back.
LEASE = timedelta(minutes=10)
# Deadlines done or cancelled are deleted once they are this old (nothing reads them), and the
# notices and kept chat messages of games ended this long ago (a finished game's Telegram board
# stays: a reply to it names the game), checked at the first `run_due` and then once every
# `PRUNE_EVERY`.
KEEP_SETTLED = timedelta(days=30)
PRUNE_EVERY = timedelta(days=1)


def _where(replies: Sequence[Reply]) -> int | UserTarget:
    """Return the chat a deadline's news is about: its game's chat, else the one person told.

    A reminder is addressed to its player, yet a platform may fall back to mentioning them in
    the game's group, so it queues with that group's other news (the event names the chat).
    """
    for reply in replies:
        if isinstance(reply.to, ChatTarget):
            return reply.to.chat_id
    chat = replies[0].event.get("chat_id")
    if chat is not None:
        return int(chat)
    person = replies[0].to
    assert isinstance(person, UserTarget)
    return person


class Dispatcher:
    """Fire stored deadlines when they fall due, each exactly once."""

    def __init__(
        self,
        service: Service,
        send: Send,
        *,
        clock: Callable[[], datetime] | None = None,
        drain: timedelta = DRAIN,
        platforms: Sequence[str] | None = None,
    ) -> None:
        """Bind the dispatcher to a service and to the adapter's `send(replies)`.

        `drain`: how long `stop` lets news already being sent go on before cutting it off.
        `platforms`: the chat platforms whose deadlines (and bots) this process serves, so
        that another process on the same database keeps its own (None: all).
        """
        self.service = service
        self.db = service.db
        self.send = send
        self.clock = clock or service.clock
        self.drain = drain
        self.platforms = tuple(platforms) if platforms is not None else None
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._sending: set[asyncio.Task[Any]] = set()  # handlers and news that stop() drains
        self._pruned: datetime | None = None  # when the settled deadlines were last deleted
        # Per chat, its news being sent: a later pass's news for that chat waits for it.
        self._queues: dict[int | UserTarget, asyncio.Task[None]] = {}

    def _on_deadline_added(self, due_at: datetime) -> None:
        # Any new deadline may be earlier than the one we sleep on: recompute.
        self._wake.set()

    async def run_due(self, now: datetime | None = None) -> list[Reply]:
        """Fire every deadline due at `now` (default: the clock); return and send the replies.

        Returns once the news is sent; the loop (`run`) does not wait for it: see `_pass`.
        """
        return await self._pass(now, wait=True)

    async def _pass(self, now: datetime | None, *, wait: bool) -> list[Reply]:
        """Fire every deadline due at `now`; send their news, waiting for it when `wait`.

        Each handler runs as a task of its own, shielded: a stop (the loop cancelled) lets the
        handler that is running finish within `drain`, and its news goes out after the news of
        the deadlines fired before it (sent on its own, so a handler cut off at the end of the
        drain does not take it along) — a timeout stored but never told would be lost for
        good, since firing it again finds its turn gone. Each chat's news is queued behind the
        news of that chat from earlier passes (`_queues`), so a pass that does not wait keeps
        each chat's order while a chat held back by its platform holds back no other.
        """
        moment = now or self.clock()
        if self._pruned is None or moment - self._pruned >= PRUNE_EVERY:
            self._pruned = moment
            if gone := await self.db.deadlines.prune_settled(moment - KEEP_SETTLED):
                log.info("%d settled deadline(s) older than %s deleted", gone, KEEP_SETTLED)
            if gone := await self.db.notices.prune_ended(moment - KEEP_SETTLED):
                log.info("%d notice(s) of games ended over %s ago deleted", gone, KEEP_SETTLED)
            if gone := await self.db.messages.prune_ended(moment - KEEP_SETTLED):
                log.info("%d message(s) of games ended over %s ago forgotten", gone, KEEP_SETTLED)
        fired: list[Reply] = []
        outbox: dict[int | UserTarget, list[list[Reply]]] = {}  # news per chat, in order
        running: asyncio.Task[list[Reply]] | None = None
        if back := await self.db.deadlines.reclaim_stale(moment, LEASE, platforms=self.platforms):
            log.warning("%d deadline(s) claimed by a stopped process fire again", back)
        try:
            while True:
                due = await self.db.deadlines.due_deadlines(
                    moment, limit=BATCH, platforms=self.platforms
                )
                if not due:
                    break
                for deadline in due:
                    running = self._track(self._fire(deadline, moment))
                    replies = await asyncio.shield(running)
                    running = None
                    if replies:
                        fired += replies
                        outbox.setdefault(_where(replies), []).append(replies)
                if len(due) < BATCH:
                    break
        finally:
            # Each chat's news goes out in order, but chats do not wait for each other: one
            # chat held back by its platform's rate limit must not delay every other chat's
            # reminders. The deadlines are done already, so the sending is shielded: stopping
            # the loop (even in the middle of the batch) lets it finish within `drain` rather
            # than drop the news of what was fired, or a reminder's DM after its group post.
            sending = self._send_all(outbox) if outbox else None
            late = self._track(self._send_late(running, sending)) if running is not None else None
        for work in (sending, late):
            if work is not None and wait:
                await asyncio.shield(work)
        return fired

    async def _send_late(
        self, running: asyncio.Task[list[Reply]], before: asyncio.Task[None] | None
    ) -> None:
        """Send the news of a handler still at work when the loop stopped, after the rest."""
        try:
            replies = await running
        except Exception:  # (its handler's failure is logged and its deadline put back)
            return
        if not replies:
            return
        if before is not None:
            await asyncio.wait([before])
        try:
            await self.send(replies)
        except Exception:
            log.exception("sending deadline news failed")

    async def _fire(self, deadline: Deadline, moment: datetime) -> list[Reply]:
        """Claim a deadline and run its handler; mark it done, or put it back to fire again."""
        claimed = self.clock()
        try:
            if not await self.db.deadlines.claim_deadline(deadline.id, claimed):
                return []  # another dispatcher (or an earlier pass) fired it
        except BaseException:  # cut off while the claim was committing: undo it if it was
            await asyncio.shield(self.db.deadlines.release_deadline(deadline.id, claimed))
            raise
        try:
            replies = await self.service.on_deadline(deadline)
        except DeadlineHeld:  # the bot left its chat since the claim: held, it waits there
            await self.db.deadlines.release_deadline(deadline.id, claimed)
            return []
        except asyncio.CancelledError:
            if _cancelling():  # cut off at the end of the drain
                await asyncio.shield(self.db.deadlines.release_deadline(deadline.id, claimed))
                raise
            log.error("deadline %d: handler raised CancelledError", deadline.id)  # not a stop
            await self._retry_later(deadline, claimed, moment)
            return []
        except Exception:
            await self._retry_later(deadline, claimed, moment)
            return []
        except BaseException:
            await asyncio.shield(self.db.deadlines.release_deadline(deadline.id, claimed))
            raise
        try:
            if not await self.db.deadlines.finish_deadline(deadline.id, claimed):
                log.warning(
                    "deadline %d was taken back while it fired (over %s)", deadline.id, LEASE
                )
        except Exception:  # its work is stored: tell it; the claim comes back after LEASE
            log.exception("deadline %d ran but could not be marked done", deadline.id)
        return replies

    def _track(self, work: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
        """Run `work` as a task that `stop` lets finish within `drain`."""
        task = asyncio.create_task(work)
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)
        return task

    def _send_all(self, outbox: dict[int | UserTarget, list[list[Reply]]]) -> asyncio.Task[None]:
        """Queue the news per chat, each behind its chat's earlier news; return the whole."""
        return self._track(
            self._all_sent([self._queue(where, news) for where, news in outbox.items()])
        )

    def _queue(
        self, where: int | UserTarget, news: Sequence[Sequence[Reply]]
    ) -> asyncio.Task[None]:
        """Send a chat's news after the news of that chat still being sent (an earlier pass's)."""
        sending = self._track(self._send_in_order(self._queues.get(where), news))
        self._queues[where] = sending

        def forget(done: asyncio.Task[None]) -> None:
            if self._queues.get(where) is done:
                del self._queues[where]

        sending.add_done_callback(forget)
        return sending

    @staticmethod
    async def _all_sent(sending: Sequence[asyncio.Task[None]]) -> None:
        await asyncio.wait(sending)

    async def _send_in_order(
        self, before: asyncio.Task[None] | None, news: Sequence[Sequence[Reply]]
    ) -> None:
        if before is not None:
            await asyncio.wait([before])
        try:
            for replies in news:
                await self.send(replies)
        except Exception:
            log.exception("sending deadline news failed")

    async def _retry_later(self, deadline: Deadline, claimed: datetime, now: datetime) -> None:
        """A handler failed: log it and put the deadline back, later, a few times at most."""
        attempts = int(deadline.payload.get("attempts", 0)) + 1
        if attempts >= MAX_ATTEMPTS:
            log.exception(
                "deadline %d (%s) failed %d times; giving up", deadline.id, deadline.kind, attempts
            )
            await self.db.deadlines.finish_deadline(deadline.id, claimed)
            return
        delay = RETRY_DELAY * 2 ** (attempts - 1)
        log.exception("deadline %d (%s) failed; retrying in %s", deadline.id, deadline.kind, delay)
        await self.db.deadlines.retry_deadline(deadline.id, now + delay, claimed)

    async def run(self) -> None:
        """Loop for ever: fire what is due, then sleep until the next deadline or a wake-up.

        First, and on every pass after that, bots that owe a move make it: at start-up in every
        active game (the process may have stopped between a person's move and the bot's
        answer), later in the games whose bots failed to move (`Service.resume_bots`).
        """
        self.db.add_deadline_listener(self._on_deadline_added)
        stalled_only = False
        try:
            while True:
                self._wake.clear()
                try:
                    if not stalled_only or self.service.bots_stalled:
                        moved = await self.service.resume_bots(
                            stalled_only=stalled_only, platforms=self.platforms
                        )
                        if moved:
                            await self.send(moved)
                    stalled_only = True
                    # Not waiting for the news: a chat held back by its platform (its limit of
                    # messages a minute, a 429) must not hold back what falls due elsewhere.
                    await self._pass(None, wait=False)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("firing deadlines failed; retrying after a pause")
                    await asyncio.sleep(5)
                    continue
                await self._sleep()
        finally:
            self.db.remove_deadline_listener(self._on_deadline_added)

    async def _sleep(self) -> None:
        next_due = await self.db.deadlines.next_due_at(platforms=self.platforms)
        delay = RETRY_DELAY if self.service.bots_stalled else MAX_SLEEP
        if next_due is not None:  # (a stalled bot's retry keeps its shorter wait)
            delay = min(delay, max(timedelta(0), next_due - self.clock()))
        if delay <= timedelta(0):
            return
        # asyncio.timeout, not wait_for: 3.11's wait_for can swallow a cancellation (stop()).
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(delay.total_seconds()):
                await self._wake.wait()

    def start(self) -> asyncio.Task[None]:
        """Start the background task (once)."""
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self.run(), name="feudbot-deadlines")
        return self._task

    async def stop(self) -> None:
        """Cancel the background task; let the handler and news under way finish within `drain`."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:  # the loop's, as asked; not our caller's own
                if _cancelling():
                    raise
        if self._sending:
            _, late = await asyncio.wait(set(self._sending), timeout=self.drain.total_seconds())
            for sending in late:
                log.warning("deadline news still sending after %s; cut off", self.drain)
                sending.cancel()
            await asyncio.gather(*late, return_exceptions=True)


def _cancelling() -> bool:
    """Return whether the running task itself was asked to stop (not only what it awaited)."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0

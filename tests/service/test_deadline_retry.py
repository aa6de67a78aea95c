"""A deadline whose handler fails is not lost: it is re-queued with a growing delay, then fires."""

from __future__ import annotations

import sqlite3
from datetime import timedelta

from bot.reminders import MAX_ATTEMPTS, RETRY_DELAY, Dispatcher
from bot.service import CONSOLE, ChatRef, Service, UserRef

HOUR = timedelta(hours=1)


async def discard(replies) -> None:
    return None


async def test_a_failing_timeout_is_retried_until_it_applies(service: Service, clock, db, db_path):
    """A game whose snapshot cannot be read: its timeout waits, and applies once it is readable."""
    replies = await service.handle(
        ChatRef(CONSOLE, "room"), UserRef(CONSOLE, "alice", "alice"), "/new webfeud @bob seed=9"
    )
    game_id = next(r.event["game_id"] for r in replies if r.kind == "game_started")
    dispatcher = Dispatcher(service, discard)
    conn = sqlite3.connect(db_path)
    try:
        (good,) = conn.execute("SELECT snapshot FROM games WHERE id = ?", (game_id,)).fetchone()
        with conn:
            conn.execute("UPDATE games SET snapshot = '{\"v\": 999}' WHERE id = ?", (game_id,))
    finally:
        conn.close()
    # 72 h later the timeout falls due, but its handler fails on the unreadable snapshot.
    fired = await dispatcher.run_due(clock.advance(72 * HOUR))
    assert [r.kind for r in fired if r.kind == "timeout"] == []
    [timeout] = [d for d in await db.deadlines.pending_deadlines(game_id) if d.kind == "timeout"]
    assert timeout.payload["attempts"] == 1
    assert timeout.due_at >= clock.now + RETRY_DELAY
    # Still broken at the retry: the delay doubles.
    await dispatcher.run_due(clock.advance(RETRY_DELAY))
    [timeout] = [d for d in await db.deadlines.pending_deadlines(game_id) if d.kind == "timeout"]
    assert timeout.payload["attempts"] == 2
    assert timeout.due_at >= clock.now + 2 * RETRY_DELAY
    # Repaired: the next attempt applies the timeout, once.
    conn = sqlite3.connect(db_path)
    try:
        with conn:
            conn.execute("UPDATE games SET snapshot = ? WHERE id = ?", (good, game_id))
    finally:
        conn.close()
    fired = await dispatcher.run_due(clock.advance(2 * RETRY_DELAY))
    kinds = [r.kind for r in fired]
    assert kinds.count("timeout") == 1
    assert kinds[-1] == "game_over"  # the reminders that failed alongside come first
    assert await dispatcher.run_due(clock.advance(100 * HOUR)) == []


async def test_a_deadline_that_keeps_failing_is_given_up(service: Service, clock, db, db_path):
    """After MAX_ATTEMPTS failures the deadline is done (logged), so nothing loops for ever."""
    replies = await service.handle(
        ChatRef(CONSOLE, "room"), UserRef(CONSOLE, "alice", "alice"), "/new webfeud @bob seed=9"
    )
    game_id = next(r.event["game_id"] for r in replies if r.kind == "game_started")
    conn = sqlite3.connect(db_path)
    try:
        with conn:
            conn.execute("UPDATE games SET snapshot = '{\"v\": 999}' WHERE id = ?", (game_id,))
    finally:
        conn.close()
    dispatcher = Dispatcher(service, discard)
    await dispatcher.run_due(clock.advance(72 * HOUR))
    for _ in range(MAX_ATTEMPTS + 2):  # (well within the 30 days settled deadlines are kept)
        await dispatcher.run_due(clock.advance(24 * HOUR))
    assert [d for d in await db.deadlines.pending_deadlines(game_id) if d.kind == "timeout"] == []
    conn = sqlite3.connect(db_path)
    try:
        (payload, state) = conn.execute(
            "SELECT payload, state FROM deadlines WHERE game_id = ? AND kind = 'timeout'",
            (game_id,),
        ).fetchone()
    finally:
        conn.close()
    assert f'"attempts":{MAX_ATTEMPTS - 1}' in payload.replace(" ", "")
    assert state == "done"  # given up for good: no lease brings it back

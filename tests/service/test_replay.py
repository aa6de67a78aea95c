"""The move log is the truth: replaying it from the initial deal gives back every snapshot."""

from __future__ import annotations

import json
import sqlite3
from datetime import timedelta

from bot.reminders import Dispatcher
from bot.service import Service


async def test_every_stored_game_replays_to_its_snapshot(
    say, service: Service, clock, db_path
) -> None:
    """Games ended by play, passes, resign, timeout, against a bot, or still going: all replay."""
    # A game that has moved a little and goes on.
    await say("alice", "/new webfeud @bob seed=1")
    rack = await say("alice", "/rack")
    await say("alice", "/swap " + "".join(rack[0].event["tiles"][:3]))
    await say("bob", "/pass")
    # A game that ends on passes (three in a row), in another chat.
    await say("carol", "/new webfeud @dan seed=2", chat="c2")
    await say("carol", "/pass", chat="c2")
    await say("dan", "/pass", chat="c2")
    await say("carol", "/pass", chat="c2")
    # A game that ends by resignation, after a swap.
    await say("erin", "/new webfeud @fay board=random seed=3", chat="c3")
    rack = await say("erin", "/rack", chat="c3")
    await say("erin", "/swap " + "".join(rack[0].event["tiles"][:4]), chat="c3")
    await say("erin", "/resign", chat="c3")
    # A game against a bot, and one that times out.
    await say("gus", "/new webfeud bot=easy seed=4", chat="c4")
    await say("gus", "/pass", chat="c4")
    await say("hal", "/new webfeud @ida seed=5", chat="c5")
    clock.advance(timedelta(hours=80))
    await Dispatcher(service, _discard).run_due()
    conn = sqlite3.connect(db_path)
    try:
        rows = conn.execute("SELECT id, snapshot, status FROM games ORDER BY id").fetchall()
    finally:
        conn.close()
    assert {status for _, _, status in rows} >= {"finished"}
    checked = 0
    for game_id, snapshot, _ in rows:
        if snapshot is None:
            continue
        replayed = await service.replay(game_id)
        assert replayed is not None
        assert replayed.to_json() == json.loads(snapshot), f"game {game_id}"
        checked += 1
    assert checked == len(rows)


async def _discard(replies) -> None:
    return None

"""Restarts, on Discord, Telegram and the console: deadlines fire once, old buttons keep working.

One timeline for every adapter. Game B was dealt 73 hours ago and game A 71 h 1 min ago
(Webfeud: 72 h a turn, reminders 24 h and 1 h before). The first process, on an injected clock
set 1 h 59 min ago, fires B's two reminders (the 24 h one, late, gives way to the 1 h one) and
A's first (late: it tells the real time left). Then the bot restarts as production starts it,
on the real clock: B's timeout and A's second reminder are overdue and fire at start-up. A
further restart fires nothing. Counted on the fakes (what people saw), each of the five
deadlines that came due was spent exactly once; A's timeout is still pending.
"""

from __future__ import annotations

import asyncio
import copy
import io
import json
import sqlite3
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from discord_harness import FixedClock, Harness
from hardening_kit import eventually, state_of, telegram_fixtures, telegram_process

from bot.adapters.console import Console, run_console
from bot.adapters.discord_bot import STALE
from bot.reminders import Dispatcher
from bot.service import Service, utcnow
from storage import Database

pytestmark = pytest.mark.timeout(60)

HOUR = timedelta(hours=1)
B, A = 1, 2  # game ids, in the order they are dealt


class Timeline:
    """The moments of the scenario, relative to the real time the test starts at."""

    def __init__(self) -> None:
        now = utcnow()
        self.deal_b = now - 73 * HOUR
        self.deal_a = now - 71 * HOUR - timedelta(minutes=1)
        self.before_restart = now - HOUR - timedelta(minutes=59)


def deadline_states(db: Database, game_id: int) -> list[tuple[str, str]]:
    """(kind, state) of a game's deadlines in due order, read through a connection of its own."""
    conn = sqlite3.connect(db.path)
    try:
        rows = conn.execute(
            "SELECT kind, state FROM deadlines WHERE game_id = ? ORDER BY due_at, id", (game_id,)
        ).fetchall()
    finally:
        conn.close()
    return [(str(kind), str(state)) for kind, state in rows]


async def assert_the_deadlines_were_spent(db: Database) -> None:
    """B: two reminders and the timeout done; A: two reminders done, its timeout pending."""
    assert deadline_states(db, B) == [
        ("reminder", "done"),
        ("reminder", "done"),
        ("timeout", "done"),
    ]
    assert deadline_states(db, A) == [
        ("reminder", "done"),
        ("reminder", "done"),
        ("timeout", "pending"),
    ]
    assert (await state_of(db, B)).outcome is not None
    assert (await state_of(db, A)).outcome is None


def count(texts: list[str], *parts: str) -> int:
    return sum(all(part in text for part in parts) for text in texts)


def assert_seen_once_each(texts: list[str]) -> None:
    """What people saw: each reminder that still had news, B's timeout and its end, once each."""
    # B's 24 h reminder is looked at only 59 min before its timeout, when its 1 h reminder is
    # due too: that one speaks. A's 24 h reminder, 22 h 58 min late, tells the real time left.
    # (A private message names the chat too: "game #2 (Webfeud in games) runs out in …".)
    assert count(texts, f"game #{B} (Webfeud", ") runs out in") == 1
    assert count(texts, f"game #{B} (Webfeud", ") runs out in 1 hour;") == 1
    assert count(texts, f"game #{A} (Webfeud", ") runs out in 2 hours 58 minutes;") == 1
    assert count(texts, f"game #{A} (Webfeud", ") runs out in 1 hour;") == 1
    assert count(texts, f"#{B} alice: ran out of time") == 1
    assert count(texts, f"Game #{B} is over") == 1
    assert count(texts, f"#{A} alice: ran out of time") == 0


# --- Discord -----------------------------------------------------------------------------------


async def test_discord_deadlines_fire_once_across_restarts(fake, db) -> None:
    """Reminders and a timeout due across a restart reach alice (by DM: she allows them) once."""
    when = Timeline()
    h = Harness(fake, db)
    h.clock = FixedClock(when.deal_b)
    await h.start(run_dispatcher=False)  # before the restart, deadlines are fired by hand
    try:
        await h.slash(h.alice, "notify", dm=True)
        await h.slash(h.alice, "new", game="webfeud", player=str(h.bob), seed=1)
        h.clock.now = when.deal_a
        await h.slash(h.alice, "new", game="webfeud", player=str(h.bob), seed=2)
        h.clock.now = when.before_restart
        fired = await Dispatcher(h.bot.service, h.bot.send_replies).run_due()
        # B's late 24 h reminder gives way to its 1 h one; A's 24 h one tells the time left.
        assert [(r.kind, r.event["game_id"]) for r in fired] == [("reminder", A), ("reminder", B)]
        # The restart: production's bot, on the real clock, with its own dispatcher.
        await h.stop()
        h.clock = None
        await h.start()

        def public() -> list[str]:
            return [m.text for m in fake.public_messages()]

        def dms() -> list[str]:
            return [m.text for m in fake.dms_to(h.alice)]

        await eventually(
            lambda: (
                count(public(), f"Game #{B} is over") and count(dms(), "runs out in 1 hour") == 2
            ),
            "the deadlines overdue at start-up",
        )
        await h.restart()
        await asyncio.sleep(0.3)  # room for a wrong second firing to show up
        assert await h.bot.dispatcher.run_due() == []
    finally:
        await h.stop()
    texts = public()
    assert_seen_once_each(texts + dms())
    # Each reminder came by DM (she allowed DMs), so none was a mention in the channel too.
    assert count(texts, f"<@{h.alice}>", "runs out in") == 0
    assert count([m.text for m in fake.dms_to(h.alice)], "runs out in") == 3
    await assert_the_deadlines_were_spent(db)
    assert fake.late == []


async def test_discord_old_buttons_work_after_a_restart(harness) -> None:
    """Join, My rack, Pass and Board sent before a restart work after it; a stale Pass does not."""
    fake = harness.fake
    await harness.slash(harness.alice, "new", game="webfeud")
    lobby = fake.last_with_buttons("fb:join:1:")
    await harness.slash(harness.alice, "new", game="webfeud", player=str(harness.bob), seed=7)
    board = fake.last_with_buttons("fb:pass:2:")
    seen = copy.deepcopy(board)  # as bob's client shows it: the pass below takes its buttons
    await harness.restart()
    assert fake.identifies == 2

    inter = await harness.click(harness.bob, lobby, "fb:join:1:0")
    assert any(m.public and "has started" in m.text for m in harness.replies(inter))
    assert (await harness.db.games.get_game(1)).status == "active"

    rack = " ".join((await state_of(harness.db, 2)).rack(0))
    inter = await harness.click(harness.alice, board, "fb:rack:2:0")
    assert [(m.ephemeral, rack in m.text) for m in harness.replies(inter)] == [(True, True)]

    inter = await harness.pass_turn(harness.alice, board)
    assert any(m.public and "#2 alice: pass" in m.text for m in harness.replies(inter))
    after = await harness.db.games.get_game(2)
    assert after.turn == 1

    assert board.custom_ids() == []  # the pass's message took them (the restart forgot none)
    inter = await harness.click(harness.bob, seen, "fb:pass:2:0")  # turn 0 is over
    assert [m.content for m in harness.replies(inter)] == [STALE.format(game=2)]
    assert (await harness.db.games.get_game(2)).version == after.version

    inter = await harness.click(harness.bob, seen, "fb:board:2:0")
    shown = [m for m in harness.replies(inter) if m.public]
    assert len(shown) == 1
    assert "Game #2 " in shown[0].text
    assert shown[0].attachments


# --- Telegram ----------------------------------------------------------------------------------


async def test_telegram_deadlines_fire_once_across_restarts(tg, people, db_path) -> None:
    """Reminders and a timeout due across a restart reach the group exactly once."""
    when = Timeline()
    api, group = tg.api, people.group
    clock = FixedClock(when.deal_b)
    tg.service.clock = clock  # the first process runs on an injected clock
    await tg.say(people.bob, "/help")
    await tg.say(people.alice, "/new webfeud @bob seed=1")
    clock.now = when.deal_a
    await tg.say(people.alice, "/new webfeud @bob seed=2")
    clock.now = when.before_restart
    fired = await Dispatcher(tg.service, tg.front.send_replies).run_due()
    assert [r.kind for r in fired] == ["reminder"] * 2  # B's late 24 h reminder gives way
    # Restarts: `feudbot telegram` as production runs it, on the real clock.
    async with telegram_process(api, db_path):
        pass  # overdue deadlines fire before the bot reports ready
    between = len(api.calls)
    async with telegram_process(api, db_path):
        pass
    assert [c.chat_id for c in api.calls[between:] if c.chat_id is not None] == []
    # The timeout's news goes into game B's board, edited in place as before the restart (the
    # board message is kept in storage); the notices and the game's end are new messages.
    shown = ("sendMessage", "sendPhoto", "editMessageMedia", "editMessageText")
    texts = [c.text for c in api.sent(*shown, chat_id=group["id"])]
    assert_seen_once_each(texts)
    assert count([c.text for c in api.sent("editMessageMedia")], f"#{B} alice: ran out") == 1
    assert count(texts, "tg://user?id=1001", "runs out in") == 3  # mentions: no DMs allowed
    assert count(texts, f"Your turn in game #{B} timed out") == 1
    await assert_the_deadlines_were_spent(tg.db)
    assert tg.errors == []


async def test_telegram_old_buttons_work_after_a_restart(tg, people, db_path) -> None:
    """Join, My rack and Pass pressed under messages of the last run work; a stale Pass does not."""
    api = tg.api
    await tg.say(people.bob, "/help")
    await tg.say(people.alice, "/new webfeud")
    lobby = tg.board(1)
    await tg.say(people.alice, "/new webfeud @bob seed=7")
    board = copy.deepcopy(tg.board(2))  # as the last run sent it (the fake's copy changes)
    data = telegram_fixtures().button_data

    async def press(user: dict[str, Any], message: dict[str, Any], label: str) -> Any:
        update = api.callback_update(user, message, data(message, label))
        api.push(update)
        query = update["callback_query"]["id"]

        def answer() -> Any:
            return next(
                (
                    c
                    for c in api.calls
                    if c.method == "answerCallbackQuery" and c.params["callback_query_id"] == query
                ),
                None,
            )

        await eventually(lambda: answer() is not None, f"the answer to {label}")
        return answer()

    async with telegram_process(api, db_path):
        before = len(api.calls)
        await press(people.bob, lobby, "Join")
        await eventually(
            lambda: count([c.text for c in api.calls[before:]], "Game #1 (Webfeud) has started"),
            "the game started by the Join button",
        )
        row = await tg.db.games.get_game(1)
        assert row.status == "active"

        rack = " ".join((await state_of(tg.db, 2)).rack(0))
        answer = await press(people.alice, board, "My rack")
        assert answer.params["show_alert"] is True
        assert rack in answer.text

        answer = await press(people.alice, board, "Pass")  # it asks first, in the keyboard
        assert answer.text == "Pass your turn in game #2? Tap Yes, pass, or Keep playing."

        def asked() -> dict[str, Any]:
            return api.message(board["chat"]["id"], board["message_id"])

        await eventually(lambda: "Yes, pass" in str(asked().get("reply_markup")), "the question")
        before = len(api.calls)
        await press(people.alice, asked(), "Yes, pass")
        await eventually(
            lambda: count([c.text for c in api.calls[before:]], "#2 alice: pass") == 1,
            "the pass announced",
        )
        after = await tg.db.games.get_game(2)
        assert after.turn == 1

        answer = await press(people.bob, board, "Pass")  # the button of turn 0
        assert "earlier turn" in answer.text
        assert (await tg.db.games.get_game(2)).version == after.version
    assert tg.errors == []


# --- the console -------------------------------------------------------------------------------


def events(output: str) -> list[tuple[str, int]]:
    """(event type, game id) of each JSON line the console printed."""
    out = []
    for line in output.splitlines():
        event = json.loads(line)["event"]
        out.append((str(event.get("type")), int(event.get("game_id", 0))))
    return out


async def test_console_deadlines_fire_once_across_restarts(tmp_path: Path) -> None:
    """`feudbot console` started twice after the deadlines passed prints each of them once."""
    when = Timeline()
    path = tmp_path / "console.sqlite3"
    images = tmp_path / "images"
    clock: Any = FixedClock(when.deal_b)
    first = io.StringIO()
    db = await Database.open(path)
    try:
        service = Service(db, clock=clock, allow_seed=True, render=False)
        console = Console(service, "alice", out=first, json_mode=True, image_dir=images)
        await console.feed("/new webfeud @bob seed=1")
        clock.now = when.deal_a
        await console.feed("/new webfeud @bob seed=2")
        clock.now = when.before_restart
        await Dispatcher(service, console.send).run_due()
    finally:
        await db.close()
    runs = [first.getvalue()]
    for _ in range(2):
        out = io.StringIO()
        await run_console(
            str(path), name="alice", script=[], json_mode=True, out=out, image_dir=images
        )
        runs.append(out.getvalue())
    fired = [e for e in events(runs[0]) if e[0] == "reminder"]
    assert fired == [("reminder", A), ("reminder", B)]  # B's late 24 h reminder gives way
    assert events(runs[1]) == [("timeout", B), ("game_over", B), ("reminder", A)]
    assert runs[2] == ""
    texts = [json.loads(line)["text"] for run in runs for line in run.splitlines()]
    assert_seen_once_each(texts)
    db = await Database.open(path)
    try:
        await assert_the_deadlines_were_spent(db)
    finally:
        await db.close()

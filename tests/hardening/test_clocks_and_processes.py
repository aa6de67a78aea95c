"""Clocks, processes and upgrades the bot did not see: a clock set back, two consoles on one
folder, a group upgraded to a supergroup while the bot was down.

Everything runs for real: the service over SQLite files in tmp_path, the console adapter, and
python-telegram-bot / discord.py against the loopback fakes (fixtures re-exported by
tests/hardening/conftest.py). Assertions are on what people see or what is stored.
"""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path

import pytest

from bot.adapters.console import run_console
from bot.ai import choose_move
from bot.reminders import Dispatcher
from bot.replies import Reply
from bot.service import CONSOLE, ChatRef, Service, UserRef, load_state, utcnow
from storage import Database
from tests.service.conftest import START, Clock

pytestmark = pytest.mark.timeout(60)

ROOM = ChatRef(CONSOLE, "room")


def person(name: str) -> UserRef:
    return UserRef(CONSOLE, name, name)


async def _discard(replies: list[Reply]) -> None:
    return None


@asynccontextmanager
async def two_processes(tmp_path: Path) -> AsyncIterator[tuple[Service, Service, Database]]:
    """Yield two services on one database file, as two processes have (and the first's db)."""
    path = tmp_path / "two.sqlite3"
    first, second = await Database.open(path), await Database.open(path)
    clock = Clock(START)
    try:
        yield (
            Service(first, clock=clock, render=False, allow_seed=True),
            Service(second, clock=clock, render=False, allow_seed=True),
            first,
        )
    finally:
        await second.close()
        await first.close()


async def test_nmbr9_placements_sent_through_two_processes_at_once_both_count(
    tmp_path: Path,
) -> None:
    """Two processes on one file (two consoles, or an old and a new bot during a deploy): alice
    and bob place their round-1 tiles at the same moment, each through one process.

    NMBR 9 lets everyone place at once, so both placements are legal. Before: bob's was refused
    with "That turn was already played in game #1; nothing was changed." — he never played; he
    believed his tile placed, and the round then waited for him (and timed him out). The move
    whose commit finds the game changed elsewhere is now tried again on the game as it is.
    """
    async with two_processes(tmp_path) as (one, two, first):
        await one.handle(ROOM, person("alice"), "/new nmbr9 @bob seed=3")
        await one.handle(ROOM, person("alice"), "/start")
        state = load_state(await first.games.get_game(1))  # type: ignore[arg-type]
        alice_tile = str(choose_move(state, 0, "easy", 1))
        bob_tile = str(choose_move(state, 1, "easy", 1))
        alice, bob = await asyncio.gather(
            one.handle(ROOM, person("alice"), f"/place {alice_tile}"),
            two.handle(ROOM, person("bob"), f"/place {bob_tile}"),
        )
        assert alice[0].kind != "error", alice[0].text
        assert bob[0].kind != "error", bob[0].text  # "That turn was already played …"
        placed = [(m.seat_no, m.notation) for m in await first.games.moves(1)]
        assert sorted(placed) == [(0, alice_tile), (1, bob_tile)], placed


async def test_the_same_move_sent_through_two_processes_is_played_once(tmp_path: Path) -> None:
    """A double submission across two processes is still refused as already played (once)."""
    async with two_processes(tmp_path) as (one, two, first):
        await one.handle(ROOM, person("alice"), "/new webfeud @bob seed=3")
        answers = await asyncio.gather(
            one.handle(ROOM, person("alice"), "/pass"),
            two.handle(ROOM, person("alice"), "/pass"),
        )
        kinds = sorted(replies[0].kind for replies in answers)
        assert kinds == ["error", "move_played"], answers
        [refused] = [replies[0] for replies in answers if replies[0].kind == "error"]
        assert refused.event["reason"] in ("ALREADY_PLAYED", "NOT_YOUR_TURN"), refused.text
        assert [m.notation for m in await first.games.moves(1)] == ["pass"]


BASIC_ID, SUPER_ID = -4001, -1004001


async def test_a_group_upgraded_while_the_bot_was_down_gets_its_reminders(tg, people) -> None:
    """Telegram turned the group into a supergroup while the bot was down (its service messages
    were never seen, e.g. down for over 24 h, or the overdue deadlines fire at start-up before
    the pending updates are read). Every send to the old id is then refused with 400 "group
    chat was upgraded to a supergroup chat" carrying the new id (PTB: `ChatMigrated`).

    Before: the refusal is only logged. bob's reminders and his timeout's news all go to the
    old id and are lost; he loses game #1 on time unseen, and /games in the supergroup says
    "No open games here". A removal missed while down is learnt from its refusal
    (docs/hardening.md); this refusal even names the new chat.
    """
    api = tg.api
    basic = api.basic_group(BASIC_ID, "Small club", admins=(1001,))
    await tg.say(people.bob, "/help", chat=basic)
    start = utcnow()
    await tg.say(people.alice, "/new webfeud @bob seed=3", chat=basic)
    await tg.say(people.alice, "/pass", chat=basic)  # bob to move; he has no private chat
    api.migrate(BASIC_ID, SUPER_ID, people.alice)  # the two updates are never processed
    first = len(api.calls)
    await Dispatcher(tg.service, tg.front.send_replies).run_due(now=start + timedelta(hours=49))
    sent = api.calls[first:]
    assert [(c.chat_id, c.ok) for c in sent if "runs out in" in c.text][-1:] == [
        (SUPER_ID, True)
    ], [(c.method, c.chat_id, c.ok) for c in sent]
    supergroup = api.chats[SUPER_ID]
    calls = await tg.say(people.bob, "/games", chat=supergroup)
    assert "#1" in calls[-1].text, calls[-1].text  # found: "No open games here; /new …"


async def test_a_move_after_the_clock_was_set_back_is_played(tmp_path: Path) -> None:
    """The machine clock ran 1 h fast; NTP sets it back. SmartFeud wait=3m.

    alice's turn timed out (a pass) on the fast clock and bob passed; after the correction alice
    plays, 30 minutes later, well inside her new turn. Before: refused with "Your time ran out in
    game #1 before this arrived (the turn counted as a pass); what you sent was not played" —
    the 'late move' check (`_first_late_move`) takes the timeout, now stamped in the future, for
    one that happened a moment ago (a negative age counts as within the grace).
    """
    db = await Database.open(tmp_path / "clock.sqlite3")
    clock = Clock(START)
    try:
        service = Service(db, clock=clock, render=False, allow_seed=True)
        await service.handle(ROOM, person("alice"), "/new smartfeud @bob wait=3m seed=1")
        await service.handle(ROOM, person("alice"), "/start")
        fired = await Dispatcher(service, _discard).run_due(clock.advance(timedelta(minutes=3)))
        assert [r.kind for r in fired][:1] == ["timeout"]
        passed = await service.handle(ROOM, person("bob"), "/pass")
        assert passed[0].kind == "move_played"
        clock.now = START - timedelta(hours=1) + timedelta(minutes=3)  # set back by 1 hour
        clock.advance(timedelta(minutes=30))
        replies = await service.handle(ROOM, person("alice"), "/pass")
        assert replies[0].kind == "move_played", replies[0].text
    finally:
        await db.close()


async def test_two_consoles_on_one_database_never_print_the_same_image_path(
    tmp_path: Path,
) -> None:
    """`feudbot console --db X --script S` run twice at once (same folder, same image folder).

    Each run numbers its images once, from the files it finds at its first reply
    (`last_image_number`), so both number from the same place. Before: both print the same
    paths (e.g. feudbot-images/00003-0-…-rack-seat0.png) for different games' pictures; the
    file holds whichever was written last, so a path printed by one run shows the other run's
    board or rack ("a path printed yesterday never comes to hold today's board").
    """
    db_path, images = tmp_path / "shared.sqlite3", tmp_path / "feudbot-images"
    script = ["alice: /new webfeud @bob", "alice: /pass", "bob: /pass", "alice: /games"]
    outs = [io.StringIO(), io.StringIO()]
    await asyncio.gather(
        *(
            run_console(
                str(db_path),
                name="alice",
                script=script,
                json_mode=True,
                image_dir=images,
                out=out,
                err=io.StringIO(),
            )
            for out in outs
        )
    )
    printed = [
        [path for line in out.getvalue().splitlines() for path in json.loads(line)["images"]]
        for out in outs
    ]
    assert printed[0]
    assert printed[1]
    assert set(printed[0]).isdisjoint(printed[1]), sorted(set(printed[0]) & set(printed[1]))

"""A database left by old code opens with today's: every migration applies, every game plays on.

The rows are those commit dc63a9a wrote through its own `Service.handle` (schema version 1,
`old_databases/v1_dc63a9a.sql`); they are loaded over the packaged migration 0001 alone — the
runner applies the first N files when given them — and the file is then opened as the bot does.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.reminders import Dispatcher
from bot.replies import Reply
from bot.service import ChatRef, Service, UserRef, load_state
from storage import Database
from storage.migrate import latest_version, load_migrations
from tests.support import clean_env

from .conftest import Clock

OLD_ROWS = Path(__file__).with_name("old_databases") / "v1_dc63a9a.sql"
WRITTEN = datetime.fromtimestamp(1795578876, UTC)  # when dc63a9a wrote every row
OLD_TABLES = ("users", "chats", "games", "seats", "moves", "deadlines", "results")

TG_CLUB = ChatRef("telegram", "-100", "Club")
DC_CLUB = ChatRef("discord", "500", "Club")
TG_ALONE = ChatRef("telegram", "77")


def person(chat: ChatRef, user_id: str, name: str) -> UserRef:
    return UserRef(chat.platform, user_id, name)


def version_of(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])


def counts(path: Path) -> dict[str, int]:
    with sqlite3.connect(path) as conn:
        return {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in OLD_TABLES}


async def old_database(path: Path) -> Path:
    """Write the file as dc63a9a left it: migration 0001 only, then that code's rows."""
    await (await Database.open(path, migrations=load_migrations()[:1])).close()
    with sqlite3.connect(path) as conn:
        conn.executescript(OLD_ROWS.read_text(encoding="utf-8"))
    assert version_of(path) == 1
    return path


def unlabelled(state: dict[str, Any]) -> str:
    """The state's JSON without its moves' labels: records stored before them read as notation."""
    history = [{k: v for k, v in r.items() if k != "label"} for r in state.get("history", [])]
    return json.dumps({**state, "history": history}, sort_keys=True)


def texts(replies: list[Reply]) -> str:
    return "\n".join(reply.text for reply in replies)


async def test_a_schema_1_database_upgrades_keeping_every_row_and_every_games_state(
    tmp_path,
) -> None:
    """Every migration applies on top; each started game's move log replays to its snapshot."""
    path = await old_database(tmp_path / "old.sqlite3")
    before = counts(path)
    db = await Database.open(path)
    try:
        assert version_of(path) == latest_version() > 1
        assert counts(path) == before
        service = Service(db, render=False)
        every = await db.games.list_games(statuses=("active", "finished"))
        started = [g for g in every if g.snapshot is not None]
        assert {g.game_key for g in started} == {"webfeud", "nmbr9", "numfeud", "smartfeud"}
        for game in started:
            replayed = await service.replay(game.id)
            assert replayed is not None
            stored = load_state(game)
            assert unlabelled(replayed.to_json()) == unlabelled(stored.to_json()), game.id
    finally:
        await db.close()


@pytest.fixture
async def upgraded(tmp_path):
    path = await old_database(tmp_path / "old.sqlite3")
    db = await Database.open(path)
    clock = Clock(WRITTEN + timedelta(minutes=5))
    try:
        yield Service(db, clock=clock, render=False), clock
    finally:
        await db.close()


async def test_old_games_show_their_boards_history_and_results_and_play_on(upgraded) -> None:
    """Boards, history and leaderboards of old games; a move, a lobby started, a rematch."""
    service, _clock = upgraded
    alice, bob, carol = (
        person(TG_CLUB, i, n) for i, n in (("11", "alice"), ("12", "bob"), ("13", "carol"))
    )

    async def say(chat: ChatRef, user: UserRef, text: str) -> str:
        return texts(await service.handle(chat, user, text))

    assert "The game is over" in await say(TG_CLUB, alice, "/board game=1")
    assert "bot-medium: 8H KID (+8)" in await say(TG_CLUB, alice, "/history game=3")
    board = await say(TG_CLUB, alice, "/leaderboard")
    assert "1. carol: 1 win in 1 game" in board
    assert "alice: 0 wins in 1 game" in board
    assert "bob: 0 wins in 1 game" in board
    assert "#2 alice: pass" in await say(TG_CLUB, alice, "/pass game=2")
    assert "#3 bob: pass" in await say(TG_CLUB, bob, "/pass game=3")  # the bot answers
    assert "alice joined game #4" in await say(TG_CLUB, alice, "/join game=4")
    assert "Game #4 (Rummikub) has started" in await say(TG_CLUB, carol, "/start game=4")
    assert "has started" in await say(TG_CLUB, alice, "/rematch game=1")
    solo = person(TG_ALONE, "13", "carol")
    placements = await say(TG_ALONE, solo, "/moves game=5")
    first = " ".join(placements.split("/place ", 1)[1].split()[:2])  # "J12 0 (on the table)"
    assert "round 2" in await say(TG_ALONE, solo, f"/place {first} game=5")
    discord_bob = person(DC_CLUB, "12", "bob")
    assert "Game #10 (Webfeud)" in await say(DC_CLUB, discord_bob, "/board game=10")
    assert "#13 carol: pass" in await say(DC_CLUB, person(DC_CLUB, "13", "carol"), "/pass game=13")


async def test_old_deadlines_fire_after_the_upgrade(upgraded) -> None:
    """The turn deadlines old code stored remind and time out, once each, on every platform."""
    service, clock = upgraded
    sent: list[Reply] = []

    async def send(replies: list[Reply]) -> None:
        sent.extend(replies)

    dispatcher = Dispatcher(service, send)
    await dispatcher.run_due(now=clock.advance(timedelta(days=2)))  # a day before the turns end
    reminded = texts(sent)
    await dispatcher.run_due(now=clock.advance(timedelta(days=1, hours=1)))
    lines = texts(sent).splitlines()
    news = "\n".join(lines)
    for game_id in (2, 3, 6, 9, 10, 13):  # Webfeud and Numfeud: three days a turn
        assert f"Your turn in game #{game_id} (" in reminded, (game_id, reminded)
        timed_out = [x for x in lines if x.startswith(f"#{game_id} ") and "ran out of time" in x]
        assert len(timed_out) == 1, (game_id, news)
    for game_id in (5, 12):  # NMBR 9: a day a round, its tile placed at the deadline
        assert f"The round deadline of game #{game_id} passed" in news
    again = await dispatcher.run_due(now=clock.now)
    assert not again


async def test_feudbot_migrate_says_from_which_version_it_upgraded(tmp_path) -> None:
    """`feudbot migrate` tells a new file, an upgrade (from → to) and one already up to date apart.

    Before, all three printed the same "PATH: schema version 10".
    """
    path = await old_database(tmp_path / "old.sqlite3")
    latest = latest_version()
    new = tmp_path / "new.sqlite3"
    for db, says in (
        (path, f"{path}: upgraded from schema version 1 to {latest}\n"),
        (path, f"{path}: schema version {latest}, up to date\n"),
        (new, f"{new}: created at schema version {latest}\n"),
    ):
        done = await asyncio.to_thread(
            subprocess.run,
            [sys.executable, "-m", "bot", "migrate", "--db", str(db)],
            cwd=tmp_path,
            env=clean_env(),
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert (done.returncode, done.stdout, done.stderr) == (0, says, "")

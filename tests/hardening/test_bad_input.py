"""Bad input, for every game in GAMES: random and malformed commands through the service.

No exception escapes; every refusal is a non-empty message of at most 200 characters; and when
every reply to an input is a refusal, the stored games (games, seats, move log, deadlines,
results) are byte-for-byte what they were.
"""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bot.commands import COMMANDS
from bot.games import GAMES
from bot.service import CONSOLE, ChatRef, Service, UserRef
from storage import Database

GAME_TABLES = ("games", "seats", "moves", "deadlines", "results")
CHAT = ChatRef(CONSOLE, "badlands")
PEOPLE = ("alice", "bob", "carol")  # carol never sits in the game

# Pieces of arguments: coordinates right and wrong, tiles and non-tiles, ids of no game, huge
# numbers, unicode, options with wrong values, mentions.
PIECES = (
    "8H",
    "H8",
    "A1",
    "O15",
    "P16",
    "Z99",
    "0A",
    "8",
    "H",
    "99999999999999999999",
    "-1",
    "QUIZ",
    "qi",
    "AEQ?",
    "?",
    "R5",
    "J=R5",
    "K13",
    "B1",
    "13",
    "0",
    "C4",
    "90",
    "45",
    "take",
    "G7",
    "game=1",
    "game=2",
    "game=3",
    "game=999",
    "game=-3",
    "game=abc",
    "bot=godlike",
    "seed=x",
    "mode=pro",
    "board=random",
    "board=moon",
    "@bob",
    "@nobody",
    "everywhere",
    "2026",
    "ÆØÅ",
    "日本",
    "😀",
    "\u200b",
    "",
    " ",
    "/",
    "//play",
    "pass",
    "resign",
    "swap",
    "🂡🂢",
)

command_line = st.builds(
    lambda name, args: " ".join([f"/{name}", *args]),
    st.sampled_from([spec.name for spec in COMMANDS] + ["play", "play", "swap", "nosuch"]),
    st.lists(st.sampled_from(PIECES), max_size=5),
)
any_text = st.one_of(command_line, st.text(max_size=40), st.just(""))


def dump(path: Path) -> list[list[tuple[object, ...]]]:
    conn = sqlite3.connect(path)
    try:
        return [
            conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall() for table in GAME_TABLES
        ]
    finally:
        conn.close()


async def say(path: Path, who: str, text: str) -> list[tuple[str, str]]:
    db = await Database.open(path)
    try:
        service = Service(db, render=False, allow_seed=True)
        replies = await service.handle(CHAT, UserRef(CONSOLE, who, who), text)
    finally:
        await db.close()
    return [(r.kind, r.text) for r in replies]


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One database per game: #1 a started game of alice and bob, #2 waiting, #3 cancelled."""
    out = {}
    for key, game in GAMES.items():
        path = tmp_path_factory.mktemp(key) / "bad.sqlite3"
        invite = " @bob" if game.max_players >= 2 else ""
        asyncio.run(say(path, "alice", f"/new {key}{invite} seed=5"))
        asyncio.run(say(path, "alice", "/start"))
        # Too few seats to start by itself (alice alone, or alice and bob of up to four).
        waiting = f"/new {key}" + (" @bob" if game.min_players == 1 else "")
        asyncio.run(say(path, "alice", waiting))
        asyncio.run(say(path, "alice", waiting))
        asyncio.run(say(path, "alice", "/cancel game=3"))
        statuses = asyncio.run(statuses_of(path))
        assert statuses == ["active", "lobby", "cancelled"], (key, statuses)
        out[key] = path
    return out


async def statuses_of(path: Path) -> list[str]:
    db = await Database.open(path)
    try:
        return [(await db.games.get_game(n)).status for n in (1, 2, 3)]  # type: ignore[union-attr]
    finally:
        await db.close()


@pytest.mark.parametrize("key", sorted(GAMES))
def test_refused_input_changes_nothing(tables: dict[str, Path], key: str) -> None:
    """Random commands from players and a stranger: refusals are short and store nothing."""
    template = tables[key]
    path = template.with_name("work.sqlite3")

    @settings(
        max_examples=150,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(who=st.sampled_from(PEOPLE), text=any_text)
    def check(who: str, text: str) -> None:
        # Every input meets the same freshly started game (the template is never touched).
        for leftover in path.parent.glob("work.sqlite3*"):
            leftover.unlink()
        shutil.copyfile(template, path)
        before = dump(path)
        replies = asyncio.run(say(path, who, text))
        assert replies, f"no answer to {text!r}"
        errors = [message for kind, message in replies if kind == "error"]
        for message in errors:
            assert message.strip(), f"empty refusal of {text!r}"
            assert len(message) <= 200, f"{len(message)} characters for {text!r}: {message}"
        event("refused" if len(errors) == len(replies) else "accepted")
        if len(errors) == len(replies):
            assert dump(path) == before, f"refused {text!r} changed the stored games"

    check()


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_command_naming_a_waiting_or_cancelled_game_is_answered(
    tables: dict[str, Path], key: str
) -> None:
    """Each command with game=2 (waiting) and game=3 (cancelled): an answer, never a crash.

    Deterministic, unlike the random inputs above (/board game=2 once failed inside the
    service). A cancelled game refuses everything; a waiting one only what needs a started game.
    """
    path = tables[key].with_name("sweep.sqlite3")
    lobby = {"join", "leave", "start", "cancel"}  # the commands a waiting game may take
    for spec in COMMANDS:
        if not spec.takes_game_id:
            continue
        args = " C4 90" if spec.shape == "text" else ""
        for game_id in (2, 3):
            shutil.copyfile(tables[key], path)
            before = dump(path)
            text = f"/{spec.name}{args} game={game_id}"
            replies = asyncio.run(say(path, "alice", text))
            kinds = {kind for kind, _ in replies}
            if game_id == 3 or spec.name not in lobby:
                assert kinds == {"error"}, (text, replies)
            for kind, message in replies:  # a refusal fits a button's 200-character alert
                assert 0 < len(message) <= (200 if kind == "error" else 4000), (text, message)
            if kinds == {"error"}:
                assert dump(path) == before, f"refused {text!r} changed the stored games"


LONG = 200  # as long as a whole refusal may be
LONG_LINES = (
    "/play 8H " + "A" * LONG,
    "/play " + "Z" * LONG + " QUIZ",
    "/play 8H " + "1" * LONG,
    "/play " + "X" * LONG,
    "/swap " + "A" * LONG,
    "/place C4 90 " + "x" * LONG,
    "/place " + "x" * LONG,
    "/stats @" + "x" * LONG,
    "/rules " + "q" * LONG,
)


@pytest.mark.parametrize("key", sorted(GAMES))
def test_a_long_input_echoed_in_a_refusal_leaves_the_explanation_whole(
    tables: dict[str, Path], key: str
) -> None:
    """A refusal cut at 200 characters must not lose what it says: the input it quotes is cut.

    ("'AAAA…AAAA…" told neither what was wrong nor how to write it.)
    """
    path = tables[key].with_name("long.sqlite3")
    lines = (*LONG_LINES, f"/new {key} " + "a" * LONG + "=1")
    for text in lines:
        shutil.copyfile(tables[key], path)
        for kind, message in asyncio.run(say(path, "alice", text)):
            if kind != "error":
                continue
            assert len(message) <= 200, (text[:30], message)
            assert not message.endswith("…"), (text[:30], message)  # cut: the end was lost
            assert message.count("…") <= 2, (text[:30], message)  # the quote's own, at most

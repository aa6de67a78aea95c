"""Buttons (ids only, stale ones refused), bots resumed after a crash, scopes, settings."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta

import pytest

from bot.__main__ import main
from bot.config import DEFAULT_REMINDERS, ConfigError, load_settings, parse_duration
from bot.games import GAMES
from bot.reminders import Dispatcher
from bot.replies import Reply
from bot.service import CONSOLE, ChatRef, Service, UserRef, load_state

ROOM = ChatRef(CONSOLE, "room")
ALICE = UserRef(CONSOLE, "alice", "alice")
BOB = UserRef(CONSOLE, "bob", "bob")


async def test_buttons_carry_ids_and_run_the_same_use_cases(service: Service) -> None:
    """Join/Start on a lobby, Board/My rack after a move; ids fit Telegram's 64 bytes."""
    created = await service.handle(ROOM, ALICE, "/new webfeud")
    game_id = created[0].event["game_id"]
    assert [b.action_id for b in created[0].buttons] == [f"join:{game_id}"]
    joined = await service.action(ROOM, BOB, f"join:{game_id}")
    started = next(r for r in joined if r.kind == "game_started")
    assert [b.label for b in started.buttons] == ["Board", "My rack"]
    assert all(len(b.action_id.encode()) <= 64 for b in started.buttons)
    rack = await service.action(ROOM, BOB, f"rack:{game_id}")
    assert rack[0].kind == "rack"
    assert rack[0].private


async def test_a_button_from_an_earlier_turn_is_refused(service: Service, db, table_rows) -> None:
    """`pass:<game>:<turn>` applies on that turn only; later presses change nothing."""
    replies = await service.handle(ROOM, ALICE, "/new webfeud @bob seed=4")
    game_id = next(r for r in replies if r.kind == "game_started").event["game_id"]
    first = await service.action(ROOM, ALICE, f"pass:{game_id}:0")
    assert first[0].kind == "move_played"
    before = table_rows()
    stale = await service.action(ROOM, BOB, f"pass:{game_id}:0")
    assert stale[0].event["reason"] == "STALE_BUTTON"
    junk = await service.action(ROOM, BOB, "explode:1")
    assert junk[0].event["reason"] == "BAD_ACTION"
    # Forged ids: digits of another script, or a number past SQLite's 64-bit INTEGER.
    for forged in (f"pass:{game_id}:²", "board:٣", "board:" + "9" * 30):
        refused = await service.action(ROOM, BOB, forged)
        assert refused[0].event["reason"] == "BAD_ACTION", forged
    assert table_rows() == before


async def test_numbers_past_what_sqlite_holds_are_refused_plainly(service: Service, table_rows):
    """A huge game=, seed= or year is a refusal with the syntax, never an internal error."""
    await service.handle(ROOM, ALICE, "/new webfeud @bob seed=4")
    before = table_rows()
    cases = {
        "/board game=" + "9" * 30: "is not a game number; /games lists them. Usage: /board",
        "/new nmbr9 seed=" + "9" * 5000: "is not a seed: a seed is a whole number of 0 or more",
        "/new nmbr9 seed=-5": "seed=-5 is not a seed",
        "/new nmbr9 seed=²": "seed=² is not a seed",
        "/leaderboard ²²²²": "There is no game '²²²²'",
    }
    for line, says in cases.items():
        replies = await service.handle(ROOM, ALICE, line)
        assert replies[0].kind == "error", line
        assert says in replies[0].text, replies[0].text
        assert len(replies[0].text) <= 200
    assert table_rows() == before


async def bot_left_to_move(service: Service, db, room: ChatRef, person: UserRef) -> int:
    """Start a Webfeud game of `person` against the easy bot and store their pass, but not the
    bot's answer (a crash between the two commits); return the game's id.
    """
    replies = await service.handle(room, person, "/new webfeud bot=easy")
    game_id = next(r for r in replies if r.kind == "game_started").event["game_id"]
    row = await db.games.get_game(game_id)
    assert row is not None
    state = load_state(row).apply(0, GAMES["webfeud"].parse_move("pass"))
    assert await db.games.commit_move(
        game_id, row.version, 0, "pass", {"kind": "move"}, json.dumps(state.to_json()), state.turn
    )
    return game_id


async def test_bots_resume_after_a_crash(service: Service, db) -> None:
    """A game left with a bot to move (a crash between commits) is moved on at start-up."""
    await bot_left_to_move(service, db, ROOM, ALICE)
    resumed = await service.resume_bots()
    assert [r.event["player"] for r in resumed if r.kind == "move_played"] == ["bot-easy"]
    assert await service.resume_bots() == []


async def test_a_stalled_bot_is_left_to_its_own_platforms_loop(
    service: Service, db, db_path
) -> None:
    """A bot that failed to move in a Discord game is retried by Discord's loop, not Telegram's.

    One process serving both runs a deadline loop per platform. Before, a pass of Telegram's
    over its stalled games forgot every stalled game, Discord's too: its bot never moved.
    """
    import sqlite3

    room = ChatRef("discord", "42", "#games")
    alice = UserRef("discord", "7", "alice")
    # A crash left the bot to move; another process holds the database meanwhile.
    await bot_left_to_move(service, db, room, alice)
    other = sqlite3.connect(db_path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        assert await service.resume_bots(platforms=("discord",)) == []  # its move: not stored
        other.execute("ROLLBACK")
    finally:
        other.close()
    assert service.bots_stalled
    assert await service.resume_bots(stalled_only=True, platforms=("telegram",)) == []
    assert service.bots_stalled  # still Discord's to retry
    resumed = await service.resume_bots(stalled_only=True, platforms=("discord",))
    assert [r.event["player"] for r in resumed if r.kind == "move_played"] == ["bot-easy"]
    assert not service.bots_stalled


async def test_the_deadline_loop_lets_bots_owing_a_move_make_it_at_start_up(
    service: Service, db
) -> None:
    """Every platform starts the deadline loop: it moves on a game a crash left at a bot's turn."""
    game_id = await bot_left_to_move(service, db, ROOM, ALICE)
    sent: list[list[Reply]] = []
    arrived = asyncio.Event()

    async def send(replies: list[Reply]) -> None:
        sent.append(replies)
        arrived.set()

    dispatcher = Dispatcher(service, send)
    dispatcher.start()
    try:
        await asyncio.wait_for(arrived.wait(), 10)
    finally:
        await dispatcher.stop()
    assert [r.event["player"] for r in sent[0] if r.kind == "move_played"] == ["bot-easy"]
    assert load_state(await db.games.get_game(game_id)).waiting_for() == (0,)


@pytest.mark.parametrize("broken", [("hard",), ("hard", "easy")])
async def test_a_bot_whose_level_fails_still_moves(service: Service, db, monkeypatch, broken):
    """Fault injection: the hard AI raising lets the easy one move; both raising, the bot
    passes. The person's move stands and the game never waits on a broken bot.
    """
    import bot.ai

    real = bot.ai.choose_move

    def failing(state, seat, level, seed):
        if level in broken:
            raise RuntimeError(f"the {level} AI broke")
        return real(state, seat, level, seed)

    await service.handle(ROOM, ALICE, "/new webfeud bot=hard seed=6")
    monkeypatch.setattr(bot.ai, "choose_move", failing)
    replies = await service.handle(ROOM, ALICE, "/pass")
    played = [r.event for r in replies if r.kind == "move_played"]
    assert [e["player"] for e in played] == ["alice", "bot-hard"]
    if broken == ("hard", "easy"):
        assert played[1]["move"] == "pass"
    else:
        assert played[1]["move"] != "pass"
    assert load_state(await db.games.get_game(1)).waiting_for() == (0,)


async def test_leaderboard_of_the_chat_or_everywhere(service: Service) -> None:
    """/leaderboard counts this chat; /leaderboard webfeud everywhere counts every chat.

    A chat with a name is called by it (the picture may be shared elsewhere).
    """
    other = ChatRef(CONSOLE, "other", "Feud club")
    await service.handle(ROOM, ALICE, "/new webfeud @bob seed=1")
    await service.handle(ROOM, BOB, "/resign")
    await service.handle(other, ALICE, "/new webfeud @bob seed=2")
    await service.handle(other, ALICE, "/resign")
    here = await service.handle(ROOM, ALICE, "/leaderboard")
    assert here[0].text.startswith("Leaderboard of this chat — all games\n")
    there = await service.handle(other, ALICE, "/leaderboard webfeud")
    assert there[0].text.startswith("Leaderboard of Feud club — Webfeud\n")
    assert [(r["player"], r["wins"]) for r in here[0].event["rows"]] == [("alice", 1), ("bob", 0)]
    everywhere = await service.handle(ROOM, ALICE, "/leaderboard webfeud everywhere")
    rows = everywhere[0].event["rows"]
    assert everywhere[0].event["scope"] == "everywhere"
    assert everywhere[0].text.startswith("Leaderboard of every chat — Webfeud\n")
    # Equal wins and points: the older user ranks first.
    assert [(r["player"], r["games"], r["wins"]) for r in rows] == [
        ("alice", 2, 1),
        ("bob", 2, 1),
    ]


def test_settings_come_from_the_environment() -> None:
    """One place reads the variables: tokens, database, seed switch, reminders."""
    settings = load_settings(
        {
            "TELEGRAM_TOKEN": "1:x",
            "FEUDBOT_DB": "/data/f.sqlite3",
            "FEUDBOT_ALLOW_SEED": "1",
            "FEUDBOT_REMINDERS": "1h,30m,24h",
            "DISCORD_TOKEN": " ",
        }
    )
    assert settings.telegram_token == "1:x"
    assert settings.discord_token is None
    assert settings.db_path == "/data/f.sqlite3"
    assert settings.allow_seed
    assert settings.reminders == (timedelta(hours=24), timedelta(hours=1), timedelta(minutes=30))
    defaults = load_settings({})
    assert defaults.db_path == "feudbot.sqlite3"
    assert not defaults.allow_seed
    assert defaults.reminders == DEFAULT_REMINDERS
    assert load_settings({"FEUDBOT_REMINDERS": ""}).reminders == ()


def test_parse_duration_refuses_nonsense() -> None:
    """Durations are <number><s|m|h|d>."""
    assert parse_duration("2d") == timedelta(days=2)
    with pytest.raises(ValueError, match="duration"):
        parse_duration("soon")


def test_unreadable_settings_stop_the_bot_with_one_line(tmp_path, monkeypatch, capsys) -> None:
    """A bad variable is a ConfigError naming it; `feudbot` prints one line, exit status 2."""
    with pytest.raises(ConfigError, match=r"^FEUDBOT_REMINDERS: '1x' is not a duration"):
        load_settings({"FEUDBOT_REMINDERS": "1x"})
    with pytest.raises(ConfigError, match=r"^TELEGRAM_WEBHOOK_PORT must be a whole number"):
        load_settings({"TELEGRAM_WEBHOOK_PORT": "80a"})
    # The same reminder twice is sent once.
    assert load_settings({"FEUDBOT_REMINDERS": "5s,5s"}).reminders == (timedelta(seconds=5),)
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.setenv("FEUDBOT_REMINDERS", "1x")
    status = main(["console", "--db", str(tmp_path / "g.sqlite3"), "--no-images"])
    err = capsys.readouterr().err
    assert status == 2
    assert err == (
        "feudbot: FEUDBOT_REMINDERS: '1x' is not a duration like 24h, 15m, 2d or 90s "
        "(see .env.example).\n"
    )

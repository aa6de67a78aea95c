"""L2: `serve_telegram` with PTB's real HTTP client and polling against a loopback Bot API."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fake_bot_api import ApiError, FakeBotServer, retry_after  # type: ignore[import-not-found]

from bot.adapters.telegram_bot import Webhook, serve_telegram
from bot.config import Settings
from bot.service import load_state
from storage import Database

pytestmark = pytest.mark.timeout(30)

ROOT = Path(__file__).resolve().parents[2]


def find_move(state: Any, seat: int) -> str:
    from bot.ai import choose_move

    return str(choose_move(state, seat, "easy", 1000 + state.turn))


class Bot:
    """One run of `serve_telegram` as a background task."""

    def __init__(self, settings: Settings, limiter: Any, webhook: Any = None) -> None:
        self.settings = settings
        self.limiter = limiter
        self.webhook = webhook
        self.stop = asyncio.Event()
        self.ready = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Bot:
        self.task = asyncio.create_task(
            serve_telegram(
                self.settings,
                stop=self.stop,
                ready=self.ready,
                webhook=self.webhook,
                rate_limiter=self.limiter(),
                poll_timeout=1,
            )
        )
        done, _ = await asyncio.wait(
            {self.task, asyncio.create_task(self.ready.wait())},
            timeout=10,
            return_when=asyncio.FIRST_COMPLETED,
        )
        if self.task in done:
            self.task.result()  # raises what went wrong
        assert self.ready.is_set(), "the bot did not start polling"
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.stop.set()
        assert self.task is not None
        await asyncio.wait_for(self.task, 15)


async def game_state(path: Path, game_id: int) -> tuple[Any, Any]:
    db = await Database.open(path)
    try:
        row = await db.games.get_game(game_id)
    finally:
        await db.close()
    assert row is not None
    return row, (load_state(row) if row.snapshot else None)


def board_message(api: Any, chat_id: int) -> dict[str, Any]:
    """The newest bot message in the chat that carries the game buttons."""
    for (chat, _mid), message in sorted(api.messages.items(), reverse=True):
        labels = [
            b["text"]
            for row in (message.get("reply_markup") or {}).get("inline_keyboard", [])
            for b in row
        ]
        if chat == chat_id and message["from"]["is_bot"] and "Pass" in labels:
            return message
    raise AssertionError("no board message")


def data_of(message: dict[str, Any], label: str) -> str:
    for row in message["reply_markup"]["inline_keyboard"]:
        for button in row:
            if button["text"] == label:
                return str(button["callback_data"])
    raise AssertionError(label)


async def test_a_game_over_http_polling_survives_a_restart(api, people, tmp_path, limiter) -> None:
    """Polling over real HTTP: a game starts, moves are played, and buttons work after a restart.

    The board posted before the restart is still the board (storage keeps which message it
    is): a pass asked under it is answered there, and no second board with buttons appears.
    """
    db_path = tmp_path / "feudbot.sqlite3"
    group = people.group
    async with FakeBotServer(api) as base_url:
        settings = Settings(
            db_path=str(db_path),
            telegram_token=api.token,
            telegram_api_base_url=base_url.removesuffix("/bot"),  # the server alone is enough
            allow_seed=True,
        )
        async with Bot(settings, limiter):
            assert api.sent("getMe")
            assert api.sent("setMyCommands")
            assert api.sent("deleteWebhook")
            api.push(api.message_update(group, people.bob, "/help"))
            api.push(api.message_update(group, people.alice, "/new webfeud @bob seed=11"))
            await api.wait_for(
                lambda: any("has started" in c.text for c in api.sent("sendPhoto")),
                what="the game to start",
            )
            board = board_message(api, group["id"])
            row, state = await game_state(db_path, 1)
            # Telegram says "too many requests" once: the edit is retried after retry_after.
            api.fail_next("editMessageMedia", retry_after(1))
            api.push(api.message_update(group, people.alice, f"/play {find_move(state, 0)}"))
            await api.wait_for(lambda: bool(api.sent("editMessageMedia")), what="the first move")
            assert [c.status for c in api.sent("editMessageMedia", ok=False)] == [429, 200]
            edit = api.sent("editMessageMedia")[-1]
            assert edit.params["message_id"] == board["message_id"]
            assert edit.photo is not None
            assert edit.photo.startswith(b"\x89PNG")
            old_board = api.message(group["id"], board["message_id"])
            old_pass = data_of(old_board, "Pass")

        # The bot restarts: the game and its board message are kept in storage.
        before = len(api.calls)
        async with Bot(settings, limiter):
            # Pass asks first, in the old message's keyboard; "Yes, pass" passes.
            api.push(api.callback_update(people.bob, old_board, old_pass))
            asked = (group["id"], board["message_id"])
            await api.wait_for(
                lambda: "Yes, pass" in str(api.message(*asked).get("reply_markup")),
                what="the question",
            )
            before = len(api.calls)
            confirm = api.message(*asked)
            query = api.callback_update(people.bob, confirm, data_of(confirm, "Yes, pass"))
            api.push(query)
            await api.wait_for(
                lambda: any(
                    c.method == "editMessageMedia" and c.params["message_id"] == asked[1]
                    for c in api.calls[before:]
                ),
                what="the pass after the restart",
            )
            answers = [
                c
                for c in api.calls[before:]
                if c.method == "answerCallbackQuery"
                and c.params["callback_query_id"] == query["callback_query"]["id"]
            ]
            assert len(answers) == 1
            assert answers[0].ok
            row, state = await game_state(db_path, 1)
            assert row.turn == 2
            assert state.history[-1].text == "pass"
            # The pressed message is still the board: the pass is shown there, its question
            # gone, and no second board with buttons appears.
            assert not [c for c in api.calls[before:] if c.method == "sendPhoto"]
            assert board_message(api, group["id"])["message_id"] == board["message_id"]
            assert "Yes, pass" not in str(api.message(*asked).get("reply_markup"))
            # The next move edits it in place.
            before = len(api.calls)
            api.push(api.message_update(group, people.alice, f"/play {find_move(state, 0)}"))
            await api.wait_for(
                lambda: any(
                    c.method == "editMessageMedia" and c.params["message_id"] == asked[1]
                    for c in api.calls[before:]
                ),
                what="the move after the restart",
            )
            api.push(api.message_update(group, people.bob, "/resign"))
            await api.wait_for(
                lambda: any("is over" in c.text for c in api.calls[before:]),
                what="the end of the game",
            )
        assert [c.status for c in api.calls if not c.ok] == [429]
        # The last getUpdates confirmed every update, so none is handled twice.
        assert api.sent("getUpdates")


async def test_after_a_restart_the_board_and_the_lobby_message_are_the_ones_before(
    api, people, tmp_path, limiter
) -> None:
    """A restart forgets no game message: a typed move edits the board posted before it, and
    a join typed after it takes Join · Start off the lobby message posted before it.
    """
    group = people.group
    async with FakeBotServer(api) as base_url:
        settings = Settings(
            db_path=str(tmp_path / "restart.sqlite3"),
            telegram_token=api.token,
            telegram_api_base_url=base_url.removesuffix("/bot"),
            allow_seed=True,
        )
        async with Bot(settings, limiter):
            api.push(api.message_update(group, people.bob, "/help"))
            api.push(api.message_update(group, people.alice, "/new webfeud @bob seed=11"))
            await api.wait_for(
                lambda: any("has started" in c.text for c in api.sent("sendPhoto")),
                what="game #1",
            )
            api.push(api.message_update(group, people.carol, "/new rummikub"))
            await api.wait_for(
                lambda: any("Game #2" in c.text for c in api.sent("sendMessage")),
                what="the lobby of game #2",
            )
            board = board_message(api, group["id"])
            [lobby] = [c.result for c in api.sent("sendMessage") if "Game #2" in c.text]
            assert "Join" in str(api.message(group["id"], lobby["message_id"])["reply_markup"])
        async with Bot(settings, limiter):
            before = len(api.calls)
            _row, state = await game_state(tmp_path / "restart.sqlite3", 1)
            api.push(api.message_update(group, people.alice, f"/play {find_move(state, 0)}"))
            dave = api.user(1004, "Dave", "dave")
            api.push(api.message_update(group, dave, "/join game=2"))
            await api.wait_for(
                lambda: (
                    any("joined" in c.text for c in api.calls[before:])
                    and any(c.method == "editMessageMedia" for c in api.calls[before:])
                ),
                what="the move and the join",
            )
            after = api.calls[before:]
            # The move: the board of before the restart, edited; no new board posted.
            [edit] = [c for c in after if c.method == "editMessageMedia"]
            assert edit.params["message_id"] == board["message_id"]
            assert not [c for c in after if c.method == "sendPhoto"]
            # The join: a new lobby message carries Join · Start, the one before has none.
            await api.wait_for(
                lambda: "reply_markup" not in api.message(group["id"], lobby["message_id"]),
                what="the old lobby message's buttons to go",
            )
            [joined] = [c.result for c in after if "joined" in c.text]
            assert "Start" in str(api.message(group["id"], joined["message_id"])["reply_markup"])


async def test_polling_asks_for_my_chat_member_and_welcomes_a_group(
    api, people, tmp_path, limiter
) -> None:
    """Polling names my_chat_member, so a group that adds the bot is welcomed over HTTP.

    Telegram's getUpdates delivers only the kinds named in `allowed_updates`.
    """
    async with FakeBotServer(api) as base_url:
        settings = Settings(
            db_path=str(tmp_path / "welcome.sqlite3"),
            telegram_token=api.token,
            telegram_api_base_url=base_url,
        )
        async with Bot(settings, limiter):
            await api.wait_for(lambda: bool(api.sent("getUpdates")), what="polling")
            group = api.group(-100556, "Fresh club")
            api.push(api.my_chat_member(group, people.alice, "left", "member"))
            await api.wait_for(
                lambda: bool(api.sent("sendMessage", chat_id=group["id"])), what="the welcome"
            )
        assert "my_chat_member" in (api.allowed_updates or [])
        [welcome] = api.sent("sendMessage", chat_id=group["id"])
        assert "/new webfeud bot=easy" in welcome.text


async def test_polling_that_fails_logs_one_line_a_try_and_goes_on(
    api, people, tmp_path, limiter, caplog
) -> None:
    """GetUpdates refused (409: another process polls with the token) or 502: one line each.

    Before, PTB logged each failed try as "Exception happened while polling for updates." with
    a traceback of some sixty lines, never saying that a second bot on the token was the cause.
    """
    conflict = "Conflict: terminated by other getUpdates request; make sure that only one bot"
    async with FakeBotServer(api) as base_url:
        settings = Settings(
            db_path=str(tmp_path / "conflict.sqlite3"),
            telegram_token=api.token,
            telegram_api_base_url=base_url,
        )
        async with Bot(settings, limiter):
            await api.wait_for(lambda: bool(api.sent("getUpdates")), what="polling")
            api.fail_next("getUpdates", ApiError(409, conflict))
            api.fail_next("getUpdates", ApiError(502, "Bad Gateway"))
            await api.wait_for(
                lambda: (
                    [c.status for c in api.sent("getUpdates", ok=False) if not c.ok] == [409, 502]
                ),
                within=15,
                what="both failed tries",
            )
            api.push(api.message_update(people.group, people.alice, "/rules webfeud"))
            await api.wait_for(
                lambda: bool(api.sent("sendMessage", chat_id=people.group["id"])),
                within=15,
                what="the answer once polling works again",
            )
            # Stopping while Telegram is away: PTB's last getUpdates, confirming, fails too.
            api.fail_next("getUpdates", ApiError(502, "Bad Gateway"), times=50)
    failures = [r for r in caplog.records if "still trying" in r.getMessage()]
    assert [r.levelname for r in failures[:2]] == ["ERROR", "WARNING"], caplog.text
    [confirming] = [r for r in caplog.records if "one more time" in r.getMessage()]
    assert confirming.levelname == "WARNING"
    assert "(NetworkError: Bad Gateway)" in confirming.getMessage()
    assert "another process polling with this TELEGRAM_TOKEN" in failures[0].getMessage()
    assert "stop it, one bot a token" in failures[0].getMessage()
    assert "cannot reach Telegram's Bot API: Bad Gateway" in failures[1].getMessage()
    assert not [r for r in caplog.records if r.exc_info], caplog.text
    assert api.token not in caplog.text


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_webhook_mode_receives_updates_over_http(api, people, tmp_path, limiter) -> None:
    """With a webhook the bot registers it (with a secret) and plays what Telegram posts."""
    port = free_port()
    hook = Webhook(f"http://127.0.0.1:{port}/tg-hook", "127.0.0.1", port, secret="s3cret")
    async with FakeBotServer(api) as base_url:
        settings = Settings(
            db_path=str(tmp_path / "hook.sqlite3"),
            telegram_token=api.token,
            telegram_api_base_url=base_url,
            allow_seed=True,
        )
        async with Bot(settings, limiter, webhook=hook):
            assert api.webhook == hook.url
            assert api.webhook_secret == "s3cret"
            assert not api.sent("getUpdates")
            forged = api.message_update(people.group, people.alice, "/new webfeud")
            assert await api.post_webhook(forged, secret="wrong") == 403
            hello = api.message_update(people.group, people.bob, "/help")
            assert await api.post_webhook(hello) == 200
            await api.post_webhook(api.message_update(people.group, people.alice, "/new webfeud"))
            await api.wait_for(
                lambda: any("Game #1" in c.text for c in api.sent("sendMessage")),
                what="the lobby",
            )
            lobby = next(c.result for c in api.sent("sendMessage") if "Game #1" in c.text)
            press = api.callback_update(people.bob, lobby, data_of(lobby, "Join"))
            await api.post_webhook(press)
            await api.wait_for(
                lambda: any("has started" in c.text for c in api.sent("sendPhoto")),
                what="the start",
            )
        assert len([c for c in api.calls if "created" in c.text]) == 1  # not the forged post


@pytest.mark.timeout(60)
@pytest.mark.parametrize("command", ["telegram", "run"])
async def test_feudbot_runs_telegram_as_a_process_and_stops_on_sigterm(
    api, people, tmp_path, command
) -> None:
    """`feudbot telegram`, and `feudbot run` with only TELEGRAM_TOKEN set, serve Telegram.

    The process reads TELEGRAM_API_BASE_URL from the environment and stops cleanly on SIGTERM.
    """
    async with FakeBotServer(api) as base_url:
        env = {
            **os.environ,
            "TELEGRAM_TOKEN": api.token,
            "TELEGRAM_API_BASE_URL": base_url,
            "FEUDBOT_DB": str(tmp_path / "process.sqlite3"),
            "DISCORD_TOKEN": "",
        }
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            command,
            cwd=str(tmp_path),  # no .env there
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        try:
            await api.wait_for(lambda: bool(api.sent("getUpdates")), within=20, what="polling")
            api.push(api.message_update(group := people.group, people.alice, "/rules webfeud"))
            await api.wait_for(
                lambda: any(
                    "Webfeud" in c.text for c in api.sent("sendMessage", chat_id=group["id"])
                ),
                what="the /rules reply",
            )
            process.send_signal(signal.SIGTERM)
            _out, err = await asyncio.wait_for(process.communicate(), 20)
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
        assert process.returncode == 0, err.decode()
        assert b"Traceback" not in err


def has_open(pid: int, path: str) -> bool:
    """Tell whether process `pid` has the file `path` open (Linux's /proc/PID/fd)."""
    fds = Path(f"/proc/{pid}/fd")
    with contextlib.suppress(OSError):  # a descriptor closed while listed: not yet
        return any(os.readlink(fd) == path for fd in fds.iterdir())
    return False


async def holding_open(pid: int, path: str) -> None:
    """Wait until process `pid` has the file `path` open."""
    for _ in range(400):
        if has_open(pid, path):
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"process {pid} never opened {path}")


@pytest.mark.timeout(60)
@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs Linux's /proc")
async def test_ctrl_c_while_the_database_opens_stops_the_bot_before_it_serves(
    api, tmp_path
) -> None:
    """Ctrl-C while `feudbot telegram` opens its database: status 0, Telegram never asked.

    Before, such a SIGINT was a KeyboardInterrupt wherever start-up was; in an aiosqlite
    connection's __del__ Python printed "Exception ignored … KeyboardInterrupt" and the bot
    went on to run, until a second Ctrl-C (about one start in 14). Now it is noted, and the bot
    stops where it would start serving. The open is held by a lock this test holds, so the
    signal comes while the process is inside it every time.
    """
    db_path = tmp_path / "process.sqlite3"
    await (await Database.open(db_path)).close()
    holder = sqlite3.connect(db_path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # the open waits for it (the busy timeout is 5 s)
    async with FakeBotServer(api) as base_url:
        env = {
            **os.environ,
            "TELEGRAM_TOKEN": api.token,
            "TELEGRAM_API_BASE_URL": base_url,
            "FEUDBOT_DB": str(db_path),
            "DISCORD_TOKEN": "",
        }
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            *("-m", "bot", "telegram"),
            cwd=str(tmp_path),  # no .env there
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        try:
            await holding_open(
                process.pid, str(db_path.resolve())
            )  # inside start-up, opening the database
            process.send_signal(signal.SIGINT)
            holder.rollback()
            _out, err = await asyncio.wait_for(process.communicate(), 30)
        finally:
            holder.close()
            if process.returncode is None:
                process.kill()
                await process.wait()
    assert process.returncode == 0, err.decode()
    assert api.calls == [], "the bot went on to start after the Ctrl-C"
    assert b"Traceback" not in err, err.decode()
    assert b"Exception ignored" not in err, err.decode()
    assert b"Stopped during start-up (SIGINT)." in err, err.decode()


async def feudbot(command: str, folder: Path, **settings: str) -> subprocess.CompletedProcess[str]:
    """Run `python -m bot <command>` to its end with these settings (no .env; Discord off)."""
    env = {
        **os.environ,
        "FEUDBOT_DB": str(folder / "process.sqlite3"),
        "DISCORD_TOKEN": "",
        **settings,
    }
    return await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "bot", command],
        cwd=str(folder),
        env=env,
        capture_output=True,
        text=True,
        timeout=45,
    )


@pytest.mark.timeout(60)
@pytest.mark.parametrize("case", ["refused token", "no api", "refused webhook"])
async def test_telegram_that_cannot_start_says_why_in_one_line(api, tmp_path, case) -> None:
    """A refused token, an unreachable Bot API, a refused webhook: one line, status 1.

    Never the token shown. A webhook Telegram refuses (plain http) was said as "cannot reach
    Telegram's Bot API: Bad webhook: …" — reached it was.
    """
    webhook: dict[str, str] = {}
    async with FakeBotServer(api) as base_url:
        token = "999999:not-the-right-token"
        if case == "no api":
            token = api.token
            with socket.socket() as closed:  # bound, never listening: connections are refused
                closed.bind(("127.0.0.1", 0))
                base_url = f"http://127.0.0.1:{closed.getsockname()[1]}/bot"
        if case == "refused webhook":
            token = api.token
            webhook = {
                "TELEGRAM_WEBHOOK_URL": "http://bot.example.org/hook",
                "TELEGRAM_WEBHOOK_PORT": str(free_port()),
            }
        done = await feudbot(
            "telegram", tmp_path, TELEGRAM_TOKEN=token, TELEGRAM_API_BASE_URL=base_url, **webhook
        )
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert token.split(":")[1] not in done.stderr
    expected = {
        "refused token": "Telegram refused the token: check TELEGRAM_TOKEN",
        "no api": "cannot reach Telegram's Bot API",
        "refused webhook": "Telegram refused to set the bot up: Bad webhook: an https url",
    }[case]
    assert expected in done.stderr


@pytest.mark.timeout(60)
@pytest.mark.parametrize("command", ["telegram", "run"])
async def test_a_taken_webhook_port_is_told_as_telegrams(api, tmp_path, command) -> None:
    """`feudbot run` with both tokens blames Telegram's webhook, not Discord, for a taken port.

    Telegram starts first, so Discord is never contacted.
    """
    async with FakeBotServer(api) as base_url:
        with socket.socket() as taken:
            taken.bind(("127.0.0.1", 0))
            taken.listen()
            done = await feudbot(
                command,
                tmp_path,
                TELEGRAM_TOKEN=api.token,
                TELEGRAM_API_BASE_URL=base_url,
                TELEGRAM_WEBHOOK_URL="https://example.test/hook",
                TELEGRAM_WEBHOOK_LISTEN="127.0.0.1",
                TELEGRAM_WEBHOOK_PORT=str(taken.getsockname()[1]),
                DISCORD_TOKEN="x.y.z" if command == "run" else "",
            )
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert "cannot start the Telegram webhook" in done.stderr
    assert "Discord" not in done.stderr

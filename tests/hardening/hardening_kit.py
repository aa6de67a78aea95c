"""Helpers of the hardening suite: moves for any game, a state's secrets, one driver per adapter.

A driver plays the part of the people in one chat platform (Discord, Telegram, the console) and
reports what they saw as `Shown` values: a message's text and pictures, and whether the whole
chat saw it. The privacy and authorization tests are written once against the drivers and run
for every adapter; each driver runs the real adapter against its loopback fake.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import re
import sqlite3
import sys
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from bot.adapters.console import Console
from bot.adapters.telegram_bot import ACTIONS, pass_label, serve_telegram
from bot.ai import choose_move
from bot.config import Settings
from bot.core.game import GameState
from bot.replies import ChatTarget, Reply
from bot.service import CONSOLE, ChatRef, Service, load_state
from storage import Database

GAME_TABLES = ("games", "seats", "moves", "deadlines", "results")
PEOPLE = ("alice", "bob", "carol", "dave")
_TOKEN = re.compile(r"[A-Za-z0-9?=]+")


def telegram_fixtures() -> Any:
    """The module of tests/telegram/conftest.py as this suite's conftest loaded it."""
    return sys.modules["feud_telegram_fixtures"]


# --- games -------------------------------------------------------------------------------------


def move_command(state: GameState, seat: int, seed: int = 1) -> str:
    """A legal move for `seat` as a command: ``/place …`` in NMBR 9, ``/play …`` elsewhere."""
    move = str(choose_move(state, seat, "easy", seed))
    return f"/{'place' if state.game_key == 'nmbr9' else 'play'} {move}"


async def state_of(db: Database, game_id: int) -> GameState:
    """The stored state of a started game."""
    row = await db.games.get_game(game_id)
    assert row is not None
    return load_state(row)


def fingerprint(db: Database) -> list[list[tuple[object, ...]]]:
    """Every row of the game tables, read through a connection of its own."""
    conn = sqlite3.connect(db.path)
    try:
        return [conn.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall() for t in GAME_TABLES]
    finally:
        conn.close()


@dataclass(frozen=True, slots=True)
class Secrets:
    """What only one player may see in a state: rack listings, unrevealed moves, hidden tiles."""

    racks: frozenset[str] = frozenset()  # a rack as its private message lists it
    moves: frozenset[str] = frozenset()  # a move the others may not see yet
    codes: frozenset[str] = frozenset()  # tile codes (2+ characters) on a rack, nowhere public

    @property
    def texts(self) -> frozenset[str]:
        """Return the racks and the hidden moves."""
        return self.racks | self.moves

    def found_in(self, text: str) -> list[str]:
        """Return the secrets that `text` gives away."""
        tokens = set(_TOKEN.findall(text))
        return sorted({s for s in self.texts if s in text} | (self.codes & tokens))

    def __bool__(self) -> bool:
        return bool(self.racks or self.moves or self.codes)


def secrets_of(state: GameState) -> Secrets:
    """Derive every seat's secrets from the stored state (no knowledge of the messages)."""
    public = state.view(None)
    public_tokens = set(_TOKEN.findall(json.dumps(public)))
    racks: set[str] = set()
    moves: set[str] = set()
    codes: set[str] = set()
    for seat in range(state.players):
        rack = state.rack(seat)
        if len(rack) >= 3:
            racks.add(" ".join(rack))
        if len(rack) >= 5:
            racks.add("".join(rack))
        codes |= {tile for tile in rack if len(tile) >= 2 and tile not in public_tokens}
        # A move the others may not see yet (NMBR 9 placements until the round ends).
        hidden = [r for r in state.view(seat).get("history", []) if r not in public["history"]]
        moves |= {r["text"] for r in hidden if any(ch.isdigit() for ch in r["text"])}
    # A hidden placement written as one already public ("M8 90" in an earlier round) is no tell.
    moves -= {r["text"] for r in public.get("history", [])}
    return Secrets(frozenset(racks), frozenset(moves), frozenset(codes))


# --- what people saw ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Shown:
    """One message as people see it; `public` when the whole chat (group, channel) sees it."""

    text: str
    images: tuple[bytes, ...] = ()
    public: bool = False
    rack_image: bool = False  # a private picture of someone's rack


class Driver(Protocol):
    """The people of one chat platform, acting through its real adapter."""

    name: str
    db: Database
    buttons: bool  # the platform has game buttons

    async def prepare(self) -> None:
        """Get the platform ready (who allowed private messages, who is known)."""

    async def say(self, who: str, text: str, chat: str = "main") -> list[Shown]:
        """`who` types a command of the command language in a chat; return what was shown."""

    async def press(self, who: str, action: str, game_id: int) -> list[Shown]:
        """`who` presses a game's newest `action` button; return what was shown."""

    def close_dms(self, who: str) -> None:
        """`who` stops taking private messages (closes DMs, blocks the bot), unknown to the bot."""

    def everything(self) -> list[Shown]:
        """Return every message shown so far, oldest first."""


async def new_game(driver: Driver, key: str, seed: int) -> int:
    """Alice starts a game of `key` with bob (and /start when it waits in the lobby)."""
    await driver.say("alice", f"/new {key} @bob seed={seed}")
    rows = await driver.db.games.list_games(statuses=("lobby", "active"), limit=1_000_000)
    game_id = max(row.id for row in rows)
    row = await driver.db.games.get_game(game_id)
    assert row is not None
    if row.status == "lobby":
        await driver.say("alice", f"/start game={game_id}")
    row = await driver.db.games.get_game(game_id)
    assert row is not None
    assert row.status == "active", row
    return game_id


# --- Discord -----------------------------------------------------------------------------------


class DiscordDriver:
    """The Discord people: alice and bob (members), carol (Manage Server), dave (a member)."""

    name = "discord"
    buttons = True

    def __init__(self, harness: Any) -> None:
        self.harness = harness
        self.fake = harness.fake
        self.db: Database = harness.db
        self.users = {
            "alice": harness.alice,
            "bob": harness.bob,
            "carol": harness.carol,
            "dave": self.fake.add_user("dave"),
        }
        self.chats = {"main": self.fake.channel_id, "other": self.fake.add_channel("elsewhere")}

    async def prepare(self) -> None:
        await self.harness.slash(self.users["alice"], "notify", dm=True)

    def _slash(self, text: str) -> tuple[str, dict[str, Any]]:
        """Turn a command line into a slash command and its options, as a person fills them."""
        name, *words = text.split()
        name = name.lstrip("/")
        options: dict[str, Any] = {}
        if name == "new":
            options["game"] = words[0]
            invited = [w[1:] for w in words[1:] if w.startswith("@")]
            for slot, person in zip(("player", "player2", "player3"), invited, strict=False):
                options[slot] = str(self.users[person])
            for word in words[1:]:
                if word.startswith("seed="):
                    options["seed"] = int(word[5:])
            return name, options
        rest = []
        for word in words:
            if word.startswith("game="):
                options["game"] = int(word[5:])
            else:
                rest.append(word)
        if rest:
            spec = next(c for cs in self.fake.commands.values() for c in cs if c["name"] == name)
            field = next(o["name"] for o in spec.get("options", []) if o["name"] != "game")
            options[field] = " ".join(rest)
        return name, options

    def _shown(self, msg: Any) -> Shown:
        return Shown(
            msg.text,
            tuple(a.data for a in msg.attachments),
            msg.public,
            not msg.public and any("-rack" in a.filename for a in msg.attachments),
        )

    def _new(self, before: set[int]) -> list[Shown]:
        return [
            self._shown(m)
            for m in self.fake.messages.values()
            if m.id not in before and not m.deleted
        ]

    async def say(self, who: str, text: str, chat: str = "main") -> list[Shown]:
        name, options = self._slash(text)
        before = set(self.fake.messages)
        await self.harness.slash(self.users[who], name, in_channel=self.chats[chat], **options)
        return self._new(before)

    async def press(self, who: str, action: str, game_id: int) -> list[Shown]:
        message = self.fake.last_with_buttons(f"fb:{action}:{game_id}:")
        before = set(self.fake.messages)
        if action == "pass":  # Pass asks first: "Yes, pass"
            await self.harness.pass_turn(self.users[who], message)
        else:
            await self.harness.click(
                self.users[who], message, message.button(f"fb:{action}:{game_id}:")
            )
        return self._new(before)

    def close_dms(self, who: str) -> None:
        self.fake.closed_dms.add(self.users[who])

    def everything(self) -> list[Shown]:
        return [self._shown(m) for m in self.fake.messages.values() if not m.deleted]


# --- Telegram ----------------------------------------------------------------------------------

_MESSAGES = (
    "sendMessage",
    "sendPhoto",
    "editMessageText",
    "editMessageCaption",
    "editMessageMedia",
)


class TelegramDriver:
    """The Telegram people: alice (admin, started the bot), bob, carol (admin), dave."""

    name = "telegram"
    buttons = True

    def __init__(self, tg: Any, people: Any) -> None:
        self.tg = tg
        self.api = tg.api
        self.db: Database = tg.db
        self.users = {
            "alice": people.alice,
            "bob": people.bob,
            "carol": people.carol,
            "dave": self.api.user(1004, "Dave", "dave"),
        }
        self.chats = {"main": people.group, "other": self.api.group(-100999, "Other club")}
        self.api.admins[people.group["id"]].add(people.carol["id"])

    async def prepare(self) -> None:
        for person in ("bob", "carol", "dave"):
            await self.tg.say(self.users[person], "/help")  # known to the bot by their @name
        alice = self.users["alice"]
        await self.tg.say(alice, "/start", chat=self.api.private(alice))

    def _shown(self, calls: list[Any]) -> list[Shown]:
        out = []
        for call in calls:
            if call.method == "answerCallbackQuery" and call.params.get("text"):
                out.append(Shown(call.text))  # an alert or a toast: the presser alone sees it
            elif call.method in _MESSAGES and call.ok:
                photo = call.photo
                public = call.chat_id is not None and call.chat_id < 0
                names = " ".join(call.filenames.values())
                out.append(
                    Shown(
                        call.text,
                        (photo,) if photo else (),
                        public,
                        not public and "-rack" in names,
                    )
                )
        return out

    async def say(self, who: str, text: str, chat: str = "main") -> list[Shown]:
        return self._shown(await self.tg.say(self.users[who], text, chat=self.chats[chat]))

    async def press(self, who: str, action: str, game_id: int) -> list[Shown]:
        row = await self.db.games.get_game(game_id)
        assert row is not None
        label = pass_label(row.game_key) if action == "pass" else ACTIONS[action]
        assert label is not None
        board = self.tg.board(game_id)
        if label == ACTIONS["pass"]:  # Pass asks first: "Yes, pass"
            return self._shown(await self.tg.pass_turn(self.users[who], board))
        return self._shown(await self.tg.press(self.users[who], board, label))

    def close_dms(self, who: str) -> None:
        self.api.blocked.add(self.users[who]["id"])

    def everything(self) -> list[Shown]:
        return self._shown(self.api.calls)


# --- the console -------------------------------------------------------------------------------


class ConsoleDriver:
    """The console's local players (carol is the one at the keyboard, so the chat's admin).

    The console serves one chat; "another chat" is reached through the same service, as a second
    console (or a chat platform) on the same database would.
    """

    name = "console"
    buttons = False

    def __init__(self, db: Database, image_dir: Path) -> None:
        self.db = db
        self.out = io.StringIO()
        self.service = Service(db, allow_seed=True)
        self.console = Console(
            self.service, "carol", out=self.out, json_mode=True, image_dir=image_dir
        )
        self._elsewhere: list[Shown] = []

    async def prepare(self) -> None:
        return None

    def _lines(self, start: int = 0) -> list[Shown]:
        out = []
        for line in self.out.getvalue()[start:].splitlines():
            obj = json.loads(line)
            public = obj["to"] == "chat"
            text = obj["text"] + "\n" + json.dumps(obj["event"])
            images = tuple(Path(p).read_bytes() for p in obj["images"])
            rack = not public and any("-rack" in Path(p).name for p in obj["images"])
            out.append(Shown(text, images, public, rack))
        return out

    async def say(self, who: str, text: str, chat: str = "main") -> list[Shown]:
        if chat == "main":
            start = len(self.out.getvalue())
            await self.console.feed(f"{who}: {text}")
            return self._lines(start)
        replies = await self.service.handle(
            ChatRef(CONSOLE, chat), await self.console.user(who), text
        )
        shown = [reply_shown(r) for r in replies]
        self._elsewhere += shown
        return shown

    async def press(self, who: str, action: str, game_id: int) -> list[Shown]:
        raise NotImplementedError("the console has no buttons")

    def close_dms(self, who: str) -> None:
        return None  # one terminal: its private section always reaches its player

    def everything(self) -> list[Shown]:
        return self._lines() + self._elsewhere


def reply_shown(reply: Reply) -> Shown:
    """A service reply as the console prints it (text and event; pictures by content)."""
    images = tuple(i if isinstance(i, bytes) else i.data for i in reply.images)
    return Shown(
        reply.text + "\n" + json.dumps(reply.event),
        images,
        isinstance(reply.to, ChatTarget),
    )


# --- time and processes ------------------------------------------------------------------------


async def eventually(predicate: Callable[[], bool], what: str, within: float = 15.0) -> None:
    """Wait (polling) until `predicate()` holds; fail saying `what` did not happen."""
    deadline = asyncio.get_running_loop().time() + within
    while not predicate():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


@contextlib.asynccontextmanager
async def telegram_process(api: Any, db_path: Path) -> AsyncIterator[None]:
    """Run `feudbot telegram` as production does (`serve_telegram`: polling, the dispatcher
    firing what is overdue before it reports ready) over the fake Bot API, until the block ends.
    """
    fixtures = telegram_fixtures()
    settings = Settings(db_path=str(db_path), telegram_token=api.token, allow_seed=True)
    stop, ready = asyncio.Event(), asyncio.Event()
    task = asyncio.create_task(
        serve_telegram(
            settings,
            stop=stop,
            ready=ready,
            request=fixtures.RecordingRequest(api),
            get_updates_request=fixtures.RecordingRequest(api),
            rate_limiter=fixtures.fast_limiter(),
            poll_timeout=1,
        )
    )
    started = asyncio.create_task(ready.wait())
    done, _ = await asyncio.wait({task, started}, timeout=15, return_when="FIRST_COMPLETED")
    if task in done:
        started.cancel()
        task.result()  # raises what went wrong
    assert ready.is_set(), "the Telegram bot did not start"
    try:
        yield
    finally:
        stop.set()
        await asyncio.wait_for(task, 15)

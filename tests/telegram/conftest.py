"""Fixtures of the Telegram tests: the fake Bot API, and the real PTB `Application` over it (L1).

`fake_bot_api.py` is loaded here under its own name so the test modules can import it
(pytest runs with ``--import-mode=importlib`` and this folder is not a package).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.support import load_module

# One module object, however often this conftest is loaded (tests/hardening/conftest.py loads it
# again under another name): a second copy gave the tests other classes than the fake's own, so
# an injected 429 went unnoticed when the hardening suite had been collected too.
fake_bot_api = load_module("fake_bot_api", Path(__file__).with_name("fake_bot_api.py"))

from telegram import Update  # noqa: E402
from telegram.ext import AIORateLimiter  # noqa: E402

from bot.adapters.telegram_bot import TelegramFrontEnd, build_application  # noqa: E402
from bot.service import Service  # noqa: E402
from storage import Database  # noqa: E402

FakeBotAPI = fake_bot_api.FakeBotAPI
RecordingRequest = fake_bot_api.RecordingRequest
Call = fake_bot_api.Call

ALICE_ID, BOB_ID, CAROL_ID = 1001, 1002, 1003
GROUP_ID = -1001234567890


class People:
    """The Telegram users and chats of a test."""

    def __init__(self, api: Any) -> None:
        self.alice = api.user(ALICE_ID, "Alice", "alice")
        self.bob = api.user(BOB_ID, "Bob", "bob")
        self.carol = api.user(CAROL_ID, "Carol")  # no @username
        self.group = api.group(GROUP_ID, "Feud club", admins=(ALICE_ID,))


@pytest.fixture
def api() -> Any:
    return FakeBotAPI()


@pytest.fixture
def people(api: Any) -> People:
    return People(api)


def fast_limiter() -> AIORateLimiter:
    """The real limiter class, without the 20-per-minute wait (tests send more), retrying 429s."""
    return AIORateLimiter(overall_max_rate=0, group_max_rate=0, max_retries=2)


@pytest.fixture
def limiter() -> Any:
    """Make rate limiters for the tests (see `fast_limiter`)."""
    return fast_limiter


class Harness:
    """The real `Application` over the recording `BaseRequest` fake (L1)."""

    def __init__(self, api: Any, app: Any, front: TelegramFrontEnd, service: Service) -> None:
        self.api = api
        self.app = app
        self.front = front
        self.service = service
        self.db = service.db
        self.errors: list[BaseException] = []

    async def _process(self, update: dict[str, Any]) -> list[Any]:
        first = len(self.api.calls)
        await self.app.process_update(Update.de_json(update, self.app.bot))
        return self.api.calls[first:]

    async def say(
        self,
        user: dict[str, Any],
        text: str,
        chat: dict[str, Any] | None = None,
        *,
        mentions: dict[str, dict[str, Any]] | None = None,
        sender_chat: dict[str, Any] | None = None,
        topic: int | None = None,
        reply_to: dict[str, Any] | None = None,
    ) -> list[Any]:
        """`user` writes `text` in `chat` (default: the group); return the calls it caused.

        `topic`: typed in that topic of a forum; `reply_to`: as a reply to that message.
        """
        chat = chat if chat is not None else self.api.chats[GROUP_ID]
        update = self.api.message_update(
            chat,
            user,
            text,
            mentions=mentions,
            sender_chat=sender_chat,
            topic=topic,
            reply_to=reply_to,
        )
        return await self._process(update)

    async def process(self, update: dict[str, Any]) -> list[Any]:
        """Feed any update (a service message, an edit) to the bot; return the calls it caused."""
        return await self._process(update)

    async def press(self, user: dict[str, Any], message: dict[str, Any], label: str) -> list[Any]:
        """`user` presses the button `label` under the bot's `message`."""
        data = button_data(message, label)
        return await self._process(self.api.callback_update(user, message, data))

    async def pass_turn(self, user: dict[str, Any], message: dict[str, Any]) -> list[Any]:
        """`user` presses Pass under `message`, then "Yes, pass" (the calls of the second).

        A Pass refused at once (not `user`'s turn) asks nothing: the calls of that press.
        """
        asked = await self.press(user, message, "Pass")
        if [c.method for c in asked] == ["answerCallbackQuery"]:
            assert asked[0].params["show_alert"] is True, asked
            return asked
        assert [c.method for c in asked] == ["answerCallbackQuery", "editMessageReplyMarkup"], asked
        confirm = self.api.message(message["chat"]["id"], message["message_id"])
        return await self.press(user, confirm, "Yes, pass")

    async def press_data(
        self, user: dict[str, Any], message: dict[str, Any], data: str
    ) -> list[Any]:
        return await self._process(self.api.callback_update(user, message, data))

    def board(self, game_id: int) -> dict[str, Any]:
        """The current JSON of a game's board message, as Telegram holds it."""
        known = self.front.boards.known[game_id]
        return self.api.message(known.chat_id, known.message_id)


def button_data(message: dict[str, Any], label: str) -> str:
    for row in (message.get("reply_markup") or {}).get("inline_keyboard", []):
        for button in row:
            if button["text"] == label:
                return str(button["callback_data"])
    raise AssertionError(
        f"no button {label!r} under {message.get('text') or message.get('caption')!r}"
    )


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "feudbot.sqlite3"


@pytest.fixture
async def tg(api: Any, people: People, db_path: Path) -> AsyncIterator[Harness]:
    async with running(api, db_path) as harness:
        yield harness


@asynccontextmanager
async def running(api: Any, db_path: Path) -> AsyncIterator[Harness]:
    """Run the bot over the database file until the block ends: twice in a row is a restart."""
    db = await Database.open(db_path)
    service = Service(db, allow_seed=True, render=True)
    app, front = build_application(
        api.token,
        service,
        request=RecordingRequest(api),
        get_updates_request=RecordingRequest(api),
        rate_limiter=fast_limiter(),
    )
    harness = Harness(api, app, front, service)

    async def collect(update: object, context: Any) -> None:
        harness.errors.append(context.error)

    app.add_error_handler(collect)
    try:
        async with app:
            await front.setup(app.bot)
            await app.start()
            try:
                yield harness
            finally:
                await app.stop()
    finally:
        await db.close()

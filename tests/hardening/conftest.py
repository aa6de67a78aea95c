"""Fixtures of the hardening suite: the Discord and Telegram loopback fakes, reused, not copied.

The fixtures (`fake`, `harness`, `db` for Discord; `api`, `people`, `tg`, `db_path`, `limiter`
for Telegram) are the ones of tests/discord/conftest.py and tests/telegram/conftest.py, loaded
here under their own names (pytest runs with ``--import-mode=importlib``, and fixtures of a
sibling folder are not visible otherwise). Helpers of this suite live in `hardening_kit.py`.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support import load_module

TESTS = Path(__file__).resolve().parents[1]
for folder in (TESTS / "discord", Path(__file__).parent):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))


discord_fixtures = load_module("feud_discord_fixtures", TESTS / "discord" / "conftest.py")
telegram_fixtures = load_module("feud_telegram_fixtures", TESTS / "telegram" / "conftest.py")

# Re-exported: pytest finds fixtures by the names a conftest module holds.
fake = discord_fixtures.fake
db = discord_fixtures.db
harness = discord_fixtures.harness
api = telegram_fixtures.api
people = telegram_fixtures.people
db_path = telegram_fixtures.db_path
limiter = telegram_fixtures.limiter
tg = telegram_fixtures.tg

ADAPTERS = ("discord", "telegram", "console")


@pytest.fixture(params=ADAPTERS)
def driver(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    """The people of one adapter (see hardening_kit.Driver), over its real library and fake."""
    import hardening_kit

    if request.param == "discord":
        return hardening_kit.DiscordDriver(request.getfixturevalue("harness"))
    if request.param == "telegram":
        return hardening_kit.TelegramDriver(
            request.getfixturevalue("tg"), request.getfixturevalue("people")
        )
    return hardening_kit.ConsoleDriver(request.getfixturevalue("db"), tmp_path / "images")

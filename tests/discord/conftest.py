"""Fixtures: the loopback Discord, a database, and the real `commands.Bot.start()` against them."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

# pytest runs with --import-mode=importlib: make the helpers importable by their (unique) names.
sys.path.insert(0, str(Path(__file__).parent))
from discord_harness import Harness
from fake_discord import FakeDiscord, pointed_at

from storage import Database


@pytest.fixture
async def fake(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    async with pointed_at(monkeypatch) as server:
        yield server


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(str(tmp_path / "feud.sqlite3"))
    try:
        yield database
    finally:
        await database.close()


@pytest.fixture
async def harness(fake: FakeDiscord, db: Database) -> AsyncIterator[Harness]:
    h = Harness(fake, db)
    await h.start()
    try:
        yield h
    finally:
        await h.stop()
        assert fake.late == [], "an interaction was acknowledged after the deadline"
        h.assert_racks_private()

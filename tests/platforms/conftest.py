"""Fixtures of the tests of both platforms in one process."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.platforms.platform_kit import fake_discord


@pytest.fixture
async def discord_fake(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Any]:
    """Run the loopback Discord fake, this process's discord.py pointed at it."""
    async with fake_discord.pointed_at(monkeypatch) as server:
        yield server

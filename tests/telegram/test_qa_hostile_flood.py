"""L1, QA (a hostile member): one person flooding a group with lobbies."""

from __future__ import annotations

import pytest

from bot.service import LOBBIES_A_PERSON

pytestmark = pytest.mark.timeout(30)

FLOOD = 30


async def test_one_person_cannot_flood_a_group_with_lobbies(tg, people, api) -> None:
    """Mallory sends /new rummikub 30 times: five lobbies open, the others are refused.

    Before, every one opened a lobby and posted its message: the group's rate limit (about 17
    of the bot's messages a minute, `default_rate_limiter`) was spent on Mallory's lobbies for
    nearly two minutes, and the news, turn notices and reminders of everyone else's games in
    the group waited behind them.
    """
    mallory = api.user(2001, "Mallory", "mallory")
    for _ in range(FLOOD):
        await tg.say(mallory, "/new rummikub")
    lobbies = await tg.db.games.list_games(statuses=("lobby",))
    assert len(lobbies) == LOBBIES_A_PERSON
    refused = await tg.say(mallory, "/new rummikub")
    assert [c.text for c in refused if c.text] == [
        '<a href="tg://user?id=2001">mallory</a>: You have 5 games waiting to start here (#1, '
        "#2, #3, #4, #5): start one (/start game=1) or <code>/cancel</code> one before making "
        "another."
    ]
    await tg.say(mallory, "/cancel game=2")
    await tg.say(mallory, "/new rummikub")
    assert len(await tg.db.games.list_games(statuses=("lobby",))) == LOBBIES_A_PERSON
    assert tg.errors == []

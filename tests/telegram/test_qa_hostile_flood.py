"""L1, QA (a hostile member): one person flooding a group with lobbies."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.timeout(30)

FLOOD = 30
LOBBIES_A_PERSON = 10  # any cap would do; a group takes 20 messages a minute from the bot


@pytest.mark.xfail(
    strict=True,
    reason=(
        "design: nothing caps the lobbies one person may open in a chat; each /new posts a "
        "lobby message in the group's 20-a-minute budget (and a bare /join lists at most 100)"
    ),
)
async def test_one_person_cannot_flood_a_group_with_lobbies(tg, people, api) -> None:
    """Mallory sends /new rummikub 30 times: every one opens a lobby and posts its message.

    The group's rate limit (about 17 of the bot's messages a minute, `default_rate_limiter`)
    is then spent on Mallory's lobbies for nearly two minutes, and the news, turn notices and
    reminders of everyone else's games in the group wait behind them; 300 lobbies would hold
    them up for about 20 minutes. A bare /join then says "This chat has several games to join
    (#201, … and 92 more …)" of 300, as the chat's list stops at 100 (`list_games`).
    """
    mallory = api.user(2001, "Mallory", "mallory")
    for _ in range(FLOOD):
        await tg.say(mallory, "/new rummikub")
    lobbies = await tg.db.games.list_games(statuses=("lobby",))
    assert len(lobbies) <= LOBBIES_A_PERSON
    assert tg.errors == []

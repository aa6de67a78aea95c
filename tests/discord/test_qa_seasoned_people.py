"""QA (a server that has played for weeks): members who rename themselves are shown as they are."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.timeout(30)


async def test_a_member_renamed_and_renamed_back_is_shown_by_the_name_they_have(harness) -> None:
    """Bob shows "Bobby" for a while, then "bob" again: games and leaderboards say "bob"."""
    fake = harness.fake
    bob = harness.bob
    await harness.slash(harness.alice, "new", game="webfeud", player=str(bob), seed=3)
    await harness.slash(bob, "games")
    fake.users[bob]["global_name"] = "Bobby"
    await harness.slash(bob, "resign", game=1)
    fake.users[bob]["global_name"] = "bob"
    inter = await harness.slash(bob, "board", game=1)
    assert "bob" in harness.replies(inter)[0].text
    assert "Bobby" not in harness.replies(inter)[0].text, harness.replies(inter)[0].text
    inter = await harness.slash(harness.alice, "leaderboard")
    text = harness.replies(inter)[0].text
    assert "Bobby" not in text, text

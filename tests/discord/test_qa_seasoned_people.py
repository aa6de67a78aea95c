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


async def test_a_member_renamed_while_away_is_invited_under_the_new_name(harness) -> None:
    """Bob, known as "bob", is "Bobby" when alice invites him: the game says "Bobby" throughout."""
    fake = harness.fake
    bob = harness.bob
    await harness.slash(bob, "games")  # the bot has seen him as bob
    fake.users[bob]["global_name"] = "Bobby"
    inter = await harness.slash(harness.alice, "new", game="webfeud", player=str(bob), seed=3)
    public = [m.text for m in harness.replies(inter) if m.public]
    assert any("alice vs Bobby" in text for text in public), public
    await harness.slash(harness.alice, "resign")
    inter = await harness.slash(harness.alice, "leaderboard")
    assert "Bobby" in harness.replies(inter)[0].text

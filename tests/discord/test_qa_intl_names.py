"""L1, QA (an international group of friends): names of invited members in Discord's messages."""

from __future__ import annotations

import pytest

from bot.adapters.discord_bot import PLATFORM

pytestmark = pytest.mark.timeout(30)


async def test_an_invited_members_name_cannot_reverse_the_news(harness) -> None:
    """A member shown as "\u202ebob" (a right-to-left override) is invited before writing a word.

    Before: the member was stored under the name as Discord sent it, and "Game #1 (Webfeud)
    created with alice, \u202ebob." reversed everything after the override in the channel;
    only once he wrote a command himself was he known as "bob".
    """
    bob = harness.fake.add_user("\u202ebob")
    inter = await harness.slash(harness.alice, "new", game="webfeud", player=str(bob), seed=3)
    created = harness.replies(inter)[0].text
    assert "created with alice, bob." in created, created
    assert "\u202e" not in created
    stored = await harness.db.users.get_user_by_platform_id(PLATFORM, str(bob))
    assert stored is not None
    assert stored.display_name == "bob"


async def test_an_invitation_from_a_hebrew_name_keeps_its_order(harness) -> None:
    """In "דוד invited you to game #1 (Webfeud)" the inviter's Hebrew name is a bidi isolate.

    Before: the mention line "<@bob>: דוד invited you …" and the DM began their words with the
    Hebrew name, so Discord laid the line out right to left around it.
    """
    david = harness.fake.add_user("דוד")
    bob = harness.bob
    inter = await harness.slash(david, "new", game="webfeud", player=str(bob), seed=3)
    pings = [m.content for m in harness.replies(inter) if m.public and m.pings()["users"]]
    assert pings == [
        f"<@{bob}>: \u2068דוד\u2069 invited you to game #1 (Webfeud); My rack shows your tiles."
    ]

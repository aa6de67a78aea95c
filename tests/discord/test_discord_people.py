"""Members named in Discord commands are found by their id, never by a name another may share."""

from __future__ import annotations

import pytest

from bot.adapters.discord_bot import PLATFORM

pytestmark = pytest.mark.timeout(30)


async def seat_ids(harness, game_id: int) -> list[str]:
    """The Discord ids of a game's people, seat by seat."""
    ids = []
    for seat in await harness.db.games.seats(game_id):
        user = await harness.db.users.get_user(seat.user_id)
        ids.append(user.platform_user_id)
    return ids


async def test_an_invited_member_is_seated_even_when_another_shows_the_same_name(harness) -> None:
    """Two members called "alex": the one picked gets the seat and the tiles, not the other."""
    fake = harness.fake
    older = fake.add_user("alex")
    newer = fake.add_user("alex")
    await harness.slash(older, "games")  # the bot knows the older alex first
    inter = await harness.slash(newer, "new", game="webfeud", player=str(older), seed=3)
    assert "created" in harness.replies(inter)[0].text, harness.replies(inter)[0].text
    assert await seat_ids(harness, 1) == [str(newer), str(older)]
    # A namesake seen just now is not picked for the @alex another member invites either.
    await harness.slash(newer, "games")
    inter = await harness.slash(harness.alice, "new", game="webfeud", player=str(older), seed=4)
    assert "created" in harness.replies(inter)[0].text
    assert await seat_ids(harness, 2) == [str(harness.alice), str(older)]


async def test_stats_of_a_member_are_that_members_own(harness) -> None:
    """/stats player:@sam shows the picked sam's record, not a namesake's seen more recently."""
    fake = harness.fake
    winner = fake.add_user("sam")
    namesake = fake.add_user("sam")
    await harness.slash(winner, "new", game="webfeud", player=str(harness.alice), seed=1)
    await harness.slash(harness.alice, "start")
    await harness.slash(harness.alice, "resign")
    await harness.slash(namesake, "games")  # the namesake is the sam seen last
    inter = await harness.slash(harness.alice, "stats", player=str(winner))
    text = harness.replies(inter)[0].text
    assert "1 win" in text or "won 1" in text, text
    inter = await harness.slash(harness.alice, "stats", player=str(namesake))
    assert "no finished games" in harness.replies(inter)[0].text
    stored = await harness.db.users.get_user_by_platform_id(PLATFORM, str(namesake))
    assert stored is not None
    assert stored.display_name == "sam"


async def test_stats_of_an_app_and_a_member_picked_twice_are_refused(harness) -> None:
    """/stats player:@feudbot is refused (no record made); player: and player2: alike, told so.

    So is the asker picking themselves.
    """
    fake = harness.fake
    inter = await harness.slash(harness.alice, "stats", player=str(fake.app_id))
    [refused] = harness.replies(inter)
    assert not refused.public
    assert refused.text.startswith("feudbot is an app, not a player: /stats player:@someone")
    assert await harness.db.users.get_user_by_platform_id(PLATFORM, str(fake.app_id)) is None
    bob = str(harness.bob)
    inter = await harness.slash(harness.alice, "new", game="webfeud", player=bob, player2=bob)
    [twice] = harness.replies(inter)
    assert twice.text.startswith("@bob is in this game already.")  # not "played by 2, not 3"
    me = str(harness.alice)
    inter = await harness.slash(harness.alice, "new", game="webfeud", player=me)
    [myself] = harness.replies(inter)
    assert myself.text.startswith(
        "You take the first seat yourself: name only the others, e.g. /new game:Webfeud "
        "player:@friend."
    )
    assert await harness.db.games.list_games() == []


async def test_an_invited_member_is_told_by_one_mention_or_by_dm(harness) -> None:
    """/new player:@bob mentions bob (only him) once; who allowed DMs is DMed, never mentioned."""
    fake = harness.fake
    alice, bob, carol = harness.alice, harness.bob, harness.carol
    inter = await harness.slash(alice, "new", game="webfeud", player=str(bob), seed=3)
    pings = [m for m in harness.replies(inter) if m.public and m.pings()["users"]]
    assert [(m.content, m.pings()["users"]) for m in pings] == [
        (
            f"<@{bob}>: alice invited you to game #1 (Webfeud); My rack shows your tiles.",
            {str(bob)},
        )
    ]

    # A lobby: bob is mentioned; carol, who allowed DMs, is DMed instead.
    await harness.slash(carol, "notify", dm=True)
    inter = await harness.slash(
        alice, "new", game="rummikub", player=str(bob), player2=str(carol), seed=3
    )
    pings = [m for m in harness.replies(inter) if m.public and m.pings()["users"]]
    assert [(m.content, m.pings()["users"]) for m in pings] == [
        (
            f"<@{bob}>: alice invited you to game #2 (Rummikub); it begins when someone presses "
            "Start.",
            {str(bob)},
        )
    ]
    [dm] = fake.dms_to(carol)
    assert dm.text == (
        "alice invited you to game #2 (Rummikub) in #games; it begins when someone presses Start."
    )

    # A game dealt at once: one DM, the invitation heading carol's rack; no mention of her.
    mentioned = [m for m in fake.public_messages() if str(carol) in m.pings()["users"]]
    inter = await harness.slash(alice, "new", game="webfeud", player=str(carol), seed=3)
    assert [m for m in fake.public_messages() if str(carol) in m.pings()["users"]] == mentioned
    dm = fake.dms_to(carol)[-1]
    assert dm.text.startswith("alice invited you to game #3 (Webfeud) in #games.\nYour rack")
    assert len(fake.dms_to(carol)) == 2

    # Her DMs closed: the mention stands in for the DM, once.
    fake.closed_dms.add(carol)
    inter = await harness.slash(alice, "new", game="webfeud", player=str(carol), seed=3)
    pinged = [m for m in fake.public_messages() if str(carol) in m.pings()["users"]]
    assert [m.content for m in pinged[len(mentioned) :]] == [
        f"<@{carol}>: alice invited you to game #4 (Webfeud); My rack shows your tiles."
    ]
    assert fake.errors == ["403 50007 Cannot send messages to this user"]  # the refused DM

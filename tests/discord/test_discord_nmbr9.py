"""NMBR 9 through Discord slash commands: /place, /moves; placements private to round end."""

from __future__ import annotations

from datetime import timedelta

import pytest
from discord_harness import Harness, clocked

from bot.ai import choose_move
from bot.service import load_state

pytestmark = pytest.mark.timeout(60)


async def test_a_round_placed_with_slash_commands(harness) -> None:
    """/moves answers privately; a placement stays private until every seat has placed."""
    fake = harness.fake
    assert {"place", "moves"} <= set(fake.command_names())
    place = next(c for c in fake.commands[fake.guild_id] if c["name"] == "place")
    assert [o["name"] for o in place["options"]] == ["placement", "game"]
    await harness.slash(harness.alice, "new", game="nmbr9", player=str(harness.bob), seed=6)
    await harness.slash(harness.alice, "start")
    state = load_state(await harness.db.games.get_game(1))

    inter = await harness.slash(harness.bob, "moves")
    msgs = harness.replies(inter)
    assert [m.public for m in msgs] == [False]
    assert "/place" in msgs[0].text

    alice_move = str(choose_move(state, 0, "easy", 1))
    inter = await harness.slash(harness.alice, "place", placement=alice_move)
    msgs = harness.replies(inter)
    note = next(m for m in msgs if m.public)
    assert "alice has placed" in note.text
    assert alice_move not in note.text
    assert any(not m.public and alice_move in m.text for m in msgs)

    bob_move = str(choose_move(state, 1, "medium", 1))
    inter = await harness.slash(harness.bob, "place", placement=bob_move)
    summary = next(m for m in harness.replies(inter) if m.public)
    assert f"alice {alice_move}" in summary.text
    assert f"bob {bob_move}" in summary.text
    assert any(a.filename.endswith("-board.png") for a in summary.attachments)
    assert load_state(await harness.db.games.get_game(1)).view(None)["round"] == 1
    harness.assert_racks_private()


async def test_a_round_that_opens_mentions_everyone_who_must_place(harness) -> None:
    """/start and each new round mention in the channel who must place (never the asker)."""
    fake = harness.fake
    alice, bob, carol = harness.alice, harness.bob, harness.carol
    await harness.slash(alice, "new", game="nmbr9", player=str(bob), player2=str(carol), seed=6)
    inter = await harness.slash(alice, "start")
    ping = [m for m in harness.replies(inter) if m.public][-1]
    assert (ping.content, ping.edits) == (
        f"<@{bob}>, <@{carol}>: place your tile of round 1 in game #1.",
        0,
    )
    assert ping.pings() == {"everyone": False, "roles": False, "users": {str(bob), str(carol)}}
    state = load_state(await harness.db.games.get_game(1))
    for seat, who in enumerate((alice, bob)):
        inter = await harness.slash(
            who, "place", placement=str(choose_move(state, seat, "easy", 1))
        )
        assert not any("place your tile" in m.text for m in harness.replies(inter))
    inter = await harness.slash(carol, "place", placement=str(choose_move(state, 2, "easy", 1)))
    ping = [m for m in harness.replies(inter) if m.public][-1]
    assert ping.content == f"<@{alice}>, <@{bob}>: place your tile of round 2 in game #1."
    assert ping.pings()["users"] == {str(alice), str(bob)}
    assert fake.dms_to(alice) == fake.dms_to(bob) == []  # nobody allowed DMs: the ping is all


async def test_a_game_that_starts_by_itself_invites_before_it_asks_for_tiles(harness) -> None:
    """/new filling every seat starts the game: the invitation comes before round 1's ping."""
    alice, bob, carol = harness.alice, harness.bob, harness.carol
    dave = harness.fake.add_user("dave")
    inter = await harness.slash(
        alice, "new", game="nmbr9", player=str(bob), player2=str(carol), player3=str(dave), seed=6
    )
    pings = [m.content for m in harness.replies(inter) if m.public and m.pings()["users"]]
    invited = f"<@{bob}>, <@{carol}>, <@{dave}>: alice invited you to game #1 (NMBR 9); "
    assert pings == [
        invited + "My rack shows your tiles.",
        f"<@{bob}>, <@{carol}>, <@{dave}>: place your tile of round 1 in game #1.",
    ]


async def deadline_game_of_three(h: Harness, seed: int, **bots: object) -> None:
    """Make an NMBR 9 game of alice, bob and carol (and `bots`), rounds of 10 minutes."""
    await h.slash(
        h.alice,
        "new",
        game="nmbr9",
        player=str(h.bob),
        player2=str(h.carol),
        options="deadline=10m",
        seed=seed,
        **bots,
    )


async def test_a_round_deadline_tells_each_player_by_dm_or_mention_never_both(fake, db) -> None:
    """Tiles placed at a round deadline: a DM to who allowed DMs, else a mention; never both."""
    async with clocked(fake, db) as (h, start):
        alice, bob, carol = h.alice, h.bob, h.carol
        await h.slash(alice, "notify", dm=True)
        await h.slash(carol, "notify", dm=True)
        fake.closed_dms.add(carol)  # allowed DMs, then closed them: mentioned instead
        await deadline_game_of_three(h, seed=4)
        invited = len(fake.messages)
        inter = await h.slash(alice, "start")
        started = list(fake.messages.values())[invited:]
        pings = [m.pings()["users"] for m in started if m.public and m.pings()["users"]]
        assert pings == [{str(bob)}, {str(carol)}]  # carol's DM failed: her mention stands in
        assert [m.text for m in h.replies(inter) if m.pings()["users"]] == [
            f"<@{bob}>: place your tile of round 1 in game #1."
        ]
        seen = len(fake.messages)

        await h.bot.dispatcher.run_due(now=start + timedelta(minutes=10, seconds=1))
        new = list(fake.messages.values())[seen:]
        public = [m for m in new if m.public]
        mentioned = [(m.text, m.pings()["users"]) for m in public if m.pings()["users"]]
        # One deadline, one batch: the round's news, then one mention each for the new round
        # (the news says whose tiles the deadline placed), never a second one.
        assert mentioned == [
            (f"<@{bob}>: place your tile of round 2 in game #1.", {str(bob)}),
            (f"<@{carol}>: place your tile of round 2 in game #1.", {str(carol)}),
        ]
        assert "round 1, the 7" in public[0].text
        assert public[0].text.count("(placed at the deadline)") == 3
        for m in public:  # nobody's placement before the round's news says it
            assert "at L12" not in m.text
        # alice allowed DMs: she is told by DM only, that her tile was placed and where
        assert not [m for m in public if str(alice) in m.pings()["users"]]
        [dealt] = [m.text for m in new if m.kind == "dm"]  # one DM: where it went, and round 2
        assert dealt.startswith(
            "The round deadline of game #1 passed, so your tile was placed for you: 7 at L12 0"
        )
        assert "round 2 of 20" in dealt
        assert fake.dms_to(bob) == fake.dms_to(carol) == []
        h.assert_racks_private()


@pytest.mark.timeout(120)
async def test_the_last_rounds_deadline_tells_each_player_by_dm_or_mention(fake, db) -> None:
    """Round 20's deadline ends the game: alice (DMs allowed) is told by DM where her tile
    went, bob and carol by a mention; before, nobody was told of the last round's tiles.
    """
    async with clocked(fake, db) as (h, start):
        alice, bob, carol = h.alice, h.bob, h.carol
        await h.slash(alice, "notify", dm=True)
        await deadline_game_of_three(h, seed=6, bot="easy", bots=1)
        await h.slash(alice, "start")
        for k in range(1, 20):
            await h.bot.dispatcher.run_due(now=start + k * timedelta(minutes=10, seconds=1))
        state = load_state(await h.db.games.get_game(1))
        assert (state.view(None)["round"], state.outcome, state.players) == (19, None, 4)
        seen = len(fake.messages)
        dms = len(fake.dms_to(alice))

        await h.bot.dispatcher.run_due(now=start + 20 * timedelta(minutes=10, seconds=1))
        state = load_state(await h.db.games.get_game(1))
        assert state.outcome is not None
        assert state.outcome.winners == (0, 1, 2, 3)
        new = list(fake.messages.values())[seen:]
        public = [m for m in new if m.public]
        assert any("Game #1 is over" in m.text for m in public)
        [dm] = [m.text for m in new if m.kind == "dm"]
        assert dm.startswith(
            "The round deadline of game #1 passed, so your tile was placed for you: 8 at L19 0"
        )
        assert len(fake.dms_to(alice)) == dms + 1
        told = [m for m in public if "round deadline" in m.text]
        assert [m.pings()["users"] for m in told] in (
            [{str(bob), str(carol)}],
            [{str(bob)}, {str(carol)}],
        ), [m.text for m in public]
        assert not [m for m in told if "L19" in m.text]
        h.assert_racks_private()

"""NMBR 9 in a Discord channel of three people and a bot: the last round's deadline."""

from __future__ import annotations

from datetime import timedelta

import pytest
from discord_harness import clocked

from bot.service import load_state

pytestmark = pytest.mark.timeout(120)


async def test_the_last_rounds_deadline_tells_each_player_by_dm_or_mention(fake, db) -> None:
    """Round 20's deadline ends the game: alice (DMs allowed) is told by DM where her tile
    went, bob and carol by a mention; before, nobody was told of the last round's tiles.
    """
    async with clocked(fake, db) as (h, start):
        alice, bob, carol = h.alice, h.bob, h.carol
        await h.slash(alice, "notify", dm=True)
        await h.slash(
            alice,
            "new",
            game="nmbr9",
            player=str(bob),
            player2=str(carol),
            options="deadline=10m",
            bot="easy",
            bots=1,
            seed=6,
        )
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

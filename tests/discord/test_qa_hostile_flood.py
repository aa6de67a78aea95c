"""L1, QA (a hostile member): a flood of lobbies in a channel must not hide the others' games.

One person may keep five lobbies waiting in a chat (`LOBBIES_A_PERSON`), but twenty members
(or sock puppets) may keep a hundred; the service's lists of a chat's games stop at 100
(`db.games.list_games`, newest first), so a flood of 100 lobbies pushes every older game out of
such a list.
"""

from __future__ import annotations

import asyncio

import pytest
from discord_harness import assert_cancelled_for_good, clocked

from bot.service import LOBBIES_A_PERSON

pytestmark = pytest.mark.timeout(60)

FLOOD = 100


async def test_a_deleted_channel_cancels_the_games_behind_a_flood_of_lobbies(fake, db) -> None:
    """Mallory's crew opens 100 lobbies in #games, then #games is deleted: alice's is cancelled.

    Before: `Service.chat_gone` cancelled only the 100 newest open games of the channel — the
    lobbies — so alice's game, which could never be played again, kept its deadlines and was
    lost on time days later, unseen (the very loss channel deletion was made to prevent).
    """
    async with clocked(fake, db) as (h, start):
        mallory = fake.add_user("mallory")
        await h.slash(mallory, "notify", dm=True)
        await h.slash(h.alice, "new", game="webfeud", player=str(h.bob))  # #1: alice to move
        # One person may keep only LOBBIES_A_PERSON lobbies waiting: the flood takes a crew.
        crew = [mallory] + [fake.add_user(f"crew{i}") for i in range(FLOOD // LOBBIES_A_PERSON - 1)]
        for member in crew:
            for _ in range(LOBBIES_A_PERSON):
                await h.slash(member, "new", game="rummikub")
        assert len(await db.games.list_games(statuses=("lobby",), limit=None)) == FLOOD
        told = asyncio.ensure_future(
            fake.wait_message(lambda m: m in fake.dms_to(mallory) and "was deleted" in m.text)
        )
        await fake.delete_channel(fake.channel_id)
        await asyncio.wait_for(told, 10)
        await assert_cancelled_for_good(h, db, start)

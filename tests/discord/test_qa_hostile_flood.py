"""L1, QA (a hostile member): a flood of lobbies in a channel must not hide the others' games.

Anyone may open as many lobbies as they like with /new; the service's lists of a chat's games
stop at 100 (`db.games.list_games`, newest first), so a flood of 100 lobbies pushes every older
game out of such a list.
"""

from __future__ import annotations

import asyncio

import pytest
from discord_harness import assert_cancelled_for_good, clocked

pytestmark = pytest.mark.timeout(60)

FLOOD = 100


async def test_a_deleted_channel_cancels_the_games_behind_a_flood_of_lobbies(fake, db) -> None:
    """Mallory opens 100 lobbies in #games, then #games is deleted: alice's game is cancelled.

    Before: `Service.chat_gone` cancelled only the 100 newest open games of the channel — the
    lobbies — so alice's game, which could never be played again, kept its deadlines and was
    lost on time days later, unseen (the very loss channel deletion was made to prevent).
    """
    async with clocked(fake, db) as (h, start):
        mallory = fake.add_user("mallory")
        await h.slash(mallory, "notify", dm=True)
        await h.slash(h.alice, "new", game="webfeud", player=str(h.bob))  # #1: alice to move
        for _ in range(FLOOD):
            await h.slash(mallory, "new", game="rummikub")
        told = asyncio.ensure_future(
            fake.wait_message(lambda m: m in fake.dms_to(mallory) and "was deleted" in m.text)
        )
        await fake.delete_channel(fake.channel_id)
        await asyncio.wait_for(told, 10)
        await assert_cancelled_for_good(h, db, start)

"""QA (a server that has played for weeks): games played in threads of the games channel.

A server that opens a thread per game night (as Telegram groups use forum topics) plays in
threads of #games. On Telegram the games of every topic are the one group's: one leaderboard.
On Discord a thread is a chat of its own (its games are played and shown there); before, each
thread also had a leaderboard of its own, and the channel's never counted what was played in
its threads. Now a thread's results count on its channel's (`chats.parent_id`).
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.timeout(30)


async def test_a_game_played_in_a_thread_counts_on_its_channels_leaderboard(harness) -> None:
    """Alice beats bob in a thread of #games: #games's leaderboard lists them."""
    thread = harness.fake.add_thread("word-night")
    await harness.slash(
        harness.alice, "new", in_channel=thread, game="webfeud", player=str(harness.bob), seed=3
    )
    inter = await harness.slash(harness.bob, "resign", in_channel=thread)
    [over] = [m.text for m in harness.replies(inter) if "is over" in m.text]
    assert "Webfeud leaderboard of #games: alice new at #1, bob new at #2." in over, over
    for where in (None, thread):  # in the channel, and in the thread: the channel's
        inter = await harness.slash(harness.alice, "leaderboard", in_channel=where)
        [board] = harness.replies(inter)
        assert board.text.startswith("Leaderboard of #games"), board.text
        assert "1. alice: 1 win in 1 game" in board.text, board.text

"""QA (a server that has played for weeks): games played in threads of the games channel.

A server that opens a thread per game night (as Telegram groups use forum topics) plays in
threads of #games. On Telegram the games of every topic are the one group's: one leaderboard.
On Discord a thread is a chat of its own (its games are played and shown there); before, each
thread also had a leaderboard of its own, and the channel's never counted what was played in
its threads. Now a thread's results count on its channel's (`chats.parent_id`).
"""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.timeout(30)


def add_thread(fake: Any, name: str) -> int:
    """Add a public thread (type 11) of the games channel, as Discord describes one."""
    thread_id = fake.add_channel(name)
    channel_payload = fake._channel_payload

    def payload(channel_id: int | None = None) -> dict[str, Any]:
        out = channel_payload(channel_id)
        if channel_id == thread_id:
            out.update(
                {
                    "type": 11,
                    "parent_id": str(fake.channel_id),
                    "owner_id": str(fake.app_id),
                    "thread_metadata": {
                        "archived": False,
                        "auto_archive_duration": 1440,
                        "archive_timestamp": "2026-01-01T00:00:00+00:00",
                        "locked": False,
                    },
                    "member_count": 2,
                    "message_count": 0,
                }
            )
        return out

    fake._channel_payload = payload
    return thread_id


async def test_a_game_played_in_a_thread_counts_on_its_channels_leaderboard(harness) -> None:
    """Alice beats bob in a thread of #games: #games's leaderboard lists them."""
    thread = add_thread(harness.fake, "word-night")
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

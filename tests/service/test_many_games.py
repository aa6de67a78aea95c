"""QA (a group that has played for weeks): /games in a chat where open games piled up."""

from __future__ import annotations


async def test_games_lists_the_most_active_and_names_the_others(say) -> None:
    """51 lobbies left open over the weeks: the 50 most recently active, then the other's number.

    Before, /games read the 100 most recently active and left the rest out unsaid.
    """
    for n in range(51):
        await say(f"host{n}", "/new rummikub @bob")
    [listed] = [r for r in await say("alice", "/games") if r.kind == "games"]
    assert [g["game_id"] for g in listed.event["games"]] == list(range(2, 52))
    assert listed.text.splitlines()[-1] == "… and 1 more, idle longest: #1"

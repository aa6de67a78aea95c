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


async def test_a_game_scored_at_its_end_shows_the_tiles_left_meanwhile(say) -> None:
    """Rummikub and Numfeud score the racks at the end: until then "alice 0, bob 0" said nothing.

    /games shows what their players watch instead, the tiles each has left.
    """
    await say("alice", "/new rummikub bot=easy seed=4")
    await say("alice", "/start")
    await say("alice", "/draw")
    [listed] = [r for r in await say("alice", "/games") if r.kind == "games"]
    assert "#1 Rummikub: alice 15 tiles, bot-easy " in listed.text, listed.text
    await say("bob", "/new numfeud bot=easy seed=4", chat="other")
    [listed] = [r for r in await say("bob", "/games", chat="other") if r.kind == "games"]
    assert "#2 Numfeud: bob 16 tiles, bot-easy 16 tiles — bob to move" in listed.text

"""QA (a group that has played for weeks): a bare /cancel beside games played with others."""

from __future__ import annotations


async def test_a_bare_cancel_means_the_one_game_the_asker_may_cancel(say, db) -> None:
    """Alice plays #1 with bob (only /resign ends it) and hosts lobby #2: /cancel means #2.

    Before, she was asked "You are in several games here (#1, #2); add game=<id>, e.g.
    game=1." and the game=1 it suggested was then refused.
    """
    await say("alice", "/new webfeud @bob seed=1")
    await say("alice", "/new nmbr9")
    replies = await say("alice", "/cancel")
    assert [(r.kind, r.text) for r in replies] == [
        ("game_cancelled", "Game #2 was cancelled by alice.")
    ]
    assert (await db.games.get_game(1)).status == "active"
    # Of several she may cancel, only those are offered, the one she may not is left out.
    await say("alice", "/new nmbr9")
    await say("alice", "/new webfeud bot=easy seed=2")
    [asked] = await say("alice", "/cancel")
    assert asked.kind == "error"
    assert asked.text == "You host several games here (#3, #4); add game=<id>, e.g. game=3."
    # bob, in #1 too, hosts lobby #5: his bare /cancel means it. An admin may cancel any game:
    # asked which, of them all.
    await say("bob", "/new nmbr9")
    [bobs] = await say("bob", "/cancel")
    assert bobs.kind == "game_cancelled"
    assert "#5" in bobs.text
    [admins] = await say("carol", "/cancel", admin=True)
    assert admins.text.startswith("This chat has several games (#1, #3, #4)")

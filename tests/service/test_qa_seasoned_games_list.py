"""QA (a group that has played for weeks): /games in a chat where open games piled up."""

from __future__ import annotations

import pytest


@pytest.mark.xfail(
    strict=True,
    reason="Service._cmd_games reads db.games.list_games with its default limit of 100 (newest "
    "activity first): past 100 open games the oldest are left out of /games unsaid",
)
async def test_games_never_leaves_out_an_open_game_unsaid(say) -> None:
    """101 lobbies left open over the weeks: /games lists #1 too, or says some are left out."""
    for _ in range(101):
        await say("alice", "/new rummikub @bob")
    [listed] = [r for r in await say("alice", "/games") if r.kind == "games"]
    assert len(listed.event["games"]) == 101 or "more" in listed.text, listed.text[-200:]

"""Results stored once and counted in their year, whoever fires the deadline (from a QA probe)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from bot.ai import choose_move
from bot.reminders import Dispatcher
from bot.service import Service, load_state


async def _quiet(_replies) -> None:
    return None


async def test_a_timeout_across_new_year_and_a_restart_is_stored_once_in_its_year(
    say, db, clock
) -> None:
    """Bob's 72 hours end in 2027; two services fire them at once: one result, in 2027."""
    clock.now = datetime(2026, 12, 31, 12, 0, tzinfo=UTC)
    await say("alice", "/new numfeud @bob")
    state = load_state(await db.games.get_game(1))
    await say("alice", f"/play {choose_move(state, 0, 'easy', 1)}")
    clock.advance(timedelta(hours=73))  # bob's 72 hours end in 2027
    second = Service(db, clock=clock, render=False)  # a restart beside the running process
    a, b = await asyncio.gather(
        Dispatcher(second, send=_quiet).run_due(),
        Dispatcher(Service(db, clock=clock, render=False), send=_quiet).run_due(),
    )
    assert len([r for r in a + b if r.kind == "game_over"]) == 1
    assert [(r.score, r.won) for r in await db.results.game_results(1)] == [(0, True), (-50, False)]
    [board] = await say("carol", "/leaderboard numfeud")  # this year's World Ranking: 2027
    assert [(r["player"], r["rank"], r["points"]) for r in board.event["rows"]] == [
        ("alice", 1, 0),
        ("bob", 2, -50),
    ]
    [old] = await say("carol", "/leaderboard numfeud 2026")
    assert old.event["rows"] == []
    [stats] = await say("alice", "/stats @bob")
    assert "Against alice: 1 game, bob won 0, alice won 1; points -50 to 0." in stats.text

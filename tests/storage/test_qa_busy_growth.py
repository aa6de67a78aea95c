"""QA (a busy bot in production for months): what grows with every game, and what it costs.

Measured on a 58 MB database (4,000 finished games, 326,000 moves, 107,000 deadlines, 66,000
notices): opening it takes 5 ms and /leaderboard 5–14 ms. Two things grew with every game the
process touched: the notices it kept in memory (a nudge a turn: 184 MB for 850,000) and the
cost of finding the game a reply to a board names (every game's message looked at).
"""

from __future__ import annotations

import sqlite3

from storage import Database
from storage import notices as notices_module
from storage.models import GameMessage

from .conftest import Factory

KNOWN = getattr(notices_module, "KNOWN", 4096)  # (before: no bound at all)


async def make_game(factory: Factory) -> int:
    chat = await factory.chat("telegram", "-100")
    return (await factory.active(chat, [await factory.user("alice", "telegram"), "easy"])).id


async def test_notices_kept_in_memory_are_bounded_and_storage_still_answers(
    db: Database, make: Factory
) -> None:
    """Past `KNOWN` notices the oldest leave memory; told again, they are still refused."""
    game = await make_game(make)
    total = KNOWN + 100
    for n in range(total):
        assert await db.notices.first_notice(game, "seat 0", f"nudge {n}") is True
    assert len(db.notices._known) <= KNOWN
    assert await db.notices.first_notice(game, "seat 0", "nudge 0") is False  # forgotten here
    assert await db.notices.first_notice(game, "seat 0", f"nudge {total - 1}") is False


async def test_the_game_a_reply_names_is_found_through_an_index(
    db: Database, make: Factory
) -> None:
    """`game_of_message` searches the chat message's ids, not every game of the platform.

    Before, its plan went through every game in the platform's chats (0.8 ms for 2,000 games,
    growing with each); the adapter first converted every board known since the start (150 ms
    for 50,000 games, on the event loop).
    """
    game = await make_game(make)
    await db.messages.put_message(GameMessage(game, "board", "-100", "55", {}))
    statements: list[str] = []
    await db._conn.set_trace_callback(statements.append)
    try:
        assert await db.messages.game_of_message("telegram", "-100", "55", "board") == game
    finally:
        await db._conn.set_trace_callback(None)
    [query] = [s for s in statements if "game_messages" in s]
    conn = sqlite3.connect(db.path)
    try:
        plan = [row[3] for row in conn.execute(f"EXPLAIN QUERY PLAN {query}")]
    finally:
        conn.close()
    assert plan[0].startswith("SEARCH m USING INDEX"), plan
    assert all(step.startswith("SEARCH") for step in plan), plan

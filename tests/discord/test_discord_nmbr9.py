"""NMBR 9 through Discord slash commands: /place, /moves; placements private to round end."""

from __future__ import annotations

import pytest

from bot.ai import choose_move
from bot.service import load_state

pytestmark = pytest.mark.timeout(60)


async def test_a_round_placed_with_slash_commands(harness) -> None:
    """/moves answers privately; a placement stays private until every seat has placed."""
    fake = harness.fake
    assert {"place", "moves"} <= set(fake.command_names())
    place = next(c for c in fake.commands[fake.guild_id] if c["name"] == "place")
    assert [o["name"] for o in place["options"]] == ["cell_rotation", "game"]
    await harness.slash(harness.alice, "new", game="nmbr9", player=str(harness.bob), seed=6)
    await harness.slash(harness.alice, "start")
    state = load_state(await harness.db.games.get_game(1))

    inter = await harness.slash(harness.bob, "moves")
    msgs = harness.replies(inter)
    assert [m.public for m in msgs] == [False]
    assert "/place" in msgs[0].text

    alice_move = str(choose_move(state, 0, "easy", 1))
    inter = await harness.slash(harness.alice, "place", cell_rotation=alice_move)
    msgs = harness.replies(inter)
    note = next(m for m in msgs if m.public)
    assert "alice has placed" in note.text
    assert alice_move not in note.text
    assert any(not m.public and alice_move in m.text for m in msgs)

    bob_move = str(choose_move(state, 1, "medium", 1))
    inter = await harness.slash(harness.bob, "place", cell_rotation=bob_move)
    summary = next(m for m in harness.replies(inter) if m.public)
    assert f"alice {alice_move}" in summary.text
    assert f"bob {bob_move}" in summary.text
    assert any(a.filename.endswith("-board.png") for a in summary.attachments)
    assert load_state(await harness.db.games.get_game(1)).view(None)["round"] == 1
    harness.assert_racks_private()

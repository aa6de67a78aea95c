"""Rummikub through Discord's slash commands: a turn in steps, /done, /undo, /reset, /draw."""

from __future__ import annotations

import pytest

from bot.service import load_state

pytestmark = pytest.mark.timeout(60)


async def test_a_turn_built_in_steps_with_slash_commands(harness) -> None:
    """Each step posts the draft image; /done refuses privately; the rack never goes public."""
    names = set(harness.fake.command_names())
    assert {"done", "undo", "reset", "draw", "hint"} <= names
    await harness.slash(harness.alice, "new", game="rummikub", player=str(harness.bob), seed=4)
    await harness.slash(harness.alice, "start")

    inter = await harness.slash(harness.alice, "play", move="K1 Y1")
    msgs = harness.replies(inter)
    draft = next(m for m in msgs if m.public)
    assert "(draft)" in draft.text
    assert "has only 2 tiles" in draft.text
    assert any(a.filename.endswith("-board.png") for a in draft.attachments)
    assert any(not m.public and "Your rack" in m.text for m in msgs)
    labels = [item.get("label") for row in draft.components for item in row.get("components", [])]
    assert labels == ["My rack", "Board", "Draw"]  # /pass is drawing a tile in Rummikub

    inter = await harness.slash(harness.alice, "done")
    refusal = harness.replies(inter)
    assert [m.public for m in refusal] == [False]
    assert "Meld 1 (K1 Y1)" in refusal[0].text

    await harness.slash(harness.alice, "undo")
    await harness.slash(harness.alice, "reset")
    row = await harness.db.games.get_game(1)
    assert load_state(row).view(None)["melds"] == []

    for step in ("K1 Y1 R1", "K13 Y13 R13"):
        await harness.slash(harness.alice, "play", move=step)
    inter = await harness.slash(harness.alice, "done")
    assert any(m.public and "bob to move" in m.text for m in harness.replies(inter))
    inter = await harness.slash(harness.bob, "draw")
    assert any(m.public and "drew a tile" in m.text for m in harness.replies(inter))
    row = await harness.db.games.get_game(1)
    assert row.turn == 2
    harness.assert_racks_private()

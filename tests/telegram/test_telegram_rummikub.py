"""Rummikub through Telegram: draft steps edit the one board message, racks stay private."""

from __future__ import annotations

import pytest

from bot.service import load_state

pytestmark = pytest.mark.timeout(60)


async def test_a_turn_built_in_steps_in_a_group(tg, people) -> None:
    """Steps edit the board image, /done names the invalid meld, Draw is the Pass button."""
    api, group = tg.api, people.group
    assert {"done", "undo", "reset", "draw", "hint"} <= {c["command"] for c in api.commands}
    await tg.say(people.bob, "/help")
    await tg.say(people.alice, "/new rummikub @bob seed=4")
    calls = await tg.press(people.alice, tg.board(1), "Start")
    board = next(c for c in calls if c.method == "sendPhoto" and c.chat_id == group["id"])
    assert "Draw" in [b["text"] for b in board.buttons]
    board_id = board.result["message_id"]
    rack = " ".join(load_state(await tg.db.games.get_game(1)).rack(0))

    calls = await tg.say(people.alice, "/play K1 Y1")
    edit = next(c for c in calls if c.method == "editMessageMedia")
    assert edit.params["message_id"] == board_id
    assert "(draft)" in edit.text
    assert "meld 1 (K1 Y1) has only 2 tiles" in edit.text
    assert tg.board(1)["message_id"] == board_id  # still one board message

    calls = await tg.say(people.alice, "/done")
    refusal = next(c for c in calls if c.chat_id == group["id"])
    assert "Meld 1 (K1 Y1)" in refusal.text
    assert "reply_parameters" in refusal.params  # answers the command it refuses

    await tg.say(people.alice, "/reset")
    calls = await tg.say(people.alice, "/play K1 Y1 R1; K13 Y13 R13; done")
    assert any("K1 Y1 R1; K13 Y13 R13; done" in c.text for c in calls)
    row = await tg.db.games.get_game(1)
    assert row.turn == 1

    calls = await tg.press(people.bob, tg.board(1), "Draw")
    row = await tg.db.games.get_game(1)
    assert row.turn == 2
    assert len(load_state(row).rack(1)) == 15

    group_calls = [c for c in api.calls if c.chat_id == group["id"]]
    assert not [c for c in group_calls if "Your rack" in c.text or rack in c.text]
    assert tg.errors == []

"""NMBR 9 through Telegram: /place and /moves in a group; placements stay private to round end."""

from __future__ import annotations

import pytest

from bot.ai import choose_move
from bot.service import load_state

pytestmark = pytest.mark.timeout(60)


async def test_a_round_placed_in_a_group(tg, people) -> None:
    """The group learns who placed, then the whole round; /moves never reaches the group."""
    api, group = tg.api, people.group
    assert {"place", "moves"} <= {c["command"] for c in api.commands}
    await tg.say(people.bob, "/help")
    await tg.say(people.alice, "/new nmbr9 @bob seed=6")
    await tg.press(people.alice, tg.board(1), "Start")
    state = load_state(await tg.db.games.get_game(1))
    alice_move = str(choose_move(state, 0, "easy", 1))
    bob_move = str(choose_move(state, 1, "medium", 1))

    calls = await tg.say(people.bob, "/moves")
    assert not [c for c in calls if c.chat_id == group["id"] and "/place" in c.text]
    calls = await tg.say(people.alice, f"/place {alice_move}")
    in_group = [c for c in calls if c.chat_id == group["id"]]
    assert any("alice has placed" in c.text for c in in_group)
    assert not [c for c in in_group if alice_move in c.text]

    calls = await tg.say(people.bob, f"/place {bob_move}")
    assert any(f"alice {alice_move}" in c.text for c in calls if c.chat_id == group["id"])
    assert load_state(await tg.db.games.get_game(1)).view(None)["round"] == 1
    group_calls = [c for c in api.calls if c.chat_id == group["id"]]
    assert not [c for c in group_calls if "Your rack" in c.text]
    assert tg.errors == []

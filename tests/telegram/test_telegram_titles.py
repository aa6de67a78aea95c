"""L1: every game of the registry starts and plays a few turns through Telegram."""

from __future__ import annotations

import pytest

from bot.adapters.telegram_bot import ACTIONS, CALLBACK_DATA_LIMIT, callback_data, pass_label
from bot.ai import PLAYERS
from bot.games import GAMES
from bot.service import load_state

pytestmark = pytest.mark.timeout(30)


@pytest.mark.parametrize("key", sorted(GAMES))
async def test_each_game_starts_and_plays_a_few_turns(tg, people, key: str) -> None:
    """A game of each title is created, started with the button and played by commands."""
    from bot.ai import choose_move

    gdef = GAMES[key]
    await tg.say(people.bob, "/help")
    calls = await tg.say(people.alice, f"/new {key} @bob seed=4")
    row = await tg.db.games.get_game(1)
    assert row is not None, calls
    if row.status == "lobby":
        await tg.press(people.alice, tg.board(1), "Start")
    row = await tg.db.games.get_game(1)
    assert row.status == "active"
    assert 1 in tg.front.boards.known  # the board message is posted
    has_ai = key in PLAYERS
    if not has_ai and pass_label(key) is None:
        pytest.skip(f"no computer player for {key} yet to find moves with, and no pass move")
    players = {0: people.alice, 1: people.bob}
    for _ in range(4):
        row = await tg.db.games.get_game(1)
        if row.status != "active":
            break
        state = load_state(row)
        for seat in state.waiting_for():
            if has_ai:
                move = choose_move(state, seat, "easy", 7 + state.turn)
                calls = await tg.say(players[seat], f"/play {move}")
            else:  # until its AI lands: the game's pass move, by the button
                calls = await tg.press(players[seat], tg.board(1), pass_label(key))
            # Errors answer the command they refuse (a reply) or come as an alert.
            assert not [c for c in calls if "reply_parameters" in c.params], calls
            alerts = [c for c in calls if c.params.get("show_alert")]
            assert not [c for c in alerts if "Your rack" not in c.text], calls
    row = await tg.db.games.get_game(1)
    assert row.turn >= 2 or row.status == "finished", f"{gdef.title} did not advance"
    group_calls = [c for c in tg.api.calls if c.chat_id == people.group["id"]]
    assert not [c for c in group_calls if "Your rack" in c.text]
    assert tg.errors == []


def test_callback_data_fits_telegram_for_the_largest_ids() -> None:
    """The longest callback data we can make (huge ids, longest action) fits in 64 bytes."""
    longest = max(ACTIONS, key=len)
    data = callback_data(10**18 - 1, longest, 10**9 - 1)
    assert len(data.encode()) <= CALLBACK_DATA_LIMIT

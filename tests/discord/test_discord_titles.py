"""Every title in GAMES can be started and played a few turns through Discord; bot seats too."""

from __future__ import annotations

import importlib

import pytest

from bot.core.errors import GameError
from bot.games import GAMES
from bot.service import load_state

pytestmark = pytest.mark.timeout(30)

TURNS = 4


def move_for(state, seat: int) -> str:
    """A legal move for `seat`: a computer player's when one knows the game, else a control move."""
    from bot.ai import choose_move

    try:
        return str(choose_move(state, seat, "easy", 1))
    except ValueError:
        pass
    try:  # a game whose computer player is written but not registered in bot.ai yet
        module = importlib.import_module(f"bot.ai.{state.game_key}")
        return str(getattr(module, f"choose_{state.game_key}_move")(state, seat, "easy", 1))
    except (ImportError, AttributeError):
        pass
    gdef = GAMES[state.game_key]
    for text in ("pass", "draw"):
        try:
            state.apply(seat, gdef.parse_move(text))
        except GameError:
            continue
        return text
    pytest.skip(f"no way to find a move in {state.game_key}")


@pytest.mark.parametrize("key", sorted(GAMES))
async def test_each_title_starts_and_plays_a_few_turns(harness, key):
    """/new, /start if needed, then a few /play turns; each move is announced in the channel."""
    gdef = GAMES[key]
    fake = harness.fake
    invite = {"player": str(harness.bob)} if gdef.max_players >= 2 else {}
    await harness.slash(harness.alice, "new", game=key, seed=11, **invite)
    row = await harness.db.games.get_game(1)
    if row.status == "lobby":
        inter = await harness.slash(harness.alice, "start")
        assert any(m.public and "has started" in m.text for m in harness.replies(inter))
    users = {0: harness.alice, 1: harness.bob}
    for _ in range(TURNS):
        row = await harness.db.games.get_game(1)
        state = load_state(row)
        if state.outcome is not None:
            break
        for seat in state.waiting_for():
            inter = await harness.slash(users[seat], "play", move=move_for(state, seat))
            msgs = harness.replies(inter)
            assert any(m.public and "#1" in m.text for m in msgs), [m.text for m in msgs]
    after = await harness.db.games.get_game(1)
    assert after.turn > 0
    for msg in fake.public_messages():
        assert "your rack" not in msg.text.lower()


async def test_a_bot_seat_answers_within_the_same_interaction(harness):
    """Against a bot, the bot's move follows the player's; only the newest message has buttons."""
    await harness.slash(harness.alice, "new", game="webfeud", bot="easy", seed=5)
    row = await harness.db.games.get_game(1)
    state = load_state(row)
    seat = state.waiting_for()[0]
    assert seat == 0
    inter = await harness.slash(harness.alice, "play", move=move_for(state, 0))
    public = [m for m in harness.replies(inter) if m.public]
    assert len(public) >= 2
    assert public[0].custom_ids() == []
    assert public[-1].custom_ids()[0].startswith("fb:rack:1:")
    turn = (await harness.db.games.get_game(1)).turn
    assert public[-1].button("fb:pass:") == f"fb:pass:1:{turn}"

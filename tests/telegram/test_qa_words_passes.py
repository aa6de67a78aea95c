"""QA, word-game club players: what a pass will do is said before it is made, on Telegram."""

from __future__ import annotations

from html import unescape

import pytest

from bot.service import load_state

pytestmark = pytest.mark.timeout(30)


async def test_a_smartfeud_third_pass_that_loses_the_game_says_so_first(tg, people) -> None:
    """Two players: alice's third pass in a row puts her out and bob wins, though she leads.

    Before, the news, her turn notice and the Pass button's question all said only "a pass now
    ends the game", which a player ahead on points reads as a way to end it in the lead; the
    pass then lost her the game ("bob won — alice 9, bob 0").
    """
    for person in (people.alice, people.bob):
        await tg.say(person, "/start", chat=tg.api.private(person))
    await tg.say(people.alice, "/new smartfeud @bob seed=11")
    await tg.say(people.alice, "/start")
    await tg.say(people.alice, "/play 8G HIRED")  # alice leads 9 to 0
    await tg.say(people.bob, "/swap CJ")
    for person in (people.alice, people.bob, people.alice):
        await tg.say(person, "/pass")
    calls = await tg.say(people.bob, "/pass")  # alice has passed twice in a row, bob once
    news = [unescape(c.text) for c in calls if c.chat_id == people.group["id"]]
    assert any(
        text.endswith("alice to move; a pass now puts alice out and ends the game, won by bob.")
        for text in news
    ), news
    notices = [unescape(c.text) for c in calls if c.chat_id == people.alice["id"]]
    assert any(
        "Careful: a pass now puts you out and ends the game, won by bob." in text
        for text in notices
    ), notices

    calls = await tg.press(people.alice, tg.board(1), "Pass")
    assert calls[0].text == (
        "Pass your turn in game #1? Careful: a pass now puts you out and ends the game, won by "
        "bob. Tap Yes, pass, or Keep playing."
    )
    calls = await tg.press(people.alice, tg.board(1), "Yes, pass")
    state = load_state(await tg.db.games.get_game(1))
    assert state.outcome is not None
    assert (state.outcome.winners, state.scores) == ((1,), (9, 0))  # as she was warned
    assert tg.errors == []

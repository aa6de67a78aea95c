"""NMBR 9 in a Telegram group of four (three people and a bot): the last round's deadline."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.reminders import Dispatcher
from bot.service import load_state, utcnow

pytestmark = pytest.mark.timeout(120)


async def test_the_last_rounds_deadline_tells_each_player_whose_tile_it_placed(tg, people) -> None:
    """Round 20's deadline places the missing tiles and ends the game: as in every other round,
    alice (who can be written to) is told privately where hers went, and bob and Carol (who
    cannot) by one group mention that does not say where. Before, the game just ended: the
    round's news only edits the board (which notifies nobody) and nobody was told.
    """
    api, group = tg.api, people.group
    alice_chat = api.private(people.alice)
    await tg.say(people.alice, "/start", chat=alice_chat)
    await tg.say(people.bob, "/help")
    await tg.say(people.alice, "/new nmbr9 @bob bot=easy deadline=10m seed=6")
    await tg.say(people.carol, "/join")  # the fourth seat: the game starts
    start = utcnow()
    dispatcher = Dispatcher(tg.service, tg.front.send_replies)
    for k in range(1, 20):
        await dispatcher.run_due(now=start + k * timedelta(minutes=10, seconds=5))
    state = load_state(await tg.db.games.get_game(1))
    assert (state.view(None)["round"], state.outcome) == (19, None)

    first = len(api.calls)
    await dispatcher.run_due(now=start + 20 * timedelta(minutes=10, seconds=5))
    calls = api.calls[first:]
    state = load_state(await tg.db.games.get_game(1))
    assert state.outcome is not None
    assert state.outcome.reason == "complete"
    assert state.outcome.winners == (0, 1, 2, 3)  # the same rule placed every tile: a tie
    assert any("Game #1 is over" in c.text for c in calls if c.chat_id == group["id"])

    private = [c.text for c in calls if c.chat_id == alice_chat["id"]]
    told = "The round deadline of game #1 passed, so your tile was placed for you: 8 at L19 0"
    assert len([t for t in private if t.startswith(told)]) == 1, private
    sent = [c for c in calls if c.chat_id == group["id"] and c.method == "sendMessage"]
    mentions = [c for c in sent if "round deadline" in c.text]
    assert len(mentions) == 1, [c.text for c in sent]
    for who in (people.bob, people.carol):
        assert f"tg://user?id={who['id']}" in mentions[0].text
    assert f"tg://user?id={people.alice['id']}" not in mentions[0].text
    assert "L19" not in mentions[0].text
    assert tg.errors == []

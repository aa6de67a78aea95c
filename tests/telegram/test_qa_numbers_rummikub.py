"""QA (experienced players of the number games): Rummikub through Telegram, as typed."""

from __future__ import annotations

import pytest

from bot.service import load_state

pytestmark = pytest.mark.timeout(60)


async def test_a_hint_asked_over_a_draft_says_to_reset_it_first(tg, people) -> None:
    """The hint is a line from the start of the turn: typed over a draft it was refused.

    alice drafts K1 Y1 R1, asks /hint and gets "/play K1 Y1 R1; K13 Y13 R13; done"; typed as
    told, its first step found K1 Y1 R1 on the table, not on her rack, and nothing was played.
    The hint now says to /reset the draft first; doing as it says plays the turn.
    """
    api = tg.api
    for person in (people.alice, people.bob):
        await tg.say(person, "/start", chat=api.private(person))
    await tg.say(people.alice, "/new rummikub @bob seed=4 assist=on")
    await tg.press(people.alice, tg.board(1), "Start")
    await tg.say(people.alice, "/play K1 Y1 R1")
    calls = await tg.say(people.alice, "/hint")
    [hint] = [c for c in calls if c.method == "sendMessage"]
    assert hint.chat_id == people.alice["id"]  # private: it names her tiles
    assert hint.text == (
        "Hint for game #1, from the start of your turn: /reset your draft, then "
        "/play K1 Y1 R1; K13 Y13 R13; done"
    )
    await tg.say(people.alice, "/reset")
    await tg.say(people.alice, "/play " + hint.text.split("/play ", 1)[1])
    row = await tg.db.games.get_game(1)
    assert row.turn == 1
    assert load_state(row).table == (("K1", "Y1", "R1"), ("K13", "Y13", "R13"))
    # Without a draft the hint is the line alone, as before.
    calls = await tg.say(people.bob, "/hint")
    [hint] = [c for c in calls if c.method == "sendMessage" and "Hint" in c.text]
    assert "/reset" not in hint.text
    assert tg.errors == []

"""QA, word-game club players: swaps typed on Telegram name exactly the tiles they mean.

alice's first rack in `/new webfeud @bob seed=7` is T N I E E ? M (one blank, one I, no S).
"""

from __future__ import annotations

from html import unescape

import pytest

from bot.service import load_state

pytestmark = pytest.mark.timeout(30)


async def webfeud_game(tg, people) -> None:
    for person in (people.alice, people.bob):
        await tg.say(person, "/start", chat=tg.api.private(person))
    await tg.say(people.alice, "/new webfeud @bob seed=7")
    assert sorted(load_state(await tg.db.games.get_game(1)).rack(0)) == sorted("TNIEE?M")


@pytest.mark.parametrize("typed", ["ı", "ß", "ﬁ"])
async def test_a_swap_of_a_letter_that_is_no_tile_swaps_nothing(tg, people, typed) -> None:
    """A dotless ı, a German ß or a ligature ﬁ is not a tile: refused, nothing swapped.

    Before, the swap's letters were put in capitals before they were checked: "/swap ı" swapped
    alice's I, "/swap ß" asked for two S and "/swap ﬁ" for an F and an I.
    """
    await webfeud_game(tg, people)
    before = load_state(await tg.db.games.get_game(1))
    calls = await tg.say(people.alice, f"/swap {typed}")
    after = load_state(await tg.db.games.get_game(1))
    assert after.to_json() == before.to_json()
    assert not [c for c in calls if "swapped" in c.text]
    said = unescape(" ".join(c.text for c in calls))
    assert f"'{typed}' is not a tile: tiles are the letters A–Z and ? for a blank." in said
    assert tg.errors == []


async def test_swapping_two_blanks_with_one_says_there_is_one(tg, people) -> None:
    """/swap ?? sent privately with one blank on the rack: "only 1 blank", not "no blank".

    Before, the refusal said "You have no blank to swap." to a player looking at their blank.
    """
    await webfeud_game(tg, people)
    private = tg.api.private(people.alice)
    calls = await tg.say(people.alice, "/swap ??", chat=private)
    texts = [unescape(c.text) for c in calls if c.chat_id == people.alice["id"]]
    assert "You have only 1 blank to swap. See your tiles with /rack." in texts, texts
    assert not [c for c in calls if c.chat_id == people.group["id"]]
    assert load_state(await tg.db.games.get_game(1)).turn == 0
    assert tg.errors == []

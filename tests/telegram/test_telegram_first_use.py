"""What a first-time Telegram user reads: a move without its slash, names in group news, short
alerts, one ping per event, no rack of a game that ended.

Driven through the real PTB Application over the loopback fake (see conftest.py).
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.ai import choose_move
from bot.service import load_state

pytestmark = pytest.mark.timeout(60)


def texts(calls: list[Any]) -> list[str]:
    return [c.text for c in calls if c.text]


async def test_a_move_typed_without_slash_in_a_private_game_is_pointed_to_play(tg, people) -> None:
    """A move typed without its slash in a private game is answered with the /play to send."""
    pa = tg.api.private(people.alice)
    await tg.say(people.alice, "/start", chat=pa)
    await tg.say(people.alice, "/new webfeud bot=easy seed=4", chat=pa)
    calls = await tg.say(people.alice, "8H QUIZ", chat=pa)
    [reply] = texts(calls)
    assert reply == "Commands start with /: send /play 8H QUIZ to play that in game #1."
    [chat] = texts(await tg.say(people.alice, "thanks!", chat=pa))  # no move: how commands look
    assert chat.startswith("Commands start with /, e.g. /new")


async def test_a_rummikub_draft_caption_in_the_group_does_not_say_your(tg, people) -> None:
    """The group's draft caption addresses the drafter by name ("alice: your initial meld …").

    Everybody reads it, so a bare "Your initial meld" would speak to each reader.
    """
    pa = tg.api.private(people.alice)
    await tg.say(people.alice, "/start", chat=pa)
    await tg.say(people.bob, "/help")
    await tg.say(people.alice, "/new rummikub @bob seed=4")
    await tg.say(people.alice, "/start")
    calls = await tg.say(people.alice, "/play K1 Y1 R1", chat=pa)
    [edit] = [c for c in calls if c.method == "editMessageMedia"]
    assert edit.chat_id == people.group["id"]
    assert "(draft)" in edit.text
    assert "Your initial meld" not in edit.text, edit.text


async def test_smartfeud_two_player_move_help_does_not_offer_quit(tg, people) -> None:
    """The short notation a wrong move gets leaves quit out: a game of two always refuses it.

    (`/rules smartfeud` says when quit is taken: in a game of 3 or 4, once a player has left.)
    """
    pa = tg.api.private(people.alice)
    await tg.say(people.alice, "/start", chat=pa)
    await tg.say(people.alice, "/new smartfeud bot=easy seed=4", chat=pa)
    [refused] = texts(await tg.say(people.alice, "/play quit", chat=pa))
    assert "only once another player has left" in refused
    [syntax] = texts(await tg.say(people.alice, "/play xyz", chat=pa))
    assert "quit" not in syntax, syntax


async def test_nmbr9_my_rack_alert_carries_the_private_chat_link(tg, people) -> None:
    """NMBR 9's My rack alert holds the tile's text and the private chat's link (200 at most)."""
    await tg.say(people.bob, "/help")
    await tg.say(people.carol, "/help")
    await tg.say(people.alice, "/new nmbr9 @bob @carol seed=5")
    await tg.say(people.alice, "/start")
    [alert] = await tg.press(people.carol, tg.board(1), "My rack")
    assert alert.params["show_alert"] is True
    assert "Your tile in game #1" in alert.text
    assert "t.me/feudbot_test_bot?start=g1" in alert.text, alert.text


async def test_rules_of_an_unknown_game_does_not_repeat_itself(tg, people) -> None:
    """/rules of no game of ours says once how /rules is used."""
    [reply] = texts(await tg.say(people.alice, "/rules chess"))
    assert reply.count("/rules &lt;game&gt;") == 1, reply


async def test_no_rack_is_sent_for_a_game_that_just_ended(tg, people) -> None:
    """A rack dealt before a bot went out, in the same batch, is not sent: the end is the news."""
    pa = tg.api.private(people.alice)
    await tg.say(people.alice, "/start", chat=pa)
    await tg.say(people.alice, "/new webfeud bot=easy seed=11", chat=pa)
    last: list[Any] = []
    for i in range(100):
        row = await tg.db.games.get_game(1)
        if row.status != "active":
            break
        move = str(choose_move(load_state(row), 0, "easy", i))
        last = await tg.say(people.alice, f"/play {move}", chat=pa)
    assert (await tg.db.games.get_game(1)).status == "finished"
    assert any("is over" in t for t in texts(last))
    racks = [t for t in texts(last) if t.startswith("Your rack in game #1")]
    assert racks == [], racks


async def test_the_player_to_move_is_mentioned_once_when_someone_else_starts(tg, people) -> None:
    """Bob starts alice's lobby: alice (no private chat) is pinged once, her turn and how to see
    her tiles in one message, not two back to back.
    """
    await tg.say(people.bob, "/start", chat=tg.api.private(people.bob))
    await tg.say(people.carol, "/help")
    await tg.say(people.alice, "/new smartfeud @bob @carol seed=5")
    calls = await tg.press_data(people.bob, tg.board(1), "g:1:start:0")
    pings = [c for c in calls if "tg://user?id=1001" in c.text]
    assert len(pings) == 1, [c.text for c in pings]

"""L1, QA (hostile users): what a Telegram user's chosen name can make of the group's messages.

A person without a @username plays under their full name, which they choose freely. Telegram
makes a ``/word`` in any message a bot command (a tap sends it to the group at once) and an
``@word`` a mention of the user holding that username (it notifies them and links to them).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

pytestmark = pytest.mark.timeout(30)

EVE_ID = 2001


def commands_in(text: str) -> set[str]:
    """Return the bot commands Telegram finds in a message: ``/word`` not inside a word."""
    return set(re.findall(r"(?<![\w/<>])/([A-Za-z0-9_]+)", text))


def mentions_in(text: str) -> set[str]:
    """Return the usernames Telegram mentions in a message: ``@word`` not inside a word."""
    return {m.lower() for m in re.findall(r"(?<![\w@])@([A-Za-z0-9_]{3,32})", text)}


def group_texts(tg: Any, group_id: int) -> list[str]:
    return [c.text for c in tg.api.calls if c.chat_id == group_id and c.text]


async def test_a_name_that_is_a_command_is_never_one_tap_from_resigning(tg, people, api) -> None:
    """Eve names herself "/resign": her name in the news would be a tap that resigns the tapper.

    Before: "Game #1 (Webfeud) has started: bob vs /resign. bob to move." — bob taps "/resign"
    (Telegram sends it for him) and loses his game; the commands that end a game are kept out
    of the command menu for exactly that reason (`TYPED_ONLY`). Her name must show no command.
    """
    eve = api.user(EVE_ID, "/resign")  # no @username: she plays as her full name
    await tg.say(eve, "/start", chat=api.private(eve))
    await tg.say(people.bob, "/start", chat=api.private(people.bob))
    await tg.say(eve, "/new webfeud @bob seed=9")
    await tg.say(eve, "/pass")
    texts = group_texts(tg, people.group["id"])
    started = [t for t in texts if "has started" in t]
    assert started, texts
    tappable = {"resign", "cancel"}
    for text in texts:
        assert not commands_in(text) & tappable, text
    row = await tg.db.games.get_game(1)
    assert row is not None
    assert row.status == "active"
    assert tg.errors == []


async def test_a_name_that_is_a_username_mentions_nobody(tg, people, api) -> None:
    """Eve names herself "@alice": the news about her moves would ping alice and read as alice.

    Before: "Game #1 (Webfeud) has started: bob vs @alice." notified alice (a mention of her
    username) for every move of Eve's, and read as if alice played.
    """
    eve = api.user(EVE_ID, "@alice")
    await tg.say(people.alice, "/start", chat=api.private(people.alice))
    await tg.say(eve, "/start", chat=api.private(eve))
    await tg.say(people.bob, "/start", chat=api.private(people.bob))
    await tg.say(eve, "/new webfeud @bob seed=9")
    await tg.say(eve, "/pass")
    texts = group_texts(tg, people.group["id"])
    assert any("has started" in t for t in texts), texts
    for text in texts:
        assert "alice" not in mentions_in(text), text
    assert tg.errors == []


async def test_no_message_in_the_group_is_one_tap_from_resigning(tg, people, api) -> None:
    """The commands that end a game are typed, never one stray tap away (docs/telegram.md).

    The command menu keeps that promise (`TYPED_ONLY`); the bot's own messages do not: /help's
    quick start ends "Play: … /pass, /resign." and Telegram shows that /resign as a command,
    which a tap sends at once ("/resign@<bot>") — bob, reading the help beside his only game,
    taps it and has lost. They are now written in a code entity (``<code>/resign</code>``),
    which a tap copies (`untappable`).
    """
    await tg.say(people.bob, "/start", chat=api.private(people.bob))
    await tg.say(people.alice, "/new webfeud @bob seed=9")
    calls = await tg.say(people.bob, "/help")
    tapped = [c for c in calls if "resign" in commands_in(c.text)]
    if tapped:  # what a tap on it sends, for the record: the game is lost at once
        await tg.say(people.bob, f"/resign@{api.me['username']}")
        row = await tg.db.games.get_game(1)
        assert row is not None
        assert row.status == "finished"
    assert tapped == []


async def test_two_people_picked_from_the_menu_whose_names_overlap_are_both_invited(
    tg, people, api
) -> None:
    """Sam Smith and Sam, neither with a username, picked from the mention menu: both are seated.

    Before: each picked span was replaced at the first place its text occurs in the line, not
    where Telegram's entity says it is: "Sam" was found inside the "@Sam_Smith" just written for
    the first pick, so the second pick stayed a bare word, and /new answered "I did not
    understand 'Sam'" — nobody invited, though both had been picked.
    """
    smith = api.user(1004, "Sam")
    smith["last_name"] = "Smith"
    sam = api.user(1005, "Sam")
    text = "/new rummikub Sam Smith Sam"
    update = api.message_update(people.group, people.alice, text, mentions={"Sam Smith": smith})
    update["message"]["entities"].append(
        {"type": "text_mention", "offset": text.rindex("Sam"), "length": 3, "user": dict(sam)}
    )
    calls = await tg.process(update)
    assert not [c for c in calls if "did not understand" in c.text], calls
    seats = await tg.db.games.seats(1)
    users = [await tg.db.users.get_user(s.user_id) for s in seats if s.user_id is not None]
    assert sorted(u.platform_user_id for u in users if u is not None) == sorted(
        [str(people.alice["id"]), "1004", "1005"]
    )
    assert tg.errors == []

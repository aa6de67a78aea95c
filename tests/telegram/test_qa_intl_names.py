"""L1, QA (an international group of friends): Hebrew and Arabic names in a Telegram group.

Telegram lays each line of a message out with the Unicode bidi algorithm: a right-to-left name
not set apart pulls the words and numbers next to it into its run.
"""

from __future__ import annotations

import html
import re
from typing import Any

import pytest

from bot.core.words import FSI, PDI
from tests.support import rtl_outside_isolates

pytestmark = pytest.mark.timeout(30)


def shown_lines(tg: Any, group_id: int) -> list[str]:
    """Return every line the group was sent, as Telegram shows it (HTML tags gone)."""
    texts = [c.text for c in tg.api.calls if c.chat_id == group_id and c.text]
    return [html.unescape(re.sub(r"<[^>]+>", "", t)) for t in texts for t in t.splitlines()]


async def test_a_hebrew_name_is_mentioned_and_named_in_isolates(tg, people, api) -> None:
    """David (no username, not started the bot) is mentioned as "⁨דוד_כהן⁩" and named so.

    Before: "<a …>דוד כהן</a>: …" began the line with Hebrew, so Telegram laid the whole
    line out right to left, and "bob vs דוד כהן. bob to move." put the name's neighbours in
    its run.
    """
    david = api.user(2001, "דוד כהן")
    await tg.say(people.bob, "/start", chat=api.private(people.bob))
    await tg.say(david, "/new webfeud @bob seed=9")
    await tg.say(david, "/pass")
    await tg.say(people.bob, "/pass")
    lines = shown_lines(tg, people.group["id"])
    assert any(f"{FSI}דוד_כהן{PDI} vs bob" in line for line in lines), lines
    mentions = [c.text for c in api.calls if "tg://user?id=2001" in (c.text or "")]
    assert mentions, lines
    assert all(f'<a href="tg://user?id=2001">{FSI}דוד_כהן{PDI}</a>' in m for m in mentions)
    assert [line for line in lines if rtl_outside_isolates(line)] == []
    assert tg.errors == []


async def test_a_person_with_a_blank_name_picked_from_the_menu_is_invited(tg, people, api) -> None:
    """A full name of Hangul fillers ("ㅤ", a blank name) picked from the mention menu is seated.

    Before: the pick became "@ㅤ", which reads as no name at all: "/new webfeud @ㅤ" was
    refused ("@ㅤ is not a name"), though the person had been picked from the list.
    """
    blank = api.user(1006, "\u3164")
    text = "/new webfeud \u3164"
    update = api.message_update(people.group, people.alice, text, mentions={"\u3164": blank})
    calls = await tg.process(update)
    said = [c.text for c in calls if c.text]
    assert any("created with alice, player." in t for t in said), said
    seats = await tg.db.games.seats(1)
    users = [await tg.db.users.get_user(s.user_id) for s in seats if s.user_id is not None]
    assert [u.platform_user_id for u in users if u is not None] == [
        str(people.alice["id"]),
        "1006",
    ]
    assert tg.errors == []


async def test_a_channels_hebrew_title_stands_apart_in_the_refusal(tg, people, api) -> None:
    """Posting as the channel "חדשות" (an override in it too): the title is isolated, no override.

    Before: “\u202eחדשות” reversed the rest of the refusal ("choose yourself …" read backwards).
    """
    channel = {"id": -1009876543211, "type": "channel", "title": "\u202eחדשות"}
    channel_bot = api.user(136817688, "Channel", "Channel_Bot")
    calls = await tg.say(channel_bot, "/new webfeud", sender_chat=channel)
    assert f"posting as the channel “{FSI}חדשות{PDI}”, not as yourself" in calls[0].text
    assert tg.errors == []

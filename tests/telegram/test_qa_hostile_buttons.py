"""L1, QA (careless users): buttons pressed under board messages Telegram no longer shows the bot.

Telegram sends a press under a message older than about 48 hours with an *inaccessible*
message: its chat and id only, ``date`` 0 (PTB's `InaccessibleMessage`). Webfeud gives 72 hours
a turn, so the board a player comes back to after two days is such a message.
"""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.timeout(30)


def rows(message: dict[str, Any]) -> list[list[str]]:
    markup = message.get("reply_markup") or {}
    return [[b["text"] for b in row] for row in markup.get("inline_keyboard", [])]


def old(message: dict[str, Any]) -> dict[str, Any]:
    """Return `message` as a press under it arrives once it is too old: chat, id, date 0."""
    return {"chat": dict(message["chat"]), "message_id": message["message_id"], "date": 0}


def data_of(message: dict[str, Any], label: str) -> str:
    for row in (message.get("reply_markup") or {}).get("inline_keyboard", []):
        for button in row:
            if button["text"] == label:
                return str(button["callback_data"])
    raise AssertionError(f"no button {label!r}")


async def test_pass_under_a_board_older_than_two_days_asks_and_passes(tg, people) -> None:
    """Pass under an old board asks in its keyboard, and "Yes, pass" passes, as on a new one.

    PTB 22.8 reads such a message as a `Message` dated 1970; a PTB that reads it as
    `InaccessibleMessage` (its type hint says so) would make `CallbackQuery`'s edit shortcuts
    raise TypeError ("Cannot edit an inaccessible message"): no "Yes, pass", and an apology in
    the group. This pins that such a press works.
    """
    await tg.say(people.bob, "/help")
    await tg.say(people.alice, "/new webfeud @bob seed=3")
    board = tg.board(1)
    calls = await tg.press_data(people.alice, old(board), data_of(board, "Pass"))
    assert [c.method for c in calls] == ["answerCallbackQuery", "editMessageReplyMarkup"], calls
    assert calls[0].text == "Pass your turn in game #1? Tap Yes, pass, or Keep playing."
    assert rows(tg.board(1)) == [["My rack", "Board"], ["Yes, pass", "Keep playing"]]
    before = await tg.db.games.get_game(1)
    assert before is not None
    await tg.press_data(people.alice, old(board), data_of(tg.board(1), "Yes, pass"))
    after = await tg.db.games.get_game(1)
    assert after is not None
    assert after.turn == before.turn + 1
    assert rows(tg.board(1)) == [["My rack", "Pass", "Board"]]
    group = [c for c in tg.api.calls if c.chat_id == people.group["id"]]
    assert not [c for c in group if "wrong" in c.text.lower()], group
    assert tg.errors == []

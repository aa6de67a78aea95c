"""L1: forum supergroups. A game lives in the topic it was created in; answers go where asked."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from bot.reminders import Dispatcher
from bot.service import load_state, utcnow

pytestmark = pytest.mark.timeout(30)

FORUM_ID = -1009876543210
SENDS = ("sendMessage", "sendPhoto")


@pytest.fixture
def forum(tg, people) -> dict[str, Any]:
    """A supergroup with topics, where Alice is an admin."""
    return tg.api.forum(FORUM_ID, "Feud forum", admins=(people.alice["id"],))


def sent_in(calls: list[Any], chat: dict[str, Any]) -> list[Any]:
    """The messages the bot posted (or tried to) in `chat`."""
    return [c for c in calls if c.method in SENDS and c.chat_id == chat["id"]]


async def racks(tg: Any, game_id: int) -> list[str]:
    row = await tg.db.games.get_game(game_id)
    state = load_state(row)
    return [" ".join(state.rack(seat)) for seat in range(2)]


async def test_a_game_started_in_a_topic_lives_there(tg, people, forum) -> None:
    """Lobby, board, move news, the turn's mention, a reminder, the timeout: all in the topic."""
    topic = tg.api.topic(forum, people.alice, "Word games")
    await tg.say(people.bob, "/help", chat=forum)  # Bob is known, and has no private chat
    calls = await tg.say(people.alice, "/new webfeud seed=7", chat=forum, topic=topic)
    lobby = next(c for c in calls if c.method == "sendMessage" and "Game #1" in c.text)
    assert lobby.thread_id == topic
    assert lobby.result["is_topic_message"] is True
    assert (await tg.db.games.get_game(1)).thread_id == topic

    # Bob joins with the button under the lobby: the board is posted in the topic.
    calls = await tg.press(people.bob, lobby.result, "Join")
    posted = sent_in(calls, forum)
    board = next(c for c in posted if c.method == "sendPhoto")
    assert "has started" in board.text
    assert board.result["message_thread_id"] == topic
    assert {c.thread_id for c in posted} == {topic}  # the rack notice too

    # Alice passes (typed in the topic): the board is edited, Bob is told in the topic.
    calls = await tg.say(people.alice, "/pass", chat=forum, topic=topic)
    assert [c.method for c in calls if c.method.startswith("edit")] == ["editMessageMedia"]
    assert "alice: pass" in tg.board(1)["caption"]
    assert tg.board(1)["message_thread_id"] == topic
    told = sent_in(calls, forum)
    assert told, calls
    assert all(c.thread_id == topic for c in told)
    assert any("tg://user?id=1002" in c.text for c in told)

    # Bob's deadline: the reminder mentions him in the topic, then the timeout ends the game.
    dispatcher = Dispatcher(tg.service, tg.front.send_replies)
    first = len(tg.api.calls)
    replies = await dispatcher.run_due(now=utcnow() + timedelta(hours=49))
    assert [r.kind for r in replies] == ["reminder"]
    reminder = sent_in(tg.api.calls[first:], forum)
    assert [c.thread_id for c in reminder] == [topic]
    assert "runs out in 24 hours" in reminder[0].text
    first = len(tg.api.calls)
    replies = await dispatcher.run_due(now=utcnow() + timedelta(hours=80))
    assert "timeout" in [r.kind for r in replies]
    ended = sent_in(tg.api.calls[first:], forum)
    assert any("is over" in c.text for c in ended)
    assert all(c.thread_id == topic for c in ended)

    # Nothing ever went to the General topic, nothing failed, no rack was shown.
    everything = sent_in(tg.api.calls, forum)
    assert [c for c in everything if "/help" not in c.text and c.thread_id != topic] == []
    assert all(c.ok for c in everything)
    tiles = await racks(tg, 1)
    assert not any(rack in c.text for c in everything for rack in tiles)
    assert tg.errors == []


async def test_a_command_in_another_topic_is_answered_there(tg, people, forum) -> None:
    """The group's games are one group's: asked in another topic (or General), answered there."""
    words = tg.api.topic(forum, people.alice, "Word games")
    chat = tg.api.topic(forum, people.bob, "Chat")
    await tg.say(people.bob, "/help", chat=forum)
    await tg.say(people.alice, "/new webfeud @bob seed=3", chat=forum, topic=words)

    calls = await tg.say(people.bob, "/games", chat=forum, topic=chat)
    [listed] = sent_in(calls, forum)
    assert "#1" in listed.text
    assert listed.thread_id == chat
    # A refusal answers the command where it was typed, too.
    calls = await tg.say(people.bob, "/join game=9", chat=forum, topic=chat)
    [refused] = sent_in(calls, forum)
    assert "#9" in refused.text
    assert refused.thread_id == chat
    assert refused.params["reply_parameters"]["message_id"] > 0
    # Typed in the General topic: the answer has no topic.
    calls = await tg.say(people.bob, "/leaderboard", chat=forum)
    [board] = sent_in(calls, forum)
    assert board.thread_id is None
    # A move of the game typed elsewhere still edits the game's board in its topic; where it
    # was typed, a line says so, with a link to the board in the game's topic.
    calls = await tg.say(people.alice, "/pass game=1", chat=forum, topic=chat)
    assert any(c.method == "editMessageMedia" for c in calls)
    [pointer] = [c for c in sent_in(calls, forum) if c.thread_id != words]
    assert pointer.thread_id == chat
    assert pointer.text.startswith("Game #1 is played in its own topic: #1 alice: pass — ")
    [button] = pointer.buttons
    assert button["text"] == "Go to game #1"
    board_id = tg.board(1)["message_id"]
    assert button["url"] == f"https://t.me/c/9876543210/{board_id}?thread={words}"
    # Typed in the game's own topic: no such line.
    calls = await tg.say(people.bob, "/pass game=1", chat=forum, topic=words)
    assert [c for c in sent_in(calls, forum) if "its own topic" in c.text] == []
    assert tg.errors == []


async def test_a_deleted_topic_falls_back_to_general(tg, people, forum, caplog) -> None:
    """A game's topic deleted: its news goes to the General topic instead, nothing is lost."""
    topic = tg.api.topic(forum, people.alice, "Word games")
    await tg.say(people.bob, "/help", chat=forum)
    await tg.say(people.alice, "/new webfeud @bob seed=5", chat=forum, topic=topic)
    tg.api.delete_topic(FORUM_ID, topic)

    calls = await tg.say(people.alice, "/pass game=1", chat=forum)
    posted = sent_in(calls, forum)
    refused = [c for c in posted if not c.ok]
    assert refused, calls
    assert all(c.thread_id == topic for c in refused)
    assert all("message thread not found" in c.result for c in refused)
    # The board (its old message went with the topic) is posted again, in General.
    board = next(c for c in posted if c.ok and c.method == "sendPhoto")
    assert board.thread_id is None
    assert "alice: pass" in board.text
    assert tg.board(1)["message_id"] == board.result["message_id"]
    assert "is gone" in caplog.text
    assert (await tg.db.games.get_game(1)).thread_id is None  # for good, restarted too
    # The topic is not tried again: the next news goes straight to General.
    calls = await tg.say(people.bob, "/pass game=1", chat=forum)
    again = sent_in(calls, forum)
    assert again
    assert all(c.ok and c.thread_id is None for c in again)
    assert tg.errors == []


async def test_a_reply_in_a_group_without_topics_is_no_topic(tg, people) -> None:
    """A reply's message_thread_id (a thread of replies) is not a topic to send to."""
    group = people.group
    calls = await tg.say(people.bob, "/help")
    help_message = calls[0].result
    calls = await tg.say(people.alice, "/new webfeud @bob seed=2", reply_to=help_message)
    message = tg.api.messages[(group["id"], help_message["message_id"] + 1)]
    assert message["message_thread_id"] == help_message["message_id"]  # as Telegram sends it
    assert "is_topic_message" not in message
    posted = sent_in(calls, group)
    assert any("has started" in c.text for c in posted)
    assert all(c.ok for c in posted)
    assert all("message_thread_id" not in c.params for c in posted)
    assert (await tg.db.games.get_game(1)).thread_id is None
    # An error answered as a reply there carries no thread either.
    calls = await tg.say(people.bob, "/join game=9", reply_to=help_message)
    assert [c.ok and "message_thread_id" not in c.params for c in sent_in(calls, group)] == [True]
    assert tg.errors == []

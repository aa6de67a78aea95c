"""Forum topics: a game lives in the topic it was created in; answers go where they were asked."""

from __future__ import annotations

from datetime import timedelta

from bot.reminders import Dispatcher
from bot.replies import ChatTarget, Reply
from bot.service import CONSOLE, ChatRef, Service, UserRef

from .conftest import Clock

ALICE = UserRef(CONSOLE, "alice", "alice")
BOB = UserRef(CONSOLE, "bob", "bob")


def topic(thread_id: int | None) -> ChatRef:
    return ChatRef(CONSOLE, "forum", "Forum", thread_id=thread_id)


def chat_threads(replies: list[Reply]) -> dict[str, set[int | None]]:
    """Return each kind of chat reply -> the topics it went to."""
    threads: dict[str, set[int | None]] = {}
    for reply in replies:
        if isinstance(reply.to, ChatTarget):
            threads.setdefault(reply.kind, set()).add(reply.to.thread_id)
    return threads


async def test_a_game_created_in_a_topic_keeps_its_news_there(service: Service, db) -> None:
    """Lobby, join, start, moves and the board of a game go to its topic, wherever typed."""
    created = await service.handle(topic(7), ALICE, "/new webfeud seed=3")
    game_id = created[0].event["game_id"]
    assert (await db.games.get_game(game_id)).thread_id == 7
    joined = await service.handle(topic(7), BOB, f"/join game={game_id}")
    started = await service.handle(topic(7), ALICE, f"/start game={game_id}")
    assert chat_threads(created + joined + started) == {
        "game_created": {7},
        "game_joined": {7},
        "game_started": {7},
    }
    # Typed in another topic (or the General one), a game's news still goes to the game's.
    passed = await service.handle(topic(None), ALICE, f"/pass game={game_id}")
    board = await service.handle(topic(9), BOB, f"/board game={game_id}")
    assert chat_threads(passed + board) == {"move_played": {7}, "board": {7}}


async def test_answers_go_to_the_topic_the_command_was_typed_in(service: Service) -> None:
    """/games, /help, /leaderboard answer in the topic asked from; the game is the group's."""
    await service.handle(topic(7), ALICE, "/new webfeud @bob")
    listed = await service.handle(topic(9), BOB, "/games")
    helped = await service.handle(topic(9), BOB, "/help")
    board = await service.handle(topic(None), BOB, "/leaderboard")
    assert chat_threads(listed + helped + board) == {
        "games": {9},
        "help": {9},
        "leaderboard": {None},
    }
    assert "#1" in listed[0].text  # the game of topic 7 is a game of the group


async def test_a_game_in_a_private_chat_or_a_plain_group_has_no_topic(service, db) -> None:
    """A thread id given with a private chat is ignored; a plain group has none to give."""
    private = ChatRef(CONSOLE, "dm", private=True, thread_id=5)
    replies = await service.handle(private, ALICE, "/new webfeud bot=easy seed=1")
    assert (await db.games.get_game(replies[0].event["game_id"])).thread_id is None
    assert {t for ts in chat_threads(replies).values() for t in ts} == {None}


async def test_reminders_and_timeouts_of_a_topic_game_go_to_its_topic(
    service: Service, clock: Clock
) -> None:
    """The deadline dispatcher's chat replies (the timeout's news, game over) carry the topic."""
    await service.handle(topic(7), ALICE, "/new webfeud @bob seed=1")
    sent: list[Reply] = []

    async def outbox(replies: list[Reply]) -> None:
        sent.extend(replies)

    fired = await Dispatcher(service, outbox).run_due(clock.advance(timedelta(hours=73)))
    assert chat_threads(fired) == {"timeout": {7}, "game_over": {7}}


async def test_a_rematch_lives_where_the_game_it_replays_lived(service: Service, db) -> None:
    """/rematch deals the new game in the old game's topic, even asked from elsewhere."""
    created = await service.handle(topic(7), ALICE, "/new webfeud @bob seed=1")
    game_id = created[0].event["game_id"]
    await service.handle(topic(7), ALICE, f"/resign game={game_id}")
    again = await service.handle(topic(None), BOB, f"/rematch game={game_id}")
    started = next(r for r in again if r.kind == "game_started")
    assert started.to.thread_id == 7
    assert (await db.games.get_game(started.event["game_id"])).thread_id == 7


async def test_a_bare_command_in_a_topic_means_that_topics_game(service: Service) -> None:
    """Of the asker's games in several topics, a bare /board or /pass means the topic's own."""
    await service.handle(topic(7), ALICE, "/new webfeud @bob seed=1")
    await service.handle(topic(9), ALICE, "/new webfeud @bob seed=2")
    shown = await service.handle(topic(9), BOB, "/board")
    assert [(r.kind, r.event.get("game_id")) for r in shown] == [("board", 2)]
    passed = await service.handle(topic(7), ALICE, "/pass")
    assert [r.event["game_id"] for r in passed if r.kind == "move_played"] == [1]
    # In General (or a topic without a game of theirs) it still asks which.
    asked = await service.handle(topic(None), ALICE, "/board")
    assert asked[0].kind == "error"
    assert "#1" in asked[0].text
    assert "#2" in asked[0].text

"""NMBR 9 through Telegram: /place and /moves in a group; placements stay private to round end."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.ai import choose_move
from bot.reminders import Dispatcher
from bot.service import load_state, utcnow

pytestmark = pytest.mark.timeout(60)


async def test_a_round_placed_in_a_group(tg, people) -> None:
    """The group learns who placed, then the whole round; /moves never reaches the group."""
    api, group = tg.api, people.group
    assert {"place", "moves"} <= {c["command"] for c in api.commands}
    await tg.say(people.bob, "/help")
    await tg.say(people.alice, "/new nmbr9 @bob seed=6")
    await tg.press(people.alice, tg.board(1), "Start")
    state = load_state(await tg.db.games.get_game(1))
    alice_move = str(choose_move(state, 0, "easy", 1))
    bob_move = str(choose_move(state, 1, "medium", 1))

    calls = await tg.say(people.bob, "/moves")
    assert not [c for c in calls if c.chat_id == group["id"] and "/place" in c.text]
    calls = await tg.say(people.alice, f"/place {alice_move}")
    in_group = [c for c in calls if c.chat_id == group["id"]]
    assert any("alice has placed" in c.text for c in in_group)
    assert not [c for c in in_group if alice_move in c.text]

    calls = await tg.say(people.bob, f"/place {bob_move}")
    assert any(f"alice {alice_move}" in c.text for c in calls if c.chat_id == group["id"])
    assert load_state(await tg.db.games.get_game(1)).view(None)["round"] == 1
    group_calls = [c for c in api.calls if c.chat_id == group["id"]]
    assert not [c for c in group_calls if "Your rack" in c.text]
    assert tg.errors == []


async def test_a_round_deadline_tells_each_player_whose_tile_it_placed(tg, people) -> None:
    """Everyone misses the deadline: each is told in words, privately or by a group mention."""
    api, group = tg.api, people.group
    alice_chat = api.private(people.alice)
    await tg.say(people.alice, "/start", chat=alice_chat)  # alice can be written to privately
    await tg.say(people.bob, "/help")
    await tg.say(people.alice, "/new nmbr9 @bob deadline=10m seed=4")
    await tg.say(people.carol, "/join")
    await tg.say(people.alice, "/start")
    start = utcnow()
    first = len(api.calls)
    replies = await Dispatcher(tg.service, tg.front.send_replies).run_due(
        now=start + timedelta(minutes=10, seconds=5)
    )
    notes = [r for r in replies if r.kind == "rack" and r.event.get("timeout")]
    assert sorted(r.event["player"] for r in notes) == ["Carol", "alice", "bob"]
    calls = api.calls[first:]
    assert not [c for c in calls if "timed out" in c.text]  # no cryptic "timed out: L12 0"

    # alice, who started the bot, reads it privately, in words, with where her tile went
    private = [c.text for c in calls if c.chat_id == alice_chat["id"]]
    placed = "The round deadline of game #1 passed, so your tile was placed for you: 7 at L12 0"
    assert len([t for t in private if t.startswith(placed)]) == 1

    # bob and Carol cannot be written to privately: one group mention tells them both, once
    sent = [c for c in calls if c.chat_id == group["id"] and c.method == "sendMessage"]
    told = [c for c in sent if "round deadline" in c.text]
    assert len(told) == 1, [c.text for c in sent]
    for who in (people.bob, people.carol):
        assert f"tg://user?id={who['id']}" in told[0].text
    assert "the round deadline of game #1 passed, so your tiles were placed for you" in (
        told[0].text
    )
    assert "L12" not in told[0].text  # where it went is for the round's news to say
    assert [b["text"] for b in told[0].buttons] == ["Open a private chat"]
    assert not [c for c in sent if f"tg://user?id={people.alice['id']}" in c.text]
    assert not [c for c in api.calls if c.chat_id == group["id"] and "Your rack" in c.text]
    assert tg.errors == []


async def test_a_tile_placed_by_hand_is_never_called_placed_at_the_deadline(tg, people) -> None:
    """bob, with no private chat, places his own tile: no "the round deadline passed" for him."""
    await tg.say(people.bob, "/help")
    await tg.say(people.alice, "/new nmbr9 @bob bot=easy deadline=10m seed=4")
    await tg.say(people.alice, "/start")
    state = load_state(await tg.db.games.get_game(1))
    calls = await tg.say(people.bob, f"/place {choose_move(state, 1, 'easy', 1)}")
    in_group = [c.text for c in calls if c.chat_id == people.group["id"]]
    assert any("bob has placed this round's tile" in text for text in in_group), in_group
    assert not any("round deadline" in text for text in in_group), in_group


async def test_a_round_that_opens_mentions_who_must_place_without_a_private_chat(
    tg, people
) -> None:
    """The round's news edits the board (which notifies nobody): bob, who cannot be written to
    privately, is mentioned once per round he must place; not for the round he closed himself.
    """
    api, group = tg.api, people.group
    alice_chat = api.private(people.alice)
    await tg.say(people.alice, "/start", chat=alice_chat)
    await tg.say(people.bob, "/help")
    await tg.say(people.alice, "/new nmbr9 @bob seed=4")
    await tg.say(people.alice, "/start")

    def move(seat: int, state) -> str:
        return str(choose_move(state, seat, "easy", 1))

    state = load_state(await tg.db.games.get_game(1))
    await tg.say(people.bob, f"/place {move(1, state)}")
    calls = await tg.say(people.alice, f"/place {move(0, state)}", chat=alice_chat)
    [notice] = [c for c in calls if c.chat_id == group["id"] and "round 2" in c.text]
    assert "tg://user?id=1002" in notice.text  # bob, mentioned
    assert "place your tile of round 2 in game #1" in notice.text
    assert notice.buttons[0]["url"].endswith("?start=g1")
    assert "tg://user?id=1001" not in notice.text  # alice gets her tile privately
    state = load_state(await tg.db.games.get_game(1))
    await tg.say(people.alice, f"/place {move(0, state)}", chat=alice_chat)
    calls = await tg.say(people.bob, f"/place {move(1, state)}")  # bob closes round 2
    assert not [c for c in calls if c.chat_id == group["id"] and "round 3 in game" in c.text]
    assert tg.errors == []

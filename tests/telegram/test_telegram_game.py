"""L1: the real PTB `Application` over the recording `BaseRequest` fake — a whole Webfeud game."""

from __future__ import annotations

from typing import Any

import pytest

from bot.adapters.telegram_bot import callback_data, parse_callback
from bot.service import load_state

pytestmark = pytest.mark.timeout(30)


def find_move(state: Any, seat: int) -> str:
    """A legal move for `seat`, from the same AI the bot seats use."""
    from bot.ai import choose_move

    return str(choose_move(state, seat, "easy", 1000 + state.turn))


async def stored_state(tg: Any, game_id: int) -> Any:
    row = await tg.db.games.get_game(game_id)
    return row, (load_state(row) if row.snapshot else None)


def labels(message: dict[str, Any]) -> list[str]:
    return [
        b["text"]
        for row in (message.get("reply_markup") or {}).get("inline_keyboard", [])
        for b in row
    ]


async def test_a_full_game_in_a_group_by_commands_and_buttons(tg, people) -> None:
    """Two players play Webfeud to the end in a group; racks stay private; one board message."""
    api, group = tg.api, people.group
    assert [c["command"] for c in api.commands][:3] == ["new", "join", "start"]

    calls = await tg.say(people.alice, "/new webfeud seed=7")
    lobby = next(c for c in calls if c.method == "sendMessage" and c.chat_id == group["id"])
    assert "Game #1" in lobby.text
    assert [b["text"] for b in lobby.buttons] == ["Join", "Start"]
    assert all(len(b["callback_data"].encode()) <= 64 for b in lobby.buttons)
    lobby_message = lobby.result

    # Bob joins with the button; the game is full, so it starts by itself.
    calls = await tg.press(people.bob, lobby_message, "Join")
    assert calls[0].method == "answerCallbackQuery"  # answered before anything is sent
    board_call = next(c for c in calls if c.method == "sendPhoto" and c.chat_id == group["id"])
    assert "has started" in board_call.text
    assert labels(board_call.result) == ["My rack", "Pass", "Board"]
    row, state = await stored_state(tg, 1)
    racks = {seat: "".join(state.rack(seat)) for seat in (0, 1)}
    # Nobody has started the bot. Bob pressed the button: his rack comes in the alert; Alice is
    # told in the group how to see her tiles — never the tiles themselves.
    assert calls[0].params["show_alert"] is True
    assert " ".join(racks[1]) in calls[0].text
    notice = next(c for c in calls if "privately" in c.text and c.chat_id == group["id"])
    assert "tg://user?id=1001" in notice.text
    assert "tg://user?id=1002" not in notice.text
    assert notice.buttons[0]["url"] == "https://t.me/feudbot_test_bot?start=g1"
    board_id = board_call.result["message_id"]

    # Alice asks for her rack with the button: an alert with the rack and a deep link.
    calls = await tg.press(people.alice, tg.board(1), "My rack")
    assert [c.method for c in calls] == ["answerCallbackQuery"]
    alert = calls[0]
    assert alert.params["show_alert"] is True
    assert " ".join(racks[0]) in alert.text
    assert "t.me/feudbot_test_bot?start=g1" in alert.text
    assert len(alert.text) <= 200

    # Bob starts the bot privately with the deep link: his rack arrives there as a picture.
    calls = await tg.say(people.bob, "/start g1", chat=api.private(people.bob))
    dm = [c for c in calls if c.chat_id == people.bob["id"]]
    assert any(c.method == "sendPhoto" and " ".join(racks[1]) in c.text for c in dm)
    # Carol, not playing, taps the same link: the welcome only (the group's refusal, "/board
    # game=1 shows it", came too, and failed in the private chat).
    calls = await tg.say(people.carol, "/start g1", chat=api.private(people.carol))
    assert [c.method for c in calls] == ["sendMessage"]
    assert "not playing" not in calls[0].text
    # ... and from now on the button sends it privately too (then says so in the answer).
    calls = await tg.press(people.bob, tg.board(1), "My rack")
    assert [(c.method, c.chat_id) for c in calls] == [
        ("sendPhoto", people.bob["id"]),
        ("answerCallbackQuery", None),
    ]
    assert "private" in calls[1].text

    # Real moves by command, then passes by button until the game ends.
    players = {0: people.alice, 1: people.bob}
    for _ in range(4):
        row, state = await stored_state(tg, 1)
        seat = state.waiting_for()[0]
        move = find_move(state, seat)
        calls = await tg.say(players[seat], f"/play {move}")
        edits = [c for c in calls if c.method == "editMessageMedia"]
        assert edits, calls
        assert edits[-1].params["message_id"] == board_id
        assert not [c for c in calls if c.method == "sendPhoto" and c.chat_id == group["id"]]
    for _ in range(10):
        row, state = await stored_state(tg, 1)
        if row.status != "active":
            break
        seat = state.waiting_for()[0]
        calls = await tg.pass_turn(players[seat], tg.api.message(group["id"], board_id))
        assert calls[0].method == "answerCallbackQuery"
    row, state = await stored_state(tg, 1)
    assert row.status == "finished"
    over = [c for c in api.sent("sendPhoto", "sendMessage") if "is over" in c.text]
    assert len(over) == 1
    assert over[0].chat_id == group["id"]
    assert "reply_markup" not in api.message(group["id"], board_id)  # no buttons after the end
    # Nothing private ever reached the group: no rack text, no rack picture.
    group_calls = [c for c in api.calls if c.chat_id == group["id"]]
    assert not [c for c in group_calls if "Your rack" in c.text]
    assert not [c for c in group_calls if any("rack" in n for n in c.filenames.values())]
    # Unasked, the "how to see your tiles" notice came once (not after each of Alice's moves).
    assert len([c for c in group_calls if "cannot send you your tiles" in c.text]) == 1
    # One board message per game: every later board went into it.
    assert len([c for c in group_calls if c.method == "sendPhoto" and "has started" in c.text]) == 1
    assert tg.errors == []

    # Only the Rematch button, under the game-over message: it deals game #2, bob first.
    message = api.message(group["id"], over[0].result["message_id"])
    assert [b["text"] for b in message["reply_markup"]["inline_keyboard"][0]] == ["Rematch"]
    calls = await tg.press(people.bob, message, "Rematch")
    # bob's new rack goes to his private chat first; the press is answered once, saying so.
    assert [c.method for c in calls].count("answerCallbackQuery") == 1
    again = [c for c in calls if c.chat_id == group["id"] and "has started" in c.text]
    assert [c.text.split("\n")[0] for c in again] == [
        "bob asked for a rematch of game #1. Game #2 (Webfeud) has started: bob vs alice. bob "
        "to move."
    ]
    row, state = await stored_state(tg, 2)
    assert (row.status, state.waiting_for()) == ("active", (0,))
    calls = await tg.press(people.alice, message, "Rematch")  # once only: an alert, no game
    assert [c.method for c in calls] == ["answerCallbackQuery"]
    assert "already the rematch of game #1" in calls[0].text

    group_calls = [c for c in api.calls if c.chat_id == group["id"]]
    assert not [c for c in group_calls if "Your rack" in c.text]
    assert tg.errors == []


async def test_a_stale_button_is_refused_politely(tg, people) -> None:
    """Pressing Pass under an earlier turn answers an alert and changes nothing."""
    await tg.say(people.bob, "/help")
    await tg.say(people.alice, "/new webfeud @bob seed=3")
    board = tg.board(1)
    data = next(
        b["callback_data"]
        for b in board["reply_markup"]["inline_keyboard"][0]
        if b["text"] == "Pass"
    )
    game_id, _action, _turn = parse_callback(data)
    await tg.pass_turn(people.alice, board)  # alice passes: the turn moves on
    row_before = await tg.db.games.get_game(game_id)
    calls = await tg.press_data(people.bob, board, data)  # bob presses the old button
    assert [c.method for c in calls] == ["answerCallbackQuery"]
    assert calls[0].params["show_alert"] is True
    assert "earlier turn" in calls[0].text
    assert (await tg.db.games.get_game(game_id)).version == row_before.version
    # Someone else's turn: the service's error comes back as an alert, not a group message.
    calls = await tg.press(people.alice, tg.board(1), "Pass")
    assert [c.method for c in calls] == ["answerCallbackQuery"]
    assert calls[0].params["show_alert"] is True
    assert tg.errors == []


async def test_an_old_pass_button_of_an_ended_game_says_the_game_is_over(tg, people) -> None:
    """No newer board to point to: the alert says the game is over (or cancelled), nothing else."""
    await tg.say(people.bob, "/help")
    await tg.say(people.alice, "/new webfeud @bob seed=3")
    board = tg.board(1)
    data = tg_button(board, "Pass")  # the game over takes the buttons off this message
    await tg.say(people.alice, "/resign")
    row_before = await tg.db.games.get_game(1)
    assert row_before.status == "finished"
    calls = await tg.press_data(people.bob, board, data)
    assert [c.method for c in calls] == ["answerCallbackQuery"]
    assert calls[0].params["show_alert"] is True
    assert calls[0].text == "Game #1 is over; /board game=1 shows how it ended."
    assert (await tg.db.games.get_game(1)).version == row_before.version
    calls = await tg.say(people.bob, "/board game=1")  # what the alert offers does work
    assert [c.method for c in calls if "Game #1" in c.text] == ["sendPhoto"]
    # A game cancelled while active (by the group's admin) says so instead.
    await tg.say(people.bob, "/new webfeud @alice seed=5")
    board = tg.board(2)
    data = tg_button(board, "Pass")
    await tg.say(people.alice, "/cancel game=2")
    assert (await tg.db.games.get_game(2)).status == "cancelled"
    calls = await tg.press_data(people.alice, board, data)
    assert [c.text for c in calls] == ["Game #2 was cancelled; /new starts another."]
    assert tg.errors == []


def tg_button(message: dict[str, Any], label: str) -> str:
    return next(
        b["callback_data"]
        for b in message["reply_markup"]["inline_keyboard"][0]
        if b["text"] == label
    )


async def test_a_429_is_survived(tg, people) -> None:
    """A 429 with retry_after from Telegram is waited out and the message still arrives."""
    from fake_bot_api import retry_after

    tg.api.fail_next("sendMessage", retry_after(1))
    calls = await tg.say(people.alice, "/help")
    sends = [c for c in calls if c.method == "sendMessage"]
    assert [c.status for c in sends] == [429, 200]
    assert "/new" in sends[-1].text
    assert tg.errors == []


async def test_not_modified_is_ignored(tg, people) -> None:
    """An edit Telegram refuses as "message is not modified" is not an error."""
    from fake_bot_api import not_modified

    await tg.say(people.bob, "/help")
    await tg.say(people.alice, "/new webfeud @bob seed=3")
    tg.api.fail_next("editMessageMedia", not_modified())
    calls = await tg.pass_turn(people.alice, tg.board(1))
    assert [c.status for c in calls if c.method == "editMessageMedia"] == [400]
    assert not [c for c in calls if c.method == "sendPhoto"]
    assert tg.errors == []


async def test_errors_are_logged_and_apologised_for(tg, people, monkeypatch) -> None:
    """A failing service call reaches the global handler: a short apology, no traceback."""

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("database on fire")

    monkeypatch.setattr(tg.service, "handle", broken)
    calls = await tg.say(people.alice, "/games")
    texts = [c.text for c in calls if c.method == "sendMessage"]
    assert texts == ["Sorry, something went wrong on my side; please try again in a moment."]
    assert [type(e) for e in tg.errors] == [RuntimeError]


async def test_a_slow_press_is_answered_before_the_work_ends(tg, people, monkeypatch) -> None:
    """When the service is slow (bots thinking), the query is answered at once, then the board."""
    import asyncio

    from bot.adapters import telegram_bot

    await tg.say(people.bob, "/help")
    await tg.say(people.alice, "/new webfeud @bob seed=3")
    handle = tg.service.handle

    async def slow(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0.3)
        return await handle(*args, **kwargs)

    monkeypatch.setattr(telegram_bot, "ANSWER_WITHIN", 0.05)
    monkeypatch.setattr(tg.service, "handle", slow)
    calls = await tg.pass_turn(people.alice, tg.board(1))
    # The board is edited (silently); bob, who has no private chat with the bot, is mentioned.
    assert [c.method for c in calls] == ["answerCallbackQuery", "editMessageMedia", "sendMessage"]
    assert "Working" in calls[0].text
    assert calls[2].chat_id == people.group["id"]
    assert calls[2].text == (
        '<a href="tg://user?id=1002">bob</a>: Your turn in game #1 (Webfeud), after alice: pass.'
    )
    # A slow error comes back in the group, to the presser, as for a typed command (alice's
    # "Yes, pass" of bob's turn: Pass itself would ask first, and refuse her at once).
    calls = await tg.press_data(people.alice, tg.board(1), callback_data(1, "passok", 1))
    assert [c.method for c in calls] == ["answerCallbackQuery", "sendMessage"]
    assert "tg://user?id=1001" in calls[1].text
    assert tg.errors == []


async def test_one_failed_send_does_not_lose_the_others(tg, people) -> None:
    """A send that fails for good (400) is logged; the other replies of the batch still go out."""
    from fake_bot_api import ApiError

    await tg.say(people.bob, "/help")
    await tg.say(people.alice, "/start", chat=tg.api.private(people.alice))
    tg.api.fail_next("sendPhoto", ApiError(400, "Bad Request: chat not found"))
    calls = await tg.say(people.alice, "/new webfeud @bob seed=3")
    assert next(c.status for c in calls if c.method == "sendPhoto") == 400  # the board
    assert any(c.chat_id == people.alice["id"] and c.ok for c in calls)  # alice's rack
    assert tg.errors == []


def rows(message: dict[str, Any]) -> list[list[str]]:
    return [[b["text"] for b in row] for row in message["reply_markup"]["inline_keyboard"]]


async def test_pass_asks_first_in_the_keyboard(tg, people) -> None:
    """Pass asks the player to move in the board's keyboard; only "Yes, pass" passes.

    Anyone else pressing Pass, or "Yes, pass", gets the refusal and nothing changes; "Keep
    playing" takes the question back. Rummikub's Draw, a move like any other, does not ask.
    """
    await tg.say(people.bob, "/help")
    await tg.say(people.alice, "/new webfeud @bob seed=3")
    before = await tg.db.games.get_game(1)
    calls = await tg.press(people.bob, tg.board(1), "Pass")  # alice is to move
    assert [c.method for c in calls] == ["answerCallbackQuery"]
    assert calls[0].params["show_alert"] is True
    assert calls[0].text == "It is alice's turn in game #1, not yours; wait for it."
    assert rows(tg.board(1)) == [["My rack", "Pass", "Board"]]

    calls = await tg.press(people.alice, tg.board(1), "Pass")
    assert [c.method for c in calls] == ["answerCallbackQuery", "editMessageReplyMarkup"]
    assert calls[0].text == "Pass your turn in game #1? Tap Yes, pass, or Keep playing."
    assert calls[0].params.get("show_alert") is not True  # a toast: the buttons are the question
    assert rows(tg.board(1)) == [["My rack", "Board"], ["Yes, pass", "Keep playing"]]
    calls = await tg.press(people.bob, tg.board(1), "Keep playing")  # not bob's question
    assert calls[0].text == "It is alice's turn in game #1, not yours; wait for it."
    assert rows(tg.board(1)) == [["My rack", "Board"], ["Yes, pass", "Keep playing"]]
    await tg.press(people.alice, tg.board(1), "Keep playing")
    assert rows(tg.board(1)) == [["My rack", "Pass", "Board"]]
    await tg.press(people.alice, tg.board(1), "Pass")
    calls = await tg.press(people.bob, tg.board(1), "Yes, pass")  # not bob's to answer
    assert [c.method for c in calls] == ["answerCallbackQuery"]
    assert calls[0].text == "It is alice's turn in game #1, not yours; wait for it."
    assert (await tg.db.games.get_game(1)).version == before.version

    calls = await tg.press(people.alice, tg.board(1), "Yes, pass")
    row, state = await stored_state(tg, 1)
    assert (row.turn, state.history[-1].text) == (before.turn + 1, "pass")
    assert [c.text.split(" — ")[0] for c in calls if c.method == "editMessageMedia"] == [
        "#1 alice: pass"
    ]
    assert rows(tg.board(1)) == [["My rack", "Pass", "Board"]]  # the next turn's keyboard
    # A pass that would end the game says so (Webfeud: the third pass in a row).
    await tg.say(people.bob, "/pass")
    calls = await tg.press(people.alice, tg.board(1), "Pass")
    assert calls[0].text == (
        "Pass your turn in game #1? Careful: a pass now ends the game. Tap Yes, pass, or Keep "
        "playing."
    )
    assert tg.errors == []

    await tg.say(people.alice, "/new rummikub @bob seed=3")
    await tg.say(people.alice, "/start game=2")
    turn = (await tg.db.games.get_game(2)).turn
    await tg.press(people.alice, tg.board(2), "Draw")
    assert (await tg.db.games.get_game(2)).turn == turn + 1
    assert tg.errors == []


async def test_a_board_without_buttons_is_not_cleared_again(tg, people) -> None:
    """After the end the board shows no buttons: a new /board asks Telegram to clear nothing."""
    await tg.say(people.bob, "/help")
    await tg.say(people.alice, "/new webfeud @bob seed=3")
    await tg.say(people.bob, "/resign")
    for _ in range(2):
        calls = await tg.say(people.alice, "/board")
        assert not [c for c in calls if c.method == "editMessageReplyMarkup"], calls
        assert all(c.ok for c in calls)
    assert tg.errors == []


async def test_a_game_that_fills_at_new_has_buttons_only_under_its_board(tg, people) -> None:
    """The "created" line of a game that starts at once gets no buttons: the board has them."""
    await tg.say(people.bob, "/help")
    calls = await tg.say(people.alice, "/new webfeud @bob seed=3")
    created = next(c for c in calls if "created" in c.text)
    assert created.buttons == []
    board = next(c for c in calls if "has started" in c.text)
    assert labels(board.result) == ["My rack", "Pass", "Board"]
    assert not [c for c in calls if c.method.startswith("edit")], calls
    # The same in a private game against a bot, which starts at once too.
    calls = await tg.say(
        people.alice, "/new webfeud bot=easy seed=1", chat=tg.api.private(people.alice)
    )
    created = next(c for c in calls if "created" in c.text)
    assert created.buttons == []
    assert labels(next(c for c in calls if "has started" in c.text).result)
    assert not [c for c in calls if c.method.startswith("edit")], calls
    # A lobby still is the board message until the deal, with Join · Start.
    calls = await tg.say(people.alice, "/new webfeud seed=5")
    assert [b["text"] for b in next(c for c in calls if "created" in c.text).buttons] == [
        "Join",
        "Start",
    ]
    assert tg.errors == []


def lobby_buttons(tg: Any, chat_id: int) -> list[str]:
    """The texts of the chat's messages that still show Join or Start."""
    return [
        (message.get("text") or message.get("caption") or "").split("\n")[0]
        for (chat, _), message in sorted(tg.api.messages.items())
        if chat == chat_id and {"Join", "Start"} & set(labels(message))
    ]


async def test_only_the_newest_lobby_message_keeps_join_and_start(tg, people) -> None:
    """Each join or leave message takes the lobby's buttons over; the deal takes them away.

    So does the last player leaving, which cancels the lobby.
    """
    group = people.group["id"]
    await tg.say(people.alice, "/new smartfeud seed=1")
    await tg.say(people.bob, "/join")
    assert lobby_buttons(tg, group) == ["bob joined game #1 (alice, bob)."]
    await tg.say(people.carol, "/join")
    await tg.say(people.carol, "/leave")
    assert lobby_buttons(tg, group) == ["Carol left game #1."]
    await tg.say(people.alice, "/start")
    assert (await tg.db.games.get_game(1)).status == "active"
    assert lobby_buttons(tg, group) == []
    await tg.say(people.bob, "/new numfeud")
    assert len(lobby_buttons(tg, group)) == 1
    await tg.say(people.bob, "/leave")  # nobody left: cancelled
    assert (await tg.db.games.get_game(2)).status == "cancelled"
    assert lobby_buttons(tg, group) == []
    assert tg.errors == []


async def test_a_command_replying_to_a_board_means_that_game(tg, people) -> None:
    """Two games in the group: /board (or a move) sent as a reply to game 2's board is about
    game 2 (it asked which game); game=<id> typed still wins, and a reply to anything else
    changes nothing.
    """
    for person in (people.bob, people.carol):
        await tg.say(person, "/help")  # known to the bot: seated by name
    await tg.say(people.alice, "/new webfeud @bob seed=1")
    await tg.say(people.alice, "/new webfeud @carol seed=2")
    board = tg.board(2)
    update = tg.api.message_update(people.group, people.alice, "/board")
    update["message"]["reply_to_message"] = board
    calls = await tg.process(update)
    assert any(c.text.startswith("Game #2 (Webfeud)") for c in calls), [c.text for c in calls]
    update = tg.api.message_update(people.group, people.alice, "/board game=1")
    update["message"]["reply_to_message"] = board
    calls = await tg.process(update)
    assert any(c.text.startswith("Game #1 (Webfeud)") for c in calls), [c.text for c in calls]
    calls = await tg.say(people.alice, "/board")  # no reply: which game?
    assert any("several games" in c.text for c in calls), [c.text for c in calls]
    assert tg.errors == []


async def test_a_rematch_replying_to_a_board_of_long_ago_means_that_game(tg, people) -> None:
    """The daily prune keeps a finished game's board: a /rematch replying to it a month after
    the game ended replays that game, not the newest one (a bare /rematch's).
    """
    from datetime import timedelta

    from bot.reminders import Dispatcher
    from bot.service import utcnow

    await tg.say(people.bob, "/help")
    for seed in (1, 2):
        await tg.say(people.alice, f"/new webfeud @bob seed={seed}")
        await tg.say(people.alice, "/resign")
    assert [(await tg.db.games.get_game(g)).status for g in (1, 2)] == ["finished"] * 2
    board = tg.board(1)
    month = utcnow() + timedelta(days=31)
    await Dispatcher(tg.service, tg.front.send_replies).run_due(now=month)  # prunes
    update = tg.api.message_update(people.group, people.bob, "/rematch")
    update["message"]["reply_to_message"] = board
    await tg.process(update)
    rematch = await tg.db.games.get_game(3)
    assert rematch is not None
    assert rematch.options["rematch_of"] == 1
    assert tg.errors == []


async def test_board_posts_the_board_again_but_not_under_one_just_posted(tg, people) -> None:
    """Board under an older board: a fresh one at the bottom, the old one's buttons cleared.

    Under the board posted a moment ago it is at the bottom already: a toast, no new message
    (pressing it over and over must not flood the group).
    """
    from bot.adapters.common import JUST_POSTED

    group = people.group
    await tg.say(people.bob, "/help")
    await tg.say(people.alice, "/new webfeud @bob seed=7")
    board = tg.board(1)
    calls = await tg.press(people.carol, board, "Board")  # anyone may; not a player here
    assert [c.method for c in calls] == ["answerCallbackQuery"]
    assert calls[0].text == JUST_POSTED.format(id=1)
    assert calls[0].params.get("show_alert") in (None, False)
    board["date"] -= 120  # two minutes on, with the chat's talk below it
    calls = await tg.press(people.carol, board, "Board")
    posted = [c for c in calls if c.method == "sendPhoto"]
    assert [c.chat_id for c in posted] == [group["id"]]
    assert "Game #1 (Webfeud)" in posted[0].text
    assert tg.board(1)["message_id"] == posted[0].result["message_id"] != board["message_id"]
    assert tg.api.message(group["id"], board["message_id"]).get("reply_markup") in (None, {})
    assert labels(posted[0].result) == ["My rack", "Pass", "Board"]
    assert tg.errors == []

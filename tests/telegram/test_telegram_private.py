"""L1: private chats, private racks, blocked users, reminders and timeouts."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from typing import Any

import pytest

from bot.adapters.telegram_bot import ALERT_LIMIT, PLAIN_TEXT
from bot.reminders import Dispatcher
from bot.service import load_state, utcnow

pytestmark = pytest.mark.timeout(30)

WELCOME_START = "Hello! Private messages are on"


def in_group(calls: list[Any], group: dict[str, Any]) -> list[Any]:
    return [c for c in calls if c.chat_id == group["id"]]


async def test_the_command_language_in_a_private_chat(tg, people) -> None:
    """/start greets, /help and /rules answer, and a game against a bot runs in the private chat."""
    chat = tg.api.private(people.carol)
    calls = await tg.say(people.carol, "/start", chat=chat)
    assert [c.text[: len(WELCOME_START)] for c in calls] == [WELCOME_START]
    calls = await tg.say(people.carol, "/help", chat=chat)
    assert "/play" in calls[0].text
    assert calls[0].chat_id == chat["id"]
    calls = await tg.say(people.carol, "/rules webfeud", chat=chat)
    assert "Webfeud" in calls[0].text

    calls = await tg.say(people.carol, "/new webfeud bot=easy seed=5", chat=chat)
    assert {c.chat_id for c in calls} == {chat["id"]}
    # The rack comes into the private chat (it is Carol's own chat with the bot).
    assert any(c.method == "sendPhoto" and "Your rack" in c.text for c in calls)
    calls = await tg.press(people.carol, tg.board(1), "My rack")
    assert calls[0].method == "answerCallbackQuery"
    assert not calls[0].params.get("show_alert")
    assert [c.method for c in calls[1:]] == ["sendPhoto"]
    assert "Your rack" in calls[1].text
    # /start game=<id> in a private chat is still the command language, not a greeting.
    calls = await tg.say(people.carol, "/start game=1", chat=chat)
    assert "already started" in calls[-1].text
    # An unknown command in a private chat gets the command list.
    calls = await tg.say(people.carol, "/pass", chat=chat)
    assert calls
    assert all(c.chat_id == chat["id"] for c in calls)
    assert tg.errors == []


async def test_errors_in_a_group_answer_the_command_where_it_was_typed(tg, people) -> None:
    """A wrong command in the group gets a reply to that message, mentioning its author."""
    calls = await tg.say(people.alice, "/play")
    assert len(calls) == 1
    assert calls[0].chat_id == people.group["id"]
    assert "Usage: /play" in calls[0].text
    assert "tg://user?id=1001" in calls[0].text
    assert (
        calls[0].params["reply_parameters"]["message_id"]
        == max(mid for chat, mid in tg.api.messages if chat == people.group["id"]) - 1
    )  # the command message, just before the bot's reply
    assert tg.errors == []


async def test_rack_by_command_in_a_group_never_shows_the_tiles(tg, people) -> None:
    """/rack typed in the group: by DM when possible, else a notice with a deep link, every time."""
    await tg.say(people.bob, "/help")
    await tg.say(people.alice, "/new webfeud @bob seed=9")
    for _ in range(2):
        calls = await tg.say(people.alice, "/rack")
        assert len(calls) == 1
        assert "cannot send you your tiles" in calls[0].text
        assert calls[0].buttons[0]["url"].endswith("?start=g1")
    await tg.say(people.alice, "/start", chat=tg.api.private(people.alice))
    calls = await tg.say(people.alice, "/rack")
    assert [(c.method, c.chat_id) for c in calls] == [("sendPhoto", people.alice["id"])]
    group_texts = " ".join(c.text for c in in_group(tg.api.calls, people.group))
    assert "Your rack" not in group_texts
    assert tg.errors == []


async def test_bag_in_a_group_never_lists_the_unseen_tiles_there(tg, people) -> None:
    """/bag gives the rack away by what it lacks: only by DM, never as a group fallback."""
    await tg.say(people.bob, "/help")
    await tg.say(people.alice, "/new webfeud @bob seed=9")
    calls = await tg.say(people.alice, "/bag")
    assert [c.chat_id for c in calls] == [people.group["id"]]
    assert "my answer to /bag would tell about your tiles" in calls[0].text
    await tg.say(people.alice, "/start", chat=tg.api.private(people.alice))
    calls = await tg.say(people.alice, "/bag")
    assert [(c.method, c.chat_id) for c in calls] == [("sendMessage", people.alice["id"])]
    assert "tiles you have not seen" in calls[0].text
    group_texts = " ".join(c.text for c in in_group(tg.api.calls, people.group))
    assert "you have not seen —" not in group_texts  # /help in the group names the command
    assert tg.errors == []


async def test_try_in_a_group_never_shows_the_move_there(tg, people) -> None:
    """A /try preview names tiles not played yet: by DM only, else the private-chat notice."""
    from bot.ai import choose_move
    from bot.service import load_state

    await tg.say(people.bob, "/help")
    await tg.say(people.alice, "/new webfeud @bob seed=9")
    move = str(choose_move(load_state(await tg.db.games.get_game(1)), 0, "easy", 1))
    calls = await tg.say(people.alice, f"/try {move}")
    assert [c.chat_id for c in calls] == [people.group["id"]]
    assert "my answer to /try would tell about your tiles" in calls[0].text
    await tg.say(people.alice, "/start", chat=tg.api.private(people.alice))
    calls = await tg.say(people.alice, f"/try {move}")
    assert [(c.method, c.chat_id) for c in calls] == [("sendMessage", people.alice["id"])]
    assert "would score" in calls[0].text
    assert not [c for c in in_group(tg.api.calls, people.group) if "would score" in c.text]
    assert tg.errors == []


async def test_a_try_notice_in_the_group_reads_the_same_for_a_legal_move_and_a_refused_one(
    tg, people
) -> None:
    """Without a private chat, /try's notice in the group does not say whether the move is legal.

    The group sees the /try typed there; a notice that said "shows a move with your tiles" for a
    legal move alone would confirm that its tiles are on the rack.
    """
    from bot.ai import choose_move
    from bot.service import load_state

    await tg.say(people.bob, "/help")
    await tg.say(people.alice, "/new webfeud @bob seed=9")
    state = load_state(await tg.db.games.get_game(1))
    legal = await tg.say(people.alice, f"/try {choose_move(state, 0, 'easy', 1)}")
    # The whole rack as one word: refused by the dictionary once its tiles were found.
    refused = await tg.say(people.alice, f"/try 8H {''.join(state.rack(0)).replace('?', 'e')}")
    [told_legal] = in_group(legal, people.group)
    [told_refused] = in_group(refused, people.group)
    assert told_legal.text == told_refused.text
    assert "my answer to /try would tell about your tiles" in told_legal.text
    assert tg.errors == []


async def test_a_user_who_blocked_the_bot_gets_the_alert_instead(tg, people) -> None:
    """A 403 on the private message turns into the alert with the rack; dm_allowed is cleared."""
    await tg.say(people.bob, "/start", chat=tg.api.private(people.bob))
    await tg.say(people.alice, "/new webfeud @bob seed=9")
    tg.api.blocked.add(people.bob["id"])
    calls = await tg.press(people.bob, tg.board(1), "My rack")
    assert [(c.method, c.status) for c in calls] == [
        ("sendPhoto", 403),
        ("answerCallbackQuery", 200),
    ]
    assert calls[1].params["show_alert"] is True
    assert "Your rack in game #1" in calls[1].text
    user = await tg.db.users.get_user_by_platform_id("telegram", str(people.bob["id"]))
    assert user is not None
    assert not user.dm_allowed
    assert tg.errors == []


async def test_reminders_and_timeouts_reach_the_player(tg, people) -> None:
    """A reminder is a group mention without DMs; the timeout comes privately once allowed."""
    await tg.say(people.bob, "/help")
    await tg.say(people.alice, "/new webfeud @bob seed=9")
    dispatcher = Dispatcher(tg.service, tg.front.send_replies)
    start = utcnow()

    first = len(tg.api.calls)
    replies = await dispatcher.run_due(now=start + timedelta(hours=49))
    assert [r.kind for r in replies] == ["reminder"]
    calls = tg.api.calls[first:]
    assert [c.chat_id for c in calls] == [people.group["id"]]
    assert "tg://user?id=1001" in calls[0].text
    assert "runs out in 24 hours" in calls[0].text

    await tg.say(people.alice, "/start", chat=tg.api.private(people.alice))
    first = len(tg.api.calls)
    replies = await dispatcher.run_due(now=start + timedelta(hours=80))
    assert [r.kind for r in replies][:2] == ["reminder", "timeout"]
    calls = tg.api.calls[first:]
    private = [c for c in calls if c.chat_id == people.alice["id"]]
    assert any("runs out in 1 hour" in c.text for c in private)
    assert any("timed out" in c.text for c in private)
    assert any("is over" in c.text for c in in_group(calls, people.group))
    assert tg.errors == []


@pytest.mark.parametrize("dm", [True, False])
async def test_the_timeout_notice_names_the_game_and_what_it_did(tg, people, dm) -> None:
    """A Numfeud turn timed out: the notice says which game where, and that the player resigned.

    As a reminder does ("game #1 (Numfeud in Feud club)"), with what the deadline did, done
    ("you resigned and lost 50 ranking points"); privately it adds the chat's news (the
    scores); a mention sits under that news, and in the chat itself names no chat.
    """
    if dm:
        await tg.say(people.alice, "/start", chat=tg.api.private(people.alice))
    await tg.say(people.bob, "/help")
    await tg.say(people.alice, "/new numfeud @bob seed=5")
    assert load_state(await tg.db.games.get_game(1)).to_move == 0  # alice's turn
    start = utcnow()
    first = len(tg.api.calls)
    replies = await Dispatcher(tg.service, tg.front.send_replies).run_due(
        now=start + timedelta(hours=72, minutes=1)
    )
    assert "timeout" in [r.kind for r in replies]
    calls = tg.api.calls[first:]
    [notice] = [c for c in calls if "timed out" in c.text]
    assert notice.chat_id == (people.alice["id"] if dm else people.group["id"])
    did = "so you resigned and lost 50 ranking points."
    if dm:
        assert notice.text == (
            f"Your turn in game #1 timed out (Numfeud in Feud club), {did}\n"
            "In the chat: #1 alice: ran out of time (-50)."
        )
    else:
        alice = '<a href="tg://user?id=1001">alice</a>'
        assert notice.text == f"{alice}: Your turn in game #1 timed out (Numfeud), {did}"
    assert tg.errors == []


@pytest.mark.parametrize(
    ("game", "ends"), [("webfeud bot=easy", True), ("smartfeud bot=easy wait=3m", False)]
)
async def test_a_timeout_in_a_private_chat_is_told_once(tg, people, game, ends) -> None:
    """A game against a bot in the player's own private chat: the board tells the timeout, alone."""
    chat = tg.api.private(people.alice)
    await tg.say(people.alice, "/start", chat=chat)
    await tg.say(people.alice, f"/new {game} seed=3", chat=chat)
    if not ends:
        await tg.say(people.alice, "/start", chat=chat)
    start = utcnow()
    first = len(tg.api.calls)
    due = timedelta(hours=72, minutes=1) if ends else timedelta(minutes=3, seconds=5)
    replies = await Dispatcher(tg.service, tg.front.send_replies).run_due(now=start + due)
    assert "timeout" in [r.kind for r in replies]
    calls = tg.api.calls[first:]
    assert {c.chat_id for c in calls} == {chat["id"]}
    told = [c.text for c in calls if "ran out of time" in c.text or "timed out" in c.text]
    assert len(told) == 1, told
    assert told[0].startswith("#1 alice: ran out of time")
    assert tg.board(1)["caption"].startswith("#1 alice: ran out of time")
    assert any("is over" in c.text for c in calls) == ends
    assert tg.errors == []


async def test_a_player_without_username_is_invited_by_the_mention_menu(tg, people) -> None:
    """A text_mention (a user without @username, full name with a space) seats that user."""
    carol = tg.api.user(1004, "Carol", None)
    carol["last_name"] = "Smith"
    calls = await tg.say(people.alice, "/new webfeud Carol Smith", mentions={"Carol Smith": carol})
    started = [c for c in calls if "has started" in c.text]
    assert started, calls
    assert "alice vs Carol_Smith" in started[0].text
    assert tg.errors == []


async def test_a_mention_picked_from_the_menu_is_that_user_even_if_a_username_is_the_name(
    tg, people
) -> None:
    """Carol Smith has no username and someone else's username is Carol_Smith: picking Carol
    from the mention menu seats Carol, for /new and for /stats, never the username's holder.
    """
    holder = tg.api.user(1005, "Mallory", "Carol_Smith")
    await tg.say(holder, "/help")
    carol = tg.api.user(1004, "Carol", None)
    carol["last_name"] = "Smith"
    calls = await tg.say(people.alice, "/new webfeud Carol Smith", mentions={"Carol Smith": carol})
    assert any("has started" in c.text for c in calls), calls
    seats = await tg.db.games.seats(1)
    users = [await tg.db.users.get_user(s.user_id) for s in seats if s.user_id is not None]
    assert [u.platform_user_id for u in users if u is not None] == [
        str(people.alice["id"]),
        "1004",
    ]
    await tg.say(people.alice, "/resign")  # Carol has a game behind her, the holder none
    # Typed by hand, @Carol_Smith is the username's holder, as ever.
    calls = await tg.say(people.alice, "/stats @Carol_Smith")
    assert calls[-1].text.endswith("no finished games yet."), calls[-1].text
    calls = await tg.say(people.alice, "/stats Carol Smith", mentions={"Carol Smith": carol})
    assert "1 game" in calls[-1].text, calls[-1].text
    assert tg.errors == []


async def test_a_picked_mention_names_only_itself_not_a_typed_name_differing_in_case(
    tg, people
) -> None:
    """Typed "@bob" and "Bob" (no username) picked from the menu, on one line: two people."""
    await tg.say(people.bob, "/help")
    other = tg.api.user(1005, "Bob", None)
    calls = await tg.say(people.alice, "/new rummikub @bob Bob", mentions={"Bob": other})
    assert not any("already" in c.text for c in calls), [c.text for c in calls]
    seats = await tg.db.games.seats(1)
    users = [await tg.db.users.get_user(s.user_id) for s in seats if s.user_id is not None]
    assert [u.platform_user_id for u in users if u is not None] == [
        str(people.alice["id"]),
        str(people.bob["id"]),
        "1005",
    ]
    assert tg.errors == []


async def test_a_group_admin_may_cancel_someone_elses_game(tg, people) -> None:
    """/cancel asks Telegram who is an admin: a member may not, the group's owner may."""
    await tg.say(people.carol, "/help")
    lobby = (await tg.say(people.bob, "/new webfeud"))[0].result
    assert "reply_markup" in lobby
    calls = await tg.say(people.carol, "/cancel game=1")
    assert "can be cancelled only by bob, who hosts it" in calls[-1].text
    calls = await tg.say(people.alice, "/cancel game=1")
    assert [c.method for c in calls] == ["getChatMember", "editMessageReplyMarkup", "sendMessage"]
    assert "cancelled by alice" in calls[-1].text
    assert "reply_markup" not in tg.api.message(people.group["id"], lobby["message_id"])
    assert tg.errors == []


async def test_a_refused_try_never_shows_the_move_in_the_group(tg, people) -> None:
    """A refused /try may tell the tiles ("… not in the dictionary"): it goes privately, too."""
    group = people.group
    await tg.say(people.bob, "/help")
    await tg.say(people.alice, "/new webfeud @bob seed=4")
    rack = load_state(await tg.db.games.get_game(1)).rack(0)
    word = "".join(t for t in rack if t != "?")[:5]  # her own tiles, in an order that is no word
    # No private chat yet: a notice that says where the answer goes, never what it says.
    calls = await tg.say(people.alice, f"/try 8H {word}")
    assert [c.chat_id for c in calls] == [group["id"]]
    assert "answer to /try" in calls[0].text
    assert "Open it with the button below, then send /try there." in calls[0].text
    assert calls[0].buttons[0]["url"] == "https://t.me/feudbot_test_bot?start=g1"  # brings the rack
    # With one: the refusal arrives there.
    await tg.say(people.alice, "/start", chat=tg.api.private(people.alice))
    calls = await tg.say(people.alice, f"/try 8H {word}")
    assert [(c.method, c.chat_id) for c in calls] == [("sendMessage", people.alice["id"])]
    assert f"{word} is not in the dictionary" in calls[0].text
    # A refusal about finding the game tells nothing of the tiles: it answers where it was typed.
    calls = await tg.say(people.alice, "/try 8H AB game=9")
    assert [c.chat_id for c in calls] == [group["id"]]
    assert "There is no game #9 in this chat" in calls[0].text
    assert not [c for c in in_group(tg.api.calls, group) if word in c.text]
    assert not [c for c in in_group(tg.api.calls, group) if "dictionary" in c.text]
    assert tg.errors == []


async def test_a_refused_move_never_shows_the_tiles_in_the_group(tg, people) -> None:
    """A move refused by the rules after the rack check proves the tiles are on the rack.

    "… is not in the dictionary": like /try's, the refusal goes privately; others (about the
    game, the turn) answer in the group.
    """
    group = people.group
    await tg.say(people.bob, "/help")
    await tg.say(people.alice, "/new webfeud @bob seed=5")
    rack = load_state(await tg.db.games.get_game(1)).rack(0)
    word = "".join(t for t in rack if t != "?")  # all her tiles, in an order that is no word
    calls = await tg.say(people.alice, f"/play 8H {word}")
    assert [c.chat_id for c in calls] == [group["id"]]
    assert "answer to /play would tell about your tiles" in calls[0].text
    assert "then send /play there: it is played in this game just the same" in calls[0].text
    assert calls[0].buttons[0]["url"] == "https://t.me/feudbot_test_bot?start=g1"
    await tg.say(people.alice, "/start", chat=tg.api.private(people.alice))
    calls = await tg.say(people.alice, f"/play 8H {word}")
    assert [(c.method, c.chat_id) for c in calls] == [("sendMessage", people.alice["id"])]
    assert f"{word} is not in the dictionary" in calls[0].text
    # Refusals that tell nothing of the tiles still answer where the move was typed.
    calls = await tg.say(people.alice, f"/play 8H {word} game=9")
    assert [c.chat_id for c in calls] == [group["id"]]
    assert "There is no game #9 in this chat" in calls[0].text
    calls = await tg.say(people.bob, f"/play 8H {word}")
    assert [c.chat_id for c in calls] == [group["id"]]
    assert "not yours" in calls[0].text
    assert not [c for c in in_group(tg.api.calls, group) if word in c.text]
    assert not [c for c in in_group(tg.api.calls, group) if "dictionary" in c.text]
    assert (await tg.db.games.get_game(1)).turn == 0
    assert tg.errors == []


async def test_games_in_other_chats_are_listed_only_privately(tg, people) -> None:
    """/games in a group lists that chat's games there; the asker's other games only privately."""
    group = people.group
    other = tg.api.group(-100777, "Other club")
    await tg.say(people.bob, "/help")
    await tg.say(people.alice, "/new webfeud @bob seed=9", chat=other)
    calls = await tg.say(people.alice, "/games")
    assert {c.chat_id for c in calls} == {group["id"]}
    assert "No open games here" in calls[0].text
    notice = calls[1]
    assert "answer to /games lists your games in other chats" in notice.text
    assert "Other club" not in notice.text
    assert notice.buttons[0]["url"] == "https://t.me/feudbot_test_bot"
    await tg.say(people.alice, "/start", chat=tg.api.private(people.alice))
    calls = await tg.say(people.alice, "/games")
    assert [c.chat_id for c in calls] == [group["id"], people.alice["id"]]
    assert calls[1].text.startswith("Your games in other chats:\n#1 Webfeud")
    group_texts = [c.text for c in in_group(tg.api.calls, group)]
    assert not [t for t in group_texts if "Your games" in t or "#1 Webfeud" in t]
    assert tg.errors == []


async def test_the_rack_alert_never_cuts_the_rack_or_a_rule(tg, people) -> None:
    """SmartFeud's starter, whose rack has the longest note, gets rack and rules whole.

    A text too long for an alert is never cut silently: `private_alert` keeps whole lines and
    points to the private chat (`test_telegram_units.py`, the private-alert tests).
    """
    await tg.say(people.bob, "/help")
    await tg.say(people.alice, "/new smartfeud @bob seed=4")
    await tg.press(people.alice, tg.board(1), "Start")
    state = load_state(await tg.db.games.get_game(1))
    calls = await tg.press(people.alice, tg.board(1), "My rack")
    assert [c.method for c in calls] == ["answerCallbackQuery"]
    alert = calls[0]
    assert alert.params["show_alert"] is True
    assert len(alert.text) <= ALERT_LIMIT
    assert f"Your rack in game #1: {' '.join(state.rack(0))}\n" in alert.text
    assert "…" not in alert.text
    assert alert.text.endswith("lay a blank this turn or lose it.")
    assert tg.errors == []


async def test_plain_text_in_a_private_chat_says_how_commands_look(tg, people) -> None:
    """Text that is no command gets a short answer privately; in a group, and when edited, none."""
    chat = tg.api.private(people.carol)
    calls = await tg.say(people.carol, "hello, can we play?", chat=chat)
    assert [(c.method, c.chat_id, c.text) for c in calls] == [
        ("sendMessage", chat["id"], PLAIN_TEXT)
    ]
    assert calls[0].params["reply_parameters"]["message_id"] == calls[0].result["message_id"] - 1
    assert await tg.say(people.carol, "hello everyone") == []  # the group's own conversation
    # An edited command is ignored (it was answered, or refused, when first sent).
    update = tg.api.message_update(chat, people.carol, "/help")
    update["edited_message"] = update.pop("message")
    update["edited_message"]["edit_date"] = update["edited_message"]["date"]
    assert await tg.process(update) == []
    assert tg.errors == []


@pytest.mark.parametrize("command", ["/play 8H {t} {t} {t}", "/swap {t} {t}"])
async def test_a_refusal_naming_rack_tiles_never_reaches_the_group(tg, people, command) -> None:
    """A refusal such as "You have only 1 R1" tells the rack: from /play or /swap too, private."""
    group = people.group
    await tg.say(people.bob, "/help")
    await tg.say(people.alice, "/new numfeud @bob seed=4")
    state = load_state(await tg.db.games.get_game(1))
    mover = (people.alice, people.bob)[state.to_move]
    counts = Counter(state.rack(state.to_move))
    single = next(t for t, n in sorted(counts.items()) if n == 1 and t != "J")
    calls = await tg.say(mover, command.format(t=single))
    in_group = [c.text for c in calls if c.chat_id == group["id"]]
    assert in_group, "the group is told where the answer went"
    assert not any(single in text for text in in_group), in_group
    assert any("would tell about your tiles" in text for text in in_group)
    assert load_state(await tg.db.games.get_game(1)).to_json() == state.to_json()


async def test_a_press_whose_answer_went_privately_says_what_went(tg, people) -> None:
    """The toast names what was sent privately: after "Yes, pass" it is the changed rack.

    (The SmartFeud starter's extra blank is lost with the pass, so the rack changes.)
    """
    await tg.say(people.alice, "/start", chat=tg.api.private(people.alice))
    await tg.say(people.bob, "/help")
    await tg.say(people.alice, "/new smartfeud @bob seed=4")
    await tg.press(people.alice, tg.board(1), "Start")
    calls = await tg.press(people.alice, tg.board(1), "My rack")
    toast = next(c for c in calls if c.method == "answerCallbackQuery")
    assert toast.text == "Your rack is in our private chat."
    calls = await tg.pass_turn(people.alice, tg.board(1))
    toast = next(c for c in calls if c.method == "answerCallbackQuery")
    assert toast.text == "Your rack is in our private chat."
    assert [c for c in calls if c.chat_id == people.alice["id"] and "Your rack" in c.text]
    assert tg.errors == []

"""L1: a group the bot is out of (removed or muted), with the flows that meet it.

Private commands, NMBR 9 rounds, Rummikub drafts, topics, groups without photos, the Board toast.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from bot.adapters.common import APOLOGY
from bot.reminders import Dispatcher
from bot.service import load_state, utcnow

pytestmark = pytest.mark.timeout(60)

ALICE_ID, BOB_ID = 1001, 1002
GROUP_ID = -1001234567890
FORUM_ID = -1009876543210


def group_calls(api: Any, chat_id: int = GROUP_ID) -> list[Any]:
    return [c for c in api.calls if c.chat_id == chat_id and c.method.startswith(("send", "edit"))]


def no_apology(api: Any) -> None:
    assert not [c for c in api.calls if APOLOGY in c.text], "an apology reached a chat"


async def racks_of(tg: Any, game_id: int, seats: int = 2) -> list[str]:
    state = load_state(await tg.db.games.get_game(game_id))
    return [" ".join(state.rack(s)) for s in range(seats)]


async def open_dms(tg: Any, *people: dict[str, Any]) -> None:
    for person in people:
        await tg.say(person, "/start", chat=tg.api.private(person))


async def mover_of(tg: Any, people: Any, game_id: int = 1) -> dict[str, Any]:
    state = load_state(await tg.db.games.get_game(game_id))
    return (people.alice, people.bob)[state.to_move]


# --- 1. removal / mute combined with private commands -------------------------------------


async def test_a_nudge_sent_privately_while_removed_is_refused_there(tg, people) -> None:
    """/nudge typed privately while the bot is out of the group: refused, saying why.

    Nothing goes to the group (which would refuse it), the nudged hear nothing, and the sender
    is not told it was "Sent to the group".
    """
    api, group = tg.api, people.group
    await open_dms(tg, people.alice, people.bob)
    await tg.say(people.alice, "/new webfeud @bob seed=3")
    await tg.process(api.my_chat_member(group, people.alice, "member", "kicked"))
    mover = await mover_of(tg, people)
    other = people.bob if mover is people.alice else people.alice
    calls = await tg.say(other, "/nudge", chat=api.private(other))
    assert [c for c in calls if c.chat_id in (group["id"], mover["id"])] == []
    said = [c.text for c in calls if c.chat_id == other["id"] and c.ok]
    assert said == [
        "I cannot write in Feud club now, so game #1's clock stands still: nobody needs a nudge "
        "until I can again."
    ]
    assert tg.errors == []


async def test_a_private_game_with_a_user_who_blocked_the_bot_is_not_held_forever(
    tg, people
) -> None:
    """A game in alice's private chat; she blocks the bot and a send there is refused (403).

    Unblocked, she plays on in the private chat: that chat is not "a group the bot is out of".
    """
    api = tg.api
    private = api.private(people.alice)
    await tg.say(people.alice, "/new webfeud bot=easy seed=1", chat=private)
    api.blocked.add(ALICE_ID)
    start = utcnow()
    await Dispatcher(tg.service, tg.front.send_replies).run_due(now=start + timedelta(hours=80))
    refused = [c for c in api.calls if c.chat_id == ALICE_ID and not c.ok]
    assert refused  # she blocked the bot: its sends were refused
    # She unblocks (writes again) and starts a new game in the private chat.
    await tg.say(people.alice, "/new webfeud bot=easy seed=2", chat=private)
    chat = await tg.db.chats.get_chat_by_platform_id("telegram", str(ALICE_ID))
    calls = await tg.say(people.alice, "/board", chat=private)
    assert not any("when I am back" in c.text for c in calls), [c.text for c in calls]
    calls = await tg.say(people.alice, "/pass", chat=private)
    assert not any("group does not see" in c.text for c in calls), [c.text for c in calls]
    assert chat.away_since is None, "the private chat is held as if the bot left a group"


async def test_a_group_muted_without_running_games_gets_pictures_again_when_unmuted(
    tg, people
) -> None:
    """Muted with no running game, a picture was refused (the mute): allowed to write again,
    the group's boards are pictures again — it never forbade photos.
    """
    api, group = tg.api, people.group
    await tg.say(people.bob, "/help")
    await tg.process(api.my_chat_member(group, people.alice, "member", "restricted"))
    # Typed while muted: a game against a bot, resigned at once (its board was refused).
    await tg.say(people.alice, "/new webfeud bot=easy seed=1")
    await tg.say(people.alice, "/resign")
    assert (await tg.db.games.get_game(1)).status == "finished"
    await tg.process(api.my_chat_member(group, people.alice, "restricted", "member"))
    calls = await tg.say(people.alice, "/new webfeud @bob seed=3")
    started = [c for c in calls if c.ok and "has started" in c.text]
    assert started, [(c.method, c.ok, c.text[:40]) for c in calls]
    assert started[0].method == "sendPhoto", "the board went as text in a group allowing photos"


@pytest.mark.parametrize("service_first", [True, False])
async def test_readded_group_gets_one_welcome_and_one_back(tg, people, service_first) -> None:
    """Removed, then added back: Telegram says it twice (service message + my_chat_member),
    and a command follows. One welcome, one "I am back", in that order.
    """
    api, group = tg.api, people.group
    await open_dms(tg, people.alice, people.bob)
    await tg.process(api.my_chat_member(group, people.alice, "left", "member"))  # first welcome
    await tg.say(people.alice, "/new webfeud @bob seed=3")
    await tg.process(api.my_chat_member(group, people.alice, "member", "kicked"))
    await tg.process(api.my_chat_member(group, people.alice, "kicked", "left"))
    first = len(api.calls)
    updates = [
        api.added_to_group(group, people.bob),
        api.my_chat_member(group, people.bob, "left", "member"),
    ]
    if not service_first:
        updates.reverse()
    for update in updates:
        await tg.process(update)
    await tg.say(people.bob, "/games")
    texts = [c.text for c in api.calls[first:] if c.chat_id == group["id"] and c.ok]
    welcomes = [t for t in texts if t.startswith("Hello! I host")]
    backs = [t for t in texts if t.startswith("I am back")]
    assert len(welcomes) == 1, texts
    assert len(backs) == 1, texts
    assert texts.index(welcomes[0]) < texts.index(backs[0])
    assert tg.errors == []


async def test_readded_as_admin_directly_is_welcomed_and_back(tg, people) -> None:
    api, group = tg.api, people.group
    await open_dms(tg, people.alice, people.bob)
    await tg.say(people.alice, "/new webfeud @bob seed=3")
    await tg.process(api.my_chat_member(group, people.alice, "member", "left"))
    calls = await tg.process(api.my_chat_member(group, people.alice, "left", "administrator"))
    texts = [c.text for c in calls if c.ok and c.method.startswith("send")]
    assert [t[:12] for t in texts] == ["Hello! I hos", "I am back: g", "Game #1 (Web"], texts


async def test_a_mute_learnt_from_a_refusal_ends_when_the_group_may_write_again(tg, people) -> None:
    """Members (the bot too) may not send messages: learnt from a 400. The admin allows it
    again — a group-wide permission, so no my_chat_member update comes. The bot's messages are
    accepted again; the games must not stay held forever.
    """
    api, group = tg.api, people.group
    await open_dms(tg, people.alice, people.bob)
    await tg.say(people.alice, "/new webfeud @bob seed=3")
    api.bot_muted.add(group["id"])
    await tg.say(people.bob, "/games")  # refused: the mute is learnt
    assert (await tg.db.chats.get_chat_by_platform_id("telegram", str(GROUP_ID))).away_since
    api.bot_muted.discard(group["id"])  # members may write again; Telegram tells the bot nothing
    calls = await tg.say(people.bob, "/games")
    assert calls
    assert all(c.ok for c in calls)
    mover = await mover_of(tg, people)
    calls = await tg.say(mover, "/pass")
    assert all(c.ok for c in calls)
    calls = await tg.say(mover, "/board")
    assert not any("when I am back" in c.text for c in calls), [c.text for c in calls]
    chat = await tg.db.chats.get_chat_by_platform_id("telegram", str(GROUP_ID))
    assert chat.away_since is None, "held forever: no update will ever say it may write"


# --- 3 + 4. forum topics with photos forbidden -------------------------------------------


async def test_topics_with_photos_forbidden(tg, people) -> None:
    api = tg.api
    forum = api.forum(FORUM_ID, "Feud forum", admins=(ALICE_ID,))
    api.no_photos.add(FORUM_ID)
    words = api.topic(forum, people.alice, "Words")
    chat = api.topic(forum, people.bob, "Chat")
    await tg.say(people.bob, "/help", chat=forum)
    calls = await tg.say(people.alice, "/new webfeud @bob seed=3", chat=forum, topic=words)
    [started] = [c for c in calls if c.ok and "has started" in c.text]
    assert started.method == "sendMessage"
    assert started.thread_id == words
    assert "<pre>" in started.params["text"]
    # Board pressed under it at once: a toast, nothing posted.
    board_msg = api.message(FORUM_ID, started.result["message_id"])
    calls = await tg.press(people.bob, board_msg, "Board")
    assert [c.method for c in calls] == ["answerCallbackQuery"], calls
    assert "posted a moment ago" in calls[0].text
    # A move typed in another topic: the text board is edited in its topic; a pointer here.
    mover = await mover_of(tg, people)
    calls = await tg.say(mover, "/pass game=1", chat=forum, topic=chat)
    edits = [c for c in calls if c.method == "editMessageText"]
    assert edits
    assert all(c.ok for c in edits)
    pointers = [c for c in calls if c.ok and "its own topic" in c.text]
    assert [c.thread_id for c in pointers] == [chat]
    assert pointers[0].buttons[0]["url"].endswith(f"?thread={words}")
    # The topic is deleted: next news goes to General, as text, once.
    api.delete_topic(FORUM_ID, words)
    mover = await mover_of(tg, people)
    calls = await tg.say(mover, "/pass game=1", chat=forum, topic=chat)
    posted = [c for c in calls if c.ok and c.method in ("sendMessage", "sendPhoto")]
    boards = [c for c in posted if "pass" in c.text and "<pre>" in c.params.get("text", "")]
    assert len(boards) == 1, [(c.method, c.thread_id, c.text[:50]) for c in posted]
    assert boards[0].thread_id is None
    # No pointer to a topic that is gone, and nothing twice.
    texts = [c.text for c in posted]
    assert len(texts) == len(set(texts)), texts
    for rack in await racks_of(tg, 1):
        assert not any(rack in c.text for c in api.calls if c.chat_id == FORUM_ID)
    no_apology(api)
    assert tg.errors == []


# --- NMBR 9 and Rummikub while the bot is away ---------------------------------------------


@pytest.mark.parametrize("how", ["kicked", "restricted"])
async def test_nmbr9_rounds_placed_privately_while_away(tg, people, how) -> None:
    from bot.ai import choose_move

    api, group = tg.api, people.group
    await open_dms(tg, people.alice, people.bob)
    await tg.say(people.alice, "/new nmbr9 @bob deadline=10m seed=4")
    await tg.say(people.alice, "/start")
    await tg.process(api.my_chat_member(group, people.alice, "member", how))
    dispatcher = Dispatcher(tg.service, tg.front.send_replies)
    for _round in range(2):
        state = load_state(await tg.db.games.get_game(1))
        for seat, who in enumerate((people.alice, people.bob)):
            move = str(choose_move(state, seat, "easy", 1))
            calls = await tg.say(who, f"/place {move}", chat=api.private(who))
            other = (people.bob, people.alice)[seat]
            # Nobody else learns where the tile went before the round ends.
            if _round == 0 and seat == 0:
                assert not [c for c in calls if c.chat_id == other["id"] and move in c.text]
    assert load_state(await tg.db.games.get_game(1)).view(None)["round"] == 2
    first = len(api.calls)
    await dispatcher.run_due(now=utcnow() + timedelta(days=3))
    assert api.calls[first:] == []
    assert load_state(await tg.db.games.get_game(1)).view(None)["round"] == 2
    back = "restricted" if how == "restricted" else "left"
    calls = await tg.process(api.my_chat_member(group, people.alice, back, "member"))
    assert [c.text[:9] for c in calls if c.chat_id == GROUP_ID and c.ok].count("I am back") == 1
    first = len(api.calls)
    await dispatcher.run_due(now=utcnow() + timedelta(minutes=5))
    assert load_state(await tg.db.games.get_game(1)).view(None)["round"] == 2
    await dispatcher.run_due(now=utcnow() + timedelta(minutes=11))
    assert load_state(await tg.db.games.get_game(1)).view(None)["round"] == 3
    no_apology(api)
    assert tg.errors == []


async def test_rummikub_drafted_and_done_privately_while_removed(tg, people) -> None:
    api, group = tg.api, people.group
    await open_dms(tg, people.alice, people.bob)
    await tg.say(people.alice, "/new rummikub @bob seed=2")
    await tg.say(people.alice, "/start")
    await tg.process(api.my_chat_member(group, people.alice, "member", "kicked"))
    mover = await mover_of(tg, people)
    calls = await tg.say(mover, "/draw", chat=api.private(mover))
    said = [c.text for c in calls if c.chat_id == mover["id"] and c.ok]
    assert any("does not see this move" in t for t in said), said
    mover = await mover_of(tg, people)
    state = load_state(await tg.db.games.get_game(1))
    seat = 0 if mover is people.alice else 1
    calls = await tg.say(mover, "/draw", chat=api.private(mover))
    rack = " ".join(state.rack(seat))
    assert not [c for c in api.calls if c.chat_id == GROUP_ID and c.ok and rack in c.text]
    no_apology(api)
    assert tg.errors == []


# --- 4. text boards of every game never show a rack; an NMBR 9 tile stays hidden ----------


@pytest.mark.parametrize("game", ["webfeud", "smartfeud", "numfeud", "rummikub"])
async def test_text_boards_show_no_rack(tg, people, game) -> None:
    api = tg.api
    api.no_photos.add(GROUP_ID)
    await tg.say(people.bob, "/help")
    await tg.say(people.alice, f"/new {game} @bob seed=5")
    if (await tg.db.games.get_game(1)).status == "lobby":
        await tg.say(people.alice, "/start")
    seen = []
    for _ in range(3):
        seen.append(await racks_of(tg, 1))
        mover = await mover_of(tg, people)
        word = "/draw" if game == "rummikub" else "/pass"
        await tg.say(mover, word)
    for racks in seen:
        for rack in racks:
            leaked = [
                c.text for c in api.calls if c.chat_id == GROUP_ID and c.ok and rack in c.text
            ]
            assert not leaked, (rack, leaked)
    assert not [c for c in api.calls if c.chat_id == GROUP_ID and c.method == "sendPhoto" and c.ok]
    no_apology(api)
    assert tg.errors == []


async def test_nmbr9_text_board_hides_a_placement_until_the_round_ends(tg, people) -> None:
    from bot.ai import choose_move

    api = tg.api
    api.no_photos.add(GROUP_ID)
    await open_dms(tg, people.alice)
    await tg.say(people.bob, "/help")
    await tg.say(people.alice, "/new nmbr9 @bob seed=6")
    await tg.say(people.alice, "/start")

    async def table() -> str:
        calls = await tg.say(people.bob, "/board")
        [posted] = [
            c
            for c in calls
            if c.chat_id == GROUP_ID and c.ok and "<pre>" in c.params.get("text", "")
        ]
        return posted.params["text"].split("<pre>", 1)[1]

    empty = await table()
    state = load_state(await tg.db.games.get_game(1))
    move = str(choose_move(state, 0, "easy", 1))
    await tg.say(people.alice, f"/place {move}", chat=api.private(people.alice))
    assert await table() == empty  # where alice's tile went is hers until the round ends
    assert tg.errors == []


# --- 5. the Board toast ---------------------------------------------------------------------


async def test_board_under_an_old_but_just_edited_board_reposts_once(tg, people) -> None:
    api = tg.api
    await tg.say(people.bob, "/help")
    await tg.say(people.alice, "/new webfeud @bob seed=3")
    board = tg.board(1)
    board["date"] -= 120  # posted two minutes ago
    mover = await mover_of(tg, people)
    await tg.say(mover, "/pass")  # edited just now
    old = tg.board(1)
    assert old["message_id"] == board["message_id"]
    assert "edit_date" in old
    calls = await tg.press(people.bob, old, "Board")
    posted = [c for c in calls if c.method == "sendPhoto" and c.ok]
    assert len(posted) == 1
    new = tg.board(1)
    assert new["message_id"] != old["message_id"]
    assert "reply_markup" not in api.message(GROUP_ID, old["message_id"])  # old lost buttons
    calls = await tg.press(people.alice, new, "Board")
    assert [c.method for c in calls] == ["answerCallbackQuery"]
    assert "posted a moment ago" in calls[0].text
    assert tg.errors == []


async def test_board_pressed_in_a_muted_group(tg, people) -> None:
    api, group = tg.api, people.group
    await open_dms(tg, people.alice, people.bob)
    await tg.say(people.alice, "/new webfeud @bob seed=3")
    board = tg.board(1)
    board["date"] -= 120
    await tg.process(api.my_chat_member(group, people.alice, "member", "restricted"))
    calls = await tg.press(people.bob, board, "Board")
    answers = [c for c in calls if c.method == "answerCallbackQuery"]
    assert len(answers) == 1
    assert APOLOGY not in answers[0].text
    assert tg.errors == []


# --- after the return: what the group sees ------------------------------------------------


async def test_back_the_group_board_shows_the_moves_played_while_away(tg, people) -> None:
    """Moves played privately while the bot was removed: back, the group's board (and its
    buttons) must not be left showing the old position, whose Pass is refused as stale.
    """
    api, group = tg.api, people.group
    await open_dms(tg, people.alice, people.bob)
    await tg.say(people.alice, "/new webfeud @bob seed=3")
    await tg.process(api.my_chat_member(group, people.alice, "member", "kicked"))
    mover = await mover_of(tg, people)
    await tg.say(mover, "/pass", chat=api.private(mover))
    await tg.process(api.my_chat_member(group, people.alice, "left", "member"))
    turn = (await tg.db.games.get_game(1)).turn
    board = tg.board(1)
    data = [b["callback_data"] for row in board["reply_markup"]["inline_keyboard"] for b in row]
    assert all(d.endswith(f":{turn}") for d in data), (turn, data, board.get("caption"))


async def test_resigned_privately_while_removed_the_group_learns_it_ended(tg, people) -> None:
    api, group = tg.api, people.group
    await open_dms(tg, people.alice, people.bob)
    await tg.say(people.alice, "/new webfeud @bob seed=3")
    await tg.say(people.alice, "/new numfeud @bob seed=3")
    await tg.process(api.my_chat_member(group, people.alice, "member", "kicked"))
    calls = await tg.say(people.alice, "/resign game=1", chat=api.private(people.alice))
    told = [c.text for c in calls if c.chat_id == ALICE_ID and c.ok]
    assert (await tg.db.games.get_game(1)).status == "finished"
    assert not any(t.startswith("Played in the group") for t in told), told
    calls = await tg.process(api.my_chat_member(group, people.alice, "left", "member"))
    texts = [c.text for c in calls if c.chat_id == GROUP_ID and c.ok]
    assert any("#1" in t for t in texts), texts  # the group hears game #1 ended meanwhile


async def test_removed_then_added_back_muted_tells_players_once(tg, people) -> None:
    """Removed, then added back into a group where it may not write (restricted): still out.

    A command typed there then must not count as "back" (nor tell the players again).
    """
    api, group = tg.api, people.group
    await open_dms(tg, people.alice, people.bob)
    await tg.say(people.alice, "/new webfeud @bob seed=3")
    await tg.process(api.my_chat_member(group, people.alice, "member", "kicked"))
    await tg.process(api.my_chat_member(group, people.alice, "kicked", "restricted"))
    first = len(api.calls)
    await tg.say(people.bob, "/games")
    told_again = [c for c in api.calls[first:] if c.chat_id in (ALICE_ID, BOB_ID) and c.ok]
    assert told_again == [], [c.text for c in told_again]
    chat = await tg.db.chats.get_chat_by_platform_id("telegram", str(GROUP_ID))
    assert chat.muted


async def test_a_game_of_general_is_not_said_to_have_its_own_topic(tg, people) -> None:
    api = tg.api
    forum = api.forum(FORUM_ID, "Feud forum", admins=(ALICE_ID,))
    chat = api.topic(forum, people.bob, "Chat")
    await tg.say(people.bob, "/help", chat=forum)
    await tg.say(people.alice, "/new webfeud @bob seed=3", chat=forum)  # in General
    mover = await mover_of(tg, people)
    calls = await tg.say(mover, "/pass game=1", chat=forum, topic=chat)
    pointers = [c for c in calls if c.ok and c.thread_id == chat]
    assert not any("its own topic" in c.text for c in pointers), [c.text for c in pointers]


async def test_rematch_and_new_typed_in_a_muted_group(tg, people) -> None:
    api, group = tg.api, people.group
    await open_dms(tg, people.alice, people.bob)
    await tg.say(people.alice, "/new webfeud @bob seed=3")
    await tg.say(people.alice, "/resign")
    over = [c for c in api.calls if c.ok and "Rematch" in str(c.params.get("reply_markup"))][-1]
    await tg.process(api.my_chat_member(group, people.alice, "member", "restricted"))
    calls = await tg.press(people.bob, over.result, "Rematch")
    assert len([c for c in calls if c.method == "answerCallbackQuery"]) == 1
    await tg.say(people.alice, "/new numfeud @bob seed=4")
    assert (await tg.db.games.get_game(2)).status == "active"
    assert (await tg.db.games.get_game(3)).status == "active"
    first = len(api.calls)
    await Dispatcher(tg.service, tg.front.send_replies).run_due(now=utcnow() + timedelta(days=9))
    assert api.calls[first:] == []
    calls = await tg.process(api.my_chat_member(group, people.alice, "restricted", "member"))
    texts = [c.text for c in calls if c.ok and c.method.startswith("send")]
    assert texts[0].startswith("I am back: games #2 (Webfeud) and #3 (Numfeud) go on"), texts
    assert [t[:8] for t in texts[1:]] == ["Game #2 ", "Game #3 "]  # their boards as they stand
    back = utcnow()
    first = len(api.calls)
    await Dispatcher(tg.service, tg.front.send_replies).run_due(now=back + timedelta(hours=47))
    assert api.calls[first:] == []
    no_apology(api)
    assert tg.errors == []


async def test_a_muted_basic_group_upgraded_keeps_its_games_held(tg, people) -> None:
    api = tg.api
    basic = api.basic_group(-4001, "Small club", admins=(ALICE_ID,))
    await open_dms(tg, people.alice, people.bob)
    await tg.say(people.alice, "/new webfeud @bob seed=9", chat=basic)
    api.bot_muted.add(-4001)
    await tg.say(people.bob, "/games", chat=basic)  # refused: the mute is learnt
    to_new, from_old = api.migrate(-4001, -1004001, people.alice)
    api.bot_muted.add(-1004001)  # a group's permissions carry over to the supergroup
    await tg.process(to_new)
    await tg.process(from_old)
    chat = await tg.db.chats.get_chat_by_platform_id("telegram", "-1004001")
    assert chat is not None
    assert chat.away_since is not None
    assert chat.muted
    first = len(api.calls)
    await Dispatcher(tg.service, tg.front.send_replies).run_due(now=utcnow() + timedelta(days=9))
    assert api.calls[first:] == []
    assert tg.errors == []

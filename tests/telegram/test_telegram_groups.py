"""L1: what groups do besides commands — upgrades to supergroups, admins who post anonymously."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from bot.ai import choose_move
from bot.games import GAMES
from bot.reminders import Dispatcher
from bot.service import load_state, utcnow

pytestmark = pytest.mark.timeout(30)

ALICE_ID = 1001
BASIC_ID, SUPER_ID = -4001, -1004001


async def test_a_group_upgraded_to_a_supergroup_keeps_its_games(tg, people) -> None:
    """After migrate_to_chat_id the games, boards, leaderboard and reminders go on in the new id."""
    api = tg.api
    basic = api.basic_group(BASIC_ID, "Small club", admins=(ALICE_ID,))
    await tg.say(people.bob, "/help", chat=basic)
    await tg.say(people.alice, "/new webfeud @bob seed=9", chat=basic)
    await tg.say(people.alice, "/resign", chat=basic)  # bob wins game #1: a leaderboard row
    start = utcnow()
    await tg.say(people.alice, "/new webfeud @bob seed=3", chat=basic)  # game #2 goes on
    assert tg.board(2)["chat"]["id"] == BASIC_ID

    to_new, from_old = api.migrate(BASIC_ID, SUPER_ID, people.alice)
    assert await tg.process(to_new) == []  # silent: nothing to say, the games just follow
    assert await tg.process(from_old) == []  # Telegram says it twice; the second finds nothing
    supergroup = api.chats[SUPER_ID]

    calls = await tg.say(people.alice, "/board", chat=supergroup)
    assert [(c.method, c.chat_id) for c in calls] == [("sendPhoto", SUPER_ID)]
    assert "Game #2" in calls[0].text
    state = load_state(await tg.db.games.get_game(2))
    move = str(choose_move(state, 0, "easy", 1))
    calls = await tg.say(people.alice, f"/play {move}", chat=supergroup)
    assert calls
    assert all(c.ok for c in calls), calls
    assert {c.chat_id for c in calls} == {SUPER_ID}
    assert (await tg.db.games.get_game(2)).turn == 1
    calls = await tg.say(people.alice, "/leaderboard webfeud", chat=supergroup)
    assert "bob" in calls[-1].text

    # Deadlines are stored with the game: bob's reminder mentions him in the supergroup.
    first = len(api.calls)
    await Dispatcher(tg.service, tg.front.send_replies).run_due(now=start + timedelta(hours=49))
    reminders = api.calls[first:]
    assert [(c.chat_id, c.ok) for c in reminders] == [(SUPER_ID, True)]
    assert "tg://user?id=1002" in reminders[0].text
    assert not [c for c in api.calls if c.chat_id == BASIC_ID and not c.ok]
    assert tg.errors == []


async def test_anonymous_admins_are_asked_to_post_as_themselves(tg, people) -> None:
    """A command posted as the group (or a channel) is refused, saying what to do; no state."""
    group = people.group
    anonymous = tg.api.anonymous_admin()
    calls = await tg.say(anonymous, "/new webfeud", sender_chat=group)
    assert [(c.method, c.chat_id) for c in calls] == [("sendMessage", group["id"])]
    assert calls[0].text == (
        "You are posting anonymously (as the group); turn off “Remain anonymous” in your admin "
        "rights to play."
    )
    assert calls[0].params["reply_parameters"]["message_id"] == calls[0].result["message_id"] - 1
    calls = await tg.say(anonymous, "/join")  # the stand-in sender alone is enough to tell
    assert "posting anonymously" in calls[0].text
    channel = {"id": -1009876543210, "type": "channel", "title": "Feud news"}
    channel_bot = tg.api.user(136817688, "Channel", "Channel_Bot")
    calls = await tg.say(channel_bot, "/new webfeud", sender_chat=channel)
    assert "posting as the channel “Feud news”" in calls[0].text
    assert await tg.db.games.get_game(1) is None
    for stand_in in (anonymous, channel_bot):
        assert await tg.db.users.get_user_by_platform_id("telegram", stand_in["id"]) is None
    assert tg.errors == []


async def test_at_bob_is_the_person_whose_username_is_bob(tg, people) -> None:
    """Someone without a username whose first name is "bob" never takes @bob's seat or tiles."""
    api = tg.api
    impostor = api.user(1011, "bob", None)
    await tg.say(people.bob, "/help")
    await tg.say(impostor, "/games")  # seen after the real @bob
    await tg.say(people.alice, "/new webfeud @bob seed=1")
    seats = [await tg.db.users.get_user(s.user_id) for s in await tg.db.games.seats(1)]
    assert [u.platform_user_id for u in seats] == [str(ALICE_ID), str(people.bob["id"])]
    calls = await tg.say(impostor, "/rack")
    assert "you are not playing here" in calls[-1].text.lower()


async def test_a_typed_name_two_players_here_share_is_asked_about(tg, people) -> None:
    """Two Sams without usernames play in the group, a third plays elsewhere: /stats @Sam typed
    asks which (never another chat's Sam); picked from the mention menu, it is that Sam.
    """
    api = tg.api
    elsewhere = api.group(-1009, "Other club")
    sams = [api.user(2001, "Sam"), api.user(2002, "Sam"), api.user(2003, "Sam")]
    for games, sam, chat in zip((1, 2, 1), sams, (None, None, elsewhere), strict=True):
        for _ in range(games):
            await tg.say(sam, "/new webfeud bot=easy seed=1", chat=chat)
            await tg.say(sam, "/resign", chat=chat)
    calls = await tg.say(people.alice, "/stats @Sam")
    assert calls[-1].text.endswith(
        ": 2 people here go by Sam: type @ and pick the one you mean from the list of members, "
        "so I can tell them apart."
    )
    calls = await tg.say(people.alice, "/stats @Sam", mentions={"@Sam": sams[1]})
    assert calls[-1].text.startswith("Sam:\nall games: 2 games, 0 wins"), calls[-1].text
    assert tg.errors == []


async def test_a_private_chat_takes_no_invitations(tg, people) -> None:
    """/new with @bob in alice's private chat is refused: bob could never play there."""
    api = tg.api
    private = api.private(people.alice)
    await tg.say(people.bob, "/help")
    calls = await tg.say(people.alice, "/new webfeud @bob seed=1", chat=private)
    assert "invite people in a group" in calls[-1].text
    assert await tg.db.games.list_games(statuses=("lobby", "active")) == []
    calls = await tg.say(people.alice, "/new webfeud bot=easy seed=1", chat=private)
    assert any("has started" in c.text for c in calls)
    # Solo NMBR 9 there starts at once: nobody else could join, so there is no lobby.
    calls = await tg.say(people.alice, "/new nmbr9", chat=private)
    [created] = [c for c in calls if "created" in c.text]
    assert not {"Join", "Start"} & {b["text"] for b in created.buttons}
    assert (await tg.db.games.get_game(2)).status == "active"


async def test_a_group_that_adds_the_bot_is_welcomed_once(tg, people) -> None:
    """Added to a group: one short welcome (five games, how to start), however Telegram says it."""
    from bot.adapters.telegram_bot import GROUP_WELCOME

    api = tg.api
    group = api.group(-100555, "New club")
    calls = await tg.process(api.my_chat_member(group, people.alice, "left", "member"))
    assert [(c.method, c.chat_id) for c in calls] == [("sendMessage", group["id"])]
    welcome = calls[0].text
    assert welcome == GROUP_WELCOME
    keyboard = calls[0].result["reply_markup"]["inline_keyboard"]
    assert keyboard == [[{"text": "Open a private chat", "url": "https://t.me/feudbot_test_bot"}]]
    assert len(welcome) < 600
    for key in ("webfeud", "smartfeud", "rummikub", "numfeud", "nmbr9"):
        assert f"\n{key} — {GAMES[key].tagline}\n" in welcome  # as /help says
    assert "/new webfeud @friend" in welcome
    assert "/new webfeud bot=easy" in welcome
    assert "/help" in welcome
    # The service message of the same addition, and a later promotion, greet no more.
    assert await tg.process(api.added_to_group(group, people.alice)) == []
    assert (
        await tg.process(api.my_chat_member(group, people.alice, "member", "administrator")) == []
    )
    # Removed and added again (here only the service message arrives): welcomed again.
    assert await tg.process(api.my_chat_member(group, people.alice, "administrator", "left")) == []
    calls = await tg.process(api.added_to_group(group, people.bob))
    assert [c.text for c in calls] == [welcome]
    # Someone else joining is no news for the bot.
    other = api.added_to_group(group, people.alice)
    other["message"]["new_chat_members"] = [dict(people.carol)]
    assert await tg.process(other) == []
    assert tg.errors == []


async def test_the_private_welcome_says_the_bot_can_be_played_right_there(tg, people) -> None:
    """/start in the private chat: racks come here, and a game against the bot starts here too."""
    calls = await tg.say(people.carol, "/start", chat=tg.api.private(people.carol))
    assert "/new webfeud bot=easy" in calls[0].text
    assert "/new webfeud @friend" in calls[0].text
    assert tg.errors == []


async def game_with_dms(tg, people) -> datetime:
    """Open alice's and bob's private chats, then start Webfeud in the group; return when."""
    for person in (people.alice, people.bob):
        await tg.say(person, "/start", chat=tg.api.private(person))
    start = utcnow()
    await tg.say(people.alice, "/new webfeud @bob seed=3")
    return start


async def test_a_group_that_removes_the_bot_holds_its_games_until_it_is_back(tg, people) -> None:
    """Removed: players hear privately their game waits, no deadline runs; back, it goes on."""
    api, group = tg.api, people.group
    start = await game_with_dms(tg, people)
    calls = await tg.process(api.my_chat_member(group, people.alice, "member", "kicked"))
    assert sorted(c.chat_id for c in calls) == [ALICE_ID, 1002]
    assert all(c.ok for c in calls)
    assert calls[0].text == (
        "I was removed from Feud club, so game #1 (Webfeud in Feud club) waits: its clock "
        "stands still, and nobody's time runs out, until someone adds me back there."
    )
    assert await tg.process(api.my_chat_member(group, people.alice, "kicked", "left")) == []
    first = len(api.calls)
    await Dispatcher(tg.service, tg.front.send_replies).run_due(now=start + timedelta(days=30))
    assert api.calls[first:] == []  # no reminder into the void, no timeout
    assert (await tg.db.games.get_game(1)).status == "active"
    # A move sent privately is played, and its sender told the group does not see it.
    state = load_state(await tg.db.games.get_game(1))
    mover = (people.alice, people.bob)[state.to_move]
    calls = await tg.say(mover, "/pass", chat=api.private(mover))
    assert load_state(await tg.db.games.get_game(1)).turn == state.turn + 1
    assert [c.ok for c in calls if c.chat_id == group["id"]] == [False]  # refused, 403
    assert any(
        "so the group does not see this move" in c.text
        for c in calls
        if c.chat_id == mover["id"] and c.ok
    )
    assert tg.errors == []
    # Added back: the welcome, then which games go on; the deadlines run from there.
    old_board = tg.board(1)
    calls = await tg.process(api.my_chat_member(group, people.alice, "left", "member"))
    assert [(c.method, c.chat_id, c.ok) for c in calls] == [
        ("sendMessage", group["id"], True),  # the welcome
        ("sendMessage", group["id"], True),  # back
        ("sendPhoto", group["id"], True),  # the board as it stands: the pass played meanwhile
        ("editMessageReplyMarkup", group["id"], True),  # the old board's buttons go
    ]
    assert f"{mover['username']}: pass" not in calls[2].text  # a board, not the move's news
    assert tg.board(1)["message_id"] == calls[2].result["message_id"] != old_board["message_id"]
    turn = (await tg.db.games.get_game(1)).turn
    keyboard = calls[2].result["reply_markup"]["inline_keyboard"]
    assert all(b["callback_data"].endswith(f":{turn}") for row in keyboard for b in row)
    assert calls[1].text == (
        "I am back: game #1 (Webfeud) goes on, every turn with the time it had left when its "
        "clock stopped. /games shows them."
    )
    back = utcnow()
    first = len(api.calls)
    await Dispatcher(tg.service, tg.front.send_replies).run_due(now=back + timedelta(hours=47))
    assert api.calls[first:] == []
    await Dispatcher(tg.service, tg.front.send_replies).run_due(now=back + timedelta(hours=49))
    reminders = api.calls[first:]  # to the one to move now, privately (they started the bot)
    other = people.bob if mover is people.alice else people.alice
    assert [(c.chat_id, c.ok) for c in reminders] == [(other["id"], True)]
    assert "runs out in 24 hours" in reminders[0].text


async def test_a_removal_missed_while_down_is_learnt_from_the_refusal(tg, people) -> None:
    """Removed while the bot was not running: the first refused group send holds the games."""
    api, group = tg.api, people.group
    start = await game_with_dms(tg, people)
    api.bot_out.add(group["id"])  # the my_chat_member update was never seen
    state = load_state(await tg.db.games.get_game(1))
    mover = (people.alice, people.bob)[state.to_move]
    calls = await tg.say(mover, "/pass", chat=api.private(mover))  # its board edit is refused
    assert [c.ok for c in calls if c.chat_id == group["id"]] == [False]
    told = [c for c in calls if "I was removed from Feud club" in c.text]
    assert sorted((c.chat_id, c.ok) for c in told) == [(ALICE_ID, True), (1002, True)]
    first = len(api.calls)
    await Dispatcher(tg.service, tg.front.send_replies).run_due(now=start + timedelta(days=9))
    assert api.calls[first:] == []  # the timeout waits
    assert (await tg.db.games.get_game(1)).status == "active"
    # Back (no update seen again): a command in the group says so first.
    api.bot_out.discard(group["id"])
    calls = await tg.say(people.bob, "/games")
    assert calls[0].text.startswith("I am back: game #1 (Webfeud) goes on")
    assert (
        await tg.db.chats.get_chat_by_platform_id("telegram", str(group["id"]))
    ).away_since is None


async def test_a_group_that_forbids_photos_gets_the_board_as_text(tg, people) -> None:
    """Photos refused ("not enough rights to send photos"): the board goes as a text.

    Its table is drawn in monospace; later boards go so at once, edited in place.
    """
    api, group = tg.api, people.group
    api.no_photos.add(group["id"])
    await tg.say(people.bob, "/help")
    calls = await tg.say(people.alice, "/new webfeud @bob seed=3")
    photos = [c for c in calls if c.method == "sendPhoto"]
    assert [c.ok for c in photos] == [False]  # tried once
    [started] = [c for c in calls if c.ok and "has started" in c.text]
    assert started.method == "sendMessage"
    assert started.params["parse_mode"] == "HTML"
    assert "<pre>" in started.params["text"]
    assert "  8 ' . . - . . . * . . . - . . '" in started.text  # the empty board, row 8
    keyboard = started.result["reply_markup"]["inline_keyboard"]
    assert [b["text"] for row in keyboard for b in row] == ["My rack", "Pass", "Board"]
    state = load_state(await tg.db.games.get_game(1))
    mover = (people.alice, people.bob)[state.to_move]
    calls = await tg.say(mover, "/pass")
    assert "sendPhoto" not in [c.method for c in calls]
    [edit] = [c for c in calls if c.method == "editMessageText"]
    assert edit.ok
    assert f"{mover['username']}: pass" in edit.text
    assert "key: ' L2" in edit.text
    assert tg.board(1)["message_id"] == started.result["message_id"]
    racks = [" ".join(state.rack(seat)) for seat in (0, 1)]
    assert not [c for c in api.calls if c.chat_id == group["id"] for r in racks if r in c.text]
    assert tg.errors == []


async def test_a_group_that_forbids_photos_gets_text_at_once_after_a_restart(
    api, people, db_path
) -> None:
    """The refusal is kept in storage: restarted, the bot sends that group's board as text at once.

    A day later a new picture is tried again; taken (the group allows photos again), boards are
    pictures from then on, restarted too. Before, each restart had a picture refused first.
    """
    from tests.telegram.conftest import running

    group = people.group
    api.no_photos.add(group["id"])

    def in_group(calls: list) -> list[tuple[str, bool]]:
        sent = ("sendPhoto", "sendMessage")
        return [(c.method, c.ok) for c in calls if c.chat_id == group["id"] and c.method in sent]

    async with running(api, db_path) as tg:
        await tg.say(people.bob, "/help")
        calls = await tg.say(people.alice, "/new webfeud @bob seed=3")
        assert [c.ok for c in calls if c.method == "sendPhoto"] == [False]
    async with running(api, db_path) as tg:  # a restart
        calls = await tg.say(people.alice, "/board")
        assert in_group(calls) == [("sendMessage", True)]
        [board] = [c for c in calls if c.method == "sendMessage"]
        assert "<pre>" in board.params["text"]  # its table drawn as text
        api.no_photos.discard(group["id"])  # allowed again: Telegram tells the bot nothing
        assert in_group(await tg.say(people.alice, "/board")) == [("sendMessage", True)]
        tg.service.clock = lambda: utcnow() + timedelta(days=1, minutes=1)
        assert in_group(await tg.say(people.alice, "/board")) == [("sendPhoto", True)]
        assert tg.errors == []
    async with running(api, db_path) as tg:  # restarted again: a picture at once
        assert in_group(await tg.say(people.alice, "/board")) == [("sendPhoto", True)]
        assert tg.errors == []


async def test_a_group_that_lets_the_bot_write_again_gets_pictures_after_a_restart(
    api, people, db_path
) -> None:
    """Muted, a picture was refused (kept); allowed to write again, that is forgotten in storage
    too: restarted, the group's boards are pictures at once.
    """
    from tests.telegram.conftest import running

    group = people.group
    async with running(api, db_path) as tg:
        await tg.say(people.bob, "/help")
        await tg.process(api.my_chat_member(group, people.alice, "member", "restricted"))
        calls = await tg.say(people.alice, "/new webfeud bot=easy seed=1")
        assert [c.ok for c in calls if c.method == "sendPhoto"] == [False]
        await tg.say(people.alice, "/resign")
        await tg.process(api.my_chat_member(group, people.alice, "restricted", "member"))
    async with running(api, db_path) as tg:  # a restart
        calls = await tg.say(people.alice, "/new webfeud @bob seed=3")
        started = [c for c in calls if c.ok and "has started" in c.text]
        assert [c.method for c in started] == ["sendPhoto"]
        assert tg.errors == []


async def test_a_group_that_mutes_the_bot_holds_its_games_until_it_may_write(tg, people) -> None:
    """Restricted from sending (muted): the games wait, the players are told why privately.

    A command typed there meanwhile gets no answer (nor a second notice); allowed to write
    again, the group hears its games go on.
    """
    api, group = tg.api, people.group
    await game_with_dms(tg, people)
    calls = await tg.process(api.my_chat_member(group, people.alice, "member", "restricted"))
    assert sorted((c.chat_id, c.ok) for c in calls) == [(ALICE_ID, True), (1002, True)]
    assert calls[0].text == (
        "I may no longer write in Feud club (an admin took that right from me), so game #1 "
        "(Webfeud in Feud club) waits: its clock stands still, and nobody's time runs out, "
        "until I may write there again."
    )
    chat = await tg.db.chats.get_chat_by_platform_id("telegram", str(group["id"]))
    assert chat.away_since is not None
    calls = await tg.say(people.bob, "/games")  # still a member: commands arrive
    assert [c.ok for c in calls] == [False]  # its answer is refused, and nobody told again
    calls = await tg.process(api.my_chat_member(group, people.alice, "restricted", "member"))
    assert [(c.chat_id, c.ok) for c in calls if c.method.startswith("send")] == [
        (group["id"], True),  # back
        (group["id"], True),  # the board as it stands
    ]
    assert calls[0].text.startswith("I am back: game #1 (Webfeud) goes on")
    assert tg.errors == []


async def test_a_mute_missed_while_down_is_learnt_from_the_refusal(tg, people) -> None:
    """Muted while not running: the first message refused for want of rights holds the game."""
    api, group = tg.api, people.group
    await game_with_dms(tg, people)
    api.bot_muted.add(group["id"])  # the my_chat_member update was never seen
    calls = await tg.say(people.bob, "/games")
    assert [c.ok for c in calls if c.chat_id == group["id"]] == [False]
    told = [c for c in calls if "I may no longer write in Feud club" in c.text]
    assert sorted((c.chat_id, c.ok) for c in told) == [(ALICE_ID, True), (1002, True)]
    first = len(api.calls)
    await Dispatcher(tg.service, tg.front.send_replies).run_due(now=utcnow() + timedelta(days=9))
    assert api.calls[first:] == []  # held: no reminder, no timeout
    assert (await tg.db.games.get_game(1)).status == "active"

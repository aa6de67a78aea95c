"""A whole Webfeud game through the real discord.py client: slash commands and button clicks."""

from __future__ import annotations

from copy import deepcopy
from datetime import timedelta

import pytest

from bot.adapters.discord_bot import STALE
from bot.ai.wordgen import best_candidate, generate_moves
from bot.service import load_state

pytestmark = pytest.mark.timeout(30)

SEED = 7


def assert_no_rack_in_public(fake):
    """No rack (text or picture) ever appeared where the channel can see it.

    (The game's end may say what "the tiles left on the racks" cost: a score, not a rack.)
    """
    for msg in fake.public_messages():
        assert "your rack" not in msg.text.lower(), msg.text
        assert not any("rack" in a.filename for a in msg.attachments), msg.attachments


async def state_of(harness, game_id):
    row = await harness.db.games.get_game(game_id)
    return row, load_state(row)


def created_game_id(harness, inter):
    public = [m for m in harness.replies(inter) if m.public]
    for msg in public:
        for cid in msg.custom_ids():
            return int(cid.split(":")[2])
    raise AssertionError([m.text for m in harness.replies(inter)])


async def test_full_two_player_game_by_commands_and_buttons(harness):
    """Lobby → Join button → moves by /play and the Pass button → game over, racks kept private."""
    fake = harness.fake
    inter = await harness.slash(harness.alice, "new", game="webfeud", seed=SEED)
    lobby = harness.replies(inter)
    assert len(lobby) == 1
    assert lobby[0].public
    assert "created" in lobby[0].text
    assert lobby[0].custom_ids() == ["fb:join:1:0", "fb:start:1:0"]

    inter = await harness.click(harness.bob, lobby[0], "fb:join:1:0")
    msgs = harness.replies(inter)
    started = [m for m in msgs if m.public and "has started" in m.text]
    assert len(started) == 1
    assert started[0].attachments
    assert started[0].embeds[0]["image"]["url"].startswith("attachment://")
    # bob clicked: his rack is an ephemeral follow-up; alice's is not sent anywhere public.
    bob_rack = [m for m in msgs if m.ephemeral]
    assert len(bob_rack) == 1
    assert "Your rack" in bob_rack[0].text
    assert fake.seen_by(harness.alice).count(bob_rack[0]) == 0

    users = {0: harness.alice, 1: harness.bob}
    moves = 0
    while True:
        row, state = await state_of(harness, 1)
        if state.outcome is not None:
            break
        seat = state.waiting_for()[0]
        who = users[seat]
        if moves == 2:
            tiles = await harness.autocomplete(who, "swap", "tiles", tiles="")
            chosen = tiles[0]["value"][:2]
            inter = await harness.slash(who, "swap", tiles=chosen)
            public = [m for m in harness.replies(inter) if m.public]
            assert "swapped 2 tiles" in public[0].text
            assert chosen not in public[0].text.split("—")[0].split(":", 1)[1]
        elif moves < 5:
            candidate = best_candidate(generate_moves(state, seat))
            assert candidate is not None
            inter = await harness.slash(who, "play", move=str(candidate.move))
            public = [m for m in harness.replies(inter) if m.public]
            assert public
            assert f"#{row.id}" in public[0].text
            assert any(m.ephemeral and "Your rack" in m.text for m in harness.replies(inter))
        else:
            latest = fake.last_with_buttons("fb:pass:")
            inter = await harness.pass_turn(who, latest)
            assert any(m.public and "pass" in m.text.lower() for m in harness.replies(inter))
        moves += 1
        assert moves < 20
    assert any(m.public and "is over" in m.text for m in fake.public_messages())
    over = fake.public_messages()[-1]
    assert over.custom_ids() == ["fb:rematch:1:0"]  # no game buttons, only Rematch
    inter = await harness.click(users[1], over, over.button("fb:rematch:1:"))
    again = [m for m in harness.replies(inter) if m.public]
    assert again[0].text.startswith(
        "bob asked for a rematch of game #1. Game #2 (Webfeud) has started: bob vs alice."
    )
    # alice, neither asking nor to move, is told as an invitee would be (bob moves first).
    pings = [m for m in again if m.pings()["users"]]
    assert [(m.content, m.pings()["users"]) for m in pings] == [
        (
            f"<@{harness.alice}>: game #2 is the rematch of game #1; My rack shows your tiles.",
            {str(harness.alice)},
        )
    ]
    row, state = await state_of(harness, 2)
    assert (row.status, state.waiting_for()) == ("active", (0,))
    assert_no_rack_in_public(fake)
    assert len(harness.racks) >= 6
    harness.assert_racks_private()
    assert fake.errors == []


async def test_new_with_a_player_starts_at_once_and_racks_stay_private(harness):
    """/new with a member deals at once; the asker's rack is ephemeral, the other's DMed."""
    fake = harness.fake
    await harness.slash(harness.bob, "notify", dm=True)
    inter = await harness.slash(harness.alice, "new", game="webfeud", player=str(harness.bob))
    msgs = harness.replies(inter)
    assert [m.ephemeral for m in msgs if "Your rack" in m.text] == [True]
    dms = fake.dms_to(harness.bob)
    assert len(dms) == 1
    assert "Your rack" in dms[0].text
    assert dms[0].attachments
    assert fake.dms_to(harness.alice) == []  # alice did not allow DMs
    inter = await harness.slash(harness.bob, "rack")
    msgs = harness.replies(inter)
    assert len(msgs) == 1
    assert msgs[0].ephemeral
    assert "Your rack" in msgs[0].text
    inter = await harness.slash(harness.alice, "bag")  # the unseen tiles give the rack away
    msgs = harness.replies(inter)
    assert [(m.ephemeral, m.text.split(" — ")[0]) for m in msgs] == [
        (True, "Game #1 (Webfeud): the 97 tiles you have not seen")
    ]
    started = fake.last_with_buttons("fb:rack:")
    inter = await harness.click(harness.alice, started, started.button("fb:rack:"))
    msgs = harness.replies(inter)
    assert len(msgs) == 1
    assert msgs[0].ephemeral
    assert "Your rack" in msgs[0].text
    assert_no_rack_in_public(fake)


async def test_button_on_an_old_message_works_after_a_restart(harness):
    """A Join button sent before a restart is routed by the new process and starts the game."""
    inter = await harness.slash(harness.alice, "new", game="webfeud", seed=SEED)
    lobby = harness.replies(inter)[0]
    await harness.restart()
    assert harness.fake.identifies == 2
    inter = await harness.click(harness.bob, lobby, "fb:join:1:0")
    assert any(m.public and "has started" in m.text for m in harness.replies(inter))
    row = await harness.db.games.get_game(1)
    assert row.status == "active"


async def test_pass_on_an_earlier_turn_gets_a_polite_answer(harness):
    """Pass clicked under an old board (from a client that still shows it) is refused
    ephemerally and changes nothing.

    A restart forgets no game message: the first move after it takes the buttons off the
    message posted before it, as it would have without the restart.
    """
    inter = await harness.slash(harness.alice, "new", game="webfeud", player=str(harness.bob))
    first = harness.fake.last_with_buttons("fb:pass:")
    old_pass, seen = first.button("fb:pass:"), deepcopy(first)  # as bob's client still shows it
    await harness.restart()
    await harness.slash(harness.alice, "pass")
    assert first.custom_ids() == []
    row_before = await harness.db.games.get_game(1)
    inter = await harness.click(harness.bob, seen, old_pass)
    msgs = harness.replies(inter)
    assert len(msgs) == 1
    assert msgs[0].ephemeral
    assert msgs[0].content == STALE.format(game=1)
    row_after = await harness.db.games.get_game(1)
    assert row_after.version == row_before.version


async def test_an_old_pass_button_of_an_ended_game_says_the_game_is_over(harness):
    """Pass under a finished or cancelled game says so (no newer buttons exist); nothing changes."""
    fake = harness.fake
    await harness.slash(harness.alice, "new", game="webfeud", player=str(harness.bob))
    first = fake.last_with_buttons("fb:pass:1:")
    old_pass, seen = first.button("fb:pass:"), deepcopy(first)  # see the test above
    await harness.restart()
    await harness.slash(harness.alice, "resign")
    assert (await harness.db.games.get_game(1)).status == "finished"
    assert first.custom_ids() == []  # the end took the buttons off, restart or not
    row_before = await harness.db.games.get_game(1)
    inter = await harness.click(harness.bob, seen, old_pass)
    [msg] = harness.replies(inter)
    assert msg.ephemeral
    assert msg.content == "Game #1 is over; /board game:1 shows how it ended."
    assert (await harness.db.games.get_game(1)).version == row_before.version

    await harness.slash(harness.alice, "new", game="webfeud", player=str(harness.bob))
    second = fake.last_with_buttons("fb:pass:2:")
    old_pass, seen = second.button("fb:pass:"), deepcopy(second)
    await harness.restart()
    await harness.slash(harness.carol, "cancel", game=2)  # Manage Server may cancel it
    assert (await harness.db.games.get_game(2)).status == "cancelled"
    inter = await harness.click(harness.alice, seen, old_pass)
    [msg] = harness.replies(inter)
    assert msg.ephemeral
    assert msg.content == "Game #2 was cancelled; /new starts another."


async def test_a_move_error_is_private_and_leaves_no_public_message(harness):
    """An illegal /play answers privately; the public 'thinking' message is removed."""
    await harness.slash(harness.alice, "new", game="webfeud", player=str(harness.bob))
    before = len(harness.fake.public_messages())
    inter = await harness.slash(harness.alice, "play", move="H8 ZZZZZZZ")
    msgs = harness.replies(inter)
    assert len(msgs) == 1
    assert msgs[0].ephemeral
    assert len(harness.fake.public_messages()) == before


async def test_the_player_to_move_is_mentioned_under_the_move(harness):
    """Your turn: a mention in a new message under the move (edits notify nobody), not a DM."""
    fake = harness.fake
    await harness.slash(harness.bob, "notify", dm=True)
    await harness.slash(harness.alice, "new", game="webfeud", player=str(harness.bob), seed=SEED)
    dms_before = len(fake.dms_to(harness.bob))
    inter = await harness.slash(harness.alice, "pass")
    news, ping = [m for m in harness.replies(inter) if m.public]
    assert news.content == "#1 alice: pass — alice 0, bob 0. bob to move."
    assert (ping.content, ping.edits) == (f"<@{harness.bob}>, your turn in game #1.", 0)
    assert len(fake.dms_to(harness.bob)) == dms_before  # the mention is the notice
    assert news.custom_ids()  # the game's buttons stay under the news
    inter = await harness.slash(harness.bob, "pass")
    ping = [m for m in harness.replies(inter) if m.public][-1]
    assert ping.content == f"<@{harness.alice}>, your turn in game #1."


async def test_a_nudge_pings_the_player_to_move(harness):
    """/nudge by bob: the chat reads it, and alice is mentioned in a new message."""
    await harness.slash(harness.alice, "new", game="webfeud", player=str(harness.bob), seed=SEED)
    inter = await harness.slash(harness.bob, "nudge")
    said, ping = [m for m in harness.replies(inter) if m.public]
    # The harness runs on the real clock: under load a second may tick between the two commands,
    # and the time left is told in whole minutes, rounded down.
    assert said.content in (
        "bob nudged alice in game #1; 72 hours left.",
        "bob nudged alice in game #1; 71 hours 59 minutes left.",
    )
    assert (ping.content, ping.edits) == (
        f"<@{harness.alice}>, bob nudges you: your turn in game #1.",
        0,
    )
    inter = await harness.slash(harness.bob, "nudge")
    [again] = harness.replies(inter)
    assert again.ephemeral
    assert "one a turn" in again.text


async def test_pass_asks_first_in_a_message_only_the_player_sees(harness):
    """Pass asks the player to move, ephemerally, with "Yes, pass"; only that click passes.

    Anyone else's Pass gets the refusal and no question; nothing changes until the answer, and
    the answer of an earlier turn is refused. Rummikub's Draw, a move like any other, does not ask.
    """
    fake = harness.fake
    await harness.slash(harness.alice, "new", game="webfeud", player=str(harness.bob))
    board = fake.last_with_buttons("fb:pass:1:")
    before = await harness.db.games.get_game(1)
    inter = await harness.click(harness.bob, board, board.button("fb:pass:"))
    [msg] = harness.replies(inter)
    assert (msg.ephemeral, msg.content, msg.custom_ids()) == (
        True,
        "It is alice's turn in game #1, not yours; wait for it.",
        [],
    )
    inter = await harness.click(harness.alice, board, board.button("fb:pass:"))
    [question] = harness.replies(inter)
    assert question.ephemeral
    assert question.content == (
        "Pass your turn in game #1? Only you see this; dismiss it to keep playing."
    )
    assert question.custom_ids() == [f"fb:passok:1:{before.turn}"]
    assert (await harness.db.games.get_game(1)).version == before.version

    inter = await harness.click(harness.alice, board, board.button("fb:pass:"))  # asked twice
    [again] = harness.replies(inter)
    inter = await harness.click(harness.alice, question, question.button("fb:passok:"))
    assert any(m.public and m.text.startswith("#1 alice: pass") for m in harness.replies(inter))
    assert question.custom_ids() == []  # answered: the question keeps no live-looking button
    after = await harness.db.games.get_game(1)
    assert after.turn == before.turn + 1
    inter = await harness.click(harness.alice, again, again.button("fb:passok:"))
    assert [m.content for m in harness.replies(inter)] == [STALE.format(game=1)]
    assert (await harness.db.games.get_game(1)).version == after.version
    # A pass that would end the game says so (Webfeud: the third pass in a row).
    await harness.slash(harness.bob, "pass")
    board = fake.last_with_buttons("fb:pass:1:")
    inter = await harness.click(harness.alice, board, board.button("fb:pass:"))
    [question] = harness.replies(inter)
    assert question.content == (
        "Pass your turn in game #1? Careful: a pass now ends the game. Only you see this; "
        "dismiss it to keep playing."
    )

    await harness.slash(harness.alice, "new", game="rummikub", player=str(harness.bob))
    await harness.slash(harness.alice, "start", game=2)
    draw = fake.last_with_buttons("fb:pass:2:")
    turn = (await harness.db.games.get_game(2)).turn
    await harness.click(harness.alice, draw, draw.button("fb:pass:"))
    assert (await harness.db.games.get_game(2)).turn == turn + 1
    assert fake.errors == []


async def test_the_lobby_loses_its_buttons_when_the_game_starts(harness):
    """Join/Start come off the lobby messages at the start (by Join, by /start) and a cancel."""
    fake = harness.fake
    inter = await harness.slash(harness.alice, "new", game="webfeud", seed=SEED)
    [lobby] = harness.replies(inter)
    inter = await harness.click(harness.bob, lobby, "fb:join:1:0")
    [started] = [m for m in harness.replies(inter) if m.public and "has started" in m.text]
    assert lobby.custom_ids() == []
    assert started.custom_ids()[0] == "fb:rack:1:0"

    inter = await harness.slash(harness.alice, "new", game="rummikub", seed=SEED)
    [created] = harness.replies(inter)
    inter = await harness.slash(harness.bob, "join", game=2)
    [joined] = [m for m in harness.replies(inter) if m.public]
    assert created.custom_ids() == []  # the newer lobby message has the buttons
    assert joined.custom_ids() == ["fb:join:2:0", "fb:start:2:0"]
    await harness.slash(harness.alice, "start", game=2)
    assert joined.custom_ids() == []
    assert not [m for m in fake.public_messages() if "fb:join:" in " ".join(m.custom_ids())]

    inter = await harness.slash(harness.alice, "new", game="numfeud", seed=SEED)
    [lobby] = harness.replies(inter)
    await harness.slash(harness.alice, "cancel", game=3)
    assert lobby.custom_ids() == []
    assert fake.errors == []


async def test_board_posts_the_board_again_but_not_under_one_just_posted(
    harness, monkeypatch
) -> None:
    """Board under the game's newest message, posted a moment ago: only its clicker is told so.

    Later, Board posts the board anew at the bottom of the channel, with the buttons.
    """
    import bot.adapters.discord_bot as adapter
    from bot.adapters.common import JUST_POSTED

    fake = harness.fake
    await harness.slash(harness.alice, "new", game="webfeud", player=str(harness.bob), seed=7)
    newest = fake.last_with_buttons("fb:board:")
    public = len(fake.public_messages())
    inter = await harness.click(harness.carol, newest, newest.button("fb:board:"))
    [told] = harness.replies(inter)
    assert (told.text, told.ephemeral) == (JUST_POSTED.format(id=1), True)
    assert len(fake.public_messages()) == public
    monkeypatch.setattr(adapter, "BOARD_AGAIN_AFTER", timedelta(0))  # a minute on
    inter = await harness.click(harness.carol, newest, newest.button("fb:board:"))
    [board] = [m for m in harness.replies(inter) if m.public]
    assert board.text.startswith("Game #1 (Webfeud)"), board.text
    assert board.custom_ids()[:2] == ["fb:rack:1:0", "fb:board:1:0"]
    assert fake.last_with_buttons("fb:board:") is board


async def test_every_picture_carries_alt_text_a_screen_reader_reads(harness):
    """The board, the rack and the leaderboard go out with a description (Discord's alt text).

    The board's says the game, who is to move and the scores; the rack's never lists its tiles.
    """
    inter = await harness.slash(harness.alice, "new", game="webfeud", seed=SEED)
    lobby = harness.replies(inter)
    inter = await harness.click(harness.bob, lobby[0], "fb:join:1:0")
    msgs = harness.replies(inter)
    _row, state = await state_of(harness, 1)
    mover = ("alice", "bob")[state.to_move]
    board = [a for m in msgs if m.public for a in m.attachments]
    rack = [a for m in msgs if m.ephemeral for a in m.attachments]
    assert [a.description for a in board] == [
        f"Webfeud board: {mover} to move; scores: alice 0, bob 0"
    ]
    assert [a.description for a in rack] == ["Webfeud: the rack of bob"]

    inter = await harness.slash(harness.alice, "leaderboard")
    shown = [a for m in harness.replies(inter) for a in m.attachments]
    assert shown, [m.text for m in harness.replies(inter)]
    assert all(a.description and "ranking" in a.description for a in shown)

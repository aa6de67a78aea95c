"""The service over a real SQLite file: lobby, moves, privacy, double submissions, bad input."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.core.game import GameState, MoveRecord, best_moves, ranks
from bot.games import GAMES
from bot.replies import ChatTarget, Reply, UserTarget
from bot.service import ChatRef, Service, UserRef, _best_moves, _ChatCache, load_state
from storage import Database
from storage.migrate import latest_version
from storage.models import Chat

WEBFEUD = GAMES["webfeud"]


def find_move(state: GameState, seat: int, level: str = "easy") -> str:
    """Return a legal move for `seat` from the AI (the same generator the bot seats use)."""
    from bot.ai import choose_move

    return str(choose_move(state, seat, level, 1000 + state.turn))


def events(replies: list[Reply], kind: str) -> list[dict[str, Any]]:
    return [r.event for r in replies if r.kind == kind]


def error_of(replies: list[Reply]) -> dict[str, Any]:
    assert len(replies) == 1, replies
    assert replies[0].kind == "error"
    assert isinstance(replies[0].to, UserTarget)
    return replies[0].event


async def stored(db: Database, game_id: int) -> GameState:
    row = await db.games.get_game(game_id)
    assert row is not None
    return load_state(row)


async def test_startup_migrates_an_empty_file(tmp_path: Path) -> None:
    """Opening a new file applies every migration; the service then works on it."""
    path = tmp_path / "empty.sqlite3"
    path.touch()
    db = await Database.open(path)
    try:
        service = Service(db, render=False)
        replies = await service.handle(
            ChatRef("console", "room"), UserRef("console", "alice", "alice"), "/games"
        )
        assert replies[0].kind == "games"
    finally:
        await db.close()
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == latest_version()
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert {"games", "moves", "deadlines", "results", "seats"} <= tables
    finally:
        conn.close()


async def test_new_game_with_a_seed_deals_reproducibly(say, db) -> None:
    """Two games created with seed=42 deal the same racks, equal to the pure core's deal."""
    first = await say("alice", "/new webfeud @bob seed=42")
    second = await say("carol", "/new webfeud @dave seed=42", chat="other")
    racks1 = [e["tiles"] for e in events(first, "rack")]
    racks2 = [e["tiles"] for e in events(second, "rack")]
    assert racks1 == racks2
    expected = WEBFEUD.new_game(2, seed=42, options={})
    assert racks1 == [list(expected.rack(0)), list(expected.rack(1))]
    assert [e["type"] for e in (r.event for r in first)] == [
        "game_created",
        "game_started",
        "rack",
        "rack",
    ]


async def test_seed_is_refused_on_chat_platforms_unless_allowed(db, clock) -> None:
    """seed= works off the console only with allow_seed (FEUDBOT_ALLOW_SEED=1)."""
    chat = ChatRef("telegram", "-100")
    alice, bob = UserRef("telegram", "1", "alice"), UserRef("telegram", "2", "bob")
    strict = Service(db, clock=clock, render=False)
    await strict.handle(chat, bob, "/help")  # bob is known to the bot from now on
    refused = await strict.handle(chat, alice, "/new webfeud @bob seed=1")
    assert error_of(refused)["reason"] == "SEED_NOT_ALLOWED"
    relaxed = Service(db, clock=clock, render=False, allow_seed=True)
    ok = await relaxed.handle(chat, alice, "/new webfeud @bob seed=1")
    assert events(ok, "game_started")


async def test_an_unknown_invitee_gets_a_lobby_to_join(db, clock, table_rows) -> None:
    """Off the console, the bot knows only who has written to it (Telegram's privacy mode): the
    game is created all the same and waits for them to join (it was refused, and the help's
    first example, /new webfeud @friend, failed for nearly every newcomer).
    """
    service = Service(db, clock=clock, render=False)
    before = table_rows()
    [created] = await service.handle(
        ChatRef("telegram", "-1"), UserRef("telegram", "1", "alice"), "/new webfeud @ghost"
    )
    assert created.kind == "game_created"
    assert created.text == (
        "Game #1 (Webfeud) created with alice. Others can /join. I do not know @ghost yet"
        " (people are known once they have written to me): tap Join, or /join game=1."
    )
    assert [b.label for b in created.buttons] == ["Join"]
    ghost = await service.handle(
        ChatRef("telegram", "-1"), UserRef("telegram", "2", "ghost"), "/join"
    )
    assert "game_started" in [r.kind for r in ghost]
    # A bot's @name (Telegram's all end in "bot"), mine too, is no player: the levels are.
    [bot] = await service.handle(
        ChatRef("telegram", "-1"), UserRef("telegram", "1", "alice"), "/new webfeud @feud_bot"
    )
    assert bot.text == (
        "@feud_bot is a bot, not a player: to play me, add bot=easy, bot=medium or bot=hard,"
        " e.g. /new webfeud bot=easy."
    )
    before = table_rows()
    replies = await service.handle(
        ChatRef("telegram", "-1"), UserRef("telegram", "1", "alice"), "/new nmbr9 seed=4"
    )
    assert replies[0].text == "seed= is switched off on this bot: leave it out, e.g. /new nmbr9."
    assert table_rows()["games"] == before["games"]


async def test_start_and_cancel_find_the_chats_only_game_for_whom_they_concern(say, db) -> None:
    """/start from outside the lobby says to /join it; an admin's bare /cancel takes the chat's
    only game (an admin may cancel anybody's). Both used to answer "You have no game".
    """
    await say("alice", "/new webfeud")
    refused = error_of(await say("carol", "/start"))
    assert refused["message"] == "You are not in game #1; /join game=1 first, then start it."
    nothing = error_of(await say("dora", "/cancel", chat="empty", admin=True))
    assert nothing["message"] == "No game is going on here. Start one with /new <game>."
    cancelled = await say("dora", "/cancel", admin=True)
    assert cancelled[0].event["type"] == "game_cancelled", cancelled[0].text
    assert (await db.games.get_game(1)).status == "cancelled"
    # Without admin rights a bare /cancel still looks only at one's own games.
    await say("alice", "/new webfeud")
    assert error_of(await say("carol", "/cancel"))["reason"] == "NO_GAME"


async def test_lobby_join_leave_and_start(say, db) -> None:
    """A game below max players waits in the lobby; /join fills it and it starts by itself."""
    created = await say("alice", "/new webfeud")
    assert events(created, "game_created")[0]["players"] == ["alice"]
    assert not events(created, "game_started")
    game_id = events(created, "game_created")[0]["game_id"]
    start_early = await say("alice", "/start")
    assert error_of(start_early)["reason"] == "BAD_PLAYER_COUNT"
    assert error_of(start_early)["message"] == (
        f"Webfeud needs 2 players and game #{game_id} has 1: others can /join game={game_id}, or"
        " /cancel it and play a bot: /new webfeud bot=easy (a medium or hard bot plays stronger)."
    )
    left = await say("alice", "/leave")
    assert events(left, "game_left")
    row = await db.games.get_game(game_id)
    assert row is not None
    assert row.status == "cancelled"
    again = await say("alice", "/new webfeud")
    game_id = events(again, "game_created")[0]["game_id"]
    joined = await say("bob", "/join")
    assert events(joined, "game_joined")[0]["player"] == "bob"
    assert events(joined, "game_started")[0]["game_id"] == game_id
    assert {e["player"] for e in events(joined, "rack")} == {"alice", "bob"}


async def test_turn_commands_in_a_waiting_game_say_how_to_start_it(say, table_rows) -> None:
    """/rack, /pass or /board before the deal name the waiting game and /start, not /new.

    /resign names /leave, the way out of a lobby.
    """
    await say("alice", "/new rummikub bot=easy")
    before = table_rows()
    for text in ("/rack", "/pass", "/resign", "/board"):
        error = error_of(await say("alice", text))
        assert error["reason"] == "NOT_STARTED", text
        assert ("/leave game=1" if text == "/resign" else "/start game=1") in error["message"]
    assert table_rows() == before
    await say("alice", "/new nmbr9")  # two waiting games: both named, and how to start one
    before = table_rows()
    for text in ("/rack", "/pass", "/resign", "/board"):
        error = error_of(await say("alice", text))
        assert error["reason"] == "NOT_STARTED", text
        assert "(#1, #2); start one with /start game=<id>" in error["message"]
    assert table_rows() == before


async def test_a_move_is_one_transaction_with_its_deadlines(say, db, clock) -> None:
    """After a move: snapshot, one log row, and the next player's timeout plus two reminders."""
    start = await say("alice", "/new webfeud @bob seed=7")
    game_id = events(start, "game_started")[0]["game_id"]
    state = await stored(db, game_id)
    replies = await say("alice", f"/play {find_move(state, 0)}")
    played = events(replies, "move_played")[0]
    assert played["player"] == "alice"
    assert played["to_move"] == "bob"
    assert played["score"] > 0
    assert played["scores"] == [played["score"], 0]
    assert len(await db.games.moves(game_id)) == 1
    pending = await db.deadlines.pending_deadlines(game_id)
    assert [(d.kind, d.due_at - clock.now) for d in pending] == [
        ("reminder", WEBFEUD.turn_timeout({}) - timedelta(hours=24)),
        ("reminder", WEBFEUD.turn_timeout({}) - timedelta(hours=1)),
        ("timeout", WEBFEUD.turn_timeout({})),
    ]
    assert all(d.payload["seat"] == 1 and d.turn == 1 for d in pending)
    # The mover's new rack goes to the mover only.
    rack = [r for r in replies if r.kind == "rack"]
    assert len(rack) == 1
    assert isinstance(rack[0].to, UserTarget)
    assert rack[0].to.name == "alice"


async def test_double_submission_is_applied_once(say, db, table_rows) -> None:
    """Two simultaneous plays of one turn: one applies, the other is told and stores nothing."""
    start = await say("alice", "/new webfeud @bob seed=11")
    game_id = events(start, "game_started")[0]["game_id"]
    move = find_move(await stored(db, game_id), 0)
    first, second = await asyncio.gather(
        say("alice", f"/play {move}"), say("alice", f"/play {move}")
    )
    outcomes = sorted([first[0].kind, second[0].kind])
    assert outcomes == ["error", "move_played"]
    loser = first if first[0].kind == "error" else second
    assert error_of(loser)["reason"] == "ALREADY_PLAYED"
    assert "already played" in loser[0].text
    assert len(await db.games.moves(game_id)) == 1
    rows = table_rows()
    again = await say("alice", f"/play {move}")
    assert error_of(again)["reason"] == "NOT_YOUR_TURN"
    assert table_rows() == rows


async def test_two_processes_playing_the_same_turn_store_one_move(say, db, db_path, clock) -> None:
    """Two connections (two processes' services) play one turn at once: one move is stored."""
    start = await say("alice", "/new webfeud @bob seed=12")
    game_id = events(start, "game_started")[0]["game_id"]
    move = find_move(await stored(db, game_id), 0)
    other_db = await Database.open(db_path)
    try:
        other = Service(other_db, clock=clock, render=False)
        alice = UserRef("console", "alice", "alice")
        first, second = await asyncio.gather(
            say("alice", f"/play {move}"),
            other.handle(ChatRef("console", "room"), alice, f"/play {move}"),
        )
    finally:
        await other_db.close()
    kinds = sorted([first[0].kind, second[0].kind])
    assert kinds == ["error", "move_played"]
    loser = first if first[0].kind == "error" else second
    assert error_of(loser)["reason"] in {"ALREADY_PLAYED", "NOT_YOUR_TURN"}
    assert len(await db.games.moves(game_id)) == 1


BAD_INPUT = [
    ("alice", "/frobnicate", "BAD_COMMAND", "There is no command"),
    ("alice", "/swap", "BAD_COMMAND", "Usage: /swap <tiles>"),
    ("alice", "/play", "BAD_COMMAND", "Usage: /play <move>"),
    ("alice", "/play", "BAD_COMMAND", "Say what to play, e.g. 8H QUIZ (across from 8H)"),
    ("alice", "/place C4 90", "NOT_IN_THIS_GAME", "/play <move>"),
    ("alice", "/stats @nobody", "UNKNOWN_PLAYER", "I do not know @nobody yet: people are known"),
    ("alice", "/play 8H", "INVALID_MOVE", "8H QUIZ"),
    ("alice", "/play 8H XYZZYQ", "TILE_NOT_IN_RACK", "/rack"),
    ("bob", "/pass", "NOT_YOUR_TURN", "It is alice's turn in game #1, not yours; wait for it."),
    ("carol", "/pass", "NOT_A_PLAYER", "the games going on (#1) are others'; /board game=<id>"),
    ("carol", "/pass game={game}", "NOT_A_PLAYER", "not playing"),
    ("alice", "/pass game={other}", "NO_SUCH_GAME", "no game #"),
    ("alice", "/pass game=999", "NO_SUCH_GAME", "no game #"),
    ("alice", "/new chess @bob", "UNKNOWN_GAME", "webfeud"),
    (
        "alice",
        "/leaderboard chess",
        "BAD_COMMAND",
        "There is no game 'chess'. Games: nmbr9, numfeud, rummikub, smartfeud, webfeud; /rules "
        "<game> explains one.",
    ),
    (
        "alice",
        "/new scrabble",
        "UNKNOWN_GAME",
        "There is no game 'scrabble'. Did you mean webfeud (a crossword word game like Wordfeud)?",
    ),
    ("alice", "/new nmbr 9", "BAD_COMMAND", "Game names have no spaces: did you mean /new nmbr9?"),
    (
        "alice",
        "/new webfeud easy",
        "BAD_COMMAND",
        "I did not understand 'easy': to play me, add bot=easy.",
    ),
    ("alice", "/new webfeud @bob colour=red", "BAD_OPTION", "board=standard|random"),
    ("alice", "/new webfeud bot=superhard", "BAD_COMMAND", "use bot=easy|medium|hard. Usage"),
    ("alice", "/new webfeud @bob @carol", "BAD_PLAYER_COUNT", "2"),
    ("alice", "/new webfeud @alice", "DUPLICATE_PLAYER", "Usage: /new"),
    ("alice", "/new webfeud @bob @bob", "DUPLICATE_PLAYER", "@bob is in this game already."),
    ("alice", "/new webfeud @Alice", "DUPLICATE_PLAYER", "You take the first seat yourself"),
    ("carol", "/cancel game={game}", "NOT_ALLOWED", "started with other players; only a chat"),
    ("alice", "/join", "ALREADY_STARTED", "/new starts another"),
    ("alice", "/leave", "ALREADY_STARTED", "/resign"),
    ("alice", "/rules chess", "BAD_COMMAND", "/rules <game> explains one"),
]


@pytest.mark.parametrize(("who", "line", "reason", "shows"), BAD_INPUT)
async def test_bad_input_gets_a_clear_reply_and_stores_nothing(
    say, table_rows, who: str, line: str, reason: str, shows: str
) -> None:
    """Wrong commands, moves out of turn, foreign game ids, outsiders: an error, no row changed."""
    start = await say("alice", "/new webfeud @bob seed=5")
    game = events(start, "game_started")[0]["game_id"]
    other_start = await say("dave", "/new webfeud @erin seed=5", chat="elsewhere")
    other = events(other_start, "game_started")[0]["game_id"]
    before = table_rows()
    replies = await say(who, line.format(game=game, other=other))
    event = error_of(replies)
    assert event["reason"] == reason
    assert shows.lower() in event["message"].lower()
    assert replies[0].to.name == who  # type: ignore[union-attr]
    assert table_rows() == before


async def test_several_games_in_a_chat_need_a_game_id(say) -> None:
    """With two games in the chat, a bare command asks for game=<id>; with it, it works."""
    first = events(await say("alice", "/new webfeud @bob seed=1"), "game_started")[0]["game_id"]
    await say("alice", "/new webfeud @carol seed=2")
    ambiguous = await say("alice", "/pass")
    assert error_of(ambiguous)["reason"] == "WHICH_GAME"
    assert ambiguous[0].text == (
        "You are in several games here (#1, #2); add game=<id>, e.g. game=1."
    )
    # /board looks at anybody's games: the chat's.
    assert error_of(await say("dave", "/board"))["message"] == (
        "This chat has several games (#1, #2); add game=<id>, e.g. game=1."
    )
    # Many games: the first eight are listed, and the advice still arrives whole.
    for n in range(10):
        await say("erin", f"/new webfeud @frank seed={n}")
    many = error_of(await say("erin", "/pass"))["message"]
    assert many == (
        "You are in several games here (#3, #4, #5, #6, #7, #8, #9, #10 and 2 more; /games "
        "lists them); add game=<id>, e.g. game=3."
    )
    ok = await say("alice", f"/pass game={first}")
    assert events(ok, "move_played")[0]["game_id"] == first
    # bob sits in one of them only: no id needed.
    bob = await say("bob", "/pass")
    assert events(bob, "move_played")[0]["game_id"] == first


async def test_a_bare_command_means_the_one_game_waiting_for_the_asker(say) -> None:
    """Of several games here, a bare move means the one whose turn is the asker's."""
    await say("alice", "/new webfeud @bob seed=1")
    await say("alice", "/new webfeud @carol seed=2")
    await say("alice", "/pass game=2")  # game 2 now waits for carol; game 1 still for alice
    # Commands that end, leave or look at a game never guess: they ask which.
    for line in ("/resign", "/play resign", "/nudge"):
        assert error_of(await say("alice", line))["reason"] == "WHICH_GAME", line
    # /try is about the move a bare /play would make: the same game.
    [tried] = await say("alice", "/try 8H AB")
    assert tried.event.get("reason") != "WHICH_GAME", tried.text
    passed = await say("alice", "/pass")
    assert events(passed, "move_played")[0]["game_id"] == 1
    # Now neither waits for alice: a bare command still asks which game.
    assert error_of(await say("alice", "/rack"))["reason"] == "WHICH_GAME"


async def test_a_bare_leave_means_the_lobby(say) -> None:
    """/leave beside a running game means the lobby (only a seat not yet dealt can be left)."""
    await say("alice", "/new webfeud @bob seed=1")  # #1 starts at once
    await say("alice", "/new smartfeud @carol seed=3")  # #2 waits in the lobby
    left = await say("alice", "/leave")
    assert left[0].kind != "error", left[0].text
    assert "#2" in left[0].text
    assert error_of(await say("bob", "/leave"))["message"] == (
        "Game #1 has started; to give up, /resign game=1."
    )


async def test_cancel_by_creator_or_admin(say, db) -> None:
    """The creator or a chat admin may cancel; its deadlines go with it."""
    start = await say("alice", "/new webfeud @bob seed=1")
    game_id = events(start, "game_started")[0]["game_id"]
    refused = await say("bob", "/cancel")
    assert error_of(refused)["reason"] == "NOT_ALLOWED"
    done = await say("bob", "/cancel", admin=True)
    assert events(done, "game_cancelled")[0]["game_id"] == game_id
    assert await db.deadlines.pending_deadlines(game_id) == []


async def test_a_creator_who_leaves_the_lobby_hands_the_game_on(say) -> None:
    """Alice creates and leaves: bob hosts the game and may cancel it, alice no longer may."""
    await say("alice", "/new rummikub @bob @carol")
    [left] = await say("alice", "/leave")
    assert left.text == "alice left game #1. bob hosts it now (and may /cancel it)."
    [carol_left] = await say("carol", "/leave")  # not the host: nothing handed on
    assert carol_left.text == "carol left game #1."
    await say("dave", "/join")
    refused = error_of(await say("alice", "/cancel game=1"))  # in the lobby: the host's
    assert refused["reason"] == "NOT_ALLOWED"
    assert (
        refused["message"]
        == "Game #1 can be cancelled only by bob, who hosts it, or by a chat admin."
    )
    await say("bob", "/start")
    # Started: alice, who left before, is told only an admin can now (not that bob may).
    assert error_of(await say("alice", "/cancel game=1"))["message"] == (
        "Game #1 has started with other players; only a chat admin can cancel it now."
    )
    # Started with dave: bob gives up with /resign now; an admin may still cancel.
    assert error_of(await say("bob", "/cancel"))["message"] == (
        "Game #1 has started with other players: give up with /resign game=1; only a chat "
        "admin can cancel it now."
    )
    done = await say("erin", "/cancel game=1", admin=True)
    assert events(done, "game_cancelled")[0]["by"] == "erin"
    # Against bots only, the host may still call a started game off.
    await say("bob", "/new webfeud bot=easy")
    assert events(await say("bob", "/cancel"), "game_cancelled")[0]["game_id"] == 2


def chat_never_shows_a_rack(replies: list[Reply], state: GameState) -> None:
    """Check chat replies: no rack event, no rack letters string of any player."""
    for reply in replies:
        if isinstance(reply.to, ChatTarget):
            assert reply.kind != "rack"
            text = reply.text + json.dumps(reply.event)
            for seat in range(state.players):
                letters = "".join(state.rack(seat))
                if len(letters) >= 4:
                    assert letters not in text
                    assert " ".join(letters) not in text
            assert "tiles" not in reply.event


async def test_whole_game_between_two_people(say, db, service) -> None:
    """A complete game: every chat reply is rack-free, the end writes results and rankings."""
    start = await say("alice", "/new webfeud @bob seed=2024")
    game_id = events(start, "game_started")[0]["game_id"]
    names = ["alice", "bob"]
    everything = list(start)
    swapped = False
    for _ in range(200):
        state = await stored(db, game_id)
        if state.outcome is not None:
            break
        chat_never_shows_a_rack(everything[-4:], state)
        seat = state.waiting_for()[0]
        if not swapped and state.turn == 3:
            tiles = "".join(state.rack(seat)[:3])
            replies = await say(names[seat], f"/swap {tiles}")
            swapped = True
            played = events(replies, "move_played")[0]
            assert played["move"] == "swapped 3 tiles"
            assert tiles not in json.dumps([r.event for r in replies if not r.private])
        else:
            replies = await say(names[seat], f"/play {find_move(state, seat)}")
        assert events(replies, "move_played"), replies
        everything += replies
    final = await stored(db, game_id)
    assert final.outcome is not None
    over = events(everything, "game_over")[0]
    assert over["scores"] == list(final.outcome.scores)
    assert over["winners"] == [names[s] for s in final.outcome.winners]
    assert {r["player"] for r in over["ranking"]} == {"alice", "bob"}
    results = await db.results.game_results(game_id)
    assert [r.score for r in results] == list(final.outcome.scores)
    assert [r.rank for r in results] == list(ranks(final.outcome.scores, final.outcome.winners))
    assert await db.deadlines.pending_deadlines(game_id) == []
    for reply in everything:
        if reply.kind == "rack":
            assert isinstance(reply.to, UserTarget)
    board = await say("alice", "/leaderboard webfeud")
    assert {row["player"] for row in board[0].event["rows"]} == {"alice", "bob"}
    stats = await say("carol", "/stats @alice")
    assert stats[0].event["games"]["webfeud"]["games"] == 1
    replayed = await service.replay(game_id)
    assert replayed is not None
    assert replayed.to_json() == final.to_json()


async def test_human_against_a_bot_seat(say, db, service) -> None:
    """Bot seats answer at once; the human plays the AI's suggestions until the game ends."""
    start = await say("alice", "/new webfeud bot=hard seed=99")
    game_id = events(start, "game_started")[0]["game_id"]
    assert events(start, "game_started")[0]["players"] == ["alice", "bot-hard"]
    assert [r.to.name for r in start if r.kind == "rack"] == ["alice"]  # type: ignore[union-attr]
    for _ in range(100):
        state = await stored(db, game_id)
        if state.outcome is not None:
            break
        assert state.waiting_for() == (0,)  # the bot has always moved already
        replies = await say("alice", f"/play {find_move(state, 0, 'medium')}")
        moves = events(replies, "move_played")
        assert moves[0]["player"] == "alice"
        if len(moves) > 1:
            assert moves[1]["player"] == "bot-hard"
        # Deadlines exist only for the human.
        assert all(d.payload["seat"] == 0 for d in await db.deadlines.pending_deadlines(game_id))
    final = await stored(db, game_id)
    assert final.outcome is not None
    results = await db.results.game_results(game_id)
    assert results[1].user_id is None
    assert len(results) == 2
    replayed = await service.replay(game_id)
    assert replayed is not None
    assert replayed.to_json() == final.to_json()


async def test_resign_out_of_turn_ends_the_game(say, db) -> None:
    """/resign works whoever is to move; the other player wins."""
    start = await say("alice", "/new webfeud @bob seed=3")
    game_id = events(start, "game_started")[0]["game_id"]
    replies = await say("bob", "/resign")
    over = events(replies, "game_over")[0]
    assert over["winners"] == ["alice"]
    assert over["reason"] == "resign"
    [text] = [r.text for r in replies if r.kind == "game_over"]
    assert text.startswith(f"Game #{game_id} is over (bob resigned). alice won — alice 0, bob 0.")
    row = await db.games.get_game(game_id)
    assert row is not None
    assert row.status == "finished"
    assert row.finished_at is not None
    after = await say("alice", f"/pass game={game_id}")
    assert error_of(after)["reason"] == "GAME_OVER"


async def test_looking_commands(say) -> None:
    """/board, /rack (private), /games, /rules and /help answer without changing anything."""
    await say("alice", "/new webfeud @bob seed=8")
    board = await say("bob", "/board")
    assert board[0].kind == "board"
    assert board[0].event["view"]["board"].count(".") == 225
    rack = await say("bob", "/rack")
    assert rack[0].private
    assert len(rack[0].event["tiles"]) == 7
    games = await say("carol", "/games")
    assert games[0].event["games"][0]["status"] == "active"
    rules = await say("carol", "/rules webfeud")
    assert "within 72 hours; if not, you lose the game." in rules[0].text
    assert rules[0].text.endswith(
        "\nAlso: /try <move> tells what a move would score without playing it; /bag lists the "
        "tiles you have not seen; /history lists the moves so far."
    )
    rummikub = (await say("carol", "/rules rummikub"))[0].text
    assert rummikub.endswith(
        "\nAlso: /bag lists the tiles you have not seen; /history lists the moves so far."
    )
    # Each option says what it does.
    assert (
        "\nOption time=none|15s|30s|60s (default none): turn time limit; on expiry the tiles"
        in (rummikub)
    )
    assert "\nOption assist=off|on (default off): a casual game: /hint suggests a move" in rummikub
    numfeud = (await say("carol", "/rules numfeud"))[0].text
    assert "\nAlso: /try <move> tells whether a move is legal without playing it; " in numfeud
    for game, missed in (
        ("smartfeud", "within 48 hours; if not, the turn counts as a pass."),
        ("numfeud", "within 72 hours; if not, you resign and lose 50 ranking points."),
    ):
        assert missed in (await say("carol", f"/rules {game}"))[0].text
    assert "8H QUIZ" in rules[0].text
    help_ = await say("carol", "/help")
    assert "/new webfeud bot=easy to play me" in help_[0].text
    every = await say("carol", "/help all")
    assert "/leaderboard [game]" in every[0].text


def test_ranks_put_winners_first_and_share_ties() -> None:
    """Winners rank 1; the rest rank by score; equal standing shares a rank."""
    assert ranks((10, 30), (1,)) == (2, 1)
    assert ranks((50, 30), (1,)) == (2, 1)  # a timeout winner outranks a higher score
    assert ranks((20, 20, 5), (0, 1)) == (1, 1, 3)
    # Rummikub of three: carol resigned and left (-20), bob stayed and lost (-90): bob is second.
    assert ranks((110, -90, -20), (0,), left=(2,)) == (1, 2, 3)


def test_best_moves_that_tie_are_all_told() -> None:
    """The same top move by two players names both; different ones are listed, three at most."""
    names = ["alice", "bob", "carol", "dave", "erin"]

    def told(*moves: tuple[int, str]) -> str:
        history = [MoveRecord(seat, shown, 14) for seat, shown in moves]
        return _best_moves(names, best_moves([MoveRecord(4, "pass", 0), *history]))

    assert told((0, "7 at I9 90")) == "Best move: alice, 7 at I9 90 (+14)."
    assert told((0, "7 at I9 90"), (1, "7 at I9 90")) == (
        "Best move: alice and bob, 7 at I9 90 (+14)."
    )
    words = enumerate(("QI", "ZA", "XU", "JO", "ZO"))
    assert told(*words) == "Best moves (+14): alice, QI; bob, ZA; carol, XU; 2 more."


async def test_games_lists_this_chat_and_privately_the_rest(say) -> None:
    """/games shows the chat's open games; the asker's games in other chats come privately."""
    await say("alice", "/new webfeud @bob seed=1")
    await say("alice", "/new webfeud @carol seed=2", chat="elsewhere")
    replies = await say("alice", "/games")
    assert replies[0].kind == "games"
    assert isinstance(replies[0].to, ChatTarget)
    assert [g["game_id"] for g in replies[0].event["games"]] == [1]
    assert replies[1].kind == "my_games"
    assert replies[1].private
    assert replies[1].event["games"] == [2]
    # Each line: the scores, whose turn, and the time left on it (a lobby: who waits).
    await say("bob", "/new rummikub")
    assert (await say("alice", "/games"))[0].text == (
        "Games here:\n#1 Webfeud: alice 0, bob 0 — alice to move; 72 hours left\n"
        "#3 Rummikub: bob (waiting to start)"
    )
    assert replies[1].text == (
        "Your games in other chats:\n#2 Webfeud: alice 0, carol 0 — alice to move; 72 hours left"
    )


async def test_a_bare_move_command_is_answered_in_the_notation_of_the_players_game(say, db) -> None:
    """/play, /swap or /place without an argument: the game's own example, nothing changes."""
    assert "e.g. /swap AEQ?" in error_of(await say("alice", "/swap"))["message"]  # no game yet
    await say("alice", "/new numfeud @bob seed=3", chat="numbers")
    await say("alice", "/new rummikub @bob seed=3", chat="melds")
    await say("alice", "/start", chat="melds")
    await say("alice", "/new nmbr9 seed=3", chat="shapes")
    await say("alice", "/start", chat="shapes")
    expected = {
        ("numbers", "/swap"): "Name the tiles to swap from your rack, e.g. swap R5 B7 J. "
        "Usage: /swap <tiles> [game=<id>]",
        ("numbers", "/play"): "Say what to play, e.g. 8H R5 R6 R7 (across from 8H)",
        # A game without the move says what to do instead, with no usage of that move.
        ("melds", "/swap"): "Rummikub has no swapping or skipping: lay tiles, e.g. R5 R6 R7, or "
        "/draw a tile and end your turn.",
        ("shapes", "/swap"): "NMBR 9 has no passing or swapping: each round you place the card's "
        "tile, e.g. /place C4 90 (/moves lists some); a tile that fits nowhere: /place skip.",
        ("melds", "/play"): "Say what to play, e.g. R5 R6 R7 (a new meld)",
        ("shapes", "/place"): "Say where the tile goes. Write a square and a turn, like C4 90",
        # A move of another game: whose it is, not its usage.
        ("numbers", "/place"): "/place belongs to NMBR 9; in Numfeud use /play <move> (see "
        "/rules numfeud).",
    }
    before = {key: (await stored(db, key)).to_json() for key in (1, 2, 3)}
    for (chat, line), shown in expected.items():
        error = error_of(await say("alice", line, chat=chat))
        assert error["reason"] == ("NOT_IN_THIS_GAME" if "belongs" in shown else "BAD_COMMAND")
        assert shown in error["message"], (chat, line, error["message"])
        assert "AEQ?" not in error["message"]
        assert not error["message"].endswith("…")  # whole, not cut at 200 characters
        if "has no" in shown or "belongs" in shown:
            assert error["message"] == shown
    # Two games in one chat: game=<id> says which notation to answer in.
    await say("alice", "/new webfeud @bob seed=3", chat="numbers")
    for line, shown in {
        "/play game=1": "Say what to play, e.g. 8H R5 R6 R7",
        "/play game=4": "Say what to play, e.g. 8H QUIZ",
    }.items():
        error = error_of(await say("alice", line, chat="numbers"))
        assert error["message"].startswith(shown), (line, error["message"])
    assert {key: (await stored(db, key)).to_json() for key in (1, 2, 3)} == before
    # Rummikub and NMBR 9 in one chat: a bare /swap is answered by a game of the player's (no
    # word game's example), and /place by the game it belongs to.
    await say("alice", "/new nmbr9 seed=4", chat="melds")
    await say("alice", "/start game=5", chat="melds")
    error = error_of(await say("alice", "/swap", chat="melds"))
    assert "AEQ?" not in error["message"]
    assert error["message"].startswith(("Rummikub has no swapping", "NMBR 9 has no passing"))
    error = error_of(await say("alice", "/place", chat="melds"))
    assert error["message"].startswith("Say where the tile goes."), error["message"]


async def test_a_game_named_by_id_is_refused_for_what_state_it_is_in(say, table_rows) -> None:
    """game=<id> of a game waiting, cancelled, running or over: a clear refusal, nothing changes.

    /board of a game still waiting used to fail inside the service (no state to draw), and a
    player of a waiting game was told they were not playing in it.
    """
    await say("alice", "/new rummikub @bob")  # #1 waits for /start
    await say("alice", "/new rummikub @bob")  # #2 is cancelled
    await say("alice", "/cancel game=2")
    await say("alice", "/new webfeud @bob seed=5")  # #3 runs
    await say("alice", "/new webfeud @bob seed=6")  # #4 is over
    await say("alice", "/resign game=4")
    expected = {
        "/board game=1": (
            "NOT_STARTED",
            "Game #1 has not started yet; start it with /start game=1.",
        ),
        "/rack game=1": ("NOT_STARTED", "Game #1 has not started yet"),
        "/hint game=1": ("NOT_STARTED", "Game #1 has not started yet"),
        "/moves game=1": ("NOT_STARTED", "Game #1 has not started yet"),
        "/board game=2": ("GAME_OVER", "Game #2 was cancelled; /games lists the others."),
        "/rack game=2": ("GAME_OVER", "Game #2 was cancelled"),
        "/undo game=2": ("GAME_OVER", "Game #2 was cancelled"),
        "/join game=2": ("GAME_OVER", "Game #2 was cancelled"),
        "/start game=2": ("GAME_OVER", "Game #2 was cancelled"),
        "/leave game=2": ("GAME_OVER", "Game #2 was cancelled"),
        "/cancel game=2": ("GAME_OVER", "Game #2 was cancelled"),
        "/join game=3": ("ALREADY_STARTED", "Game #3 has already started; /board game=3 shows it."),
        "/play 8H QI game=4": ("GAME_OVER", "Game #4 is over; start one with /new."),
        "/hint game=4": ("GAME_OVER", "Game #4 is over"),
        "/pass game=4": ("GAME_OVER", "Game #4 is over"),
    }
    before = table_rows()
    for line, (reason, shown) in expected.items():
        error = error_of(await say("alice", line))
        assert (error["reason"], error["message"][: len(shown)]) == (reason, shown), line
    assert table_rows() == before
    # A finished game's final board and rack may still be looked at by id.
    assert [r.kind for r in await say("alice", "/board game=4")] == ["board"]
    assert [r.kind for r in await say("alice", "/rack game=4")] == ["rack"]


async def test_history_lists_the_moves_as_the_chat_saw_them(say) -> None:
    """/history: numbered moves with their points, a swap without its tiles, to the chat."""
    await say("alice", "/new webfeud @bob seed=5")
    assert (await say("bob", "/history"))[0].text == "Game #1 (Webfeud): no moves yet."
    await say("alice", "/pass")
    tiles = events(await say("bob", "/rack"), "rack")[0]["tiles"]
    swapped = await say("bob", "/swap " + "".join(tiles[:3]))
    assert events(swapped, "move_played")
    await say("alice", "/resign")
    [history] = await say("carol", "/history game=1")  # a finished game, asked by an onlooker
    assert isinstance(history.to, ChatTarget)
    assert history.text == (
        "Game #1 (Webfeud), 3 moves:\n1. alice: pass\n2. bob: swapped 3 tiles\n3. alice: resigned"
    )
    assert [m["move"] for m in history.event["moves"]] == ["pass", "swapped 3 tiles", "resigned"]


@pytest.mark.parametrize(
    ("game", "move", "shown"),
    [
        ("webfeud", "/pass", "pass"),
        ("smartfeud", "/pass", "pass"),
        ("numfeud", "/pass", "pass"),
        ("rummikub", "/draw", "drew a tile"),
        ("nmbr9", "/place skip", ""),
    ],
)
async def test_history_lists_the_moves_of_every_game(say, game, move, shown) -> None:
    """Each game's public view carries its history, so /history lists its moves (and the bot's)."""
    started = await say("alice", f"/new {game} bot=easy seed=3")
    if not events(started, "game_started"):
        started = await say("alice", "/start")
    played = await say("alice", move)
    if game == "nmbr9":  # a skip is refused while the tile fits: place it where /moves says
        listed = events(await say("alice", "/moves"), "hint")[0]["moves"][0]
        played = await say("alice", f"/place {listed}")
    assert events(played, "move_played") or events(played, "round_played"), played
    [history] = await say("carol", "/history")
    lines = history.text.splitlines()
    # NMBR 9's bot places at once (round 2 too: said, not shown); the others alternate.
    moves = 3 if game == "nmbr9" else 2
    assert lines[0] == f"Game #1 ({GAMES[game].title}), {moves} moves:", history.text
    assert {line[3:].split(":")[0] for line in lines[1:]} == {"alice", "bot-easy"}
    assert any(line[3:].startswith(f"alice: {shown}") for line in lines[1:]), history.text


async def test_looking_after_the_game_ended_shows_the_last_finished_game(say) -> None:
    """/board, /history and /rack with no game going on show the last game (the player's)."""
    assert error_of(await say("alice", "/board"))["message"] == (
        "No game is going on here. Start one with /new <game>."
    )
    await say("alice", "/new webfeud @bob seed=5")
    await say("alice", "/resign")
    await say("alice", "/new rummikub @bob seed=5")
    await say("alice", "/start")
    await say("bob", "/resign")
    [board] = await say("carol", "/board")  # an onlooker: the chat's last game
    assert board.text == "Game #2 (Rummikub): alice 130, bob -130. The game is over (bob resigned)."
    [history] = await say("carol", "/history")
    assert history.text.startswith("Game #2 (Rummikub), ")
    [rack] = await say("bob", "/rack")
    assert (rack.kind, rack.event["game_id"]) == ("rack", 2)
    assert error_of(await say("carol", "/rack"))["message"] == (
        "You have no game in this chat. Start one with /new <game> @player."
    )
    assert [r.kind for r in await say("carol", "/history game=2")] == ["history"]


async def test_stats_of_another_player_tell_how_the_two_did_together(say) -> None:
    """/stats @alice asked by bob adds their head-to-head; carol, who never met her, sees none."""
    for loser in ("alice", "bob", "alice"):
        await say("alice", "/new webfeud @bob")
        await say(loser, "/resign")
    [stats] = await say("bob", "/stats @alice")
    assert stats.text.splitlines()[-1] == (
        "Against bob: 3 games, alice won 1, bob won 2; points 0 to 0."
    )
    assert stats.event["head_to_head"] == {"with": "bob", "games": 3, "wins": 1, "their_wins": 2}
    await say("carol", "/help")  # carol is known to the bot now
    [stranger] = await say("carol", "/stats @alice")
    assert "Against" not in stranger.text
    assert stranger.event["head_to_head"]["games"] == 0
    [own] = await say("alice", "/stats")
    assert "head_to_head" not in own.event


async def test_board_tells_the_time_left_for_the_turn(say, clock) -> None:
    """/board: the time the player to move has left (whole minutes); none without a timer."""
    await say("alice", "/new webfeud @bob seed=5")
    [board] = await say("carol", "/board")
    assert board.text.endswith("alice to move; 72 hours left.")
    assert board.event["time_left_seconds"] == 72 * 3600
    clock.advance(timedelta(minutes=90, seconds=30))
    [board] = await say("carol", "/board")
    assert board.text.endswith("alice to move; 70 hours 29 minutes left.")
    await say("alice", "/pass")  # bob's turn: his own full time
    [board] = await say("carol", "/board")
    assert board.text.endswith("bob to move; 72 hours left.")
    await say("bob", "/resign")
    [board] = await say("carol", "/board game=1")
    assert board.event["time_left_seconds"] is None
    await say("alice", "/new rummikub @bob seed=5")
    await say("alice", "/start")
    [board] = await say("carol", "/board")
    assert board.text.endswith("alice to move.")  # time=none: no clock
    assert board.event["time_left_seconds"] is None


async def test_game_over_names_the_best_move(say) -> None:
    """The end names the game's top-scoring move (the first of equals); none when all score 0."""
    await say("alice", "/new webfeud @bob seed=2")  # alice: U ? T A O ? T
    assert events(await say("alice", "/play 8H TAUT"), "move_played")[0]["score"] == 5
    await say("bob", "/pass")
    over = next(r for r in await say("bob", "/resign") if r.kind == "game_over")
    assert "\nBest move: alice, 8H TAUT (+5).\n" in over.text
    await say("alice", "/new webfeud @bob seed=5")
    over = next(r for r in await say("alice", "/resign") if r.kind == "game_over")
    assert "Best move" not in over.text


def test_only_the_notices_of_each_games_latest_turn_are_kept() -> None:
    """A notice whose turn passed within the same batch, or to the asker, is dropped."""
    from bot.service import _settle_turn_notices

    def notice(user_id: int, game_id: int, turn: int) -> Reply:
        target = UserTarget(user_id, "console", str(user_id), f"u{user_id}")
        event = {"type": "your_turn", "game_id": game_id, "turn": turn}
        return Reply(target, "Your turn", event=event)

    news = Reply(ChatTarget(1, "console", "room"), "#1 …", event={"type": "move_played"})
    batch = [news, notice(2, 1, 4), notice(3, 7, 9), news, notice(3, 1, 5), notice(1, 7, 10)]
    assert _settle_turn_notices(batch) == [news, news, notice(3, 1, 5), notice(1, 7, 10)]
    assert _settle_turn_notices(batch, asker=1) == [news, news, notice(3, 1, 5)]
    # One turn, several people waiting (an NMBR 9 round, nudged): all of them are told.
    round_ = [notice(2, 3, 6), notice(3, 3, 6)]
    assert _settle_turn_notices(round_, asker=1) == round_


async def test_nudge_reminds_whoever_the_game_waits_for_once_a_turn(say, db) -> None:
    """/nudge: a private "your turn" to the player to move, said in the chat; one a turn."""
    await say("alice", "/new webfeud @bob seed=5")
    assert error_of(await say("alice", "/nudge"))["message"] == (
        "Game #1 waits for you: play your move, nobody needs a nudge."
    )
    said, told = await say("bob", "/nudge")
    assert (said.kind, said.text) == ("nudged", "bob nudged alice in game #1; 72 hours left.")
    assert isinstance(told.to, UserTarget)
    assert (told.kind, told.to.name, told.text) == (
        "your_turn",
        "alice",
        "bob nudges you: your turn in game #1 (Webfeud); 72 hours left.",
    )
    assert error_of(await say("bob", "/nudge"))["reason"] == "ALREADY_NUDGED"
    assert error_of(await say("carol", "/nudge game=1"))["reason"] == "NOT_A_PLAYER"
    await say("alice", "/pass")  # a new turn: a new nudge
    assert [r.kind for r in await say("alice", "/nudge")] == ["nudged", "your_turn"]
    # A round of NMBR 9: everyone who has still to place gets it.
    await say("alice", "/new nmbr9 @bob @carol seed=3")
    await say("alice", "/start game=2")
    state = load_state(await db.games.get_game(2))
    from bot.ai import choose_move

    await say("alice", f"/place {choose_move(state, 0, 'easy', 1)} game=2")
    said, *told = await say("alice", "/nudge game=2")
    assert said.text == "alice nudged bob and carol in game #2; 24 hours left."
    assert sorted(r.to.name for r in told) == ["bob", "carol"]
    # A round waits for each player's tile, not for a turn.
    assert all(r.text.startswith("alice nudges you: your tile in game #2") for r in told)
    assert error_of(await say("bob", "/nudge game=2"))["message"] == (
        "carol got a nudge for this round of game #2 already; one a round."
    )
    # Each person is nudged once a round, whoever asks: bob's nudge does not use up carol's.
    await say("alice", "/new nmbr9 @bob @carol seed=4")
    await say("alice", "/start game=3")
    await say(
        "alice",
        f"/place {choose_move(load_state(await db.games.get_game(3)), 0, 'easy', 1)} game=3",
    )
    said, told = await say("bob", "/nudge game=3")  # bob, still to place, nudges carol
    assert (said.text, told.to.name) == ("bob nudged carol in game #3; 24 hours left.", "carol")
    said, told = await say("alice", "/nudge game=3")  # then alice nudges bob, not carol again
    assert (said.text, told.to.name) == ("alice nudged bob in game #3; 24 hours left.", "bob")
    assert error_of(await say("carol", "/nudge game=3"))["reason"] == "ALREADY_NUDGED"


async def test_game_over_tells_each_persons_place_on_the_chats_leaderboard(say, db) -> None:
    """After a game: each person's place on this chat's leaderboard of that game, and a move."""
    await say("alice", "/new webfeud @bob seed=1")
    [first] = [r for r in await say("bob", "/resign") if r.kind == "game_over"]
    assert "\nWebfeud leaderboard here: alice new at #1, bob new at #2.\n" in first.text
    await say("bob", "/new webfeud @carol seed=2")
    state = load_state(await db.games.get_game(2))
    played = await say("bob", f"/play {find_move(state, 0, 'hard')}")
    assert events(played, "move_played")[0]["score"] > 0  # bob's points lift him past alice
    [second] = [r for r in await say("carol", "/resign") if r.kind == "game_over"]
    assert "\nWebfeud leaderboard here: bob #2→#1, carol new at #3.\n" in second.text, second.text
    # Alone against a bot, a place that did not move says nothing (bob stays #1 after a loss).
    await say("bob", "/new webfeud bot=easy seed=3")
    [third] = [r for r in await say("bob", "/resign") if r.kind == "game_over"]
    assert "leaderboard here" not in third.text
    assert third.text.endswith("Play again with /rematch game=3.")
    # A first place on the leaderboard is news, even alone against a bot (dave ties carol, #3).
    await say("dave", "/new webfeud bot=easy seed=4")
    [fourth] = [r for r in await say("dave", "/resign") if r.kind == "game_over"]
    assert "\nWebfeud leaderboard here: dave new at #3.\n" in fourth.text, fourth.text


async def test_equal_records_share_a_place(say) -> None:
    """Two people with one win in two games and no points both stand #1.

    On the leaderboard and at the game's end: no place is made up by who was stored first.
    """
    await say("alice", "/new webfeud @bob seed=1")
    await say("bob", "/resign")
    await say("bob", "/new webfeud @alice seed=2")
    [over] = [r for r in await say("alice", "/resign") if r.kind == "game_over"]
    assert "\nWebfeud leaderboard here: bob #2→#1, alice #1.\n" in over.text, over.text
    [board] = await say("carol", "/leaderboard webfeud")
    assert [line.split(".")[0] for line in board.text.splitlines()[1:3]] == ["1", "1"]
    assert [row["rank"] for row in board.event["rows"]] == [1, 1]


async def test_a_pass_that_would_end_the_game_or_put_the_player_out_is_warned_of(say) -> None:
    """As Wordfeud does: the move's news and the player's turn notice say what a pass would do.

    Webfeud's third pass in a row (by anyone) ends the game; SmartFeud's third pass in a row of
    one player puts them out, and ends the game when one player would be left.
    """
    await say("alice", "/new webfeud @bob seed=3")
    replies = await say("alice", "/pass")
    assert replies[0].text == "#1 alice: pass — alice 0, bob 0. bob to move."
    replies = await say("bob", "/pass")
    assert replies[0].text == (
        "#1 bob: pass — alice 0, bob 0. alice to move; a pass now ends the game."
    )
    [notice] = [r for r in replies if r.kind == "your_turn"]
    assert notice.text == (
        "Your turn in game #1 (Webfeud), after bob: pass. Careful: a pass now ends the game."
    )
    assert "is over" in (await say("alice", "/pass"))[-1].text

    await say("alice", "/new smartfeud @bob @carol seed=3")
    await say("alice", "/start")
    for _ in range(2):
        for name in ("alice", "bob", "carol"):
            replies = await say(name, "/pass")
    assert replies[0].text.endswith("alice to move; a pass now puts alice out of the game.")
    [notice] = [r for r in replies if r.kind == "your_turn"]
    assert notice.text.endswith("Careful: a pass now puts you out of the game.")
    replies = await say("alice", "/pass")
    assert replies[0].text.endswith(
        "bob to move; a pass now puts bob out and ends the game, won by carol."
    )


async def test_the_game_over_message_explains_what_the_scores_do_not(say) -> None:
    """Three passes end a Webfeud game: the racks' deductions are told (the rules core's note)."""
    await say("alice", "/new webfeud @bob seed=3")
    await say("alice", "/pass")
    await say("bob", "/pass")
    over = (await say("alice", "/pass"))[-1]
    assert over.text.splitlines()[:2] == [
        "Game #1 is over (passes in a row). alice won — alice -10, bob -18.",
        "The tiles left on the racks were deducted: alice -10, bob -18.",
    ]


async def test_a_game_named_as_a_command_points_to_its_rules(say) -> None:
    """/help nmbr9 (or /nmbr9) is no command: the answer names /rules nmbr9 and /new nmbr9."""
    for line in ("/help nmbr9", "/nmbr9"):
        assert error_of(await say("alice", line))["message"] == (
            "NMBR 9 is a game, not a command: /rules nmbr9 explains it, /new nmbr9 starts one. "
            "/help all lists the commands."
        )


async def test_a_lobby_that_can_be_played_alone_says_so(say) -> None:
    """NMBR 9 alone: /start plays it alone; a game of two or more says the usual."""
    [created] = await say("alice", "/new nmbr9")
    assert created.text == (
        "Game #1 (NMBR 9) created with alice. Others can /join; /start game=1 starts it, alone "
        "if nobody has joined."
    )
    [created] = await say("bob", "/new rummikub @carol")
    assert created.text.endswith("Others can /join; start it with /start game=2.")


async def test_the_leaderboard_keeps_everyone_sharing_a_top_place_and_shows_the_asker(say) -> None:
    """Eleven players tied at #1 are all listed, not cut at ten by id.

    The asker, below the top places, gets their own row after "…" (the image: a dotted line).
    """
    for i in range(11):
        await say("alice", f"/new webfeud @p{i:02d}")
        await say("alice", "/resign")
    [board] = await say("alice", "/leaderboard webfeud")
    lines = board.text.splitlines()
    assert lines[1:12] == [f"1. p{i:02d}: 1 win in 1 game, 0 points" for i in range(11)]
    assert lines[12:14] == ["…", "12. alice: 0 wins in 11 games, 0 points"]
    assert len(board.event["rows"]) == 11
    assert board.event["asker_row"]["player"] == "alice"
    [board] = await say("p03", "/leaderboard webfeud")  # among the top: no extra row
    assert "…" not in board.text.splitlines()
    assert board.event["asker_row"] is None


async def test_invisible_characters_are_no_part_of_a_name(say) -> None:
    """Names keep only what shows: "@b\u200bob" is bob, not a second "bob".

    A zero-width space draws nothing; a right-to-left override turns the text after it around.
    """
    replies = await say("alice", "/new webfeud @b\u200bob")
    assert replies[0].text == "Game #1 (Webfeud) created with alice, bob."
    await say("bob", "/resign")
    stats = await say("\u202ecarol\u200d", "/stats")
    assert stats[0].text.startswith("carol:"), stats[0].text
    stats = await say("alice", "/stats @bob")
    assert stats[0].text.startswith("bob:"), stats[0].text


async def test_two_players_showing_the_same_name_are_told_apart(service) -> None:
    """Two Telegram users called Sam (no username) play as "Sam vs Sam-2", as bots are numbered."""
    group = ChatRef("telegram", "-100")
    one, two = UserRef("telegram", "1", "Sam"), UserRef("telegram", "2", "Sam")
    await service.handle(group, one, "/new webfeud")
    replies = await service.handle(group, two, "/join")
    started = next(r for r in replies if r.kind == "game_started")
    assert started.text.startswith("Game #1 (Webfeud) has started: Sam vs Sam-2. Sam to move.")


async def test_a_number_never_makes_the_name_of_another_player(service) -> None:
    """Sam, Sam and a real "Sam-2" play as "Sam vs Sam-3 vs Sam-2": three names, not two Sam-2s.

    Before: "Sam vs Sam-2 vs Sam-2" — the second Sam was numbered into the third player's name.
    """
    group = ChatRef("telegram", "-100")
    one, two = UserRef("telegram", "1", "Sam"), UserRef("telegram", "2", "Sam")
    three = UserRef("telegram", "3", "Sam-2")
    await service.handle(group, one, "/new smartfeud")
    await service.handle(group, two, "/join")
    await service.handle(group, three, "/join")
    replies = await service.handle(group, one, "/start")
    started = next(r for r in replies if r.kind == "game_started")
    assert "has started: Sam vs Sam-3 vs Sam-2. Sam to move." in started.text, started.text


async def test_stats_head_to_head_tells_apart_two_players_showing_one_name(service) -> None:
    """One Sam's /stats of the other: "Against Sam-2: …, Sam won 1, Sam-2 won 0", not Sam, Sam."""
    group = ChatRef("telegram", "-100")
    one, two = UserRef("telegram", "1", "Sam", handle="sam_one"), UserRef("telegram", "2", "Sam")
    await service.handle(group, one, "/new webfeud")
    await service.handle(group, two, "/join")
    await service.handle(group, two, "/resign game=1")  # Sam (seat 0) wins
    [stats] = await service.handle(group, two, "/stats @sam_one")
    assert stats.text.splitlines()[-1].startswith("Against Sam-2: 1 game, Sam won 1, Sam-2 won 0")


async def test_the_leaderboard_tells_apart_two_players_showing_one_name(db, clock, monkeypatch):
    """Two Sams with one record: the text says "Sam" and "Sam-2", as the image draws them, and
    the image marks the asker's row only (not the other Sam's, alike in name, place and record).
    """
    import renderers.cards as cards
    from renderers.toolkit import _unmark

    drawn: list[tuple[str, bool]] = []
    line = cards._leader_line

    def spy(image, row, shown, y, **kw):
        drawn.append((_unmark(shown), kw["mine"]))
        line(image, row, shown, y, **kw)

    monkeypatch.setattr(cards, "_leader_line", spy)
    service = Service(db, clock=clock, render=True)
    group = ChatRef("telegram", "-100")
    one, two = UserRef("telegram", "1", "Sam"), UserRef("telegram", "2", "Sam")
    for sam in (one, two):
        await service.handle(group, sam, "/new webfeud bot=easy")
        await service.handle(group, sam, "/resign")
    [board] = await service.handle(group, two, "/leaderboard webfeud")
    assert board.text.splitlines()[1:] == [
        "1. Sam: 0 wins in 1 game, 0 points",
        "1. Sam-2: 0 wins in 1 game, 0 points",
    ]
    assert [row["player"] for row in board.event["rows"]] == ["Sam", "Sam-2"]
    assert drawn == [("Sam", False), ("Sam-2", True)]


async def test_a_new_game_with_too_many_players_is_refused_before_anyone_is_made(say, db) -> None:
    """A refused /new changes nothing: not even the console's hot-seat players it named."""
    refusal = error_of(await say("alice", "/new webfeud @bob @carol"))
    assert refusal["reason"] == "BAD_PLAYER_COUNT"
    assert await db.users.get_user_by_platform_id("console", "bob") is None
    assert await db.users.get_user_by_platform_id("console", "carol") is None


async def test_a_game_starts_with_how_a_move_is_written(say) -> None:
    """Newcomers are told at the deal how a move is written; the rack shows one that fits."""
    replies = await say("alice", "/new webfeud @bob")
    [started] = [r for r in replies if r.kind == "game_started"]
    assert started.text.splitlines()[1] == (
        "Play a word with /play 8H QUIZ: from square 8H (row 8, column H) across; H8 QUIZ goes "
        "down. The first word covers H8. /rules webfeud has the rest."
    )
    replies = await say("carol", "/new rummikub bot=easy")
    replies = await say("carol", "/start")
    [started] = [r for r in replies if r.kind == "game_started"]
    assert "(K black, B blue, Y yellow, R red, J joker)" in started.text
    replies = await say("dave", "/new nmbr9")
    replies = await say("dave", "/start")
    [started] = [r for r in replies if r.kind == "game_started"]
    assert started.text.splitlines()[1] == (
        "Each round, place the card's tile: /place C4 90 turns it 90° clockwise with the top-left "
        "square of its box on C4; /moves lists placements that fit. /rules nmbr9 has the rest."
    )
    # The abstract notation comes with a placement to copy, one that fits this display.
    [rack] = [r for r in replies if r.kind == "rack"]
    example = rack.text.split("e.g. /place ", 1)[1].split(";", 1)[0]
    placed = await say("dave", f"/place {example}")
    assert placed[0].kind != "error", placed[0].text


async def test_a_crowd_sharing_the_last_top_place_is_cut_short(say) -> None:
    """Thirty players tied at #1: 25 rows, then how many more share those places."""
    for i in range(30):
        await say("alice", f"/new webfeud @q{i:02d}")
        await say("alice", "/resign")
    [board] = await say("q00", "/leaderboard webfeud")
    lines = board.text.splitlines()
    assert len(board.event["rows"]) == 25
    assert lines[26] == "… and 5 more sharing those places"
    assert lines[27:] == []  # q00 is among the rows shown
    [board] = await say("alice", "/leaderboard webfeud")
    assert board.text.splitlines()[26:] == [
        "… and 5 more sharing those places",
        "…",
        "31. alice: 0 wins in 30 games, 0 points",
    ]


async def test_the_leaderboard_image_counts_the_crowd_it_cuts_as_the_text_does(
    say, db, clock, monkeypatch
) -> None:
    """The picture of a cut crowd says "… and 5 more sharing those places" too, then the
    asker's own row below; the same rows as the text, the asker's alone marked.
    """
    import renderers.cards as cards
    from renderers.toolkit import _unmark

    drawn: list[str] = []
    marked: list[str] = []
    real, line = cards.text, cards._leader_line

    def spy_text(draw, xy, content, **kw):
        drawn.append(_unmark(content))
        real(draw, xy, content, **kw)

    def spy_line(image, row, shown, y, **kw):
        if kw["mine"]:
            marked.append(_unmark(shown))
        line(image, row, shown, y, **kw)

    monkeypatch.setattr(cards, "text", spy_text)
    monkeypatch.setattr(cards, "_leader_line", spy_line)
    for i in range(30):
        await say("alice", f"/new webfeud @q{i:02d}")
        await say("alice", "/resign")
    service = Service(db, clock=clock, render=True)
    [board] = await service.handle(
        ChatRef("console", "room"), UserRef("console", "alice", "alice"), "/leaderboard webfeud"
    )
    assert board.images
    names = [line.split(".", 1)[1].split(":")[0].strip() for line in board.text.splitlines()[1:26]]
    more = "… and 5 more sharing those places"
    assert drawn.index(names[-1]) < drawn.index(more) < drawn.index("alice")
    assert marked == ["alice"]


async def test_a_game_started_beside_others_says_how_bare_moves_are_read(say) -> None:
    """/start of a lobby beside a running game of the starter's says it, as /new would."""
    await say("alice", "/new webfeud @bob seed=1")
    await say("alice", "/new smartfeud @erin seed=1")
    replies = await say("alice", "/start game=2")
    [started] = [r for r in replies if r.kind == "game_started"]
    # Everybody reads the news: it names who has other games, not "you".
    assert started.text.endswith(
        "alice also plays #1 here: a bare move goes to the game waiting for its player; "
        "add game=<id> when several are."
    )


async def test_a_picture_that_cannot_be_drawn_leaves_the_news_as_text(
    db: Database, clock: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A picture that cannot be drawn is logged; the news of the stored move goes out as text.

    The board is drawn after the move is stored: a failure there (a font, a bug) must not turn
    into an apology for a move that was made, nor lose a timeout's news.
    """
    import renderers

    def broken(*args: Any, **kwargs: Any) -> bytes:  # the fault injected: drawing fails
        raise OSError("cannot open resource")

    monkeypatch.setattr(renderers, "board_png", broken)
    service = Service(db, clock=clock, render=True)
    room = ChatRef("console", "room")
    await service.handle(room, UserRef("console", "bob", "bob"), "/help")
    await service.handle(room, UserRef("console", "alice", "alice"), "/new webfeud @bob seed=3")
    state = await stored(db, 1)
    mover = ("alice", "bob")[state.to_move]
    replies = await service.handle(room, UserRef("console", mover, mover), "/pass")
    [news] = [r for r in replies if r.kind == "move_played"]
    assert news.images == ()
    assert f"#1 {mover}: pass" in news.text
    assert (await stored(db, 1)).turn == state.turn + 1
    assert "drawing the board of a webfeud game failed" in caplog.text


async def test_a_bare_command_means_the_one_game_that_takes_it(say, db) -> None:
    """Beside NMBR 9, /swap and /try mean the word game; /place and /moves the NMBR 9 game."""
    await say("alice", "/new nmbr9 @bob seed=8")
    await say("alice", "/start")
    await say("alice", "/new webfeud @carol seed=2")  # #2 starts at once: two seats
    [tried] = await say("alice", "/try 8H AB")
    assert tried.event.get("reason") != "WHICH_GAME", tried.text
    [hint] = await say("alice", "/moves")
    assert hint.event["game_id"] == 1, hint.text
    placement = find_move(load_state(await db.games.get_game(1)), 0)
    placed = await say("alice", f"/place {placement}")
    assert placed[0].event.get("game_id") == 1, placed[0].text
    rack = load_state(await db.games.get_game(2)).rack(0)
    swapped = await say("alice", f"/swap {rack[0]}")
    assert events(swapped, "move_played")[0]["game_id"] == 2, swapped[0].text
    # A command every game has still asks which.
    assert error_of(await say("alice", "/rack"))["reason"] == "WHICH_GAME"


async def test_games_left_and_lobbies_are_not_offered_to_bare_commands(say) -> None:
    """A game the asker resigned from is not "theirs" any more; /start and /join mean lobbies."""
    await say("alice", "/new smartfeud @bob @carol seed=3")
    await say("alice", "/start")  # #1
    await say("alice", "/resign")  # the others play on
    [news, *_] = await say("alice", "/new webfeud bot=easy seed=1")  # #2 starts at once
    assert "other games" not in news.text, news.text
    passed = await say("alice", "/pass")
    assert events(passed, "move_played")[0]["game_id"] == 2
    await say("dave", "/new webfeud")  # #3, a lobby
    await say("dave", "/new smartfeud")  # #4, a lobby
    assert error_of(await say("erin", "/start"))["message"] == (
        "This chat has several games (#3, #4); add game=<id>, e.g. game=3."
    )
    assert error_of(await say("erin", "/join"))["message"] == (
        "This chat has several games to join (#3, #4); add game=<id>, e.g. game=3."
    )
    assert error_of(await say("dave", "/join"))["message"] == (
        "You are already in the games waiting here, #3 and #4; /start game=<id> begins one once "
        "it has its players."
    )
    # A lobby is left, not resigned from; a running game is resigned from, not left.
    assert error_of(await say("dave", "/resign game=4"))["message"] == (
        "Game #4 has not started yet; to leave it, /leave game=4."
    )
    await say("erin", "/join game=4")
    assert error_of(await say("erin", "/resign"))["message"] == (  # bare: her one lobby
        "Game #4 has not started yet; to leave it, /leave game=4."
    )
    assert events(await say("erin", "/join"), "game_joined")[0]["game_id"] == 3  # not #4 again
    assert error_of(await say("bob", "/leave game=1"))["message"] == (
        "Game #1 has started; to give up, /resign game=1."
    )


async def test_a_move_after_the_end_is_told_the_game_is_over(say) -> None:
    """Right after a game ended, a move says so instead of "You have no game in this chat"."""
    await say("alice", "/new webfeud @bob seed=1")
    await say("bob", "/resign")
    assert error_of(await say("alice", "/pass"))["message"] == (
        "Your game #1 here is over (/board game=1 shows how it ended); play it again with "
        "/rematch game=1, or start another with /new <game> @player."
    )
    # One against a bot suggests a bot again (before: "@player", whom a console has none of).
    await say("carol", "/new webfeud bot=easy seed=1")
    await say("carol", "/resign")
    assert error_of(await say("carol", "/pass"))["message"] == (
        "Your game #2 here is over (/board game=2 shows how it ended); play it again with "
        "/rematch game=2, or start another with /new <game> bot=easy."
    )


async def test_a_look_at_lobbies_names_ones_own_first(say) -> None:
    """/board before any deal: the asker's own lobby (to start), else the chat's (to join)."""
    await say("a", "/new smartfeud bot=easy")  # #1
    await say("b", "/new smartfeud bot=easy")  # #2
    assert error_of(await say("b", "/board"))["message"] == (
        "Game #2 has not started yet; start it with /start game=2."
    )
    assert error_of(await say("c", "/board"))["message"] == (
        "The games here have not started yet (#1, #2); join one with /join game=<id>."
    )
    await say("a", "/leave")  # #1 is cancelled: one lobby left, not c's
    assert error_of(await say("c", "/board"))["message"] == (
        "Game #2 has not started yet; /join game=2 takes a seat."
    )
    # Alone in a lobby that needs a second player: "start it" would only be refused.
    await say("d", "/new smartfeud", chat="other")  # #3
    for line in ("/board", "/board game=3", "/rack"):
        assert error_of(await say("d", line, chat="other"))["message"] == (
            "Game #3 has not started yet; it needs 1 more player, who can /join game=3."
        ), line


def test_chat_cache_keeps_one_entry_per_chat_under_both_keys() -> None:
    """The service's chat cache finds a chat by platform id and by database id, never a stale one.

    A group that moved (a Telegram supergroup upgrade) is found under its new id only, and a
    new chat later seen under the old id does not stand in for the moved one.
    """
    cache = _ChatCache()
    cache.put(Chat(1, "telegram", "-4001", "Feud club"))
    moved = Chat(1, "telegram", "-1004001", "Feud club")
    cache.put(moved)
    assert cache.get("telegram", "-4001") is None
    assert cache.get("telegram", "-1004001") is cache.by_id(1) is moved
    other = Chat(2, "telegram", "-4001", "New group")
    cache.put(other)
    assert cache.by_id(1) is moved
    assert cache.by_id(2) is other
    cache.drop("telegram", "-1004001")
    assert cache.by_id(1) is None
    assert cache.get("telegram", "-4001") is other


async def test_a_long_running_service_keeps_no_lock_or_seats_of_ended_games(
    db, clock, monkeypatch
) -> None:
    """Locks live while commands use them; seats are kept for running games, a bounded few."""
    import gc

    import bot.service

    monkeypatch.setattr(bot.service, "SEATS_CACHED", 3)
    service = Service(db, clock=clock, render=False, allow_seed=True)
    room, alice = ChatRef("console", "room"), UserRef("console", "alice", "alice")
    for n in range(1, 6):
        await service.handle(room, alice, f"/new webfeud bot=easy seed={n}")
        await service.handle(room, alice, f"/resign game={n}")
    gc.collect()
    assert len(service._locks) == 0
    assert service._seats == {}  # every game ended: none kept
    for n in range(6, 11):
        await service.handle(room, alice, f"/new webfeud bot=easy seed={n}")
        await service.handle(room, alice, f"/board game={n}")
    assert len(service._seats) == 3  # five running, three kept
    assert 10 in service._seats  # the one read last

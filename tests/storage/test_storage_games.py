import asyncio
import sqlite3
from datetime import timedelta

import pytest

from storage import Database, GameRow, NewDeadline, NewResult, Seat

SNAPSHOT_1 = '{"v": 1, "turn": 1,  "board": "..."}'  # odd spacing: stored byte-for-byte
SNAPSHOT_2 = '{"v":1,"turn":2}'


async def move(db, game, seat_no=0, *, snapshot=SNAPSHOT_1, deadlines=(), version=None, now=None):
    """Commit a plain move of `game` (at its loaded version unless told otherwise)."""
    return await db.games.commit_move(
        game.id,
        game.version if version is None else version,
        seat_no,
        f"H8 WORD{seat_no}",
        {"tiles": ["W", "O"]},
        snapshot,
        game.turn + 1,
        "active",
        deadlines,
        now=now,
    )


async def test_a_game_keeps_the_topic_it_was_created_in(db, make, t0):
    """`thread_id` (a forum topic) is stored and read back; the game is still the chat's."""
    chat = await make.chat()
    alice = await make.user("Alice")
    topical = await db.games.create_game(
        chat.id, "webfeud", {}, alice.id, [(alice.id, None)], now=t0, thread_id=42
    )
    plain = await db.games.create_game(chat.id, "webfeud", {}, alice.id, [], now=t0)
    assert topical.thread_id == 42
    assert (await db.games.get_game(topical.id)).thread_id == 42
    assert (await db.games.get_game(plain.id)).thread_id is None
    listed = await db.games.list_games(chat_id=chat.id)
    assert {game.id: game.thread_id for game in listed} == {topical.id: 42, plain.id: None}


async def test_create_game_round_trips(db, make, t0):
    """A created game is in the lobby at version 0 with its options and seats."""
    chat = await make.chat()
    alice = await make.user("Alice")
    game = await db.games.create_game(
        chat.id,
        "webfeud",
        {"lang": "nl", "timer": 3600},
        alice.id,
        [(alice.id, None), (None, "hard")],
        now=t0,
    )
    assert game == GameRow(
        id=game.id,
        chat_id=chat.id,
        game_key="webfeud",
        options={"lang": "nl", "timer": 3600},
        status="lobby",
        snapshot=None,
        version=0,
        turn=0,
        creator_user_id=alice.id,
        created_at=t0,
        updated_at=t0,
        finished_at=None,
        thread_id=None,
    )
    assert await db.games.get_game(game.id) == game
    assert await db.games.seats(game.id) == [
        Seat(game.id, 0, alice.id, None),
        Seat(game.id, 1, None, "hard"),
    ]
    assert await db.games.get_game(999) is None


async def test_seat_needs_exactly_one_occupant(db, make):
    """A seat is a user or a bot: both or neither is refused before anything is written."""
    chat = await make.chat()
    alice = await make.user("Alice")
    with pytest.raises(ValueError, match="exactly one"):
        await db.games.create_game(chat.id, "webfeud", {}, None, [(alice.id, "easy")])
    with pytest.raises(ValueError, match="exactly one"):
        await db.games.create_game(chat.id, "webfeud", {}, None, [(None, None)])
    with pytest.raises(ValueError, match="unknown bot level"):
        await db.games.create_game(chat.id, "webfeud", {}, None, [(None, "godlike")])
    assert await db.games.list_games(chat_id=chat.id) == []


async def test_add_and_remove_seats_in_lobby(db, make):
    """Seats join at the end, leave with renumbering, and each change bumps the version."""
    chat = await make.chat()
    alice, bob, cat = await make.user("Alice"), await make.user("Bob"), await make.user("Cat")
    game = await make.lobby(chat, [alice])
    assert await db.games.add_seat(game.id, bob.id) == Seat(game.id, 1, bob.id, None)
    assert await db.games.add_seat(game.id, bot_level="easy") == Seat(game.id, 2, None, "easy")
    assert await db.games.add_seat(game.id, cat.id) == Seat(game.id, 3, cat.id, None)
    assert await db.games.remove_seat(game.id, 1)
    assert await db.games.seats(game.id) == [
        Seat(game.id, 0, alice.id, None),
        Seat(game.id, 1, None, "easy"),
        Seat(game.id, 2, cat.id, None),
    ]
    assert (await db.games.get_game(game.id)).version == 4
    assert not await db.games.remove_seat(game.id, 7)
    assert (await db.games.get_game(game.id)).version == 4


async def test_add_seat_twice_for_same_user_is_refused(db, make):
    """A user who already sits in the game cannot take a second seat (double click)."""
    chat = await make.chat()
    alice = await make.user("Alice")
    game = await make.lobby(chat, [alice])
    assert await db.games.add_seat(game.id, alice.id) is None
    assert len(await db.games.seats(game.id)) == 1
    assert (await db.games.get_game(game.id)).version == game.version


async def test_seat_changes_honour_expected_version(db, make):
    """With an expected version, a stale join or leave changes nothing."""
    chat = await make.chat()
    alice, bob = await make.user("Alice"), await make.user("Bob")
    game = await make.lobby(chat, [alice])
    assert await db.games.add_seat(game.id, bob.id, expected_version=game.version + 1) is None
    assert await db.games.add_seat(game.id, bob.id, expected_version=game.version) is not None
    assert not await db.games.remove_seat(game.id, 1, expected_version=game.version)
    assert len(await db.games.seats(game.id)) == 2


async def test_seats_cannot_change_after_start(db, make):
    """Joining or leaving an active game is refused."""
    chat = await make.chat()
    alice, bob = await make.user("Alice"), await make.user("Bob")
    game = await make.active(chat, [alice, "medium"])
    assert await db.games.add_seat(game.id, bob.id) is None
    assert not await db.games.remove_seat(game.id, 1)
    assert len(await db.games.seats(game.id)) == 2


async def test_start_game_activates_with_snapshot_and_deadlines(db, make, t0):
    """Starting stores the first snapshot, turn and deadlines and bumps the version."""
    chat = await make.chat()
    alice = await make.user("Alice")
    game = await make.lobby(chat, [alice, "easy"])
    timeout = NewDeadline("timeout", t0 + timedelta(days=1), 0, {"seat": 0})
    assert await db.games.start_game(game.id, game.version, SNAPSHOT_1, 0, [timeout], now=t0)
    started = await db.games.get_game(game.id)
    assert (started.status, started.snapshot, started.version) == ("active", SNAPSHOT_1, 1)
    [deadline] = await db.deadlines.pending_deadlines(game.id)
    assert (deadline.kind, deadline.due_at, deadline.turn, deadline.payload) == (
        "timeout",
        t0 + timedelta(days=1),
        0,
        {"seat": 0},
    )
    assert not await db.games.start_game(game.id, game.version, SNAPSHOT_2, 0)
    assert not await db.games.start_game(game.id, started.version, SNAPSHOT_2, 0)
    assert (await db.games.get_game(game.id)).snapshot == SNAPSHOT_1


async def test_commit_move_records_everything_in_one_go(db, make, t0):
    """A move updates the snapshot, bumps the version, logs the move and replaces deadlines."""
    chat = await make.chat()
    alice, bob = await make.user("Alice"), await make.user("Bob")
    old = NewDeadline("timeout", t0 + timedelta(hours=1), 0)
    game = await make.active(chat, [alice, bob], deadlines=[old])
    later = t0 + timedelta(minutes=5)
    new = [
        NewDeadline("timeout", later + timedelta(hours=24), 1),
        NewDeadline("reminder", later + timedelta(hours=12), 1, {"to": bob.id}),
    ]
    assert await move(db, game, 0, deadlines=new, now=later)
    after = await db.games.get_game(game.id)
    assert (after.snapshot, after.version, after.turn, after.status) == (
        SNAPSHOT_1,
        game.version + 1,
        1,
        "active",
    )
    assert after.updated_at == later
    assert after.finished_at is None
    [logged] = await db.games.moves(game.id)
    assert (logged.seq, logged.seat_no, logged.notation, logged.payload, logged.created_at) == (
        1,
        0,
        "H8 WORD0",
        {"tiles": ["W", "O"]},
        later,
    )
    pending = await db.deadlines.pending_deadlines(game.id)
    assert [(d.kind, d.turn) for d in pending] == [("reminder", 1), ("timeout", 1)]


async def test_moves_come_back_in_seq_order(db, make):
    """The log numbers moves 1, 2, 3 … per game and returns them in that order."""
    chat = await make.chat()
    alice, bob = await make.user("Alice"), await make.user("Bob")
    game = await make.active(chat, [alice, bob])
    other = await make.active(chat, [alice, "easy"])
    assert await move(db, other, 0)
    for turn in range(5):
        game = await db.games.get_game(game.id)
        assert await move(db, game, turn % 2)
    log = await db.games.moves(game.id)
    assert [(m.seq, m.seat_no) for m in log] == [(1, 0), (2, 1), (3, 0), (4, 1), (5, 0)]
    assert [m.seq for m in await db.games.moves(other.id)] == [1]
    # One seat's moves, and the newest few only (still in order).
    assert [m.seq for m in await db.games.moves(game.id, seat_no=1)] == [2, 4]
    assert [m.seq for m in await db.games.moves(game.id, last=2)] == [4, 5]
    assert [m.seq for m in await db.games.moves(game.id, seat_no=0, last=1)] == [5]


async def test_stale_commit_changes_nothing(db, make, dump_db, t0):
    """A commit with an old version returns False and leaves every byte of the file's data."""
    chat = await make.chat()
    alice, bob = await make.user("Alice"), await make.user("Bob")
    game = await make.active(chat, [alice, bob], deadlines=[NewDeadline("timeout", t0, 0)])
    assert await move(db, game, 0, deadlines=[NewDeadline("timeout", t0 + timedelta(1), 1)])
    before = dump_db()
    stale = await move(db, game, 1, snapshot=SNAPSHOT_2, deadlines=[NewDeadline("reminder", t0, 1)])
    assert stale is False
    assert dump_db() == before
    current = await db.games.get_game(game.id)
    assert current.snapshot == SNAPSHOT_1
    assert len(await db.games.moves(game.id)) == 1
    assert [d.kind for d in await db.deadlines.pending_deadlines(game.id)] == ["timeout"]


async def test_concurrent_double_submission_applies_once(db, make):
    """Two coroutines committing at the same expected version: exactly one wins."""
    chat = await make.chat()
    alice, bob = await make.user("Alice"), await make.user("Bob")
    game = await make.active(chat, [alice, bob])
    outcomes = await asyncio.gather(*(move(db, game, 0) for _ in range(2)))
    assert sorted(outcomes) == [False, True]
    assert len(await db.games.moves(game.id)) == 1
    assert (await db.games.get_game(game.id)).version == game.version + 1


async def test_double_submission_from_two_connections_applies_once(db, make, db_path):
    """Two processes (two connections to the file) racing on one version: exactly one wins."""
    chat = await make.chat()
    alice, bob = await make.user("Alice"), await make.user("Bob")
    game = await make.active(chat, [alice, bob])
    async with await Database.open(db_path) as other:
        outcomes = await asyncio.gather(*(move(d, game, 0) for d in (db, other, db, other)))
    assert sorted(outcomes) == [False, False, False, True]
    assert len(await db.games.moves(game.id)) == 1


async def test_move_on_finished_game_is_refused(db, make):
    """Once finished, a game takes no more moves even at its current version."""
    chat = await make.chat()
    alice, bob = await make.user("Alice"), await make.user("Bob")
    game = await make.finished(chat, [(alice, 10), (bob, 5)])
    assert not await move(db, game, 0)
    assert len(await db.games.moves(game.id)) == 1


async def test_finishing_move_writes_results(db, make, t0):
    """The last move stores one result per seat, copies game facts and sets finished_at."""
    chat = await make.chat()
    alice = await make.user("Alice")
    when = t0 + timedelta(hours=2)
    game = await make.finished(chat, [(alice, 310), ("hard", 290)], when=when)
    assert (game.status, game.finished_at) == ("finished", when)
    results = await db.results.game_results(game.id)
    assert [(r.seat_no, r.user_id, r.score, r.rank, r.won) for r in results] == [
        (0, alice.id, 310, 1, True),
        (1, None, 290, 2, False),
    ]
    assert {(r.game_key, r.chat_id, r.players, r.finished_at) for r in results} == {
        ("webfeud", chat.id, 2, when)
    }


async def test_finishing_move_clears_deadlines(db, make, t0):
    """Finishing a game cancels its pending deadlines."""
    chat = await make.chat()
    alice = await make.user("Alice")
    game = await make.active(chat, [alice], deadlines=[NewDeadline("timeout", t0, 0)])
    results = [NewResult(0, 5, 1, True)]
    assert await db.games.commit_move(
        game.id, game.version, 0, "end", {}, SNAPSHOT_2, 1, "finished", results=results
    )
    assert await db.deadlines.pending_deadlines(game.id) == []


async def test_results_must_cover_every_seat(db, make, dump_db):
    """Results naming a wrong set of seats raise and roll the whole move back."""
    chat = await make.chat()
    alice, bob = await make.user("Alice"), await make.user("Bob")
    game = await make.active(chat, [alice, bob])
    before = dump_db()
    results = [NewResult(0, 5, 1, True), NewResult(5, 3, 2, False)]
    with pytest.raises(ValueError, match="each of the game's 2 seats"):
        await db.games.commit_move(
            game.id, game.version, 0, "end", {}, SNAPSHOT_2, 1, "finished", results=results
        )
    assert dump_db() == before


async def test_results_only_with_finished_status(db, make):
    """Results with a move that does not finish the game, or a move back to lobby, raise."""
    chat = await make.chat()
    alice = await make.user("Alice")
    game = await make.active(chat, [alice])
    results = [NewResult(0, 1, 1, True)]
    with pytest.raises(ValueError, match="finishes the game"):
        await db.games.commit_move(
            game.id, game.version, 0, "x", {}, SNAPSHOT_2, 1, "active", results=results
        )
    with pytest.raises(ValueError, match="lobby"):
        await db.games.commit_move(game.id, game.version, 0, "x", {}, SNAPSHOT_2, 1, "lobby")


async def test_move_for_a_missing_seat_is_refused(db, make, dump_db):
    """The move log's seat must exist (foreign key), and the failed move leaves no trace."""
    chat = await make.chat()
    alice = await make.user("Alice")
    game = await make.active(chat, [alice])
    before = dump_db()
    with pytest.raises(sqlite3.IntegrityError):
        await move(db, game, 3)
    assert dump_db() == before


async def test_moves_cannot_be_updated_or_deleted(db, make, db_path):
    """The move log is append-only: triggers refuse UPDATE and DELETE on any connection."""
    chat = await make.chat()
    alice = await make.user("Alice")
    game = await make.active(chat, [alice])
    assert await move(db, game, 0)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        async with db.transaction() as conn:
            await conn.execute("UPDATE moves SET notation = 'forged'")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        async with db.transaction() as conn:
            await conn.execute("DELETE FROM moves")
    with sqlite3.connect(db_path) as raw, pytest.raises(sqlite3.IntegrityError, match="append"):
        raw.execute("DELETE FROM moves WHERE game_id = ?", (game.id,))
    assert [m.notation for m in await db.games.moves(game.id)] == ["H8 WORD0"]


async def test_cancel_game(db, make, t0):
    """Cancelling ends a lobby or active game, clears its deadlines, and happens once."""
    chat = await make.chat()
    alice = await make.user("Alice")
    lobby = await make.lobby(chat, [alice])
    game = await make.active(chat, [alice], deadlines=[NewDeadline("timeout", t0, 0)])
    assert await db.games.cancel_game(lobby.id, lobby.version, now=t0)
    assert not await db.games.cancel_game(game.id, game.version + 1)
    assert await db.games.cancel_game(game.id, game.version, now=t0)
    assert not await db.games.cancel_game(game.id, game.version + 1)
    cancelled = await db.games.get_game(game.id)
    assert (cancelled.status, cancelled.finished_at) == ("cancelled", t0)
    assert (await db.games.get_game(lobby.id)).status == "cancelled"
    assert await db.deadlines.pending_deadlines(game.id) == []
    assert await db.results.game_results(game.id) == []


async def test_list_games_filters(db, make, t0):
    """Games list by chat, by seated user and by status, most recently updated first."""
    room, other_room = await make.chat(chat_id="room"), await make.chat(chat_id="other")
    alice, bob = await make.user("Alice"), await make.user("Bob")
    lobby = await make.lobby(room, [alice], now=t0)
    active = await make.active(room, [alice, bob], now=t0 + timedelta(minutes=1))
    elsewhere = await make.active(other_room, [bob], now=t0 + timedelta(minutes=2))
    done = await make.finished(room, [(bob, 1)], when=t0 + timedelta(minutes=3))

    def ids(games):
        return [g.id for g in games]

    assert ids(await db.games.list_games(chat_id=room.id)) == [active.id, lobby.id]
    assert ids(await db.games.list_games(user_id=bob.id)) == [elsewhere.id, active.id]
    assert ids(await db.games.list_games(chat_id=room.id, user_id=bob.id)) == [active.id]
    assert ids(await db.games.list_games(statuses=["finished"])) == [done.id]
    assert ids(await db.games.list_games(limit=1)) == [elsewhere.id]
    assert await db.games.list_games(statuses=[]) == []


async def test_data_survives_reopening(db_path, t0):
    """Everything written is there after closing the file and opening it again."""
    async with await Database.open(db_path) as db:
        chat = await db.chats.upsert_chat("console", "room", "Room")
        alice = await db.users.upsert_user("console", "a", "Alice")
        game = await db.games.create_game(
            chat.id, "numfeud", {"n": 1}, alice.id, [(alice.id, None)]
        )
        await db.games.start_game(game.id, 0, SNAPSHOT_1, 0)
        game = await db.games.get_game(game.id)
        await move(db, game, 0, deadlines=[NewDeadline("timeout", t0, 1)])
        saved = (await db.games.get_game(game.id), await db.games.moves(game.id))
    async with await Database.open(db_path) as db:
        assert (await db.games.get_game(game.id), await db.games.moves(game.id)) == saved
        assert await db.users.get_user(alice.id) == alice
        assert await db.chats.get_chat(chat.id) == chat
        assert [d.kind for d in await db.deadlines.due_deadlines(t0)] == ["timeout"]


async def test_snapshot_must_be_json(db, make):
    """A snapshot that is not valid JSON is refused by the schema and nothing changes."""
    chat = await make.chat()
    alice = await make.user("Alice")
    game = await make.lobby(chat, [alice])
    with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
        await db.games.start_game(game.id, game.version, "{not json", 0)
    assert (await db.games.get_game(game.id)).status == "lobby"

import asyncio
import tempfile
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage import Database, LeaderboardRow, NewResult, SoloRecord
from storage.models import HeadToHead


async def test_leaderboard_per_chat_game_and_overall(db, make):
    """Games, wins and points aggregate per chat, per game and overall; bots never rank."""
    room, other = await make.chat(chat_id="room"), await make.chat(chat_id="other")
    alice, bob = await make.user("Alice"), await make.user("Bob")
    await make.finished(room, [(alice, 300), (bob, 250)])
    await make.finished(room, [(alice, 200), (bob, 280)])
    await make.finished(room, [(alice, 100), ("hard", 400)], game_key="smartfeud")
    await make.finished(other, [(bob, 50), (alice, 40)])

    overall = await db.results.leaderboard()
    assert overall == [
        LeaderboardRow(bob.id, "Bob", games=3, wins=2, points=580, best=280),
        LeaderboardRow(alice.id, "Alice", games=4, wins=1, points=640, best=300),
    ]
    in_room = await db.results.leaderboard(chat_id=room.id)
    assert [(r.display_name, r.games, r.wins, r.points) for r in in_room] == [
        ("Alice", 3, 1, 600),
        ("Bob", 2, 1, 530),
    ]
    webfeud_in_room = await db.results.leaderboard(chat_id=room.id, game_key="webfeud")
    assert [(r.display_name, r.games, r.wins, r.points) for r in webfeud_in_room] == [
        ("Bob", 2, 1, 530),
        ("Alice", 2, 1, 500),
    ]
    assert await db.results.leaderboard(game_key="nmbr9") == []
    assert len(await db.results.leaderboard(limit=1)) == 1


async def test_leaderboard_orders_by_wins_then_points(db, make):
    """More wins rank first; equal wins are broken by points, then by user id."""
    room = await make.chat()
    a, b, c, d = [await make.user(name) for name in "ABCD"]
    await make.finished(room, [(a, 10), (b, 5)])
    await make.finished(room, [(b, 10), (a, 5)])
    await make.finished(room, [(c, 100), (a, 0)])
    await make.finished(room, [(c, 100), (b, 3)])
    await make.finished(room, [(d, 1), (a, 0)])
    board = await db.results.leaderboard()
    # C: 2 wins; B: 1 win, 18 points; A: 1 win, 15 points, beats D (1 win, 1 point).
    assert [(row.display_name, row.wins, row.points) for row in board] == [
        ("C", 2, 200),
        ("B", 1, 18),
        ("A", 1, 15),
        ("D", 1, 1),
    ]


async def test_leaderboard_ties_break_by_user_id(db, make):
    """Users with equal wins and points are listed by id, so the order is stable."""
    room = await make.chat()
    first, second = await make.user("First"), await make.user("Second")
    await make.finished(room, [(second, 7), ("easy", 3)])
    await make.finished(room, [(first, 7), ("easy", 3)])
    assert [row.user_id for row in await db.results.leaderboard()] == [first.id, second.id]


async def test_user_stats(db, make):
    """A user's stats cover all games or one kind; zeros before any game; None if unknown.

    A game played alone counts nowhere here: it has its own records.
    """
    room = await make.chat()
    alice, bob = await make.user("Alice"), await make.user("Bob")
    assert await db.results.user_stats(alice.id) == LeaderboardRow(
        alice.id, "Alice", games=0, wins=0, points=0, best=None
    )
    await make.finished(room, [(alice, 300), (bob, 250)])
    await make.finished(room, [(alice, 120), ("hard", 90)], game_key="numfeud")
    await make.finished(room, [(alice, 95)], game_key="nmbr9")  # solo
    assert await db.results.user_stats(alice.id) == LeaderboardRow(
        alice.id, "Alice", games=2, wins=2, points=420, best=300
    )
    assert await db.results.user_stats(alice.id, "numfeud") == LeaderboardRow(
        alice.id, "Alice", games=1, wins=1, points=120, best=120
    )
    assert (await db.results.user_stats(bob.id, "numfeud")).games == 0
    assert (await db.results.user_stats(alice.id, "nmbr9")).games == 0
    assert await db.results.user_stats(999) is None


async def test_head_to_head_counts_the_games_two_users_played_together(db, make):
    """Every finished game with both (any chat, any game, with others too); a tie counts twice."""
    room, other = await make.chat(chat_id="room"), await make.chat(chat_id="other")
    alice, bob, carol = await make.user("Alice"), await make.user("Bob"), await make.user("Carol")
    assert await db.results.head_to_head(alice.id, bob.id) == HeadToHead(0, 0, 0, 0, 0)
    await make.finished(room, [(alice, 300), (bob, 250)])
    await make.finished(other, [(bob, 90), (alice, 40)], game_key="numfeud")
    await make.finished(room, [(alice, 70), (bob, 70), (carol, 10)], game_key="rummikub")
    await make.finished(room, [(alice, 500), (carol, 10)])  # bob was not there
    await make.finished(room, [(alice, 95)], game_key="nmbr9")
    together = await db.results.head_to_head(alice.id, bob.id)
    assert together == HeadToHead(3, 2, 2, 410, 410, shared=1)  # the Rummikub tie
    assert await db.results.head_to_head(bob.id, carol.id) == HeadToHead(1, 1, 0, 70, 10)


async def test_solo_records_count_only_one_seat_games_played_to_the_end(db, make):
    """The personal record comes from solo games of that kind played out, never from rankings."""
    room, other = await make.chat(chat_id="room"), await make.chat(chat_id="other")
    alice, bob = await make.user("Alice"), await make.user("Bob")
    assert await db.results.solo_records("nmbr9", user_id=alice.id) == []
    await make.finished(room, [(alice, 80)], game_key="nmbr9")
    await make.finished(other, [(alice, 95)], game_key="nmbr9")
    await make.finished(room, [(alice, 150), (bob, 10)], game_key="nmbr9")
    await make.finished(room, [(alice, 200)], game_key="numfeud")
    await make.finished(room, [(alice, 120)], game_key="nmbr9", resigned=True)
    next_year = datetime(2026, 6, 1, tzinfo=UTC)  # the fixture's games finish in 2025
    await make.finished(room, [(bob, 60)], game_key="nmbr9", when=next_year)
    assert await db.results.solo_records("nmbr9", user_id=alice.id) == [
        SoloRecord(alice.id, "Alice", games=2, best=95)
    ]
    in_room = await db.results.solo_records("nmbr9", chat_id=room.id)
    assert [(r.display_name, r.games, r.best) for r in in_room] == [
        ("Alice", 1, 80),
        ("Bob", 1, 60),
    ]
    assert [r.display_name for r in await db.results.solo_records("nmbr9", year=2026)] == ["Bob"]
    # Nobody to beat alone: the ranking of NMBR 9 has only the game alice and bob played.
    assert [(r.display_name, r.games) for r in await db.results.leaderboard(game_key="nmbr9")] == [
        ("Alice", 1),
        ("Bob", 1),
    ]


async def test_yearly_ranking_uses_utc_year_boundaries(db, make):
    """Only games of that kind finished within the UTC calendar year count, from any chat."""
    room, other = await make.chat(chat_id="room"), await make.chat(chat_id="other")
    alice, bob = await make.user("Alice"), await make.user("Bob")
    new_year = datetime(2025, 1, 1, tzinfo=UTC)
    last_second = new_year - timedelta(seconds=1)
    await make.finished(room, [(alice, 999), ("easy", 0)], game_key="numfeud", when=last_second)
    await make.finished(room, [(alice, 10), ("easy", 0)], game_key="numfeud", when=new_year)
    later = new_year + timedelta(200)
    await make.finished(other, [(bob, 20), ("easy", 0)], game_key="numfeud", when=later)
    await make.finished(room, [(bob, 500), ("easy", 0)], game_key="webfeud", when=new_year)
    await make.finished(
        room, [(alice, 30), ("easy", 0)], game_key="numfeud", when=datetime(2026, 1, 1, tzinfo=UTC)
    )
    ranking = await db.results.leaderboard(game_key="numfeud", year=2025)
    assert ranking == [
        LeaderboardRow(bob.id, "Bob", games=1, wins=1, points=20, best=20),
        LeaderboardRow(alice.id, "Alice", games=1, wins=1, points=10, best=10),
    ]
    [last_year] = await db.results.leaderboard(game_key="numfeud", year=2024)
    assert (last_year.display_name, last_year.points) == ("Alice", 999)
    assert await db.results.leaderboard(game_key="numfeud", year=2023) == []


scores = st.integers(min_value=0, max_value=500)
game_strategy = st.tuples(
    st.sampled_from(["webfeud", "numfeud"]),
    st.lists(
        st.tuples(st.integers(0, 3), scores), min_size=1, max_size=3, unique_by=lambda p: p[0]
    ),
)


async def _check_leaderboard_against_model(games):
    with tempfile.TemporaryDirectory() as folder:
        async with await Database.open(Path(folder) / "model.sqlite3") as db:
            chat = await db.chats.upsert_chat("console", "room", "Room")
            users = [await db.users.upsert_user("console", str(i), f"P{i}") for i in range(4)]
            model: dict[tuple[str | None, int], list[int]] = defaultdict(lambda: [0, 0, 0])
            for game_key, seats in games:
                seat_users = [users[index] for index, _ in seats]
                game = await db.games.create_game(
                    chat.id, game_key, {}, None, [(u.id, None) for u in seat_users]
                )
                await db.games.start_game(game.id, game.version, "{}", 0)
                best = max(score for _, score in seats)
                results = []
                for seat_no, (index, score) in enumerate(seats):
                    won = score == best
                    results.append(NewResult(seat_no, score, 1 if won else 2, won))
                    for key in (None, game_key) if len(seats) > 1 else ():  # alone: no rank
                        totals = model[key, users[index].id]
                        totals[0] += 1
                        totals[1] += int(won)
                        totals[2] += score
                assert await db.games.commit_move(
                    game.id, game.version + 1, 0, "end", {}, "{}", 1, "finished", (), results
                )
            for key in (None, "webfeud", "numfeud"):
                expected = sorted(
                    (
                        (user_id, games, wins, points)
                        for (k, user_id), (games, wins, points) in model.items()
                        if k == key
                    ),
                    key=lambda row: (-row[2], -row[3], row[0]),
                )
                board = await db.results.leaderboard(game_key=key, limit=10)
                assert [(r.user_id, r.games, r.wins, r.points) for r in board] == expected


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(game_strategy, max_size=6))
def test_leaderboard_matches_a_python_model(games):
    """For random finished games, the SQL leaderboard equals totals computed in Python."""
    asyncio.run(_check_leaderboard_against_model(games))

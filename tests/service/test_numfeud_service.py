"""Numfeud through the service: 72 h auto-resign via the dispatcher, the yearly World Ranking."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.ai.numfeud import choose_numfeud_move
from bot.commands import parse_command
from bot.reminders import Dispatcher
from bot.replies import Reply
from bot.service import CONSOLE, ChatRef, Service, UserRef, load_state

from .conftest import START

HOUR = timedelta(hours=1)


class Outbox:
    """Collects what the dispatcher sends."""

    def __init__(self) -> None:
        self.sent: list[Reply] = []

    async def __call__(self, replies) -> None:
        self.sent += replies


async def send(service: Service, name: str, text: str, chat: str = "room") -> list[Reply]:
    return await service.handle(ChatRef(CONSOLE, chat), UserRef(CONSOLE, name, name), text)


async def new_game(service: Service, chat: str = "room", seed: int = 1) -> int:
    replies = await send(service, "alice", f"/new numfeud @bob seed={seed}", chat)
    return next(r.event["game_id"] for r in replies if r.kind == "game_started")


def ranking(replies: list[Reply]) -> list[tuple[str, int]]:
    [reply] = replies
    assert reply.event["type"] == "leaderboard"
    return [(row["player"], row["points"]) for row in reply.event["rows"]]


async def test_72_hours_without_a_move_auto_resign_for_50_points(service, clock, db) -> None:
    """The dispatcher fires the 72 h timeout: alice loses 50, bob wins, the result is stored."""
    game_id = await new_game(service)
    dispatcher = Dispatcher(service, Outbox())
    # Looked at only 71 h in, the 24 h reminder gives way to the 1 h one, due too.
    reminded = await dispatcher.run_due(clock.advance(71 * HOUR))
    assert [r.event.get("left_seconds") for r in reminded] == [3600]
    assert await dispatcher.run_due(clock.advance(HOUR - timedelta(seconds=1))) == []
    fired = await dispatcher.run_due(clock.advance(timedelta(seconds=1)))
    assert [r.kind for r in fired] == ["timeout", "game_over"]
    assert fired[1].event["winners"] == ["bob"]
    results = await db.results.game_results(game_id)
    assert [(r.score, r.won) for r in results] == [(-50, False), (0, True)]
    replayed = await service.replay(game_id)
    assert replayed is not None
    assert replayed.scores == (-50, 0)


async def test_resign_costs_50_only_after_a_move(service, db) -> None:
    """Resigning before your first move costs nothing; after a move it costs 50."""
    first = await new_game(service, seed=2)
    await send(service, "alice", "/resign")
    assert [r.score for r in await db.results.game_results(first)] == [0, 0]
    second = await new_game(service, seed=3)
    await send(service, "alice", "/pass")
    await send(service, "bob", "/resign")  # bob has not moved yet
    assert [r.score for r in await db.results.game_results(second)] == [0, 0]
    second = await new_game(service, seed=3)
    await send(service, "alice", "/pass")
    await send(service, "bob", "/pass")
    await send(service, "bob", "/resign")
    assert [r.score for r in await db.results.game_results(second)] == [0, -50]


async def test_world_ranking_sums_points_per_utc_year_and_resets(service, clock) -> None:
    """Points won and lost add up per calendar year (UTC); on 1 January the ranking starts over."""
    await new_game(service, seed=4)
    await send(service, "alice", "/pass")
    await send(service, "bob", "/pass")
    await send(service, "bob", "/resign")  # bob: -50
    await new_game(service, seed=5)
    await send(service, "alice", "/pass")
    await send(service, "bob", "/pass")
    await send(service, "alice", "/resign")  # alice: -50
    await new_game(service, chat="other", seed=6)
    await send(service, "alice", "/pass", "other")
    await send(service, "bob", "/pass", "other")
    await send(service, "bob", "/resign", "other")  # bob: -50, in another chat
    here = ranking(await send(service, "alice", "/leaderboard numfeud"))
    assert here == [("alice", -50), ("bob", -50)]
    world = ranking(await send(service, "alice", "/leaderboard numfeud everywhere"))
    assert world == [("alice", -50), ("bob", -100)]
    title = (await send(service, "alice", "/leaderboard numfeud everywhere"))[0].text
    assert title.startswith("Numfeud World Ranking 2026")

    # One second before the new year still counts for 2026; from 1 January 2027 it is a new year.
    clock.now = datetime(2026, 12, 31, 23, 59, 59, tzinfo=UTC)
    await new_game(service, seed=7)
    await send(service, "alice", "/pass")
    await send(service, "bob", "/pass")
    await send(service, "bob", "/resign")
    clock.now = datetime(2027, 1, 1, tzinfo=UTC)
    assert ranking(await send(service, "alice", "/leaderboard numfeud everywhere")) == []
    old = ranking(await send(service, "alice", "/leaderboard numfeud 2026 everywhere"))
    assert old == [("alice", -50), ("bob", -150)]
    await new_game(service, seed=8)
    await send(service, "alice", "/pass")
    await send(service, "bob", "/pass")
    await send(service, "bob", "/resign")
    assert ranking(await send(service, "alice", "/leaderboard numfeud")) == [
        ("alice", 0),
        ("bob", -50),
    ]
    assert START.year == 2026


async def test_the_world_ranking_orders_by_points_not_wins(service) -> None:
    """Bob resigns twice before moving (alice wins 0 points twice), then alice resigns after a
    move (-50): alice has the wins, bob the points, and the ranking is built upon the points.
    """
    for seed in (4, 5):
        await new_game(service, seed=seed)
        await send(service, "bob", "/resign")
    await new_game(service, seed=6)
    await send(service, "alice", "/pass")
    await send(service, "bob", "/pass")
    await send(service, "alice", "/resign")
    [board] = await send(service, "alice", "/leaderboard numfeud")
    assert [(row["player"], row["wins"], row["points"]) for row in board.event["rows"]] == [
        ("bob", 1, 0),
        ("alice", 2, -50),
    ]


async def test_the_game_over_place_is_the_world_ranking_place(service, clock) -> None:
    """A Numfeud game's end tells each place on this year's World Ranking, by points — the one
    /leaderboard numfeud shows — not the all-time wins (alice's two wins of 2026).
    """
    for seed in (4, 5):  # 2026: alice wins twice, bob resigns after moving (-50)
        await new_game(service, seed=seed)
        await send(service, "alice", "/pass")
        await send(service, "bob", "/pass")
        await send(service, "bob", "/resign")
    clock.now = datetime(2027, 3, 1, tzinfo=UTC)
    await new_game(service, seed=6)
    await send(service, "alice", "/pass")
    await send(service, "bob", "/pass")
    replies = await send(service, "alice", "/resign")  # alice: -50, bob wins
    [over] = [r for r in replies if r.kind == "game_over"]
    assert "\nNumfeud World Ranking 2027 here: alice new at #2, bob new at #1.\n" in over.text
    [board] = await send(service, "alice", "/leaderboard numfeud")
    places = {row["player"]: row["rank"] for row in board.event["rows"]}
    assert (
        places
        == {r["player"]: r["after"] for r in over.event["ranking"]}
        == {
            "bob": 1,
            "alice": 2,
        }
    )
    # Another game the same year moves places on that ranking: bob's -50 ties them at -50.
    await new_game(service, seed=7)
    await send(service, "alice", "/pass")
    await send(service, "bob", "/pass")
    replies = await send(service, "bob", "/resign")
    [over] = [r for r in replies if r.kind == "game_over"]
    assert "\nNumfeud World Ranking 2027 here: alice #2→#1, bob #1.\n" in over.text, over.text


async def test_a_year_without_a_game_ranks_every_game_finished_that_year(service, clock) -> None:
    """/leaderboard 2026 counts the games of every kind finished in 2026 (UTC), by wins."""
    await new_game(service, seed=4)
    await send(service, "alice", "/pass")
    await send(service, "bob", "/pass")
    await send(service, "bob", "/resign")  # alice wins a Numfeud game in 2026
    clock.now = datetime(2027, 1, 1, tzinfo=UTC)
    await send(service, "carol", "/new webfeud @bob seed=1")
    await send(service, "carol", "/resign")  # bob wins a Webfeud game in 2027
    this_year = await send(service, "alice", "/leaderboard 2026")
    assert this_year[0].text.startswith("Leaderboard 2026 of this chat — all games")
    assert this_year[0].event["year"] == 2026
    assert [(row["player"], row["wins"]) for row in this_year[0].event["rows"]] == [
        ("alice", 1),
        ("bob", 0),
    ]
    next_year = await send(service, "alice", "/leaderboard 2027")
    assert [(row["player"], row["wins"]) for row in next_year[0].event["rows"]] == [
        ("bob", 1),
        ("carol", 0),
    ]
    all_time = await send(service, "alice", "/leaderboard")
    assert [(row["player"], row["games"]) for row in all_time[0].event["rows"]] == [
        ("alice", 1),  # one win each; alice's 0 points beat bob's -50
        ("bob", 2),
        ("carol", 1),
    ]


async def test_a_lay_through_play_is_announced_without_the_inventory(service, db) -> None:
    """/play with Numfeud notation: the chat sees the move and the board, never the inventory."""
    assert parse_command("/play K8>H7; H7 G9 R9 B9").text == "K8>H7; H7 G9 R9 B9"
    for seed in range(1, 40):
        game_id = await new_game(service, seed=seed)
        row = await db.games.get_game(game_id)
        state = load_state(row)
        move = choose_numfeud_move(state, 0, "medium", 1)
        if str(move) != "pass":
            break
        await send(service, "alice", f"/cancel game={game_id}")
    replies = await send(service, "alice", f"/play {move} game={game_id}")
    public = [r for r in replies if r.kind == "move_played"]
    assert public[0].event["move"] == str(move)
    rack = " ".join(state.rack(0))
    assert all(rack not in r.text for r in replies if r.kind != "rack")
    after = load_state(await db.games.get_game(game_id))
    assert after.to_move == 1
    assert sum(map(bool, after.board)) >= 3


async def test_the_pass_button_at_20_tiles_is_refused_before_it_asks(service, db) -> None:
    """A pass the rules refuse (it would draw a 21st tile) is refused at the Pass button.

    Not asked "Pass your turn?" and then refused after "Yes, pass".
    """
    game_id = await new_game(service)
    while len(load_state(await db.games.get_game(game_id)).rack(0)) < 20:  # type: ignore[arg-type]
        for name in ("alice", "bob"):
            await send(service, name, "/pass")
    room, alice = ChatRef(CONSOLE, "room"), UserRef(CONSOLE, "alice", "alice")
    ok, said = await service.pass_question(room, alice, game_id)
    assert not ok
    assert said.startswith("You hold 20 tiles, the most allowed"), said


async def test_a_full_rack_with_no_play_found_is_warned_and_its_pass_gives_the_game_up(
    service, db
) -> None:
    """A player holds 20 tiles and the search finds no play: the game goes on (it may have one).

    Their turn warns that a pass ends the game, won by the other; the pass does (-50 / +50),
    and the end says the full rack passed.
    """
    game_id = await new_game(service)
    names = ("alice", "bob")
    notices: list[Reply] = []
    for _ in range(60):
        state = load_state(await db.games.get_game(game_id))
        assert state.outcome is None
        move = str(choose_numfeud_move(state, state.to_move, "easy", 1))
        line = f"/{move}" if move == "pass" or move.startswith("swap") else f"/play {move}"
        replies = await send(service, names[state.to_move], line)
        notices = [r for r in replies if "won by" in r.text]
        if notices:
            break
    [news, turn] = notices
    state = load_state(await db.games.get_game(game_id))
    stuck, winner = names[state.to_move], names[1 - state.to_move]
    assert len(state.rack(state.to_move)) == 20
    assert not state.has_legal_play(state.to_move)
    assert news.text.endswith(f"{stuck} to move; a pass now ends the game, won by {winner}.")
    assert turn.text.endswith(" Careful: a pass now ends the game, won by " + winner + ".")
    replies = await send(service, stuck, "/pass")
    [over] = [r for r in replies if r.kind == "game_over"]
    assert f"{winner} won — " in over.text
    assert f"{stuck} held 20 tiles and passed, laying none of them" in over.text
    results = await db.results.game_results(game_id)
    assert sorted((r.score, r.won) for r in results) == [(-50, False), (50, True)]

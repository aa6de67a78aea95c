"""NMBR 9 through the service: simultaneous private rounds, round deadlines, bots, solo records."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from bot.ai import choose_move
from bot.games.nmbr9 import ROUNDS, Nmbr9State, auto_fit, on_level, parse_nmbr9_move
from bot.reminders import Dispatcher
from bot.replies import ChatTarget, UserTarget
from bot.service import load_state

from .conftest import START

pytestmark = pytest.mark.timeout(120)

HOUR = timedelta(hours=1)


class Outbox:
    """Collects what the dispatcher sends."""

    def __init__(self) -> None:
        self.sent: list = []

    async def __call__(self, replies) -> None:
        self.sent += replies


async def start(say, players: str = "@bob @carol", options: str = "seed=3") -> int:
    """Create and start alice's NMBR 9 game; return its id."""
    await say("alice", f"/new nmbr9 {players} {options}".strip())
    replies = await say("alice", "/start")
    return next(r.event["game_id"] for r in replies if r.kind == "game_started")


async def state_of(db, game_id: int) -> Nmbr9State:
    state = load_state(await db.games.get_game(game_id))
    assert isinstance(state, Nmbr9State)
    return state


def move_of(state: Nmbr9State, seat: int) -> str:
    return str(choose_move(state, seat, "easy", 1))


def public(replies):
    return [r for r in replies if isinstance(r.to, ChatTarget)]


def private(replies, name: str):
    return [r for r in replies if isinstance(r.to, UserTarget) and r.to.name == name]


async def test_three_players_place_privately_in_any_order(say, db, service) -> None:
    """Each seat places in any order; the chat sees who placed, the moves once the round ends."""
    game_id = await start(say)
    state = await state_of(db, game_id)
    assert state.waiting_for() == (0, 1, 2)
    # The round and its card too: the image's header has them, the text says them.
    assert (await say("carol", "/board"))[0].text == (
        f"Game #{game_id} (NMBR 9), round 1 of 20, the {state.deck[0]}: alice 0, bob 0, carol 0."
        " alice, bob and carol to place; 24 hours left."  # the round's deadline
    )
    # /games says the round as /board does (it said neither round nor card).
    [games] = await say("carol", "/games")
    assert games.text.splitlines()[1].startswith(
        f"#{game_id} NMBR 9, round 1 of 20, the {state.deck[0]}: alice 0, bob 0, carol 0 — "
    ), games.text
    names = ("alice", "bob", "carol")
    for round_no in range(3):
        state = await state_of(db, game_id)
        order = [(round_no + k) % 3 for k in range(3)]  # a different seat first every round
        moves = {seat: move_of(state, seat) for seat in order}
        for k, seat in enumerate(order):
            replies = await say(names[seat], f"/place {moves[seat]}")
            kinds = [r.kind for r in public(replies)]
            if k < 2:
                [note] = public(replies)
                assert note.kind == "placed"
                assert moves[seat] not in note.text  # the chat does not learn the move
                assert names[seat] in note.text
                [mine] = private(replies, names[seat])
                assert moves[seat] in mine.text
                assert mine.kind == "rack"  # a secret: never shown in a group
                # NMBR 9 has no rack: the player's display, and the tile when one is to place.
                assert (
                    f"Your display in game #{game_id} (round {round_no + 1} of 20): you have"
                    in mine.text
                )
                again = await say(names[seat], f"/place {moves[seat]}")
                assert again[0].event["reason"] == "ALREADY_PLACED"
                waiting = [names[s] for s in sorted(order[k + 1 :])]
                assert again[0].text.endswith(
                    f"the next card comes when {' and '.join(waiting)} "
                    f"{'has' if len(waiting) == 1 else 'have'} placed theirs."
                )
                board = await say("carol", "/board")
                assert moves[seat] not in board[0].text
                assert board[0].event["view"]["displays"][seat] == [
                    p.to_json() if p else None for p in state.placements[seat]
                ]
            else:
                assert kinds == ["move_played"]
                summary = public(replies)[0]
                assert all(moves[s] in summary.text for s in order)
                assert f"round {round_no + 1}, the {state.deck[round_no]}:" in summary.text
                assert summary.event["round"] == round_no
                assert (
                    sorted(private(replies, n)[0].event["round"] for n in names)
                    == [round_no + 2] * 3
                )
    state = await state_of(db, game_id)
    assert state.round == 3
    assert state.turn == 9
    replayed = await service.replay(game_id)
    assert replayed is not None
    assert replayed.to_json() == state.to_json()


async def test_the_chat_scores_hide_a_round_still_being_played(say, db) -> None:
    """A point scored in the current round shows in the chat only once the round is over."""
    game_id = await start(say, "@bob", "seed=3")
    for _ in range(4):  # build a base so that level 1 can be reached
        state = await state_of(db, game_id)
        await say("alice", f"/place {move_of(state, 0)}")
        await say("bob", f"/place {move_of(state, 1)}")
    state = await state_of(db, game_id)
    while True:
        move = move_of(state, 0)
        after = state.apply(0, parse_nmbr9_move(move))
        if after.scores[0] > state.scores[0]:
            break
        await say("alice", f"/place {move}")
        await say("bob", f"/place {move_of(state, 1)}")
        state = await state_of(db, game_id)
    replies = await say("alice", f"/place {move}")
    assert public(replies)[0].kind == "placed"
    board = (await say("bob", "/board"))[0]
    assert f"alice {state.scores[0]}," in board.text
    assert board.event["scores"][0] == state.scores[0]
    [mine] = private(replies, "alice")
    assert f"Your score: {after.scores[0]}" in mine.text
    replies = await say("bob", f"/place {move_of(state, 1)}")
    assert f"alice {after.scores[0]}," in public(replies)[0].text


async def test_moves_lists_legal_placements_privately(say, db) -> None:
    """/moves answers the asker alone with placements that the rules accept."""
    game_id = await start(say, "@bob")
    replies = await say("bob", "/moves")
    [hint] = replies
    assert isinstance(hint.to, UserTarget)
    assert hint.kind == "hint"
    state = await state_of(db, game_id)
    assert hint.event["moves"]
    for move in hint.event["moves"]:
        state.apply(1, parse_nmbr9_move(move))  # legal: raises otherwise
    # Each with where it lands: the first tile of a display lies on the table.
    assert hint.text.endswith(f"/place {hint.event['moves'][-1]} (on the table)")
    assert hint.text.count("(on the table)") == len(hint.event["moves"])
    await say("bob", f"/place {hint.event['moves'][0]}")
    refused = await say("bob", "/moves")
    assert refused[0].event["reason"] == "ALREADY_PLACED"


async def test_moves_belongs_to_nmbr9(say) -> None:
    """/moves in a game of one seat at a time is refused with a pointer to /rules."""
    await say("alice", "/new webfeud @bob seed=1")
    replies = await say("alice", "/moves")
    assert replies[0].event["reason"] == "NOT_IN_THIS_GAME"
    await say("bob", "/new webfeud @alice seed=2")
    await say("bob", "/pass game=2")  # both wait for alice, and neither takes /moves:
    replies = await say("alice", "/moves")  # which one she meant does not matter
    assert replies[0].event["reason"] == "NOT_IN_THIS_GAME"
    assert replies[0].text.startswith("/moves belongs to NMBR 9; for ")


async def test_bot_seats_place_at_once_and_wait_for_nobody(say, db) -> None:
    """Bots place as soon as a round opens; the round ends with the person's placement.

    The bots' placements are not announced one by one (three bots made 60 chat lines a game):
    the chat hears of each round once, when it ends.
    """
    await say("alice", "/new nmbr9 bot=hard bot=easy seed=8")
    replies = await say("alice", "/start")
    game_id = next(r.event["game_id"] for r in replies if r.kind == "game_started")
    state = await state_of(db, game_id)
    assert state.waiting_for() == (0,)
    assert [r.kind for r in public(replies)].count("placed") == 0
    replies = await say("alice", f"/place {move_of(state, 0)}")
    kinds = [r.kind for r in public(replies)]
    assert kinds == ["move_played"]
    state = await state_of(db, game_id)
    assert state.round == 1
    assert state.waiting_for() == (0,)


async def test_a_missed_round_deadline_places_the_tile_by_the_easy_rule(
    say, db, service, clock
) -> None:
    """Via the dispatcher: bob misses the 24 h deadline, his tile is placed and he is told."""
    game_id = await start(say, "@bob")
    dispatcher = Dispatcher(service, Outbox())
    clock.advance(2 * HOUR)
    state = await state_of(db, game_id)
    await say("alice", f"/place {move_of(state, 0)}")  # the round's deadlines stay as they were
    reminder = await dispatcher.run_due(clock.advance(21 * HOUR))  # 23 h: 1 h left
    assert [(r.kind, r.to.name) for r in reminder] == [("reminder", "bob")]
    assert reminder[0].text == (
        f"Your tile of round 1 in game #{game_id} (NMBR 9) runs out in 1 hour; if you miss it,"
        " the easy rule places it for you."
    )
    assert await dispatcher.run_due(clock.advance(HOUR - timedelta(seconds=1))) == []
    fired = await dispatcher.run_due(clock.advance(timedelta(seconds=1)))
    summary = [r for r in fired if r.kind == "timeout"]
    assert len(summary) == 1
    expected = state.auto_place(1)
    auto = expected.history[-1]
    # The chat reads where and on which level ("bob L12 0 on the table"), the player also which.
    assert f"bob {auto.text} {on_level(auto_fit(state.display(1), state.deck[0]).level)}" in (
        summary[0].text
    )
    assert "deadline" in summary[0].text
    [told] = private(fired, "bob")
    assert "deadline" in told.text
    assert f"placed for you: {state.deck[0]} at {auto.text} on " in told.text
    assert told.event["timeout"] is True
    assert await dispatcher.run_due(clock.now) == []  # once only
    [history] = await say("alice", "/history")
    assert history.text.splitlines()[-1].endswith(" on the table (placed at the deadline)")
    assert history.text.splitlines()[-1].startswith("2. bob: ")
    state = await state_of(db, game_id)
    assert state.round == 1
    assert state.placements[1][0] == expected.placements[1][0]
    # The next round's deadlines are 24 h after it began, for both seats.
    pending = await db.deadlines.pending_deadlines(game_id)
    timeouts = [d for d in pending if d.kind == "timeout"]
    assert sorted(d.payload["seat"] for d in timeouts) == [0, 1]
    assert {d.due_at for d in timeouts} == {START + 48 * HOUR}
    assert {d.turn for d in pending} == {1}  # keyed on the round
    both = await dispatcher.run_due(clock.advance(24 * HOUR))
    # One deadline places both tiles: one chat line, the round's, naming both (no "waiting for
    # bob" after alice's tile, since bob's is placed by the same deadline); each is told.
    assert [r.kind for r in public(both)] == ["timeout"]
    assert public(both)[0].text.count("(placed at the deadline)") == 2
    assert "Waiting for" not in public(both)[0].text
    for name in ("alice", "bob"):
        told = [r.text for r in both if r.kind == "rack" and r.to.name == name]
        assert any("deadline" in text and "placed for you" in text for text in told), told
    state = await state_of(db, game_id)
    assert state.round == 2
    replayed = await service.replay(game_id)
    assert replayed is not None
    assert replayed.to_json() == state.to_json()


async def test_each_solo_round_gets_its_own_deadline(say, db, clock) -> None:
    """Alone, every round waits for seat 0 again: each round still gets 24 hours of its own."""
    game_id = await start(say, "", "seed=3")
    for _ in range(3):
        clock.advance(10 * HOUR)
        hint = (await say("alice", "/moves"))[0]
        await say("alice", f"/place {hint.event['moves'][0]}")
        pending = await db.deadlines.pending_deadlines(game_id)
        assert {d.due_at for d in pending if d.kind == "timeout"} == {clock.now + 24 * HOUR}


async def test_a_deadline_of_a_finished_round_is_harmless(say, db, service) -> None:
    """A timeout claimed after its round ended changes nothing."""
    game_id = await start(say, "@bob")
    [stale] = [
        d
        for d in await db.deadlines.pending_deadlines(game_id)
        if d.kind == "timeout" and d.payload["seat"] == 1
    ]
    state = await state_of(db, game_id)
    await say("alice", f"/place {move_of(state, 0)}")
    await say("bob", f"/place {move_of(state, 1)}")
    assert await service.on_deadline(stale) == []
    assert (await state_of(db, game_id)).round == 1
    # … and so is the timeout of a seat that has placed in the round still going on.
    [mine] = [
        d
        for d in await db.deadlines.pending_deadlines(game_id)
        if d.kind == "timeout" and d.payload["seat"] == 0
    ]
    state = await state_of(db, game_id)
    await say("alice", f"/place {move_of(state, 0)}")
    assert await service.on_deadline(mine) == []
    assert (await state_of(db, game_id)).turn == 3


async def test_the_deadline_option_sets_the_round_time(say, db) -> None:
    """deadline=1h: the round's timeouts fall due one hour after it began."""
    game_id = await start(say, "@bob", "seed=3 deadline=1h")
    pending = await db.deadlines.pending_deadlines(game_id)
    assert {d.due_at for d in pending if d.kind == "timeout"} == {START + HOUR}


async def test_rules_tell_the_round_deadline_and_what_a_missed_one_does(say) -> None:
    """/rules nmbr9 speaks of each round's tile and the easy rule, not of turns."""
    [rules] = await say("alice", "/rules nmbr9")
    assert "Each round's tile must be placed within 24 hours" in rules.text
    assert "the easy rule places it for you. (The easy rule: as high up, then as central" in (
        rules.text
    )
    assert "Each turn" not in rules.text
    assert rules.text.endswith(
        "\nAlso: /bag lists the cards still to come; /history lists the moves so far."
    )


async def play_solo(say, db, seed: int) -> int:
    earlier = await db.results.solo_records("nmbr9")
    await say("alice", f"/new nmbr9 seed={seed}")
    replies = await say("alice", "/start")
    game_id = next(r.event["game_id"] for r in replies if r.kind == "game_started")
    for _ in range(ROUNDS):
        state = await state_of(db, game_id)
        replies = await say("alice", f"/place {move_of(state, 0)}")
    assert [r.kind for r in public(replies)] == ["move_played", "game_over", "solo_record"]
    record = public(replies)[2]
    best = record.event["record"]
    assert record.text.startswith(f"Solo record in NMBR 9 for alice: {best}.")
    score = record.event["score"]
    if not earlier:  # nothing beaten yet
        assert record.text.endswith(" This first game sets it; the next ones try to beat it.")
    elif score > earlier[0].best:
        assert record.text.endswith(f" This game's {best} is the best yet!")
    elif score == earlier[0].best:  # equalled, not beaten (it said "the best yet!")
        assert record.text.endswith(f" This game's {best} equals it.")
    else:
        assert record.text == f"Solo record in NMBR 9 for alice: {best}."
    over = public(replies)[1]
    score = over.event["scores"][0]
    # A solo game has no winner to name, only a score.
    assert (
        over.text.splitlines()[0]
        == f"Game #{game_id} is over (all rounds played): alice scored {score}."
    )
    return game_id


async def test_solo_games_keep_the_personal_record(say, db) -> None:
    """Two solo games: the record is the better score, on /stats and on the leaderboard."""
    first = await play_solo(say, db, 1)
    second = await play_solo(say, db, 2)
    scores = [(await state_of(db, g)).scores[0] for g in (first, second)]
    best = max(scores)
    stats = (await say("alice", "/stats"))[0]
    # Games played alone are nobody's wins: they count apart, with the record.
    assert stats.text == f"alice:\nNMBR 9 solo: 2 games, record {best}"
    assert stats.event["solo_records"] == {"nmbr9": best}
    assert stats.event["games"] == {}
    board = (await say("alice", "/leaderboard nmbr9"))[0]
    assert board.text.splitlines()[1:] == [
        "No games against others yet.",
        f"Solo records: alice {best}",
    ]
    assert board.event["solo_records"] == {"alice": best}
    assert board.event["rows"] == []
    overall = (await say("alice", "/leaderboard"))[0]
    assert overall.text.splitlines()[1] == (
        "No games against others yet; for the solo records, see /leaderboard nmbr9."
    )
    # A multi-player game does not count towards the solo record.
    assert (await say("alice", "/leaderboard webfeud"))[0].event["solo_records"] == {}
    # With games against others too, all games' leaderboard still says where the records are.
    await say("alice", "/new webfeud @bob")
    await say("alice", "/resign")
    overall = (await say("alice", "/leaderboard"))[0]
    assert overall.text.splitlines()[-1] == "Solo records: see /leaderboard nmbr9."


async def test_solo_records_of_two_players_showing_one_name_are_told_apart(service, db) -> None:
    """Two Sams' solo records read "Sam …, Sam-2 …" in the text, as the image draws them."""
    from bot.service import CONSOLE, ChatRef, UserRef

    room = ChatRef(CONSOLE, "room")
    for n in (1, 2):
        sam = UserRef(CONSOLE, f"sam{n}", "Sam")
        await service.handle(room, sam, f"/new nmbr9 seed={n}")
        replies = await service.handle(room, sam, "/start")
        game_id = next(r.event["game_id"] for r in replies if r.kind == "game_started")
        for _ in range(ROUNDS):
            state = await state_of(db, game_id)
            await service.handle(room, sam, f"/place {move_of(state, 0)}")
    [board] = await service.handle(room, UserRef(CONSOLE, "alice", "alice"), "/leaderboard nmbr9")
    best = [r.best for r in await db.results.solo_records("nmbr9")]
    assert board.text.splitlines()[-1] == f"Solo records: Sam {best[0]}, Sam-2 {best[1]}"
    assert board.event["solo_records"] == {"Sam": best[0], "Sam-2": best[1]}


async def test_the_leaderboard_image_shows_the_solo_records(db, clock) -> None:
    """The picture of /leaderboard nmbr9 holds the solo records too, the asker's row marked."""
    import renderers
    from bot.service import CONSOLE, ChatRef, Service, UserRef

    service = Service(db, clock=clock, render=True)

    async def say(name: str, text: str) -> list:
        return await service.handle(ChatRef(CONSOLE, "room"), UserRef(CONSOLE, name, name), text)

    game_id = await play_solo(say, db, 1)
    best = (await state_of(db, game_id)).scores[0]
    [board] = await say("alice", "/leaderboard nmbr9")
    [image] = board.images
    title = board.text.splitlines()[0]
    mine = renderers.SoloRow(1, "alice", 1, best, mine=True)
    expected = renderers.render_leaderboard([], title=title, solo=[mine])
    assert (image.data if hasattr(image, "data") else image) == expected
    assert expected != renderers.render_leaderboard([], title=title)
    # Seen by someone else, the same records, none marked.
    [other] = (await say("bob", "/leaderboard nmbr9"))[0].images
    theirs = renderers.render_leaderboard([], title=title, solo=[replace(mine, mine=False)])
    assert (other.data if hasattr(other, "data") else other) == theirs


async def test_a_resigner_leaves_the_rounds_and_the_last_one_left_wins(say, db, service) -> None:
    """/resign: the chat is told, the resigner gets no more tiles, the round waits for the rest."""
    game_id = await start(say)
    state = await state_of(db, game_id)
    await say("alice", f"/place {move_of(state, 0)}")
    replies = await say("bob", "/resign")
    [note] = public(replies)
    assert note.kind == "resigned"
    assert "bob: resigned; the others play on. Waiting for carol." in note.text
    assert private(replies, "bob") == []
    # Out of the rounds: no tiles, hints or nudges, and the rack says why rather than "placed".
    for line in ("/place A1 0", "/moves", "/nudge"):
        refused = await say("bob", line)
        assert (refused[0].event["reason"], refused[0].text) == (
            "PLAYER_LEFT",
            f"You are out of game #{game_id}; the others play on without you.",
        ), line
    board = (await say("carol", "/board"))[0].text
    assert ", bob 0 (resigned), carol " in board, board  # a seat that left, marked in words
    [rack] = await say("bob", "/rack")
    assert rack.text.startswith(
        f"Your display in game #{game_id} (round 1 of 20): you resigned, so you place no more"
    )
    replies = await say("carol", f"/place {move_of(state, 2)}")
    summary = public(replies)[0]
    assert summary.kind == "move_played"
    assert f"round 1, the {state.deck[0]}: alice " in summary.text
    assert "carol " in summary.text
    assert "bob " not in summary.text.split("—")[0]
    assert sorted(r.to.name for r in replies if r.kind == "rack") == ["alice", "carol"]
    assert (await state_of(db, game_id)).waiting_for() == (0, 2)
    replies = await say("carol", "/resign")
    assert public(replies)[0].text == "#1 carol: resigned."  # the end, next, has the scores
    over = [r for r in replies if r.kind == "game_over"]
    assert over
    assert over[0].event["winners"] == ["alice"]
    state = await state_of(db, game_id)
    assert state.outcome is not None
    assert state.outcome.reason == "resign"
    stats = (await say("alice", "/stats"))[0]
    assert stats.event["games"]["nmbr9"]["wins"] == 1
    replayed = await service.replay(game_id)
    assert replayed is not None
    assert replayed.to_json() == state.to_json()


async def test_a_solo_resignation_ends_the_game_and_sets_no_record(say, db) -> None:
    """A solo player may give up: the game ends, no winner, no solo record announced."""
    game_id = await start(say, "", "seed=5")
    state = await state_of(db, game_id)
    await say("alice", f"/place {move_of(state, 0)}")
    replies = await say("alice", "/resign")
    assert public(replies)[0].text == "#1 alice: resigned."
    assert [r.event["winners"] for r in replies if r.kind == "game_over"] == [[]]
    assert not [r for r in replies if r.kind == "solo_record"]
    assert (await state_of(db, game_id)).outcome is not None
    # Given up, it is no record and no game on /stats or the leaderboard.
    assert (await say("alice", "/stats"))[0].text == "alice:\nno finished games yet."
    board = (await say("alice", "/leaderboard nmbr9"))[0]
    assert board.event["solo_records"] == {}
    assert board.event["rows"] == []


async def test_a_round_deadline_passes_over_a_resigned_player(say, db, service, clock) -> None:
    """After bob resigns, the round deadline places carol's tile only and the round ends."""
    game_id = await start(say)
    dispatcher = Dispatcher(service, Outbox())
    state = await state_of(db, game_id)
    await say("alice", f"/place {move_of(state, 0)}")
    await say("bob", "/resign")
    fired = await dispatcher.run_due(clock.advance(24 * HOUR))
    assert [r.kind for r in public(fired)] == ["timeout"]
    assert "carol" in public(fired)[0].text
    assert private(fired, "bob") == []
    state = await state_of(db, game_id)
    assert state.round == 1
    assert len(state.placements[1]) == 0
    pending = await db.deadlines.pending_deadlines(game_id)
    assert sorted(d.payload["seat"] for d in pending if d.kind == "timeout") == [0, 2]
    state.check_invariants()


async def test_when_only_bots_are_left_they_resign_and_the_best_wins(say, db) -> None:
    """Alice resigns against two bots: they stop at once, lowest score first, no round more."""
    game_id = await start(say, "bot=easy bot=hard", "seed=8")
    for _ in range(6):
        state = await state_of(db, game_id)
        await say("alice", f"/place {move_of(state, 0)}")
    state = await state_of(db, game_id)
    scores = state.scores
    assert state.round == 6
    replies = await say("alice", "/resign")
    resigned = [r.text for r in public(replies) if "resigned" in r.text and r.kind != "game_over"]
    assert len(resigned) == 2  # alice, then the weaker bot; the last one left wins
    # The bots had placed: the round ends with alice's resignation.
    assert resigned[0].startswith(f"#1 alice: resigned; round 7, the {state.deck[6]}: bot-easy ")
    assert "/place" not in resigned[0]  # no next round to invite anyone to: the bots resign
    loser = min((1, 2), key=lambda s: (scores[s], -s))
    winner = 3 - loser
    assert resigned[1].startswith(f"#1 {('bot-easy', 'bot-hard')[loser - 1]}: resigned")
    state = await state_of(db, game_id)
    assert state.outcome is not None
    assert state.outcome.winners == (winner,)
    assert state.outcome.reason == "resign"
    assert state.round == ROUNDS
    assert [len(entries) for entries in state.placements] == [6, 7, 7]  # no round more
    assert scores == state.scores


async def test_history_shows_a_round_once_it_is_over_and_the_last_15(say, db) -> None:
    """/history hides the placements of the round being played; a long game shows its end."""
    game_id = await start(say, "@bob")
    state = await state_of(db, game_id)
    await say("alice", f"/place {move_of(state, 0)}")
    [history] = await say("bob", "/history")
    # alice's tile is secret until the round ends, but her turn is said, so numbers never shift.
    assert history.text == (
        f"Game #{game_id} (NMBR 9), 1 move:\n"
        "1. alice: placed this round's tile (shown when the round ends)"
    )
    assert " at " not in history.text  # no number, no square
    await say("bob", f"/place {move_of(state, 1)}")
    [history] = await say("bob", "/history")
    assert [m["player"] for m in history.event["moves"]] == ["alice", "bob"]
    # The notation alone would not say which number: every line names it, and the level.
    first = state.deck[0]
    assert history.text.splitlines()[1:] == [
        f"1. alice: {first} at {move_of(state, 0)} on the table",
        f"2. bob: {first} at {move_of(state, 1)} on the table",
    ]
    await say("bob", "/resign")  # the game ends: the solo one below is the chat's only game
    solo = await play_solo(say, db, 4)
    [history] = await say("alice", f"/history game={solo}")
    final = await state_of(db, solo)
    assert history.text.splitlines()[0] == f"Game #{solo} (NMBR 9), the last 15 of 20 moves:"
    assert [m["n"] for m in history.event["moves"]] == list(range(6, 21))
    assert [m["move"] for m in history.event["moves"]] == [r.text for r in final.history[5:]]


async def test_a_game_placed_by_deadlines_names_no_best_move(say, db, service, clock) -> None:
    """A tile the round deadline placed was nobody's choice: never the game's "Best move"."""
    game_id = await start(say, "", "seed=3 deadline=10m")
    dispatcher = Dispatcher(service, Outbox())
    fired: list = []
    for _ in range(20):
        fired += await dispatcher.run_due(clock.advance(timedelta(minutes=10)))
    [over] = [r for r in fired if r.kind == "game_over"]
    assert (await state_of(db, game_id)).outcome is not None
    assert "Best move" not in over.text
    assert sum(r.kind == "timeout" for r in fired) == 20


async def test_the_last_person_resigning_beside_bots_ends_the_game_in_one_word(say) -> None:
    """The bots left resign in turn: no "the others play on. Waiting for nobody." on the way."""
    await say("alice", "/new nmbr9 bot=easy bot=medium bot=hard seed=5")
    replies = await say("alice", "/resign game=1")
    said = [r.text for r in public(replies)]
    assert not any("Waiting for nobody" in text for text in said), said
    assert [r.kind for r in public(replies)][-1] == "game_over", said
    # Both bots that resigned are named, the lowest score first (all 0: the last seat first).
    assert said[1] == "#1 bot-hard and bot-medium: resigned.", said


async def test_the_last_to_place_is_told_their_move_too(say, db) -> None:
    """Whoever closes a round gets "Your move: …" with the next round's rack, as the others did."""
    game_id = await start(say, "@bob")
    state = await state_of(db, game_id)
    first = await say("alice", f"/place {move_of(state, 0)}")
    assert private(first, "alice")[0].text.startswith("Your move: ")
    last = await say("bob", f"/place {move_of(state, 1)}")
    [rack] = private(last, "bob")
    assert rack.text.startswith("Your move: "), rack.text
    assert rack.event["timeout"] is False  # no deadline placed it: no "placed for you" notice
    assert "(round 2 of 20)" in rack.text
    [other] = private(last, "alice")
    assert not other.text.startswith("Your move: "), other.text  # alice heard hers already


async def test_a_draw_reads_as_a_tie_in_the_end_and_in_stats(say, db) -> None:
    """Two displays built alike score alike: "alice and bob tied".

    /stats counts the win both had once as shared ("won 1, … won 1 (1 win shared)", one game).
    """
    game_id = await start(say, "@bob")
    replies: list = []
    while (state := await state_of(db, game_id)).outcome is None:
        move = move_of(state, 0)  # the same tile in the same place on both displays
        await say("alice", f"/place {move}")
        replies = await say("bob", f"/place {move}")
    [over] = [r for r in replies if r.kind == "game_over"]
    score = state.outcome.scores[0]
    assert over.text.startswith(
        f"Game #{game_id} is over (all rounds played). alice and bob tied — alice {score}, "
        f"bob {score}."
    ), over.text
    assert over.text.splitlines()[1].startswith("Best move: alice and bob, ")  # the same move
    [stats] = await say("bob", "/stats @alice")
    assert stats.text.splitlines()[-1] == (
        f"Against bob: 1 game, alice won 1, bob won 1 (1 win shared); points {score} to {score}."
    )


async def test_the_round_board_shows_the_bots_placed(db, clock) -> None:
    """Bots place the moment a round opens: the round's board is drawn after they have, so its
    panels never show them "to place" (as the news' words leave them out).
    """
    import renderers
    from bot.service import CONSOLE, ChatRef, Service, UserRef

    service = Service(db, clock=clock, render=True)

    async def say(text: str) -> list:
        return await service.handle(
            ChatRef(CONSOLE, "room"), UserRef(CONSOLE, "alice", "alice"), text
        )

    await say("/new nmbr9 bot=easy bot=medium seed=5")
    for line in ("/start", "/place"):
        if line == "/place":
            line = f"/place {move_of(await state_of(db, 1), 0)}"
        replies = await say(line)
        [news] = [r for r in public(replies) if r.kind in ("game_started", "move_played")]
        state = await state_of(db, 1)
        assert state.waiting_for() == (0,)  # the bots have placed
        drawn = renderers.board_png(state, names=["alice", "bot-easy", "bot-medium"], viewer=None)
        [image] = news.images
        assert (image.data if hasattr(image, "data") else image) == drawn, line


async def test_a_round_a_resumed_bot_closes_shows_the_bots_placed_in_the_next(db, clock) -> None:
    """A crash left a bot to place after alice had: at start-up its placement closes the round,
    the bots place in the next one at once, and the round's news is drawn after they have.
    """
    import json

    import renderers
    from bot.service import CONSOLE, ChatRef, Service, UserRef

    service = Service(db, clock=clock, render=True)
    alice = UserRef(CONSOLE, "alice", "alice")
    await service.handle(ChatRef(CONSOLE, "room"), alice, "/new nmbr9 bot=easy seed=5")
    await service.handle(ChatRef(CONSOLE, "room"), alice, "/start")
    row = await db.games.get_game(1)
    started = await state_of(db, 1)
    # The crash: round 1 is stored with alice's tile placed but the bot's never was.
    fresh = Nmbr9State(deck=started.deck, placements=((), ()), seed=started.seed)
    crashed = fresh.apply(0, parse_nmbr9_move(move_of(fresh, 0)))
    assert crashed.waiting_for() == (1,)
    assert await db.games.commit_move(
        1, row.version, 0, "x", {"kind": "move"}, json.dumps(crashed.to_json()), crashed.turn
    )
    [news] = [r for r in await service.resume_bots() if r.kind == "move_played"]
    assert news.event["round"] == 0
    assert news.event["player"] == "bot-easy"
    state = await state_of(db, 1)
    assert len(state.placements[1]) == 2  # the bot placed in round 2 as well
    assert state.waiting_for() == (0,)
    drawn = renderers.board_png(state, names=["alice", "bot-easy"], viewer=None)
    [image] = news.images
    assert (image.data if hasattr(image, "data") else image) == drawn


async def test_when_the_bots_resign_in_turn_each_news_has_its_own_board(db, clock) -> None:
    """Alice leaves two bots: her news shows the round it told, the bots' end its own board
    (her news was drawn again as the finished game: the same picture posted twice).
    """
    from bot.adapters.common import image_bytes
    from bot.service import CONSOLE, ChatRef, Service, UserRef

    service = Service(db, clock=clock, render=True)
    room, alice = ChatRef(CONSOLE, "room"), UserRef(CONSOLE, "alice", "alice")
    await service.handle(room, alice, "/new nmbr9 bot=easy bot=medium seed=3")
    await service.handle(room, alice, "/start")
    replies = await service.handle(room, alice, "/resign")
    news = [r for r in public(replies) if r.kind == "move_played"]
    assert len(news) == 2
    boards = [image_bytes(image) for reply in news for image in reply.images]
    assert len(boards) == 2
    assert boards[0] != boards[1]


async def test_the_solo_records_pointer_keeps_where_and_when_and_a_far_year_is_refused(
    say, db, service
) -> None:
    """The pointer of /leaderboard everywhere names /leaderboard nmbr9 everywhere (it dropped
    the scope, and the command it named found nothing here); a year past 9998 from Discord's
    own option (no parser in between) is refused, not a crash.
    """
    from bot.commands import Command
    from bot.service import CONSOLE, ChatRef, UserRef

    await play_solo(say, db, 1)
    [far] = await say("bob", "/leaderboard everywhere", chat="elsewhere")
    assert far.text.splitlines()[-1] == (
        "No games against others yet; for the solo records, see /leaderboard nmbr9 everywhere."
    )
    [refused] = await service.execute(
        ChatRef(CONSOLE, "room"),
        UserRef(CONSOLE, "alice", "alice"),
        Command("leaderboard", options={"year": "9999"}),
    )
    assert refused.event["reason"] == "BAD_COMMAND", refused.text
    assert refused.text.startswith("There are no results of the year 9999: name one from 2000")


async def test_equalling_the_solo_record_is_said_as_such(say, db) -> None:
    """The same deck played the same way twice: the second game equals the record, it does not
    beat it (it said "the best yet!"; `play_solo` checks the words).
    """
    await play_solo(say, db, 1)
    await play_solo(say, db, 1)

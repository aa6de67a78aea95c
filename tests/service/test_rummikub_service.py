"""Rummikub through the service: draft steps, /done /undo /reset /draw, the time limit, bots."""

from __future__ import annotations

import json
from collections import Counter
from datetime import timedelta

import pytest

from bot.ai import choose_move
from bot.ai.rummikub import assist_move
from bot.commands import HISTORY_WIDTH
from bot.core.errors import Reason, RuleError
from bot.games import GAMES
from bot.games.rummikub import RUMMIKUB, Draw, Line
from bot.reminders import Dispatcher
from bot.replies import ChatTarget, UserTarget
from bot.service import load_state

pytestmark = pytest.mark.timeout(120)

# With seed 4 and two players, alice holds K1 K8 K12 K13 B8 Y1 Y6 Y6 Y9 Y11 Y13 R1 R6 R13:
# she can open with K1 Y1 R1 and K13 Y13 R13 (worth 42).
SEED = 4
OPENING = ("K1 Y1 R1", "K13 Y13 R13")


class Outbox:
    """Collects what the dispatcher sends."""

    def __init__(self) -> None:
        self.sent: list = []

    async def __call__(self, replies) -> None:
        self.sent += replies


async def start(say, *options: str) -> int:
    """Create and start alice's Rummikub game against bob; return its id."""
    extra = " ".join(options)
    await say("alice", f"/new rummikub @bob seed={SEED} {extra}".strip())
    replies = await say("alice", "/start")
    return next(r.event["game_id"] for r in replies if r.kind == "game_started")


def only(replies, kind: str):
    found = [r for r in replies if r.kind == kind]
    assert len(found) == 1, [(r.kind, r.text) for r in replies]
    return found[0]


async def test_steps_update_a_draft_and_done_names_the_invalid_meld(
    say, db, table_rows, service
) -> None:
    """Steps draft the table (invalid melds marked), /done refuses, /undo and /reset restore."""
    game_id = await start(say)
    before = load_state(await db.games.get_game(game_id))
    rack = list(before.rack(0))

    replies = await say("alice", "/play K1 Y1")
    draft = only(replies, "draft")
    assert isinstance(draft.to, ChatTarget)
    assert draft.event["invalid"] == [
        {"meld": 1, "tiles": ["K1", "Y1"], "problem": draft.event["invalid"][0]["problem"]}
    ]
    assert "has only 2 tiles" in draft.text
    assert draft.event["turn"] == 0
    assert draft.event["to_move"] == "alice"
    private = only(replies, "rack")
    assert isinstance(private.to, UserTarget)
    assert private.to.name == "alice"
    assert Counter(private.event["tiles"]) == Counter(rack) - Counter(["K1", "Y1"])
    for reply in replies:  # her rack never reaches the chat
        if not reply.private:
            assert "Your rack" not in reply.text
            assert "rack" not in reply.event.get("view", {}) or reply.event["view"]["rack"] is None
    row = await db.games.get_game(game_id)
    assert row.turn == 0

    refusal = only(await say("alice", "/done"), "error")
    assert refusal.event["reason"] == Reason.INVALID_MELD
    assert "Meld 1 (K1 Y1)" in refusal.text
    assert "/undo" in refusal.text

    valid = only(await say("alice", "/play 1+R1"), "draft")
    low = only(await say("alice", "/done"), "error")
    assert low.event["reason"] == Reason.INITIAL_MELD_TOO_LOW
    # The draft already said so: valid melds, but not a turn until /done would take it; the
    # group reads it, so the "your" is addressed to alice by name.
    assert low.text.startswith("Your initial meld is worth ")
    assert valid.text == (
        "#1 alice (draft): 1+R1 — every meld is valid, but it is not a turn yet. alice: y"
        + low.text[1:]
    )
    # The reply reads it from the view, which ran /done once for its "ready": no second run.
    assert (valid.event["view"]["ready"], valid.event["view"]["not_a_turn"]) == (False, low.text)

    undone = only(await say("alice", "/undo"), "draft")
    assert undone.event["view"]["melds"][0]["tiles"] == ["K1", "Y1"]
    reset = only(await say("alice", "/reset"), "draft")
    assert reset.event["view"]["melds"] == []
    assert reset.event["invalid"] == []
    nothing = only(await say("alice", "/undo"), "error")
    assert nothing.event["reason"] == Reason.NOTHING_TO_UNDO
    state = load_state(await db.games.get_game(game_id))
    assert state.rack(0) == before.rack(0)

    for step in OPENING:
        only(await say("alice", f"/play {step}"), "draft")
    replies = await say("alice", "/done")
    played = only(replies, "move_played")
    assert played.event["turn"] == 1
    assert played.event["to_move"] == "bob"
    state = load_state(await db.games.get_game(game_id))
    assert [list(m) for m in state.table] == [["K1", "Y1", "R1"], ["K13", "Y13", "R13"]]
    assert state.opened == (True, False)
    kinds = [json.loads(row[4])["kind"] for row in table_rows()["moves"]]
    assert kinds == ["draft"] * 6 + ["move"]
    replayed = await service.replay(game_id)
    assert replayed is not None
    assert replayed.to_json() == state.to_json()


async def test_one_line_turn_and_draw_for_pass(say, db) -> None:
    """A whole turn on one line ends it at once; /pass and /draw both draw one tile."""
    game_id = await start(say)
    replies = await say("alice", f"/play {OPENING[0]}; {OPENING[1]}; done")
    assert only(replies, "move_played").event["turn"] == 1
    assert not [r for r in replies if r.kind == "draft"]
    pool = load_state(await db.games.get_game(game_id)).view(None)["pool"]
    drew = only(await say("bob", "/pass"), "move_played")
    assert drew.event["move"] == "drew a tile"
    state = load_state(await db.games.get_game(game_id))
    assert state.view(None)["pool"] == pool - 1
    assert len(state.rack(1)) == 15
    only(await say("alice", "/play K8 B8"), "draft")  # a draft is taken back by a draw
    only(await say("alice", "/draw"), "move_played")
    state = load_state(await db.games.get_game(game_id))
    assert len(state.rack(0)) == 14 - 6 + 1
    assert len(state.table) == 2


async def test_rummikub_commands_are_refused_in_other_games(say) -> None:
    """/done, /undo, /reset, /draw and /hint say which game they belong to."""
    await say("alice", "/new webfeud @bob seed=1")
    for word in ("done", "undo", "reset", "draw"):
        refusal = only(await say("alice", f"/{word}"), "error")
        assert refusal.event["reason"] == "NOT_IN_THIS_GAME"
        assert len(refusal.text) <= 200
    refusal = only(await say("alice", "/hint"), "error")
    assert refusal.event["reason"] == "NOT_IN_THIS_GAME"
    assert refusal.text.startswith("/hint belongs to Rummikub")
    assert "Webfeud has no hints" in refusal.text


async def test_hint_in_a_rummikub_game_without_assist_says_how_to_get_one(say) -> None:
    """A rated Rummikub game gets no hint; the refusal names the game and the option."""
    game_id = await start(say)
    refusal = only(await say("alice", "/hint"), "error")
    assert refusal.event["reason"] == "NOT_CASUAL"
    assert f"game #{game_id} was made with assist=off" in refusal.text
    assert "/new rummikub @player assist=on" in refusal.text


async def test_hint_in_a_casual_game_is_private_and_legal(say, db) -> None:
    """With assist=on, /hint answers privately with a move the rules accept."""
    game_id = await start(say, "assist=on")
    refusal = only(await say("bob", "/hint"), "error")
    assert refusal.event["reason"] == "NOT_YOUR_TURN"
    assert refusal.text.startswith(f"It is alice's turn in game #{game_id}, not yours;")
    hint = only(await say("alice", "/hint"), "hint")
    assert isinstance(hint.to, UserTarget)
    assert hint.to.name == "alice"
    assert hint.text.endswith(f"/play {hint.event['move']}")
    state = load_state(await db.games.get_game(game_id))
    move = RUMMIKUB.parse_move(hint.event["move"])
    after = state.apply(0, move)
    assert after.turn == 1


async def test_a_hint_to_draw_says_so_with_the_command(say) -> None:
    """When nothing can be laid the hint is /draw, with why (not '/play draw')."""
    await say("alice", "/new rummikub @bob seed=3 assist=on")  # alice: no 30 points to open
    await say("alice", "/start")
    hint = only(await say("alice", "/hint"), "hint")
    assert hint.event["move"] == "draw"
    assert hint.text == (
        "Hint for game #1, from the start of your turn: nothing from your rack can be laid now,"
        " so /draw."
    )


async def test_assist_before_the_initial_meld_is_refused_through_the_service(say, db) -> None:
    """assist=on: tiles that are no meld by themselves need an opened player; nothing changes."""
    game_id = await start(say, "assist=on")
    before = (await db.games.get_game(game_id)).version
    refusal = only(await say("alice", "/play K8 B8"), "error")
    assert refusal.event["reason"] == Reason.NO_ARRANGEMENT
    assert (await db.games.get_game(game_id)).version == before
    assert only(await say("alice", "/play K1 Y1 R1"), "draft")  # a real meld needs no assist


def test_assist_turns_named_tiles_into_the_solvers_rearrangement() -> None:
    """assist=on: `R6` alone becomes the steps that split R4…R8 around it; off: unchanged."""
    table = [["R4", "R5", "R6", "R7", "R8"]]
    state = RUMMIKUB.rigged([["R6", "B1"], ["K1", "K2"]], table, options={"assist": "on"})
    move = RUMMIKUB.parse_move("R6")
    line = assist_move(state, 0, move)
    assert isinstance(line, Line)
    assert line != move
    after = state.apply(0, Line(line.steps, done=True))
    assert Counter(after.racks[0]) == Counter(["B1"])
    off = RUMMIKUB.rigged([["R6", "B1"], ["K1", "K2"]], table)
    assert assist_move(off, 0, move) is move
    with pytest.raises(RuleError) as caught:
        assist_move(state, 0, RUMMIKUB.parse_move("B1"))
    assert caught.value.reason == Reason.NO_ARRANGEMENT


async def test_time_limit_penalty_through_the_dispatcher(say, db, service, clock, table_rows):
    """time=15s: a draft step keeps the deadline; at 15 s the tiles go back and alice draws 3."""
    game_id = await start(say, "time=15s")
    before = load_state(await db.games.get_game(game_id))
    deadlines = table_rows()["deadlines"]
    assert len([d for d in deadlines if d[2] == "timeout"]) == 1
    dispatcher = Dispatcher(service, Outbox())
    clock.advance(timedelta(seconds=10))
    only(await say("alice", f"/play {OPENING[0]}"), "draft")
    assert table_rows()["deadlines"] == deadlines  # not re-created by the step
    assert await dispatcher.run_due(clock.advance(timedelta(seconds=4))) == []
    fired = await dispatcher.run_due(clock.advance(timedelta(seconds=1)))  # 15 s after the start
    timeout = only(fired, "timeout")
    assert timeout.event["player"] == "alice"
    assert timeout.event["move"] == "ran out of time and drew 3 tiles; the draft went back"
    assert not [r for r in fired if not r.private and "Your rack" in r.text]
    state = load_state(await db.games.get_game(game_id))
    assert state.table == ()  # the drafted meld went back
    assert Counter(state.rack(0)) == Counter(before.rack(0)) + Counter(before.pool[:3])
    # The private rack names the 3 tiles drawn, not the drafted ones that came back.
    [rack] = [r for r in fired if r.kind == "rack"]
    assert Counter(rack.event["new"]) == Counter(before.pool[:3])
    assert state.view(None)["pool"] == len(before.pool) - 3
    assert state.to_move == 1
    pending = await db.deadlines.pending_deadlines(game_id)
    assert [(d.kind, d.due_at - clock.now) for d in pending] == [("timeout", timedelta(seconds=15))]
    replayed = await service.replay(game_id)
    assert replayed is not None
    assert replayed.to_json() == state.to_json()


async def test_a_full_four_player_game_with_bot_seats(say, db, service) -> None:
    """Alice and three bots (easy, medium, hard) play to the end; invariants and replay hold."""
    replies = await say("alice", "/new rummikub bot=easy bot=medium bot=hard seed=2")
    game_id = only(replies, "game_started").event["game_id"]
    for _ in range(400):
        row = await db.games.get_game(game_id)
        if row.status != "active":
            break
        state = load_state(row)
        state.check_invariants()
        assert state.waiting_for() == (0,)
        move = choose_move(state, 0, "easy", state.turn)
        text = "/draw" if isinstance(move, Draw) else f"/play {move}"
        replies = await say("alice", text)
        assert not [r for r in replies if r.kind == "error"], [r.text for r in replies]
        for reply in replies:
            if not reply.private:
                assert "Your rack" not in reply.text
    row = await db.games.get_game(game_id)
    assert row.status == "finished"
    state = load_state(row)
    state.check_invariants()
    assert state.outcome is not None
    results = await db.results.game_results(game_id)
    assert [r.score for r in sorted(results, key=lambda r: r.seat_no)] == list(state.scores)
    replayed = await service.replay(game_id)
    assert replayed is not None
    assert replayed.to_json() == state.to_json()
    assert GAMES["rummikub"] is RUMMIKUB


async def test_assist_rearranges_the_table_end_to_end(say, db, service) -> None:
    """assist=on: after both open, alice's `/play R10` drafts the solver's rearrangement."""
    await say("alice", "/new rummikub @bob seed=5 assist=on")
    replies = await say("alice", "/start")
    game_id = only(replies, "game_started").event["game_id"]
    only(await say("alice", "/play K13 B13 R13; R6 R7 R8; done"), "move_played")
    only(await say("bob", "/play K5 R5 J; R8 R9 J; done"), "move_played")
    draft = only(await say("alice", "/play R10"), "draft")
    assert draft.event["invalid"] == []
    assert draft.event["move"] != "R10"  # the steps the solver found, as typed notation
    played = only(await say("alice", "/done"), "move_played")
    assert played.event["turn"] == 3
    state = load_state(await db.games.get_game(game_id))
    assert "R10" not in state.rack(0)
    assert any("R10" in meld for meld in state.table)
    replayed = await service.replay(game_id)
    assert replayed is not None
    assert replayed.to_json() == state.to_json()


async def test_the_last_round_counts_down_instead_of_warning_of_a_pass(say) -> None:
    """Once the pool is empty every move counts down to the end, whatever it is.

    The news says how many turns are left, then that it is the last turn — not that "a pass"
    would end the game.
    """
    await say("alice", "/new rummikub bot=easy bot=medium seed=11")
    await say("alice", "/start")
    texts: list[str] = []
    for _ in range(60):
        replies = await say("alice", "/draw")
        texts += [r.text for r in replies]
        if any(r.kind == "game_over" for r in replies):
            break
    news = "\n".join(texts)
    assert "the pool is empty: the game ends in 3 turns." in news
    assert "this is the last turn of the game." in news
    assert "a pass now ends the game" not in news


async def test_the_rack_after_a_draw_names_the_new_tile(say, db) -> None:
    """As game apps mark a drawn tile, the private rack says which tile is new."""
    await say("alice", "/new rummikub @bob seed=4")
    await say("alice", "/start")
    before = load_state(await db.games.get_game(1)).rack(0)
    replies = await say("alice", "/draw")
    [rack] = [r for r in replies if r.kind == "rack"]
    after = load_state(await db.games.get_game(1)).rack(0)
    [drawn] = [t for t in set(after) if after.count(t) > before.count(t)]
    assert rack.text.endswith(f"(new: {drawn})")
    assert rack.event["new"] == [drawn]


async def test_a_draw_after_a_draft_names_only_the_drawn_tile(say, db) -> None:
    """A draw takes the draft back first: the tiles that come back were held all along."""
    game_id = await start(say)
    before = load_state(await db.games.get_game(game_id))
    only(await say("alice", f"/play {OPENING[0]}"), "draft")
    replies = await say("alice", "/draw")
    [rack] = [r for r in replies if r.kind == "rack"]
    assert rack.event["new"] == [before.pool[0]]
    assert rack.text.endswith(f"(new: {before.pool[0]})")


async def test_a_word_rack_after_a_swap_or_a_play_names_the_tiles_drawn(say, db) -> None:
    """A word game knows what a swap or a play drew: the tiles after those kept.

    As the word apps mark them, even a letter that went out and came back (before, nothing was
    named after a swap or a play).
    """
    await say("alice", "/new webfeud @bob seed=4")
    before = load_state(await db.games.get_game(1))
    replies = await say("alice", f"/swap {''.join(before.rack(0)[:2])}")
    [after] = [r for r in replies if r.kind == "rack"]
    state = load_state(await db.games.get_game(1))
    drawn = list(state.rack(0)[-2:])
    assert after.event["new"] == drawn
    assert f"(new: {' '.join(drawn)})" in after.text
    assert Counter(state.rack(0)) == Counter(before.rack(0)[2:]) + Counter(drawn)
    move = choose_move(state, 1, "hard", 1)
    replies = await say("bob", f"/play {move}")
    [after] = [r for r in replies if r.kind == "rack"]
    played = load_state(await db.games.get_game(1))
    count = len(state.bag) - len(played.bag)
    assert count > 0
    assert after.event["new"] == list(played.rack(1)[-count:])


async def test_history_wraps_a_long_rearrangement_between_its_steps(say, db) -> None:
    """A move of many steps is wrapped after a ";" to two lines of 100, the rest counted."""
    await say("alice", "/new rummikub @bob seed=3")  # the hard moves rearrange 15+ melds
    game_id = only(await say("alice", "/start"), "game_started").event["game_id"]
    names = ("alice", "bob")
    long, news = "", None
    for _ in range(200):
        state = load_state(await db.games.get_game(game_id))
        if state.outcome is not None or len(long) > 2 * HISTORY_WIDTH:
            break
        seat = state.waiting_for()[0]
        move = choose_move(state, seat, "hard", state.turn)
        text = "/draw" if isinstance(move, Draw) else f"/play {move}"
        replies = await say(names[seat], text)
        record = load_state(await db.games.get_game(game_id)).history[-1]
        if len(record.text) > len(long):
            long, news = record.text, only(replies, "move_played")
    assert len(long) > 2 * HISTORY_WIDTH, long  # a rearrangement too long for two lines
    # The group's news of it shows its first steps the same way; its event has it whole.
    assert news is not None
    assert news.event["move"] == long
    one, two = news.text.splitlines()  # the points, scores and who is next follow the steps
    steps = two.split(" steps)")[0] + " steps)"
    assert [one[-1], steps[:3]] == [";", "   "], news.text
    assert max(len(one), len(steps)) <= HISTORY_WIDTH, news.text
    [history] = await say("carol", f"/history game={game_id}")
    lines = history.text.splitlines()
    assert max(len(line) for line in lines) <= HISTORY_WIDTH
    assert len(history.text) <= 4096  # one Telegram message
    [entry] = [m for m in history.event["moves"] if m["move"] == long]  # the event has it whole
    head = f"{entry['n']}. {entry['player']}: "
    first = next(i for i, line in enumerate(lines) if line.startswith(head))
    one, two = lines[first : first + 2]
    assert one.endswith(";")
    assert two.startswith("   ")
    # The steps shown are the move's first steps, whole; the others are counted.
    shown = [*one.removeprefix(head).removesuffix(";").split("; "), *two.strip().split("; ")[:-1]]
    steps = long.split("; ")
    assert steps[: len(shown)] == shown
    assert two.endswith(f"; … (+{len(steps) - len(shown)} steps)"), two

"""SmartFeud through the real service and SQLite: timeouts as passes, resign, conditional quit."""

from __future__ import annotations

import json
from datetime import timedelta

from bot.ai import choose_move
from bot.reminders import Dispatcher
from bot.replies import Reply, UserTarget
from bot.service import CONSOLE, ChatRef, Service, UserRef, load_state
from storage import Database

MINUTE = timedelta(minutes=1)


class Outbox:
    """Collects what the dispatcher sends."""

    def __init__(self) -> None:
        self.sent: list[Reply] = []

    async def __call__(self, replies) -> None:
        self.sent += replies


async def snapshot_replays(service: Service, db: Database, game_id: int) -> None:
    """The move log replays to the stored snapshot."""
    row = await db.games.get_game(game_id)
    assert row is not None
    replayed = await service.replay(game_id)
    assert replayed is not None
    assert replayed.to_json() == json.loads(row.snapshot)


async def test_a_timeout_counts_as_a_pass_and_three_lose_the_game(say, service, clock, db) -> None:
    """wait=3m: each 3-minute deadline is a pass by the dispatcher; alice's third loses her game."""
    created = await say("alice", "/new smartfeud @bob wait=3m seed=1")
    game_id = created[0].event["game_id"]
    started = await say("alice", "/start")
    assert any(r.kind == "game_started" for r in started)
    dispatcher = Dispatcher(service, Outbox())
    assert await dispatcher.run_due(clock.advance(3 * MINUTE - timedelta(seconds=1))) == []
    first = await dispatcher.run_due(clock.advance(timedelta(seconds=1)))
    # The pass ends alice's first turn, so her unused extra blank is gone: she is sent her
    # new rack privately; bob is told it is his turn.
    assert [r.kind for r in first] == ["timeout", "rack", "your_turn"]
    assert (first[2].to.name, first[2].text) == (
        "bob",
        "Your turn in game #1 (SmartFeud), after alice: ran out of time (a pass).",
    )
    assert first[0].event["player"] == "alice"
    assert first[0].event["move"] == "ran out of time (a pass)"
    assert first[0].event["to_move"] == "bob"
    assert isinstance(first[1].to, UserTarget)
    assert first[1].to.name == "alice"
    assert "?" not in first[1].event["tiles"]
    state = load_state(await db.games.get_game(game_id))
    assert state.outcome is None
    # bob, alice, bob time out too; alice's third consecutive pass loses her the game.
    for _ in range(3):
        fired = await dispatcher.run_due(clock.advance(3 * MINUTE))
        assert [r.kind for r in fired] == ["timeout", "your_turn"]
    last = await dispatcher.run_due(clock.advance(3 * MINUTE))
    assert [r.kind for r in last] == ["timeout", "game_over"]
    # The end's scores come with the game's end, next.
    said = "ran out of time (a pass): 3 in a row, out of the game."
    assert last[0].text == f"#{game_id} alice: {said}"
    assert last[1].event["winners"] == ["bob"]
    assert last[1].event["reason"] == "passes"
    results = await db.results.game_results(game_id)
    assert [r.won for r in results] == [False, True]
    await snapshot_replays(service, db, game_id)
    assert await dispatcher.run_due(clock.advance(1000 * MINUTE)) == []


async def test_a_move_resets_the_timeout_clock(say, service, clock, db) -> None:
    """A pass typed in time replaces alice's deadline with bob's, due 3 minutes later."""
    await say("alice", "/new smartfeud @bob wait=3m seed=1")
    await say("alice", "/start")
    dispatcher = Dispatcher(service, Outbox())
    clock.advance(2 * MINUTE)
    await say("alice", "/pass")
    assert await dispatcher.run_due(clock.advance(2 * MINUTE)) == []
    fired = await dispatcher.run_due(clock.advance(MINUTE))
    assert [(r.kind, r.event["player"]) for r in fired] == [
        ("timeout", "bob"),
        ("your_turn", "alice"),
    ]


async def test_the_movers_own_quit_keeps_their_clock(say, service, clock, db) -> None:
    """A conditional quit uses up no turn: the player to move keeps their deadline."""
    await say("alice", "/new smartfeud @bob @carol wait=20m seed=7")
    await say("alice", "/start")
    await say("alice", "/resign")  # out of the game; bob is to move
    pending = await db.deadlines.pending_deadlines(1)
    [due_before] = [d.due_at for d in pending if d.kind == "timeout"]
    clock.advance(15 * MINUTE)
    quit_one = await say("bob", "/play quit")
    assert quit_one[0].event["to_move"] == "bob"
    timeouts = [d.due_at for d in await db.deadlines.pending_deadlines(1) if d.kind == "timeout"]
    assert timeouts == [due_before]  # not 20 minutes from now
    dispatcher = Dispatcher(service, Outbox())
    fired = await dispatcher.run_due(clock.advance(5 * MINUTE))
    assert [(r.kind, r.event["player"]) for r in fired if r.kind == "timeout"] == [
        ("timeout", "bob")
    ]


async def test_multiplayer_resign_then_conditional_quit(say, service, db) -> None:
    """Bob resigns: alice and carol play on; when both quit, the top score wins ("quit")."""
    created = await say("alice", "/new smartfeud @bob @carol seed=3")
    game_id = created[0].event["game_id"]
    await say("alice", "/start")
    state = load_state(await db.games.get_game(game_id))
    word = str(choose_move(state, 0, "hard", 1))
    played = await say("alice", f"/play {word}")
    assert played[0].kind == "move_played"
    resigned = await say("bob", "/resign")
    assert [r.kind for r in resigned] == ["move_played", "your_turn"]
    assert resigned[1].to.name == "carol"  # bob's resignation passed the turn to carol
    assert resigned[0].event["move"] == "resigned"
    for line in ("/pass", "/play quit", "/resign"):  # the service's words, as for /nudge
        [refused] = await say("bob", line)
        assert (refused.event["reason"], refused.text) == (
            "PLAYER_LEFT",
            f"You are out of game #{game_id}; the others play on without you.",
        ), line
    quit_one = await say("carol", "/play quit")
    assert [r.kind for r in quit_one] == ["move_played"]
    assert quit_one[0].event["to_move"] == "carol"  # quitting does not use up a turn
    over = await say("alice", "/play quit")
    assert [r.kind for r in over] == ["move_played", "game_over"]
    assert over[1].event["reason"] == "quit"
    assert over[1].event["winners"] == ["alice"]
    assert ", bob 0 (resigned), carol " in over[1].text, over[1].text  # who left stays marked
    results = await db.results.game_results(game_id)
    assert [r.won for r in results] == [True, False, False]
    await snapshot_replays(service, db, game_id)


async def test_the_pass_button_tells_a_resigned_player_they_are_out(say, service) -> None:
    """Pressed by carol after she resigned, Pass says she is out, as /pass does (it said "It
    is alice's turn in game #1, not yours; wait for it.").
    """
    from bot.service import CONSOLE, ChatRef, UserRef

    await say("alice", "/new smartfeud @bob @carol seed=3")
    await say("alice", "/start")
    await say("carol", "/resign")
    carol = UserRef(CONSOLE, "carol", "carol")
    assert await service.pass_question(ChatRef(CONSOLE, "room"), carol, 1) == (
        False,
        "You are out of game #1; the others play on without you.",
    )


async def test_the_end_by_resignations_says_who_resigned(say) -> None:
    """Carol resigns, then Alice: the end names alice and keeps carol's mark (it read "Game #1
    is over (resigned). bob won — alice 0, bob 0, carol 0": who resigned was nowhere).
    """
    await say("alice", "/new smartfeud @bob @carol seed=3")
    await say("alice", "/start")
    await say("carol", "/resign")
    over = await say("alice", "/resign")
    [end] = [r for r in over if r.kind == "game_over"]
    assert end.text.startswith(
        "Game #1 is over (alice resigned). bob won — alice 0, bob 0, carol 0 (resigned)."
    ), end.text


async def test_four_seats_alice_resigns_and_the_bots_stop_too(say, service, db) -> None:
    """Alice against three bots resigns: with nobody left to play for, the bots resign too.

    The lowest score resigns first (ties: the later seat), so the best bot wins at once instead
    of a whole game of bot moves filling the chat.
    """
    created = await say("alice", "/new smartfeud bot=hard bot=medium bot=easy seed=4")
    game_id = created[0].event["game_id"]
    state = load_state(await db.games.get_game(game_id))
    first = choose_move(state, 0, "hard", 1)
    await say("alice", f"/play {first}")  # the bots answer: everyone has a score now
    state = load_state(await db.games.get_game(game_id))
    scores = state.scores
    assert state.outcome is None
    replies = await say("alice", "/resign")
    played = [r for r in replies if r.kind == "move_played"]
    assert [r.text.split(":")[0] for r in played] == [
        "#1 alice",
        *(f"#1 {state_name}" for state_name in bot_names_by_score(scores)[:2]),
    ]
    assert all("resigned" in r.text for r in played)
    assert replies[-1].kind == "game_over"
    # The end names alice, whose leaving ended it (the last bot to resign in turn was named).
    assert replies[-1].text.startswith("Game #1 is over (alice resigned). "), replies[-1].text
    state = load_state(await db.games.get_game(game_id))
    assert state.outcome is not None
    assert state.outcome.reason == "resign"
    assert state.outcome.winners == (max((1, 2, 3), key=lambda s: (scores[s], -s)),)
    assert state.scores == scores  # no bot move after alice left
    state.check_invariants()
    await snapshot_replays(service, db, game_id)


def bot_names_by_score(scores) -> list[str]:
    """The bot seats 1-3 of the test above in the order they resign: lowest score first."""
    names = {1: "bot-hard", 2: "bot-medium", 3: "bot-easy"}
    return [names[s] for s in sorted((1, 2, 3), key=lambda s: (scores[s], -s))]


async def test_the_rack_says_what_a_blank_is_and_that_the_extra_one_must_be_laid_now(
    say, service, db
) -> None:
    """The starter's rack text explains the extra blank until the first turn ends."""
    await say("alice", "/new smartfeud @bob seed=1")
    started = await say("alice", "/start")
    racks = {r.to.name: r for r in started if r.kind == "rack"}
    alice = racks["alice"].text
    assert alice.splitlines()[0].endswith("?")
    assert "? is a blank: any letter, typed in lower case, for 0 points." in alice
    assert "The last ? is the starter's extra blank: lay a blank this turn or lose it." in alice
    bob_tiles = racks["bob"].event["tiles"]
    assert "?" not in bob_tiles  # seed 1 deals bob no blank: his rack needs no note
    assert racks["bob"].text == f"Your rack in game #1: {' '.join(bob_tiles)}"
    passed = await say("alice", "/pass")
    after = next(r for r in passed if r.kind == "rack" and r.to.name == "alice")
    assert "lay a blank this turn" not in after.text
    assert "Your extra blank was lost" in after.text  # the pass lost it: said, not silent
    assert ("? is a blank" in after.text) == ("?" in after.event["tiles"])


async def test_a_move_that_loses_the_extra_blank_says_so_before_and_after(say) -> None:
    """/try warns that a first word without a blank loses the starter's extra blank; played,
    the rack says it was lost (it went without a word).
    """
    await say("alice", "/new smartfeud @bob seed=1")  # alice: Z O O D S M A ?
    await say("alice", "/start")
    [tried] = await say("alice", "/try 8H DOOMS")
    assert tried.text.startswith(
        "8H DOOMS would score 8 in game #1; it loses your extra blank: lay a blank this turn to "
        "keep it; nothing was played."
    ), tried.text
    [kept] = await say("alice", "/try 8H DOOMs")  # the blank laid as the S: nothing lost
    assert "extra blank" not in kept.text
    played = await say("alice", "/play 8H DOOMS")
    rack = next(r for r in played if r.kind == "rack" and r.to.name == "alice")
    assert "Your extra blank was lost: no blank was laid in your first turn." in rack.text


async def test_a_player_out_on_passes_is_told_they_are_out(say) -> None:
    """Three passes put alice out of a game of three: /nudge and /try say so, not "resigned"."""
    await say("alice", "/new smartfeud @bob @carol seed=3")
    await say("alice", "/start")
    for _ in range(2):
        for name in ("alice", "bob", "carol"):
            await say(name, "/pass")
    [news, *_] = await say("alice", "/pass")
    assert news.text.startswith("#1 alice: pass: 3 in a row, out of the game — alice 0 (out), ")
    for line in ("/nudge", "/try 8H AB"):
        [refused] = await say("alice", line)
        assert (refused.event["reason"], refused.text) == (
            "PLAYER_LEFT",
            "You are out of game #1; the others play on without you.",
        ), line


async def test_the_game_over_card_names_the_person_who_resigned_not_the_bots(
    db, clock, monkeypatch
) -> None:
    """Alice resigns, the two bots left resign in turn: chat and card both name her, not a bot."""
    import renderers.cards

    drawn: list[str] = []
    real = renderers.cards.text

    def spy(draw, xy, content, **kw) -> None:
        drawn.append(content)
        real(draw, xy, content, **kw)

    monkeypatch.setattr(renderers.cards, "text", spy)
    service = Service(db, clock=clock, render=True)
    room, alice = ChatRef(CONSOLE, "room"), UserRef(CONSOLE, "alice", "alice")
    await service.handle(room, alice, "/new smartfeud bot=easy bot=medium seed=7")
    await service.handle(room, alice, "/start")
    replies = await service.handle(room, alice, "/resign")
    [over] = [r for r in replies if r.kind == "game_over"]
    assert "(alice resigned)" in over.text
    assert [r.event["player"] for r in replies if r.kind == "move_played"][-1] != "alice"
    assert over.images  # the card was drawn
    assert "alice resigned." in drawn, drawn

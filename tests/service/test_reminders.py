"""The durable deadline dispatcher: reminders, the timeout rule, restarts, exactly-once firing."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

import pytest

from bot.reminders import Dispatcher
from bot.replies import Reply, UserTarget
from bot.service import CONSOLE, LATE_MOVE_GRACE, ChatRef, Service, UserRef
from storage import Database

from .conftest import START, Clock

HOUR = timedelta(hours=1)


class Outbox:
    """Collects what the dispatcher sends."""

    def __init__(self) -> None:
        self.sent: list[Reply] = []

    async def __call__(self, replies) -> None:
        self.sent += replies


async def new_game(service: Service, seed: int = 1) -> int:
    replies = await service.handle(
        ChatRef(CONSOLE, "room"),
        UserRef(CONSOLE, "alice", "alice"),
        f"/new webfeud @bob seed={seed}",
    )
    return next(r.event["game_id"] for r in replies if r.kind == "game_started")


async def test_reminders_at_24h_and_1h_then_the_timeout_loses(service, clock, db) -> None:
    """With an injected clock: reminders at 48 h and 71 h, the 72 h timeout makes alice lose."""
    game_id = await new_game(service)
    outbox = Outbox()
    dispatcher = Dispatcher(service, outbox)
    assert await dispatcher.run_due(clock.advance(47 * HOUR)) == []
    first = await dispatcher.run_due(clock.advance(HOUR))  # 48 h: 24 h left
    assert [r.kind for r in first] == ["reminder"]
    assert isinstance(first[0].to, UserTarget)
    assert first[0].to.name == "alice"
    assert first[0].event["left_seconds"] == 24 * 3600
    assert await dispatcher.run_due(clock.now) == []  # fired once only
    second = await dispatcher.run_due(clock.advance(23 * HOUR))  # 71 h: 1 h left
    assert [r.event["left_seconds"] for r in second] == [3600]
    assert "1 hour" in second[0].text
    timeout = await dispatcher.run_due(clock.advance(HOUR - timedelta(seconds=1)))
    assert timeout == []  # never early
    timeout = await dispatcher.run_due(clock.advance(timedelta(seconds=1)))
    assert [r.kind for r in timeout] == ["timeout", "game_over"]
    assert timeout[0].event["player"] == "alice"
    assert timeout[0].event["move"] == "ran out of time"
    assert timeout[1].event["winners"] == ["bob"]
    assert timeout[1].event["reason"] == "timeout"
    assert outbox.sent == first + second + timeout
    row = await db.games.get_game(game_id)
    assert row is not None
    assert row.status == "finished"
    results = await db.results.game_results(game_id)
    assert [r.won for r in results] == [False, True]
    replayed = await service.replay(game_id)
    assert replayed is not None
    assert replayed.outcome is not None
    assert replayed.outcome.reason == "timeout"
    assert await dispatcher.run_due(clock.advance(1000 * HOUR)) == []


async def test_a_late_reminder_tells_the_real_time_left(service, clock) -> None:
    """Back up 40 minutes before the timeout: one reminder, saying 40 minutes (not 24 h, 1 h)."""
    await new_game(service)
    outbox = Outbox()
    dispatcher = Dispatcher(service, outbox)
    late = await dispatcher.run_due(clock.advance(72 * HOUR - timedelta(minutes=40)))
    assert [r.event["left_seconds"] for r in late] == [40 * 60]
    assert late[0].text.endswith(
        "Your turn in game #1 (Webfeud) runs out in 40 minutes; if you miss it, you lose the game."
    )
    assert outbox.sent == late


async def test_a_short_reminder_late_by_seconds_tells_the_real_time_left(db, clock) -> None:
    """A 50-second reminder of a 60-second Rummikub turn, sent 29 s late: it says 21 seconds."""
    service = Service(db, clock=clock, render=False, reminders=(timedelta(seconds=50),))
    room, alice = ChatRef(CONSOLE, "room"), UserRef(CONSOLE, "alice", "alice")
    await service.handle(room, alice, "/new rummikub @bob time=60s seed=3")
    await service.handle(room, alice, "/start")
    late = await Dispatcher(service, Outbox()).run_due(clock.advance(timedelta(seconds=39)))
    assert [r.event["left_seconds"] for r in late] == [21]
    assert "runs out in 21 seconds; if you miss it, your tiles go back" in late[0].text


async def test_a_reminder_late_by_hours_says_hours_and_minutes(service, clock) -> None:
    """Back up 2 h 58 min before the timeout, only the 24 h reminder is due: it tells the truth."""
    await new_game(service)
    dispatcher = Dispatcher(service, Outbox())
    late = await dispatcher.run_due(clock.advance(72 * HOUR - 2 * HOUR - timedelta(minutes=58)))
    assert [r.text.split("runs out in ")[1] for r in late] == [
        "2 hours 58 minutes; if you miss it, you lose the game."
    ]
    on_time = await dispatcher.run_due(clock.advance(HOUR + timedelta(minutes=58)))
    assert [r.text.split("runs out in ")[1] for r in on_time] == [
        "1 hour; if you miss it, you lose the game."
    ]


class SlowOutbox:
    """Each send takes a moment; notes which games' news were being sent at the same time."""

    def __init__(self) -> None:
        self.busy: list[int] = []
        self.together: set[frozenset[int]] = set()

    async def __call__(self, replies) -> None:
        game = replies[0].event["game_id"]
        self.together.update(frozenset((game, other)) for other in self.busy)
        self.busy.append(game)
        await asyncio.sleep(0.01)
        self.busy.remove(game)


async def test_reminders_queue_per_chat_and_chats_go_side_by_side(service, clock) -> None:
    """Two games in one chat: their reminders go one after the other; another chat's alongside.

    A reminder is addressed to its player, but a platform may mention the player in the game's
    group instead, so it must queue with that group's other news (its rate limit is per group).
    """
    here, there = ChatRef(CONSOLE, "room"), ChatRef(CONSOLE, "elsewhere")
    games = []
    for chat, host, guest in (
        (here, "alice", "bob"),
        (here, "carol", "dave"),
        (there, "erin", "al"),
    ):
        replies = await service.handle(chat, UserRef(CONSOLE, host, host), f"/new webfeud @{guest}")
        games.append(next(r.event["game_id"] for r in replies if r.kind == "game_started"))
    outbox = SlowOutbox()
    fired = await Dispatcher(service, outbox).run_due(clock.advance(48 * HOUR))
    assert sorted(r.event["game_id"] for r in fired) == games
    assert all(r.kind == "reminder" and isinstance(r.to, UserTarget) for r in fired)
    first, second, elsewhere = games
    assert frozenset((first, second)) not in outbox.together
    assert outbox.together & {frozenset((first, elsewhere)), frozenset((second, elsewhere))}


async def test_a_move_makes_old_deadlines_harmless(service, clock, db) -> None:
    """After alice moves, her deadlines are gone; bob's come 72 h after his turn began."""
    game_id = await new_game(service)
    dispatcher = Dispatcher(service, Outbox())
    clock.advance(10 * HOUR)
    await service.handle(ChatRef(CONSOLE, "room"), UserRef(CONSOLE, "alice", "alice"), "/pass")
    fired = await dispatcher.run_due(START + 72 * HOUR)
    assert fired == [r for r in fired if r.kind == "reminder"]  # bob's 24 h reminder only
    assert [r.to.name for r in fired] == ["bob"]  # type: ignore[union-attr]
    clock.now = START + 82 * HOUR
    over = await dispatcher.run_due(clock.now)
    # bob's 1 h reminder (due at 81 h) is only looked at when his time is up: it is dropped.
    assert [r.kind for r in over] == ["timeout", "game_over"]
    assert over[1].event["winners"] == ["alice"]
    assert (await db.games.get_game(game_id)).status == "finished"  # type: ignore[union-attr]


async def test_timeout_applies_only_if_the_turn_still_matches(service, clock, db) -> None:
    """A stale timeout deadline (turn moved on) is claimed but changes nothing."""
    game_id = await new_game(service)
    [timeout] = [d for d in await db.deadlines.pending_deadlines(game_id) if d.kind == "timeout"]
    await service.handle(ChatRef(CONSOLE, "room"), UserRef(CONSOLE, "alice", "alice"), "/pass")
    assert await service.on_deadline(timeout) == []
    assert len(await db.games.moves(game_id)) == 1


async def test_a_deadline_stored_before_a_restart_fires_once_after_it(db_path: Path) -> None:
    """Overdue deadlines fire at start-up, once, however many restarts and dispatchers follow."""
    clock = Clock(START)
    first = await Database.open(db_path)
    try:
        game_id = await new_game(Service(first, clock=clock, render=False), seed=5)
    finally:
        await first.close()
    clock.now = START + 80 * HOUR  # the bot was down through all three deadlines
    fired: list[Reply] = []
    for _ in range(2):
        db = await Database.open(db_path)
        try:
            service = Service(db, clock=clock, render=False)
            # Two dispatchers race (e.g. two processes): each deadline still fires once.
            one, two = Dispatcher(service, Outbox()), Dispatcher(service, Outbox())
            results = await asyncio.gather(one.run_due(), two.run_due())
            fired += results[0] + results[1]
        finally:
            await db.close()
    # The reminders of a turn that ran out while the bot was down are dropped: only the timeout.
    assert sorted(r.kind for r in fired) == ["game_over", "timeout"]
    db = await Database.open(db_path)
    try:
        row = await db.games.get_game(game_id)
        assert row is not None
        assert row.status == "finished"
        assert await db.deadlines.pending_deadlines(game_id) == []
    finally:
        await db.close()


async def test_background_dispatcher_wakes_for_an_earlier_deadline(db) -> None:
    """The running task sleeps, is woken by a new earlier deadline, and fires it on time."""
    # A reminder 1 s after the turn starts (72 h - 71:59:59 before the deadline).
    service = Service(db, render=False, reminders=(timedelta(hours=72) - timedelta(seconds=1),))
    outbox = Outbox()
    dispatcher = Dispatcher(service, outbox)
    dispatcher.start()
    try:
        await asyncio.sleep(0.05)  # the task is now asleep: no deadlines at all
        await new_game(service)
        for _ in range(60):
            if outbox.sent:
                break
            await asyncio.sleep(0.1)
    finally:
        await dispatcher.stop()
    assert [r.kind for r in outbox.sent] == ["reminder"]
    assert outbox.sent[0].to.name == "alice"  # type: ignore[union-attr]


class GatedOutbox(Outbox):
    """A send that starts, then waits for the gate: a platform slow to answer."""

    def __init__(self) -> None:
        super().__init__()
        self.started = asyncio.Event()
        self.gate = asyncio.Event()

    async def __call__(self, replies) -> None:
        self.started.set()
        await self.gate.wait()
        await super().__call__(replies)


async def test_stopping_lets_news_already_being_sent_go_out(service, clock) -> None:
    """A restart while a claimed reminder is on its way does not cut it off (it fires once)."""
    await new_game(service)
    clock.advance(48 * HOUR)
    outbox = GatedOutbox()
    dispatcher = Dispatcher(service, outbox)
    dispatcher.start()
    await asyncio.wait_for(outbox.started.wait(), 5)
    stopping = asyncio.create_task(dispatcher.stop())
    await asyncio.sleep(0.05)
    assert not stopping.done()  # stop waits for the send in flight ...
    outbox.gate.set()
    await asyncio.wait_for(stopping, 5)
    assert [r.kind for r in outbox.sent] == ["reminder"]  # ... which went out whole
    assert await Dispatcher(service, outbox).run_due() == []  # and was spent


async def test_a_stop_that_is_itself_cancelled_ends_cancelled(service) -> None:
    """Cancelling whoever awaits stop() is not swallowed with the loop's own cancellation."""
    dispatcher = Dispatcher(service, Outbox())
    loop_task = dispatcher.start()
    await asyncio.sleep(0.05)  # the loop sleeps: no deadlines at all
    stopping = asyncio.create_task(dispatcher.stop())
    await asyncio.sleep(0)  # stop() has cancelled the loop and awaits it
    stopping.cancel()
    with pytest.raises(asyncio.CancelledError):
        await stopping
    assert loop_task.cancelled()


async def test_stopping_cuts_off_news_that_never_goes_out(service, clock, caplog) -> None:
    """A platform that never answers holds a stop for `drain` at most; the send is cut off."""
    await new_game(service)
    clock.advance(48 * HOUR)
    outbox = GatedOutbox()  # its gate never opens
    dispatcher = Dispatcher(service, outbox, drain=timedelta(milliseconds=50))
    dispatcher.start()
    await asyncio.wait_for(outbox.started.wait(), 5)
    await asyncio.wait_for(dispatcher.stop(), 5)
    assert outbox.sent == []
    assert "cut off" in caplog.text
    assert await Dispatcher(service, outbox).run_due() == []  # claimed once: never fired twice


async def test_a_move_that_arrives_after_its_deadline_is_told_the_time_ran_out(
    service, clock
) -> None:
    """SmartFeud wait=3m: alice's turn times out (a pass); her late /pass is told why not."""
    room, alice = ChatRef(CONSOLE, "room"), UserRef(CONSOLE, "alice", "alice")
    await service.handle(room, alice, "/new smartfeud @bob wait=3m seed=1")
    await service.handle(room, alice, "/start")
    fired = await Dispatcher(service, Outbox()).run_due(clock.advance(timedelta(minutes=3)))
    assert [r.kind for r in fired][:1] == ["timeout"]
    [late] = await service.handle(room, alice, "/pass")
    assert (late.event["reason"], late.text) == (
        "TIME_RAN_OUT",
        "Your time ran out in game #1 before this arrived; nothing was played (see /board).",
    )
    # Told once: what she sends next meets the usual word (it met this one until bob moved).
    [again] = await service.handle(room, alice, "/pass")
    assert again.event["reason"] == "NOT_YOUR_TURN", again.text
    # Once bob has moved, alice's turn is simply not yet due again.
    await service.handle(room, UserRef(CONSOLE, "bob", "bob"), "/pass")
    fine = await service.handle(room, alice, "/pass")
    assert fine[0].kind == "move_played"


async def test_a_move_after_its_deadline_is_late_before_the_deadline_is_applied(
    service, clock, db
) -> None:
    """The deadline passed while nothing applied it yet (the first moments after a restart, a
    move a hair late): the move is not played; the missed deadline's rule is applied at once,
    as the dispatcher would, which then finds nothing left to do. The move was played, and the
    timeout then found the turn gone: a Webfeud loss undone.
    """
    room, alice = ChatRef(CONSOLE, "room"), UserRef(CONSOLE, "alice", "alice")
    await service.handle(room, alice, "/new webfeud @bob seed=1")
    clock.advance(timedelta(hours=72, minutes=30))  # alice's 72 hours are over
    [board] = await service.handle(room, alice, "/board")
    assert board.text.endswith("alice to move; time is up."), board.text  # not "0 seconds left"
    late, *told = await service.handle(room, alice, "/pass")
    assert (late.event["reason"], late.text) == (
        "TIME_RAN_OUT",
        "Your time ran out in game #1 before this arrived (you lost the game); what you sent "
        "was not played (see /board).",
    )
    assert [r.kind for r in told][:1] == ["timeout"]
    assert "game_over" in [r.kind for r in told]
    assert (await db.games.get_game(1)).status == "finished"  # type: ignore[union-attr]
    assert await Dispatcher(service, Outbox()).run_due(clock()) == []  # nothing twice


async def test_a_placement_refused_as_overdue_is_refused_once(service, clock, db) -> None:
    """NMBR 9 against bots, deadline=10m: alice's placement at the due second is refused and
    her tile placed by the rule; her next placement, for the new round, plays (it was refused
    a second time, as "late").
    """
    room, alice = ChatRef(CONSOLE, "room"), UserRef(CONSOLE, "alice", "alice")
    await service.handle(room, alice, "/new nmbr9 bot=easy deadline=10m seed=7")
    await service.handle(room, alice, "/start")
    [moves] = await service.handle(room, alice, "/moves")
    clock.advance(timedelta(minutes=10))
    late, *told = await service.handle(room, alice, f"/place {moves.event['moves'][0]}")
    assert late.event["reason"] == "TIME_RAN_OUT"
    assert "(the easy rule placed your tile)" in late.text
    assert "timeout" in [r.kind for r in told]
    clock.advance(timedelta(seconds=20))
    [moves] = await service.handle(room, alice, "/moves")  # round 2's tile
    placed = await service.handle(room, alice, f"/place {moves.event['moves'][0]}")
    assert placed[0].kind != "error", placed[0].text


async def test_a_short_timers_grace_is_a_quarter_of_its_turn(service, clock) -> None:
    """Rummikub time=15s: a move 2 s after one's timeout is late; one 5 s after is played (a
    turn that came back at once is answered as quickly: 5 minutes of grace refused it).
    """
    room = ChatRef(CONSOLE, "room")
    alice, bob = UserRef(CONSOLE, "alice", "alice"), UserRef(CONSOLE, "bob", "bob")

    async def kind(player: UserRef, line: str) -> str:
        [reply, *_] = await service.handle(room, player, line)
        return str(reply.event.get("reason", reply.kind))

    await kind(alice, "/new rummikub @bob time=15s seed=7")
    await kind(bob, "/join")
    await kind(alice, "/start")
    for wait, then in ((2, "TIME_RAN_OUT"), (5, "move_played")):
        fired = await Dispatcher(service, Outbox()).run_due(clock.advance(timedelta(seconds=16)))
        assert [(r.kind, r.event.get("player")) for r in fired][:1] == [("timeout", "alice")]
        assert await kind(bob, "/draw") == "move_played"  # the turn comes back to alice at once
        clock.advance(timedelta(seconds=wait))
        assert await kind(alice, "/draw") == then, wait
        if then == "TIME_RAN_OUT":
            assert await kind(alice, "/draw") == "move_played"  # told once
            assert await kind(bob, "/draw") == "move_played"


async def test_a_resignation_right_after_a_timeout_is_taken(service, clock) -> None:
    """Resigning is allowed on any turn: after alice's own timeout it is not "too late"."""
    room, alice = ChatRef(CONSOLE, "room"), UserRef(CONSOLE, "alice", "alice")
    await service.handle(room, alice, "/new rummikub @bob time=15s seed=1")
    await service.handle(room, alice, "/start")
    fired = await Dispatcher(service, Outbox()).run_due(clock.advance(timedelta(seconds=16)))
    assert [r.kind for r in fired][:1] == ["timeout"]
    replies = await service.handle(room, alice, "/resign")
    assert replies[0].text.startswith("#1 alice: resigned"), replies[0].text
    assert [r.kind for r in replies][-1] == "game_over"


async def test_a_move_after_a_timeout_that_ended_the_game_is_told_so(service, clock) -> None:
    """Webfeud: alice's timeout loses the game; her late move is told the time ran out.

    With or without game=1 — not "You have no game in this chat" or "Game #1 is over".
    """
    room, alice = ChatRef(CONSOLE, "room"), UserRef(CONSOLE, "alice", "alice")
    await service.handle(room, alice, "/new webfeud @bob seed=9")
    fired = await Dispatcher(service, Outbox()).run_due(clock.advance(72 * HOUR))
    assert "timeout" in [r.kind for r in fired]
    told = (
        "Your time ran out in game #1, which ended the game, before this arrived; nothing was "
        "played (see /board game=1)."
    )
    for line in ("/pass", "/play 8H QI", "/pass game=1"):
        [late] = await service.handle(room, alice, line)
        assert (late.event["reason"], late.text) == ("TIME_RAN_OUT", told), line
    # bob, who won, is not told about a timeout; neither is alice once she has a new game.
    [bobs] = await service.handle(room, UserRef(CONSOLE, "bob", "bob"), "/pass")
    assert bobs.event["reason"] == "NO_GAME"
    await service.handle(room, alice, "/new webfeud @carol seed=2")
    [later] = await service.handle(room, alice, "/pass game=1")
    assert later.event["reason"] == "TIME_RAN_OUT"
    now = await service.handle(room, alice, "/pass")
    assert now[0].kind == "move_played"


async def test_a_resignation_out_of_turn_keeps_the_movers_clock(service, clock, db) -> None:
    """Carol resigns during bob's turn: his deadline stays where it was; no "your turn"."""
    room = ChatRef(CONSOLE, "room")
    alice, carol = UserRef(CONSOLE, "alice", "alice"), UserRef(CONSOLE, "carol", "carol")
    await service.handle(room, alice, "/new rummikub @bob @carol time=60s seed=1")
    await service.handle(room, alice, "/start")
    await service.handle(room, alice, "/draw")  # bob's turn, 60 s from now
    [due] = [d.due_at for d in await db.deadlines.pending_deadlines(1) if d.kind == "timeout"]
    clock.advance(timedelta(seconds=20))
    replies = await service.handle(room, carol, "/resign")
    assert [r.kind for r in replies] == ["move_played"]  # nobody was handed the turn
    pending = await db.deadlines.pending_deadlines(1)
    assert [(d.kind, d.due_at, d.payload["seat"]) for d in pending] == [("timeout", due, 1)]
    fired = await Dispatcher(service, Outbox()).run_due(clock.advance(timedelta(seconds=40)))
    assert [r.kind for r in fired][:1] == ["timeout"]  # at bob's own 60 seconds


def test_lengths_of_time_are_said_to_the_second_under_ten_minutes() -> None:
    """A 90 s reminder says "1 minute 30 seconds", not "1 minute"; longer times keep minutes."""
    from bot.service import _fmt_delta

    assert _fmt_delta(timedelta(seconds=90)) == "1 minute 30 seconds"
    assert _fmt_delta(timedelta(seconds=45)) == "45 seconds"
    assert _fmt_delta(timedelta(minutes=5)) == "5 minutes"
    assert _fmt_delta(timedelta(minutes=12, seconds=30)) == "12 minutes"
    assert _fmt_delta(timedelta(hours=1, seconds=1)) == "1 hour"
    assert _fmt_delta(timedelta(hours=71, minutes=59)) == "71 hours 59 minutes"


async def deadline_of(db: Database, game_id: int, kind: str):
    return next(d for d in await db.deadlines.pending_deadlines(game_id) if d.kind == kind)


async def test_a_claim_whose_process_died_fires_after_the_lease(service, clock, db) -> None:
    """A process that claimed the timeout and died: the claim goes back after the lease."""
    from bot.reminders import LEASE

    game_id = await new_game(service)
    timeout = await deadline_of(db, game_id, "timeout")
    clock.advance(72 * HOUR)
    assert await db.deadlines.claim_deadline(timeout.id, clock.now)  # …and the process died
    dispatcher = Dispatcher(service, Outbox())
    assert "timeout" not in [r.kind for r in await dispatcher.run_due(clock.now)]
    assert "timeout" not in [r.kind for r in await dispatcher.run_due(clock.advance(LEASE / 2))]
    fired = await dispatcher.run_due(clock.advance(LEASE / 2))
    assert [r.kind for r in fired] == ["timeout", "game_over"]
    assert (await db.deadlines.get_deadline(timeout.id)).state == "done"
    assert (await db.games.get_game(game_id)).status == "finished"


async def test_a_stop_lets_the_running_handler_finish_and_tell(service, clock, db) -> None:
    """Stopped while a deadline's handler waits for its game: it finishes within the drain.

    Its news goes out: a timeout stored but never told would be lost for good (firing it
    again finds its turn gone). A handler still running when the drain ends is cut off and its
    deadline goes back, uncounted, to fire after the restart.
    """
    game_id = await new_game(service)
    ids = [d.id for d in await db.deadlines.pending_deadlines(game_id)]

    async def claimed() -> list[int]:
        return [i for i in ids if (await db.deadlines.get_deadline(i)).state == "claimed"]

    async def stop_while_the_game_is_busy(dispatcher: Dispatcher, *, busy_to_the_end: bool):
        async with service._lock(game_id):  # a command of this game is being carried out
            firing = asyncio.create_task(dispatcher.run_due(clock.now))
            while not await claimed():  # noqa: ASYNC110 - a row in SQLite: nothing to await
                await asyncio.sleep(0.01)
            [deadline] = await claimed()
            firing.cancel()
            await asyncio.gather(firing, return_exceptions=True)
            if busy_to_the_end:
                await dispatcher.stop()
        await dispatcher.stop()
        return deadline

    outbox = Outbox()
    clock.advance(48 * HOUR)  # the first reminder is due: the command ends within the drain
    first = await stop_while_the_game_is_busy(Dispatcher(service, outbox), busy_to_the_end=False)
    assert (await db.deadlines.get_deadline(first)).state == "done"
    assert [r.kind for r in outbox.sent] == ["reminder"]
    outbox = Outbox()
    clock.advance(23 * HOUR)  # the second: the game stays busy past the drain
    short = Dispatcher(service, outbox, drain=timedelta(seconds=0.05))
    second = await stop_while_the_game_is_busy(short, busy_to_the_end=True)
    assert (await db.deadlines.get_deadline(second)).state == "pending"
    assert (await db.deadlines.get_deadline(second)).payload.get("attempts") is None
    assert outbox.sent == []
    fired = await Dispatcher(service, Outbox()).run_due(clock.now)  # after the restart
    assert [r.kind for r in fired] == ["reminder"]
    assert (await db.deadlines.get_deadline(second)).state == "done"


async def test_a_process_fires_only_the_deadlines_of_its_platforms(service, clock, db) -> None:
    """The console on a Telegram bot's database leaves the Telegram games' deadlines alone."""
    group = ChatRef("telegram", "-100123", "Club")
    await service.handle(group, UserRef("telegram", "2", "bob"), "/help")
    replies = await service.handle(group, UserRef("telegram", "1", "alice"), "/new webfeud @bob")
    game_id = next(r.event["game_id"] for r in replies if r.kind == "game_started")
    console = Dispatcher(service, Outbox(), platforms=(CONSOLE,))
    assert await console.run_due(clock.advance(72 * HOUR)) == []
    assert (await db.games.get_game(game_id)).status == "active"
    telegram = Dispatcher(service, Outbox(), platforms=("telegram",))
    assert [r.kind for r in await telegram.run_due(clock.now)][-2:] == ["timeout", "game_over"]


async def test_a_handler_cut_off_never_takes_the_news_done_before_it(service, clock, db) -> None:
    """Game A's timeout is applied; B's handler is cut off at the drain: A's news still goes."""

    async def game_in(chat: str, host: str, guest: str) -> int:
        replies = await service.handle(
            ChatRef(CONSOLE, chat), UserRef(CONSOLE, host, host), f"/new webfeud @{guest}"
        )
        return next(r.event["game_id"] for r in replies if r.kind == "game_started")

    a = await game_in("room-a", "alice", "bob")
    clock.advance(25 * HOUR)
    b = await game_in("room-b", "carol", "dave")
    clock.advance(48 * HOUR)  # A's timeout is due (72 h), then B's first reminder (48 h)
    outbox = Outbox()
    dispatcher = Dispatcher(service, outbox, drain=timedelta(seconds=0.05))
    async with service._lock(b):  # B's game is busy past the drain
        firing = asyncio.create_task(dispatcher.run_due(clock.now))
        while (await db.games.get_game(a)).status != "finished":  # noqa: ASYNC110 - SQLite
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)  # B's handler now waits for its game
        firing.cancel()
        await asyncio.gather(firing, return_exceptions=True)
        await dispatcher.stop()
    told = [r.kind for r in outbox.sent if r.event.get("game_id") == a]
    assert told[-2:] == ["timeout", "game_over"]
    assert [r for r in outbox.sent if r.event.get("game_id") == b] == []
    # B's reminder was cut off and put back: both of its reminders still wait to fire.
    assert len([d for d in await db.deadlines.pending_deadlines(b) if d.kind == "reminder"]) == 2


async def test_a_late_move_is_not_played_on_the_turn_that_came_back(service, clock, db) -> None:
    """A bot answered alice's timeout at once: her late /pass is told, not a second pass.

    Played, it would have been her second pass in a row (SmartFeud: one more ends the game).
    Told once, within minutes of the timeout; her next move plays.
    """
    room, alice = ChatRef(CONSOLE, "room"), UserRef(CONSOLE, "alice", "alice")
    await service.handle(room, alice, "/new smartfeud bot=easy wait=3m seed=2")
    await service.handle(room, alice, "/start")
    await Dispatcher(service, Outbox()).run_due(clock.advance(timedelta(minutes=3)))
    before = (await db.games.get_game(1)).version  # type: ignore[union-attr]
    [late] = await service.handle(room, alice, "/pass")
    assert (late.event["reason"], late.text) == (
        "TIME_RAN_OUT",
        "Your time ran out in game #1 before this arrived (the turn counted as a pass); what you "
        "sent was not played. It is your move again: send it again to play it now.",
    )
    assert (await db.games.get_game(1)).version == before  # type: ignore[union-attr]
    again = await service.handle(room, alice, "/pass")
    assert again[0].kind == "move_played", again[0].text


async def test_a_late_placement_is_not_put_on_the_next_rounds_tile(service, clock, db) -> None:
    """NMBR 9 alone: the deadline placed alice's tile; her placement sent for it is not laid.

    The round came back to her at once: it would have been laid with the next round's tile.
    """
    room, alice = ChatRef(CONSOLE, "room"), UserRef(CONSOLE, "alice", "alice")
    await service.handle(room, alice, "/new nmbr9 deadline=10m seed=7")
    await service.handle(room, alice, "/start")
    [moves] = await service.handle(room, alice, "/moves")
    await Dispatcher(service, Outbox()).run_due(clock.advance(timedelta(minutes=10)))
    before = (await db.games.get_game(1)).version  # type: ignore[union-attr]
    [late] = await service.handle(room, alice, f"/place {moves.event['moves'][0]}")
    assert late.event["reason"] == "TIME_RAN_OUT"
    # Told after the fact: the tile was placed (it read "the easy rule places it for you").
    assert "(the easy rule placed your tile); what you sent was not played" in late.text
    assert late.text.endswith("The next round's tile is yours to place now (/moves).")  # whole
    assert (await db.games.get_game(1)).version == before  # type: ignore[union-attr]
    [moves] = await service.handle(room, alice, "/moves")  # round 2's tile, seen now
    placed = await service.handle(room, alice, f"/place {moves.event['moves'][0]}")
    assert placed[0].kind != "error", placed[0].text


async def test_a_move_minutes_after_a_timeout_is_simply_played(service, clock) -> None:
    """Past `LATE_MOVE_GRACE`, a move after one's own timeout is meant for the turn it finds.

    (wait=20m: the turn it finds is not overdue too, as a 3-minute one would be by then.)
    """
    room, alice = ChatRef(CONSOLE, "room"), UserRef(CONSOLE, "alice", "alice")
    await service.handle(room, alice, "/new smartfeud bot=easy wait=20m seed=2")
    await service.handle(room, alice, "/start")
    await Dispatcher(service, Outbox()).run_due(clock.advance(timedelta(minutes=20)))
    clock.advance(LATE_MOVE_GRACE + timedelta(seconds=1))
    played = await service.handle(room, alice, "/pass")
    assert played[0].kind == "move_played", played[0].text


async def test_a_group_that_removed_the_bot_holds_its_clocks_until_it_is_back(
    service, clock
) -> None:
    """Removed from a group, the bot holds its games' deadlines: nobody times out unseen.

    The players are told privately; a move sent privately meanwhile is played, and its sender
    told the group cannot see it; back, every turn has the time it had left.
    """
    group = ChatRef("telegram", "-100", "Feud club")
    alice, bob = UserRef("telegram", "1001", "alice"), UserRef("telegram", "1002", "bob")
    await service.handle(group, bob, "/help")
    started = await service.handle(group, alice, "/new webfeud @bob")
    game_id = next(r.event["game_id"] for r in started if r.kind == "game_started")
    dispatcher = Dispatcher(service, Outbox())
    clock.advance(10 * HOUR)  # alice's turn: 62 h left
    told = await service.chat_away("telegram", "-100", True)
    assert sorted(r.to.platform_user_id for r in told) == ["1001", "1002"]
    assert all(r.private for r in told)
    assert told[0].text == (
        f"I was removed from Feud club, so game #{game_id} (Webfeud in Feud club) waits: its "
        "clock stands still, and nobody's time runs out, until someone adds me back there."
    )
    assert await service.chat_away("telegram", "-100", True) == []  # said twice: once
    assert await dispatcher.run_due(clock.advance(100 * HOUR)) == []  # no reminder, no loss
    # Typed privately, routed to the group's game (`private_route`), as the adapters do.
    assert await service.private_route(
        ChatRef("telegram", "1001", private=True), alice, "board", None, "/board"
    ) == ChatRef("telegram", "-100")
    [board, *_] = await service.handle(group, alice, "/board")
    assert "alice to move; 62 hours left when I am back in Feud club." in board.text
    moved = await service.handle(group, alice, "/pass")
    assert moved[-1].text == (
        "I cannot write in Feud club now, so the group does not see this move; the game's "
        "clock stands still until I can again."
    )
    assert moved[-1].to.platform_user_id == "1001"
    clock.advance(5 * HOUR)  # bob's turn, set while away: its 72 h start when the bot is back
    [back, board] = await service.chat_away("telegram", "-100", False)
    assert back.text == (
        f"I am back: game #{game_id} (Webfeud) goes on, every turn with the time it had left "
        "when its clock stopped. /games shows them."
    )
    assert not back.private
    # The board as it stands now follows: alice's pass, sent privately, is on it.
    assert (board.kind, board.event["game_id"], board.private) == ("board", game_id, False)
    assert "bob to move; 72 hours left." in board.text
    assert await dispatcher.run_due(clock.advance(48 * HOUR - timedelta(seconds=1))) == []
    [reminder] = await dispatcher.run_due(clock.advance(timedelta(seconds=1)))
    assert reminder.event["player"] == "bob"
    assert reminder.event["left_seconds"] == 24 * 3600


async def test_a_timeout_claimed_a_moment_before_the_bot_is_removed_waits_for_its_return(
    db, clock
) -> None:
    """Claimed, then the group removes the bot before the handler runs: the timeout waits.

    The removal is written while the claim holds the database, so the handler runs after it
    (the database lock is first come, first served). Before, alice lost on time in a group
    that could not see it; now the claim goes back, held, and the timeout fires once the bot
    is back, with the time it had left.
    """
    service = Service(db, clock=clock, render=False, reminders=())
    group = ChatRef("telegram", "-100", "Feud club")
    alice, bob = UserRef("telegram", "1001", "alice"), UserRef("telegram", "1002", "bob")
    await service.handle(group, bob, "/help")
    started = await service.handle(group, alice, "/new webfeud @bob")
    game_id = next(r.event["game_id"] for r in started if r.kind == "game_started")
    due = clock.advance(72 * HOUR)
    claiming = asyncio.Event()

    def claim_clock():  # the dispatcher reads its clock just before it claims
        claiming.set()
        return due

    outbox = Outbox()
    firing = asyncio.create_task(Dispatcher(service, outbox, clock=claim_clock).run_due(due))
    await claiming.wait()  # the claim's transaction has begun: this one comes next
    async with db.transaction():
        told = await service.chat_away("telegram", "-100", True)
    assert [r.kind for r in told] == ["chat_away", "chat_away"]  # each player, privately
    assert await firing == []
    assert outbox.sent == []
    assert (await db.games.get_game(game_id)).status == "active"
    [held] = await db.deadlines.pending_deadlines(game_id)
    assert held.kind == "timeout"
    dispatcher = Dispatcher(service, outbox)
    assert await dispatcher.run_due(clock.advance(5 * HOUR)) == []  # held meanwhile
    await service.chat_away("telegram", "-100", False)
    timeout = await dispatcher.run_due(clock.now)  # back: it had no time left
    assert [r.kind for r in timeout] == ["timeout", "game_over"]


async def test_a_message_from_a_group_brings_back_a_removed_bot_not_a_muted_one(
    service, clock, db
) -> None:
    """A removed bot hearing its group again is back; a muted one still hears it.

    Muted, it is back only when it may write again, even after a restart (a new service on
    the same file).
    """
    group = ChatRef("telegram", "-100", "Feud club")
    alice, bob = UserRef("telegram", "1001", "alice"), UserRef("telegram", "1002", "bob")
    await service.handle(group, bob, "/help")
    await service.handle(group, alice, "/new webfeud @bob")
    told = await service.chat_away("telegram", "-100", True, muted=True)
    assert told[0].text.startswith("I may no longer write in Feud club (an admin took that right")
    restarted = Service(db, clock=clock, render=False)
    assert (await db.chats.get_chat_by_platform_id("telegram", "-100")).muted
    assert await restarted.chat_heard("telegram", "-100") == []
    [back, _board] = await restarted.chat_away("telegram", "-100", False)
    assert back.text.startswith("I am back: game #1 (Webfeud) goes on")
    assert not (await db.chats.get_chat_by_platform_id("telegram", "-100")).muted
    await restarted.chat_away("telegram", "-100", True)  # removed, this time
    [back, _board] = await restarted.chat_heard("telegram", "-100")
    assert back.text.startswith("I am back")
    assert await restarted.chat_heard("telegram", "-100") == []  # said once
    assert await restarted.chat_heard("telegram", "-999") == []  # a group never seen


async def test_settled_deadlines_are_deleted_after_thirty_days(service, clock, db, db_path) -> None:
    """Each move cancels its turn's deadlines: those (and the fired ones) go after 30 days."""
    import sqlite3

    game_id = await new_game(service)
    room = ChatRef(CONSOLE, "room")
    for name in ("alice", "bob", "alice"):
        await service.handle(room, UserRef(CONSOLE, name, name), "/pass")

    def states() -> list[str]:
        with sqlite3.connect(db_path) as conn:
            return sorted(s for (s,) in conn.execute("SELECT state FROM deadlines"))

    assert "cancelled" in states()
    dispatcher = Dispatcher(service, Outbox())
    await dispatcher.run_due(clock.now)  # the first pass prunes: nothing is that old yet
    assert "cancelled" in states()
    clock.advance(timedelta(days=31))
    fresh = await new_game(service, seed=2)
    await dispatcher.run_due(clock.now - timedelta(days=31) + timedelta(hours=23))  # < a day
    assert "cancelled" in states()  # pruned at most once a day
    await dispatcher.run_due(clock.now)  # game 1 times out now: its deadlines are settled
    assert "cancelled" not in states()
    assert "done" not in states()  # set 31 days ago, though fired just now
    assert await db.deadlines.pending_deadlines(fresh)  # today's game keeps its deadlines
    assert await db.deadlines.pending_deadlines(game_id) == []


async def test_notices_of_games_ended_thirty_days_ago_are_deleted(service, clock, db, db_path):
    """A game's notices (a nudge a turn, late moves) go 30 days after it ended, at the prune.

    A game still played keeps them, however old. Before, they stayed for ever.
    """
    import sqlite3

    def notices() -> list[int]:
        with sqlite3.connect(db_path) as conn:
            return sorted(g for (g,) in conn.execute("SELECT game_id FROM game_notices"))

    ended = await new_game(service)
    await db.notices.first_notice(ended, "alice", "tip")
    await service.handle(ChatRef(CONSOLE, "room"), UserRef(CONSOLE, "alice", "alice"), "/resign")
    going = await new_game(service, seed=2)
    await db.notices.first_notice(going, "alice", "tip")
    dispatcher = Dispatcher(service, Outbox())
    await dispatcher.run_due(clock.now)  # the first pass prunes: it ended just now
    assert notices() == [ended, going]
    clock.advance(timedelta(days=31))
    await dispatcher.run_due(clock.now)
    assert notices() == [going]  # a game still played keeps them, however old


async def test_messages_of_games_ended_thirty_days_ago_are_forgotten_but_a_finished_board(
    service, clock, db, db_path
) -> None:
    """A game's kept chat messages go 30 days after it ended, at the prune: nothing edits them.

    A finished game's board stays (a reply to it names the game: /rematch); a game still
    played keeps all, however old. Before, every message of every game stayed for ever.
    """
    import sqlite3

    from storage import GameMessage

    def kept() -> list[tuple[int, str]]:
        with sqlite3.connect(db_path) as conn:
            return sorted(conn.execute("SELECT game_id, slot FROM game_messages"))

    alice = UserRef(CONSOLE, "alice", "alice")
    finished = await new_game(service)
    await service.handle(ChatRef(CONSOLE, "room"), alice, f"/resign game={finished}")
    [created] = await service.handle(ChatRef(CONSOLE, "room"), alice, "/new nmbr9")
    cancelled = created.event["game_id"]
    await service.handle(ChatRef(CONSOLE, "room"), alice, f"/cancel game={cancelled}")
    going = await new_game(service, seed=2)
    assert [(await db.games.get_game(g)).status for g in (finished, cancelled, going)] == [
        "finished",
        "cancelled",
        "active",
    ]
    for game in (finished, cancelled, going):
        for n, slot in enumerate(("board", "live", "draft")):
            await db.messages.put_message(GameMessage(game, slot, "room", f"{game}{n}"))
    everything = kept()
    dispatcher = Dispatcher(service, Outbox())
    await dispatcher.run_due(clock.now)  # the first pass prunes: they ended just now
    assert kept() == everything
    clock.advance(timedelta(days=31))
    await dispatcher.run_due(clock.now)
    assert kept() == [(finished, "board"), *((going, s) for s in ("board", "draft", "live"))]
    assert await db.messages.game_of_message(CONSOLE, "room", f"{finished}0", "board") == finished

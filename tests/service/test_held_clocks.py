"""A group's held clocks (Service.chat_away / chat_heard) for every game kind and move kind.

A move out of turn while held (a resignation, a quit) keeps the mover's clock where it stopped.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from bot.adapters.common import APOLOGY
from bot.reminders import Dispatcher
from bot.replies import Reply
from bot.service import ChatRef, Service, UserRef
from storage import Database

HOUR = timedelta(hours=1)
MIN = timedelta(minutes=1)
GROUP = ChatRef("telegram", "-100", "Feud club")
ALICE = UserRef("telegram", "1001", "alice")
BOB = UserRef("telegram", "1002", "bob")
CAROL = UserRef("telegram", "1003", "carol")


class Outbox:
    def __init__(self) -> None:
        self.sent: list[Reply] = []

    async def __call__(self, replies) -> None:
        self.sent += replies


async def _know(service: Service) -> None:
    for user in (BOB, CAROL):
        await service.handle(GROUP, user, "/help")


async def _timeouts(db: Database, game_id: int):
    return [d for d in await db.deadlines.pending_deadlines(game_id) if d.kind == "timeout"]


def _no_trouble(replies) -> None:
    for r in replies:
        assert APOLOGY not in r.text, r.text
        assert "Traceback" not in r.text, r.text


async def held_smartfeud_of_three(service: Service, clock: Any) -> None:
    """Start SmartFeud alice, bob, carol; hold the group 10 h into alice's turn (38 h left)."""
    await _know(service)
    await service.handle(GROUP, ALICE, "/new smartfeud @bob @carol")
    await service.handle(GROUP, ALICE, "/start")
    clock.advance(10 * HOUR)
    await service.chat_away("telegram", "-100", True)


async def test_resignation_out_of_turn_while_held_keeps_the_movers_time(service, clock, db):
    """SmartFeud of three: carol resigns (privately) during alice's turn while the bot is out.

    Alice had 38 h left when the clock stopped; she must still have 38 h when it is back.
    """
    await held_smartfeud_of_three(service, clock)
    [t] = await _timeouts(db, 1)
    assert t.payload["seat"] == 0  # alice to move
    clock.advance(20 * HOUR)
    resigned = await service.handle(GROUP, CAROL, "/resign")  # as private_route carries it
    _no_trouble(resigned)
    clock.advance(20 * HOUR)
    await service.chat_away("telegram", "-100", False)
    back = clock.now
    dispatcher = Dispatcher(service, Outbox())
    fired = await dispatcher.run_due(back + 38 * HOUR - MIN)
    assert "timeout" not in [r.kind for r in fired], [r.text for r in fired]
    fired = await dispatcher.run_due(back + 38 * HOUR + MIN)
    assert "timeout" in [r.kind for r in fired]


async def test_resignation_while_held_longer_than_the_time_left_times_nobody_out(
    service, clock, db
):
    """The hold outlasts alice's 38 h; carol resigns meanwhile: alice must not lose her turn."""
    await held_smartfeud_of_three(service, clock)
    clock.advance(50 * HOUR)  # longer than alice's 38 h
    await service.handle(GROUP, CAROL, "/resign")
    clock.advance(HOUR)
    await service.chat_away("telegram", "-100", False)
    fired = await Dispatcher(service, Outbox()).run_due(clock.now + MIN)
    assert fired == [], [r.text for r in fired]  # nobody times out the moment the bot is back


async def test_a_move_sent_while_held_after_a_resignation_is_played(service, clock, db):
    """Same hold: alice's own move, sent privately after carol resigned, is played, not 'late'."""
    await held_smartfeud_of_three(service, clock)
    clock.advance(50 * HOUR)
    await service.handle(GROUP, CAROL, "/resign")
    clock.advance(MIN)
    moved = await service.handle(GROUP, ALICE, "/pass")
    assert moved[0].kind == "move_played", moved[0].text


async def test_board_while_held_after_a_resignation_shows_the_time_left(service, clock, db):
    """/board while held, after carol's resignation out of turn: alice's 38 h, not less."""
    await held_smartfeud_of_three(service, clock)
    clock.advance(20 * HOUR)
    await service.handle(GROUP, CAROL, "/resign")
    [board, *_] = await service.handle(GROUP, BOB, "/board")
    assert "alice to move; 38 hours left when I am back in Feud club" in board.text, board.text


async def test_games_list_while_held_and_after_return(service, clock, db):
    """/games and /board say the held time; after return the clock runs from that time."""
    await _know(service)
    await service.handle(GROUP, ALICE, "/new webfeud @bob")
    clock.advance(2 * HOUR)  # 70 h left
    await service.chat_away("telegram", "-100", True)
    clock.advance(30 * HOUR)
    [games, *_] = await service.handle(GROUP, ALICE, "/games")
    _no_trouble([games])
    assert "70 hours left when I am back in Feud club" in games.text, games.text
    await service.chat_away("telegram", "-100", False)
    clock.advance(5 * HOUR)
    [games, *_] = await service.handle(GROUP, ALICE, "/games")
    assert "65 hours left" in games.text, games.text
    assert "when I am back" not in games.text


async def test_several_games_in_one_chat_are_held_and_resumed_each(service, clock, db):
    """Two games (Webfeud, Numfeud) held together: one DM per player per game, one 'back'."""
    await _know(service)
    await service.handle(GROUP, ALICE, "/new webfeud @bob")
    clock.advance(HOUR)
    await service.handle(GROUP, BOB, "/new numfeud @carol")
    clock.advance(HOUR)
    told = await service.chat_away("telegram", "-100", True)
    assert sorted((r.to.platform_user_id, r.event["game_id"]) for r in told) == [
        ("1001", 1),
        ("1002", 1),
        ("1002", 2),
        ("1003", 2),
    ]
    clock.advance(100 * HOUR)
    back = await service.chat_away("telegram", "-100", False)
    assert [r.text for r in back][:1] == [
        "I am back: games #1 (Webfeud) and #2 (Numfeud) go on, every turn with the time it had "
        "left when its clock stopped. /games shows them."
    ]
    assert [(r.kind, r.event["game_id"]) for r in back[1:]] == [("board", 1), ("board", 2)]
    t1 = (await _timeouts(db, 1))[0].due_at
    t2 = (await _timeouts(db, 2))[0].due_at
    assert t1 == clock.now + 70 * HOUR
    assert t2 == clock.now + 71 * HOUR


async def test_removed_back_removed_back_fires_each_reminder_once_on_time(service, clock, db):
    """Two holds in a row: each deadline put off by both; each reminder fires once."""
    await _know(service)
    await service.handle(GROUP, ALICE, "/new webfeud @bob")
    outbox = Outbox()
    dispatcher = Dispatcher(service, outbox)
    clock.advance(10 * HOUR)  # 62 h left, 24 h reminder in 38 h
    await service.chat_away("telegram", "-100", True)
    clock.advance(7 * HOUR)
    await service.chat_away("telegram", "-100", False)
    clock.advance(3 * HOUR)  # 59 h left
    await service.chat_away("telegram", "-100", True)
    assert await dispatcher.run_due(clock.advance(200 * HOUR)) == []
    await service.chat_away("telegram", "-100", False)
    back = clock.now
    assert await dispatcher.run_due(back + 35 * HOUR - MIN) == []
    [r24] = await dispatcher.run_due(back + 35 * HOUR)
    assert r24.kind == "reminder"
    assert r24.event["left_seconds"] == 24 * 3600
    assert await dispatcher.run_due(back + 58 * HOUR - MIN) == []
    [r1] = await dispatcher.run_due(back + 58 * HOUR)
    assert r1.event["left_seconds"] == 3600
    assert await dispatcher.run_due(back + 59 * HOUR - timedelta(seconds=1)) == []
    fired = await dispatcher.run_due(back + 59 * HOUR)
    assert "timeout" in [r.kind for r in fired]
    assert await dispatcher.run_due(back + 500 * HOUR) == []


async def test_a_bot_game_held_the_bot_answers_a_private_move_and_waits(service, clock, db):
    """SmartFeud vs a bot: alice passes while held; the bot answers; her new turn is whole."""
    await service.handle(GROUP, ALICE, "/new smartfeud bot=easy wait=12h")
    await service.handle(GROUP, ALICE, "/start")
    await service.chat_away("telegram", "-100", True)
    clock.advance(HOUR)
    moved = await service.handle(GROUP, ALICE, "/pass")
    _no_trouble(moved)
    game = await db.games.get_game(1)
    assert game is not None
    assert game.status == "active"
    [board, *_] = await service.handle(GROUP, ALICE, "/board")
    # The bot moved at once; alice's new turn has its whole 12 h, standing still.
    assert "alice to move; 12 hours left when I am back" in board.text, board.text
    clock.advance(10 * HOUR)
    assert await Dispatcher(service, Outbox()).run_due(clock.now) == []
    await service.chat_away("telegram", "-100", False)
    fired = await Dispatcher(service, Outbox()).run_due(clock.now + 12 * HOUR - MIN)
    assert "timeout" not in [r.kind for r in fired]


async def test_rummikub_timer_and_draft_while_held(service, clock, db):
    """Rummikub time=60s: 20 s used, held an hour with a draft step; back: 40 s left."""
    await _know(service)
    await service.handle(GROUP, ALICE, "/new rummikub @bob time=60s")
    await service.handle(GROUP, ALICE, "/start")
    clock.advance(timedelta(seconds=20))
    await service.chat_away("telegram", "-100", True)
    clock.advance(HOUR)
    [board, *_] = await service.handle(GROUP, ALICE, "/board")
    assert "40 seconds left when I am back in Feud club" in board.text, board.text
    await service.chat_away("telegram", "-100", False)
    dispatcher = Dispatcher(service, Outbox())
    assert await dispatcher.run_due(clock.now + timedelta(seconds=39)) == []
    fired = await dispatcher.run_due(clock.now + timedelta(seconds=40))
    assert "timeout" in [r.kind for r in fired]


async def test_nmbr9_round_held_with_a_placement_meanwhile(service, clock, db):
    """NMBR 9 of two, deadline=12h: alice places while held; back, bob has what was left."""
    await _know(service)
    await service.handle(GROUP, ALICE, "/new nmbr9 @bob deadline=12h")
    await service.handle(GROUP, ALICE, "/start")
    clock.advance(4 * HOUR)  # 6 h left of round 1
    await service.chat_away("telegram", "-100", True)
    clock.advance(20 * HOUR)
    [moves] = await service.handle(GROUP, ALICE, "/moves")
    placed = await service.handle(GROUP, ALICE, f"/place {moves.event['moves'][0]}")
    _no_trouble(placed)
    assert placed[0].kind != "error", placed[0].text
    [board, *_] = await service.handle(GROUP, BOB, "/board")
    assert "8 hours left when I am back" in board.text, board.text
    await service.chat_away("telegram", "-100", False)
    dispatcher = Dispatcher(service, Outbox())
    fired = await dispatcher.run_due(clock.now + 8 * HOUR - MIN)
    assert "timeout" not in [r.kind for r in fired], [r.text for r in fired]
    fired = await dispatcher.run_due(clock.now + 8 * HOUR + MIN)
    assert any(r.kind in ("timeout", "round") or "round" in r.text for r in fired), fired


async def test_nmbr9_round_completed_while_held_gives_the_next_round_its_whole_time(
    service, clock, db
):
    """Both place round 1 while held: round 2's 12 h start when the bot is back."""
    await _know(service)
    await service.handle(GROUP, ALICE, "/new nmbr9 @bob deadline=12h")
    await service.handle(GROUP, ALICE, "/start")
    await service.chat_away("telegram", "-100", True)
    clock.advance(3 * HOUR)
    for user in (ALICE, BOB):
        [moves] = await service.handle(GROUP, user, "/moves")
        await service.handle(GROUP, user, f"/place {moves.event['moves'][0]}")
    clock.advance(30 * HOUR)
    [board, *_] = await service.handle(GROUP, BOB, "/board")
    assert "12 hours left when I am back" in board.text, board.text
    await service.chat_away("telegram", "-100", False)
    fired = await Dispatcher(service, Outbox()).run_due(clock.now + 12 * HOUR - MIN)
    assert "timeout" not in [r.kind for r in fired]


async def test_an_overdue_deadline_at_removal_fires_at_once_on_return(service, clock, db):
    """A timeout due (not yet fired) before the removal is not put off past the return."""
    await _know(service)
    await service.handle(GROUP, ALICE, "/new webfeud @bob")
    clock.advance(72 * HOUR + 10 * MIN)  # due 10 min ago; the dispatcher was down
    await service.chat_away("telegram", "-100", True)
    clock.advance(5 * HOUR)
    await service.chat_away("telegram", "-100", False)
    fired = await Dispatcher(service, Outbox()).run_due(clock.now)
    assert "timeout" in [r.kind for r in fired]


async def test_a_lobby_only_chat_away_and_back_says_nothing(service, clock, db):
    await _know(service)
    await service.handle(GROUP, ALICE, "/new smartfeud @bob @carol")
    assert await service.chat_away("telegram", "-100", True) == []
    assert await service.chat_away("telegram", "-100", False) == []
    started = await service.handle(GROUP, ALICE, "/start")
    _no_trouble(started)


async def test_a_late_move_after_a_timeout_then_a_hold(service, clock, db):
    """SmartFeud vs bot, wait=3m: timeout at T, held at T+1m, back at T+2h: a move plays."""
    await service.handle(GROUP, ALICE, "/new smartfeud bot=easy wait=20m")
    await service.handle(GROUP, ALICE, "/start")
    await Dispatcher(service, Outbox()).run_due(clock.advance(20 * MIN))
    clock.advance(MIN)
    await service.chat_away("telegram", "-100", True)
    clock.advance(2 * HOUR)
    await service.chat_away("telegram", "-100", False)
    clock.advance(MIN)
    played = await service.handle(GROUP, ALICE, "/pass")
    assert played[0].kind == "move_played", played[0].text


async def test_a_restart_while_held_keeps_holding_and_resumes(service, clock, db):
    """A new service on the same file while held: nothing fires; back, the time left holds."""
    await _know(service)
    await service.handle(GROUP, ALICE, "/new webfeud @bob")
    clock.advance(12 * HOUR)  # 60 h left
    await service.chat_away("telegram", "-100", True)
    restarted = Service(db, clock=clock, render=False)
    assert await Dispatcher(restarted, Outbox()).run_due(clock.advance(300 * HOUR)) == []
    [board, *_] = await restarted.handle(GROUP, BOB, "/board")
    assert "60 hours left when I am back in Feud club" in board.text, board.text
    [back, _board] = await restarted.chat_heard("telegram", "-100")
    assert back.text.startswith("I am back")
    [t] = await _timeouts(db, 1)
    assert t.due_at == clock.now + 60 * HOUR


async def test_the_movers_own_quit_while_held_keeps_their_time(service, clock, db):
    """SmartFeud of three: alice resigns; bob (to move, 40 h left) sends quit while held."""
    await _know(service)
    await service.handle(GROUP, ALICE, "/new smartfeud @bob @carol")
    await service.handle(GROUP, ALICE, "/start")
    await service.handle(GROUP, ALICE, "/resign")  # bob to move, 48 h
    clock.advance(8 * HOUR)  # 40 h left
    await service.chat_away("telegram", "-100", True)
    clock.advance(10 * HOUR)
    quit_one = await service.handle(GROUP, BOB, "/play quit")
    assert quit_one[0].event.get("to_move") == "bob", quit_one[0].text
    [board, *_] = await service.handle(GROUP, CAROL, "/board")
    assert "bob to move; 40 hours left when I am back" in board.text, board.text


async def test_a_nudge_while_held_is_refused(service, clock, db):
    """/nudge while the group is held: no clock runs and the group sees nothing; nobody told."""
    await _know(service)
    await service.handle(GROUP, ALICE, "/new webfeud @bob")
    await service.chat_away("telegram", "-100", True)
    [refused] = await service.handle(GROUP, BOB, "/nudge")
    assert refused.kind == "error"
    assert refused.text == (
        "I cannot write in Feud club now, so game #1's clock stands still: nobody needs a nudge "
        "until I can again."
    )
    await service.chat_away("telegram", "-100", False)
    nudged = await service.handle(GROUP, BOB, "/nudge")  # back: the nudge of this turn is left
    assert nudged[0].text.startswith("bob nudged alice in game #1")


async def test_removed_then_back_as_a_muted_member_is_told_once(service, clock, db):
    """Removed, then added back but muted: still held, and nobody is told twice.

    A message from the group does not bring it back; being allowed to write does.
    """
    await _know(service)
    await service.handle(GROUP, ALICE, "/new webfeud @bob")
    assert len(await service.chat_away("telegram", "-100", True)) == 2  # alice and bob told
    assert await service.chat_away("telegram", "-100", True, muted=True) == []
    chat = await db.chats.get_chat_by_platform_id("telegram", "-100")
    assert chat is not None
    assert chat.muted
    assert chat.away_since is not None
    assert await service.chat_heard("telegram", "-100") == []
    [back, _board] = await service.chat_away("telegram", "-100", False)
    assert back.text.startswith("I am back")

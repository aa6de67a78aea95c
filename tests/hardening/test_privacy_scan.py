"""Privacy through the service, for every game played to its end: swaps, /try, /hint, /moves,
passes, a timeout, a resignation, bots, three or four seats.

`test_privacy.py` plays a few turns through each real adapter; this plays whole games through
the service (the console's chat), where every rule that the adapters rely on is decided: after
each step no chat reply — its text, its buttons' labels and ids, its event, the names of its
pictures — gives away a seat's rack, a hidden tile or a round's unrevealed placement
(`hardening_kit.secrets_of`, the racks of before and after the step); no private reply that a
front end may post in the group instead (not `is_secret`: a "your turn", a reminder, a
confirmation) does either; and no log line at INFO or above names a rack. The racks of those
still holding tiles are public once the game is over (its end says what was left).
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hardening_kit import Secrets, move_command, secrets_of, state_of

from bot.adapters.telegram_bot import is_secret
from bot.games import GAMES
from bot.reminders import Dispatcher
from bot.replies import Image, Reply
from bot.service import CONSOLE, ChatRef, Service, UserRef
from storage import Database

pytestmark = pytest.mark.timeout(240)

# Two-seat games, and the options that let Rummikub have a deadline and hints.
PLAYERS = {
    "webfeud": "@bob",
    "numfeud": "@bob",
    "rummikub": "@bob @carol bot=easy time=60s assist=on",
    "smartfeud": "@bob @carol bot=easy mode=pro",  # a word not in the dictionary loses the turn
}
STEPS = 400
SEED = 7


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def _said_in_chat(reply: Reply) -> list[str]:
    """Everything of a chat reply that the whole chat sees."""
    parts = [reply.text, json.dumps(reply.event)]
    parts += [f"{b.label} {b.action_id}" for b in reply.buttons]
    parts += [i.name for i in reply.images if isinstance(i, Image)]
    return parts


class Scan:
    """Checks every reply of a game against the secrets of the moment it was sent."""

    def __init__(self, service: Service, game_key: str) -> None:
        self.service = service
        self.game_key = game_key
        self.game_id = 0
        self.racks: frozenset[str] = frozenset()
        self.steps = 0
        self.secret_seen = False
        self.example = GAMES[game_key].how_to_move()
        self.kinds: Counter[str] = Counter()
        self.swaps = 0
        self.lost = 0
        self.every_rack: set[str] = set()  # for the log

    async def secrets(self) -> Secrets:
        row = await self.service.db.games.get_game(self.game_id)
        if row is None or row.status == "lobby":
            return Secrets()
        state = await state_of(self.service.db, self.game_id)
        now = secrets_of(state)
        both = Secrets(now.racks | self.racks, now.moves, now.codes)
        self.racks = now.racks
        self.every_rack |= now.racks
        self.secret_seen |= bool(now)
        return both

    async def check(self, action: str, replies: list[Reply]) -> None:
        self.steps += 1
        self.kinds.update(reply.kind for reply in replies)
        secrets = await self.secrets()
        for reply in replies:
            if reply.kind == "game_over":
                continue  # the racks left over are the end's news
            if reply.private:
                if is_secret(reply) or reply.kind == "error":
                    continue  # never posted in a group (errors: see the adapters' tests)
                said = [reply.here]  # DMs closed: posted in the game's chat instead
            else:
                said = _said_in_chat(reply)
                pictures = [i.name for i in reply.images if isinstance(i, Image)]
                assert not [n for n in pictures if "-rack" in n], f"{action}: {pictures}"
                assert len(pictures) == len(reply.images), "a chat picture without a name"
            for text in said:
                text = text.replace(self.example, "") if self.example else text
                leaked = secrets.found_in(text)
                where = "privately (group fallback)" if reply.private else "in the chat"
                assert not leaked, f"{action}: {reply.kind} {where} gave away {leaked}: {text!r}"


async def _play(service: Service, clock: Clock, key: str, scan: Scan) -> None:
    room = ChatRef(CONSOLE, "room")

    async def say(who: str, line: str) -> list[Reply]:
        replies = await service.handle(room, UserRef(CONSOLE, who, who), line)
        await scan.check(f"{who} {line}", replies)
        return replies

    players = PLAYERS.get(key, "@bob @carol bot=easy")
    await say("alice", f"/new {key} {players} seed={SEED}")
    rows = await service.db.games.list_games(statuses=("lobby", "active"))
    scan.game_id = game_id = rows[0].id
    if rows[0].status == "lobby":
        await say("alice", "/start")
    dispatcher = Dispatcher(service, _ignore)
    timed_out = resigned = False
    asked: set[str] = set()
    tried: set[str] = set()
    fired: list[Reply] = []
    for step in range(STEPS):
        state = await state_of(service.db, game_id)
        if state.outcome is not None:
            break
        row = await service.db.games.get_game(game_id)
        assert row is not None
        seats = await service.db.games.seats(game_id)
        waiting = [s for s in state.waiting_for() if seats[s].bot_level is None]
        if not waiting:
            break
        seat = waiting[0]
        who = {0: "alice", 1: "bob", 2: "carol"}[seat]
        other = "bob" if who == "alice" else "alice"
        move = move_command(state, seat, SEED + step)
        if who not in asked:  # each asks everything once
            asked.add(who)
            for line in ("/rack", "/bag", "/hint", "/moves"):
                await say(who, line)
        if who not in tried and not move.endswith(" pass"):  # /try: a move that lays tiles
            tried.add(who)
            await say(who, f"/try {move.split(' ', 1)[1]}")
        if not timed_out and step >= 20:
            timed_out = True
            # Time goes by an hour at a time: the reminders fire, then the timeout.
            while not any(r.kind == "timeout" for r in fired):
                clock.now += timedelta(hours=1)
                fired = await dispatcher.run_due(clock.now)
                await scan.check(f"the clock at {clock.now}", fired)
            continue
        if who == "carol" and not resigned and step >= 6:
            resigned = True
            await say(who, "/resign")
            continue
        rack = state.rack(seat)
        if key == "smartfeud" and not state.history:
            # The whole rack as one word on the start square (a blank as an e): the chat reads
            # only that a turn was lost, the player alone which word.
            word = "".join("e" if tile == "?" else tile for tile in rack)
            replies = await say(who, f"/play 8H {word}")
            told = [r.text for r in replies if not r.private]
            scan.lost += any("lost the turn" in text for text in told)
            assert not [text for text in told if word.upper() in text.upper()], told
            continue
        if step % 5 == 2 and key not in ("nmbr9", "rummikub") and len(rack) >= 2:
            replies = await say(who, f"/swap {''.join(rack[:2])}")
            scan.swaps += any(": swapped " in r.text for r in replies if not r.private)
        elif step % 5 == 2 and key == "rummikub" and move.endswith("; done"):
            # A turn built in steps: the draft is the table's (public), the rack stays private.
            await say(who, move.removesuffix("; done"))
            move = "/done"
        if step % 7 == 4:
            await say(who, "/pass")
        else:
            await say(who, move)
        for line in ("/history", "/board", "/games", "/stats"):
            await say(other, line)
    state = await state_of(service.db, game_id)
    assert state.outcome is not None, f"{key} did not end in {STEPS} steps"
    for line in ("/history", "/board", "/games", "/stats", "/rack"):
        await say("bob", line)


async def _ignore(replies: list[Reply]) -> None:
    return None


@pytest.mark.parametrize("key", sorted(GAMES))
async def test_a_whole_game_never_shows_a_rack_to_the_chat_or_the_log(
    key: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Every reply of a whole game, and every log line at INFO or above, is free of secrets."""
    clock = Clock()
    db = await Database.open(tmp_path / "feudbot.sqlite3")
    try:
        service = Service(db, clock=clock, allow_seed=True)
        scan = Scan(service, key)
        with caplog.at_level(logging.INFO):
            await _play(service, clock, key, scan)
        assert scan.secret_seen
        assert scan.steps > 20, scan.steps
        # Not vacuous: the secrets were asked for and told, a deadline passed, a swap was made.
        assert {"rack", "unseen", "timeout", "game_over"} <= set(scan.kinds), scan.kinds
        assert scan.kinds["reminder"] or key == "rummikub", scan.kinds  # its 60 s: none
        assert scan.kinds[{"nmbr9": "hint", "rummikub": "hint"}.get(key, "preview")], scan.kinds
        if key != "nmbr9" and key != "rummikub":
            assert scan.swaps, "no swap was made"
        if key == "smartfeud":
            assert scan.lost, "no turn was lost"
        if key == "rummikub":
            assert scan.kinds["draft"], "no draft was shown"
        racks = scan.every_rack
        assert racks or key == "nmbr9"  # one tile at a time: no listing to look for
        lines = [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO]
        leaked = [line for line in lines if any(rack in line for rack in racks)]
        assert not leaked
    finally:
        await db.close()

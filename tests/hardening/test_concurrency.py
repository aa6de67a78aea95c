"""Concurrency: 1,000 trials of two conflicting submissions of one turn; exactly one applies.

The conflicts: the same swap typed twice, a swap racing a pass, a "Pass" button click racing a
typed swap, and two services on two connections to one SQLite file (two processes) submitting at
once. Each trial checks the move log grew by exactly one row and exactly one reply says so.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import pytest

from bot.replies import Reply
from bot.service import CONSOLE, ChatRef, Service, UserRef, load_state
from storage import Database

TRIALS = 1000

pytestmark = pytest.mark.timeout(600)

Submit = Coroutine[Any, Any, list[Reply]]


def race(
    trial: int,
    services: tuple[Service, Service],
    chat: ChatRef,
    user: UserRef,
    swap: str,
    button: str,
) -> tuple[str, Submit, Submit]:
    """The two conflicting submissions of this trial (four kinds, in turn)."""
    one, two = services
    kind = trial % 4
    if kind == 0:
        return "same swap twice", one.handle(chat, user, swap), one.handle(chat, user, swap)
    if kind == 1:
        return "swap against pass", one.handle(chat, user, swap), one.handle(chat, user, "/pass")
    if kind == 2:
        return "button against typed", one.action(chat, user, button), one.handle(chat, user, swap)
    return "two connections", one.handle(chat, user, swap), two.handle(chat, user, swap)


async def test_a_thousand_races_each_apply_exactly_once(tmp_path: Path) -> None:
    """Every race stores one move; the loser gets a clear refusal, never an exception."""
    path = tmp_path / "race.sqlite3"
    first_db = await Database.open(path)
    second_db = await Database.open(path)
    try:
        one = Service(first_db, render=False, allow_seed=True)
        two = Service(second_db, render=False, allow_seed=True)
        chat = ChatRef(CONSOLE, "race")
        users = {name: UserRef(CONSOLE, name, name) for name in ("alice", "bob")}
        game_id: int | None = None
        kinds: dict[str, int] = {}
        for trial in range(TRIALS):
            if game_id is None:
                replies = await one.handle(chat, users["alice"], f"/new webfeud @bob seed={trial}")
                game_id = next(r.event["game_id"] for r in replies if r.kind == "game_started")
            row = await first_db.games.get_game(game_id)
            assert row is not None
            state = load_state(row)
            seat = state.waiting_for()[0]
            user = users["alice" if seat == 0 else "bob"]
            swap = f"/swap {''.join(state.rack(seat)[:2])}"
            name, left, right = race(
                trial, (one, two), chat, user, swap, f"pass:{game_id}:{row.turn}"
            )
            before = len(await first_db.games.moves(game_id))
            a, b = await asyncio.gather(left, right)
            after = len(await first_db.games.moves(game_id))
            assert after == before + 1, f"trial {trial} ({name}): {after - before} moves stored"
            applied = [r for r in (a, b) if r and r[0].kind == "move_played"]
            refused = [r for r in (a, b) if r and r[0].kind == "error"]
            assert len(applied) == 1, f"trial {trial} ({name})"
            assert len(refused) == 1, f"trial {trial} ({name})"
            assert refused[0][0].text
            kinds[refused[0][0].event["reason"]] = kinds.get(refused[0][0].event["reason"], 0) + 1
            row = await first_db.games.get_game(game_id)
            assert row is not None
            if row.status != "active":
                game_id = None
        assert set(kinds) <= {"ALREADY_PLAYED", "NOT_YOUR_TURN", "STALE_BUTTON"}
    finally:
        await second_db.close()
        await first_db.close()

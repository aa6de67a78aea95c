"""A storm of moves for the crash-safety test: run as a child process, killed at random.

``python storm.py DB SEED GAMES`` starts GAMES Webfeud games in fresh chats and plays them all at
once through the service (one asyncio task per game), printing ``ack <game> <turn>`` after every
move the service has acknowledged (returned from), and ``ready`` once the games exist.
"""

from __future__ import annotations

import asyncio
import random
import sys

from bot.ai import choose_move
from bot.service import CONSOLE, ChatRef, Service, UserRef, load_state
from storage import Database


def command_for(move: str) -> str:
    """The chat command that plays `move` (canonical notation)."""
    word = move.split(" ", 1)[0]
    if word in {"pass", "resign"}:
        return f"/{word}"
    if word == "swap":
        return f"/{move}"
    return f"/play {move}"


async def play(service: Service, db: Database, chat: ChatRef, game_id: int, seed: int) -> None:
    rng = random.Random(seed)
    seats = await db.games.seats(game_id)
    names = {}
    for seat in seats:
        assert seat.user_id is not None
        user = await db.users.get_user(seat.user_id)
        assert user is not None
        names[seat.seat_no] = user.platform_user_id
    while True:
        row = await db.games.get_game(game_id)
        assert row is not None
        if row.snapshot is None or row.status != "active":
            return
        state = load_state(row)
        seat = state.waiting_for()[0]
        move = str(choose_move(state, seat, rng.choice(("easy", "medium")), rng.randrange(1 << 30)))
        name = names[seat]
        await service.handle(chat, UserRef(CONSOLE, name, name), command_for(move))
        after = await db.games.get_game(game_id)
        assert after is not None
        print(f"ack {game_id} {after.turn}", flush=True)


async def main(path: str, seed: int, games: int) -> None:
    db = await Database.open(path)
    try:
        service = Service(db, render=False, allow_seed=True)
        tasks = []
        for n in range(games):
            chat = ChatRef(CONSOLE, f"storm-{seed}-{n}")
            alice, bob = f"a{seed}x{n}", f"b{seed}x{n}"
            replies = await service.handle(
                chat, UserRef(CONSOLE, alice, alice), f"/new webfeud @{bob} seed={seed * 100 + n}"
            )
            game_id = next(r.event["game_id"] for r in replies if r.kind == "game_started")
            tasks.append(play(service, db, chat, game_id, seed * 100 + n))
        print("ready", flush=True)
        await asyncio.gather(*tasks)
    finally:
        await db.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))

"""Privacy, for every game in GAMES and every adapter: no rack or hidden move reaches the group.

After every action the secrets are derived afresh from the stored state (`secrets_of`): each
seat's rack as the private message lists it (before and after the action), tile codes that sit
on a rack and nowhere in the public view, and NMBR 9 placements whose round is not over. No
message the whole chat saw (a Telegram group, a Discord channel outside ephemeral messages and
DMs, the console's chat lines with their JSON events) may give one away, and no public picture
may be a private rack picture. So that this cannot pass vacuously, the secrets must exist, and
they must have reached their owners privately at least once.
"""

from __future__ import annotations

import logging

import pytest
from hardening_kit import Driver, Secrets, Shown, move_command, new_game, secrets_of, state_of

from bot.games import GAMES

pytestmark = pytest.mark.timeout(60)

TURNS = 3
SEED = 12
NAMES = ("alice", "bob")


class PrivacyCheck:
    """Checks what the chat saw after each action against the secrets of that moment."""

    def __init__(self, driver: Driver, game_id: int) -> None:
        self.driver = driver
        self.game_id = game_id
        self.seen = 0
        self.racks: frozenset[str] = frozenset()
        self.secret_texts: set[str] = set()
        self.secret_codes: set[str] = set()
        self.checkpoints = 0
        self.with_secrets = 0

    async def after(self, action: str, *, tried: str = "") -> None:
        """Check what the chat saw since the last check; `tried`: a move only tried (/try)."""
        state = await state_of(self.driver.db, self.game_id)
        now = secrets_of(state)
        # The racks before this action too: announcing a move must not list the old rack.
        moves = now.moves | ({tried} if tried else set())
        check = Secrets(now.racks | self.racks, moves, now.codes)
        shown = self.driver.everything()
        fresh, self.seen = shown[self.seen :], len(shown)
        # The line that shows newcomers how a move is written ("/play R5 R6 R7") is the same
        # for every deal: its example tiles tell nothing about anybody's rack.
        example = GAMES[state.game_key].how_to_move()
        for msg in fresh:
            if msg.public:
                leaked = check.found_in(msg.text.replace(example, "") if example else msg.text)
                assert not leaked, f"{action}: the chat saw {leaked} in {msg.text!r}"
        self.racks = now.racks
        self.secret_texts |= now.texts
        self.secret_codes |= now.codes
        self.checkpoints += 1
        self.with_secrets += bool(now)

    def finish(self) -> None:
        shown = self.driver.everything()
        public = [m for m in shown if m.public]
        private = [m for m in shown if not m.public]
        rack_pictures = {image for m in private if m.rack_image for image in m.images}
        for msg in public:
            assert not rack_pictures & set(msg.images), f"a rack picture in the chat: {msg.text!r}"
        assert public, "the chat saw nothing at all"
        # Not vacuous: there were secrets, and their owners did get them privately.
        assert self.with_secrets, "no secret existed at any point"
        assert _any_in(private, self.secret_texts), "no rack or hidden move reached its owner"
        if self.secret_codes:
            assert _any_token(private, self.secret_codes), "no hidden tile reached its owner"


def _any_in(messages: list[Shown], texts: set[str]) -> bool:
    return any(t in m.text for m in messages for t in texts)


def _any_token(messages: list[Shown], codes: set[str]) -> bool:
    hidden = Secrets(codes=frozenset(codes))
    return any(hidden.found_in(m.text) for m in messages)


@pytest.mark.parametrize("key", sorted(GAMES))
async def test_the_chat_never_sees_a_rack_or_a_hidden_move(driver: Driver, key: str) -> None:
    """A game played by commands and buttons: every public message is free of every secret."""
    await driver.prepare()
    game_id = await new_game(driver, key, SEED)
    check = PrivacyCheck(driver, game_id)
    await check.after("the start")
    for turn in range(TURNS):
        state = await state_of(driver.db, game_id)
        if state.outcome is not None:
            break
        # In a round both seats place; each goes first once (the first one's move stays hidden).
        waiting = state.waiting_for()
        for seat in waiting[::-1] if turn % 2 else waiting:
            command = move_command(state, seat, SEED + state.turn)
            await driver.say(NAMES[seat], command)
            await check.after(f"{NAMES[seat]} {command}")
            # The move list is public: it must not tell a swap's tiles or a round's hidden tile.
            await driver.say(NAMES[1 - seat], "/history")
            await check.after(f"{NAMES[1 - seat]} /history")
    for who, text in (("alice", "/rack"), ("bob", "/rack"), ("bob", "/board")):
        await driver.say(who, text)
        await check.after(f"{who} {text}")
    if driver.buttons:
        for who in NAMES:
            await driver.press(who, "rack", game_id)
            await check.after(f"{who} pressed My rack")
    assert check.checkpoints >= 2 + TURNS
    check.finish()


# Asked in the group by mistake: each answer names the asker's tiles, so it goes privately.
ASKED_IN_THE_GROUP = ("/rack", "/bag", "/hint", "/moves")


@pytest.mark.parametrize("key", sorted(GAMES))
async def test_secrets_asked_in_the_group_are_answered_privately(
    driver: Driver, key: str, caplog: pytest.LogCaptureFixture
) -> None:
    """/rack, /bag, /hint, /moves, /try, a swap and a move the rules refuse after finding its
    tiles on the rack ("DEIRTSO is not in the dictionary"), all typed in the group, by a player
    with private messages (alice), one without (bob), and alice again once she has closed them
    (the bot learns it from a refused message): the group sees none of the tiles, and no log
    line at INFO or above lists a rack.
    """
    caplog.set_level(logging.INFO)
    await driver.prepare()
    game_id = await new_game(driver, key, SEED)
    check = PrivacyCheck(driver, game_id)
    await check.after("the start")
    every_rack: set[str] = set()
    for turn in range(3):
        if turn == 2:  # alice closes her private messages: her tiles must not fall back here
            driver.close_dms("alice")
        state = await state_of(driver.db, game_id)
        every_rack |= secrets_of(state).racks
        seat = state.waiting_for()[0]
        who = NAMES[seat]
        move = move_command(state, seat, SEED + state.turn)
        lines = list(ASKED_IN_THE_GROUP)
        if not move.endswith(" pass"):  # /try checks a move that lays tiles
            lines.append(f"/try {move.split(' ', 1)[1]}")
        rack = state.rack(seat)
        if key == "numfeud":  # three of its tiles that are no meld (or not at the start)
            lines += [f"/play 8H {' '.join(rack[:3])}", f"/swap {''.join(rack[:2])}"]
        elif key != "nmbr9" and key != "rummikub":
            # The whole rack as one word: refused by the dictionary (or the board), tiles found.
            lines += [f"/play 8H {''.join(rack).replace('?', '')}", f"/swap {''.join(rack[:2])}"]
        for line in lines:
            await driver.say(who, line)
            tried = line.removeprefix("/try ") if line.startswith("/try ") else ""
            await check.after(f"{who} {line}", tried=tried)
        state = await state_of(driver.db, game_id)
        if seat in state.waiting_for():  # the swap did not end the turn: play
            await driver.say(who, move_command(state, seat, SEED + state.turn))
            await check.after(f"{who} played")
    check.finish()
    logged = [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO]
    assert every_rack or key == "nmbr9"
    assert not [line for line in logged if any(rack in line for rack in every_rack)]

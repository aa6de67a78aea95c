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

    async def after(self, action: str) -> None:
        state = await state_of(self.driver.db, self.game_id)
        now = secrets_of(state)
        # The racks before this action too: announcing a move must not list the old rack.
        check = Secrets(now.racks | self.racks, now.moves, now.codes)
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

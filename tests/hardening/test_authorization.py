"""Authorization, for every game in GAMES and every adapter: who may act on a game, and where.

Only seated players move (typed commands and buttons alike); cancelling needs the game's creator
or a chat admin; and a game id from another chat is refused for every command that takes one —
to strangers and to the game's own players. Every refusal leaves the stored games (games, seats,
move log, deadlines, results) exactly as they were.
"""

from __future__ import annotations

import pytest
from hardening_kit import Driver, Shown, fingerprint, move_command, new_game, state_of

from bot.commands import COMMANDS
from bot.games import GAMES

pytestmark = pytest.mark.timeout(60)

SEED = 21
KEYS = sorted(GAMES)


def refused(shown: list[Shown], words: str) -> None:
    """Every message is the refusal (so nothing else was announced), and there is one."""
    assert shown, "no answer at all"
    assert all(words in msg.text for msg in shown), [msg.text for msg in shown]


@pytest.mark.parametrize("key", KEYS)
async def test_only_seated_players_can_move(driver: Driver, key: str) -> None:
    """Strangers who name the game are refused its moves, rack and buttons; nothing is stored."""
    await driver.prepare()
    game_id = await new_game(driver, key, SEED)
    state = await state_of(driver.db, game_id)
    move = move_command(state, state.waiting_for()[0])
    before = fingerprint(driver.db)
    tries = 0
    for who in ("carol", "dave"):
        for text in (move, "/pass", "/resign", "/rack", "/swap AB", "/hint"):
            shown = await driver.say(who, f"{text} game={game_id}")
            refused(shown, "not ")  # "You are not playing in game #1." / "… not in game #1."
            tries += 1
        if driver.buttons:
            for action in ("pass", "rack") if key != "nmbr9" else ("rack",):
                refused(await driver.press(who, action, game_id), "not playing")
                tries += 1
    assert tries >= 12
    assert fingerprint(driver.db) == before


@pytest.mark.parametrize("key", KEYS)
async def test_cancelling_needs_the_creator_or_an_admin(driver: Driver, key: str) -> None:
    """The other player and a stranger may not cancel; an admin who is neither may."""
    await driver.prepare()
    game_id = await new_game(driver, key, SEED)
    before = fingerprint(driver.db)
    for who in ("bob", "dave"):  # started with bob: not even its host could now
        refused(
            await driver.say(who, f"/cancel game={game_id}"),
            "has started with other players",
        )
    assert fingerprint(driver.db) == before
    shown = await driver.say("carol", f"/cancel game={game_id}")
    assert any(msg.public and "cancelled by carol" in msg.text.lower() for msg in shown), shown
    row = await driver.db.games.get_game(game_id)
    assert row is not None
    assert row.status == "cancelled"


def game_commands(state_text: dict[str, str]) -> list[str]:
    """Every command that takes game=<id>, with a plausible argument where it needs one."""
    out = []
    for spec in COMMANDS:
        if not spec.takes_game_id:
            continue
        out.append(state_text.get(spec.name, f"/{spec.name}"))
    return out


@pytest.mark.parametrize("key", KEYS)
async def test_a_game_id_from_another_chat_is_refused(driver: Driver, key: str) -> None:
    """In chat B, every game=<id> command on chat A's game is refused, even to its players."""
    await driver.prepare()
    game_id = await new_game(driver, key, SEED)
    state = await state_of(driver.db, game_id)
    seat = state.waiting_for()[0]
    move = move_command(state, seat)
    notation = move.split(" ", 1)[1]
    arguments = {
        "play": f"/play {notation}",
        "try": f"/try {notation}",
        "place": f"/place {notation}",
        "swap": f"/swap {''.join(state.rack(seat)[:2]) or 'AB'}",
    }
    before = fingerprint(driver.db)
    commands = game_commands(arguments)
    assert len(commands) >= 15
    for who in ("alice", "bob", "dave"):
        for text in commands:
            shown = await driver.say(who, f"{text} game={game_id}", chat="other")
            refused(shown, f"There is no game #{game_id} in this chat")
    assert fingerprint(driver.db) == before
    # The same move typed in the game's own chat is accepted: the refusals were about the chat.
    shown = await driver.say(("alice", "bob")[seat], f"{move} game={game_id}")
    assert fingerprint(driver.db) != before, [msg.text for msg in shown]


async def test_telegram_a_button_of_another_chats_game_does_nothing(tg, people) -> None:
    """A Join button naming group A's game, pressed under a message in group B, seats nobody."""
    from hardening_kit import TelegramDriver

    from bot.adapters.telegram_bot import callback_data

    driver = TelegramDriver(tg, people)
    await driver.prepare()
    await driver.say("alice", "/new webfeud")  # a lobby in group A, waiting for players
    before = fingerprint(driver.db)
    other = driver.chats["other"]
    calls = await tg.say(driver.users["dave"], "/help", chat=other)
    message = next(c.result for c in calls if c.method == "sendMessage")
    assert message["chat"]["id"] == other["id"]
    # A forwarded board, or a client that made the data up: Telegram delivers the press anyway.
    calls = await tg.press_data(driver.users["dave"], message, callback_data(1, "join", 0))
    assert [c.method for c in calls] == ["answerCallbackQuery"], calls
    assert calls[0].params.get("show_alert")
    assert "another chat" in calls[0].text
    assert fingerprint(driver.db) == before
    assert tg.errors == []


async def test_discord_a_button_of_another_channels_game_does_nothing(harness) -> None:
    """A Join button naming channel A's game, clicked under a message in channel B, is refused."""
    from fake_discord import Message
    from hardening_kit import DiscordDriver

    driver = DiscordDriver(harness)
    await driver.say("alice", "/new webfeud")  # a lobby in channel A
    before = fingerprint(driver.db)
    button = {"type": 2, "style": 1, "label": "Join", "custom_id": "fb:join:1:0"}
    forged = Message(
        id=harness.fake.new_id(),
        channel_id=driver.chats["other"],
        content="a copy of game #1's lobby",
        embeds=[],
        attachments=[],
        components=[{"type": 1, "components": [button]}],
        flags=0,
        kind="channel",
    )
    harness.fake.messages[forged.id] = forged
    inter = await harness.click(driver.users["dave"], forged, "fb:join:1:0")
    replies = harness.replies(inter)
    assert [m.ephemeral for m in replies] == [True]
    assert "There is no game #1 in this chat" in replies[0].text
    assert fingerprint(driver.db) == before

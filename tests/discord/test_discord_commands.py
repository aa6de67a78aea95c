"""Slash-command sync, autocomplete, permissions, reminders, errors and Discord's limits."""

from __future__ import annotations

import asyncio
import logging
import re
from collections import Counter
from datetime import timedelta
from pathlib import Path

import discord
import pytest
from discord_harness import FixedClock, Harness, assert_cancelled_for_good, clocked

from bot.adapters import discord_bot
from bot.adapters.common import APOLOGY, short_description
from bot.adapters.discord_bot import FeudBot, slash_text, swap_suggestions
from bot.commands import COMMANDS
from bot.games import GAMES
from bot.service import load_state, utcnow

pytestmark = pytest.mark.timeout(30)

MESSAGE_CONTENT_INTENT = 1 << 15


async def test_commands_sync_to_the_dev_guild_and_mirror_the_command_table(harness):
    """Every command of docs/commands.md exists, in the dev guild only, guild-only, described."""
    fake = harness.fake
    assert list(fake.commands) == [fake.guild_id]
    names = set(fake.command_names())
    assert {spec.name for spec in COMMANDS} <= names
    for command in fake.commands[fake.guild_id]:
        assert command["contexts"] == [0]  # guild channels only
        assert all(option["description"] for option in command.get("options", []))
    new = next(c for c in fake.commands[fake.guild_id] if c["name"] == "new")
    game = next(o for o in new["options"] if o["name"] == "game")
    assert [choice["value"] for choice in game["choices"]] == sorted(GAMES)


async def test_commands_sync_globally_without_a_dev_guild(fake, db):
    """Without DISCORD_DEV_GUILD_ID the commands are synced globally."""
    h = Harness(fake, db, dev_guild=False)
    await h.start()
    try:
        assert list(fake.commands) == [None]
        inter = await h.slash(h.alice, "rules", game="webfeud")
        assert "Webfeud" in h.replies(inter)[0].text
    finally:
        await h.stop()


async def test_the_bot_asks_for_no_message_content(harness):
    """IDENTIFY carries intents without the privileged message-content bit."""
    assert harness.fake.intents & MESSAGE_CONTENT_INTENT == 0


async def test_autocomplete_offers_games_rack_tiles_and_options(harness):
    """Autocomplete lists this channel's games, the asker's rack tiles and the game's options."""
    await harness.slash(harness.alice, "new", game="webfeud", player=str(harness.bob), seed=3)
    games = await harness.autocomplete(harness.alice, "board", "game", game="")
    assert [c["value"] for c in games] == [1]
    assert "alice vs bob" in games[0]["name"]
    row = await harness.db.games.get_game(1)
    rack = "".join(load_state(row).rack(0))
    tiles = await harness.autocomplete(harness.alice, "swap", "tiles", tiles="")
    assert tiles[0]["value"] == rack
    typed = rack[0]
    tiles = await harness.autocomplete(harness.alice, "swap", "tiles", tiles=typed)
    assert tiles[0]["value"] == typed
    assert all(c["value"].startswith(typed) for c in tiles)
    carol = await harness.autocomplete(harness.carol, "swap", "tiles", tiles="")
    assert carol == []  # carol has no rack here
    options = await harness.autocomplete(
        harness.alice, "new", "options", game="webfeud", options="bo"
    )
    spec = GAMES["webfeud"].options[0]
    assert [c["value"] for c in options] == [f"{spec.name}={v}" for v in spec.choices]


async def test_cancel_needs_the_creator_or_manage_server(harness):
    """A stranger may not /cancel; a member with Manage Server may."""
    await harness.slash(harness.alice, "new", game="webfeud")
    inter = await harness.slash(harness.bob, "cancel", game=1)
    msgs = harness.replies(inter)
    assert len(msgs) == 1
    assert msgs[0].ephemeral
    assert "can be cancelled only by alice, who hosts it" in msgs[0].text
    assert (await harness.db.games.get_game(1)).status == "lobby"
    inter = await harness.slash(harness.carol, "cancel", game=1)
    msgs = harness.replies(inter)
    assert len(msgs) == 1
    assert msgs[0].public
    assert "cancelled" in msgs[0].text
    assert (await harness.db.games.get_game(1)).status == "cancelled"


async def test_an_unexpected_error_gets_an_ephemeral_apology_and_is_logged(harness, caplog):
    """A crash in the service: logged with its traceback, the user sees only the apology."""

    async def broken(*args, **kwargs):
        raise RuntimeError("database on fire")

    harness.bot.service.execute = broken
    with caplog.at_level(logging.ERROR, logger="bot.adapters.discord_bot"):
        inter = await harness.slash(harness.alice, "games")
    msgs = harness.replies(inter)
    assert len(msgs) == 1
    assert msgs[0].ephemeral
    assert msgs[0].content == APOLOGY
    for msg in harness.fake.messages.values():
        assert "Traceback" not in msg.text
        assert "on fire" not in msg.text
    assert harness.fake.public_messages() == []
    assert any(r.exc_info and "on fire" in str(r.exc_info[1]) for r in caplog.records)


async def test_a_button_error_gets_the_apology_too(harness):
    """A crash behind a button lands in the same handler."""
    inter = await harness.slash(harness.alice, "new", game="webfeud")
    lobby = harness.replies(inter)[0]

    async def broken(*args, **kwargs):
        raise RuntimeError("boom")

    harness.bot.service.execute = broken
    inter = await harness.click(harness.bob, lobby, "fb:join:1:0")
    msgs = harness.replies(inter)
    assert len(msgs) == 1
    assert msgs[0].ephemeral
    assert msgs[0].content == APOLOGY


async def test_slow_work_is_acknowledged_first(harness):
    """The defer goes out before the slow part, so a slow service still meets the deadline."""
    harness.fake.ack_deadline = 0.3
    service = harness.bot.service
    execute = service.execute

    async def slow(*args, **kwargs):
        await asyncio.sleep(0.6)
        return await execute(*args, **kwargs)

    service.execute = slow
    inter = await harness.slash(harness.alice, "new", game="webfeud")
    assert inter.callback_type == 5
    assert inter.callback_at - inter.dispatched_at < 0.3
    assert "created" in harness.replies(inter)[0].text
    assert harness.fake.late == []


async def test_the_fake_refuses_a_late_acknowledgement(harness, monkeypatch):
    """The deadline check has teeth: a handler that acknowledges late is caught."""
    harness.fake.ack_deadline = 0.2
    defer = FeudBot._defer

    async def late_defer(self, interaction, **kwargs):
        await asyncio.sleep(0.4)
        await defer(self, interaction, **kwargs)

    monkeypatch.setattr(FeudBot, "_defer", late_defer)
    inter = await harness.slash(harness.alice, "games")
    assert set(harness.fake.late) == {inter.id}
    assert harness.fake.public_messages() == []
    harness.fake.late.clear()


async def test_a_rate_limited_reply_is_retried(harness):
    """A 429 on the reply is waited out and the message still arrives once."""
    harness.fake.rate_limit_once("PATCH", r"/messages/@original$")
    inter = await harness.slash(harness.alice, "new", game="webfeud")
    assert harness.fake.rate_limited
    msgs = harness.replies(inter)
    assert len(msgs) == 1
    assert "created" in msgs[0].text


async def test_reminders_and_timeouts_reach_the_player(fake, db):
    """A reminder comes by DM to who allowed DMs, not also as a mention; a timeout ends the game."""
    async with clocked(fake, db) as (h, start):
        await h.slash(h.alice, "notify", dm=True)
        await h.slash(h.alice, "new", game="webfeud", player=str(h.bob))
        dms_before = len(fake.dms_to(h.alice))
        public_before = len(fake.public_messages())
        fired = await h.bot.dispatcher.run_due(now=start + timedelta(hours=71, minutes=1))
        assert [r.kind for r in fired] == ["reminder", "reminder"]
        assert len(fake.public_messages()) == public_before  # the DMs are the notice
        dms = fake.dms_to(h.alice)[dms_before:]
        assert len(dms) == 2
        assert dms[-1].text.startswith("Your turn in game #1 (Webfeud in #games) runs out in ")
        h.clock.now = start + timedelta(hours=72, seconds=5)
        fired = await h.bot.dispatcher.run_due(now=h.clock.now)
        assert "game_over" in [r.kind for r in fired]
        assert "is over" in fake.public_messages()[-1].text
        assert (await db.games.get_game(1)).status == "finished"
        assert [m for m in fake.public_messages() if m.pings()["users"] == {str(h.alice)}] == []


async def test_a_reminder_without_dms_is_a_mention_in_the_channel(fake, db):
    """A player who did not allow DMs is mentioned in the game's channel, and gets no DM.

    As every ping: "<@id>: …" (it read "<@id> Your turn"); in the game's own channel the
    game is not said to be "in #games" (a DM says so).
    """
    async with clocked(fake, db) as (h, start):
        await h.slash(h.alice, "new", game="webfeud", player=str(h.bob))
        fired = await h.bot.dispatcher.run_due(now=start + timedelta(hours=71, minutes=1))
        assert [r.kind for r in fired] == ["reminder", "reminder"]
        mentions = [m for m in fake.public_messages() if m.content.startswith(f"<@{h.alice}>")]
        assert [m.pings()["users"] for m in mentions] == [{str(h.alice)}] * 2
        assert mentions[-1].content.startswith(
            f"<@{h.alice}>: Your turn in game #1 (Webfeud) runs out in "
        ), mentions[-1].content
        assert fake.dms_to(h.alice) == []


async def test_a_turn_passed_by_a_timeout_mentions_the_next_player(fake, db):
    """SmartFeud wait=3m: the dispatcher's timeout news mentions whose turn it is now."""
    async with clocked(fake, db) as (h, start):
        await h.slash(h.alice, "new", game="smartfeud", player=str(h.bob), options="wait=3m")
        await h.slash(h.alice, "start")
        fired = await h.bot.dispatcher.run_due(now=start + timedelta(minutes=3, seconds=1))
        assert [r.kind for r in fired][:1] == ["timeout"]
        assert "your_turn" in [r.kind for r in fired]
        news, ping = fake.public_messages()[-2:]
        assert news.content.startswith("#1 alice: ran out of time (a pass)")
        assert news.content.endswith("bob to move.")
        assert (ping.content, ping.edits) == (f"<@{h.bob}>, your turn in game #1.", 0)


async def test_a_new_command_of_the_table_gets_a_slash_command(fake, db, monkeypatch):
    """A command added to bot/commands.py is mirrored from its shape and reaches the service."""
    # (`stack` is made up: it must not be in the table already, as `place` now is.)
    import bot.adapters.discord_bot as adapter
    from bot.commands import CommandSpec

    spec = CommandSpec("stack", "<placement>", "Stack a tile, e.g. `/stack C4 90`.")
    spec = CommandSpec(spec.name, spec.args, spec.summary, shape="text")
    monkeypatch.setattr(adapter, "COMMANDS", (*COMMANDS, spec))
    h = Harness(fake, db)
    await h.start()
    try:
        stack = next(c for c in fake.commands[fake.guild_id] if c["name"] == "stack")
        assert [o["name"] for o in stack["options"]] == ["placement", "game"]
        seen = []

        async def record(chat, user, command):
            seen.append(command)
            return []

        h.bot.service.execute = record
        await h.slash(h.alice, "stack", placement="C4 90", game=3)
        assert seen[0].name == "stack"
        assert seen[0].text == "C4 90"
        assert seen[0].game_id == 3
    finally:
        await h.stop()


async def test_a_refused_dm_loses_nothing_else(fake, db):
    """A player who allowed DMs but closed them: the reminder still reaches the channel."""
    h = Harness(fake, db)
    start = utcnow()
    h.clock = FixedClock(start)
    await h.start()
    try:
        await h.slash(h.alice, "notify", dm=True)
        fake.closed_dms.add(h.alice)
        await h.slash(h.alice, "new", game="webfeud", player=str(h.bob))
        fired = await h.bot.dispatcher.run_due(now=start + timedelta(hours=71, minutes=1))
        assert len(fired) == 2
        mentions = [m for m in fake.public_messages() if m.content.startswith(f"<@{h.alice}>")]
        assert len(mentions) == 2
        assert fake.dms_to(h.alice) == []
    finally:
        await h.stop()


async def test_main_discord_runs_the_bot_from_the_environment(fake, tmp_path, monkeypatch):
    """`feudbot discord`'s entry point reads the settings, serves commands, stops on a 4004."""
    from bot.adapters.discord_bot import main_discord

    monkeypatch.setenv("DISCORD_TOKEN", "fake-token")
    monkeypatch.setenv("DISCORD_DEV_GUILD_ID", str(fake.guild_id))
    monkeypatch.chdir(tmp_path)  # no stray .env
    alice = fake.add_user("alice")
    db_path = str(tmp_path / "cli.sqlite3")
    run = asyncio.ensure_future(asyncio.to_thread(main_discord, db_path, configure_logging=False))
    await asyncio.wait_for(fake.wait_ready(), 15)
    inter = await fake.send(fake.build_slash(alice, "rules", game="webfeud"))
    await fake.wait_answered(inter)
    for _ in range(100):
        if fake.replies_to(inter) and fake.replies_to(inter)[0].content:
            break
        await asyncio.sleep(0.05)
    assert "Webfeud" in fake.replies_to(inter)[0].text
    await fake.close_gateway(4004)
    assert await asyncio.wait_for(run, 15) == 1


async def test_run_discord_stops_cleanly_when_asked(fake, tmp_path):
    """run_discord serves until its stop event is set, then closes the bot and the database."""
    from bot.adapters.discord_bot import run_discord
    from bot.config import Settings

    settings = Settings(
        db_path=str(tmp_path / "run.sqlite3"),
        discord_token="fake-token",
        discord_dev_guild_id=fake.guild_id,
    )
    stop, ready = asyncio.Event(), asyncio.Event()
    task = asyncio.create_task(run_discord(settings, stop=stop, ready=ready))
    await asyncio.wait_for(ready.wait(), 15)
    assert "new" in fake.command_names()
    stop.set()
    await asyncio.wait_for(task, 15)
    assert task.exception() is None


@pytest.mark.parametrize(
    ("name", "options", "expected"),
    [
        ("games", {}, "#1"),
        ("board", {}, "Game #1"),
        ("leaderboard", {"game": "webfeud", "everywhere": True}, "Leaderboard"),
        ("stats", {"player": "bob"}, "bob"),
        ("help", {"command": "swap"}, "/swap"),
        ("rules", {"game": "webfeud"}, "Webfeud"),
    ],
)
async def test_looking_commands_answer_in_the_channel(harness, name, options, expected):
    """The read-only commands answer publicly, with their option values passed through."""
    await harness.slash(harness.alice, "new", game="webfeud", player=str(harness.bob))
    if options.get("player") == "bob":
        options = {**options, "player": str(harness.bob)}
    inter = await harness.slash(harness.alice, name, **options)
    public = [m for m in harness.replies(inter) if m.public]
    assert public
    assert expected in public[0].text


async def test_feudbot_discord_cli_runs_the_bot(fake, tmp_path, monkeypatch):
    """`feudbot discord --db …` (bot/__main__.py's importable main) runs the real bot."""
    from bot.__main__ import main

    monkeypatch.setenv("DISCORD_TOKEN", "fake-token")
    monkeypatch.setenv("DISCORD_DEV_GUILD_ID", str(fake.guild_id))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("discord.utils.setup_logging", lambda **kwargs: None)
    alice = fake.add_user("alice")
    run = asyncio.ensure_future(
        asyncio.to_thread(main, ["discord", "--db", str(tmp_path / "cli.sqlite3")])
    )
    await asyncio.wait_for(fake.wait_ready(), 15)
    inter = await fake.send(fake.build_slash(alice, "help"))
    await fake.wait_answered(inter)
    for _ in range(100):
        if any(m.content for m in fake.replies_to(inter)):
            break
        await asyncio.sleep(0.05)
    await fake.close_gateway(4004)
    assert await asyncio.wait_for(run, 15) == 1
    assert any("/new" in m.text for m in fake.replies_to(inter))


async def test_stopping_lets_a_running_command_finish(harness):
    """A shutdown during a slow command waits for its answer before closing the session."""
    service = harness.bot.service
    execute = service.execute

    async def slow(*args, **kwargs):
        await asyncio.sleep(0.5)
        return await execute(*args, **kwargs)

    service.execute = slow
    inter = await harness.fake.send(harness.fake.build_slash(harness.alice, "games"))
    await harness.fake.wait_answered(inter)
    await harness.stop()
    msgs = harness.replies(inter)
    assert len(msgs) == 1
    assert "open games" in msgs[0].text.lower() or "#" in msgs[0].text


async def test_help_completes_every_command_beyond_discords_25_choices(harness):
    """More commands than Discord's 25 fixed choices: /help completes each one by name."""
    assert len(COMMANDS) > 25
    shown = await harness.autocomplete(harness.alice, "help", "command", command="")
    assert shown[0]["value"] == "all"  # every command, before anything is typed
    assert len(shown) == 25
    typed = await harness.autocomplete(harness.alice, "help", "command", command="re")
    assert [c["value"] for c in typed] == ["rematch", "reset", "resign"]
    for spec in COMMANDS:
        typed = await harness.autocomplete(harness.alice, "help", "command", command=spec.name)
        assert typed[0]["value"] == spec.name
    inter = await harness.slash(harness.alice, "help", command="rules")
    assert [m.text.splitlines()[0] for m in harness.replies(inter)] == ["/rules game:<game>"]


async def test_swap_suggests_whole_tiles_in_each_games_notation(harness):
    """Numfeud: codes separated by spaces, the last one completed, never a swap of more than the
    13 tiles a game allows (the whole rack of 16 is not offered); none without swap.
    """
    await harness.slash(harness.alice, "new", game="numfeud", player=str(harness.bob), seed=3)
    rack = load_state(await harness.db.games.get_game(1)).rack(0)

    async def suggested(typed: str) -> list[str]:
        choices = await harness.autocomplete(harness.alice, "swap", "tiles", tiles=typed)
        assert all(len(c["name"]) <= 100 and len(c["value"]) <= 100 for c in choices)
        for choice in choices:  # whole tiles of the rack, never more of one than it holds
            tiles = Counter(choice["value"].split())
            assert tiles <= Counter(rack), (choice, rack)
        return [c["value"] for c in choices]

    assert len(rack) > 13
    first = await suggested("")
    assert first
    assert " ".join(rack) not in first  # the whole rack: more than a game's 13 swapped tiles
    assert all(len(v.split()) <= 13 for v in first)
    code = next(t for t in rack if len(t) == 3)  # R12: typing R1 completes it
    completed = await suggested(code[:2])
    assert code in completed
    assert all(v.startswith(code[:2]) and " " not in v for v in completed)
    after = await suggested(code + " ")
    assert after[0] == code
    assert all(v.startswith(code) for v in after)
    inter = await harness.slash(harness.alice, "swap", tiles=after[1])
    assert any(m.public and "swapped 2 tiles" in m.text for m in harness.replies(inter))

    for key in ("rummikub", "nmbr9"):  # no swapping in these games: nothing to suggest
        await harness.slash(harness.alice, "resign")
        await harness.slash(harness.alice, "new", game=key, player=str(harness.bob), seed=3)
        await harness.slash(harness.alice, "start")
        assert await harness.autocomplete(harness.alice, "swap", "tiles", tiles="") == []

    # SmartFeud: the starter's extra blank cannot be swapped, so it is never suggested.
    await harness.slash(harness.alice, "resign")
    await harness.slash(harness.alice, "new", game="smartfeud", player=str(harness.bob), seed=3)
    await harness.slash(harness.alice, "start")
    state = load_state(await harness.db.games.get_game(4))
    starter = (harness.alice, harness.bob)[state.to_move]
    assert state.rack(state.to_move).count("?") == 1  # the extra blank alone
    choices = await harness.autocomplete(starter, "swap", "tiles", tiles="")
    assert choices
    assert not any("?" in c["value"] for c in choices), choices


async def test_descriptions_never_end_at_an_abbreviation(harness):
    """A summary's first sentence does not end at "e.g."; /place reads as its summary says."""
    for spec in COMMANDS:
        short = short_description(spec.summary.replace("`", ""))
        assert len(short) <= 100
        assert not short.rstrip(".…").endswith(("e.g", "i.e")), short
    assert short_description("Do it, i.e. now. " + "x " * 60) == "Do it, i.e. now."
    synced = {c["name"]: c for c in harness.fake.commands[harness.fake.guild_id]}
    for command in synced.values():
        for text in [command["description"], *(o["description"] for o in command["options"])]:
            assert not text.rstrip(".…").endswith(("e.g", "i.e")), (command["name"], text)
            assert not text.endswith("…"), (command["name"], text)  # whole sentences, never cut
            assert "<" not in text.replace("<game>", ""), (command["name"], text)
    # In slash form, as every message: the /help command's own words too.
    assert synced["help"]["description"] == (
        "Show how to start and play; /help command:all lists every command, /help command:play "
        "explains one."
    )
    [topic] = synced["help"]["options"]
    assert topic["description"].startswith("A command to explain, or all for every command")
    assert synced["place"]["description"] == "NMBR 9: place this round's tile, e.g. /place C4 90."
    placement = synced["place"]["options"][0]
    assert placement["name"] == "placement"
    assert placement["description"] == "Cell and rotation, e.g. C4 90 — see /help place"


async def test_the_docs_name_only_options_the_commands_have(harness):
    """Every `/command option:value` example in docs/discord.md is an option of the command."""
    docs = (Path(__file__).parents[2] / "docs" / "discord.md").read_text(encoding="utf-8")
    synced = {c["name"]: c for c in harness.fake.commands[harness.fake.guild_id]}
    examples = 0
    for span in re.findall(r"`(/[a-z]+ [^`]*)`", docs):
        name, _, rest = span[1:].partition(" ")
        options = re.findall(r"(?:^|\s)([a-z_0-9]+):", rest)
        if not options:
            continue  # a text command, `key=value` style
        examples += 1
        have = {o["name"] for o in synced[name].get("options", [])}
        assert set(options) <= have, (span, have)
    assert examples >= 8


async def test_bots_without_a_level_are_refused_with_the_syntax(harness):
    """/new bots:3 without bot: is refused privately (no game), with the right syntax."""
    inter = await harness.slash(harness.alice, "new", game="webfeud", bots=3)
    [msg] = harness.replies(inter)
    assert msg.ephemeral
    assert "bots: needs bot:" in msg.text
    assert "/new game:Webfeud bot:hard bots:3" in msg.text
    assert await harness.db.games.get_game(1) is None
    await harness.slash(harness.alice, "new", game="smartfeud", bot="easy", bots=3)
    assert len(await harness.db.games.seats(1)) == 4
    # An option written with a colon gets its spelling, as in the text commands.
    inter = await harness.slash(harness.alice, "new", game="rummikub", options="time:60s")
    [msg] = harness.replies(inter)
    assert msg.ephemeral
    assert msg.text == "I did not understand 'time:60s': did you mean time=60s?"
    # bot and game have fields of their own: options: says so, never "did you mean bot=hard?",
    # which options: would refuse next. (options:bot crashed once.)
    for typed in ("bot", "bot:hard", "bot=hard", "bot-hard", "game:2"):
        inter = await harness.slash(harness.alice, "new", game="webfeud", options=typed)
        [msg] = harness.replies(inter)
        field = "game" if typed.startswith("game") else "bot"
        more = " (and bots: for more than one)" if field == "bot" else ""
        assert (
            msg.text
            == f"{field} has its own field in /new: pick {field}:{more} instead of options:."
        )
    # (Discord's own range keeps bots:0 out; should one arrive, it adds no bot.)
    await harness.slash(harness.alice, "new", game="webfeud", bot="easy", bots=0)
    assert len(await harness.db.games.seats(2)) == 1


async def test_game_suggestions_are_the_games_each_command_accepts(harness):
    """/rematch suggests finished games, /board and /history finished ones too, /join lobbies."""
    alice, bob = harness.alice, harness.bob
    await harness.slash(alice, "new", game="webfeud", player=str(bob))
    await harness.slash(alice, "resign")  # game 1 is over
    await harness.slash(alice, "new", game="webfeud", player=str(bob))  # game 2 is played
    await harness.slash(alice, "new", game="smartfeud")  # game 3 waits for players

    async def suggested(command: str) -> list[int]:
        choices = await harness.autocomplete(alice, command, "game", game="")
        return [c["value"] for c in choices]

    assert await suggested("rematch") == [1]
    assert await suggested("board") == [2, 1]
    assert await suggested("history") == [2, 1]
    assert await suggested("join") == [3]
    assert await suggested("play") == [3, 2]
    labels = await harness.autocomplete(alice, "rematch", "game", game="")
    assert labels[0]["name"] == "#1 Webfeud: alice vs bob (over)"
    # Beside NMBR 9, /swap and /try suggest the word game, /place and /moves the NMBR 9 game.
    await harness.slash(alice, "new", game="nmbr9", player=str(bob), seed=5)  # game 4
    await harness.slash(alice, "start", game=4)
    assert await suggested("swap") == [3, 2]  # (a lobby is told it has not started)
    assert await suggested("try") == [3, 2]
    assert await suggested("place") == [4]
    assert await suggested("moves") == [4]
    tiles = await harness.autocomplete(alice, "swap", "tiles", tiles="")
    assert tiles, "the word game's rack, with no game: given"


async def test_help_knows_discords_own_notify(harness):
    """/help command:notify explains it; /help lists it; the command option completes it."""
    inter = await harness.slash(harness.alice, "help", command="notify")
    [msg] = harness.replies(inter)
    assert msg.public
    assert msg.text.startswith("/notify dm:True|False\n")
    assert "There is no command" not in msg.text
    inter = await harness.slash(harness.alice, "help", command="all")
    listing = "\n".join(m.text for m in harness.replies(inter))
    assert "\nOn Discord\n/notify dm:True|False — " in listing
    assert listing.index("/help [command:<command>]") < listing.index("/notify")
    typed = await harness.autocomplete(harness.alice, "help", "command", command="no")
    assert "notify" in [c["value"] for c in typed]


def test_swap_suggestions_complete_whole_tiles():
    """Letters join, codes keep spaces; a finished rack stays; a wrong tile starts again."""
    assert swap_suggestions(("A", "B"), "AB") == ["AB"]
    assert swap_suggestions(("A", "B"), "ABA") == ["AB", "A", "B"]
    assert swap_suggestions(("R1", "R12"), "r1") == ["R1", "R12", "R1 R12"]
    assert swap_suggestions(("R1", "R12"), "R1 R12") == ["R1 R12"]
    assert swap_suggestions(("R1", "R12"), "X") == ["R1 R12", "R1", "R12"]
    assert swap_suggestions((), "A") == []
    assert all(len(v) <= 100 for v in swap_suggestions(("B10",) * 30, ""))


def test_discord_out_of_reach_is_one_line_and_status_1(tmp_path, monkeypatch, caplog):
    """No network (here: nothing listens on the API's port) ends in one logged line, status 1."""
    import socket

    from bot.adapters.discord_bot import main_discord

    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))  # bound, never listening: connections are refused
        port = closed.getsockname()[1]
        monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
        monkeypatch.setenv("DISCORD_TOKEN", "fake-token")
        monkeypatch.chdir(tmp_path)
        with caplog.at_level("ERROR"):
            status = main_discord(str(tmp_path / "x.sqlite3"), configure_logging=False)
    assert status == 1
    errors = [r for r in caplog.records if r.levelname == "ERROR"]
    assert [r.getMessage().split(":")[0] for r in errors] == ["cannot reach Discord"]
    assert all(r.exc_info is None for r in errors)


async def test_refusals_write_the_syntax_as_discords_options(harness):
    """A refusal's syntax, example and game= hint read as slash options: game:<id>, move:…."""
    alice, bob = harness.alice, harness.bob
    inter = await harness.slash(alice, "pass")
    [msg] = harness.replies(inter)
    assert "Start one with /new game:<game> player:@member." in msg.text
    await harness.slash(alice, "new", game="webfeud", player=str(bob), seed=3)
    inter = await harness.slash(alice, "place", placement="C4 90")
    [msg] = harness.replies(inter)
    assert "in Webfeud use /play move:<move> (see /rules game:Webfeud)" in msg.text
    await harness.slash(alice, "new", game="webfeud", player=str(bob), seed=4)
    inter = await harness.slash(alice, "board")
    [msg] = harness.replies(inter)
    assert "add game:<id>, e.g. game:" in msg.text
    assert "game=" not in msg.text
    inter = await harness.slash(alice, "swap", tiles="game=1")  # nothing left to swap
    [msg] = harness.replies(inter)
    assert msg.ephemeral
    assert "Usage: /swap tiles:<tiles> [game:<id>], e.g. /swap AEQ?" in msg.text
    inter = await harness.slash(alice, "help", command="all")
    listing = "\n".join(m.text for m in harness.replies(inter))
    assert "/play move:<move> [game:<id>]" in listing
    assert "/place placement:<cell> <rotation> [game:<id>]" in listing
    assert "[game=<id>]" not in listing
    assert "/help command:all" in listing
    assert "/leaderboard game:Numfeud is the Numfeud World Ranking" in listing
    assert "seed:<n> deals a reproducible game" in listing
    assert "seed=<n>" not in listing


async def test_a_game_typed_into_a_moves_text_picks_the_game(harness):
    """`8H QUIZ game=2` in /play's move option plays in game 2, as the text syntax writes it."""
    alice, bob = harness.alice, harness.bob
    await harness.slash(alice, "new", game="webfeud", player=str(bob), seed=3)
    await harness.slash(alice, "new", game="webfeud", player=str(bob), seed=4)
    inter = await harness.slash(alice, "play", move="pass game=2")
    text = "\n".join(m.text for m in harness.replies(inter))
    assert "#2 alice: pass" in text
    assert (await harness.db.games.get_game(2)).turn == 1
    assert (await harness.db.games.get_game(1)).turn == 0
    inter = await harness.slash(alice, "play", move="pass game=x")
    [msg] = harness.replies(inter)
    assert "game=x is not a game number" in msg.text
    inter = await harness.slash(alice, "play", move="pass game=2", game=1)
    [msg] = harness.replies(inter)
    assert "Give the game once: game:1 or game=2 in the text, not both." in msg.text
    assert (await harness.db.games.get_game(1)).turn == 0
    assert (await harness.db.games.get_game(2)).turn == 1


async def test_names_and_echoed_words_are_never_rewritten(fake, db):
    """Only the syntax is written as slash options: a name or a user's words stay as they are."""
    named = fake.add_user("game=2")
    commandlike = fake.add_user("/play 8H QUIZ")
    h = Harness(fake, db)
    await h.start()
    try:
        await h.slash(named, "new", game="webfeud", player=str(commandlike), seed=3)
        inter = await h.slash(named, "board")
        text = "\n".join(m.text for m in h.replies(inter))
        assert "game=2" in text
        assert "/play 8H QUIZ" in text
        assert "game:2" not in text
        assert "move:" not in text
        inter = await h.slash(named, "rules", game="webfeud game=1")
        [msg] = h.replies(inter)
        assert "'webfeud game=1'" in msg.text
        # A /new example keeps its game's options in options: (Rummikub's hint needs assist).
        await h.slash(named, "new", game="rummikub", bot="easy", seed=3)
        await h.slash(named, "start", game=2)
        inter = await h.slash(named, "hint", game=2)
        [msg] = h.replies(inter)
        assert "options:assist=on" in msg.text, msg.text
        assert "assist=on" not in msg.text.replace("options:assist=on", "")
    finally:
        await h.stop()


async def test_every_commands_slash_syntax_names_only_its_own_options(harness):
    """The syntax written for Discord uses each command's real option names, required or not."""
    synced = {c["name"]: c for c in harness.fake.commands[harness.fake.guild_id]}
    for spec in COMMANDS:
        shown = slash_text()(spec.syntax)
        options = synced[spec.name].get("options", [])
        named = re.findall(r"(\[?)([a-z_0-9]+):", shown)
        assert {name for _, name in named} <= {o["name"] for o in options}, shown
        required = {o["name"] for o in options if o.get("required")}
        assert {name for bracket, name in named if not bracket} == required, shown


async def test_a_server_that_removes_the_bot_holds_its_games_until_it_is_back(fake, db):
    """Removed from the server: the game waits (no reminder, no timeout), its players told by DM.

    Added back (GUILD_CREATE), the channel hears the game goes on with the time it had left.
    """
    async with clocked(fake, db) as (h, start):
        await h.slash(h.alice, "notify", dm=True)
        await h.slash(h.alice, "new", game="webfeud", player=str(h.bob))
        told = asyncio.ensure_future(fake.wait_message(lambda m: m in fake.dms_to(h.alice)))
        await asyncio.sleep(0)  # it notes the messages so far
        await fake.remove_bot()
        assert (await told).text == (
            "I was removed from #games, so game #1 (Webfeud in #games) waits: its clock stands "
            "still, and nobody's time runs out, until someone adds me back there."
        )
        assert h.bot is not None
        assert h.bot.dispatcher is not None
        assert await h.bot.dispatcher.run_due(now=start + timedelta(days=30)) == []
        assert (await db.games.get_game(1)).status == "active"
        h.clock.now = start + timedelta(hours=100)
        told = asyncio.ensure_future(
            fake.wait_message(lambda m: m.public and m.text.startswith("I am back"))
        )
        await asyncio.sleep(0)  # it notes the messages so far
        await fake.add_bot()  # (a welcome, then which games go on)
        assert (await told).text == (
            "I am back: game #1 (Webfeud) goes on, every turn with the time it had left when its "
            "clock stopped. /games shows them."
        )
        back = h.clock.now
        assert await h.bot.dispatcher.run_due(now=back + timedelta(hours=47)) == []
        fired = await h.bot.dispatcher.run_due(now=back + timedelta(hours=48, seconds=1))
        assert [r.kind for r in fired] == ["reminder"]


async def test_a_removal_missed_while_down_is_learnt_from_the_refusal(fake, db):
    """Removed while the bot was not running: the first post the channel refuses holds the game."""
    async with clocked(fake, db) as (h, start):
        await h.slash(h.alice, "notify", dm=True)
        await h.slash(h.bob, "new", game="webfeud", player=str(h.alice))  # bob moves first
        await h.stop()
        fake.bot_removed = True  # no GUILD_DELETE: it happened while the bot was down
        await h.start()  # the server is not in READY
        assert h.bot is not None
        assert h.bot.dispatcher is not None
        dms = len(fake.dms_to(h.alice))
        fired = await h.bot.dispatcher.run_due(now=start + timedelta(hours=48, seconds=1))
        assert [r.kind for r in fired] == ["reminder"]  # bob has no DMs: a mention, refused
        assert [m.text for m in fake.dms_to(h.alice)[dms:]] == [
            "I was removed from #games, so game #1 (Webfeud in #games) waits: its clock stands "
            "still, and nobody's time runs out, until someone adds me back there."
        ]
        assert await h.bot.dispatcher.run_due(now=start + timedelta(days=9)) == []
        assert (await db.games.get_game(1)).status == "active"


async def test_a_channel_without_attach_files_gets_the_news_as_text(fake, db):
    """A post (a timeout's news) where the bot may not attach files: the words, then the table.

    The table is drawn as text in a code block, as the console draws it; the buttons go under
    it. (Answers to commands are interaction responses, which need no such permission.)
    """
    async with clocked(fake, db) as (h, start):
        await h.slash(h.alice, "new", game="webfeud", player=str(h.bob))
        fake.no_attachments = True
        public = len(fake.public_messages())
        assert h.bot is not None
        assert h.bot.dispatcher is not None
        h.clock.now = start + timedelta(hours=72, seconds=5)
        fired = await h.bot.dispatcher.run_due(now=h.clock.now)
        assert "timeout" in [r.kind for r in fired]
        posted = fake.public_messages()[public:]
        assert posted
        assert all(m.attachments == [] for m in posted)
        texts = [m.text for m in posted]
        assert any(t.startswith("#1 alice: ran out of time") for t in texts), texts
        assert any("is over" in t for t in texts), texts
        tables = [t for t in texts if t.startswith("```\n")]
        assert tables
        assert "  8 ' . . - . . . * . . . - . . '" in tables[0]
        assert (await db.games.get_game(1)).status == "finished"


async def test_a_server_that_adds_the_bot_is_welcomed(harness):
    """Added to a server: a short welcome in a channel the bot may write in, in slash form."""
    from bot.adapters.discord_bot import SERVER_WELCOME, service_text

    fake = harness.fake
    told = asyncio.ensure_future(fake.wait_message(lambda m: m.public))
    await asyncio.sleep(0)  # it notes the messages so far
    await fake.add_bot()
    welcome = await told
    assert welcome.channel_id == fake.channel_id
    assert welcome.text.startswith("Hello! I host five tile games:\nWebfeud — ")  # as game: says
    assert "/new game:Webfeud player:@friend" in welcome.text
    assert "/new game:Webfeud bot:easy" in welcome.text
    assert len(welcome.text) < 600
    assert welcome.text == service_text(SERVER_WELCOME)


async def test_posts_refused_in_a_server_the_bot_is_in_hold_nothing(fake, db):
    """403 Missing Access in a channel of a server the bot is in (no View Channel there).

    Nothing is held and nobody is told the bot was removed; slash commands still show the game.
    """
    async with clocked(fake, db) as (h, start):
        await h.slash(h.alice, "notify", dm=True)
        await h.slash(h.bob, "new", game="webfeud", player=str(h.alice))  # bob moves first
        fake.bot_removed = True  # its posts are refused; the server is still among its own
        assert h.bot is not None
        assert h.bot.dispatcher is not None
        fired = await h.bot.dispatcher.run_due(now=start + timedelta(hours=48, seconds=1))
        assert [r.kind for r in fired] == ["reminder"]  # bob's mention, refused
        chat = await db.chats.get_chat_by_platform_id("discord", str(fake.channel_id))
        assert chat is not None
        assert chat.away_since is None
        assert not [m for m in fake.dms_to(h.alice) if "I was removed" in m.text]
        inter = await h.slash(h.bob, "board")
        assert "bob to move" in h.replies(inter)[0].text


class Noted(logging.Handler):
    """Sets `seen` when a record saying `words` is logged."""

    def __init__(self, words: str) -> None:
        super().__init__()
        self.words = words
        self.seen = asyncio.Event()

    def emit(self, record: logging.LogRecord) -> None:
        if self.words in record.getMessage():
            self.seen.set()


async def _new_session_with_a_hidden_game(fake, h: Harness, hidden: int) -> FeudBot:
    """Alice's game in #hidden (no View Channel), then a new session whose server is not listed
    yet (`fake.hold_guilds`): READY names it by its id only.
    """
    await h.slash(h.alice, "notify", dm=True)
    await h.slash(h.bob, "new", game="webfeud", player=str(h.alice), in_channel=hidden)
    fake.no_access.add(hidden)
    bot = h.bot
    assert bot is not None
    assert bot.dispatcher is not None
    fake.hold_guilds = asyncio.Event()
    connected = asyncio.ensure_future(bot.wait_for("connect"))
    await asyncio.sleep(0)  # it listens before the session ends
    await fake.new_session()
    await asyncio.wait_for(connected, 10)
    assert bot.get_channel(hidden) is None
    return bot


async def test_a_post_refused_while_a_new_session_lists_the_servers_holds_nothing(fake, db, caplog):
    """A new session (Discord invalidated the old one): until its server is listed again, a
    reminder's mention refused in #hidden (no View Channel) is weighed once it is: nothing held.

    Before, with no server known for that moment, the refusal was taken for a removal: alice
    was told "I was removed from #hidden" (and the game held until the server was listed).
    """
    hidden = fake.add_channel("hidden")
    caplog.set_level(logging.INFO, logger="bot.adapters.discord_bot")
    noted = Noted("refused a post while Discord lists my servers anew")
    logging.getLogger("bot.adapters.discord_bot").addHandler(noted)
    async with clocked(fake, db) as (h, start):
        bot = await _new_session_with_a_hidden_game(fake, h, hidden)
        assert bot.dispatcher is not None
        firing = asyncio.ensure_future(
            bot.dispatcher.run_due(now=start + timedelta(hours=48, seconds=1))
        )
        weighing = asyncio.ensure_future(noted.seen.wait())
        try:
            # Before, the refusal was weighed at once and the pass ended; now it waits.
            await asyncio.wait({firing, weighing}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            weighing.cancel()
            fake.hold_guilds.set()  # the server is listed
            logging.getLogger("bot.adapters.discord_bot").removeHandler(noted)
        fired = await asyncio.wait_for(firing, 10)
        assert [r.kind for r in fired] == ["reminder"]  # bob's mention, refused
        assert "403 50001 Missing Access" in fake.errors
        assert await db.chats.away_chats("discord") == []
        assert not [m for m in fake.dms_to(h.alice) if "I was removed" in m.text]


async def test_a_refusal_waits_for_a_server_out_for_long_no_longer_than_a_bound(
    fake, db, monkeypatch
):
    """A server still unlisted (in an outage) when the wait's bound ends: the refusal holds
    nothing, and the dispatcher's pass ends (its chat's later news is not stuck behind it).
    """
    monkeypatch.setattr(discord_bot, "SERVERS_WAIT", 0.2)
    hidden = fake.add_channel("hidden")
    async with clocked(fake, db) as (h, start):
        bot = await _new_session_with_a_hidden_game(fake, h, hidden)
        assert bot.dispatcher is not None
        available = asyncio.ensure_future(bot.wait_for("guild_available"))
        try:
            fired = await asyncio.wait_for(
                bot.dispatcher.run_due(now=start + timedelta(hours=48, seconds=1)), 10
            )
        finally:
            fake.hold_guilds.set()  # the server is listed at last
            await asyncio.wait_for(available, 10)
        assert [r.kind for r in fired] == ["reminder"]
        assert "403 50001 Missing Access" in fake.errors
        assert await db.chats.away_chats("discord") == []


async def test_a_server_listed_after_ready_brings_its_held_games_back(fake, db):
    """Added back while the bot was down, its server listed only after READY: the game goes on.

    (Discord names the servers in READY by id only and sends each one after; one slower than
    discord.py waits for comes after READY.) Before, only READY and a server joining brought
    held games back: the game stayed held until someone used a command in #games.
    """
    async with clocked(fake, db) as (h, _start):
        await h.slash(h.alice, "notify", dm=True)
        await h.slash(h.alice, "new", game="webfeud", player=str(h.bob))
        told = asyncio.ensure_future(
            fake.wait_message(lambda m: m in fake.dms_to(h.alice) and "I was removed" in m.text)
        )
        await asyncio.sleep(0)  # it notes the messages so far
        await fake.remove_bot()
        await told
        await h.stop()
        fake.bot_removed = False  # added back while the bot was down
        fake.hold_guilds = asyncio.Event()
        await h.start()  # READY names the server by id only: nothing seen yet
        assert [c.title for c in await db.chats.away_chats("discord")] == ["#games"]
        back = asyncio.ensure_future(
            fake.wait_message(lambda m: m.public and m.text.startswith("I am back"))
        )
        await asyncio.sleep(0)  # it notes the messages so far
        fake.hold_guilds.set()  # the server follows
        assert (await back).text.startswith("I am back: game #1 (Webfeud) goes on")
        assert await db.chats.away_chats("discord") == []


@pytest.mark.parametrize("archived", [False, True], ids=["channel", "archived-thread"])
async def test_a_removal_holds_every_channel_of_the_server_and_both_come_back(fake, db, archived):
    """Games in #games and #other: one removal holds both (a DM each), both hear "I am back".

    #other may be an archived thread of #games, which Discord does not list to the bot: before,
    only the channels and active threads the bot saw were held; the thread's game ran on unseen
    until a refused post there, and was never brought back by the bot's return.
    """
    other = fake.add_thread("other", archived=True) if archived else fake.add_channel("other")
    async with clocked(fake, db) as (h, start):
        await h.slash(h.alice, "notify", dm=True)
        await h.slash(h.alice, "new", game="webfeud", player=str(h.bob))
        await h.slash(h.alice, "new", game="numfeud", player=str(h.carol), in_channel=other)
        told = asyncio.ensure_future(
            fake.wait_message(lambda m: m in fake.dms_to(h.alice) and "#other" in m.text)
        )
        await asyncio.sleep(0)  # it notes the messages so far
        await fake.remove_bot()
        await told
        removed = [m.text for m in fake.dms_to(h.alice) if m.text.startswith("I was removed")]
        assert sorted(removed) == [
            "I was removed from #games, so game #1 (Webfeud in #games) waits: its clock stands "
            "still, and nobody's time runs out, until someone adds me back there.",
            "I was removed from #other, so game #2 (Numfeud in #other) waits: its clock stands "
            "still, and nobody's time runs out, until someone adds me back there.",
        ]
        assert h.bot is not None
        assert h.bot.dispatcher is not None
        assert await h.bot.dispatcher.run_due(now=start + timedelta(days=30)) == []
        assert (await db.games.get_game(2)).status == "active"
        back = asyncio.ensure_future(
            fake.wait_message(
                lambda m: m.public and m.channel_id == other and m.text.startswith("I am back")
            )
        )
        await asyncio.sleep(0)
        await fake.add_bot()
        assert (await back).text.startswith("I am back: game #2 (Numfeud) goes on")
        backs = [m for m in fake.public_messages() if m.text.startswith("I am back")]
        assert sorted(m.channel_id for m in backs) == sorted([fake.channel_id, other])
        assert await db.chats.away_chats("discord") == []


async def test_posts_refused_in_an_archived_thread_of_a_server_the_bot_is_in_hold_nothing(fake, db):
    """403 Missing Access in an archived thread (not listed to the bot) of a server it is in.

    Its channel tells that the bot is in the server: nothing is held. Before, the thread, not
    found among the threads the bot sees, was taken for a server that removed it.
    """
    thread = fake.add_thread("word-night", archived=True)
    async with clocked(fake, db) as (h, start):
        await h.slash(h.alice, "notify", dm=True)
        await h.slash(h.bob, "new", game="webfeud", player=str(h.alice), in_channel=thread)
        fake.bot_removed = True  # its posts are refused; the server is still among its own
        assert h.bot is not None
        assert h.bot.dispatcher is not None
        fired = await h.bot.dispatcher.run_due(now=start + timedelta(hours=48, seconds=1))
        assert [r.kind for r in fired] == ["reminder"]  # bob's mention, refused
        assert await db.chats.away_chats("discord") == []
        assert not [m for m in fake.dms_to(h.alice) if "I was removed" in m.text]


async def test_a_deleted_channel_cancels_the_games_of_its_archived_threads_too(fake, db):
    """#games deleted: a game in its archived thread (gone with it) is cancelled, told by DM."""
    thread = fake.add_thread("word-night", archived=True)
    async with clocked(fake, db) as (h, start):
        await h.slash(h.alice, "notify", dm=True)
        await h.slash(h.alice, "new", game="webfeud", player=str(h.bob), in_channel=thread)
        told = asyncio.ensure_future(
            fake.wait_message(lambda m: m in fake.dms_to(h.alice) and "was deleted" in m.text)
        )
        await fake.delete_channel(fake.channel_id)
        assert (await asyncio.wait_for(told, 10)).text == (
            "#word-night was deleted, so game #1 (Webfeud in #word-night) was cancelled: it can "
            "no longer be played, and counts for nobody."
        )
        await assert_cancelled_for_good(h, db, start)


async def test_a_channel_without_send_messages_gets_its_news_to_the_players_dms(fake, db):
    """No Send Messages in #games: the game goes on by commands; a timeout's news goes by DM.

    Only to players who allow DMs (bob does not: he learns it from the note his next command
    there gets, once).
    """
    async with clocked(fake, db) as (h, start):
        await h.slash(h.alice, "notify", dm=True)
        await h.slash(h.alice, "new", game="webfeud", player=str(h.bob))
        fake.no_send.add(fake.channel_id)
        public, dms = len(fake.public_messages()), len(fake.dms_to(h.alice))
        assert h.bot is not None
        assert h.bot.dispatcher is not None
        fired = await h.bot.dispatcher.run_due(now=start + timedelta(hours=72, seconds=5))
        assert "timeout" in [r.kind for r in fired]
        assert fake.public_messages()[public:] == []
        lead = (
            "I may not post in #games (a server admin can give me Send Messages there), so this "
            "news of game #1 (Webfeud) comes here:\n"
        )
        copies = [m for m in fake.dms_to(h.alice)[dms:] if m.text.startswith(lead)]
        assert [m.text[len(lead) :].split("\n")[0] for m in copies] == [
            "#1 alice: ran out of time.",
            "Game #1 is over (alice's time ran out). bob won — alice 0, bob 0.",
        ]
        assert all(m.attachments for m in copies)  # the board, and the game-over card
        assert fake.dms_to(h.bob) == []
        inter = await h.slash(h.bob, "board", game=1)
        [note] = [m for m in h.replies(inter) if m.text.startswith("Note:")]
        assert note.ephemeral
        assert note.text == (
            "Note: I may not post in #games, so reminders and the news of timeouts cannot reach "
            "you here. A server admin can give me Send Messages there; meanwhile "
            "`/notify dm:True` sends them to your DMs."
        )
        assert any(m.attachments for m in h.replies(inter))  # the board still answers
        inter = await h.slash(h.bob, "board", game=1)
        assert not [m for m in h.replies(inter) if m.text.startswith("Note:")]
        h.assert_racks_private()


async def test_without_attach_files_a_rummikub_timeout_shows_no_rack(fake, db):
    """Rummikub time=15s times out where files are refused: text and table, no rack shown."""
    async with clocked(fake, db) as (h, start):
        await h.slash(h.alice, "new", game="rummikub", player=str(h.bob), options="time=15s")
        await h.slash(h.alice, "start")
        fake.no_attachments = True
        public = len(fake.public_messages())
        assert h.bot is not None
        assert h.bot.dispatcher is not None
        h.clock.now = start + timedelta(seconds=16)
        fired = await h.bot.dispatcher.run_due(now=h.clock.now)
        assert "timeout" in [r.kind for r in fired]
        posted = fake.public_messages()[public:]
        assert posted
        assert all(m.attachments == [] for m in posted)
        assert any(m.text.startswith("```\n") for m in posted)
        h.assert_racks_private()
        assert [e for e in fake.errors if "50013" not in e] == []


async def test_a_deleted_channel_cancels_its_games_and_tells_their_players(fake, db) -> None:
    """#games is deleted: its game can never be played again; cancelled, no loss on time, DMs."""
    async with clocked(fake, db) as (h, start):
        await h.slash(h.alice, "notify", dm=True)
        await h.slash(h.alice, "new", game="webfeud", player=str(h.bob))
        told = asyncio.ensure_future(
            fake.wait_message(lambda m: m in fake.dms_to(h.alice) and "was deleted" in m.text)
        )
        await fake.delete_channel(fake.channel_id)
        dm = await asyncio.wait_for(told, 10)
        assert dm.text == (
            "#games was deleted, so game #1 (Webfeud in #games) was cancelled: it can no longer "
            "be played, and counts for nobody."
        )
        await assert_cancelled_for_good(h, db, start)


async def test_a_channel_deleted_while_the_bot_was_down_is_learnt_from_its_refusal(
    fake, db
) -> None:
    """Deleted unseen: the first post there (a reminder) gets 404 Unknown Channel: cancelled."""
    async with clocked(fake, db) as (h, start):
        await h.slash(h.alice, "new", game="webfeud", player=str(h.bob))  # alice to move
        await fake.delete_channel(fake.channel_id, tell=False)
        assert h.bot is not None
        assert h.bot.dispatcher is not None
        await h.bot.dispatcher.run_due(now=start + timedelta(hours=48, seconds=1))
        row = await db.games.get_game(1)
        assert row is not None
        assert row.status == "cancelled"  # not lost on time days later, unseen

"""The command language: one table, one parser, the documentation generated from the table."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.commands import (
    COMMANDS,
    Command,
    CommandError,
    commands_markdown,
    help_text,
    parse_command,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "commands.md"


def test_docs_embed_the_generated_table() -> None:
    """docs/commands.md holds exactly the table generated from COMMANDS (they cannot drift)."""
    text = DOC.read_text(encoding="utf-8")
    begin = text.index("-->\n", text.index("<!-- commands:begin")) + len("-->\n")
    end = text.index("<!-- commands:end -->")
    assert text[begin:end] == commands_markdown()


def test_help_lists_the_commands_under_their_headings() -> None:
    """/help: the commands in table order, a heading before each group, every command once."""
    lines = help_text("all").splitlines()
    headings = [line for line in lines if line and not line.startswith(("/", "Commands"))]
    assert headings == ["Games", "Playing", "Looking", "Records and help"]
    listed = [line.split()[0][1:] for line in lines if line.startswith("/")]
    assert listed == [spec.name for spec in COMMANDS]
    assert lines[lines.index("Playing") + 1].startswith("/play <move>")


def test_help_alone_is_a_quick_start_that_names_the_games() -> None:
    """/help: the games with what each is, how to start and play, where the rest is; short."""
    from bot.games import GAMES

    text = help_text()
    for key, gdef in GAMES.items():
        assert f"{key} — {gdef.tagline}" in text
    assert "/new webfeud bot=easy" in text
    assert "/help all" in text
    assert len(text) < 900  # a phone screen, not the 3,600-character list of every command


def test_every_command_is_documented_with_its_syntax() -> None:
    """Each command's syntax line appears in the docs and in /help."""
    text = DOC.read_text(encoding="utf-8")
    listing = help_text("all")
    for spec in COMMANDS:
        assert spec.syntax.replace("|", "\\|") in text
        assert spec.syntax in listing


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("/play 8H QUIZ", Command("play", text="8H QUIZ")),
        ("/PLAY h8 quiz game=12", Command("play", game_id=12, text="h8 quiz")),
        ("/swap AEQ?", Command("swap", text="AEQ?")),
        ("/pass@feudbot", Command("pass")),
        ("/board game=3", Command("board", game_id=3)),
        ("/leaderboard webfeud", Command("leaderboard", text="webfeud")),
        ("/stats @Bob", Command("stats", players=("Bob",))),
        # "@bob, @carol" as people write lists: the comma is not part of the name.
        ("/new webfeud @bob, @carol", Command("new", game_key="webfeud", players=("bob", "carol"))),
        ("/rules Webfeud", Command("rules", text="webfeud")),
        ("/help /swap", Command("help", text="swap")),
        ("/ board game=2", Command("board", game_id=2)),  # a phone's space after the slash
        ("/leaderboard 2026", Command("leaderboard", options={"year": "2026"})),
        (
            "/new webfeud @bob bot=hard board=random seed=42",
            Command(
                "new",
                game_key="webfeud",
                players=("bob",),
                bots=("hard",),
                options={"board": "random", "seed": "42"},
            ),
        ),
    ],
)
def test_parse_command_reads_each_shape(line: str, expected: Command) -> None:
    """Lines parse into commands with their game id, text, players, bots and options."""
    assert parse_command(line) == expected


@pytest.mark.parametrize(
    ("line", "shows"),
    [
        ("/frobnicate", "There is no command /frobnicate. /help all lists them all."),
        ("/plya 8H QUIZ", "There is no command /plya. Did you mean /play"),
        ("/leaderbord", "Did you mean /leaderboard? /help all lists them all."),
        ("/quit", "There is no command /quit. It is a move: /play quit (SmartFeud, once"),
        ("/skip", "It is a move: /place skip (NMBR 9, for a tile that fits nowhere)."),
        ("/score", "There is no command /score. Did you mean /board? Show the board, the scores"),
        ("/Hand", "There is no command /hand. Did you mean /rack? Show your tiles, privately."),
        ("/surrender", "Did you mean /resign? Give up the game. /help all lists them all."),
        # A suggestion says the gist, whole, never a summary cut at 200 characters.
        (
            "/ranking",
            "Did you mean /leaderboard? Show this chat's leaderboard of finished games: games,",
        ),
        (
            "/create",
            "There is no command /create. Did you mean /new? Create a game in this chat. /help",
        ),
        ("/stats bob", "Name the player with @: /stats @bob. Usage: /stats [@player]"),
        ("/log", "Did you mean /history? List a game's moves"),
        ("/" + "x" * 300, "There is no command /xxxxxxxxxxxxxxxxxxx…. /help"),
        ("hello", "Commands start with a slash"),
        ("/", "Write a command after the slash, e.g. /help"),
        ("/board game=²", "game=² is not a game number; /games lists them. Usage: /board"),
        ("/board game=٣", "game=٣ is not a game number"),
        ("/board game=-1", "game=-1 is not a game number"),
        # Beyond SQLite's 64-bit INTEGER: refused here, never a lookup that overflows.
        ("/board game=" + "9" * 25, "game=9999999999999999999… is not a game number"),
        ("/pass now", "Usage: /pass [game=<id>]"),
        ("/swap", "Usage: /swap <tiles> [game=<id>]"),
        ("/play", "Usage: /play <move> [game=<id>]"),
        ("/play 8H QI game=x", "Usage: /play <move> [game=<id>]"),
        ("/new", "Usage: /new <game>"),
        ("/new", "e.g. /new webfeud @bob (games: nmbr9, numfeud, rummikub, smartfeud, webfeud)."),
        ("/rules", "/rules takes <game> (games: nmbr9, numfeud, rummikub, smartfeud, webfeud)."),
        ("/new webfeud bot=godlike", "Usage: /new <game>"),
        ("/new webfeud sneaky", "Usage: /new <game>"),
        ("/new webfeud game=3", "Usage: /new <game>"),
        ("/new nmbr9 @bot:hard", "@bot:hard names no person: add a bot with bot=<level>."),
        ("/new webfeud @Bot-medium-3", "add a bot with bot=<level>. Usage: /new <game>"),
        ("/new webfeud @bot", "@bot names no person"),
        ("/rules", "Usage: /rules <game>"),
        ("/stats bob", "Usage: /stats [@player]"),
        ("/new webfeud @@bob", "@@bob is not a name: write @ and the name, e.g. @bob."),
        ("/new webfeud @bob,@carol", "@bob,@carol is not a name"),
        ("/stats @@@", "@@@ is not a name: write @ and the name, e.g. @bob. Usage: /stats"),
        ("/stats @", "Write the player's name after the @, e.g. /stats @bob. Usage: /stats"),
        ("/stats @bot-hard-3", "@bot-hard-3 is a computer player, which keeps no record. Usage"),
        # A year no result can have: said so (0000 and 9999 once broke the query).
        ("/leaderboard 9999", "There are no results of the year 9999: name one from 2000 on."),
        ("/leaderboard nmbr9 0000 everywhere", "no results of the year 0000"),
        # game=<id> where no one game is meant: said so, never read as a name or a game's name.
        ("/stats game=1", "/stats takes no game=<id>. Usage: /stats [@player]"),
        ("/help game=1", "/help takes no game=<id>. Usage: /help [command]"),
        ("/rules game=1", "/rules takes a game's name, not game=<id>. Usage: /rules <game>"),
        ("/leaderboard game=1 2026", "/leaderboard takes a game's name, not game=<id>. Usage"),
        # A game's number alone: written the notation's way (it said "takes no arguments").
        ("/join 1", "Name the game as game=1: /join game=1. Usage: /join [game=<id>]"),
        ("/start #12", "Name the game as game=12: /start game=12."),
        ("/join x", "/join takes no arguments."),
    ],
)
def test_wrong_input_shows_the_syntax(line: str, shows: str) -> None:
    """Unknown commands and wrong arguments raise CommandError naming the right syntax."""
    with pytest.raises(CommandError) as info:
        parse_command(line)
    assert shows in str(info.value)
    assert len(str(info.value)) <= 200


def test_help_for_one_command_gives_syntax_and_summary() -> None:
    """/help swap shows the swap syntax line first."""
    assert help_text("swap").splitlines()[0] == "/swap <tiles> [game=<id>]"


def test_help_for_resign_tells_who_plays_on_and_when_the_game_ends() -> None:
    """/help resign names the games that go on without a resigner and Rummikub's last round."""
    text = help_text("resign")
    assert "In NMBR 9, SmartFeud and Rummikub, two or more others left play on" in text
    assert "(in Rummikub's last round the game ends instead)" in text


def test_help_for_a_move_word_or_a_synonym_says_what_to_use_in_plain_text() -> None:
    """/help quit explains the move as /quit does; synonyms' summaries carry no Markdown."""
    with pytest.raises(CommandError) as quit_help:
        help_text("quit")
    assert "There is no command /quit. It is a move: /play quit (SmartFeud" in str(quit_help.value)
    for ask in (lambda: parse_command("/exchange"), lambda: help_text("exchange")):
        with pytest.raises(CommandError) as info:
            ask()
        assert "Did you mean /swap? Return these tiles to the bag" in str(info.value)
        assert "`" not in str(info.value)


@pytest.mark.parametrize(
    ("line", "meant"),
    [
        ("/new nmbr 9", "/new nmbr9"),
        ("/new nmbr 9 bot=easy", "/new nmbr9 bot=easy"),
        ("/rules nmbr 9", "/rules nmbr9"),
        ("/rules Web Feud", "/rules webfeud"),
        ("/leaderboard nmbr 9", "/leaderboard nmbr9"),
        ("/leaderboard 2026 num feud everywhere", "/leaderboard 2026 numfeud everywhere"),
    ],
)
def test_a_game_name_with_a_space_is_asked_about_by_every_command_that_takes_one(
    line: str, meant: str
) -> None:
    """/new, /rules and /leaderboard answer "nmbr 9" alike: the line with the name in one word."""
    with pytest.raises(CommandError) as info:
        parse_command(line)
    assert str(info.value).startswith(f"Game names have no spaces: did you mean {meant}? Usage: ")
    assert len(str(info.value)) <= 200

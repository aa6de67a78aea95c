"""The command language, parsed in one place and documented from one table.

Every adapter that reads text (the console, Telegram) calls `parse_command`; Discord's slash
commands mirror the same table. `docs/commands.md` embeds `commands_markdown()` verbatim (a test
keeps them equal), so the documentation and the parser cannot drift.

Tokens: words separated by spaces; ``@name`` names a player; ``name=value`` is an option;
``game=<id>`` (any command that acts on one game) picks the game when a chat holds several.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from bot.core.errors import GameError
from bot.core.words import clip, quoted, visible_name
from bot.games import GAMES

BOT_LEVEL_NAMES = ("easy", "medium", "hard")
MAX_DIGITS = 18  # a game id or seed typed by a user: below SQLite's 2**63
# The years a leaderboard may be asked for: none before the bot, and a year after the last
# must still be a date (the year's results end where the next year begins).
FIRST_YEAR, LAST_YEAR = 2000, 9998
_GAME_ID = re.compile(r"^game=(\S*)$", re.IGNORECASE)
_OPTION = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=(\S*)$")
# An option written with a colon (bot:hard, time:60s), as some other bots take them; not a URL.
_OPTION_COLON = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*):([^\s/]\S*)$")
# What people write for a bot seat instead of bot=<level>: @bot, @bot-hard, @bot:easy, @bot-hard-3.
_BOT_MENTION = re.compile(r"^bot(?:[-:](?:easy|medium|hard)(?:-\d+)?)?$", re.IGNORECASE)
HISTORY_SHOWN = 15  # moves `/history` lists, the newest
# A move of many steps (a Rummikub rearrangement) is wrapped between its steps to at most
# HISTORY_LINES lines of HISTORY_WIDTH characters: /history stays one Telegram message (4096).
HISTORY_WIDTH, HISTORY_LINES = 100, 2
_EXAMPLE = re.compile(r"e\.g\. `([^`]+)`")  # a command's example in its summary
# Moves people type as commands, and how to make them.
MOVE_WORDS = {
    "quit": "/play quit (SmartFeud, once another player has resigned)",
    "skip": "/place skip (NMBR 9, for a tile that fits nowhere)",
}
# What a command that needs a game can be told: "games: nmbr9, numfeud, …".
_GAME_LIST = "games: " + ", ".join(sorted(GAMES))
# Words players of other bots and apps type for one of our commands.
_SYNONYMS = {
    "score": "board",
    "scores": "board",
    "status": "board",
    "hand": "rack",
    "tiles": "rack",
    "unseen": "bag",
    "remaining": "bag",
    "left": "bag",
    "pool": "bag",
    "deck": "bag",
    "create": "new",
    "newgame": "new",
    "begin": "start",
    "ranking": "leaderboard",
    "top": "leaderboard",
    "forfeit": "resign",
    "surrender": "resign",
    "giveup": "resign",
    "exchange": "swap",
    "log": "history",
    "abort": "cancel",
    "again": "rematch",
    "poke": "nudge",
    "remind": "nudge",
    "replay": "rematch",
}


class CommandError(GameError):
    """The command was unknown or its arguments were wrong; the message shows the syntax.

    `lacking` names a command that was given without the argument it needs (``/swap``), so
    that the service can answer with the notation of the game the player is in (`game_id`,
    when the command named one).
    """

    def __init__(
        self, message: str, lacking: str | None = None, game_id: int | None = None
    ) -> None:
        super().__init__(message)
        self.lacking = lacking
        self.game_id = game_id


@dataclass(frozen=True, slots=True)
class CommandSpec:
    """One command: its name, its syntax, what it does, and how its arguments are read."""

    name: str
    args: str
    summary: str
    takes_game_id: bool = True
    # "none": no arguments; "text": the rest of the line (required); "word?": one optional word;
    # "word": one required word; "player?": one optional @name; "new": the /new grammar;
    # "leaderboard": an optional game, an optional year and an optional `everywhere`.
    shape: str = "none"

    @property
    def syntax(self) -> str:
        """Return the full syntax line, e.g. ``/swap <tiles> [game=<id>]``."""
        parts = [f"/{self.name}"]
        if self.args:
            parts.append(self.args)
        if self.takes_game_id:
            parts.append("[game=<id>]")
        return " ".join(parts)

    @property
    def example(self) -> str | None:
        """Return the example the summary gives (``/swap AEQ?``), or None."""
        found = _EXAMPLE.search(self.summary)
        return found.group(1) if found else None


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "new",
        "<game> [@player …] [bot=easy|medium|hard …] [option=value …]",
        "Create a game in this chat; you take the first seat, invited players and bots the next"
        " ones. It starts by itself once its last seat is taken (or at once in a private chat);"
        " otherwise /start starts it. `seed=<n>` deals a reproducible"
        " game where the bot allows it (always in the console).",
        takes_game_id=False,
        shape="new",
    ),
    CommandSpec("join", "", "Take a free seat in a game that has not started.", shape="none"),
    CommandSpec("start", "", "Deal and start a game once it has enough players.", shape="none"),
    CommandSpec("leave", "", "Give up your seat before the game starts.", shape="none"),
    CommandSpec(
        "rematch",
        "",
        "Play a finished game again: the same players, bots and options, dealt anew; whoever"
        " played second goes first. Without game=<id>: your last finished game here.",
        shape="none",
    ),
    CommandSpec(
        "cancel",
        "",
        "Cancel a game: its host or a chat admin can. Once it has started with other players,"
        " only an admin can; give up with /resign instead. The host is its creator, or once"
        " they leave the lobby, the first player left.",
        shape="none",
    ),
    CommandSpec(
        "play",
        "<move>",
        "Play a move in the game's notation, e.g. `/play 8H QUIZ` (see `/rules <game>`).",
        shape="text",
    ),
    CommandSpec(
        "try",
        "<move>",
        "Check a move privately without playing it: is it legal, and what would it score"
        " (Webfeud, SmartFeud; Numfeud, which scores at the end: is it legal), e.g."
        " `/try 8H QUIZ`.",
        shape="text",
    ),
    CommandSpec(
        "pass",
        "",
        "Give up your turn (in Numfeud you draw a tile; in Rummikub too, the same as `/draw`).",
        shape="none",
    ),
    CommandSpec(
        "swap",
        "<tiles>",
        "Return these tiles to the bag and draw as many (Numfeud: one more), e.g."
        " `/swap AEQ?` (? = blank).",
        shape="text",
    ),
    # Rummikub: a turn is built in steps on a draft (each /play without `done` is a step).
    CommandSpec(
        "done",
        "",
        "Rummikub: end your turn with the drafted table, or be told which meld is invalid and why.",
        shape="none",
    ),
    CommandSpec("undo", "", "Rummikub: take back the last step of your draft.", shape="none"),
    CommandSpec(
        "reset", "", "Rummikub: take back your whole draft; the tiles go back.", shape="none"
    ),
    CommandSpec(
        "draw",
        "",
        "Rummikub: play nothing this turn (any draft is taken back) and draw a tile from the pool.",
        shape="none",
    ),
    CommandSpec(
        "hint",
        "",
        "Suggest a move, privately, in a casual game (Rummikub with `assist=on`).",
        shape="none",
    ),
    # NMBR 9: every seat places the round's tile privately; the round ends when all have placed.
    CommandSpec(
        "place",
        "<cell> <rotation>",
        "NMBR 9: place this round's tile, e.g. `/place C4 90`: C4 is the top-left square of the"
        " box around the tile turned 90 degrees clockwise (0, 90, 180 or 270).",
        shape="text",
    ),
    CommandSpec(
        "moves",
        "",
        "NMBR 9: list some legal placements of this round's tile, privately, highest first.",
        shape="none",
    ),
    CommandSpec(
        "nudge",
        "",
        "Remind whoever the game waits for that it is their turn (once a turn).",
        shape="none",
    ),
    CommandSpec(
        "resign",
        "",
        "Give up the game; you lose. In NMBR 9, SmartFeud and Rummikub, two or more others left"
        " play on (in Rummikub's last round the game ends instead).",
        shape="none",
    ),
    CommandSpec(
        "board",
        "",
        "Show the board, the scores, whose turn it is and the time they have left.",
        shape="none",
    ),
    CommandSpec(
        "history",
        "",
        f"List a game's moves so far (the last {HISTORY_SHOWN}) with their points, also of a"
        " finished game.",
        shape="none",
    ),
    CommandSpec("rack", "", "Show your tiles, privately.", shape="none"),
    CommandSpec(
        "bag",
        "",
        "Show, privately, the tiles you have not seen: in the bag (Rummikub: the pool) and on"
        " the other racks; in NMBR 9 the cards still to come.",
        shape="none",
    ),
    CommandSpec(
        "games",
        "",
        "List this chat's open games and, privately, the games you sit in.",
        takes_game_id=False,
    ),
    CommandSpec(
        "leaderboard",
        "[game] [year] [everywhere]",
        "Show this chat's leaderboard of finished games: games, wins and points. Add a game for"
        " that game only, `2026` for one UTC calendar year, `everywhere` for every chat on this"
        " platform. `/leaderboard numfeud` is the Numfeud World Ranking of this year, by points.",
        takes_game_id=False,
        shape="leaderboard",
    ),
    CommandSpec(
        "stats",
        "[@player]",
        "Show a player's record per game (yours by default); someone else's also says how the"
        " two of you did against each other.",
        takes_game_id=False,
        shape="player?",
    ),
    CommandSpec(
        "rules",
        "<game>",
        "Summarise a game: players, deadline, options, move notation and its helpers.",
        takes_game_id=False,
        shape="word",
    ),
    CommandSpec(
        "help",
        "[command]",
        "Show how to start and play; `/help all` lists every command, `/help play` explains one.",
        takes_game_id=False,
        shape="word?",
    ),
)

SPECS: dict[str, CommandSpec] = {spec.name: spec for spec in COMMANDS}


@dataclass(frozen=True, slots=True)
class Command:
    """A parsed command: its name and its arguments, already split by kind."""

    name: str
    game_id: int | None = None
    text: str = ""  # /play's move, /swap's tiles, /rules's or /leaderboard's game, /help's topic
    game_key: str = ""  # /new
    players: tuple[str, ...] = ()  # @names, without the @
    player_ids: tuple[str, ...] = ()  # people the platform names by id (Discord's member picker)
    bots: tuple[str, ...] = ()  # bot levels, one per bot seat
    options: dict[str, str] = field(default_factory=dict)  # name=value, names lower-case

    @property
    def spec(self) -> CommandSpec:
        """Return the table entry of this command."""
        return SPECS[self.name]


# Names newcomers try for our games: "/new scrabble" is answered "Did you mean webfeud?".
_GAME_SYNONYMS = {
    "scrabble": "webfeud",
    "wordfeud": "webfeud",
    "words": "webfeud",
    "word": "webfeud",
    "rummy": "rummikub",
    "rummikube": "rummikub",
    "nmbr": "nmbr9",
    "number9": "nmbr9",
    "numbers": "numfeud",
}


def no_such_game(key: str) -> str:
    """Return the answer to a game name that is none of ours: a guess, and what each game is."""
    name = key.lower()
    guess = _GAME_SYNONYMS.get(name) or next(
        iter(difflib.get_close_matches(name, GAMES, n=1, cutoff=0.6)), None
    )
    said = f"There is no game {clip(key)!r}."
    if guess:
        said += f" Did you mean {guess} ({GAMES[guess].tagline})?"
    return f"{said} {_GAME_LIST.capitalize()}; /rules <game> explains one."


def whole_number(text: str) -> int | None:
    """Return the number `text` spells in ASCII digits, at most `MAX_DIGITS` of them, or None.

    Neither a sign nor other scripts' digits ("²", "٣") count, and every number accepted fits
    SQLite's 64-bit INTEGER, so a game id or seed typed by a user can always be looked up.
    """
    if text.isascii() and text.isdigit() and len(text) <= MAX_DIGITS:
        return int(text)
    return None


def usage(name: str) -> str:
    """Return the syntax of one command for an error message."""
    return f"Usage: {SPECS[name].syntax}"


def _fail(
    spec: CommandSpec, problem: str, *, lacking: bool = False, game_id: int | None = None
) -> CommandError:
    shown = f", e.g. {spec.example}" if spec.example else ""
    if spec.name in ("play", "swap"):
        shown += " (each game's notation: /rules <game>)"
    return CommandError(
        f"{problem} Usage: {spec.syntax}{shown}", spec.name if lacking else None, game_id
    )


def parse_command(line: str) -> Command:
    """Parse one line such as ``/play 8H QUIZ game=3``; raise `CommandError` with the syntax.

    A Telegram-style suffix (``/play@feudbot``) is ignored. Command names are case-insensitive.
    """
    tokens = line.split()
    if len(tokens) > 1 and tokens[0] == "/":  # "/ board": a phone keyboard's space after the slash
        tokens = ["/" + tokens[1], *tokens[2:]]
    if not tokens or not tokens[0].startswith("/"):
        raise CommandError("Commands start with a slash, e.g. /help or /new webfeud @bob.")
    if len(tokens[0]) < 2:
        raise CommandError("Write a command after the slash, e.g. /help or /new webfeud @bob.")
    name = tokens[0][1:].split("@", 1)[0].lower()
    spec = SPECS.get(name)
    if spec is None:
        raise _no_command(name)
    args = tokens[1:]
    game_id: int | None = None
    rest: list[str] = []
    for token in args:
        match = _GAME_ID.match(token)
        if match and spec.takes_game_id:
            if game_id is not None:
                raise _fail(spec, "Give game=<id> once.")
            game_id = whole_number(match.group(1))
            if game_id is None:
                shown = clip(match.group(1))
                raise _fail(spec, f"game={shown} is not a game number; /games lists them.")
        elif match and spec.name not in ("new", "games"):  # /new and /games say their own word
            kind = "a game's name, not" if "game" in spec.args else "no"  # /rules <game>
            raise _fail(spec, f"/{spec.name} takes {kind} game=<id>.")
        else:
            rest.append(token)
    return _by_shape(spec, rest, game_id)


def _by_shape(spec: CommandSpec, rest: list[str], game_id: int | None) -> Command:
    if spec.shape == "none":
        if rest:
            number = rest[0].lstrip("#")
            if spec.takes_game_id and len(rest) == 1 and number.isdecimal() and number.isascii():
                # "/join 1", "/join #1": the game, written the notation's way
                shown = clip(number)
                raise _fail(spec, f"Name the game as game={shown}: /{spec.name} game={shown}.")
            raise _fail(spec, f"/{spec.name} takes no arguments.")
        return Command(spec.name, game_id)
    if spec.shape == "text":
        if not rest:
            raise _fail(spec, f"/{spec.name} needs {spec.args}.", lacking=True, game_id=game_id)
        return Command(spec.name, game_id, text=" ".join(rest))
    if spec.shape in ("word", "word?"):
        if len(rest) > 1 or (spec.shape == "word" and not rest):
            if spec.args == "<game>":  # "/rules nmbr 9": one word is all it takes
                _spaced_game(spec, rest[:2])
            listed = f" ({_GAME_LIST})" if spec.args == "<game>" else ""
            raise _fail(spec, f"/{spec.name} takes {spec.args}{listed}.")
        return Command(spec.name, game_id, text=rest[0].lstrip("/").lower() if rest else "")
    if spec.shape == "leaderboard":
        words = [token.lower() for token in rest]
        everywhere = "everywhere" in words
        years = [word for word in words if len(word) == 4 and whole_number(word) is not None]
        games = [word for word in words if word != "everywhere" and word not in years]
        if len(games) > 1 or len(years) > 1 or words.count("everywhere") > 1:
            for at in range(len(rest) - 1):  # "/leaderboard nmbr 9 2026"
                _spaced_game(spec, rest, at)
            raise _fail(spec, f"/{spec.name} takes {spec.args}.")
        options = {"scope": "everywhere"} if everywhere else {}
        if years:
            if not FIRST_YEAR <= int(years[0]) <= LAST_YEAR:  # 0000 or 9999 broke the query
                said = (
                    f"There are no results of the year {years[0]}: name one from {FIRST_YEAR} on."
                )
                raise _fail(spec, said)
            options["year"] = years[0]
        return Command(spec.name, game_id, text=games[0] if games else "", options=options)
    if spec.shape == "player?":
        if rest == ["@"]:
            raise _fail(spec, f"Write the player's name after the @, e.g. /{spec.name} @bob.")
        if len(rest) == 1 and not _is_player(rest[0]):
            raise _fail(spec, f"Name the player with @: /{spec.name} @{clip(rest[0])}.")
        if len(rest) > 1:
            raise _fail(spec, f"/{spec.name} takes {spec.args}.")
        if rest and is_bot_name(rest[0][1:]):
            raise _fail(spec, f"{rest[0]} is a computer player, which keeps no record.")
        return Command(spec.name, game_id, players=tuple(_player_name(spec, t) for t in rest))
    return _parse_new(spec, rest)


def is_bot_name(name: str) -> bool:
    """Return True for a name the bots go by (``bot``, ``bot-hard``, ``bot-easy-2``)."""
    return _BOT_MENTION.match(name) is not None


def _is_player(token: str) -> bool:
    return token.startswith("@") and len(token) > 1


def _player_name(spec: CommandSpec, token: str) -> str:
    """Return the name an ``@name`` gives: a comma after it is forgiven ("@bob, @carol")."""
    name = visible_name(token[1:]).rstrip(",;.!?:")
    if not name or "@" in name:
        raise _fail(spec, f"{clip(token)} is not a name: write @ and the name, e.g. @bob.")
    return name


def option_slip(token: str) -> str:
    """Return how an unknown /new word ends: ": did you mean bot=hard?" for bot:hard, or "."."""
    if is_bot_name(token):  # "bot-hard", "bot:easy-2": the level is the word after "bot"
        level = re.split(r"[-:]", token)
        return f": did you mean bot={level[1].lower()}?" if len(level) > 1 else ": add bot=easy."
    match = _OPTION_COLON.match(token)
    if match is None:
        return "."
    key, value = match.group(1).lower(), match.group(2)
    if key == "bot" and value.lower() not in BOT_LEVEL_NAMES:  # bot:expert
        return ": add a bot with bot=" + "|".join(BOT_LEVEL_NAMES) + "."
    return f": did you mean {key}={value}?"


def _spaced_game(spec: CommandSpec, words: list[str], at: int = 0) -> None:
    """Refuse a game name typed as two words, ``words[at]`` and the next ("nmbr 9").

    Every command that takes a game name asks the same: "Game names have no spaces: did you
    mean /rules nmbr9?", the rest of the line as it was typed.
    """
    if at + 1 >= len(words) or (joined := (words[at] + words[at + 1]).lower()) not in GAMES:
        return
    meant = " ".join([*words[:at], joined, *words[at + 2 :]])
    raise _fail(spec, f"Game names have no spaces: did you mean /{spec.name} {clip(meant, 40)}?")


def _parse_new(spec: CommandSpec, rest: list[str]) -> Command:
    if not rest or "=" in rest[0] or rest[0].startswith("@"):
        raise _fail(spec, f"Name the game first, e.g. /new webfeud @bob ({_GAME_LIST}).")
    _spaced_game(spec, rest)  # "/new nmbr 9"
    game_key = rest[0].lower()
    players: list[str] = []
    bots: list[str] = []
    options: dict[str, str] = {}
    for token in rest[1:]:
        if _is_player(token):
            name = _player_name(spec, token)
            if is_bot_name(name):
                raise _fail(spec, f"{token} names no person: add a bot with bot=<level>.")
            players.append(name)
            continue
        match = _OPTION.match(token)
        if match is None:
            level = token.lower()
            if level == "bot" or level in BOT_LEVEL_NAMES:  # "/new webfeud bot", "… easy"
                hint = level if level in BOT_LEVEL_NAMES else "easy"
                raise _fail(
                    spec, f"I did not understand {quoted(token)}: to play me, add bot={hint}."
                )
            raise _fail(spec, f"I did not understand {quoted(token)}{option_slip(token)}")
        key, value = match.group(1).lower(), match.group(2)
        if key == "bot":
            if value.lower() not in BOT_LEVEL_NAMES:
                raise _fail(
                    spec, f"bot={value} is not a level; use bot=" + "|".join(BOT_LEVEL_NAMES) + "."
                )
            bots.append(value.lower())
        elif key == "game":
            raise _fail(spec, "/new makes a new game; game=<id> is for the other commands.")
        elif key in options:
            raise _fail(spec, f"{key}= is given twice.")
        else:
            options[key] = value
    return Command(
        spec.name, game_key=game_key, players=tuple(players), bots=tuple(bots), options=options
    )


# /help lists the commands under these headings, each starting at the named command.
HELP_SECTIONS = {
    "new": "Games",
    "play": "Playing",
    "board": "Looking",
    "leaderboard": "Records and help",
}


def _no_command(name: str) -> CommandError:
    """Refuse an unknown command name, with the closest commands, a synonym's or a move's."""
    close = difflib.get_close_matches(name, SPECS, n=2, cutoff=0.6)
    guess = f" Did you mean {' or '.join(f'/{c}' for c in close)}?" if close else ""
    if name in _SYNONYMS:
        guess = f" Did you mean /{_SYNONYMS[name]}? {_gist(SPECS[_SYNONYMS[name]].summary)}."
    if name in MOVE_WORDS:
        guess = f" It is a move: {MOVE_WORDS[name]}."
    if name in GAMES:  # "/help nmbr9", "/nmbr9": the game's rules, and how to start one
        title = GAMES[name].title
        return CommandError(
            f"{title} is a game, not a command: /rules {name} explains it, /new {name} starts"
            " one. /help all lists the commands."
        )
    return CommandError(f"There is no command /{clip(name)}.{guess} /help all lists them all.")


# /help without a topic: what a newcomer needs first, short enough for a phone screen.
QUICK_START = (
    "I run these games here:\n{games}\n"
    "Start one: /new webfeud bot=easy to play me; in a group, /new webfeud @friend, or"
    " /new smartfeud and others /join.\n"
    "Play: /play <move> (how moves are written: /rules <game>), /rack shows your tiles, /pass, "
    "/resign.\n"
    "Look: /board, /games, /leaderboard, /stats.\n"
    "Every command: /help all; one of them, e.g. /help play."
)


def games_list() -> str:
    """Return the games, one line each: "webfeud — a crossword word game like Wordfeud"."""
    return "\n".join(f"{key} — {gdef.tagline}" for key, gdef in GAMES.items())


def help_text(name: str = "") -> str:
    """Return the quick start, the list of commands under their headings (``all``), or one.

    The quick start names the games and the few commands a first game needs; ``/help all``
    lists every command, `/help <command>` gives one command's syntax and summary.
    """
    if not name:
        return QUICK_START.format(games=games_list())
    if name.lower() != "all":
        spec = SPECS.get(name.lstrip("/").lower())
        if spec is None:
            raise _no_command(name.lstrip("/").lower())
        return f"{spec.syntax}\n{_plain(spec.summary)}"
    lines = ["Commands (add game=<id> when this chat has several games):"]
    for spec in COMMANDS:
        if spec.name in HELP_SECTIONS:
            lines.append(f"\n{HELP_SECTIONS[spec.name]}")
        lines.append(f"{spec.syntax} — {_plain(spec.summary)}")
    return "\n".join(lines)


def _gist(summary: str) -> str:
    """Return a summary's first clause, plain: what a suggestion needs to say."""
    text = _plain(summary)
    for end in (", e.g.", " e.g.", ". ", "; "):
        text = text.split(end, 1)[0]
    return text.rstrip(".")


def _plain(text: str) -> str:
    return text.replace("`", "")


def commands_markdown() -> str:
    """Return the command reference as Markdown (embedded verbatim in docs/commands.md)."""
    lines = ["| command | what it does |", "|---|---|"]
    for spec in COMMANDS:
        syntax = spec.syntax.replace("|", "\\|")
        lines.append(f"| `{syntax}` | {spec.summary} |")
    return "\n".join(lines) + "\n"

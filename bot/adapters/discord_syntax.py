"""The service's command syntax, written the way Discord's slash commands take it.

The service answers every front end with the text syntax of docs/commands.md
(``/play <move> [game=<id>]``, ``add game=<id>, e.g. game=3``). On Discord a command's values go
into its options, shown as ``name:value``, so the Discord adapter rewrites, in every text it
sends, the parts a user copies to type a command: each command's syntax line and its short form
(``/place <cell> <rotation>``; built from the slash commands themselves, so they cannot drift),
``game=<id>`` (and /new's ``seed=<n>``) and a game number given for a command or as an
example (``/board game=3``, ``e.g. game=3``), ``/new`` examples (``/new webfeud bot=easy``
→ ``/new game:Webfeud bot:easy``), and a game or topic given to ``/rules``, ``/leaderboard``
or ``/help`` (``/rules webfeud`` → ``/rules game:Webfeud``). Only those exact forms change:
a player's name or a user's words echoed back ("There is no game 'x game=1'") are left alone
unless they spell one of them, and a command mentioned with its text (``/play 8H QUIZ``) reads
the same on Discord, where the text goes into the command's one field.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from discord import AppCommandOptionType, app_commands

from bot.commands import SPECS, CommandSpec
from bot.games import GAMES

# Where `game:` is a game's name rather than a game's number.
_GAME_NAMED = frozenset({"new", "rules", "leaderboard"})
# Options that repeat one before them ("player2", "player3" after "player").
_REPEATED = re.compile(r"^(\w+?)\d+$")
# `game=<id>`, and a game's number given for a command or as an example ("/board game=3",
# "e.g. game=3"): never a bare "game=3", which may be a name or a user's words echoed back.
_GAME_PLACEHOLDER = re.compile(r"(?<![\w=])game=<id>")
# /new's `seed=<n>` (its help): a slash option of its own on Discord.
_SEED_PLACEHOLDER = re.compile(r"(?<![\w=])seed=<n>")
_GAME_NUMBER = re.compile(
    r"(e\.g\. |/(?:" + "|".join(sorted(SPECS, key=len, reverse=True)) + r") )game=(\d+)\b"
)
# A /new example: the game's key, then bots, invitations and options ("/new webfeud bot=easy
# @bob", "/new rummikub @player assist=on").
_NEW = re.compile(
    r"/new (" + "|".join(sorted(GAMES, key=len, reverse=True)) + r")((?: (?:\w+=[\w|]+|@\w+))*)"
    r"(?![\w=])"
)

# The short forms of /new that advice uses ("Start one with /new <game> @player.").
_NEW_FORMS = {
    "/new <game> @player": "/new game:<game> player:@member",
    "/new <game>": "/new game:<game>",
}
# A line of the games list ("nmbr9 — stack …", `commands.games_list`): Discord names a game as
# its game: choices do ("NMBR 9"), since nobody types its key there.
_GAME_LINE = re.compile(
    r"^(" + "|".join(sorted(GAMES, key=len, reverse=True)) + r") — ", re.MULTILINE
)
# "/rules webfeud", "/leaderboard numfeud", "/help all", "/help play": a game or a topic given.
_RULES = re.compile(
    r"/(rules|leaderboard) (" + "|".join(sorted(GAMES, key=len, reverse=True)) + r")(?![\w=])"
)
_HELP = re.compile(r"/help (all|" + "|".join(sorted(SPECS, key=len, reverse=True)) + r")(?![\w=])")

# Option names for arguments of several words (``<cell> <rotation>`` is one placement).
OPTION_NAMES = {"<cell> <rotation>": "placement"}


def option_name(args: str) -> str:
    """Return the option name a text argument gets (``<cell> <rotation>`` → ``placement``)."""
    if args in OPTION_NAMES:
        return OPTION_NAMES[args]
    word = re.sub(r"[^a-z0-9_]+", "_", args.lower()).strip("_")
    return word[:32] or "text"


def _placeholder(spec: CommandSpec, command: str, option: app_commands.Parameter) -> str:
    """Return what an option's value looks like: ``<move>``, ``<id>``, ``easy|medium|hard``."""
    name = option.display_name
    if name == "game":
        return "<game>" if command in _GAME_NAMED else "<id>"
    if option.choices and len(option.choices) <= 3:
        return "|".join(str(choice.value) for choice in option.choices)
    if option.type is AppCommandOptionType.boolean:
        return "True|False"
    if option.type is AppCommandOptionType.user:
        return "@member"
    if spec.args and name == option_name(spec.args):
        shown = spec.args.strip("[]")
        return shown if shown[:1] in "<@" else f"<{shown}>"
    return f"<{name}>"


def slash_syntax(
    spec: CommandSpec, command: app_commands.Command[Any, Any, Any], *, with_game: bool = True
) -> str:
    """Return a command's syntax with its slash options, e.g. ``/play move:<move> [game:<id>]``.

    Without `with_game`, the optional game number is left out (``/play move:<move>``), as
    the short form ``/play <move>`` leaves it out.
    """
    parts = [f"/{command.name}"]
    names = [p.display_name for p in command.parameters]
    again = {m.group(1) for name in names if (m := _REPEATED.match(name)) and m.group(1) in names}
    for option in command.parameters:
        name = option.display_name
        repeat = _REPEATED.match(name)
        if repeat and repeat.group(1) in again:
            continue  # player2, player3: shown as "player:@member …"
        if name == "game" and not with_game and not option.required:
            continue
        value = f"{name}:{_placeholder(spec, command.name, option)}"
        if name in again:
            value += " …"
        parts.append(value if option.required else f"[{value}]")
    return " ".join(parts)


def _new_form(match: re.Match[str]) -> str:
    """Rewrite one /new example: ``/new webfeud bot=easy @bob`` → its slash form.

    Bots and invitations have their own options; a game's options go together into
    ``options:`` (``/new game:Rummikub player:@bob options:assist=on``).
    """
    parts = [f"/new game:{GAMES[match.group(1)].title}"]
    invited, options = 0, []
    for token in match.group(2).split():
        if token.startswith("@"):
            invited += 1
            parts.append(f"player{invited if invited > 1 else ''}:{token}")
        elif token.startswith(("bot=", "bots=", "seed=")):
            parts.append(token.replace("=", ":", 1))
        else:
            options.append(token)
    if options:
        parts.append("options:" + " ".join(options))
    return " ".join(parts)


def translator(commands: Iterable[app_commands.Command[Any, Any, Any]]) -> Callable[[str], str]:
    """Return the function that writes a text's commands as these slash commands take them."""
    forms: dict[str, str] = {}
    for command in commands:
        spec = SPECS.get(command.name)
        if spec is None:
            continue
        forms[spec.syntax] = slash_syntax(spec, command)
        if spec.args and spec.takes_game_id:  # the short form: "/place <cell> <rotation>"
            forms[f"/{spec.name} {spec.args}"] = slash_syntax(spec, command, with_game=False)
    forms.update(_NEW_FORMS)
    forms = {typed: slash for typed, slash in forms.items() if typed != slash}
    known = re.compile(
        "|".join(re.escape(typed) for typed in sorted(forms, key=len, reverse=True)) + r"(?!\w)"
    )

    def to_slash(text: str) -> str:
        text = known.sub(lambda m: forms[m.group(0)], text)
        text = _NEW.sub(_new_form, text)
        text = _RULES.sub(lambda m: f"/{m.group(1)} game:{GAMES[m.group(2)].title}", text)
        text = _HELP.sub(r"/help command:\1", text)
        text = _GAME_LINE.sub(lambda m: f"{GAMES[m.group(1)].title} — ", text)
        text = _GAME_PLACEHOLDER.sub("game:<id>", text)
        text = _SEED_PLACEHOLDER.sub("seed:<n>", text)
        return _GAME_NUMBER.sub(r"\1game:\2", text)

    return to_slash

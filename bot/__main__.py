"""The `feudbot` command line: run | console | simulate | discord | telegram | bench | migrate.

What a user can mend — a setting, a database file that cannot be used, a bad argument — ends the
command with one line on stderr and exit status 2, never a traceback. Ctrl-C ends the console,
`simulate` and `bench` quietly with status 130 (the bots, `discord`, `telegram` and `run` with a
token, stop cleanly on it with 0); a reader that stops early (`feudbot simulate | head -1`)
with 141.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.config import Settings

Command = Callable[[argparse.Namespace], int]

INTERRUPTED = 130  # 128 + SIGINT, what a shell reports for a program stopped by Ctrl-C
BROKEN_PIPE = 141  # 128 + SIGPIPE, what a shell reports for a writer whose reader went away


class UsageError(Exception):
    """An argument the command cannot use; `str(error)` says which, why and what would do."""


def _simulate(args: argparse.Namespace) -> int:
    from bot.simulate import run_simulation

    return run_simulation(
        game=args.game,
        games=args.games,
        seed=args.seed,
        players=args.players.split(","),
        out=sys.stdout,
        err=sys.stderr,
    )


WELCOME = "no chat tokens configured — starting a local game; type /help"


def _check_player(name: str | None) -> None:
    """Refuse `--as bot-easy`: it would seat a person under a bot's name, as `/new @bot` would.

    Also a name no line could address afterwards (`--as @bob`, `--as "a b"`, `--as ""`).
    """
    from bot.adapters.console import name_problem
    from bot.commands import is_bot_name

    if name is None:
        return
    if is_bot_name(name.removeprefix("@")):
        raise UsageError(
            f"--as {name}: {name} is what a computer player is called; a person needs another "
            "name, e.g. --as alice"
        )
    problem = name_problem(name)
    if problem is not None:
        raise UsageError(f"--as {name!r}: {problem}")


def _read_script(name: str) -> list[str]:
    """Return the lines of a `--script` file, or say in one line why it cannot be read."""
    why = f"cannot read script {name!r}"
    try:
        return Path(name).read_text(encoding="utf-8").splitlines()
    except IsADirectoryError:
        raise UsageError(f"{why}: it is a directory") from None
    except FileNotFoundError:
        raise UsageError(f"{why}: there is no such file") from None
    except UnicodeDecodeError as error:
        byte = error.object[error.start]
        raise UsageError(
            f"{why}: it is not UTF-8 text (byte {byte:#04x} at offset {error.start}); "
            "save it as UTF-8"
        ) from None
    except OSError as error:
        raise UsageError(f"{why}: {error.strerror or error}") from None


def _check_database(path: str) -> None:
    """Open and close the database once, so a file that cannot be used stops us before a bot."""
    from storage import Database

    async def check() -> None:
        await (await Database.open(path)).close()

    asyncio.run(check())


def _console(args: argparse.Namespace) -> int:
    from bot.adapters.console import run_console
    from bot.config import load_settings

    settings = load_settings()
    _check_player(args.as_name)
    script = _read_script(args.script) if args.script is not None else None
    return asyncio.run(
        run_console(
            args.db or settings.db_path,
            name=args.as_name,
            script=script,
            json_mode=args.json,
            image_dir=Path(args.out) if args.out else None,
            reminders=settings.reminders,
            render=not args.no_images,
        )
    )


def _settings(args: argparse.Namespace) -> Settings:
    from bot.config import load_settings

    settings = load_settings()
    return replace(settings, db_path=args.db) if args.db else settings


def _discord(args: argparse.Namespace) -> int:
    from bot.adapters.common import noting_stops

    settings = _settings(args)
    with noting_stops():  # a Ctrl-C from here on stops the bot once it has started up
        if settings.discord_token:  # without one, main_discord says so and creates no file
            _check_database(settings.db_path)
        from bot.adapters.discord_bot import main_discord

        return main_discord(args.db)


def _telegram(args: argparse.Namespace) -> int:
    from bot.adapters.common import noting_stops

    settings = _settings(args)
    if not settings.telegram_token:
        print("TELEGRAM_TOKEN is not set (see .env.example).", file=sys.stderr)
        return 2
    with noting_stops():  # a Ctrl-C from here on stops the bot once it has started up
        _check_database(settings.db_path)
        from bot.adapters.telegram_bot import run_telegram

        return run_telegram(settings)


def _run(args: argparse.Namespace) -> int:
    settings = _settings(args)
    if settings.discord_token and settings.telegram_token:
        from bot.adapters.common import noting_stops

        with noting_stops():  # a Ctrl-C from here on stops the bots once they have started up
            _check_database(settings.db_path)
            from bot.adapters.platforms import run_platforms

            return run_platforms(settings)
    if settings.discord_token:
        return _discord(args)
    if settings.telegram_token:
        return _telegram(args)
    _check_player(args.as_name)
    from bot.adapters.console import run_console

    return asyncio.run(
        run_console(
            settings.db_path,
            name=args.as_name,
            welcome=WELCOME,
            image_dir=Path(args.out) if args.out else None,
            reminders=settings.reminders,
            render=not args.no_images,
        )
    )


def _bench(args: argparse.Namespace) -> int:
    from bot.benchmark import SCRIPTS, run_bench

    only = [name.strip() for name in (args.only or "").split(",") if name.strip()]
    if args.only is not None and not only:
        names = ",".join(name for name, _, _ in SCRIPTS)
        raise UsageError(f"--only {args.only!r} names no benchmark; name some of {names}")
    return run_bench(only, sys.stdout, sys.stderr)


def _migrate(args: argparse.Namespace) -> int:
    from bot.config import load_settings

    path = args.db or load_settings().db_path

    async def apply() -> tuple[int, int]:
        from storage import Database
        from storage.migrate import user_version

        db = await Database.open(path)
        try:
            async with db.read() as conn:
                return db.found_version, await user_version(conn)
        finally:
            await db.close()

    found, version = asyncio.run(apply())
    if not found:
        print(f"{path}: created at schema version {version}")
    elif found < version:
        print(f"{path}: upgraded from schema version {found} to {version}")
    else:
        print(f"{path}: schema version {version}, up to date")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of the `feudbot` command."""
    parser = argparse.ArgumentParser(prog="feudbot", description=(__doc__ or "").split("\n")[0])
    sub = parser.add_subparsers(dest="command")

    sim = sub.add_parser("simulate", help="play complete games with the pure core, print JSON")
    sim.add_argument("--game", default="webfeud", help="game key, e.g. webfeud")
    sim.add_argument("--games", type=int, default=1, help="how many games to play")
    sim.add_argument("--seed", type=int, default=0, help="seed of the first game")
    sim.add_argument("--players", default="hard,easy", help="bot levels per seat, e.g. hard,easy")
    sim.set_defaults(func=_simulate)

    run = sub.add_parser(
        "run", help="start the chat bots whose tokens are set (.env), else the console"
    )
    run.add_argument("--db", help="SQLite file (default: $FEUDBOT_DB or feudbot.sqlite3)")
    run.add_argument("--as", dest="as_name", help="console player name (default: OS user)")
    run.add_argument("--out", help="console: folder for image files (default: feudbot-images)")
    run.add_argument("--no-images", action="store_true", help="console: do not render images")
    run.set_defaults(func=_run)

    con = sub.add_parser("console", help="play in the terminal (hot-seat, or a script)")
    con.add_argument("--db", help="SQLite file (default: $FEUDBOT_DB or feudbot.sqlite3)")
    con.add_argument("--as", dest="as_name", help="your player name (default: OS user)")
    con.add_argument("--script", help="run the lines `name: /command args` of this file")
    con.add_argument("--json", action="store_true", help="print one JSON object per reply")
    con.add_argument("--out", help="folder for image files (default: feudbot-images)")
    con.add_argument("--no-images", action="store_true", help="do not render images")
    con.set_defaults(func=_console)

    dis = sub.add_parser("discord", help="run the Discord bot (needs DISCORD_TOKEN)")
    dis.add_argument("--db", help="SQLite file (default: $FEUDBOT_DB or feudbot.sqlite3)")
    dis.set_defaults(func=_discord)

    tel = sub.add_parser("telegram", help="run the Telegram bot (needs TELEGRAM_TOKEN)")
    tel.add_argument("--db", help="SQLite file (default: $FEUDBOT_DB or feudbot.sqlite3)")
    tel.set_defaults(func=_telegram)

    ben = sub.add_parser("bench", help="run every benchmark; print the figures (table + JSON)")
    ben.add_argument("--only", help="comma-separated subset, e.g. lexicon,movegen,render")
    ben.set_defaults(func=_bench)

    mig = sub.add_parser("migrate", help="create or upgrade the database schema")
    mig.add_argument("--db", help="SQLite file (default: $FEUDBOT_DB or feudbot.sqlite3)")
    mig.set_defaults(func=_migrate)
    for command_parser in sub.choices.values():
        command_parser.set_defaults(command_parser=command_parser)
    return parser


def _error_line(error: Exception) -> str | None:
    """Return the one line that tells a user what to mend (None: a bug, to show in full)."""
    from bot.config import ConfigError
    from storage.database import CannotOpenDatabase

    if isinstance(error, ConfigError):
        return f"{error} (see .env.example)."
    if isinstance(error, CannotOpenDatabase):
        return f"{error} (set --db or FEUDBOT_DB)"
    if isinstance(error, UsageError):
        return str(error)
    return None


def _silence_stdout() -> None:
    """Point stdout at the null device: the exit's flush must not fail on the broken pipe again."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def main(argv: Sequence[str] | None = None) -> int:
    """Run the `feudbot` command line and return its exit status."""
    for stream in (sys.stdout, sys.stderr):  # a Latin-1 terminal shows "?" for "—", no crash
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="replace")
    parser = build_parser()
    # Subparsers hand arguments they do not know up to the top-level parser, whose usage line
    # would not show the subcommand's options: the subcommand's own parser reports them.
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        owner: argparse.ArgumentParser = getattr(args, "command_parser", parser)
        owner.error(f"unrecognized arguments: {' '.join(unknown)}")
    func: Command | None = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        return func(args)
    except KeyboardInterrupt:  # Ctrl-C: stop at once, quietly
        return INTERRUPTED
    except BrokenPipeError:  # the reader went away (`| head -1`): nothing left to say
        _silence_stdout()
        return BROKEN_PIPE
    except Exception as error:
        line = _error_line(error)
        if line is None:
            raise
        print(f"feudbot: {line}", file=sys.stderr)  # one line, no traceback: what to mend
        return 2


if __name__ == "__main__":
    sys.exit(main())

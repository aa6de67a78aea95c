"""The `feudbot` command line: run | console | simulate | discord | telegram | bench | migrate."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.config import Settings

Command = Callable[[argparse.Namespace], int]


def _simulate(args: argparse.Namespace) -> int:
    from bot.simulate import run_simulation

    return run_simulation(
        game=args.game,
        games=args.games,
        seed=args.seed,
        players=args.players.split(","),
        out=sys.stdout,
    )


WELCOME = "no chat tokens configured — starting a local game; type /help"


def _console(args: argparse.Namespace) -> int:
    from bot.adapters.console import run_console
    from bot.config import load_settings

    settings = load_settings()
    script: list[str] | None = None
    if args.script is not None:
        script = Path(args.script).read_text(encoding="utf-8").splitlines()
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
    from bot.adapters.discord_bot import main_discord

    return main_discord(args.db)


def _telegram(args: argparse.Namespace) -> int:
    settings = _settings(args)
    if not settings.telegram_token:
        print("TELEGRAM_TOKEN is not set (see .env.example).", file=sys.stderr)
        return 2
    from bot.adapters.telegram_bot import run_telegram

    return run_telegram(settings)


def _run(args: argparse.Namespace) -> int:
    settings = _settings(args)
    if settings.discord_token and settings.telegram_token:
        from bot.adapters.platforms import run_platforms

        return run_platforms(settings)
    if settings.discord_token:
        return _discord(args)
    if settings.telegram_token:
        return _telegram(args)
    from bot.adapters.console import run_console

    return asyncio.run(
        run_console(
            settings.db_path,
            name=args.as_name,
            welcome=WELCOME,
            reminders=settings.reminders,
        )
    )


def _bench(args: argparse.Namespace) -> int:
    from bot.benchmark import run_bench

    only = [name for name in (args.only or "").split(",") if name]
    return run_bench(only, sys.stdout, sys.stderr)


def _migrate(args: argparse.Namespace) -> int:
    from bot.config import load_settings

    path = args.db or load_settings().db_path

    async def apply() -> int:
        from storage import Database
        from storage.migrate import user_version

        db = await Database.open(path)
        try:
            async with db.read() as conn:
                return await user_version(conn)
        finally:
            await db.close()

    version = asyncio.run(apply())
    print(f"{path}: schema version {version}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of the `feudbot` command."""
    parser = argparse.ArgumentParser(prog="feudbot", description=__doc__)
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
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the `feudbot` command line and return its exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    func: Command | None = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    from bot.config import ConfigError

    try:
        return func(args)
    except ConfigError as error:  # one line, no traceback: what to mend and where
        print(f"feudbot: {error} (see .env.example).", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())

"""The terminal adapter: a local hot-seat game, interactive or from a script.

Interactive: ``feudbot console [--as NAME]`` reads commands at a prompt; ``@bob: /play 8H QUIZ``
acts as another local player. Replies to the chat are printed as they are (boards as ASCII, image
files by path); private replies are printed under a ``(private to NAME)`` header.

Script: ``feudbot console --script FILE [--json]`` reads lines ``name: /command args`` (blank
lines and ``#`` comments are skipped); with ``--json`` it prints one JSON object per reply:
``{"to": "chat" or a player's name, "text": …, "images": [paths], "event": {…}}``.

Ctrl-C at the prompt (or while a command runs) stops the console at once; the command line
exits with status 130. An image folder that cannot be written is reported once on stderr and
the console carries on with text boards.

The four adapter steps: parse the line → call the service → get `Reply` values → print them.
"""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import logging
import re
import sys
import threading
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import TextIO

from bot.adapters.common import APOLOGY, last_image_number, reply_json, reply_table, save_images
from bot.config import DEFAULT_REMINDERS
from bot.core.words import visible_name
from bot.reminders import Dispatcher
from bot.replies import ChatTarget, Reply, UserTarget
from bot.service import CONSOLE, ChatRef, Service, UserRef
from storage import Database

log = logging.getLogger(__name__)

CHAT = ChatRef(CONSOLE, "local", "terminal")
PROMPT_SUFFIX = "> "
# A local player's name: any name a /new can invite (zoë too), and nothing a line would cut.
_NAME = r"[^\s:@/]+"
# "@bob: /rack" or "bob: /rack": the name up to the colon.
_LINE = re.compile(rf"^@?({_NAME})\s*:\s*(.*)$")
# "@bob /rack": a name and a command with the colon forgotten (not a command of the default
# player, who would be told that commands start with a slash).
_NO_COLON = re.compile(rf"^(@?{_NAME})\s+(/\S.*)$")
# "@@bob: /rack", ": /rack": a line of a player with a name no player can have.
_BAD_NAME = re.compile(r"^([^/]*?)\s*:\s*(/\S.*)$")
# A terminal's escape sequence (an arrow key: ESC [ A) and any other control character.
_ESCAPE = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|.)?")
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")
QUIT = {"/quit", "/exit"}


def default_name() -> str:
    """Return the OS user's name (the default local player)."""
    try:
        return getpass.getuser()
    except Exception:  # no user database entry (containers): any name will do
        return "player"


def name_problem(name: str) -> str | None:
    """Return why `--as NAME` cannot be the local player, with a name that works; None if it can.

    The rule is the hot-seat lines' own: a name that "NAME: /command" would not read back as
    itself ("@bob", "a b", "") could never be addressed, "/stats @@bob" being no name.
    """
    if not name:
        return "a player needs a name, e.g. --as alice"
    if name.startswith("@") and re.fullmatch(_NAME, name[1:]):
        return f"write the name without the @, e.g. --as {name[1:]}"
    if not re.fullmatch(_NAME, name) or visible_name(name) != unicodedata.normalize("NFC", name):
        return (
            "a name has no spaces, no invisible characters and none of : @ / (it could not be "
            "addressed as @name), e.g. --as alice"
        )
    return None


def split_line(line: str, default: str) -> tuple[str, str] | None:
    """Split ``name: /command …`` into (name, command); None for blank lines and comments."""
    text = line.strip()
    if not text or text.startswith("#"):
        return None
    if not text.startswith("/"):
        match = _LINE.match(text)
        if match is not None:
            return match.group(1), match.group(2).strip()
    return default, text


def quits(line: str) -> bool:
    """Return whether a line asks to leave: /quit or /exit, a player's too ("bob: /quit").

    Words after it change nothing ("/quit now"): the console has no other /quit to mean.
    """
    parts = split_line(line, "")
    return parts is not None and parts[1].lower().partition(" ")[0] in QUIT


@dataclass
class Console:
    """Prints replies for one local chat and feeds it lines as different local players."""

    service: Service
    name: str
    out: TextIO = field(default_factory=lambda: sys.stdout)
    json_mode: bool = False
    image_dir: Path = Path("feudbot-images")
    err: TextIO = field(default_factory=lambda: sys.stderr)
    _count: int = -1  # replies numbered so far; -1 until the image folder has been looked at
    _images_off: bool = False  # set once the image folder has refused a file
    _prompting: bool = False  # the prompt is showing: news arriving goes below it, then again

    @property
    def prompt(self) -> str:
        """Return the prompt: "alice> "."""
        return self.name + PROMPT_SUFFIX

    @property
    def prompt_out(self) -> TextIO:
        """Where the prompt and the welcome go: with --json, stdout carries JSON lines only."""
        return self.err if self.json_mode else self.out

    async def user(self, name: str) -> UserRef:
        """Return the local player called `name` (the main player is the chat's admin).

        Names are case-blind, and a player keeps the spelling they were first known by:
        "@Bob: /rack" acts as bob without renaming him Bob in every later message.
        """
        name = visible_name(name) or name  # "@b\u200bob:" is bob (see `visible_name`)
        known = await self.service.db.users.get_user_by_platform_id(CONSOLE, name.lower())
        shown = known.display_name if known is not None else name
        return UserRef(CONSOLE, name.lower(), shown, is_admin=name.lower() == self.name.lower())

    async def feed(self, line: str) -> list[Reply]:
        """Run one input line and print its replies; return them.

        Terminal escape sequences (an arrow key where the prompt has no line editing) and
        other control characters are no part of a command: dropped, never echoed back.
        """
        line = _CONTROL.sub("", _ESCAPE.sub("", line.replace("\t", " ")))
        parts = split_line(line, self.name)
        if parts is None:
            return []
        name, text = parts
        if (slip := _NO_COLON.match(text)) is not None:
            return await self._hint(
                name,
                f"Did you mean {slip[1]}: {slip[2]}? A player's name is followed by a colon.",
            )
        if (odd := _BAD_NAME.match(text)) is not None:
            what = f"{odd[1]} is not a player's name (no spaces, none of : @ / inside)"
            return await self._hint(
                name,
                f"{what if odd[1] else 'A player name comes before the colon'}: write e.g. "
                f"bob: {odd[2]}",
            )
        try:
            replies = await self.service.handle(CHAT, await self.user(name), text)
        except Exception:
            # Infrastructure failures are logged and apologised for, never shown as tracebacks.
            log.exception("command %r of %s failed", text, name)
            self.out.write(APOLOGY + "\n")
            self.out.flush()
            return []
        await self.send(replies)
        return replies

    async def _hint(self, name: str, hint: str) -> list[Reply]:
        """Answer a line that addresses no player (to `name`, who typed it) with how to write it.

        "@bob /new webfeud" (the colon forgotten) or "@@bob: /rack" (no name a player has).
        """
        user = await self.user(name)
        event = {"type": "error", "reason": "BAD_COMMAND", "message": hint}
        replies = [Reply(UserTarget(0, CONSOLE, user.user_id, user.name), hint, event=event)]
        await self.send(replies)
        return replies

    async def send(self, replies: Sequence[Reply]) -> None:
        """Print replies (the dispatcher calls this too).

        News that comes while the prompt waits (a turn's clock ran out, a bot answered) starts
        on a line of its own, and the prompt is shown again after it.
        """
        if not replies:
            return
        if self._count < 0:
            self._count = last_image_number(self.image_dir)
        if self._prompting:
            self.prompt_out.write("\n")
            self.prompt_out.flush()
        for reply in replies:
            self._count += 1
            paths = self._save_images(reply)
            if self.json_mode:
                self.out.write(reply_json(reply, paths) + "\n")
                continue
            if isinstance(reply.to, ChatTarget):
                self.out.write(reply.text + "\n")
                board = reply_table(reply)
                if board is not None:
                    self.out.write(board + "\n")
            else:
                self.out.write(f"(private to {reply.to.name})\n")
                self.out.write("".join(f"  {line}\n" for line in reply.text.splitlines()))
            for path in paths:
                self.out.write(f"[image] {path}\n")
        self.out.flush()
        if self._prompting:
            self.prompt_out.write(self.prompt)
            self.prompt_out.flush()

    def _save_images(self, reply: Reply) -> list[Path]:
        """Write the reply's images; on the first failure say so once and write no more.

        The move behind the reply is saved already: a folder that cannot be written costs
        the pictures, never the game.
        """
        if self._images_off or not reply.images:
            return []
        try:
            paths, self._count = save_images(reply, self.image_dir, self._count)
            return paths
        except OSError as error:
            self._images_off = True
            why = (
                "it is not a folder"
                if self.image_dir.exists() and not self.image_dir.is_dir()
                else (error.strerror or str(error)).lower()
            )
            self.err.write(
                f"feudbot: cannot write images to {str(self.image_dir)!r} ({why}): images are "
                "off, boards are shown as text\n"
            )
            self.err.flush()
            return []


async def run_console(
    db_path: str,
    *,
    name: str | None = None,
    script: Sequence[str] | None = None,
    json_mode: bool = False,
    image_dir: Path | None = None,
    out: TextIO | None = None,
    inp: TextIO | None = None,
    err: TextIO | None = None,
    welcome: str | None = None,
    reminders: Sequence[timedelta] = DEFAULT_REMINDERS,
    render: bool = True,
) -> int:
    """Open the database, start the deadline dispatcher and run the console; return 0.

    Args:
        db_path: The SQLite file (created and migrated if needed).
        name: The local player (default: the OS user).
        script: Lines to run instead of reading a prompt (``name: /command``).
        json_mode: Print one JSON object per reply.
        image_dir: Where image attachments are written.
        out: Where to print (default: stdout).
        inp: Where to read commands interactively (default: stdin).
        err: Where warnings go, and with `json_mode` the prompt (default: stderr).
        welcome: A line printed before the prompt.
        reminders: How long before a turn deadline to remind the player.
        render: Attach images when the renderers are installed.

    Returns:
        The exit status.
    """
    stream = out or sys.stdout
    player = unicodedata.normalize("NFC", name or default_name())  # as `visible_name` has it
    db = await Database.open(db_path)
    try:
        service = Service(db, allow_seed=True, reminders=reminders, render=render)
        console = Console(
            service,
            player,
            out=stream,
            json_mode=json_mode,
            image_dir=image_dir or Path("feudbot-images"),
            err=err or sys.stderr,
        )
        dispatcher = Dispatcher(service, console.send, platforms=(CONSOLE,))
        if script is None:  # the greeting first: news of the time away follows it
            _welcome(console, welcome)
        try:
            # Overdue deadlines fire before anything else, then the dispatcher runs behind.
            await dispatcher.run_due()
            await console.send(await service.resume_bots(platforms=(CONSOLE,)))
            dispatcher.start()
            if script is not None:
                for line in script:
                    if quits(line):  # as at the prompt: the lines after it are not run
                        break
                    await console.feed(line)
            else:
                await _interactive(console, inp or sys.stdin)
        finally:
            await dispatcher.stop()
    finally:
        await db.close()
    return 0


def _welcome(console: Console, welcome: str | None) -> None:
    out = console.prompt_out
    if welcome:
        out.write(welcome + "\n")
    out.write(
        f"feudbot console — you play as {console.name}. Type /help; "
        "'@bob: /command' acts as bob; /quit leaves.\n"
    )
    out.flush()


async def _interactive(console: Console, inp: TextIO) -> None:
    out = console.prompt_out
    # At a terminal, the prompt has line editing and history (arrow keys), as a shell's has.
    editing = (
        inp is sys.stdin and out is sys.stdout and inp.isatty() and out.isatty() and _readline()
    )
    restore = _terminal_restorer(inp) if editing else None
    try:
        while True:
            if not editing:
                out.write(console.prompt)
                out.flush()
            console._prompting = True
            try:
                line = await read_line(inp, console.prompt if editing else None)
            finally:
                console._prompting = False
            if not line:  # end of input
                out.write("\n")
                return
            if quits(line):
                return
            await console.feed(line)
    except asyncio.CancelledError:  # Ctrl-C, at the prompt or mid-command: end the line, stop
        out.write("\n")
        out.flush()
        raise
    finally:
        if restore is not None:
            restore()


def _terminal_restorer(inp: TextIO) -> Callable[[], None] | None:
    """Return what puts the terminal back as it was (Ctrl-C may stop `input` mid-edit)."""
    try:
        import termios
    except ImportError:  # not a POSIX terminal
        return None
    try:
        saved = termios.tcgetattr(inp)
    except (termios.error, OSError, ValueError):
        return None

    def restore() -> None:
        with contextlib.suppress(termios.error, OSError, ValueError):
            termios.tcsetattr(inp, termios.TCSADRAIN, saved)

    return restore


def _readline() -> bool:
    """Load the standard library's line editing for `input` (not on every platform)."""
    try:
        import readline  # noqa: F401 - loading it is what gives `input` its editing
    except ImportError:
        return False
    return True


async def read_line(inp: TextIO, prompt: str | None = None) -> str:
    """Read one line of `inp` in a daemon thread ("" at the end of input).

    With `prompt`, `inp` is the terminal's standard input, read by `input` (which shows the
    prompt itself, with line editing and history).

    Not `asyncio.to_thread`: on Ctrl-C, `asyncio.run` waits for its executor's threads before it
    returns, and a thread blocked reading the terminal never ends, so the console would hang
    until a second Ctrl-C ended it with a traceback. A daemon thread is left behind instead.
    """
    loop = asyncio.get_running_loop()
    line: asyncio.Future[str] = loop.create_future()

    def deliver(text: str | None, error: BaseException | None) -> None:
        if line.done():  # cancelled meanwhile
            return
        if error is not None:
            line.set_exception(error)
        else:
            line.set_result(text or "")

    def read() -> None:
        text, error = None, None
        try:
            text = inp.readline() if prompt is None else _input_line(prompt)
        except Exception as problem:  # e.g. input that is not text: the reader's to report
            error = problem
        # RuntimeError: the loop has closed, nobody waits for this line any more.
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(deliver, text, error)

    threading.Thread(target=read, name="console-input", daemon=True).start()
    return await line


def _input_line(prompt: str) -> str:
    """Read a line at the terminal with `input` ("" at the end of input, as `readline`)."""
    try:
        return input(prompt) + "\n"
    except EOFError:
        return ""

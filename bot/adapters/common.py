"""What every adapter shares: text boards, reply headers, JSON lines, image files, kept messages.

`KeptMessages` keeps each game's chat message in one role (a board, a draft) in storage;
`noting_stops` and `serve_until_stopped` stop a bot on SIGINT or SIGTERM, even during start-up.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import signal
import threading
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any, Generic, TypeVar

from bot.core.grid import COLUMNS, cell_name
from bot.games.nmbr9 import SHAPE
from bot.games.nmbr9 import SIZE as NMBR9_SIZE
from bot.games.numfeud import SIZE as NUMFEUD_SIZE
from bot.replies import ChatTarget, Image, Reply
from storage import Database, GameMessage

log = logging.getLogger(__name__)

APOLOGY = "Sorry, something went wrong on my side; please try again in a moment."
# Board pressed under the game's newest message, posted less than `BOARD_AGAIN_AFTER` ago: it
# is at the bottom of the chat already, so no copy is posted (presses would flood the group).
BOARD_AGAIN_AFTER = timedelta(minutes=1)
JUST_POSTED = "This board of game #{id} was posted a moment ago: it is the newest one."


def ended_game(game_id: int, status: str) -> str:
    """Answer a button of a game that has ended: no newer message holds live buttons."""
    if status == "cancelled":
        return f"Game #{game_id} was cancelled; /new starts another."
    return f"Game #{game_id} is over; /board game={game_id} shows how it ended."


# Premium codes of the word-game layouts and how an empty premium cell is drawn.
_PREMIUM_MARKS = {"d": "'", "t": '"', "D": "-", "T": "=", "*": "*"}
_MARK_NAMES = (("d", "L2"), ("t", "L3"), ("D", "W2"), ("T", "W3"), ("*", "start"))


def ascii_board(view: Mapping[str, Any]) -> str | None:
    """Draw a grid game's public view as text (None when the view has no square board).

    Letter tiles are upper case, blanks lower case; empty premium squares show ' (L2), " (L3),
    - (W2), = (W3) and * (start), explained by a key line under the board.
    """
    board = view.get("board")
    size = view.get("size")
    if not isinstance(board, str) or not isinstance(size, int) or len(board) != size * size:
        return None
    layout = view.get("layout")
    layout = layout if isinstance(layout, str) and len(layout) == len(board) else "." * len(board)
    lines = ["    " + " ".join(COLUMNS[:size])]
    for row in range(size):
        cells = []
        for col in range(size):
            i = row * size + col
            ch = board[i]
            cells.append(ch if ch != "." else _PREMIUM_MARKS.get(layout[i], "."))
        lines.append(f"{row + 1:>3} " + " ".join(cells))
    shown = {layout[i] for i, ch in enumerate(board) if ch == "."}
    key = [f"{_PREMIUM_MARKS[code]} {name}" for code, name in _MARK_NAMES if code in shown]
    if key:
        lines.append("    key: " + "  ".join(key))
    return "\n".join(lines)


def ascii_melds(view: Mapping[str, Any], names: Sequence[str] = ()) -> str | None:
    """Draw a number-tile game's table as text, one numbered meld a line (None: no melds).

    Invalid melds of a draft end with ``<- invalid: <problem>``; an empty table says so. A
    table with a draft on it says so first; the pool and the players' tile counts follow, as
    the picture shows them.
    """
    melds = view.get("melds")
    if not isinstance(melds, list):
        return None
    lines = ["  (a draft of this turn: nothing is played until /done)"] if view.get("draft") else []
    if not melds:
        lines.append("  (the table is empty)")
    for meld in melds:
        tiles = " ".join(meld.get("tiles", [])) or "(empty)"
        line = f"{meld.get('number', '?'):>3}: {tiles}"
        if not meld.get("valid", True):
            line += f"   <- invalid: {meld.get('problem', '')}"
        lines.append(line)
    sizes, pool = view.get("rack_sizes"), view.get("pool")
    if isinstance(sizes, list) and isinstance(pool, int) and len(names) == len(sizes):
        held = ", ".join(f"{name} {size}" for name, size in zip(names, sizes, strict=True))
        lines.append(f"  pool {pool} · tiles: {held}")
    return "\n".join(lines)


def ascii_number_grid(view: Mapping[str, Any]) -> str | None:
    """Draw Numfeud's grid as text (None for any other view).

    A square shows its tile code (``R12``), a joker as the tile it stands for in lower case (``r5``,
    as a blank in the word games), a locked tile with ``!`` after it, the empty centre as ``*``.
    """
    board = view.get("board")
    if view.get("game") != "numfeud" or not isinstance(board, Mapping):
        return None
    locked = set(view.get("locked") or ())
    centre = cell_name(NUMFEUD_SIZE // 2, NUMFEUD_SIZE // 2)
    lines = ["    " + "".join(f"{c:<5}" for c in COLUMNS[:NUMFEUD_SIZE]).rstrip()]
    for row in range(NUMFEUD_SIZE):
        cells = []
        for col in range(NUMFEUD_SIZE):
            name = cell_name(row, col)
            code = str(board.get(name, "*" if name == centre else "."))
            if code.startswith("J="):
                code = code[2:].lower()
            cells.append(f"{code + ('!' if name in locked else ''):<5}")
        lines.append(f"{row + 1:>3} " + "".join(cells).rstrip())
    lines.append("    key: r5 a joker standing for the tile R5  ! locked  * centre")
    return "\n".join(lines)


def ascii_displays(view: Mapping[str, Any], names: Sequence[str] = ()) -> str | None:
    """Draw NMBR 9 displays as text, one after another (None for any other view).

    A square shows the number of its top tile and that tile's level: ``72`` is a 7 on level 2.
    Only the rows and columns around the tiles are drawn.
    """
    displays = view.get("displays")
    if view.get("game") != "nmbr9" or not isinstance(displays, list):
        return None
    blocks = []
    for seat, entries in enumerate(displays):
        name = names[seat] if seat < len(names) else f"player {seat + 1}"
        top: dict[tuple[int, int], tuple[int, int]] = {}  # square -> (level, number)
        for number, row, col, rotation, level in entries or ():
            for dr, dc in SHAPE[number, rotation].cells:
                square = (row + dr, col + dc)
                if level >= top.get(square, (-1, 0))[0]:
                    top[square] = (level, number)
        if not top:
            blocks.append(f"{name}: no tiles yet")
            continue
        rows = [r for r, _ in top]
        cols = [c for _, c in top]
        lo_r, hi_r = max(min(rows) - 1, 0), min(max(rows) + 1, NMBR9_SIZE - 1)
        lo_c, hi_c = max(min(cols) - 1, 0), min(max(cols) + 1, NMBR9_SIZE - 1)
        header = " ".join(f"{c:<2}" for c in COLUMNS[lo_c : hi_c + 1])
        lines = [f"{name}:", ("    " + header).rstrip()]
        for r in range(lo_r, hi_r + 1):
            cells = []
            for c in range(lo_c, hi_c + 1):
                level, number = top.get((r, c), (-1, 0))
                cells.append(f"{number}{level}" if level >= 0 else ". ")
            lines.append(f"{r + 1:>3} " + " ".join(cells).rstrip())
        blocks.append("\n".join(lines))
    blocks.append("    key: a square shows its top tile's number and level (72: a 7 on level 2)")
    return "\n\n".join(blocks)


def text_board(view: Mapping[str, Any], names: Sequence[str] = ()) -> str | None:
    """Draw any game's public view as text for a terminal (None when it has no table)."""
    return (
        ascii_board(view)
        or ascii_melds(view, names)
        or ascii_number_grid(view)
        or ascii_displays(view, names)
    )


def reply_table(reply: Reply) -> str | None:
    """Return the table a reply's picture shows, drawn as text (None: it shows none)."""
    return text_board(reply.event.get("view") or {}, reply.event.get("players") or ())


def image_bytes(image: bytes | Image) -> bytes:
    """Return the PNG bytes of an attachment."""
    return image.data if isinstance(image, Image) else image


def image_alt(image: bytes | Image) -> str:
    """Return what an attachment shows in words ("" when nobody said)."""
    return image.alt if isinstance(image, Image) else ""


def image_name(image: bytes | Image, fallback: str) -> str:
    """Return the file name of an attachment."""
    return image.name if isinstance(image, Image) else fallback


def last_image_number(folder: Path) -> int:
    """Return the highest reply number of the images already in `folder` (0 when none).

    A console run numbers its images after those of earlier runs, so that a path printed
    yesterday never comes to hold today's board.
    """
    if not folder.is_dir():
        return 0
    numbers = (path.name.partition("-")[0] for path in folder.glob("*-*.png"))
    return max((int(n) for n in numbers if n.isascii() and n.isdigit()), default=0)


def save_images(reply: Reply, folder: Path, counter: int) -> tuple[list[Path], int]:
    """Write a reply's images as PNG files numbered `counter` in `folder`: their paths, number.

    A file is never overwritten: when another run on the same folder took the number (two
    consoles at once), the reply takes the next number free, so that a path printed once
    always shows what it showed.
    """
    if not reply.images:
        return [], counter
    folder.mkdir(parents=True, exist_ok=True)
    while True:
        paths: list[Path] = []
        try:
            for n, image in enumerate(reply.images):
                name = image_name(image, f"image-{n}.png")
                path = folder / f"{counter:05d}-{n}-{name}"
                with path.open("xb") as file:
                    paths.append(path)
                    file.write(image_bytes(image))
        except FileExistsError:
            for written in paths:
                written.unlink(missing_ok=True)
            counter = max(counter, last_image_number(folder)) + 1
            continue
        return paths, counter


def reply_json(reply: Reply, images: list[Path]) -> str:
    """Return one reply as the console's JSON line: to, text, images, event."""
    to = "chat" if isinstance(reply.to, ChatTarget) else reply.to.name
    return json.dumps(
        {"to": to, "text": reply.text, "images": [str(p) for p in images], "event": reply.event},
        ensure_ascii=False,
        sort_keys=False,
    )


# A summary's sentences, clauses and abbreviations (`short_description`).
_SENTENCE_END = re.compile(r"(?<!\be\.g)(?<!\bi\.e)\.\s")
_CLAUSE_END = re.compile(r"[:;]\s")
MIN_CLAUSE = 40  # shorter clauses ("NMBR 9: …") say too little on their own
_ABBREVIATION_END = re.compile(r"[,;:]?\s*\b(?:e\.g|i\.e)\.?$")


def short_description(text: str, limit: int = 100) -> str:
    """Fit a summary into `limit` characters (Discord's 100): first sentence, clauses, or words.

    A sentence ends at ". " but not after "e.g." or "i.e.". A first sentence too long is cut
    after its last whole clause (": " or "; " outside brackets, 40 characters in at least),
    else at a word with "…"; a cut never leaves an abbreviation ("…, e.g.") at the end.
    """
    if len(text) <= limit:
        return text
    first = _SENTENCE_END.split(text, maxsplit=1)[0].rstrip(".") + "."
    if len(first) <= limit:
        return first
    clauses = [
        m.start()
        for m in _CLAUSE_END.finditer(first)
        if MIN_CLAUSE <= m.start() < limit
        and first.count("(", 0, m.start()) == first.count(")", 0, m.start())
    ]
    if clauses:
        return _ABBREVIATION_END.sub("", first[: clauses[-1]]) + "."
    words = text[: limit - 1].rsplit(" ", 1)[0]
    return _ABBREVIATION_END.sub("", words).rstrip(",;:") + "…"


M = TypeVar("M")  # an adapter's own record of a chat message
KEPT_IN_MEMORY = 4096  # games whose message `KeptMessages` keeps in memory (those used last)


class KeptMessages(Generic[M]):
    """Each game's chat message in one role (`slot`), in memory and in storage (`db.messages`).

    The message that carries a game's buttons (Telegram's board, Discord's newest message and
    its Rummikub draft) is edited in place and has its buttons taken off when a newer one takes
    over; keeping it in storage too means a restart forgets none. `load` makes the adapter's
    own value of a kept row, `dump` the row of a value. Memory holds the games used last
    (`KEPT_IN_MEMORY`), so a game being played costs no query; an older one is read again.
    """

    def __init__(
        self,
        db: Database,
        slot: str,
        load: Callable[[GameMessage], M],
        dump: Callable[[int, str, M], GameMessage],
    ) -> None:
        """Keep the messages of `slot` in `db`, converted by `load` and `dump`."""
        self.db, self.slot, self._load, self._dump = db, slot, load, dump
        # The games used last, the oldest first (None: the game has none; storage was asked).
        self.known: dict[int, M | None] = {}

    async def get(self, game_id: int) -> M | None:
        """Return the game's message: known in memory, else the one kept in storage."""
        if game_id in self.known:
            message = self.known[game_id]
        else:
            kept = await self.db.messages.get_message(game_id, self.slot)
            message = None if kept is None else self._load(kept)
        self._remember(game_id, message)
        return message

    async def put(self, game_id: int, message: M | None) -> None:
        """Make `message` the game's message (None: it has none), in memory and in storage."""
        if game_id in self.known and self.known[game_id] == message:
            self._remember(game_id, message)
            return
        self._remember(game_id, message)
        if message is None:
            await self.db.messages.delete_message(game_id, self.slot)
        else:
            await self.db.messages.put_message(self._dump(game_id, self.slot, message))

    def _remember(self, game_id: int, message: M | None) -> None:
        """Note the game's message as the one used last; forget the oldest beyond the bound."""
        self.known.pop(game_id, None)
        self.known[game_id] = message
        if len(self.known) > KEPT_IN_MEMORY:  # storage still has it
            del self.known[next(iter(self.known))]

    async def game_of(self, platform: str, chat_id: str, message_id: str) -> int | None:
        """Return the game whose message of this slot a chat message is (a reply names it).

        Storage answers (`put` writes every message there at once): going through the
        messages known in memory cost a conversion per game touched since the start, on the
        event loop (150 ms for 50,000 games).
        """
        return await self.db.messages.game_of_message(platform, chat_id, message_id, self.slot)

    async def forget_chat(self, platform: str, chat_id: str) -> None:
        """Forget every message of this slot posted in a chat (one that Telegram moved away)."""
        for game_id, message in list(self.known.items()):
            if message is not None and self._dump(game_id, self.slot, message).chat_id == chat_id:
                del self.known[game_id]
        await self.db.messages.delete_chat_messages(platform, chat_id, self.slot)


class _OneLineRetry(logging.Filter):
    """Fold the traceback of a library's report of a failed try into its line, as a warning.

    The libraries retry by themselves; what failed is what the operator needs, not where.
    """

    def __init__(self, prefix: str) -> None:
        super().__init__()
        self.prefix = prefix

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if error is not None and str(record.msg).startswith(self.prefix):
            record.msg = f"{record.getMessage()} ({type(error).__name__}: {error})"
            record.args = ()
            record.exc_info = record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def one_line_retries(logger: str, prefix: str) -> None:
    """Log `logger`'s messages that start with `prefix` in one line, without their traceback."""
    target = logging.getLogger(logger)
    if not any(isinstance(f, _OneLineRetry) and f.prefix == prefix for f in target.filters):
        target.addFilter(_OneLineRetry(prefix))


# What stops a bot run in the foreground: Ctrl-C, and a supervisor's stop.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
# The stop signals that came while a bot started up, before it had a stop event to set.
_early_stops: list[int] = []


def _note_stop(signum: int, _frame: object) -> None:
    _early_stops.append(signum)


@contextlib.contextmanager
def noting_stops() -> Iterator[None]:
    """Have SIGINT and SIGTERM only noted while a bot starts up; `serve_until_stopped` acts on it.

    A Ctrl-C raised `KeyboardInterrupt` wherever the start-up was; inside an aiosqlite
    connection's ``__del__`` (the database being opened) Python only prints "Exception
    ignored", and the bot went on to start and ran until a second Ctrl-C. A noted stop cannot
    be lost: the bot stops where it would start serving. The handlers before are put back on
    leaving. Outside the main thread (tests run the command line in one) no signal comes:
    nothing is changed.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _early_stops.clear()
    before = {sig: signal.getsignal(sig) for sig in STOP_SIGNALS}
    for sig in STOP_SIGNALS:
        signal.signal(sig, _note_stop)
    try:
        yield
    finally:
        for sig, handler in before.items():
            if handler is not None:  # None: not set from Python, nothing to put back
                signal.signal(sig, handler)
        _early_stops.clear()


async def serve_until_stopped(serve: Callable[[asyncio.Event], Awaitable[None]]) -> None:
    """Run `serve(stop)` until SIGINT or SIGTERM sets `stop`; not at all after a noted one.

    A stop noted during start-up (`noting_stops`) ends the run before it serves anything.
    """
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in STOP_SIGNALS:
        # Not available on Windows, nor outside the main thread (tests run it in a thread).
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, stop.set)
    if _early_stops:  # came before the handlers above took over from `noting_stops`
        log.info("Stopped during start-up (%s).", signal.Signals(_early_stops[0]).name)
        return
    await serve(stop)

"""The use cases, platform-neutral: lock → load → apply → save, then say what happened.

```python
service = Service(db, allow_seed=False, reminders=(timedelta(hours=24), timedelta(hours=1)))
replies = await service.handle(ChatRef("telegram", "-100"), UserRef("telegram", "42", "ann"),
                               "/play 8H QUIZ")
replies = await service.execute(chat, user, Command("board", game_id=3))   # parsed elsewhere
replies = await service.action(chat, user, "rack:3")                        # a button press
replies = await service.on_deadline(deadline)                               # the dispatcher
replies = await service.resume_bots()                                       # at start-up
state = await service.replay(game_id)                                       # audits, tests
```

Every call returns `list[Reply]` (`bot.replies`): to the chat, or privately to one user. Each
reply carries an `event` dict whose `type` is one of `game_created`, `game_joined`,
`game_left`, `game_started`, `move_played`, `timeout`, `rack` (private only), `reminder`
(private), `game_over`, `game_cancelled`, `board`, `history`, `games`, `my_games`,
`leaderboard`, `stats`, `rules`, `help` or `error` (`reason`, `message`; sent to the asker).
Every `GameError` becomes an error reply; anything else (a database failure, a bug)
propagates, for the adapter's global handler to log and apologise for.

Concurrency: one `asyncio.Lock` per game serialises the commands of this process; the version
check in storage's `commit_move` catches everything else (another process, a stale button), so a
double submission is applied once and the second one is told "that turn was already played".

Each move is ONE storage transaction: the snapshot, the move-log row, the next deadlines (the
turn timeout and its reminders) and, for the move that ends the game, the results rows. The
seed of every game is kept in its options (``seed``), so the log replays from the first deal.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import weakref
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from bot.commands import (
    FIRST_YEAR,
    HISTORY_LINES,
    HISTORY_SHOWN,
    HISTORY_WIDTH,
    LAST_YEAR,
    MAX_DIGITS,
    SPECS,
    Command,
    CommandError,
    help_text,
    is_bot_name,
    no_such_game,
    parse_command,
    usage,
    whole_number,
)
from bot.config import DEFAULT_REMINDERS
from bot.core.errors import GameError, InvalidMove, NoSuchMove, Reason, RuleError
from bot.core.game import RESIGNED, GameDef, GameState, Move, MoveRecord, best_moves
from bot.core.words import (
    and_list,
    clip,
    isolated,
    plural,
    shown_name,
    told_apart,
    visible_name,
    wrap_steps,
)
from bot.games import GAMES
from bot.games.wordgame import LOST_TURN
from bot.replies import Button, ChatTarget, Image, Reply, UserTarget
from storage import (
    BotLevel,
    Chat,
    Database,
    Deadline,
    GameRow,
    GameStatus,
    LeaderboardRow,
    NewDeadline,
    NewResult,
    Seat,
    SoloRecord,
    User,
    name_key,
)

log = logging.getLogger(__name__)

CONSOLE = "console"
# Button verbs: `verb:game_id[:turn]`, short enough for Telegram's 64-byte callback data.
ACTIONS = ("join", "start", "board", "rack", "pass", "rematch")
# The games that can be played alone: their solo records stand apart from the rankings.
SOLO_GAMES = tuple(key for key, gdef in sorted(GAMES.items()) if gdef.min_players == 1)
# What a move command given without its argument hands the game's parser (see _in_game_notation).
_BARE_MOVES = {"play": "", "try": "", "swap": "swap", "place": ""}
# The news of a round that opens (NMBR 9), whose board `_with_bots` draws once its bots placed.
ROUND_NEWS = frozenset({"game_started", "move_played", "timeout"})
# `_pass_warning` of a pass that wins the game (Numfeud: the other's full inventory is stuck).
PASS_WINS = "a pass now ends the game, won by {who}"
SHOWN_IDS = 8  # game ids listed when a command could mean several games
MAX_UNSLASHED = 200  # text without a slash longer than this is not read as a move
# Reads of a game a move is tried on while another process keeps changing it (`_play`).
COMMIT_TRIES = 3
LOBBIES_A_PERSON = 5  # lobbies one person may have waiting to start in a chat
GAMES_LISTED = 50  # /games lists the most recently active (the others' numbers follow)
SEATS_CACHED = 4096  # running games whose seats the service keeps in memory
# Commands about the player's own move: a bare one means, of several games, the one waiting for
# them (`_find_game`'s `waiting_first`, here and from a private chat); /resign and /nudge, which
# end or press a game, ask.
MOVE_COMMANDS = frozenset(
    {"play", "swap", "pass", "place", "done", "undo", "reset", "draw", "try", "hint"}
)
# Move commands that not every game has (`takes`): of several games, a bare one means a game
# that has it, and Discord suggests only those.
OWN_MOVES = frozenset({"place", "moves", "try", "swap", "pass", "done", "undo", "reset", "draw"})
LEADERBOARD_TOP = 10  # places shown (all who share the last one), then the asker's own row
LEADERBOARD_ROWS = 25  # rows at most, even when more share the top places
LEADERBOARD_READ = 100_000  # rows read to place the asker: every player of a chat, or of all
BOT_MOVES_LIMIT = 1000  # a safety net: a game where bots alone keep moving this long is a bug
_SEED_RANGE = 2**31
# A reminder this much late still announces its own time ("1 hour"); later, the real time left.
LATE_REMINDER_GRACE = timedelta(minutes=5)
# A move this soon after its seat's timeout was most likely sent for the turn that ran out: at
# most LATE_MOVE_GRACE, and a quarter of the turn's time (a 15-second Rummikub turn: 3.75 s).
LATE_MOVE_GRACE = timedelta(minutes=5)
LATE_MOVE_SHARE = 4


def utcnow() -> datetime:
    """Return the current time, timezone-aware UTC."""
    return datetime.now(UTC)


# --- who and where -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ChatRef:
    """Where a command came from, in the platform's own terms."""

    platform: str
    chat_id: str
    title: str | None = None
    private: bool = False  # a one-to-one chat with the bot: nobody else can join or play here
    # The topic of a forum chat (a Telegram supergroup with topics) the command was typed in,
    # None outside one: answers go back there, and a game created there lives there.
    thread_id: int | None = None
    # The chat this one belongs to (a Discord thread's channel: its id and title), whose
    # leaderboards count the games played here.
    parent_id: str | None = None
    parent_title: str | None = None


@dataclass(frozen=True, slots=True)
class UserRef:
    """Who sent a command, in the platform's own terms; admins may cancel others' games."""

    platform: str
    user_id: str
    name: str
    is_admin: bool = False
    handle: str | None = None  # the platform name that is theirs alone (a Telegram @username)


class ServiceError(GameError):
    """A command that cannot be carried out; the message is safe to show the asker."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


class DeadlineHeld(Exception):
    """A claimed deadline whose chat the bot left meanwhile: its claim goes back, held.

    The dispatcher claims a deadline a moment before its handler runs; the bot may be removed
    from the chat in between (and the handler may wait for the game's lock behind a command).
    """


def _reason(error: GameError) -> str:
    if isinstance(error, (RuleError, ServiceError)):
        return str(error.reason)
    if isinstance(error, CommandError):
        return "BAD_COMMAND"
    if isinstance(error, InvalidMove):
        return "INVALID_MOVE"
    return "GAME_ERROR"


@dataclass(frozen=True, slots=True)
class _Ctx:
    """A resolved command context: the stored chat and user, and where to reply."""

    chat: Chat
    user: User
    ref: UserRef
    private: bool = False  # the chat is the asker's private chat with the bot
    command: str = ""  # the name of the command being run (`_run` sets it)
    # Names the platform tied to a person (exactly as written, no @ → platform user id): a
    # mention picked from Telegram's menu names someone without a username, whose name may be
    # taken; a typed name that differs even in case is looked up as usual.
    mentioned: Mapping[str, str] = field(default_factory=dict)
    thread_id: int | None = None  # the forum topic the command was typed in

    @property
    def to_chat(self) -> ChatTarget:
        """Return where an answer to the command goes: its chat, in the topic it was typed in."""
        return _chat_target(self.chat, self.thread_id)

    def to_game(self, row: GameRow) -> ChatTarget:
        """Return where news of a game of this chat goes: the topic the game lives in."""
        return _chat_target(self.chat, row.thread_id)

    @property
    def to_user(self) -> UserTarget:
        return _user_target(self.user)


def _user_target(user: User) -> UserTarget:
    return UserTarget(user.id, user.platform, user.platform_user_id, user.display_name)


def _named(user: User) -> str:
    """Return a person's name as a message shows it (`shown_name`: "⁨דוד⁩ joined game #3.")."""
    return shown_name(user.display_name)


def _titled(chat: Chat) -> str:
    """Return a group's title as a message shows it (`shown_name`), "the group" if it has none."""
    return shown_name(chat.title or "") or "the group"


def _chat_target(chat: Chat, thread_id: int | None = None) -> ChatTarget:
    return ChatTarget(chat.id, chat.platform, chat.platform_chat_id, thread_id)


def _in_topic(rows: list[GameRow], thread_id: int | None) -> list[GameRow]:
    """Of several games, those of the forum topic a bare command was typed in (if any are)."""
    if len(rows) < 2 or thread_id is None:
        return rows
    return [row for row in rows if row.thread_id == thread_id] or rows


def _game_target(table: _Table) -> ChatTarget:
    """Return where a game's news goes: its chat, in the forum topic it was created in."""
    return _chat_target(table.chat, table.row.thread_id)


class _ChatCache:
    """The chats read so far, by (platform, platform chat id) and by database id.

    Both indexes always hold the same chats: every command looks its chat up by platform id,
    every game's news by the game's chat id, and neither may scan.
    """

    __slots__ = ("_by_id", "_by_key")

    def __init__(self) -> None:
        self._by_key: dict[tuple[str, str], Chat] = {}
        self._by_id: dict[int, Chat] = {}

    def get(self, platform: str, platform_chat_id: str) -> Chat | None:
        return self._by_key.get((platform, platform_chat_id))

    def by_id(self, chat_id: int) -> Chat | None:
        return self._by_id.get(chat_id)

    def put(self, chat: Chat) -> None:
        old = self._by_id.get(chat.id)
        if old is not None:  # the same chat under an id it no longer has (a moved group)
            self.drop(old.platform, old.platform_chat_id)
        self.drop(chat.platform, chat.platform_chat_id)
        self._by_key[(chat.platform, chat.platform_chat_id)] = chat
        self._by_id[chat.id] = chat

    def drop(self, platform: str, platform_chat_id: str) -> None:
        chat = self._by_key.pop((platform, platform_chat_id), None)
        if chat is not None:
            self._by_id.pop(chat.id, None)


@dataclass(frozen=True, slots=True)
class _Table:
    """A loaded game with its seats, the names at them and its state (None in the lobby)."""

    row: GameRow
    chat: Chat
    seats: tuple[Seat, ...]
    names: tuple[str, ...]
    users: tuple[User | None, ...]
    state: GameState | None

    @property
    def gdef(self) -> GameDef:
        return GAMES[self.row.game_key]

    def seat_of(self, user_id: int) -> int | None:
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat.seat_no
        return None

    @property
    def host(self) -> User | None:
        """Return who may cancel the game: its creator while seated, else the first person seated.

        A creator who leaves the lobby hands the game to the others; only bots left: nobody.
        """
        people = [user for user in self.users if user is not None]
        creator = [user for user in people if user.id == self.row.creator_user_id]
        return (creator or people)[0] if people else None


def bot_names(seats: Iterable[Seat]) -> dict[int, str]:
    """Return seat number -> display name of a game's bot seats: ``bot-hard``, ``bot-hard-2``.

    The second bot of a level is numbered, so names are unique within a game. They are
    counted round the table from the person with the oldest account, so that a rematch, which
    turns the seats by one, gives every bot the name it had.
    """
    table = list(seats)
    people = [seat for seat in table if seat.user_id is not None]
    start = min(people, key=lambda seat: seat.user_id or 0).seat_no if people else 0
    names: dict[int, str] = {}
    count: Counter[str] = Counter()
    for seat in sorted(table, key=lambda seat: (seat.seat_no - start) % len(table)):
        if seat.user_id is None:
            level = seat.bot_level or "bot"
            count[level] += 1
            names[seat.seat_no] = f"bot-{level}" + (f"-{count[level]}" if count[level] > 1 else "")
    return names


# Stored with a game's options but not options of the game: its seed, the game it replays.
REMATCH_OF = "rematch_of"
_NOT_OPTIONS = frozenset({"seed", REMATCH_OF})


def game_options(row: GameRow) -> dict[str, str]:
    """Return the options a game was dealt with (the stored seed left out)."""
    return {k: str(v) for k, v in row.options.items() if k not in _NOT_OPTIONS}


def game_seed(row: GameRow) -> int:
    """Return the seed a game was (or will be) dealt with."""
    return int(row.options["seed"])


def load_state(row: GameRow) -> GameState:
    """Rebuild the current state of a started game from its snapshot."""
    assert row.snapshot is not None
    return GAMES[row.game_key].from_json(json.loads(row.snapshot))


def initial_state(row: GameRow, players: int) -> GameState:
    """Deal the game's first state again from its seed and options (replays start here)."""
    return GAMES[row.game_key].new_game(players, seed=game_seed(row), options=game_options(row))


def replay_move(gdef: GameDef, state: GameState, seat: int, notation: str, kind: str) -> GameState:
    """Apply one move-log entry to `state` (a timeout or a move in the game's notation)."""
    if kind == "timeout":
        return gdef.on_timeout(state, seat)
    return state.apply(seat, gdef.parse_move(notation))


def _left_words(left: timedelta) -> str:
    """Say the time left for a turn: "3 hours left", or "time is up" (due, not yet applied)."""
    return f"{_fmt_delta(left)} left" if left > timedelta(0) else "time is up"


def _fmt_delta(delta: timedelta) -> str:
    """Say a length of time: "2 hours 5 minutes"; under 10 minutes the seconds count too."""
    seconds = int(delta.total_seconds())
    if seconds < 60:
        return plural(seconds, "second")
    hours, minutes = divmod(seconds // 60, 60)
    parts = [plural(hours, "hour")] if hours else []
    if minutes:
        parts.append(plural(minutes, "minute"))
    if seconds < 600 and seconds % 60:  # "1 minute 30 seconds", never a 90 s timer's "1 minute"
        parts.append(plural(seconds % 60, "second"))
    return " ".join(parts)


def _time_left(
    reminder: Deadline, now: datetime, reminders: Sequence[timedelta]
) -> timedelta | None:
    """Return the time a reminder should announce, or None when it has nothing left to say.

    A reminder fired on time announces what it was set for ("1 hour"). One fired late (the bot
    was down) announces the real time left, in whole minutes, unless the turn has run out (the
    timeout speaks) or a later reminder of the same turn is due too (that one speaks).
    """
    before = timedelta(seconds=int(reminder.payload.get("before", 0)))
    left = reminder.due_at + before - now
    if left <= timedelta(0) or any(left <= later for later in reminders if later < before):
        return None
    # On time within the grace, or a tenth of the reminder's lead for short timers (a "50
    # seconds" reminder 29 seconds late must say the real 21).
    if left >= before - min(LATE_REMINDER_GRACE, before / 10):
        return before
    if left >= timedelta(minutes=1):
        return timedelta(minutes=int(left.total_seconds() // 60))
    return timedelta(seconds=max(1, int(left.total_seconds())))


# --- the service -------------------------------------------------------------------------------


class Service:
    """The use cases over storage and the game registry."""

    def __init__(
        self,
        db: Database,
        *,
        allow_seed: bool = False,
        reminders: Sequence[timedelta] = DEFAULT_REMINDERS,
        clock: Callable[[], datetime] = utcnow,
        render: bool = True,
        rng: random.Random | None = None,
    ) -> None:
        """Wrap an open database.

        Args:
            db: The open, migrated database.
            allow_seed: Accept ``seed=`` on /new (always on in the console).
            reminders: How long before a turn deadline each reminder fires.
            clock: The current UTC time (tests inject a fake one).
            render: Attach images when the renderers are installed.
            rng: Draws the seeds of games without ``seed=`` (default: system randomness).
        """
        self.db = db
        self.allow_seed = allow_seed
        self.reminders = tuple(sorted(reminders, reverse=True))
        self.clock = clock
        self.render = render
        self._rng = rng or random.SystemRandom()
        # A game's lock lives while a command holds or awaits it: a long-running bot keeps no
        # lock per game it ever touched.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        # Each person as they came last: (name, handle, the stored user).
        self._users: dict[tuple[str, str], tuple[str, str | None, User]] = {}
        self._stalled: set[int] = set()  # games whose bots failed to move: retried later
        self._chats = _ChatCache()
        self._names: dict[int, User] = {}
        self._seats: dict[int, tuple[Seat, ...]] = {}

    # -- entry points --

    async def unslashed_move(self, chat: ChatRef, user: UserRef, text: str) -> str | None:
        """Return how to send `text`, typed without a slash, if it is a move of the sender's game.

        "8H QUIZ" in a chat where they play Webfeud: "Commands start with /: send /play 8H QUIZ
        to play that in game #1." None when no game of theirs here reads it as a move.
        """
        person = await self.db.users.get_user_by_platform_id(user.platform, user.user_id)
        where = await self._chat_by_platform_id(chat.platform, chat.chat_id)
        if person is None or where is None or not text.strip() or len(text) > MAX_UNSLASHED:
            return None
        rows = await self.db.games.list_games(
            chat_id=where.id, user_id=person.id, statuses=("active",)
        )
        for row in await self._still_in(rows, person.id):
            gdef, state = GAMES[row.game_key], load_state(row)
            try:
                gdef.parse_move(text.strip())
            except GameError:
                continue
            command = "/place" if gdef.round_of(state) is not None else "/play"
            return (
                f"Commands start with /: send {command} {text.strip()} to play that in game "
                f"#{row.id}."
            )
        return None

    async def handle(
        self, chat: ChatRef, user: UserRef, text: str, *, mentioned: Mapping[str, str] | None = None
    ) -> list[Reply]:
        """Parse one line of the command language and run it; errors become error replies.

        `mentioned`: the @names of the line that the platform tied to a person (the name as
        typed, without @ → platform user id); they name that person, whoever else bears it.
        """
        ctx = await self._context(chat, user)
        if mentioned:
            ctx = replace(ctx, mentioned=dict(mentioned))
        # A hot-seat name is typed (the terminal's own player, its admin, is not one).
        if chat.platform == CONSOLE and not user.is_admin and is_bot_name(user.name):
            error = CommandError(
                f"{user.name} is what a computer player is called; a person needs another name, "
                "e.g. @bob: /join."
            )
            return [self._error(ctx, error)]
        try:
            command = parse_command(text)
        except CommandError as error:
            return [self._error(ctx, await self._in_game_notation(ctx, error))]
        return await self._run(ctx, command)

    async def _in_game_notation(self, ctx: _Ctx, error: CommandError) -> GameError:
        """Answer a bare ``/play``, ``/swap`` or ``/place`` with the notation of the player's game.

        The generic usage shows a word game's example; when the asker has one active game
        here (or names one with game=<id>), its own parser says what the command needs there
        (``swap R5 B7 J`` in Numfeud, a placement in NMBR 9, no swapping in Rummikub).
        Otherwise the generic usage stands.
        """
        if error.lacking not in _BARE_MOVES:
            return error
        ctx = replace(ctx, command=error.lacking)  # of several games, one that takes it
        try:
            table = await self._table(await self._find_game(ctx, error.game_id, ("active",)))
        except GameError:
            return error
        if table.state is None:
            return error
        if error.lacking == "place" and table.gdef.round_of(table.state) is None:
            return _place_elsewhere(table.gdef)  # not the usage of a game they do not play
        try:
            table.gdef.parse_move(_BARE_MOVES[error.lacking])
        except NoSuchMove as answer:  # the game has no such move: its usage would mislead
            return CommandError(str(answer))
        except InvalidMove as answer:
            return CommandError(f"{answer} {usage(error.lacking)}")
        return error

    async def execute(self, chat: ChatRef, user: UserRef, command: Command) -> list[Reply]:
        """Run an already parsed command (Discord's slash commands build `Command` directly)."""
        ctx = await self._context(chat, user)
        return await self._run(ctx, command)

    async def action(self, chat: ChatRef, user: UserRef, action_id: str) -> list[Reply]:
        """Run a button press: ``verb:game_id`` or ``verb:game_id:turn`` (ids only).

        A button that names a turn is refused politely once the game has moved past it.
        """
        ctx = await self._context(chat, user)
        parts = action_id.split(":")
        try:
            if (
                len(parts) not in (2, 3)
                or parts[0] not in ACTIONS
                or any(whole_number(part) is None for part in parts[1:])
            ):
                raise ServiceError("BAD_ACTION", "That button is not one of mine any more.")
            game_id = int(parts[1])
            if len(parts) == 3:
                row = await self._find_game(ctx, game_id, ("active",))
                if row.turn != int(parts[2]):
                    raise ServiceError(
                        "STALE_BUTTON", "That button is from an earlier turn; see /board."
                    )
        except GameError as error:
            return [self._error(ctx, error)]
        return await self._run(ctx, Command(parts[0], game_id=game_id))

    async def private_route(
        self, private: ChatRef, user: UserRef, name: str, game_id: int | None, typed: str
    ) -> ChatRef | str | None:
        """Return the chat whose game a command typed in `user`'s `private` chat acts on.

        A private chat hosts only its own bot or solo games; a player's commands there may also
        act on their games in other chats of the platform (so that a swap's tiles are never
        typed in a group). That is the game named by game=<id>, if it is elsewhere and the player
        is seated in it; without game=, the player's one running game elsewhere, unless one runs
        in the private chat itself; of several, a move (`MOVE_COMMANDS`) means the one waiting
        for them, as it would in a group. Still several: the question which, echoing `typed`
        (a text). None: the command stays in the private chat.
        """
        stored = await self.db.users.get_user_by_platform_id(user.platform, user.user_id)
        if stored is None:
            return None
        here = await self.db.chats.get_chat_by_platform_id(private.platform, private.chat_id)
        if game_id is not None:
            row = await self.db.games.get_game(game_id)
            if row is None or (here is not None and row.chat_id == here.id):
                return None
            if not any(s.user_id == stored.id for s in await self.db.games.seats(row.id)):
                return None
            chat = await self.db.chats.get_chat(row.chat_id)
            if chat is None or chat.platform != user.platform:
                return None
            return ChatRef(user.platform, chat.platform_chat_id)
        if here is not None and await self.db.games.list_games(
            chat_id=here.id, user_id=stored.id, statuses=("active",), limit=1
        ):
            return None
        elsewhere: list[tuple[GameRow, Chat]] = []
        for row in await self.db.games.list_games(user_id=stored.id, statuses=("active",)):
            chat = await self._chat(row.chat_id)
            if chat.platform == user.platform and (here is None or chat.id != here.id):
                elsewhere.append((row, chat))
        if len(elsewhere) > 1:  # as in a group: games still played, that take the command
            kept = {row.id for row in await self._still_in([r for r, _ in elsewhere], stored.id)}
            elsewhere = [(r, c) for r, c in elsewhere if r.id in kept] or elsewhere
            taking = {row.id for row in await self._taking([r for r, _ in elsewhere], name)}
            elsewhere = [(r, c) for r, c in elsewhere if r.id in taking]
        if len(elsewhere) > 1 and name in MOVE_COMMANDS:
            waiting = [(row, c) for row, c in elsewhere if await self._waits_for(row, stored.id)]
            elsewhere = waiting if len(waiting) == 1 else elsewhere
        if not elsewhere:
            return None
        if len(elsewhere) == 1:
            return ChatRef(user.platform, elsewhere[0][1].platform_chat_id)
        ids = sorted(row.id for row, _chat in elsewhere)
        shown = ", ".join(f"#{game}" for game in ids[:SHOWN_IDS])
        if len(ids) > SHOWN_IDS:
            shown += f" and {len(ids) - SHOWN_IDS} more; /games lists them"
        return (
            f"You are in several games in groups ({shown}); say which with game=<id>, "
            f"e.g. {clip(' '.join(typed.split()), 60)} game={ids[0]}"
        )

    async def plays_here(self, chat: ChatRef, user: UserRef) -> bool:
        """Return True when `user` is seated in a running game of `chat`.

        A front end asks before it answers a word that other bots of a group may own (/skip).
        """
        person = await self.db.users.get_user_by_platform_id(user.platform, user.user_id)
        where = await self.db.chats.get_chat_by_platform_id(chat.platform, chat.chat_id)
        if person is None or where is None:
            return False
        return bool(
            await self.db.games.list_games(
                chat_id=where.id, user_id=person.id, statuses=("active",), limit=1
            )
        )

    async def pass_question(self, chat: ChatRef, user: UserRef, game_id: int) -> tuple[bool, str]:
        """Return (True, what to ask) when game `game_id` waits for `user`, else (False, why not).

        A button that asks before it acts (Pass: "Yes, pass") asks only the player it would
        act for, and says what the pass would do ("A pass now ends the game."); anyone else
        gets the refusal the move itself would get. Nothing is changed.
        """
        ctx = await self._context(chat, user)
        try:
            table = await self._table(await self._find_game(ctx, game_id, ("active",)))
            seat_no = table.seat_of(ctx.user.id)
            if seat_no is None:
                raise _not_playing(game_id)
        except GameError as error:
            return False, error.message
        if table.state is not None and seat_no not in table.gdef.seats_in_game(table.state):
            return False, _out_of(table.row.id).message  # resigned, or out on passes
        if table.state is None or seat_no not in table.state.waiting_for():
            return False, self._not_yours(table, "wait for it.")
        try:  # a pass the rules refuse (Numfeud at 20 tiles) is refused now, not after "Yes"
            table.state.apply(seat_no, table.gdef.parse_move("pass"))
        except GameError as error:
            return False, error.message
        return True, f"Pass your turn in game #{game_id}?" + _warned(
            _pass_warning(table, table.state)
        )

    @property
    def bots_stalled(self) -> bool:
        """Whether some game's bots failed to move and wait for `resume_bots`."""
        return bool(self._stalled)

    async def resume_bots(
        self, *, stalled_only: bool = False, platforms: Sequence[str] | None = None
    ) -> list[Reply]:
        """Let bot seats move in active games where a bot is to move.

        At start-up every active game is looked at (the process may have died between a
        person's move and the bot's answer); with `stalled_only`, only the games whose bots
        failed to move since (`_run_bots` notes them), which the deadline loop retries. With
        `platforms`, only games in chats of those platforms (another process serves the rest).
        """
        replies: list[Reply] = []
        if stalled_only:
            rows = []
            for game_id in sorted(self._stalled):
                if row := await self.db.games.get_game(game_id):
                    rows.append(row)
                else:
                    self._stalled.discard(game_id)
        else:
            rows = await self.db.games.list_games(statuses=("active",), limit=None)
        for row in rows:
            if platforms is not None and (await self._chat(row.chat_id)).platform not in platforms:
                continue  # (nor is it taken off `_stalled`: the other platform's loop retries it)
            self._stalled.discard(row.id)
            async with self._lock(row.id):
                fresh = await self._reload(row)
                if fresh.status != "active":
                    continue
                table = await self._table(fresh)
                if table.state is not None:
                    replies += await self._with_bots(table, table.state, [])
        return _settle_turn_notices(replies)

    async def _run(self, ctx: _Ctx, command: Command) -> list[Reply]:
        handler = getattr(self, f"_cmd_{command.name}")
        ctx = replace(ctx, command=command.name)
        try:
            replies = cast(list[Reply], await handler(ctx, command))
        except GameError as error:
            return [self._error(ctx, error)]
        return _settle_turn_notices(replies, asker=ctx.user.id)

    def _error(self, ctx: _Ctx, error: GameError) -> Reply:
        reason = _reason(error)
        return Reply(
            ctx.to_user,
            error.message,
            event={"type": "error", "reason": reason, "message": error.message},
        )

    async def remember(self, user: UserRef) -> User:
        """Store a person under the name the others see, and return them as stored.

        The adapters store the people a command names (a Discord member picked, a Telegram
        user picked from the mention menu) through it too, so an invited "\u202ebob" is "bob"
        in the game's news before he has written a word, not a name that reverses the text.
        """
        # A person whose chat name is a bot's ("bot-hard") is never shown as one: games and
        # leaderboards would read "bot-hard vs bot-hard". (The console refuses such names
        # instead, every time: it must keep seeing the name that was typed.)
        shown = visible_name(user.name) or "player"
        renamed = user.platform != CONSOLE and is_bot_name(shown)
        name = f"{shown}-person" if renamed else shown
        stored = await self.db.users.upsert_user(
            user.platform, user.user_id, name, handle=user.handle, now=self.clock()
        )
        self._names[stored.id] = stored
        return stored

    async def _context(self, chat: ChatRef, user: UserRef) -> _Ctx:
        # One entry per person, checked against the name and handle they come with now: keyed
        # by the name too, a name changed and changed back ("Caro", then "Carol" again) found
        # the first one cached and left "Caro" stored and shown for good.
        ukey = (user.platform, user.user_id)
        cached = self._users.get(ukey)
        if cached is not None and cached[:2] == (user.name, user.handle):
            stored_user = cached[2]
        else:
            stored_user = await self.remember(user)
            self._users[ukey] = (user.name, user.handle, stored_user)
        parent = None
        if chat.parent_id is not None:
            parent = await self._stored_chat(chat.platform, chat.parent_id, chat.parent_title)
        stored_chat = await self._stored_chat(
            chat.platform, chat.chat_id, chat.title, None if parent is None else parent.id
        )
        thread_id = None if chat.private else chat.thread_id
        return _Ctx(stored_chat, stored_user, user, chat.private, thread_id=thread_id)

    async def _stored_chat(
        self, platform: str, chat_id: str, title: str | None, parent_id: int | None = None
    ) -> Chat:
        """Return a chat as stored, stored first when new, newly titled or newly a part of one.

        A None title keeps the stored one (a routed command's ref), as a None parent does.
        """
        stored = self._chats.get(platform, chat_id)
        if (
            stored is None
            or title not in (None, stored.title)
            or parent_id not in (None, stored.parent_id)
        ):
            stored = await self.db.chats.upsert_chat(
                platform, chat_id, title, parent_id=parent_id, now=self.clock()
            )
            self._chats.put(stored)
        return stored

    def _lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        return lock

    # -- loading --

    async def _user(self, user_id: int) -> User | None:
        user = self._names.get(user_id)
        if user is None:
            user = await self.db.users.get_user(user_id)
            if user is not None:
                self._names[user_id] = user
        return user

    async def _table(self, row: GameRow) -> _Table:
        seats = self._seats.get(row.id)
        if seats is None:
            seats = tuple(await self.db.games.seats(row.id))
            if row.status == "active":  # seats change only in the lobby; ended games are rare
                if len(self._seats) >= SEATS_CACHED:  # the game cached first goes
                    del self._seats[next(iter(self._seats))]
                self._seats[row.id] = seats
        users: list[User | None] = []
        names: list[str] = []
        bots = bot_names(seats)
        for seat in seats:
            if seat.user_id is None:
                users.append(None)
                names.append(bots[seat.seat_no])
            else:
                user = await self._user(seat.user_id)
                users.append(user)
                names.append(user.display_name if user else f"player {seat.seat_no + 1}")
        state = load_state(row) if row.snapshot is not None else None
        chat = await self._chat(row.chat_id)
        return _Table(row, chat, seats, _told_apart(names), tuple(users), state)

    async def move_chat(self, platform: str, old_chat_id: str, new_chat_id: str) -> Chat | None:
        """Give a chat its new platform id (a Telegram group upgraded to a supergroup).

        Its games, results and deadlines follow; the cached chat is dropped, so replies go to
        the new id at once. Returns the chat, or None when the old id was never seen.
        """
        moved = await self.db.chats.move_chat(platform, old_chat_id, new_chat_id, now=self.clock())
        self._forget_chat(platform, old_chat_id)
        return moved

    async def chat_gone(self, platform: str, platform_chat_id: str) -> list[Reply]:
        """Cancel the games of a chat that was deleted (a Discord channel); tell their players.

        Nobody can play, resign or see them any more: cancelled, they count for nobody, and no
        deadline runs on to lose them on time. Each person seated hears it privately. Nothing
        when the chat had no game going on (or was never seen).
        """
        chat = await self._chat_by_platform_id(platform, platform_chat_id)
        if chat is None:
            return []
        replies = []
        rows = await self.db.games.list_games(
            chat_id=chat.id, statuses=("lobby", "active"), limit=None
        )
        for row in rows:
            async with self._lock(row.id):
                row = await self._reload(row)
                table = await self._table(row)
                if not await self._cancel(row):
                    continue  # it ended meanwhile
            people = {user.id: user for user in table.users if user is not None}
            text = (
                f"{_chat_named(chat)} was deleted, so {_game_named(table)} was cancelled: it can "
                "no longer be played, and counts for nobody."
            )
            event = {"type": "game_cancelled", "game_id": row.id, "by": None, "why": "chat gone"}
            replies += [Reply(_user_target(user), text, event=event) for user in people.values()]
        return replies

    async def news_for_players(self, reply: Reply, only: Collection[str] = ()) -> list[Reply]:
        """Return a game's public news, refused by its chat, as a private reply to each player.

        A Discord channel where the bot may not post (no Send Messages) still takes slash
        commands, whose answers need no such right, so its games go on; what the dispatcher
        posts there (a timeout, a reminder's mention) reaches the players this way instead,
        where they allow DMs. `only`: the platform ids of the users the news was for (a
        mention), else everyone seated. Nothing for news of no game.
        """
        game_id = reply.event.get("game_id")
        row = await self.db.games.get_game(game_id) if isinstance(game_id, int) else None
        if row is None:
            return []
        table = await self._table(row)
        note = (
            f"I may not post in {_chat_named(table.chat)} (a server admin can give me Send "
            f"Messages there), so this news of {_game_named(table, here=True)} comes here:"
        )
        people = {user.id: user for user in table.users if user is not None}
        return [
            replace(reply, to=_user_target(user), text=f"{note}\n{reply.text}", buttons=())
            for user in people.values()
            if not only or user.platform_user_id in only
        ]

    async def chat_away(
        self, platform: str, platform_chat_id: str, away: bool, *, muted: bool = False
    ) -> list[Reply]:
        """Note the bot out of a group (`away`: removed, or `muted` there) or back; say so.

        Away, the group's games keep their state and their deadlines are held, so nobody times
        out where nobody can see it; each player of a running game is told privately. Back,
        each deadline has the time it had left and the group is told which games go on. Said
        twice (Telegram tells a removal with its update and with a refused send), nothing.
        """
        chat = await self._chat_by_platform_id(platform, platform_chat_id)
        if chat is None:
            return []
        if (chat.away_since is not None) == away:
            if away and chat.muted != muted:  # out still, now for the other reason: no news
                await self.db.chats.set_away(chat.id, True, muted=muted)
                self._forget_chat(platform, platform_chat_id)
            return []
        since = chat.away_since
        chat = await self.db.chats.set_away(chat.id, away, now=self.clock(), muted=muted)
        self._forget_chat(platform, platform_chat_id)
        assert chat is not None  # it was just read
        if not away:
            assert since is not None  # it was away
            return await self._back_news(chat, since)
        rows = await self.db.games.list_games(chat_id=chat.id, statuses=("active",), limit=None)
        tables = [await self._table(row) for row in reversed(rows)]  # oldest first
        replies = []
        for table in tables:
            assert table.state is not None
            playing = table.gdef.seats_in_game(table.state)
            if muted:
                text = (
                    f"I may no longer write in {_chat_named(chat)} (an admin took that right "
                    f"from me), so {_game_named(table)} waits: its clock stands still, and "
                    "nobody's time runs out, until I may write there again."
                )
            else:
                text = (
                    f"I was removed from {_chat_named(chat)}, so {_game_named(table)} waits: "
                    "its clock stands still, and nobody's time runs out, until someone adds me "
                    "back there."
                )
            event = {"type": "chat_away", "game_id": table.row.id, "chat_id": chat.id}
            replies += [
                Reply(_user_target(user), text, event=event)
                for seat, user in enumerate(table.users)
                if user is not None and seat in playing
            ]
        return replies

    async def _back_news(self, chat: Chat, since: datetime) -> list[Reply]:
        """Tell a group the bot is back: its games that go on, and those that ended meanwhile.

        Each running game's board follows, as it stands now: the one shown before is stale
        (moves were played privately meanwhile).
        """
        rows = await self.db.games.list_games(chat_id=chat.id, statuses=("active",), limit=None)
        going = [await self._table(row) for row in reversed(rows)]  # oldest first
        rows = await self.db.games.list_games(chat_id=chat.id, statuses=("finished",))
        ended = [row for row in reversed(rows) if row.updated_at >= since]
        lines = []
        if going:
            games = and_list(f"#{t.row.id} ({t.gdef.title})" for t in going)
            what = f"game {games} goes" if len(going) == 1 else f"games {games} go"
            lines.append(
                f"I am back: {what} on, every turn with the time it had left when its clock "
                "stopped. /games shows them."
            )
        if ended:
            games = and_list(f"#{row.id} ({GAMES[row.game_key].title})" for row in ended)
            what = f"Game {games}" if len(ended) == 1 else f"Games {games}"
            lines.append(
                f"{'' if going else 'I am back. '}{what} ended while I was away: "
                f"/board game={ended[0].id} shows how."
            )
        if not lines:
            return []
        event: dict[str, Any] = {
            "type": "chat_back",
            "games": [t.row.id for t in going],
            "ended": [row.id for row in ended],
        }
        replies = [Reply(_chat_target(chat), "\n".join(lines), event=event)]
        for table in going:
            replies.append(await self._board_reply(table, _game_target(table)))
        return replies

    async def chat_heard(self, platform: str, platform_chat_id: str) -> list[Reply]:
        """Note a message from a group: a bot removed from it is back (it missed being added).

        A muted bot still hears its group: only being allowed to write again (`chat_away`)
        brings it back there.
        """
        chat = await self._chat_by_platform_id(platform, platform_chat_id)
        if chat is None or chat.away_since is None or chat.muted:
            return []
        return await self.chat_away(platform, platform_chat_id, False)

    async def _chat_by_platform_id(self, platform: str, platform_chat_id: str) -> Chat | None:
        """Return a chat by its platform id: from the cache (usually), else from storage."""
        chat = self._chats.get(platform, platform_chat_id)
        return chat or await self.db.chats.get_chat_by_platform_id(platform, platform_chat_id)

    def _forget_chat(self, platform: str, platform_chat_id: str) -> None:
        """Drop a chat from the cache, so that the next read sees what changed in it."""
        self._chats.drop(platform, str(platform_chat_id))

    async def _chat(self, chat_id: int) -> Chat:
        chat = self._chats.by_id(chat_id)
        if chat is not None:
            return chat
        stored = await self.db.chats.get_chat(chat_id)
        assert stored is not None  # games reference their chat
        self._chats.put(stored)
        return stored

    async def _find_game(
        self,
        ctx: _Ctx,
        game_id: int | None,
        statuses: Sequence[GameStatus],
        *,
        mine: bool = True,
        ended: bool = False,
        waiting_first: bool = False,
    ) -> GameRow:
        """Return the game a command means: `game=<id>` or the chat's only one for this user.

        A game named by id must be in one of `statuses` (or finished, with `ended`: a final
        board or rack may still be looked at); otherwise the refusal says what state it is in.
        `waiting_first` (a move): of several running games of the asker's, the one game that
        waits for them; commands that end or leave a game (/resign, /leave) always ask which.
        """
        if game_id is not None:
            row = await self.db.games.get_game(game_id)
            if row is not None and row.chat_id != ctx.chat.id and ctx.private:
                await self._played_elsewhere(ctx, row)
            if row is None or row.chat_id != ctx.chat.id:
                raise ServiceError(
                    "NO_SUCH_GAME",
                    f"There is no game #{game_id} in this chat; /games lists its games.",
                )
            if row.status not in statuses and not (ended and row.status == "finished"):
                if row.status == "lobby":
                    raise _not_started(row.id, short=await self._short_of(row))
                raise _not_in_status(row)
            return row
        wanted = tuple(statuses)
        rows = await self.db.games.list_games(
            chat_id=ctx.chat.id, user_id=ctx.user.id, statuses=wanted
        )
        if len(rows) > 1:  # a bare command means a game the asker still plays that takes it
            rows = await self._still_in(rows, ctx.user.id) or rows
            rows = await self._taking(rows, ctx.command)
            rows = _in_topic(rows, ctx.thread_id)
        if not mine and len(rows) != 1:
            rows = await self.db.games.list_games(chat_id=ctx.chat.id, statuses=wanted)
            rows = await self._taking(rows, ctx.command) if len(rows) > 1 else rows
            rows = _in_topic(rows, ctx.thread_id)
        if not rows:
            if "lobby" not in wanted:
                # The asker's own lobbies, which they can start; else (a look) the chat's,
                # which they can join.
                waiting = await self.db.games.list_games(
                    chat_id=ctx.chat.id, user_id=ctx.user.id, statuses=("lobby",)
                )
                own = bool(waiting)
                if not own and not mine:
                    waiting = await self.db.games.list_games(
                        chat_id=ctx.chat.id, statuses=("lobby",)
                    )
                if len(waiting) == 1 and own:
                    leaving = ctx.command == "resign"
                    short = await self._short_of(waiting[0])
                    raise _not_started(waiting[0].id, leaving=leaving, short=short)
                if len(waiting) == 1:
                    lobby = waiting[0].id
                    raise ServiceError(
                        "NOT_STARTED",
                        f"Game #{lobby} has not started yet; /join game={lobby} takes a seat.",
                    )
                if waiting:
                    ids = ", ".join(f"#{row.id}" for row in sorted(waiting, key=lambda r: r.id))
                    whose, then = (
                        ("Your games", "start one with /start game=<id>")
                        if own
                        else ("The games", "join one with /join game=<id>")
                    )
                    raise ServiceError(
                        "NOT_STARTED", f"{whose} here have not started yet ({ids}); {then}."
                    )
            # A final board, rack or history can still be seen: that of the last finished game
            # (right after the end is when players most want to look back).
            if ended:
                done = await self.db.games.list_games(
                    chat_id=ctx.chat.id,
                    user_id=ctx.user.id if mine else None,
                    statuses=("finished",),
                    limit=1,
                )
                if done:
                    return done[0]
                if ctx.private:  # a look back asked in the private chat: a group's game ended
                    last = await self.db.games.list_games(
                        user_id=ctx.user.id, statuses=("finished",), limit=1
                    )
                    if last:
                        raise ServiceError(
                            "NO_GAME",
                            f"No game of yours is going on; your last one was #{last[0].id}: "
                            f"add game={last[0].id}, e.g. /{ctx.command or 'board'} "
                            f"game={last[0].id}.",
                        )
            if mine:
                others = await self.db.games.list_games(
                    chat_id=ctx.chat.id, statuses=("active",), limit=SHOWN_IDS + 1
                )
                if others:  # somebody else's game is going on: an onlooker, not a newcomer
                    ids = ", ".join(f"#{row.id}" for row in sorted(others, key=lambda r: r.id))
                    raise ServiceError(
                        "NOT_A_PLAYER",
                        f"You are not playing here: the games going on ({ids}) are others'; "
                        "/board game=<id> shows one, /new starts your own.",
                    )
                over = await self.db.games.list_games(
                    chat_id=ctx.chat.id, user_id=ctx.user.id, statuses=("finished",), limit=1
                )
                here = " here" if over else ""
                if not over and ctx.private:  # a move sent privately for a group game
                    over = await self.db.games.list_games(
                        user_id=ctx.user.id, statuses=("finished",), limit=1
                    )
                # A private chat has room for bots only.
                start = "/new <game> bot=easy" if ctx.private else "/new <game> @player"
                if over:  # a move right after the end: say it ended, not "no game"
                    game_id = over[0].id
                    seats = await self.db.games.seats(game_id)
                    if any(seat.bot_level is not None for seat in seats):
                        start = "/new <game> bot=easy"  # as it was played: against a bot
                    again = f"play it again with /rematch game={game_id}, or " if here else ""
                    raise ServiceError(
                        "NO_GAME",
                        f"Your game #{game_id}{here} is over (/board game={game_id} shows "
                        f"how it ended); {again}start another with {start}.",
                    )
                if not ctx.private:
                    await self._playing_elsewhere(ctx)
                raise ServiceError(
                    "NO_GAME", f"You have no game in this chat. Start one with {start}."
                )
            if wanted == ("lobby",):  # /join
                running = await self.db.games.list_games(
                    chat_id=ctx.chat.id, statuses=("active",), limit=1
                )
                if running:  # the game filled up and started: say so, not "no game"
                    raise ServiceError(
                        "ALREADY_STARTED",
                        f"Game #{running[0].id} has already started, so it takes nobody new; "
                        "/new starts another.",
                    )
                raise ServiceError("NO_GAME", "There is no game to join here; start one with /new.")
            raise ServiceError("NO_GAME", "No game is going on here. Start one with /new <game>.")
        if len(rows) > 1 and waiting_first:
            # Several games of the asker's: a bare move means the one waiting for them.
            waiting = [row for row in rows if await self._waits_for(row, ctx.user.id)]
            if len(waiting) == 1:
                return waiting[0]
        if len(rows) > 1:
            # The list is the asker's own games unless the command looks at anybody's.
            raise _which_game(
                "You are in several games here" if mine else "This chat has several games", rows
            )
        return rows[0]

    async def _lobby_to_join(self, ctx: _Ctx) -> GameRow:
        """Return the game a bare /join means: the chat's one lobby the asker can join.

        Lobbies the asker sits in already, or that are full, are not meant; with none left, the
        answer says why (already seated; else the usual search's: full, started, no game).
        """
        joinable, seated = [], []
        for row in await self.db.games.list_games(chat_id=ctx.chat.id, statuses=("lobby",)):
            table = await self._table(row)
            if table.seat_of(ctx.user.id) is not None:
                seated.append(row.id)
            elif len(table.seats) < table.gdef.max_players:
                joinable.append(row)
        if len(joinable) > 1:
            raise _which_game("This chat has several games to join", joinable)
        if joinable:
            return joinable[0]
        if len(seated) == 1:
            raise ServiceError(
                "ALREADY_SEATED",
                f"You are already in game #{seated[0]}; /start game={seated[0]} begins it once it "
                "has its players.",
            )
        if seated:
            ids = and_list(f"#{game}" for game in sorted(seated)[:SHOWN_IDS])
            raise ServiceError(
                "ALREADY_SEATED",
                f"You are already in the games waiting here, {ids}; /start game=<id> begins one "
                "once it has its players.",
            )
        return await self._find_game(ctx, None, ("lobby",), mine=False)

    # -- lobby --

    async def _cmd_new(self, ctx: _Ctx, command: Command) -> list[Reply]:
        gdef = GAMES.get(command.game_key)
        if gdef is None:
            raise ServiceError("UNKNOWN_GAME", no_such_game(command.game_key))
        options = dict(command.options)
        seed_text = options.pop("seed", None)
        if seed_text is not None:
            if not (self.allow_seed or ctx.chat.platform == CONSOLE):
                raise ServiceError(
                    "SEED_NOT_ALLOWED",
                    f"seed= is switched off on this bot: leave it out, e.g. /new {gdef.key}.",
                )
            given = whole_number(seed_text)
            if given is None:
                raise CommandError(
                    f"seed={clip(seed_text)} is not a seed: a seed is a whole number of 0 or "
                    f"more, up to {MAX_DIGITS} digits, e.g. seed=42. {usage('new')}"
                )
            seed = given
        else:
            seed = self._rng.randrange(_SEED_RANGE)
        parsed = gdef.parse_options(options)
        await self._check_lobbies(ctx)
        if ctx.private and (command.players or command.player_ids):
            # Nobody else can read or write here: an invited person could never play.
            raise ServiceError(
                "PRIVATE_CHAT",
                "Only you and I are in this private chat: invite people in a group I am in; "
                f"here you can play bots, e.g. /new {gdef.key} bot=easy.",
            )
        # People counted once each: a person named twice (or the asker named) is then told so
        # below, not that the game is for fewer players.
        own = ctx.user.display_name.lstrip("@").casefold()
        people = {name.casefold() for name in command.players} - {own}
        member_ids = set(command.player_ids) - {ctx.ref.user_id}
        named = 1 + len(people) + len(member_ids) + len(command.bots)
        if named > gdef.max_players:  # before anyone named is looked up (or made, in a console)
            gdef.check_players(named)
        occupants: list[tuple[int | None, BotLevel | None]] = [(ctx.user.id, None)]
        invitees, strangers = await self._people_named(ctx, command)
        if bots := [name for name in strangers if name.casefold().endswith("bot")]:
            # Telegram's bots all have a name ending in "bot": mine, or another (never a player)
            raise ServiceError(
                "UNKNOWN_PLAYER",
                f"@{clip(bots[0], 32)} is a bot, not a player: to play me, add bot=easy, "
                f"bot=medium or bot=hard, e.g. /new {gdef.key} bot=easy.",
            )
        for invited in invitees:
            if invited.id == ctx.user.id:
                raise ServiceError(
                    "DUPLICATE_PLAYER",
                    "You take the first seat yourself: name only the others, e.g. "
                    f"/new {gdef.key} @friend. {usage('new')}",
                )
            if any(user_id == invited.id for user_id, _ in occupants):
                raise ServiceError(
                    "DUPLICATE_PLAYER",
                    f"@{shown_name(invited.display_name.lstrip('@'))} is in this game already."
                    f" {usage('new')}",
                )
            occupants.append((invited.id, None))
        occupants += [(None, cast(BotLevel, level)) for level in command.bots]
        if len(occupants) > gdef.max_players:  # names that looked alike were two people
            gdef.check_players(len(occupants))
        if ctx.private and len(occupants) < gdef.min_players:
            raise ServiceError(
                "PRIVATE_CHAT",
                f"{gdef.title} needs {gdef.min_players} players and nobody else can join this "
                f"private chat: add bots, e.g. /new {gdef.key} bot=easy.",
            )
        row = await self.db.games.create_game(
            ctx.chat.id,
            gdef.key,
            {**parsed, "seed": seed},
            ctx.user.id,
            occupants,
            now=self.clock(),
            thread_id=ctx.thread_id,
        )
        table = await self._table(row)
        seated = ", ".join(table.names)
        text = f"Game #{row.id} ({gdef.title}) created with {seated}."
        joinable = len(occupants) < gdef.max_players and not ctx.private
        if joinable:
            text += " Others can /join"
            if len(occupants) < gdef.min_players:
                text += "."
            elif len(occupants) == 1:  # NMBR 9 can be played alone: say so
                text += f"; /start game={row.id} starts it, alone if nobody has joined."
            else:
                text += f"; start it with /start game={row.id}."
        # Nobody else can join a private chat: a game there starts at once when it can.
        starts = len(occupants) == gdef.max_players or (
            ctx.private and len(occupants) >= gdef.min_players
        )
        if strangers:  # not yet known (Telegram's privacy mode): the game waits for them
            names = and_list(f"@{isolated(clip(name, 32))}" for name in strangers)
            text += (
                f" I do not know {names} yet (people are known once they have written to me):"
                f" tap Join, or /join game={row.id}."
            )
        if starts:
            text += await self._other_games_note(ctx, row.id)
        buttons = [Button("Join", f"join:{row.id}")] if joinable else []
        if gdef.min_players <= len(occupants) < gdef.max_players and not starts:
            buttons.append(Button("Start", f"start:{row.id}"))
        replies = [
            Reply(
                ctx.to_game(row),
                text,
                buttons=tuple(buttons),
                event={
                    "type": "game_created",
                    "game_id": row.id,
                    "game": gdef.key,
                    "players": list(table.names),
                    "options": parsed,
                },
            )
        ]
        if starts:
            async with self._lock(row.id):
                replies += await self._start(table)
        return replies

    async def _cmd_rematch(self, ctx: _Ctx, command: Command) -> list[Reply]:
        """Deal a finished game again: the same people, bots and options, the next one first."""
        if command.game_id is None:
            done = await self.db.games.list_games(
                chat_id=ctx.chat.id, user_id=ctx.user.id, statuses=("finished",), limit=1
            )
            if not done:
                raise ServiceError(
                    "NO_GAME",
                    "You have no finished game in this chat to play again; start one with "
                    "/new <game>.",
                )
            old = done[0]
        else:
            old = await self._find_game(ctx, command.game_id, ("finished", "active"))
            if old.status == "active":
                raise ServiceError(
                    "NOT_OVER",
                    f"Game #{old.id} is still being played; a rematch comes once it is over.",
                )
        async with self._lock(old.id):
            before = await self._table(old)
            if before.seat_of(ctx.user.id) is None:
                raise ServiceError(
                    "NOT_A_PLAYER",
                    f"Only the players of game #{old.id} can ask for its rematch; start a game "
                    "with /new <game>.",
                )
            for row in await self.db.games.list_games(
                chat_id=ctx.chat.id, statuses=("lobby", "active", "finished")
            ):
                if row.options.get(REMATCH_OF) == old.id:
                    raise ServiceError(
                        "ALREADY_REMATCHED",
                        f"Game #{row.id} is already the rematch of game #{old.id}; "
                        f"/board game={row.id} shows it.",
                    )
            gdef = before.gdef
            seats = before.seats[1:] + before.seats[:1]  # whoever played second goes first
            options = {
                **game_options(old),
                "seed": self._rng.randrange(_SEED_RANGE),
                REMATCH_OF: old.id,
            }
            row = await self.db.games.create_game(
                ctx.chat.id,
                gdef.key,
                options,
                ctx.user.id,
                [(seat.user_id, seat.bot_level) for seat in seats],
                now=self.clock(),
                thread_id=old.thread_id,  # where the game it replays lived
            )
        table = await self._table(row)
        async with self._lock(row.id):
            started, *rest = await self._start(table)
        return [
            replace(
                started,
                text=f"{_named(ctx.user)} asked for a rematch of game #{old.id}. " + started.text,
                event={**started.event, "rematch_of": old.id},
            ),
            *rest,
        ]

    async def _people_named(self, ctx: _Ctx, command: Command) -> tuple[list[User], list[str]]:
        """Return the people a command names (@names, Discord members), and unknown @names."""
        people, strangers = [], []
        for name in command.players:
            user = await self._invitee(ctx, name)
            if user is None:
                strangers.append(name)
            else:
                people.append(user)
        for platform_id in command.player_ids:
            user = await self.db.users.get_user_by_platform_id(ctx.chat.platform, platform_id)
            if user is None:  # the adapter stores a member it names before asking
                raise ServiceError("UNKNOWN_PLAYER", "I do not know that member yet.")
            people.append(user)
        for user in people:  # read just now: as the adapter stored them (renamed meanwhile)
            self._names[user.id] = user
        return people, strangers

    async def _invitee(self, ctx: _Ctx, name: str) -> User | None:
        if ctx.chat.platform == CONSOLE:
            # Local hot-seat players exist as soon as someone names them.
            user = await self.db.users.get_user_by_platform_id(CONSOLE, name.lower())
            if user is None:
                user = await self.db.users.upsert_user(
                    CONSOLE, name.lower(), name, now=self.clock()
                )
            return user
        return await self._person(ctx, name)

    async def _person(self, ctx: _Ctx, name: str) -> User | None:
        """Return the person an @name means: the one the platform tied it to, else by name.

        Typed (not picked from the platform's list), an @username is its holder's, wherever
        they play. A name shown is not one person's: the people who play or played in this
        chat come first, so another chat's Sam is meant only when nobody here goes by the name;
        of several, the one whose name is written exactly so. Past that it is asked about,
        never guessed.
        """
        platform_id = ctx.mentioned.get(name)
        if platform_id is not None:
            return await self.db.users.get_user_by_platform_id(ctx.chat.platform, platform_id)
        users = self.db.users
        everyone = await users.find_users_by_name(ctx.chat.platform, name)
        if not everyone or everyone[0].handle is not None:  # a handle is one person's
            return everyone[0] if everyone else None
        found = await users.find_users_by_name(ctx.chat.platform, name, chat_id=ctx.chat.id)
        here = bool(found)
        if not here:
            found = everyone
        if len(found) == 1:
            return found[0]
        exact = [user for user in found if user.display_name == name]
        if len(exact) == 1:
            return exact[0]
        named = isolated(clip(name, 32))
        who = f"{len(found)} people here go by {named}"
        if not here:
            who = f"Nobody here goes by {named}, and {len(found)} people elsewhere do"
        raise ServiceError(
            "AMBIGUOUS_PLAYER",
            f"{who}: type @ and pick the one you mean from the list of members, so I can tell"
            " them apart.",
        )

    async def _cmd_join(self, ctx: _Ctx, command: Command) -> list[Reply]:
        if command.game_id is None:
            row = await self._lobby_to_join(ctx)
        else:
            row = await self._find_game(ctx, command.game_id, ("lobby",), mine=False)
        async with self._lock(row.id):
            row = await self._reload(row)
            if row.status != "lobby":
                raise _not_in_status(row)
            table = await self._table(row)
            if table.seat_of(ctx.user.id) is not None:
                raise ServiceError(
                    "ALREADY_SEATED",
                    f"You are already in game #{row.id}; once it has its players, /start "
                    f"game={row.id} deals it (/leave game={row.id} gives up the seat).",
                )
            if len(table.seats) >= table.gdef.max_players:
                raise ServiceError("GAME_FULL", f"Game #{row.id} is full.")
            seat = await self.db.games.add_seat(
                row.id, ctx.user.id, expected_version=row.version, now=self.clock()
            )
            if seat is None:
                raise ServiceError("ALREADY_PLAYED", "The game changed meanwhile; try again.")
            row = await self._reload(row)
            table = await self._table(row)
            replies = [
                Reply(
                    ctx.to_game(row),
                    f"{_named(ctx.user)} joined game #{row.id} ({', '.join(table.names)}).",
                    event={
                        "type": "game_joined",
                        "game_id": row.id,
                        "player": ctx.user.display_name,
                    },
                )
            ]
            if len(table.seats) == table.gdef.max_players:
                replies += await self._start(table)
            return replies

    async def _cmd_leave(self, ctx: _Ctx, command: Command) -> list[Reply]:
        # A bare /leave means a lobby: only a seat not yet dealt can be left. A running game,
        # named or the asker's only one, gets the advice to /resign instead.
        named = command.game_id is not None
        statuses: tuple[GameStatus, ...] = ("lobby", "active") if named else ("lobby",)
        try:
            row = await self._find_game(ctx, command.game_id, statuses)
        except ServiceError as error:
            if named or error.reason not in ("NO_GAME", "NOT_A_PLAYER"):
                raise
            row = await self._find_game(ctx, None, ("lobby", "active"))
        async with self._lock(row.id):
            row = await self._reload(row)
            if row.status != "lobby":
                raise ServiceError(
                    "ALREADY_STARTED",
                    f"Game #{row.id} has started; to give up, /resign game={row.id}.",
                )
            table = await self._table(row)
            seat_no = table.seat_of(ctx.user.id)
            if seat_no is None:
                raise ServiceError(
                    "NOT_A_PLAYER", f"You are not in game #{row.id}, so there is no seat to leave."
                )
            ok = await self.db.games.remove_seat(
                row.id, seat_no, expected_version=row.version, now=self.clock()
            )
            if not ok:
                raise ServiceError("ALREADY_PLAYED", "The game changed meanwhile; try again.")
            row = await self._reload(row)
            after = await self._table(row)
            text = f"{_named(ctx.user)} left game #{row.id}."
            if after.host is None:
                await self._cancel(row)
                text += " Nobody is left, so it is cancelled."
            elif table.host is not None and table.host.id == ctx.user.id:
                text += f" {_named(after.host)} hosts it now (and may /cancel it)."
            return [
                Reply(
                    ctx.to_game(row),
                    text,
                    event={"type": "game_left", "game_id": row.id, "player": ctx.user.display_name},
                )
            ]

    async def _cmd_start(self, ctx: _Ctx, command: Command) -> list[Reply]:
        # A bare /start means a lobby (someone outside every lobby is pointed at the chat's
        # one, to /join it first); only when there is none is a running game said to be started.
        statuses: tuple[GameStatus, ...] = ("lobby", "active")
        if command.game_id is None and await self.db.games.list_games(
            chat_id=ctx.chat.id, statuses=("lobby",), limit=1
        ):
            statuses = ("lobby",)
        row = await self._find_game(ctx, command.game_id, statuses, mine=False)
        async with self._lock(row.id):
            row = await self._reload(row)
            if row.status != "lobby":
                raise _not_in_status(row)
            table = await self._table(row)
            if table.seat_of(ctx.user.id) is None:
                raise ServiceError(
                    "NOT_A_PLAYER",
                    f"You are not in game #{row.id}; /join game={row.id} first, then start it.",
                )
            gdef, seated = table.gdef, len(table.seats)
            if seated < gdef.min_players:
                raise ServiceError(
                    "BAD_PLAYER_COUNT",
                    f"{gdef.title} needs {plural(gdef.min_players, 'player')} and game #{row.id} "
                    f"has {seated}: others can /join game={row.id}, or /cancel it and play a bot:"
                    f" /new {gdef.key} bot=easy (a medium or hard bot plays stronger).",
                )
            replies = await self._start(table)
            note = await self._other_games_note(ctx, row.id)
            if note and replies:  # on the start's news, as /new's game line carries it
                replies[0] = replace(replies[0], text=replies[0].text + "\n" + note.strip())
            return replies

    async def _other_games_note(self, ctx: _Ctx, game_id: int) -> str:
        """Return " alice also plays #1 here: …" when the asker has other games here, else "".

        Said when a game of theirs starts beside others, since bare moves then mean the game
        that waits for them; in the game's news, which everybody reads, so it names them.
        """
        mine = await self.db.games.list_games(
            chat_id=ctx.chat.id, user_id=ctx.user.id, statuses=("active",)
        )
        running = [
            other.id for other in await self._still_in(mine, ctx.user.id) if other.id != game_id
        ]
        if not running:
            return ""
        ids = ", ".join(f"#{i}" for i in sorted(running)[:SHOWN_IDS])
        return (
            f" {_named(ctx.user)} also plays {ids} here: a bare move goes to the game "
            "waiting for its player; add game=<id> when several are."
        )

    async def _start(self, table: _Table) -> list[Reply]:
        """Deal and start a lobby game (the caller holds the game's lock)."""
        row, gdef = table.row, table.gdef
        gdef.check_players(len(table.seats))
        state = initial_state(row, len(table.seats))
        now = self.clock()
        ok = await self.db.games.start_game(
            row.id,
            row.version,
            _dump(state),
            state.turn,
            self._deadlines(table, state, now),
            now=now,
        )
        if not ok:
            raise ServiceError("ALREADY_STARTED", f"Game #{row.id} has already started.")
        row = replace(
            row, status="active", version=row.version + 1, snapshot=_dump(state), turn=state.turn
        )
        table = replace(table, row=row, state=state)
        to_move = self._to_move_names(table, state)
        players = " vs ".join(table.names)
        text = f"Game #{row.id} ({gdef.title}) has started: {players}. "
        text += f"{self._turn_text(table, state, None)}."
        how = gdef.how_to_move()
        if how:  # for newcomers: how a move is written, and where the rest is
            text += f"\n{how} /rules {gdef.key} has the rest."
        replies = [
            Reply(
                _game_target(table),
                text,
                images=await self._news_images(table, state),
                buttons=_play_buttons(row.id),
                event={
                    "type": "game_started",
                    "game_id": row.id,
                    "game": gdef.key,
                    "players": list(table.names),
                    "to_move": to_move,
                    "view": _public_view(state),
                },
            )
        ]
        for seat in table.seats:
            if seat.user_id is not None:
                replies.append(await self._rack_reply(table, state, seat.seat_no))
        replies += self._turn_notices(table, state, None)
        return await self._with_bots(table, state, replies)

    async def _cmd_cancel(self, ctx: _Ctx, command: Command) -> list[Reply]:
        # An admin may cancel anybody's game: the chat's only one needs no game=<id>.
        if command.game_id is None and not ctx.ref.is_admin:
            row = await self._game_to_cancel(ctx)
        else:
            row = await self._find_game(
                ctx, command.game_id, ("lobby", "active"), mine=not ctx.ref.is_admin
            )
        async with self._lock(row.id):
            row = await self._reload(row)
            if row.status not in ("lobby", "active"):
                raise _not_in_status(row)
            table = await self._table(row)
            host = table.host
            # Once others play, a cancel would wipe their game and spare the host a loss: as in
            # the word apps, a started game is given up with /resign (an admin may still clean up).
            if _played_by_others(table) and not ctx.ref.is_admin:
                resign = (
                    f": give up with /resign game={row.id}"
                    if table.seat_of(ctx.user.id) is not None
                    else ""
                )
                raise ServiceError(
                    "NOT_ALLOWED",
                    f"Game #{row.id} has started with other players{resign}; only a chat admin "
                    "can cancel it now.",
                )
            if (host is None or host.id != ctx.user.id) and not ctx.ref.is_admin:
                by = f"{_named(host)}, who hosts it, or by " if host else ""
                raise ServiceError(
                    "NOT_ALLOWED", f"Game #{row.id} can be cancelled only by {by}a chat admin."
                )
            if not await self._cancel(row):
                raise ServiceError("ALREADY_PLAYED", "The game changed meanwhile; try again.")
        return [
            Reply(
                ctx.to_game(row),
                f"Game #{row.id} was cancelled by {_named(ctx.user)}.",
                event={"type": "game_cancelled", "game_id": row.id, "by": ctx.user.display_name},
            )
        ]

    async def _check_lobbies(self, ctx: _Ctx) -> None:
        """Refuse a /new from someone whose `LOBBIES_A_PERSON` lobbies here wait to start.

        Each lobby posts a message in the group, whose few messages a minute the news of
        everyone's games share: one person's flood of /new would hold them all up.
        """
        rows = await self.db.games.list_games(chat_id=ctx.chat.id, statuses=("lobby",), limit=None)
        mine = sorted(r.id for r in rows if r.creator_user_id == ctx.user.id)
        if len(mine) >= LOBBIES_A_PERSON:
            raise ServiceError(
                "TOO_MANY_LOBBIES",
                f"You have {len(mine)} games waiting to start here ({_numbered(mine, SHOWN_IDS)}): "
                f"start one (/start game={mine[0]}) or /cancel one before making another.",
            )

    async def _game_to_cancel(self, ctx: _Ctx) -> GameRow:
        """Return the game a bare /cancel (not an admin's) means: of several, the one theirs to.

        As a bare /leave means the lobby, the only kind of game that can be left, a bare
        /cancel beside games already played with others (which only /resign ends) means the
        one game the asker hosts and may still cancel; of several such, it asks about those
        only, never offering a game it would then refuse.
        """
        rows = await self.db.games.list_games(
            chat_id=ctx.chat.id, user_id=ctx.user.id, statuses=("lobby", "active")
        )
        if len(rows) > 1:
            hosted = []
            for row in rows:
                table = await self._table(row)
                host = table.host
                if host is not None and host.id == ctx.user.id and not _played_by_others(table):
                    hosted.append(row)
            hosted = _in_topic(hosted, ctx.thread_id)
            if len(hosted) == 1:
                return hosted[0]
            if hosted:
                raise _which_game("You host several games here", hosted)
        return await self._find_game(ctx, None, ("lobby", "active"))

    async def _cancel(self, row: GameRow) -> bool:
        """Cancel game `row` as stored at its version; False when it changed (or ended) since."""
        if not await self.db.games.cancel_game(row.id, row.version, now=self.clock()):
            return False
        self._seats.pop(row.id, None)  # kept for running games only
        return True

    # -- moves --

    async def _cmd_play(self, ctx: _Ctx, command: Command) -> list[Reply]:
        return await self._play(ctx, command.game_id, command.text)

    async def _cmd_pass(self, ctx: _Ctx, command: Command) -> list[Reply]:
        return await self._play(ctx, command.game_id, "pass")

    async def _cmd_swap(self, ctx: _Ctx, command: Command) -> list[Reply]:
        return await self._play(ctx, command.game_id, f"swap {command.text}")

    async def _cmd_resign(self, ctx: _Ctx, command: Command) -> list[Reply]:
        return await self._play(ctx, command.game_id, "resign")

    async def _cmd_place(self, ctx: _Ctx, command: Command) -> list[Reply]:
        return await self._play(ctx, command.game_id, command.text, rounds_only=True)

    async def _play(
        self, ctx: _Ctx, game_id: int | None, text: str, *, rounds_only: bool = False
    ) -> list[Reply]:
        """Apply one move of the asking player, then let bot seats answer."""
        resigning = text.strip().lower() == "resign"  # allowed on any turn, in a named game
        if resigning:  # /play resign too: a resignation never guesses the game
            ctx = replace(ctx, command="resign")
        try:
            arrival = await self._playing_game(ctx, game_id)
        except ServiceError:
            # A timeout that ended the game (Webfeud, Numfeud) beat this move: say so.
            lost = await self._lost_on_time(ctx, game_id)
            if lost is None:
                raise
            raise ServiceError(
                "TIME_RAN_OUT",
                f"Your time ran out in game #{lost}, which ended the game, before this arrived; "
                f"nothing was played (see /board game={lost}).",
            ) from None
        for _ in range(COMMIT_TRIES):
            async with self._lock(arrival.id):
                row = await self._reload(arrival)
                table = await self._table(row)
                seat_no = table.seat_of(ctx.user.id)
                if seat_no is None:
                    raise _not_playing(row.id)
                moved = row.version != arrival.version and _moved_since(
                    arrival, table.state, seat_no
                )
                waiting = table.state is not None and seat_no in table.state.waiting_for()
                if resigning:  # allowed on any turn: nothing came too late
                    moved, waiting = False, True
                if (
                    (moved or not waiting)
                    and await self._ran_out(row.id, seat_no)
                    and await self._first_late_move(row, seat_no)  # told once: then the usual word
                ):
                    raise ServiceError(
                        "TIME_RAN_OUT",
                        f"Your time ran out in game #{row.id} before this arrived; nothing was "
                        "played (see /board).",
                    )
                if waiting and not resigning and await self._overdue(table, seat_no):
                    # The deadline passed and nothing applied it yet (a restart's first moments, a
                    # move a hair late): it is applied now, as the dispatcher would, and the move
                    # is late; the player's next move plays (told once, as `_first_late_move`).
                    assert table.state is not None
                    told = await self._time_out(table, table.state, seat_no)
                    for timeout in await self.db.games.moves(row.id, seat_no=seat_no, last=1):
                        await self._told_late(row.id, seat_no, timeout.seq)
                    late = ServiceError(
                        "TIME_RAN_OUT",
                        f"Your time ran out in game #{row.id} before this arrived "
                        f"({table.gdef.missed_deadline(done=True)}); what you sent was not played "
                        "(see /board).",
                    )
                    return [self._error(ctx, late), *told]
                if waiting and not resigning and await self._first_late_move(row, seat_no):
                    again = (
                        "The next round's tile is yours to place now (/moves)."
                        if table.state is not None and table.gdef.round_of(table.state) is not None
                        else "It is your move again: send it again to play it now."
                    )
                    raise ServiceError(
                        "TIME_RAN_OUT",
                        f"Your time ran out in game #{row.id} before this arrived "
                        f"({table.gdef.missed_deadline(done=True)}); what you sent was not played. "
                        + again,
                    )
                if moved:
                    raise _already_played(row.id)
                if resigning and row.status == "lobby":
                    raise _not_started(row.id, leaving=True)
                if row.status != "active" or table.state is None:
                    raise _not_in_status(row)
                if seat_no not in table.gdef.seats_in_game(table.state):
                    raise _out_of(row.id)  # resigned, or out on passes: the same words everywhere
                if rounds_only and table.gdef.round_of(table.state) is None:
                    raise _place_elsewhere(table.gdef)
                move = await self._assisted(table, seat_no, table.gdef.parse_move(text))
                state = self._apply(table, table.state, seat_no, move, "wait for it.")
                try:
                    if table.gdef.draft_step(table.state, state):
                        return await self._commit_draft(table, state, seat_no, move)
                    replies = await self._commit(table, state, seat_no, move, "move")
                except _StaleGame:
                    # Another process (a second bot or console on the same file) changed the
                    # game since it was read: read it again; the move may still stand (NMBR 9's
                    # placements at once, a resignation out of turn).
                    continue
                table = replace(table, row=_advanced(table.row, state), state=state)
                replies = await self._with_bots(table, state, replies)
                if table.chat.away_since is not None:  # played privately while the bot is out
                    unseen = (
                        f"I cannot write in {_chat_named(table.chat)} now, so the group does not "
                        "see this move; the game's clock stands still until I can again."
                    )
                    replies.append(Reply(ctx.to_user, unseen, event={"type": "chat_away"}))
                return replies
        raise _already_played(arrival.id)  # changed elsewhere each time it was tried

    async def _waits_for(self, row: GameRow, user_id: int) -> bool:
        """Return whether running game `row` waits for `user_id` to move (or place)."""
        if row.status != "active":
            return False
        table = await self._table(row)
        seat = table.seat_of(user_id)
        return seat is not None and table.state is not None and seat in table.state.waiting_for()

    async def _still_in(self, rows: Sequence[GameRow], user_id: int) -> list[GameRow]:
        """Return the games of `rows` that `user_id` has not left (resigned, out on passes)."""
        out = []
        for row in rows:
            table = await self._table(row)
            seat = table.seat_of(user_id)
            state = table.state
            if state is None or (seat is not None and seat in table.gdef.seats_in_game(state)):
                out.append(row)
        return out

    async def _taking(self, rows: Sequence[GameRow], command: str) -> list[GameRow]:
        """Return the games of `rows` that have a use for `command` (`takes`).

        If none has, the first one: asking which of them is meant would lead nowhere, while
        any of them answers whose command it is ("/moves belongs to NMBR 9; …").
        """
        if command not in OWN_MOVES:
            return list(rows)
        taking = []
        for row in rows:
            table = await self._table(row)
            if takes(table.gdef, table.state, command):
                taking.append(row)
        return taking or list(rows[:1])

    async def _playing_game(self, ctx: _Ctx, game_id: int | None) -> GameRow:
        """Return the game a move means: `game=<id>`, else the asker's running game here.

        Of several running games, a move (`MOVE_COMMANDS`) means the one waiting for the asker;
        /resign asks which.

        A lobby takes no moves, so it does not make a bare move ambiguous (as /try, /rack and
        /board, which look at running games, agree); with no game running, the asker's lobby is
        found, to be refused as not started yet.
        """
        if game_id is None:
            try:
                return await self._find_game(
                    ctx, None, ("active",), waiting_first=ctx.command in MOVE_COMMANDS
                )
            except ServiceError as error:
                if error.reason != "NO_GAME":
                    raise
        return await self._find_game(ctx, game_id, ("lobby", "active"))

    async def _playing_elsewhere(self, ctx: _Ctx) -> None:
        """Refuse a command for no game here from someone playing in other groups: go there."""
        rows = await self.db.games.list_games(
            user_id=ctx.user.id, statuses=("active",), limit=SHOWN_IDS + 1
        )
        tables = [
            await self._table(row)
            for row in await self._still_in(rows, ctx.user.id)
            if row.chat_id != ctx.chat.id
        ]
        if not tables:
            return
        send = f"/{ctx.command or 'board'}"
        if len(tables) == 1:
            table = tables[0]
            where = _where_played(table) or " in another chat"
            raise ServiceError(
                "NO_GAME",
                f"You have no game in this chat: your game #{table.row.id} "
                f"({table.gdef.title}) is played{where}; send {send} there.",
            )
        listed = ", ".join(f"#{t.row.id}{_where_played(t)}" for t in tables[:SHOWN_IDS])
        raise ServiceError(
            "NO_GAME",
            f"You have no game in this chat: yours are played in other chats ({listed}); "
            f"send {send} in the one you mean (/games there lists its games).",
        )

    async def _played_elsewhere(self, ctx: _Ctx, row: GameRow) -> None:
        """Refuse a command typed privately about a game of the asker's in a group: go there.

        (Moves and looks are carried to the group, `private_route`; /rematch, /leave and the
        like belong to the group's people and are sent there.)
        """
        if all(seat.user_id != ctx.user.id for seat in await self.db.games.seats(row.id)):
            return
        chat = await self._chat(row.chat_id)
        where = f"in {_titled(chat)}" if chat.title else "in a group"
        raise ServiceError(
            "NO_SUCH_GAME",
            f"Game #{row.id} is played {where}, not in this private chat: send "
            f"/{ctx.command or 'board'} game={row.id} there.",
        )

    async def _lost_on_time(self, ctx: _Ctx, game_id: int | None) -> int | None:
        """Return the asker's game here that their own timeout ended, if a move meant it.

        That is the game named, or else their last finished game in this chat when no game of
        theirs is going on here.
        """
        if game_id is not None:
            row = await self.db.games.get_game(game_id)
        else:
            going = await self.db.games.list_games(
                chat_id=ctx.chat.id, user_id=ctx.user.id, statuses=("lobby", "active"), limit=1
            )
            done = await self.db.games.list_games(
                chat_id=ctx.chat.id, user_id=ctx.user.id, statuses=("finished",), limit=1
            )
            row = done[0] if done and not going else None
        if row is None or row.chat_id != ctx.chat.id or row.status != "finished":
            return None
        seat_no = (await self._table(row)).seat_of(ctx.user.id)
        if seat_no is None or not await self._ran_out(row.id, seat_no):
            return None
        return row.id

    async def _first_late_move(self, row: GameRow, seat_no: int) -> bool:
        """Return True, once, for a move that came just after its deadline acted for the seat.

        The turn (or NMBR 9's round) may be the player's again already: the next round, or a
        bot or a quick opponent answered the timeout. A move sent for the turn that ran out
        would then be played on the new one (a placement meant for another tile, a second
        pass). So the first move of the seat within `LATE_MOVE_GRACE` of its timeout (a quarter
        of the turn's time at most: a short timer's turn comes back at once, and is answered as
        quickly) is refused and the player told; the next one plays.
        """
        grace = LATE_MOVE_GRACE
        limit = GAMES[row.game_key].turn_timeout(game_options(row))
        if limit is not None:
            grace = min(grace, limit / LATE_MOVE_SHARE)
        now = self.clock()
        # A stamp in the future (the machine's clock was set back since) is not "a moment ago".
        if not timedelta(0) <= now - row.updated_at <= grace:
            return False  # nothing happened in the game lately, no timeout either
        for move in await self.db.games.moves(row.id, seat_no=seat_no, last=1):
            late = move.notation == "timeout" and timedelta(0) <= now - move.created_at <= grace
            if late and await self._told_late(row.id, seat_no, move.seq):
                return True
        return False

    async def _told_late(self, game_id: int, seat_no: int, seq: int) -> bool:
        """Note that the seat was told its timeout (move `seq`) came first; True the first time."""
        return await self.db.notices.first_notice(game_id, f"seat {seat_no}", f"late {seq}")

    async def _ran_out(self, game_id: int, seat_no: int) -> bool:
        """Return True when `seat_no` missed the deadline that the game's last moves applied.

        (An NMBR 9 round deadline stores one timeout for each seat that missed it.)
        """
        for move in reversed(await self.db.games.moves(game_id)):
            if move.notation != "timeout":
                return False
            if move.seat_no == seat_no:
                return True
        return False

    def _apply(
        self,
        table: _Table,
        state: GameState,
        seat_no: int,
        move: Move,
        meanwhile: str,
        *,
        trying: bool = False,
    ) -> GameState:
        """Return `state` after a person's move; a refusal names whom they wait for.

        The rules core knows no names; `meanwhile` ends an out-of-turn refusal ("wait for it.").
        `trying`: the game's `try_move` for /try, which stores nothing.
        """
        try:
            if trying:
                return table.gdef.try_move(state, seat_no, move)
            return state.apply(seat_no, move)
        except RuleError as error:
            if error.reason is Reason.NOT_YOUR_TURN:
                raise RuleError(error.reason, self._not_yours(table, meanwhile)) from error
            if error.reason is Reason.ALREADY_PLACED:
                waiting = [table.names[s] for s in state.waiting_for()]
                verb = "has" if len(waiting) == 1 else "have"
                raise RuleError(
                    error.reason,
                    f"You have placed this round's tile in game #{table.row.id} already; the "
                    f"next card comes when {and_list(waiting)} {verb} placed theirs.",
                ) from error
            raise

    async def _commit(
        self, table: _Table, state: GameState, seat_no: int, move: Move | None, kind: str
    ) -> list[Reply]:
        """Store one move in one transaction and describe it (the caller holds the lock)."""
        row, now, before = table.row, self.clock(), table.state
        over = state.outcome is not None
        results = self._results(table, state) if over else None
        board_before = await self._standings(table) if over else {}
        notation = "timeout" if move is None else str(move)
        keep = not over and _round_goes_on(table.gdef, before, state)
        # A move that leaves the same player to move (a resignation out of turn, a conditional
        # quit) keeps their clock: the new turn's deadlines are due when theirs were.
        aside = before is not None and _same_mover(table.gdef, before, state, seat_no)
        kept = await self._timeout(row.id) if aside and not over else None
        ok = await self.db.games.commit_move(
            row.id,
            row.version,
            seat_no,
            notation,
            {"kind": kind, "turn": state.turn},
            _dump(state),
            state.turn,
            "finished" if over else "active",
            () if over or keep else self._deadlines(table, state, now, kept=kept),
            results,
            now=now,
            keep_deadlines=keep,
        )
        if not ok:
            raise _StaleGame(row.id)
        if over:
            self._seats.pop(row.id, None)  # kept for running games only
        table = replace(table, row=_advanced(row, state), state=state)
        if table.gdef.round_of(state) is not None:
            return await self._round_replies(table, before, state, seat_no, kind, board_before)
        record = state.history[-1] if state.history else None
        public = record.text if record is not None else notation
        said = record.shown if record is not None else notation  # "pass: 3 in a row, out …"
        score = record.score if record is not None else 0
        player = table.names[seat_no]
        to_move = self._to_move_names(table, state)
        # A long Rummikub rearrangement shows its first steps: the board shows the rest.
        text = wrap_steps(f"#{row.id} {player}: {said}", width=HISTORY_WIDTH, lines=HISTORY_LINES)
        text += _points(score)
        # The last move's line leaves the scores to the game's end, told next: they may count
        # more than the move (Webfeud's racks left, a Rummikub rack that went out).
        text += "." if over else " — " + self._score_line(table, state)
        warning = "" if over else _pass_warning(table, state)
        if not over:
            text += f". {to_move} to move"
            named = warning.format(who=table.names[state.waiting_for()[0]]) if warning else ""
            text += f"; {named}." if named else "."
        replies = [await self._move_news(table, state, text, seat_no, public, score, kind)]
        user = table.users[seat_no]
        if public == LOST_TURN and user is not None and before is not None and move is not None:
            replies.append(self._why_turn_lost(table, before, seat_no, move))
        if (
            not over
            and user is not None
            and before is not None
            and before.rack(seat_no) != state.rack(seat_no)
        ):
            replies.append(await self._rack_reply(table, state, seat_no, before=before))
        if over:
            replies.append(await self._game_over(table, state, board_before))
        elif not aside:  # nobody was handed the turn by a move out of turn
            replies += self._turn_notices(table, state, seat_no, warning=warning)
        return replies

    def _why_turn_lost(self, table: _Table, before: GameState, seat_no: int, move: Move) -> Reply:
        """Tell the player alone which word lost them the turn (pro mode): the news cannot."""
        try:
            table.gdef.try_move(before, seat_no, move)
            why = "a word is not in the dictionary."
        except GameError as error:  # "MUL is not in the dictionary. In pro mode, …"
            why = error.message
        text = f"Your move in game #{table.row.id}, {move}, lost the turn: {why}"
        user = table.users[seat_no]
        assert user is not None
        # A "preview" kind: it shows a move with the player's tiles, so it stays private.
        event = {"type": "preview", "game_id": table.row.id, "move": str(move), "lost": True}
        return Reply(_user_target(user), text, event=event)

    def _turn_notices(
        self, table: _Table, state: GameState, mover: int | None, *, warning: str | None = None
    ) -> list[Reply]:
        """Tell each person whose turn it now is, privately (what a game app's push does).

        Only in games played one seat at a time: a round of NMBR 9 already sends everyone their
        tile. The adapters deliver it as a DM, or as a mention in the game's chat. `warning`:
        `_pass_warning` of `state`, when the caller has it already.
        """
        if table.gdef.round_of(state) is not None or state.outcome is not None:
            return []
        last = state.history[-1] if state.history and mover is not None else None
        after = ""
        if last is not None:
            after = f", after {table.names[last.seat]}: {last.shown}{_points(last.score)}"
        text = f"Your turn in {_game_named(table)}{after}."
        if warning is None:
            warning = _pass_warning(table, state)
        text += _warned(warning)
        return [
            _turn_notice(table, state, seat, text)
            for seat in state.waiting_for()
            if table.users[seat] is not None and seat != mover
        ]

    async def _move_news(
        self,
        table: _Table,
        state: GameState,
        text: str,
        seat_no: int,
        move: str,
        score: int,
        kind: str,
        **details: object,
    ) -> Reply:
        """Return the chat's news of a stored move (or timeout): text, board and its event."""
        over = state.outcome is not None
        return Reply(
            _game_target(table),
            text,
            images=await self._news_images(table, state),
            buttons=() if over else _play_buttons(table.row.id),
            event={
                "type": "timeout" if kind == "timeout" else "move_played",
                "game_id": table.row.id,
                "player": table.names[seat_no],
                "seat": seat_no,
                "move": move,
                "score": score,
                **details,
                "scores": list(state.scores),
                "players": list(table.names),
                "to_move": None if over else self._to_move_names(table, state),
                "turn": state.turn,
                "view": _public_view(state),
            },
        )

    async def _with_bots(
        self, table: _Table, state: GameState, replies: list[Reply]
    ) -> list[Reply]:
        """Return `replies` and the bots' moves that follow them.

        In a game of rounds the bots place the moment a round opens, unannounced: the news of
        a round that opens with bots to place comes without its board (`_news_images`), drawn
        here once they have placed, so that its panels do not show them still "to place" (the
        news' words name only the people). Should their moves end the game (they resign in turn
        once no person is left), the end shows its own board: the news shows the one it told.
        """
        told = replies + await self._run_bots(table, state)
        rounds = table.gdef.round_of(state) is not None
        if not (self.render and rounds and any(_undrawn(reply) for reply in told)):
            return told
        latest = await self._table(await self._reload(table.row))
        # Once the bots' moves ended the game, the end shows its board: this news, its own.
        shown = table if latest.state is None or latest.state.outcome is not None else latest
        assert shown.state is not None
        images = await self._board_images(shown, shown.state)
        return [replace(reply, images=images) if _undrawn(reply) else reply for reply in told]

    @staticmethod
    def _bots_place(table: _Table, state: GameState) -> bool:
        """Return whether bots are to place in a round that `state` has open."""
        return (
            state.outcome is None
            and table.gdef.round_of(state) is not None
            and any(table.seats[seat].bot_level is not None for seat in state.waiting_for())
        )

    async def _news_images(self, table: _Table, state: GameState) -> tuple[bytes | Image, ...]:
        """Return the board of a game's news, or none yet when `_with_bots` draws it."""
        if self._bots_place(table, state):
            return ()
        return await self._board_images(table, state)

    async def _run_bots(self, table: _Table, state: GameState) -> list[Reply]:
        """Let bot seats move until a person is to move or the game is over.

        Once no person is left in the game (they resigned, or ran out of passes or time, and
        the bots would play on), the bots resign instead, the lowest score first, so that the
        best of them wins at once rather than a whole game of bot moves filling the chat.
        """
        replies: list[Reply] = []
        try:
            for _ in range(BOT_MOVES_LIMIT):
                waiting = state.waiting_for()
                if state.outcome is not None or not waiting:
                    return replies
                in_game = table.gdef.seats_in_game(state)
                if all(table.seats[s].bot_level is not None for s in in_game):
                    standing = table.gdef.standing(state)
                    seat = table.seats[min(in_game, key=lambda s: (standing[s], -s))]
                    move = table.gdef.parse_move("resign")
                else:
                    bots = [s for s in waiting if table.seats[s].bot_level is not None]
                    if not bots:  # a person is to move (in a round, the bots have all placed)
                        return replies
                    seat = table.seats[bots[0]]
                    move = await self._bot_move(table, state, seat)
                new_state = state.apply(seat.seat_no, move)
                replies += await self._commit(table, new_state, seat.seat_no, move, "move")
                table = replace(table, row=_advanced(table.row, new_state), state=new_state)
                state = new_state
        except Exception:
            # What was committed (the person's move, earlier bot moves) stands and is told;
            # the game is noted, and the deadline loop lets its bots try again (`resume_bots`).
            log.exception("the bots of game %s could not move; retrying later", table.row.id)
            self._stalled.add(table.row.id)
            return replies
        raise RuntimeError(f"bots kept moving in game {table.row.id}")

    async def _bot_move(self, table: _Table, state: GameState, seat: Seat) -> Move:
        """Ask the AI for a bot seat's move (deterministic for a given game seed and turn).

        A bot must never hold a game up: if its level fails (an error, an illegal move), the
        easy level moves for it; if that fails too, it passes in the game's own way, and as a
        last resort it resigns.
        """
        level = seat.bot_level or "easy"
        seed = game_seed(table.row) * 1009 + state.turn
        from bot.ai import choose_move  # imported late: the AI is not needed to start up

        for tried in dict.fromkeys((level, "easy")):
            try:
                move = await asyncio.to_thread(choose_move, state, seat.seat_no, tried, seed)
                state.apply(seat.seat_no, move)
            except Exception:
                log.exception("the %s bot failed in game %s", tried, table.row.id)
                continue
            return move
        for word in ("pass", "skip", "resign"):  # every game has one of these
            try:
                move = table.gdef.parse_move(word)
                state.apply(seat.seat_no, move)
            except GameError:
                continue
            return move
        raise RuntimeError(f"no move at all for the bot of game {table.row.id}")

    # -- turns built in steps (Rummikub's draft), the Assist option and hints --

    async def _cmd_done(self, ctx: _Ctx, command: Command) -> list[Reply]:
        return await self._step_control(ctx, command, "done")

    async def _cmd_undo(self, ctx: _Ctx, command: Command) -> list[Reply]:
        return await self._step_control(ctx, command, "undo")

    async def _cmd_reset(self, ctx: _Ctx, command: Command) -> list[Reply]:
        return await self._step_control(ctx, command, "reset")

    async def _cmd_draw(self, ctx: _Ctx, command: Command) -> list[Reply]:
        return await self._step_control(ctx, command, "draw")

    async def _step_control(self, ctx: _Ctx, command: Command, word: str) -> list[Reply]:
        """Play a one-word move of games whose turns are built in steps (/done, /undo, …)."""
        row = await self._playing_game(ctx, command.game_id)
        gdef = GAMES[row.game_key]
        try:
            gdef.parse_move(word)
        except InvalidMove:
            raise ServiceError(
                "NOT_IN_THIS_GAME",
                f"/{word} belongs to Rummikub; {gdef.title} has no such move. See /rules "
                f"{gdef.key}.",
            ) from None
        return await self._play(ctx, row.id, word)

    async def _assisted(self, table: _Table, seat_no: int, move: Move) -> Move:
        """Return the move completed by the game's Assist when the game was made with it on."""
        if table.state is None or game_options(table.row).get("assist") != "on":
            return move
        from bot.ai import assist

        return await asyncio.to_thread(assist, table.state, seat_no, move)

    async def _commit_draft(
        self, table: _Table, state: GameState, seat_no: int, move: Move
    ) -> list[Reply]:
        """Store a step of a turn still being built and show the drafted table (lock held).

        The turn, whose turn it is and the turn's deadlines stay as they are; the step goes to
        the move log (kind ``draft``) so the log still replays to the snapshot.
        """
        row, before = table.row, table.state
        ok = await self.db.games.commit_move(
            row.id,
            row.version,
            seat_no,
            str(move),
            {"kind": "draft", "turn": state.turn},
            _dump(state),
            state.turn,
            "active",
            now=self.clock(),
            keep_deadlines=True,
        )
        if not ok:
            raise _StaleGame(row.id)
        table = replace(table, row=_advanced(row, state), state=state)
        view = _public_view(state)
        invalid = [
            {"meld": meld["number"], "tiles": meld["tiles"], "problem": meld["problem"]}
            for meld in view.get("melds", [])
            if not meld.get("valid", True)
        ]
        player = table.names[seat_no]
        text = f"#{row.id} {player} (draft): {move} — "
        if invalid:
            first = invalid[0]
            text += f"meld {first['meld']} ({' '.join(first['tiles'])}) {first['problem']}"
            if len(invalid) > 1:
                text += f"; {len(invalid) - 1} more invalid"
            text += ". Fix it, /undo or /reset."
        elif view.get("draft"):
            # Valid melds may still not make a turn (an initial meld under 30): the view says
            # why, as /done would (it ran /done once for its "ready").
            if view.get("ready"):
                text += "every meld is valid. /done ends your turn."
            else:
                # Everybody reads it: the "you" of the refusal is addressed by name.
                why = view["not_a_turn"]
                text += f"every meld is valid, but it is not a turn yet. {player}: "
                text += why[:1].lower() + why[1:]
        else:
            text += "nothing is drafted: the table is as the turn found it."
        replies = [
            Reply(
                _game_target(table),
                text,
                images=await self._board_images(table, state),
                event={
                    "type": "draft",
                    "game_id": row.id,
                    "player": player,
                    "players": list(table.names),  # the text table's tile counts name them
                    "seat": seat_no,
                    "move": str(move),
                    "turn": state.turn,
                    "to_move": self._to_move_names(table, state),
                    "invalid": invalid,
                    "view": view,
                },
            )
        ]
        if (
            table.users[seat_no] is not None
            and before is not None
            and before.rack(seat_no) != state.rack(seat_no)
        ):
            replies.append(await self._rack_reply(table, state, seat_no))
        return replies

    async def _cmd_hint(self, ctx: _Ctx, command: Command) -> list[Reply]:
        table, state, seat = await self._my_seat(ctx, command)
        row = table.row
        from bot.ai import HINTS

        gdef = table.gdef
        helper = HINTS.get(gdef.key)
        if helper is None:
            offering = and_list(GAMES[key].title for key in HINTS)
            raise ServiceError(
                "NOT_IN_THIS_GAME",
                f"/hint belongs to {offering} games made with assist=on; {gdef.title} has no "
                f"hints. See /rules {gdef.key}.",
            )
        if game_options(row).get("assist") != "on":
            raise ServiceError(
                "NOT_CASUAL",
                f"Hints are for casual games: game #{row.id} was made with assist=off. Start "
                f"one with e.g. /new {gdef.key} @player assist=on.",
            )
        if seat not in state.waiting_for():
            raise ServiceError("NOT_YOUR_TURN", self._not_yours(table, "ask for a hint on yours."))
        move = await asyncio.to_thread(helper, state, seat)
        if str(move) in SPECS:  # a move that is a command of its own: Rummikub's draw
            advice = f"nothing from your rack can be laid now, so /{move}."
        elif state.view(seat).get("draft"):  # the hint's line starts from the turn's table
            advice = f"/reset your draft, then /play {move}"
        else:
            advice = f"/play {move}"
        return [
            Reply(
                ctx.to_user,
                f"Hint for game #{row.id}, from the start of your turn: {advice}",
                event={"type": "hint", "game_id": row.id, "move": str(move)},
            )
        ]

    async def _cmd_nudge(self, ctx: _Ctx, command: Command) -> list[Reply]:
        """Remind whoever the game waits for, once a turn (a word app's nudge button)."""
        table, state, seat = await self._my_seat(ctx, command)
        row = table.row
        waiting = [s for s in state.waiting_for() if s != seat and table.users[s] is not None]
        rounds = table.gdef.round_of(state) is not None
        if not waiting:
            mine = seat in state.waiting_for()
            task = "place your tile" if rounds else "play your move"
            raise ServiceError(
                "NOBODY_TO_NUDGE",
                f"Game #{row.id} waits for you: {task}, nobody needs a nudge."
                if mine
                else f"Game #{row.id} waits for no person: the bots move at once.",
            )
        if table.chat.away_since is not None:  # held: no clock runs, and the group sees nothing
            raise ServiceError(
                "CHAT_AWAY",
                f"I cannot write in {_chat_named(table.chat)} now, so game #{row.id}'s clock "
                "stands still: nobody needs a nudge until I can again.",
            )
        # Each waiting person once a turn; in a round (NMBR 9), whoever is still to place and
        # was not nudged yet, so a nudge by one player does not use up another's.
        turn = _deadline_key(table.gdef, state)
        fresh = [
            s
            for s in waiting
            if await self.db.notices.first_notice(row.id, f"seat {s}", f"nudge {turn}")
        ]
        if not fresh:
            names = and_list(table.names[s] for s in waiting)
            when = "round" if rounds else "turn"
            raise ServiceError(
                "ALREADY_NUDGED",
                f"{names} got a nudge for this {when} of game #{row.id} already; one a {when}.",
            )
        waiting = fresh
        names = and_list(table.names[s] for s in waiting)
        left = await self._time_left(table, state)
        still = f"; {_left_words(left)}" if left is not None else ""
        nudger = _named(ctx.user)
        # A round (NMBR 9) waits for each player's tile, not for a turn.
        yours = "your tile" if rounds else "your turn"
        text = f"{nudger} nudges you: {yours} in {_game_named(table)}{still}."
        notices = [_turn_notice(table, state, s, text, nudge=nudger, task=yours) for s in waiting]
        said = f"{nudger} nudged {names} in game #{row.id}{still}."
        event = {"type": "nudged", "game_id": row.id, "players": [table.names[s] for s in waiting]}
        return [Reply(ctx.to_game(row), said, event=event), *notices]

    async def _cmd_try(self, ctx: _Ctx, command: Command) -> list[Reply]:
        """Say privately whether a move is legal and what it would score, and play nothing."""
        table, state, seat = await self._my_seat(ctx, command)
        row, gdef = table.row, table.gdef
        if not gdef.previews:
            offering = and_list(g.title for g in GAMES.values() if g.previews)
            raise ServiceError(
                "NOT_IN_THIS_GAME",
                f"/try belongs to {offering}; in {gdef.title} see /rules {gdef.key}.",
            )
        move = gdef.parse_move(command.text)
        after = self._apply(table, state, seat, move, "wait for it.", trying=True)
        # Off turn, as the word apps preview a move while the others play: on today's board.
        later = seat not in state.waiting_for()
        record = after.history[-1]
        if not record.cells:
            raise ServiceError(
                "NOTHING_TO_TRY",
                f"/try checks a move that lays tiles; {move} needs no check: /play {move}.",
            )
        formed = f" (words: {', '.join(record.words)})" if len(record.words) > 1 else ""
        verdict = (
            f"{record.shown}{formed} would score {record.score} in game #{row.id}"
            if gdef.scores_as_played
            else f"{record.shown} is legal in game #{row.id} ({gdef.title} scores at the end)"
        )
        if cost := gdef.move_cost(state, after, seat):
            verdict += f"; {cost}"
        if later:
            verdict += " on the board as it stands (it may change before your turn)"
        play = f"Play it on your turn with /play {move}" if later else f"Play it with /play {move}"
        return [
            Reply(
                ctx.to_user,
                f"{verdict}; nothing was played. {play}.",
                event={
                    "type": "preview",
                    "game_id": row.id,
                    "move": str(move),
                    "score": record.score,
                    "words": list(record.words),
                },
            )
        ]

    # -- simultaneous rounds (NMBR 9): every waiting seat moves privately, in any order --

    async def _cmd_moves(self, ctx: _Ctx, command: Command) -> list[Reply]:
        table, state, seat = await self._my_seat(ctx, command)
        row, gdef = table.row, table.gdef
        if gdef.round_of(state) is None:
            raise ServiceError(
                "NOT_IN_THIS_GAME",
                f"/moves belongs to NMBR 9; for {gdef.title} see /rules {gdef.key}.",
            )
        if seat not in state.waiting_for():
            raise ServiceError(
                "ALREADY_PLACED",
                f"You have placed this round's tile in game #{row.id}; wait for the next round.",
            )
        found = gdef.some_moves(state, seat)
        moves = [str(move) for move in found]
        listed = []
        for move in found:
            what = gdef.describe_suggestion(state, seat, move)  # "level 2, +16"
            listed.append(f"/place {move}" + (f" ({what})" if what else ""))
        text = (
            f"Some placements in game #{row.id}, highest level first: " + ", ".join(listed)
            if moves
            else f"Your tile fits nowhere in game #{row.id}: /place skip sets it aside."
        )
        # A hint of what to play stays private (Telegram never shows a "hint" in a group).
        return [Reply(ctx.to_user, text, event={"type": "hint", "game_id": row.id, "moves": moves})]

    async def _round_replies(
        self,
        table: _Table,
        before: GameState | None,
        state: GameState,
        seat_no: int,
        kind: str,
        board_before: Mapping[int, int],
    ) -> list[Reply]:
        """Describe a stored move of a game played in simultaneous rounds (lock held).

        While the round lasts the chat learns only who has moved, and the mover privately sees
        the move and their own board. The move that ends the round shows the chat every move of
        the round, the scores and all boards; then each person gets the next round privately.
        """
        row, gdef = table.row, table.gdef
        record = state.history[-1]
        player = table.names[seat_no]
        timed_out = kind == "timeout"
        resigned = "resign" in record.words
        over = state.outcome is not None
        user = table.users[seat_no]
        note = f"Your move: {record.shown} ({record.score:+d})."
        if not over and _round_goes_on(gdef, before, state):
            if user is None and not resigned:
                # A bot places the moment a round opens: a line per bot per round would flood
                # the chat (three bots, 60 lines a game); the panels and the round's end say it.
                return []
            if timed_out:
                # One deadline places every missing tile and the round's end names them all,
                # telling each player privately with the next round: a word now ("waiting
                # for" the others, whom the same deadline places next) would be untrue.
                return []
            if all(table.users[s] is None for s in state.waiting_for()):
                # The last person resigned and the bots left resign in turn: nobody plays on,
                # and the game's end, next, says so ("Waiting for nobody" would not).
                return []
            waiting = self._to_move_names(table, state)
            if resigned:
                text = f"#{row.id} {player}: resigned; the others play on"
            else:
                text = f"#{row.id} {player} has placed this round's tile"
            replies = [
                Reply(
                    _game_target(table),
                    f"{text}. Waiting for {waiting}.",
                    event={
                        "type": "resigned" if resigned else "placed",
                        "game_id": row.id,
                        "player": player,
                        "seat": seat_no,
                        "timeout": timed_out,
                        "round": gdef.round_of(state),
                        "to_move": waiting,
                        "turn": state.turn,
                    },
                )
            ]
            if user is not None and not resigned:
                replies.append(await self._round_rack(table, state, seat_no, note))
            return replies
        # The round (or the game) is over: everybody sees the round's moves.
        done = (gdef.round_of(before) if before is not None else None) or 0
        moves = _round_moves(state.history, done)
        # Everybody placed the same number: "round 3, the 9: alice L12 0 on level 1, …".
        view = _public_view(state)
        card = view["cards_seen"][done]
        played = ", ".join(
            f"{table.names[r.seat]} {r.shown.removeprefix(f'{card} at ')}"
            + _points(r.score)
            + (" (placed at the deadline)" if "deadline" in r.words else "")
            for r in moves
        )
        if resigned:
            # The bots that resigned in turn once no person was left (only the last one's move
            # ends the game, the others' said nothing) are all named here.
            quitters = [record.seat]
            for earlier in reversed(state.history[:-1] if user is None else ()):
                if "resign" not in earlier.words or table.users[earlier.seat] is not None:
                    break
                quitters.insert(0, earlier.seat)
            text = f"#{row.id} {and_list(table.names[s] for s in quitters)}: resigned"
            text += f"; round {done + 1}, the {card}: {played}" if played else ""
        else:
            text = f"#{row.id} round {done + 1}, the {card}: {played}"
        # As every game's last move: the end, told next, has the scores.
        text += "." if over else f" — {self._score_line(table, state)}."
        people_place = any(table.seats[s].bot_level is None for s in state.waiting_for())
        if not over and people_place:  # (with only bots left, they resign at once instead)
            text += f" Round {done + 2}: the card is {view.get('card')}; /place <cell> <rotation>."
        round_moves = [
            {
                "player": table.names[r.seat],
                "move": r.text,
                "score": r.score,
                "deadline": "deadline" in r.words,
            }
            for r in moves
        ]
        replies = [
            await self._move_news(
                table,
                state,
                text,
                seat_no,
                record.text,
                record.score,
                kind,
                round=done,
                moves=round_moves,
            )
        ]
        placed_for = {  # the tiles a deadline placed, each told to its player with the new round
            r.seat: (
                f"The round deadline of game #{row.id} passed, so your tile was placed for you: "
                f"{r.shown} ({r.score:+d})."
            )
            for r in moves
            if "deadline" in r.words
        }
        if over:
            replies.append(await self._game_over(table, state, board_before))
            if len(table.seats) == 1 and user is not None and not resigned:
                replies.append(await self._solo_record(table, state, user))
            # The last round's deadline is told too (the round's news only edits the board),
            # with the display as it ended.
            for seat in table.seats:
                if seat.user_id is not None and seat.seat_no in placed_for:
                    mine = placed_for[seat.seat_no]
                    replies.append(
                        await self._round_rack(table, state, seat.seat_no, mine, at_deadline=True)
                    )
            return replies
        playing = state.waiting_for()  # a new round: every seat still in the game places
        for seat in table.seats:
            if seat.user_id is not None and seat.seat_no in playing:
                placed = seat.seat_no in placed_for
                mine = placed_for.get(seat.seat_no, "")
                if seat.seat_no == seat_no and not (timed_out or resigned):
                    mine = note  # the last to place is told their move too, as the others were
                replies.append(
                    await self._round_rack(table, state, seat.seat_no, mine, at_deadline=placed)
                )
        return replies

    async def _round_rack(
        self, table: _Table, state: GameState, seat_no: int, note: str, *, at_deadline: bool = False
    ) -> Reply:
        """Return a seat's private view of the round: its own board and what is left to do.

        `note` goes first ("Your move: …"); `at_deadline` marks the note of a tile a round deadline
        placed, which the adapters tell the player about when they cannot write privately.
        """
        user = table.users[seat_no]
        assert user is not None
        view = state.view(seat_no)
        row = table.row
        gdef = table.gdef
        round_no = (gdef.round_of(state) or 0) + 1
        rounds = view.get("rounds", round_no)
        tiles = list(state.rack(seat_no))
        score = f"Your score: {view['scores'][seat_no]}." if "scores" in view else ""
        if state.outcome is not None:
            text = f"Your display in game #{row.id}: the game is over. {score}"
        elif seat_no not in gdef.seats_in_game(state):
            text = (
                f"Your display in game #{row.id} (round {round_no} of {rounds}): you resigned, "
                f"so you place no more tiles; the others play on. {score}"
            )
        elif tiles:
            # A placement that fits this display, to copy: the notation alone is abstract. Short
            # enough that a Telegram alert (200) also holds the private chat's link.
            fits = gdef.some_moves(state, seat_no, limit=1)
            how = f", e.g. /place {fits[0]}" if fits else ": /place <cell> <rotation>"
            text = (
                f"Your tile in game #{row.id} (round {round_no} of {rounds}): the "
                f"{' '.join(tiles)}. Place it by cell and turn{how}; /moves lists more. {score}"
            )
        else:
            text = (
                f"Your display in game #{row.id} (round {round_no} of {rounds}): you have placed "
                f"this round's tile; waiting for {self._to_move_names(table, state)}. {score}"
            )
        if note:
            text = f"{note} {text}"
        return Reply(
            _user_target(user),
            text.strip(),
            images=await self._render("rack", state, names=table.names, seat=seat_no),
            event={
                "type": "rack",
                "game_id": row.id,
                "player": table.names[seat_no],
                "tiles": tiles,
                "round": round_no,
                "timeout": at_deadline,
                "over": state.outcome is not None,
            },
        )

    async def _solo_record(self, table: _Table, state: GameState, user: User) -> Reply:
        """Tell the chat a solo player's personal record in this game after a finished game."""
        key, score = table.row.game_key, state.scores[0]
        earlier = await self.db.results.solo_records(key, user_id=user.id, excluding=table.row.id)
        best = max(score, earlier[0].best) if earlier else score  # this game counts too
        # Read in a group and in the player's private chat alike: no "their", no "your".
        text = f"Solo record in {table.gdef.title} for {_named(user)}: {best}."
        if not earlier:  # nothing was beaten yet: no "best yet!"
            text += " This first game sets it; the next ones try to beat it."
        elif score > earlier[0].best:
            text += f" This game's {score} is the best yet!"
        elif score == earlier[0].best:
            text += f" This game's {score} equals it."
        return Reply(
            _game_target(table),
            text,
            event={
                "type": "solo_record",
                "game_id": table.row.id,
                "player": user.display_name,
                "score": score,
                "record": best,
            },
        )

    # -- deadlines --

    def _deadlines(
        self, table: _Table, state: GameState, now: datetime, *, kept: Deadline | None = None
    ) -> list[NewDeadline]:
        """Return the turn timeout and its reminders for every person the game waits for.

        The timeout is due a turn's time from `now`, or when `kept` is (a clock kept running,
        started when it did); reminders whose time has passed on that clock are left out.
        """
        limit = table.gdef.turn_timeout(game_options(table.row))
        if limit is None or state.outcome is not None:
            return []
        due, since = now + limit, None
        if kept is not None:  # a held chat's clock stands where it stopped (`_held_now`)
            due, since, now = kept.due_at, kept.created_at, _held_now(table.chat, kept, now)
        key = _deadline_key(table.gdef, state)
        out: list[NewDeadline] = []
        for seat_no in state.waiting_for():
            if table.seats[seat_no].user_id is None:
                continue
            for before in self.reminders:
                if due - before > now:
                    out.append(
                        NewDeadline(
                            "reminder",
                            due - before,
                            key,
                            {"seat": seat_no, "before": int(before.total_seconds())},
                            created_at=since,
                        )
                    )
            out.append(NewDeadline("timeout", due, key, {"seat": seat_no}, created_at=since))
        return out

    async def _time_out(self, table: _Table, state: GameState, seat_no: int) -> list[Reply]:
        """Apply the missed deadline of `seat_no` and tell it (the caller holds the lock)."""
        new_state = table.gdef.on_timeout(state, seat_no)
        replies = await self._commit(table, new_state, seat_no, None, "timeout")
        table = replace(table, row=_advanced(table.row, new_state), state=new_state)
        return await self._with_bots(table, new_state, replies)

    async def _overdue(self, table: _Table, seat_no: int) -> bool:
        """Return whether the seat's timeout of the running turn (or round) is due, not applied."""
        assert table.state is not None
        key, now = _deadline_key(table.gdef, table.state), self.clock()
        return any(
            d.kind == "timeout"
            and d.turn == key
            and d.payload.get("seat") == seat_no
            and d.due_at <= _held_now(table.chat, d, now)
            for d in await self.db.deadlines.pending_deadlines(table.row.id)
        )

    async def _timeout(self, game_id: int) -> Deadline | None:
        """Return the running turn's timeout, or None (no timer)."""
        pending = await self.db.deadlines.pending_deadlines(game_id)
        return next((d for d in pending if d.kind == "timeout"), None)

    async def on_deadline(self, deadline: Deadline) -> list[Reply]:
        """Handle a claimed deadline: remind the player, or apply the timeout rule.

        Idempotent: nothing happens unless the game is still active at the deadline's turn (in a
        game of simultaneous rounds: its round) and the seat has still to move. Raises
        `DeadlineHeld` when the bot was removed from the game's chat since the claim.
        """
        async with self._lock(deadline.game_id):
            row = await self.db.games.get_game(deadline.game_id)
            if row is None or row.status != "active":
                return []
            chat = await self.db.chats.get_chat(row.chat_id)  # stored now, not as cached
            if chat is not None and chat.away_since is not None:
                raise DeadlineHeld(f"deadline {deadline.id}: the bot is out of its chat")
            table = await self._table(row)
            state = table.state
            seat_no = int(deadline.payload.get("seat", -1))
            if (
                state is None
                or seat_no not in state.waiting_for()
                or _deadline_key(table.gdef, state) != deadline.turn
            ):
                return []
            user = table.users[seat_no]
            if deadline.kind == "reminder":
                if user is None:
                    return []
                left = _time_left(deadline, self.clock(), self.reminders)
                if left is None:
                    return []
                gdef = table.gdef
                round_no = gdef.round_of(state)
                task = "Your turn" if round_no is None else f"Your tile of round {round_no + 1}"
                missed = gdef.missed_deadline()
                if missed and (out := _timeout_puts_out(table, state, seat_no)):
                    missed += f", which {out}"
                return [
                    _far_reply(
                        table,
                        user,
                        f"{task} in {_game_named(table)} runs out in {_fmt_delta(left)}"
                        + (f"; if you miss it, {missed}." if missed else "."),
                        {
                            "type": "reminder",
                            "game_id": row.id,
                            "chat_id": row.chat_id,
                            "player": table.names[seat_no],
                            "left_seconds": int(left.total_seconds()),
                        },
                    )
                ]
            if deadline.kind == "timeout":
                return _settle_turn_notices(await self._time_out(table, state, seat_no))
            log.warning("unknown deadline kind %r (deadline %d)", deadline.kind, deadline.id)
            return []

    # -- the end --

    def _results(self, table: _Table, state: GameState) -> list[NewResult]:
        assert state.outcome is not None
        outcome = state.outcome
        order = table.gdef.ranking(state)
        return [
            NewResult(seat, score, order[seat], seat in outcome.winners)
            for seat, score in enumerate(outcome.scores)
        ]

    def _ranking(self, key: str | None, year: int | None) -> tuple[int | None, bool]:
        """Return the year and the order (by points?) of a leaderboard asked for.

        Numfeud's World Ranking is yearly (UTC, reset on 1 January) and ranks by points: a
        Numfeud leaderboard without a year is this year's. Other games count all time, by wins.
        """
        if year is None and key == "numfeud":
            year = self.clock().astimezone(UTC).year
        return year, year is not None and key == "numfeud"

    async def _standings(self, table: _Table) -> dict[int, int]:
        """Return user id -> rank on this chat's ranking of this game that /leaderboard shows.

        Numfeud's is this year's World Ranking, by points (`_ranking`).
        """
        year, by_points = self._ranking(table.row.game_key, None)
        rows = await self.db.results.leaderboard(
            chat_id=table.chat.parent_id or table.row.chat_id,
            game_key=table.row.game_key,
            limit=LEADERBOARD_READ,
            year=year,
            by_points=by_points,
        )
        return {row.user_id: rank for rank, row in zip(_leader_places(rows), rows, strict=True)}

    async def _game_over(self, table: _Table, state: GameState, before: Mapping[int, int]) -> Reply:
        assert state.outcome is not None
        outcome = state.outcome
        after = await self._standings(table)
        winners = [table.names[s] for s in outcome.winners]
        ranking = [
            {
                "player": table.names[seat.seat_no],
                "before": before.get(seat.user_id),
                "after": after.get(seat.user_id),
            }
            for seat in table.seats
            if seat.user_id is not None
        ]
        head = f"Game #{table.row.id} is over ({_ending_words(table, state)})"
        if len(table.names) == 1:  # solo: nobody to beat, only a score (and maybe a record)
            lines = [f"{head}: {table.names[0]} scored {outcome.scores[0]}."]
        else:
            if not winners:
                verdict = "Nobody won"
            elif len(winners) == 1:
                verdict = f"{winners[0]} won"
            elif len(winners) == len(table.names):
                verdict = f"{and_list(winners)} tied"  # every player: a draw
            else:
                verdict = f"{and_list(winners)} shared the win"
            lines = [
                f"{head}. " + verdict + " — " + self._score_line(table, state, outcome.scores) + "."
            ]
        # What the scores alone do not tell: who went out, the racks' adjustments, the smaller
        # inventory that won a blocked game (the rules core says it).
        note = table.gdef.ending_note(state, table.names)
        if note:  # its minus sign as the score line's above writes it ("alice -10")
            lines.append(note.replace("\u2212", "-"))
        # The game's top move, as word apps show at the end (Rummikub's turns score nothing); a
        # tile the deadline placed was nobody's choice.
        if best := best_moves(state.history):
            lines.append(_best_moves(table.names, best))
        moves = [
            f"{r['player']} #{r['before']}→#{r['after']}"
            if r["before"] and r["before"] != r["after"]
            else f"{r['player']} {'#' if r['before'] else 'new at #'}{r['after']}"
            for r in ranking
            if r["after"]  # a game played alone ranks nobody
        ]
        # Alone against bots, a place that did not move says nothing ("alice #1" after a loss);
        # a first place on the leaderboard is news, said as such ("alice new at #1": a loss to
        # a bot ranks her all the same, and a bare "#1" read like a win).
        new = any(r["after"] and not r["before"] for r in ranking)
        if len(moves) > 1 or new or any("→" in move for move in moves):
            # Named as /leaderboard <game> names the ranking it shows by default.
            year, by_points = self._ranking(table.row.game_key, None)
            board = f"World Ranking {year}" if by_points else "leaderboard"
            parent = table.chat.parent_id
            here = f"of {_chat_named(await self._chat(parent))}" if parent else "here"
            lines.append(f"{table.gdef.title} {board} {here}: " + ", ".join(moves) + ".")
        if ranking:  # a person played: they may want to play again
            lines.append(f"Play again with /rematch game={table.row.id}.")
        return Reply(
            _game_target(table),
            "\n".join(lines),
            images=await self._render(
                "game_over", state, names=table.names, seat=_ender(table, state)
            ),
            buttons=(Button("Rematch", f"rematch:{table.row.id}"),) if ranking else (),
            event={
                "type": "game_over",
                "game_id": table.row.id,
                "game": table.row.game_key,
                "players": list(table.names),
                "scores": list(outcome.scores),
                "winners": winners,
                "reason": outcome.reason,
                "ranking": ranking,
            },
        )

    # -- looking --

    async def _cmd_board(self, ctx: _Ctx, command: Command) -> list[Reply]:
        row = await self._find_game(ctx, command.game_id, ("active",), mine=False, ended=True)
        # A game's board lives in its topic, asked from where it may.
        return [await self._board_reply(await self._table(row), ctx.to_game(row))]

    async def _board_reply(self, table: _Table, to: ChatTarget) -> Reply:
        """Return a game's board as it stands, for everyone in its chat (`to`)."""
        row, state = table.row, table.state
        assert state is not None
        text = f"Game #{row.id} ({table.gdef.title}){_round_words(table, state)}"
        text += ": " + self._score_line(table, state)
        left = await self._time_left(table, state)
        if state.outcome is None:
            text += f". {self._turn_text(table, state, left)}."
        else:
            text += f". The game is over ({_ending_words(table, state)})."
        return Reply(
            to,
            text,
            # Shown to the whole chat: nobody's badge says "you".
            images=await self._board_images(table, state),
            event={
                "type": "board",
                "game_id": row.id,
                "players": list(table.names),
                "scores": list(_public_scores(table.gdef, state)),
                "to_move": self._to_move_names(table, state) if state.outcome is None else None,
                "time_left_seconds": int(left.total_seconds()) if left is not None else None,
                "view": _public_view(state),
            },
        )

    async def _short_of(self, row: GameRow) -> int:
        """Return how many more players a lobby needs before it can start."""
        seated = len(await self.db.games.seats(row.id))
        return max(0, GAMES[row.game_key].min_players - seated)

    def _turn_text(self, table: _Table, state: GameState, left: timedelta | None) -> str:
        """Return "alice to move" (a round: "to place") and, with a deadline, "; 3 hours left"."""
        task = "place" if table.gdef.round_of(state) is not None else "move"
        text = f"{self._to_move_names(table, state)} to {task}"
        if left is None:
            return text
        if table.chat.away_since is not None:  # held: say why the clock does not run
            return f"{text}; {_fmt_delta(left)} left when I am back in {_chat_named(table.chat)}"
        return f"{text}; {_left_words(left)}"

    async def _time_left(self, table: _Table, state: GameState) -> timedelta | None:
        """Return the time left for the turn (or round) being played, in whole minutes.

        None when the game has no deadline (Rummikub without a timer) or is over.
        """
        if state.outcome is not None:
            return None
        key = _deadline_key(table.gdef, state)
        now = self.clock()
        left_of = [
            d.due_at - _held_now(table.chat, d, now)
            for d in await self.db.deadlines.pending_deadlines(table.row.id)
            if d.kind == "timeout" and d.turn == key
        ]
        if not left_of:
            return None
        left = max(min(left_of), timedelta(0))
        return (
            left if left < timedelta(minutes=1) else timedelta(minutes=left // timedelta(minutes=1))
        )

    async def _cmd_history(self, ctx: _Ctx, command: Command) -> list[Reply]:
        row = await self._find_game(ctx, command.game_id, ("active",), mine=False, ended=True)
        table = await self._table(row)
        assert table.state is not None
        # What a spectator may see: a swap never names its tiles, an NMBR 9 round shows once over.
        records = [MoveRecord.from_json(r) for r in table.state.view(None)["history"]]
        first = max(0, len(records) - HISTORY_SHOWN)
        shown = list(enumerate(records[first:], start=first + 1))
        lines = [
            wrap_steps(
                f"{n}. {table.names[r.seat]}: {r.shown}", width=HISTORY_WIDTH, lines=HISTORY_LINES
            )
            + _points(r.score)
            + (" (placed at the deadline)" if "deadline" in r.words else "")
            for n, r in shown
        ]
        game = f"Game #{row.id} ({table.gdef.title})"
        if not lines:
            head = f"{game}: no moves yet."
        elif first:
            head = f"{game}, the last {len(lines)} of {len(records)} moves:"
        else:
            head = f"{game}, {plural(len(lines), 'move')}:"
        return [
            Reply(
                ctx.to_chat,
                "\n".join([head, *lines]),
                event={
                    "type": "history",
                    "game_id": row.id,
                    "moves": [
                        {"n": n, "player": table.names[r.seat], "move": r.text, "score": r.score}
                        for n, r in shown
                    ],
                },
            )
        ]

    async def _my_seat(
        self,
        ctx: _Ctx,
        command: Command,
        *,
        ended: bool = False,
        acting: bool = True,
    ) -> tuple[_Table, GameState, int]:
        """Return the started game a player asks about, its state and their seat in it.

        `acting`: the command plays a part in the game (a hint, a nudge, a preview), which a
        player who resigned while the others play on no longer has. A command about the player's own
        move (/try, /hint: `MOVE_COMMANDS`) means the game a bare move would.
        """
        row = await self._find_game(
            ctx,
            command.game_id,
            ("active",),
            ended=ended,
            waiting_first=ctx.command in MOVE_COMMANDS,
        )
        table = await self._table(row)
        seat = table.seat_of(ctx.user.id)
        state = table.state
        if seat is None or state is None:
            raise _not_playing(row.id)
        if acting and state.outcome is None and seat not in table.gdef.seats_in_game(state):
            raise _out_of(row.id)
        return table, state, seat

    async def _cmd_rack(self, ctx: _Ctx, command: Command) -> list[Reply]:
        table, state, seat = await self._my_seat(ctx, command, ended=True, acting=False)
        return [await self._rack_reply(table, state, seat)]

    async def _cmd_bag(self, ctx: _Ctx, command: Command) -> list[Reply]:
        """Tell a player, privately, the tiles they have not seen (Wordfeud's "tiles left")."""
        table, state, seat = await self._my_seat(ctx, command, acting=False)
        row, gdef = table.row, table.gdef
        tiles, pile = gdef.unseen(state, seat)
        counts = Counter(tiles)
        listed = " ".join(t if counts[t] == 1 else f"{t}×{counts[t]}" for t in dict.fromkeys(tiles))
        game = f"Game #{row.id} ({gdef.title})"
        if gdef.pile == "deck":  # NMBR 9: one deck for all, nothing on other racks
            text = (
                f"{game}: the {plural(len(tiles), 'card')} still to come, in an order nobody "
                f"knows: {listed}"
                if tiles
                else f"{game}: no cards are left to come."
            )
        else:
            others = [table.names[s] for s in range(len(table.names)) if s != seat]
            where = f"{others[0]}'s rack" if len(others) == 1 else "the other racks"
            text = (
                f"{game}: the {plural(len(tiles), 'tile')} you have not seen — {pile} in the "
                f"{gdef.pile}, {len(tiles) - pile} on {where}: {listed or '(none)'}"
            )
        return [
            Reply(
                ctx.to_user,
                text,
                event={
                    "type": "unseen",
                    "game_id": row.id,
                    "tiles": list(tiles),
                    "pile": pile,
                },
            )
        ]

    async def _rack_reply(
        self, table: _Table, state: GameState, seat_no: int, *, before: GameState | None = None
    ) -> Reply:
        """Return a person's rack, privately; after a move (`before`), which tiles are new.

        The tiles drawn when nothing left the rack (a Rummikub draw, a Numfeud pass, a timeout's
        penalty tiles) are named, as game apps mark them: "Your rack in game #1: K4 K11 B8 …
        (new: K4)".
        """
        if table.gdef.round_of(state) is not None:
            return await self._round_rack(table, state, seat_no, "")
        user = table.users[seat_no]
        assert user is not None
        tiles = list(state.rack(seat_no))
        drawn: list[str] = []
        held = Counter(table.gdef.held(before, seat_no)) if before is not None else None
        known = table.gdef.drawn(before, state, seat_no) if before is not None else None
        if known is not None:  # a play or a swap that the game knows the draw of
            drawn = list(known)
        elif held is not None and not held - Counter(tiles):
            # Otherwise only a rack that just grew tells its new tiles for sure (a draw, a pass
            # that draws, a penalty; a Rummikub draft taken back was held all along): after a
            # play that also refilled it, a drawn tile may be one that was played, so nothing is
            # said.
            drawn = sorted((Counter(tiles) - held).elements(), key=tiles.index)
        note = table.gdef.rack_note(state, seat_no)
        if before is not None and (cost := table.gdef.move_cost(before, state, seat_no, done=True)):
            note = f"{cost}\n{note}" if note else cost
        return Reply(
            _user_target(user),
            f"Your rack in game #{table.row.id}: {' '.join(tiles) or '(empty)'}"
            + (f" (new: {' '.join(drawn)})" if drawn else "")
            + (f"\n{note}" if note else ""),
            images=await self._render("rack", state, names=table.names, seat=seat_no),
            event={
                "type": "rack",
                "game_id": table.row.id,
                "player": table.names[seat_no],
                "tiles": tiles,
                "new": drawn,
            },
        )

    async def _cmd_games(self, ctx: _Ctx, command: Command) -> list[Reply]:
        here, more = _most_active(await self.db.games.list_games(chat_id=ctx.chat.id, limit=None))
        lines = []
        listed = []
        for row in here:
            table = await self._table(row)
            lines.append(await self._game_line(table))
            listed.append({"game_id": row.id, "game": row.game_key, "status": row.status})
        text = (
            "Games here:\n" + "\n".join(lines + more)
            if lines
            else "No open games here; /new starts one."
        )
        replies = [Reply(ctx.to_chat, text, event={"type": "games", "games": listed})]
        elsewhere, more = _most_active(
            [
                row
                for row in await self.db.games.list_games(user_id=ctx.user.id, limit=None)
                if row.chat_id != ctx.chat.id
            ]
        )
        if elsewhere:
            mine = [await self._game_line(await self._table(row), where=True) for row in elsewhere]
            replies.append(
                Reply(
                    ctx.to_user,
                    "Your games in other chats:\n" + "\n".join(mine + more),
                    event={"type": "my_games", "games": [r.id for r in elsewhere]},
                )
            )
        return replies

    async def _game_line(self, table: _Table, *, where: bool = False) -> str:
        """Return one game of /games: its players (scores once started), whose turn, time left.

        `where`: the line names the chat the game is played in ("#1 Webfeud in Feud club: …").
        """
        row, state = table.row, table.state
        named = _where_played(table) if where else ""
        if state is None:
            return (
                f"#{row.id} {table.gdef.title}{named}: {' vs '.join(table.names)} "
                "(waiting to start)"
            )
        left = await self._time_left(table, state)
        turn = self._turn_text(table, state, left)
        title = f"{table.gdef.title}{_round_words(table, state)}{named}"
        return f"#{row.id} {title}: {self._score_line(table, state)} — {turn}"

    async def _cmd_leaderboard(self, ctx: _Ctx, command: Command) -> list[Reply]:
        key = command.text or None
        if key is not None and key not in GAMES:
            raise CommandError(f"{no_such_game(key)} {usage('leaderboard')}")
        everywhere = command.options.get("scope") == "everywhere"
        # A thread's games count on its channel's leaderboards: in a thread, they are shown.
        chat = await self._chat(ctx.chat.parent_id) if ctx.chat.parent_id else ctx.chat
        # Named as the group is (an image may be shared elsewhere): "Feud club", "#games".
        here = _titled(chat) if chat.title and not ctx.private else "this chat"
        where = "every chat" if everywhere else here
        year_text = command.options.get("year")
        year = int(year_text) if year_text else None
        if year is not None and not FIRST_YEAR <= year <= LAST_YEAR:  # (as the parser says it)
            raise CommandError(
                f"There are no results of the year {year}: name one from {FIRST_YEAR} on. "
                f"{usage('leaderboard')}"
            )
        year, by_points = self._ranking(key, year)
        # "Everywhere" is every chat of this platform: another platform's people are others,
        # though they may show the same names, and no command here can name them.
        platform = chat.platform if everywhere else None
        ranked = await self.db.results.leaderboard(
            chat_id=None if everywhere else chat.id,
            game_key=key,
            limit=LEADERBOARD_READ,
            year=year,
            by_points=by_points,
            platform=platform,
        )
        # The top places (all who share the last of them), then the asker's own row below.
        board = [(rank, row) for rank, row in zip(_leader_places(ranked), ranked, strict=True)]
        top = [(rank, row) for rank, row in board if rank <= LEADERBOARD_TOP]
        # Ties have a bound too: 200 players sharing 10th place would be a picture too tall.
        unshown = len(top) - LEADERBOARD_ROWS
        top = top[:LEADERBOARD_ROWS]
        mine = next(((r, row) for r, row in board if row.user_id == ctx.user.id), None)
        below = mine if mine is not None and mine not in top else None
        rows = [row for _rank, row in top]
        # Names as the image draws them: two people who show the same one told apart ("Sam",
        # "Sam-2"), the asker's row below included, so text and picture name the same rows.
        ranked_rows = [*top, below] if below is not None else top
        names = _told_apart([row.display_name for _rank, row in ranked_rows])
        shown = [
            (rank, name, row) for (rank, row), name in zip(top, names[: len(top)], strict=True)
        ]
        more = f"… and {unshown} more sharing those places" if unshown > 0 else ""
        game = GAMES[key].title if key else "all games"
        if year is None:
            title = f"Leaderboard of {where} — {game}"
        elif by_points:
            title = f"Numfeud World Ranking {year} — {where}"
        else:
            title = f"Leaderboard {year} of {where} — {game}"
        lines = [title]
        lines += [_leader_line(*line) for line in shown]
        if more:
            lines.append(more)
        asker = None if below is None else (below[0], names[-1], below[1])
        if asker is not None:
            lines += ["…", _leader_line(*asker)]
        # Games played alone rank nobody: the best personal records, apart.
        scope = None if everywhere else chat.id
        solo = (
            await self.db.results.solo_records(key, chat_id=scope, year=year, platform=platform)
            if key in SOLO_GAMES
            else []
        )
        alone = [  # all games asked for: say where the solo records are
            k
            for k in (SOLO_GAMES if key is None else ())
            if await self.db.results.solo_records(
                k, chat_id=scope, year=year, limit=1, platform=platform
            )
        ]
        asked = (" everywhere" if everywhere else "") + (f" {year}" if year else "")
        listed = ", ".join(f"/leaderboard {k}{asked}" for k in alone)  # as asked: where, when
        if not rows:
            if solo:
                lines.append("No games against others yet.")
            elif alone:
                lines.append(f"No games against others yet; for the solo records, see {listed}.")
            else:
                lines.append("No finished games yet.")
        elif alone:
            lines.append(f"Solo records: see {listed}.")
        solo_names = _told_apart([record.display_name for record in solo])
        if solo:
            lines.append(
                "Solo records: "
                + ", ".join(f"{n} {r.best}" for n, r in zip(solo_names, solo, strict=True))
            )
        images = await self._leaderboard_images(
            title, shown, asker, more, list(zip(solo_names, solo, strict=True)), ctx.user.id
        )
        return [
            Reply(
                ctx.to_chat,
                "\n".join(lines),
                images=images,
                event={
                    "type": "leaderboard",
                    "game": key,
                    "year": year,
                    "scope": "everywhere" if everywhere else "chat",
                    "rows": [_row_json(*line) for line in shown],
                    "asker_row": None if asker is None else _row_json(*asker),
                    "solo_records": {n: r.best for n, r in zip(solo_names, solo, strict=True)},
                },
            )
        ]

    async def _cmd_stats(self, ctx: _Ctx, command: Command) -> list[Reply]:
        user = ctx.user
        if command.player_ids:
            people, _strangers = await self._people_named(ctx, command)
            user = people[0]
        elif command.players:
            name = command.players[0]
            found = await self._person(ctx, name)
            if found is None:
                raise _unknown_person(name, usage("stats"))
            user = found
        overall = await self.db.results.user_stats(user.id)
        per_game = {}
        for key in sorted(GAMES):
            stats = await self.db.results.user_stats(user.id, key)
            if stats is not None and stats.games:
                per_game[key] = stats
        # Games played alone count apart: the number played to the end and the best score.
        solo = {
            key: records[0]
            for key in SOLO_GAMES
            if (records := await self.db.results.solo_records(key, user_id=user.id))
        }
        lines = [f"{_named(user)}:"]
        if overall is not None and overall.games:
            lines.append(_stats_line("all games", overall))
            lines += [_stats_line(GAMES[k].title, s) for k, s in per_game.items()]
        elif not solo:
            lines.append("no finished games yet.")
        lines += [
            f"{GAMES[k].title} solo: {plural(r.games, 'game')}, record {r.best}"
            for k, r in solo.items()
        ]
        event: dict[str, Any] = {
            "type": "stats",
            "player": user.display_name,
            "games": {k: _row_json(None, user.display_name, s) for k, s in per_game.items()},
            "solo_records": {k: r.best for k, r in solo.items()},
        }
        if user.id != ctx.user.id:  # someone else's record: also how the two did together
            duel = await self.db.results.head_to_head(user.id, ctx.user.id)
            if duel.games:
                # Two people of one name ("Sam", "Sam") are told apart, as on the leaderboard.
                them, me = _told_apart([user.display_name, ctx.user.display_name])
                lines.append(
                    f"Against {me}: {plural(duel.games, 'game')}, {them} won "
                    f"{duel.wins}, {me} won {duel.other_wins}"
                    + (f" ({plural(duel.shared, 'win')} shared)" if duel.shared else "")
                    + f"; points {duel.points} to {duel.other_points}."
                )
            event["head_to_head"] = {
                "with": ctx.user.display_name,
                "games": duel.games,
                "wins": duel.wins,
                "their_wins": duel.other_wins,
            }
        return [Reply(ctx.to_chat, "\n".join(lines), event=event)]

    async def _cmd_rules(self, ctx: _Ctx, command: Command) -> list[Reply]:
        gdef = GAMES.get(command.text)
        if gdef is None:
            raise CommandError(no_such_game(command.text))  # it says how /rules is used
        lines = [f"{gdef.title}: {gdef.player_span('–')} players."]
        timeout = gdef.turn_timeout(gdef.parse_options({}))
        if timeout is not None:
            lines.append(gdef.deadline_rule(_fmt_delta(timeout)))
        for spec in gdef.options:  # each with what it does
            does = f": {spec.help}" if spec.help else ""
            lines.append(
                f"Option {spec.name}={'|'.join(spec.choices)} (default {spec.default}){does}."
            )
        lines.append(gdef.notation_help())
        # The helpers of a game, so that /rules is where players find them.
        seen = "the cards still to come" if gdef.pile == "deck" else "the tiles you have not seen"
        helpers = [f"/bag lists {seen}"]
        if gdef.previews:
            does = "what a move would score" if gdef.scores_as_played else "whether a move is legal"
            helpers.insert(0, f"/try <move> tells {does} without playing it")
        lines.append(f"Also: {'; '.join(helpers)}; /history lists the moves so far.")
        return [Reply(ctx.to_chat, "\n".join(lines), event={"type": "rules", "game": gdef.key})]

    async def _cmd_help(self, ctx: _Ctx, command: Command) -> list[Reply]:
        return [
            Reply(
                ctx.to_chat, help_text(command.text), event={"type": "help", "topic": command.text}
            )
        ]

    # -- presentation helpers --

    def _not_yours(self, table: _Table, then: str) -> str:
        """Return the refusal of an asker whose turn it is not: whose it is, then `then`."""
        assert table.state is not None
        whose = self._to_move_names(table, table.state)
        return f"It is {whose}'s turn in game #{table.row.id}, not yours; {then}"

    def _to_move_names(self, table: _Table, state: GameState) -> str:
        """Name whom the game waits for; in a game of rounds, bots place at once: people only."""
        waiting = state.waiting_for()
        if table.gdef.round_of(state) is not None:
            waiting = tuple(s for s in waiting if table.seats[s].bot_level is None)
        return and_list(table.names[s] for s in waiting) or "nobody"

    def _score_line(
        self, table: _Table, state: GameState, scores: Sequence[int] | None = None
    ) -> str:
        """Return "alice 12, bob 7 (resigned), carol 9": a seat that left while others played on.

        "(resigned)", or "(out)" for a seat put out otherwise (SmartFeud's three passes): in
        Rummikub "out" alone would read as having gone out, the way to win. At the end too, but
        for the seat whose leaving ended the game, which its move and the game's end name.
        A game whose racks score only at its end (Rummikub, Numfeud) shows, until then, what
        its players watch instead: "alice 9 tiles, bob 12 tiles".
        """
        shown: Sequence[int | str]
        if scores is not None:
            shown = scores
        elif not table.gdef.scores_as_played and state.outcome is None:
            shown = [plural(len(state.rack(s)), "tile") for s in range(len(table.names))]
        else:
            shown = _public_scores(table.gdef, state)
        playing = table.gdef.seats_in_game(state)
        if state.outcome is not None and (ender := _ender(table, state)) is not None:
            playing = (*playing, ender)
        resigned = {record.seat for record in state.history if record.text == RESIGNED}
        return ", ".join(
            f"{n} {s}"
            + ("" if seat in playing else " (resigned)" if seat in resigned else " (out)")
            for seat, (n, s) in enumerate(zip(table.names, shown, strict=True))
        )

    async def _board_images(
        self, table: _Table, state: GameState, viewer: int | None = None
    ) -> tuple[bytes | Image, ...]:
        return await self._render("board", state, names=table.names, viewer=viewer)

    async def _leaderboard_images(
        self,
        title: str,
        shown: Sequence[tuple[int, str, LeaderboardRow]],
        asker: tuple[int, str, LeaderboardRow] | None,
        more: str,
        solo: Sequence[tuple[str, SoloRecord]],
        asker_id: int,
    ) -> tuple[bytes | Image, ...]:
        """Draw the leaderboard the text lists: the same rows, names, cut and asker's row.

        Only the asker's own row is marked (by user id: others may show the same name and
        record); `asker` is their row when it is below those `shown`.
        """
        if not self.render:
            return ()
        try:
            import renderers
        except ImportError:
            return ()
        make = getattr(renderers, "render_leaderboard", None)
        row_type = getattr(renderers, "LeaderRow", None)
        solo_type = getattr(renderers, "SoloRow", None)
        if make is None or row_type is None or solo_type is None:
            return ()
        leader_rows = [
            row_type(rank, name, row.games, row.wins, row.points, mine=row.user_id == asker_id)
            for rank, name, row in shown
        ]
        viewer = None
        if asker is not None:
            rank, name, row = asker
            viewer = row_type(rank, name, row.games, row.wins, row.points, mine=True)
        # Equal records share a place, as on the ranked table (1, 1, 3).
        ranks = places([record.best for _name, record in solo])
        records = [
            solo_type(rank, name, r.games, r.best, mine=r.user_id == asker_id)
            for rank, (name, r) in zip(ranks, solo, strict=True)
        ]
        data = await asyncio.to_thread(
            make, leader_rows, title=title, viewer_row=viewer, more=more, solo=records
        )
        return (Image("leaderboard.png", data, alt=f"{title}: the ranking the message lists"),)

    async def _render(
        self,
        kind: str,
        state: GameState,
        *,
        names: Sequence[str],
        seat: int | None = None,
        viewer: int | None = None,
    ) -> tuple[bytes | Image, ...]:
        """The single image hook: board, rack and game-over cards from `renderers` if present.

        Returns no image when rendering is switched off or the renderers are not installed —
        or when drawing fails (a font, a bug): the picture is logged and left out, since it is
        drawn after the move was stored, and the move's news must still go out (as text).
        """
        if not self.render:
            return ()
        try:
            import renderers
        except ImportError:
            return ()
        name = f"game-{state.game_key}-turn{state.turn}-{kind}.png"
        try:
            if kind == "board":
                data = await asyncio.to_thread(
                    renderers.board_png, state, names=list(names), viewer=viewer, last_move=True
                )
            elif kind == "rack" and seat is not None:
                data = await asyncio.to_thread(renderers.rack_png, state, seat, name=names[seat])
                name = f"game-{state.game_key}-turn{state.turn}-rack-seat{seat}.png"
            else:
                # `seat`: whose move ended it, as the news names them.
                data = await asyncio.to_thread(
                    renderers.render_game_over, state, names=list(names), ender=seat
                )
        except LookupError:  # renderers.NoRenderer: this game has no pictures yet
            return ()
        except Exception:
            log.exception("drawing the %s of a %s game failed; sent without", kind, state.game_key)
            return ()
        return (Image(name, bytes(data), alt=picture_alt(kind, state, names, seat)),)

    async def _reload(self, row: GameRow) -> GameRow:
        fresh = await self.db.games.get_game(row.id)
        assert fresh is not None  # games are never deleted
        return fresh

    # -- replay (tests, audits) --

    async def replay(self, game_id: int) -> GameState | None:
        """Replay a game's move log from its initial deal; None for a game never started."""
        row = await self.db.games.get_game(game_id)
        if row is None or row.snapshot is None:
            return None
        seats = await self.db.games.seats(game_id)
        gdef = GAMES[row.game_key]
        state = initial_state(row, len(seats))
        for move in await self.db.games.moves(game_id):
            state = replay_move(
                gdef, state, move.seat_no, move.notation, str(move.payload.get("kind"))
            )
        return state


# --- small helpers ----------------------------------------------------------------------------


def _dump(state: GameState) -> str:
    return json.dumps(state.to_json(), separators=(",", ":"), sort_keys=True)


def _public_view(state: GameState) -> dict[str, Any]:
    """Return what a spectator may see, without the (long) move history."""
    view = dict(state.view(None))
    view.pop("history", None)
    view.pop("rack", None)
    return view


def _deadline_key(gdef: GameDef, state: GameState) -> int:
    """Return what a deadline is keyed on: the turn, or the round in simultaneous rounds."""
    round_no = gdef.round_of(state)
    return state.turn if round_no is None else round_no


def _round_moves(history: Sequence[MoveRecord], round_no: int) -> list[MoveRecord]:
    """Return each seat's move of round `round_no` (from 0) of a game of simultaneous rounds.

    A seat's n-th record is its move of round n-1; resignations take no round.
    """
    made: Counter[int] = Counter()
    moves = []
    for record in history:
        if "resign" in record.words:
            continue
        made[record.seat] += 1
        if made[record.seat] == round_no + 1:
            moves.append(record)
    return sorted(moves, key=lambda r: r.seat)


def _same_mover(gdef: GameDef, before: GameState, after: GameState, seat_no: int) -> bool:
    """Return True for a move that used up no one's turn: the same seats are to move.

    A move out of turn (a resignation), or the mover's own move that is no turn (SmartFeud's
    conditional quit): the player to move keeps their clock. A round that ends is a new turn
    even when the same seats place next (NMBR 9 alone: every round waits for seat 0).
    """
    waiting = before.waiting_for()
    if after.waiting_for() != waiting:
        return False
    return seat_no not in waiting or gdef.round_of(after) == gdef.round_of(before)


def _round_goes_on(gdef: GameDef, before: GameState | None, after: GameState) -> bool:
    """Return True when a move of a simultaneous round left the round unfinished."""
    if before is None:
        return False
    round_no = gdef.round_of(after)
    return round_no is not None and round_no == gdef.round_of(before)


def _public_scores(gdef: GameDef, state: GameState) -> Sequence[int]:
    """Return the scores everybody may see (a round's private moves count once it is over)."""
    if gdef.round_of(state) is None:
        return state.scores
    return cast(Sequence[int], state.view(None).get("scores", state.scores))


ALT_CHARS = 1024  # Discord's limit on an attachment's description


def picture_alt(kind: str, state: GameState, names: Sequence[str], seat: int | None) -> str:
    """Say in words what a board, rack or game-over picture shows, for a screen reader.

    The game, who is to move (or who won) and the scores the picture shows — the public ones:
    a game that scores only at the end shows none before it; a rack's tiles stay unsaid (its
    message lists them).
    """
    gdef = GAMES[state.game_key]
    title = gdef.title
    if kind == "rack" and seat is not None:
        turn = ", your turn" if seat in state.waiting_for() else ""
        return f"{title}: the {gdef.private} of {names[seat]}{turn}"[:ALT_CHARS]
    what = "board" if kind == "board" else "game over"
    outcome = state.outcome
    if outcome is not None:
        won = and_list(names[s] for s in outcome.winners) or "nobody"
        status = f"{won} {'win' if len(outcome.winners) > 1 else 'wins'}"
    else:
        status = f"{and_list(names[s] for s in state.waiting_for())} to move"
    scores = outcome.scores if outcome is not None else _public_scores(gdef, state)
    counted = outcome is not None or gdef.scores_as_played
    points = "; scores: " + ", ".join(f"{n} {p}" for n, p in zip(names, scores, strict=True))
    return f"{title} {what}: {status}{points if counted else ''}"[:ALT_CHARS]


def _advanced(row: GameRow, state: GameState) -> GameRow:
    status: GameStatus = "finished" if state.outcome is not None else "active"
    return replace(
        row, version=row.version + 1, snapshot=_dump(state), turn=state.turn, status=status
    )


def _moved_since(arrival: GameRow, state: GameState | None, seat_no: int) -> bool:
    """Return True when `seat_no` could move when the command arrived and has moved since."""
    if arrival.snapshot is None or state is None:
        return False
    before = load_state(arrival)
    if seat_no not in before.waiting_for():
        return False
    return any(record.seat == seat_no for record in state.history[len(before.history) :])


def _play_buttons(game_id: int) -> tuple[Button, ...]:
    return (Button("Board", f"board:{game_id}"), Button("My rack", f"rack:{game_id}"))


def _points(score: int) -> str:
    """Return what a move line adds for its points: " (+34)", or nothing for none."""
    return f" ({score:+d})" if score else ""


def _warned(warning: str) -> str:
    """Return a `_pass_warning` as told to the player to move: " Careful: …", or "" for none.

    A pass that wins the game is news, not a danger: " A pass now ends the game, won by you."
    """
    if not warning:
        return ""
    said = warning.format(who="you")
    return f" {said[0].upper()}{said[1:]}." if warning == PASS_WINS else f" Careful: {said}."


def _pass_warning(table: _Table, state: GameState) -> str:
    """Return what the pass of the seat to move would do when it ends the game, else "".

    "a pass now ends the game", "a pass now puts {who} out of the game", or, when that leaves
    one player, "a pass now puts {who} out and ends the game, won by bob": a template the
    caller fills with the player's name or "you" (``str.format``). In Rummikub's last round
    (the pool is empty) every move counts down to the end, whatever it is: "the pool is empty:
    the game ends in 3 turns", "this is the last turn of the game".

    Wordfeud warns before such a pass; the rules core says what a pass does: the game's own
    pass move is tried on the state (Webfeud's third pass in a row ends the game, SmartFeud's
    third pass in a row of one player puts them out). Games of rounds have no one seat to move.
    """
    waiting = state.waiting_for()
    if state.outcome is not None or len(waiting) != 1 or table.gdef.round_of(state) is not None:
        return ""
    left = table.gdef.turns_left(state)
    if left is not None:  # Rummikub's last round: any move counts down, not a pass only
        if left <= 1:
            return "this is the last turn of the game"
        return f"the pool is empty: the game ends in {left} turns"
    seat = waiting[0]
    try:
        after = state.apply(seat, table.gdef.parse_move("pass"))
    except GameError:
        return ""
    if after.outcome is not None:
        # Numfeud: the opponent's full inventory is stuck, which the old wording told already.
        # (Who a third pass in a row makes win is not told: that depends on the racks.)
        if after.outcome.reason == "full" and after.outcome.winners == (seat,):
            return PASS_WINS
        # Numfeud: a pass holding 20 tiles, with no play found, gives the game up.
        if after.outcome.reason == "full":
            won_by = and_list(table.names[s] for s in after.outcome.winners)
            return "a pass now ends the game, won by " + won_by.replace("{", "{{").replace(
                "}", "}}"
            )
        # SmartFeud: a third pass in a row puts the player out, whatever the scores, and the one
        # player left wins: "ends the game" alone let a player far ahead pass into a loss.
        out = _out_and_won_by(table, seat, after)
        return f"a pass now {out}" if out else "a pass now ends the game"
    if seat not in table.gdef.seats_in_game(after):
        return "a pass now puts {who} out of the game"
    return ""


def _timeout_puts_out(table: _Table, state: GameState, seat: int) -> str:
    """Say what missing the deadline does beyond `missed_deadline`: it puts `seat` out.

    SmartFeud: a timeout is a pass, and a third in a row puts the player out ("puts you out of
    the game"), or ends the game when one player is left ("puts you out and ends the game, won
    by bob"), whatever the scores. "" when the seat stays in (a game lost on time says so).
    """
    in_game = table.gdef.seats_in_game
    try:
        late = table.gdef.on_timeout(state, seat)
    except GameError:
        return ""
    if seat not in in_game(state) or seat in in_game(late):
        return ""
    return (_out_and_won_by(table, seat, late) or "puts {who} out of the game").format(who="you")


def _out_and_won_by(table: _Table, seat: int, after: GameState) -> str:
    """Return "puts {who} out and ends the game, won by bob", or "" when `after` did not.

    `after`: the state after a pass or a timeout of `seat`, which put it out and ended the game
    won by others. A template for ``str.format`` (the braces of the names are escaped).
    """
    winners = after.outcome.winners if after.outcome is not None else ()
    if not winners or seat in winners or seat in table.gdef.seats_in_game(after):
        return ""
    won_by = and_list(table.names[s] for s in winners).replace("{", "{{").replace("}", "}}")
    return "puts {who} out and ends the game, won by " + won_by


def _turn_notice(table: _Table, state: GameState, seat: int, text: str, **extra: str) -> Reply:
    """Return the private "your turn" notice of a person's seat (kind ``your_turn``)."""
    user = table.users[seat]
    assert user is not None  # only people are told
    event = {"type": "your_turn", "game_id": table.row.id, "player": table.names[seat]}
    return _far_reply(table, user, text, {**event, "turn": state.turn, **extra})


def _far_reply(table: _Table, user: User, text: str, event: dict[str, Any]) -> Reply:
    """Return a private reply naming its game; `in_chat`, posted in that chat, names no chat."""
    far, here = _game_named(table), _game_named(table, here=True)
    in_chat = text.replace(far, here) if far != here else ""
    return Reply(_user_target(user), text, event=event, in_chat=in_chat)


def _undrawn(reply: Reply) -> bool:
    """Return whether `reply` is a chat's news whose board `_with_bots` is to draw."""
    return reply.kind in ROUND_NEWS and isinstance(reply.to, ChatTarget) and not reply.images


def _round_words(table: _Table, state: GameState) -> str:
    """Return ", round 2 of 20, the 3" for a game of rounds under way (as its news says), or ""."""
    round_no = table.gdef.round_of(state)
    if round_no is None or state.outcome is not None:
        return ""
    view = _public_view(state)
    return f", round {round_no + 1} of {view['rounds']}, the {view['card']}"


def _ending_words(table: _Table, state: GameState) -> str:
    """Say why a game ended, naming whose move ended it where one did ("bob resigned")."""
    outcome = state.outcome
    assert outcome is not None
    ender = _ender(table, state)
    if outcome.reason in ("resign", "timeout") and ender is not None:
        who = table.names[ender]
        return f"{who} resigned" if outcome.reason == "resign" else f"{who}'s time ran out"
    return outcome.ending


def _ender(table: _Table, state: GameState) -> int | None:
    """Return the seat whose move ended a game (after bots that resigned in turn: the person)."""
    for record in reversed(state.history):
        if not (record.text == RESIGNED and table.seats[record.seat].bot_level is not None):
            return record.seat
    return state.history[-1].seat if state.history else None


def _held_now(chat: Chat, deadline: Deadline, now: datetime) -> datetime:
    """Return the moment `deadline`'s clock stands at: `now`, or where it stopped (bot away).

    A chat the bot is out of holds its deadlines from when it left, or from when a deadline
    was set there if later (`db.chats.set_away` puts them off by as much on its return).
    """
    if chat.away_since is None:
        return now
    return max(chat.away_since, deadline.created_at or chat.away_since)


def _chat_named(chat: Chat) -> str:
    """Return a group's name for a private message about it: "Feud club", or "the group"."""
    return _titled(chat) if chat.title else "the group"


def _game_named(table: _Table, *, here: bool = False) -> str:
    """Return "game #1 (Webfeud in Feud club)", read far from the chat (`here`: no chat)."""
    where = "" if here else _where_played(table)
    return f"game #{table.row.id} ({table.gdef.title}{where})"


def _where_played(table: _Table) -> str:
    """Return " in Feud club" (" in #games"): the group a game is played in, "" if unnamed."""
    named = table.chat.title and table.chat.platform != CONSOLE
    return f" in {_titled(table.chat)}" if named else ""


def _settle_turn_notices(replies: Sequence[Reply], asker: int | None = None) -> list[Reply]:
    """Keep the "your turn" notices of each game's latest turn in a batch, none for the asker.

    A notice of an earlier turn of the same batch is out of date (that turn has passed); those
    of the latest turn all stand (a nudge in NMBR 9 may go to several). The asker sees the
    answer to their own command (a bot may have moved at once). A rack sent before its game
    ended in the same batch (a bot went out after the move) is dropped too: the end is the news;
    not one of the game as it ended (the tile the last round's deadline placed).
    """
    latest: dict[object, object] = {}
    ended = {reply.event.get("game_id") for reply in replies if reply.kind == "game_over"}
    for reply in replies:
        if reply.kind == "your_turn":
            latest[reply.event.get("game_id")] = reply.event.get("turn")

    def kept(reply: Reply) -> bool:
        game_id = reply.event.get("game_id")
        if reply.kind == "rack":
            return game_id not in ended or bool(reply.event.get("over"))
        if reply.kind != "your_turn":
            return True
        return (
            isinstance(reply.to, UserTarget)
            and reply.to.user_id != asker
            and latest[game_id] == reply.event.get("turn")
        )

    return [reply for reply in replies if kept(reply)]


def takes(gdef: GameDef, state: GameState | None, command: str) -> bool:
    """Return whether a game (`state`: None for a lobby) has a use for move command `command`.

    /place and /moves belong to games played in rounds, /try to games that preview a move's
    points; /swap, /pass and Rummikub's step words (/done, /undo, /reset, /draw) to the games
    whose own notation knows them (a swap without its tiles is still a swap). Any other command:
    every game.
    """
    if command in ("place", "moves"):
        return state is not None and gdef.round_of(state) is not None
    if command == "try":
        return gdef.previews
    if command not in OWN_MOVES:
        return True
    try:
        gdef.parse_move(command)
    except NoSuchMove:
        return False
    except InvalidMove:  # only a swap may need more words to be one
        return command == "swap"
    return True


def _best_moves(names: Sequence[str], best: Sequence[tuple[MoveRecord, tuple[int, ...]]]) -> str:
    """Return "Best move: alice, 7 at I9 90 on level 2 (+14)." for a game's `best_moves`.

    Moves that tie are all told: the same one by several players (NMBR 9's shared tiles) as
    "alice and bob, …", different ones one by one (three at most).
    """
    score = f"{best[0][0].score:+d}"
    told = [f"{and_list(names[s] for s in seats)}, {record.shown}" for record, seats in best[:3]]
    if len(told) == 1:
        return f"Best move: {told[0]} ({score})."
    more = f"; {len(best) - 3} more" if len(best) > 3 else ""
    return f"Best moves ({score}): {'; '.join(told)}{more}."


def _most_active(rows: Sequence[GameRow]) -> tuple[list[GameRow], list[str]]:
    """Return the games /games lists (by number), and a line naming those it leaves out.

    `rows`: newest activity first. A chat where lobbies piled up over the weeks gets the
    `GAMES_LISTED` most recently active, then "… and 51 more, idle longest: #1, #2, …".
    """
    shown = sorted(rows[:GAMES_LISTED], key=lambda r: r.id)
    idle = sorted(r.id for r in rows[GAMES_LISTED:])
    if not idle:
        return shown, []
    ids = _numbered(idle, SHOWN_IDS) + (", …" if len(idle) > SHOWN_IDS else "")
    return shown, [f"… and {len(idle)} more, idle longest: {ids}"]


def _numbered(ids: Sequence[int], most: int) -> str:
    """Return "#1, #2, #5": the first `most` game numbers."""
    return ", ".join(f"#{i}" for i in ids[:most])


def _played_by_others(table: _Table) -> bool:
    """Return whether a game has started with more than one person (only /resign ends it)."""
    people = [user for user in table.users if user is not None]
    return table.row.status == "active" and len(people) > 1


def _which_game(which: str, rows: Sequence[GameRow]) -> ServiceError:
    """Ask which of several games a command means: "{which} (#1, #2); add game=<id>, …"."""
    ordered = sorted(rows, key=lambda r: r.id)
    ids = _numbered([row.id for row in ordered], SHOWN_IDS)
    if len(ordered) > SHOWN_IDS:  # the advice must fit a 200-character answer whole
        ids += f" and {len(ordered) - SHOWN_IDS} more; /games lists them"
    return ServiceError("WHICH_GAME", f"{which} ({ids}); add game=<id>, e.g. game={ordered[0].id}.")


def _not_in_status(row: GameRow) -> ServiceError:
    """Return the refusal of a command that cannot act on a game in `row`'s status."""
    if row.status == "lobby":
        return _not_started(row.id)
    if row.status == "active":
        return ServiceError(
            "ALREADY_STARTED", f"Game #{row.id} has already started; /board game={row.id} shows it."
        )
    if row.status == "cancelled":
        return ServiceError("GAME_OVER", f"Game #{row.id} was cancelled; /games lists the others.")
    return ServiceError("GAME_OVER", f"Game #{row.id} is over; start one with /new.")


def _unknown_person(name: str, then: str) -> ServiceError:
    """Refuse an @name nobody here goes by; `then` says what to do instead."""
    return ServiceError(
        "UNKNOWN_PLAYER",
        f"I do not know @{isolated(clip(name, 32))} yet: people are known once they have written"
        " to me."
        f" {then}",
    )


def _place_elsewhere(gdef: GameDef) -> ServiceError:
    """Refuse /place in a game played one seat at a time: it is NMBR 9's, /play is theirs."""
    return ServiceError(
        "NOT_IN_THIS_GAME",
        f"/place belongs to NMBR 9; in {gdef.title} use /play <move> (see /rules {gdef.key}).",
    )


def _not_started(game_id: int, *, leaving: bool = False, short: int = 0) -> ServiceError:
    """Refuse a command a lobby cannot take: it has not started (/resign: /leave it instead).

    `short`: the players the lobby still needs before it can start, who must /join it first.
    """
    if leaving:
        then = f"to leave it, /leave game={game_id}"
    elif short:
        then = f"it needs {plural(short, 'more player')}, who can /join game={game_id}"
    else:
        then = f"start it with /start game={game_id}"
    return ServiceError("NOT_STARTED", f"Game #{game_id} has not started yet; {then}.")


def _not_playing(game_id: int) -> ServiceError:
    """Refuse a player's command about a game they do not sit in."""
    return ServiceError(
        "NOT_A_PLAYER",
        f"You are not playing in game #{game_id}; /board game={game_id} shows it, /new starts "
        "your own.",
    )


def _out_of(game_id: int) -> ServiceError:
    """Refuse a player who left a game that goes on (resigned, or out on passes)."""
    return ServiceError(
        "PLAYER_LEFT", f"You are out of game #{game_id}; the others play on without you."
    )


def _already_played(game_id: int) -> ServiceError:
    return ServiceError(
        "ALREADY_PLAYED", f"That turn was already played in game #{game_id}; nothing was changed."
    )


class _StaleGame(ServiceError):
    """A move's commit found the game changed since it was read (by another process)."""

    def __init__(self, game_id: int) -> None:
        error = _already_played(game_id)
        super().__init__(error.reason, error.message)


def _told_apart(names: Sequence[str]) -> tuple[str, ...]:
    """Return names with a repeated one numbered, as bots are ("Sam", "Sam-2").

    Two people may show the same name (Telegram users without a username are known by their
    full name): "Sam vs Sam" would leave nobody knowing whose turn it is, and two "1. Sam" rows
    nobody knowing whose record is whose. A game's seats and a leaderboard's rows (its text and
    its image alike) are named through it. Names are the same when they look the same
    (`name_key`: "Дмитрий" and "ДМИТРИЙ"), and a number never makes the name of another
    (`told_apart`: "Sam", "Sam", "Sam-2" are "Sam", "Sam-3", "Sam-2"). A right-to-left name
    comes back `isolated`, its number after the isolate ("⁨דוד⁩-2"), as every message shows a
    name.
    """
    return tuple(
        told_apart(
            [isolated(name) for name in names],
            key=lambda shown: name_key(visible_name(shown)),  # the isolate is no part of it
            numbered=lambda shown, n: f"{shown}-{n}",
        )
    )


def _leader_line(rank: int, name: str, row: LeaderboardRow) -> str:
    """Return one leaderboard line: "2. bob: 3 wins in 5 games, 412 points".

    `name` is the row's name as the leaderboard shows it (`_told_apart`).
    """
    return (
        f"{rank}. {name}: {plural(row.wins, 'win')} in"
        f" {plural(row.games, 'game')}, {plural(row.points, 'point')}"
    )


def places(records: Sequence[object]) -> list[int]:
    """Return the place of each row of a ranking from its record, best first: equal ones share.

    Rows with the same record (a leaderboard's wins and points, a solo best score) are tied
    whichever order they come in, so they stand next to each other and take the place of the
    first (1, 1, 3 — as sports tables do).
    """
    out: list[int] = []
    for n, record in enumerate(records):
        out.append(out[-1] if n > 0 and record == records[n - 1] else n + 1)
    return out


def _leader_places(rows: Sequence[LeaderboardRow]) -> list[int]:
    """Return the places of a leaderboard's rows: by wins, then points."""
    return places([(row.wins, row.points) for row in rows])


def _row_json(rank: int | None, name: str, row: LeaderboardRow) -> dict[str, Any]:
    out: dict[str, Any] = {
        "player": name,
        "games": row.games,
        "wins": row.wins,
        "points": row.points,
        "best": row.best,
    }
    if rank is not None:
        out["rank"] = rank
    return out


def _stats_line(label: str, row: LeaderboardRow) -> str:
    best = f", best {row.best}" if row.best is not None else ""
    return (
        f"{label}: {plural(row.games, 'game')}, {plural(row.wins, 'win')},"
        f" {plural(row.points, 'point')}{best}"
    )

"""The Telegram adapter (python-telegram-bot 22): commands, inline buttons, private racks.

``feudbot telegram`` calls `run_telegram(settings)`: it opens the database, builds the PTB
`Application` (with `AIORateLimiter` and, when ``TELEGRAM_API_BASE_URL`` is set, a self-hosted
Bot API server), fills the command menu (``setMyCommands``), starts the deadline dispatcher and
polls for updates (or serves a webhook, when configured) until SIGINT/SIGTERM.

The four adapter steps (STYLE.md §8), for text and for buttons alike:

1. parse the platform input: a command message (``/play 8H QUIZ``) or a button's
   ``callback_data`` ``g:<game id>:<action>:<turn>`` (<= 64 bytes, ids only);
2. call the service (`Service.handle`, the same command language as the console);
3. get `Reply` values back;
4. send them: chat replies to the chat (one board message per game, edited in place), private
   replies privately: a direct message when the player has started the bot; otherwise an alert
   (for a button press) or a mention in the group with a deep link
   ``t.me/<bot>?start=g<id>`` — a rack is never shown in a group.

Every callback query is answered once, before anything slow is sent; a button whose turn has
passed is answered politely and does nothing. All state comes from storage, so buttons keep
working after a restart; only the id of each game's board message lives in memory (storage has
no column for it), so after a restart the next update posts a fresh board message.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import html
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from telegram import (
    Bot,
    BotCommand,
    CallbackQuery,
    ChatMemberRestricted,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    Message,
    ReplyParameters,
    Update,
)
from telegram import Chat as TgChat
from telegram import User as TgUser
from telegram.constants import ChatMemberStatus, ChatType, MessageEntityType, ParseMode
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Conflict,
    Forbidden,
    InvalidToken,
    NetworkError,
    TelegramError,
)
from telegram.ext import (
    AIORateLimiter,
    Application,
    ApplicationBuilder,
    BaseRateLimiter,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)
from telegram.request import BaseRequest

from bot.adapters.common import (
    APOLOGY,
    BOARD_AGAIN_AFTER,
    JUST_POSTED,
    KeptMessages,
    ended_game,
    image_bytes,
    image_name,
    one_line_retries,
    reply_table,
    serve_until_stopped,
    short_description,
)
from bot.commands import COMMANDS, MOVE_WORDS, SPECS, CommandError, games_list, parse_command
from bot.config import Settings
from bot.core.errors import GameError, Reason
from bot.core.words import clip, shown_name
from bot.games import GAMES
from bot.reminders import Dispatcher
from bot.replies import ChatTarget, Image, Reply, UserTarget
from bot.service import ChatRef, Service, UserRef
from storage import Database, GameMessage, GameRow
from storage.messages import BOARD  # the slot of a game's board message in storage

log = logging.getLogger(__name__)

PLATFORM = "telegram"
OFFICIAL_API_BASE_URL = "https://api.telegram.org/bot"
TEXT_LIMIT = 4096
CAPTION_LIMIT = 1024
ALERT_LIMIT = 200
CALLBACK_DATA_LIMIT = 64
COMMAND_DESCRIPTION_LIMIT = 256
MENU_DESCRIPTION = 100  # a menu line: the summary's first sentence, as Discord shows it
GROUP_MESSAGES_PER_MINUTE = 20  # Telegram's limit for one group, in any 60 seconds
# AIORateLimiter's group limiter is a leaky bucket (aiolimiter): `group_max_rate` messages may go
# at once, then one every `group_time_period / group_max_rate` seconds, so within any 60 s it
# lets up to max_rate * (1 + 60 / time_period) through: 40 for "20 per 60 s". A burst of 4 then
# one every 4.5 s lets at most 4 + 13 = 17 through, as measured in the storm test (where each
# group's messages are sent one after another; several racing for one bucket let a few more by).
GROUP_BURST = 4
GROUP_INTERVAL = 4.5  # seconds between messages to one group once a burst is spent
RATE_LIMIT_RETRIES = 3
# A button press is answered with the outcome when the service is this quick (seconds), else
# with "Working on it…" at once (Telegram shows a spinner until the answer, for 15 s at most).
ANSWER_WITHIN = 1.0

# Button actions: the callback_data action word -> the label under the message.
ACTIONS: dict[str, str] = {
    "join": "Join",
    "start": "Start",
    "rack": "My rack",
    "pass": "Pass",
    "board": "Board",
    "rematch": "Rematch",
    "passok": "Yes, pass",
    "keep": "Keep playing",
}
# Commands that end a game: not in the command menu, whose entries are sent by one tap.
TYPED_ONLY = frozenset({"resign", "cancel"})
# Such a command in a message's text (Telegram makes it a tap that sends it): `untappable`.
_TYPED_ONLY_WORD = re.compile(
    rf"(?<![\w/<>\"=])/(?:{'|'.join(sorted(TYPED_ONLY))})(?:@\w+)?(?![\w/])"
)
LOBBY_ACTIONS = ("join", "start")
PLAY_ACTIONS = ("rack", "pass", "board")
# Pass asks first (a stray tap must not give the turn away): the board's keyboard shows these.
CONFIRM_ACTIONS = ("passok", "keep")
# Buttons that act on one turn: pressing them after that turn is refused politely.
TURN_BOUND = frozenset({"pass", "passok", "keep"})
# Replies whose content is a player's secret: never shown in a group, not even as a fallback
# (a hint names rack tiles; the unseen tiles give the rack away by what they lack; a preview
# shows a move not played; /games lists the asker's games in other chats).
SECRET_KINDS = frozenset({"rack", "hint", "unseen", "preview", "my_games"})
# Commands that ask for such a secret: typed in a group, each gets the "open a private chat" notice.
ASKED_SECRETS = frozenset({"rack", "bag", "hint", "try", "moves"})
# Moves that lay tiles: their answer is public, but a refusal by the rules after the rack check
# ("KNTWGLT is not in the dictionary" proves the tiles are there) is as secret as /try's.
LAYING_COMMANDS = frozenset({"play", "swap"})
# The rules' refusals of a move that come after its tiles were found on the rack. The word games
# check bounds, length, letters, new tiles and whole words first (a notation mistake tells
# nothing), then the rack, then the start square, contact, the taken tile and the dictionary;
# Numfeud checks each step's tiles as it lays them, then the board: no tile laid, start square,
# contact, jokers, melds. (Rummikub's steps are public drafts anyway.) A Numfeud move of several
# steps ("K8>L9; 9L R9 R10 R11") checks a later step after an earlier one's tiles: any rules
# refusal of it counts (`reveals_tiles`).
_AFTER_RACK_REASONS = frozenset(
    str(r)
    for r in (
        Reason.TILE_NOT_IN_RACK,
        Reason.FIRST_MOVE_NOT_THROUGH_START,
        Reason.NOT_ADJACENT,
        Reason.WORD_NOT_IN_LEXICON,
        Reason.TAKEN_TILE_NOT_USED,
        Reason.ONLY_TAKEN_TILE,
        Reason.TAKEN_TILE_PUT_BACK,
        Reason.NO_TILE_PLAYED,
        Reason.CELL_TAKEN,  # Numfeud: a clash on the board found after the step's tiles were
        Reason.TWO_JOKERS,
        Reason.INVALID_MELD,
        Reason.JOKER_IN_LAST_PLAY,
        # Rummikub: a step's source meld and the Assist rearrangement are looked at only once
        # the step's rack tiles were found on the rack.
        Reason.NO_SUCH_MELD,
        Reason.TILE_NOT_IN_MELD,
        Reason.NOTHING_MOVED,
        Reason.NO_ARRANGEMENT,
        Reason.INITIAL_MELD_FROM_RACK_ONLY,
        Reason.INITIAL_MELD_TOO_LOW,
    )
)
# Of those, the moves: typed in the private chat, each is confirmed there ("Played in the group").
PLAYED_COMMANDS = frozenset(
    {"play", "swap", "pass", "resign", "place", "done", "undo", "reset", "draw"}
)
# And the commands whose only answer is news in the group: confirmed there as "Sent to the group".
SENT_COMMANDS = frozenset({"nudge"})
# Commands of one player in one running game: typed in the private chat with the bot, they act
# on the player's game in a group (news there, answers here), so a swap never shows its tiles.
ROUTED_COMMANDS = frozenset(
    {
        "play",
        "swap",
        "pass",
        "resign",
        "place",
        "try",
        "hint",
        "rack",
        "bag",
        "moves",
        "done",
        "undo",
        "reset",
        "draw",
        "nudge",
        "board",
        "history",
    }
)
# Chat replies of such a command that answer the asker rather than tell the group news.
ANSWER_KINDS = frozenset({"board", "history"})
# A refusal of such a command that comes from the rules may tell what is on the rack ("EAWRN is
# not in the dictionary" says the tiles are there; "you have no Q" says one is not): it is as
# secret as the answer. Refusals about finding the game or the turn tell nothing of the tiles.
_TILE_SAFE_REASONS = frozenset({Reason.GAME_OVER, Reason.NOT_YOUR_TURN, Reason.NOT_A_PLAYER})
_RULE_REASONS = frozenset(str(r) for r in Reason if r not in _TILE_SAFE_REASONS)
_REVEALING_REASONS = _RULE_REASONS | {"INVALID_MOVE", "GAME_ERROR"}
# Chat replies that show a game's board: they update the game's one board message.
BOARD_KINDS = frozenset({"game_started", "move_played", "timeout", "draft"})
_CALLBACK = re.compile(r"^g:(\d{1,18}):([a-z]{1,8}):(\d{1,9})$")
_DEEP_LINK = re.compile(r"^g(\d{1,18})$")
# A "/" or "@" that starts a word: Telegram shows "/resign" as a command (a tap sends it) and
# "@alice" as a mention of alice (it notifies her), wherever a message holds them.
_COMMAND_OR_MENTION = re.compile(r"(?<!\w)[/@]+")
CONFIRM_PASS = "Tap Yes, pass, or Keep playing."  # after the service's question
STALE = "That button belongs to an earlier turn of game #{id}; use the newest board message."
PLACED = "placed"  # the group notice of tiles placed at a round deadline (`_placed_notice`)
ROUND = "round "  # + the round: the group notice of a round that opened (`_round_notice`)
SEE_TILES = "how to see the tiles"  # told once a game, in `db.notices` (unasked)
ELSEWHERE = "That button belongs to game #{id} of another chat; nothing was changed."
WELCOME = (
    "Hello! Private messages are on: your racks and reminders will arrive here. "
    "Play me right here with /new webfeud bot=easy, or friends in a group with "
    "/new webfeud @friend; moves of your group games can be sent here too. /help lists more."
)
# Posted once when the bot is added to a group (fewer than 600 characters).
# The games are described as /help describes them (`GameDef.tagline`).
GROUP_WELCOME = (
    f"Hello! I host five tile games:\n{games_list()}\n"
    "Start: /new webfeud @friend, or /new webfeud bot=easy to play me. Your tiles come in our "
    "private chat. /help for more."
)
# A group that refused a picture gets its boards as text, a restart or not; a new picture a day
# later is tried again (Telegram tells a bot nothing when a group's permissions change).
PHOTOS_AGAIN_AFTER = timedelta(days=1)
OPEN_PRIVATE = "Open a private chat"  # the label of a button that opens it (a t.me link)
# Added under the news of a move typed in a group whose text told a secret (once per player
# and game): the command to send privately instead, and what nobody then sees.
SECRET_TIP = (
    "Tip: send /{command} to me in private (t.me/{username}): it is played here the same, "
    "and nobody sees {what}."
)
PLAIN_TEXT = "Commands start with /, e.g. /new webfeud bot=easy; /help lists them."
# Telegram's stand-in sender for an admin who posts as the group ("Remain anonymous").
ANONYMOUS_ADMIN_ID = 1087968824
ANONYMOUS = (
    "You are posting anonymously (as the group); turn off “Remain anonymous” in your admin "
    "rights to play."
)
AS_CHANNEL = (
    "You are posting as the channel “{name}”, not as yourself; choose yourself under “Send as” "
    "to play."
)
# The group notice for a private answer that has nothing to tap for (unlike a rack): "My rack"
# under the board answers neither /try, /hint, /bag nor /moves, so only the private chat does.
ASK_PRIVATELY = (
    "my answer to /{command} {what}, so it goes only to our private chat, which you have "
    "not opened yet. Open it with the button below, then send /{command} there{moves}."
)
ASK_MOVES = ": it is played in this game just the same, and nobody sees your tiles"
PRIVATE_WHAT = {
    "my_games": "lists your games in other chats",
    "error": "would tell about your tiles",
    # /try: the same words for a legal move as for a refusal ("shows a move with your tiles"
    # would tell the group, which saw the /try typed, that those tiles are on the rack).
    "preview": "would tell about your tiles",
    "hint": "shows moves for your tiles",  # /hint, NMBR 9's /moves
    "unseen": "would tell about your tiles",  # /bag: the rack, by what the list lacks
}


# --- small pure helpers ------------------------------------------------------------------------


def api_base_url(setting: str | None) -> str:
    """Return the Bot API base URL PTB appends the token to (``…/bot``).

    ``TELEGRAM_API_BASE_URL`` may name just the server (``http://localhost:8081``) or the full
    prefix (``http://localhost:8081/bot``); unset means the official API.
    """
    if not setting:
        return OFFICIAL_API_BASE_URL
    base = setting.strip().rstrip("/")
    return base if base.endswith("/bot") else base + "/bot"


def file_base_url(base: str) -> str:
    """Return the file download URL prefix that goes with a Bot API base URL."""
    return base.removesuffix("/bot") + "/file/bot"


def callback_data(game_id: int, action: str, turn: int) -> str:
    """Return a button's ``callback_data``: ``g:<game id>:<action>:<turn>`` (<= 64 bytes)."""
    data = f"g:{game_id}:{action}:{turn}"
    if len(data.encode()) > CALLBACK_DATA_LIMIT:
        raise ValueError(f"callback data {data!r} is longer than {CALLBACK_DATA_LIMIT} bytes")
    return data


def parse_callback(data: str | None) -> tuple[int, str, int] | None:
    """Return (game id, action, turn) of our callback data, or None for anything else."""
    match = _CALLBACK.match(data or "")
    if match is None or match.group(2) not in ACTIONS:
        return None
    return int(match.group(1)), match.group(2), int(match.group(3))


def deep_link(username: str, game_id: int) -> str:
    """Return the link that opens a private chat with the bot about one game."""
    return f"https://t.me/{username}?start=g{game_id}"


def display_name(user: TgUser) -> str:
    """Return the name a Telegram user plays under: the @username (how others invite them).

    Without a username it is the full name with ``_`` for spaces, so ``@Carol_Smith`` works,
    less any ``/`` or ``@`` that starts a word: a name shown as "/resign" would be a tap that
    resigns whoever taps it in the news, one shown as "@alice" would ping alice and read as her.
    """
    name = user.username or _COMMAND_OR_MENTION.sub("", "_".join(user.full_name.split()))
    return name or str(user.id)


def user_ref(user: TgUser, *, is_admin: bool = False) -> UserRef:
    """Return who a Telegram user is to the service; their @username is theirs alone (handle)."""
    return UserRef(PLATFORM, str(user.id), display_name(user), is_admin, handle=user.username)


def private_alert(text: str, link: str) -> str:
    """Return a private reply (a rack and its notes) as an alert of at most 200 characters.

    The start link goes along when it fits; otherwise the whole text alone. A text that is
    longer still keeps its whole first lines (the rack) and says that the rest waits in the
    private chat: a rack or a rule is never cut off silently. A rack line too long by itself
    (a Rummikub rack drawn up to 50 tiles) keeps the tiles that fit, whole, and an ellipsis.
    """
    tail = f"\n\nPictures in private: {link}"  # short: an NMBR 9 tile text and it fit 200
    if len(text) + len(tail) <= ALERT_LIMIT:
        return text + tail
    if len(text) <= ALERT_LIMIT:
        return text
    more = f"\n(More than an alert holds: start me in private to read it all: {link})"
    kept = ""
    for line in text.splitlines():
        longer = f"{kept}\n{line}" if kept else line
        if len(longer) + len(more) > ALERT_LIMIT:
            break
        kept = longer
    if not kept:
        # Better the first tiles than none: cut after a whole tile ("… B5 …"), never inside one.
        room = ALERT_LIMIT - len(more) - len(" …")
        head = text.splitlines()[0][: room + 1]
        kept = (head.rsplit(" ", 1)[0] if " " in head else head[:room]) + " …"
    return kept + more


def board_caption(text: str) -> str:
    """Return the caption of an edited board photo: the news, or its last lines that fit.

    News longer than a caption (1024 characters: a move and three bots' answers) keeps its
    newest whole lines, which end with whose turn it is; the whole news goes as a message of
    its own. "" when not even the last line fits.
    """
    if len(text) <= CAPTION_LIMIT:
        return text
    kept = ""
    for line in reversed(text.splitlines()):
        longer = f"{line}\n{kept}" if kept else line
        if len(longer) > CAPTION_LIMIT:
            break
        kept = longer
    return kept


def topic_of(message: Message | None) -> int | None:
    """Return the forum topic a message was sent in, None outside one.

    Only ``is_topic_message`` says so: a reply in a group without topics (or in a forum's
    General topic) carries a ``message_thread_id`` too, that of its thread of replies, which
    is no topic to send to. A private chat has none.
    """
    if message is None or message.chat.type == ChatType.PRIVATE or not message.is_topic_message:
        return None
    return message.message_thread_id


def message_link(chat_id: int, message_id: int, thread: int | None) -> str:
    """Return the t.me link of a supergroup's message (in forum topic `thread`), for members."""
    internal = str(chat_id).removeprefix("-100")  # a supergroup's id without Telegram's prefix
    link = f"https://t.me/c/{internal}/{message_id}"
    return f"{link}?thread={thread}" if thread is not None else link


def _group_id(to: object) -> int | None:
    """Return the Telegram id of the group a reply goes to; None for a person's private chat.

    (A private chat's id is the person's, positive; groups and supergroups have negative ids.)
    """
    if not isinstance(to, ChatTarget):
        return None
    chat_id = int(to.platform_chat_id)
    return chat_id if chat_id < 0 else None


def _bad_request(error: TelegramError, *says: str) -> bool:
    """Return whether Telegram answered 400 Bad Request with one of the phrases `says`."""
    text = str(error).lower()
    return isinstance(error, BadRequest) and any(phrase in text for phrase in says)


def may_not_write(error: TelegramError) -> bool:
    """Return whether Telegram refused a message because the bot may not write in the chat."""
    return _bad_request(error, "not enough rights to send text messages")


def photos_refused(error: TelegramError) -> bool:
    """Return whether Telegram refused a picture: the chat does not let the bot send photos."""
    return _bad_request(error, "not enough rights to send photos")


def untappable(markup: str) -> str:
    """Return HTML `markup` with each game-ending command (`TYPED_ONLY`) in a code entity.

    Telegram shows "/resign" in a message as a command that one tap sends: /help's "… /pass,
    /resign." and a refusal's "give up with /resign game=1" would be a stray tap from losing a
    game, which the command menu leaves those commands out to avoid. In code they read the same
    and are copied, not sent, by a tap.
    """
    return _TYPED_ONLY_WORD.sub(lambda m: f"<code>{m.group(0)}</code>", markup)


def with_text_board(text: str, board: str | None) -> str:
    """Return `text` as HTML, with `board` below it in monospace when both fit in a message."""
    out = untappable(html.escape(clip(text, TEXT_LIMIT), quote=False))
    if board:
        block = f"<pre>{html.escape(board, quote=False)}</pre>"
        if len(out) + len(block) + 1 <= TEXT_LIMIT:
            return f"{out}\n{block}" if out else block
    return out


def thread_gone(error: TelegramError) -> bool:
    """Return whether Telegram refused a send because its forum topic is gone or closed."""
    return _bad_request(error, "thread not found", "topic_closed")


def is_anonymous(message: Message) -> bool:
    """Return True for a message posted as a chat (an anonymous admin, a channel), not a person."""
    user = message.from_user
    return message.sender_chat is not None or (user is not None and user.id == ANONYMOUS_ADMIN_ID)


def reveals_tiles(reply: Reply, *, move: bool = False, steps: int = 1) -> bool:
    """Return True for a refusal that may tell what is on the asker's rack (see above).

    For a `move` (/play, /swap) of one step only the refusals after the rack check count:
    "A move is a square and a word: 8H QUIZ" tells nothing of the tiles.
    """
    if reply.kind != "error":
        return False
    reason = str(reply.event.get("reason", ""))
    if move and steps < 2:
        return reason in _AFTER_RACK_REASONS
    if move:  # a later step is checked after an earlier step's tiles: any rules refusal
        return reason in _RULE_REASONS
    return reason in _REVEALING_REASONS


def names_rack_tiles(reply: Reply) -> bool:
    """Return True for a refusal that says which tiles the asker holds or lacks (any command)."""
    return reply.kind == "error" and reply.event.get("reason") == Reason.TILE_NOT_IN_RACK


def _parse_quietly(text: str) -> tuple[str, int | None] | None:
    """Return (command name, game=<id>) of a command line, or None when it does not parse.

    A move given without its argument (a bare ``/swap``) still counts: the service answers it
    with the notation of the player's game.
    """
    try:
        command = parse_command(text)
    except CommandError as error:
        return None if error.lacking is None else (error.lacking, error.game_id)
    return command.name, command.game_id


def split_text(text: str, limit: int = TEXT_LIMIT) -> list[str]:
    """Split a long text into messages of at most `limit` characters, at line breaks."""
    parts: list[str] = []
    current = ""
    for line in text.splitlines(keepends=True):
        while len(line) > limit:
            if current:
                parts.append(current)
                current = ""
            parts.append(line[:limit])
            line = line[limit:]
        if len(current) + len(line) > limit:
            parts.append(current)
            current = ""
        current += line
    if current.strip():
        parts.append(current)
    return [part.rstrip("\n") for part in parts] or [text[:limit]]


def command_menu() -> list[BotCommand]:
    """Return the command menu: the commands of the language with their first sentence.

    A tap on a menu entry sends it at once, so the commands that end a game (`TYPED_ONLY`) are
    left out: they are typed, never one stray tap away (/help lists them).
    """
    menu = []
    for spec in COMMANDS:
        if spec.name in TYPED_ONLY:
            continue
        # Short, as Discord's: its first sentence, not cut at "e.g." ("…, e.g. /play 8H QUIZ.").
        summary = short_description(spec.summary.replace("`", ""), MENU_DESCRIPTION)
        menu.append(BotCommand(spec.name, summary))
    return menu


@functools.cache
def pass_label(game_key: str) -> str | None:
    """Return the label of the Pass button for a game, or None when it has no such move.

    /pass plays the game's ``pass`` move: in Rummikub that is drawing a tile ("Draw"); NMBR 9
    has none, so its boards get no such button.
    """
    gdef = GAMES.get(game_key)
    if gdef is None:
        return None
    try:
        move = str(gdef.parse_move("pass"))
    except GameError:
        return None
    return ACTIONS["pass"] if move == "pass" else move.split()[0].capitalize()


def is_secret(reply: Reply) -> bool:
    """Return True for a private reply that must never reach a group (a rack, any picture)."""
    return isinstance(reply.to, UserTarget) and (reply.kind in SECRET_KINDS or bool(reply.images))


def mention(user: UserTarget) -> str:
    """Return an HTML mention of a player (works without a username)."""
    name = html.escape(shown_name(user.name))  # a right-to-left name isolated (`isolated`)
    return f'<a href="tg://user?id={int(user.platform_user_id)}">{name}</a>'


def default_rate_limiter() -> AIORateLimiter:
    """Return the production limiter: under 20 messages a minute per group, 429s retried."""
    return AIORateLimiter(
        group_max_rate=GROUP_BURST,
        group_time_period=GROUP_BURST * GROUP_INTERVAL,
        max_retries=RATE_LIMIT_RETRIES,
    )


# --- the front end -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BoardMessage:
    """The message that shows a game's board in its chat (edited in place move after move)."""

    chat_id: int
    message_id: int
    photo: bool
    buttons: bool = True  # whether it shows buttons (a finished game's board has none left)


def _board_from_kept(kept: GameMessage) -> BoardMessage:
    """Return the board message a stored row keeps."""
    data = kept.data
    photo, buttons = bool(data.get("photo")), bool(data.get("buttons", True))
    return BoardMessage(int(kept.chat_id), int(kept.message_id), photo, buttons)


def _kept_board(game_id: int, slot: str, board: BoardMessage) -> GameMessage:
    """Return the stored row of a game's board message."""
    data = {"photo": board.photo, "buttons": board.buttons}
    return GameMessage(game_id, slot, str(board.chat_id), str(board.message_id), data)


@dataclass
class Origin:
    """Where an update came from, so replies can answer it in the right place."""

    chat_id: int
    user_id: int
    private: bool
    message_id: int | None = None
    query: CallbackQuery | None = None
    answered: bool = False
    asked_secret: bool = False  # the user asked for a secret (/rack, /bag, …); else it came unasked
    command: str = ""  # the command typed (or the button's action), without the slash
    consumed: set[int] = field(default_factory=set)  # id() of replies shown in the answer
    steps: int = 1  # the steps of a move typed (Numfeud's "K8>L9; 9L R9 R10 R11" has two)
    game_id: int | None = None  # the game=<id> typed, if any
    routed: bool = False  # typed in the private chat, acting on the player's game in a group
    thread_id: int | None = None  # the forum topic it came from: answers go back there


def _kind(step: Reply | Sequence[Reply]) -> str:
    return step.kind if isinstance(step, Reply) else "board"


def _group_secret_news(replies: Sequence[Reply], origin: Origin) -> tuple[Reply, str, str] | None:
    """Return the news of an accepted move typed in a group whose text told a secret.

    With it: the command to send privately instead, and what nobody sees then (for the tip).
    A swap (`/swap AB`, `/play swap AB`: "swapped 2 tiles") names the tiles that went back; an
    NMBR 9 placement while its round goes on ("has placed this round's tile") says where the
    tile went before the others have placed; a SmartFeud word that lost the turn (pro mode)
    shows tiles that are still on the rack. None for anything else.
    """
    if origin.private or origin.query is not None:
        return None
    if origin.command not in ("swap", "play", "place") or origin.message_id is None:
        return None
    if any(r.kind == "error" for r in replies):
        return None
    for r in replies:
        if not isinstance(r.to, ChatTarget) or not r.event.get("game_id"):
            continue
        move = str(r.event.get("move", ""))
        if r.kind == "move_played" and move.startswith("swapped "):
            what = "which tiles went back"
            command = "swap"
        elif r.kind == "placed":
            what = "where your tile went until the round ends"
            command = "place"
        elif r.kind == "move_played" and move.startswith("lost the turn"):
            what = "the tiles of a word that loses the turn"
            command = "play"
        else:
            continue
        return r, command, what
    return None


class TelegramFrontEnd:
    """Turns Telegram updates into service calls and `Reply` values into Bot API calls."""

    def __init__(self, service: Service) -> None:
        """Bind the front end to the service (whose database it also reads)."""
        self.service = service
        self.db: Database = service.db
        self.bot: Bot | None = None
        self.username = ""
        # Each game's board message, also kept in storage: a restart forgets none.
        self.boards = KeptMessages(self.db, BOARD, _board_from_kept, _kept_board)
        self._dm: dict[int, bool] = {}  # storage user id -> may we write to them privately
        self._started: set[int] = set()  # Telegram ids known to have written to us privately
        self._moved: dict[int, int] = {}  # a basic group's id -> its supergroup's (upgrades seen)
        self._welcomed: set[int] = set()  # groups greeted since the bot was (last) added
        # Forum topics found deleted (chat id, thread id): their games' news goes to General.
        self._gone_topics: set[tuple[int, int]] = set()
        # Groups that refused a photo, and when (kept in storage): pictures go as text there.
        self._text_only: dict[int, datetime] = {}

    # -- wiring --

    def install(self, app: Application[Any, Any, Any, Any, Any, Any]) -> None:
        """Register the handlers and the global error handler on a PTB application."""
        names = [spec.name for spec in COMMANDS]
        app.add_handler(CommandHandler(names, self.on_command, filters=filters.UpdateType.MESSAGE))
        # Moves people type as commands (/quit, /skip): in a group, answered only to a player
        # of a game there — other bots of the group may own the word (a music bot's /skip).
        app.add_handler(
            CommandHandler(
                list(MOVE_WORDS),
                self.on_move_word,
                filters=filters.ChatType.GROUPS & filters.UpdateType.MESSAGE,
            )
        )
        # In a private chat an unknown /command is surely meant for us: the service explains.
        app.add_handler(
            MessageHandler(
                filters.ChatType.PRIVATE & filters.COMMAND & filters.UpdateType.MESSAGE,
                self.on_command,
            )
        )
        # Plain text in a private chat is surely meant for us too: say how to talk to the bot.
        # (In groups it is the people's conversation; edited messages are ignored everywhere.)
        app.add_handler(
            MessageHandler(
                filters.ChatType.PRIVATE
                & filters.TEXT
                & ~filters.COMMAND
                & filters.UpdateType.MESSAGE,
                self.on_plain_text,
            )
        )
        app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, self.on_migrate))
        # Added to a group: Telegram tells it twice (my_chat_member, and the service message
        # new_chat_members); one welcome is posted.
        app.add_handler(ChatMemberHandler(self.on_my_membership, ChatMemberHandler.MY_CHAT_MEMBER))
        app.add_handler(MessageHandler(filters.StatusUpdate.NEW_CHAT_MEMBERS, self.on_new_members))
        app.add_handler(CallbackQueryHandler(self.on_callback))
        app.add_error_handler(self.on_error)

    async def setup(self, bot: Bot) -> None:
        """Remember the (initialised) bot and fill its command menu."""
        self.bot = bot
        self.username = bot.username
        refused = await self.db.chats.photos_refused(PLATFORM)
        self._text_only = {int(chat_id): since for chat_id, since in refused.items()}
        await bot.set_my_commands(command_menu())

    def _bot(self) -> Bot:
        if self.bot is None:
            raise RuntimeError("TelegramFrontEnd.setup(bot) was not called")
        return self.bot

    # -- step 1: parse the platform input --

    async def on_move_word(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Answer a move typed as a command in a group ("/quit": say "/play quit"), if asked.

        Only a player of a game there is answered; anyone else's /skip is left to the group's
        other bots.
        """
        user, chat = update.effective_user, update.effective_chat
        if user is None or chat is None:
            return
        if await self.service.plays_here(self._chat_ref(chat), user_ref(user)):
            await self.on_command(update, context)

    async def on_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Run one command message of the command language."""
        message, user, chat = update.effective_message, update.effective_user, update.effective_chat
        if message is None or user is None or chat is None or not message.text:
            return
        if is_anonymous(message):
            # Telegram hides who it is: every such admin would be one player, "GroupAnonymousBot".
            sender = message.sender_chat
            text = ANONYMOUS
            if sender is not None and sender.id != chat.id:  # a channel, not the group itself
                name = shown_name(sender.title or "") or sender.username or sender.id
                text = AS_CHANNEL.format(name=name)
            await self._send_text(
                chat.id, text, reply_to=message.message_id, thread=topic_of(message)
            )
            return
        private = chat.type == ChatType.PRIVATE
        name = message.text.split()[0][1:].split("@", 1)[0].lower()
        origin = Origin(
            chat.id,
            user.id,
            private,
            message_id=message.message_id,
            asked_secret=name in ASKED_SECRETS,
            command=name,
            thread_id=topic_of(message),
        )
        if private:
            await self._allow_dm(user)
        is_admin = private or (name == "cancel" and await self._is_admin(chat, user))
        ref = user_ref(user, is_admin=is_admin)
        text, mentioned = await self._command_text(message)
        if private and name == "start" and await self._private_start(text, ref, origin):
            return
        where = self._chat_ref(chat, origin.thread_id)
        text = await self._replied_game(message, text)
        parsed = _parse_quietly(text)
        if parsed is not None:
            origin.command, origin.game_id = parsed
            origin.steps = text.count(";") + 1
        if private and parsed is not None:
            routed = None
            if parsed[0] in ROUTED_COMMANDS:
                routed = await self.service.private_route(where, user_ref(user), *parsed, text)
            if isinstance(routed, str):  # several games elsewhere: which one is meant?
                await self._send_text(chat.id, routed, reply_to=message.message_id)
                return
            if routed is not None:
                # Played in the group's game: news goes there, answers come here.
                where, ref, origin.routed = routed, user_ref(user), True
        if not private:  # written in the group: the bot is in it, whatever it missed meanwhile
            await self.deliver(await self.service.chat_heard(PLATFORM, str(chat.id)), None)
        replies = await self.service.handle(where, ref, text, mentioned=mentioned)
        await self.deliver(replies, origin)
        if not private:
            await self._point_to_topic(replies, origin)
        if (
            origin.routed
            and origin.command in PLAYED_COMMANDS | SENT_COMMANDS
            and not any(
                isinstance(r.to, UserTarget) and r.to.platform_user_id == str(user.id)
                for r in replies
            )
        ):
            # Typed here, played there: say so here too (a pass or resignation has no private
            # answer of its own, and the group's board edit notifies nobody; nor has a nudge).
            news = next((r.text for r in replies if isinstance(r.to, ChatTarget)), "")
            done = "Played in" if origin.command in PLAYED_COMMANDS else "Sent to"
            if news:
                await self._send_text(chat.id, f"{done} the group: {news.splitlines()[0]}")

    async def _point_to_topic(self, replies: Sequence[Reply], origin: Origin) -> None:
        """Typed in one forum topic about a game that lives in another: say so here, with a link.

        (The news went to the game's topic, where the board is: seen from here, nothing
        happened.) The link opens the game's board message in its topic.
        """
        news = next(
            (
                r
                for r in replies
                if isinstance(r.to, ChatTarget)
                and r.event.get("game_id")
                and self._live_topic(origin.chat_id, r.to.thread_id)
                != self._live_topic(origin.chat_id, origin.thread_id)
            ),
            None,
        )
        if news is None or not news.text:
            return
        assert isinstance(news.to, ChatTarget)
        game_id = int(news.event["game_id"])
        thread = self._live_topic(origin.chat_id, news.to.thread_id)
        where = "its own topic" if thread is not None else "the General topic"
        text = f"Game #{game_id} is played in {where}: {news.text.splitlines()[0]}"
        markup = None
        board = await self.boards.get(game_id)
        if board is not None and board.chat_id == origin.chat_id:
            link = message_link(board.chat_id, board.message_id, thread)
            button = InlineKeyboardButton(f"Go to game #{game_id}", url=link)
            markup = InlineKeyboardMarkup([[button]])
        try:
            await self._send_text(
                origin.chat_id,
                text,
                markup=markup,
                reply_to=origin.message_id,
                thread=origin.thread_id,
            )
        except TelegramError as error:
            log.info("could not point to the topic of game %d: %s", game_id, error)

    def _live_topic(self, chat_id: int, thread: int | None) -> int | None:
        """Return the topic a message to `thread` lands in: None (General) once it is gone."""
        return None if (chat_id, thread) in self._gone_topics else thread

    async def on_plain_text(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Answer text that is not a command, in a private chat, with how commands look."""
        message, user = update.effective_message, update.effective_user
        if message is None:
            return
        answer = PLAIN_TEXT
        if user is not None:
            await self._allow_dm(user)  # writing here means the private chat is open
            # A move typed without its slash ("8H QUIZ"): say how to send it, not /new.
            move = await self.service.unslashed_move(
                self._chat_ref(message.chat), user_ref(user), message.text or ""
            )
            answer = move or answer
        await self._send_text(message.chat.id, answer, reply_to=message.message_id)

    async def on_migrate(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Follow a group upgraded to a supergroup: its games, boards and leaderboards move along.

        Telegram says it in both chats (``migrate_to_chat_id`` in the old group,
        ``migrate_from_chat_id`` in the new supergroup); the second finds nothing left to move.
        """
        message = update.effective_message
        if message is None:
            return
        if message.migrate_to_chat_id:
            old, new = message.chat.id, message.migrate_to_chat_id
        elif message.migrate_from_chat_id:
            old, new = message.migrate_from_chat_id, message.chat.id
        else:
            return
        await self._migrated(old, new)

    async def _migrated(self, old: int, new: int) -> None:
        """Move group `old`'s games, boards and leaderboards to supergroup `new`."""
        self._moved[old] = new
        await self.boards.forget_chat(PLATFORM, str(old))  # the next update posts a board
        moved = await self.service.move_chat(PLATFORM, str(old), str(new))
        if moved is not None:
            log.info("chat %s became %s (a supergroup); its games follow", old, new)

    def _chat_id(self, target: ChatTarget) -> int:
        """Return the Telegram id of a chat reply's target, following a group's upgrade.

        A reply made before the upgrade was seen (a bot's move, a reminder) may still carry the
        group's old id, so the upgrades seen since the start are applied here.
        """
        chat_id = int(target.platform_chat_id)
        return self._moved.get(chat_id, chat_id)

    async def _command_text(self, message: Message) -> tuple[str, dict[str, str]]:
        """Return the command line, with mentions of users without a username as ``@name``.

        Picking such a user in Telegram's mention menu gives their full name (maybe with spaces)
        and a ``text_mention`` entity holding the user; the service knows players by name, so
        the user is stored and the span becomes ``@<their play name>``. Also returned: each
        such name → the user's id, so that the name means them even if another person's
        username is that name.
        """
        text = message.text or ""
        mentioned: dict[str, str] = {}
        # Each span is replaced where its entity says it is (offsets count UTF-16 code units),
        # not where its text first occurs: "Sam" may also be inside an "@Sam_Smith" before it.
        units = text.encode("utf-16-le")
        out, done = "", 0
        picks = [e for e in message.entities if e.type == MessageEntityType.TEXT_MENTION]
        for entity in sorted(picks, key=lambda e: e.offset):
            if entity.user is None or entity.offset < done:
                continue
            # Stored under the name the others see: the span becomes that name ("player" for
            # a name of blanks, "bob" for "\u202ebob"), which the command then reads back.
            stored = await self.service.remember(user_ref(entity.user))
            name = stored.display_name
            out += units[2 * done : 2 * entity.offset].decode("utf-16-le")
            out += f"{'' if out.endswith('@') else '@'}{name}"
            done = entity.offset + entity.length
            mentioned[name] = str(entity.user.id)
        text = out + units[2 * done :].decode("utf-16-le")
        return text, mentioned

    async def on_callback(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Run one button press; the query is always answered exactly once."""
        query = update.callback_query
        if query is None:
            return
        chat = query.message.chat if query.message is not None else None
        origin = Origin(
            chat.id if chat is not None else query.from_user.id,
            query.from_user.id,
            chat is not None and chat.type == ChatType.PRIVATE,
            query=query,
            thread_id=topic_of(query.message if isinstance(query.message, Message) else None),
        )
        try:
            await self._press(query, origin)
        finally:
            if not origin.answered:
                await self._answer(origin, "")

    async def _press(self, query: CallbackQuery, origin: Origin) -> None:
        parsed = parse_callback(query.data)
        if parsed is None:
            await self._answer(origin, "This button is no longer in use.")
            return
        game_id, action, turn = parsed
        origin.asked_secret = action == "rack"
        origin.command = action
        row = await self.db.games.get_game(game_id)
        if row is None:
            await self._answer(origin, f"There is no game #{game_id}.", alert=True)
            return
        if action in TURN_BOUND and row.status in ("finished", "cancelled"):
            # No newer board to point to: the game itself has ended.
            await self._answer(origin, ended_game(game_id, row.status), alert=True)
            return
        if action in TURN_BOUND and (row.status != "active" or row.turn != turn):
            await self._answer(origin, STALE.format(id=game_id), alert=True)
            return
        chat = await self.db.chats.get_chat(row.chat_id)
        if chat is None:  # pragma: no cover - games reference their chat
            await self._answer(origin, f"There is no game #{game_id}.", alert=True)
            return
        if query.message is not None and str(query.message.chat.id) != chat.platform_chat_id:
            # Game buttons are only ever sent in the game's own chat: a press elsewhere (a
            # forwarded board, made-up callback data) must not act on another chat's game.
            await self._answer(origin, ELSEWHERE.format(id=game_id), alert=True)
            return
        if origin.private:
            await self._allow_dm(query.from_user)
        if isinstance(query.message, Message) and await self.boards.get(game_id) is None:
            # Pressed under a board that none is kept of (posted before boards were stored):
            # that message, the one with live buttons, is the board again, so that a newer one
            # clears them.
            message = query.message
            board = BoardMessage(message.chat.id, message.message_id, bool(message.photo))
            await self.boards.put(game_id, board)
        if action == "board" and await self._just_posted(query.message, game_id):
            await self._answer(origin, JUST_POSTED.format(id=game_id))
            return
        ref = user_ref(query.from_user)
        game_chat = ChatRef(PLATFORM, chat.platform_chat_id, thread_id=origin.thread_id)
        if action in CONFIRM_ACTIONS or (
            action == "pass" and pass_label(row.game_key) == ACTIONS["pass"]
        ):
            if action != "passok":
                await self._confirm_pass(query, origin, game_chat, ref, row, asked=action == "pass")
                return
            action = "pass"
        work = asyncio.ensure_future(
            self.service.handle(game_chat, ref, f"/{action} game={game_id}")
        )
        done, _pending = await asyncio.wait({work}, timeout=ANSWER_WITHIN)
        if not done:
            # Slow (bots thinking, a busy database): answer now so the spinner stops; what
            # follows is sent as for a typed command.
            await self._answer(origin, "Working on it…")
        replies = await work
        await self.deliver(replies, origin)

    async def _just_posted(self, message: object, game_id: int) -> bool:
        """Return whether `message` is the game's board message, posted a moment ago."""
        board = await self.boards.get(game_id)
        return (
            isinstance(message, Message)
            and board is not None
            and (board.chat_id, board.message_id) == (message.chat.id, message.message_id)
            and datetime.now(UTC) - message.date < BOARD_AGAIN_AFTER
        )

    async def _confirm_pass(
        self,
        query: CallbackQuery,
        origin: Origin,
        game_chat: ChatRef,
        user: UserRef,
        row: GameRow,
        *,
        asked: bool,
    ) -> None:
        """Ask the player to move whether to pass (`asked`), or take the question back (Keep).

        The question is the board's keyboard itself ("Yes, pass" and "Keep playing" instead of
        Pass), so it needs no message of its own; anyone else pressing Pass or Keep playing gets
        the refusal the pass would get, and the keyboard stays as it was.
        """
        ok, question = await self.service.pass_question(game_chat, user, row.id)
        if not ok:
            await self._answer(origin, question, alert=True)
            return
        await self._answer(origin, f"{question} {CONFIRM_PASS}" if asked else "")
        markup = await self._keyboard(row.id, confirm_pass=asked)
        if query.message is not None and markup is not None:
            try:
                await query.edit_message_reply_markup(reply_markup=markup)
            except BadRequest as error:  # "not modified": the same question pressed twice
                log.info("could not change the buttons of game %d: %s", row.id, error)

    async def _private_start(self, text: str, user: UserRef, origin: Origin) -> bool:
        """Handle Telegram's own /start in a private chat (plain, or a deep link ``g<id>``).

        Returns False when the line is the command language's ``/start game=<id>``.
        """
        args = text.split()[1:]
        if args and args[0].lower().startswith("game="):
            return False  # the command language's /start game=<id>
        if args and (match := _DEEP_LINK.match(args[0])):
            game_id = int(match.group(1))
            row = await self.db.games.get_game(game_id)
            chat = await self.db.chats.get_chat(row.chat_id) if row is not None else None
            await self._send_text(origin.chat_id, WELCOME)
            person = await self.db.users.get_user_by_platform_id(PLATFORM, user.user_id)
            seated = person is not None and any(
                seat.user_id == person.id for seat in await self.db.games.seats(game_id)
            )
            # The link is under someone's notice in a group: anyone there may tap it. Only a
            # player gets the rack; anyone else the welcome (the group's refusal, "/board
            # game=1 shows it", would not work here).
            if seated and row is not None and chat is not None and row.status == "active":
                game_chat = ChatRef(PLATFORM, chat.platform_chat_id)
                replies = await self.service.handle(game_chat, user, f"/rack game={game_id}")
                await self.deliver(replies, origin)
            return True
        if args:  # a deep link we do not know (an old or hand-made one): just say hello
            await self._send_text(origin.chat_id, WELCOME)
            return True
        replies = await self.service.handle(ChatRef(PLATFORM, str(origin.chat_id)), user, "/start")
        if len(replies) == 1 and replies[0].event.get("reason") in {"NO_GAME", "WHICH_GAME"}:
            await self._send_text(origin.chat_id, WELCOME)
        else:
            await self.deliver(replies, origin)
        return True

    async def _replied_game(self, message: Message, text: str) -> str:
        """Return `text` with `game=<id>` when it answers a game's board and names no game.

        Replying to a board is how Telegram users say which game they mean (with several
        running in a group, a bare /pass asked which).
        """
        replied = message.reply_to_message
        if replied is None or message.chat.type == ChatType.PRIVATE:
            return text
        parsed = _parse_quietly(text)
        spec = SPECS.get(parsed[0]) if parsed is not None and parsed[1] is None else None
        if spec is None or not spec.takes_game_id:
            return text
        game_id = await self.boards.game_of(PLATFORM, str(message.chat.id), str(replied.message_id))
        return text if game_id is None else f"{text} game={game_id}"

    async def on_my_membership(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Greet a group that has just added the bot; hold its games while it is out of it."""
        change = update.my_chat_member
        if change is None or change.chat.type not in (ChatType.GROUP, ChatType.SUPERGROUP):
            return
        gone = (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED)
        member = change.new_chat_member
        now = member.status
        if now in gone:
            self._welcomed.discard(change.chat.id)  # added again later: greet again
            await self._away(change.chat.id, True)
            return
        if isinstance(member, ChatMemberRestricted) and not member.can_send_messages:
            await self._away(change.chat.id, True, muted=True)  # still in it, silenced
            return
        present = (ChatMemberStatus.MEMBER, ChatMemberStatus.ADMINISTRATOR)
        if change.old_chat_member.status in gone and now in present:  # not a promotion
            await self._welcome_group(change.chat.id)
        await self._photos_taken(change.chat.id)  # refused while muted, or not now: try again
        await self._away(change.chat.id, False)  # may write there (again)

    async def _away(self, chat_id: int, away: bool, *, muted: bool = False) -> None:
        """Note the bot out of group `chat_id` (`away`: removed, or `muted`) or back; say so.

        Out, the group's games wait and their players hear it privately; back, the group hears
        which games go on. Either is said once, however often Telegram shows it.
        """
        replies = await self.service.chat_away(PLATFORM, str(chat_id), away, muted=muted)
        await self.deliver(replies, None)

    async def on_new_members(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Greet a group when the service message says the bot was added to it."""
        message = update.effective_message
        me = self._bot().id
        if message is not None and any(u.id == me for u in message.new_chat_members):
            await self._welcome_group(message.chat.id)
            await self._away(message.chat.id, False)

    async def _welcome_group(self, chat_id: int) -> None:
        if chat_id in self._welcomed:
            return
        self._welcomed.add(chat_id)
        # Racks come privately once a player has opened that chat: a button to open it.
        markup = None
        if self.username:
            button = InlineKeyboardButton(OPEN_PRIVATE, url=f"https://t.me/{self.username}")
            markup = InlineKeyboardMarkup([[button]])
        try:
            await self._send_text(chat_id, GROUP_WELCOME, markup=markup)
        except TelegramError as error:  # e.g. a group where members may not write
            log.info("could not greet the group %s: %s", chat_id, error)

    def _chat_ref(self, chat: TgChat, thread_id: int | None = None) -> ChatRef:
        """Return the service's view of a chat (and of the forum topic a message came from)."""
        if chat.type == ChatType.PRIVATE:
            return ChatRef(PLATFORM, str(chat.id), private=True)
        return ChatRef(PLATFORM, str(chat.id), chat.title, thread_id=thread_id)

    async def _is_admin(self, chat: TgChat, user: TgUser) -> bool:
        try:
            member = await self._bot().get_chat_member(chat.id, user.id)
        except TelegramError:
            log.warning("could not read the membership of %s in %s", user.id, chat.id)
            return False
        return member.status in (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)

    # -- private messages: who may we write to --

    async def _allow_dm(self, user: TgUser) -> None:
        """Record that a user wrote to the bot privately, so it may write back."""
        if user.id in self._started:
            return
        stored = await self.service.remember(user_ref(user))
        if not stored.dm_allowed:
            await self.db.users.set_dm_allowed(stored.id, True)
        self._dm[stored.id] = True
        self._started.add(user.id)

    async def _may_dm(self, user: UserTarget) -> bool:
        allowed = self._dm.get(user.user_id)
        if allowed is None:
            stored = await self.db.users.get_user(user.user_id)
            allowed = bool(stored and stored.dm_allowed)
            self._dm[user.user_id] = allowed
        return allowed

    async def _forbid_dm(self, user: UserTarget) -> None:
        self._dm[user.user_id] = False
        self._started.discard(int(user.platform_user_id))
        await self.db.users.set_dm_allowed(user.user_id, False)

    # -- step 4: send the replies --

    async def send_replies(self, replies: Sequence[Reply]) -> None:
        """Send replies that answer no update (the deadline dispatcher calls this).

        Replies for another platform's chats or users are left out.
        """
        await self.deliver([r for r in replies if r.to.platform == PLATFORM], None)

    async def deliver(self, replies: Sequence[Reply], origin: Origin | None) -> None:
        """Send the service's replies: answer a button press first, then chat and private ones."""
        if origin is not None and origin.query is not None and not origin.answered:
            await self._answer_press(replies, origin)
        if origin is not None and (secret := _group_secret_news(replies, origin)) is not None:
            replies = await self._after_group_secret(replies, *secret, origin)
        boards: dict[int, list[Reply]] = {}
        plan: list[Reply | list[Reply]] = []
        for reply in replies:
            game_id = reply.event.get("game_id")
            if isinstance(reply.to, ChatTarget) and reply.kind in BOARD_KINDS and game_id:
                # Several moves in one batch (a move and the bots' answers): one board update.
                if game_id not in boards:
                    boards[game_id] = []
                    plan.append(boards[game_id])
                boards[game_id].append(reply)
            else:
                plan.append(reply)
        notices: dict[tuple[int, int | None, int, str], list[UserTarget]] = {}
        # "Your turn" mentions of players whose rack (of the same game) is in this batch too:
        # said in the same message as the rack notice, if one follows (one ping, not two).
        racked = {
            (r.event.get("game_id"), r.to.platform_user_id)
            for r in replies
            if r.kind == "rack" and isinstance(r.to, UserTarget)
        }
        held: dict[tuple[int, int | None, int], list[tuple[UserTarget, str]]] = {}
        wrote: set[int] = set()  # groups a message reached: the bot may write there
        for step in plan:
            to = step[0].to if isinstance(step, list) else step.to
            group = _group_id(to)
            try:
                try:
                    reached = await self._deliver_step(step, origin, notices, held, racked)
                except ChatMigrated as error:
                    if group is None:
                        raise
                    # The group became a supergroup while the bot did not see it (down for
                    # long): the refusal names the new chat; its games follow, and this goes.
                    await self._migrated(group, int(error.new_chat_id))
                    group = int(error.new_chat_id)
                    reached = await self._deliver_step(step, origin, notices, held, racked)
                if group is not None and reached:
                    wrote.add(group)
            except Forbidden:
                log.warning("Telegram refused a message (the bot was removed or blocked)")
                if group is not None:  # out of the group (removed while not running)
                    await self._away(group, True)
            except BadRequest as error:
                if group is None or not may_not_write(error):
                    log.exception("sending a %s reply failed", _kind(step))
                    continue
                log.warning("Telegram refused a message (the bot may not write there): %s", error)
                await self._away(group, True, muted=True)
            except TelegramError:
                # One failed send (after the rate limiter's retries) must not lose the others.
                log.exception("sending a %s reply failed", _kind(step))
        for chat_id in wrote:  # a group that had muted it (or all members) lets it write again
            await self._away(chat_id, False)
        for (chat_id, thread, game_id, about), users in notices.items():
            try:
                if about == PLACED:
                    await self._placed_notice(chat_id, game_id, users, thread)
                elif about.startswith(ROUND):
                    await self._invite_privately(
                        chat_id,
                        users,
                        deep_link(self.username, game_id),
                        f"place your tile of {about} in game #{game_id}: “{ACTIONS['rack']}” "
                        "under the board shows it (or a private chat with me).",
                        thread,
                    )
                else:
                    turns = held.pop((chat_id, thread, game_id), [])
                    told = [(u, text) for u, text in turns if u in users]
                    for turn in told:
                        turns.remove(turn)
                    if turns:
                        held[(chat_id, thread, game_id)] = turns
                    before = "".join(f"{mention(u)}: {html.escape(text)} " for u, text in told)
                    await self._rack_notice(chat_id, game_id, users, thread, before=before)
            except TelegramError:
                log.exception("sending the %s notice of game %d failed", about, game_id)
        for (chat_id, thread, _), turns in held.items():  # no rack notice came: said alone
            for user, text in turns:
                try:
                    await self._send_text(
                        chat_id,
                        f"{mention(user)}: {html.escape(text)}",
                        html_mode=True,
                        thread=thread,
                    )
                except TelegramError:
                    log.exception("sending a your_turn mention failed")

    async def _deliver_step(
        self,
        step: Reply | list[Reply],
        origin: Origin | None,
        notices: dict[tuple[int, int | None, int, str], list[UserTarget]],
        held: dict[tuple[int, int | None, int], list[tuple[UserTarget, str]]],
        racked: set[tuple[object, str]],
    ) -> bool:
        """Send one step of `deliver`'s plan; return False when it went elsewhere than its group."""
        if isinstance(step, list):
            await self._update_board(step)
            for reply in step:
                if reply.kind == "timeout":
                    await self._timeout_notice(reply)
        elif origin is not None and origin.routed and step.kind in ANSWER_KINDS:
            # /board typed privately about a group's game: the answer comes here, not a new
            # board message in the group.
            await self._send_to(origin.chat_id, step)
            return False
        elif isinstance(step.to, ChatTarget):
            await self._send_chat(step, origin)
        elif id(step) not in (origin.consumed if origin else set()):
            hold = (step.event.get("game_id"), getattr(step.to, "platform_user_id", ""))
            await self._send_private(step, origin, notices, held if hold in racked else None)
        return True

    async def _after_group_secret(
        self, replies: Sequence[Reply], news: Reply, command: str, what: str, origin: Origin
    ) -> list[Reply]:
        """Hide a move typed in a group that told a secret; say (once) it can be sent privately.

        Deleting the command message needs the bot to be an admin that may delete messages;
        elsewhere Telegram refuses, which changes nothing else.
        """
        assert origin.message_id is not None
        try:
            await self._bot().delete_message(origin.chat_id, origin.message_id)
        except TelegramError as error:
            log.info("could not delete a /%s in chat %s: %s", origin.command, origin.chat_id, error)
        if not await self.db.notices.first_notice(
            int(news.event["game_id"]), f"telegram {origin.user_id}", "private moves tip"
        ):
            return list(replies)
        tip = SECRET_TIP.format(command=command, username=self.username, what=what)
        return [replace(r, text=f"{r.text}\n{tip}") if r is news else r for r in replies]

    async def _answer(self, origin: Origin, text: str, *, alert: bool = False) -> None:
        if origin.query is None or origin.answered:
            return
        origin.answered = True
        try:
            await origin.query.answer(clip(text, ALERT_LIMIT) or None, show_alert=alert)
        except TelegramError as error:  # e.g. the query is too old
            log.warning("could not answer a callback query: %s", error)

    async def _answer_press(self, replies: Sequence[Reply], origin: Origin) -> None:
        """Answer a button press: errors and (when no DM is possible) the rack in an alert."""
        mine = [
            r
            for r in replies
            if isinstance(r.to, UserTarget) and r.to.platform_user_id == str(origin.user_id)
        ]
        for reply in mine:
            if reply.kind == "error":
                origin.consumed.add(id(reply))
                await self._answer(origin, reply.text, alert=True)
                return
        for reply in mine:
            if not is_secret(reply) or origin.private:
                continue
            assert isinstance(reply.to, UserTarget)
            origin.consumed.add(id(reply))
            if await self._may_dm(reply.to):
                # One quick private send, so the answer can say whether it arrived.
                try:
                    await self._send_to(int(reply.to.platform_user_id), reply)
                    # Named: after Pass, "it" would read as the pass, not the rack it changed.
                    what = "Your rack" if reply.kind == "rack" else "My answer"
                    await self._answer(origin, f"{what} is in our private chat.")
                    return
                except Forbidden:
                    await self._forbid_dm(reply.to)
            game_id = int(reply.event.get("game_id", 0))
            link = deep_link(self.username, game_id).removeprefix("https://")
            await self._answer(origin, private_alert(reply.text, link), alert=True)
            return
        await self._answer(origin, "")

    async def _keyboard(
        self, game_id: int, *, lobby_only: bool = False, confirm_pass: bool = False
    ) -> InlineKeyboardMarkup | None:
        """Return the buttons of a game's message as the game stands now (None when over).

        `confirm_pass`: Pass gives way to a second row, "Yes, pass" and "Keep playing".
        """
        row = await self.db.games.get_game(game_id)
        if row is None or (lobby_only and row.status != "lobby"):
            return None
        if row.status == "lobby":
            actions: Sequence[str] = LOBBY_ACTIONS
            chat = await self.db.chats.get_chat(row.chat_id)
            if chat is not None and int(chat.platform_chat_id) > 0:  # a private chat: no one joins
                actions = ("start",)
        elif row.status == "active":
            actions = PLAY_ACTIONS
        else:
            return None
        if confirm_pass:
            actions = tuple(a for a in actions if a != "pass")
        rows = [actions, CONFIRM_ACTIONS] if confirm_pass else [actions]
        keyboard = []
        for row_actions in rows:
            buttons = []
            for action in row_actions:
                label = pass_label(row.game_key) if action == "pass" else ACTIONS[action]
                if label is not None:
                    data = callback_data(game_id, action, row.turn)
                    buttons.append(InlineKeyboardButton(label, callback_data=data))
            keyboard.append(buttons)
        return InlineKeyboardMarkup(keyboard)

    async def _update_board(self, replies: Sequence[Reply]) -> None:
        """Show a batch of board replies of one game: edit its board message, else post one."""
        last = replies[-1]
        assert isinstance(last.to, ChatTarget)
        chat_id, thread = self._chat_id(last.to), last.to.thread_id
        game_id = int(last.event["game_id"])
        text = "\n".join(r.text for r in replies)
        markup = await self._keyboard(game_id)
        image = last.images[0] if last.images else None
        table = reply_table(last)
        if chat_id in self._text_only:
            image = None  # the board message is text there, the table drawn in it
        known = await self.boards.get(game_id)
        if known is not None and known.chat_id == chat_id and known.photo == (image is not None):
            try:
                await self._edit(known, text, image, markup, table if image is None else None)
            except BadRequest as error:
                if "not modified" in str(error).lower():
                    return
                log.info("board message of game %d cannot be edited (%s)", game_id, error)
            else:
                await self.boards.put(game_id, replace(known, buttons=markup is not None))
                if image is not None and len(text) > CAPTION_LIMIT:
                    # As under a new board photo: the whole news as a message of its own (a cut
                    # caption lost whose turn it is). The edit notifies nobody; this message does.
                    await self._send_text(chat_id, text, thread=thread)
                return
        await self._post_board(chat_id, game_id, text, image, markup, thread, table)

    async def _edit(
        self,
        board: BoardMessage,
        text: str,
        image: bytes | Image | None,
        markup: InlineKeyboardMarkup | None,
        table: str | None = None,
    ) -> None:
        """Edit a board message in place: its picture and caption, or its text (and `table`)."""
        bot = self._bot()
        if image is None:
            await bot.edit_message_text(
                with_text_board(text, table),
                board.chat_id,
                board.message_id,
                reply_markup=markup,
                parse_mode=ParseMode.HTML,
            )
            return
        media = InputMediaPhoto(
            image_bytes(image),
            caption=board_caption(text) or None,
            filename=image_name(image, "board.png"),
        )
        await bot.edit_message_media(
            media, chat_id=board.chat_id, message_id=board.message_id, reply_markup=markup
        )

    async def _post_board(
        self,
        chat_id: int,
        game_id: int,
        text: str,
        image: bytes | Image | None,
        markup: InlineKeyboardMarkup | None,
        thread: int | None = None,
        table: str | None = None,
    ) -> None:
        """Post a game's board message (`table`: its picture as text, where photos are refused)."""
        message = None
        if image is not None:
            message = await self._send_photo(
                chat_id, image, text, markup=markup, thread=thread, board=table
            )
        if message is None and table and chat_id in self._text_only:
            message = await self._send_with_table(chat_id, text, table, markup, thread)
        elif message is None:
            message = await self._send_text(chat_id, text, markup=markup, thread=thread)
        old = await self.boards.get(game_id)
        board = BoardMessage(chat_id, message.message_id, bool(message.photo), markup is not None)
        await self.boards.put(game_id, board)
        if old is not None:
            # Only the newest board message keeps live buttons (older ones would be stale).
            await self._clear_buttons(old)

    async def _clear_buttons(self, board: BoardMessage) -> None:
        if not board.buttons:
            return  # nothing to clear: Telegram would answer "message is not modified"
        try:
            await self._bot().edit_message_reply_markup(board.chat_id, board.message_id)
        except TelegramError as error:  # gone, too old, or in a group since upgraded
            log.info("could not clear the buttons of an old board message: %s", error)

    async def _send_chat(self, reply: Reply, origin: Origin | None) -> None:
        assert isinstance(reply.to, ChatTarget)
        chat_id, thread = self._chat_id(reply.to), reply.to.thread_id
        game_id = reply.event.get("game_id")
        image = reply.images[0] if reply.images else None
        if reply.kind == "board" and game_id:
            # An explicit /board becomes the game's board message.
            markup = await self._keyboard(game_id)
            await self._post_board(
                chat_id, game_id, reply.text, image, markup, thread, reply_table(reply)
            )
            return
        if reply.kind == "game_created" and game_id:
            # A lobby is the game's board message until the deal. A game that filled at /new
            # has started already: its board is the "has started" message that follows, so the
            # "created" line gets no buttons (none to clear from it a moment later).
            lobby = await self._keyboard(game_id, lobby_only=True)
            if lobby is not None:
                await self._post_board(chat_id, game_id, reply.text, image, lobby, thread)
                return
        if reply.kind in ("game_joined", "game_left") and game_id:
            # The newest word of a lobby (its roster as it now stands) carries Join · Start.
            lobby = await self._keyboard(game_id, lobby_only=True)
            if lobby is not None:
                await self._post_board(chat_id, game_id, reply.text, image, lobby, thread)
                return
        cancelled = reply.kind in ("game_cancelled", "game_left")  # left: by the last player
        if cancelled and game_id and (old := await self.boards.get(game_id)):
            await self.boards.put(game_id, None)
            await self._clear_buttons(old)
        markup = None
        if reply.kind == "game_over" and game_id and reply.buttons:  # people in it: play again
            data = callback_data(game_id, "rematch", 0)
            markup = InlineKeyboardMarkup(
                [[InlineKeyboardButton(ACTIONS["rematch"], callback_data=data)]]
            )
        if image is None:
            await self._send_text(chat_id, reply.text, markup=markup, thread=thread)
        else:
            await self._send_photo(
                chat_id, image, reply.text, markup=markup, thread=thread, board=reply_table(reply)
            )
        for extra in reply.images[1:]:
            await self._send_photo(chat_id, extra, "", thread=thread)

    async def _send_private(
        self,
        reply: Reply,
        origin: Origin | None,
        notices: dict[tuple[int, int | None, int, str], list[UserTarget]],
        held: dict[tuple[int, int | None, int], list[tuple[UserTarget, str]]] | None = None,
    ) -> None:
        """Send a reply meant for one user: here if private, else by DM, else a safe fallback.

        `held`: a "your turn" that would be a group mention waits there instead, to go out with
        the rack notice of the same batch (`deliver`).
        """
        user = reply.to
        assert isinstance(user, UserTarget)
        here = origin is not None and origin.user_id == int(user.platform_user_id)
        if origin is not None and here and origin.private:
            await self._send_to(origin.chat_id, reply)
            return
        asked = here and origin is not None and origin.asked_secret
        moved = here and origin is not None and origin.command in LAYING_COMMANDS
        steps = origin.steps if origin is not None else 1
        # A refusal of /try, /hint, /bag or /rack may tell about the tiles, and so may that of a
        # move once the rules have looked at the rack: it goes like a rack; so does any refusal
        # naming tiles the rack lacks ("You have only 1 R1").
        secret = (
            is_secret(reply)
            or (asked and reveals_tiles(reply))
            or (moved and reveals_tiles(reply, move=True, steps=steps))
            or names_rack_tiles(reply)
        )
        if reply.kind == "error" and origin is not None and here and not secret:
            # Other errors are safe to show: answer the command where it was typed.
            await self._send_text(
                origin.chat_id,
                f"{mention(user)}: {html.escape(reply.text)}",
                html_mode=True,
                reply_to=origin.message_id,
                thread=origin.thread_id,
            )
            return
        if await self._may_dm(user):
            try:
                await self._send_to(int(user.platform_user_id), reply)
                return
            except Forbidden:
                log.info("user %s does not accept private messages", user.platform_user_id)
                await self._forbid_dm(user)
        place = await self._game_chat_id(reply, origin)
        if place is None:
            log.warning("no chat to reach %s for a %s reply", user.name, reply.kind)
            return
        chat_id, thread = place
        if here and origin is not None and origin.chat_id == chat_id:
            thread = origin.thread_id  # an answer to a command: in the topic it was typed in
        if secret and reply.kind in PRIVATE_WHAT and origin is not None:
            # Nothing to tap for (a refusal, a list of games, /try's or /hint's answer): say
            # where it goes, not what it says.
            await self._ask_privately(chat_id, user, reply, origin, thread)
            return
        if secret:
            game_id = int(reply.event.get("game_id", 0))
            if reply.kind == "rack" and reply.event.get("timeout"):
                # A tile placed at a round deadline is news each time: a mention that says so
                # but not where (the round's news shows that), nor the next tile.
                await self.db.notices.first_notice(game_id, f"user {user.user_id}", SEE_TILES)
                notices.setdefault((chat_id, thread, game_id, PLACED), []).append(user)
                return
            # Never the tiles in a group: say how to see them (unasked: once per game).
            first = await self.db.notices.first_notice(game_id, f"user {user.user_id}", SEE_TILES)
            if asked or first:
                notices.setdefault((chat_id, thread, game_id, "rack"), []).append(user)
            elif (
                reply.kind == "rack"
                and isinstance(round_no := reply.event.get("round"), int)
                and reply.event.get("tiles")
                and (origin is None or str(origin.user_id) != user.platform_user_id)
            ):
                # A round that opens is news for each who must place (the round's news only
                # edits the board, which notifies nobody); not for whoever just closed it.
                key = (chat_id, thread, game_id, f"{ROUND}{round_no}")
                notices.setdefault(key, []).append(user)
            return
        if held is not None and reply.kind == "your_turn":
            held.setdefault((chat_id, thread, int(reply.event["game_id"])), []).append(
                (user, reply.here)
            )
            return
        await self._send_text(
            chat_id, f"{mention(user)}: {html.escape(reply.here)}", html_mode=True, thread=thread
        )

    async def _game_chat_id(
        self, reply: Reply, origin: Origin | None
    ) -> tuple[int, int | None] | None:
        """Return the group (and its forum topic) where a player can be mentioned about a reply.

        About a game: the game's group, in the topic the game lives in. Else the chat (and
        topic) the command came from.
        """
        game_id = reply.event.get("game_id")
        if game_id:
            row = await self.db.games.get_game(int(game_id))
            chat = await self.db.chats.get_chat(row.chat_id) if row is not None else None
            if row is not None and chat is not None:
                return int(chat.platform_chat_id), row.thread_id
        if origin is not None and not origin.private:
            return origin.chat_id, origin.thread_id
        return None

    async def _rack_notice(
        self,
        chat_id: int,
        game_id: int,
        users: Sequence[UserTarget],
        thread: int | None = None,
        *,
        before: str = "",
    ) -> None:
        """Tell players who have not started the bot how to see their tiles (not the tiles).

        A finished game's board has no buttons left: then only the private chat is offered.
        `before` (HTML) opens the message: the "your turn" of one of them, said with it.
        """
        row = await self.db.games.get_game(game_id)
        going = row is not None and row.status == "active"
        how = f"Tap “{ACTIONS['rack']}” under the board, or start" if going else "Start"
        await self._invite_privately(
            chat_id,
            users,
            deep_link(self.username, game_id),
            f"I cannot send you your tiles privately yet. {how} a private chat with me and I "
            "will send them there.",
            thread,
            before=before,
        )

    async def _placed_notice(
        self, chat_id: int, game_id: int, users: Sequence[UserTarget], thread: int | None = None
    ) -> None:
        """Tell players without a private chat that a round deadline placed their tile."""
        tiles = "your tile was" if len(users) == 1 else "your tiles were"
        await self._invite_privately(
            chat_id,
            users,
            deep_link(self.username, game_id),
            f"the round deadline of game #{game_id} passed, so {tiles} placed for you (the "
            "round's news shows where). Start a private chat with me to get such news there.",
            thread,
        )

    async def _invite_privately(
        self,
        chat_id: int,
        users: Sequence[UserTarget],
        link: str,
        text: str,
        thread: int | None = None,
        *,
        before: str = "",
    ) -> None:
        """Mention `users` in the group (topic `thread`) with `text` and a private chat button.

        `before` (HTML) comes first in the same message.
        """
        names = ", ".join(mention(u) for u in users)
        markup = InlineKeyboardMarkup([[InlineKeyboardButton(OPEN_PRIVATE, url=link)]])
        await self._send_text(
            chat_id, f"{before}{names}: {text}", markup=markup, html_mode=True, thread=thread
        )

    async def _ask_privately(
        self,
        chat_id: int,
        user: UserTarget,
        reply: Reply,
        origin: Origin,
        thread: int | None = None,
    ) -> None:
        """Tell a player in the group that an answer is private, with a button to open the chat.

        The button is the game's deep link when the answer is about one game: opening the chat
        with it brings the rack at once.
        """
        command = origin.command
        text = ASK_PRIVATELY.format(
            command=html.escape(command),
            what=PRIVATE_WHAT[reply.kind],
            moves=ASK_MOVES if command in LAYING_COMMANDS else "",
        )
        game_id = reply.event.get("game_id") or await self._game_asked_about(origin)
        link = (
            deep_link(self.username, int(game_id)) if game_id else f"https://t.me/{self.username}"
        )
        await self._invite_privately(chat_id, [user], link, text, thread)

    async def _game_asked_about(self, origin: Origin) -> int | None:
        """Return the game a command typed in a chat is about: game=<id>, or the asker's one."""
        if origin.game_id is not None:
            return origin.game_id
        if origin.command not in ROUTED_COMMANDS:  # /games: about no one game
            return None
        chat = await self.db.chats.get_chat_by_platform_id(PLATFORM, str(origin.chat_id))
        user = await self.db.users.get_user_by_platform_id(PLATFORM, str(origin.user_id))
        if chat is None or user is None:
            return None
        rows = await self.db.games.list_games(
            chat_id=chat.id, user_id=user.id, statuses=("active",), limit=2
        )
        return rows[0].id if len(rows) == 1 else None

    async def _timeout_notice(self, reply: Reply) -> None:
        """Tell the player whose turn timed out: privately when possible, else by a mention.

        Not in a game of rounds (NMBR 9): the service tells each player whose tile a round
        deadline placed, in words, in their rack of the round. Not when the game is played in
        the player's own private chat either: the board there has just said it.
        """
        game_id, seat_no = reply.event.get("game_id"), reply.event.get("seat")
        if not game_id or seat_no is None or "round" in reply.event:
            return
        seats = await self.db.games.seats(int(game_id))
        user_id = next((s.user_id for s in seats if s.seat_no == seat_no), None)
        stored = await self.db.users.get_user(user_id) if user_id is not None else None
        if stored is None or stored.platform != PLATFORM:
            return
        game_chat = self._chat_id(reply.to) if isinstance(reply.to, ChatTarget) else None
        if game_chat == int(stored.platform_user_id):
            return  # a private chat's id is its user's id: the game is played right here
        target = UserTarget(stored.id, PLATFORM, stored.platform_user_id, stored.display_name)
        # Read far from the chat, as a reminder is: which game where, and what the timeout did
        # in the game's own words (its rules' missed deadline, as the reminders said it).
        row = await self.db.games.get_game(int(game_id))
        gdef = GAMES.get(row.game_key) if row is not None else None
        chat = await self.db.chats.get_chat(row.chat_id) if row is not None else None
        title = gdef.title if gdef is not None else ""
        where = f" in {shown_name(chat.title)}" if title and chat is not None and chat.title else ""
        missed = gdef.missed_deadline(done=True) if gdef is not None else ""
        said = f", so {missed}." if missed else "."

        def timed_out(named: str) -> str:
            return f"Your turn in game #{game_id} timed out" + (f" ({named})" if named else "")

        text = timed_out(title + where) + said
        if await self._may_dm(target):
            # The news of the chat (scores, tiles drawn): a mention there sits right under it.
            text += f"\nIn the chat: {reply.text.splitlines()[0]}" if reply.text else ""
        event = {"type": "timeout_notice", "game_id": game_id}
        notice = Reply(target, text, event=event, in_chat=timed_out(title) + said)
        await self._send_private(notice, None, {})

    # -- the Bot API calls --

    async def _send_to(self, chat_id: int, reply: Reply) -> None:
        image = reply.images[0] if reply.images else None
        if image is None:
            await self._send_text(chat_id, reply.text)
        else:
            await self._send_photo(chat_id, image, reply.text)

    async def _send_text(
        self,
        chat_id: int,
        text: str,
        *,
        markup: InlineKeyboardMarkup | None = None,
        html_mode: bool = False,
        reply_to: int | None = None,
        thread: int | None = None,
    ) -> Message:
        """Send a text (in parts of at most 4096 characters) to a chat, in topic `thread`."""
        bot = self._bot()
        parts = split_text(text)
        message: Message | None = None
        for n, part in enumerate(parts):
            last = n == len(parts) - 1
            as_html = html_mode or bool(_TYPED_ONLY_WORD.search(part))
            if as_html:
                part = untappable(part if html_mode else html.escape(part, quote=False))
            message = await self._in_topic(
                chat_id,
                thread,
                functools.partial(
                    bot.send_message,
                    text=part,
                    parse_mode=ParseMode.HTML if as_html else None,
                    reply_markup=markup if last else None,
                    reply_parameters=(
                        ReplyParameters(reply_to, allow_sending_without_reply=True)
                        if reply_to and n == 0
                        else None
                    ),
                ),
            )
        assert message is not None
        return message

    async def _in_topic(
        self, chat_id: int, thread: int | None, send: Callable[..., Awaitable[Message]]
    ) -> Message:
        """Send with ``message_thread_id=thread``; to the General topic once it is gone.

        A forum topic can be deleted (or closed) while a game lives in it: Telegram then
        answers "message thread not found" (or TOPIC_CLOSED). The message is not lost: it is
        sent again without the topic, and the topic is not tried again until a restart.
        `send` takes the chat as ``chat_id``: a group that became a supergroup while the bot
        did not see it (down for long) is refused with the new id, where it is sent again and
        the group's games follow (`_migrated`).
        """
        try:
            return await self._in_live_topic(chat_id, thread, send)
        except ChatMigrated as error:
            new = int(error.new_chat_id)
            await self._migrated(chat_id, new)
            return await self._in_live_topic(new, thread, send)

    async def _in_live_topic(
        self, chat_id: int, thread: int | None, send: Callable[..., Awaitable[Message]]
    ) -> Message:
        thread = self._live_topic(chat_id, thread)
        if thread is None:
            return await send(chat_id=chat_id)
        try:
            return await send(chat_id=chat_id, message_thread_id=thread)
        except BadRequest as error:
            if not thread_gone(error):
                raise
            log.warning(
                "topic %s of chat %s is gone (%s); sending to the General topic",
                thread,
                chat_id,
                error,
            )
            if "not found" in str(error).lower():
                self._gone_topics.add((chat_id, thread))
                chat = await self.db.chats.get_chat_by_platform_id(PLATFORM, str(chat_id))
                if chat is not None:  # for good: its games' news goes to General, restarted too
                    await self.db.games.leave_thread(chat.id, thread)
            return await send(chat_id=chat_id)

    async def _send_photo(
        self,
        chat_id: int,
        image: bytes | Image,
        caption: str,
        *,
        markup: InlineKeyboardMarkup | None = None,
        thread: int | None = None,
        board: str | None = None,
    ) -> Message | None:
        """Send a picture with its caption (a long one after it, as a message of its own).

        A group may forbid photos ("not enough rights to send photos"): there the caption goes
        as a message, with `board` (the picture's table drawn as text) in monospace, from the
        first refusal on: kept in storage, so a restart tries none sooner than a picture a day
        (`PHOTOS_AGAIN_AFTER`). None: nothing to send there (a picture without words or table).
        """
        if not self._photos_refused(chat_id):
            try:
                sent = await self._photo(chat_id, image, caption, markup, thread)
            except BadRequest as error:
                if not photos_refused(error):
                    raise
                log.warning(
                    "chat %s refuses photos (%s): pictures go as text there", chat_id, error
                )
                self._text_only[chat_id] = self.service.clock()
                await self.db.chats.set_photos_refused(PLATFORM, chat_id, self._text_only[chat_id])
            else:
                await self._photos_taken(chat_id)
                return sent
        if not caption and not board:
            return None
        return await self._send_with_table(chat_id, caption, board, markup, thread)

    def _photos_refused(self, chat_id: int) -> bool:
        """Return whether the chat refused a picture less than `PHOTOS_AGAIN_AFTER` ago."""
        since = self._text_only.get(chat_id)
        return since is not None and self.service.clock() - since < PHOTOS_AGAIN_AFTER

    async def _photos_taken(self, chat_id: int) -> None:
        """Note that the chat takes pictures (again), if it had refused one."""
        if self._text_only.pop(chat_id, None) is not None:
            await self.db.chats.set_photos_refused(PLATFORM, chat_id, None)

    async def _send_with_table(
        self,
        chat_id: int,
        text: str,
        table: str | None,
        markup: InlineKeyboardMarkup | None,
        thread: int | None,
    ) -> Message:
        """Send a picture's words as a message, with its table drawn in monospace below."""
        return await self._send_text(
            chat_id, with_text_board(text, table), markup=markup, html_mode=True, thread=thread
        )

    async def _photo(
        self,
        chat_id: int,
        image: bytes | Image,
        caption: str,
        markup: InlineKeyboardMarkup | None,
        thread: int | None,
    ) -> Message:
        bot = self._bot()
        long_text = len(caption) > CAPTION_LIMIT
        message = await self._in_topic(
            chat_id,
            thread,
            functools.partial(
                bot.send_photo,
                photo=image_bytes(image),
                caption=None if long_text or not caption else caption,
                filename=image_name(image, "image.png"),
                reply_markup=markup,
            ),
        )
        if long_text:
            await self._send_text(chat_id, caption, thread=thread)
        return message

    # -- failures --

    async def on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Log any failure of a handler and apologise briefly; never show a traceback."""
        log.error("handling an update failed", exc_info=context.error)
        if not isinstance(update, Update):
            return
        with contextlib.suppress(TelegramError):
            if update.callback_query is not None:
                # An unanswered query gets the apology; an answered one cannot be answered again.
                with contextlib.suppress(BadRequest):
                    await update.callback_query.answer(APOLOGY, show_alert=True)
                    return
            if update.effective_chat is not None:
                await context.bot.send_message(
                    update.effective_chat.id,
                    APOLOGY,
                    message_thread_id=topic_of(update.effective_message),
                )


# --- building and running ----------------------------------------------------------------------


def build_application(
    token: str,
    service: Service,
    *,
    base_url: str | None = None,
    request: BaseRequest | None = None,
    get_updates_request: BaseRequest | None = None,
    rate_limiter: BaseRateLimiter[Any] | None = None,
) -> tuple[Application[Any, Any, Any, Any, Any, Any], TelegramFrontEnd]:
    """Build the PTB application with our handlers (tests pass a fake `BaseRequest`)."""
    base = api_base_url(base_url)
    builder = (
        ApplicationBuilder()
        .token(token)
        .base_url(base)
        .base_file_url(file_base_url(base))
        .rate_limiter(rate_limiter or default_rate_limiter())
        .job_queue(None)  # deadlines live in storage (STYLE.md §6), not in PTB's JobQueue
    )
    if request is not None:
        builder = builder.request(request).get_updates_request(get_updates_request or request)
    app = builder.build()
    front = TelegramFrontEnd(service)
    front.install(app)
    return app, front


@dataclass(frozen=True, slots=True)
class Webhook:
    """Where Telegram posts updates in webhook mode, and where the bot listens for them.

    `url` is the public HTTPS address given to Telegram (a reverse proxy usually forwards it to
    `listen`:`port`); its path is the path served. `secret` is checked on every post
    (``X-Telegram-Bot-Api-Secret-Token``).
    """

    url: str
    listen: str = "127.0.0.1"
    port: int = 8443
    secret: str | None = None

    @property
    def path(self) -> str:
        """Return the URL path the bot serves."""
        return urlsplit(self.url).path or "/"


SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


def webhook_from(settings: Settings) -> Webhook | None:
    """Return the webhook settings (``TELEGRAM_WEBHOOK_URL`` …), or None for polling."""
    if not settings.telegram_webhook_url:
        return None
    return Webhook(
        settings.telegram_webhook_url,
        settings.telegram_webhook_listen or "127.0.0.1",
        settings.telegram_webhook_port or 8443,
        settings.telegram_webhook_secret,
    )


@contextlib.asynccontextmanager
async def _webhook_server(
    app: Application[Any, Any, Any, Any, Any, Any], hook: Webhook
) -> AsyncIterator[None]:
    """Serve the webhook with aiohttp and feed the posted updates to the application.

    (PTB's own webhook server needs tornado; aiohttp is already installed with discord.py.)
    """
    from aiohttp import web

    async def receive(request: web.Request) -> web.Response:
        if hook.secret is not None and request.headers.get(SECRET_HEADER) != hook.secret:
            return web.Response(status=403)
        try:
            update = Update.de_json(await request.json(), app.bot)
        except ValueError:
            return web.Response(status=400)
        await app.update_queue.put(update)
        return web.Response()

    server = web.Application()
    server.router.add_post(hook.path, receive)
    runner = web.AppRunner(server, access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, hook.listen, hook.port).start()
        yield
    finally:
        await runner.cleanup()


@contextlib.asynccontextmanager
async def telegram_running(
    settings: Settings,
    service: Service,
    *,
    webhook: Webhook | None = None,
    request: BaseRequest | None = None,
    get_updates_request: BaseRequest | None = None,
    rate_limiter: BaseRateLimiter[Any] | None = None,
    poll_timeout: int = 30,
) -> AsyncIterator[TelegramFrontEnd]:
    """Run the bot over `service` while the block runs: polling, or a webhook when configured.

    Yields the front end, whose `send_replies` a deadline dispatcher can use (`dispatching`
    runs Telegram's). A process that runs several chat platforms on one database enters this
    next to the other adapters, each with a dispatcher of its own games.
    """
    if not settings.telegram_token:
        raise ValueError("TELEGRAM_TOKEN is not set")
    app, front = build_application(
        settings.telegram_token,
        service,
        base_url=settings.telegram_api_base_url,
        request=request,
        get_updates_request=get_updates_request,
        rate_limiter=rate_limiter,
    )
    hook = webhook or webhook_from(settings)
    # my_chat_member: the bot added to a group (or removed), for the welcome.
    allowed = [Update.MESSAGE, Update.CALLBACK_QUERY, Update.MY_CHAT_MEMBER]
    async with app:
        await front.setup(app.bot)
        await app.start()
        try:
            if hook is not None:
                async with _webhook_server(app, hook):
                    await app.bot.set_webhook(
                        hook.url, secret_token=hook.secret, allowed_updates=allowed
                    )
                    log.info("feudbot is on Telegram as @%s (webhook)", front.username)
                    yield front
            else:
                updater = app.updater
                assert updater is not None
                # Stopping, PTB confirms the last updates; failing, it logs a traceback.
                one_line_retries("telegram.ext.Updater", "Error while calling `get_updates`")
                await updater.start_polling(
                    poll_interval=0,
                    timeout=poll_timeout,
                    allowed_updates=allowed,
                    error_callback=_polling_failed,
                )
                log.info("feudbot is on Telegram as @%s (polling)", front.username)
                try:
                    yield front
                finally:
                    await updater.stop()
        finally:
            await app.stop()


async def serve_telegram(
    settings: Settings,
    *,
    stop: asyncio.Event | None = None,
    ready: asyncio.Event | None = None,
    webhook: Webhook | None = None,
    request: BaseRequest | None = None,
    get_updates_request: BaseRequest | None = None,
    rate_limiter: BaseRateLimiter[Any] | None = None,
    poll_timeout: int = 30,
) -> None:
    """Open the database and run the bot with its deadline dispatcher until `stop` is set.

    Args:
        settings: ``TELEGRAM_TOKEN``, ``TELEGRAM_API_BASE_URL``, the database and reminders.
        stop: Set it to shut down cleanly (default: run for ever).
        ready: Set once the bot is polling (tests wait for it).
        webhook: Receive updates by webhook (default: from the settings, else polling).
        request: A replacement HTTP layer (tests).
        get_updates_request: A replacement HTTP layer for getUpdates (tests).
        rate_limiter: A replacement rate limiter (tests).
        poll_timeout: The long-polling timeout of getUpdates, in seconds.
    """
    if not settings.telegram_token:
        raise ValueError("TELEGRAM_TOKEN is not set")
    stop = stop or asyncio.Event()
    db = await Database.open(settings.db_path)
    try:
        service = Service(db, allow_seed=settings.allow_seed, reminders=settings.reminders)
        async with telegram_running(
            settings,
            service,
            webhook=webhook,
            request=request,
            get_updates_request=get_updates_request,
            rate_limiter=rate_limiter,
            poll_timeout=poll_timeout,
        ) as front:
            await dispatching(service, front, stop, ready)
    finally:
        await db.close()


async def dispatching(
    service: Service,
    front: TelegramFrontEnd,
    stop: asyncio.Event,
    ready: asyncio.Event | None = None,
) -> None:
    """Fire Telegram's deadlines until `stop` is set: the overdue ones first (then `ready`).

    A stop during that first burst (thousands of reminders after a long outage take minutes
    under the rate limits) is heeded at once: what is being sent gets the dispatcher's drain,
    as in a stop at any other time; a supervisor's stop timeout would kill the process.
    """
    dispatcher = Dispatcher(service, front.send_replies, platforms=(PLATFORM,))
    try:
        overdue = asyncio.ensure_future(dispatcher.run_due())  # overdue deadlines first
        stopping = asyncio.ensure_future(stop.wait())
        try:
            await asyncio.wait({overdue, stopping}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            stopping.cancel()
        if not overdue.done():
            overdue.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await overdue
            return
        if overdue.exception() is not None:
            log.error("firing overdue deadlines at start-up failed", exc_info=overdue.exception())
        dispatcher.start()
        if ready is not None:
            ready.set()
        await stop.wait()
    finally:
        await dispatcher.stop()


def _polling_failed(error: TelegramError) -> None:
    """Log a failed getUpdates in one line; PTB tries again (after 1 s, up to 30 s between).

    PTB's own report is a traceback of some sixty lines at every try — while Telegram is out of
    reach, or while another process polls with the same token — and never says what to do.
    """
    if isinstance(error, Conflict):
        log.error(
            "Telegram gave the updates to another process polling with this TELEGRAM_TOKEN "
            "(%s): stop it, one bot a token; still trying",
            error.message,
        )
    elif isinstance(error, NetworkError):
        log.warning("cannot reach Telegram's Bot API: %s; still trying", error.message)
    else:
        log.error("polling Telegram failed: %s; still trying", error.message)


def start_failure(error: BaseException) -> str | None:
    """Return the one line that says why the Telegram bot could not start, or None.

    Never the token: PTB's own message for a refused token quotes it.
    """
    if isinstance(error, InvalidToken):
        return "Telegram refused the token: check TELEGRAM_TOKEN (from @BotFather)."
    if isinstance(error, BadRequest):  # reached, and refused: e.g. a webhook on plain http
        return f"Telegram refused to set the bot up: {error.message}"
    if isinstance(error, NetworkError):
        return f"cannot reach Telegram's Bot API: {error.message}"
    if isinstance(error, OSError):  # the webhook's port is taken, or its address is not ours
        return f"cannot start the Telegram webhook: {error.strerror or error}"
    return None


def run_telegram(settings: Settings) -> int:
    """Run the Telegram bot in the foreground until SIGINT or SIGTERM; return the exit status.

    Status 0 for a clean stop; 1, after one logged line, when it cannot start.
    """
    if not logging.getLogger().handlers:
        logging.basicConfig(
            level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
        )
    logging.getLogger("httpx").setLevel(logging.WARNING)  # one INFO line per request otherwise

    try:
        asyncio.run(serve_until_stopped(lambda stop: serve_telegram(settings, stop=stop)))
    except KeyboardInterrupt:
        return 0
    except (InvalidToken, NetworkError, OSError) as error:
        log.error("%s", start_failure(error))
        return 1
    return 0

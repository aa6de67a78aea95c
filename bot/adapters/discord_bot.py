"""The Discord adapter: slash commands and persistent buttons over the platform-neutral service.

Each handler takes the four steps of STYLE.md §8: acknowledge (`defer`, within Discord's three
seconds, before touching the database or rendering) → build a `Command` from the slash options
→ `Service.execute` → send the `Reply` values. Where a reply goes:

- a reply to the chat → the interaction's response (the "thinking" message is edited), or a
  follow-up, or — outside an interaction (reminders, timeouts) — a channel message;
- a reply to one user → an **ephemeral** follow-up when that user is the interaction's user,
  otherwise a DM when the user allowed DMs (``/notify dm:True``), otherwise nothing: racks and
  errors are never posted in a channel. A notice (a reminder, your tile of an NMBR 9 round) goes
  by DM or as a mention in the game's channel, never both: the mention when no DM got through.

Buttons (Join, Start, My rack, Board, Pass) are `GameButton` dynamic items whose custom id
(``fb:<action>:<game id>:<turn>``) carries ids only; they are registered in `setup_hook`, so a
button on any old message works after a restart, and a Pass clicked on an earlier turn (or of
a game that has ended) gets a polite ephemeral answer. Only a game's newest message keeps live
buttons (`FeudBot._keep_live`), and the draft steps of one Rummikub turn edit one message
(`FeudBot._edit_draft`); which messages those are is kept in storage too, so a restart
forgets neither. Everything else that fails lands in one handler
(`FeudBot.report_error`): it is logged and the user gets a short ephemeral apology, never a
traceback.

```python
bot = FeudBot(service, dev_guild_id=settings.discord_dev_guild_id)
async with bot:
    await bot.start(settings.discord_token)
```
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import io
import logging
import re
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands
from discord.utils import MISSING

from bot.adapters.common import (
    APOLOGY,
    BOARD_AGAIN_AFTER,
    JUST_POSTED,
    KeptMessages,
    ended_game,
    image_alt,
    image_bytes,
    image_name,
    one_line_retries,
    reply_table,
    serve_until_stopped,
    short_description,
)
from bot.adapters.discord_syntax import option_name, translator
from bot.commands import (
    BOT_LEVEL_NAMES,
    COMMANDS,
    FIRST_YEAR,
    LAST_YEAR,
    Command,
    CommandError,
    CommandSpec,
    games_list,
    is_bot_name,
    option_slip,
    parse_command,
)
from bot.config import Settings
from bot.core.errors import GameError, Reason, RuleError
from bot.core.words import and_list, plural, quoted, shown_name
from bot.games import GAMES
from bot.reminders import Dispatcher
from bot.replies import ChatTarget, Reply, UserTarget
from bot.service import ChatRef, Service, UserRef, bot_names, load_state, takes
from storage import GameMessage, GameStatus

log = logging.getLogger(__name__)

PLATFORM = "discord"
MAX_CONTENT = 2000
MAX_DESCRIPTION = 4096
MAX_MESSAGES = 5  # a longer text ends with "… and N more lines" rather than flood the channel
MAX_CHOICES = 25
MAX_CHOICE_TEXT = 100  # an autocomplete choice's name and value
# A game's stage as a `game:` suggestion says it (as /games does: "waiting to start").
STATUS_WORDS = {"lobby": "waiting to start", "active": "being played", "finished": "over"}
MAX_INVITES = 3
COLOUR = discord.Colour(0x2E7D32)
# Nobody is notified unless a message names whom (`pinging`): a name is never a ping.
NO_MENTIONS = discord.AllowedMentions.none()
# The event key of an adapter-made ping: the Discord user ids it mentions (and notifies).
MENTIONS = "mentions"
# An escaped "#" that makes no heading (Discord's need "# " with a space): "#1 alice: …".
_NOT_A_HEADING = re.compile(r"^\\(#{1,3})(?=[^\s#])", re.MULTILINE)
# Discord's JSON error codes: a channel out of the bot's reach (not in its server), and a
# permission the bot lacks there (e.g. Attach Files, which a post needs and an answer does not).
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
UNKNOWN_CHANNEL = 10003
MUTED_TOLD = 4096  # (channel, user) pairs told that the bot may not post there, kept per run

STALE = (
    "That button belongs to an earlier turn of game #{game}; nothing was changed. "
    "Use the buttons on the latest message, or /board."
)
# An old turn's button of a game that has ended: no newer message has live buttons to point to.
# (The wording of the Telegram adapter's answers; the adapters do not import each other.)
# The event key of a private reply's stand-in: the mention to post in the game's channel when
# the reply cannot go by DM (DMs off, or closed). A notice goes by DM or as a mention, not both.
INSTEAD = "mention_instead"
# What `game` suggests: the games a command accepts (the service refuses the others).
OPEN: tuple[GameStatus, ...] = ("lobby", "active")
GAME_STATUSES: dict[str, tuple[GameStatus, ...]] = {
    "join": ("lobby",),
    "start": ("lobby",),
    "rematch": ("finished",),  # the most recent first
    "board": ("active", "finished"),  # a final board may still be looked at
    "history": ("active", "finished"),
    "rack": ("active", "finished"),
}
BOTS_WITHOUT_LEVEL = (
    "bots: needs bot: — the level of the bot players, e.g. /new game:Webfeud bot:hard bots:3 "
    "(levels: " + ", ".join(BOT_LEVEL_NAMES) + ")."
)
# /notify exists on Discord only, so the command table of bot/commands.py (and of
# docs/commands.md) does not have it; Discord's /help learns it here.
NOTIFY_SYNTAX = "/notify dm:True|False"
NOTIFY_SUMMARY = "Choose whether feudbot may DM you reminders and your tiles"
NOTIFY_HELP = (
    f"{NOTIFY_SYNTAX}\n"
    "Discord only. dm:True: feudbot DMs you the reminders before a turn deadline and your rack "
    "when someone else's action deals it, instead of mentioning you in the game's channel (keep "
    "DMs from this server open: a DM that fails becomes the mention). dm:False, the default: no "
    "DMs; reminders mention you in the game's channel and My rack shows your tiles."
)
GUILD_ONLY = "Feudbot's games are played in server channels; try this command in one."
# Posted when a server adds the bot: in its system channel, else the first text channel the bot
# may write in; the commands in Discord's form (`service_text`). As /help names the games.
SERVER_WELCOME = (
    f"Hello! I host five tile games:\n{games_list()}\n"
    "Start: /new webfeud @friend, or /new webfeud bot=easy to play me. Your tiles show to you "
    "alone, under My rack. /help for more."
)
# The dispatched event tests (and tools) can wait for: an interaction is fully answered.
HANDLED_EVENT = "feud_handled"
SHUTDOWN_GRACE = 5.0  # seconds running handlers get to finish when the bot stops

# --- buttons -----------------------------------------------------------------------------------

BUTTON_LABELS = {
    "join": "Join",
    "start": "Start",
    "rack": "My rack",
    "board": "Board",
    "pass": "Pass",
    "rematch": "Rematch",
    "passok": "Yes, pass",
}
BUTTON_STYLES = {
    "join": discord.ButtonStyle.primary,
    "start": discord.ButtonStyle.success,
    "rack": discord.ButtonStyle.primary,
    "board": discord.ButtonStyle.secondary,
    "pass": discord.ButtonStyle.secondary,
    "rematch": discord.ButtonStyle.success,
    "passok": discord.ButtonStyle.danger,
}
# Buttons that act on the game: refused when clicked on a message of an earlier turn.
TURN_BOUND = frozenset({"pass", "passok"})
# Pass asks first (a stray click must not give the turn away), in a message only the player sees.
CONFIRM_PASS = "Only you see this; dismiss it to keep playing."  # after the service's question
# Events that show a game someone can act on, and the buttons under them.
LOBBY_EVENTS = frozenset({"game_created", "game_joined", "game_left"})
PLAY_EVENTS = frozenset({"game_started", "move_played", "timeout", "board", "draft"})
# The chat's news that opens a round of NMBR 9 (the start, the round's last tile placed).
ROUND_NEWS = frozenset({"game_started", "move_played", "timeout"})
# News that closes a lobby or a game: the game's older messages lose their buttons, even when
# the news itself has none (a game of bots only ends without a Rematch).
CLOSING_EVENTS = frozenset({"game_started", "game_over", "game_cancelled"})
# News of a move or a timeout: a draft the table no longer holds was played or taken back
# (another player's resignation, out of turn, leaves the draft as it was).
TURN_NEWS = frozenset({"move_played", "timeout"})
# News that ends the game: any draft of it is over.
GAME_ENDS = frozenset({"game_over", "game_cancelled"})
# The slots of a game's messages in storage (`db.messages`): the one whose buttons act, the draft.
LIVE, DRAFT = "live", "draft"
# The asker's private note when a draft step updated the game's draft message in place.
DRAFT_UPDATED = "The draft message of the game is updated:"
# What an invitee to a lobby hears: the game waits for its Start.
START_HINT = "it begins when someone presses Start."


@dataclass(frozen=True, slots=True)
class LiveMessage:
    """The message of a game whose buttons act: the newest this process posted with buttons."""

    channel_id: int
    message_id: int
    kind: str  # the event it shows: a "draft" is edited in place by the turn's next step
    turn: int


def _live_from_kept(kept: GameMessage) -> LiveMessage:
    """Return the game message a stored row keeps."""
    kind, turn = str(kept.data.get("kind", "")), int(kept.data.get("turn", 0))
    return LiveMessage(int(kept.chat_id), int(kept.message_id), kind, turn)


def _kept_live(game_id: int, slot: str, live: LiveMessage) -> GameMessage:
    """Return the stored row of a game message."""
    data = {"kind": live.kind, "turn": live.turn}
    return GameMessage(game_id, slot, str(live.channel_id), str(live.message_id), data)


def custom_id(action: str, game_id: int, turn: int) -> str:
    """Return a button's custom id: ids and the turn only (Discord allows 100 characters)."""
    return f"fb:{action}:{game_id}:{turn}"


class GameButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"fb:(?P<action>join|start|rack|board|pass|passok|rematch):(?P<game>[0-9]{1,18}):(?P<turn>[0-9]{1,9})",
):
    """A button under a game message; it is rebuilt from its custom id, so it survives restarts."""

    def __init__(self, action: str, game_id: int, turn: int, label: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or BUTTON_LABELS[action],
                style=BUTTON_STYLES[action],
                custom_id=custom_id(action, game_id, turn),
            )
        )
        self.action = action
        self.game_id = game_id
        self.turn = turn

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> GameButton:
        """Rebuild the button from a click on any message, old or new."""
        return cls(match["action"], int(match["game"]), int(match["turn"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the click to the bot (errors go to the bot's one error handler)."""
        bot = interaction.client
        assert isinstance(bot, FeudBot)
        try:
            await bot.on_button(interaction, self.action, self.game_id, self.turn)
        except Exception as error:
            await bot.report_error(interaction, error)


def can_pass(game_key: str | None) -> bool:
    """Return True when the game's notation has a plain ``pass`` (the Pass button's move)."""
    gdef = GAMES.get(game_key or "")
    if gdef is None:
        return False
    try:
        gdef.parse_move("pass")
    except GameError:
        return False
    return True


def can_swap(game_key: str | None, tile: str) -> bool:
    """Return True when the game's notation has a swap (Rummikub and NMBR 9 have none)."""
    gdef = GAMES.get(game_key or "")
    if gdef is None:
        return False
    try:
        gdef.parse_move(f"swap {tile}")
    except GameError:
        return False
    return True


def pass_label(game_key: str | None) -> str:
    """Return the Pass button's label: "Pass", or what the game's pass is (Rummikub: "Draw")."""
    gdef = GAMES.get(game_key or "")
    move = str(gdef.parse_move("pass")) if gdef is not None and can_pass(game_key) else "pass"
    return BUTTON_LABELS["pass"] if move == "pass" else move.split()[0].capitalize()


def buttons_for(reply: Reply, game_key: str | None = None) -> list[GameButton]:
    """Return the buttons to put under a chat reply (none for private replies)."""
    if reply.private:
        return []
    event = reply.event
    kind = reply.kind
    game_id = event.get("game_id")
    if not isinstance(game_id, int):
        return []
    if kind in LOBBY_EVENTS:
        return [GameButton("join", game_id, 0), GameButton("start", game_id, 0)]
    if kind == "game_over" and reply.buttons:  # a game with people in it: play it again
        return [GameButton("rematch", game_id, 0)]
    if kind in PLAY_EVENTS and event.get("to_move"):
        turn = event.get("turn")
        if not isinstance(turn, int):
            turn = (event.get("view") or {}).get("turn")
        if not isinstance(turn, int):
            return []
        buttons = [GameButton("rack", game_id, turn), GameButton("board", game_id, turn)]
        key = game_key or event.get("game")
        if can_pass(key):
            buttons.append(GameButton("pass", game_id, turn, label=pass_label(key)))
        return buttons
    return []


def attach_buttons(
    replies: Sequence[Reply], game_keys: Mapping[int, str] | None = None
) -> list[tuple[Reply, list[GameButton]]]:
    """Pair each reply with its buttons; only the last message of a batch per game gets them.

    Earlier messages of the same batch (the player's move before a bot's answer) would show
    buttons of a turn that is already over. `game_keys` maps game ids to game keys.
    """
    keys = game_keys or {}
    paired = []
    for reply in replies:
        game_id = reply.event.get("game_id")
        key = keys.get(game_id) if isinstance(game_id, int) else None
        paired.append((reply, buttons_for(reply, key)))
    seen: set[int] = set()
    out: list[tuple[Reply, list[GameButton]]] = []
    for reply, buttons in reversed(paired):
        game_id = reply.event.get("game_id")
        if buttons and isinstance(game_id, int):
            if game_id in seen:
                buttons = []
            seen.add(game_id)
        elif isinstance(game_id, int) and not reply.private and reply.kind == "game_over":
            seen.add(game_id)
        out.append((reply, buttons))
    out.reverse()
    return out


def _round_placers(replies: Sequence[Reply], asker: str | None) -> dict[int, tuple[int, list[str]]]:
    """Return, per game whose round opens in this batch, the round and who must place a tile.

    A round opens where the chat is told the game started or a round ended (`ROUND_NEWS`) and
    the same batch deals people their tile: a private rack of the round with a tile on it.
    """
    opened = {r.event.get("game_id") for r in replies if not r.private and r.kind in ROUND_NEWS}
    out: dict[int, tuple[int, list[str]]] = {}
    for reply, uid, game_id in _racks_of_others(replies, asker):
        round_no = reply.event.get("round")
        if game_id in opened and isinstance(round_no, int) and reply.event.get("tiles"):
            uids = out.setdefault(game_id, (round_no, []))[1]
            if uid not in uids:
                uids.append(uid)
    return out


def _placed_for(replies: Sequence[Reply], asker: str | None) -> dict[int, list[str]]:
    """Return, per game, who is told privately that a round deadline placed their tile."""
    out: dict[int, list[str]] = {}
    for reply, uid, game_id in _racks_of_others(replies, asker):
        if not reply.event.get("timeout"):
            continue
        uids = out.setdefault(game_id, [])
        if uid not in uids:
            uids.append(uid)
    return out


def _racks_of_others(
    replies: Sequence[Reply], asker: str | None
) -> Iterator[tuple[Reply, str, int]]:
    """Yield each private rack for a Discord user other than `asker`, with their id and game."""
    for reply in replies:
        to, game_id = reply.to, reply.event.get("game_id")
        if (
            reply.kind == "rack"
            and isinstance(to, UserTarget)
            and to.platform == PLATFORM
            and to.platform_user_id != asker
            and isinstance(game_id, int)
        ):
            yield reply, to.platform_user_id, game_id


def _stand_in(
    replies: list[Reply], uid: str, game_id: int, text: str, *, round_no: int | None = None
) -> None:
    """Give a user's rack of the game (of round `round_no`, if given) a mention as its stand-in."""
    for n, reply in enumerate(replies):
        to, event = reply.to, reply.event
        if (
            reply.kind == "rack"
            and isinstance(to, UserTarget)
            and to.platform_user_id == uid
            and event.get("game_id") == game_id
            and (round_no is None or event.get("round") == round_no)
            and INSTEAD not in event
        ):
            replies[n] = replace(reply, event={**event, INSTEAD: text})


# --- turning replies into messages ------------------------------------------------------------


async def _answer(
    interaction: discord.Interaction[Any],
    part: Parts,
    view: discord.ui.View | None,
    *,
    ephemeral: bool = False,
) -> discord.Message:
    """Send one message of an answer to an interaction; return it.

    The first fills the deferred "thinking" message; later ones are follow-ups, ephemeral ones
    seen by the asker alone.
    """
    extras = interaction.extras
    if extras.get("pending"):
        message = await interaction.edit_original_response(
            content=part.content,
            embeds=part.embeds,
            attachments=part.files,
            view=view,
            allowed_mentions=part.mentions,
        )
        extras["pending"] = False
        return message
    return await interaction.followup.send(
        part.content or MISSING,
        embeds=part.embeds,
        files=part.files,
        view=view or MISSING,
        ephemeral=ephemeral,
        allowed_mentions=part.mentions,
        wait=True,  # what interaction follow-ups always do: the message comes back
    )


# Logged when a post is refused (403 Missing Access) while a new session lists the servers.
REFUSED_WHILE_LISTING = (
    "channel %s refused a post while Discord lists my servers anew; I weigh it once it has"
)
# How long such a refusal waits for the list (seconds): a server in an outage may stay out for
# hours, and the channel's later news waits behind it. Then it holds nothing (the next weighs).
SERVERS_WAIT = 60.0


def _refusal(error: discord.HTTPException) -> int | None:
    """Return why a channel refused a post, as the bot expects and mends it, or None.

    `MISSING_PERMISSIONS`: no Send Messages there (a post with files is first tried again as
    text, where only Attach Files is missing): the news goes by DM. `MISSING_ACCESS`: out of
    the channel's server, or no View Channel. `UNKNOWN_CHANNEL`: the channel was deleted.
    """
    forbidden = isinstance(error, discord.Forbidden) and error.code in (
        MISSING_PERMISSIONS,
        MISSING_ACCESS,
    )
    gone = isinstance(error, discord.NotFound) and error.code == UNKNOWN_CHANNEL
    return error.code if forbidden or gone else None


def _log_refusal(error: discord.HTTPException, what: str, *args: object) -> None:
    """Log a refused post: a warning when the bot expects and mends it, else the traceback.

    No Send Messages (the news goes by DM), no access (the games are held) and a deleted
    channel (its games are cancelled) happen every day to a bot in many servers; logged as
    errors with a traceback per message, they buried the real errors.
    """
    if _refusal(error) is not None:
        log.warning(what + ": %s", *args, error)
    else:
        log.exception(what, *args)


def _view(buttons: Sequence[GameButton]) -> discord.ui.View | None:
    if not buttons:
        return None
    view = discord.ui.View(timeout=None)
    for button in buttons:
        view.add_item(button)
    return view


def _safe_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name) or "image.png"


@dataclass(frozen=True, slots=True)
class Parts:
    """One message's text, embeds, files and allowed mentions (fresh `discord.File`s: sent once)."""

    content: str | None
    embeds: list[discord.Embed]
    files: list[discord.File]
    mentions: discord.AllowedMentions = NO_MENTIONS


def plain(text: str) -> str:
    """Return plain text as Discord shows it literally: markdown and mentions escaped.

    The service's texts are plain (a player called ``**x**`` or ``@everyone`` is a name, not
    formatting or a ping); only the adapter's own mentions (`pinging`) are markup.
    """
    escaped = _NOT_A_HEADING.sub(r"\1", discord.utils.escape_markdown(text))
    return discord.utils.escape_mentions(escaped)


def pinging(user_ids: Sequence[str]) -> discord.AllowedMentions:
    """Return allowed mentions that notify exactly these users (nobody else, no roles)."""
    if not user_ids:
        return NO_MENTIONS
    users = [discord.Object(int(uid)) for uid in user_ids]
    return discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)


def _pieces(line: str, limit: int) -> list[str]:
    """Cut a line longer than `limit` at spaces (or anywhere, if it has none)."""
    out = []
    while len(line) > limit:
        cut = line.rfind(" ", 1, limit + 1)
        if cut <= 0:
            cut = limit - 1 if line[limit - 1] == "\\" else limit  # keep an escape whole
        out.append(line[:cut])
        line = line[cut:].lstrip(" ")
    return [*out, line]


def split_lines(text: str, limit: int) -> list[str]:
    """Split a text into chunks of at most `limit` characters, at line ends where it can."""
    chunks: list[str] = []
    lines: list[str] = []
    size = 0  # len("\n".join(lines))
    for line in text.split("\n"):
        for piece in _pieces(line, limit):
            if lines and size + 1 + len(piece) > limit:
                chunks.append("\n".join(lines))
                lines, size = [], 0
            size += len(piece) + (1 if lines else 0)
            lines.append(piece)
    if lines:
        chunks.append("\n".join(lines))
    return chunks


def _at_most(chunks: list[str], count: int) -> list[str]:
    """Keep `count` chunks; the last one ends with "… and N more lines" for what is left out."""
    if len(chunks) <= count:
        return chunks
    kept = chunks[:count]
    last = kept[-1].split("\n")
    dropped = sum(chunk.count("\n") + 1 for chunk in chunks[count:])
    while True:
        note = f"… and {plural(dropped, 'more line')}"
        if len("\n".join([*last, note])) <= MAX_DESCRIPTION or len(last) == 1:
            break
        last.pop()
        dropped += 1
    kept[-1] = "\n".join([*last, note])[-MAX_DESCRIPTION:]
    return kept


def message_parts(reply: Reply, *, mention: str | None = None) -> list[Parts]:
    """Return the messages of one reply: text, embeds with images, files, allowed mentions.

    The reply's text is plain and shown literally (`plain`); a ping the adapter made
    (`event["mentions"]`) and `mention` (a user id put in front) are the only mentions that
    notify. Images go out as attachments shown in embeds; a text longer than a message's 2000
    characters goes into embed descriptions, split at line ends over up to `MAX_MESSAGES`
    messages (the last says how many lines were left out, if any).
    """
    pinged = [str(uid) for uid in reply.event.get(MENTIONS, ())]
    source = slash_text()(reply.text)
    text = source if pinged else plain(source)
    lead = ""
    if mention:
        lead = f"<@{mention}>"
        pinged.append(mention)
    allowed = pinging(pinged)
    files: list[discord.File] = []
    embeds: list[discord.Embed] = []
    for n, image in enumerate(reply.images[:10]):
        name = _safe_name(image_name(image, f"image-{n}.png"))
        data = io.BytesIO(image_bytes(image))
        files.append(discord.File(data, filename=name, description=image_alt(image) or None))
        embeds.append(discord.Embed(colour=COLOUR).set_image(url=f"attachment://{name}"))
    whole = f"{lead}: {text}" if lead and text else lead or text
    if len(whole) <= MAX_CONTENT:
        return [Parts(whole or None, embeds, files, allowed)]
    chunks = _at_most(split_lines(text, MAX_DESCRIPTION), MAX_MESSAGES)
    if not embeds:
        embeds.append(discord.Embed(colour=COLOUR))
    embeds[0].description = chunks[0]
    out = [Parts(lead or None, embeds, files, allowed)]
    for chunk in chunks[1:]:
        out.append(Parts(None, [discord.Embed(colour=COLOUR, description=chunk)], [], allowed))
    return out


# --- the bot -----------------------------------------------------------------------------------


class FeudTree(app_commands.CommandTree[Any]):
    """The command tree whose one error handler logs and apologises."""

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """Send every failure of a slash command to the bot's error handler."""
        bot = interaction.client
        assert isinstance(bot, FeudBot)
        await bot.report_error(interaction, error)


class FeudBot(commands.Bot):
    """feudbot on Discord: guild-only slash commands, persistent buttons, no message content."""

    def __init__(
        self,
        service: Service,
        *,
        dev_guild_id: int | None = None,
        sync_commands: bool = True,
        run_dispatcher: bool = True,
        **options: Any,  # noqa: ANN401 (discord.Client's own options)
    ) -> None:
        """Wrap a service.

        Args:
            service: The use cases (over an open database).
            dev_guild_id: Sync the commands to this guild only (instant), not globally.
            sync_commands: Sync the slash commands at start-up.
            run_dispatcher: Run the deadline dispatcher of Discord's games (reminders,
                timeouts) with the bot, from its first READY.
            **options: More `discord.Client` options (e.g. ``guild_ready_timeout``).
        """
        intents = discord.Intents.default()
        intents.message_content = False  # slash commands and buttons need no message content
        intents.members = False
        intents.presences = False
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=FeudTree,
            allowed_mentions=NO_MENTIONS,  # each message says whom it pings (`pinging`)
            **options,
        )
        self.service = service
        self.dev_guild_id = dev_guild_id
        self.sync_commands = sync_commands
        self.dispatcher: Dispatcher | None = (
            Dispatcher(service, self.send_replies, platforms=(PLATFORM,))
            if run_dispatcher
            else None
        )
        self._in_flight: set[int] = set()  # interactions being handled (for a clean shutdown)
        # (channel, user) told that the bot may not post in that channel (`_muted_note`).
        self._told_muted: set[tuple[int, int]] = set()
        # Per game, its one message with live buttons and its newest draft message, also kept
        # in storage so that a restart forgets neither.
        self._live = KeptMessages(service.db, LIVE, _live_from_kept, _kept_live)
        self._drafts = KeptMessages(service.db, DRAFT, _live_from_kept, _kept_live)
        self._idle = asyncio.Event()
        self._idle.set()
        # Whether discord.py has listed the bot's servers (READY, then each server's
        # GUILD_CREATE): not before the first READY, nor while a new session lists them anew
        # (`_note_servers`).
        self._servers_known = asyncio.Event()

    # -- lifecycle --

    async def setup_hook(self) -> None:
        """Register buttons and commands, sync the commands (the dispatcher waits for READY)."""
        # discord.py logs each try to reconnect with a traceback of some thirty lines.
        one_line_retries("discord.client", "Attempting a reconnect")
        self.add_dynamic_items(GameButton)
        guild = discord.Object(self.dev_guild_id) if self.dev_guild_id else None
        for command in build_commands():
            self.tree.add_command(command, guild=guild)
        if self.sync_commands:
            synced = await self.tree.sync(guild=guild)
            log.info(
                "synced %d commands %s",
                len(synced),
                f"to guild {self.dev_guild_id}" if guild else "globally",
            )

    async def close(self) -> None:
        """Stop the dispatcher, let running handlers finish (a few seconds at most), disconnect.

        `Client.close` stops neither background tasks nor handlers that still need the HTTP
        session and the database.
        """
        if self.dispatcher is not None:
            await self.dispatcher.stop()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._idle.wait(), SHUTDOWN_GRACE)
        await super().close()

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:  # noqa: ANN401
        """Note a new session (`connect`): discord.py has just forgotten the bot's servers.

        Noted here, as the event is raised, not in a handler that runs a moment later.
        """
        if event_name == "connect":
            self._servers_known.clear()
        super().dispatch(event_name, *args, **kwargs)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Note a command or click being handled until its answer is sent (`_handled`)."""
        ours = interaction.type is discord.InteractionType.application_command
        if interaction.type is discord.InteractionType.component:
            data: dict[str, Any] = dict(interaction.data or {})
            custom = str(data.get("custom_id", ""))
            ours = GameButton.__discord_ui_compiled_template__.fullmatch(custom) is not None
        if ours:
            self._in_flight.add(interaction.id)
            self._idle.clear()

    # -- servers that remove the bot or add it back --

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Hold the games of every channel of a server that removed the bot; tell the players.

        (A server that is only unavailable, in an outage, is not removed.)
        """
        await self._away(channel.id for channel in (*guild.channels, *guild.threads))

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A channel was deleted: its games can never be played again; cancel them, tell why.

        Its threads went with it, the archived ones too (discord.py tells only of those it
        had seen).
        """
        await self._gone(channel.id)

    async def on_thread_delete(self, thread: discord.Thread) -> None:
        """A thread was deleted: as a channel (`on_guild_channel_delete`)."""
        await self._gone(thread.id)

    async def _away(self, channel_ids: Iterable[int]) -> None:
        """Hold the games of these channels and of their threads; tell their players."""
        replies: list[Reply] = []
        for chat_id in await self._with_threads(channel_ids):
            replies += await self.service.chat_away(PLATFORM, chat_id, True)
        await self.send_replies(replies)

    async def _gone(self, channel_id: int) -> None:
        """Cancel the games of a deleted channel and of its threads; tell their players."""
        replies: list[Reply] = []
        for chat_id in await self._with_threads([channel_id]):
            replies += await self.service.chat_gone(PLATFORM, chat_id)
        await self.send_replies(replies)

    async def _with_threads(self, channel_ids: Iterable[int]) -> list[str]:
        """Return the channels' ids, each followed by those of its threads the bot has stored.

        Discord lists only a server's active threads to the bot; an archived thread may still
        hold a running game (a move there unarchives it).
        """
        ids = dict.fromkeys(str(channel_id) for channel_id in channel_ids)
        for channel_id in list(ids):
            for thread in await self.service.db.chats.threads_of(PLATFORM, channel_id):
                ids.setdefault(thread.platform_chat_id)
        return list(ids)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        """A server added the bot: a short welcome; the games held in its channels go on."""
        await self._welcome(guild)
        await self._back_where_seen()

    async def _welcome(self, guild: discord.Guild) -> None:
        me = guild.me
        channels = [guild.system_channel, *sorted(guild.text_channels, key=lambda c: c.position)]
        channel = next(
            (c for c in channels if c is not None and c.permissions_for(me).send_messages), None
        )
        if channel is None:
            log.info("no channel of server %s lets me say hello", guild.id)
            return
        try:
            await channel.send(service_text(SERVER_WELCOME), allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as error:
            log.info("could not greet server %s: %s", guild.id, error)

    async def on_ready(self) -> None:
        """Connected: the deadlines fire; games held in channels seen again (added back) go on.

        Not before: until READY the bot knows none of its servers, so a post refused with 403
        Missing Access (no View Channel) would look like a server that removed it (`_sees`), and
        hold the channel's games.
        """
        self._note_servers()
        if self.dispatcher is not None:
            self.dispatcher.start()  # (once: a later READY, after a new session, finds it on)
        await self._back_where_seen()

    async def on_guild_available(self, guild: discord.Guild) -> None:
        """A server listed late (after READY, or after an outage): its held games go on."""
        self._note_servers()
        await self._back_where_seen()

    def _note_servers(self) -> None:
        """Note the bot's servers all listed, unless one is still known by its id only."""
        if not any(guild.unavailable for guild in self.guilds):
            self._servers_known.set()

    async def _back_where_seen(self) -> None:
        replies: list[Reply] = []
        for chat in await self.service.db.chats.away_chats(PLATFORM):
            if await self._sees(int(chat.platform_chat_id)):
                replies += await self.service.chat_away(PLATFORM, chat.platform_chat_id, False)
        await self.send_replies(replies)

    async def _sees(self, channel_id: int) -> bool:
        """Return whether a channel (or thread) is in a server the bot is in.

        An archived thread is not among the threads Discord lists: its stored channel tells.
        """
        if self.get_channel(channel_id) is not None or any(
            guild.get_thread(channel_id) for guild in self.guilds
        ):
            return True
        chats = self.service.db.chats
        thread = await chats.get_chat_by_platform_id(PLATFORM, str(channel_id))
        if thread is None or thread.parent_id is None:
            return False
        channel = await chats.get_chat(thread.parent_id)
        return channel is not None and self.get_channel(int(channel.platform_chat_id)) is not None

    async def _back_in(self, interaction: discord.Interaction[Any]) -> None:
        """A command from a server the bot is in: its channel's held games go on (if any)."""
        if interaction.guild is not None and interaction.channel_id is not None:
            await self.send_replies(
                await self.service.chat_heard(PLATFORM, str(interaction.channel_id))
            )

    # -- who and where --

    @staticmethod
    def chat_ref(interaction: discord.Interaction[Any]) -> ChatRef:
        """Return the service's view of the interaction's channel, titled "#games" (or None)."""
        channel = interaction.channel
        name = getattr(channel, "name", None)
        title = f"#{name}" if name else None
        if isinstance(channel, discord.Thread):
            # Its games count on its channel's leaderboards, as a forum topic's on its group's.
            parent = getattr(channel.parent, "name", None)
            return ChatRef(
                PLATFORM,
                str(interaction.channel_id),
                title,
                parent_id=str(channel.parent_id),
                parent_title=f"#{parent}" if parent else None,
            )
        return ChatRef(PLATFORM, str(interaction.channel_id), title)

    @staticmethod
    def user_ref(interaction: discord.Interaction[Any]) -> UserRef:
        """Return the service's view of the user; Manage Server makes a chat admin."""
        perms = interaction.permissions
        admin = bool(perms.manage_guild or perms.administrator)
        user = interaction.user
        return UserRef(PLATFORM, str(user.id), user.display_name, is_admin=admin)

    # -- handlers --

    async def run_command(
        self,
        interaction: discord.Interaction[Any],
        build: Callable[[], Command],
        *,
        ephemeral: bool = False,
        invite: Sequence[discord.abc.User] = (),
        adjust: Callable[[list[Reply]], list[Reply]] | None = None,
    ) -> None:
        """Acknowledge, build the command, call the service and send its replies.

        `adjust` changes the service's replies before they are sent (Discord's own additions).
        """
        await self._defer(interaction, ephemeral=ephemeral)
        try:
            command = build()
        except CommandError as error:
            await self.deliver(interaction, [self._error_reply(interaction, error.message)])
            return
        for member in invite:
            # A member the command names becomes known to the service, found by their id.
            await self.service.remember(UserRef(PLATFORM, str(member.id), member.display_name))
        await self._back_in(interaction)
        replies = await self.service.execute(
            self.chat_ref(interaction), self.user_ref(interaction), command
        )
        if command.name == "new" and invite:
            replies = await self._with_invitations(interaction, replies, invite)
        await self.deliver(interaction, adjust(replies) if adjust else replies)

    async def on_button(
        self, interaction: discord.Interaction[Any], action: str, game_id: int, turn: int
    ) -> None:
        """Handle a click on a game button (ids and turn from its custom id)."""
        if interaction.guild_id is None:
            await interaction.response.send_message(
                GUILD_ONLY, ephemeral=True, allowed_mentions=NO_MENTIONS
            )
            self._handled(interaction)
            return
        if action == "board" and await self._just_posted(interaction, game_id):
            await interaction.response.send_message(
                JUST_POSTED.format(id=game_id), ephemeral=True, allowed_mentions=NO_MENTIONS
            )
            self._handled(interaction)
            return
        if action == "rack":
            await self._defer(interaction, ephemeral=True, thinking=True)
        elif action == "passok":  # the question is answered: its button goes with the click
            await interaction.response.edit_message(view=None)
        else:
            await interaction.response.defer()  # no "thinking" message; follow-ups are new
        if action in TURN_BOUND:
            row = await self.service.db.games.get_game(game_id)
            refusal = None
            if row is not None and row.status in ("finished", "cancelled"):
                refusal = ended_game(game_id, row.status)
            elif row is None or row.status != "active" or row.turn != turn:
                refusal = STALE.format(game=game_id)
            if refusal is not None:
                await interaction.followup.send(
                    service_text(refusal), ephemeral=True, allowed_mentions=NO_MENTIONS
                )
                self._handled(interaction)
                return
            assert row is not None
            if action == "pass" and pass_label(row.game_key) == BUTTON_LABELS["pass"]:
                await self._confirm_pass(interaction, game_id, turn)
                return
        command = Command("pass" if action == "passok" else action, game_id)
        replies = await self.service.execute(
            self.chat_ref(interaction), self.user_ref(interaction), command
        )
        await self.deliver(interaction, replies)

    async def _just_posted(self, interaction: discord.Interaction[Any], game_id: int) -> bool:
        """Return whether the button is under the game's newest message, posted a moment ago."""
        message, live = interaction.message, await self._live.get(game_id)
        return (
            message is not None
            and live is not None
            and message.id == live.message_id
            and discord.utils.utcnow() - message.created_at < BOARD_AGAIN_AFTER
        )

    async def _confirm_pass(
        self, interaction: discord.Interaction[Any], game_id: int, turn: int
    ) -> None:
        """Ask the player to move, privately, whether to pass (anyone else: the refusal)."""
        ok, question = await self.service.pass_question(
            self.chat_ref(interaction), self.user_ref(interaction), game_id
        )
        if ok:
            view = _view([GameButton("passok", game_id, turn)])
            assert view is not None
            await interaction.followup.send(
                f"{service_text(question)} {CONFIRM_PASS}",
                view=view,
                ephemeral=True,
                allowed_mentions=NO_MENTIONS,
            )
        else:
            await interaction.followup.send(
                service_text(question), ephemeral=True, allowed_mentions=NO_MENTIONS
            )
        self._handled(interaction)

    async def _defer(
        self, interaction: discord.Interaction[Any], *, ephemeral: bool, thinking: bool = True
    ) -> None:
        await interaction.response.defer(ephemeral=ephemeral, thinking=thinking)
        # A thinking defer leaves a "loading" message that the first answer must replace; its
        # visibility was fixed now, so a private answer cannot use it when it is public.
        interaction.extras["pending"] = thinking
        interaction.extras["ephemeral"] = ephemeral

    def _private_reply(
        self, interaction: discord.Interaction[Any], text: str, event: dict[str, Any]
    ) -> Reply:
        user = interaction.user
        return Reply(UserTarget(0, PLATFORM, str(user.id), user.display_name), text, event=event)

    def _error_reply(self, interaction: discord.Interaction[Any], message: str) -> Reply:
        event = {"type": "error", "reason": "BAD_COMMAND", "message": message}
        return self._private_reply(interaction, message, event)

    def _handled(self, interaction: discord.Interaction[Any]) -> None:
        self._in_flight.discard(interaction.id)
        if not self._in_flight:
            self._idle.set()
        self.dispatch(HANDLED_EVENT, interaction)

    # -- sending --

    async def _with_turn_pings(
        self, replies: Sequence[Reply], asker: str | None = None
    ) -> list[Reply]:
        """Turn "your turn" notices into mentions in the channel (what a game app's push does).

        Each notice becomes a short message of its own right after the batch's last public
        news of its game ("@bob, your turn in game #1."), or at the end: Discord notifies a
        mention only in a new message, and the news often fills the edited "thinking" reply.
        A round of NMBR 9 that opens (the start, the last tile of a round placed) deals every
        player a tile at once: one message mentions all who must place, but the `asker`, who
        sees their tile in the answer ("@bob, @carol: place your tile of round 2 in game #1."),
        and those who get their tile by DM: the DM is their notice, and the mention becomes its
        stand-in (`INSTEAD`) should the DM fail. So does the private note of a tile placed at a
        round deadline: by DM, else a mention that does not say where the tile went.
        """
        notices = [r for r in replies if r.kind == "your_turn" and isinstance(r.to, UserTarget)]
        out = [r for r in replies if r.kind != "your_turn"]
        for notice in notices:
            assert isinstance(notice.to, UserTarget)
            uid = notice.to.platform_user_id
            game = f"game #{notice.event.get('game_id')}"
            text = f"<@{uid}>, your turn in {game}."
            if nudger := notice.event.get("nudge"):  # (a mention's text is not escaped again)
                task = notice.event.get("task", "your turn")
                text = f"<@{uid}>, {plain(str(nudger))} nudges you: {task} in {game}."
            await self._insert_ping(out, [uid], text, notice.event)
        placers = _round_placers(out, asker)
        for game_id, (round_no, uids) in placers.items():
            task = f"place your tile of round {round_no} in game #{game_id}."
            event = {"type": "your_turn", "game_id": game_id, "round": round_no}
            await self._dm_or_ping(out, uids, event, task)
        for game_id, uids in _placed_for(out, asker).items():
            told = f"the round deadline of game #{game_id} passed, so your"
            where = "placed for you; My rack shows where."
            await self._dm_or_ping(
                out,
                [uid for uid in uids if uid not in placers.get(game_id, (0, []))[1]],
                {"type": "placed_for_you", "game_id": game_id},
                f"{told} tile was {where}",
                f"{told} tiles were {where}",
            )
        turns = {r.to.platform_user_id for r in notices if isinstance(r.to, UserTarget)}
        await self._rematch_pings(out, turns | ({asker} if asker else set()), set(placers))
        return out

    async def _rematch_pings(self, out: list[Reply], told: set[str], rounds: set[int]) -> None:
        """Mention the people of a rematch that started whom nothing else mentions.

        As an invitation to a new game does: "@bob, @carol: game #2 is the rematch of game #1;
        My rack shows your tiles." Not the asker, nor whoever its turn notice mentions; not in
        a game of rounds (NMBR 9), whose first round calls everyone to place.
        """
        for started in out:
            game_id, old = started.event.get("game_id"), started.event.get("rematch_of")
            if started.private or started.kind != "game_started" or not isinstance(game_id, int):
                continue
            if old is None or game_id in rounds:
                continue
            uids = [uid for uid in await self._seat_uids(game_id) if uid not in told]
            if uids:
                mentions = ", ".join(f"<@{uid}>" for uid in uids)
                text = (
                    f"{mentions}: game #{game_id} is the rematch of game #{old}; "
                    "My rack shows your tiles."
                )
                await self._insert_ping(out, uids, text, {"type": "rematch", "game_id": game_id})

    async def _seat_uids(self, game_id: int) -> list[str]:
        """Return the Discord ids of the people seated in a game (bots have none)."""
        db = self.service.db
        uids = []
        for seat in await db.games.seats(game_id):
            user = await db.users.get_user(seat.user_id) if seat.user_id is not None else None
            if user is not None and user.platform == PLATFORM:
                uids.append(user.platform_user_id)
        return uids

    async def _dm_or_ping(
        self,
        out: list[Reply],
        uids: list[str],
        event: dict[str, Any],
        one: str,
        many: str | None = None,
    ) -> None:
        """Tell `uids` of a game: by DM, or else by one message mentioning them all.

        Who wants DMs gets it with their DM'd rack, the text standing in should the DM fail.
        The text follows the mentions: `one` for a single person, `many` (if it differs) for
        more.
        """
        game_id, round_no = event["game_id"], event.get("round")
        by_dm = [uid for uid in uids if await self._wants_dm(uid)]
        for uid in by_dm:
            _stand_in(out, uid, game_id, f"<@{uid}>: {one}", round_no=round_no)
        pinged = [uid for uid in uids if uid not in by_dm]
        if pinged:
            said = ", ".join(f"<@{uid}>" for uid in pinged)
            text = one if len(pinged) == 1 else many or one
            await self._insert_ping(out, pinged, f"{said}: {text}", event)

    async def _wants_dm(self, uid: str) -> bool:
        """Return True when the Discord user turned DMs on (``/notify dm:True``)."""
        user = await self.service.db.users.get_user_by_platform_id(PLATFORM, uid)
        return user is not None and user.dm_allowed

    async def _insert_ping(
        self, out: list[Reply], uids: list[str], text: str, event: dict[str, Any]
    ) -> None:
        """Put a message mentioning `uids` in the game's channel after its last news in `out`.

        After the pings already put there too: an invitation comes before the first round's
        call of a game its /new started.
        """
        game_id = event.get("game_id")
        channel_id = await self._game_channel(game_id) if isinstance(game_id, int) else None
        if channel_id is None:
            return
        where = ChatTarget(0, PLATFORM, str(channel_id))
        ping = Reply(where, text, event={**event, MENTIONS: uids})
        news = [
            n
            for n, r in enumerate(out)
            if not r.private
            and (r.kind in PLAY_EVENTS or MENTIONS in r.event)
            and r.event.get("game_id") == game_id
        ]
        out.insert(news[-1] + 1 if news else len(out), ping)

    async def deliver(
        self, interaction: discord.Interaction[Any], replies: Sequence[Reply]
    ) -> None:
        """Send the replies of one interaction: public, then the asker's private ones, then DMs."""
        me = str(interaction.user.id)
        replies = await self._with_turn_pings(replies, asker=me)
        keys = await self._game_keys(replies)
        public = [(r, b) for r, b in attach_buttons(replies, keys) if not r.private]
        mine = [r for r in replies if isinstance(r.to, UserTarget) and r.to.platform_user_id == me]
        others = [
            r for r in replies if isinstance(r.to, UserTarget) and r.to.platform_user_id != me
        ]
        extras = interaction.extras
        channel_id = int(interaction.channel_id or 0)
        note = await self._muted_note(interaction)
        if note:
            mine.append(Reply(UserTarget(0, PLATFORM, me, interaction.user.display_name), note))
        for reply, buttons in public:
            updated = await self._edit_draft(channel_id, reply, buttons)
            if updated is not None:
                # The draft message changed above; the asker is told so privately, with a link.
                mine.insert(0, self._draft_note(interaction, reply, updated))
                continue
            if extras.get("ephemeral"):
                # Deferred privately (e.g. /rack) but the service has news for everybody.
                await self._send_to_channel(channel_id, reply, buttons)
                continue
            parts = message_parts(reply)
            sent = None
            for n, part in enumerate(parts):
                view = _view(buttons) if n == len(parts) - 1 else None  # under the last one
                sent = await _answer(interaction, part, view)
            await self._keep_live(channel_id, reply, buttons, sent)
        if extras.get("pending") and not extras.get("ephemeral"):
            # Nothing public to say: drop the public "thinking" message so the private answer
            # below is a new, ephemeral message.
            await interaction.delete_original_response()
            extras["pending"] = False
        for reply in mine:
            for part in message_parts(reply):
                await _answer(interaction, part, None, ephemeral=True)
        if extras.get("pending"):
            await interaction.edit_original_response(content="Done.", allowed_mentions=NO_MENTIONS)
            extras["pending"] = False
        for reply in others:
            await self._notify(reply)
        self._handled(interaction)

    async def _muted_note(self, interaction: discord.Interaction[Any]) -> str:
        """Return a note for a command from a channel where the bot may not post, else "".

        Its answers need no Send Messages, so games go on there; what no command asks for (a
        reminder's mention, a timeout's news) cannot be posted, and goes by DM to those who
        allow DMs (`_news_privately`). Said once to each person in each such channel (per run).
        """
        channel = interaction.channel
        if interaction.guild is None or channel is None:
            return ""
        perms = interaction.app_permissions
        thread = isinstance(channel, discord.Thread)
        if perms.send_messages_in_threads if thread else perms.send_messages:
            return ""
        told = (channel.id, interaction.user.id)
        if told in self._told_muted:
            return ""
        if len(self._told_muted) >= MUTED_TOLD:
            self._told_muted.clear()
        self._told_muted.add(told)
        user = await self.service.db.users.get_user_by_platform_id(
            PLATFORM, str(interaction.user.id)
        )
        name = f"#{getattr(channel, 'name', '') or 'this channel'}"
        meanwhile = (
            "they come to your DMs meanwhile"
            if user is not None and user.dm_allowed
            else "meanwhile `/notify dm:True` sends them to your DMs"
        )
        return (
            f"Note: I may not post in {plain(name)}, so reminders and the news of timeouts cannot "
            f"reach you here. A server admin can give me Send Messages there; {meanwhile}."
        )

    async def send_replies(self, replies: Sequence[Reply]) -> None:
        """Send replies that answer no interaction (the deadline dispatcher's)."""
        replies = await self._with_turn_pings(
            [r for r in replies if r.to.platform == PLATFORM or r.kind != "your_turn"]
        )
        for reply, buttons in attach_buttons(replies, await self._game_keys(replies)):
            if reply.to.platform != PLATFORM:
                # Another platform's news (a misrouted reply): never posted here.
                log.warning("not sending a %s reply for %s via Discord", reply.kind, reply.to)
                continue
            try:
                if isinstance(reply.to, ChatTarget):
                    await self._send_to_channel(int(reply.to.platform_chat_id), reply, buttons)
                else:
                    await self._notify(reply)
            except discord.HTTPException as error:
                # One undeliverable message must not lose the others (the deadline is spent).
                game = reply.event.get("game_id")  # (not the event: a rack's names its tiles)
                _log_refusal(error, "could not send a %s reply of game %s", reply.kind, game)
                if not isinstance(reply.to, ChatTarget):
                    continue
                if _refusal(error) == MISSING_PERMISSIONS:
                    await self._news_privately(reply)
                else:
                    await self._refused_in(int(reply.to.platform_chat_id), error)

    async def _news_privately(self, reply: Reply) -> None:
        """A channel refused a game's news (no Send Messages): DM it to the players instead.

        Only a mention's own users get a mention's copy; players who take no DMs get none
        (its slash commands still answer there, and `/board` shows what happened).
        """
        only = reply.event.get(MENTIONS) or ()
        for copy in await self.service.news_for_players(reply, only):
            await self._send_private(copy)

    async def _refused_in(self, channel_id: int, error: discord.HTTPException) -> None:
        """After a refused post: hold the games of a server left, cancel those of a deleted channel.

        Out of the channel's server (403 Missing Access), its games are held; the channel
        deleted (404 Unknown Channel), they are cancelled (`Service.chat_gone`). That is how a
        removal is learnt that happened while the bot was not running (the
        gateway does not replay it; the server is not among those it sees). A channel of a
        server it is in, refused for want of a permission (View Channel), holds nothing: its
        slash commands still work, and their answers show the games. Which servers it is in is
        known only once discord.py has listed them (READY, after a new session too): a refusal
        meanwhile is weighed then.
        """
        refusal = _refusal(error)
        if refusal == UNKNOWN_CHANNEL:
            # Deleted while the bot was not running (the gateway does not replay it).
            await self._gone(channel_id)
            return
        if refusal != MISSING_ACCESS:
            return
        if not self._servers_known.is_set():  # a new session: its servers are being listed
            log.info(REFUSED_WHILE_LISTING, channel_id)
            try:
                await asyncio.wait_for(self._servers_known.wait(), SERVERS_WAIT)
            except TimeoutError:
                log.warning("channel %s: a server is still unlisted; nothing held", channel_id)
                return
        if not await self._sees(channel_id):
            await self._away([channel_id])

    async def _game_keys(self, replies: Sequence[Reply]) -> dict[int, str]:
        """Return the game key of every game the public replies speak of."""
        keys: dict[int, str] = {}
        for reply in replies:
            game_id = reply.event.get("game_id")
            if reply.private or not isinstance(game_id, int) or game_id in keys:
                continue
            row = await self.service.db.games.get_game(game_id)
            if row is not None:
                keys[game_id] = row.game_key
        return keys

    async def _send_to_channel(
        self,
        channel_id: int,
        reply: Reply,
        buttons: Sequence[GameButton] = (),
        *,
        mention: str | None = None,
    ) -> None:
        """Post a reply in a channel (several messages for a long text; buttons under the last).

        `mention`: a user id to mention (and notify) in front of the text.
        """
        channel = self.get_partial_messageable(channel_id)
        try:
            sent = await self._post(channel, message_parts(reply, mention=mention), buttons)
        except discord.Forbidden as error:
            if error.code != MISSING_PERMISSIONS or not reply.images:
                raise
            # No Attach Files here (a post, unlike an answer to a command, needs it): the
            # words, then the table drawn as text, as the console shows it.
            log.warning("channel %s refuses attachments (%s): text instead", channel_id, error)
            bare = message_parts(replace(reply, images=()), mention=mention)
            table = reply_table(reply)
            block = f"```\n{table}\n```" if table else ""
            if not block or len(block) > MAX_CONTENT:
                sent = await self._post(channel, bare, buttons)
            else:
                await self._post(channel, bare, ())
                sent = await self._post(channel, [Parts(block, [], [], NO_MENTIONS)], buttons)
        await self._keep_live(channel_id, reply, buttons, sent)

    @staticmethod
    async def _post(
        channel: discord.PartialMessageable, parts: Sequence[Parts], buttons: Sequence[GameButton]
    ) -> discord.Message | None:
        """Send a reply's messages in a channel, the buttons under the last; return the last."""
        sent = None
        for n, part in enumerate(parts):
            view = _view(buttons) if n == len(parts) - 1 else None
            sent = await channel.send(
                part.content,
                embeds=part.embeds,
                files=part.files,
                view=view or MISSING,
                allowed_mentions=part.mentions,
            )
        return sent

    # -- one message with live buttons per game --

    async def _keep_live(
        self,
        channel_id: int,
        reply: Reply,
        buttons: Sequence[GameButton],
        message: discord.abc.Snowflake | None,
    ) -> None:
        """Note the game's newest message with buttons; take the buttons off the one before.

        Buttons of a turn that is over, or Join and Start of a lobby that has started, must not
        stay under older messages (Telegram edits its one board message; Discord keeps one
        message per game whose buttons act). News that closes a lobby or a game
        (`CLOSING_EVENTS`) takes them off even when it has no buttons itself.
        """
        game_id = reply.event.get("game_id")
        if reply.private or not isinstance(game_id, int):
            return
        draft = await self._drafts.get(game_id)
        if draft is not None and (
            reply.kind in GAME_ENDS
            or (reply.kind in TURN_NEWS and not (reply.event.get("view") or {}).get("draft"))
        ):
            # Played by /done, or taken back by /draw, a timeout or the game's end: the draft's
            # melds and "/done ends your turn" no longer stand; the news below says which.
            await self._drafts.put(game_id, None)
            await self._rewrite_draft(
                draft, f"This draft of game #{game_id} ended with the move below."
            )
        if not buttons and reply.kind not in CLOSING_EVENTS:
            return
        old = await self._live.get(game_id)
        new = None
        if buttons and message is not None:
            new = LiveMessage(channel_id, message.id, reply.kind, buttons[0].turn)
        await self._live.put(game_id, new)
        if old is not None and (message is None or old.message_id != message.id):
            await self._strip(old)
        if reply.kind == "draft" and new is not None:
            await self._supersede_draft(game_id, new)

    async def _supersede_draft(self, game_id: int, new: LiveMessage) -> None:
        """Point a turn's earlier draft message to the new one (a /board came in between).

        The new step could not edit it (another message took the buttons), and left as it was
        it would contradict the draft below ("worth 27" above "every meld is valid"). A draft
        kept is always the running turn's (`_keep_live` forgets one that ended), though the
        turn number may have moved on: another player resigned out of turn.
        """
        earlier = await self._drafts.get(game_id)
        await self._drafts.put(game_id, new)
        if earlier is None or earlier.message_id == new.message_id:
            return
        await self._rewrite_draft(
            earlier, f"This draft of game #{game_id} goes on in a newer message below."
        )

    async def _rewrite_draft(self, draft: LiveMessage, text: str) -> None:
        """Replace a draft message that no longer stands by `text` (no picture, no buttons)."""
        channel = self.get_partial_messageable(draft.channel_id)
        try:
            await channel.get_partial_message(draft.message_id).edit(
                content=text, attachments=[], view=None
            )
        except discord.HTTPException as error:  # deleted meanwhile: nothing to correct
            log.info("could not correct draft message %s: %s", draft.message_id, error)

    async def _strip(self, live: LiveMessage) -> None:
        """Take the buttons off a game's older message (it may be gone: that is fine)."""
        message = self.get_partial_messageable(live.channel_id).get_partial_message(live.message_id)
        try:
            await message.edit(view=None)
        except discord.HTTPException as error:
            log.info("could not take the buttons off message %s: %s", live.message_id, error)

    async def _edit_draft(
        self, channel_id: int, reply: Reply, buttons: Sequence[GameButton]
    ) -> LiveMessage | None:
        """Show a draft step in the turn's draft message (edited in place); return it, or None.

        The steps of one Rummikub turn (``/play K1 Y1 R1``, ``/play 3+R8``, ``/undo``,
        ``/reset``) update one message rather than post a board each; the first step, and a
        step after any other message of the game with buttons, posts a new one.
        """
        game_id = reply.event.get("game_id")
        if reply.private or reply.kind != "draft" or not buttons or not isinstance(game_id, int):
            return None
        live = await self._live.get(game_id)
        if (
            live is None
            or live.kind != "draft"
            or live.turn != buttons[0].turn
            or live.channel_id != channel_id
        ):
            return None
        parts = message_parts(reply)
        if len(parts) != 1:  # a draft is short; a long one is posted as usual
            return None
        [part] = parts
        message = self.get_partial_messageable(channel_id).get_partial_message(live.message_id)
        try:
            await message.edit(
                content=part.content,
                embeds=part.embeds,
                attachments=part.files,
                view=_view(buttons),
                allowed_mentions=part.mentions,
            )
        except discord.HTTPException as error:  # deleted by a moderator, say: post a new one
            log.info("could not update draft message %s: %s", live.message_id, error)
            return None
        return live

    def _draft_note(
        self, interaction: discord.Interaction[Any], reply: Reply, live: LiveMessage
    ) -> Reply:
        """Return the asker's private answer to a draft step shown in the draft message."""
        link = (
            f"https://discord.com/channels/{interaction.guild_id}/{live.channel_id}/"
            f"{live.message_id}"
        )
        event = {"type": "draft_updated", "game_id": reply.event.get("game_id")}
        return self._private_reply(interaction, f"{reply.text}\n{DRAFT_UPDATED} {link}", event)

    # -- invitations --

    async def _with_invitations(
        self,
        interaction: discord.Interaction[Any],
        replies: Sequence[Reply],
        members: Sequence[discord.abc.User],
    ) -> list[Reply]:
        """Tell the members a ``/new`` seated that they were invited: by DM, or else a mention.

        "@bob: alice invited you to game #1 (Webfeud); My rack shows your tiles." DM or
        mention, never both (as reminders): who allowed DMs gets it by DM, at the head of the
        rack the start deals them, the mention standing in should the DM fail (`INSTEAD`); the
        others share one message.
        """
        created = next((r for r in replies if not r.private and r.kind == "game_created"), None)
        game_id = created.event.get("game_id") if created is not None else None
        if created is None or not isinstance(game_id, int):
            return list(replies)
        key = str(created.event.get("game", ""))
        title = GAMES[key].title if key in GAMES else key
        started = any(
            not r.private and r.kind == "game_started" and r.event.get("game_id") == game_id
            for r in replies
        )
        asker = interaction.user
        uids = list(dict.fromkeys(str(m.id) for m in members if m.id != asker.id))
        invited = f"invited you to game #{game_id} ({title})"
        rest = "My rack shows your tiles." if started else START_HINT
        asker_name = shown_name(asker.display_name)  # "\u202ealice" would reverse the line
        said = f"{plain(asker_name)} {invited}"  # a mention's text is not escaped again
        out = list(replies)
        by_dm = [uid for uid in uids if await self._wants_dm(uid)]
        where = shown_name(self.chat_ref(interaction).title or "")
        for uid in by_dm:
            dm = f"{asker_name} {invited}" + (f" in {where}" if where else "")
            instead = f"<@{uid}>: {said}; {rest}"
            racks = [
                n
                for n, r in enumerate(out)
                if r.kind == "rack"
                and isinstance(r.to, UserTarget)
                and r.to.platform_user_id == uid
                and r.event.get("game_id") == game_id
            ]
            if racks:  # one DM: the invitation heads the rack it deals
                rack = out[racks[0]]
                event = {**rack.event, INSTEAD: instead}
                out[racks[0]] = replace(rack, text=f"{dm}.\n{rack.text}", event=event)
            else:
                to = UserTarget(0, PLATFORM, uid, "")
                event = {"type": "invited", "game_id": game_id, INSTEAD: instead}
                out.append(Reply(to, f"{dm}; {START_HINT}", event=event))
        pinged = [uid for uid in uids if uid not in by_dm]
        if not pinged:
            return out
        # (The asker takes the first seat, and the first turn: an invitee is not also told
        # "your turn" by the same start.)
        mentions = ", ".join(f"<@{uid}>" for uid in pinged)
        await self._insert_ping(
            out, pinged, f"{mentions}: {said}; {rest}", {"type": "invited", "game_id": game_id}
        )
        return out

    async def _notify(self, reply: Reply) -> None:
        """Send a private reply by DM when allowed, else its mention in the game's channel.

        DM or mention, never both: a reminder that reached the player's DMs is not also
        posted in the channel; one that could not (DMs off, or closed) mentions them there,
        as does the stand-in of a DM'd tile (`INSTEAD`). Other private replies go by DM or
        nowhere (a rack: the player presses My rack).
        """
        assert isinstance(reply.to, UserTarget)
        if await self._send_private(reply):
            return
        uid = reply.to.platform_user_id
        game_id = reply.event.get("game_id")
        instead = reply.event.get(INSTEAD)
        if reply.kind != "reminder" and not isinstance(instead, str):
            return
        channel_id = await self._game_channel(game_id) if isinstance(game_id, int) else None
        if channel_id is None:
            return
        try:
            if isinstance(instead, str):
                here = ChatTarget(0, PLATFORM, str(channel_id))
                event = {"type": "stand_in", "of": reply.kind, "game_id": game_id, MENTIONS: [uid]}
                await self._send_to_channel(channel_id, Reply(here, instead, event=event))
            else:
                said = replace(reply, text=reply.here)  # the channel goes unnamed there
                await self._send_to_channel(channel_id, said, mention=uid)
        except discord.HTTPException as error:
            _log_refusal(error, "could not mention user %s in channel %s", uid, channel_id)
            await self._refused_in(channel_id, error)

    async def _game_channel(self, game_id: int) -> int | None:
        row = await self.service.db.games.get_game(game_id)
        if row is None:
            return None
        chat = await self.service.db.chats.get_chat(row.chat_id)
        if chat is None or chat.platform != PLATFORM:
            return None
        return int(chat.platform_chat_id)

    async def _send_private(self, reply: Reply) -> bool:
        """DM a private reply when its user allowed DMs; return True when it was sent."""
        target = reply.to
        assert isinstance(target, UserTarget)
        user = await self.service.db.users.get_user_by_platform_id(
            PLATFORM, target.platform_user_id
        )
        if user is None or not user.dm_allowed:
            return False
        uid = int(target.platform_user_id)
        try:
            recipient = self.get_user(uid) or await self.fetch_user(uid)
            for part in message_parts(reply):
                await recipient.send(
                    part.content,
                    embeds=part.embeds,
                    files=part.files,
                    allowed_mentions=part.mentions,
                )
        except discord.HTTPException as error:
            log.info("could not DM user %s: %s", uid, error)
            return False
        return True

    # -- the one error handler --

    async def report_error(self, interaction: discord.Interaction[Any], error: Exception) -> None:
        """Log a failure and answer with a short ephemeral apology (never a traceback)."""
        original = getattr(error, "original", error)
        if isinstance(error, app_commands.NoPrivateMessage):
            text = GUILD_ONLY
        elif isinstance(original, GameError):
            text = service_text(str(original))
        else:
            text = APOLOGY
            command = interaction.command.name if interaction.command else "?"
            log.error(
                "interaction %s (/%s by %s) failed",
                interaction.id,
                command,
                interaction.user.id,
                exc_info=original,
            )
        try:
            if not interaction.response.is_done():
                await interaction.response.send_message(
                    text, ephemeral=True, allowed_mentions=NO_MENTIONS
                )
            else:
                extras = interaction.extras
                if extras.get("pending") and not extras.get("ephemeral"):
                    await interaction.delete_original_response()
                    extras["pending"] = False
                await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_MENTIONS)
                extras["pending"] = False
        except discord.NotFound:
            # The interaction expired (answered too late) or its message is gone: no way back.
            log.warning("could not apologise for interaction %s: it is gone", interaction.id)
        except (discord.HTTPException, RuntimeError):  # RuntimeError: the session is closed
            log.exception("could not even apologise for interaction %s", interaction.id)
        finally:
            self._handled(interaction)

    # -- autocomplete helpers --

    async def channel_games(
        self,
        interaction: discord.Interaction[Any],
        statuses: Sequence[GameStatus] = OPEN,
        command: str = "",
    ) -> list[tuple[int, str, str]]:
        """Return (id, label, status) of this channel's games in `statuses`, in that order.

        Within a status the most recently active come first (at most 100 games in all). With
        `command`, only the games that have a use for it (`takes`: /place, /swap, /try …).
        """
        db = self.service.db
        chat = await db.chats.get_chat_by_platform_id(PLATFORM, str(interaction.channel_id))
        if chat is None:
            return []
        out: list[tuple[int, str, str]] = []
        rows = await db.games.list_games(chat_id=chat.id, statuses=statuses)
        for row in sorted(rows, key=lambda r: statuses.index(r.status)):
            gdef = GAMES.get(row.game_key)
            state = load_state(row) if row.snapshot is not None else None
            if gdef is not None and not takes(gdef, state, command):
                continue
            names = []
            seats = await db.games.seats(row.id)
            bots = bot_names(seats)
            for seat in seats:
                if seat.user_id is None:
                    names.append(bots[seat.seat_no])
                else:
                    user = await db.users.get_user(seat.user_id)
                    names.append(shown_name(user.display_name) if user else "?")
            title = gdef.title if gdef is not None else row.game_key
            label = f"#{row.id} {title}: {' vs '.join(names)} ({STATUS_WORDS[row.status]})"
            out.append((row.id, label[:MAX_CHOICE_TEXT], row.status))
        return out

    async def swaps_of(
        self, interaction: discord.Interaction[Any], game_id: int | None, typed: str
    ) -> list[str]:
        """Return the swaps to suggest to the asker: of their rack's tiles, as `typed` goes on.

        The game is `game_id`, or the channel's one active game they sit in. Nothing when the
        game has no swapping (Rummikub, NMBR 9) or the asker no seat in it; only swaps the
        game would take (Numfeud's 13 tiles a game), once it is the asker's turn.
        """
        db = self.service.db
        user = await db.users.get_user_by_platform_id(PLATFORM, str(interaction.user.id))
        chat = await db.chats.get_chat_by_platform_id(PLATFORM, str(interaction.channel_id))
        if user is None or chat is None:
            return []
        if game_id is not None:
            row = await db.games.get_game(game_id)
            rows = [row] if row is not None and row.chat_id == chat.id else []
        else:  # the one game a bare /swap would mean: of the asker's, the one with swaps
            rows = [
                row
                for row in await db.games.list_games(
                    chat_id=chat.id, user_id=user.id, statuses=("active",)
                )
                if row.game_key in GAMES and takes(GAMES[row.game_key], load_state(row), "swap")
            ]
        if len(rows) != 1 or rows[0].snapshot is None:
            return []
        row = rows[0]
        seat = next((s.seat_no for s in await db.games.seats(row.id) if s.user_id == user.id), None)
        if seat is None:
            return []
        state = load_state(row)
        tiles = tuple(state.rack(seat))
        if not tiles or not can_swap(row.game_key, tiles[0]):
            return []
        gdef = GAMES[row.game_key]

        def legal(swapped: str) -> bool:  # SmartFeud's extra blank is not, Numfeud's 14th tile
            try:
                state.apply(seat, gdef.parse_move(f"swap {swapped}"))
            except RuleError as error:  # out of turn: a swap typed ahead may still be offered
                return error.reason is Reason.NOT_YOUR_TURN
            except GameError:
                return False
            return True

        kept = {tile for tile in set(tiles) if legal(tile)}
        rack = [tile for tile in tiles if tile in kept]
        return [swap for swap in swap_suggestions(rack, typed) if legal(swap)]


def _bot(interaction: discord.Interaction[Any]) -> FeudBot:
    bot = interaction.client
    assert isinstance(bot, FeudBot)
    return bot


# --- autocomplete ------------------------------------------------------------------------------


async def game_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[int]]:
    """Suggest this channel's games that the command accepts (`GAME_STATUSES`)."""
    name = interaction.command.name if interaction.command is not None else ""
    games = await _bot(interaction).channel_games(
        interaction, GAME_STATUSES.get(name, OPEN), command=name
    )
    wanted = current.strip().lstrip("#").lower()
    return [
        app_commands.Choice(name=label, value=game_id)
        for game_id, label, _ in games
        if not wanted or wanted in label.lower()
    ][:MAX_CHOICES]


async def command_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """Suggest commands for /help: those starting with what is typed, then those containing it.

    More commands exist than Discord's 25 fixed choices, so /help completes instead; "all"
    (every command, by section) leads, so that it shows before anything is typed.
    """
    wanted = current.strip().lstrip("/").lower()
    names = ["all", *(spec.name for spec in COMMANDS), "notify"]
    ranked = [n for n in names if n.startswith(wanted)] + [
        n for n in names if wanted in n and not n.startswith(wanted)
    ]
    return [app_commands.Choice(name=name, value=name) for name in ranked][:MAX_CHOICES]


async def tiles_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """Suggest tiles of the asker's rack to swap (nothing in a game without swapping)."""
    game_id = getattr(interaction.namespace, "game", None)
    swaps = await _bot(interaction).swaps_of(
        interaction, game_id if isinstance(game_id, int) else None, current
    )
    return [app_commands.Choice(name=v, value=v) for v in swaps]


def swap_suggestions(rack: Sequence[str], typed: str) -> list[str]:
    """Return what /swap's tiles could be: the whole rack, or what is typed and one tile more.

    Whole tiles in the game's notation: letters written together (``AEQ?``), tile codes
    separated by spaces (``R12 B2 J``), where the last code typed is completed (``R1`` →
    ``R11``, ``R12``). Typing what is not on the rack starts again from the rack. At most
    Discord's 25 choices of at most 100 characters each.
    """
    if not rack:
        return []
    letters = all(len(tile) == 1 for tile in rack)
    sep = "" if letters else " "
    text = typed.upper()
    done = list(text.replace(" ", "")) if letters else text.split()
    last = "" if letters or text.endswith(" ") or not done else done.pop()
    left = Counter(rack)
    left.subtract(Counter(done))
    tiles = list(dict.fromkeys(rack))  # each kind of tile once, in rack order
    ends = [t for t in tiles if left[t] > 0 and t.startswith(last)]
    if any(n < 0 for n in left.values()) or (last and not ends):
        done, last, left = [], "", Counter(rack)  # not tiles of this rack: start again
        ends = tiles
    values = [sep.join(rack)] if not done and not last else []
    if done and not last:
        values.append(sep.join(done))
    values += [sep.join([*done, tile]) for tile in ends]
    if last in ends:  # the last code typed is a whole tile: one more after it
        left[last] -= 1
        values += [sep.join([*done, last, tile]) for tile in tiles if left[tile] > 0]
    fitting = [v for v in dict.fromkeys(values) if len(v) <= MAX_CHOICE_TEXT]
    return fitting[:MAX_CHOICES]


async def options_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """Suggest the chosen game's options as ``name=value`` (several, space separated)."""
    key = getattr(interaction.namespace, "game", None)
    gdefs = [GAMES[key]] if isinstance(key, str) and key in GAMES else list(GAMES.values())
    head, _, last = current.rpartition(" ")
    given = {token.split("=", 1)[0].lower() for token in head.split()}
    values = []
    for gdef in gdefs:
        for spec in gdef.options:
            if spec.name in given:
                continue
            for choice in spec.choices:
                token = f"{spec.name}={choice}"
                if token.startswith(last.lower()):
                    values.append(f"{head} {token}".strip())
    unique = list(dict.fromkeys(values))
    return [app_commands.Choice(name=v[:100], value=v[:100]) for v in unique][:MAX_CHOICES]


# --- the slash commands ------------------------------------------------------------------------


def _parse_options(text: str | None) -> dict[str, str]:
    options: dict[str, str] = {}
    for token in (text or "").replace(",", " ").split():
        name, sep, value = token.partition("=")
        field = re.split(r"[=:]", token, maxsplit=1)[0].lower()
        if field in ("bot", "game") or is_bot_name(token):  # bot=hard, bot:hard, bot-hard, game:2
            field = "game" if field == "game" else "bot"
            more = " (and bots: for more than one)" if field == "bot" else ""
            raise CommandError(
                f"{field} has its own field in /new: pick {field}:{more} instead of options:."
            )
        if not sep or not name or not value:
            slip = option_slip(token)  # "time:60s": did you mean time=60s?
            raise CommandError(
                f"I did not understand {quoted(token)}"
                + (slip if slip != "." else "; options look like name=value, e.g. board=random.")
            )
        if name.lower() in options:
            raise CommandError(f"{name}= is given twice.")
        options[name.lower()] = value
    return options


def _with_notify_help(replies: list[Reply]) -> list[Reply]:
    """Add Discord's own /notify to /help all."""
    out = []
    for r in replies:
        if r.kind == "help" and str(r.event.get("topic") or "").lower() == "all":
            r = replace(r, text=f"{r.text}\n\nOn Discord\n{NOTIFY_SYNTAX} — {NOTIFY_SUMMARY}.")
        out.append(r)
    return out


def typed_command(name: str, text: str, game: int | None) -> Command:
    """Return a command from its text option; a ``game=<id>`` typed in it is the game option.

    Someone who follows the text syntax (``8H QUIZ game=3``) gets what they meant, a bad one
    (``game=x``) the text parser's answer, and one that names another game than `game` a refusal.
    """
    if "game=" not in text.lower():
        return Command(name, game, text=text)
    command = parse_command(f"/{name} {text}")
    if game is not None and command.game_id not in (None, game):
        raise CommandError(
            f"Give the game once: game:{game} or game={command.game_id} in the text, not both."
        )
    return replace(command, game_id=game if command.game_id is None else command.game_id)


@functools.cache
def slash_text() -> Callable[[str], str]:
    """Return the function that writes the service's command syntax as Discord takes it."""
    return translator(build_commands())


def service_text(text: str) -> str:
    """Return a service message as Discord shows it: commands in slash form, shown literally."""
    return plain(slash_text()(text))


GAME_ID_HELP = "Which game (needed only when this channel has several)"


def build_commands() -> list[app_commands.Command[Any, Any, Any]]:
    """Return fresh slash commands mirroring docs/commands.md; game choices come from GAMES."""
    game_choices = [
        app_commands.Choice(name=gdef.title, value=key) for key, gdef in sorted(GAMES.items())
    ][:MAX_CHOICES]
    level_choices = [app_commands.Choice(name=level, value=level) for level in BOT_LEVEL_NAMES]
    summary = {spec.name: spec.summary.replace("`", "") for spec in COMMANDS}

    def desc(name: str) -> str:
        return short_description(summary[name])

    @app_commands.command(name="new", description=desc("new"))
    @app_commands.guild_only()
    @app_commands.describe(
        game="The game to play",
        player="A friend to invite (takes the next seat)",
        player2="Another friend to invite",
        player3="A third friend to invite",
        bot="Add bot players of this strength",
        bots="How many bot players to add (with bot)",
        options="Game options, e.g. board=random (see /rules)",
        seed="Deal a reproducible game (only where the bot allows it)",
    )
    @app_commands.choices(game=game_choices, bot=level_choices)
    @app_commands.autocomplete(options=options_autocomplete)
    async def new(
        interaction: discord.Interaction[Any],
        game: str,
        player: discord.Member | None = None,
        player2: discord.Member | None = None,
        player3: discord.Member | None = None,
        bot: str | None = None,
        bots: app_commands.Range[int, 1, 3] | None = None,
        options: str | None = None,
        seed: app_commands.Range[int, 0, 2**31 - 1] | None = None,
    ) -> None:
        invited = [m for m in (player, player2, player3) if m is not None]

        def build() -> Command:
            if any(m.bot for m in invited):
                raise CommandError(
                    "Invite people with player:; add bot players with bot:, e.g. "
                    "/new game:Webfeud bot:easy."
                )
            if bots is not None and bot is None:
                raise CommandError(BOTS_WITHOUT_LEVEL)
            opts = _parse_options(options)
            if seed is not None:
                opts["seed"] = str(seed)
            return Command(
                "new",
                game_key=game,
                player_ids=tuple(str(m.id) for m in invited),  # by id: names are not unique
                bots=(bot,) * (1 if bots is None else bots) if bot else (),  # bots:0 adds none
                options=opts,
            )

        await _bot(interaction).run_command(interaction, build, invite=invited)

    def simple(name: str, *, ephemeral: bool = False) -> app_commands.Command[Any, Any, Any]:
        """A command whose only option is game=<id>."""

        @app_commands.describe(game=GAME_ID_HELP)
        @app_commands.autocomplete(game=game_autocomplete)
        async def callback(interaction: discord.Interaction[Any], game: int | None = None) -> None:
            await _bot(interaction).run_command(
                interaction, lambda: Command(name, game), ephemeral=ephemeral
            )

        return app_commands.Command(
            name=name, description=desc(name), callback=app_commands.guild_only()(callback)
        )

    @app_commands.command(name="play", description=desc("play"))
    @app_commands.guild_only()
    @app_commands.describe(
        move="Your move: 8H QUIZ (word games), R5 R6 R7 (Rummikub), 8H R5 R6 R7 (Numfeud); /rules",
        game=GAME_ID_HELP,
    )
    @app_commands.autocomplete(game=game_autocomplete)
    async def play(
        interaction: discord.Interaction[Any], move: str, game: int | None = None
    ) -> None:
        await _bot(interaction).run_command(interaction, lambda: typed_command("play", move, game))

    @app_commands.command(name="swap", description=desc("swap"))
    @app_commands.guild_only()
    @app_commands.describe(
        tiles="The tiles to return: AEQ? (word games, ? a blank), R5 B7 J (Numfeud)",
        game=GAME_ID_HELP,
    )
    @app_commands.autocomplete(tiles=tiles_autocomplete)
    @app_commands.autocomplete(game=game_autocomplete)
    async def swap(
        interaction: discord.Interaction[Any], tiles: str, game: int | None = None
    ) -> None:
        def build() -> Command:
            command = typed_command("swap", tiles, game)
            return replace(command, text=command.text.replace(" ", ""))

        await _bot(interaction).run_command(interaction, build)

    @app_commands.command(name="games", description=desc("games"))
    @app_commands.guild_only()
    async def games(interaction: discord.Interaction[Any]) -> None:
        await _bot(interaction).run_command(interaction, lambda: Command("games"))

    @app_commands.command(name="leaderboard", description=desc("leaderboard"))
    @app_commands.guild_only()
    @app_commands.describe(
        game="Only this game (all games by default)",
        everywhere="Count the games of every chat on Discord, not only this channel's",
        year="Only games finished in this UTC calendar year, e.g. 2026",
    )
    @app_commands.choices(game=game_choices)
    async def leaderboard(
        interaction: discord.Interaction[Any],
        game: str | None = None,
        everywhere: bool = False,
        year: app_commands.Range[int, FIRST_YEAR, LAST_YEAR] | None = None,
    ) -> None:
        scope = {"scope": "everywhere"} if everywhere else {}
        if year is not None:
            scope["year"] = str(year)
        await _bot(interaction).run_command(
            interaction, lambda: Command("leaderboard", text=game or "", options=scope)
        )

    @app_commands.command(name="stats", description=desc("stats"))
    @app_commands.guild_only()
    @app_commands.describe(player="Whose record (yours by default)")
    async def stats(
        interaction: discord.Interaction[Any], player: discord.Member | None = None
    ) -> None:
        chosen = (player,) if player is not None else ()
        ids = tuple(str(m.id) for m in chosen)  # by id: two members may show the same name

        def build() -> Command:
            if player is not None and player.bot:  # the app itself, or another app
                raise CommandError(
                    f"{shown_name(player.display_name)} is an app, not a player: "
                    "/stats player:@someone shows a person's record, /stats your own."
                )
            return Command("stats", player_ids=ids)

        await _bot(interaction).run_command(interaction, build, invite=chosen)

    @app_commands.command(name="rules", description=desc("rules"))
    @app_commands.guild_only()
    @app_commands.describe(game="The game to explain")
    @app_commands.choices(game=game_choices)
    async def rules(interaction: discord.Interaction[Any], game: str) -> None:
        await _bot(interaction).run_command(interaction, lambda: Command("rules", text=game))

    @app_commands.command(name="help", description=desc("help"))
    @app_commands.guild_only()
    @app_commands.describe(
        command="A command to explain, or all for every command (else a quick start)"
    )
    @app_commands.autocomplete(command=command_autocomplete)
    async def help_(interaction: discord.Interaction[Any], command: str | None = None) -> None:
        bot = _bot(interaction)
        if (command or "").strip().lstrip("/").lower() == "notify":  # Discord's own command
            await bot._defer(interaction, ephemeral=False)
            here = ChatTarget(0, PLATFORM, str(interaction.channel_id))
            event = {"type": "help", "topic": "notify"}
            await bot.deliver(interaction, [Reply(here, NOTIFY_HELP, event=event)])
            return
        await bot.run_command(
            interaction, lambda: Command("help", text=command or ""), adjust=_with_notify_help
        )

    @app_commands.command(name="notify", description=NOTIFY_SUMMARY)
    @app_commands.guild_only()
    @app_commands.describe(dm="True: send me DMs (reminders, my rack); False: mentions only")
    async def notify(interaction: discord.Interaction[Any], dm: bool) -> None:
        bot = _bot(interaction)
        await bot._defer(interaction, ephemeral=True)
        db = bot.service.db
        user = await bot.service.remember(
            UserRef(PLATFORM, str(interaction.user.id), interaction.user.display_name)
        )
        await db.users.set_dm_allowed(user.id, dm)
        text = (
            "I will DM you reminders and your tiles. Keep DMs from this server open."
            if dm
            else "No DMs: I will mention you in the game's channel instead."
        )
        event = {"type": "notify", "dm": dm}
        await bot.deliver(interaction, [bot._private_reply(interaction, text, event)])

    explicit: list[app_commands.Command[Any, Any, Any]] = [
        new,
        play,
        swap,
        games,
        leaderboard,
        stats,
        rules,
        help_,
        notify,
    ]
    out: list[app_commands.Command[Any, Any, Any]] = []
    for spec in COMMANDS:
        if spec.name in {c.name for c in explicit}:
            continue
        if spec.name in ("rack", "moves", "bag"):  # private answers: deferred ephemeral
            out.append(simple(spec.name, ephemeral=True))
        elif spec.shape == "none" and spec.takes_game_id:
            out.append(simple(spec.name))
        else:
            command = generic(spec)
            if command is not None:
                out.append(command)
    out = [new, *out, *explicit[1:]]
    names = [c.name for c in out]
    assert len(names) == len(set(names)), names
    # As every message: the summaries' commands in slash form ("/help command:all").
    to_slash = translator(out)
    for command in out:
        if command.name in summary:
            command.description = short_description(to_slash(summary[command.name]))
    return out


def _option_help(spec: CommandSpec) -> str:
    """Describe a command's text option: its parts and the summary's example, e.g.

    ``Cell and rotation, e.g. C4 90 — see /help place``.
    """
    words = re.findall(r"[a-z]+", spec.args.lower()) or ["argument"]
    what = and_list(words).capitalize()
    shown = ""
    if spec.example:
        shown = ", e.g. " + spec.example.removeprefix(f"/{spec.name}").strip()
    return short_description(f"{what}{shown} — see /help {spec.name}")


def generic(spec: CommandSpec) -> app_commands.Command[Any, Any, Any] | None:
    """Mirror a command of the table that has no hand-written slash command, from its shape.

    Covers the shapes of plain commands: no argument, one text or word (required or not), with
    or without ``game=<id>``. Returns None (and logs) for anything else.
    """
    name = spec.name
    description = short_description(spec.summary.replace("`", ""))
    arg = option_name(spec.args)
    arg_help = _option_help(spec)
    text_required = spec.shape in ("text", "word")
    if spec.shape not in ("none", "text", "word", "word?"):
        log.warning("no Discord command for /%s (shape %s)", name, spec.shape)
        return None

    async def run(interaction: discord.Interaction[Any], text: str, game: int | None) -> None:
        def build() -> Command:
            if spec.shape == "text":
                return typed_command(name, text, game)
            return Command(name, game, text=text.strip().lower())

        await _bot(interaction).run_command(interaction, build)

    callback: Callable[..., Any]
    if spec.shape == "none":

        async def callback(interaction: discord.Interaction[Any]) -> None:
            await run(interaction, "", None)

    elif text_required and spec.takes_game_id:

        async def callback(
            interaction: discord.Interaction[Any], text: str, game: int | None = None
        ) -> None:
            await run(interaction, text, game)

    elif text_required:

        async def callback(interaction: discord.Interaction[Any], text: str) -> None:
            await run(interaction, text, None)

    elif spec.takes_game_id:

        async def callback(
            interaction: discord.Interaction[Any], text: str = "", game: int | None = None
        ) -> None:
            await run(interaction, text, game)

    else:

        async def callback(interaction: discord.Interaction[Any], text: str = "") -> None:
            await run(interaction, text, None)

    params = inspect.signature(callback).parameters
    if "text" in params:
        callback = app_commands.rename(text=arg)(app_commands.describe(text=arg_help)(callback))
    if "game" in params:
        callback = app_commands.describe(game=GAME_ID_HELP)(
            app_commands.autocomplete(game=game_autocomplete)(callback)
        )
    return app_commands.Command(
        name=name, description=description, callback=app_commands.guild_only()(callback)
    )


# --- running -----------------------------------------------------------------------------------


async def run_discord(
    settings: Settings,
    *,
    db_path: str | None = None,
    service: Service | None = None,
    stop: asyncio.Event | None = None,
    ready: asyncio.Event | None = None,
) -> None:
    """Run the Discord bot until `stop` is set (default: until Discord or an error ends it).

    Args:
        settings: ``DISCORD_TOKEN``, ``DISCORD_DEV_GUILD_ID``, the database and reminders.
        db_path: Another SQLite file than the settings' one.
        service: Share this service (and its database) with another platform's front end;
            the bot's dispatcher fires only Discord's deadlines (the other runs its own).
        stop: Set it to shut down cleanly.
        ready: Set once the bot is connected (tests wait for it).
    """
    from storage import Database

    if not settings.discord_token:
        raise SystemExit("DISCORD_TOKEN is not set (see .env.example).")
    token = settings.discord_token

    async def serve(bot: FeudBot) -> None:
        async with bot:
            runner = asyncio.create_task(bot.start(token), name="feudbot-discord")
            waits: set[asyncio.Task[Any]] = {runner}
            if stop is not None:
                waits.add(asyncio.create_task(stop.wait()))
            if ready is not None:

                async def mark_ready() -> None:
                    await bot.wait_until_ready()
                    ready.set()
                    await asyncio.Event().wait()  # never ends the wait by itself

                waits.add(asyncio.create_task(mark_ready()))
            try:
                await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for task in waits - {runner}:
                    task.cancel()
                if not runner.done():
                    await bot.close()
            await runner  # re-raises what ended the bot (a refused token, a closed gateway)

    if service is not None:
        await serve(FeudBot(service, dev_guild_id=settings.discord_dev_guild_id))
        return
    db = await Database.open(db_path or settings.db_path)
    try:
        own = Service(db, allow_seed=settings.allow_seed, reminders=settings.reminders)
        await serve(FeudBot(own, dev_guild_id=settings.discord_dev_guild_id))
    finally:
        await db.close()


def main_discord(db_path: str | None = None, *, configure_logging: bool = True) -> int:
    """Run the Discord bot from the command line (``feudbot discord``); return the exit status.

    SIGINT and SIGTERM stop it cleanly (status 0); a refused token, a gateway closed by
    Discord or no way to reach it ends it with status 1; no ``DISCORD_TOKEN`` gives status 2.
    """
    from bot.config import load_settings

    settings = load_settings()
    if not settings.discord_token:
        log.error("DISCORD_TOKEN is not set (see .env.example).")
        return 2
    if configure_logging:
        discord.utils.setup_logging(level=logging.INFO)

    return run_foreground(lambda stop: run_discord(settings, db_path=db_path, stop=stop))


def run_foreground(serve: Callable[[asyncio.Event], Awaitable[None]]) -> int:
    """Run `serve(stop)` until SIGINT or SIGTERM sets `stop`; return the exit status.

    Status 0 for a clean stop; 1, after one logged line, when Discord refused the token, closed
    the gateway or could not be reached.
    """
    try:
        asyncio.run(serve_until_stopped(serve))
    except KeyboardInterrupt:
        return 0
    except DISCORD_DOWN as error:
        log.error("%s; stopping.", discord_failure(error))
        return 1
    return 0


# What ends the Discord bot from outside: a refused token, a gateway Discord closed for good, no
# way to reach Discord (no network, no DNS, nothing listening).
DISCORD_DOWN = (discord.LoginFailure, discord.ConnectionClosed, aiohttp.ClientConnectionError)


def discord_failure(error: BaseException) -> str:
    """Return the one line that says why Discord could not be served (one of `DISCORD_DOWN`)."""
    if isinstance(error, discord.LoginFailure):
        return f"Discord refused the token: {error}"
    if isinstance(error, discord.ConnectionClosed):
        return f"Discord closed the connection (code {error.code})"
    return f"cannot reach Discord: {error}"


def may_come_back(error: BaseException) -> bool:
    """Return whether Discord may be served later as it is: only a network failure mends itself.

    A refused token or a gateway closed for good (a bad intent, say) needs the settings mended.
    """
    return isinstance(error, aiohttp.ClientConnectionError)

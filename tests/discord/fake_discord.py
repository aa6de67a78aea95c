"""A loopback fake of Discord's REST API (v10) and gateway, for the real discord.py client.

It serves, on 127.0.0.1, just what feudbot's Discord adapter uses — login (``users/@me``,
``oauth2/applications/@me``), the gateway handshake (HELLO, IDENTIFY → READY with the guild
inline, heartbeats ACKed), application-command sync (bulk overwrite, global and per guild),
interaction callbacks (defer, messages, autocomplete), webhook follow-ups (JSON or multipart
with files), edits and deletes of ``@original``, channel messages, DM channels — and records
everything so tests can assert on what a person would have seen.

Discord semantics the fake models (they are where adapters go wrong):

- An interaction must be acknowledged within ``ack_deadline`` seconds (3 s on Discord);
  a late callback gets 404 "Unknown interaction" (code 10062) and is recorded in ``late``.
- After a *thinking* defer (callback type 5) the first follow-up fills the loading message and
  inherits the defer's ephemerality: a follow-up's own ``flags: 64`` is ignored then. After a
  component's plain defer (type 6) follow-ups are new messages with their own flags.
- Ephemeral messages are visible only to the interaction's user: ``Message.public`` is False.
- Responses carry ``Content-Type: application/json`` exactly (discord.py reads anything else as
  text) and callback responses carry ``interaction.response_message_id``.
- ``rate_limit_once(method, path_regex)`` answers the next matching request with a 429 (with the
  ``Via`` header discord.py expects from Discord's edge, and ``retry_after``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import WSMsgType, web

EPHEMERAL = 64
DISCORD_EPOCH_MS = 1_420_070_400_000  # 2015-01-01, where snowflake time starts
ALL_PERMISSIONS = str((1 << 50) - 1)
# A member's permissions without Manage Server (1 << 5) and without Administrator (1 << 3).
MEMBER_PERMISSIONS = str(((1 << 50) - 1) & ~(1 << 5) & ~(1 << 3))
# The bot's own, where it may not post: without Send Messages (1 << 11) and Send Messages in
# Threads (1 << 38).
NO_SEND_PERMISSIONS = str(((1 << 50) - 1) & ~(1 << 11) & ~(1 << 38))
ATTACHMENT_LIMIT = 10 * 1024 * 1024
_WEBHOOK_MESSAGE = r"/webhooks/(\d+)/([^/]+)/messages/(@original|\d+)"
_MARKDOWN_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")  # a backslash before ASCII punctuation
MAX_EMBEDS_TEXT = 6000  # all the embeds of a message together


def _now_iso() -> str:
    return datetime.now(UTC).isoformat()


def _describe(files: list[Attachment], payload: Any) -> None:
    """Give the uploaded `files` the descriptions (alt text) the payload lists by their index."""
    if isinstance(payload, dict) and isinstance(payload.get("data"), dict):
        payload = payload["data"]  # an interaction's response carries the message in "data"
    listed = payload.get("attachments", []) if isinstance(payload, dict) else []
    for entry in listed:
        index = entry.get("id")
        if "filename" in entry and isinstance(index, int) and 0 <= index < len(files):
            files[index].description = entry.get("description")


@dataclass
class Attachment:
    """A file uploaded with a message."""

    filename: str
    data: bytes
    description: str | None = None  # the alt text the sender gave it


@dataclass
class Message:
    """A message as Discord stored it, with who may see it."""

    id: int
    channel_id: int
    content: str
    embeds: list[dict[str, Any]]
    attachments: list[Attachment]
    components: list[dict[str, Any]]
    flags: int
    kind: str  # "channel", "dm", "interaction" (the response to an interaction), "followup"
    interaction_id: int | None = None
    deleted: bool = False
    edits: int = 0
    allowed_mentions: dict[str, Any] | None = None  # as the bot last sent them

    @property
    def ephemeral(self) -> bool:
        """Return True when only the interaction's user can see the message."""
        return bool(self.flags & EPHEMERAL)

    @property
    def public(self) -> bool:
        """Return True when everybody in a guild channel can see the message."""
        return self.kind != "dm" and not self.ephemeral and not self.deleted

    @property
    def text(self) -> str:
        """Return everything readable in the message: content, embed texts, file names.

        Markdown escapes read as Discord shows them: a backslash before ``*`` is not shown.
        """
        parts = [self.content]
        for embed in self.embeds:
            parts += [str(embed.get("title", "")), str(embed.get("description", ""))]
            parts += [str(f.get("value", "")) for f in embed.get("fields", [])]
        parts += [a.filename for a in self.attachments]
        return _MARKDOWN_ESCAPE.sub(r"\1", "\n".join(p for p in parts if p))

    def pings(self) -> dict[str, Any]:
        """Return whom the message notifies: ``everyone``, ``roles`` and the ``users`` ids.

        Discord notifies a mention written in the content only when ``allowed_mentions``
        allows it; without ``allowed_mentions`` every mention in the content notifies.
        """
        allowed = self.allowed_mentions
        written = set(re.findall(r"<@!?(\d+)>", self.content))
        everyone = "@everyone" in self.content or "@here" in self.content
        if allowed is None:
            return {"everyone": everyone, "roles": "<@&" in self.content, "users": written}
        parse = allowed.get("parse", [])
        listed = {str(uid) for uid in allowed.get("users", [])}
        users = written if "users" in parse else written & listed
        return {
            "everyone": everyone and "everyone" in parse,
            "roles": "<@&" in self.content and "roles" in parse,
            "users": users,
        }

    def custom_ids(self) -> list[str]:
        """Return the custom ids of the message's buttons."""
        out = []
        for row in self.components:
            for item in row.get("components", []):
                if "custom_id" in item:
                    out.append(item["custom_id"])
        return out

    def button(self, prefix: str) -> str:
        """Return the custom id of the button whose custom id starts with `prefix`."""
        for cid in self.custom_ids():
            if cid.startswith(prefix):
                return cid
        raise LookupError(f"no button {prefix!r} on message {self.id}: {self.custom_ids()}")


@dataclass
class Interaction:
    """An interaction the fake dispatched and what the bot answered."""

    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    dispatched_at: float
    payload: dict[str, Any]
    callback_type: int | None = None
    callback_data: dict[str, Any] | None = None
    callback_at: float | None = None
    original_id: int | None = None
    original_pending: bool = False  # a thinking defer not yet filled by an edit or follow-up
    defer_flags: int = 0
    answered: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def choices(self) -> list[dict[str, Any]]:
        """Return the autocomplete choices the bot answered with."""
        assert self.callback_type == 8, self.callback_type
        assert self.callback_data is not None
        return list(self.callback_data.get("choices", []))


@dataclass
class Request:
    """One REST call the bot made."""

    method: str
    path: str
    body: Any


class FakeDiscord:
    """The fake server; `await start()`, point discord.py at `api_base`/`gateway_url`."""

    def __init__(self, *, ack_deadline: float = 3.0) -> None:
        self.ack_deadline = ack_deadline
        self._last_id = 0
        self.app_id = self.new_id()
        self.bot_user = self._user_payload(self.app_id, "feudbot", bot=True)
        self.guild_id = self.new_id()
        self.channel_id = self.new_id()
        self.channels: dict[int, str] = {self.channel_id: "games"}  # the guild's text channels
        # The threads among them (of #games): thread id -> archived. Discord lists only the
        # active ones to the bot (in GUILD_CREATE); an archived one is seen only when used.
        self.threads: dict[int, bool] = {}
        self.owner_id = self.new_id()
        self.users: dict[int, dict[str, Any]] = {self.app_id: self.bot_user}
        self.permissions: dict[int, str] = {}
        self.messages: dict[int, Message] = {}
        self.interactions: dict[int, Interaction] = {}
        self._by_token: dict[str, Interaction] = {}
        self.requests: list[Request] = []
        self.late: list[int] = []
        self.errors: list[str] = []
        self.commands: dict[int | None, list[dict[str, Any]]] = {}  # guild id (None: global)
        self.dm_channels: dict[int, int] = {}  # channel id -> user id
        self.closed_dms: set[int] = set()  # users who refuse DMs (403 50007)
        self.bot_removed = False  # the bot is out of the server: its channels answer 403 50001
        # The bot may not attach files in the channels (no Attach Files permission): 403 50013.
        self.no_attachments = False
        # Channels (or threads) where the bot may not post at all (no Send Messages, no Send
        # Messages in Threads): 403 50013, and the interactions there say so in app_permissions.
        self.no_send: set[int] = set()
        # Channels of the server where the bot may not look (no View Channel): its posts there
        # are refused with 403 Missing Access (50001), as those of a server that removed it.
        self.no_access: set[int] = set()
        # Set to an unset event to hold back the answer to the command sync, or READY after an
        # IDENTIFY, until it is set (Discord can be slow to answer either).
        self.hold_sync: asyncio.Event | None = None
        self.hold_ready: asyncio.Event | None = None
        # Set to an unset event to send READY as Discord does, the server in it only as an
        # unavailable stub, its GUILD_CREATE following once the event is set (the fake
        # otherwise puts the whole server in READY, which spares discord.py a wait).
        self.hold_guilds: asyncio.Event | None = None
        self._rate_limits: list[tuple[str, re.Pattern[str]]] = []
        self.rate_limited: list[str] = []
        self.identifies = 0
        self._ws: web.WebSocketResponse | None = None
        self._streaming: asyncio.Task[None] | None = None  # a GUILD_CREATE held (`hold_guilds`)
        self._seq = 0
        self._ready = asyncio.Event()
        self._posted = asyncio.Event()  # set at each new message (`wait_message`)
        self._runner: web.AppRunner | None = None
        self.port = 0

    # -- ids and payloads --

    def new_id(self) -> int:
        """Return a fresh snowflake: the time it is made in its top bits, as Discord's are.

        (discord.py reads a message's `created_at` from its id.) Each is above the last.
        """
        made = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last_id = max(made, self._last_id + 1)
        return self._last_id

    @staticmethod
    def _user_payload(uid: int, name: str, *, bot: bool = False) -> dict[str, Any]:
        return {
            "id": str(uid),
            "username": name,
            "global_name": name,
            "discriminator": "0",
            "avatar": None,
            "bot": bot,
            "public_flags": 0,
            "flags": 0,
        }

    def add_user(self, name: str, *, manage_guild: bool = False) -> int:
        """Add a guild member; return their id."""
        uid = self.new_id()
        self.users[uid] = self._user_payload(uid, name)
        self.permissions[uid] = ALL_PERMISSIONS if manage_guild else MEMBER_PERMISSIONS
        return uid

    def _member_payload(self, uid: int) -> dict[str, Any]:
        return {
            "user": self.users[uid],
            "roles": [],
            "joined_at": "2026-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "nick": None,
            "avatar": None,
            "flags": 0,
            "pending": False,
            "permissions": self.permissions.get(uid, MEMBER_PERMISSIONS),
        }

    def add_channel(self, name: str) -> int:
        """Add another text channel to the guild; return its id."""
        cid = self.new_id()
        self.channels[cid] = name
        return cid

    def add_thread(self, name: str, *, archived: bool = False) -> int:
        """Add a public thread (type 11) of #games, as Discord describes one; return its id."""
        thread_id = self.add_channel(name)
        self.threads[thread_id] = archived
        return thread_id

    async def delete_channel(self, channel_id: int, *, tell: bool = True) -> None:
        """Delete a channel: 404 Unknown Channel from then on; CHANNEL_DELETE unless not `tell`.

        (Not told: deleted while the bot was not connected; the gateway does not replay it.)
        """
        payload = self._channel_payload(channel_id)
        del self.channels[channel_id]
        if tell:
            await self.dispatch("CHANNEL_DELETE", payload)

    def _channel_payload(self, channel_id: int | None = None) -> dict[str, Any]:
        cid = self.channel_id if channel_id is None else channel_id
        if cid in self.threads:
            return {**self._text_channel_payload(cid), **self._thread_fields(cid)}
        return self._text_channel_payload(cid)

    def _thread_fields(self, thread_id: int) -> dict[str, Any]:
        return {
            "type": 11,
            "parent_id": str(self.channel_id),
            "owner_id": str(self.app_id),
            "thread_metadata": {
                "archived": self.threads[thread_id],
                "auto_archive_duration": 1440,
                "archive_timestamp": "2026-01-01T00:00:00+00:00",
                "locked": False,
            },
            "member_count": 2,
            "message_count": 0,
        }

    def _text_channel_payload(self, cid: int) -> dict[str, Any]:
        return {
            "id": str(cid),
            "type": 0,
            "guild_id": str(self.guild_id),
            "name": self.channels[cid],
            "position": 0,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }

    def _guild_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.guild_id),
            "name": "Feud Club",
            "icon": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [
                {
                    "id": str(self.guild_id),
                    "name": "@everyone",
                    "permissions": MEMBER_PERMISSIONS,
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "preferred_locale": "en-US",
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "unavailable": False,
            "member_count": 2,
            "large": False,
            "joined_at": "2026-01-01T00:00:00+00:00",
            "channels": [
                self._channel_payload(cid) for cid in self.channels if cid not in self.threads
            ],
            "threads": [
                self._channel_payload(cid) for cid, archived in self.threads.items() if not archived
            ],
            "members": [self._member_payload_bot()],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
        }

    def _member_payload_bot(self) -> dict[str, Any]:
        member = self._member_payload(self.app_id)
        member.pop("permissions")
        return member

    def message_payload(self, msg: Message) -> dict[str, Any]:
        """Return the message as Discord's REST API and interactions show it."""
        data: dict[str, Any] = {
            "id": str(msg.id),
            "channel_id": str(msg.channel_id),
            "author": self.bot_user,
            "content": msg.content,
            "timestamp": _now_iso(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [
                {
                    "id": str(msg.id + n + 1),
                    "filename": a.filename,
                    "size": len(a.data),
                    "url": f"https://cdn.example/{msg.id}/{a.filename}",
                    "proxy_url": f"https://media.example/{msg.id}/{a.filename}",
                    "content_type": "image/png",
                }
                for n, a in enumerate(msg.attachments)
            ],
            "embeds": msg.embeds,
            "pinned": False,
            "type": 0,
            "flags": msg.flags,
            "components": msg.components,
        }
        if msg.kind != "dm":
            data["guild_id"] = str(self.guild_id)
        if msg.kind in ("interaction", "followup"):
            data["webhook_id"] = str(self.app_id)
            data["application_id"] = str(self.app_id)
        return data

    # -- server lifecycle --

    @property
    def api_base(self) -> str:
        """Return the value for `discord.http.Route.BASE`."""
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        """Return the value for `DiscordWebSocket.DEFAULT_GATEWAY`."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def start(self, port: int = 0) -> None:
        """Listen on 127.0.0.1 on `port` (default: a free one)."""
        app = web.Application(client_max_size=ATTACHMENT_LIMIT * 2)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        """Close the gateway and the server."""
        if self._ws is not None and not self._ws.closed:
            await self._ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    # -- gateway --

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        self._ws = ws
        self._ready.clear()
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}, "s": None}))
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                continue
            data = json.loads(msg.data)
            op = data.get("op")
            if op == 1:
                await ws.send_str(json.dumps({"op": 11, "d": None, "s": None}))
            elif op == 2:
                self.identifies += 1
                self.intents = data["d"].get("intents")
                if self.hold_ready is not None:
                    await self.hold_ready.wait()
                await self.dispatch("READY", self._ready_payload())
                if self.hold_guilds is not None and not self.bot_removed:
                    self._streaming = asyncio.create_task(self._stream_guild(self.hold_guilds))
                self._ready.set()
            elif op == 6:
                # No resumes here: ask for a fresh session.
                await ws.send_str(json.dumps({"op": 9, "d": False, "s": None}))
        if self._ws is ws:
            self._ws = None
        return ws

    async def _stream_guild(self, held: asyncio.Event) -> None:
        await held.wait()
        await self.dispatch("GUILD_CREATE", self._guild_payload())

    async def new_session(self) -> None:
        """Invalidate the client's session (op 9): it connects again with a fresh IDENTIFY."""
        assert self._ws is not None, "no client connected to the gateway"
        await self._ws.send_str(json.dumps({"op": 9, "d": False, "s": None}))

    def _ready_payload(self) -> dict[str, Any]:
        guilds: list[dict[str, Any]] = []
        if not self.bot_removed:
            stub = {"id": str(self.guild_id), "unavailable": True}
            guilds = [stub if self.hold_guilds is not None else self._guild_payload()]
        return {
            "v": 10,
            "user": self.bot_user,
            "guilds": guilds,
            "session_id": f"session-{self.identifies}",
            "resume_gateway_url": self.gateway_url,
            "shard": [0, 1],
            "application": {"id": str(self.app_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }

    async def wait_ready(self) -> None:
        """Wait until a client has identified (bounded by the caller's timeout)."""
        await self._ready.wait()

    async def remove_bot(self) -> None:
        """Remove the bot from the server, as a kick does: GUILD_DELETE without ``unavailable``."""
        self.bot_removed = True
        await self.dispatch("GUILD_DELETE", {"id": str(self.guild_id)})

    async def add_bot(self) -> None:
        """Add the bot to the server (again): GUILD_CREATE, as for a server it just joined.

        (Without ``unavailable``: with it, discord.py reads the end of an outage instead.)
        """
        self.bot_removed = False
        payload = self._guild_payload()
        del payload["unavailable"]
        await self.dispatch("GUILD_CREATE", payload)

    async def close_gateway(self, code: int = 4004) -> None:
        """Close the gateway as Discord does (4004: authentication failed, e.g. a revoked token)."""
        if self._ws is not None:
            await self._ws.close(code=code, message=b"closed by the fake")

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send one DISPATCH to the connected client."""
        assert self._ws is not None, "no client connected to the gateway"
        self._seq += 1
        await self._ws.send_str(json.dumps({"op": 0, "t": event, "s": self._seq, "d": data}))

    # -- interactions --

    def _base_interaction(
        self, kind: int, user_id: int, data: dict[str, Any], channel_id: int | None = None
    ) -> Interaction:
        cid = self.channel_id if channel_id is None else channel_id
        iid = self.new_id()
        token = f"tok-{iid}"
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.app_id),
            "type": kind,
            "token": token,
            "version": 1,
            "guild_id": str(self.guild_id),
            "channel_id": str(cid),
            "channel": self._channel_payload(cid),
            "member": self._member_payload(user_id),
            "data": data,
            "app_permissions": NO_SEND_PERMISSIONS if cid in self.no_send else ALL_PERMISSIONS,
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(self.guild_id)},
            "context": 0,
            "attachment_size_limit": ATTACHMENT_LIMIT,
        }
        inter = Interaction(iid, token, kind, user_id, cid, 0.0, payload)
        self.interactions[iid] = inter
        self._by_token[token] = inter
        return inter

    def _command(self, name: str) -> dict[str, Any]:
        for guild, commands in self.commands.items():
            for command in commands:
                if command["name"] == name:
                    return {**command, "_guild": guild}
        raise LookupError(f"command /{name} was never synced: {self.command_names()}")

    def command_names(self) -> list[str]:
        """Return the names of every synced command."""
        return sorted(c["name"] for cs in self.commands.values() for c in cs)

    def _options(
        self, command: dict[str, Any], options: dict[str, Any], focused: str | None
    ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        specs = {o["name"]: o for o in command.get("options", [])}
        out: list[dict[str, Any]] = []
        resolved: dict[str, Any] = {}
        for name, value in options.items():
            if name not in specs:
                raise LookupError(f"/{command['name']} has no option {name!r}: {list(specs)}")
            kind = specs[name]["type"]
            opt: dict[str, Any] = {"name": name, "type": kind, "value": value}
            if kind == 6:  # USER: the id, plus the resolved user and member
                uid = int(value)
                opt["value"] = str(uid)
                resolved.setdefault("users", {})[str(uid)] = self.users[uid]
                member = self._member_payload(uid)
                member.pop("user")
                resolved.setdefault("members", {})[str(uid)] = member
            if name == focused:
                opt["focused"] = True
                opt["value"] = str(value)
            out.append(opt)
        return out, resolved

    def _command_data(
        self, name: str, options: dict[str, Any], focused: str | None = None
    ) -> dict[str, Any]:
        command = self._command(name)
        opts, resolved = self._options(command, options, focused)
        data: dict[str, Any] = {
            "id": command["id"],
            "name": name,
            "type": 1,
            "options": opts,
        }
        if resolved:
            data["resolved"] = resolved
        if command["_guild"] is not None:
            data["guild_id"] = str(command["_guild"])
        return data

    async def send(self, inter: Interaction) -> Interaction:
        """Dispatch a built interaction over the gateway; the 3-second clock starts now."""
        inter.dispatched_at = time.monotonic()
        await self.dispatch("INTERACTION_CREATE", inter.payload)
        return inter

    def build_slash(
        self, user_id: int, name: str, *, in_channel: int | None = None, **options: Any
    ) -> Interaction:
        """Build a slash command as `user_id` typed it (send it with `send`).

        `in_channel` is the channel it is typed in (default: the first channel).
        """
        options = {k: v for k, v in options.items() if v is not None}
        return self._base_interaction(2, user_id, self._command_data(name, options), in_channel)

    def build_autocomplete(
        self, user_id: int, name: str, focused: str, **options: Any
    ) -> Interaction:
        """Build an autocomplete request for option `focused` of /`name`."""
        return self._base_interaction(4, user_id, self._command_data(name, options, focused))

    def build_click(self, user_id: int, message: Message, custom_id: str) -> Interaction:
        """Build a button click on `message` (as Discord sends it: the message inline)."""
        assert custom_id in message.custom_ids(), (custom_id, message.custom_ids())
        data = {"custom_id": custom_id, "component_type": 2}
        channel = message.channel_id if message.channel_id in self.channels else None
        inter = self._base_interaction(3, user_id, data, channel)
        inter.payload["message"] = self.message_payload(message)
        return inter

    async def wait_answered(self, inter: Interaction, seconds: float = 10) -> Interaction:
        """Wait until the bot has called back for this interaction."""
        await asyncio.wait_for(inter.answered.wait(), seconds)
        return inter

    # -- views for tests --

    def visible_to(self, msg: Message, user_id: int) -> bool:
        """Return True when `user_id` can see `msg` (public, a DM to them, their ephemeral)."""
        if msg.deleted:
            return False
        if msg.public:
            return True
        if msg.kind == "dm":
            return self.dm_channels.get(msg.channel_id) == user_id
        inter = self.interactions.get(msg.interaction_id or 0)
        return msg.ephemeral and inter is not None and inter.user_id == user_id

    def seen_by(self, user_id: int) -> list[Message]:
        """Return every message `user_id` can see, oldest first (public, own ephemeral, DMs)."""
        return [msg for msg in self.messages.values() if self.visible_to(msg, user_id)]

    def public_messages(self) -> list[Message]:
        """Return the messages everybody in the channel sees, oldest first."""
        return [m for m in self.messages.values() if m.public]

    def replies_to(self, inter: Interaction) -> list[Message]:
        """Return the (not deleted) messages sent in answer to one interaction."""
        return [m for m in self.messages.values() if m.interaction_id == inter.id and not m.deleted]

    def dms_to(self, user_id: int) -> list[Message]:
        """Return the direct messages sent to one user."""
        return [
            m
            for m in self.messages.values()
            if m.kind == "dm" and self.dm_channels.get(m.channel_id) == user_id
        ]

    def last_with_buttons(self, prefix: str = "") -> Message:
        """Return the newest public message that has a button starting with `prefix`."""
        for msg in reversed(list(self.messages.values())):
            if msg.public and any(c.startswith(prefix) for c in msg.custom_ids()):
                return msg
        raise LookupError(f"no public message with a {prefix!r} button")

    def rate_limit_once(self, method: str, path_regex: str) -> None:
        """Answer the next matching request with 429 and a short retry_after."""
        self._rate_limits.append((method.upper(), re.compile(path_regex)))

    # -- REST --

    @staticmethod
    def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
        # Exactly "application/json": discord.py treats "...; charset=utf-8" as text.
        response = web.Response(body=json.dumps(data).encode(), status=status, headers=headers)
        response.headers["Content-Type"] = "application/json"
        return response

    def _error(self, status: int, code: int, message: str) -> web.Response:
        self.errors.append(f"{status} {code} {message}")
        return self._json({"code": code, "message": message}, status)

    async def _body(self, request: web.Request) -> tuple[dict[str, Any] | list[Any] | None, list]:
        """Return (JSON payload, files) of a JSON or multipart request."""
        files: list[Attachment] = []
        ctype = request.headers.get("Content-Type", "")
        if ctype.startswith("multipart/"):
            payload: Any = None
            reader = await request.multipart()
            async for part in reader:
                if part.name == "payload_json":  # type: ignore[union-attr]
                    payload = json.loads(await part.text())  # type: ignore[union-attr]
                else:
                    data = await part.read()  # type: ignore[union-attr]
                    files.append(Attachment(part.filename or "file", bytes(data)))  # type: ignore[union-attr]
            _describe(files, payload)
            return payload, files
        if request.can_read_body:
            text = await request.text()
            return (json.loads(text) if text else None), files
        return None, files

    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        method = request.method
        body, files = await self._body(request)
        self.requests.append(Request(method, path, body))
        for n, (m, pattern) in enumerate(self._rate_limits):
            if m == method and pattern.search(path):
                del self._rate_limits[n]
                self.rate_limited.append(f"{method} {path}")
                return self._json(
                    {
                        "message": "You are being rate limited.",
                        "retry_after": 0.05,
                        "global": False,
                    },
                    429,
                    {"Via": "1.1 google", "X-RateLimit-Scope": "user"},
                )
        for route, handler in self._routes():
            if route[0] != method:
                continue
            match = re.fullmatch(route[1], path)
            if match:
                return await handler(match, body, files, request)
        return self._error(404, 0, f"the fake has no route {method} {path}")

    def _routes(self) -> list[tuple[tuple[str, str], Callable[..., Any]]]:
        return [
            (("GET", r"/users/@me"), self._get_me),
            (("GET", r"/oauth2/applications/@me"), self._get_app),
            (("GET", r"/gateway/bot"), self._get_gateway),
            (("GET", r"/gateway"), self._get_gateway),
            (("PUT", r"/applications/(\d+)/commands"), self._put_commands),
            (("PUT", r"/applications/(\d+)/guilds/(\d+)/commands"), self._put_commands),
            (("GET", r"/applications/(\d+)/commands"), self._get_commands),
            (("GET", r"/applications/(\d+)/guilds/(\d+)/commands"), self._get_commands),
            (("POST", r"/interactions/(\d+)/([^/]+)/callback"), self._callback),
            (("POST", r"/webhooks/(\d+)/([^/]+)"), self._followup),
            (("GET", _WEBHOOK_MESSAGE), self._get_webhook_msg),
            (("PATCH", _WEBHOOK_MESSAGE), self._edit_webhook_msg),
            (("DELETE", _WEBHOOK_MESSAGE), self._delete_webhook_msg),
            (("POST", r"/channels/(\d+)/messages"), self._post_message),
            (("PATCH", r"/channels/(\d+)/messages/(\d+)"), self._edit_message),
            (("GET", r"/channels/(\d+)"), self._get_channel),
            (("POST", r"/users/@me/channels"), self._open_dm),
            (("GET", r"/users/(\d+)"), self._get_user),
        ]

    async def _get_me(self, *_: Any) -> web.Response:
        return self._json(self.bot_user)

    async def _get_app(self, *_: Any) -> web.Response:
        return self._json(
            {
                "id": str(self.app_id),
                "name": "feudbot",
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self._user_payload(self.owner_id, "owner"),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "summary": "",
                "rpc_origins": [],
            }
        )

    async def _get_gateway(self, *_: Any) -> web.Response:
        return self._json(
            {
                "url": self.gateway_url,
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    async def _put_commands(self, match: re.Match[str], body: Any, *_: Any) -> web.Response:
        if self.hold_sync is not None:
            await self.hold_sync.wait()
        guild = int(match.group(2)) if match.lastindex and match.lastindex >= 2 else None
        if guild is not None and guild != self.guild_id:
            return self._error(403, 50001, "Missing Access")
        stored = []
        for command in body or []:
            if len(command.get("description", "")) > 100 or not command.get("description"):
                return self._error(400, 50035, f"/{command['name']}: bad description")
            for option in command.get("options", []):
                if not option.get("description") or len(option["description"]) > 100:
                    return self._error(400, 50035, f"{command['name']}.{option['name']}: desc")
                if len(option.get("choices", [])) > 25:
                    return self._error(400, 50035, f"{command['name']}.{option['name']}: choices")
            stored.append(
                {
                    **command,
                    "id": str(self.new_id()),
                    "application_id": str(self.app_id),
                    "version": str(self.new_id()),
                    "default_member_permissions": command.get("default_member_permissions"),
                    "type": command.get("type", 1),
                    **({"guild_id": str(guild)} if guild else {}),
                }
            )
        self.commands[guild] = stored
        return self._json(stored)

    async def _get_commands(self, match: re.Match[str], *_: Any) -> web.Response:
        guild = int(match.group(2)) if match.lastindex and match.lastindex >= 2 else None
        return self._json(self.commands.get(guild, []))

    def _new_message(
        self,
        channel_id: int,
        body: dict[str, Any] | None,
        files: list[Attachment],
        kind: str,
        interaction_id: int | None = None,
        flags: int | None = None,
    ) -> Message:
        body = body or {}
        msg = Message(
            id=self.new_id(),
            channel_id=channel_id,
            content=str(body.get("content") or ""),
            embeds=list(body.get("embeds") or []),
            attachments=list(files),
            components=list(body.get("components") or []),
            flags=int(body.get("flags") or 0) if flags is None else flags,
            kind=kind,
            interaction_id=interaction_id,
            allowed_mentions=body.get("allowed_mentions"),
        )
        problem = self._check_message(msg)
        if problem:
            self.errors.append(f"400 {problem}")
            raise web.HTTPBadRequest(text=problem)
        self.messages[msg.id] = msg
        self._posted.set()
        return msg

    async def wait_message(self, check: Callable[[Message], bool], seconds: float = 10) -> Message:
        """Wait for a new message that passes `check` (e.g. one a gateway event's handler sends)."""
        seen = set(self.messages)
        async with asyncio.timeout(seconds):
            while True:
                self._posted.clear()
                new = [m for i, m in self.messages.items() if i not in seen and check(m)]
                if new:
                    return new[0]
                await self._posted.wait()

    @staticmethod
    def _check_message(msg: Message) -> str | None:
        if len(msg.content) > 2000:
            return "content longer than 2000"
        if len(msg.embeds) > 10:
            return "more than 10 embeds"
        for embed in msg.embeds:
            if len(str(embed.get("description", ""))) > 4096:
                return "embed description longer than 4096"
        texts = [str(e.get(k, "")) for e in msg.embeds for k in ("title", "description")]
        if sum(map(len, texts)) > MAX_EMBEDS_TEXT:
            return f"embeds longer than {MAX_EMBEDS_TEXT} together"
        for row in msg.components:
            for item in row.get("components", []):
                if len(item.get("custom_id", "")) > 100:
                    return "custom_id longer than 100"
                if len(item.get("label", "")) > 80:
                    return "label longer than 80"
        if sum(len(a.data) for a in msg.attachments) > ATTACHMENT_LIMIT:
            return "attachments too large"
        return None

    def _apply_edit(self, msg: Message, body: dict[str, Any] | None, files: list) -> None:
        body = body or {}
        if "content" in body:
            msg.content = str(body["content"] or "")
        if "embeds" in body:
            msg.embeds = list(body["embeds"] or [])
        if "components" in body:
            msg.components = list(body["components"] or [])
        if "allowed_mentions" in body:
            msg.allowed_mentions = body["allowed_mentions"]
        if "attachments" in body or files:
            kept = {str(a.get("id")) for a in body.get("attachments", []) if "filename" not in a}
            msg.attachments = [
                a for n, a in enumerate(msg.attachments) if str(msg.id + n + 1) in kept
            ] + list(files)
        msg.edits += 1

    async def _callback(
        self, match: re.Match[str], body: Any, files: list, request: web.Request
    ) -> web.Response:
        inter = self.interactions.get(int(match.group(1)))
        if inter is None or inter.token != match.group(2):
            return self._error(404, 10062, "Unknown interaction")
        now = time.monotonic()
        if now - inter.dispatched_at > self.ack_deadline:
            self.late.append(inter.id)
            return self._error(404, 10062, "Unknown interaction")
        if inter.callback_type is not None:
            return self._error(400, 40060, "Interaction has already been acknowledged.")
        kind = int(body["type"])
        data = body.get("data") or {}
        inter.callback_type, inter.callback_data, inter.callback_at = kind, data, now
        response: dict[str, Any] = {
            "interaction": {
                "id": str(inter.id),
                "type": inter.type,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(int(data.get("flags") or 0) & EPHEMERAL),
            }
        }
        if kind in (4, 5):  # a message, or a thinking "loading" message
            msg = self._new_message(
                inter.channel_id,
                data if kind == 4 else {"flags": data.get("flags")},
                files,
                "interaction",
                inter.id,
            )
            inter.original_id = msg.id
            inter.defer_flags = msg.flags
            inter.original_pending = kind == 5
            response["interaction"]["response_message_id"] = str(msg.id)
            response["resource"] = {"type": kind, "message": self.message_payload(msg)}
        elif kind in (6, 7):  # update the clicked message (later), or now
            message = inter.payload.get("message")
            if message is not None:
                inter.original_id = int(message["id"])
                response["interaction"]["response_message_id"] = message["id"]
                if kind == 7 and inter.original_id in self.messages:
                    self._apply_edit(self.messages[inter.original_id], data, files)
            response["resource"] = {"type": kind}
        elif kind == 8:
            if len(data.get("choices", [])) > 25:
                inter.answered.set()
                return self._error(400, 50035, "more than 25 choices")
            response = {}
        else:
            response["resource"] = {"type": kind}
        inter.answered.set()
        if request.query.get("with_response") in ("1", "true", "True"):
            return self._json(response)
        return web.Response(status=204)

    def _inter_by_token(self, app: str, token: str) -> Interaction | None:
        if int(app) != self.app_id:
            return None
        return self._by_token.get(token)

    async def _followup(
        self, match: re.Match[str], body: Any, files: list, request: web.Request
    ) -> web.Response:
        inter = self._inter_by_token(match.group(1), match.group(2))
        if inter is None:
            return self._error(404, 10015, "Unknown Webhook")
        if inter.callback_type is None:
            return self._error(404, 10015, "Unknown Webhook")  # follow-ups need an ack first
        if inter.original_pending and inter.original_id is not None:
            # The first follow-up after a thinking defer fills the loading message; its
            # visibility is the defer's, whatever flags the follow-up asks for.
            msg = self.messages[inter.original_id]
            self._apply_edit(msg, body, files)
            inter.original_pending = False
        else:
            msg = self._new_message(inter.channel_id, body, files, "followup", inter.id)
        return self._json(self.message_payload(msg))

    def _webhook_target(self, match: re.Match[str]) -> tuple[Interaction | None, Message | None]:
        inter = self._inter_by_token(match.group(1), match.group(2))
        if inter is None:
            return None, None
        ref = match.group(3)
        mid = inter.original_id if ref == "@original" else int(ref)
        msg = self.messages.get(mid) if mid is not None else None
        if msg is None or msg.deleted:
            return inter, None
        return inter, msg

    async def _get_webhook_msg(self, match: re.Match[str], *_: Any) -> web.Response:
        _, msg = self._webhook_target(match)
        if msg is None:
            return self._error(404, 10008, "Unknown Message")
        return self._json(self.message_payload(msg))

    async def _edit_webhook_msg(self, match: re.Match[str], body: Any, files: list, *_: Any):
        inter, msg = self._webhook_target(match)
        if inter is None or msg is None:
            return self._error(404, 10008, "Unknown Message")
        self._apply_edit(msg, body, files)
        if match.group(3) == "@original":
            inter.original_pending = False
        return self._json(self.message_payload(msg))

    async def _delete_webhook_msg(self, match: re.Match[str], *_: Any) -> web.Response:
        inter, msg = self._webhook_target(match)
        if inter is None or msg is None:
            return self._error(404, 10008, "Unknown Message")
        msg.deleted = True
        if match.group(3) == "@original":
            inter.original_pending = False
        return web.Response(status=204)

    async def _post_message(self, match: re.Match[str], body: Any, files: list, *_: Any):
        cid = int(match.group(1))
        if cid in self.dm_channels:
            if self.dm_channels[cid] in self.closed_dms:
                return self._error(403, 50007, "Cannot send messages to this user")
            kind = "dm"
        elif cid in self.channels:
            if self.bot_removed or cid in self.no_access:
                return self._error(403, 50001, "Missing Access")
            if (self.no_attachments and files) or cid in self.no_send:
                return self._error(403, 50013, "Missing Permissions")
            kind = "channel"
        else:
            return self._error(404, 10003, "Unknown Channel")
        msg = self._new_message(cid, body, files, kind)
        return self._json(self.message_payload(msg))

    async def _edit_message(self, match: re.Match[str], body: Any, files: list, *_: Any):
        msg = self.messages.get(int(match.group(2)))
        # An ephemeral message exists for its user only: the channel route does not find it.
        if msg is None or msg.deleted or msg.ephemeral or msg.channel_id != int(match.group(1)):
            return self._error(404, 10008, "Unknown Message")
        self._apply_edit(msg, body, files)
        return self._json(self.message_payload(msg))

    async def _get_channel(self, match: re.Match[str], *_: Any) -> web.Response:
        cid = int(match.group(1))
        if cid in self.channels:
            return self._json(self._channel_payload(cid))
        if cid in self.dm_channels:
            return self._json(self._dm_payload(cid))
        return self._error(404, 10003, "Unknown Channel")

    def _dm_payload(self, cid: int) -> dict[str, Any]:
        return {
            "id": str(cid),
            "type": 1,
            "recipients": [self.users[self.dm_channels[cid]]],
            "last_message_id": None,
        }

    async def _open_dm(self, _: re.Match[str], body: Any, *__: Any) -> web.Response:
        uid = int(body["recipient_id"])
        if uid not in self.users:
            return self._error(400, 50035, "Invalid Form Body")
        for cid, owner in self.dm_channels.items():
            if owner == uid:
                return self._json(self._dm_payload(cid))
        cid = self.new_id()
        self.dm_channels[cid] = uid
        return self._json(self._dm_payload(cid))

    async def _get_user(self, match: re.Match[str], *_: Any) -> web.Response:
        uid = int(match.group(1))
        if uid not in self.users:
            return self._error(404, 10013, "Unknown User")
        return self._json(self.users[uid])


@contextlib.asynccontextmanager
async def pointed_at(monkeypatch: Any) -> AsyncIterator[FakeDiscord]:
    """Run a fake and point this process's discord.py at it (REST base URL and gateway)."""
    import discord.gateway
    import discord.http
    import yarl

    server = FakeDiscord()
    await server.start()
    monkeypatch.setattr(discord.http.Route, "BASE", server.api_base)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(server.gateway_url)
    )
    try:
        yield server
    finally:
        await server.stop()

"""A fake Telegram Bot API: one in-memory server, reachable two ways.

* L1: `RecordingRequest` is a python-telegram-bot `BaseRequest`; hand it to
  ``ApplicationBuilder().request(...).get_updates_request(...)`` and every Bot API call of the
  real `Application` lands in `FakeBotAPI.handle`, without any socket.
* L2: `FakeBotServer` serves the same fake over real HTTP on 127.0.0.1 (aiohttp), at
  ``http://127.0.0.1:<port>/bot<token>/<method>``, so PTB's own HTTP client and `start_polling()`
  talk to it exactly as to api.telegram.org.

The fake records every call (`calls`, each with its arrival time on the event loop's clock),
answers with realistic JSON (messages with ids per chat, photos with their PNG size, `True` for
the setters), long-polls `getUpdates`, and behaves like Telegram where it matters to the bot: 403
when the bot writes first to a user who never started it, 400 "message is not modified" for
identical edits, 400 for a callback query answered twice, texts over 4096, captions over 1024,
alerts over 200 characters or callback data over 64 bytes, and 400 "group chat was upgraded
to a supergroup chat" (with ``migrate_to_chat_id``) for a basic group after `migrate`, 400
"message can't be deleted" for someone else's group message unless the bot is an admin that
may delete (`bot_admin`), 403 "bot was kicked from the group chat" once `my_chat_member` has
removed it (until it is added back), and getUpdates delivers only the kinds of ``allowed_updates``.
Failures can be injected per method (`fail_next`), e.g. a 429 with ``parameters.retry_after``.

Forum supergroups (`forum`) have topics (`topic`): messages typed in one carry
``message_thread_id`` and ``is_topic_message`` (a reply in a plain group carries a
``message_thread_id`` too, but no ``is_topic_message``); sends with ``message_thread_id`` land
in that topic, and one that names no topic of a forum (`delete_topic`), or any thread outside a
forum, gets 400 "message thread not found".
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import json
import struct
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from telegram.request import BaseRequest, RequestData

TOKEN = "123456:TEST-feudbot-token"
BOT_ID = 123456
# What a restricted member may do besides sending messages (all of it is refused a muted bot).
RESTRICTED_RIGHTS = (
    "can_send_audios",
    "can_send_documents",
    "can_send_photos",
    "can_send_videos",
    "can_send_video_notes",
    "can_send_voice_notes",
    "can_send_polls",
    "can_send_other_messages",
    "can_add_web_page_previews",
    "can_change_info",
    "can_invite_users",
    "can_pin_messages",
    "can_manage_topics",
    "can_edit_tag",
    "can_react_to_messages",
)
BOT_USERNAME = "feudbot_test_bot"
ANONYMOUS_ADMIN_ID = 1087968824  # Telegram's "GroupAnonymousBot"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

# Form fields (L2) whose values are plain strings, never JSON (PTB does not JSON-encode str).
_STRING_FIELDS = frozenset(
    {
        "text",
        "caption",
        "parse_mode",
        "callback_query_id",
        "url",
        "inline_message_id",
        "description",
        "short_description",
        "name",
        "title",
        "secret_token",
        "language_code",
        "photo",
        "emoji",
    }
)
_EDITS = ("editMessageText", "editMessageCaption", "editMessageMedia", "editMessageReplyMarkup")
_SENDS = ("sendMessage", "sendPhoto")
# Update kinds getUpdates leaves out unless `allowed_updates` names them.
_NOT_BY_DEFAULT = frozenset({"chat_member", "message_reaction", "message_reaction_count"})


class ApiError(Exception):
    """An error answer of the Bot API (status code, description and parameters)."""

    def __init__(
        self, status: int, description: str, parameters: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(description)
        self.status = status
        self.description = description
        self.parameters = dict(parameters or {})

    def body(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "ok": False,
            "error_code": self.status,
            "description": self.description,
        }
        if self.parameters:
            out["parameters"] = self.parameters
        return out


def not_modified() -> ApiError:
    return ApiError(
        400,
        "Bad Request: message is not modified: specified new message content and reply markup"
        " are exactly the same as a current content and reply markup of the message",
    )


def retry_after(seconds: int = 1) -> ApiError:
    return ApiError(429, f"Too Many Requests: retry after {seconds}", {"retry_after": seconds})


def blocked() -> ApiError:
    return ApiError(403, "Forbidden: bot was blocked by the user")


@dataclass
class Call:
    """One recorded Bot API call: the method, its decoded parameters and uploaded files."""

    method: str
    params: dict[str, Any]
    files: dict[str, bytes] = field(default_factory=dict)
    filenames: dict[str, str] = field(default_factory=dict)
    status: int = 200
    result: Any = None
    at: float = 0.0  # when the call arrived, on the event loop's clock

    @property
    def chat_id(self) -> int | None:
        value = self.params.get("chat_id")
        return None if value is None else int(value)

    @property
    def ok(self) -> bool:
        return self.status == 200

    @property
    def thread_id(self) -> int | None:
        """The ``message_thread_id`` the bot sent with (the forum topic), if any."""
        value = self.params.get("message_thread_id")
        return None if value is None else int(value)

    @property
    def text(self) -> str:
        """The text a person sees: message text, caption, or an alert/toast."""
        media = self.params.get("media")
        if isinstance(media, dict) and media.get("caption"):
            return str(media["caption"])
        return str(self.params.get("text") or self.params.get("caption") or "")

    @property
    def photo(self) -> bytes | None:
        """The uploaded picture of sendPhoto / editMessageMedia, if any."""
        if "photo" in self.files:
            return self.files["photo"]
        media = self.params.get("media")
        if isinstance(media, dict):
            ref = str(media.get("media", ""))
            if ref.startswith("attach://"):
                return self.files.get(ref.removeprefix("attach://"))
        return None

    @property
    def buttons(self) -> list[dict[str, Any]]:
        markup = self.params.get("reply_markup") or {}
        if isinstance(markup, str):
            markup = json.loads(markup)
        return [b for row in markup.get("inline_keyboard", []) for b in row]

    def __repr__(self) -> str:  # short, for assertion messages
        topic = f" topic={self.thread_id}" if self.thread_id is not None else ""
        return f"Call({self.method} {self.status} chat={self.chat_id}{topic} {self.text[:60]!r})"


def png_size(data: bytes) -> tuple[int, int]:
    """Return (width, height) of a PNG, from its IHDR chunk."""
    if not data.startswith(PNG_SIGNATURE) or data[12:16] != b"IHDR":
        raise ApiError(400, "Bad Request: IMAGE_PROCESS_FAILED")
    width, height = struct.unpack(">II", data[16:24])
    return width, height


class FakeBotAPI:
    """The fake server's state and its method implementations."""

    def __init__(self, *, token: str = TOKEN, username: str = BOT_USERNAME) -> None:
        self.token = token
        self.me = {
            "id": BOT_ID,
            "is_bot": True,
            "first_name": "Feudbot",
            "username": username,
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
        }
        self.calls: list[Call] = []
        self.users: dict[int, dict[str, Any]] = {}
        self.chats: dict[int, dict[str, Any]] = {}
        self.admins: dict[int, set[int]] = {}
        self.started: set[int] = set()  # users who wrote to the bot privately
        self.blocked: set[int] = set()  # users who blocked the bot
        self.bot_out: set[int] = set()  # groups the bot was removed from (`my_chat_member`)
        self.no_photos: set[int] = set()  # groups whose members (the bot too) may send no photos
        self.bot_muted: set[int] = set()  # groups where the bot is restricted: it may not write
        self.migrated: dict[int, int] = {}  # basic group id -> the supergroup it became
        self.messages: dict[tuple[int, int], dict[str, Any]] = {}
        self.answered: set[str] = set()
        self.commands: list[dict[str, Any]] = []
        self._media: dict[tuple[int, int], str] = {}  # digest of the current photo
        self._msg_ids: dict[int, itertools.count[int]] = {}
        self._query_ids = itertools.count(9_000_000)
        self._files = itertools.count(1)
        self._failures: list[tuple[str, Callable[[dict[str, Any]], bool], ApiError]] = []
        self._updates: list[dict[str, Any]] = []
        self._next_update = 1
        self._arrived: asyncio.Condition | None = None
        self._closing = False
        self.webhook: str = ""
        self.webhook_secret: str | None = None
        self.allowed_updates: list[str] | None = None  # None: Telegram's default kinds
        self.bot_deletes: set[int] = set()  # groups where the bot is an admin that may delete
        self.deleted: list[tuple[int, int]] = []  # (chat id, message id) deleted by the bot
        self.topics: dict[int, set[int]] = {}  # forum id -> the ids of its topics (not deleted)

    # -- people and chats (what the tests "type") --

    def user(self, user_id: int, first_name: str, username: str | None = None) -> dict[str, Any]:
        """Register a Telegram user and return its JSON."""
        out: dict[str, Any] = {"id": user_id, "is_bot": False, "first_name": first_name}
        if username:
            out["username"] = username
        out["language_code"] = "en"
        self.users[user_id] = out
        return out

    def group(self, chat_id: int, title: str, *, admins: tuple[int, ...] = ()) -> dict[str, Any]:
        """Register a supergroup (ids are negative) and return its JSON."""
        out = {"id": chat_id, "type": "supergroup", "title": title}
        self.chats[chat_id] = out
        self.admins[chat_id] = set(admins)
        return out

    def forum(self, chat_id: int, title: str, *, admins: tuple[int, ...] = ()) -> dict[str, Any]:
        """Register a supergroup with topics enabled (``is_forum``) and return its JSON."""
        out = self.group(chat_id, title, admins=admins)
        out["is_forum"] = True
        self.topics[chat_id] = set()
        return out

    def topic(self, chat: Mapping[str, Any], by: Mapping[str, Any], name: str) -> int:
        """Open a topic in a forum, as `by` does; return its id (``message_thread_id``).

        As in Telegram, the id is that of the service message ``forum_topic_created``, which
        opens the topic and is its first message.
        """
        message_id = self._next_message_id(chat["id"])
        message = {
            "message_id": message_id,
            "message_thread_id": message_id,
            "is_topic_message": True,
            "from": dict(by),
            "chat": dict(chat),
            "date": int(time.time()),
            "forum_topic_created": {"name": name, "icon_color": 7322096},
        }
        self.messages[(chat["id"], message_id)] = message
        self.topics[chat["id"]].add(message_id)
        return message_id

    def delete_topic(self, chat_id: int, thread_id: int) -> None:
        """Delete a forum topic with its messages (an admin did): it is not found any more."""
        self.topics[chat_id].discard(thread_id)
        for key, message in list(self.messages.items()):
            if key[0] == chat_id and message.get("message_thread_id") == thread_id:
                del self.messages[key]

    def anonymous_admin(self) -> dict[str, Any]:
        """Return the stand-in sender of anonymous group admins ("GroupAnonymousBot")."""
        out = {
            "id": ANONYMOUS_ADMIN_ID,
            "is_bot": True,
            "first_name": "Group",
            "username": "GroupAnonymousBot",
        }
        self.users[ANONYMOUS_ADMIN_ID] = out
        return out

    def basic_group(
        self, chat_id: int, title: str, *, admins: tuple[int, ...] = ()
    ) -> dict[str, Any]:
        """Register a basic group (small ids, no -100 prefix) and return its JSON."""
        out = {"id": chat_id, "type": "group", "title": title}
        self.chats[chat_id] = out
        self.admins[chat_id] = set(admins)
        return out

    def migrate(
        self, old_id: int, new_id: int, by: Mapping[str, Any]
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Upgrade a basic group to a supergroup, as Telegram does when `by` changes a setting.

        Returns the two service-message updates Telegram sends: ``migrate_to_chat_id`` in the
        old group, then ``migrate_from_chat_id`` in the new supergroup. From then on the old id
        answers every call with 400 "group chat was upgraded to a supergroup chat".
        """
        old = self.chats[old_id]
        new = self.group(new_id, str(old["title"]), admins=tuple(self.admins.get(old_id, ())))
        self.migrated[old_id] = new_id
        updates = []
        for chat, field_name, value in (
            (old, "migrate_to_chat_id", new_id),
            (new, "migrate_from_chat_id", old_id),
        ):
            message = {
                "message_id": self._next_message_id(chat["id"]),
                "from": dict(by),
                "chat": dict(chat),
                "date": int(time.time()),
                field_name: value,
            }
            updates.append(self._update({"message": message}))
        return updates[0], updates[1]

    def private(self, user: Mapping[str, Any]) -> dict[str, Any]:
        """Return the private chat of the bot with `user` (its id is the user's id)."""
        out = {"id": user["id"], "type": "private", "first_name": user["first_name"]}
        if "username" in user:
            out["username"] = user["username"]
        self.chats[user["id"]] = out
        return out

    def bot_admin(self, chat_id: int, *, can_delete_messages: bool = True) -> None:
        """Make the bot an administrator of a group (with or without the right to delete)."""
        if can_delete_messages:
            self.bot_deletes.add(chat_id)
        else:
            self.bot_deletes.discard(chat_id)

    def my_chat_member(
        self, chat: Mapping[str, Any], by: Mapping[str, Any], old: str, new: str
    ) -> dict[str, Any]:
        """Build the update Telegram sends when the bot's own status in `chat` changes.

        `old` and `new` are statuses: ``left``, ``kicked``, ``member``, ``administrator``,
        ``restricted`` (muted: the bot may send nothing there until it is a member again).
        """

        def member(status: str) -> dict[str, Any]:
            out: dict[str, Any] = {"status": status, "user": dict(self.me)}
            if status == "kicked":
                out["until_date"] = 0
            if status == "restricted":  # muted: a member who may send nothing
                out |= {"is_member": True, "until_date": 0, "can_send_messages": False}
                out |= dict.fromkeys(RESTRICTED_RIGHTS, False)
            if status == "administrator":
                out |= {
                    "can_be_edited": False,
                    "is_anonymous": False,
                    "can_manage_chat": True,
                    "can_delete_messages": chat["id"] in self.bot_deletes,
                    "can_manage_video_chats": False,
                    "can_restrict_members": False,
                    "can_promote_members": False,
                    "can_change_info": False,
                    "can_invite_users": True,
                    "can_post_stories": False,
                    "can_edit_stories": False,
                    "can_delete_stories": False,
                }
            return out

        change = {
            "chat": dict(chat),
            "from": dict(by),
            "date": int(time.time()),
            "old_chat_member": member(old),
            "new_chat_member": member(new),
        }
        if new in ("left", "kicked"):
            self.bot_out.add(chat["id"])
        else:
            self.bot_out.discard(chat["id"])
        if new == "restricted":
            self.bot_muted.add(chat["id"])
        else:
            self.bot_muted.discard(chat["id"])
        return self._update({"my_chat_member": change})

    def added_to_group(self, chat: Mapping[str, Any], by: Mapping[str, Any]) -> dict[str, Any]:
        """Build the service message "`by` added the bot" (``new_chat_members``) in `chat`."""
        self.bot_out.discard(chat["id"])
        message = {
            "message_id": self._next_message_id(chat["id"]),
            "from": dict(by),
            "chat": dict(chat),
            "date": int(time.time()),
            "new_chat_members": [dict(self.me)],
        }
        self.messages[(chat["id"], message["message_id"])] = message
        return self._update({"message": message})

    def _next_message_id(self, chat_id: int) -> int:
        counter = self._msg_ids.setdefault(chat_id, itertools.count(1))
        return next(counter)

    def message_update(
        self,
        chat: Mapping[str, Any],
        user: Mapping[str, Any],
        text: str,
        *,
        mentions: Mapping[str, Mapping[str, Any]] | None = None,
        sender_chat: Mapping[str, Any] | None = None,
        topic: int | None = None,
        reply_to: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Build (and store) the update of `user` writing `text` in `chat`.

        `topic`: the forum topic it is typed in (``message_thread_id`` with
        ``is_topic_message``; Telegram also makes it a reply to the topic's first message).
        `reply_to`: the message it replies to; in a group without topics the reply still gets
        a ``message_thread_id`` (the thread of replies it starts), but no ``is_topic_message``.

        `mentions` maps a span of `text` to the user picked from the mention menu (a
        ``text_mention`` entity, as Telegram sends for users without a username).
        `sender_chat` is the chat the message is posted as: the group itself for an anonymous
        admin (whose `user` is then `anonymous_admin()`), or a channel.
        """
        message: dict[str, Any] = {
            "message_id": self._next_message_id(chat["id"]),
            "from": dict(user),
            "chat": dict(chat),
            "date": int(time.time()),
            "text": text,
        }
        if sender_chat is not None:
            message["sender_chat"] = dict(sender_chat)
        if topic is not None:
            if topic not in self.topics.get(chat["id"], set()):
                raise ValueError(f"chat {chat['id']} has no topic {topic}")
            message["message_thread_id"] = topic
            message["is_topic_message"] = True
            if reply_to is None:
                reply_to = self.messages.get((chat["id"], topic))
        if reply_to is not None:
            message["reply_to_message"] = dict(reply_to)
            if topic is None and chat["type"] != "private":
                message["message_thread_id"] = reply_to.get(
                    "message_thread_id", reply_to["message_id"]
                )
        if text.startswith("/"):
            command = text.split()[0]
            message["entities"] = [{"type": "bot_command", "offset": 0, "length": len(command)}]
        for shown, mentioned in (mentions or {}).items():
            offset = len(text[: text.index(shown)].encode("utf-16-le")) // 2
            length = len(shown.encode("utf-16-le")) // 2
            message.setdefault("entities", []).append(
                {
                    "type": "text_mention",
                    "offset": offset,
                    "length": length,
                    "user": dict(mentioned),
                }
            )
        if chat["type"] == "private":
            self.started.add(user["id"])
            self.blocked.discard(user["id"])
        self.messages[(chat["id"], message["message_id"])] = message
        return self._update({"message": message})

    def callback_update(
        self, user: Mapping[str, Any], message: Mapping[str, Any], data: str
    ) -> dict[str, Any]:
        """Build the update of `user` pressing the button `data` under the bot's `message`."""
        query = {
            "id": str(next(self._query_ids)),
            "from": dict(user),
            "message": dict(message),
            "chat_instance": f"ci{message['chat']['id']}",
            "data": data,
        }
        return self._update({"callback_query": query})

    def _update(self, body: dict[str, Any]) -> dict[str, Any]:
        update = {"update_id": self._next_update, **body}
        self._next_update += 1
        return update

    def push(self, update: dict[str, Any]) -> None:
        """Queue an update for getUpdates (L2)."""
        self._updates.append(update)
        if self._arrived is not None:
            arrived = self._arrived

            async def wake() -> None:
                async with arrived:
                    arrived.notify_all()

            with contextlib.suppress(RuntimeError):
                asyncio.get_running_loop().create_task(wake())

    # -- failure injection --

    def fail_next(
        self,
        method: str,
        error: ApiError,
        *,
        times: int = 1,
        when: Callable[[dict[str, Any]], bool] | None = None,
    ) -> None:
        """Answer the next `times` calls of `method` (matching `when`) with `error`."""
        for _ in range(times):
            self._failures.append((method, when or (lambda _params: True), error))

    def _injected(self, method: str, params: dict[str, Any]) -> ApiError | None:
        for i, (name, when, error) in enumerate(self._failures):
            if name == method and when(params):
                del self._failures[i]
                return error
        return None

    # -- queries over what the bot did --

    def sent(self, *methods: str, chat_id: int | None = None, ok: bool = True) -> list[Call]:
        """Return the recorded calls of these methods (to this chat), successful by default."""
        return [
            c
            for c in self.calls
            if (not methods or c.method in methods)
            and (chat_id is None or c.chat_id == chat_id)
            and (c.ok or not ok)
        ]

    def message(self, chat_id: int, message_id: int) -> dict[str, Any]:
        """Return the current JSON of a stored message."""
        return self.messages[(chat_id, message_id)]

    # -- the API --

    async def handle(
        self,
        method: str,
        params: dict[str, Any],
        files: dict[str, bytes],
        filenames: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, Any]]:
        """Run one Bot API method; return the HTTP status and the JSON body."""
        call = Call(
            method, params, files, dict(filenames or {}), at=asyncio.get_running_loop().time()
        )
        self.calls.append(call)
        try:
            error = self._injected(method, params)
            if error is not None:
                raise error
            impl = getattr(self, f"_m_{method}", None)
            if impl is None:
                raise ApiError(404, "Not Found")
            result = await impl(params, files) if method == "getUpdates" else impl(params, files)
        except ApiError as error:
            call.status = error.status
            call.result = error.description
            return error.status, error.body()
        call.result = result
        return 200, {"ok": True, "result": result}

    def _m_getMe(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        return self.me

    def _m_deleteWebhook(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        self.webhook = ""
        return True

    def _m_setWebhook(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        url = str(params.get("url", ""))
        if url and not url.startswith(("https://", "http://127.0.0.1")):
            raise ApiError(400, "Bad Request: bad webhook: An HTTPS URL must be provided")
        self.webhook = url
        self.webhook_secret = params.get("secret_token")
        return True

    async def post_webhook(self, update: dict[str, Any], *, secret: str | None = None) -> int:
        """Post an update to the bot's webhook as Telegram does; return the HTTP status."""
        import aiohttp

        token = secret if secret is not None else self.webhook_secret
        headers = {"X-Telegram-Bot-Api-Secret-Token": token} if token else {}
        async with (
            aiohttp.ClientSession() as session,
            session.post(self.webhook, json=update, headers=headers) as response,
        ):
            return response.status

    def _m_getWebhookInfo(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        return {"url": self.webhook, "has_custom_certificate": False, "pending_update_count": 0}

    def _m_setMyCommands(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        commands = params.get("commands") or []
        if isinstance(commands, str):
            commands = json.loads(commands)
        for command in commands:
            name, text = command["command"], command["description"]
            if not (1 <= len(name) <= 32 and name == name.lower() and 1 <= len(text) <= 256):
                raise ApiError(400, "Bad Request: BOT_COMMAND_INVALID")
        self.commands = list(commands)
        return True

    def _m_getMyCommands(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        return self.commands

    def _m_getChat(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        chat = self._chat(params)
        return {
            **chat,
            "accent_color_id": 0,
            "max_reaction_count": 11,
            "accepted_gift_types": {
                "unlimited_gifts": False,
                "limited_gifts": False,
                "unique_gifts": False,
                "premium_subscription": False,
            },
        }

    def _m_getChatMember(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        chat = self._chat(params)
        user_id = int(params["user_id"])
        user = self.users.get(user_id)
        if user is None:
            raise ApiError(400, "Bad Request: user not found")
        if chat["type"] == "private" or user_id in self.admins.get(chat["id"], set()):
            return {"status": "creator", "user": user, "is_anonymous": False}
        return {"status": "member", "user": user}

    def _chat(self, params: Mapping[str, Any]) -> dict[str, Any]:
        chat_id = int(params["chat_id"])
        if chat_id in self.migrated:
            raise ApiError(
                400,
                "Bad Request: group chat was upgraded to a supergroup chat",
                {"migrate_to_chat_id": self.migrated[chat_id]},
            )
        chat = self.chats.get(chat_id)
        if chat is not None and chat_id in self.bot_out:
            kind = "supergroup" if chat["type"] == "supergroup" else "group"
            raise ApiError(403, f"Forbidden: bot was kicked from the {kind} chat")
        if chat is None and chat_id in self.users:
            chat = self.private(self.users[chat_id])
        if chat is None:
            raise ApiError(400, "Bad Request: chat not found")
        return chat

    def _check_target(self, params: Mapping[str, Any]) -> dict[str, Any]:
        chat = self._chat(params)
        if chat["type"] == "private":
            if chat["id"] in self.blocked:
                raise blocked()
            if chat["id"] not in self.started:
                raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
        return chat

    @staticmethod
    def _markup(params: Mapping[str, Any]) -> dict[str, Any] | None:
        markup = params.get("reply_markup")
        if isinstance(markup, str):
            markup = json.loads(markup)
        if markup is None:
            return None
        for row in markup.get("inline_keyboard", []):
            for button in row:
                data = button.get("callback_data")
                if data is not None and not 1 <= len(str(data).encode()) <= 64:
                    raise ApiError(400, "Bad Request: BUTTON_DATA_INVALID")
                url = button.get("url")
                if url is not None and not str(url).startswith(("https://", "http://", "tg://")):
                    raise ApiError(400, "Bad Request: BUTTON_URL_INVALID")
        return dict(markup)

    @staticmethod
    def _check_text(text: str, limit: int, what: str) -> None:
        if not text.strip():
            raise ApiError(400, f"Bad Request: {what} must be non-empty")
        if len(text) > limit:
            raise ApiError(400, f"Bad Request: {what} is too long")

    def _thread(self, chat: Mapping[str, Any], params: Mapping[str, Any]) -> int | None:
        """Return the forum topic a send names, refusing one that is not (any more) there."""
        value = params.get("message_thread_id")
        if value is None:
            return None
        if int(value) not in self.topics.get(chat["id"], set()):
            # A deleted topic, or a thread id outside a forum (a plain group's reply thread).
            raise ApiError(400, "Bad Request: message thread not found")
        return int(value)

    def _new_message(
        self, chat: dict[str, Any], params: Mapping[str, Any], **content: Any
    ) -> dict[str, Any]:
        thread = self._thread(chat, params)
        message: dict[str, Any] = {
            "message_id": self._next_message_id(chat["id"]),
            "from": self.me,
            "chat": chat,
            "date": int(time.time()),
            **content,
        }
        if thread is not None:
            message["message_thread_id"] = thread
            message["is_topic_message"] = True
        markup = self._markup(params)
        if markup and markup.get("inline_keyboard"):
            message["reply_markup"] = markup
        self.messages[(chat["id"], message["message_id"])] = message
        return message

    def _photo_sizes(self, data: bytes) -> list[dict[str, Any]]:
        if len(data) > 10 * 1024 * 1024:
            raise ApiError(400, "Bad Request: PHOTO_INVALID_DIMENSIONS")
        width, height = png_size(data)
        if width + height > 10_000 or max(width, height) > 20 * min(width, height):
            raise ApiError(400, "Bad Request: PHOTO_INVALID_DIMENSIONS")
        n = next(self._files)
        return [
            {
                "file_id": f"photo-{n}",
                "file_unique_id": f"u{n}",
                "width": width,
                "height": height,
                "file_size": len(data),
            }
        ]

    def _m_sendMessage(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        chat = self._check_target(params)
        if chat["id"] in self.bot_muted:
            raise ApiError(400, "Bad Request: not enough rights to send text messages to the chat")
        text = str(params.get("text", ""))
        self._check_text(text, 4096, "message text")
        return self._new_message(chat, params, text=text)

    def _check_photos(self, chat_id: int) -> None:
        if chat_id in self.no_photos:
            raise ApiError(400, "Bad Request: not enough rights to send photos to the chat")

    def _m_sendPhoto(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        chat = self._check_target(params)
        self._check_photos(chat["id"])
        if chat["id"] in self.bot_muted:
            raise ApiError(400, "Bad Request: not enough rights to send photos to the chat")
        data = files.get("photo")
        if data is None:
            raise ApiError(400, "Bad Request: there is no photo in the request")
        caption = str(params.get("caption", ""))
        if len(caption) > 1024:
            raise ApiError(400, "Bad Request: message caption is too long")
        content: dict[str, Any] = {"photo": self._photo_sizes(data)}
        if caption:
            content["caption"] = caption
        message = self._new_message(chat, params, **content)
        self._media[(chat["id"], message["message_id"])] = hashlib.sha256(data).hexdigest()
        return message

    def _stored(self, params: Mapping[str, Any]) -> tuple[dict[str, Any], tuple[int, int]]:
        if "inline_message_id" in params:
            raise ApiError(400, "Bad Request: inline messages are not used by this bot")
        self._chat(params)  # e.g. a group upgraded to a supergroup
        key = (int(params["chat_id"]), int(params["message_id"]))
        message = self.messages.get(key)
        if message is None or message["from"].get("id") != BOT_ID:
            raise ApiError(400, "Bad Request: message to edit not found")
        return message, key

    def _finish_edit(
        self, message: dict[str, Any], params: Mapping[str, Any], changed: bool
    ) -> dict[str, Any]:
        markup = self._markup(params)
        markup = markup if markup and markup.get("inline_keyboard") else None
        if not changed and markup == message.get("reply_markup"):
            raise not_modified()
        if markup is None:
            message.pop("reply_markup", None)
        else:
            message["reply_markup"] = markup
        message["edit_date"] = int(time.time())
        return message

    def _m_editMessageText(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        message, _key = self._stored(params)
        if "text" not in message:
            raise ApiError(400, "Bad Request: there is no text in the message to edit")
        text = str(params.get("text", ""))
        self._check_text(text, 4096, "message text")
        changed = text != message["text"]
        message = self._finish_edit(message, params, changed)
        message["text"] = text
        return message

    def _m_editMessageCaption(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        message, _key = self._stored(params)
        if "photo" not in message:
            raise ApiError(400, "Bad Request: there is no caption in the message to edit")
        caption = str(params.get("caption", ""))
        if len(caption) > 1024:
            raise ApiError(400, "Bad Request: message caption is too long")
        changed = caption != message.get("caption", "")
        message = self._finish_edit(message, params, changed)
        message["caption"] = caption
        return message

    def _m_editMessageMedia(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        message, key = self._stored(params)
        self._check_photos(key[0])
        if "photo" not in message:
            raise ApiError(400, "Bad Request: there is no media in the message to edit")
        media = params.get("media")
        if isinstance(media, str):
            media = json.loads(media)
        if not isinstance(media, dict) or media.get("type") != "photo":
            raise ApiError(400, "Bad Request: can't parse InputMedia")
        ref = str(media.get("media", ""))
        data = files.get(ref.removeprefix("attach://")) if ref.startswith("attach://") else None
        if data is None:
            raise ApiError(400, "Bad Request: wrong file identifier/HTTP URL specified")
        caption = str(media.get("caption", ""))
        if len(caption) > 1024:
            raise ApiError(400, "Bad Request: message caption is too long")
        digest = hashlib.sha256(data).hexdigest()
        changed = digest != self._media.get(key) or caption != message.get("caption", "")
        sizes = self._photo_sizes(data)
        message = self._finish_edit(message, params, changed)
        message["photo"] = sizes
        if caption:
            message["caption"] = caption
        else:
            message.pop("caption", None)
        self._media[key] = digest
        return message

    def _m_editMessageReplyMarkup(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        message, _key = self._stored(params)
        return self._finish_edit(message, params, False)

    def _m_deleteMessage(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        chat = self._chat(params)
        key = (chat["id"], int(params["message_id"]))
        message = self.messages.get(key)
        if message is None:
            raise ApiError(400, "Bad Request: message to delete not found")
        # A bot deletes its own messages and, in private chats, incoming ones; in a group
        # someone else's only as an administrator with the right to delete messages.
        own = message["from"].get("id") == BOT_ID
        if not (own or chat["type"] == "private" or chat["id"] in self.bot_deletes):
            raise ApiError(400, "Bad Request: message can't be deleted")
        del self.messages[key]
        self.deleted.append(key)
        return True

    def _m_answerCallbackQuery(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        query_id = str(params["callback_query_id"])
        if query_id in self.answered:
            raise ApiError(
                400,
                "Bad Request: query is too old and response timeout expired or query ID is invalid",
            )
        text = str(params.get("text", ""))
        if len(text) > 200:
            raise ApiError(400, "Bad Request: MESSAGE_TOO_LONG")
        self.answered.add(query_id)
        return True

    def _m_sendChatAction(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        self._chat(params)
        return True

    async def _m_getUpdates(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        offset = int(params.get("offset") or 0)
        limit = int(params.get("limit") or 100)
        timeout = float(params.get("timeout") or 0)
        if offset:
            self._updates = [u for u in self._updates if u["update_id"] >= offset]
        allowed = params.get("allowed_updates")
        if isinstance(allowed, str):
            allowed = json.loads(allowed)
        if allowed is not None:
            # Telegram keeps the list until the next call that gives one (an empty list: the
            # default, every kind but chat_member and the reactions) and drops what it excludes.
            self.allowed_updates = list(allowed) or None
        self._updates = [u for u in self._updates if self._wanted(u)]
        if self._arrived is None:
            self._arrived = asyncio.Condition()
        if not self._updates and timeout > 0:
            async with self._arrived:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(
                        self._arrived.wait_for(
                            lambda: any(map(self._wanted, self._updates)) or self._closing
                        ),
                        timeout,
                    )
        self._updates = [u for u in self._updates if self._wanted(u)]
        return self._updates[:limit]

    def _wanted(self, update: Mapping[str, Any]) -> bool:
        """Return whether getUpdates delivers an update of this kind (see `allowed_updates`)."""
        kind = next(key for key in update if key != "update_id")
        if self.allowed_updates is None:
            return kind not in _NOT_BY_DEFAULT
        return kind in self.allowed_updates

    async def close_polls(self) -> None:
        """End every pending long poll at once (the server is shutting down)."""
        self._closing = True
        if self._arrived is not None:
            async with self._arrived:
                self._arrived.notify_all()

    # -- helpers for tests --

    async def wait_for(
        self, predicate: Callable[[], bool], *, within: float = 10.0, what: str = "condition"
    ) -> None:
        """Wait (polling) until `predicate()` holds; fail with the last calls on timeout."""
        deadline = time.monotonic() + within
        while not predicate():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}; last calls: {self.calls[-8:]}")
            await asyncio.sleep(0.02)


def decode_form(fields: Mapping[str, str]) -> dict[str, Any]:
    """Decode PTB's form fields: strings stay strings, everything else is JSON."""
    out: dict[str, Any] = {}
    for key, value in fields.items():
        if key in _STRING_FIELDS:
            out[key] = value
            continue
        try:
            out[key] = json.loads(value)
        except ValueError:
            out[key] = value
    return out


class RecordingRequest(BaseRequest):
    """A PTB `BaseRequest` that hands every call to a `FakeBotAPI` (L1: no sockets)."""

    def __init__(self, api: FakeBotAPI) -> None:
        self.api = api

    @property
    def read_timeout(self) -> float | None:
        return 1.0

    async def initialize(self) -> None:
        return None

    async def shutdown(self) -> None:
        return None

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Any = None,
        write_timeout: Any = None,
        connect_timeout: Any = None,
        pool_timeout: Any = None,
    ) -> tuple[int, bytes]:
        prefix, _, api_method = url.rpartition("/")
        if not prefix.endswith(f"/bot{self.api.token}"):
            return 404, json.dumps(
                {"ok": False, "error_code": 404, "description": "Not Found"}
            ).encode()
        params: dict[str, Any] = {}
        files: dict[str, bytes] = {}
        filenames: dict[str, str] = {}
        if request_data is not None:
            # The same decoding as the HTTP server's, so L1 and L2 see identical parameters.
            params = decode_form(request_data.json_parameters)
            for name, field_tuple in request_data.multipart_data.items():
                content = field_tuple[1]
                files[name] = content if isinstance(content, bytes) else content.read()
                filenames[name] = str(field_tuple[0])
        status, body = await self.api.handle(api_method, params, files, filenames)
        return status, json.dumps(body).encode()


class FakeBotServer:
    """The fake over real HTTP on 127.0.0.1 (L2): ``async with FakeBotServer(api) as url:``."""

    def __init__(self, api: FakeBotAPI) -> None:
        self.api = api
        self.base_url = ""
        self._runner: Any = None

    async def __aenter__(self) -> str:
        from aiohttp import web

        app = web.Application(client_max_size=20 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._serve)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.base_url = f"http://127.0.0.1:{port}/bot"
        return self.base_url

    async def __aexit__(self, *exc: object) -> None:
        await self.api.close_polls()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _serve(self, request: Any) -> Any:
        from aiohttp import web

        if request.match_info["token"] != self.api.token:
            body = {"ok": False, "error_code": 401, "description": "Unauthorized"}
            return web.json_response(body, status=401)
        fields: dict[str, str] = {}
        files: dict[str, bytes] = {}
        filenames: dict[str, str] = {}
        if request.content_type == "application/json":
            raw = await request.json()
            fields = {k: v if isinstance(v, str) else json.dumps(v) for k, v in raw.items()}
        elif request.method == "POST":
            form = await request.post()
            for key, value in form.items():
                if isinstance(value, web.FileField):
                    files[key] = value.file.read()
                    filenames[key] = value.filename
                else:
                    fields[key] = str(value)
        fields.update({k: v for k, v in request.query.items() if k not in fields})
        status, body = await self.api.handle(
            request.match_info["method"], decode_form(fields), files, filenames
        )
        return web.json_response(body, status=status)

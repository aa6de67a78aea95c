"""What the service answers: `Reply` values that every adapter knows how to send.

A reply goes either to the chat (`ChatTarget`) or privately to ONE user (`UserTarget`); racks
and other private things only ever travel in a reply to a `UserTarget`. `event` is a small
structured dict (``{"type": "move_played", ...}``) for adapters, tests and the console's JSON
output; `text` is what a person reads.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class ChatTarget:
    """A chat (storage id and the platform's own id), and the topic in it if it has topics.

    `thread_id` is a forum topic (a Telegram supergroup's `message_thread_id`): a game's news
    goes to the topic the game was created in, an answer to the topic the command was typed
    in. None: the chat itself (its General topic).
    """

    chat_id: int
    platform: str
    platform_chat_id: str
    thread_id: int | None = None


@dataclass(frozen=True, slots=True)
class UserTarget:
    """One user, privately (a DM, an ephemeral message, or the console's private section)."""

    user_id: int
    platform: str
    platform_user_id: str
    name: str


Target = ChatTarget | UserTarget


@dataclass(frozen=True, slots=True)
class Image:
    """A picture to attach, with a file name that says what it shows.

    `alt` says in words what it shows, for a screen reader (Discord's attachment description).
    """

    name: str
    data: bytes
    alt: str = ""


@dataclass(frozen=True, slots=True)
class Button:
    """A button under a reply; `action_id` carries ids only (fits Discord's and Telegram's)."""

    label: str
    action_id: str


@dataclass(frozen=True, slots=True)
class Reply:
    """One message to send: where, what, attachments, buttons and a structured event."""

    to: Target
    text: str
    images: tuple[bytes | Image, ...] = ()
    buttons: tuple[Button, ...] = ()
    event: dict[str, Any] = field(default_factory=dict)
    # A private reply posted in the game's chat instead (the player takes no DMs): the text as
    # said there, without the chat's own name ("" when it is the same).
    in_chat: str = ""

    @property
    def here(self) -> str:
        """Return the text to post in the game's chat, where a private reply may go instead."""
        return self.in_chat or self.text

    @property
    def private(self) -> bool:
        """Return True when the reply goes to one user rather than to the chat."""
        return isinstance(self.to, UserTarget)

    @property
    def kind(self) -> str:
        """Return the event type ("" when the reply carries no event)."""
        return str(self.event.get("type", ""))

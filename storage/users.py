"""Users and chats, keyed by platform name and the platform's own id.

`UserRepository` (`db.users`):

- `upsert_user(platform, platform_user_id, display_name, *, handle=None, now=None) -> User`
- `get_user(user_id) -> User | None`
- `get_user_by_platform_id(platform, platform_user_id) -> User | None`
- `find_user_by_name(platform, name) -> User | None` (the handle first, then a display name of
  someone without a handle, compared as it looks: `name_key`)
- `find_users_by_name(platform, name, *, chat_id=None) -> list[User]`: everyone the name may
  mean, in the order `find_user_by_name` prefers them; with `chat_id`, only the people who sit
  or sat at a game of that chat
- `set_dm_allowed(user_id, allowed) -> bool`

`ChatRepository` (`db.chats`):

- `upsert_chat(platform, platform_chat_id, title=None, *, parent_id=None, now=None) -> Chat`
- `get_chat(chat_id) -> Chat | None`
- `get_chat_by_platform_id(platform, platform_chat_id) -> Chat | None`
- `threads_of(platform, platform_chat_id) -> list[Chat]`: the chats that belong to it (a
  Discord channel's threads, archived ones too, which Discord does not list to the bot)
- `move_chat(platform, old_platform_chat_id, new_platform_chat_id, *, now=None) -> Chat | None`
- `set_away(chat_id, away, *, now=None) -> Chat | None`: the bot left the chat (its games'
  deadlines are held) or is back (they are shifted by the time away, and pending again)
- `photos_refused(platform) -> dict[str, datetime]`: the chats that refused a picture, by
  platform id, with when (the last refusal)
- `set_photos_refused(platform, platform_chat_id, since) -> None`: note a refusal (`since`), or
  that the chat takes pictures again (None)

Platform ids are stored as text (Discord snowflakes and Telegram ids both fit), so callers may
pass ints.
"""

from __future__ import annotations

import sqlite3
import unicodedata
from datetime import datetime

from storage._base import Repository, execute, fetch_all, fetch_one
from storage._codec import from_epoch, from_epoch_or_none, to_epoch, utcnow
from storage.deadlines import resume_held
from storage.models import Chat, User

_USER_COLUMNS = "id, platform, platform_user_id, display_name, dm_allowed, handle"
_CHAT_COLUMNS = "id, platform, platform_chat_id, title, away_since, away_muted, parent_id"


def name_key(name: str) -> str:
    """Return what tells two names apart to the eye: not case, how an accent is typed, joiners.

    "ДМИТРИЙ" is "Дмитрий" typed in capitals, and "Zoë" with a combining diaeresis is "Zoë";
    "Zoe" is another name. The database knows it as the SQL function ``name_key``.
    """
    plain = unicodedata.normalize("NFC", name.replace("\u200c", "").replace("\u200d", ""))
    return plain.casefold()


def _user(row: sqlite3.Row) -> User:
    return User(
        id=row["id"],
        platform=row["platform"],
        platform_user_id=row["platform_user_id"],
        display_name=row["display_name"],
        dm_allowed=bool(row["dm_allowed"]),
        handle=row["handle"],
    )


def _chat(row: sqlite3.Row) -> Chat:
    return Chat(
        id=row["id"],
        platform=row["platform"],
        platform_chat_id=row["platform_chat_id"],
        title=row["title"],
        away_since=from_epoch_or_none(row["away_since"]),
        muted=bool(row["away_muted"]),
        parent_id=row["parent_id"],
    )


class UserRepository(Repository):
    """People, one row per (platform, platform user id)."""

    async def upsert_user(
        self,
        platform: str,
        platform_user_id: str | int,
        display_name: str,
        *,
        handle: str | None = None,
        now: datetime | None = None,
    ) -> User:
        """Create the user, or refresh the display name and handle of the existing one.

        `handle` is stored in lower case; None clears it (the person gave up their username).
        A handle is one person's at a time: whoever held it before (a username given up and
        taken by someone else) loses it here, so "@name" never finds the former holder.
        """
        stamp = to_epoch(now or utcnow())
        handle = handle.lower() if handle else None
        async with self._db.transaction() as conn:
            if handle is not None:
                await execute(
                    conn,
                    "UPDATE users SET handle = NULL"
                    " WHERE platform = ? AND handle = ? AND platform_user_id <> ?",
                    (platform, handle, str(platform_user_id)),
                )
            row = await fetch_one(
                conn,
                "INSERT INTO users (platform, platform_user_id, display_name, handle,"
                " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (platform, platform_user_id) DO UPDATE SET"
                " display_name = excluded.display_name, handle = excluded.handle,"
                " updated_at = excluded.updated_at"
                f" RETURNING {_USER_COLUMNS}",
                (platform, str(platform_user_id), display_name, handle, stamp, stamp),
            )
        assert row is not None  # an upsert always returns its row
        return _user(row)

    async def get_user(self, user_id: int) -> User | None:
        """Return the user with this id, or None."""
        async with self._db.read() as conn:
            row = await fetch_one(
                conn, f"SELECT {_USER_COLUMNS} FROM users WHERE id = ?", (user_id,)
            )
        return None if row is None else _user(row)

    async def get_user_by_platform_id(
        self, platform: str, platform_user_id: str | int
    ) -> User | None:
        """Return the user with this platform id, or None."""
        async with self._db.read() as conn:
            row = await fetch_one(
                conn,
                f"SELECT {_USER_COLUMNS} FROM users WHERE platform = ? AND platform_user_id = ?",
                (platform, str(platform_user_id)),
            )
        return None if row is None else _user(row)

    async def find_user_by_name(self, platform: str, name: str) -> User | None:
        """Return the platform's user called `name`, ignoring case (`name_key`).

        A handle is the person's own (a Telegram @username): its holder wins. Otherwise the
        name is matched against the display names of people who have no handle — never of
        someone whose handle differs, so nobody can take another's @name by showing it as
        their name. Display names are not unique: an exact-case match wins, then the most
        recently seen user.
        """
        found = await self.find_users_by_name(platform, name, limit=1)
        return found[0] if found else None

    async def find_users_by_name(
        self, platform: str, name: str, *, chat_id: int | None = None, limit: int = 100
    ) -> list[User]:
        """Return everyone `name` may mean, best first, as `find_user_by_name` picks.

        With `chat_id`, only the people who sit or sat at a game of that chat (a lobby's
        seat, a game played: a finished game keeps its seats beside its results): one chat's
        Sam is not another's.
        """
        # An ASCII name is found through the index (ASCII case is all SQLite folds); another
        # ("@дмитрий", "@ZOË") is compared as it looks.
        same = "display_name = ? COLLATE NOCASE" if name.isascii() else "name_key(display_name) = ?"
        where = f"platform = ? AND (handle = lower(?) OR (handle IS NULL AND {same}))"
        params: list[object] = [platform, name, name if name.isascii() else name_key(name)]
        if chat_id is not None:
            where += (
                " AND EXISTS (SELECT 1 FROM seats s JOIN games g ON g.id = s.game_id"
                " WHERE s.user_id = users.id AND g.chat_id = ?)"
            )
            params.append(chat_id)
        async with self._db.read() as conn:
            rows = await fetch_all(
                conn,
                f"SELECT {_USER_COLUMNS} FROM users WHERE {where}"
                " ORDER BY handle IS NOT NULL DESC, display_name = ? DESC, updated_at DESC,"
                " id DESC LIMIT ?",
                (*params, name, limit),
            )
        return [_user(row) for row in rows]

    async def set_dm_allowed(self, user_id: int, allowed: bool) -> bool:
        """Record whether the bot may send this user direct messages; False if no such user."""
        async with self._db.transaction() as conn:
            changed = await execute(
                conn, "UPDATE users SET dm_allowed = ? WHERE id = ?", (int(allowed), user_id)
            )
        return changed == 1


class ChatRepository(Repository):
    """Chats, one row per (platform, platform chat id)."""

    async def upsert_chat(
        self,
        platform: str,
        platform_chat_id: str | int,
        title: str | None = None,
        *,
        parent_id: int | None = None,
        now: datetime | None = None,
    ) -> Chat:
        """Create the chat, or refresh its title (a None title keeps the stored one).

        `parent_id`: the chat it belongs to (a Discord thread's channel; None keeps the stored).
        """
        stamp = to_epoch(now or utcnow())
        async with self._db.transaction() as conn:
            row = await fetch_one(
                conn,
                "INSERT INTO chats (platform, platform_chat_id, title, parent_id, created_at,"
                " updated_at) VALUES (?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (platform, platform_chat_id) DO UPDATE SET"
                " title = coalesce(excluded.title, chats.title),"
                " parent_id = coalesce(excluded.parent_id, chats.parent_id),"
                " updated_at = excluded.updated_at"
                f" RETURNING {_CHAT_COLUMNS}",
                (platform, str(platform_chat_id), title, parent_id, stamp, stamp),
            )
        assert row is not None  # an upsert always returns its row
        return _chat(row)

    async def get_chat(self, chat_id: int) -> Chat | None:
        """Return the chat with this id, or None."""
        async with self._db.read() as conn:
            row = await fetch_one(
                conn, f"SELECT {_CHAT_COLUMNS} FROM chats WHERE id = ?", (chat_id,)
            )
        return None if row is None else _chat(row)

    async def get_chat_by_platform_id(
        self, platform: str, platform_chat_id: str | int
    ) -> Chat | None:
        """Return the chat with this platform id, or None."""
        async with self._db.read() as conn:
            row = await fetch_one(
                conn,
                f"SELECT {_CHAT_COLUMNS} FROM chats WHERE platform = ? AND platform_chat_id = ?",
                (platform, str(platform_chat_id)),
            )
        return None if row is None else _chat(row)

    async def threads_of(self, platform: str, platform_chat_id: str | int) -> list[Chat]:
        """Return the chats stored as belonging to this one (its threads), oldest first."""
        async with self._db.read() as conn:
            rows = await fetch_all(
                conn,
                f"SELECT {_CHAT_COLUMNS} FROM chats WHERE parent_id IN"
                " (SELECT id FROM chats WHERE platform = ? AND platform_chat_id = ?) ORDER BY id",
                (platform, str(platform_chat_id)),
            )
        return [_chat(row) for row in rows]

    async def away_chats(self, platform: str) -> list[Chat]:
        """Return the chats of `platform` the bot is out of (`set_away`), oldest first."""
        async with self._db.read() as conn:
            rows = await fetch_all(
                conn,
                f"SELECT {_CHAT_COLUMNS} FROM chats WHERE platform = ? AND away_since IS NOT NULL"
                " ORDER BY id",
                (platform,),
            )
        return [_chat(row) for row in rows]

    async def photos_refused(self, platform: str) -> dict[str, datetime]:
        """Return the chats of `platform` that refused a picture (by platform id), and when."""
        async with self._db.read() as conn:
            rows = await fetch_all(
                conn,
                "SELECT platform_chat_id, photos_refused_at FROM chats"
                " WHERE platform = ? AND photos_refused_at IS NOT NULL",
                (platform,),
            )
        return {row["platform_chat_id"]: from_epoch(row["photos_refused_at"]) for row in rows}

    async def set_photos_refused(
        self, platform: str, platform_chat_id: str | int, since: datetime | None
    ) -> None:
        """Note that the chat refused a picture at `since`, or takes them again (None)."""
        async with self._db.transaction() as conn:
            await execute(
                conn,
                "UPDATE chats SET photos_refused_at = ?"
                " WHERE platform = ? AND platform_chat_id = ?",
                (None if since is None else to_epoch(since), platform, str(platform_chat_id)),
            )

    async def move_chat(
        self,
        platform: str,
        old_platform_chat_id: str | int,
        new_platform_chat_id: str | int,
        *,
        now: datetime | None = None,
    ) -> Chat | None:
        """Give a chat its new platform id; return the chat, or None when the old id is unknown.

        A Telegram group upgraded to a supergroup gets a new id: its games and results (so its
        leaderboards, and through the games its deadlines) must follow. If the new id is already
        a chat of its own (someone wrote there before the move was seen), the old chat's games
        and results join it and the old row is deleted (games it held, `set_away`, go on from
        then, as on a return). Moving again finds no old chat: None.
        """
        stamp = to_epoch(now or utcnow())
        old_id, new_id = str(old_platform_chat_id), str(new_platform_chat_id)
        select = f"SELECT {_CHAT_COLUMNS} FROM chats WHERE platform = ? AND platform_chat_id = ?"
        async with self._db.transaction() as conn:
            old = await fetch_one(conn, select, (platform, old_id))
            if old is None or old_id == new_id:
                return None if old is None else _chat(old)
            new = await fetch_one(conn, select, (platform, new_id))
            if new is None:
                row = await fetch_one(
                    conn,
                    "UPDATE chats SET platform_chat_id = ?, updated_at = ? WHERE id = ?"
                    f" RETURNING {_CHAT_COLUMNS}",
                    (new_id, stamp, old["id"]),
                )
                assert row is not None  # the row was just read inside this transaction
                return _chat(row)
            if old["away_since"] is not None:  # its games were held: from here they go on
                await resume_held(self._db, conn, old["id"], since=old["away_since"], until=stamp)
            ids = (new["id"], old["id"])
            await execute(conn, "UPDATE games SET chat_id = ? WHERE chat_id = ?", ids)
            await execute(conn, "UPDATE results SET chat_id = ? WHERE chat_id = ?", ids)
            await execute(
                conn,
                "UPDATE chats SET title = coalesce(title, ?), updated_at = ? WHERE id = ?",
                (old["title"], stamp, new["id"]),
            )
            await execute(conn, "DELETE FROM chats WHERE id = ?", (old["id"],))
            row = await fetch_one(
                conn, f"SELECT {_CHAT_COLUMNS} FROM chats WHERE id = ?", (new["id"],)
            )
        assert row is not None  # the merged chat is the one kept
        return _chat(row)

    async def set_away(
        self, chat_id: int, away: bool, *, now: datetime | None = None, muted: bool = False
    ) -> Chat | None:
        """Note the bot out of a chat (`away`; `muted`: a member that may not write) or back.

        Returns the chat (None: unknown). Away, the chat's deadlines are held: the due queries
        skip them. Back, every pending deadline of its games is put off by the time it spent
        held (from when the bot left, or from when the deadline was set if later: a move sent
        privately meanwhile), so each turn has the time it had left. Saying it twice changes
        nothing the second time; out already, only why (removed, or `muted`).
        """
        stamp = to_epoch(now or utcnow())
        async with self._db.transaction() as conn:
            row = await fetch_one(
                conn, f"SELECT {_CHAT_COLUMNS} FROM chats WHERE id = ?", (chat_id,)
            )
            if row is None:
                return None
            if (row["away_since"] is not None) == away:
                if away and bool(row["away_muted"]) != muted:  # out still, for another reason
                    row = await fetch_one(
                        conn,
                        f"UPDATE chats SET away_muted = ? WHERE id = ? RETURNING {_CHAT_COLUMNS}",
                        (int(muted), chat_id),
                    )
                    assert row is not None  # read above inside this transaction
                return _chat(row)
            if not away:
                await resume_held(self._db, conn, chat_id, since=row["away_since"], until=stamp)
            row = await fetch_one(
                conn,
                f"UPDATE chats SET away_since = ?, away_muted = ?, updated_at = ? WHERE id = ?"
                f" RETURNING {_CHAT_COLUMNS}",
                (stamp if away else None, int(away and muted), stamp, chat_id),
            )
        assert row is not None  # read above inside this transaction
        return _chat(row)

"""Settings from the environment and `.env`, read in one place.

```python
settings = load_settings()          # reads .env (if present) then the process environment
settings.db_path, settings.allow_seed, settings.reminders
```

Variables (see `.env.example`): ``DISCORD_TOKEN``, ``DISCORD_DEV_GUILD_ID``, ``TELEGRAM_TOKEN``,
``TELEGRAM_API_BASE_URL``, ``TELEGRAM_WEBHOOK_URL`` / ``_LISTEN`` / ``_PORT`` / ``_SECRET``
(receive Telegram updates by webhook instead of polling), ``FEUDBOT_DB`` (SQLite file, default
``feudbot.sqlite3``),
``FEUDBOT_ALLOW_SEED`` (``1`` lets ``/new … seed=N`` through outside the console),
``FEUDBOT_REMINDERS`` (how long before a turn deadline to remind the player, default ``24h,1h``;
each more than nothing and at most 365 days).

A value the bot cannot use raises `ConfigError` naming the variable; the command line prints it
as one line and exits with status 2.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

DEFAULT_DB = "feudbot.sqlite3"
DEFAULT_REMINDERS = (timedelta(hours=24), timedelta(hours=1))
_DURATION = re.compile(r"^(\d+)([smhd])$")
_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days"}
# A reminder further ahead than any turn limit never fires; far beyond one, the date arithmetic
# of its due time overflows.
LONGEST_REMINDER = timedelta(days=365)
PORTS = range(1, 65536)
# Telegram's rule for a webhook's secret_token.
_SECRET = re.compile(r"^[A-Za-z0-9_-]{1,256}$")
# What a `.env` line that cannot be read may show of itself: the variable's name, never its value.
_LEADING_NAME = re.compile(r"^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)")


class ConfigError(ValueError):
    """A variable of the environment or `.env` holds a value the bot cannot read."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the bot reads from its environment."""

    db_path: str = DEFAULT_DB
    discord_token: str | None = None
    discord_dev_guild_id: int | None = None
    telegram_token: str | None = None
    telegram_api_base_url: str | None = None
    telegram_webhook_url: str | None = None
    telegram_webhook_listen: str | None = None
    telegram_webhook_port: int | None = None
    telegram_webhook_secret: str | None = None
    allow_seed: bool = False
    reminders: tuple[timedelta, ...] = DEFAULT_REMINDERS


def parse_duration(text: str) -> timedelta:
    """Parse ``90s``, ``15m``, ``24h`` or ``2d`` (at most `LONGEST_REMINDER`)."""
    match = _DURATION.match(text.strip().lower())
    if match is None:
        raise ValueError(f"{text!r} is not a duration like 24h, 15m, 2d or 90s")
    too_long = ValueError(f"{text.strip()!r} is too long; at most {LONGEST_REMINDER.days}d")
    try:
        duration = timedelta(**{_UNITS[match.group(2)]: int(match.group(1))})
    except OverflowError:  # beyond what timedelta can hold at all
        raise too_long from None
    if duration > LONGEST_REMINDER:
        raise too_long
    return duration


def parse_reminders(text: str) -> tuple[timedelta, ...]:
    """Parse a comma-separated list of durations (empty: no reminders), longest first, once each.

    A zero duration is refused: a reminder at the deadline would come with the timeout itself.
    """
    parsed = [(part.strip(), parse_duration(part)) for part in text.split(",") if part.strip()]
    zero = next((part for part, duration in parsed if not duration), None)
    if zero is not None:
        raise ValueError(f"{zero!r} is no time before the deadline; use e.g. 1h or 15m")
    return tuple(sorted({duration for _, duration in parsed}, reverse=True))


def _number(env: Mapping[str, str], name: str) -> int | None:
    value = _text(env, name)
    if value is not None and not value.isdecimal():
        raise ConfigError(f"{name} must be a whole number, not {value!r}")
    return int(value) if value else None


def _port(env: Mapping[str, str], name: str) -> int | None:
    port = _number(env, name)
    if port is not None and port not in PORTS:
        raise ConfigError(f"{name} must be a port number from 1 to 65535, not {port}")
    return port


_ON, _OFF = {"1", "true", "yes", "on"}, {"", "0", "false", "no", "off"}


def _flag(env: Mapping[str, str], name: str) -> bool:
    value = env.get(name, "").strip().lower()
    if value not in _ON | _OFF:  # "ture", "maybe": not silently off
        raise ConfigError(f"{name} must be 1 or 0 (or true/false, yes/no, on/off), not {value!r}")
    return value in _ON


def _check_fonts(env: Mapping[str, str], name: str) -> None:
    """Refuse font files the images could not draw with (a typo, a file that is no font)."""
    for path in env.get(name, "").split(os.pathsep):
        if not path.strip():
            continue
        if not os.path.isfile(path):
            raise ConfigError(f"{name}: {path!r} is not a file")
        try:
            from PIL import ImageFont

            ImageFont.truetype(path, 12)
        except ImportError:  # no renderers installed: no images to draw anyway
            return
        except OSError as error:
            raise ConfigError(f"{name}: {path!r} is not a font ({error})") from error


def _token(env: Mapping[str, str], name: str) -> str | None:
    """Return a token, refusing quotes or spaces in it (named, never shown: it is a secret).

    `docker run --env-file` keeps the quotes a `.env` may put around a value; the platform would
    then only say that it refuses the token.
    """
    token = _text(env, name)
    if token is None:
        return None
    if token[0] in "\"'" or token[-1] in "\"'":
        raise ConfigError(
            f"{name} is in quotes, which are no part of a token: remove them "
            "(docker run --env-file keeps them)"
        )
    if any(char.isspace() for char in token):
        raise ConfigError(f"{name} holds a space, which no token has: copy the token again")
    return token


def _webhook_url(env: Mapping[str, str], name: str) -> str | None:
    """Return the address Telegram posts updates to; its path is the one the bot serves.

    The value is not shown in the refusal: such an address often carries a secret path.
    """
    url = _text(env, name)
    if url is None:
        return None
    parts = urlsplit(url)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise ConfigError(
            f"{name} must be the address Telegram posts updates to, "
            "like https://bot.example.org/telegram"
        )
    return url


def _webhook_secret(env: Mapping[str, str], name: str) -> str | None:
    secret = _text(env, name)
    if secret is not None and _SECRET.match(secret) is None:
        raise ConfigError(
            f"{name} may hold only letters, digits, _ and -, at most 256 of them (Telegram's rule)"
        )
    return secret


def _text(env: Mapping[str, str], name: str) -> str | None:
    value = env.get(name, "").strip()
    return value or None


def _read_dotenv(path: str) -> str | None:
    """Return the text of the `.env` file (None: there is none), refusing one it cannot use.

    python-dotenv skips a line it cannot parse with a warning and goes on: the setting of that
    line would silently fall back to its default (FEUDBOT_DB to a new, empty database).
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (FileNotFoundError, IsADirectoryError):
        return None
    except UnicodeDecodeError as error:
        raise ConfigError(
            f"{path}: it is not UTF-8 text (byte {error.object[error.start]:#04x} at offset "
            f"{error.start}); save it as UTF-8"
        ) from None
    except OSError as error:
        raise ConfigError(f"{path}: cannot read it ({error.strerror or error})") from None
    from dotenv.parser import parse_stream

    for binding in parse_stream(io.StringIO(text)):
        if binding.error:
            # The blank lines before a statement belong to it: its own line comes after them.
            original = binding.original.string
            statement = original.lstrip()
            line = binding.original.line + original[: len(original) - len(statement)].count("\n")
            name = _LEADING_NAME.match(statement)
            start = f" (it starts with {name.group(1)})" if name else ""
            raise ConfigError(
                f"{path}: line {line}{start} is not NAME=value; write e.g. FEUDBOT_DB=games.sqlite3"
                ", with any quotes closed on the same line"
            )
    return text


def load_settings(env: Mapping[str, str] | None = None, *, dotenv: bool = True) -> Settings:
    """Return the settings from `env` (default: `.env` in the current folder, then os.environ).

    Variables already set in the process environment win over `.env`. A `.env` that cannot be
    read, or has a line that is not ``NAME=value``, raises `ConfigError` rather than lose it.
    """
    if env is None:
        text = _read_dotenv(os.path.join(os.getcwd(), ".env")) if dotenv else None
        if text is not None:
            from dotenv import load_dotenv

            load_dotenv(stream=io.StringIO(text), override=False)
        env = os.environ
    _check_fonts(env, "FEUDBOT_FALLBACK_FONTS")
    reminders = env.get("FEUDBOT_REMINDERS")
    try:
        every = DEFAULT_REMINDERS if reminders is None else parse_reminders(reminders)
    except ValueError as error:
        raise ConfigError(f"FEUDBOT_REMINDERS: {error}") from error
    return Settings(
        db_path=_text(env, "FEUDBOT_DB") or DEFAULT_DB,
        discord_token=_token(env, "DISCORD_TOKEN"),
        discord_dev_guild_id=_number(env, "DISCORD_DEV_GUILD_ID"),
        telegram_token=_token(env, "TELEGRAM_TOKEN"),
        telegram_api_base_url=_text(env, "TELEGRAM_API_BASE_URL"),
        telegram_webhook_url=_webhook_url(env, "TELEGRAM_WEBHOOK_URL"),
        telegram_webhook_listen=_text(env, "TELEGRAM_WEBHOOK_LISTEN"),
        telegram_webhook_port=_port(env, "TELEGRAM_WEBHOOK_PORT"),
        telegram_webhook_secret=_webhook_secret(env, "TELEGRAM_WEBHOOK_SECRET"),
        allow_seed=_flag(env, "FEUDBOT_ALLOW_SEED"),
        reminders=every,
    )

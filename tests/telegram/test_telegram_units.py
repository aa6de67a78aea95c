"""The Telegram adapter's small pure helpers and its production configuration."""

from __future__ import annotations

import pytest
from telegram.error import BadRequest, Forbidden
from telegram.ext import AIORateLimiter

from bot.adapters.telegram_bot import (
    ALERT_LIMIT,
    GROUP_MESSAGES_PER_MINUTE,
    OFFICIAL_API_BASE_URL,
    api_base_url,
    build_application,
    callback_data,
    clip,
    command_menu,
    deep_link,
    file_base_url,
    parse_callback,
    pass_label,
    private_alert,
    split_text,
    thread_gone,
    webhook_from,
)
from bot.commands import COMMANDS

pytestmark = pytest.mark.timeout(30)


@pytest.mark.parametrize(
    ("setting", "expected"),
    [
        (None, OFFICIAL_API_BASE_URL),
        ("", OFFICIAL_API_BASE_URL),
        ("http://127.0.0.1:8081", "http://127.0.0.1:8081/bot"),
        ("http://127.0.0.1:8081/", "http://127.0.0.1:8081/bot"),
        ("http://127.0.0.1:8081/bot", "http://127.0.0.1:8081/bot"),
    ],
)
def test_api_base_url_accepts_a_server_or_a_full_prefix(setting, expected) -> None:
    """TELEGRAM_API_BASE_URL may name the server alone or the ``…/bot`` prefix."""
    assert api_base_url(setting) == expected


def test_file_base_url_follows_the_api_base_url() -> None:
    """Files of a self-hosted server are under ``/file/bot``."""
    assert file_base_url("http://h:8081/bot") == "http://h:8081/file/bot"


def test_callback_data_round_trips_and_rejects_foreign_data() -> None:
    """g:<id>:<action>:<turn> parses back; anything else (or an unknown action) is None."""
    assert parse_callback(callback_data(12, "pass", 7)) == (12, "pass", 7)
    for junk in (None, "", "x:1:pass:2", "g:1:explode:2", "g:a:pass:2", "g:1:pass"):
        assert parse_callback(junk) is None
    with pytest.raises(ValueError, match="64"):
        callback_data(1, "x" * 60, 1)


def test_the_command_menu_is_valid_for_set_my_commands() -> None:
    """One entry per command but those that end a game (a menu entry is sent by one tap)."""
    menu = command_menu()
    assert [c.command for c in menu] == [
        spec.name for spec in COMMANDS if spec.name not in ("resign", "cancel")
    ]
    assert all(1 <= len(c.description) <= 100 for c in menu)
    described = {c.command: c.description for c in menu}
    # A first sentence whole: never cut at "e.g." (the old cut left "… notation, e.g").
    assert (
        described["play"]
        == "Play a move in the game's notation, e.g. /play 8H QUIZ (see /rules <game>)."
    )
    assert not [d for d in described.values() if d.endswith(("e.g", "e.g."))]


def test_split_text_keeps_every_line_under_the_limit() -> None:
    """Long texts are cut at line breaks into messages Telegram accepts."""
    text = "\n".join(f"line {n} " + "x" * 50 for n in range(200))
    parts = split_text(text, 1000)
    assert all(len(p) <= 1000 for p in parts)
    assert "\n".join(parts) == text
    assert split_text("y" * 2500, 1000) == ["y" * 1000, "y" * 1000, "y" * 500]


def test_clip_and_deep_link() -> None:
    """Alerts are clipped with an ellipsis; the deep link names the bot and the game."""
    assert clip("abcdef", 4) == "abc…"
    assert clip("abc", 4) == "abc"
    assert deep_link("feudbot", 3) == "https://t.me/feudbot?start=g3"


def test_a_private_alert_drops_the_link_before_any_of_the_text() -> None:
    """The link goes along if it fits, else the whole text alone, else whole lines and a pointer."""
    link = "t.me/feudbot?start=g1"
    assert private_alert("Your rack: A B", link) == (
        "Your rack: A B\n\nPictures in private: t.me/feudbot?start=g1"
    )
    text = "Your rack: A B\n" + "r" * 180
    assert private_alert(text, link) == text
    longer = "Your rack: A B\n" + "r" * 190
    assert private_alert(longer, link) == (
        "Your rack: A B\n(More than an alert holds: start me in private to read it all: "
        "t.me/feudbot?start=g1)"
    )
    one_line = "x" * 250
    assert private_alert(one_line, link).startswith("x" * 100)
    for shown in (text, longer, one_line):
        assert len(private_alert(shown, link)) <= ALERT_LIMIT


def test_a_rack_line_longer_than_an_alert_keeps_the_tiles_that_fit() -> None:
    """A Rummikub rack of 52 tiles: its first tiles, whole, then where the rest waits."""
    link = "t.me/feudbot?start=g1"
    tiles = [f"{colour}{n}" for colour in "KBYR" for n in range(1, 14)][:52]
    rack = f"Your rack in game #1: {' '.join(tiles)} (new: Y5)"
    alert = private_alert(rack, link)
    assert len(alert) <= ALERT_LIMIT
    shown, pointer = alert.split("\n")
    assert shown.startswith("Your rack in game #1: K1 K2 K3 ")
    assert shown.endswith(" …")
    assert rack.startswith(shown.removesuffix(" …") + " ")  # cut after a whole tile
    assert pointer == f"(More than an alert holds: start me in private to read it all: {link})"


async def test_production_rate_limiter_is_twenty_per_minute_per_group(tmp_path) -> None:
    """Without a test override the bot uses AIORateLimiter: under 20 a minute per group, retries.

    The group limiter is a leaky bucket: a burst of `group_max_rate`, then the steady rate, so
    what it lets through in 60 s is the burst plus a minute of the steady rate.
    """
    from bot.service import Service
    from storage import Database

    db = await Database.open(tmp_path / "x.sqlite3")
    try:
        app, _front = build_application("1:abc", Service(db, render=False))
        limiter = app.bot.rate_limiter
        assert isinstance(limiter, AIORateLimiter)
        burst, period = limiter._group_max_rate, limiter._group_time_period
        assert burst + 60 * burst / period < GROUP_MESSAGES_PER_MINUTE == 20
        assert limiter._max_retries >= 1
        assert app.bot.base_url == "https://api.telegram.org/bot1:abc"
    finally:
        await db.close()


def test_the_pass_button_follows_the_game() -> None:
    """Webfeud's pass is "Pass"; a game without a pass move gets no such button."""
    assert pass_label("webfeud") == "Pass"
    assert pass_label("no-such-game") is None


def test_webhook_settings_are_read_from_the_environment() -> None:
    """No TELEGRAM_WEBHOOK_URL: polling; with it, the URL's path is served with the secret."""
    from bot.config import Settings, load_settings

    assert webhook_from(Settings()) is None
    hook = webhook_from(
        load_settings(
            {
                "TELEGRAM_WEBHOOK_URL": "https://bot.example.org/tg/hook",
                "TELEGRAM_WEBHOOK_LISTEN": "0.0.0.0",
                "TELEGRAM_WEBHOOK_PORT": "8080",
                "TELEGRAM_WEBHOOK_SECRET": "s",
            }
        )
    )
    assert hook is not None
    assert (hook.path, hook.listen, hook.port, hook.secret) == ("/tg/hook", "0.0.0.0", 8080, "s")


@pytest.mark.parametrize(
    ("error", "gone"),
    [
        (BadRequest("Bad Request: message thread not found"), True),
        (BadRequest("Bad Request: TOPIC_CLOSED"), True),
        (BadRequest("Bad Request: message is not modified"), False),
        (BadRequest("Bad Request: chat not found"), False),
        (Forbidden("Forbidden: bot was kicked from the supergroup chat"), False),
    ],
)
def test_only_a_topic_gone_or_closed_sends_to_general_instead(error, gone) -> None:
    """A deleted or closed forum topic is retried in General; other refusals are not."""
    assert thread_gone(error) is gone

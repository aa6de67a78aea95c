"""What messages look like on Discord: names shown literally, who is pinged, long texts split."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.adapters.discord_bot import (
    MAX_DESCRIPTION,
    MAX_MESSAGES,
    PLATFORM,
    message_parts,
    split_lines,
)
from bot.commands import Command
from bot.replies import ChatTarget, Reply
from bot.service import ChatRef, UserRef

pytestmark = pytest.mark.timeout(30)

DOCS = Path(__file__).parents[2] / "docs" / "discord.md"


async def test_names_neither_ping_nor_format(harness):
    """A player called "@everyone" or "**x**" is shown literally; only our own pings notify."""
    fake = harness.fake
    loud = fake.add_user("@everyone")
    bold = fake.add_user("**x**")
    inter = await harness.slash(bold, "new", game="webfeud", player=str(loud), seed=7)
    invite = [m for m in harness.replies(inter) if m.pings()["users"]][-1]
    assert (
        invite.text
        == f"<@{loud}>: **x** invited you to game #1 (Webfeud); My rack shows your tiles."
    )
    inter = await harness.slash(bold, "pass")
    news, ping = [m for m in harness.replies(inter) if m.public]
    assert "**x**: pass" in news.text  # as the channel reads it
    assert "**x**" not in news.content  # escaped: not bold
    assert ping.content == f"<@{loud}>, your turn in game #1."
    await harness.slash(loud, "games")
    sent = [m for m in fake.messages.values() if not m.deleted and (m.content or m.embeds)]
    assert any("@everyone" in m.text.replace("\u200b", "") for m in sent)
    for msg in sent:
        assert msg.allowed_mentions is not None, msg.content  # every message says whom it pings
        assert "@everyone" not in msg.content
        assert "**x**" not in msg.content
        who = msg.pings()
        assert not who["everyone"]
        assert not who["roles"]
        assert who["users"] <= ({str(loud)} if msg in (ping, invite) else set()), msg.content


async def test_a_long_list_is_split_at_line_ends_over_several_embeds(harness):
    """/games with 90 games: every game's whole line arrives, none cut, within Discord's limits.

    (It lists the 50 most recently active, then the numbers of the others.)
    """
    fake = harness.fake
    chat = ChatRef(PLATFORM, str(fake.channel_id), "games")
    joiner = fake.add_user("Ω" * 32)
    for n in range(1, 91):
        host = fake.add_user("Ω" * 32)
        user = UserRef(PLATFORM, str(host), "Ω" * 32)
        await harness.bot.service.execute(chat, user, Command("new", game_key="smartfeud"))
        who = UserRef(PLATFORM, str(joiner), "Ω" * 32)
        await harness.bot.service.execute(chat, who, Command("join", game_id=n))
    inter = await harness.slash(joiner, "games")
    public = [m for m in harness.replies(inter) if m.public]
    assert len(public) >= 2
    assert fake.errors == []
    lines = "\n".join(e["description"] for m in public for e in m.embeds).split("\n")
    assert lines[0] == "Games here:"
    for line in lines[1:-1]:
        assert re.fullmatch(
            r"#\d+ SmartFeud: Ω{32}(-\d+)? vs Ω{32}(-\d+)? \(waiting to start\)", line
        ), line
    assert [int(line.split()[0][1:]) for line in lines[1:-1]] == list(range(41, 91))
    assert lines[-1] == "… and 40 more, idle longest: #1, #2, #3, #4, #5, #6, #7, #8, …"


def test_a_text_too_long_for_the_messages_ends_with_what_was_left_out():
    """Past MAX_MESSAGES messages of embeds, the last says how many lines are not shown."""
    text = "\n".join(f"line {n} " + "x" * 90 for n in range(1000))
    parts = message_parts(Reply(ChatTarget(1, PLATFORM, "1"), text))
    assert len(parts) == MAX_MESSAGES
    descriptions = [p.embeds[0].description or "" for p in parts]
    assert all(len(d) <= MAX_DESCRIPTION for d in descriptions)
    shown = sum(len(d.split("\n")) for d in descriptions) - 1  # every line but the note
    assert descriptions[-1].endswith(f"… and {1000 - shown} more lines")
    assert descriptions[0].startswith("line 0 ")


def test_every_chunk_keeps_to_the_limit_exactly():
    """Later chunks are measured like the first: one that lands on the limit is not one over."""
    assert split_lines("xxxxxx\nyyyyyy\naaaaa\nbbbbb", 11) == ["xxxxxx", "yyyyyy", "aaaaa\nbbbbb"]
    assert split_lines("b" * 2048 + "\n" + "c" * 2047, 4096) == ["b" * 2048 + "\n" + "c" * 2047]
    text = "\n".join(["a" * 4000, "b" * 2048, "c" * 2048])
    chunks = split_lines(text, MAX_DESCRIPTION)
    assert [len(c) for c in chunks] == [4000, 2048, 2048]
    parts = message_parts(Reply(ChatTarget(1, PLATFORM, "1"), text))
    assert all(len(p.embeds[0].description or "") <= MAX_DESCRIPTION for p in parts)


async def test_the_docs_list_the_buttons_under_a_finished_game(harness):
    """docs/discord.md's Buttons table names the buttons the game-over message really has."""
    await harness.slash(harness.alice, "new", game="webfeud", player=str(harness.bob))
    inter = await harness.slash(harness.alice, "resign")
    over = next(m for m in harness.replies(inter) if m.public and "is over" in m.text)
    labels = [item["label"] for row in over.components for item in row["components"]]
    assert labels == ["Rematch"]
    rows = [ln for ln in DOCS.read_text(encoding="utf-8").splitlines() if ln.startswith("|")]
    row = next(ln for ln in rows if "a finished game" in ln)
    assert re.findall(r"\*\*([^*]+)\*\*", row.split("|")[2]) == labels

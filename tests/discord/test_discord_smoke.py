"""Smoke: the real bot logs in, syncs its commands and answers /help."""

from __future__ import annotations


async def test_help_answers_in_the_channel(harness):
    """/help is acknowledged, then answered in the channel by editing the thinking message."""
    inter = await harness.slash(harness.alice, "help")
    msgs = harness.replies(inter)
    assert len(msgs) == 1
    assert msgs[0].public
    assert "/new" in msgs[0].text
    # The quick start's examples are written as Discord's slash commands take them.
    assert "/new game:Webfeud bot:easy" in msgs[0].text
    assert "bot=easy" not in msgs[0].text

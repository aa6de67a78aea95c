"""QA (a group that has played for weeks): people who rename themselves keep their record."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.timeout(30)


async def test_a_name_changed_and_changed_back_shows_the_current_name(tg, people) -> None:
    """Carol (no @username) renames herself and then back: the bot shows the name she has now."""
    carol = people.carol
    await tg.say(carol, "/new webfeud bot=easy seed=4")
    await tg.say(carol, "/resign")
    carol["first_name"] = "Caro"
    calls = await tg.say(carol, "/stats")
    assert calls[-1].text.startswith("Caro:"), calls[-1].text
    carol["first_name"] = "Carol"
    calls = await tg.say(carol, "/stats")
    assert calls[-1].text.startswith("Carol:"), calls[-1].text
    calls = await tg.say(people.alice, "/leaderboard")
    assert "Carol" in calls[-1].text, calls[-1].text
    assert "Caro:" not in calls[-1].text, calls[-1].text
    stored = await tg.db.users.get_user_by_platform_id("telegram", str(carol["id"]))
    assert stored is not None
    assert stored.display_name == "Carol"
    assert tg.errors == []


async def test_a_person_renamed_while_away_is_invited_under_the_new_name(tg, people) -> None:
    """Carol, seen as "Carol", is "Caro" when picked from the mention menu: the game says Caro."""
    carol = people.carol
    await tg.say(carol, "/help")
    carol["first_name"] = "Caro"
    calls = await tg.say(people.alice, "/new webfeud Caro seed=2", mentions={"Caro": carol})
    started = [c.text for c in calls if "has started" in c.text]
    assert started, [c.text for c in calls]
    assert "alice vs Caro." in started[0], started[0]
    assert tg.errors == []

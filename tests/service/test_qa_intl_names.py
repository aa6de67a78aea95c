"""QA (an international group of friends): names in many scripts in the chat's messages.

A Hebrew or Arabic name must not turn the message it is in around, two names that look the
same must be told apart, and two that differ only in an accent must not be.
"""

from __future__ import annotations

from bot.core.words import FSI, PDI
from bot.replies import Reply
from bot.service import ChatRef, UserRef
from tests.support import rtl_outside_isolates

TG = "telegram"


def texts(replies: list[Reply]) -> list[str]:
    """Return the lines of the replies' texts (a chat lays each line out on its own)."""
    return [line for reply in replies for line in reply.text.splitlines()]


async def test_a_right_to_left_name_never_turns_a_message_around(service) -> None:
    """Hebrew and Arabic names (and a Hebrew group title) stand in bidi isolates in every message.

    Unisolated, "… — alice 14 tiles, דוד כהן 14 tiles, محمد 14 tiles" showed the Arabic name
    before the Hebrew one, "14" on the wrong side of each, and a line starting with a name
    ("#1 דוד כהן: resigned") right-aligned and reversed.
    """
    group = ChatRef(TG, "-100", "חברים")
    alice, david, mohammed = (
        UserRef(TG, "1", "alice", handle="alice"),
        UserRef(TG, "2", "דוד כהן"),
        UserRef(TG, "3", "محمد"),
    )
    said = texts(await service.handle(group, alice, "/new rummikub"))
    said += texts(await service.handle(group, david, "/join"))
    said += texts(await service.handle(group, mohammed, "/join"))
    started = texts(await service.handle(group, alice, "/start"))
    assert any(
        f"alice vs {FSI}דוד כהן{PDI} vs {FSI}محمد{PDI}. alice to move." in line for line in started
    ), started
    said += started
    said += texts(await service.handle(group, alice, "/resign"))
    said += texts(await service.handle(group, david, "/resign"))
    said += texts(await service.handle(group, alice, "/leaderboard"))
    said += texts(await service.handle(group, david, "/stats"))
    said += texts(await service.handle(group, alice, "/stats"))
    # Names typed for people not known yet are echoed back set apart too.
    said += texts(await service.handle(group, alice, "/stats @דנה"))
    said += texts(await service.handle(group, alice, "/new webfeud @ناشناس"))
    assert f"Leaderboard of {FSI}חברים{PDI} — all games" in said
    assert any(f"I do not know @{FSI}דנה{PDI} yet" in line for line in said)
    assert [line for line in said if rtl_outside_isolates(line)] == []


async def test_a_groups_title_cannot_reverse_the_message_it_is_named_in(service) -> None:
    """A title with a right-to-left override is shown without it: "Leaderboard of club — …"."""
    group = ChatRef(TG, "-100", "\u202eclub")
    alice = UserRef(TG, "1", "alice", handle="alice")
    [board] = await service.handle(group, alice, "/leaderboard")
    assert board.text.splitlines()[0] == "Leaderboard of club — all games"


async def test_names_that_look_the_same_are_told_apart_and_an_accent_tells_names_apart(
    service,
) -> None:
    """Zoë typed with a combining diaeresis is "Zoë-2" beside "Zoë"; "Zoe" is not numbered.

    Telegram users without a username are known by their full name: both Zoës would read
    "Zoë vs Zoë", nobody knowing whose turn it is. Case does not tell names apart either,
    in Cyrillic as in Latin letters.
    """
    group = ChatRef(TG, "-100")
    seated = [
        ("Zoë", "Zoe\u0308", "Zoë vs Zoë-2"),
        ("Zoë", "Zoe", "Zoë vs Zoe"),
        ("Дмитрий", "ДМИТРИЙ", "Дмитрий vs ДМИТРИЙ-2"),
    ]
    for n, (first, second, shown) in enumerate(seated):
        one, two = UserRef(TG, f"{n}1", first), UserRef(TG, f"{n}2", second)
        await service.handle(group, one, "/new webfeud")
        replies = await service.handle(group, two, "/join")
        started = next(r for r in replies if r.kind == "game_started")
        assert f"has started: {shown}." in started.text, started.text
        await service.handle(group, one, "/resign")


async def test_a_name_of_blank_letters_is_called_player(service) -> None:
    """Names that look empty ("ㅤ", a Hangul filler; "⠀⠀", Braille blanks) read "player".

    Before: "Game #1 (Webfeud) has started: ㅤ vs ⠀⠀. ㅤ to move." — nobody could tell who
    was to move, while the images already drew "player 1" and "player 2".
    """
    group = ChatRef(TG, "-100")
    one, two = UserRef(TG, "1", "\u3164"), UserRef(TG, "2", "\u2800\u2800")
    await service.handle(group, one, "/new webfeud")
    replies = await service.handle(group, two, "/join")
    started = next(r for r in replies if r.kind == "game_started")
    assert "has started: player vs player-2. player to move." in started.text, started.text


async def test_an_invite_by_name_ignores_case_in_every_script(service) -> None:
    """Alice types "@дмитрий" for Дмитрий (no username), as "@bob" finds Bob.

    Before: "I do not know @дмитрий yet: people are known once they have written to me.",
    though Дмитрий had played in the group: only ASCII letters were matched without case.
    """
    group = ChatRef(TG, "-100")
    alice, dima = UserRef(TG, "1", "alice", handle="alice"), UserRef(TG, "2", "Дмитрий")
    await service.handle(group, dima, "/new webfeud bot=easy")
    await service.handle(group, dima, "/resign")
    created = (await service.handle(group, alice, "/new webfeud @дмитрий"))[0]
    assert created.text.startswith("Game #2 (Webfeud) created with alice, Дмитрий."), created.text

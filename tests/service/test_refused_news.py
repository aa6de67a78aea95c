"""A game's public news its chat refused, for its players privately (Service.news_for_players)."""

from __future__ import annotations

from bot.replies import ChatTarget, Reply, UserTarget
from bot.service import ChatRef, Service, UserRef

GROUP = ChatRef("discord", "500", "#games")
ALICE = UserRef("discord", "1001", "alice")
BOB = UserRef("discord", "1002", "bob")
CAROL = UserRef("discord", "1003", "carol")


async def _game_of_three(service: Service) -> None:
    for user in (BOB, CAROL):
        await service.handle(GROUP, user, "/help")
    await service.handle(GROUP, ALICE, "/new smartfeud @bob @carol")
    await service.handle(GROUP, ALICE, "/start")


async def test_the_news_goes_to_every_player_or_to_those_it_mentions(service):
    """Everyone seated gets a copy, with why; a mention's copy goes to its users only."""
    await _game_of_three(service)
    news = Reply(ChatTarget(0, "discord", "500"), "#1 alice: passed.", event={"game_id": 1})
    copies = await service.news_for_players(news)
    assert sorted(c.to.platform_user_id for c in copies if isinstance(c.to, UserTarget)) == [
        "1001",
        "1002",
        "1003",
    ]
    assert {c.text for c in copies} == {
        "I may not post in #games (a server admin can give me Send Messages there), so this "
        "news of game #1 (SmartFeud) comes here:\n#1 alice: passed."
    }
    copies = await service.news_for_players(news, ["1002"])
    assert [c.to.platform_user_id for c in copies if isinstance(c.to, UserTarget)] == ["1002"]
    assert await service.news_for_players(Reply(news.to, "Welcome!", event={})) == []

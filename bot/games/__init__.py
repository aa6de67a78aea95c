"""The games, pure rules only; `GAMES` is the registry keyed by game name."""

from __future__ import annotations

from bot.core.game import GameDef
from bot.games.nmbr9 import NMBR9
from bot.games.numfeud import NUMFEUD
from bot.games.rummikub import RUMMIKUB
from bot.games.smartfeud import SMARTFEUD
from bot.games.webfeud import WEBFEUD

GAMES: dict[str, GameDef] = {
    game.key: game for game in (WEBFEUD, RUMMIKUB, NUMFEUD, SMARTFEUD, NMBR9)
}

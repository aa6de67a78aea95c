"""The contract every game implements (OpenSpiel's game/state split).

A `GameDef` describes one game (options, player counts, notation, timeouts) and makes states;
a state is immutable: `state.apply(seat, move)` returns a new state. The core knows seats
(0..n-1), never chat users; mapping users to seats is the service's job.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, ClassVar, Protocol, Self

from bot.core.errors import InvalidMove, Reason, RuleError
from bot.core.words import clip, quoted

JSON = dict[str, Any]


RESIGNED = "resigned"  # the text of a resignation's record in every game

# Why a game ended, in a chat's words: "Game #3 is over (all rounds played)".
ENDINGS = {
    "out": "a player went out",
    "passes": "passes in a row",
    "resign": "resigned",
    "timeout": "time ran out",
    "quit": "everyone quit",
    "pool": "the pool ran out",
    "full": "a full inventory could not be laid",
    "blocked": "the bag is empty and everyone passed",
    "complete": "all rounds played",
}


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended: final scores, the winning seats, and why it ended."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    reason: str  # a key of ENDINGS: "out", "passes", "resign", "timeout", …

    @property
    def ending(self) -> str:
        """Say why the game ended ("all rounds played"): the words of ENDINGS for the reason."""
        return ENDINGS.get(self.reason, self.reason)

    def to_json(self) -> JSON:
        """Return a JSON-ready dict."""
        return {"scores": list(self.scores), "winners": list(self.winners), "reason": self.reason}

    @classmethod
    def from_json(cls, data: JSON) -> Outcome:
        """Rebuild from `to_json` output."""
        return cls(tuple(data["scores"]), tuple(data["winners"]), data["reason"])


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """One move of a game as everybody may see it (a swap hides its tiles).

    `text` is the move's notation where it may be shown (it replays with the game's
    `parse_move`); `label`, when set, is what people read instead because the notation alone
    says too little (NMBR 9: "9 at L12 0 on level 1", where the notation is "L12 0").
    """

    seat: int
    text: str
    score: int
    cells: tuple[int, ...] = ()  # board cells the move covered, for highlighting
    words: tuple[str, ...] = ()
    label: str = ""

    @property
    def shown(self) -> str:
        """Return the words a chat reads for this move."""
        return self.label or self.text

    def to_json(self) -> JSON:
        """Return a JSON-ready dict (`label` only when set, as records stored before it)."""
        data: JSON = {
            "seat": self.seat,
            "text": self.text,
            "score": self.score,
            "cells": list(self.cells),
            "words": list(self.words),
        }
        if self.label:
            data["label"] = self.label
        return data

    @classmethod
    def from_json(cls, data: JSON) -> MoveRecord:
        """Rebuild from `to_json` output."""
        return cls(
            data["seat"],
            data["text"],
            data["score"],
            tuple(data["cells"]),
            tuple(data["words"]),
            data.get("label", ""),
        )


def best_moves(history: Sequence[MoveRecord]) -> list[tuple[MoveRecord, tuple[int, ...]]]:
    """Return a game's top-scoring moves, earliest first, each once with the seats that made it.

    The same move by several seats (NMBR 9's shared tiles: one placement, one score) is one
    entry. None if nothing scored; a tile a deadline placed was nobody's choice and counts not.
    """
    chosen = [r for r in history if r.score > 0 and "deadline" not in r.words]
    top = max((r.score for r in chosen), default=0)
    seats: dict[str, list[int]] = {}
    first: dict[str, MoveRecord] = {}
    for record in chosen:
        if record.score == top:
            first.setdefault(record.shown, record)
            who = seats.setdefault(record.shown, [])
            if record.seat not in who:
                who.append(record.seat)
    return [(record, tuple(seats[shown])) for shown, record in first.items()]


class Move(Protocol):
    """A move value; `str(move)` is its canonical notation, which `parse_move` reads back."""

    def __str__(self) -> str: ...


@dataclass(frozen=True, slots=True)
class Resign:
    """Give up the game: the same move in every game (what it costs is each game's rule)."""

    def __str__(self) -> str:
        return "resign"


@dataclass(frozen=True, slots=True)
class Pass:
    """Play nothing this turn (what else happens is each game's rule: Numfeud draws a tile)."""

    def __str__(self) -> str:
        return "pass"


def move_words(text: str, usage: str) -> tuple[list[str], Pass | Resign | None]:
    """Split a typed move into words; also return it as `pass` or `resign` when it is one.

    Raises:
        InvalidMove: if nothing was typed (the message shows `usage`, the game's short notation).
    """
    words = text.split()
    if not words:
        raise InvalidMove(f"Say what to play, e.g. {usage}")
    if len(words) == 1:
        word = words[0].lower()
        if word == "pass":
            return words, Pass()
        if word == "resign":
            return words, Resign()
    return words, None


class GameState(Protocol):
    """What the service, the renderers and the AI may rely on for any game."""

    @property
    def game_key(self) -> str:
        """The key of this game in `GAMES`."""
        ...

    @property
    def players(self) -> int:
        """The number of seats."""
        ...

    @property
    def scores(self) -> tuple[int, ...]:
        """The current score of each seat."""
        ...

    @property
    def turn(self) -> int:
        """The number of turns played so far."""
        ...

    @property
    def outcome(self) -> Outcome | None:
        """The final result, or None while the game goes on."""
        ...

    @property
    def history(self) -> tuple[MoveRecord, ...]:
        """The public record of every move."""
        ...

    def waiting_for(self) -> tuple[int, ...]:
        """Return the seats that may move now (empty once the game is over)."""
        ...

    def rack(self, seat: int) -> tuple[str, ...]:
        """Return the private tiles of `seat` (tile codes)."""
        ...

    def apply(self, seat: int, move: Any) -> Self:  # noqa: ANN401 - each game has its own move type
        """Return the state after `seat` plays `move`; raise `RuleError` if illegal."""
        ...

    def view(self, seat: int | None) -> JSON:
        """Return what `seat` may see (None: a spectator); other racks are hidden.

        Every game's view has ``"history"``: the `MoveRecord` JSON of the moves the viewer may
        see (NMBR 9 keeps the round being played back), which /history lists.
        """
        ...

    def to_json(self) -> JSON:
        """Return the full state as JSON-ready data with a ``"v"`` schema version."""
        ...

    def check_invariants(self) -> None:
        """Raise `InvariantError` if the state breaks a rule of its game (tiles, scores)."""
        ...


def ranks(
    scores: Sequence[int], winners: Iterable[int], left: Iterable[int] = ()
) -> tuple[int, ...]:
    """Rank seats: winners first, then those who played to the end, then by score.

    Equal standing shares a rank (1, 1, 3); a seat that `left` (resigned while the others
    played on) ranks below every seat that stayed, whatever its score.
    """
    won, gone = set(winners), set(left)
    key = [(seat in won, seat not in gone, score) for seat, score in enumerate(scores)]
    return tuple(1 + sum(other > mine for other in key) for mine in key)


def signed(points: int) -> str:
    """Write a change of score as messages and images do: "+5", "−5" (a minus sign), "0"."""
    if points < 0:
        return f"−{-points}"
    return f"+{points}" if points else "0"


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One `name=value` option of a game, with its allowed values."""

    name: str
    choices: tuple[str, ...]
    default: str
    help: str = ""


@dataclass(frozen=True, slots=True)
class GameDef(ABC):
    """A game in the registry: how to start, read and time it."""

    key: str
    title: str
    min_players: int
    max_players: int
    options: tuple[OptionSpec, ...] = field(default=())
    tagline: str = ""  # what kind of game it is, for newcomers, in a few words (≤ 45 characters)

    @abstractmethod
    def new_game(self, players: int, *, seed: int, options: Mapping[str, str]) -> GameState:
        """Deal a new game for `players` seats, shuffled from `seed`."""

    @abstractmethod
    def parse_move(self, text: str) -> Move:
        """Parse a move in this game's notation; raise `InvalidMove` with the expected form."""

    @abstractmethod
    def from_json(self, data: JSON) -> GameState:
        """Rebuild a state from `to_json` output."""

    @abstractmethod
    def notation_help(self) -> str:
        """Return a short summary of the move notation, with examples."""

    def turn_timeout(self, options: Mapping[str, str]) -> timedelta | None:
        """Return how long a player has for a turn (None: no limit)."""
        return None

    def turns_left(self, state: GameState) -> int | None:
        """Return how many turns are left whatever is played, or None (no such count).

        Rummikub's last round, once the pool is empty, ends after a known number of turns.
        """
        return None

    def drawn(self, before: GameState, after: GameState, seat: int) -> tuple[str, ...] | None:
        """Return the tiles `seat` drew from the pile by its move from `before` to `after`.

        None when the game cannot tell them (the service then names new tiles only when nothing
        left the rack); a game that knows which tiles a play or a swap drew says so.
        """
        return None

    def held(self, state: GameState, seat: int) -> tuple[str, ...]:
        """Return the tiles `seat` holds for good: its rack as its last finished turn left it.

        By default its rack; a game whose turn is drafted in steps (Rummikub) leaves out what
        the draft took, so a draft that goes back (a draw, a timeout) is not news.
        """
        return state.rack(seat)

    def how_to_move(self) -> str:
        """Say in a line how a move is written, for newcomers at the deal ("": nothing to add)."""
        return ""

    deadline_task: ClassVar[str] = "Each turn must be played"  # what the deadline is for

    def missed_deadline(self, *, done: bool = False) -> str:
        """Say to the player what a missed deadline does ("you lose the game"); "" if nothing.

        With `done`, what it did, told after the fact ("you lost the game").
        """
        return ""

    def deadline_rule(self, limit: str) -> str:
        """Return the sentence of `/rules` that states the time limit `limit` (e.g. "24 hours")."""
        missed = self.missed_deadline()
        return f"{self.deadline_task} within {limit}" + (f"; if not, {missed}." if missed else ".")

    def on_timeout(self, state: GameState, seat: int) -> GameState:
        """Return the state after `seat` let the turn deadline pass."""
        raise NotImplementedError(f"{self.key} has no turn timeout")

    def draft_step(self, before: GameState, after: GameState) -> bool:
        """Return True when a move only drafted a turn that is still being built.

        The service stores such a step without touching the turn's deadlines and shows the
        drafted position (Rummikub's steps before ``done``); by default every move ends a turn.
        """
        return False

    def seats_in_game(self, state: GameState) -> tuple[int, ...]:
        """Return the seats still playing: all of them unless a game lets players leave early.

        Where a resignation only takes its seat out and the others play on (NMBR 9, SmartFeud
        with three or more), the seats that left are not counted.
        """
        return tuple(range(state.players))

    def ranking(self, state: GameState) -> tuple[int, ...]:
        """Return each seat's place in a finished game (1 is best), as `ranks` orders them.

        A seat that left while the others played on (`seats_in_game`) ranks below them all.
        """
        assert state.outcome is not None
        stayed = self.seats_in_game(state)
        left = [seat for seat in range(state.players) if seat not in stayed]
        return ranks(state.outcome.scores, state.outcome.winners, left)

    def standing(self, state: GameState) -> tuple[int, ...]:
        """Return how well each seat stands in a running game, higher better: the scores.

        A game that scores only at its end says who is ahead otherwise (Rummikub: the smaller
        rack); when no person is left, the bots resign from the lowest standing up.
        """
        return state.scores

    def round_of(self, state: GameState) -> int | None:
        """Return the round of a game whose seats all move at once, or None (one at a time).

        In such a game (NMBR 9) every seat of `waiting_for()` moves privately, in any order,
        and the round ends when all have moved: the service keys the round's deadlines on the
        round instead of the turn, keeps them while the round lasts, and shows a round's moves
        to the chat only once it is over.
        """
        return None

    def try_move(self, state: GameState, seat: int, move: Move) -> GameState:
        """Return the state `/try` reads a move's points from (the move is never stored).

        By default the move applied; a game where an illegal word costs the turn instead of
        being refused (SmartFeud's pro mode) refuses it here, saying what `/play` would cost.
        """
        return state.apply(seat, move)

    pile: ClassVar[str] = "bag"  # where the tiles not dealt yet wait (Rummikub: the pool)
    private: ClassVar[str] = "rack"  # what a player's own picture shows (NMBR 9: their display)
    # Whether `/try` previews a move's points: games whose laid tiles score at once, one seat at
    # a time (Rummikub's draft is its own preview; NMBR 9 has /moves).
    previews: ClassVar[bool] = False
    # Whether a move scores as it is played; Numfeud's scores come only at the end, so its /try
    # says whether a move is legal, not what it scores.
    scores_as_played: ClassVar[bool] = True

    @abstractmethod
    def unseen(self, state: GameState, seat: int) -> tuple[tuple[str, ...], int]:
        """Return the tiles `seat` has not seen and how many of them are still in the pile.

        The tiles come in display order, never in the order they will be drawn; those not in
        the pile are on the other racks. It is what the whole set less the table and `seat`'s
        own rack leaves, so only `seat` may see it (it gives their rack away).
        """

    def rack_note(self, state: GameState, seat: int) -> str:
        """Return what `/rack` adds under `seat`'s tiles in words (e.g. what a blank is), or ""."""
        return ""

    def move_cost(
        self, before: GameState, after: GameState, seat: int, *, done: bool = False
    ) -> str:
        """Say what `seat`'s move from `before` to `after` costs beyond its score, or "".

        Told by `/try` before the move (SmartFeud: "it loses your extra blank: …") and with
        the player's rack after it (`done`: "your extra blank was lost …").
        """
        return ""

    def some_moves(self, state: GameState, seat: int, limit: int = 8) -> tuple[Move, ...]:
        """Return up to `limit` legal moves of `seat`, for `/moves` (none by default)."""
        return ()

    def describe_suggestion(self, state: GameState, seat: int, move: Move) -> str:
        """Say what a move of `some_moves` gives `seat` ("level 2, +16"), or "" (nothing to add).

        `/moves` shows it beside the move, for games whose notation alone does not say it.
        """
        return ""

    def ending_note(self, state: GameState, names: Sequence[str]) -> str:
        """Return one sentence explaining a finished game's result where its scores alone do not.

        The chat's game-over message adds it after the scores: who went out and what the tiles
        left on the racks did, or why the smaller inventory won. `names` has one name per seat.
        "" when the scores say it all (the default) or the game is not over.
        """
        return ""

    def player_span(self, between: str = " to ") -> str:
        """Say how many players the game takes: "2", "1 to 4" (`between` joins a range)."""
        if self.min_players == self.max_players:
            return str(self.min_players)
        return f"{self.min_players}{between}{self.max_players}"

    def check_players(self, players: int) -> None:
        """Raise `RuleError` unless the game can be played by `players` seats."""
        if not self.min_players <= players <= self.max_players:
            raise RuleError(
                Reason.BAD_PLAYER_COUNT,
                f"{self.title} is played by {self.player_span()} players, not {players}: "
                + (
                    f"invite fewer, e.g. /new {self.key} @bob."
                    if players > self.max_players
                    else f"invite someone or add a bot, e.g. /new {self.key} bot=easy."
                ),
            )

    def parse_options(self, given: Mapping[str, str]) -> dict[str, str]:
        """Return every option with its value (defaults filled in); refuse unknown ones."""
        specs = {spec.name: spec for spec in self.options}
        out = {spec.name: spec.default for spec in self.options}
        for name, value in given.items():
            spec = specs.get(name.lower())
            if spec is None:
                known = ", ".join(f"{s.name}=" + "|".join(s.choices) for s in self.options)
                raise RuleError(
                    Reason.BAD_OPTION,
                    f"{self.title} has no option {quoted(name)}. Options: {known}."
                    if known
                    else f"{self.title} has no options; leave {clip(name)}= out.",
                )
            if value.lower() not in spec.choices:
                raise RuleError(
                    Reason.BAD_OPTION,
                    f"{spec.name}={clip(value)} is not allowed. Choose {spec.name}="
                    + "|".join(spec.choices)
                    + ".",
                )
            out[spec.name] = value.lower()
        return out

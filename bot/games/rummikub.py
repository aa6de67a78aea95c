"""Rummikub: melds of number tiles, full table manipulation (../shared/rules/rummikub.txt).

A turn is built in steps on a **draft** kept inside the state (so it survives a restart): each
step moves tiles from the rack or from melds into a meld or a new meld; invalid melds are allowed
while drafting and are marked in `view()`. ``done`` checks the end-of-turn rules and commits the
draft; ``undo`` drops the last step, ``reset`` the whole draft. ``draw`` ends the turn with a tile
from the pool. Melds are numbered from 1 in table order; within a turn the numbers never change
(an emptied meld keeps its number, a new meld takes the next one); ``done`` removes the empty ones.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any, ClassVar, Self, TypeVar

from bot.core.errors import InvalidMove, InvariantError, NoSuchMove, Reason, RuleError
from bot.core.game import (
    JSON,
    RESIGNED,
    GameDef,
    GameState,
    MoveRecord,
    OptionSpec,
    Outcome,
    Resign,
)
from bot.core.notation import notation
from bot.core.tiles import draw, missing_from, new_bag, shortage
from bot.core.words import and_list, quoted
from bot.games.numtiles import (
    COLOURS,
    HIGH,
    JOKER,
    JOKER_PENALTY,
    LOW,
    arrange,
    check_meld,
    colour,
    full_set,
    is_joker,
    joker_face,
    meld_text,
    parse_tile,
    rack_value,
    sort_tiles,
    tile_name,
    tile_order,
)
from bot.games.numtiles import number as tile_number

SCHEMA_VERSION = 1
GAME_KEY = "rummikub"
RACK_SIZE = 14
INITIAL_MELD = 30  # the initial meld must be worth at least this much
TIMEOUT_PENALTY = 3  # tiles drawn by a player who runs out of time
TILE_COUNTS = full_set(copies=2, jokers=2)  # 106 tiles
TIME_LIMITS = {"none": None, "15s": 15, "30s": 30, "60s": 60}

Meld = tuple[str, ...]
Table = tuple[Meld, ...]
Source = tuple[int, str]  # (meld number, tile); meld 0 is the player's rack
_T = TypeVar("_T")


# --- moves -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Put:
    """Move tiles from the rack (meld 0) or from melds into meld `target` (0: a new meld)."""

    target: int
    sources: tuple[Source, ...]

    def __str__(self) -> str:
        tokens = " ".join(f"{meld}:{tile}" if meld else tile for meld, tile in self.sources)
        if self.target:
            return f"{self.target}+{tokens}"
        if all(meld == 0 for meld, _ in self.sources):
            return tokens
        return f"{tokens}>new"


@dataclass(frozen=True, slots=True)
class Split:
    """Split meld `meld` after the tile `after`: the tiles after it become a new meld.

    A joker is ``J``, or ``J=R7``: the joker that stands for R7 there (a meld may hold two).
    """

    meld: int
    after: str

    def __str__(self) -> str:
        return f"split {self.meld} after {self.after}"


Step = Put | Split


@dataclass(frozen=True, slots=True)
class Line:
    """One or more steps typed on one line; with `done` the turn ends after them."""

    steps: tuple[Step, ...]
    done: bool = False

    def __str__(self) -> str:
        parts = [str(step) for step in self.steps]
        if self.done:
            parts.append("done")
        return "; ".join(parts)


@dataclass(frozen=True, slots=True)
class Done:
    """End the turn: the drafted table must be valid."""

    def __str__(self) -> str:
        return "done"


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the last step of the draft."""

    def __str__(self) -> str:
        return "undo"


@dataclass(frozen=True, slots=True)
class Reset:
    """Take back every step of the draft: the tiles go back where they were."""

    def __str__(self) -> str:
        return "reset"


@dataclass(frozen=True, slots=True)
class Draw:
    """Play nothing (any draft is taken back) and draw one tile from the pool."""

    def __str__(self) -> str:
        return "draw"


RummikubMove = Line | Done | Undo | Reset | Draw | Resign

# The rules a player needs before the first turn, for /rules (docs/rules/rummikub.md).
RULES_SUMMARY = (
    "Be the first to lay all your tiles, in groups (one number in 3 or 4 colours) and runs "
    "(3 or more numbers in a row in one colour). Your initial meld must be worth 30 or more, "
    "from your own rack, before you may touch the melds on the table. Cannot or will not lay? "
    "Draw a tile. When the pool is empty everyone plays once more and the rack of least value "
    "wins. "
    "The winner gains the tiles left on the other racks (a joker counts 30); each loser loses "
    "their own."
)
NOTATION_HELP = (
    "Tiles: K B Y R + 1-13 (R5, B13), J = joker. Melds are numbered. R5 R6 R7 new meld; "
    "3+R8 add R8 to meld 3; 3:R8>5 move R8 from meld 3 to 5; 3:R8>new; K6 K7 2:K5 new meld "
    "from rack and table; split 4 after R7 (after a joker: J, or J=R7 for the one standing for "
    "R7); done, undo, reset, draw, resign. One line: "
    "split 1 after R5; 1+R6; done"
)
# The short form errors end with (whole messages fit a Telegram alert; /rules has the rest).
USAGE = "R5 R6 R7 (a new meld), 3+R8 (add R8 to meld 3), done, draw; all of it: /rules rummikub."
TILE_EXAMPLE = "R5 R6 R7 or 3+R8"  # ends the refusal of a token that is not a tile

_CONTROLS: dict[str, RummikubMove] = {
    "done": Done(),
    "undo": Undo(),
    "reset": Reset(),
    "draw": Draw(),
    "pass": Draw(),  # the generic "pass" of other games: a player who will not play draws
    "resign": Resign(),
}
_SPLIT = notation(r"^split\s+(\d+)\s+after\s+(\S+)$", re.IGNORECASE)
_EXTEND = notation(r"^(\d+)\s*\+\s*(.*)$")
_MOVE_TO = notation(r"^(.+?)\s*>\s*(\d+|new)$", re.IGNORECASE)
_SOURCE = notation(r"^(?:(\d+):)?(\S+)$")
# How a line of steps ending in done that `done` refuses begins: a line is all or nothing.
_NOTHING_OF_THE_LINE = "Nothing of this line was played: "


def _parse_sources(text: str) -> tuple[Source, ...]:
    sources: list[Source] = []
    for token in text.replace(",", " ").split():
        word = token.lower()
        if word in _CONTROLS:  # "K10 Y10 R10 done": a step of its own
            raise InvalidMove(
                f"{quoted(token)} is a step of its own: separate steps with ; (R5 R6 R7; {word}) "
                f"or send /{word}."
            )
        match = _SOURCE.match(token)
        if match is None:  # pragma: no cover - \S+ always matches a token
            raise InvalidMove(f"{quoted(token)} is not a tile. Play e.g. {USAGE}")
        meld = int(match.group(1)) if match.group(1) else 0
        if match.group(1) and meld == 0:
            raise InvalidMove(f"Melds are numbered from 1, so {quoted(token)} names no meld.")
        sources.append((meld, parse_tile(match.group(2), TILE_EXAMPLE)))
    if not sources:
        raise InvalidMove(f"Name the tiles to play, e.g. {USAGE}")
    return tuple(sources)


def _split_tile(text: str) -> str:
    """Return the tile a split cuts after: ``R7``, ``J``, or a joker by its tile, ``J=R7``."""
    tile = parse_tile(text, TILE_EXAMPLE)
    face = joker_face(text)
    return f"{JOKER}={face}" if face else tile


def parse_step(text: str) -> Step:
    """Parse one step: ``R5 R6 R7``, ``3+R8``, ``3:R8>5``, ``3:R8>new``, ``split 4 after R7``."""
    # Any space a keyboard sends (the patterns know only ASCII), and commas between tokens, as
    # in a split's "split 4 after R7," too.
    text = " ".join(text.replace(",", " ").split())
    if match := _SPLIT.match(text):
        meld = int(match.group(1))
        if meld == 0:
            raise InvalidMove("Melds are numbered from 1: say e.g. split 4 after R7.")
        return Split(meld, _split_tile(match.group(2)))
    if text.lower().startswith("split"):
        raise InvalidMove("Say which meld to split and after which tile, e.g. split 4 after R7.")
    if match := _EXTEND.match(text):
        target = int(match.group(1))
        if target == 0:
            raise InvalidMove("Melds are numbered from 1: say e.g. 3+R8 to add R8 to meld 3.")
        if not match.group(2):
            raise InvalidMove(f"Say which tiles to add to meld {target}, e.g. {target}+R8 R9.")
        return Put(target, _parse_sources(match.group(2)))
    if match := _MOVE_TO.match(text):
        where = match.group(2).lower()
        target = 0 if where == "new" else int(where)
        if where != "new" and target == 0:
            raise InvalidMove("Melds are numbered from 1: say e.g. 3:R8>5 or 3:R8>new.")
        return Put(target, _parse_sources(match.group(1)))
    return Put(0, _parse_sources(text))


def parse_rummikub_move(text: str) -> RummikubMove:
    """Parse a move: a step, several steps joined by ``;`` (ending in ``done``), or a command."""
    text = text.strip()
    if not text:
        raise InvalidMove(f"Say what to play, e.g. {USAGE}")
    control = _CONTROLS.get(text.lower())
    if control is not None:
        return control
    if text.split(maxsplit=1)[0].lower() in ("swap", "skip"):
        raise NoSuchMove(
            "Rummikub has no swapping or skipping: lay tiles, e.g. R5 R6 R7, or /draw a tile "
            "and end your turn."
        )
    parts = [part.strip() for part in text.split(";")]
    if parts and not parts[-1]:
        parts.pop()  # a trailing ";" is harmless
    done = bool(parts) and parts[-1].lower() == "done"
    if done:
        parts.pop()
    if not parts:
        return Done()
    if not any(parts):
        raise InvalidMove(f"Say what to play, e.g. {USAGE}")
    for part in parts:
        if not part:
            raise InvalidMove(
                "There is nothing between two ';': steps are joined by one, e.g. "
                "R5 R6 R7; 1+R8; done"
            )
        if part.lower() in _CONTROLS:
            raise InvalidMove(
                f"{quoted(part)} cannot stand inside a line of steps; only done may end one, e.g. "
                "split 1 after R5; 1+R6; done"
            )
    return Line(tuple(parse_step(part) for part in parts), done)


# --- applying steps to a draft -----------------------------------------------------------------


def _no_meld(number: int, table: Sequence[Meld]) -> RuleError:
    there = (
        "the table has no melds yet; lay a new one, e.g. R5 R6 R7"
        if not table
        else "there is only meld 1"
        if len(table) == 1
        else f"the melds are numbered 1–{len(table)}"
    )
    return RuleError(Reason.NO_SUCH_MELD, f"There is no meld {number}: {there}.")


def _initial_only(number: int) -> RuleError:
    return RuleError(
        Reason.INITIAL_MELD_FROM_RACK_ONLY,
        f"Your initial meld must come from your own rack: you may change meld {number} only "
        "in a later turn. Lay new melds, e.g. R10 R11 R12.",
    )


def _check_moves_something(step: Put, melds: Sequence[Meld]) -> None:
    """Refuse a step that changes nothing: a tile moved to the meld it is in (``1:R7>1``).

    Moving a whole meld to a new one is a change: the meld goes to the end of the table.
    """
    for meld_no, tile in step.sources:
        if meld_no and meld_no == step.target and tile in melds[meld_no - 1]:
            other = 2 if meld_no == 1 else 1
            raise RuleError(
                Reason.NOTHING_MOVED,
                f"{tile} is already in meld {meld_no}; to move it, name another meld "
                f"({meld_no}:{tile}>{other}) or a new one ({meld_no}:{tile}>new).",
            )


def _joker_faces(meld: Meld, index: int) -> frozenset[str]:
    """Return what the joker at `index` stands for in `meld` as displayed.

    In a run, the tile of its place (R4 J R6: R5); in a group, a colour it lacks (K5 B5 J: Y5
    or R5); in a meld that is neither, nothing.
    """
    tiles = [(i, tile) for i, tile in enumerate(meld) if not is_joker(tile)]
    colours = sorted({colour(tile) for _, tile in tiles})
    starts = {tile_number(tile) - i for i, tile in tiles}
    numbers = {tile_number(tile) for _, tile in tiles}
    faces: set[str] = set()
    if len(colours) == 1 and len(starts) == 1 and LOW <= min(starts) + index <= HIGH:
        faces.add(f"{colours[0]}{min(starts) + index}")
    if len(numbers) == 1 and len(colours) == len(tiles):
        faces.update(f"{c}{min(numbers)}" for c in COLOURS if c not in colours)
    return frozenset(faces)


def _split_point(meld: Meld, step: Split, *, stored: bool) -> int:
    """Return where `step` cuts its meld: after the tile it names.

    A bare ``J`` in a meld with two jokers that could be cut after is refused, naming each by
    the tile it stands for (``J=R5``), unless the step was `stored` before jokers could be named:
    then it meant the first, as it did when it was played.
    """
    which = f"{step.meld} ({meld_text(meld) or 'empty'})"
    face = joker_face(step.after)
    named = [
        i
        for i, tile in enumerate(meld)
        if (is_joker(tile) and face in _joker_faces(meld, i) if face else tile == step.after)
    ]
    if not named:
        raise RuleError(Reason.TILE_NOT_IN_MELD, f"Meld {which} has no {_missing(meld, step)}.")
    cuts = [i + 1 for i in named if i + 1 < len(meld)]
    if not cuts:
        raise RuleError(
            Reason.TILE_NOT_IN_MELD,
            f"{step.after} is the last tile of meld {which}: split after an earlier tile.",
        )
    names = [_one_face(meld, cut - 1, named) for cut in cuts]
    if len(cuts) > 1 and is_joker(step.after) and not stored and all(names):
        forms = " or ".join(f"split {step.meld} after {JOKER}={name}" for name in names)
        raise RuleError(
            Reason.WHICH_JOKER,
            f"Meld {which} has two jokers to split after: name one by the tile it stands for, "
            f"{forms}.",
        )
    return cuts[0]


def _missing(meld: Meld, step: Split) -> str:
    """Say what a split names that its meld lacks: "R7", "joker", "joker standing for R9; …"."""
    face = joker_face(step.after)
    if not face:
        return step.after
    if JOKER not in meld:
        return "joker"
    faces = {f for i, tile in enumerate(meld) if is_joker(tile) for f in _joker_faces(meld, i)}
    jokers = "jokers" if meld.count(JOKER) > 1 else "joker"
    could = (
        f"its {jokers} can stand for {' or '.join(sort_tiles(faces))}"
        if faces
        else f"its {jokers} stand{'' if jokers == 'jokers' else 's'} for no one tile there: "
        f"split {step.meld} after J"
    )
    return f"joker standing for {face}; {could}"


def _one_face(meld: Meld, index: int, jokers: Sequence[int]) -> str:
    """Return a tile the joker at `index` stands for and no other of `jokers` does, or ""."""
    others = {f for i in jokers if i != index for f in _joker_faces(meld, i)}
    return next(iter(sort_tiles(_joker_faces(meld, index) - others)), "")


def apply_step(
    table: Table,
    rack: tuple[str, ...],
    step: Step,
    *,
    committed: int,
    opened: bool,
    stored: bool = False,
) -> tuple[Table, tuple[str, ...]]:
    """Return (table, rack) after one step; melds 1..`committed` were on the table at turn start.

    Before the initial meld (`opened` false) only melds laid this turn may be touched. A
    `stored` step is replayed from a saved draft (see `_split_point`).
    """
    melds = list(table)
    if isinstance(step, Split):
        if not 1 <= step.meld <= len(melds):
            raise _no_meld(step.meld, melds)
        if not opened and step.meld <= committed:
            raise _initial_only(step.meld)
        meld = melds[step.meld - 1]
        cut = _split_point(meld, step, stored=stored)
        melds[step.meld - 1] = meld[:cut]
        melds.append(meld[cut:])
        return tuple(melds), rack

    if step.target and not 1 <= step.target <= len(melds):
        raise _no_meld(step.target, melds)
    if not opened and 1 <= step.target <= committed:
        raise _initial_only(step.target)
    _check_moves_something(step, melds)
    from_rack = [tile for meld, tile in step.sources if meld == 0]
    missing = missing_from(rack, from_rack)
    if missing:
        raise RuleError(
            Reason.TILE_NOT_IN_RACK,
            f"You have {shortage(rack, missing, tile_name)} on your rack; see your tiles with"
            " /rack.",
        )
    new_rack = list(rack)
    for tile in from_rack:
        new_rack.remove(tile)
    moved: list[str] = []
    touched: set[int] = set()
    for meld_no, tile in step.sources:
        if meld_no == 0:
            moved.append(tile)
            continue
        if not 1 <= meld_no <= len(melds):
            raise _no_meld(meld_no, melds)
        if not opened and meld_no <= committed:
            raise _initial_only(meld_no)
        left = list(melds[meld_no - 1])
        if tile not in left:
            raise RuleError(
                Reason.TILE_NOT_IN_MELD,
                f"Meld {meld_no} ({meld_text(left) or 'empty'}) has no {tile}"
                + _joker_for(left, tile, meld_no)
                + ".",
            )
        left.remove(tile)
        melds[meld_no - 1] = tuple(left)
        touched.add(meld_no)
        moved.append(tile)
    for meld_no in touched:
        melds[meld_no - 1] = arrange(melds[meld_no - 1]) if melds[meld_no - 1] else ()
    if step.target:
        melds[step.target - 1] = arrange((*melds[step.target - 1], *moved))
    else:
        melds.append(arrange(moved))
    return tuple(melds), tuple(new_rack)


# --- the state ---------------------------------------------------------------------------------


def final_scores(
    racks: Sequence[Sequence[str]], winners: Sequence[int], left: Sequence[int] = ()
) -> tuple[int, ...]:
    """Score the end: each winner gains the sum of the losers' racks, each loser loses its own.

    A seat that `left` (resigned) never scores better than the worst loser who played on, so
    that giving up early with a small rack does not beat playing on and drawing.
    """
    values = [rack_value(rack) for rack in racks]
    gain = sum(v for seat, v in enumerate(values) if seat not in winners)
    scores = [gain if seat in winners else -v for seat, v in enumerate(values)]
    stayed = [scores[s] for s in range(len(racks)) if s not in winners and s not in left]
    for seat in left:
        scores[seat] = min([scores[seat], *stayed])
    return tuple(scores)


@dataclass(frozen=True, slots=True)
class RummikubState:
    """One Rummikub position, with the mover's draft of the current turn."""

    racks: tuple[tuple[str, ...], ...]
    pool: tuple[str, ...]
    table: Table  # the melds committed at the end of the last turn, numbered from 1
    opened: tuple[bool, ...]  # whether each seat has made its initial meld
    to_move: int
    turn: int  # completed turns
    seed: int
    options: tuple[tuple[str, str], ...] = ()
    draft: tuple[Step, ...] = ()  # steps of the current turn, replayable
    draft_table: Table = ()  # the table as drafted (empty melds keep their numbers)
    draft_rack: tuple[str, ...] = ()  # the mover's rack as drafted
    final_turn: int | None = None  # set when the pool runs out: the game ends at this turn
    scores: tuple[int, ...] = ()
    history: tuple[MoveRecord, ...] = ()
    outcome: Outcome | None = None

    def __post_init__(self) -> None:
        if not self.scores:
            object.__setattr__(self, "scores", (0,) * len(self.racks))

    # -- the contract --

    @property
    def game_key(self) -> str:
        """Return the registry key of the game."""
        return GAME_KEY

    @property
    def players(self) -> int:
        """Return the number of seats."""
        return len(self.racks)

    @property
    def working_table(self) -> Table:
        """Return the table as the mover sees it now: the draft if there is one."""
        return self.draft_table if self.draft else self.table

    def option(self, name: str) -> str:
        """Return the value of a game option (``time``, ``assist``)."""
        return dict(self.options).get(name, _DEFAULTS[name])

    def waiting_for(self) -> tuple[int, ...]:
        """Return the seat to move, or nothing once the game is over."""
        return () if self.outcome else (self.to_move,)

    @property
    def turns_left(self) -> int | None:
        """Return the turns left in the last round (the pool is empty), else None."""
        return None if self.final_turn is None else self.final_turn - self.turn

    def rack(self, seat: int) -> tuple[str, ...]:
        """Return `seat`'s tiles, sorted; for the mover, what its draft leaves on the rack."""
        if self.draft and seat == self.to_move:
            return sort_tiles(self.draft_rack)
        return sort_tiles(self.racks[seat])

    def rack_value(self, seat: int) -> int:
        """Return the end-of-game value of `seat`'s committed rack (a joker counts 30)."""
        return rack_value(self.racks[seat])

    @property
    def left(self) -> tuple[int, ...]:
        """Return the seats that resigned, in order (the others played on, or it ended)."""
        return tuple(record.seat for record in self.history if record.text == RESIGNED)

    def in_game(self) -> tuple[int, ...]:
        """Return the seats still playing: all but those that resigned."""
        left = self.left
        return tuple(s for s in range(self.players) if s not in left)

    def apply(self, seat: int, move: Any) -> Self:  # noqa: ANN401
        """Return the state after `seat` plays `move`; the input is never changed."""
        if self.outcome is not None:
            raise RuleError(Reason.GAME_OVER, "This game is over; start a new one with /new.")
        if not 0 <= seat < self.players:
            raise RuleError(Reason.NOT_A_PLAYER, "You are not playing in this game.")
        if seat in self.left:
            raise RuleError(
                Reason.PLAYER_LEFT, "You resigned from this game; the others play on without you."
            )
        if isinstance(move, Resign):
            return self._resign(seat)
        if seat != self.to_move:
            raise RuleError(Reason.NOT_YOUR_TURN, "It is not your turn; wait for the others.")
        if isinstance(move, Put | Split):
            move = Line((move,))
        if isinstance(move, Line):
            state = self
            for step in move.steps:
                try:
                    state = state._step(step)
                except RuleError as error:
                    used = self._laid_already(state, step, error)
                    if used is None:
                        raise
                    raise used from None
            return state._done(line=True) if move.done else state
        if isinstance(move, Done):
            return self._done()
        if isinstance(move, Undo):
            if not self.draft:
                raise RuleError(
                    Reason.NOTHING_TO_UNDO,
                    "There is no step to undo this turn: nothing is drafted yet. Lay tiles, e.g. "
                    "R5 R6 R7, or /draw.",
                )
            return self._replay(self.draft[:-1])
        if isinstance(move, Reset):
            if not self.draft:
                raise RuleError(
                    Reason.NOTHING_TO_UNDO,
                    "There is nothing to reset this turn: nothing is drafted yet. Lay tiles, "
                    "e.g. R5 R6 R7, or /draw.",
                )
            return self._replay(())
        if isinstance(move, Draw):
            return self._draw(seat)
        raise InvalidMove(f"{move!s} is not a Rummikub move. Play e.g. {USAGE}")

    def meld_verdicts(self) -> list[JSON]:
        """Return each meld of the working table: number, tiles, kind, and what is wrong."""
        out = []
        committed = len(self.table)
        for number, meld in enumerate(self.working_table, start=1):
            verdict = check_meld(meld)
            out.append(
                {
                    "number": number,
                    "tiles": list(meld),
                    "kind": verdict.kind,
                    "valid": verdict.valid or not meld,
                    "problem": "" if verdict.valid or not meld else verdict.problem,
                    "new": number > committed,
                    "changed": number > committed or meld != self.table[number - 1],
                }
            )
        return out

    def view(self, seat: int | None) -> JSON:
        """Return what `seat` may see: the (drafted) table, its own rack, others' rack sizes."""
        sizes = [len(rack) for rack in self.racks]
        if self.draft:
            sizes[self.to_move] = len(self.draft_rack)
        refusal = self._refusal()
        return {
            "game": self.game_key,
            "melds": self.meld_verdicts(),
            "draft": [str(step) for step in self.draft],
            "ready": bool(self.draft) and self.outcome is None and refusal is None,
            "not_a_turn": refusal.message if refusal is not None else "",
            "scores": list(self.scores),
            "to_move": None if self.outcome else self.to_move,
            "turn": self.turn,
            "pool": len(self.pool),
            "rack_sizes": sizes,
            "opened": list(self.opened),
            "rack": list(self.rack(seat)) if seat is not None else None,
            "last_round": self.final_turn is not None,
            "turns_left": self.turns_left,
            "options": dict(self.options),
            "history": [record.to_json() for record in self.history],
            "left": list(self.left),
            "outcome": self.outcome.to_json() if self.outcome else None,
        }

    def to_json(self) -> JSON:
        """Return the whole state (pool order, every rack, the draft) as JSON data."""
        return {
            "v": SCHEMA_VERSION,
            "game": self.game_key,
            "racks": [list(rack) for rack in self.racks],
            "pool": list(self.pool),
            "table": [list(meld) for meld in self.table],
            "opened": list(self.opened),
            "to_move": self.to_move,
            "turn": self.turn,
            "seed": self.seed,
            "options": dict(self.options),
            "draft": [str(step) for step in self.draft],
            "final_turn": self.final_turn,
            "scores": list(self.scores),
            "history": [record.to_json() for record in self.history],
            "outcome": self.outcome.to_json() if self.outcome else None,
        }

    def check_invariants(self) -> None:
        """Raise `InvariantError` unless the 106 tiles are conserved and the scores add up."""
        committed = Counter(t for meld in self.table for t in meld)
        tiles = committed + Counter(self.pool) + Counter(t for r in self.racks for t in r)
        if tiles != Counter(TILE_COUNTS) or tiles.total() != 106:
            raise InvariantError(f"tiles not conserved: {tiles.total()} on turn {self.turn}")
        for number, meld in enumerate(self.table, start=1):
            if not check_meld(meld).valid:
                raise InvariantError(f"committed meld {number} ({meld_text(meld)}) is invalid")
        if self.draft:
            drafted = Counter(t for meld in self.draft_table for t in meld)
            drafted += Counter(self.draft_rack)
            if drafted != committed + Counter(self.racks[self.to_move]):
                raise InvariantError(f"the draft loses or adds tiles on turn {self.turn}")
        if self.outcome is None and not self.pool and self.final_turn is None:
            raise InvariantError("the pool is empty but the last round has not started")
        if len(self.opened) != self.players or len(self.scores) != self.players:
            raise InvariantError("per-seat fields do not match the number of seats")
        if len(set(self.left)) != len(self.left):
            raise InvariantError(f"a seat resigned twice: {self.left}")
        if self.outcome is None and (self.to_move in self.left or len(self.in_game()) < 2):
            raise InvariantError(f"seat {self.to_move} is to move but left, or one seat is left")
        if self.outcome is None:
            if any(self.scores):
                raise InvariantError("scores change only at the end of the game")
        else:
            expected = final_scores(self.racks, self.outcome.winners, self.left)
            if self.scores != expected or self.outcome.scores != expected:
                raise InvariantError(f"final scores {self.scores} should be {expected}")

    # -- steps and the draft --

    def _step(self, step: Step, *, stored: bool = False) -> Self:
        table, rack = apply_step(
            self.working_table,
            self.draft_rack if self.draft else self.racks[self.to_move],
            step,
            committed=len(self.table),
            opened=self.opened[self.to_move],
            stored=stored,
        )
        return replace(self, draft=(*self.draft, step), draft_table=table, draft_rack=rack)

    def _laid_already(self, state: Self, step: Step, error: RuleError) -> RuleError | None:
        """Say that a refused step's rack tiles were laid by an earlier step, or return None.

        `self` is the state before the line, `state` the one `step` was refused on. The player
        holds the tiles, but an earlier step put them on the table: "You have no R5 on your
        rack" would be wrong, so name where they are now and how to take them from there.
        """
        if error.reason is not Reason.TILE_NOT_IN_RACK or not isinstance(step, Put):
            return None
        held = Counter(self.racks[self.to_move])
        wanted = Counter(tile for meld, tile in step.sources if meld == 0)
        short = wanted - Counter(state.rack(self.to_move))
        lacking = wanted - held  # tiles not the player's at all: told as before
        short -= lacking
        if not short:
            return None
        missing = (
            f"You have {shortage(self.racks[self.to_move], lacking, tile_name)} on your rack, and "
            if lacking
            else ""
        )
        before_line = Counter(self.rack(self.to_move))
        in_line = before_line - Counter(state.rack(self.to_move))
        scope = "line" if not short - in_line else "turn"
        places: dict[str, int] = {}
        for tile in short:
            for number, meld in enumerate(state.working_table, start=1):
                was = state.table[number - 1] if number <= len(state.table) else ()
                if meld.count(tile) > was.count(tile):
                    places[tile] = number
                    break
        tiles = sorted(short, key=tile_order)
        one = len(tiles) == 1 and short[tiles[0]] == 1
        melds = sorted({places[t] for t in tiles if t in places})
        where = f"in meld{'' if len(melds) == 1 else 's'} {and_list(str(m) for m in melds)} now"
        head = (
            f"{missing}{and_list(tile_name(t) for t in tiles)} {'is' if one else 'are'} already "
            f"laid earlier in this {scope} ({where})"
        )
        if lacking or (step.target and step.target in melds):
            return RuleError(Reason.TILE_NOT_IN_RACK, f"{head}.")
        them = "it" if one else "them"
        sources = " ".join(f"{places[t]}:{t}" for t in tiles if t in places)
        plain = " ".join(tiles)
        return RuleError(
            Reason.TILE_NOT_IN_RACK,
            f"{head}; to move {them} here, write {sources} instead of {plain}.",
        )

    def _replay(self, steps: tuple[Step, ...]) -> Self:
        state = replace(self, draft=(), draft_table=(), draft_rack=())
        for step in steps:  # steps the draft holds: each was accepted once
            state = state._step(step, stored=True)
        return state

    def _refusal(self) -> RuleError | None:
        """Return why /done would refuse the draft, or None if it makes a turn (or is empty).

        (An initial meld under 30 has valid melds and is still no turn.) The view carries it,
        so that the draft's reply says why without running /done again.
        """
        if not self.draft or self.outcome is not None:
            return None
        try:
            self._done()
        except RuleError as error:
            return error
        return None

    def _done(self, *, line: bool = False) -> Self:
        """End the turn with the draft; `line`: the draft includes a line's steps ending in done.

        A line is all or nothing, so its refusal says that none of it was played and never
        advises /undo, which would take back an earlier step instead.
        """
        seat = self.to_move
        rack = self.racks[seat]
        played = missing_from(self.draft_rack, rack) if self.draft else []
        if not played:
            why = (
                f"{_NOTHING_OF_THE_LINE}your turn would play no tile from your rack. Add one "
                "(e.g. R5 R6 R7 or 3+R8), or /draw."
                if line
                else "You have not played a tile from your rack this turn: lay one (e.g. R5 R6 "
                "R7 or 3+R8), or /draw."
            )
            raise RuleError(Reason.NO_TILE_PLAYED, why)
        # "…providing all sets created are valid at the end of the turn and no unused tiles
        # remain."
        for number, meld in enumerate(self.draft_table, start=1):
            if not meld:
                continue
            verdict = check_meld(meld)
            if not verdict.valid:
                why = (
                    f"{_NOTHING_OF_THE_LINE}it would leave meld {number} ({meld_text(meld)}), "
                    f"which {verdict.problem}. Fix the line and send it again."
                    if line
                    else f"Meld {number} ({meld_text(meld)}) {verdict.problem}. Fix it, /undo or "
                    "/reset."
                )
                raise RuleError(Reason.INVALID_MELD, why)
        if not self.opened[seat]:
            # "…sets with a total sum value of at least 30 points … If a joker is used, it
            # receives the value of the tile that it is substituting."
            value = sum(check_meld(meld).value for meld in self.draft_table[len(self.table) :])
            if value < INITIAL_MELD:
                why = (
                    f"{_NOTHING_OF_THE_LINE}your initial meld would be worth {value}; it must "
                    f"be worth at least {INITIAL_MELD} from your own rack. Add melds to the "
                    "line, or /draw."
                    if line
                    else f"Your initial meld is worth {value}; it must be worth at least "
                    f"{INITIAL_MELD} from your own rack. Add melds, /reset, or /draw."
                )
                raise RuleError(Reason.INITIAL_MELD_TOO_LOW, why)
        table = tuple(meld for meld in self.draft_table if meld)
        record = MoveRecord(seat, str(Line(self.draft, done=True)), 0, words=tuple(played))
        state = replace(
            self,
            table=table,
            racks=_set(self.racks, seat, self.draft_rack),
            opened=_set(self.opened, seat, True),
            draft=(),
            draft_table=(),
            draft_rack=(),
            history=(*self.history, record),
        )
        return state._next_turn(seat)

    def _draw(self, seat: int) -> Self:
        # "If a player cannot or does not wish to place tiles … take a random tile from the
        # tile pool." An empty pool gives nothing: the turn just passes.
        drawn, pool = draw(self.pool, 1)
        racks = _set(self.racks, seat, (*self.racks[seat], *drawn))
        text = "drew a tile" if drawn else "passed (the pool is empty)"
        state = replace(
            self,
            racks=racks,
            pool=pool,
            draft=(),
            draft_table=(),
            draft_rack=(),
            history=(*self.history, MoveRecord(seat, text, 0)),
        )
        return state._next_turn(seat)

    def timeout(self, seat: int) -> Self:
        """The time limit ran out: the tiles go back and `seat` draws three as a penalty."""
        if self.outcome is not None:
            raise RuleError(Reason.GAME_OVER, "This game is over; start a new one with /new.")
        if seat != self.to_move:
            raise RuleError(Reason.NOT_YOUR_TURN, "It is not that player's turn.")
        drawn, pool = draw(self.pool, TIMEOUT_PENALTY)
        n = len(drawn)
        text = (
            f"ran out of time and drew {n} tile{'s' if n != 1 else ''}"
            if n
            else "ran out of time (the pool is empty: nothing drawn)"
        )
        if self.draft:
            text += "; the draft went back"
        state = replace(
            self,
            racks=_set(self.racks, seat, (*self.racks[seat], *drawn)),
            pool=pool,
            draft=(),
            draft_table=(),
            draft_rack=(),
            history=(*self.history, MoveRecord(seat, text, 0)),
        )
        return state._next_turn(seat)

    def _next_seat(self, seat: int) -> int:
        """Return the seat that moves after `seat`, passing over those that left."""
        left, nxt = self.left, (seat + 1) % self.players
        while nxt in left:
            nxt = (nxt + 1) % self.players
        return nxt

    def _next_turn(self, seat: int) -> Self:
        turn = self.turn + 1
        final_turn = self.final_turn
        # "If … all tiles in the pool have been used, each player has just one more turn."
        if final_turn is None and not self.pool:
            final_turn = turn + len(self.in_game())
        state = replace(self, turn=turn, to_move=self._next_seat(seat), final_turn=final_turn)
        if not state.racks[seat]:
            return state._finish((seat,), "out")
        if final_turn is not None and turn >= final_turn:
            return state._finish(state._lowest(self.in_game()), "pool")
        return state

    def _lowest(self, seats: Iterable[int]) -> tuple[int, ...]:
        seats = list(seats)
        best = min(self.rack_value(s) for s in seats)
        return tuple(s for s in seats if self.rack_value(s) == best)

    def _resign(self, seat: int) -> Self:
        """`seat` gives up and leaves the game.

        With two or more others still playing, before the last round, they play on (its rack
        counts against it at the end); else the game ends and the lowest rack among them wins.
        """
        drafting = self.draft and seat == self.to_move  # its draft goes back: nothing was laid
        state = replace(
            self,
            draft=() if drafting else self.draft,
            draft_table=() if drafting else self.draft_table,
            draft_rack=() if drafting else self.draft_rack,
            turn=self.turn + 1,
            history=(*self.history, MoveRecord(seat, RESIGNED, 0)),
        )
        others = [s for s in self.in_game() if s != seat]  # `state` has the resignation
        if len(others) >= 2 and self.final_turn is None:
            return replace(state, to_move=state._next_seat(seat)) if seat == self.to_move else state
        return state._finish(state._lowest(others), "resign")

    def _finish(self, winners: tuple[int, ...], reason: str) -> Self:
        """End the game, scoring the committed racks; a draft left standing goes back.

        (Another seat's resignation can end the game during the mover's draft: nothing of it
        was played, so the final table and racks are the committed ones, as scored.)
        """
        scores = final_scores(self.racks, winners, self.left)
        return replace(
            self,
            draft=(),
            draft_table=(),
            draft_rack=(),
            scores=scores,
            outcome=Outcome(scores, winners, reason),
        )


def _joker_for(meld: Sequence[str], tile: str, meld_no: int) -> str:
    """Say that the meld's joker can stand for `tile`, which was asked for by name, or ""."""
    if tile == JOKER or JOKER not in meld or not check_meld(meld).valid:
        return ""
    real = list(meld)
    real[real.index(JOKER)] = tile
    if not check_meld(real).valid:
        return ""
    return f": its joker can stand for {tile} there; that joker is {meld_no}:J"


def _set(values: tuple[_T, ...], seat: int, value: _T) -> tuple[_T, ...]:
    return (*values[:seat], value, *values[seat + 1 :])


# --- the game definition -----------------------------------------------------------------------

TIME_OPTION = OptionSpec(
    "time", tuple(TIME_LIMITS), "none", "turn time limit; on expiry the tiles go back, draw 3"
)
ASSIST_OPTION = OptionSpec(
    "assist",
    ("off", "on"),
    "off",
    "a casual game: /hint suggests a move, and the bot rearranges the table so your tiles fit",
)
_DEFAULTS = {"time": "none", "assist": "off"}


@dataclass(frozen=True, slots=True)
class RummikubDef(GameDef):
    """The registry entry for Rummikub."""

    scores_as_played: ClassVar[bool] = False  # the racks are scored when the game ends

    def new_game(
        self,
        players: int,
        *,
        seed: int,
        options: Mapping[str, str],
        pool: Sequence[str] | None = None,
    ) -> RummikubState:
        """Deal 14 tiles each; `pool` rigs the tile order (tests), else it is shuffled by seed."""
        self.check_players(players)
        opts = self.parse_options(options)
        tiles = tuple(pool) if pool is not None else new_bag(TILE_COUNTS, seed)
        racks = []
        for _ in range(players):
            dealt, tiles = draw(tiles, RACK_SIZE)
            racks.append(dealt)
        return RummikubState(
            racks=tuple(racks),
            pool=tiles,
            table=(),
            opened=(False,) * players,
            to_move=0,
            turn=0,
            seed=seed,
            options=tuple(sorted(opts.items())),
            final_turn=None if tiles else players,
        )

    def rigged(
        self,
        racks: Sequence[Sequence[str]],
        table: Sequence[Sequence[str]] = (),
        *,
        opened: Sequence[bool] | None = None,
        pool: Sequence[str] | None = None,
        to_move: int = 0,
        options: Mapping[str, str] | None = None,
    ) -> RummikubState:
        """Set up a position (tests, benchmarks): the unused tiles form the pool, sorted.

        With `pool` given, that is the pool (its front is drawn first) and the tiles must add up.
        """
        used = Counter(t for rack in racks for t in rack) + Counter(t for m in table for t in m)
        if pool is None:
            rest = Counter(TILE_COUNTS) - used
            pool = sort_tiles(rest.elements())
        opts = self.parse_options(options or {})
        return RummikubState(
            racks=tuple(tuple(rack) for rack in racks),
            pool=tuple(pool),
            table=tuple(arrange(meld) for meld in table),
            opened=tuple(opened) if opened is not None else (bool(table),) * len(racks),
            to_move=to_move,
            turn=0,
            seed=0,
            options=tuple(sorted(opts.items())),
            final_turn=None if pool else len(racks),
        )

    def parse_move(self, text: str) -> RummikubMove:
        """Parse a Rummikub move."""
        return parse_rummikub_move(text)

    def seats_in_game(self, state: GameState) -> tuple[int, ...]:
        """Return the seats still playing (a resigner leaves while two or more play on)."""
        assert isinstance(state, RummikubState)
        return state.in_game()

    def standing(self, state: GameState) -> tuple[int, ...]:
        """Return minus each rack's value: the smaller rack is ahead (scores come at the end)."""
        assert isinstance(state, RummikubState)
        return tuple(-state.rack_value(seat) for seat in range(state.players))

    def from_json(self, data: JSON) -> RummikubState:
        """Rebuild a state saved by `RummikubState.to_json` (the draft is replayed)."""
        if data.get("v") != SCHEMA_VERSION or data.get("game") != self.key:
            raise ValueError(f"not a {self.key} state of schema {SCHEMA_VERSION}")
        state = RummikubState(
            racks=tuple(tuple(rack) for rack in data["racks"]),
            pool=tuple(data["pool"]),
            table=tuple(tuple(meld) for meld in data["table"]),
            opened=tuple(data["opened"]),
            to_move=data["to_move"],
            turn=data["turn"],
            seed=data["seed"],
            options=tuple(sorted(data["options"].items())),
            final_turn=data["final_turn"],
            scores=tuple(data["scores"]),
            history=tuple(MoveRecord.from_json(r) for r in data["history"]),
            outcome=Outcome.from_json(data["outcome"]) if data["outcome"] else None,
        )
        return state._replay(tuple(parse_step(text) for text in data["draft"]))

    def notation_help(self) -> str:
        """Return the rules a player needs in brief, then the move notation with examples."""
        return f"{RULES_SUMMARY}\n{NOTATION_HELP}"

    def turns_left(self, state: GameState) -> int | None:
        """Return the turns left once the pool is empty (the last round), else None."""
        assert isinstance(state, RummikubState)
        return state.turns_left

    def held(self, state: GameState, seat: int) -> tuple[str, ...]:
        """Return `seat`'s committed rack: the mover's draft tiles count as still held."""
        assert isinstance(state, RummikubState)
        return sort_tiles(state.racks[seat])

    def how_to_move(self) -> str:
        """Say in a line how a move is written, for newcomers at the deal."""
        return (
            "Lay melds with /play R5 R6 R7 (K black, B blue, Y yellow, R red, J joker), then "
            "/done; or /draw a tile."
        )

    def turn_timeout(self, options: Mapping[str, str]) -> timedelta | None:
        """Return the turn time limit of the ``time`` option (None: no limit, the default)."""
        seconds = TIME_LIMITS.get(options.get("time", "none"))
        return None if seconds is None else timedelta(seconds=seconds)

    def ending_note(self, state: GameState, names: Sequence[str]) -> str:
        """Say where the racks decided the scores, with each rack's value.

        When a player went out, they score what is left on the others' racks; when the pool
        ran out, or a resignation ended a game of three or more, the smallest rack won.
        """
        assert isinstance(state, RummikubState)
        outcome = state.outcome
        stayed = state.in_game()
        if outcome is None or len(stayed) < 2:
            return ""
        if outcome.reason == "out":  # every other rack counts, a resigned one's too
            [out] = [seat for seat in stayed if not state.racks[seat]]
            left = [seat for seat in range(state.players) if seat != out]
            head = f"{names[out]} went out and scores what the other racks hold: "
        elif outcome.reason in ("pool", "resign"):
            left, head = list(stayed), "The rack of least value wins: "
        else:
            return ""
        values = {seat: state.rack_value(seat) for seat in left}
        racks = ", ".join(
            f"{names[seat]} {values[seat]}" for seat in sorted(left, key=values.__getitem__)
        )
        joker = any(JOKER in state.racks[seat] for seat in left)
        note = head + racks + (f" (a joker counts {JOKER_PENALTY})" if joker else "")
        # A resigner scores no better than the worst who played on (`final_scores`): say so
        # where that, not the rack, made the score.
        capped = [s for s in left if s not in stayed and outcome.scores[s] != -values[s]]
        if capped:
            who = and_list(names[s] for s in capped)
            note += f"; {who} resigned, so no better than the worst who played on"
        return note + "."

    def missed_deadline(self, *, done: bool = False) -> str:
        """Say what a missed turn time does (`done`: did): the draft goes back, three tiles drawn.

        "Up to": a pool with fewer left gives what it has (an empty one nothing), which a notice
        sent after the timeout must not contradict.
        """
        if done:
            return f"your tiles went back and you drew up to {TIMEOUT_PENALTY}"
        return f"your tiles go back and you draw up to {TIMEOUT_PENALTY}"

    pile = "pool"

    def unseen(self, state: GameState, seat: int) -> tuple[tuple[str, ...], int]:
        """Return the pool and the other racks as one sorted list, and the pool's size.

        The draft is public: tiles the mover has drafted onto the table are seen, not unseen.
        """
        assert isinstance(state, RummikubState)
        others = [tile for s in range(state.players) if s != seat for tile in state.rack(s)]
        return sort_tiles((*state.pool, *others)), len(state.pool)

    def on_timeout(self, state: Any, seat: int) -> Any:  # noqa: ANN401
        """The player's tiles go back where they were and they draw three tiles."""
        assert isinstance(state, RummikubState)
        return state.timeout(seat)

    def draft_step(self, before: Any, after: Any) -> bool:  # noqa: ANN401
        """Return True for a step, `undo` or `reset`: the same turn goes on, with a draft."""
        return (
            isinstance(after, RummikubState) and after.outcome is None and after.turn == before.turn
        )


RUMMIKUB = RummikubDef(
    key=GAME_KEY,
    title="Rummikub",
    tagline="runs and groups of numbered tiles",
    min_players=2,
    max_players=4,
    options=(TIME_OPTION, ASSIST_OPTION),
)

__all__ = [
    "NOTATION_HELP",
    "RULES_SUMMARY",
    "RUMMIKUB",
    "Done",
    "Draw",
    "Line",
    "Put",
    "Reset",
    "Resign",
    "RummikubDef",
    "RummikubMove",
    "RummikubState",
    "Split",
    "Undo",
    "apply_step",
    "final_scores",
    "parse_rummikub_move",
    "parse_step",
]

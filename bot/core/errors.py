"""Errors a player can read: every `GameError` message is safe to show in a chat."""

from __future__ import annotations

from enum import StrEnum

MAX_MESSAGE = 200


class Reason(StrEnum):
    """Why the rules refused a move (Netskrafl's taxonomy, as names)."""

    # Turn and game state.
    GAME_OVER = "GAME_OVER"
    NOT_YOUR_TURN = "NOT_YOUR_TURN"
    NOT_A_PLAYER = "NOT_A_PLAYER"
    # Placement on a grid (the notation names a start, a direction and every letter, so a
    # placement is always one unbroken line).
    OUT_OF_BOUNDS = "OUT_OF_BOUNDS"
    LETTER_MISMATCH = "LETTER_MISMATCH"
    NO_NEW_TILES = "NO_NEW_TILES"
    WORD_NOT_COMPLETE = "WORD_NOT_COMPLETE"
    WORD_TOO_SHORT = "WORD_TOO_SHORT"
    FIRST_MOVE_NOT_THROUGH_START = "FIRST_MOVE_NOT_THROUGH_START"
    NOT_ADJACENT = "NOT_ADJACENT"
    WORD_NOT_IN_LEXICON = "WORD_NOT_IN_LEXICON"
    # Tiles.
    TILE_NOT_IN_RACK = "TILE_NOT_IN_RACK"
    BAG_TOO_SMALL = "BAG_TOO_SMALL"
    # Options.
    BAD_OPTION = "BAD_OPTION"
    BAD_PLAYER_COUNT = "BAD_PLAYER_COUNT"
    # NMBR 9.
    ALREADY_PLACED = "ALREADY_PLACED"
    NOT_FLAT = "NOT_FLAT"
    ONE_SUPPORTING_TILE = "ONE_SUPPORTING_TILE"
    CAN_STILL_PLACE = "CAN_STILL_PLACE"
    # Number-tile games (Rummikub, Numfeud).
    NO_SUCH_MELD = "NO_SUCH_MELD"
    TILE_NOT_IN_MELD = "TILE_NOT_IN_MELD"
    INVALID_MELD = "INVALID_MELD"
    INITIAL_MELD_TOO_LOW = "INITIAL_MELD_TOO_LOW"
    INITIAL_MELD_FROM_RACK_ONLY = "INITIAL_MELD_FROM_RACK_ONLY"
    NO_TILE_PLAYED = "NO_TILE_PLAYED"
    NOTHING_TO_UNDO = "NOTHING_TO_UNDO"
    NOTHING_MOVED = "NOTHING_MOVED"
    WHICH_JOKER = "WHICH_JOKER"  # a split after "J" in a meld with two jokers it could cut after
    # Rummikub (the Assist option).
    NO_ARRANGEMENT = "NO_ARRANGEMENT"
    # Numfeud.
    CELL_TAKEN = "CELL_TAKEN"
    CELL_EMPTY = "CELL_EMPTY"
    TILE_LOCKED = "TILE_LOCKED"
    TWO_JOKERS = "TWO_JOKERS"
    JOKER_IN_LAST_PLAY = "JOKER_IN_LAST_PLAY"
    INVENTORY_FULL = "INVENTORY_FULL"
    SWAP_LIMIT = "SWAP_LIMIT"
    # SmartFeud (taking a tile from the board, multiplayer resignation).
    TAKE_NOT_ALLOWED = "TAKE_NOT_ALLOWED"
    TAKE_EMPTY_SQUARE = "TAKE_EMPTY_SQUARE"
    TAKEN_TILE_NOT_USED = "TAKEN_TILE_NOT_USED"
    ONLY_TAKEN_TILE = "ONLY_TAKEN_TILE"
    TAKEN_TILE_PUT_BACK = "TAKEN_TILE_PUT_BACK"
    PLAYER_LEFT = "PLAYER_LEFT"
    NOTHING_TO_QUIT = "NOTHING_TO_QUIT"


class GameError(Exception):
    """Base of every error whose `str()` may be shown to a player."""

    def __init__(self, message: str) -> None:
        if len(message) > MAX_MESSAGE:  # a Telegram alert holds 200 characters
            message = message[: MAX_MESSAGE - 1] + "…"
        super().__init__(message)
        self.message = message


class InvalidMove(GameError):
    """The move text could not be parsed; the message shows the expected form."""


class NoSuchMove(InvalidMove):
    """The game has no move of that kind (swapping in Rummikub); the message says what to do."""


class RuleError(GameError):
    """The move was understood, but the rules forbid it."""

    def __init__(self, reason: Reason, message: str) -> None:
        super().__init__(message)
        self.reason = reason


class InvariantError(Exception):
    """A state broke an invariant of its game (a bug, never a player's mistake)."""

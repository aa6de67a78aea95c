"""Conversions between Python values and the column encodings: UTC epoch seconds and JSON text."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any


def utcnow() -> datetime:
    """Return the current time as a timezone-aware UTC datetime."""
    return datetime.now(UTC)


def _check_aware(moment: datetime) -> None:
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"naive datetime {moment!r}: storage needs timezone-aware UTC times")


def to_epoch(moment: datetime) -> int:
    """Return `moment` as whole unix seconds, rounded down (timestamps of things that happened)."""
    _check_aware(moment)
    return math.floor(moment.timestamp())


def to_epoch_ceil(moment: datetime) -> int:
    """Return `moment` as whole unix seconds, rounded up (a deadline must never fire early)."""
    _check_aware(moment)
    return math.ceil(moment.timestamp())


def from_epoch(seconds: int) -> datetime:
    """Return unix seconds as a timezone-aware UTC datetime."""
    return datetime.fromtimestamp(seconds, UTC)


def from_epoch_or_none(seconds: int | None) -> datetime | None:
    """Return unix seconds as a UTC datetime, passing None through."""
    return None if seconds is None else from_epoch(seconds)


def dump_json(value: Mapping[str, Any]) -> str:
    """Encode a JSON object compactly and deterministically (sorted keys)."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def load_json(text: str) -> dict[str, Any]:
    """Decode a JSON object column."""
    value = json.loads(text)
    if not isinstance(value, dict):
        raise ValueError(f"expected a JSON object, got {type(value).__name__}")
    return value

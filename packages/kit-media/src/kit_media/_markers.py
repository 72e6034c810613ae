"""The one-turn "media already delivered" markers: bounded, expiring, thread-safe.

This is the only global mutable state in the kit, and the host contract is why it
exists: a plugin tool delivers media in the middle of a turn, and hermes asks plugins
to transform the final reply at the end of that turn (``transform_llm_output``), in a
different call with nothing but the session id to connect the two.

**One key.** Every operation of :class:`MarkerStore` (arm, consume, clear, is_armed)
turns the session id it is given into the store's key with :func:`marker_key`, the only
normalisation there is, so a marker armed for ``" s-1 "`` is the marker consumed for
``"s-1"``, and no caller can arm under one form and look up under another.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Final

DEFAULT_MAX_MARKERS: Final = 4096
"""Armed sessions kept at most; arming one more evicts the oldest."""

DEFAULT_TTL_SECONDS: Final = 600.0
"""A marker not consumed within this many seconds lapses (the final reply is sent)."""


MAX_KEY_CHARS: Final = 512
"""The longest session id the store keeps (hermes' ids are a few dozen characters)."""


def marker_key(session_id: object) -> str | None:
    """The store key of a session id: the id without surrounding whitespace; ``None``
    for anything that identifies no session (not a str, blank, or longer than
    :data:`MAX_KEY_CHARS`, so the store's memory stays bounded)."""
    if not isinstance(session_id, str) or len(session_id) > 4 * MAX_KEY_CHARS:
        return None
    key = session_id.strip()
    return key if key and len(key) <= MAX_KEY_CHARS else None


class MarkerStore:
    """Session ids armed for one suppression each, oldest first.

    Every operation takes the lock and first drops expired markers, so the store never
    holds more than ``max_markers`` entries nor any older than ``ttl_seconds``. Every
    operation keys by :func:`marker_key`; one given something that is no session id
    does nothing (and reports ``False``).
    """

    def __init__(
        self,
        *,
        max_markers: int = DEFAULT_MAX_MARKERS,
        ttl_seconds: float = DEFAULT_TTL_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if max_markers < 1:
            msg = f"max_markers must be at least 1, got {max_markers}"
            raise ValueError(msg)
        if not ttl_seconds > 0:
            msg = f"ttl_seconds must be positive, got {ttl_seconds}"
            raise ValueError(msg)
        self.max_markers = max_markers
        self.ttl_seconds = ttl_seconds
        self._clock = clock
        self._lock = threading.Lock()
        self._armed: OrderedDict[str, float] = OrderedDict()  # key -> armed at (clock)

    def arm(self, session_id: object) -> bool:
        """Arm (or re-arm, refreshing its age) the session's marker; whether one was armed."""
        return self._keyed(session_id, self._arm_key)

    def consume(self, session_id: object) -> bool:
        """Remove the session's marker; whether one was armed (and fresh)."""
        return self._keyed(session_id, lambda key, _: self._armed.pop(key, None) is not None)

    def clear(self, session_id: object) -> bool:
        """Drop the session's marker without consuming a reply; whether one was armed."""
        return self.consume(session_id)

    def clear_all(self) -> int:
        """Drop every marker; how many there were."""
        with self._lock:
            count = len(self._armed)
            self._armed.clear()
            return count

    def is_armed(self, session_id: object) -> bool:
        """Whether the session has a fresh marker (does not consume it)."""
        return self._keyed(session_id, lambda key, _: key in self._armed)

    def __len__(self) -> int:
        with self._lock:
            self._prune(self._clock())
            return len(self._armed)

    def _keyed(self, session_id: object, action: Callable[[str, float], bool]) -> bool:
        """``action(key, now)`` under the lock after pruning; ``False`` for no session id."""
        key = marker_key(session_id)
        if key is None:
            return False
        with self._lock:
            now = self._clock()
            self._prune(now)
            return action(key, now)

    def _arm_key(self, key: str, now: float) -> bool:
        self._armed.pop(key, None)
        self._armed[key] = now
        while len(self._armed) > self.max_markers:
            self._armed.popitem(last=False)
        return True

    def _prune(self, now: float) -> None:
        deadline = now - self.ttl_seconds
        while self._armed:
            key, armed_at = next(iter(self._armed.items()))
            if armed_at > deadline:
                break
            del self._armed[key]


MARKERS: Final = MarkerStore()
"""The process-wide store the delivery and the two hooks share."""

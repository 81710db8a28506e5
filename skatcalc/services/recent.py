"""A bounded, thread-safe map of what was used last: the shape of most of the app's caches
of derived data (the oldest entry goes when the bound is passed)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Recent(Generic[K, V]):
    """At most ``size`` entries; reading or writing one makes it the newest.

    >>> r: Recent[str, int] = Recent(2)
    >>> r.put("a", 1); r.put("b", 2); r.get("a"); r.put("c", 3)
    1
    >>> r.get("b") is None, r.get("a"), r.get("c")
    (True, 1, 3)
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)

"""A call run in a thread of its own, for work that mostly waits for git while this
process does something else (threading, not concurrent.futures: its import, with
logging's, cost every run ~3 ms)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

_T = TypeVar("_T")


class InThread(Generic[_T]):
    """`call(*args)`, started now; result() waits for it and raises what it raised."""

    def __init__(self, call: Callable[..., _T], *args: object) -> None:
        self._value: _T | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(call, args), daemon=True)
        self._thread.start()

    def _run(self, call: Callable[..., _T], args: tuple[object, ...]) -> None:
        try:
            self._value = call(*args)
        except BaseException as exc:  # raised where the result is asked for
            self._error = exc

    def join(self) -> None:
        self._thread.join()

    def result(self) -> _T:
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._value  # type: ignore[return-value]  # set by _run, which has ended

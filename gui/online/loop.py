"""The qasync event loop the app runs on, keeping asyncio's ``call_at`` contract.

asyncio's ``loop.call_at`` returns a ``TimerHandle`` whose ``when()`` is the time it fires;
``net.client.RelayClient`` re-arms its deadline timer only when that time moved. qasync's
``QEventLoop.call_at`` returns a plain ``Handle`` with no ``when()``, so every commit would raise
``AttributeError``. ``event_loop`` is the qasync loop with ``call_at`` keeping the contract.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from contextvars import Context
from typing import Any

import qasync

__all__ = ["TimedHandle", "event_loop"]


class TimedHandle:
    """A scheduled callback that knows its time, as ``asyncio.TimerHandle`` does."""

    __slots__ = ("_handle", "_when")

    def __init__(self, handle: asyncio.Handle, when: float) -> None:
        self._handle = handle
        self._when = when

    def when(self) -> float:
        return self._when

    def cancel(self) -> None:
        self._handle.cancel()

    def cancelled(self) -> bool:
        return self._handle.cancelled()


class _Loop(qasync.QEventLoop):  # type: ignore[misc]  # qasync has no type hints
    def call_at(
        self,
        when: float,
        callback: Callable[..., Any],
        *args: Any,
        context: Context | None = None,
    ) -> TimedHandle:
        handle = self.call_later(when - self.time(), callback, *args, context=context)
        return TimedHandle(handle, when)


def event_loop(app: Any) -> Any:
    """A qasync event loop over the QGuiApplication ``app`` (qasync's own type: untyped)."""
    return _Loop(app)

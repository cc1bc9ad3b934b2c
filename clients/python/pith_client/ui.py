"""Extension dialogs (protocol.md §8) answered by a host coroutine.

``select`` / ``confirm`` / ``input`` / ``editor`` requests go to the handler; its answer dict
(``{"value": ...}``, ``{"confirmed": ...}`` or ``{"cancelled": True}``) becomes one
``extension_ui_response``; ``None`` or an exception answers ``{"cancelled": True}``. A ``cancel``
request (the dialog timed out or was aborted agent-side) cancels the handler task and
suppresses the answer. Fire-and-forget requests (notify, setStatus, ...) are left to ``on()``.
"""
from __future__ import annotations

import asyncio
import logging
from typing import Any, Awaitable, Callable, Dict, Optional

log = logging.getLogger("pith_client")

DIALOGS = frozenset({"select", "confirm", "input", "editor"})
UiHandler = Callable[[Dict[str, Any]], Awaitable[Optional[Dict[str, Any]]]]


class UiResponder:
    def __init__(self, send: Callable[[Dict[str, Any]], None]) -> None:
        self._send = send
        self._handler: Optional[UiHandler] = None
        self._open: Dict[str, asyncio.Task] = {}

    def set_handler(self, handler: Optional[UiHandler]) -> None:
        self._handler = handler

    def handle_request(self, frame: Dict[str, Any]) -> None:
        method = frame.get("method")
        if method == "cancel":
            task = self._open.pop(frame.get("targetId"), None)
            if task is not None:
                task.cancel()
            return
        if self._handler is None or method not in DIALOGS:
            return
        req_id = frame["id"]
        self._open[req_id] = asyncio.get_running_loop().create_task(self._answer(req_id, frame))

    def abort_all(self) -> None:
        for task in self._open.values():
            task.cancel()
        self._open.clear()

    async def _answer(self, req_id: str, frame: Dict[str, Any]) -> None:
        assert self._handler is not None
        try:
            answer = await self._handler(frame)
        except asyncio.CancelledError:
            return  # the agent cancelled the dialog: no answer
        except Exception:
            log.exception("UI handler failed for %s; answering cancelled", frame.get("method"))
            answer = None
        if self._open.pop(req_id, None) is None:
            return
        body = dict(answer) if answer else {"cancelled": True}
        try:
            self._send({"type": "extension_ui_response", "id": req_id, **body})
        except Exception:  # the agent is gone
            log.warning("could not answer dialog %s", req_id, exc_info=True)

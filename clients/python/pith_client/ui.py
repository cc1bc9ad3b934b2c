"""Extension dialogs (protocol.md §8) answered by host coroutines.

``select`` / ``confirm`` / ``input`` / ``editor`` requests go to a handler; its answer dict
(``{"value": ...}``, ``{"confirmed": ...}`` or ``{"cancelled": True}``) becomes one
``extension_ui_response``; ``None`` or an exception answers ``{"cancelled": True}``. A ``cancel``
request (the dialog timed out or was aborted agent-side) cancels the handler task and
suppresses the answer. Fire-and-forget requests (notify, setStatus, ...) are left to ``on()``.

A dialog of a created session (its frame carries ``sessionId``) goes to that session's handler
when it has one, else to the client's, which also answers the first session's dialogs.
"""
from __future__ import annotations

import asyncio
import logging
from typing import Any, Awaitable, Callable, Dict, Optional, Tuple

log = logging.getLogger("pith_client")

DIALOGS = frozenset({"select", "confirm", "input", "editor"})
UiHandler = Callable[[Dict[str, Any]], Awaitable[Optional[Dict[str, Any]]]]


class UiResponder:
    def __init__(self, send: Callable[[Dict[str, Any]], None]) -> None:
        self._send = send
        #: the client's handler: the first session's, and the fallback of sessions without their own
        self._handler: Optional[UiHandler] = None
        self._session_handlers: Dict[str, UiHandler] = {}
        #: by request id (pith's dialog ids are unique in the process): the handler task and the
        #: session that asked
        self._open: Dict[str, Tuple[asyncio.Task, Optional[str]]] = {}

    def set_handler(self, handler: Optional[UiHandler], session_id: Optional[str] = None) -> None:
        """Installs (``None``: removes) the handler of session ``session_id`` (``None``: the client's)."""
        if session_id is None:
            self._handler = handler
        elif handler is not None:
            self._session_handlers[session_id] = handler
        else:
            self._session_handlers.pop(session_id, None)

    def handle_request(self, frame: Dict[str, Any]) -> None:
        method = frame.get("method")
        if method == "cancel":
            # whichever handler opened the dialog is in ``_open``, so the cancel needs no routing
            self._cancel(frame.get("targetId"))
            return
        session_id = frame.get("sessionId")
        handler = self._session_handlers.get(session_id) if session_id is not None else None
        handler = handler or self._handler
        if handler is None or method not in DIALOGS:
            return
        req_id = frame["id"]
        task = asyncio.get_running_loop().create_task(self._answer(req_id, handler, frame))
        self._open[req_id] = (task, session_id)

    def drop_session(self, session_id: str) -> None:
        """Session ``session_id`` was closed: its handler goes and its open dialogs are cancelled,
        whichever handler has them (nobody waits for their answers any more, so none is sent)."""
        self._session_handlers.pop(session_id, None)
        for req_id in [r for r, (_, owner) in self._open.items() if owner == session_id]:
            self._cancel(req_id)

    def abort_all(self) -> None:
        for req_id in list(self._open):
            self._cancel(req_id)

    def _cancel(self, req_id: Any) -> None:
        """Forgets dialog ``req_id`` (so its answer is never sent) and cancels its handler task."""
        entry = self._open.pop(req_id, None)
        if entry is not None:
            entry[0].cancel()

    async def _answer(self, req_id: str, handler: UiHandler, frame: Dict[str, Any]) -> None:
        try:
            answer = await handler(frame)
        except asyncio.CancelledError:
            return  # the agent cancelled the dialog (or the session closed): no answer
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

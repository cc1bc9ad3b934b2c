"""Host tools (protocol.md §9): python callables the agent can call back into.

The runner answers ``host_tool_call`` with one ``host_tool_result`` (``isError: true`` when the
callable raises), streams ``host_tool_update`` through ``ctx.update``, and cancels the call on
``host_tool_cancel`` (the task gets ``CancelledError`` and ``ctx.cancelled`` is set).
"""
from __future__ import annotations

import asyncio
import inspect
import logging
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Dict, List, Optional, Union

log = logging.getLogger("pith_client")

ToolResult = Dict[str, Any]
Execute = Callable[[Dict[str, Any], "HostToolContext"], Union[Awaitable[Any], Any]]


@dataclass
class HostTool:
    """A tool served by the host. ``execute(args, ctx)`` may be async or a plain function
    (plain functions run in a worker thread). It returns an AgentToolResult dict
    (``{"content": [...], "details": ...}``) or a string (wrapped as one text block)."""

    name: str
    description: str
    parameters: Dict[str, Any]
    execute: Execute
    label: Optional[str] = None
    hidden: Optional[bool] = None
    #: The tool only reads (changes no file, runs no command): it runs in permission mode
    #: "read-only" and without asking in "ask-writes". None or False: it may change anything.
    read_only: Optional[bool] = None

    def definition(self) -> Dict[str, Any]:
        d: Dict[str, Any] = {"name": self.name, "description": self.description, "parameters": self.parameters}
        if self.label is not None:
            d["label"] = self.label
        if self.hidden is not None:
            d["hidden"] = self.hidden
        if self.read_only is not None:
            d["readOnly"] = self.read_only
        return d


@dataclass
class HostToolContext:
    """What ``execute`` receives besides the arguments."""

    call_id: str
    tool_call_id: str
    tool_name: str
    cancelled: asyncio.Event
    _send_update: Callable[[ToolResult], None] = field(repr=False)

    def update(self, partial: Union[ToolResult, str]) -> None:
        """Streams a partial result (thread-safe; ignored once the call has ended)."""
        self._send_update(_as_result(partial))


def _as_result(value: Any) -> ToolResult:
    if isinstance(value, str):
        return {"content": [{"type": "text", "text": value}]}
    if isinstance(value, dict) and isinstance(value.get("content"), list):
        return value
    raise TypeError(f"a host tool must return a str or a dict with a 'content' list, got {type(value).__name__}")


def _error_result(text: str) -> ToolResult:
    return {"content": [{"type": "text", "text": text}]}


class HostToolRunner:
    def __init__(self, send: Callable[[Dict[str, Any]], None]) -> None:
        self._send = send
        self._tools: Dict[str, HostTool] = {}
        self._running: Dict[str, asyncio.Task] = {}
        self._contexts: Dict[str, HostToolContext] = {}

    def register(self, tools: List[HostTool]) -> List[Dict[str, Any]]:
        """Replaces the executors; returns the wire definitions."""
        self._tools = {t.name: t for t in tools}
        return [t.definition() for t in tools]

    @property
    def active_calls(self) -> int:
        return len(self._running)

    def handle_call(self, frame: Dict[str, Any]) -> None:
        call_id = frame["id"]
        tool = self._tools.get(frame.get("toolName", ""))
        if tool is None:
            self._reply(call_id, _error_result(f'No host handler registered for tool "{frame.get("toolName")}"'), True)
            return
        loop = asyncio.get_running_loop()
        ctx = HostToolContext(
            call_id=call_id,
            tool_call_id=frame.get("toolCallId", ""),
            tool_name=tool.name,
            cancelled=asyncio.Event(),
            _send_update=lambda partial: self._update_from_any_thread(loop, call_id, partial),
        )
        self._contexts[call_id] = ctx
        self._running[call_id] = loop.create_task(self._run(tool, frame.get("arguments") or {}, ctx))

    def handle_cancel(self, frame: Dict[str, Any]) -> None:
        target = frame.get("targetId")
        task = self._running.pop(target, None)
        ctx = self._contexts.pop(target, None)
        if ctx is not None:
            ctx.cancelled.set()
        if task is not None:
            task.cancel()

    def abort_all(self) -> None:
        for call_id in list(self._running):
            self.handle_cancel({"targetId": call_id})

    async def _run(self, tool: HostTool, args: Dict[str, Any], ctx: HostToolContext) -> None:
        try:
            if inspect.iscoroutinefunction(tool.execute):
                value = await tool.execute(args, ctx)
            else:
                value = await asyncio.get_running_loop().run_in_executor(None, tool.execute, args, ctx)
                if inspect.isawaitable(value):
                    value = await value
            result, is_error = _as_result(value), False
        except asyncio.CancelledError:
            return  # host_tool_cancel: the agent no longer waits for this call
        except Exception as exc:  # the model sees the message as an isError tool result
            result, is_error = _error_result(str(exc) or type(exc).__name__), True
        if self._running.pop(ctx.call_id, None) is None:
            return
        self._contexts.pop(ctx.call_id, None)
        self._reply(ctx.call_id, result, is_error)

    def _update_from_any_thread(self, loop: asyncio.AbstractEventLoop, call_id: str, partial: ToolResult) -> None:
        try:
            on_loop = asyncio.get_running_loop() is loop
        except RuntimeError:  # no loop in this thread: a sync tool in a worker thread
            on_loop = False
        if on_loop:
            self._update(call_id, partial)
        else:
            loop.call_soon_threadsafe(self._update, call_id, partial)

    def _update(self, call_id: str, partial: ToolResult) -> None:
        if call_id in self._running:
            self._safe_send({"type": "host_tool_update", "id": call_id, "partialResult": partial})

    def _reply(self, call_id: str, result: ToolResult, is_error: bool) -> None:
        frame: Dict[str, Any] = {"type": "host_tool_result", "id": call_id, "result": result}
        if is_error:
            frame["isError"] = True
        self._safe_send(frame)

    def _safe_send(self, frame: Dict[str, Any]) -> None:
        try:
            self._send(frame)
        except Exception:  # the agent is gone; nothing left to answer
            log.warning("could not send %s", frame.get("type"), exc_info=True)

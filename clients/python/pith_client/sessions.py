"""Session commands of issue 19: discovery, the tree, open/delete."""
from __future__ import annotations

import asyncio
from typing import Any, Callable, Dict, List, Optional

from .deep_json import build_tree
from .errors import RpcError
from .host_tools import HostTool
from .ui import UiHandler


class SessionsMixin:
    async def request(self, command: str, /, **params: Any) -> Any:  # provided by PithClient
        raise NotImplementedError

    async def list_sessions(
        self,
        cwd: Optional[str] = None,
        all: Optional[bool] = None,  # noqa: A002 - the wire name
        limit: Optional[int] = None,
        cursor: Optional[str] = None,
        query: Optional[str] = None,
    ) -> Dict[str, Any]:
        """One page of session files, newest first (``nextCursor`` when there are more)."""
        return await self.request("list_sessions", cwd=cwd, all=all, limit=limit, cursor=cursor, query=query)

    async def get_entries(self, since: Optional[str] = None) -> Dict[str, Any]:
        return await self.request("get_entries", since=since)

    async def get_tree(self) -> Dict[str, Any]:
        """The open session's entries as a tree: ``{tree, leafId}``, nodes ``{entry, children, label?}``.

        A tree deeper than pith answers as nested JSON (a long linear session) is nested here from
        ``get_entries`` instead. Either way the result may be thousands of levels deep: walk it with
        ``walk_tree`` (recursive code, ``==`` or ``repr`` on it hit Python's recursion limit).
        """
        try:
            return await self.request("get_tree")
        except RpcError as err:
            if "too deep" not in str(err):
                raise
        page = await self.request("get_entries")
        return {"tree": build_tree(page["entries"]), "leafId": page.get("leafId")}

    async def open_session(self, session_dir: str) -> Dict[str, Any]:
        return await self.request("open_session", sessionDir=session_dir)

    async def delete_session(self, session_path: str) -> Dict[str, Any]:
        return await self.request("delete_session", sessionPath=session_path)

    # ── many sessions in one process ─────────────────────────────────────────

    async def create_session(
        self,
        cwd: Optional[str] = None,
        session_path: Optional[str] = None,
        provider: Optional[str] = None,
        model_id: Optional[str] = None,
        no_session: Optional[bool] = None,
    ) -> Dict[str, Any]:
        """Opens another independent session in the process; returns ``{sessionId, sessionFile?}``."""
        return await self.request(
            "create_session", cwd=cwd, sessionPath=session_path, provider=provider, modelId=model_id, noSession=no_session
        )

    async def close_session(self, session_id: str) -> None:
        """Closes a session opened with create_session; its running host tool calls and open
        dialogs are cancelled, and its dialog handler is dropped."""
        await self.request("close_session", sessionId=session_id)
        runner = self._session_host_tools.pop(session_id, None)  # type: ignore[attr-defined]
        if runner is not None:
            runner.abort_all()
        self._ui.drop_session(session_id)  # type: ignore[attr-defined]

    async def get_open_sessions(self) -> Dict[str, Any]:
        return await self.request("get_open_sessions")

    async def set_subagent_subscription(self, level: str) -> Dict[str, Any]:
        """oh-my-pi: ``"progress"`` writes ``subagent_lifecycle`` and ``subagent_progress`` frames,
        ``"events"`` also ``subagent_event``; ``"off"`` (default) none."""
        return await self.request("set_subagent_subscription", level=level)

    async def get_subagents(self) -> Dict[str, Any]:
        """The task tool's subagents running now: ``{subagents: [...]}``."""
        return await self.request("get_subagents")

    async def get_subagent_messages(
        self, subagent_id: Optional[str] = None, session_file: Optional[str] = None, from_byte: Optional[int] = None
    ) -> Dict[str, Any]:
        """A subagent's session file from byte ``from_byte`` on, by ``subagent_id`` or one of its
        ``session_file``s: ``{sessionFile, fromByte, nextByte, reset, entries, messages}``; pass
        ``nextByte`` back as ``from_byte`` to read on."""
        params: Dict[str, Any] = {}
        if subagent_id is not None:
            params["subagentId"] = subagent_id
        if session_file is not None:
            params["sessionFile"] = session_file
        if from_byte is not None:
            params["fromByte"] = from_byte
        return await self.request("get_subagent_messages", **params)

    def session(self, session_id: Optional[str]) -> "SessionHandle":
        """A handle for one session (``None``: the process's first session)."""
        return SessionHandle(self, session_id)

    async def new_session_handle(self, **params: Any) -> "SessionHandle":
        """``create_session(**params)`` and its handle."""
        created = await self.create_session(**params)
        return self.session(created["sessionId"])


class SessionHandle:
    """One session of a multi-session process: its commands carry ``sessionId``; ``on`` sees only its frames."""

    def __init__(self, client: Any, session_id: Optional[str]) -> None:
        self.client = client
        self.session_id = session_id

    async def request(self, command: str, /, **params: Any) -> Any:
        if self.session_id is not None:
            params["sessionId"] = self.session_id
        return await self.client.request(command, **params)

    def on(self, event_type: str, handler: Callable[[Dict[str, Any]], Any]) -> Callable[[], None]:
        def only_mine(frame: Dict[str, Any]) -> Any:
            if frame.get("sessionId") == self.session_id:
                return handler(frame)
            return None

        return self.client.on(event_type, only_mine)

    async def prompt(self, message: str, images: Optional[list] = None) -> None:
        return await self.request("prompt", message=message, images=images)

    async def abort(self) -> None:
        return await self.request("abort")

    async def get_state(self) -> Dict[str, Any]:
        return await self.request("get_state")

    async def get_messages(self) -> Dict[str, Any]:
        return await self.request("get_messages")

    async def set_model(self, provider: str, model_id: str) -> Dict[str, Any]:
        return await self.request("set_model", provider=provider, modelId=model_id)

    async def get_entries(self, since: Optional[str] = None) -> Dict[str, Any]:
        return await self.request("get_entries", since=since)

    async def set_host_tools(self, tools: List[HostTool]) -> Dict[str, Any]:
        """Registers this session's host tools; their calls run these callables (another session's
        tools, even of the same name, are its own). ``[]`` removes them all."""
        definitions = self.client._host_tools_of(self.session_id).register(tools)
        return await self.request("set_host_tools", tools=definitions)

    def on_ui_request(self, handler: Optional[UiHandler]) -> None:
        """Installs (``None``: removes) the coroutine that answers this session's select/confirm/
        input/editor dialogs; a session without one has its dialogs answered by the client's
        ``on_ui_request``. For the first session this is the client's ``on_ui_request``."""
        self.client._ui.set_handler(handler, self.session_id)

    async def close(self) -> None:
        """Closes this session (not the first one); its open dialogs are cancelled."""
        if self.session_id is None:
            raise ValueError("the first session closes with the process")
        return await self.client.close_session(self.session_id)

    async def prompt_and_wait(self, message: str, timeout: float = 600.0) -> List[Dict[str, Any]]:
        """Prompts and returns the run's messages once this session is idle again."""
        loop = asyncio.get_running_loop()
        messages: List[Dict[str, Any]] = []
        ended = asyncio.Event()

        def on_end(frame: Dict[str, Any]) -> None:
            messages.extend(frame.get("messages") or [])
            ended.set()

        off = self.on("agent_end", on_end)
        deadline = loop.time() + timeout
        try:
            await self.prompt(message)
            while True:
                try:
                    await asyncio.wait_for(ended.wait(), 0.1)
                except asyncio.TimeoutError:
                    pass
                if ended.is_set() and not (await self.get_state())["isStreaming"]:
                    return messages
                if loop.time() > deadline:
                    raise TimeoutError(f"session {self.session_id} did not become idle in time")
        finally:
            off()

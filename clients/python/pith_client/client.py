"""PithClient: drive ``pith --mode rpc`` (or any agent speaking its protocol) from asyncio."""
from __future__ import annotations

import asyncio
import inspect
import logging
import os
import signal
from typing import Any, Awaitable, Callable, Dict, List, Optional, Sequence, Set, Union

from .chunks import ChunkError, FrameReassembler
from .commands import CommandsMixin
from .sessions import SessionsMixin
from .errors import PithClientError, RpcError
from .framing import LineSplitter, encode_frame, parse_frame
from .host_tools import HostToolRunner
from .ui import UiHandler, UiResponder

log = logging.getLogger("pith_client")

Frame = Dict[str, Any]
Handler = Callable[[Frame], Union[None, Awaitable[None]]]
STDERR_CAP = 64 * 1024
WAKE_TYPES = frozenset({"agent_start", "agent_end", "auto_retry_end", "auto_compaction_end"})


class PithClient(SessionsMixin, CommandsMixin):
    """One agent process. Use ``async with await PithClient.start(...) as client:``.

    ``cmd`` is the executable (a string or a list); ``args`` follow it verbatim. Without
    ``cmd`` the client runs ``pith --mode rpc`` from PATH followed by ``args``.
    """

    def __init__(
        self,
        cmd: Union[str, Sequence[str], None] = None,
        args: Optional[Sequence[str]] = None,
        env: Optional[Dict[str, str]] = None,
        cwd: Optional[str] = None,
        *,
        wait_for_ready: bool = True,
        ready_timeout: float = 30.0,
        request_timeout: Optional[float] = None,
        close_grace: float = 5.0,
        on_stderr: Optional[Callable[[str], None]] = None,
        protocol_version: int = 1,
    ) -> None:
        if cmd is None:
            argv = ["pith", "--mode", "rpc"]
        elif isinstance(cmd, str):
            argv = [cmd]
        else:
            argv = list(cmd)
        self.argv: List[str] = argv + list(args or [])
        self.env = env
        self.cwd = cwd
        self.wait_for_ready = wait_for_ready
        self.ready_timeout = ready_timeout
        self.request_timeout = request_timeout
        self.close_grace = close_grace
        self.on_stderr = on_stderr
        self.version: Optional[str] = None
        #: 2: negotiate protocol version 2 after ``ready`` when offered (no stdout line over 1 MiB);
        #: chunks are reassembled and agent_end restored, so handlers see version 1 frames.
        self.protocol_version_requested = protocol_version
        self.protocol_version = 1
        self.ready_frame: Optional[Frame] = None
        self._reassembler = FrameReassembler()
        self._proc: Optional[asyncio.subprocess.Process] = None
        self._stderr = ""
        self._next_id = 1
        self._pending: Dict[str, "asyncio.Future[Any]"] = {}
        self._commands: Dict[str, str] = {}
        self._late: Dict[str, Callable[[RpcError], None]] = {}
        self._listeners: Dict[str, List[Handler]] = {}
        self._any: List[Handler] = []
        self._wakers: Set[asyncio.Event] = set()
        self._tasks: Set[asyncio.Task] = set()
        self._ready: Optional["asyncio.Future[None]"] = None
        self._exited = False
        self._agent_running = False
        self._speaks_prompt_result: Optional[bool] = None
        self._reader: Optional[asyncio.Task] = None
        #: the WebSocket of a client that connected to ``pith serve`` (``connect_url``)
        self._ws: Any = None
        self._ws_out: "Optional[asyncio.Queue[Optional[str]]]" = None
        self._ws_writer: Optional[asyncio.Task] = None
        self._stderr_reader: Optional[asyncio.Task] = None
        self._host_tools = HostToolRunner(self.send)
        #: the host tools of sessions opened with create_session, by sessionId
        self._session_host_tools: Dict[str, HostToolRunner] = {}
        self._ui = UiResponder(self.send)

    # ── lifecycle ───────────────────────────────────────────────────────────

    @classmethod
    async def start(
        cls,
        cmd: Union[str, Sequence[str], None] = None,
        args: Optional[Sequence[str]] = None,
        env: Optional[Dict[str, str]] = None,
        cwd: Optional[str] = None,
        **options: Any,
    ) -> "PithClient":
        """Spawns the agent (own process group) and waits for its ``ready`` frame."""
        client = cls(cmd, args, env, cwd, **options)
        await client.connect()
        return client

    async def connect(self) -> "PithClient":
        if self._proc is not None:
            raise PithClientError("spawn_failed", "already started")
        loop = asyncio.get_running_loop()
        self._ready = loop.create_future()
        try:
            self._proc = await asyncio.create_subprocess_exec(
                *self.argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                env=self.env,
                cwd=self.cwd,
                start_new_session=True,
            )
        except OSError as exc:
            raise PithClientError("spawn_failed", f"could not start {self.argv[0]}: {exc}") from exc
        self._reader = loop.create_task(self._read_stdout())
        self._stderr_reader = loop.create_task(self._read_stderr())
        if self.wait_for_ready:
            await self._await_ready()
            if self.protocol_version_requested == 2:
                await self._negotiate()
        return self

    @classmethod
    async def connect_url(cls, url: str, token: Optional[str] = None, *, headers: Optional[Dict[str, str]] = None, **options: Any) -> "PithClient":
        """Connects to ``pith serve`` at ``url`` (``ws://HOST:PORT``) instead of spawning, with the
        capability token as ``Authorization: Bearer``; waits for ``ready``. The same methods work."""
        from .ws_link import open_socket

        client = cls(**options)
        loop = asyncio.get_running_loop()
        client._ready = loop.create_future()
        try:
            client._ws = await open_socket(url, token, headers)
        except (ConnectionError, OSError) as exc:
            raise PithClientError("spawn_failed", str(exc)) from exc
        client._ws_out = asyncio.Queue()
        client._reader = loop.create_task(client._read_socket())
        client._ws_writer = loop.create_task(client._write_socket())
        if client.wait_for_ready:
            await client._await_ready()
        return client

    async def _read_socket(self) -> None:
        try:
            async for message in self._ws:
                self._on_line(message if isinstance(message, str) else message.decode("utf-8", errors="replace"))
        except Exception as exc:  # the connection broke: the client ends as if the agent exited
            log.warning("pith serve connection ended: %s", exc)
        if self._ws_out is not None:
            self._ws_out.put_nowait(None)
        self._on_exit()

    async def _write_socket(self) -> None:
        """Sends queued frames in order, one message each."""
        assert self._ws_out is not None
        while True:
            text = await self._ws_out.get()
            if text is None:
                return
            try:
                await self._ws.send(text)
            except Exception as exc:
                log.warning("sending to pith serve failed: %s", exc)
                return

    async def _negotiate(self) -> None:
        offered = (self.ready_frame or {}).get("supportedProtocolVersions")
        if isinstance(offered, list) and 2 in offered:
            data = await self.request("negotiate_protocol", protocolVersion=2)
            if data.get("protocolVersion") == 2:
                self.protocol_version = 2

    async def _await_ready(self) -> None:
        assert self._ready is not None and self._reader is not None
        done, _ = await asyncio.wait({self._ready, self._reader}, timeout=self.ready_timeout, return_when=asyncio.FIRST_COMPLETED)
        if self._ready in done:
            return
        if not done:
            self._kill_group(signal.SIGKILL)
            raise PithClientError("ready_timeout", f"no ready frame within {self.ready_timeout} s", self._stderr)
        await self._drain_stderr()
        raise PithClientError("exited", f"the agent exited before ready (code {self.returncode})", self._stderr)

    async def __aenter__(self) -> "PithClient":
        if self._proc is None:
            await self.connect()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    @property
    def pid(self) -> Optional[int]:
        return self._proc.pid if self._proc else None

    @property
    def returncode(self) -> Optional[int]:
        """The exit code; over a WebSocket, the close code."""
        if self._ws is not None:
            return self._ws.close_code
        return self._proc.returncode if self._proc else None

    @property
    def stderr(self) -> str:
        """What the agent wrote to stderr (the last 64 KiB)."""
        return self._stderr

    @property
    def is_running(self) -> bool:
        return (self._proc is not None or self._ws is not None) and not self._exited

    async def close(self) -> Optional[int]:
        """Closes stdin (pith finishes accepted work and exits 0), waits ``close_grace``
        seconds, then SIGTERM and SIGKILL to the whole process group. Returns the exit code."""
        if self._ws is not None:
            # pith serve aborts the connection's runs and releases its sessions
            await self._ws.close()
            await self._wait_exit(self.close_grace)
            if self._tasks:
                await asyncio.gather(*self._tasks, return_exceptions=True)
            return self.returncode
        proc = self._proc
        if proc is None:
            return None
        if not self._exited and proc.stdin and not proc.stdin.is_closing():
            proc.stdin.close()
        if not await self._wait_exit(self.close_grace):
            self._kill_group(signal.SIGTERM)
            if not await self._wait_exit(1.0):
                self._kill_group(signal.SIGKILL)
                await self._wait_exit(None)
        self._kill_group(signal.SIGKILL)  # anything the agent left behind in its group
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        return proc.returncode

    async def _wait_exit(self, timeout: Optional[float]) -> bool:
        assert self._reader is not None
        done, _ = await asyncio.wait({self._reader}, timeout=timeout)
        return bool(done)

    def _kill_group(self, sig: int) -> None:
        if self._proc is None:
            return
        try:
            os.killpg(self._proc.pid, sig)
        except ProcessLookupError:
            return  # the group is already gone
        except PermissionError:
            log.warning("not allowed to signal process group %s", self._proc.pid)

    # ── events ──────────────────────────────────────────────────────────────

    def on(self, event_type: str, handler: Handler) -> Callable[[], None]:
        """Calls ``handler(frame)`` for every frame of ``event_type`` (sync or async).
        Returns a function that unsubscribes."""
        handlers = self._listeners.setdefault(event_type, [])
        handlers.append(handler)
        return lambda: _discard(handlers, handler)

    def on_any(self, handler: Handler) -> Callable[[], None]:
        """Calls ``handler(frame)`` for every frame."""
        self._any.append(handler)
        return lambda: _discard(self._any, handler)

    async def wait_for_event(self, event_type: str, predicate: Optional[Callable[[Frame], bool]] = None, timeout: Optional[float] = None) -> Frame:
        """The next frame of ``event_type`` matching ``predicate``."""
        fut: "asyncio.Future[Frame]" = asyncio.get_running_loop().create_future()

        def check(frame: Frame) -> None:
            if not fut.done() and (predicate is None or predicate(frame)):
                fut.set_result(frame)

        off = self.on(event_type, check)
        waiter = asyncio.get_running_loop().create_task(self._exit_guard(fut, f"waiting for {event_type}"))
        try:
            return await asyncio.wait_for(fut, timeout)
        except asyncio.TimeoutError as exc:
            raise PithClientError("timeout", f"no {event_type} within {timeout} s") from exc
        finally:
            off()
            waiter.cancel()

    async def _exit_guard(self, fut: "asyncio.Future[Any]", what: str) -> None:
        assert self._reader is not None
        await asyncio.wait({self._reader})
        if not fut.done():
            fut.set_exception(PithClientError("exited", f"the agent exited while {what}", self._stderr))

    # ── requests ────────────────────────────────────────────────────────────

    def send(self, frame: Frame) -> None:
        """Writes one raw frame to the agent's stdin (or as one WebSocket message)."""
        if self._ws_out is not None:
            if self._exited:
                raise PithClientError("closed", "the connection to pith serve is closed")
            self._ws_out.put_nowait(encode_frame(frame).decode("utf-8").rstrip("\n"))
            return
        proc = self._proc
        if proc is None or self._exited or proc.stdin is None or proc.stdin.is_closing():
            raise PithClientError("closed", "the agent process is not running", self._stderr)
        proc.stdin.write(encode_frame(frame))

    async def request(self, command: str, /, **params: Any) -> Any:
        """Sends ``command`` with a fresh ``req_<n>`` id; returns its ``data``; raises RpcError."""
        req_id, fut = self._send_request(command, params)
        try:
            return await asyncio.wait_for(fut, self.request_timeout)
        except asyncio.TimeoutError as exc:
            raise PithClientError("timeout", f"{command} ({req_id}) got no response within {self.request_timeout} s") from exc
        finally:
            self._pending.pop(req_id, None)
            self._commands.pop(req_id, None)

    def _send_request(self, command: str, params: Dict[str, Any]) -> "tuple[str, asyncio.Future[Any]]":
        req_id = f"req_{self._next_id}"
        self._next_id += 1
        fut: "asyncio.Future[Any]" = asyncio.get_running_loop().create_future()
        self._pending[req_id] = fut
        self._commands[req_id] = command
        try:
            self.send({**params, "id": req_id, "type": command})
        except Exception:
            self._pending.pop(req_id, None)
            raise
        return req_id, fut

    # ── helpers ─────────────────────────────────────────────────────────────

    def on_ui_request(self, handler: Optional[UiHandler]) -> None:
        """Installs the coroutine that answers select/confirm/input/editor dialogs: the first
        session's, and those of created sessions without their own (``SessionHandle.on_ui_request``)."""
        self._ui.set_handler(handler)

    def respond_to_ui(self, request_id: str, answer: Dict[str, Any]) -> None:
        """Answers a dialog by hand (when no handler is installed)."""
        self.send({"type": "extension_ui_response", "id": request_id, **answer})

    async def wait_for_idle(self, timeout: Optional[float] = None) -> None:
        """Waits out a run in progress (``agent_end``), then polls ``get_state`` until
        ``isStreaming`` is false, so retries and automatic continuations count too."""
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        while True:
            if self._agent_running and await self._next_wake(1.0, deadline) != "timer":
                continue
            state = await self.get_state()
            if not state.get("isStreaming"):
                self._agent_running = False
                return
            await self._next_wake(0.1, deadline)

    async def prompt_and_wait(
        self, message: str, images: Optional[list] = None, streaming_behavior: Optional[str] = None, timeout: Optional[float] = None
    ) -> List[Dict[str, Any]]:
        """Prompts and waits for the prompt's own ``prompt_result`` (written once every retry,
        compaction and continuation it caused has finished); returns the messages of every run
        meanwhile (the concatenated ``agent_end.messages``). Raises RpcError on a (late) prompt error."""
        result = await self.prompt_for_result(message, images, streaming_behavior, timeout)
        return result["messages"]

    async def prompt_for_result(
        self, message: str, images: Optional[list] = None, streaming_behavior: Optional[str] = None, timeout: Optional[float] = None
    ) -> Dict[str, Any]:
        """Like ``prompt_and_wait``; returns ``{"result": <prompt_result frame>, "messages": [...]}``.
        An agent without prompt_result (no ``isSettled`` in its get_state) is waited for until
        idle instead, and ``result`` is None."""
        if self._speaks_prompt_result is None:
            self._speaks_prompt_result = "isSettled" in (await self.get_state())
        if not self._speaks_prompt_result:
            return {"result": None, "messages": await self._prompt_until_idle(message, images, streaming_behavior, timeout)}
        loop = asyncio.get_running_loop()
        messages: List[Dict[str, Any]] = []
        off_end = self.on("agent_end", lambda f: messages.extend(f.get("messages", [])))
        result: "asyncio.Future[Frame]" = loop.create_future()
        ids: Dict[str, str] = {}

        def on_result(frame: Frame) -> None:
            if not result.done() and "id" in ids and frame.get("id") == ids["id"]:
                result.set_result(frame)

        off_result = self.on("prompt_result", on_result)
        late: "asyncio.Future[None]" = loop.create_future()
        req_id, fut = self._send_request("prompt", {"message": message, "images": images, "streamingBehavior": streaming_behavior})
        ids["id"] = req_id
        self._late[req_id] = lambda err: late.done() or late.set_exception(err)
        guard = loop.create_task(self._exit_guard(result, "waiting for prompt_result"))
        try:
            await self._race(fut, late)
            try:
                frame = await self._race(asyncio.ensure_future(asyncio.wait_for(asyncio.shield(result), timeout)), late)
            except asyncio.TimeoutError as exc:
                raise PithClientError("timeout", f"no prompt_result within {timeout} s") from exc
            return {"result": frame, "messages": messages}
        finally:
            off_end()
            off_result()
            guard.cancel()
            self._late.pop(req_id, None)
            self._pending.pop(req_id, None)
            if not late.done():
                late.cancel()

    async def _prompt_until_idle(
        self, message: str, images: Optional[list], streaming_behavior: Optional[str], timeout: Optional[float]
    ) -> List[Dict[str, Any]]:
        messages: List[Dict[str, Any]] = []
        off = self.on("agent_end", lambda f: messages.extend(f.get("messages", [])))
        late: "asyncio.Future[None]" = asyncio.get_running_loop().create_future()
        req_id, fut = self._send_request("prompt", {"message": message, "images": images, "streamingBehavior": streaming_behavior})
        self._late[req_id] = lambda err: late.done() or late.set_exception(err)
        try:
            await self._race(fut, late)
            await self._race(asyncio.ensure_future(self.wait_for_idle(timeout)), late)
            return messages
        finally:
            off()
            self._late.pop(req_id, None)
            self._pending.pop(req_id, None)
            if not late.done():
                late.cancel()

    async def prompt_for_output(self, message: str, schema: Dict[str, Any], timeout: Optional[float] = None) -> Any:
        """Prompts with an output schema (``outputSchema``) and returns the validated structured
        answer (``prompt_result.output``). Raises RpcError when the command is refused (an invalid
        schema) and PithClientError("no_output", ...) when the run ended without a result."""
        req_id, fut = self._send_request("prompt", {"message": message, "outputSchema": schema})
        result = asyncio.ensure_future(self.wait_for_event("prompt_result", lambda f: f.get("id") == req_id, timeout))
        try:
            await fut
            frame = await result
        finally:
            if not result.done():
                result.cancel()
        if frame.get("status") == "completed" and "output" in frame:
            return frame["output"]
        error = (frame.get("error") or {}).get("message") or f"the prompt ended {frame.get('status')} without a structured result"
        raise PithClientError("no_output", error)

    def on_heartbeat(self, handler: Handler) -> Callable[[], None]:
        """Calls ``handler(frame)`` for every ``heartbeat`` frame (turn them on with ``set_heartbeat``)."""
        return self.on("heartbeat", handler)

    async def wait_for_settled(self, timeout: Optional[float] = None) -> None:
        """Returns once the session is settled (no run, retry wait, compaction or queued message):
        at once when ``get_state`` says so, else at the next ``session_settled``."""
        settled = asyncio.ensure_future(self.wait_for_event("session_settled", timeout=timeout))
        try:
            if (await self.get_state()).get("isSettled") is True:
                return
            await settled
        finally:
            if not settled.done():
                settled.cancel()

    @staticmethod
    async def _race(main: "asyncio.Future[Any]", late: "asyncio.Future[None]") -> Any:
        await asyncio.wait({main, late}, return_when=asyncio.FIRST_COMPLETED)
        if late.done() and not late.cancelled():
            if not main.done():
                main.cancel()
            late.result()  # raises the late RpcError
        return main.result()

    async def _next_wake(self, poll: float, deadline: Optional[float]) -> str:
        loop = asyncio.get_running_loop()
        wait = poll if deadline is None else min(poll, deadline - loop.time())
        if wait <= 0:
            raise PithClientError("timeout", "the agent did not become idle in time")
        if self._exited:
            raise PithClientError("exited", "the agent exited while waiting for idle", self._stderr)
        event = asyncio.Event()
        self._wakers.add(event)
        try:
            await asyncio.wait_for(event.wait(), wait)
        except asyncio.TimeoutError:
            return "timer"
        finally:
            self._wakers.discard(event)
        if self._exited:
            raise PithClientError("exited", "the agent exited while waiting for idle", self._stderr)
        return "event"

    # ── reading ─────────────────────────────────────────────────────────────

    async def _read_stdout(self) -> None:
        assert self._proc is not None and self._proc.stdout is not None
        splitter = LineSplitter()
        while True:
            chunk = await self._proc.stdout.read(65536)
            if not chunk:
                break
            for line in splitter.push(chunk):
                self._on_line(line)
        rest = splitter.end()
        if rest is not None:
            self._on_line(rest)
        await self._proc.wait()
        await self._drain_stderr()
        self._on_exit()

    async def _read_stderr(self) -> None:
        assert self._proc is not None and self._proc.stderr is not None
        while True:
            chunk = await self._proc.stderr.read(65536)
            if not chunk:
                return
            text = chunk.decode("utf-8", errors="replace")
            self._stderr = (self._stderr + text)[-STDERR_CAP:]
            if self.on_stderr:
                self.on_stderr(text)

    async def _drain_stderr(self) -> None:
        if self._stderr_reader is not None:
            await asyncio.wait({self._stderr_reader}, timeout=1.0)

    def _on_line(self, line: str) -> None:
        parsed = parse_frame(line)
        if parsed is None:
            return
        try:
            frame = self._reassembler.push(parsed)
        except ChunkError as exc:
            log.warning("dropped a broken chunk sequence: %s", exc)
            return
        if frame is None:
            return
        kind = frame["type"]
        if kind == "ready":
            self.version = frame.get("version")
            self.ready_frame = frame
            if self._ready is not None and not self._ready.done():
                self._ready.set_result(None)
        elif kind == "response":
            self._settle(frame)
        elif kind == "agent_start" and "sessionId" not in frame:
            self._agent_running = True
        elif kind == "agent_end" and "sessionId" not in frame:
            self._agent_running = False
        elif kind == "host_tool_call":
            # each session answers its own host tools (a created session's frames carry its id)
            self._host_tools_of(frame.get("sessionId")).handle_call(frame)
        elif kind == "host_tool_cancel":
            runner = self._host_tools_of(frame.get("sessionId"), create=False)
            if runner is not None:
                runner.handle_cancel(frame)
        elif kind == "extension_ui_request":
            self._ui.handle_request(frame)
        if kind in WAKE_TYPES:
            for event in list(self._wakers):
                event.set()
        for handler in list(self._listeners.get(kind, [])) + list(self._any):
            self._call(handler, frame)

    def _host_tools_of(self, session_id: Optional[str], create: bool = True) -> Optional[HostToolRunner]:
        """The runner of session ``session_id`` (``None``: the first session's, the client's own)."""
        if session_id is None:
            return self._host_tools
        runner = self._session_host_tools.get(session_id)
        if runner is None and create:
            runner = self._session_host_tools[session_id] = HostToolRunner(self.send)
        return runner

    def _settle(self, frame: Frame) -> None:
        req_id = frame.get("id")
        if not isinstance(req_id, str):
            return
        fut = self._pending.pop(req_id, None)
        command = str(frame.get("command", self._commands.pop(req_id, "")))
        if fut is None:
            late = self._late.get(req_id)
            if late is not None and frame.get("success") is False:
                late(RpcError(str(frame.get("error")), command, req_id))
            return
        if fut.done():
            return
        if frame.get("success") is True:
            fut.set_result(frame.get("data"))
        else:
            fut.set_exception(RpcError(str(frame.get("error")), command, req_id))

    def _call(self, handler: Handler, frame: Frame) -> None:
        try:
            result = handler(frame)
            if inspect.isawaitable(result):
                task = asyncio.ensure_future(result)
                self._tasks.add(task)
                task.add_done_callback(self._task_done)
        except Exception:
            log.exception("event handler for %s failed", frame.get("type"))

    def _task_done(self, task: "asyncio.Task[Any]") -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("async event handler failed", exc_info=task.exception())

    def _on_exit(self) -> None:
        self._exited = True
        self._agent_running = False
        error = PithClientError("exited", f"the agent exited (code {self.returncode})", self._stderr)
        for fut in self._pending.values():
            if not fut.done():
                fut.set_exception(error)
        self._pending.clear()
        self._host_tools.abort_all()
        for runner in self._session_host_tools.values():
            runner.abort_all()
        self._ui.abort_all()
        for event in list(self._wakers):
            event.set()


def _discard(handlers: List[Handler], handler: Handler) -> None:
    if handler in handlers:
        handlers.remove(handler)

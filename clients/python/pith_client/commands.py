"""One coroutine per protocol command type (snake_case, like the wire names).

Each returns the response ``data`` (``None`` for commands without data) and raises
``RpcError`` for a ``success: false`` response.
"""
from __future__ import annotations

from typing import Any, AsyncIterator, Dict, List, Optional

from .framing import JSON_NULL
from .host_tools import HostTool, HostToolRunner


class CommandsMixin:
    _host_tools: HostToolRunner

    async def request(self, command: str, /, **params: Any) -> Any:  # provided by PithClient
        raise NotImplementedError

    async def prompt(self, message: str, images: Optional[list] = None, streaming_behavior: Optional[str] = None) -> None:
        return await self.request("prompt", message=message, images=images, streamingBehavior=streaming_behavior)

    async def steer(self, message: str, images: Optional[list] = None) -> None:
        return await self.request("steer", message=message, images=images)

    async def follow_up(self, message: str, images: Optional[list] = None) -> None:
        return await self.request("follow_up", message=message, images=images)

    async def abort(self) -> None:
        return await self.request("abort")

    async def abort_and_prompt(self, message: str, images: Optional[list] = None) -> None:
        return await self.request("abort_and_prompt", message=message, images=images)

    async def new_session(self, parent_session: Optional[str] = None) -> Dict[str, Any]:
        return await self.request("new_session", parentSession=parent_session)

    async def get_state(self) -> Dict[str, Any]:
        return await self.request("get_state")

    async def set_todos(self, phases: List[Dict[str, Any]]) -> Dict[str, Any]:
        return await self.request("set_todos", phases=phases)

    async def set_host_tools(self, tools: List[HostTool]) -> Dict[str, Any]:
        """Registers host tools and serves their calls; ``[]`` removes them all."""
        return await self.request("set_host_tools", tools=self._host_tools.register(tools))

    async def set_model(self, provider: str, model_id: str) -> Dict[str, Any]:
        return await self.request("set_model", provider=provider, modelId=model_id)

    async def cycle_model(self) -> Optional[Dict[str, Any]]:
        return await self.request("cycle_model")

    async def get_available_models(self) -> Dict[str, Any]:
        return await self.request("get_available_models")

    async def set_thinking_level(self, level: str) -> None:
        return await self.request("set_thinking_level", level=level)

    async def cycle_thinking_level(self) -> Optional[Dict[str, Any]]:
        return await self.request("cycle_thinking_level")

    async def set_steering_mode(self, mode: str) -> None:
        return await self.request("set_steering_mode", mode=mode)

    async def set_follow_up_mode(self, mode: str) -> None:
        return await self.request("set_follow_up_mode", mode=mode)

    async def set_interrupt_mode(self, mode: str) -> None:
        return await self.request("set_interrupt_mode", mode=mode)

    async def compact(self, custom_instructions: Optional[str] = None) -> Dict[str, Any]:
        return await self.request("compact", customInstructions=custom_instructions)

    async def set_auto_compaction(self, enabled: bool) -> None:
        return await self.request("set_auto_compaction", enabled=enabled)

    async def set_auto_retry(self, enabled: bool) -> None:
        return await self.request("set_auto_retry", enabled=enabled)

    async def abort_retry(self) -> None:
        return await self.request("abort_retry")

    async def bash(self, command: str) -> Dict[str, Any]:
        return await self.request("bash", command=command)

    async def abort_bash(self) -> None:
        return await self.request("abort_bash")

    async def get_session_stats(self) -> Dict[str, Any]:
        return await self.request("get_session_stats")

    async def export_html(self, output_path: Optional[str] = None) -> Dict[str, Any]:
        return await self.request("export_html", outputPath=output_path)

    async def switch_session(self, session_path: str) -> Dict[str, Any]:
        return await self.request("switch_session", sessionPath=session_path)

    async def resume_session(self, session_file: str) -> Dict[str, Any]:
        """Older pi name of switch_session."""
        return await self.request("resume_session", sessionFile=session_file)

    async def branch(self, entry_id: str) -> Dict[str, Any]:
        return await self.request("branch", entryId=entry_id)

    async def get_branch_messages(self) -> Dict[str, Any]:
        return await self.request("get_branch_messages")

    async def get_last_assistant_text(self) -> Dict[str, Any]:
        """``{"text": ...}``, or ``{}`` when there is none."""
        return await self.request("get_last_assistant_text")

    async def set_session_name(self, name: str) -> None:
        return await self.request("set_session_name", name=name)

    async def get_messages(self) -> Dict[str, Any]:
        return await self.request("get_messages")

    async def fork(self, entry_id: str) -> Dict[str, Any]:
        return await self.request("fork", entryId=entry_id)

    async def get_fork_messages(self) -> Dict[str, Any]:
        return await self.request("get_fork_messages")

    async def clone(self) -> Dict[str, Any]:
        return await self.request("clone")

    async def get_commands(self) -> Dict[str, Any]:
        return await self.request("get_commands")

    async def set_delta_streaming(self, enabled: bool) -> None:
        return await self.request("set_delta_streaming", enabled=enabled)

    # ── file checkpoints (pith extra) ────────────────────────────────────────

    async def get_checkpoints(self) -> Dict[str, Any]:
        """``{checkpoints: [{checkpointId, entryId, createdAt, prompt, kind}]}``, oldest first."""
        return await self.request("get_checkpoints")

    async def diff_checkpoint(self, checkpoint_id: str, to_checkpoint_id: Optional[str] = None) -> Dict[str, Any]:
        """``{files, patch, truncated}`` from a checkpoint to the files now (or to another checkpoint)."""
        return await self.request("diff_checkpoint", checkpointId=checkpoint_id, toCheckpointId=to_checkpoint_id)

    async def restore_checkpoint(
        self, checkpoint_id: str, mode: Optional[str] = None, paths: Optional[List[str]] = None
    ) -> Dict[str, Any]:
        """``mode``: "files" (default), "conversation" or "both"; answers ``{restored, deleted, undoCheckpointId, ...}``."""
        return await self.request("restore_checkpoint", checkpointId=checkpoint_id, mode=mode, paths=paths)

    async def set_permissions(
        self,
        mode: Optional[str] = None,
        allow: Optional[List[str]] = None,
        ask: Optional[List[str]] = None,
        deny: Optional[List[str]] = None,
        timeout_ms: Optional[int] = None,
        session_allow: Optional[List[str]] = None,
    ) -> Dict[str, Any]:
        """Sets the session's permission mode and rule lists (each one given replaces that value).

        ``session_allow`` replaces the project's "Allow always" grants where they are kept
        (``PITH_HOME/grants.json``); ``[]`` revokes them all.

        Returns the permission state in force: {mode, allow, ask, deny, sessionAllow, timeoutMs?, grantsFile?}.
        """
        rules: Dict[str, Any] = {}
        pairs = (("mode", mode), ("allow", allow), ("ask", ask), ("deny", deny), ("timeoutMs", timeout_ms), ("sessionAllow", session_allow))
        for key, value in pairs:
            if value is not None:
                rules[key] = value
        return await self.request("set_permissions", rules=rules)

    # ── liveness (pith) ──────────────────────────────────────────────────────

    async def set_heartbeat(self, interval_ms: int) -> Dict[str, Any]:
        """Heartbeat frames every ``interval_ms`` (0 = off); see ``on_heartbeat``."""
        return await self.request("set_heartbeat", intervalMs=interval_ms)

    async def get_integrations(self) -> Dict[str, Any]:
        """The model provider's health (does the key work?) and extension status checks."""
        return await self.request("get_integrations")

    # ── oh-my-pi 18 and pi 0.87 additions ─────────────────────────────────────

    async def negotiate_protocol(self, protocol_version: int) -> Dict[str, Any]:
        """Prefer ``PithClient.start(..., protocol_version=2)``, which also reassembles chunks."""
        return await self.request("negotiate_protocol", protocolVersion=protocol_version)

    async def set_event_filter(self, events: Optional[List[str]]) -> Dict[str, Any]:
        """Only these session event types are written from now on; ``None`` writes all again."""
        return await self.request("set_event_filter", events=JSON_NULL if events is None else events)

    async def get_messages_page(self, cursor: Optional[str] = None, limit: Optional[int] = None) -> Dict[str, Any]:
        return await self.request("get_messages_page", cursor=cursor, limit=limit)

    async def iter_messages(self, limit: Optional[int] = None) -> AsyncIterator[Dict[str, Any]]:
        """Every message of the context, read page by page with ``get_messages_page``."""
        cursor: Optional[str] = None
        while True:
            page = await self.get_messages_page(cursor=cursor, limit=limit)
            for message in page["messages"]:
                yield message
            cursor = page.get("nextCursor")
            if cursor is None:
                return

    async def get_available_commands(self) -> Dict[str, Any]:
        return await self.request("get_available_commands")

    async def get_available_thinking_levels(self) -> Dict[str, Any]:
        return await self.request("get_available_thinking_levels")

    async def clear_queue(self) -> Dict[str, Any]:
        return await self.request("clear_queue")


    async def set_mcp_servers(self, servers: Dict[str, Any]) -> Dict[str, Any]:
        """Replaces the host's MCP servers (.mcp.json's mcpServers shape); {} removes them.
        Returns {"servers": [{name, source, status, error?, tools}]}."""
        return await self.request("set_mcp_servers", servers=servers)

    async def get_mcp_servers(self) -> Dict[str, Any]:
        """Every MCP server: {"servers": [{name, source, status, error?, tools}]}."""
        return await self.request("get_mcp_servers")

    async def get_lsp_servers(self) -> Dict[str, Any]:
        """Every language server: {"servers": [{name, language, command, status, root?, pid?,
        error?, restarts?}]}; empty when the setting lsp.enabled is off."""
        return await self.request("get_lsp_servers")

    async def get_project_trust(self) -> Dict[str, Any]:
        """Whether the session's folder is trusted and what its project layer holds:
        {"folder", "trusted", "source", "found": [{kind, path, name?}]}."""
        return await self.request("get_project_trust")

    async def trust_project(self, persist: Optional[bool] = None) -> Dict[str, Any]:
        """Trusts the session's folder now: its settings, extensions, agents, rules and MCP
        servers load into the running session; persist=True saves the decision (PITH_HOME/trust.json).
        Answers like get_project_trust. Refused while a run is busy."""
        return await self.request("trust_project", persist=persist)

#!/usr/bin/env python3
"""python_orchestrator: a Python host that drives pith over RPC (standard library only).

The pattern from the research notes: spawn ``pith --mode rpc`` as a subprocess, correlate
responses by id, stream events to handlers, answer extension dialogs (plan approval), expose
host functions as tools, and steer a run while it is streaming.

    npm run build
    python3 examples/hosts/python_orchestrator.py              # offline, scripted model
    python3 examples/hosts/python_orchestrator.py --provider anthropic --model claude-sonnet-4-5

Outside this repository: ``pip install`` nothing -- copy clients/python/pith_client next to
your code (it is standard library only) and point ``cmd`` at your ``pith`` binary.
"""
from __future__ import annotations

import asyncio
import json
import os
import shutil
import sys
import tempfile
from datetime import date
from typing import Any, Dict, List

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "clients", "python"))

from pith_client import HostTool, PithClient  # noqa: E402

AGENDA = {
    "2026-07-02": ["09:00 stand-up", "14:00 design review"],
    "2026-07-03": ["10:00 dentist"],
}


def offline_args() -> List[str]:
    """A scripted model: looks up the calendar with a host tool, asks for approval, answers."""
    script = {
        "replies": [
            {"text": "Checking the calendar.", "toolCalls": [{"name": "calendar_lookup", "arguments": {"day": "2026-07-02"}}]},
            {"toolCalls": [{"name": "deploy_check", "arguments": {"service": "agenda-sync"}}]},
            {"text": "You have a stand-up at 09:00 and a design review at 14:00; agenda-sync is approved."},
            {"text": ["Nothing ", "else ", "is ", "scheduled ", "today, ", "but ", "let ", "me ", "elaborate..."], "chunkDelayMs": 100},
            {"text": "Short version: you are free after 14:00."},
        ]
    }
    folder = tempfile.mkdtemp(prefix="pith-orchestrator-")
    path = os.path.join(folder, "script.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(script, f)
    return ["--provider", "scripted", "--model", path, "--no-session"]


async def calendar_lookup(args: Dict[str, Any], ctx) -> Dict[str, Any]:
    """A host function the model can call (runs in this Python process)."""
    ctx.update(f"reading the agenda for {args['day']}")
    items = AGENDA.get(args["day"], [])
    return {"content": [{"type": "text", "text": json.dumps({"day": args["day"], "items": items})}], "details": {"count": len(items)}}


async def approve(request: Dict[str, Any]) -> Dict[str, Any]:
    """Extension dialogs: here an automatic policy; a real host would ask its user."""
    method = request["method"]
    print(f"  [dialog] {method}: {request.get('title')}")
    if method == "confirm":
        return {"confirmed": True}
    if method == "select":
        return {"value": request["options"][0]}
    return {"value": f"scheduled run on {date.today().isoformat()}"}


class Orchestrator:
    def __init__(self, client: PithClient) -> None:
        self.client = client
        self._mid_line = False
        client.on("message_update", self._on_update)
        client.on("message_end", self._on_message_end)
        client.on("tool_execution_start", lambda f: print(f"  [tool] {f['toolName']} {json.dumps(f['args'])}"))
        client.on("tool_execution_update", lambda f: print(f"  [progress] {f['partialResult']['content'][0].get('text')}"))
        client.on("auto_retry_start", lambda f: print(f"  [retry] attempt {f['attempt']}: {f['errorMessage']}"))
        client.on("todo_reminder", lambda f: print(f"  [todo reminder] {len(f['todos'])} open item(s)"))
        client.on_ui_request(approve)

    def _on_update(self, frame: Dict[str, Any]) -> None:
        event = frame["assistantMessageEvent"]
        if event["type"] == "text_delta":
            self._mid_line = True
            print(event["delta"], end="", flush=True)

    def _on_message_end(self, frame: Dict[str, Any]) -> None:
        if frame["message"]["role"] == "assistant" and self._mid_line:
            self._mid_line = False
            print()

    async def setup(self) -> None:
        await self.client.set_host_tools(
            [HostTool("calendar_lookup", "Read the user's agenda for one day (YYYY-MM-DD).",
                      {"type": "object", "properties": {"day": {"type": "string"}}, "required": ["day"]},
                      calendar_lookup, label="Calendar")]
        )
        await self.client.set_session_name("daily agenda")

    async def run_task(self, prompt: str) -> List[Dict[str, Any]]:
        print(f"> {prompt}")
        return await self.client.prompt_and_wait(prompt, timeout=600)

    async def steer_while_running(self, prompt: str, correction: str) -> None:
        print(f"> {prompt}  (then steering: {correction!r})")
        first_token = asyncio.ensure_future(self.client.wait_for_event("message_update", timeout=600))
        run = asyncio.ensure_future(self.client.prompt_and_wait(prompt, timeout=600))
        done, _ = await asyncio.wait({first_token, run}, return_when=asyncio.FIRST_COMPLETED)
        if run not in done:
            await self.client.steer(correction)  # delivered before the next model call
        else:
            first_token.cancel()
        await run


async def main() -> None:
    pith_args = sys.argv[1:] or offline_args()
    node = shutil.which("node") or "node"
    cmd = [node, os.path.join(ROOT, "dist", "cli.js"), "--mode", "rpc"]
    extension = os.path.join(ROOT, "examples", "extensions", "ask-user.ts")
    async with await PithClient.start(cmd=cmd, args=[*pith_args, "-e", extension], cwd=ROOT) as client:
        print(f"pith {client.version} (pid {client.pid})")
        orchestrator = Orchestrator(client)
        await orchestrator.setup()
        messages = await orchestrator.run_task("What is on my agenda for 2026-07-02? Then run the deploy check for agenda-sync.")
        print(f"  [run] {len(messages)} messages")
        await orchestrator.steer_while_running("Anything else to know?", "Keep it short.")
        stats = await client.get_session_stats()
        print(f"  [stats] {stats['userMessages']} user / {stats['assistantMessages']} assistant messages, "
              f"{stats['toolCalls']} tool calls, ${stats['cost']:.4f}")


if __name__ == "__main__":
    asyncio.run(main())

"""pith_client against the real built dist/cli.js with the scripted provider.

Run: python3 -m unittest discover -s clients/python/tests   (after npm run build)
"""
from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
CLI = os.path.join(ROOT, "dist", "cli.js")
ASK_USER = os.path.join(ROOT, "examples", "extensions", "ask-user.ts")
FAKE_AGENT = os.path.join(ROOT, "test", "support", "fake-agent.mjs")  # answers any command, writes frames on request
SCHEMA = os.path.join(ROOT, "schema", "rpc.schema.json")
NODE = os.environ.get("NODE") or shutil.which("node") or "node"

from pith_client import HostTool, LineSplitter, PithClient, PithClientError, RpcError, build_tree, encode_frame, parse_frame, walk_tree  # noqa: E402
from pith_client.ui import UiResponder  # noqa: E402

ECHO_PARAMS = {"type": "object", "properties": {"message": {"type": "string"}}, "required": ["message"]}


def text_of(message):
    content = message.get("content") if message else None
    if isinstance(content, list):
        return "".join(b.get("text", "") for b in content if b.get("type") == "text")
    return content or ""


def by_role(messages, role):
    return [m for m in messages if m.get("role") == role]


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


async def gone(pid):
    for _ in range(200):
        if not alive(pid):
            return True
        await asyncio.sleep(0.025)
    return not alive(pid)


class FramingTest(unittest.TestCase):
    def test_splits_on_lf_only(self):
        s = LineSplitter()
        data = '{"type":"x","t":"a\u2028b\u2029c\u0085d"}\r\n{"type":"y"}\nv\x0bf\x0cs\x1cr\rend\ntail'.encode("utf-8")
        lines = []
        for i in range(len(data)):  # byte by byte: multi-byte characters straddle reads
            lines += s.push(data[i : i + 1])
        self.assertEqual(len(lines), 3)
        self.assertEqual(parse_frame(lines[0])["t"], "a\u2028b\u2029c\u0085d")
        self.assertEqual(parse_frame(lines[1]), {"type": "y"})
        self.assertEqual(lines[2], "v\x0bf\x0cs\x1cr\rend")
        self.assertEqual(s.end(), "tail")
        self.assertIsNone(s.end())

    def test_skips_foreign_lines_and_omits_none(self):
        for line in ["", "noise", "42", "[1]", '{"no":"type"}']:
            self.assertIsNone(parse_frame(line))
        self.assertEqual(encode_frame({"type": "steer", "message": "m", "images": None}), b'{"type":"steer","message":"m"}\n')


class CoverageTest(unittest.TestCase):
    def test_every_command_type_has_a_method(self):
        with open(SCHEMA, encoding="utf-8") as f:
            defs = json.load(f)["$defs"]
        commands = [k[len("command_"):] for k in defs if k.startswith("command_")]
        self.assertGreaterEqual(len(commands), 36)
        missing = [c for c in commands if not asyncio.iscoroutinefunction(getattr(PithClient, c, None))]
        self.assertEqual(missing, [])


SERVE_TOKEN = "py-serve-token-0123456789abcdef"


def has_websockets():
    try:
        import websockets  # noqa: F401
    except ImportError:
        return False
    return True


async def start_serve(args, env, cwd, home):
    """``pith serve`` on 127.0.0.1 with a token file; returns (process, url) once it listens."""
    token_file = os.path.join(home, "serve-token")
    with open(token_file, "w", encoding="utf-8") as f:
        f.write(SERVE_TOKEN)
    proc = await asyncio.create_subprocess_exec(
        NODE, CLI, "serve", "--listen", "ws://127.0.0.1:0", "--ws-token-file", token_file, *args,
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE, env=env, cwd=cwd,
    )
    seen = ""
    while True:
        line = await asyncio.wait_for(proc.stderr.readline(), 30)
        if not line:
            raise RuntimeError(f"pith serve exited: {seen}")
        seen += line.decode()
        m = re.search(r"listening on (ws://127\.0\.0\.1:\d+)", seen)
        if m:
            return proc, m.group(1)


class PithTestCase(unittest.IsolatedAsyncioTestCase):
    #: how the client reaches pith: a spawned ``--mode rpc`` ("stdio") or ``pith serve`` ("websocket")
    via = "stdio"

    async def asyncSetUp(self):
        self.assertTrue(os.path.exists(CLI), "run npm run build first")
        if self.via == "websocket" and not has_websockets():
            self.skipTest("needs Debian's python3-websockets")
        self.clients = []
        self.servers = []

    async def asyncTearDown(self):
        for client in self.clients:
            await client.close()
        for proc in self.servers:
            if proc.returncode is None:
                proc.kill()
            await proc.wait()

    async def start(self, replies, extra_args=(), settings=None, project_files=None, **options):
        cwd = tempfile.mkdtemp(prefix="pith-py-cwd-")
        home = tempfile.mkdtemp(prefix="pith-py-home-")
        for rel, text in (project_files or {}).items():
            os.makedirs(os.path.dirname(os.path.join(cwd, rel)), exist_ok=True)
            with open(os.path.join(cwd, rel), "w", encoding="utf-8") as f:
                f.write(text)
        with open(os.path.join(cwd, "script.json"), "w", encoding="utf-8") as f:
            json.dump({"replies": replies}, f)
        if settings is not None:
            with open(os.path.join(home, "settings.json"), "w", encoding="utf-8") as f:
                json.dump(settings, f)
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "PITH_HOME": home}
        session_args = ["--provider", "scripted", "--model", "script.json", *extra_args]
        if self.via == "websocket":
            proc, url = await start_serve(session_args, env, cwd, home)
            self.servers.append(proc)
            client = await PithClient.connect_url(url, token=SERVE_TOKEN, **options)
        else:
            client = await PithClient.start(cmd=NODE, args=[CLI, "--mode", "rpc", *session_args], env=env, cwd=cwd, **options)
        self.clients.append(client)
        self.cwd = cwd
        self.home = home
        return client


class PromptTest(PithTestCase):
    async def test_prompt_for_output_returns_the_validated_data(self):
        schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
        client = await self.start([
            {"toolCalls": [{"name": "submit_result", "arguments": {"result": {"data": {"n": "one"}}}}]},
            {"toolCalls": [{"name": "submit_result", "arguments": {"result": {"data": {"n": 1}}}}]},
            {"toolCalls": [{"name": "submit_result", "arguments": {"result": {"error": "no idea"}}}]},
        ])
        self.assertEqual(await client.prompt_for_output("count", schema, timeout=30), {"n": 1})
        with self.assertRaises(PithClientError) as failed:
            await client.prompt_for_output("again", schema, timeout=30)
        self.assertEqual(failed.exception.code, "no_output")
        self.assertIn("no idea", str(failed.exception))
        with self.assertRaises(RpcError) as refused:
            await client.prompt_for_output("bad", {"type": "strin"}, timeout=30)
        self.assertIn("not a valid JSON Schema", str(refused.exception))

    async def test_prompt_streams_and_returns_messages(self):
        client = await self.start([{"text": "Hello from the script."}])
        self.assertRegex(client.version, r"^\d+\.\d+\.\d+")
        deltas = []
        client.on("message_update", lambda f: deltas.append(f["assistantMessageEvent"].get("delta", "")))
        messages = await client.prompt_and_wait("Say hello", timeout=30)
        self.assertEqual([m["role"] for m in messages], ["user", "assistant"])
        self.assertEqual("".join(deltas), "Hello from the script.")
        self.assertEqual(await client.get_last_assistant_text(), {"text": "Hello from the script."})

    async def test_prompt_and_wait_across_a_retry(self):
        client = await self.start(
            [{"error": "500 internal server error"}, {"text": "Second try worked."}, {"text": "Third."}], settings={"retry": {"baseDelayMs": 1}}
        )
        ends = []
        client.on("agent_end", lambda f: ends.append(f))
        settled = asyncio.ensure_future(client.wait_for_event("session_settled", timeout=30))
        out = await client.prompt_for_result("hi", timeout=30)
        self.assertEqual(len(ends), 2)
        self.assertEqual(out["result"]["status"], "completed")
        self.assertTrue(out["result"]["agentInvoked"])
        self.assertEqual(text_of(by_role(out["messages"], "assistant")[-1]), "Second try worked.")
        await settled
        await client.wait_for_settled(timeout=5)
        messages = await client.prompt_and_wait("again", timeout=30)
        self.assertEqual(text_of(by_role(messages, "assistant")[-1]), "Third.")

    async def test_error_result_and_heartbeats(self):
        client = await self.start([{"error": "401 invalid x-api-key"}, {"text": ["a", "b"], "chunkDelayMs": 400}])
        out = await client.prompt_for_result("hi", timeout=30)
        self.assertEqual(out["result"]["status"], "error")
        self.assertEqual(out["result"]["error"]["httpStatus"], 401)
        self.assertFalse(out["result"]["error"]["retryable"])
        beats = []
        client.on_heartbeat(beats.append)
        self.assertEqual(await client.set_heartbeat(100), {"intervalMs": 100})
        await client.prompt_and_wait("slow", timeout=30)
        await client.set_heartbeat(0)
        self.assertIn("streaming", [b["phase"] for b in beats])
        health = await client.get_integrations()
        self.assertEqual(health["model"]["state"], "connected")

    async def test_failed_command_raises_rpc_error(self):
        client = await self.start([])
        with self.assertRaises(RpcError) as ctx:
            await client.set_session_name("   ")
        self.assertEqual(ctx.exception.command, "set_session_name")
        self.assertEqual(ctx.exception.error, "Session name cannot be empty")

    async def test_abort_a_streaming_run(self):
        client = await self.start([{"text": ["one ", "two"], "chunkDelayMs": 60000}])
        ends = []
        client.on("agent_end", lambda f: ends.extend(f["messages"]))
        first = asyncio.ensure_future(client.wait_for_event("message_update", timeout=30))
        await client.prompt("Count slowly")
        await first
        await client.abort()
        await client.wait_for_idle(timeout=30)
        self.assertEqual(by_role(ends, "assistant")[0]["stopReason"], "aborted")
        self.assertFalse((await client.get_state())["isStreaming"])

    async def test_steering_and_follow_up(self):
        client = await self.start([{"toolCalls": [{"name": "hold_host", "arguments": {}}]}, {"text": "Steered."}, {"text": "Followed up."}])
        # The run is held inside a host tool until both messages are queued: no timing involved.
        entered, release = asyncio.Event(), asyncio.Event()

        async def hold(args, ctx):
            entered.set()
            await release.wait()
            return "released"

        await client.set_host_tools([HostTool("hold_host", "Waits for the host", {"type": "object"}, hold)])
        run = asyncio.ensure_future(client.prompt_and_wait("Start", timeout=30))
        await asyncio.wait_for(entered.wait(), 30)
        await client.steer("Change course")
        await client.follow_up("And then this")
        self.assertEqual((await client.get_state())["queuedMessageCount"], 2)
        release.set()
        messages = await run
        self.assertEqual([m["role"] for m in messages], ["user", "assistant", "toolResult", "user", "assistant", "user", "assistant"])
        self.assertEqual([text_of(m) for m in by_role(messages, "user")], ["Start", "Change course", "And then this"])
        self.assertEqual([text_of(m) for m in by_role(messages, "assistant")][1:], ["Steered.", "Followed up."])

    async def test_abort_and_prompt(self):
        client = await self.start([{"text": ["slow ", "reply"], "chunkDelayMs": 60000}, {"text": "Fresh answer."}])
        first = asyncio.ensure_future(client.wait_for_event("message_update", timeout=30))
        await client.prompt("First")
        await first
        await client.abort_and_prompt("Second")
        await client.wait_for_idle(timeout=30)
        self.assertEqual(await client.get_last_assistant_text(), {"text": "Fresh answer."})


class HostToolAndUiTest(PithTestCase):
    async def test_host_tools_round_trip(self):
        client = await self.start(
            [
                {"toolCalls": [{"name": "echo_host", "arguments": {"message": "hi"}}]},
                {"toolCalls": [{"name": "fail_host", "arguments": {}}]},
                {"toolCalls": [{"name": "sync_host", "arguments": {}}]},
                {"text": "All done."},
            ]
        )
        updates = []
        client.on("tool_execution_update", lambda f: updates.append(text_of(f["partialResult"])))

        async def echo(args, ctx):
            ctx.update("working")
            return {"content": [{"type": "text", "text": "echo: " + args["message"]}], "details": {"echoed": True}}

        async def fail(args, ctx):
            raise RuntimeError("host says no")

        def sync_tool(args, ctx):  # a plain function runs in a worker thread
            return "from a thread"

        res = await client.set_host_tools(
            [
                HostTool("echo_host", "Echo a value", ECHO_PARAMS, echo, label="Echo Host"),
                HostTool("fail_host", "Always fails", {"type": "object"}, fail),
                HostTool("sync_host", "Sync tool", {"type": "object"}, sync_tool),
            ]
        )
        self.assertEqual(res["toolNames"], ["echo_host", "fail_host", "sync_host"])
        messages = await client.prompt_and_wait("Use the host tools", timeout=30)
        results = by_role(messages, "toolResult")
        self.assertEqual(
            [(r["toolName"], text_of(r), r["isError"]) for r in results],
            [("echo_host", "echo: hi", False), ("fail_host", "host says no", True), ("sync_host", "from a thread", False)],
        )
        self.assertEqual(results[0]["details"], {"echoed": True})
        self.assertIn("working", updates)

    async def test_read_only_host_tools_run_in_read_only_mode(self):
        client = await self.start(
            [
                {"toolCalls": [{"name": "lookup", "arguments": {}}, {"name": "change", "arguments": {}}]},
                {"text": "Done."},
            ],
            settings={"permissions": {"mode": "read-only"}},
        )
        ran = []

        def tool(name):
            return lambda args, ctx: (ran.append(name), name + " ran")[1]

        defs = [
            HostTool("lookup", "Looks something up", {"type": "object"}, tool("lookup"), read_only=True),
            HostTool("change", "Changes something", {"type": "object"}, tool("change")),
        ]
        self.assertEqual([d.definition().get("readOnly") for d in defs], [True, None])
        await client.set_host_tools(defs)
        messages = await client.prompt_and_wait("Look it up, then change it", timeout=30)
        results = {r["toolName"]: (text_of(r), r["isError"]) for r in by_role(messages, "toolResult")}
        self.assertEqual(results["lookup"], ("lookup ran", False))
        self.assertTrue(results["change"][1])
        self.assertIn("Permission denied: change did not run", results["change"][0])
        self.assertEqual(ran, ["lookup"])

    async def test_host_tool_cancelled_by_abort(self):
        client = await self.start([{"toolCalls": [{"name": "echo_host", "arguments": {"message": "wait"}}]}, {"text": "x"}])
        called = asyncio.Event()
        state = {"cancelled": False}

        async def hang(args, ctx):
            called.set()
            try:
                await asyncio.sleep(3600)
            except asyncio.CancelledError:
                state["cancelled"] = ctx.cancelled.is_set()
                raise

        await client.set_host_tools([HostTool("echo_host", "Hangs", ECHO_PARAMS, hang)])
        cancel = asyncio.ensure_future(client.wait_for_event("host_tool_cancel", timeout=30))
        await client.prompt("Call and hang")
        await asyncio.wait_for(called.wait(), 30)
        await client.abort()
        await cancel
        await client.wait_for_idle(timeout=30)
        await asyncio.sleep(0)
        self.assertTrue(state["cancelled"])
        result = by_role((await client.get_messages())["messages"], "toolResult")[0]
        self.assertTrue(result["isError"])

    async def test_ui_round_trip(self):
        client = await self.start(
            [{"toolCalls": [{"name": "deploy_check", "arguments": {"service": "api"}}]}, {"text": "Deployed."}],
            extra_args=["-e", ASK_USER],
        )
        asked, notes = [], []
        client.on("extension_ui_request", lambda f: notes.append(f["message"]) if f.get("method") == "notify" else None)

        async def answer(request):
            asked.append(request["method"] + ":" + request["title"])
            if request["method"] == "confirm":
                return {"confirmed": True}
            if request["method"] == "select":
                return {"value": request["options"][1]}
            return {"value": "py release"}

        client.on_ui_request(answer)
        messages = await client.prompt_and_wait("Deploy the api", timeout=30)
        self.assertEqual(asked, ["confirm:Deploy", "select:Environment", "input:Release note"])
        self.assertEqual(text_of(by_role(messages, "toolResult")[0]), "confirmed=true environment=production note=py release")
        self.assertEqual(notes, ["Deploying api to production"])


class SessionCommandsTest(PithTestCase):
    async def test_state_model_and_mode_commands(self):
        client = await self.start([{"text": "x"}])
        state = await client.get_state()
        self.assertEqual(state["model"]["provider"], "scripted")
        self.assertTrue(any(m["provider"] == "scripted" for m in (await client.get_available_models())["models"]))
        with open(os.path.join(self.cwd, "other.json"), "w", encoding="utf-8") as f:
            json.dump({"replies": [{"text": "other"}]}, f)
        self.assertTrue((await client.set_model("scripted", "other.json"))["id"].endswith("other.json"))
        await client.cycle_model()
        await client.set_thinking_level("high")
        self.assertEqual((await client.get_state())["thinkingLevel"], "high")
        self.assertEqual((await client.cycle_thinking_level())["level"], "xhigh")
        await client.set_steering_mode("all")
        await client.set_follow_up_mode("all")
        await client.set_interrupt_mode("immediate")
        await client.set_auto_compaction(False)
        await client.set_auto_retry(False)
        await client.abort_retry()
        await client.set_delta_streaming(False)
        perms = await client.set_permissions(mode="ask-writes", allow=["bash(npm test)"], deny=["read(~/.ssh/**)"])
        self.assertEqual((perms["mode"], perms["allow"], perms["deny"], perms["sessionAllow"]), ("ask-writes", ["bash(npm test)"], ["read(~/.ssh/**)"], []))
        with self.assertRaises(Exception):
            await client.set_permissions(deny=["edit(src/**"])
        granted = await client.set_permissions(session_allow=["bash(make:*)"])
        self.assertEqual(granted["sessionAllow"], ["bash(make:*)"])
        self.assertTrue(granted["grantsFile"].endswith("grants.json"))
        self.assertEqual((await client.set_permissions(session_allow=[]))["sessionAllow"], [])
        await client.set_permissions(mode="allow")
        state = await client.get_state()
        self.assertEqual(state["permissions"]["mode"], "allow")
        self.assertEqual(state["sandbox"], {"mode": "off", "network": False, "writableRoots": []})
        self.assertEqual(
            (state["steeringMode"], state["followUpMode"], state["interruptMode"], state["autoCompactionEnabled"]),
            ("all", "all", "immediate", False),
        )
        todos = await client.set_todos([{"id": "phase-1", "name": "Plan", "tasks": [{"id": "t1", "content": "Do it", "status": "pending"}]}])
        self.assertEqual(todos["todoPhases"][0]["tasks"][0]["content"], "Do it")
        bash = await client.bash("echo from-bash")
        self.assertEqual(bash["exitCode"], 0)
        self.assertIn("from-bash", bash["output"])
        await client.abort_bash()
        self.assertIsInstance((await client.get_commands())["commands"], list)

    async def test_lsp_servers(self):
        client = await self.start([])
        self.assertEqual(await client.get_lsp_servers(), {"servers": []})
        fixture = os.path.join(ROOT, "test", "support", "fake-lsp-server.mjs")
        servers = {"fake": {"command": NODE, "args": [fixture], "fileTypes": [".fk"]}, "pyright": {"disabled": True}}
        client = await self.start([], settings={"lsp": {"enabled": True, "servers": servers}})
        listed = {s["name"]: s for s in (await client.get_lsp_servers())["servers"]}
        self.assertEqual(listed["fake"], {"name": "fake", "language": "fk", "command": NODE, "status": "idle"})
        self.assertEqual(listed["pyright"]["status"], "disabled")
        self.assertEqual((await client.get_state())["lspServers"], list(listed.values()))

    async def test_mcp_servers(self):
        client = await self.start([])
        self.assertEqual(await client.get_mcp_servers(), {"servers": []})
        fixture = os.path.join(ROOT, "test", "support", "mcp", "stdio-server.mjs")
        res = await client.set_mcp_servers({"py": {"command": NODE, "args": [fixture, "--name", "py"]}})
        self.assertEqual([(s["name"], s["source"]) for s in res["servers"]], [("py", "host")])
        deadline = time.monotonic() + 20
        while True:
            server = (await client.get_mcp_servers())["servers"][0]
            if server["status"] != "connecting" or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.05)
        self.assertEqual(server["status"], "connected")
        self.assertIn("mcp__py__echo", server["tools"])
        with self.assertRaises(RpcError) as bad:
            await client.set_mcp_servers({"py": {"type": "http"}})
        self.assertIn("mcpServers.py.url", str(bad.exception))
        self.assertEqual(await client.set_mcp_servers({}), {"servers": []})

    async def test_project_trust(self):
        marker = os.path.join(tempfile.mkdtemp(prefix="pith-py-mark-"), "loaded")
        client = await self.start([], project_files={
            ".pith/settings.json": json.dumps({"permissions": {"mode": "read-only"}}),
            ".pith/extensions/mark.mjs": 'import { writeFileSync } from "node:fs";\nwriteFileSync(%s, "x");\nexport default () => {};\n' % json.dumps(marker),
        })
        report = await client.get_project_trust()
        self.assertEqual((report["folder"], report["trusted"], report["source"]), (os.path.realpath(self.cwd), False, "default"))
        self.assertEqual(sorted((i["kind"], i.get("name")) for i in report["found"]), [("extension", None), ("settings", "permissions.mode")])
        self.assertFalse(os.path.exists(marker))
        self.assertEqual((await client.get_state())["permissions"]["mode"], "allow")
        granted = await client.trust_project(persist=True)
        self.assertEqual((granted["trusted"], granted["source"]), (True, "host"))
        self.assertTrue(os.path.exists(marker))
        state = await client.get_state()
        self.assertEqual(state["projectTrust"], {"trusted": True, "source": "host"})
        self.assertEqual(state["permissions"]["mode"], "read-only")
        with open(os.path.join(self.home, "trust.json"), encoding="utf-8") as f:
            self.assertEqual(json.load(f), {os.path.realpath(self.cwd): True})

    async def test_session_commands(self):
        replies = [{"text": "First answer."}, {"text": "Second answer."}] + [{"text": "Summary of the talk."}] * 3
        client = await self.start(replies, settings={"compaction": {"keepRecentTokens": 5}})
        await client.prompt_and_wait("First question", timeout=30)
        await client.prompt_and_wait("Second question", timeout=30)
        stats = await client.get_session_stats()
        self.assertEqual((stats["userMessages"], stats["assistantMessages"]), (2, 2))
        await client.set_session_name("py session")
        state = await client.get_state()
        self.assertEqual(state["sessionName"], "py session")
        original = state["sessionFile"]
        html = os.path.join(self.cwd, "out.html")
        self.assertEqual((await client.export_html(html))["path"], html)
        self.assertTrue(os.path.exists(html))
        branchable = (await client.get_branch_messages())["messages"]
        self.assertEqual([m["text"] for m in branchable], ["First question", "Second question"])
        self.assertEqual((await client.get_fork_messages())["messages"], branchable)
        self.assertEqual(await client.branch(branchable[1]["entryId"]), {"text": "Second question", "cancelled": False})
        self.assertFalse((await client.clone())["cancelled"])
        self.assertEqual(await client.fork(branchable[0]["entryId"]), {"text": "First question", "cancelled": False})
        self.assertFalse((await client.new_session())["cancelled"])
        self.assertEqual((await client.get_state())["messageCount"], 0)
        self.assertFalse((await client.switch_session(original))["cancelled"])
        self.assertEqual(len((await client.get_messages())["messages"]), 4)
        compacted = await client.compact("keep it short")
        self.assertIn("Summary of the talk.", compacted["summary"])

    async def test_file_checkpoints(self):
        replies = [
            {"toolCalls": [{"name": "write", "arguments": {"path": "a.txt", "content": "one"}}]},
            {"text": "Wrote a.txt."},
        ]
        client = await self.start(replies, extra_args=("--file-checkpoints",))
        self.assertEqual((await client.get_state())["fileCheckpoints"], {"enabled": True})
        created = []
        client.on("checkpoint_created", created.append)
        await client.prompt_and_wait("Write a.txt", timeout=30)
        checkpoints = (await client.get_checkpoints())["checkpoints"]
        self.assertEqual([(c["kind"], c["prompt"]) for c in checkpoints], [("prompt", "Write a.txt")])
        self.assertEqual([c["checkpointId"] for c in created], [checkpoints[0]["checkpointId"]])
        diff = await client.diff_checkpoint(checkpoints[0]["checkpointId"])
        self.assertEqual([(f["path"], f["status"]) for f in diff["files"]], [("a.txt", "added")])
        self.assertIn("+one", diff["patch"])
        restored = await client.restore_checkpoint(checkpoints[0]["checkpointId"], mode="both")
        self.assertEqual(restored["deleted"], ["a.txt"])
        self.assertFalse(os.path.exists(os.path.join(self.cwd, "a.txt")))
        self.assertEqual((await client.get_messages())["messages"], [])
        await client.restore_checkpoint(restored["undoCheckpointId"])
        with open(os.path.join(self.cwd, "a.txt"), encoding="utf-8") as f:
            self.assertEqual(f.read(), "one")
        with self.assertRaises(RpcError) as caught:
            await client.restore_checkpoint("0123456789abcdef")
        self.assertIn("Unknown checkpoint", str(caught.exception))


class DialogRoutingTest(unittest.IsolatedAsyncioTestCase):
    """Which handler answers a dialog, and which one a cancel or a closed session cancels (no process)."""

    def dialog(self, req_id, session_id=None):
        frame = {"type": "extension_ui_request", "id": req_id, "method": "confirm", "title": "T", "message": "M"}
        if session_id is not None:
            frame["sessionId"] = session_id
        return frame

    def named(self, name, seen):
        async def handler(request):
            seen.append("%s:%s" % (name, request.get("sessionId", "first")))
            return {"value": name}

        return handler

    def hanging(self, cancelled):
        """Never answers; records the ids of the dialogs whose task was cancelled."""

        async def handler(request):
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                cancelled.append(request["id"])
                raise

        return handler

    async def settle(self):
        """Lets the handler tasks take their next steps (start, answer, or see their cancellation)."""
        for _ in range(5):
            await asyncio.sleep(0)

    async def test_routes_by_session_with_the_client_handler_as_fallback(self):
        sent, seen = [], []
        ui = UiResponder(sent.append)
        ui.set_handler(self.named("client", seen))
        ui.set_handler(self.named("s1", seen), "s1")
        ui.handle_request(self.dialog("u1", "s1"))
        ui.handle_request(self.dialog("u2"))
        ui.handle_request(self.dialog("u3", "s2"))
        await self.settle()
        ui.set_handler(None, "s1")  # removed: s1 falls back to the client's handler
        ui.handle_request(self.dialog("u4", "s1"))
        await self.settle()
        self.assertEqual(seen, ["s1:s1", "client:first", "client:s2", "client:s1"])
        self.assertEqual([(f["id"], f["value"]) for f in sent], [("u1", "s1"), ("u2", "client"), ("u3", "client"), ("u4", "client")])

    async def test_cancel_reaches_the_handler_that_opened_the_dialog(self):
        sent, client_cancelled, s1_cancelled = [], [], []
        ui = UiResponder(sent.append)
        ui.set_handler(self.hanging(client_cancelled))
        ui.set_handler(self.hanging(s1_cancelled), "s1")
        ui.handle_request(self.dialog("u1", "s1"))
        ui.handle_request(self.dialog("u2", "s2"))  # s2 has no handler: the client's answers it
        await self.settle()
        ui.handle_request({"type": "extension_ui_request", "id": "c1", "method": "cancel", "targetId": "u1", "sessionId": "s1"})
        ui.handle_request({"type": "extension_ui_request", "id": "c2", "method": "cancel", "targetId": "u2", "sessionId": "s2"})
        await self.settle()
        self.assertEqual((s1_cancelled, client_cancelled, sent), (["u1"], ["u2"], []))

    async def test_drop_session_cancels_only_that_sessions_dialogs_and_its_handler(self):
        sent, client_cancelled, s1_cancelled = [], [], []
        ui = UiResponder(sent.append)
        ui.set_handler(self.hanging(client_cancelled))
        ui.set_handler(self.hanging(s1_cancelled), "s1")
        for req_id, session_id in (("u1", "s1"), ("u2", "s2"), ("u3", None)):
            ui.handle_request(self.dialog(req_id, session_id))
        await self.settle()
        ui.drop_session("s1")
        await self.settle()
        self.assertEqual((s1_cancelled, client_cancelled), (["u1"], []))
        ui.handle_request(self.dialog("u4", "s1"))  # the handler is gone: the client's takes it
        await self.settle()
        ui.drop_session("s2")
        await self.settle()
        self.assertEqual(client_cancelled, ["u2"])
        ui.abort_all()
        await self.settle()
        self.assertEqual(sorted(client_cancelled), ["u2", "u3", "u4"])
        self.assertEqual(sent, [])

    async def test_closing_a_session_through_the_client_cancels_its_dialogs(self):
        # the fake agent acknowledges close_session without cancelling anything itself, so only the
        # client can cancel the open dialog
        client = await PithClient.start(cmd=NODE, args=[FAKE_AGENT])
        self.addAsyncCleanup(client.close)
        cancelled, seen = [], []
        client.on_ui_request(self.named("client", seen))
        client.session("s1").on_ui_request(self.hanging(cancelled))
        opened = asyncio.ensure_future(client.wait_for_event("extension_ui_request", timeout=10))
        client.send({"type": "__emit", "frames": [self.dialog("u1", "s1")]})
        await opened
        await self.settle()
        await client.session("s1").close()
        await self.settle()
        self.assertEqual(cancelled, ["u1"])
        # its handler is gone: a later dialog stamped s1 goes to the client's
        answered = asyncio.ensure_future(client.wait_for_event("extension_ui_request", lambda f: f["id"] == "u2", timeout=10))
        client.send({"type": "__emit", "frames": [self.dialog("u2", "s1")]})
        await answered
        await self.settle()
        self.assertEqual(seen, ["client:s1"])


class HostSessionsTest(PithTestCase):
    async def test_list_entries_tree_open_delete(self):
        client = await self.start([{"text": "Stored."}])
        await client.prompt_and_wait("Remember this", timeout=30)
        state = await client.get_state()
        listed = await client.list_sessions(query="remember")
        self.assertEqual([s["path"] for s in listed["sessions"]], [state["sessionFile"]])
        self.assertEqual(listed["sessions"][0]["messageCount"], 2)
        entries = await client.get_entries()
        self.assertEqual(entries["leafId"], entries["entries"][-1]["id"])
        self.assertEqual((await client.get_entries(since=entries["entries"][-2]["id"]))["entries"], entries["entries"][-1:])
        with self.assertRaises(RpcError):
            await client.get_entries(since="nope")
        tree = await client.get_tree()
        self.assertEqual(len(tree["tree"]), 1)
        other = tempfile.mkdtemp(prefix="pith-py-open-")
        opened = await client.open_session(other)
        self.assertFalse(opened["resumed"])
        self.assertEqual((await client.delete_session(state["sessionFile"]))["path"], state["sessionFile"])
        self.assertFalse(os.path.exists(state["sessionFile"]))

    async def test_two_session_handles_run_at_once(self):
        client = await self.start([{"text": "Answer from the script."}])
        first = client.session(None)
        second = await client.new_session_handle()
        seen = {"first": [], "second": []}
        first.on("agent_end", lambda f: seen["first"].append(f))
        second.on("agent_end", lambda f: seen["second"].append(f))
        a, b = await asyncio.gather(first.prompt_and_wait("one", timeout=30), second.prompt_and_wait("two", timeout=30))
        self.assertEqual(text_of(by_role(a, "user")[0]), "one")
        self.assertEqual(text_of(by_role(b, "user")[0]), "two")
        self.assertEqual((len(seen["first"]), len(seen["second"])), (1, 1))
        sessions = (await client.get_open_sessions())["sessions"]
        self.assertEqual([s["isDefault"] for s in sessions], [True, False])
        self.assertEqual(sessions[1]["sessionId"], second.session_id)
        self.assertEqual((await second.get_state())["messageCount"], 2)
        await second.close()
        with self.assertRaises(RpcError):
            await second.get_state()

    async def test_each_session_handle_answers_its_own_host_tools(self):
        call = {"toolCalls": [{"name": "whoami", "arguments": {}}]}
        client = await self.start([call, {"text": "done"}] * 4)

        def answer(who):
            async def execute(args, ctx):
                return "answered by " + who

            return HostTool("whoami", "Names the session that answers", {"type": "object"}, execute)

        await client.set_host_tools([answer("the client (first session)")])
        second = await client.new_session_handle()
        third = await client.new_session_handle()
        self.assertEqual((await second.set_host_tools([answer("second")]))["toolNames"], ["whoami"])

        def results(messages):
            return [(text_of(m), m["isError"]) for m in by_role(messages, "toolResult")]

        self.assertEqual(results(await second.prompt_and_wait("who?", timeout=30)), [("answered by second", False)])
        self.assertEqual(results(await client.prompt_and_wait("who?", timeout=30)), [("answered by the client (first session)", False)])
        # a session that registered none does not borrow the client's executor
        (text, is_error), = results(await third.prompt_and_wait("who?", timeout=30))
        self.assertNotIn("answered by", text)
        self.assertTrue(is_error)
        # the first session's handle is the client's own registry
        await client.session(None).set_host_tools([answer("the first handle")])
        self.assertEqual(results(await client.prompt_and_wait("who?", timeout=30)), [("answered by the first handle", False)])
        await second.close()

    async def test_each_session_handle_answers_its_own_dialogs(self):
        # permission mode ask: every bash call is a select dialog written by the session that runs it
        call = {"toolCalls": [{"name": "bash", "arguments": {"command": "echo ran"}}]}
        client = await self.start([call, {"text": "done"}] * 2, settings={"permissions": {"mode": "ask"}})
        asked = []

        async def deny(request):
            asked.append("client:" + request.get("sessionId", "first"))
            return {"value": "Deny"}

        async def allow(request):
            asked.append("second:%s:%s" % (request["sessionId"], request["permission"]["toolName"]))
            return {"value": "Allow once"}

        client.session(None).on_ui_request(deny)  # the first session's handle installs the client's handler
        second = await client.new_session_handle()
        third = await client.new_session_handle()
        second.on_ui_request(allow)

        def results(messages):
            return [(text_of(m).strip(), m["isError"]) for m in by_role(messages, "toolResult")]

        self.assertEqual(results(await second.prompt_and_wait("run it", timeout=30)), [("ran", False)])
        (text, _), = results(await client.prompt_and_wait("run it", timeout=30))
        self.assertTrue(text.startswith("Permission denied: bash did not run"), text)
        (text, _), = results(await third.prompt_and_wait("run it", timeout=30))
        self.assertTrue(text.startswith("Permission denied"), text)
        self.assertEqual(asked, ["second:%s:bash" % second.session_id, "client:first", "client:" + third.session_id])

    async def test_dialog_timeout_cancels_the_handler_that_opened_it(self):
        call = {"toolCalls": [{"name": "bash", "arguments": {"command": "echo ran"}}]}
        client = await self.start([call, {"text": "done"}] * 2, settings={"permissions": {"mode": "ask", "timeoutMs": 300}})
        events = []

        def wait_for_cancel(who):
            """Never answers: waits for pith's cancel (the dialog timeout) to cancel the task."""

            async def handler(request):
                events.append("%s asked (%s)" % (who, request.get("sessionId", "first")))
                try:
                    await asyncio.Event().wait()
                except asyncio.CancelledError:
                    events.append(who + " cancelled")
                    raise

            return handler

        client.on_ui_request(wait_for_cancel("client"))
        second = await client.new_session_handle()
        second.on_ui_request(wait_for_cancel("second"))

        def denied(messages):
            return [m["isError"] for m in by_role(messages, "toolResult")]

        self.assertEqual(denied(await second.prompt_and_wait("run it", timeout=30)), [True])
        self.assertEqual(events, ["second asked (%s)" % second.session_id, "second cancelled"])
        self.assertEqual(denied(await client.prompt_and_wait("run it", timeout=30)), [True])
        self.assertEqual(events[2:], ["client asked (first)", "client cancelled"])

    def write_linear_session(self, turns, label_every=0):
        """A session file of ``turns`` user/assistant pairs in one chain (and a label entry every
        ``label_every`` turns); returns its path and the ids in file order."""
        folder = tempfile.mkdtemp(prefix="pith-py-deep-")
        path = os.path.join(folder, "deep.jsonl")
        ids = []
        parent = None
        t0 = 1_700_000_000_000
        usage = {"input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 2, "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}}
        with open(path, "w", encoding="utf-8") as f:
            f.write(json.dumps({"type": "session", "version": 1, "id": "deep0000000000000", "timestamp": "2026-01-01T00:00:00.000Z", "cwd": folder}) + "\n")

            def add(entry):
                nonlocal parent
                entry = {"type": entry.pop("type"), "id": "e%07d" % len(ids), "parentId": parent, "timestamp": "2026-01-01T00:00:00.000Z", **entry}
                f.write(json.dumps(entry) + "\n")
                ids.append(entry["id"])
                parent = entry["id"]
                return entry["id"]

            for i in range(turns):
                asked = add({"type": "message", "message": {"role": "user", "content": [{"type": "text", "text": "q%d" % i}], "timestamp": t0 + i}})
                add({"type": "message", "message": {"role": "assistant", "content": [{"type": "text", "text": "a%d" % i}], "api": "openai-completions", "provider": "scripted", "model": "script.json", "usage": usage, "stopReason": "stop", "timestamp": t0 + i}})
                if label_every and i % label_every == 0:
                    add({"type": "label", "targetId": asked, "label": "turn %d" % i})
        return path, ids

    def assert_linear_tree(self, tree, ids):
        visited = list(walk_tree(tree))  # recursion would fail long before 20,000 levels
        self.assertEqual([node["entry"]["id"] for node, _ in visited], ids)
        self.assertEqual([depth for _, depth in visited], list(range(1, len(ids) + 1)))

    async def test_get_tree_of_a_20000_deep_session(self):
        path, ids = self.write_linear_session(10_000)
        self.assertEqual(len(ids), 20_000)
        client = await self.start([], extra_args=("--session", path))
        result = await client.get_tree()
        self.assertEqual(result["leafId"], ids[-1])
        self.assertEqual(len(result["tree"]), 1)
        self.assert_linear_tree(result["tree"], ids)
        self.assertEqual(text_of(result["tree"][0]["entry"]["message"]), "q0")

    async def test_get_tree_nested_deeper_than_json_loads_recurses(self):
        # 700 levels: pith answers get_tree itself, as JSON nested ~1,400 deep (json.loads gives up at ~1,000)
        path, ids = self.write_linear_session(300, label_every=100)
        self.assertEqual(len(ids), 603)
        client = await self.start([], extra_args=("--session", path))
        served = await client.request("get_tree")
        self.assert_linear_tree(served["tree"], ids)
        labelled = [(n["entry"]["id"], n["label"]) for n, _ in walk_tree(served["tree"]) if "label" in n]
        self.assertEqual(labelled, [(ids[0], "turn 0"), (ids[201], "turn 100"), (ids[402], "turn 200")])
        # and the tree the client nests from get_entries (its answer beyond pith's limit) is the same
        built = build_tree((await client.get_entries())["entries"])
        flat = lambda tree: [(n["entry"], n.get("label"), d, len(n["children"])) for n, d in walk_tree(tree)]  # noqa: E731
        self.assertEqual(flat(built), flat(served["tree"]))

    async def test_subagent_commands(self):
        client = await self.start([])
        self.assertEqual(await client.set_subagent_subscription("progress"), {"level": "progress"})
        self.assertEqual(await client.get_subagents(), {"subagents": []})
        with self.assertRaises(RpcError):
            await client.set_subagent_subscription("everything")

    async def test_subagent_frames_and_messages(self):
        # Each session plays the script from its start: the parent and the subagent both get the
        # task call first (the explore subagent has no task tool: an error result), then "Done.".
        task = {"agent": "explore", "tasks": [{"id": "look", "description": "Look around", "assignment": "List the files"}]}
        client = await self.start([{"toolCalls": [{"name": "task", "arguments": task}]}, {"text": "Done."}])
        frames = []
        for kind in ("subagent_lifecycle", "subagent_progress", "subagent_event"):
            client.on(kind, frames.append)
        self.assertEqual(await client.set_subagent_subscription("events"), {"level": "events"})
        await client.prompt_and_wait("Delegate", timeout=60)
        lifecycle = [f["payload"]["status"] for f in frames if f["type"] == "subagent_lifecycle"]
        self.assertEqual(lifecycle, ["started", "completed"])
        last = [f["payload"]["progress"] for f in frames if f["type"] == "subagent_progress"][-1]
        self.assertEqual((last["id"], last["status"], last["requests"], last["toolCount"]), ("look", "completed", 2, 1))
        events = [f["payload"]["event"]["type"] for f in frames if f["type"] == "subagent_event"]
        self.assertIn("tool_execution_end", events)
        self.assertIn("agent_end", events)
        read = await client.get_subagent_messages(subagent_id="look")
        self.assertEqual([m["role"] for m in read["messages"]], ["user", "assistant", "toolResult", "assistant"])
        self.assertEqual(text_of(read["messages"][-1]), "Done.")
        again = await client.get_subagent_messages(session_file=read["sessionFile"], from_byte=read["nextByte"])
        self.assertEqual((again["entries"], again["reset"], again["nextByte"]), ([], False, read["nextByte"]))
        with self.assertRaises(RpcError):
            await client.get_subagent_messages(subagent_id="nope")


class ShutdownTest(PithTestCase):
    async def test_clean_close(self):
        client = await self.start([])
        self.assertEqual(await client.close(), 0)
        self.assertFalse(client.is_running)

    async def test_no_orphan_after_close(self):
        client = await self.start([{"text": ["never ", "ends"], "chunkDelayMs": 600000}], close_grace=1.0)
        out = await client.bash("sleep 300 & echo $!")
        sleeper = int(out["output"].strip())
        pid = client.pid
        first = asyncio.ensure_future(client.wait_for_event("message_update", timeout=30))
        await client.prompt("Hang")
        await first
        started = time.monotonic()
        await client.close()
        self.assertLess(time.monotonic() - started, 30)
        self.assertTrue(await gone(pid))
        self.assertTrue(await gone(sleeper))

    async def test_exit_before_ready_reports_stderr(self):
        with self.assertRaises(PithClientError) as ctx:
            await PithClient.start(cmd=NODE, args=[CLI, "--mode", "rpc", "--no-such-flag"], env={"PATH": os.environ.get("PATH", "")})
        self.assertEqual(ctx.exception.code, "exited")
        self.assertIn("--no-such-flag", str(ctx.exception))



# The command suites again, over pith serve: same tests, the client connected by URL.
class PromptOverServeTest(PromptTest):
    via = "websocket"


class HostToolAndUiOverServeTest(HostToolAndUiTest):
    via = "websocket"


class SessionCommandsOverServeTest(SessionCommandsTest):
    via = "websocket"


class ServeAuthTest(unittest.IsolatedAsyncioTestCase):
    async def test_wrong_token_is_refused_before_any_frame(self):
        if not has_websockets():
            self.skipTest("needs Debian's python3-websockets")
        home = tempfile.mkdtemp(prefix="pith-py-home-")
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "PITH_HOME": home}
        proc, url = await start_serve(["--provider", "scripted", "--model", "none.json"], env, home, home)
        try:
            with self.assertRaises(PithClientError) as caught:
                await PithClient.connect_url(url, token="not-the-token-at-all")
            self.assertEqual(caught.exception.code, "spawn_failed")
            self.assertIn("401", str(caught.exception))
        finally:
            proc.kill()
            await proc.wait()


if __name__ == "__main__":
    unittest.main()

// The `task` tool end to end against the scripted SSE server: subagents run concurrently as full
// sessions in the pith process, each routed its replies by its assignment text (FakeReply.match).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { stdioFixture } from "../support/mcp-fakes.js";
import type { FakeRequest } from "../support/fake-llm-server.js";
import { offeredTools } from "../support/offered-tools.js";
import { Pith, fakeModelsJson, tempDir, trackPiths, useFakeLlm, type Frame } from "./harness.js";
import { endOf, firstUserText, forParent, forSub, resultText, taskCall } from "./task-replies.js";

const llm = useFakeLlm();
const open = trackPiths();

async function start(settings: unknown = {}, setup?: (cwd: string) => void): Promise<Pith> {
  const pithHome = tempDir("pith-home-");
  mkdirSync(pithHome, { recursive: true });
  writeFileSync(path.join(pithHome, "settings.json"), JSON.stringify(settings));
  const cwd = tempDir("pith-cwd-");
  setup?.(cwd);
  // the test's own folder is trusted: its project agents, extensions and settings load
  const p = await Pith.start({ pithHome, cwd, modelsJson: fakeModelsJson(llm.url), args: ["--provider", "fake-anthropic", "--model", "fake-claude", "--trust-project"] });
  open.push(p);
  return p;
}

/** Writes `text` at `rel` under the project folder `cwd` (agents, extensions, settings). */
function projectFile(cwd: string, rel: string, text: string): void {
  mkdirSync(path.dirname(path.join(cwd, rel)), { recursive: true });
  writeFileSync(path.join(cwd, rel), text);
}

// every tool the model can use, natively or through call_tool
const toolNames = (req: FakeRequest): string[] => offeredTools(req.body).all;

function sessionHeaders(pithHome: string): Array<{ file: string; header: Record<string, unknown> }> {
  const out: Array<{ file: string; header: Record<string, unknown> }> = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const f = path.join(dir, e.name);
      if (e.isDirectory()) walk(f);
      else if (e.name.endsWith(".jsonl")) out.push({ file: f, header: JSON.parse(readFileSync(f, "utf8").split("\n")[0]!) });
    }
  };
  walk(path.join(pithHome, "sessions"));
  return out;
}

describe("the task tool end to end", () => {
  it("three tasks run concurrently and return three labelled answers; stats, session files and progress follow", async () => {
    const p = await start();
    const P = "delegate three jobs";
    llm.enqueue(
      forParent(P, taskCall("t1", "task", [["a", "ASSIGN-ALPHA"], ["b", "ASSIGN-BETA"], ["c", "ASSIGN-GAMMA"]], { context: "SHARED-CTX" })),
      forSub("ASSIGN-ALPHA", { text: "alpha answer", delayMs: 1500, usage: { input: 100, output: 10 } }),
      forSub("ASSIGN-BETA", { text: "beta answer", delayMs: 1500, usage: { input: 200, output: 20 } }),
      forSub("ASSIGN-GAMMA", { text: "gamma answer", delayMs: 1500, usage: { input: 300, output: 30 } }),
      forParent(P, { text: "all three done", usage: { input: 5, output: 1 } }),
    );
    const before = llm.requests.length;
    const from = p.frames.length;
    expect((await p.request({ type: "prompt", message: P })).success).toBe(true);
    // All three subagent requests reach the server before any subagent has its answer.
    await llm.waitForRequests(before + 4, 30_000);
    expect(p.events("tool_execution_update", from).some((f) => JSON.stringify(f).includes("answered"))).toBe(false);
    await p.waitIdle(60_000, from);
    const frames = p.frames.slice(from);
    const subReqs = llm.requests.slice(before).filter((r) => firstUserText(r).startsWith("SHARED-CTX"));
    expect(subReqs).toHaveLength(3);
    const end = endOf(frames, "t1");
    expect(end.isError).toBe(false);
    const text = resultText(end);
    expect(text).toContain("## Task a: job a\nalpha answer");
    expect(text).toContain("## Task b: job b\nbeta answer");
    expect(text).toContain("## Task c: job c\ngamma answer");
    expect(end.result.details.subagents.map((s: Frame) => [s.id, s.status, s.turns])).toEqual([["a", "completed", 1], ["b", "completed", 1], ["c", "completed", 1]]);
    expect(end.result.details.usage).toMatchObject({ input: 600, output: 60 });
    const updates = frames.filter((f) => f.type === "tool_execution_update" && f.toolCallId === "t1");
    expect(updates.some((u) => JSON.stringify(u.partialResult).includes("[b] running"))).toBe(true);
    // The parent model got the labelled answers back.
    const last = llm.requests[llm.requests.length - 1]!;
    expect(JSON.stringify(last.body)).toContain("## Task c: job c");
    // get_session_stats counts the subagents' usage.
    // Without set_subagent_subscription no subagent frames are written.
    expect(p.events("subagent_lifecycle", from)).toEqual([]);
    const stats = (await p.request({ type: "get_session_stats" })).data;
    expect(stats.tokens.input).toBeGreaterThanOrEqual(600 + 5);
    // Each subagent has its own session file naming the parent's.
    const headers = sessionHeaders(p.pithHome);
    const children = headers.filter((h) => h.header.parentSession === stats.sessionFile);
    expect(children).toHaveLength(3);
    for (const c of end.result.details.subagents) expect(children.map((h) => h.file)).toContain(c.sessionFile);
    // ... and starts with a session_init entry: the assignment, the tools and the system prompt.
    const alpha = end.result.details.subagents[0].sessionFile as string;
    const init = readFileSync(alpha, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)).find((e) => e.type === "session_init");
    expect(init).toMatchObject({ task: "SHARED-CTX\n\nASSIGN-ALPHA" });
    expect(init.tools).toContain("bash");
    expect(init.systemPrompt).toContain("subagent");
  }, 90_000);

  it("a subagent's provider error is an error in its own section, not a failed run", async () => {
    const p = await start({ retry: { enabled: false } });
    const P = "one fails";
    llm.enqueue(
      forParent(P, taskCall("t2", "task", [["ok", "ASSIGN-FINE"], ["ko", "ASSIGN-BROKEN"]])),
      forSub("ASSIGN-FINE", { text: "fine answer" }),
      forSub("ASSIGN-BROKEN", { error: { status: 400, body: { type: "error", error: { type: "invalid_request_error", message: "subagent exploded" } } } }),
      forParent(P, { text: "noted" }),
    );
    const frames = await p.promptAndWait(P, {}, 60_000);
    const end = endOf(frames, "t2");
    expect(end.isError).toBe(false);
    expect(resultText(end)).toContain("## Task ok: job ok\nfine answer");
    expect(resultText(end)).toMatch(/## Task ko: job ko\n\[error\] .*subagent exploded/);
    // The parent went on to its next turn with the result.
    expect(llm.requests.filter((r) => firstUserText(r) === P)).toHaveLength(2);
  }, 90_000);

  it("refuses a level beyond task.maxRecursionDepth with a clear tool error", async () => {
    const p = await start({ task: { maxRecursionDepth: 1 } });
    const P = "nest";
    llm.enqueue(
      forParent(P, taskCall("t3", "task", [["outer", "ASSIGN-OUTER"]])),
      forSub("ASSIGN-OUTER", taskCall("t3b", "task", [["inner", "ASSIGN-INNER"]])),
      forSub("ASSIGN-OUTER", { text: "could not nest" }),
      forParent(P, { text: "ok" }),
    );
    const before = llm.requests.length;
    const frames = await p.promptAndWait(P, {}, 60_000);
    expect(resultText(endOf(frames, "t3"))).toContain("could not nest");
    const second = llm.requests.slice(before).filter((r) => firstUserText(r) === "ASSIGN-OUTER")[1]!;
    expect(JSON.stringify(second.body)).toMatch(/nesting limit reached: this session is already at depth 1 and task.maxRecursionDepth is 1/);
    expect(llm.requests.slice(before).some((r) => firstUserText(r) === "ASSIGN-INNER")).toBe(false);
  }, 90_000);

  it("a nested subagent's usage counts at every level up to the parent's stats", async () => {
    const p = await start();
    const P = "nest twice";
    llm.enqueue(
      forParent(P, { ...taskCall("n1", "task", [["outer", "ASSIGN-OUT2"]]), usage: { input: 1, output: 1 } }),
      forSub("ASSIGN-OUT2", { ...taskCall("n2", "task", [["inner", "ASSIGN-IN2"]]), usage: { input: 20, output: 2 } }),
      forSub("ASSIGN-IN2", { text: "inner answer", usage: { input: 1000, output: 100 } }),
      forSub("ASSIGN-OUT2", { text: "outer answer", usage: { input: 30, output: 3 } }),
      forParent(P, { text: "ok", usage: { input: 2, output: 1 } }),
    );
    const frames = await p.promptAndWait(P, {}, 60_000);
    const end = endOf(frames, "n1");
    expect(resultText(end)).toContain("## Task outer: job outer\nouter answer");
    expect(end.result.details.usage).toMatchObject({ input: 1050, output: 105 });
    const stats = (await p.request({ type: "get_session_stats" })).data;
    expect(stats.tokens).toMatchObject({ input: 1053, output: 107 });
  }, 90_000);

  it("a subagent's subagent gets no tool its parent lacks", async () => {
    const p = await start({}, (cwd) => projectFile(cwd, ".pith/agents/delegator.md", "---\nname: delegator\ndescription: Reads and delegates\ntools: read, task\n---\nDelegate.\n"));
    const P = "delegate down";
    llm.enqueue(
      forParent(P, taskCall("d1", "delegator", [["outer", "ASSIGN-DEL"]])),
      forSub("ASSIGN-DEL", taskCall("d2", "task", [["inner", "ASSIGN-DEEP"]])),
      forSub("ASSIGN-DEEP", { text: "deep answer" }),
      forSub("ASSIGN-DEL", { text: "delegated" }),
      forParent(P, { text: "ok" }),
    );
    const before = llm.requests.length;
    const frames = await p.promptAndWait(P, {}, 60_000);
    const reqs = llm.requests.slice(before);
    const tools = (needle: string) => offeredTools(reqs.find((r) => firstUserText(r) === needle)!.body).all;
    expect(tools("ASSIGN-DEL").sort()).toEqual(["read", "task"]);
    // the "task" agent has every tool, but below the delegator only what the delegator has
    expect(tools("ASSIGN-DEEP").sort()).toEqual(["read", "task"]);
    expect(resultText(endOf(frames, "d1"))).toContain("delegated");
  }, 90_000);

  it("subagents run the session's extensions: their tool_call hooks guard a subagent's calls; their tools follow the agent's list", async () => {
    const guard = `export default function (pi) {
  pi.registerTool({ name: "ext_echo", label: "ext_echo", description: "Says ext ok", parameters: { type: "object", properties: {} },
    async execute() { return { content: [{ type: "text", text: "ext ok" }], details: {} }; } });
  pi.on("tool_call", (e) => (e.toolName === "bash" && String(e.input.command).includes("forbidden") ? { block: true, reason: "the guard blocks forbidden commands" } : undefined));
}
`;
    const p = await start({}, (cwd) => projectFile(cwd, ".pith/extensions/guard.ts", guard));
    const P = "guarded subagents";
    llm.enqueue(
      forParent(P, taskCall("g1", "task", [["a", "ASSIGN-GUARD"]])),
      forSub("ASSIGN-GUARD", { toolCalls: [{ id: "gb", name: "bash", arguments: { command: "echo forbidden > f.txt" } }, { id: "ge", name: "ext_echo", arguments: {} }] }),
      forSub("ASSIGN-GUARD", { text: "guarded" }),
      forParent(P, taskCall("g2", "explore", [["b", "ASSIGN-NOEXT"]])),
      forSub("ASSIGN-NOEXT", { text: "explored" }),
      forParent(P, { text: "ok" }),
    );
    const before = llm.requests.length;
    await p.promptAndWait(P, {}, 60_000);
    const reqs = llm.requests.slice(before).filter((r) => r.method === "POST");
    const sub = (needle: string) => reqs.filter((r) => firstUserText(r) === needle);
    expect(offeredTools(reqs[0]!.body).all).toContain("ext_echo");
    expect(offeredTools(sub("ASSIGN-GUARD")[0]!.body).all).toContain("ext_echo");
    const results = JSON.stringify(sub("ASSIGN-GUARD")[1]!.body.messages.at(-1));
    expect(results).toContain("the guard blocks forbidden commands");
    expect(results).toContain("ext ok");
    expect(existsSync(path.join(p.cwd, "f.txt"))).toBe(false);
    // explore lists read-only tools, so the extension's tool is not offered to it
    expect(offeredTools(sub("ASSIGN-NOEXT")[0]!.body).all).not.toContain("ext_echo");
  }, 90_000);

  it("a subagent thinks at its agent's thinkingLevel, else at the parent's current level", async () => {
    const p = await start({}, (cwd) => projectFile(cwd, ".pith/agents/quick.md", "---\nname: quick\ndescription: Mechanical jobs\nthinkingLevel: off\n---\nBe quick.\n"));
    expect((await p.request({ type: "set_thinking_level", level: "low" })).success).toBe(true);
    const P = "think or not";
    llm.enqueue(
      forParent(P, taskCall("k1", "task", [["deep", "ASSIGN-THINK"]])),
      forSub("ASSIGN-THINK", { text: "thought" }),
      forParent(P, taskCall("k2", "quick", [["fast", "ASSIGN-QUICK"]])),
      forSub("ASSIGN-QUICK", { text: "quick" }),
      forParent(P, { text: "ok" }),
    );
    const before = llm.requests.length;
    await p.promptAndWait(P, {}, 60_000);
    const reqs = llm.requests.slice(before);
    const body = (needle: string) => reqs.find((r) => firstUserText(r) === needle)!.body as { thinking?: unknown };
    expect(body(P).thinking).toMatchObject({ type: "enabled" });
    expect(body("ASSIGN-THINK").thinking).toEqual(body(P).thinking);
    expect(body("ASSIGN-QUICK").thinking).toEqual({ type: "disabled" });
  }, 90_000);

  it("subagents use the parent's MCP servers, limited to the MCP tools their agent names (Claude Code's tool names read as pith's)", async () => {
    const p = await start({ mcpServers: { srv: stdioFixture("srv") } }, (cwd) => projectFile(cwd, ".claude/agents/cc.md", "---\nname: cc\ndescription: Claude Code agent\ntools: Read, Glob, mcp__srv__pid\n---\nYou look.\n"));
    const P = "mcp in subagents";
    llm.enqueue(
      forParent(P, { toolCalls: [{ id: "p1", name: "mcp__srv__pid", arguments: {} }] }),
      forParent(P, taskCall("t1", "cc", [["a", "ASSIGN-CC"]])),
      forSub("ASSIGN-CC", { toolCalls: [{ id: "s1", name: "mcp__srv__pid", arguments: {} }] }),
      forSub("ASSIGN-CC", { text: "cc done" }),
      forParent(P, taskCall("t2", "explore", [["b", "ASSIGN-EX"]])),
      forSub("ASSIGN-EX", { text: "explore done" }),
      forParent(P, taskCall("t3", "task", [["c", "ASSIGN-ALL"]])),
      forSub("ASSIGN-ALL", { text: "all done" }),
      forParent(P, { text: "ok" }),
    );
    const before = llm.requests.length;
    const frames = await p.promptAndWait(P, {}, 60_000);
    const reqs = llm.requests.slice(before);
    const sub = (needle: string) => reqs.filter((r) => firstUserText(r) === needle);
    const parentPid = resultText(endOf(frames, "p1"));
    expect(parentPid).toMatch(/^\d+$/);
    // cc: read and find (Read, Glob) and only the MCP tool it names
    const cc = offeredTools(sub("ASSIGN-CC")[0]!.body).all;
    expect(cc).toEqual(expect.arrayContaining(["read", "find", "mcp__srv__pid"]));
    expect(cc.filter((n) => n.startsWith("mcp__"))).toEqual(["mcp__srv__pid"]);
    expect(cc).not.toContain("bash");
    // its call reached the parent's server process: no second server was started
    const ccResult = JSON.stringify(sub("ASSIGN-CC")[1]!.body.messages.at(-1));
    expect(ccResult).toContain(parentPid);
    // explore lists only read-only tools: no MCP tool; the default agent gets them all
    expect(offeredTools(sub("ASSIGN-EX")[0]!.body).all.filter((n) => n.startsWith("mcp__"))).toEqual([]);
    expect(offeredTools(sub("ASSIGN-ALL")[0]!.body).all).toEqual(expect.arrayContaining(["bash", "mcp__srv__pid", "mcp__srv__echo"]));
    // the todo list stays the parent's (as the reference): no subagent gets todo_write
    expect(offeredTools(reqs[0]!.body).all).toContain("todo_write");
    expect(offeredTools(sub("ASSIGN-ALL")[0]!.body).all).not.toContain("todo_write");
    expect(resultText(endOf(frames, "t1"))).toContain("cc done");
    // the parent's server is still there after the subagents closed their sessions
    const servers = await p.request({ type: "get_mcp_servers" });
    expect(servers.data.servers).toMatchObject([{ name: "srv", status: "connected" }]);
  }, 90_000);

  it("an agent definition with tools: read, grep cannot call bash", async () => {
    const p = await start({}, (cwd) => projectFile(cwd, ".pith/agents/greper.md", "---\nname: greper\ndescription: Reads and greps\ntools: read, grep\n---\nYou only read.\n"));
    const P = "use greper";
    llm.enqueue(
      forParent(P, taskCall("t4", "greper", [["g", "ASSIGN-GREP"]])),
      forSub("ASSIGN-GREP", { toolCalls: [{ id: "sb", name: "bash", arguments: { command: "echo pwned > pwned.txt" } }] }),
      forSub("ASSIGN-GREP", { text: "bash was refused" }),
      forParent(P, { text: "ok" }),
    );
    const before = llm.requests.length;
    const frames = await p.promptAndWait(P, {}, 60_000);
    const parentFirst = llm.requests[before]!;
    // task is deferred by default: call_tool lists it with its agents
    const shelf = (parentFirst.body as { tools: Array<{ name: string; description: string }> }).tools.find((t) => t.name === "call_tool")!;
    expect(shelf.description).toMatch(/^- task\(.*\) Delegate focused jobs to subagents \(.*greper\)$/m);
    const subReqs = llm.requests.slice(before).filter((r) => firstUserText(r) === "ASSIGN-GREP");
    expect(offeredTools(subReqs[0]!.body)).toMatchObject({ native: ["read", "grep", "call_tool"], deferred: ["ast_grep"] });
    expect(JSON.stringify(subReqs[0]!.body.system)).toContain("You only read.");
    expect(JSON.stringify(subReqs[1]!.body)).toMatch(/bash/i);
    expect(resultText(endOf(frames, "t4"))).toContain("bash was refused");
    expect(readdirSync(p.cwd)).not.toContain("pwned.txt");
  }, 90_000);

  it("with a schema each subagent answers through submit_result and its section is the validated JSON", async () => {
    const p = await start();
    const P = "structured";
    const schema = { type: "object", properties: { n: { type: "number" } }, required: ["n"] };
    llm.enqueue(
      forParent(P, taskCall("t6", "task", [["s", "ASSIGN-SCHEMA"]], { schema })),
      forSub("ASSIGN-SCHEMA", { text: "I forgot the tool" }),
      forSub("ASSIGN-SCHEMA", { toolCalls: [{ id: "sr", name: "submit_result", arguments: { result: { data: { n: 42 } } } }] }),
      forSub("ASSIGN-SCHEMA", { text: "submitted" }),
      forParent(P, { text: "ok" }),
    );
    const before = llm.requests.length;
    const frames = await p.promptAndWait(P, {}, 60_000);
    const end = endOf(frames, "t6");
    expect(end.result.details.subagents[0].output).toEqual({ n: 42 });
    expect(resultText(end)).toContain('## Task s: job s\n{\n  "n": 42\n}');
    const subReqs = llm.requests.slice(before).filter((r) => firstUserText(r).includes("ASSIGN-SCHEMA"));
    expect(toolNames(subReqs[0]!)).toContain("submit_result");
    expect(JSON.stringify(subReqs[1]!.body)).toContain("You stopped without calling submit_result");
  }, 90_000);

  it("a subagent's permission ask reaches the host through the parent's dialog, naming the subagent", async () => {
    const p = await start({}, (cwd) => {
      projectFile(cwd, ".pith/settings.json", JSON.stringify({ permissions: { mode: "ask-writes" } }));
      projectFile(cwd, "notes.txt", "alpha\n");
    });
    const P = "edit via a subagent";
    llm.enqueue(
      forParent(P, taskCall("t7", "task", [["ed", "ASSIGN-EDIT"]])),
      forSub("ASSIGN-EDIT", { toolCalls: [{ id: "se", name: "edit", arguments: { path: "notes.txt", oldText: "alpha", newText: "beta" } }] }),
      forSub("ASSIGN-EDIT", { text: "edited" }),
      forParent(P, { text: "ok" }),
    );
    const from = p.frames.length;
    expect((await p.request({ type: "prompt", message: P })).success).toBe(true);
    const dialog = await p.waitFor((f) => f.type === "extension_ui_request" && f.method === "select", 30_000, from);
    expect(dialog.title).toBe("[subagent ed (task)] Allow edit: notes.txt?");
    expect(dialog.permission).toMatchObject({ toolCallId: "se", toolName: "edit" });
    p.send({ type: "extension_ui_response", id: dialog.id, value: "Allow once" });
    await p.waitIdle(30_000, from);
    expect(readFileSync(path.join(p.cwd, "notes.txt"), "utf8")).toBe("beta\n");
    expect(resultText(endOf(p.frames.slice(from), "t7"))).toContain("## Task ed: job ed\nedited");
  }, 90_000);

  it("aborting the parent mid-subagent ends every subagent", async () => {
    const p = await start();
    const P = "then abort";
    llm.enqueue(
      forParent(P, taskCall("t5", "explore", [["x", "ASSIGN-HANG-X"], ["y", "ASSIGN-HANG-Y"]])),
      forSub("ASSIGN-HANG-X", { hang: true }),
      forSub("ASSIGN-HANG-Y", { hang: true }),
    );
    expect((await p.request({ type: "set_subagent_subscription", level: "progress" })).data).toEqual({ level: "progress" });
    const before = llm.requests.length;
    const from = p.frames.length;
    expect((await p.request({ type: "prompt", message: P })).success).toBe(true);
    await llm.waitForRequests(before + 3, 30_000);
    // oh-my-pi's get_subagents lists both running subagents.
    const running = (await p.request({ type: "get_subagents" })).data.subagents;
    expect(running.map((s: Frame) => [s.id, s.status, s.agent, s.parentToolCallId, s.assignment])).toEqual([
      ["x", "running", "explore", "t5", "ASSIGN-HANG-X"],
      ["y", "running", "explore", "t5", "ASSIGN-HANG-Y"],
    ]);
    expect((await p.request({ type: "abort" })).success).toBe(true);
    await p.waitIdle(30_000, from);
    const end = endOf(p.frames.slice(from), "t5");
    expect(resultText(end)).toMatch(/## Task x: job x\n\[aborted\][\s\S]*## Task y: job y\n\[aborted\]/);
    expect(end.result.details.subagents.map((s: Frame) => s.status)).toEqual(["aborted", "aborted"]);
    const lifecycle = p.events("subagent_lifecycle", from).map((f) => `${f.payload.id}:${f.payload.status}`);
    expect(lifecycle.sort()).toEqual(["x:aborted", "x:started", "y:aborted", "y:started"]);
    expect(p.events("subagent_lifecycle", from)[0].payload).toMatchObject({ agent: "explore", agentSource: "bundled", parentToolCallId: "t5" });
    expect((await p.request({ type: "get_subagents" })).data.subagents).toEqual([]);
    const state = (await p.request({ type: "get_state" })).data;
    expect(state.isStreaming).toBe(false);
    // The process still answers and nothing left is waiting on the fake server.
    llm.enqueue({ text: "after abort" });
    const frames = await p.promptAndWait("still alive?", {}, 30_000);
    expect(frames.some((f) => f.type === "agent_end")).toBe(true);
  }, 90_000);

  it("close_session of a created session ends its running subagents and releases their files", async () => {
    const p = await start();
    const created = (await p.request({ type: "create_session" })).data;
    const S = created.sessionId as string;
    const P = "delegate then close";
    llm.enqueue(forParent(P, taskCall("tc", "explore", [["h", "ASSIGN-HANG-CLOSE"]])), forSub("ASSIGN-HANG-CLOSE", { hang: true }));
    const before = llm.requests.length;
    const from = p.frames.length;
    expect((await p.request({ type: "prompt", message: P, sessionId: S })).success).toBe(true);
    await llm.waitForRequests(before + 2, 30_000);
    expect(existsSync(`${created.sessionFile}.lock`)).toBe(true); // held while the session runs
    const closed = await p.request({ type: "close_session", sessionId: S });
    expect(closed).toMatchObject({ success: true, sessionId: S });
    const mine = p.frames.slice(from).filter((f) => f.sessionId === S);
    const end = endOf(mine, "tc");
    expect(resultText(end)).toMatch(/## Task h: job h\n\[aborted\]/);
    expect(mine.findIndex((f) => f.type === "agent_end")).toBeLessThan(mine.findIndex((f) => f.type === "response" && f.command === "close_session"));
    // the subagent's file was written (its aborted turn) and linked; no lock is left on it nor on the session's
    const sub = sessionHeaders(p.pithHome).find((h) => h.header.parentSession === created.sessionFile)!;
    expect([created.sessionFile, sub.file].filter((f) => existsSync(`${f}.lock`))).toEqual([]);
    expect((await p.request({ type: "get_open_sessions" })).data.sessions.map((x: Frame) => x.isDefault)).toEqual([true]);
    llm.enqueue({ text: "first session still answers" });
    const frames = await p.promptAndWait("still there?", {}, 30_000);
    expect(frames.some((f) => f.type === "agent_end")).toBe(true);
  }, 90_000);

  it("aborting the parent while a subagent runs bash leaves no child process", async () => {
    const p = await start();
    const P = "abort the shell";
    const marker = `sleep ${31 + Math.floor(Math.random() * 1000) / 1000}`;
    llm.enqueue(forParent(P, taskCall("t8", "task", [["sh", "ASSIGN-SHELL"]])), forSub("ASSIGN-SHELL", { toolCalls: [{ id: "sl", name: "bash", arguments: { command: marker } }] }));
    const from = p.frames.length;
    expect((await p.request({ type: "prompt", message: P })).success).toBe(true);
    const live = (): boolean => execFileSync("ps", ["-eo", "args"], { encoding: "utf8" }).split("\n").some((l) => l.includes(marker) && !l.includes("ps -eo"));
    for (let i = 0; i < 200 && !live(); i++) await new Promise((r) => setTimeout(r, 50));
    expect(live()).toBe(true);
    expect((await p.request({ type: "abort" })).success).toBe(true);
    await p.waitIdle(30_000, from);
    expect(resultText(endOf(p.frames.slice(from), "t8"))).toContain("## Task sh: job sh\n[aborted]");
    expect(live()).toBe(false);
  }, 90_000);

  it("task.enabled false: the tool is not offered", async () => {
    const p = await start({ task: { enabled: false } });
    llm.enqueue({ text: "hi" });
    const before = llm.requests.length;
    await p.promptAndWait("no subagents", {}, 30_000);
    expect(toolNames(llm.requests[before]!)).not.toContain("task");
    expect(toolNames(llm.requests[before]!)).toContain("read");
  }, 60_000);
});

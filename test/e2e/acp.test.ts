// ACP mode end to end: `pith --mode acp` driven by the ACP SDK's own client against
// the scripted SSE server. Asserts the session/update notifications, the prompt responses, the
// files on disk, what the fake model received, and that stdout carries protocol frames only.
import * as acp from "@agentclientprotocol/sdk";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startAcp, type AcpRun, type AcpRunOptions } from "../support/acp-client.js";
import type { FakeRequest } from "../support/fake-llm-server.js";
import { CLI, fakeModelsJson, tempDir, useFakeLlm } from "./harness.js";
import { firstUserText, forParent, forSub, taskCall } from "./task-replies.js";
import { stdioFixture } from "../support/mcp-fakes.js";

const llm = useFakeLlm();
const runs: AcpRun[] = [];
afterEach(async () => {
  await Promise.all(runs.splice(0).map((r) => r.close()));
});

function home(): string {
  const h = tempDir("pith-acp-home-");
  writeFileSync(path.join(h, "models.json"), JSON.stringify(fakeModelsJson(llm.url)));
  return h;
}

async function start(over: Partial<AcpRunOptions> & { home?: string; extraArgs?: string[] } = {}): Promise<AcpRun & { home: string; cwd: string }> {
  const h = over.home ?? home();
  const cwd = over.cwd ?? tempDir("pith-acp-cwd-");
  const run = await startAcp({
    cli: CLI,
    args: ["--provider", "fake-anthropic", "--model", "fake-claude", ...(over.extraArgs ?? [])],
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: h, PITH_HOME: h },
    cwd,
    permission: over.permission,
    fs: over.fs,
  });
  runs.push(run);
  await run.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: over.fs ? { fs: { readTextFile: true, writeTextFile: true } } : {} });
  return Object.assign(run, { home: h, cwd });
}

const modelCalls = (from = 0): FakeRequest[] => llm.requests.slice(from).filter((r) => r.method === "POST");
const lastUserText = (r: FakeRequest): string => {
  const msgs = (r.body as { messages: Array<{ role: string; content: unknown }> }).messages;
  return JSON.stringify(msgs[msgs.length - 1]);
};

describe("pith --mode acp", () => {
  it("initializes with pith's capabilities", async () => {
    const h = home();
    const run = await startAcp({
      cli: CLI,
      args: ["--provider", "fake-anthropic", "--model", "fake-claude"],
      env: { PATH: process.env.PATH ?? "", HOME: h, PITH_HOME: h },
      cwd: tempDir(),
    });
    runs.push(run);
    const init = await run.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
    expect(init.protocolVersion).toBe(acp.PROTOCOL_VERSION);
    expect(init.agentCapabilities).toMatchObject({
      loadSession: true,
      promptCapabilities: { image: true, embeddedContext: true },
      mcpCapabilities: { http: true, sse: true },
    });
    expect(init.authMethods).toEqual([]);
  });

  it("streams a prompt with thinking and an edit: tool_call, a diff in tool_call_update, the file on disk", async () => {
    const run = await start();
    writeFileSync(path.join(run.cwd, "a.txt"), "hello world\n");
    const { sessionId } = await run.agent.request(acp.methods.agent.session.new, { cwd: run.cwd, mcpServers: [] });
    const from = llm.requests.length;
    llm.enqueue(
      { thinking: "I should edit", toolCalls: [{ id: "call_e", name: "edit", arguments: { path: "a.txt", oldText: "world", newText: "there" } }] },
      { text: ["Done", " editing."] },
    );
    const res = await run.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "edit a.txt" }] });
    expect(res.stopReason).toBe("end_turn");
    expect(readFileSync(path.join(run.cwd, "a.txt"), "utf8")).toBe("hello there\n");
    const ups = run.updatesOf(sessionId);
    expect(ups.some((u) => u.sessionUpdate === "agent_thought_chunk" && u.content.type === "text" && u.content.text.includes("edit"))).toBe(true);
    const text = ups.filter((u) => u.sessionUpdate === "agent_message_chunk").map((u) => (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? u.content.text : "")).join("");
    expect(text).toBe("Done editing.");
    const call = ups.find((u) => u.sessionUpdate === "tool_call");
    expect(call).toMatchObject({ toolCallId: "call_e", kind: "edit", locations: [{ path: path.join(run.cwd, "a.txt") }], rawInput: { path: "a.txt" } });
    const done = ups.find((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed");
    expect(done).toBeDefined();
    const diff = (done as { content: Array<Record<string, unknown>> }).content.find((c) => c.type === "diff");
    expect(diff).toEqual({ type: "diff", path: path.join(run.cwd, "a.txt"), oldText: "hello world\n", newText: "hello there\n" });
    // the model got the prompt, then the tool result
    const calls = modelCalls(from);
    expect(calls).toHaveLength(2);
    expect(lastUserText(calls[0]!)).toContain("edit a.txt");
    expect(lastUserText(calls[1]!)).toContain("call_e");
    // the session is a pith session file in the cwd's folder
    expect(run.stdoutLines.every((l) => l === "" || JSON.parse(l).jsonrpc === "2.0")).toBe(true);
  });

  it("cancel mid-tool answers cancelled and closes the open tool call", async () => {
    const run = await start();
    const { sessionId } = await run.agent.request(acp.methods.agent.session.new, { cwd: run.cwd, mcpServers: [] });
    llm.enqueue({ toolCalls: [{ id: "call_s", name: "bash", arguments: { command: "sleep 30" } }] });
    const pending = run.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "sleep" }] });
    await waitFor(() => run.updatesOf(sessionId).some((u) => u.sessionUpdate === "tool_call_update" && u.status === "in_progress"));
    await run.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    const res = await pending;
    expect(res.stopReason).toBe("cancelled");
    const last = run.updatesOf(sessionId).filter((u) => u.sessionUpdate === "tool_call_update").at(-1);
    expect(last).toMatchObject({ toolCallId: "call_s", status: "failed" });
    // the session takes the next prompt
    llm.enqueue({ text: "again" });
    expect((await run.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "next" }] })).stopReason).toBe("end_turn");
  });

  it("session/load in a new process replays the conversation in order and continues it", async () => {
    const first = await start();
    const { sessionId } = await first.agent.request(acp.methods.agent.session.new, { cwd: first.cwd, mcpServers: [] });
    writeFileSync(path.join(first.cwd, "n.txt"), "x");
    llm.enqueue({ thinking: "look", toolCalls: [{ id: "call_r", name: "read", arguments: { path: "n.txt" } }] }, { text: "It holds x." });
    await first.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "what is in n.txt?" }] });
    await first.close();
    const second = await start({ home: first.home, cwd: first.cwd });
    const listed = await second.agent.request(acp.methods.agent.session.list, { cwd: first.cwd });
    expect(listed.sessions.map((s) => s.sessionId)).toContain(sessionId);
    expect(listed.sessions.find((s) => s.sessionId === sessionId)).toMatchObject({ cwd: first.cwd, title: "what is in n.txt?" });
    await second.agent.request(acp.methods.agent.session.load, { sessionId, cwd: first.cwd, mcpServers: [] });
    const kinds = second.updatesOf(sessionId).map((u) => u.sessionUpdate).filter((k) => k !== "available_commands_update");
    expect(kinds).toEqual(["user_message_chunk", "agent_thought_chunk", "tool_call", "tool_call_update", "agent_message_chunk"]);
    const from = llm.requests.length;
    llm.enqueue({ text: "still x" });
    await second.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "and now?" }] });
    const body = JSON.stringify(modelCalls(from)[0]!.body);
    expect(body).toContain("what is in n.txt?");
    expect(body).toContain("It holds x.");
  });

  it("two sessions on one connection run independently", async () => {
    const run = await start();
    const cwd2 = tempDir("pith-acp-cwd2-");
    const a = await run.agent.request(acp.methods.agent.session.new, { cwd: run.cwd, mcpServers: [] });
    const b = await run.agent.request(acp.methods.agent.session.new, { cwd: cwd2, mcpServers: [] });
    expect(a.sessionId).not.toBe(b.sessionId);
    llm.enqueue({ text: "one" }, { text: "two" });
    const [ra, rb] = await Promise.all([
      run.agent.request(acp.methods.agent.session.prompt, { sessionId: a.sessionId, prompt: [{ type: "text", text: "first" }] }),
      run.agent.request(acp.methods.agent.session.prompt, { sessionId: b.sessionId, prompt: [{ type: "text", text: "second" }] }),
    ]);
    expect([ra.stopReason, rb.stopReason]).toEqual(["end_turn", "end_turn"]);
    const textOf = (id: string) => run.updatesOf(id).map((u) => (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? u.content.text : "")).join("");
    expect([textOf(a.sessionId), textOf(b.sessionId)].sort()).toEqual(["one", "two"]);
    await run.agent.request(acp.methods.agent.session.close, { sessionId: a.sessionId });
    await expect(run.agent.request(acp.methods.agent.session.prompt, { sessionId: a.sessionId, prompt: [{ type: "text", text: "x" }] })).rejects.toThrow();
  });

  it("reads and edits through the editor's file system when the client offers it", async () => {
    const cwd = tempDir("pith-acp-fs-");
    const file = path.join(cwd, "b.txt");
    writeFileSync(file, "disk text\n");
    const fs = { files: new Map([[file, "buffer text\n"]]), reads: [] as string[], writes: [] as string[] };
    const run = await start({ cwd, fs });
    const { sessionId } = await run.agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
    const from = llm.requests.length;
    llm.enqueue(
      { toolCalls: [{ id: "call_r", name: "read", arguments: { path: "b.txt" } }] },
      { toolCalls: [{ id: "call_e", name: "edit", arguments: { path: "b.txt", oldText: "buffer", newText: "edited" } }] },
      { text: "ok" },
    );
    await run.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "go" }] });
    expect(lastUserText(modelCalls(from)[1]!)).toContain("buffer text");
    expect(fs.files.get(file)).toBe("edited text\n");
    expect(fs.writes).toEqual([file]);
    expect(readFileSync(file, "utf8")).toBe("disk text\n");
    const done = run.updatesOf(sessionId).find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "call_e" && u.status === "completed");
    const diff = (done as { content: Array<Record<string, unknown>> }).content.find((c) => c.type === "diff");
    expect(diff).toEqual({ type: "diff", path: file, oldText: "buffer text\n", newText: "edited text\n" });
  });

  it("permission modes are session modes; an ask is session/request_permission and each answer is honoured", async () => {
    const answers = ["allow_once", "allow_always", "reject_once", undefined];
    const run = await start({ permission: () => answers.shift() });
    writeFileSync(path.join(run.cwd, "p.txt"), "v0\n");
    const created = await run.agent.request(acp.methods.agent.session.new, { cwd: run.cwd, mcpServers: [] });
    const { sessionId } = created;
    expect(created.modes?.currentModeId).toBe("allow");
    expect(created.modes?.availableModes.map((m) => m.id)).toEqual(["allow", "ask", "ask-writes", "read-only"]);
    await run.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: "ask-writes" });
    expect(run.updatesOf(sessionId).some((u) => u.sessionUpdate === "current_mode_update" && u.currentModeId === "ask-writes")).toBe(true);
    const edit = (id: string, from: string, to: string) => ({ toolCalls: [{ id, name: "edit", arguments: { path: "p.txt", oldText: from, newText: to } }] });
    const from = llm.requests.length;
    // allow once: edited; allow always: edited, and the next edit does not ask; deny; cancel
    llm.enqueue(edit("e1", "v0", "v1"), edit("e2", "v1", "v2"), edit("e3", "v2", "v3"), { text: "done" });
    await run.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "edit" }] });
    expect(readFileSync(path.join(run.cwd, "p.txt"), "utf8")).toBe("v3\n");
    expect(run.permissionRequests).toHaveLength(2);
    expect(run.permissionRequests[0]!.options.map((o) => o.kind)).toEqual(["allow_once", "allow_always", "reject_once", "reject_always"]);
    expect(run.permissionRequests[0]!.toolCall).toMatchObject({ toolCallId: "e1", kind: "edit" });
    await run.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: "ask" });
    llm.enqueue({ toolCalls: [{ id: "b1", name: "bash", arguments: { command: "touch denied.txt" } }] }, { toolCalls: [{ id: "b2", name: "bash", arguments: { command: "touch cancelled.txt" } }] }, { text: "ok" });
    await run.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "touch" }] });
    expect(run.permissionRequests).toHaveLength(4);
    const calls = modelCalls(from);
    expect(lastUserText(calls[calls.length - 2]!)).toMatch(/denied/i);
    expect(lastUserText(calls[calls.length - 1]!)).toMatch(/denied|cancel/i);
    expect(existsSync(path.join(run.cwd, "denied.txt"))).toBe(false);
    expect(existsSync(path.join(run.cwd, "cancelled.txt"))).toBe(false);
  });

  it("starts the MCP servers session/new names and the model can call their tools", async () => {
    const run = await start();
    const fx = stdioFixture("fx");
    const { sessionId } = await run.agent.request(acp.methods.agent.session.new, {
      cwd: run.cwd,
      mcpServers: [{ name: "fx", command: fx.command, args: fx.args ?? [], env: [] }],
    });
    const from = llm.requests.length;
    llm.enqueue({ toolCalls: [{ id: "m1", name: "mcp__fx__echo", arguments: { text: "hi" } }] }, { text: "echoed" });
    const res = await run.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "echo" }] });
    expect(res.stopReason).toBe("end_turn");
    const calls = modelCalls(from);
    expect(JSON.stringify((calls[0]!.body as { tools: unknown }).tools)).toContain("mcp__fx__echo");
    expect(lastUserText(calls[1]!)).toContain("fx: hi");
    expect(run.updatesOf(sessionId).find((u) => u.sessionUpdate === "tool_call")).toMatchObject({ toolCallId: "m1", kind: "other" });
  });

  it("subagents: the task call is shown as task, a subagent uses the editor's MCP servers and asks the editor before writing", async () => {
    const run = await start({ permission: () => "allow_once" });
    const fx = stdioFixture("fx");
    const { sessionId } = await run.agent.request(acp.methods.agent.session.new, {
      cwd: run.cwd,
      mcpServers: [{ name: "fx", command: fx.command, args: fx.args ?? [], env: [] }],
    });
    await run.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: "ask-writes" });
    const P = "delegate from the editor";
    llm.enqueue(
      forParent(P, taskCall("t1", "task", [["w", "ASSIGN-EDITOR"]])),
      forSub("ASSIGN-EDITOR", { toolCalls: [{ id: "m1", name: "mcp__fx__echo", arguments: { text: "from the subagent" } }] }),
      forSub("ASSIGN-EDITOR", { toolCalls: [{ id: "b1", name: "bash", arguments: { command: "echo made > sub.txt" } }] }),
      forSub("ASSIGN-EDITOR", { text: "wrote it" }),
      forParent(P, { text: "done" }),
    );
    const from = llm.requests.length;
    const res = await run.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: P }] });
    expect(res.stopReason).toBe("end_turn");
    // the editor sees the parent's call_tool call as the task it runs
    expect(run.updatesOf(sessionId).find((u) => u.sessionUpdate === "tool_call" && u.toolCallId === "t1")).toMatchObject({ kind: "think", rawInput: { agent: "task" } });
    // the subagent reached the MCP server the editor named, through the parent's connection
    const sub = modelCalls(from).filter((r) => firstUserText(r) === "ASSIGN-EDITOR");
    expect(JSON.stringify(sub[1]!.body)).toContain("fx: from the subagent");
    // its bash asked the editor, naming the subagent, and ran once allowed
    const asks = run.permissionRequests.filter((r) => r.toolCall.toolCallId === "b1");
    expect(asks).toHaveLength(1);
    expect(asks[0]!.toolCall).toMatchObject({ kind: "execute", title: expect.stringContaining("[subagent w (task)]") });
    expect(readFileSync(path.join(run.cwd, "sub.txt"), "utf8")).toBe("made\n");
  });

  it("switches the model through session config options", async () => {
    const run = await start();
    const created = await run.agent.request(acp.methods.agent.session.new, { cwd: run.cwd, mcpServers: [] });
    const model = created.configOptions?.find((o) => o.id === "model");
    expect(model).toMatchObject({ type: "select", currentValue: "fake-anthropic/fake-claude" });
    const res = await run.agent.request(acp.methods.agent.session.setConfigOption, { sessionId: created.sessionId, configId: "model", value: "fake-openai/fake-gpt" });
    expect(res.configOptions.find((o) => o.id === "model")).toMatchObject({ currentValue: "fake-openai/fake-gpt" });
    const from = llm.requests.length;
    llm.enqueue({ text: "from gpt" });
    await run.agent.request(acp.methods.agent.session.prompt, { sessionId: created.sessionId, prompt: [{ type: "text", text: "hi" }] });
    expect(modelCalls(from)[0]!.path).toContain("/chat/completions");
  });

  it("extension dialogs become permission requests, slash commands run, and stdout stays clean", async () => {
    const ext = path.join(tempDir("pith-acp-ext-"), "probe.ts");
    writeFileSync(
      ext,
      `export default function (pi) {
        console.log("noise from an extension");
        pi.registerTool({
          name: "ask_first", label: "Ask", description: "asks", parameters: { type: "object", properties: {} },
          async execute(_id, _p, signal, _u, ctx) {
            const ok = await ctx.ui.confirm("Delete?", "really", { signal });
            const pick = await ctx.ui.select("Colour", ["red", "blue"], { signal });
            return { content: [{ type: "text", text: "ok=" + ok + " pick=" + pick }], details: {} };
          },
        });
        pi.registerCommand("hello", { description: "Says hello", handler: async (args, ctx) => { console.log("more noise"); ctx.ui.notify("hello " + args); } });
      }`,
    );
    const run = await start({ extraArgs: ["-e", ext], permission: (req) => (req.options.some((o) => o.optionId === "yes") ? "yes" : "1") });
    const { sessionId } = await run.agent.request(acp.methods.agent.session.new, { cwd: run.cwd, mcpServers: [] });
    await waitFor(() => run.updatesOf(sessionId).some((u) => u.sessionUpdate === "available_commands_update"));
    const cmds = run.updatesOf(sessionId).find((u) => u.sessionUpdate === "available_commands_update") as { availableCommands: Array<{ name: string }> };
    expect(cmds.availableCommands.map((c) => c.name)).toEqual(["hello"]);
    const from = llm.requests.length;
    llm.enqueue({ toolCalls: [{ id: "call_a", name: "ask_first", arguments: {} }] }, { text: "asked" });
    await run.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "ask" }] });
    expect(run.permissionRequests.map((r) => r.toolCall.title)).toEqual(["Delete?: really", "Colour"]);
    expect(lastUserText(modelCalls(from)[1]!)).toContain("ok=true pick=blue");
    // a slash command runs without a model call
    const before = modelCalls().length;
    const res = await run.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "/hello world" }] });
    expect(res.stopReason).toBe("end_turn");
    expect(modelCalls().length).toBe(before);
    expect(run.updatesOf(sessionId).some((u) => u.sessionUpdate === "notice" && (u as { title: string }).title === "hello world")).toBe(true);
    // nothing but JSON-RPC on stdout; the extension's console.log went to stderr
    for (const line of run.stdoutLines) if (line !== "") expect(JSON.parse(line).jsonrpc).toBe("2.0");
    expect(run.stderr()).toContain("noise from an extension");
    expect(run.stderr()).toContain("more noise");
  });
});

async function waitFor(pred: () => boolean, ms = 10_000): Promise<void> {
  const t0 = Date.now();
  while (!pred()) {
    if (Date.now() - t0 > ms) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 20));
  }
}


// Extensions end to end: the example extensions loaded
// with `-e`, the extension UI sub-protocol answered by the test acting as the host, dialog
// timeout and abort (`method:"cancel"`), handler errors, setTitle suppression, load failures,
// slash commands while busy, `get_commands`, and extension-requested shutdown. Tool results
// are asserted on what the fake LLM received.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlmServer, type FakeLlm, type FakeRequest } from "../support/fake-llm-server.js";
import { Pith, fakeModelsJson, tempDir, type Frame } from "./harness.js";

const EXAMPLES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../examples/extensions");
const ASK_USER = path.join(EXAMPLES, "ask-user.ts");
const NOTIFY_ON_TURN = path.join(EXAMPLES, "notify-on-turn.ts");
const BROKEN = path.join(EXAMPLES, "broken.ts");
const TRIGGER = "please-break-the-extension";

// A test-only extension: a dialog with a timeout, setTitle, a busy-time command, shutdown.
// It is written to a fresh temp dir on every run, so jiti's disk cache (keyed by path) never
// holds it and the built CLI really transpiles TypeScript (a cache filled by unit tests once
// hid that the bundled jiti could not find its transformer).
const PROBE_SOURCE = `
export default function probe(pi) {
  pi.registerTool({
    name: "probe_timeout",
    label: "Probe timeout",
    description: "Asks a select dialog that times out.",
    parameters: { type: "object", properties: {}, additionalProperties: false },
    async execute(_id, _params, signal, _onUpdate, ctx) {
      let timedOut = false;
      const choice = await ctx.ui.select("Pick one", ["a", "b"], { timeout: 150, signal, onTimeout: () => (timedOut = true) });
      return { content: [{ type: "text", text: "choice=" + String(choice) + " timedOut=" + timedOut }], details: {} };
    },
  });
  pi.registerCommand("title", {
    description: "Sets the terminal title",
    handler: async (args, ctx) => {
      ctx.ui.setTitle(args);
      ctx.ui.notify("title-done:" + args);
    },
  });
  pi.registerCommand("ping", {
    description: "Answers with a notification",
    handler: async (args, ctx) => ctx.ui.notify("pong:" + args + " idle=" + ctx.isIdle()),
  });
  pi.registerCommand("bye", {
    description: "Asks pith to shut down",
    handler: async (_args, ctx) => {
      await new Promise((r) => setTimeout(r, 5));
      ctx.shutdown();
      ctx.ui.notify("shutdown-requested");
    },
  });
  pi.on("session_shutdown", (_event, ctx) => ctx.ui.notify("session-shutdown-seen"));
}
`;

let llm: FakeLlm;
let probe: string;
const open: Pith[] = [];
beforeAll(async () => {
  llm = await startFakeLlmServer();
  probe = path.join(tempDir("pith-ext-"), "probe.ts");
  writeFileSync(probe, PROBE_SOURCE);
});
afterAll(async () => {
  await llm.close();
});
afterEach(async () => {
  for (const p of open.splice(0)) if (p.child.exitCode === null) p.child.kill("SIGKILL");
});

async function start(extensions: string[], env: Record<string, string> = {}): Promise<Pith> {
  const args = ["--provider", "fake-openai", "--model", "fake-gpt", ...extensions.flatMap((e) => ["-e", e])];
  const p = await Pith.start({ modelsJson: fakeModelsJson(llm.url), args, env });
  open.push(p);
  return p;
}

/** Model calls only (live model discovery also sends `GET /models` to the fake). */
const chats = (): FakeRequest[] => llm.requests.filter((r) => r.method === "POST");

/** The `role:"tool"` messages of one chat-completions request, as {id, text}. */
function toolResults(req: FakeRequest): { id: string; text: string }[] {
  return req.body.messages
    .filter((m: Frame) => m.role === "tool")
    .map((m: Frame) => ({
      id: m.tool_call_id,
      text: typeof m.content === "string" ? m.content : m.content.map((b: Frame) => b.text ?? "").join(""),
    }));
}

const uiRequest = (method: string) => (f: Frame) => f.type === "extension_ui_request" && f.method === method;
const notified = (message: string) => (f: Frame) => uiRequest("notify")(f) && f.message === message;

/** Prompts so that the model calls `tool` once; resolves when the prompt is acknowledged. */
async function promptIntoTool(p: Pith, tool: string, callId: string, args: Record<string, unknown> = {}): Promise<number> {
  llm.enqueue({ toolCalls: [{ id: callId, name: tool, arguments: args }] });
  const from = p.frames.length;
  const res = await p.request({ type: "prompt", message: `call ${tool}` });
  expect(res.success).toBe(true);
  return from;
}

describe("extension UI sub-protocol", () => {
  it("ask-user: confirm, select, input answered by the host reach the model as the tool result", async () => {
    const p = await start([ASK_USER]);
    const before = chats().length;
    const from = await promptIntoTool(p, "deploy_check", "call_ask", { service: "api" });

    const confirm = await p.waitFor(uiRequest("confirm"), 10_000, from);
    expect(confirm).toEqual({ type: "extension_ui_request", id: expect.any(String), method: "confirm", title: "Deploy", message: "Deploy api now?" });
    expect(chats()[before].body.tools.map((t: Frame) => t.function.name)).toContain("deploy_check");
    // An answer to an unknown id is ignored and never answered.
    p.send({ type: "extension_ui_response", id: "no-such-dialog", confirmed: false });
    p.send({ type: "extension_ui_response", id: confirm.id, confirmed: true });

    const select = await p.waitFor(uiRequest("select"), 5000, from);
    expect(select).toMatchObject({ title: "Environment", options: ["staging", "production"] });
    expect(select.id).not.toBe(confirm.id);
    p.send({ type: "extension_ui_response", id: select.id, value: "production" });

    const input = await p.waitFor(uiRequest("input"), 5000, from);
    expect(input).toMatchObject({ title: "Release note", placeholder: "what changed?" });
    llm.enqueue({ text: "deployed" });
    p.send({ type: "extension_ui_response", id: input.id, value: "faster startup" });

    await p.waitFor(notified("Deploying api to production"), 5000, from);
    await p.waitIdle(15_000, from);
    expect(toolResults(chats()[before + 1])).toEqual([{ id: "call_ask", text: "confirmed=true environment=production note=faster startup" }]);
    const end = p.events("tool_execution_end", from)[0];
    expect(end.result.details).toEqual({ deployed: true, environment: "production", note: "faster startup" });
    expect(p.frames.slice(from).filter((f) => f.type === "response" && f.command === "extension_ui_response")).toEqual([]);
    expect(p.frames.slice(from).filter((f) => f.type === "response" && !f.success)).toEqual([]);
  });

  it("a cancelled response resolves the dialog with its default", async () => {
    const p = await start([ASK_USER]);
    const before = chats().length;
    const from = await promptIntoTool(p, "deploy_check", "call_cancel", { service: "web" });
    const confirm = await p.waitFor(uiRequest("confirm"), 10_000, from);
    llm.enqueue({ text: "ok, not deploying" });
    p.send({ type: "extension_ui_response", id: confirm.id, cancelled: true });
    await p.waitIdle(15_000, from);
    expect(toolResults(chats()[before + 1])).toEqual([{ id: "call_cancel", text: "Deploy of web cancelled by the user." }]);
    expect(p.events("extension_ui_request", from).filter((f) => f.method === "select")).toEqual([]);
  });

  it("a dialog timeout resolves to the default, runs onTimeout and sends a cancel request", async () => {
    const p = await start([probe]);
    const before = chats().length;
    const from = await promptIntoTool(p, "probe_timeout", "call_to");
    llm.enqueue({ text: "timed out" });
    const select = await p.waitFor(uiRequest("select"), 10_000, from);
    expect(select).toMatchObject({ title: "Pick one", options: ["a", "b"], timeout: 150 });
    const cancel = await p.waitFor(uiRequest("cancel"), 5000, from);
    expect(cancel).toEqual({ type: "extension_ui_request", id: expect.any(String), method: "cancel", targetId: select.id });
    await p.waitIdle(15_000, from);
    // A late answer is ignored.
    p.send({ type: "extension_ui_response", id: select.id, value: "a" });
    expect(toolResults(chats()[before + 1])).toEqual([{ id: "call_to", text: "choice=undefined timedOut=true" }]);
    expect((await p.request({ type: "get_state" })).success).toBe(true);
  });

  it("abort cancels an open dialog with a cancel request and ends the run", async () => {
    const p = await start([ASK_USER]);
    const before = chats().length;
    const from = await promptIntoTool(p, "deploy_check", "call_abort", { service: "db" });
    const confirm = await p.waitFor(uiRequest("confirm"), 10_000, from);
    const abort = await p.request({ type: "abort" });
    expect(abort.success).toBe(true);
    const cancel = await p.waitFor(uiRequest("cancel"), 5000, from);
    expect(cancel).toMatchObject({ method: "cancel", targetId: confirm.id });
    await p.waitIdle(15_000, from);
    // The tool saw the default (false) and stopped: no further dialog, no further model call.
    expect(p.events("extension_ui_request", from).filter((f) => f.method === "select")).toEqual([]);
    expect(chats().length).toBe(before + 1);
    const end = p.events("tool_execution_end", from)[0];
    expect(end).toMatchObject({ toolCallId: "call_abort", result: { content: [{ type: "text", text: "Deploy of db cancelled by the user." }] } });
    // The next prompt carries that result to the model.
    llm.enqueue({ text: "ok" });
    await p.promptAndWait("what happened?");
    expect(toolResults(chats()[before + 1])).toEqual([{ id: "call_abort", text: "Deploy of db cancelled by the user." }]);
  });
});

describe("extension handlers, commands and lifecycle", () => {
  it("a throwing handler yields an extension_error frame and the run continues", async () => {
    const p = await start([NOTIFY_ON_TURN]);
    const before = chats().length;
    llm.enqueue({ text: "still here" });
    const frames = await p.promptAndWait(`hello ${TRIGGER}`);
    const err = frames.find((f) => f.type === "extension_error");
    expect(err).toEqual({
      type: "extension_error",
      extensionPath: NOTIFY_ON_TURN,
      event: "before_agent_start",
      error: `notify-on-turn refused the prompt (it contains ${TRIGGER})`,
    });
    const end = frames.filter((f) => f.type === "message_end" && f.message.role === "assistant").at(-1);
    expect(end?.message.content).toEqual([{ type: "text", text: "still here" }]);
    const sent = chats()[before].body.messages.filter((m: Frame) => m.role === "user");
    expect(JSON.stringify(sent)).toContain(TRIGGER);
    // Other handlers of the same extension still run: turn_end → notify + setStatus.
    await p.waitFor(notified("Turn 0 finished"), 5000);
    await p.waitFor((f) => uiRequest("setStatus")(f) && f.statusKey === "turns" && f.statusText === "1 turn(s)", 5000);
  });

  it("setTitle is suppressed by default", async () => {
    const p = await start([probe]);
    const from = p.frames.length;
    expect((await p.request({ type: "prompt", message: "/title My Title" })).success).toBe(true);
    await p.waitFor(notified("title-done:My Title"), 5000, from);
    expect(p.events("extension_ui_request", from).filter((f) => f.method === "setTitle")).toEqual([]);
  });

  it("setTitle is emitted with PITH_RPC_EMIT_TITLE=1", async () => {
    const p = await start([probe], { PITH_RPC_EMIT_TITLE: "1" });
    const from = p.frames.length;
    expect((await p.request({ type: "prompt", message: "/title My Title" })).success).toBe(true);
    await p.waitFor(notified("title-done:My Title"), 5000, from);
    const titles = p.events("extension_ui_request", from).filter((f) => f.method === "setTitle");
    expect(titles).toEqual([{ type: "extension_ui_request", id: expect.any(String), method: "setTitle", title: "My Title" }]);
  });

  it("a broken extension file does not stop startup; the others load", async () => {
    const p = await start([BROKEN, NOTIFY_ON_TURN]);
    const state = await p.request({ type: "get_state" });
    expect(state.success).toBe(true);
    expect(state.data.isStreaming).toBe(false);
    expect(p.stderr).toContain("Failed to load extension: broken extension: fails at load time on purpose");
    // Load failures are logged, not sent as extension_error frames.
    expect(p.events("extension_error")).toEqual([]);
    const commands = await p.request({ type: "get_commands" });
    expect(commands.data.commands.map((c: Frame) => c.name)).toEqual(["turns"]);
  });

  it("get_commands lists extension commands with name, description and source", async () => {
    const p = await start([probe, NOTIFY_ON_TURN]);
    const res = await p.request({ type: "get_commands" });
    expect(res.success).toBe(true);
    const byName = Object.fromEntries(res.data.commands.map((c: Frame) => [c.name, c]));
    expect(Object.keys(byName).sort()).toEqual(["bye", "ping", "title", "turns"]);
    expect(byName.ping).toMatchObject({ name: "ping", description: "Answers with a notification", source: "extension", path: probe });
    expect(byName.turns).toMatchObject({ description: "Show (or reset with `reset`) the number of turns seen", source: "extension", path: NOTIFY_ON_TURN });
  });

  it("an extension command in prompt text runs immediately even while busy", async () => {
    const p = await start([ASK_USER, probe]);
    const before = chats().length;
    const from = await promptIntoTool(p, "deploy_check", "call_busy", { service: "api" });
    const confirm = await p.waitFor(uiRequest("confirm"), 10_000, from);
    expect((await p.request({ type: "get_state" })).data.isStreaming).toBe(true);
    // No streamingBehavior needed, and it is not queued: it runs while the dialog is open.
    const res = await p.request({ type: "prompt", message: "/ping a b" });
    expect(res).toMatchObject({ command: "prompt", success: true });
    await p.waitFor(notified("pong:a b idle=false"), 5000, from);
    const state = await p.request({ type: "get_state" });
    expect(state.data).toMatchObject({ isStreaming: true, queuedMessageCount: 0 });
    // A plain prompt while busy is still refused (it is not a command).
    expect((await p.request({ type: "prompt", message: "/notacommand" })).success).toBe(false);
    llm.enqueue({ text: "fine" });
    p.send({ type: "extension_ui_response", id: confirm.id, confirmed: false });
    await p.waitIdle(15_000, from);
    // The command text never reached the model.
    expect(JSON.stringify(chats()[before + 1].body.messages)).not.toContain("/ping");
  });

  it("extension-requested shutdown exits 0 after the next command", async () => {
    const p = await start([probe]);
    const from = p.frames.length;
    expect((await p.request({ type: "prompt", message: "/bye" })).success).toBe(true);
    await p.waitFor(notified("shutdown-requested"), 5000, from);
    expect(p.child.exitCode).toBeNull();
    const state = await p.request({ type: "get_state" });
    expect(state.success).toBe(true);
    const exit = await p.exited;
    expect(exit.code).toBe(0);
    expect(p.events("extension_ui_request", from).some(notified("session-shutdown-seen"))).toBe(true);
  });
});

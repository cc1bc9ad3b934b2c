// The client against a programmable fake agent (test/support/fake-agent.mjs), which also
// proves the client can drive any command that speaks the protocol.
import { afterEach, describe, expect, it } from "vitest";
import { fileURLToPath } from "node:url";
import { COMMAND_TYPES, type RpcCommandType } from "../protocol/index.js";
import { RpcClientError, RpcError } from "./errors.js";
import { RpcClient } from "./rpc-client.js";
import { methodNameOf, type RpcClientOptions } from "./types.js";

const FAKE = fileURLToPath(new URL("../../test/support/fake-agent.mjs", import.meta.url));
const open: RpcClient[] = [];

async function fake(flags: string[] = [], opts: RpcClientOptions = {}): Promise<RpcClient> {
  const client = new RpcClient({ command: process.execPath, args: [FAKE, ...flags], onError: () => {}, ...opts });
  open.push(client);
  return client.start();
}
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

/** Frames the fake received (excluding its control frames). */
async function received(client: RpcClient): Promise<any[]> {
  const got = client.waitForEvent("__received" as any, { timeoutMs: 10_000 });
  client.send({ type: "__dump" });
  return ((await got) as any).frames;
}
const emit = (client: RpcClient, frames: object[], raw?: string) => client.send({ type: "__emit", frames, raw });

const SAMPLE_ARGS: Partial<Record<RpcCommandType, unknown[]>> = {
  prompt: ["hi", { streamingBehavior: "steer" }],
  steer: ["s"],
  follow_up: ["f"],
  abort_and_prompt: ["p"],
  new_session: ["/tmp/parent.jsonl"],
  set_todos: [[{ id: "p1", name: "P", tasks: [] }]],
  set_host_tools: [[]],
  set_model: ["scripted", "m.json"],
  set_thinking_level: ["high"],
  set_steering_mode: ["all"],
  set_follow_up_mode: ["all"],
  set_interrupt_mode: ["immediate"],
  compact: ["focus"],
  set_auto_compaction: [false],
  set_auto_retry: [false],
  bash: ["echo hi"],
  export_html: ["/tmp/x.html"],
  switch_session: ["/tmp/s.jsonl"],
  branch: ["abcd1234"],
  set_session_name: ["name"],
  fork: ["abcd1234"],
  set_delta_streaming: [true],
  set_permissions: [{ mode: "ask-writes", allow: ["bash(npm test)"], sessionAllow: [] }],
  set_mcp_servers: [{}],
  set_subagent_subscription: ["events"],
  get_subagent_messages: [{ subagentId: "a", fromByte: 3 }],
};

describe("RpcClient: wire", () => {
  it("waits for ready, records the version and correlates req_<n> ids", async () => {
    const c = await fake();
    expect(c.version).toBe("fake-1");
    const a = c.getSessionStats();
    const b = c.getMessages();
    expect(((await a) as any).echo).toMatchObject({ id: "req_1", type: "get_session_stats" });
    expect(((await b) as any).echo).toMatchObject({ id: "req_2", type: "get_messages" });
  });

  it("sends the right command type and fields from every command method", async () => {
    const c = await fake();
    for (const type of COMMAND_TYPES) {
      const method = (c as any)[methodNameOf(type)] as (...a: unknown[]) => Promise<any>;
      const data = await method.apply(c, SAMPLE_ARGS[type] ?? []);
      if (type === "get_state") expect(data).toEqual({ isStreaming: false });
      else expect(data.echo.type).toBe(type);
    }
    const frames = await received(c);
    expect(frames.find((f) => f.type === "set_model")).toMatchObject({ provider: "scripted", modelId: "m.json" });
    expect(frames.find((f) => f.type === "prompt")).toMatchObject({ message: "hi", streamingBehavior: "steer" });
    expect("images" in frames.find((f) => f.type === "steer")).toBe(false); // undefined keys omitted
    expect(frames.find((f) => f.type === "set_todos").phases).toEqual([{ id: "p1", name: "P", tasks: [] }]);
    expect(frames.find((f) => f.type === "get_subagent_messages")).toMatchObject({ subagentId: "a", fromByte: 3 });
    expect(frames.find((f) => f.type === "set_subagent_subscription")).toMatchObject({ level: "events" });
    expect(frames.find((f) => f.type === "set_permissions").rules).toEqual({ mode: "ask-writes", allow: ["bash(npm test)"], sessionAllow: [] });
  });

  it("rejects a failed response with an RpcError carrying error and command", async () => {
    const c = await fake();
    c.send({ type: "__fail", command: "set_session_name", error: "Session name cannot be empty" });
    const err = await c.setSessionName(" ").catch((e) => e);
    expect(err).toBeInstanceOf(RpcError);
    expect(err).toMatchObject({ error: "Session name cannot be empty", command: "set_session_name", id: "req_1" });
  });

  it("parses LF-only frames: U+2028 in strings, CRLF, and skips foreign lines", async () => {
    const c = await fake();
    const seen: any[] = [];
    c.on("extension_error", (f) => seen.push(f));
    const any: string[] = [];
    c.onAny((f) => any.push(f.type));
    const done = c.waitForEvent("todo_auto_clear");
    const frame = { type: "extension_error", extensionPath: "x", event: "e", error: "a\u2028b\u2029c" };
    emit(c, [], `console noise\n${JSON.stringify(frame)}\r\n[1,2]\n{"type":"todo_auto_clear"}\n`);
    await done;
    expect(seen).toEqual([frame]);
    expect(any).toEqual(["extension_error", "todo_auto_clear"]);
  });

  it("unsubscribes listeners", async () => {
    const c = await fake();
    let count = 0;
    const off = c.on("todo_auto_clear", () => count++);
    emit(c, [{ type: "todo_auto_clear" }]);
    await c.waitForEvent("todo_auto_clear");
    off();
    emit(c, [{ type: "todo_auto_clear" }]);
    await c.waitForEvent("todo_auto_clear");
    expect(count).toBe(1);
  });

  it("rejects start with the stderr text when the process exits before ready", async () => {
    const err = await fake(["--exit-early"]).catch((e) => e);
    expect(err).toBeInstanceOf(RpcClientError);
    expect(err.code).toBe("exited");
    expect(err.message).toMatch(/code 3/);
    expect(err.message).toContain("fatal: no models available");
  });

  it("rejects start when no ready frame arrives in time, and kills the process", async () => {
    const client = new RpcClient({ command: process.execPath, args: [FAKE, "--silent"], readyTimeoutMs: 300 });
    open.push(client);
    const err = await client.start().catch((e) => e);
    expect(err).toMatchObject({ code: "ready_timeout" });
    expect((await client.exited).signal).toBe("SIGKILL");
  });

  it("rejects start when the command cannot be spawned", async () => {
    const client = new RpcClient({ command: "/nonexistent/agent-binary" });
    const err = await client.start().catch((e) => e);
    expect(err).toMatchObject({ code: "spawn_failed" });
  });

  it("drives agents without a ready frame when waitForReady is false", async () => {
    const c = await fake(["--no-ready"], { waitForReady: false });
    expect(c.version).toBeUndefined();
    expect(await c.getState()).toEqual({ isStreaming: false });
  });

  it("rejects pending requests when the process exits", async () => {
    const c = await fake();
    c.send({ type: "__fail", command: "never", error: "x" }); // harmless
    const closing = c.close();
    const err = await c.getState().catch((e) => e);
    expect(err).toBeInstanceOf(RpcClientError);
    expect((await closing).code).toBe(0);
  });
});

describe("RpcClient: idle detection", () => {
  it("waitForIdle waits across agent_end while get_state still reports streaming (retry)", async () => {
    const c = await fake();
    c.send({ type: "__busy", value: true });
    emit(c, [{ type: "agent_start" }]);
    await c.waitForEvent("agent_start");
    let idle = false;
    const waiting = c.waitForIdle({ timeoutMs: 20_000 }).then(() => (idle = true));
    emit(c, [{ type: "agent_end", messages: [] }, { type: "auto_retry_start", attempt: 1, maxAttempts: 3, delayMs: 0, errorMessage: "x" }]);
    await c.waitForEvent("auto_retry_start");
    for (let i = 0; i < 3; i++) await c.getState();
    expect(idle).toBe(false);
    emit(c, [{ type: "agent_start" }, { type: "agent_end", messages: [] }]);
    await c.waitForEvent("agent_end");
    await c.getState();
    expect(idle).toBe(false);
    c.send({ type: "__busy", value: false });
    await waiting;
    expect(idle).toBe(true);
  });

  it("promptAndWait returns the messages of every run of the prompt", async () => {
    const c = await fake();
    c.send({ type: "__busy", value: true });
    const acked = c.waitForEvent("response", { predicate: (r) => r.command === "prompt" });
    const result = c.promptAndWait("go", { timeoutMs: 20_000 });
    await acked;
    const user = { role: "user", content: "go", timestamp: 1 };
    const a = { role: "custom", customType: "a", content: "A", display: false, timestamp: 2 };
    emit(c, [{ type: "agent_start" }, { type: "agent_end", messages: [user, a] }, { type: "agent_start" }]);
    await c.waitForEvent("agent_start");
    emit(c, [{ type: "agent_end", messages: [a] }]);
    c.send({ type: "__busy", value: false });
    expect(await result).toEqual([user, a, a]);
  });

  it("promptAndWait rejects on a late prompt error", async () => {
    const c = await fake();
    c.send({ type: "__busy", value: true });
    c.send({ type: "__late", command: "prompt", error: "No API key found for x." });
    const err = await c.promptAndWait("go").catch((e) => e);
    expect(err).toBeInstanceOf(RpcError);
    expect(err.error).toBe("No API key found for x.");
  });
});

describe("RpcClient: host tools and dialogs", () => {
  const def = { name: "echo_host", description: "Echo", parameters: { type: "object" } };

  it("registers definitions without execute and answers calls with updates and a result", async () => {
    const c = await fake();
    await c.setHostTools([
      {
        ...def,
        label: "Echo",
        async execute(args, ctx) {
          ctx.update({ content: [{ type: "text", text: `working on ${ctx.toolCallId}` }] });
          return { content: [{ type: "text", text: String(args.message) }], details: { ok: true } };
        },
      },
    ]);
    emit(c, [{ type: "host_tool_call", id: "h1", toolCallId: "t1", toolName: "echo_host", arguments: { message: "hello" } }]);
    let frames = await received(c);
    while (!frames.some((f) => f.type === "host_tool_result")) frames = await received(c);
    expect(frames[0].tools).toEqual([{ ...def, label: "Echo" }]);
    expect(frames.slice(1)).toEqual([
      { type: "host_tool_update", id: "h1", partialResult: { content: [{ type: "text", text: "working on t1" }] } },
      { type: "host_tool_result", id: "h1", result: { content: [{ type: "text", text: "hello" }], details: { ok: true } } },
    ]);
  });

  it("sends readOnly with a definition that declares it", async () => {
    const c = await fake();
    const execute = async () => ({ content: [] });
    await c.setHostTools([
      { ...def, readOnly: true, execute },
      { ...def, name: "change_host", execute },
    ]);
    const [frame] = await received(c);
    expect(frame.tools).toEqual([{ ...def, readOnly: true }, { ...def, name: "change_host" }]);
  });

  it("reports a throwing execute and an unknown tool as isError results", async () => {
    const c = await fake();
    await c.setHostTools([{ ...def, execute: async () => Promise.reject(new Error("disk full")) }]);
    emit(c, [
      { type: "host_tool_call", id: "h1", toolCallId: "t1", toolName: "echo_host", arguments: {} },
      { type: "host_tool_call", id: "h2", toolCallId: "t2", toolName: "nope", arguments: {} },
    ]);
    let results: any[] = [];
    while (results.length < 2) results = (await received(c)).filter((f) => f.type === "host_tool_result");
    const byId = Object.fromEntries(results.map((r) => [r.id, r]));
    expect(byId.h1).toEqual({ type: "host_tool_result", id: "h1", result: { content: [{ type: "text", text: "disk full" }] }, isError: true });
    expect(byId.h2.isError).toBe(true);
    expect(byId.h2.result.content[0].text).toMatch(/nope/);
  });

  it("aborts the execute signal on host_tool_cancel and sends no result", async () => {
    const c = await fake();
    let aborted!: () => void;
    const wasAborted = new Promise<void>((r) => (aborted = r));
    await c.setHostTools([
      {
        ...def,
        execute: (_args, ctx) =>
          new Promise((resolve) =>
            ctx.signal.addEventListener("abort", () => {
              aborted();
              resolve({ content: [{ type: "text", text: "late" }] });
            }),
          ),
      },
    ]);
    emit(c, [{ type: "host_tool_call", id: "h1", toolCallId: "t1", toolName: "echo_host", arguments: {} }]);
    emit(c, [{ type: "host_tool_cancel", id: "c1", targetId: "h1" }]);
    await wasAborted;
    expect((await received(c)).filter((f) => f.type === "host_tool_result")).toEqual([]);
  });

  it("answers dialogs with the handler, cancels on undefined, and aborts on a cancel request", async () => {
    const c = await fake();
    const asked: string[] = [];
    let editorAborted!: () => void;
    const editorGone = new Promise<void>((r) => (editorAborted = r));
    c.onUiRequest(async (req, { signal }) => {
      asked.push(req.method);
      if (req.method === "confirm") return { confirmed: true };
      if (req.method === "select") return { value: req.options[1] };
      if (req.method === "editor") {
        await new Promise((r) => signal.addEventListener("abort", r));
        editorAborted();
        return { value: "too late" };
      }
      return undefined;
    });
    emit(c, [
      { type: "extension_ui_request", id: "u1", method: "confirm", title: "T", message: "M" },
      { type: "extension_ui_request", id: "u2", method: "select", title: "T", options: ["a", "b"] },
      { type: "extension_ui_request", id: "u3", method: "input", title: "T" },
      { type: "extension_ui_request", id: "u4", method: "notify", message: "fyi" },
      { type: "extension_ui_request", id: "u5", method: "editor", title: "T" },
      { type: "extension_ui_request", id: "u6", method: "cancel", targetId: "u5" },
    ]);
    await editorGone;
    let answers: any[] = [];
    while (answers.length < 3) answers = (await received(c)).filter((f) => f.type === "extension_ui_response");
    expect(asked).toEqual(["confirm", "select", "input", "editor"]);
    expect(answers).toEqual(
      expect.arrayContaining([
        { type: "extension_ui_response", id: "u1", confirmed: true },
        { type: "extension_ui_response", id: "u2", value: "b" },
        { type: "extension_ui_response", id: "u3", cancelled: true },
      ]),
    );
    expect((await received(c)).filter((f) => f.type === "extension_ui_response")).toHaveLength(3);
  });

  it("session handles answer their own dialogs; closing a session aborts its open ones and drops its handler", async () => {
    const c = await fake();
    const asked: string[] = [];
    c.onUiRequest(async (req) => {
      asked.push(`client:${req.id}:${req.sessionId ?? "first"}`);
      return { value: "client" };
    });
    let s1Aborted!: (reason: string) => void;
    const s1Gone = new Promise<string>((r) => (s1Aborted = r));
    c.session("s1").onUiRequest(async (req, { signal }) => {
      asked.push(`s1:${req.id}`);
      if (req.id === "u1") return { value: "s1" };
      await new Promise((r) => signal.addEventListener("abort", r));
      s1Aborted((signal.reason as Error).message);
      return { value: "too late" };
    });
    const dialog = (id: string, sessionId?: string) => ({ type: "extension_ui_request", id, method: "select", title: "T", options: ["a"], sessionId });
    emit(c, [dialog("u1", "s1"), dialog("u2"), dialog("u3", "s2"), dialog("u4", "s1")]);
    let answers: any[] = [];
    while (answers.length < 3) answers = (await received(c)).filter((f) => f.type === "extension_ui_response");
    expect(answers).toEqual(
      expect.arrayContaining([
        { type: "extension_ui_response", id: "u1", value: "s1" },
        { type: "extension_ui_response", id: "u2", value: "client" },
        { type: "extension_ui_response", id: "u3", value: "client" },
      ]),
    );
    await c.session("s1").close();
    expect(await s1Gone).toBe("the session was closed");
    emit(c, [dialog("u5", "s1")]); // its handler is gone: the client's answers
    while (answers.length < 4) answers = (await received(c)).filter((f) => f.type === "extension_ui_response");
    expect(answers.map((a) => a.id).sort()).toEqual(["u1", "u2", "u3", "u5"]); // never u4
    expect(asked.sort()).toEqual(["client:u2:first", "client:u3:s2", "client:u5:s1", "s1:u1", "s1:u4"]);
  });
});

describe("RpcClient: shutdown", () => {
  it("closes stdin and returns the clean exit code", async () => {
    const c = await fake();
    expect(await c.close()).toEqual({ code: 0, signal: null });
    expect(c.isRunning).toBe(false);
  });

  it("kills the whole process group when the agent ignores EOF: no orphan", async () => {
    const c = await fake(["--ignore-eof"], { closeGraceMs: 200 });
    const sleeper = c.waitForEvent("__sleeper" as any);
    c.send({ type: "__spawn_sleeper" });
    const pid = ((await sleeper) as any).pid as number;
    expect(alive(pid)).toBe(true);
    const info = await c.close();
    expect(info.signal).toBe("SIGKILL");
    for (let i = 0; i < 200 && alive(pid); i++) await new Promise((r) => setTimeout(r, 25));
    expect(alive(pid)).toBe(false);
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

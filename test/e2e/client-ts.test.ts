// The TypeScript host client (src/client) against the real built dist/cli.js with the
// scripted provider: every command method, host tools, dialogs, abort, steering, sessions
// and a shutdown that leaves no process behind.
import { afterEach, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { RpcClient, RpcError, type RpcClientOptions } from "../../src/client/index.js";
import type { AgentMessage } from "../../src/shared/types.js";
import { Served, TOKEN } from "./serve-harness.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const CLI = path.join(ROOT, "dist/cli.js");
const ASK_USER = path.join(ROOT, "examples/extensions/ask-user.ts");
const open: RpcClient[] = [];
const servers: Served[] = [];

afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
  for (const s of servers.splice(0)) s.child.kill("SIGKILL");
});

/** The command tests run over both ways a host reaches pith: a spawned `--mode rpc`, and `pith serve`. */
type Via = "stdio" | "websocket";
const VIAS: readonly Via[] = ["stdio", "websocket"];

const temp = (prefix: string) => mkdtempSync(path.join(tmpdir(), prefix));

interface Started {
  client: RpcClient;
  cwd: string;
  home: string;
}

/** Starts pith with a scripted model playing `replies`. */
async function startPith(
  replies: object[],
  extraArgs: string[] = [],
  opts: RpcClientOptions = {},
  settings?: object,
  via: Via = "stdio",
): Promise<Started> {
  const cwd = temp("pith-client-cwd-");
  const home = temp("pith-client-home-");
  if (settings) writeFileSync(path.join(home, "settings.json"), JSON.stringify(settings));
  writeFileSync(path.join(cwd, "script.json"), JSON.stringify({ replies }));
  if (via === "websocket") {
    const env = { PATH: process.env.PATH, HOME: home, PITH_HOME: home };
    const served = await Served.spawn(["--provider", "scripted", "--model", "script.json", ...extraArgs], { pithHome: home, cwd, env });
    servers.push(served);
    const client = await RpcClient.connect(served.url, { token: TOKEN, ...opts });
    open.push(client);
    return { client, cwd, home };
  }
  const client = new RpcClient({
    cliPath: CLI,
    cwd,
    env: { PATH: process.env.PATH, HOME: home, PITH_HOME: home },
    args: ["--provider", "scripted", "--model", "script.json", ...extraArgs],
    ...opts,
  });
  open.push(client);
  await client.start();
  return { client, cwd, home };
}

/** startPith over `via`, for the suites that run over both transports. */
function startOver(via: Via): typeof startPith {
  return (replies, extraArgs, opts, settings) => startPith(replies, extraArgs, opts, settings, via);
}

const textOf = (m: AgentMessage | undefined): string =>
  m && Array.isArray((m as any).content)
    ? (m as any).content.filter((b: any) => b.type === "text").map((b: any) => b.text).join("")
    : String((m as any)?.content ?? "");
const byRole = (ms: AgentMessage[], role: string) => ms.filter((m) => m.role === role);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== "ESRCH";
  }
}
async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 200 && alive(pid); i++) await new Promise((r) => setTimeout(r, 25));
  return !alive(pid);
}

describe("RpcClient.promptForOutput", () => {
  it("resolves with the validated data, rejects with the reason or the refusal", async () => {
    const schema = { type: "object", properties: { n: { type: "integer" } }, required: ["n"] };
    const submit = (result: object) => ({ toolCalls: [{ name: "submit_result", arguments: { result } }] });
    const { client } = await startPith([submit({ data: { n: "one" } }), submit({ data: { n: 1 } }), submit({ error: "no idea" })]);
    expect(await client.promptForOutput<{ n: number }>("count", schema, { timeoutMs: 30_000 })).toEqual({ n: 1 });
    await expect(client.promptForOutput("again", schema, { timeoutMs: 30_000 })).rejects.toThrow("no idea");
    await expect(client.promptForOutput("bad", { type: "strin" }, { timeoutMs: 30_000 })).rejects.toBeInstanceOf(RpcError);
  });
});

describe.each(VIAS)("RpcClient against dist/cli.js over %s: prompting", (via) => {
  const startPith = startOver(via);
  it("streams text and returns the run's messages", async () => {
    const { client } = await startPith([{ text: "Hello there, host." }]);
    expect(client.version).toMatch(/^\d+\.\d+\.\d+/);
    let streamed = "";
    client.on("message_update", (f) => {
      if (f.assistantMessageEvent.type === "text_delta") streamed += f.assistantMessageEvent.delta;
    });
    const messages = await client.promptAndWait("Say hello", { timeoutMs: 30_000 });
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(textOf(messages[1])).toBe("Hello there, host.");
    expect(streamed).toBe("Hello there, host.");
    expect(await client.getLastAssistantText()).toEqual({ text: "Hello there, host." });
    expect((await client.getState()).isStreaming).toBe(false);
  });

  it("rejects failed commands with an RpcError naming the command", async () => {
    const { client } = await startPith([]);
    const err = await client.setModel("no-such-provider", "x").catch((e) => e);
    expect(err).toBeInstanceOf(RpcError);
    expect(err.command).toBe("set_model");
    expect(err.error).toMatch(/no-such-provider/);
    const empty = await client.setSessionName("   ").catch((e) => e);
    expect(empty).toMatchObject({ command: "set_session_name", error: "Session name cannot be empty" });
  });

  it("aborts a streaming run; waitForIdle returns and the aborted message is reported", async () => {
    const { client } = await startPith([{ text: ["one ", "two ", "three"], chunkDelayMs: 60_000 }]);
    const firstDelta = client.waitForEvent("message_update");
    const ends: AgentMessage[][] = [];
    client.on("agent_end", (f) => ends.push(f.messages));
    await client.prompt("Count slowly");
    await firstDelta;
    await client.abort();
    await client.waitForIdle({ timeoutMs: 30_000 });
    const assistant = byRole(ends.flat(), "assistant")[0] as any;
    expect(assistant.stopReason).toBe("aborted");
    expect((await client.getState()).isStreaming).toBe(false);
  });

  it("delivers steering and follow-up messages into the running prompt", async () => {
    const { client } = await startPith([
      { toolCalls: [{ name: "hold_host", arguments: {} }] },
      { text: "Steered." },
      { text: "Followed up." },
    ]);
    // The run is held inside a host tool until both messages are queued: no timing involved.
    let release!: () => void;
    const queued = new Promise<void>((r) => (release = r));
    let entered!: () => void;
    const inTool = new Promise<void>((r) => (entered = r));
    await client.setHostTools([
      {
        name: "hold_host",
        description: "Waits for the host",
        parameters: { type: "object" },
        async execute() {
          entered();
          await queued;
          return { content: [{ type: "text", text: "released" }] };
        },
      },
    ]);
    const run = client.promptAndWait("Start", { timeoutMs: 30_000 });
    await inTool;
    await client.steer("Change course");
    await client.followUp("And then this");
    expect((await client.getState()).queuedMessageCount).toBe(2);
    release();
    const messages = await run;
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "user", "assistant", "user", "assistant"]);
    expect(byRole(messages, "user").map(textOf)).toEqual(["Start", "Change course", "And then this"]);
    expect(byRole(messages, "assistant").map(textOf).slice(1)).toEqual(["Steered.", "Followed up."]);
  });

  it("abortAndPrompt replaces a running prompt; a busy prompt can be queued as follow-up", async () => {
    const { client } = await startPith([{ text: ["slow ", "reply"], chunkDelayMs: 60_000 }, { text: "Fresh answer." }, { text: "Queued answer." }]);
    const started = client.waitForEvent("message_update");
    await client.prompt("First");
    await started;
    const busy = await client.prompt("Too early").catch((e) => e);
    expect(busy).toBeInstanceOf(RpcError);
    expect(busy.error).toMatch(/already processing/);
    await client.abortAndPrompt("Second");
    await client.prompt("Third", { streamingBehavior: "followUp" });
    await client.waitForIdle({ timeoutMs: 30_000 });
    const { messages } = await client.getMessages();
    expect(byRole(messages, "user").map(textOf)).toEqual(["First", "Second", "Third"]);
    expect(byRole(messages, "assistant").map(textOf).slice(-2)).toEqual(["Fresh answer.", "Queued answer."]);
  });
});

describe.each(VIAS)("RpcClient against dist/cli.js over %s: host tools and dialogs", (via) => {
  const startPith = startOver(via);
  const echoDef = {
    name: "echo_host",
    label: "Echo Host",
    description: "Echo a value from the embedding host",
    parameters: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
  };

  it("answers host tool calls with updates and results, and errors as isError", async () => {
    const { client } = await startPith([
      { toolCalls: [{ name: "echo_host", arguments: { message: "hi" } }] },
      { toolCalls: [{ name: "fail_host", arguments: {} }] },
      { text: "All done." },
    ]);
    const updates: string[] = [];
    client.on("tool_execution_update", (f) => updates.push(textOf(f.partialResult as any)));
    const res = await client.setHostTools([
      {
        ...echoDef,
        async execute(args, ctx) {
          ctx.update({ content: [{ type: "text", text: "working" }] });
          return { content: [{ type: "text", text: `echo: ${args.message}` }], details: { echoed: true } };
        },
      },
      { name: "fail_host", description: "Always fails", parameters: { type: "object" }, execute: async () => Promise.reject(new Error("host says no")) },
    ]);
    expect(res.toolNames).toEqual(["echo_host", "fail_host"]);
    const messages = await client.promptAndWait("Use the host tools", { timeoutMs: 30_000 });
    const results = byRole(messages, "toolResult") as any[];
    expect(results.map((r) => [r.toolName, textOf(r), r.isError])).toEqual([
      ["echo_host", "echo: hi", false],
      ["fail_host", "host says no", true],
    ]);
    expect(results[0].details).toEqual({ echoed: true });
    expect(updates).toContain("working");
    expect(textOf(messages.at(-1))).toBe("All done.");
  });

  it("aborts a pending host tool: the execute signal fires on host_tool_cancel", async () => {
    const { client } = await startPith([{ toolCalls: [{ name: "echo_host", arguments: { message: "wait" } }] }, { text: "unused" }]);
    let resolveCalled!: () => void;
    const called = new Promise<void>((r) => (resolveCalled = r));
    let signalAborted = false;
    await client.setHostTools([
      {
        ...echoDef,
        execute: (_args, ctx) =>
          new Promise((resolve) => {
            resolveCalled();
            ctx.signal.addEventListener("abort", () => {
              signalAborted = true;
              resolve({ content: [{ type: "text", text: "stopped" }] });
            });
          }),
      },
    ]);
    const cancel = client.waitForEvent("host_tool_cancel");
    await client.prompt("Call and hang");
    await called;
    await client.abort();
    await cancel;
    await client.waitForIdle({ timeoutMs: 30_000 });
    expect(signalAborted).toBe(true);
    const { messages } = await client.getMessages();
    const result = byRole(messages, "toolResult")[0] as any;
    expect(result.isError).toBe(true);
  });

  it("answers extension dialogs through onUiRequest (ask-user extension)", async () => {
    const { client } = await startPith(
      [{ toolCalls: [{ name: "deploy_check", arguments: { service: "api" } }] }, { text: "Deployed." }],
      ["-e", ASK_USER],
    );
    const asked: string[] = [];
    const notes: string[] = [];
    client.on("extension_ui_request", (f) => {
      if (f.method === "notify") notes.push(f.message);
    });
    client.onUiRequest(async (req) => {
      asked.push(`${req.method}:${req.title}`);
      if (req.method === "confirm") return { confirmed: true };
      if (req.method === "select") return { value: req.options[0] };
      return { value: "first release" };
    });
    const messages = await client.promptAndWait("Deploy the api", { timeoutMs: 30_000 });
    expect(asked).toEqual(["confirm:Deploy", "select:Environment", "input:Release note"]);
    const result = byRole(messages, "toolResult")[0];
    expect(textOf(result)).toBe("confirmed=true environment=staging note=first release");
    expect(notes).toEqual(["Deploying api to staging"]);
  });

  it("a dialog the handler declines is answered as cancelled", async () => {
    const { client } = await startPith(
      [{ toolCalls: [{ name: "deploy_check", arguments: { service: "db" } }] }, { text: "Skipped." }],
      ["-e", ASK_USER],
    );
    client.onUiRequest(async () => undefined);
    const messages = await client.promptAndWait("Deploy the db", { timeoutMs: 30_000 });
    expect(textOf(byRole(messages, "toolResult")[0])).toBe("Deploy of db cancelled by the user.");
  });
});

describe("RpcClient against dist/cli.js: file checkpoints", () => {
  it("lists, diffs and restores the checkpoint of a prompt, and undoes the restore", async () => {
    const replies = [{ toolCalls: [{ name: "write", arguments: { path: "a.txt", content: "one" } }] }, { text: "Wrote it." }];
    const { client, cwd } = await startPith(replies, ["--file-checkpoints"]);
    expect((await client.getState()).fileCheckpoints).toEqual({ enabled: true });
    const created: string[] = [];
    client.on("checkpoint_created", (e) => created.push(e.checkpointId));
    await client.promptAndWait("Write a.txt", { timeoutMs: 30_000 });
    const { checkpoints } = await client.getCheckpoints();
    expect(checkpoints.map((c) => [c.kind, c.prompt])).toEqual([["prompt", "Write a.txt"]]);
    expect(created).toEqual([checkpoints[0].checkpointId]);
    const diff = await client.diffCheckpoint(checkpoints[0].checkpointId);
    expect(diff.files).toEqual([{ path: "a.txt", status: "added", additions: 1, deletions: 0 }]);
    const restored = await client.restoreCheckpoint(checkpoints[0].checkpointId, { mode: "both" });
    expect(restored.deleted).toEqual(["a.txt"]);
    expect(existsSync(path.join(cwd, "a.txt"))).toBe(false);
    expect((await client.getMessages()).messages).toEqual([]);
    await client.restoreCheckpoint(restored.undoCheckpointId, { paths: ["a.txt"] });
    expect(existsSync(path.join(cwd, "a.txt"))).toBe(true);
    await expect(client.restoreCheckpoint("0123456789abcdef")).rejects.toBeInstanceOf(RpcError);
  });
});

describe.each(VIAS)("RpcClient against dist/cli.js over %s: state and session commands", (via) => {
  const startPith = startOver(via);
  it("drives the getters, setters and mode commands", async () => {
    const { client, cwd } = await startPith([{ text: "x" }]);
    const state = await client.getState();
    expect(state.model?.provider).toBe("scripted");
    expect((await client.getAvailableModels()).models.some((m) => m.provider === "scripted")).toBe(true);
    writeFileSync(path.join(cwd, "other.json"), JSON.stringify({ replies: [{ text: "other" }] }));
    expect((await client.setModel("scripted", "other.json")).id).toMatch(/other\.json$/);
    const cycled = await client.cycleModel();
    expect(cycled === null || typeof cycled.model.id === "string").toBe(true);
    await client.setThinkingLevel("high");
    expect((await client.getState()).thinkingLevel).toBe("high");
    const next = await client.cycleThinkingLevel();
    expect(next?.level).toBe("xhigh");
    await client.setSteeringMode("all");
    await client.setFollowUpMode("all");
    await client.setInterruptMode("immediate");
    await client.setAutoCompaction(false);
    await client.setAutoRetry(false);
    await client.abortRetry();
    await client.setDeltaStreaming(false);
    const after = await client.getState();
    expect(after).toMatchObject({ steeringMode: "all", followUpMode: "all", interruptMode: "immediate", autoCompactionEnabled: false });
    const todos = await client.setTodos([{ id: "phase-1", name: "Plan", tasks: [{ id: "task-1", content: "Do it", status: "pending" }] }]);
    expect(todos.todoPhases[0].tasks[0].content).toBe("Do it");
    const bash = await client.bash("echo from-bash");
    expect(bash).toMatchObject({ exitCode: 0, cancelled: false });
    expect(bash.output).toContain("from-bash");
    await client.abortBash();
    expect(Array.isArray((await client.getCommands()).commands)).toBe(true);
  });

  it("drives the session commands: stats, export, name, branch/fork, clone, new, switch, compact", async () => {
    const { client, cwd } = await startPith(
      [{ text: "First answer." }, { text: "Second answer." }, ...Array(3).fill({ text: "Summary of the talk." })],
      [],
      {},
      { compaction: { keepRecentTokens: 5 } },
    );
    await client.promptAndWait("First question", { timeoutMs: 30_000 });
    await client.promptAndWait("Second question", { timeoutMs: 30_000 });
    const stats = await client.getSessionStats();
    expect(stats).toMatchObject({ userMessages: 2, assistantMessages: 2 });
    await client.setSessionName("client e2e");
    const state = await client.getState();
    expect(state.sessionName).toBe("client e2e");
    const originalFile = state.sessionFile!;
    const html = path.join(cwd, "out.html");
    expect((await client.exportHtml(html)).path).toBe(html);
    expect(existsSync(html)).toBe(true);
    const branchable = await client.getBranchMessages();
    expect(branchable.messages.map((m) => m.text)).toEqual(["First question", "Second question"]);
    expect((await client.getForkMessages()).messages).toEqual(branchable.messages);
    const branched = await client.branch(branchable.messages[1].entryId);
    expect(branched).toEqual({ text: "Second question", cancelled: false });
    expect((await client.getState()).messageCount).toBe(2);
    expect((await client.clone()).cancelled).toBe(false);
    expect(await client.fork(branchable.messages[0].entryId)).toEqual({ text: "First question", cancelled: false });
    expect((await client.newSession()).cancelled).toBe(false);
    expect((await client.getState()).messageCount).toBe(0);
    expect((await client.switchSession(originalFile)).cancelled).toBe(false);
    expect((await client.getMessages()).messages).toHaveLength(4);
    const compacted = await client.compact("keep it short");
    expect(compacted.summary).toContain("Summary of the talk.");
    expect((await client.getMessages()).messages[0].role).toBe("compactionSummary");
  });
});

describe("RpcClient against dist/cli.js: shutdown", () => {
  it("closes cleanly with exit code 0", async () => {
    const { client } = await startPith([]);
    expect(await client.close()).toEqual({ code: 0, signal: null });
  });

  it("leaves no orphan: a background process started by bash and a hung run end with close()", async () => {
    const { client } = await startPith([{ text: ["never ", "finishes"], chunkDelayMs: 600_000 }], [], { closeGraceMs: 1_000 });
    const out = await client.bash("sleep 300 & echo $!");
    const sleeper = Number(out.output.trim());
    expect(sleeper).toBeGreaterThan(0);
    const pid = client.pid!;
    const started = client.waitForEvent("message_update");
    await client.prompt("Hang");
    await started;
    await client.close();
    expect(await gone(pid)).toBe(true);
    expect(await gone(sleeper)).toBe(true);
  });

  it("the bundled dist/client.js finds dist/cli.js by default", async () => {
    const mod = (await import(pathToFileURL(path.join(ROOT, "dist/client.js")).href)) as typeof import("../../src/client/index.js");
    const home = temp("pith-client-home-");
    const client = await mod.RpcClient.start({ cwd: home, env: { PATH: process.env.PATH, HOME: home, PITH_HOME: home } });
    open.push(client);
    expect((await client.getState()).isStreaming).toBe(false);
    expect(await client.close()).toEqual({ code: 0, signal: null });
  });
});

describe("examples/hosts (offline, scripted)", () => {
  const runExample = (name: string) =>
    new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ["--import", "tsx", path.join(ROOT, "examples/hosts", name)], { cwd: ROOT, timeout: 60_000 }, (err, stdout, stderr) =>
        err ? reject(new Error(`${name} failed: ${err.message}\n${stdout}\n${stderr}`)) : resolve(stdout),
      ),
    );

  it("minimal-host prints the streamed text", async () => {
    const out = await runExample("minimal-host.ts");
    expect(out).toContain("Let me look at the current directory.");
    expect(out).toContain("[tool] ls");
    expect(out).toMatch(/\[done\] \d+ messages/);
  });

  it("host-tool serves its tool", async () => {
    const out = await runExample("host-tool.ts");
    expect(out).toContain("[host] registered lookup_ticket");
    expect(out).toContain("[tool result] lookup_ticket isError=false");
    expect(out).toContain("PITH-42 is open and assigned to the host team.");
  });

  it("ui-handler answers the ask-user dialogs", async () => {
    const out = await runExample("ui-handler.ts");
    expect(out).toContain('[dialog] confirm "Deploy" → {"confirmed":true}');
    expect(out).toContain("confirmed=true environment=staging note=automated answer");
  });
});

import { describe, expect, it } from "vitest";
import type { ToolCall } from "../shared/types.js";
import type { Tool, ToolOutcome } from "../tools/types.js";
import { createExtensionRuntime } from "./api.js";
import type { ExtensionHost } from "./host.js";
import { loadExtensionFactory, type LoadedExtensions } from "./loader.js";
import { DEFAULT_BLOCK_REASON } from "./reducers.js";
import { ExtensionRunner } from "./runner.js";
import { errorSink, fakeHost, recordingUi } from "../../test/support/extensions.js";
import type { ExtensionAPI, ExtensionErrorInfo } from "./types.js";

type Factory = (pi: ExtensionAPI) => void;

async function setup(factories: Record<string, Factory>, host: ExtensionHost = fakeHost()) {
  const sink = errorSink();
  const runtime = createExtensionRuntime(sink.onError);
  const loaded: LoadedExtensions = { runtime, extensions: [] };
  for (const [path, factory] of Object.entries(factories)) {
    loaded.extensions.push(await loadExtensionFactory(path, factory, runtime));
  }
  return { runner: new ExtensionRunner(loaded, host, sink.onError), errors: sink.errors as ExtensionErrorInfo[], host };
}

const call: ToolCall = { type: "toolCall", id: "call_1", name: "bash", arguments: { command: "ls" } };
const tool = { name: "bash" } as Tool;
const ok: ToolOutcome = { result: { content: [{ type: "text", text: "a\nb" }], details: { n: 2 } }, isError: false };

describe("ExtensionRunner events", () => {
  it("fans out in load order, then registration order, and numbers turns per run", async () => {
    const log: string[] = [];
    const { runner } = await setup({
      "/a.ts": (pi) => {
        pi.on("turn_start", (e) => void log.push(`a1:${e.turnIndex}`));
        pi.on("turn_start", () => void log.push("a2"));
      },
      "/b.ts": (pi) => pi.on("turn_start", (e) => void log.push(`b1:${e.turnIndex}`)),
    });
    await runner.emit({ type: "agent_start" });
    await runner.emit({ type: "turn_start" });
    await runner.emit({ type: "turn_end", message: {} as never, toolResults: [] });
    await runner.emit({ type: "turn_start" });
    expect(log).toEqual(["a1:0", "a2", "b1:0", "a1:1", "a2", "b1:1"]);
  });

  it("reports a throwing handler and still runs the remaining ones", async () => {
    const log: string[] = [];
    const { runner, errors } = await setup({
      "/bad.ts": (pi) =>
        pi.on("agent_end", () => {
          throw new Error("kaput");
        }),
      "/good.ts": (pi) => pi.on("agent_end", async () => void log.push("good")),
    });
    await expect(runner.emit({ type: "agent_end", messages: [] })).resolves.toBeUndefined();
    expect(errors).toEqual([{ extensionPath: "/bad.ts", event: "agent_end", error: "kaput" }]);
    expect(log).toEqual(["good"]);
  });

  it("chains context replacements and before_agent_start prompts", async () => {
    const seen: number[] = [];
    const { runner } = await setup({
      "/a.ts": (pi) => {
        pi.on("context", (e) => ({ messages: [...e.messages, { role: "custom" } as never] }));
        pi.on("before_agent_start", (e) => ({ systemPrompt: `${e.systemPrompt}+a`, message: { customType: "a", content: "x", display: false } }));
      },
      "/b.ts": (pi) => {
        pi.on("context", (e) => void seen.push(e.messages.length));
        pi.on("before_agent_start", (e) => ({ systemPrompt: `${e.systemPrompt}+b` }));
      },
    });
    const ctx = await runner.emit({ type: "context", messages: [] });
    expect(ctx?.messages).toHaveLength(1);
    expect(seen).toEqual([1]);
    const start = await runner.emit({ type: "before_agent_start", prompt: "hi", systemPrompt: "sys", systemPromptOptions: { cwd: "/" } });
    expect(start).toEqual({ systemPrompt: "sys+a+b", messages: [{ customType: "a", content: "x", display: false }] });
  });

  it("lets session_before_switch cancel (first cancel wins) and answers undefined without handlers", async () => {
    const { runner } = await setup({ "/a.ts": (pi) => pi.on("session_before_switch", () => ({ cancel: true })) });
    expect(await runner.emit({ type: "session_before_switch", reason: "new" })).toEqual({ cancel: true });
    expect(await runner.emit({ type: "session_before_fork", entryId: "x", position: "before" })).toBeUndefined();
  });
});

describe("ExtensionRunner tool interception", () => {
  it("tool_call {block:true} stops the tool with the reason (or the default one)", async () => {
    let ran = 0;
    const run = async () => (ran++, ok);
    const { runner } = await setup({
      "/guard.ts": (pi) =>
        pi.on("tool_call", (e) => (e.input.command === "ls" ? { block: true, reason: "no ls" } : { block: true })),
    });
    expect(await runner.wrapToolExecution(call, tool, run)).toEqual({
      result: { content: [{ type: "text", text: "no ls" }], details: {} },
      isError: true,
    });
    const other = { ...call, arguments: { command: "pwd" } };
    expect((await runner.wrapToolExecution(other, tool, run)).result.content).toEqual([{ type: "text", text: DEFAULT_BLOCK_REASON }]);
    expect(ran).toBe(0);
  });

  it("a throwing tool_call handler blocks with 'Extension <path> failed' and is reported", async () => {
    const { runner, errors } = await setup({
      "/x.ts": (pi) =>
        pi.on("tool_call", () => {
          throw new Error("oops");
        }),
    });
    const outcome = await runner.wrapToolExecution(call, tool, async () => ok);
    expect(outcome.result.content).toEqual([{ type: "text", text: "Extension /x.ts failed: oops" }]);
    expect(errors).toEqual([{ extensionPath: "/x.ts", event: "tool_call", error: "oops" }]);
  });

  it("tool_result patches chain and may turn success into an error", async () => {
    const { runner } = await setup({
      "/a.ts": (pi) => pi.on("tool_result", (e) => ({ content: [{ type: "text", text: `${(e.content[0] as { text: string }).text}!` }] })),
      "/b.ts": (pi) => pi.on("tool_result", (e) => ({ isError: (e.content[0] as { text: string }).text.endsWith("!") })),
    });
    expect(await runner.wrapToolExecution(call, tool, async () => ok)).toEqual({
      result: { content: [{ type: "text", text: "a\nb!" }], details: { n: 2 } },
      isError: true,
    });
  });

  it("without handlers the tool simply runs", async () => {
    const { runner } = await setup({});
    const { wrapToolExecution } = runner;
    expect(await wrapToolExecution(call, tool, async () => ok)).toBe(ok);
  });
});

describe("ExtensionRunner tools and commands", () => {
  it("adapts registered tools to pith's Tool with pi's execute signature", async () => {
    const seen: unknown[] = [];
    const { runner, errors } = await setup({
      "/t.ts": (pi) => {
        pi.registerTool({
          name: "echo",
          description: "Echo",
          defaultInactive: true,
          parameters: { type: "object" },
          async execute(id, params, signal, onUpdate, ctx) {
            onUpdate?.({ content: [{ type: "text", text: "partial" }] });
            seen.push(id, params, signal?.aborted, ctx.cwd);
            return { content: [{ type: "text", text: "done" }] };
          },
        });
        pi.registerTool({ name: "bad", description: "d", parameters: [] as never, execute: async () => ({ content: [] }) });
      },
      "/u.ts": (pi) => {
        pi.registerTool({ name: "echo", description: "dup", parameters: {}, execute: async () => ({ content: [] }) });
        pi.registerTool({ name: "look", description: "Looks", parameters: {}, readOnly: true, execute: async () => ({ content: [] }) });
      },
    });
    const tools = runner.registeredTools();
    // an extension tool is read-only only when its definition says so
    expect(tools.map((t) => [t.name, t.label, t.description, t.hidden, t.source, t.effect])).toEqual([
      ["echo", "echo", "Echo", true, "extension", "unknown"],
      ["look", "look", "Looks", false, "extension", "read-only"],
    ]);
    expect(errors).toEqual([{ extensionPath: "/t.ts", event: "registerTool", error: 'Tool "bad" must provide a JSON Schema object as parameters' }]);
    const updates: unknown[] = [];
    const ctx = { cwd: "/c", toolCallId: "id1", signal: new AbortController().signal, onUpdate: (p: unknown) => updates.push(p) };
    expect(await tools[0].execute({ a: 1 }, ctx)).toEqual({ content: [{ type: "text", text: "done" }] });
    expect(seen).toEqual(["id1", { a: 1 }, false, "/work/project"]);
    expect(updates).toEqual([{ content: [{ type: "text", text: "partial" }] }]);
    expect(runner.registeredTools()[0]).toBe(tools[0]);
  });

  it("runs /name args, lists commands, and reports a failing command as command:<name>", async () => {
    const got: unknown[] = [];
    const ui = recordingUi();
    const { runner, errors } = await setup(
      {
        "/c.ts": (pi) => {
          pi.registerCommand("hello", { description: "Say hello", handler: (args, ctx) => void got.push(args, ctx.ui === undefined) });
          pi.registerCommand("fail", {
            handler: async () => {
              throw new Error("nope");
            },
          });
        },
      },
      fakeHost(ui),
    );
    expect(runner.commands()).toEqual([
      { name: "hello", description: "Say hello", source: "extension", path: "/c.ts" },
      { name: "fail", source: "extension", path: "/c.ts" },
    ]);
    expect(await runner.runCommand("/hello big  world")).toBe(true);
    expect(got).toEqual(["big  world", false]);
    expect(await runner.runCommand("/missing x")).toBe(false);
    expect(await runner.runCommand("hello")).toBe(false);
    expect(await runner.runCommand("/fail")).toBe(true);
    expect(errors).toEqual([{ extensionPath: "command:fail", event: "command", error: "nope" }]);
  });
});

describe("ExtensionRunner context and actions", () => {
  it("backs ctx and pi actions with the host only", async () => {
    let shutdowns = 0;
    let api!: ExtensionAPI;
    const host = fakeHost(recordingUi(), { onShutdownRequested: () => void shutdowns++ });
    const { runner, errors } = await setup(
      {
        "/a.ts": (pi) => {
          api = pi;
          pi.on("agent_start", (_e, ctx) => {
            ctx.ui.notify("hi", "warning");
            ctx.abort();
            ctx.shutdown();
          });
        },
      },
      host,
    );
    await runner.emit({ type: "agent_start" });
    expect((host.ui as ReturnType<typeof recordingUi>).calls).toEqual([{ method: "notify", args: ["hi", "warning"] }]);
    expect(host.aborted).toBe(1);
    expect(runner.shutdownRequested).toBe(true);
    expect(shutdowns).toBe(1);
    api.sendUserMessage("go", { deliverAs: "followUp" });
    expect(host.sent).toEqual([{ kind: "user", content: "go", opts: { deliverAs: "followUp" } }]);
    expect(() => api.appendEntry("x", 1)).toThrow("pi.appendEntry() is not supported by pith in this mode");
    expect(api.getActiveTools()).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("reports an async failure of sendMessage instead of leaving it unhandled", async () => {
    let api!: ExtensionAPI;
    const host = fakeHost(recordingUi(), { sendMessage: () => Promise.reject(new Error("busy")) });
    const { errors } = await setup({ "/a.ts": (pi) => void (api = pi) }, host);
    api.sendMessage({ customType: "t", content: "c", display: true });
    await new Promise((r) => setImmediate(r));
    expect(errors).toEqual([{ extensionPath: "/a.ts", event: "sendMessage", error: "busy" }]);
  });

  it("pi.events is shared between extensions", async () => {
    const got: unknown[] = [];
    let a!: ExtensionAPI;
    await setup({
      "/a.ts": (pi) => void (a = pi),
      "/b.ts": (pi) => void pi.events.on("ping", (d) => got.push(d)),
    });
    a.events.emit("ping", 42);
    expect(got).toEqual([42]);
  });
});

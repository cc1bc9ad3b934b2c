// pi 0.87.1's extension events and handler results inside a session: `input` (transform,
// handle), `message_end` replacement, `model_select` / `thinking_level_select`,
// `agent_before_settle` (entries and one more run), `sendMessage` with `triggerTurn` while idle,
// `user_bash` operations, `registerProvider` (per session), the compaction events and
// `ui_prompt_start` / `ui_prompt_end`.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { scriptedStream, TEST_MODEL, type Reply } from "../../test/support/agent.js";
import { recordingUi } from "../../test/support/extensions.js";
import { modelsRegistry, testSession, testSettings } from "../../test/support/session.js";
import { createExtensionRuntime } from "../extensions/api.js";
import { loadExtensionFactory, type LoadedExtensions } from "../extensions/loader.js";
import type { ExtensionAPI, ExtensionErrorInfo } from "../extensions/types.js";
import type { AgentMessage, AgentSessionEvent, AssistantMessage, Model } from "../shared/types.js";
import type { SessionSettings } from "./index.js";
import { sessionWiring } from "./session-wiring.js";

const SECOND: Model = { ...TEST_MODEL, id: "scripted-2", name: "Scripted 2" };

interface Setup {
  cwd?: string;
  models?: Model[];
  ui?: ReturnType<typeof recordingUi>;
  settings?: SessionSettings;
}

async function withExtension(replies: Reply[], factory: (pi: ExtensionAPI) => void, o: Setup = {}) {
  const { stream, calls } = scriptedStream(replies);
  const t = testSession({ stream, sessionDir: null, registry: modelsRegistry(o.models ?? [TEST_MODEL]), settings: o.settings, cwd: o.cwd });
  const runtime = createExtensionRuntime(() => undefined);
  const loaded: LoadedExtensions = { runtime, extensions: [await loadExtensionFactory("/ext.ts", factory, runtime)] };
  const errors: ExtensionErrorInfo[] = [];
  await sessionWiring(t.session).extensions.attach(loaded, { ui: o.ui ?? recordingUi(), hasUI: true, onError: (e) => void errors.push(e), onPromptError: () => undefined });
  return { ...t, calls, errors };
}

const userTexts = (messages: readonly AgentMessage[]) =>
  messages.flatMap((m) => (m.role === "user" ? [typeof m.content === "string" ? m.content : m.content.map((b) => (b.type === "text" ? b.text : "")).join("")] : []));
const lastRequest = (calls: { context: { messages: AgentMessage[] } }[]) => calls[calls.length - 1].context.messages;
const ends = (events: readonly AgentSessionEvent[]) => events.flatMap((e) => (e.type === "message_end" ? [e.message] : []));

describe("extension events in a session", () => {
  it("input: a handler transforms the text the model gets, or handles it so no run starts", async () => {
    const seen: unknown[] = [];
    const t = await withExtension([{ steps: [{ text: "ok" }] }], (pi) =>
      pi.on("input", (e) => {
        seen.push({ text: e.text, source: e.source });
        if (e.text === "ping") return { action: "transform", text: "pong" };
        if (e.text === "/local") return { action: "handled" };
        return { action: "continue" };
      }),
    );
    await t.session.prompt("ping").done;
    expect(userTexts(lastRequest(t.calls))).toEqual(["pong"]);
    const handled = t.session.prompt("/local");
    await handled.done;
    expect(await handled.outcome).toEqual({ agentInvoked: false, status: "completed" });
    expect(t.calls).toHaveLength(1);
    expect(seen).toEqual([
      { text: "ping", source: "rpc" },
      { text: "/local", source: "rpc" },
    ]);
  });

  it("message_end: a returned message replaces the finished one for the context, the host and the next request", async () => {
    const t = await withExtension([{ steps: [{ text: "secret 1234" }] }, { steps: [{ text: "second" }] }], (pi) =>
      pi.on("message_end", (e) => {
        const m = e.message as AssistantMessage;
        if (m.role !== "assistant" || m.content[0]?.type !== "text" || !m.content[0].text.includes("1234")) return undefined;
        return { message: { ...m, content: [{ type: "text", text: "secret ****" }] } };
      }),
    );
    await t.session.prompt("one").done;
    await t.session.prompt("two").done;
    const shown = ends(t.events).filter((m) => m.role === "assistant") as AssistantMessage[];
    expect(shown.map((m) => m.content[0])).toEqual([
      { type: "text", text: "secret ****" },
      { type: "text", text: "second" },
    ]);
    const sent = lastRequest(t.calls).filter((m) => m.role === "assistant") as AssistantMessage[];
    expect(sent.map((m) => m.content[0])).toEqual([{ type: "text", text: "secret ****" }]);
  });

  it("model_select and thinking_level_select carry the new and the previous value", async () => {
    const seen: unknown[] = [];
    const t = await withExtension(
      [{ steps: [{ text: "ok" }] }],
      (pi) => {
        pi.on("model_select", (e) => void seen.push({ type: e.type, model: e.model.id, previous: e.previousModel?.id, source: e.source }));
        pi.on("thinking_level_select", (e) => void seen.push({ type: e.type, level: e.level, previous: e.previousLevel }));
      },
      { models: [TEST_MODEL, SECOND] },
    );
    await sessionWiring(t.session).models.set("scripted", "scripted-2");
    sessionWiring(t.session).models.setThinkingLevel("high");
    await t.session.waitForIdle();
    await Promise.resolve();
    expect(seen).toEqual([
      { type: "model_select", model: "scripted-2", previous: "scripted-1", source: "set" },
      { type: "thinking_level_select", level: "high", previous: expect.any(String) },
    ]);
  });

  it("agent_before_settle: a custom message draft joins the context and `continue` runs the model once more", async () => {
    let asked = 0;
    const t = await withExtension([{ steps: [{ text: "first answer" }] }, { steps: [{ text: "after the check" }] }], (pi) =>
      pi.on("agent_before_settle", (e) => {
        asked++;
        if (asked > 1) return undefined;
        expect(e.outcome).toBe("completed");
        expect(e.context.canContinue).toBe(false);
        return { entries: [{ type: "custom_message", customType: "check", content: "please double-check", display: true }], continue: true };
      }),
    );
    await t.session.prompt("go").done;
    await t.session.waitForSettled();
    expect(t.calls).toHaveLength(2);
    const second = lastRequest(t.calls);
    // The model sees the custom message as user text (after its first answer).
    expect(second.slice(-2)).toMatchObject([{ role: "assistant" }, { role: "user", content: [{ type: "text", text: "please double-check" }] }]);
    expect(ends(t.events)).toContainEqual(expect.objectContaining({ role: "custom", customType: "check", content: "please double-check" }));
    expect(asked).toBe(2);
    expect(t.errors).toEqual([]);
  });

  it("sendMessage with triggerTurn while idle starts a run with the message as its prompt", async () => {
    let api!: ExtensionAPI;
    const t = await withExtension([{ steps: [{ text: "reacting" }] }], (pi) => {
      api = pi;
    });
    await api.sendMessage({ customType: "alert", content: "build failed", display: true }, { triggerTurn: true });
    await t.session.waitForIdle();
    expect(t.calls).toHaveLength(1);
    expect(lastRequest(t.calls)).toEqual([expect.objectContaining({ role: "user", content: [{ type: "text", text: "build failed" }] })]);
    expect(ends(t.events)[0]).toMatchObject({ role: "custom", customType: "alert", content: "build failed" });
  });

  it("user_bash: returned operations run the host's command (with the session's cwd) instead of pith's shell", async () => {
    const ran: unknown[] = [];
    const t = await withExtension([{ steps: [{ text: "ok" }] }], (pi) =>
      pi.on("user_bash", () => ({
        operations: {
          async exec(command: string, cwd: string, o: { onData: (d: Buffer) => void }) {
            ran.push({ command, cwd });
            o.onData(Buffer.from(`remote: ${command}\n`));
            return { exitCode: 3 };
          },
        },
      })),
    );
    const result = await sessionWiring(t.session).bash.run("uname -a");
    expect(ran).toEqual([{ command: "uname -a", cwd: t.session.cwd }]);
    expect(result).toMatchObject({ output: "remote: uname -a\n", exitCode: 3, cancelled: false });
  });

  it("registerProvider adds a provider to this session's registry only; unregisterProvider removes it", async () => {
    let api!: ExtensionAPI;
    const t = await withExtension([{ steps: [{ text: "ok" }] }], (pi) => {
      api = pi;
    });
    const other = testSession({ stream: scriptedStream([{ steps: [{ text: "x" }] }]).stream, sessionDir: null });
    api.registerProvider("corp", {
      baseUrl: "http://127.0.0.1:9/v1",
      api: "openai-completions",
      apiKey: "literal-key",
      models: [{ id: "corp-large", name: "Corp Large", contextWindow: 64_000, maxTokens: 4_000 }],
    });
    expect(sessionWiring(t.session).models.registry.find("corp", "corp-large")).toMatchObject({ provider: "corp", id: "corp-large", baseUrl: "http://127.0.0.1:9/v1" });
    expect(await sessionWiring(t.session).models.registry.getApiKey("corp")).toBe("literal-key");
    expect(sessionWiring(other.session).models.registry.find("corp", "corp-large")).toBeUndefined();
    expect(() => api.registerProvider("broken", { api: "no-such-api", models: [{ id: "m" }] })).toThrow();
    api.unregisterProvider("corp");
    expect(sessionWiring(t.session).models.registry.find("corp", "corp-large")).toBeUndefined();
  });

  it("ui_prompt_start / ui_prompt_end surround a dialog", async () => {
    const seen: string[] = [];
    const ui = recordingUi([true]);
    let answer: boolean | undefined;
    await withExtension(
      [{ steps: [{ text: "ok" }] }],
      (pi) => {
        pi.on("ui_prompt_start", (e) => void seen.push(`start ${e.kind} ${e.title}`));
        pi.on("ui_prompt_end", (e) => void seen.push(`end ${e.kind} ${e.title}`));
        pi.registerCommand("ask", { handler: async (_a, ctx) => void (answer = await ctx.ui.confirm("Proceed?", "really")) });
      },
      { ui },
    ).then((t) => t.session.prompt("/ask").done);
    await new Promise((resolve) => setImmediate(resolve));
    expect(answer).toBe(true);
    expect(seen).toEqual(["start confirm Proceed?", "end confirm Proceed?"]);
  });

  it("compaction: session_before_compact may cancel; otherwise session_compact carries the entry written", async () => {
    const seen: unknown[] = [];
    let cancel = true;
    const replies = (i: number): Reply => ({ steps: [{ text: i < 3 ? `answer ${i} ${"y".repeat(400)}` : "## Goal\nthe summary" }] });
    const settings = testSettings((x) => (x.compaction.keepRecentTokens = 50));
    const t = await withExtension([0, 1, 2, 3, 4].map(replies), (pi) => {
      pi.on("session_before_compact", (e) => {
        seen.push({ type: e.type, reason: e.reason, willRetry: e.willRetry, toSummarize: e.preparation.messagesToSummarize.length > 0 });
        return cancel ? { cancel: true } : undefined;
      });
      pi.on("session_compact", (e) => void seen.push({ type: e.type, entry: e.compactionEntry.type, fromExtension: e.fromExtension, reason: e.reason }));
    }, { settings });
    for (const q of ["one", "two", "three"]) await t.session.prompt(`${q} ${"x".repeat(400)}`).done;
    await expect(t.session.handle({ type: "compact" })).rejects.toThrow(/cancel/i);
    cancel = false;
    const result = await t.session.handle({ type: "compact" });
    expect(result.summary).toContain("the summary");
    expect(seen).toEqual([
      { type: "session_before_compact", reason: "manual", willRetry: false, toSummarize: true },
      { type: "session_before_compact", reason: "manual", willRetry: false, toSummarize: true },
      { type: "session_compact", entry: "compaction", fromExtension: false, reason: "manual" },
    ]);
  });

  it("setSessionName: extensions hear session_info_changed with the new name", async () => {
    const names: unknown[] = [];
    let api!: ExtensionAPI;
    await withExtension([{ steps: [{ text: "ok" }] }], (pi) => {
      api = pi;
      pi.on("session_info_changed", (e) => void names.push(e.name));
    });
    api.setSessionName("release work");
    await new Promise((resolve) => setImmediate(resolve));
    expect(names).toEqual(["release work"]);
  });

  it("newSession: setup writes into the new session, withSession gets a context for it", async () => {
    const seen: unknown[] = [];
    const t = await withExtension([{ steps: [{ text: "ok" }] }], (pi) =>
      pi.registerCommand("fresh", {
        handler: async (_a, ctx) => {
          const before = ctx.sessionManager.getSessionId();
          const result = await ctx.newSession({
            setup: (sm) => void sm.appendCustomEntry("seed", { from: before }),
            withSession: (c) => void seen.push({ changed: c.sessionManager.getSessionId() !== before, custom: c.sessionManager.getEntries().filter((e) => e.type === "custom").map((e) => (e as { customType?: string }).customType) }),
          });
          seen.push(result);
        },
      }),
    );
    await t.session.prompt("/fresh").done;
    expect(seen).toEqual([{ changed: true, custom: ["seed"] }, { cancelled: false }]);
  });

  it("resources_discover: the skills and prompt templates a handler names become commands and expand", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "pith-discover-"));
    mkdirSync(path.join(dir, "skills", "lint"), { recursive: true });
    writeFileSync(path.join(dir, "skills", "lint", "SKILL.md"), "---\ndescription: Lints the code\n---\nRun the linter.\n");
    writeFileSync(path.join(dir, "greet.md"), "---\ndescription: Greets\n---\nSay hello to $1.\n");
    const reasons: string[] = [];
    const t = await withExtension([{ steps: [{ text: "ok" }] }], (pi) =>
      pi.on("resources_discover", (e) => {
        reasons.push(e.reason);
        return { skillPaths: [path.join(dir, "skills")], promptPaths: ["greet.md"] };
      }),
    { cwd: dir });
    expect(reasons).toEqual(["startup"]);
    expect(sessionWiring(t.session).extensions.commands().map((c) => `${c.source}:${c.name}`)).toEqual(["prompt:greet", "skill:skill:lint"]);
    await t.session.prompt("/greet Ada").done;
    expect(userTexts(lastRequest(t.calls))).toEqual(["Say hello to Ada.\n"]);
  });

  it("navigateTree with summarize: a session_before_tree handler's summary of the branch left behind is recorded", async () => {
    const seen: unknown[] = [];
    const t = await withExtension([{ steps: [{ text: "first" }] }, { steps: [{ text: "second" }] }, { steps: [{ text: "third" }] }], (pi) => {
      pi.on("session_before_tree", (e) => {
        seen.push({ wants: e.preparation.userWantsSummary, left: e.preparation.entriesToSummarize.map((x) => (x as { message?: { role: string } }).message?.role) });
        return { summary: { summary: "explored option B", details: { n: 1 } } };
      });
      pi.on("session_tree", (e) => void seen.push({ summary: (e.summaryEntry as { summary?: string } | undefined)?.summary, fromExtension: e.fromExtension }));
      pi.registerCommand("back", {
        handler: async (_a, ctx) => {
          const firstAnswer = ctx.sessionManager.getBranch().find((x) => x.type === "message" && x.message.role === "assistant");
          seen.push(await ctx.navigateTree(firstAnswer!.id, { summarize: true }));
        },
      });
    });
    await t.session.prompt("one").done;
    await t.session.prompt("two").done;
    await t.session.prompt("/back").done;
    await t.session.prompt("three").done;
    expect(seen).toEqual([{ wants: true, left: ["user", "assistant"] }, { summary: "explored option B", fromExtension: true }, { cancelled: false }]);
    const texts = userTexts(lastRequest(t.calls));
    // The summary (as user text) and the next prompt reach the model; the branch left behind does not.
    expect(texts).toHaveLength(2);
    expect(texts[0]).toBe("one");
    expect(texts[1]).toMatch(/<summary>\nexplored option B\n<\/summary>three$/);
    expect(JSON.stringify(lastRequest(t.calls))).not.toContain("second");
  });
});

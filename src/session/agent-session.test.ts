// The session facade driven in-process: the scripted stream plays the model, tools are fakes,
// session files are real (temp folders). Asserts on events, state, files and on what the model got.
import { readFileSync } from "node:fs";
import { sessionWiring } from "./session-wiring.js";
import { describe, expect, it } from "vitest";
import { fakeTool, scriptedStream, type Reply } from "../../test/support/agent.js";
import { PithError } from "../shared/errors.js";
import type { AgentSessionEvent, Model } from "../shared/types.js";
import { BUSY_ERROR, createJsonlStorage } from "./index.js";
import { modelsRegistry, testSession, testSettings } from "../../test/support/session.js";
import { TEST_MODEL } from "../../test/support/agent.js";

const text = (t: string): Reply => ({ steps: [{ text: t }] });
const callTool = (id: string, name: string, args: Record<string, unknown> = {}): Reply => ({ steps: [{ toolCall: { id, name, args } }] });
const types = (events: AgentSessionEvent[]) => events.map((e) => (e.type === "message_update" ? `update:${e.assistantMessageEvent.type}` : e.type));
const fileLines = (file: string) =>
  readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { type: string; message?: { role: string } });

describe("AgentSession, in-process", () => {
  it("a prompt is accepted, streams its run in order and is written to the session file", async () => {
    const { stream, calls } = scriptedStream([callTool("c1", "probe"), text("done")]);
    const { session, events } = testSession({ stream, tools: [fakeTool("probe")] });
    const handle = session.prompt("look around");
    await handle.accepted;
    expect(session.isStreaming).toBe(true);
    await handle.done;
    expect(session.isStreaming).toBe(false);
    expect(types(events)).toEqual([
      "agent_start", "turn_start",
      "message_start", "message_end", // the user message
      "message_start", "update:toolcall_start", "update:toolcall_delta", "update:toolcall_end", "message_end",
      "tool_execution_start", "tool_execution_end",
      "message_start", "message_end", // the tool result
      "turn_end", "turn_start",
      "message_start", "update:text_start", "update:text_delta", "update:text_end", "message_end",
      "turn_end", "agent_end",
    ]);
    // the second request carried the tool result back to the model
    expect(calls).toHaveLength(2);
    expect(calls[1].context.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult"]);
    expect(calls[1].context.systemPrompt).toBe("system prompt for probe");
    expect(sessionWiring(session).history.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
    expect(sessionWiring(session).history.lastAssistantText()).toBe("done");
    const state = session.getState();
    expect(state).toMatchObject({ isStreaming: false, messageCount: 4, model: { id: TEST_MODEL.id }, sessionId: session.id });
    const lines = fileLines(state.sessionFile!);
    expect(lines[0].type).toBe("session");
    expect(lines.filter((l) => l.type === "message").map((l) => l.message!.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
    await session.close();
  });

  it("while busy: prompt without streamingBehavior is refused, steer and follow-up are delivered in the same run", async () => {
    const { stream, calls } = scriptedStream([callTool("c1", "slow"), text("first"), text("second")]);
    const { session } = testSession({ stream, tools: [fakeTool("slow", { ticks: 40 })] });
    const handle = session.prompt("start");
    await handle.accepted;
    await expect(session.prompt("again").accepted).rejects.toThrow(BUSY_ERROR);
    void session.handle({ type: "steer", message: "steer now" });
    void session.handle({ type: "follow_up", message: "and then this" });
    expect(session.getState().queuedMessageCount).toBe(2);
    await handle.done;
    const users = sessionWiring(session).history.messages.filter((m) => m.role === "user").map((m) => JSON.stringify(m.content));
    expect(users).toEqual([expect.stringContaining("start"), expect.stringContaining("steer now"), expect.stringContaining("and then this")]);
    expect(calls).toHaveLength(3);
    await session.close();
  });

  it("abort stops a hanging model and resolves once idle; the run still closes its events", async () => {
    const { stream } = scriptedStream([{ steps: [{ hang: true }] }]);
    const { session, events } = testSession({ stream });
    const handle = session.prompt("wait forever");
    await handle.accepted;
    await new Promise((r) => setTimeout(r, 5));
    await session.abort();
    await handle.done;
    expect(session.isStreaming).toBe(false);
    expect(types(events).slice(-3)).toEqual(["message_end", "turn_end", "agent_end"]);
    const last = sessionWiring(session).history.messages.at(-1);
    expect(last).toMatchObject({ role: "assistant", stopReason: "aborted" });
    await session.close();
  });

  it("a retryable failure is retried with auto_retry events, and the retried reply stands", async () => {
    const { stream, calls } = scriptedStream([{ steps: [{ fail: "503 service unavailable" }] }, text("recovered")]);
    const { session, events } = testSession({ stream });
    await (await Promise.resolve(session.prompt("hi"))).done;
    expect(calls).toHaveLength(2);
    expect(types(events)).toContain("auto_retry_start");
    expect(events.find((e) => e.type === "auto_retry_end")).toMatchObject({ success: true, attempt: 1 });
    expect(sessionWiring(session).history.lastAssistantText()).toBe("recovered");
    await session.close();
  });

  it("models: set, cycle and thinking changes are recorded in the session file, never in settings", async () => {
    const other: Model = { ...TEST_MODEL, id: "scripted-2", reasoning: false };
    const registry = modelsRegistry([TEST_MODEL, other]);
    const { stream } = scriptedStream([text("ok")]);
    const { session } = testSession({ stream, registry });
    sessionWiring(session).models.setThinkingLevel("high");
    expect(sessionWiring(session).models.thinkingLevel).toBe("high");
    expect((await sessionWiring(session).models.set("scripted", "scripted-2")).id).toBe("scripted-2");
    expect(sessionWiring(session).models.thinkingLevel).toBeUndefined(); // a model that cannot reason has no level
    await expect(sessionWiring(session).models.set("scripted", "nope")).rejects.toThrow("Model not found: scripted/nope");
    expect(sessionWiring(session).models.cycle()).toMatchObject({ model: { id: "scripted-1" }, isScoped: false });
    sessionWiring(session).models.setThinkingLevel("low");
    expect(sessionWiring(session).models.cycleThinkingLevel()).toEqual({ level: "medium" });
    await session.prompt("hi").done;
    const file = sessionWiring(session).history.sessionFile!;
    const kinds = fileLines(file).map((l) => l.type);
    expect(kinds.filter((k) => k === "model_change").length).toBe(3); // start state + set + cycle
    expect(kinds).toContain("thinking_level_change");
    await session.close();
  });

  it("history: new_session starts empty, switch_session restores the earlier conversation, branch and clone derive files", async () => {
    const { stream } = scriptedStream([text("one"), text("two")]);
    const { session } = testSession({ stream });
    await session.prompt("first question").done;
    const first = sessionWiring(session).history.sessionFile!;
    const entryId = sessionWiring(session).history.branchMessages()[0].entryId;
    await sessionWiring(session).history.newSession();
    expect(sessionWiring(session).history.messages).toEqual([]);
    expect(sessionWiring(session).history.sessionFile).not.toBe(first);
    await sessionWiring(session).history.switchTo(first);
    expect(sessionWiring(session).history.sessionFile).toBe(first);
    expect(sessionWiring(session).history.lastAssistantText()).toBe("one");
    const branched = await sessionWiring(session).history.branch(entryId);
    expect(branched).toEqual({ text: "first question", cancelled: false });
    expect(sessionWiring(session).history.messages).toEqual([]);
    await sessionWiring(session).history.switchTo(first);
    await sessionWiring(session).history.clone();
    expect(sessionWiring(session).history.sessionFile).not.toBe(first);
    expect(sessionWiring(session).history.header.parentSession).toBe(first);
    expect(sessionWiring(session).history.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    await expect(sessionWiring(session).history.branch("missing")).rejects.toThrow("Invalid entry ID for branching");
    await session.close();
  });

  it("manual compaction summarises with the current model, records the entry and rebuilds the context", async () => {
    const replies: Reply[] = [text("a"), text("b"), text("c"), { steps: [{ text: "## Goal\nsummary of the work" }] }];
    const { stream, calls } = scriptedStream(replies);
    const settings = testSettings((s) => (s.compaction.keepRecentTokens = 1));
    const { session } = testSession({ stream, settings });
    for (const q of ["q1", "q2", "q3"]) await session.prompt(q).done;
    const result = await session.handle({ type: "compact", customInstructions: "focus on the goal" });
    expect(result.summary).toContain("summary of the work");
    const summaryRequests = calls.slice(3).map((c) => JSON.stringify(c.context));
    expect(summaryRequests.some((r) => r.includes("focus on the goal"))).toBe(true);
    expect(sessionWiring(session).history.messages[0].role).toBe("compactionSummary");
    expect(fileLines(sessionWiring(session).history.sessionFile!).some((l) => l.type === "compaction")).toBe(true);
    await expect(session.handle({ type: "compact" })).rejects.toThrow("Already compacted");
    await session.close();
  });

  it("user bash: a command run during a run joins the context after it, in order", async () => {
    const { stream } = scriptedStream([callTool("c1", "gate"), text("fin")]);
    let open!: () => void;
    const gate = { ...fakeTool("gate"), execute: () => new Promise<{ content: [] }>((r) => (open = () => r({ content: [] }))) };
    const { session, events } = testSession({ stream, tools: [gate] });
    const handle = session.prompt("go");
    await handle.accepted;
    while (!events.some((e) => e.type === "tool_execution_start")) await new Promise((r) => setTimeout(r, 1));
    const result = await sessionWiring(session).bash.run("echo from-host");
    open();
    expect(result).toMatchObject({ output: "from-host\n", exitCode: 0, cancelled: false });
    await handle.done;
    expect(sessionWiring(session).history.messages.some((m) => m.role === "bashExecution")).toBe(false);
    await session.prompt("next").done.catch(() => undefined);
    expect(sessionWiring(session).history.messages.find((m) => m.role === "bashExecution")).toMatchObject({ command: "echo from-host" });
    await session.close();
  });

  it("tools: host tools join the list after the built-in ones and may not take a built-in name; set_todos normalises", async () => {
    const { stream } = scriptedStream([text("ok")]);
    const { session } = testSession({ stream, tools: [fakeTool("read")] });
    const host = fakeTool("echo_host");
    sessionWiring(session).tools.setHostTools([host]);
    expect(sessionWiring(session).tools.active().map((t) => t.name)).toEqual(["read", "echo_host"]);
    expect(() => sessionWiring(session).tools.setHostTools([fakeTool("read")])).toThrow('RPC host tool "read" conflicts with an existing tool');
    expect(session.getState().dumpTools.map((t) => t.name)).toEqual(["read", "echo_host"]);
    const todos = sessionWiring(session).tools.setTodos([{ id: "p1", name: "Plan", tasks: [{ id: "t1", content: "do it", status: "pending", extra: 1 }] }]);
    expect(todos).toEqual([{ id: "p1", name: "Plan", tasks: [{ id: "t1", content: "do it", status: "pending" }] }]);
    expect(() => sessionWiring(session).tools.setTodos([{ id: "p", name: "x" }])).toThrow(PithError);
    await session.close();
  });

  it("close releases the session file: another opener can take it", async () => {
    const { stream } = scriptedStream([text("ok")]);
    const { session } = testSession({ stream });
    await session.prompt("hi").done;
    const file = sessionWiring(session).history.sessionFile!;
    const storage = createJsonlStorage();
    expect(() => storage.open(file, { cwd: process.cwd() })).toThrow(/locked|busy|in use/i);
    await session.close();
    const reopened = storage.open(file, { cwd: process.cwd() });
    expect(reopened.entries().length).toBeGreaterThan(2);
    reopened.close();
  });
});

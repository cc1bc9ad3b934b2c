// The compactor alone, over a conversation held in memory: when it compacts (threshold,
// overflow), what it records, and that an aborted summary leaves everything as it was.
import { describe, expect, it } from "vitest";
import { scriptedStream, TEST_MODEL, type Reply } from "../../test/support/agent.js";
import type { AssistantMessage, SessionEvent } from "../shared/types.js";
import { emptyAssistantMessage } from "../shared/types.js";
import { Compactor, CONTINUE_PROMPT } from "./compactor.js";
import { Conversation } from "./conversation.js";
import { SessionStore } from "../store/session-store.js";
import { testSettings, modelsRegistry } from "../../test/support/session.js";
import { TodoState } from "./todos/index.js";

function setup(replies: Reply[], tokensPerReply = 10) {
  const log = SessionStore.inMemory({ cwd: "/w" });
  const conversation = new Conversation({
    log,
    models: modelsRegistry(),
    todos: new TodoState({ clearDelaySeconds: -1, onAutoClear: () => undefined }),
    warn: () => undefined,
    initialModel: TEST_MODEL,
  });
  for (let i = 0; i < 4; i++) {
    conversation.add({ role: "user", content: `question ${i} ${"x".repeat(400)}`, timestamp: i });
    conversation.add(answer(`answer ${i}`, tokensPerReply));
  }
  const events: SessionEvent[] = [];
  const settings = testSettings((s) => (s.compaction.keepRecentTokens = 50));
  const { stream, calls } = scriptedStream(replies);
  const compactor = new Compactor({
    conversation,
    settings,
    isAutoEnabled: () => true,
    stream,
    requireModel: () => TEST_MODEL,
    requireApiKey: async () => "k",
    emit: (e) => events.push(e),
  });
  return { log, conversation, compactor, events, calls, settings };
}

function answer(text: string, input: number, extra: Partial<AssistantMessage> = {}): AssistantMessage {
  const m = emptyAssistantMessage(TEST_MODEL, Date.now());
  m.content = [{ type: "text", text }];
  m.usage = { ...m.usage, input, totalTokens: input };
  return { ...m, ...extra };
}

const summary: Reply = { steps: [{ text: "## Goal\nthe summary" }] };

describe("Compactor", () => {
  it("after a reply over the threshold: compacts, records the entry, rebuilds the context and continues", async () => {
    const { conversation, compactor, events, log } = setup([summary, summary]);
    const last = answer("big", TEST_MODEL.contextWindow);
    conversation.add(last);
    const next = await compactor.afterRun(last, false, new AbortController().signal);
    expect(next).toMatchObject({ kind: "continue", prompts: [{ role: "developer", content: CONTINUE_PROMPT }] });
    expect(events.map((e) => e.type)).toEqual(["auto_compaction_start", "auto_compaction_end"]);
    expect(events[1]).toMatchObject({ aborted: false, willRetry: false, result: { summary: expect.stringContaining("the summary") } });
    expect(log.branch().at(-1)!.type).toBe("compaction");
    expect(conversation.messages[0].role).toBe("compactionSummary");
  });

  it("below the threshold nothing happens", async () => {
    const { conversation, compactor, events, calls } = setup([summary]);
    const last = answer("small", 10);
    conversation.add(last);
    expect(await compactor.afterRun(last, false, new AbortController().signal)).toBeUndefined();
    expect(events).toEqual([]);
    expect(calls).toHaveLength(0);
  });

  it("an overflow of the current model is compacted and retried once; a second overflow in the same prompt is not", async () => {
    const { conversation, compactor, events } = setup([summary, summary]);
    const overflow = answer("", 0, { stopReason: "error", errorMessage: "prompt is too long: 300000 tokens > 200000 maximum" });
    conversation.add(overflow);
    const first = await compactor.afterRun(overflow, true, new AbortController().signal);
    expect(first).toEqual({ kind: "continue", prompts: [] });
    expect(events[1]).toMatchObject({ type: "auto_compaction_end", willRetry: true });
    conversation.add(overflow);
    const second = await compactor.afterRun(overflow, true, new AbortController().signal);
    expect(second).toEqual({ kind: "stop" });
    expect(events.at(-1)).toMatchObject({ type: "auto_compaction_end", errorMessage: expect.stringContaining("Context overflow recovery failed") });
  });

  it("an aborted summary leaves the log and the context exactly as they were", async () => {
    const { conversation, compactor, events, log } = setup([{ steps: [{ hang: true }] }]);
    const before = JSON.stringify(log.entries());
    const messages = [...conversation.messages];
    const last = answer("big", TEST_MODEL.contextWindow);
    conversation.add(last);
    const ac = new AbortController();
    const pending = compactor.afterRun(last, false, ac.signal);
    await new Promise((r) => setTimeout(r, 5));
    expect(compactor.isCompacting).toBe(true);
    ac.abort();
    expect(await pending).toEqual({ kind: "stop" });
    expect(events.at(-1)).toMatchObject({ type: "auto_compaction_end", aborted: true });
    expect(JSON.stringify(log.entries().slice(0, -1))).toBe(before);
    expect(conversation.messages.slice(0, -1)).toEqual(messages);
    expect(compactor.isCompacting).toBe(false);
  });

  it("manual compaction refuses a branch that ends in a compaction", async () => {
    const { compactor } = setup([summary]);
    const job = await compactor.prepareManual();
    await job();
    await expect(compactor.prepareManual()).rejects.toThrow("Already compacted");
  });
});

// Liveness: heartbeat phases from the event stream, and session_settled once per quiet moment.
import { describe, expect, it } from "vitest";
import type { AgentSessionEvent } from "../shared/types.js";
import { Liveness } from "./liveness.js";
import { outcomeOf, PromptTracker } from "./prompt-tracker.js";
import { userMessage } from "./queues.js";

function rig() {
  const state = { busy: false, compacting: false, queued: false, now: 1000, promptId: undefined as string | undefined };
  const emitted: AgentSessionEvent[] = [];
  const live = new Liveness({
    isBusy: () => state.busy,
    isCompacting: () => state.compacting,
    hasQueuedMessages: () => state.queued,
    runPromptId: () => state.promptId,
    emit: (e) => emitted.push(e),
    now: () => state.now,
  });
  return { state, emitted, live };
}
const macrotasks = (n = 6) => new Promise<void>((r) => (n === 0 ? r() : setImmediate(() => void macrotasks(n - 1).then(r))));

describe("Liveness", () => {
  it("derives the phase and the time since the last provider or tool event", () => {
    const { state, live } = rig();
    expect(live.snapshot()).toEqual({ phase: "idle", sinceActivityMs: 0 });
    state.busy = true;
    state.promptId = "p";
    live.observe({ type: "agent_start" });
    state.now += 250;
    expect(live.snapshot()).toEqual({ phase: "streaming", sinceActivityMs: 250, promptId: "p" });
    live.observe({ type: "tool_execution_start", toolCallId: "t", toolName: "bash", args: {} });
    state.now += 100;
    expect(live.snapshot()).toMatchObject({ phase: "tool", sinceActivityMs: 100 });
    live.observe({ type: "tool_execution_end", toolCallId: "t", toolName: "bash", result: { content: [] }, isError: false });
    live.observe({ type: "auto_retry_start", attempt: 1, maxAttempts: 3, delayMs: 10, errorMessage: "503" });
    expect(live.snapshot().phase).toBe("retry_wait");
    live.observe({ type: "agent_start" });
    expect(live.snapshot().phase).toBe("streaming");
    state.compacting = true;
    expect(live.snapshot().phase).toBe("compacting");
  });

  it("emits session_settled then agent_settled once, only when quiet after activity", async () => {
    const { state, emitted, live } = rig();
    live.check();
    await macrotasks();
    expect(emitted).toEqual([]);
    live.observe({ type: "agent_start" });
    state.queued = true;
    live.check();
    await macrotasks();
    expect(emitted).toEqual([]);
    state.queued = false;
    live.check();
    live.check();
    await macrotasks();
    expect(emitted).toEqual([{ type: "session_settled" }, { type: "agent_settled" }]);
    live.check();
    await macrotasks();
    expect(emitted).toHaveLength(2);
  });
});

describe("PromptTracker", () => {
  it("reads httpStatus and retryability from the final reply", () => {
    const base = { role: "assistant" as const, content: [], api: "x", provider: "p", model: "m", usage: {} as never, timestamp: 1 };
    expect(outcomeOf({ ...base, stopReason: "error", errorMessage: "529 overloaded" })).toEqual({
      agentInvoked: true,
      status: "error",
      error: { message: "529 overloaded", provider: "p", model: "m", httpStatus: 529, retryable: true },
    });
    expect(outcomeOf({ ...base, stopReason: "error", errorMessage: "socket hang up" }).error).toEqual({ message: "socket hang up", provider: "p", model: "m", retryable: true });
    expect(outcomeOf({ ...base, stopReason: "aborted" })).toEqual({ agentInvoked: true, status: "aborted" });
    expect(outcomeOf(undefined)).toEqual({ agentInvoked: true, status: "completed" });
  });

  it("hands queued senders the outcome of the run that took them, and aborted when dropped", async () => {
    const t = new PromptTracker();
    const first = t.startChain("p");
    const a = userMessage("a");
    const b = userMessage("b");
    const qa = t.queue(a, "fa");
    const qb = t.queue(b, "fb");
    t.runEnded([]);
    expect(t.handOff([a])).toEqual([a]);
    expect(t.runPromptId).toBe("fa");
    expect(await first).toEqual({ agentInvoked: true, status: "completed" });
    t.chainEnded({ aborted: true });
    expect(await qa).toEqual({ agentInvoked: true, status: "aborted" });
    t.dropped([b]);
    expect(await qb).toEqual({ agentInvoked: false, status: "aborted" });
    const failed = t.startChain(undefined);
    t.chainEnded({ aborted: false, error: new Error("compaction failed") });
    expect(await failed).toEqual({ agentInvoked: false, status: "error", error: { message: "compaction failed", retryable: false } });
  });
});

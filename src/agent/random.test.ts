// Randomised runs: random tool durations, concurrency, failures, steering and abort timing.
// Asserts invariants only, so it never depends on timing.
import { expect, it } from "vitest";
import type { AgentEvent, AgentMessage } from "../shared/types.js";
import { fakeTool, harness, scriptedStream, tick, user, type Reply, type Step } from "../../test/support/agent.js";
import { runAgentLoop } from "./loop.js";
import { mulberry32 } from "../../test/support/random.js";


const NAMES = ["t0", "t1", "t2", "t3", "missing"];

function randomReply(rand: () => number, index: number, callSeq: { n: number }, canHang: boolean): Reply {
  const steps: Step[] = [];
  if (rand() < 0.3) steps.push({ text: "pre", chunks: ["p", "r", "e"] });
  if (rand() < 0.3) steps.push({ wait: Math.floor(rand() * 3) });
  if (index < 6 && rand() < 0.7) {
    const count = 1 + Math.floor(rand() * 4);
    for (let i = 0; i < count; i++) {
      const name = NAMES[Math.floor(rand() * NAMES.length)] ?? "t0";
      steps.push({ toolCall: { id: `c${callSeq.n++}`, name, args: { d: Math.floor(rand() * 6) } } });
    }
  } else {
    steps.push({ text: "final" });
  }
  const r = rand();
  if (r < 0.05) steps.push({ fail: "500 server error" });
  else if (r < 0.08) steps.push({ throws: "stream threw" });
  else if (r < 0.11 && canHang) steps.push({ hang: true });
  return { steps };
}

function checkPairing(messages: AgentMessage[]): void {
  messages.forEach((m, i) => {
    if (m.role !== "assistant") return;
    const ids = m.content.flatMap((c) => (c.type === "toolCall" ? [c.id] : []));
    const following: string[] = [];
    for (let j = i + 1; j < messages.length; j++) {
      const next = messages[j];
      if (next?.role !== "toolResult") break;
      following.push(next.toolCallId);
    }
    check(following.sort().join() === [...ids].sort().join(), `results after assistant ${i}: ${following} vs ${ids}`);
  });
  const resultIds = messages.flatMap((m) => (m.role === "toolResult" ? [m.toolCallId] : []));
  check(new Set(resultIds).size === resultIds.length, "duplicate tool results");
}

/** Plain assertion: expect() per event is too slow for hundreds of runs. */
function check(cond: boolean, what: string): void {
  if (!cond) throw new Error(what);
}

function checkNesting(events: AgentEvent[]): void {
  check(events[0]?.type === "agent_start", "first event is agent_start");
  check(events.at(-1)?.type === "agent_end", "last event is agent_end");
  check(events.filter((e) => e.type === "agent_start" || e.type === "agent_end").length === 2, "one agent_start/end");
  let inTurn = false;
  let open: string | undefined;
  const running = new Set<string>();
  let turnResults: string[] = [];
  for (const e of events.slice(1, -1)) {
    switch (e.type) {
      case "turn_start":
        check(!inTurn, "turn_start inside a turn");
        inTurn = true;
        turnResults = [];
        break;
      case "turn_end":
        check(inTurn && open === undefined && running.size === 0, "turn_end with open parts");
        check(e.toolResults.map((r) => r.toolCallId).join() === turnResults.join(), "turn_end.toolResults != emitted results");
        inTurn = false;
        break;
      case "message_start":
        check(open === undefined, "message_start inside a message");
        open = e.message.role;
        break;
      case "message_update":
        check(open === "assistant", "update outside an assistant message");
        break;
      case "message_end":
        check(open === e.message.role, "message_end without its start");
        if (e.message.role === "toolResult") turnResults.push(e.message.toolCallId);
        open = undefined;
        break;
      case "tool_execution_start":
        check(inTurn && open === undefined && !running.has(e.toolCallId), "tool start misplaced");
        running.add(e.toolCallId);
        break;
      case "tool_execution_update":
        check(running.has(e.toolCallId), "update of a tool not running");
        break;
      case "tool_execution_end":
        check(running.delete(e.toolCallId), "tool end without start");
        break;
      default:
        // agent_start/agent_end only at the edges (checked above)
        check(false, `unexpected ${e.type}`);
    }
  }
  check(open === undefined, "message left open");
  // steering after an aborted batch may enter the context outside a turn; nothing else may
  check(!inTurn, "turn left open");
}

interface Coverage {
  abortedMessages: number;
  errorMessages: number;
  skippedResults: number;
  abortedResults: number;
  steeringDelivered: number;
  toolResults: number;
}

function randomTools(rand: () => number) {
  return ["t0", "t1", "t2", "t3"].map((name) =>
    fakeTool(name, {
      concurrency: rand() < 0.3 ? "exclusive" : "shared",
      nonAbortable: rand() < 0.2,
      updates: Math.floor(rand() * 2),
      ticks: (args) => Number(args.d ?? 0),
      throws: rand() < 0.1 ? "tool failed" : undefined,
    }),
  );
}

async function oneRun(seed: number, cov: Coverage): Promise<void> {
  const rand = mulberry32(seed);
  const callSeq = { n: 0 };
  const abortAfter = rand() < 0.5 ? Math.floor(rand() * 40) : -1;
  const replies: Reply[] = [];
  const { stream, calls } = scriptedStream((i) => (replies[i] ??= randomReply(rand, i, callSeq, abortAfter >= 0)));
  const tools = randomTools(rand);
  const steerProbability = rand() * 0.2;
  let steersLeft = Math.floor(rand() * 4);
  const h = harness({
    stream,
    tools,
    interruptMode: rand() < 0.5 ? "immediate" : "wait",
    onEvent: (_e, hh) => {
      if (steersLeft > 0 && rand() < steerProbability) {
        steersLeft--;
        hh.steering.push(user(`steer ${seed}`));
      }
    },
  });
  if (rand() < 0.3) h.followUps.push(user("follow"));
  if (rand() < 0.2) h.steering.push(user("early"));
  const stopTimer = { stop: false };
  if (abortAfter >= 0) {
    void (async () => {
      await tick(abortAfter);
      if (!stopTimer.stop) h.controller.abort();
    })();
  }
  const added = await runAgentLoop(h.input, h.config);
  stopTimer.stop = true;

  checkNesting(h.events);
  const end = h.events.at(-1);
  check(end?.type === "agent_end" && JSON.stringify(end.messages) === JSON.stringify(added), "agent_end.messages != returned");
  check(added.length === h.input.messages.length && added.every((m, i) => m === h.input.messages[i]), "returned != context");
  checkPairing(h.input.messages);
  const assistants = added.filter((m) => m.role === "assistant");
  // one assistant message per model call, plus at most one aborted before its call was made
  const uncalled = assistants.length - calls.length;
  check(uncalled === 0 || uncalled === 1, `assistants ${assistants.length} vs model calls ${calls.length}`);
  const bad = assistants.findIndex((a) => a.role === "assistant" && (a.stopReason === "error" || a.stopReason === "aborted"));
  check(bad < 0 || bad === assistants.length - 1, "the run went on after an error/aborted message");
  for (const m of added) {
    if (m.role === "assistant" && m.stopReason === "aborted") cov.abortedMessages++;
    if (m.role === "assistant" && m.stopReason === "error") cov.errorMessages++;
    if (m.role === "user" && JSON.stringify(m.content).includes("steer")) cov.steeringDelivered++;
    if (m.role !== "toolResult") continue;
    cov.toolResults++;
    const text = JSON.stringify(m.content);
    if (text.includes("Skipped due to queued user message.")) cov.skippedResults++;
    if (text.includes("aborted")) cov.abortedResults++;
  }
}

it("randomised runs: always end with agent_end, keep events well nested and give every tool call exactly one result", async () => {
  const cov: Coverage = {
    abortedMessages: 0,
    errorMessages: 0,
    skippedResults: 0,
    abortedResults: 0,
    steeringDelivered: 0,
    toolResults: 0,
  };
  for (let seed = 1; seed <= 400; seed++) {
    try {
      await oneRun(seed, cov);
    } catch (err) {
      throw new Error(`seed ${seed}: ${(err as Error).message}`, { cause: err });
    }
  }
  // the random space really covered the interesting paths
  for (const [what, n] of Object.entries(cov)) expect(n, what).toBeGreaterThan(5);
});

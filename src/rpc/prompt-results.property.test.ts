// Randomized: hundreds of random prompt / steer / follow_up / abort / abort_and_prompt sequences
// against a scripted model whose replies stream, call a slow tool, fail and get retried, or hang
// until aborted. Checks: every accepted prompting command with an id gets exactly one
// prompt_result, never before its response; a rejected one gets none; session_settled is only
// written when the session is idle with nothing queued, and never twice without activity between.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scriptedStream, type Reply } from "../../test/support/agent.js";
import type { Tool } from "../session/index.js";
import { testSession, testSettings } from "../../test/support/session.js";
import { createMemoryTransport } from "../transport/index.js";
import { RpcServer } from "./server.js";

const REPLIES: Record<string, Reply> = {
  text: { steps: [{ text: "hello", chunks: ["he", "llo"] }] },
  tool: { steps: [{ toolCall: { id: "t1", name: "probe" } }] },
  fail: { steps: [{ fail: "503 service unavailable" }] },
  auth: { steps: [{ fail: "401 unauthorized" }] },
  hang: { steps: [{ hang: true }] },
};
type ReplyKind = keyof typeof REPLIES;

type Op =
  | { kind: "prompt" | "steer" | "follow_up" | "abort_and_prompt" | "queued_prompt"; turns: number }
  | { kind: "abort"; turns: number };

const opArb: fc.Arbitrary<Op> = fc.record({
  kind: fc.constantFrom("prompt", "prompt", "steer", "follow_up", "abort_and_prompt", "queued_prompt", "abort"),
  turns: fc.integer({ min: 0, max: 6 }),
}) as fc.Arbitrary<Op>;

const slowProbe: Tool = {
  name: "probe",
  label: "probe",
  description: "slow probe",
  effect: "read-only",
  parameters: { type: "object" },
  async execute(_args, ctx) {
    for (let i = 0; i < 3 && !ctx.signal.aborted; i++) await new Promise((r) => setImmediate(r));
    if (ctx.signal.aborted) throw new Error("probe aborted");
    return { content: [{ type: "text", text: "probe ok" }] };
  },
};

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

async function runSequence(replies: ReplyKind[], ops: Op[]): Promise<void> {
  const { stream } = scriptedStream((i) => (i < replies.length ? REPLIES[replies[i]] : REPLIES.text));
  const settings = testSettings((s) => (s.retry.maxRetries = 2));
  const built = testSession({ stream, settings, sessionDir: null, tools: [slowProbe] });
  const { session } = built;
  const violations: string[] = [];
  let activitySinceSettled = false;
  session.subscribe((e) => {
    if (e.type === "agent_start") activitySinceSettled = true;
    if (e.type !== "session_settled") return;
    const state = session.getState();
    if (state.isStreaming || state.isCompacting || state.queuedMessageCount > 0) violations.push(`session_settled while ${JSON.stringify({ streaming: state.isStreaming, queued: state.queuedMessageCount })}`);
    activitySinceSettled = false;
  });
  const { transport, host } = createMemoryTransport();
  const server = new RpcServer(session, transport, { log: () => undefined });
  const served = server.serve();
  const frames = host.frames as any[];
  const prompting: string[] = [];
  let n = 0;
  for (const op of ops) {
    const id = `${op.kind}-${++n}`;
    if (op.kind === "abort") host.send({ id, type: "abort" });
    else {
      prompting.push(id);
      const message = `m${n}`;
      if (op.kind === "queued_prompt") host.send({ id, type: "prompt", message, streamingBehavior: n % 2 ? "steer" : "followUp" });
      else host.send({ id, type: op.kind, message });
    }
    await turns(op.turns);
  }
  // Drain: stop what runs, drop what is queued, then wait for the session to settle.
  host.send({ id: "final-abort", type: "abort" });
  host.send({ id: "final-new", type: "new_session" });
  await host.waitFor((f) => f.type === "response" && f.id === "final-new");
  await session.waitForIdle();
  await turns(4);
  expect(session.isSettled).toBe(true);
  host.end();
  await served;

  for (const id of prompting) {
    const response = frames.findIndex((f) => f.type === "response" && f.id === id);
    const results = frames.map((f, i) => (f.type === "prompt_result" && f.id === id ? i : -1)).filter((i) => i >= 0);
    expect(response, `response for ${id}`).toBeGreaterThanOrEqual(0);
    if (frames[response].success) {
      expect(results, `one prompt_result for ${id}`).toHaveLength(1);
      expect(results[0], `prompt_result after the response of ${id}`).toBeGreaterThan(response);
    } else {
      expect(results, `no prompt_result for rejected ${id}`).toHaveLength(0);
    }
  }
  expect(frames.filter((f) => f.type === "prompt_result" && f.id === undefined)).toHaveLength(0);
  expect(violations).toEqual([]);
  // session_settled is never written twice without a run between (agent_settled follows each).
  const settles = frames.map((f, i) => (f.type === "session_settled" ? i : -1)).filter((i) => i >= 0);
  for (let k = 1; k < settles.length; k++) {
    const between = frames.slice(settles[k - 1], settles[k]);
    expect(between.some((f) => f.type === "agent_start" || f.type === "prompt_result" || f.type === "response")).toBe(true);
  }
  for (const i of settles) expect(frames[i + 1]).toEqual({ type: "agent_settled" });
  void activitySinceSettled;
}

describe("prompt_result and session_settled under random command sequences", () => {
  it("holds for hundreds of sequences", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom<ReplyKind>("text", "text", "tool", "fail", "auth", "hang"), { minLength: 1, maxLength: 8 }),
        fc.array(opArb, { minLength: 1, maxLength: 10 }),
        (replies, ops) => runSequence(replies, ops),
      ),
      { numRuns: 250 },
    );
  }, 240_000);
});

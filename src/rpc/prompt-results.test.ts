// prompt_result, session_settled / agent_settled, messageId and promptId, isSettled, contextUsage
// and heartbeats, in-process: a scripted model behind RpcServer over the memory transport.
import { describe, expect, it } from "vitest";
import { scriptedStream, type Reply } from "../../test/support/agent.js";
import type { Tool } from "../session/index.js";
import { testSession, testSettings } from "../../test/support/session.js";
import { createMemoryTransport } from "../transport/index.js";
import { RpcServer } from "./server.js";

const text = (t: string): Reply => ({ steps: [{ text: t, chunks: [t.slice(0, 2), t.slice(2)] }] });
const fail = (message: string): Reply => ({ steps: [{ fail: message }] });
const callTool = (name: string, id = "c1"): Reply => ({ steps: [{ toolCall: { id, name } }] });

/** A tool that yields to I/O `turns` times (so commands are read meanwhile) unless aborted first. */
function slowTool(turns: number): Tool {
  return {
    name: "probe",
    label: "probe",
    description: "slow probe",
    effect: "read-only",
    parameters: { type: "object" },
    async execute(_args, ctx) {
      for (let i = 0; i < turns && !ctx.signal.aborted; i++) await new Promise((r) => setImmediate(r));
      if (ctx.signal.aborted) throw new Error("probe aborted");
      return { content: [{ type: "text", text: "probe ok" }] };
    },
  };
}

function start(replies: Reply[], opts: { toolTurns?: number; maxRetries?: number } = {}) {
  const { stream, calls } = scriptedStream(replies);
  const settings = testSettings((s) => {
    s.retry.maxRetries = opts.maxRetries ?? 3;
  });
  const built = testSession({ stream, settings, tools: [slowTool(opts.toolTurns ?? 0)] });
  const { transport, host } = createMemoryTransport();
  const server = new RpcServer(built.session, transport, { log: () => undefined, version: "9.9.9" });
  server.ready("test");
  const served = server.serve();
  const frames = host.frames as any[];
  const index = (pred: (f: any) => boolean) => frames.findIndex(pred);
  const of = (type: string) => frames.filter((f) => f.type === type);
  return { ...built, host, served, calls, frames, index, of };
}

describe("prompt_result", () => {
  it("follows the response and the run, then session_settled and agent_settled once; events carry promptId and messageId", async () => {
    const h = start([text("hello there")]);
    h.host.send({ id: "p1", type: "prompt", message: "hi" });
    await h.host.waitFor((f) => f.type === "agent_settled");
    const result = h.of("prompt_result");
    expect(result).toEqual([{ type: "prompt_result", id: "p1", agentInvoked: true, status: "completed", sessionSettled: true }]);
    const response = h.index((f) => f.type === "response" && f.id === "p1");
    const end = h.index((f) => f.type === "agent_end");
    const pr = h.index((f) => f.type === "prompt_result");
    const settled = h.index((f) => f.type === "session_settled");
    expect(response).toBeLessThan(end);
    expect(end).toBeLessThan(pr);
    expect(pr).toBeLessThan(settled);
    expect(h.frames[settled + 1]).toEqual({ type: "agent_settled" });
    expect(h.of("session_settled")).toHaveLength(1);
    for (const type of ["agent_start", "turn_start", "agent_end"]) expect(h.of(type).every((f) => f.promptId === "p1")).toBe(true);
    const assistantStart = h.frames.find((f) => f.type === "message_start" && f.message.role === "assistant");
    const id = assistantStart.messageId;
    expect(typeof id).toBe("string");
    const ofMessage = h.frames.filter((f) => f.messageId === id);
    expect(ofMessage.map((f) => f.type)).toEqual(["message_start", ...ofMessage.slice(1, -1).map(() => "message_update"), "message_end"]);
    expect(ofMessage.length).toBeGreaterThan(2);
    const userStart = h.frames.find((f) => f.type === "message_start" && f.message.role === "user");
    expect(userStart.messageId).not.toBe(id);
    const state = await ask(h, { id: "s", type: "get_state" });
    expect(state.data.isSettled).toBe(true);
    h.host.end();
    await h.served;
  });

  it("waits out a retry: one completed result after the retried run, none before", async () => {
    const h = start([fail("500 internal server error"), text("second try")]);
    h.host.send({ id: "r1", type: "prompt", message: "hi" });
    await h.host.waitFor((f) => f.type === "session_settled");
    const ends = h.frames.map((f, i) => (f.type === "agent_end" ? i : -1)).filter((i) => i >= 0);
    expect(ends).toHaveLength(2);
    expect(h.of("prompt_result")).toEqual([{ type: "prompt_result", id: "r1", agentInvoked: true, status: "completed", sessionSettled: true }]);
    expect(h.index((f) => f.type === "prompt_result")).toBeGreaterThan(ends[1]);
    h.host.end();
    await h.served;
  });

  it("reports a 401 as error, not retryable, with provider, model and httpStatus", async () => {
    const h = start([fail('401 {"error":"invalid x-api-key"}')]);
    h.host.send({ id: "e1", type: "prompt", message: "hi" });
    const result = await h.host.waitFor((f) => f.type === "prompt_result");
    expect(result).toMatchObject({
      id: "e1",
      agentInvoked: true,
      status: "error",
      error: { message: expect.stringContaining("401"), provider: "scripted", model: "scripted-1", httpStatus: 401, retryable: false },
    });
    h.host.end();
    await h.served;
  });

  it("reports exhausted retries of a 529 as a retryable error", async () => {
    const h = start([fail("529 overloaded")], { maxRetries: 2 });
    h.host.send({ id: "o1", type: "prompt", message: "hi" });
    const result = await h.host.waitFor((f) => f.type === "prompt_result");
    expect(result).toMatchObject({ id: "o1", status: "error", error: { httpStatus: 529, retryable: true } });
    expect(h.of("agent_end")).toHaveLength(3);
    h.host.end();
    await h.served;
  });

  it("gives each queued follow-up its own result, in order, and a steer too", async () => {
    const h = start([callTool("probe"), text("one"), text("two"), text("three")], { toolTurns: 50 });
    h.host.send({ id: "p", type: "prompt", message: "start" });
    await h.host.waitFor((f) => f.type === "tool_execution_start");
    h.host.send({ id: "f1", type: "follow_up", message: "first" });
    h.host.send({ id: "f2", type: "prompt", message: "second", streamingBehavior: "followUp" });
    h.host.send({ id: "s1", type: "steer", message: "steer" });
    await h.host.waitFor((f) => f.type === "session_settled");
    const ids = h.of("prompt_result").map((f) => f.id);
    expect(ids.sort()).toEqual(["f1", "f2", "p", "s1"]);
    expect(h.of("prompt_result").every((f) => f.status === "completed")).toBe(true);
    expect(h.index((f) => f.type === "prompt_result" && f.id === "f1")).toBeLessThan(h.index((f) => f.type === "prompt_result" && f.id === "f2"));
    expect(h.of("session_settled")).toHaveLength(1);
    expect(h.index((f) => f.type === "session_settled")).toBeGreaterThan(Math.max(...h.frames.map((f, i) => (f.type === "prompt_result" ? i : -1))));
    h.host.end();
    await h.served;
  });

  it("aborts a prompt stopped mid-tool, and a queued follow-up dropped by new_session", async () => {
    const h = start([callTool("probe"), text("never")], { toolTurns: 1_000_000 });
    h.host.send({ id: "p", type: "prompt", message: "start" });
    await h.host.waitFor((f) => f.type === "tool_execution_start");
    h.host.send({ id: "f", type: "follow_up", message: "later" });
    await h.host.waitFor((f) => f.type === "response" && f.id === "f");
    h.host.send({ id: "n", type: "new_session" });
    await h.host.waitFor((f) => f.type === "session_settled");
    const results = h.of("prompt_result");
    expect(results).toEqual([
      { type: "prompt_result", id: "p", agentInvoked: true, status: "aborted", sessionSettled: expect.any(Boolean) },
      { type: "prompt_result", id: "f", agentInvoked: false, status: "aborted", sessionSettled: true },
    ]);
    expect(h.of("session_settled")).toHaveLength(1);
    h.host.end();
    await h.served;
  });

  it("answers abort mid-tool with an aborted result", async () => {
    const h = start([callTool("probe"), text("never")], { toolTurns: 1_000_000 });
    h.host.send({ id: "p", type: "prompt", message: "start" });
    await h.host.waitFor((f) => f.type === "tool_execution_start");
    h.host.send({ id: "a", type: "abort" });
    const result = await h.host.waitFor((f) => f.type === "prompt_result");
    expect(result).toEqual({ type: "prompt_result", id: "p", agentInvoked: true, status: "aborted", sessionSettled: true });
    h.host.end();
    await h.served;
  });

  it("omits id for a command without one, and sends none for a rejected prompt", async () => {
    const h = start([{ steps: [{ hang: true }] }, text("next")]);
    h.host.send({ type: "prompt", message: "no id" });
    await h.host.waitFor((f) => f.type === "agent_start");
    const busy = await ask(h, { id: "busy", type: "prompt", message: "rejected" });
    expect(busy).toMatchObject({ success: false });
    h.host.send({ id: "a", type: "abort" });
    await h.host.waitFor((f) => f.type === "session_settled");
    expect(h.of("prompt_result")).toEqual([{ type: "prompt_result", agentInvoked: true, status: "aborted", sessionSettled: true }]);
    h.host.end();
    await h.served;
  });
});

describe("get_session_stats contextUsage and heartbeats", () => {
  it("reports contextUsage against the model's window", async () => {
    const h = start([text("hello")]);
    h.host.send({ id: "p", type: "prompt", message: "hi" });
    await h.host.waitFor((f) => f.type === "session_settled");
    const stats = await ask(h, { id: "st", type: "get_session_stats" });
    const usage = stats.data.contextUsage;
    expect(usage.contextWindow).toBeGreaterThan(0);
    expect(usage.tokens).toBe(15);
    expect(usage.percent).toBeCloseTo((15 / usage.contextWindow) * 100);
    h.host.end();
    await h.served;
  });

  it("validates set_heartbeat and writes phases while on", async () => {
    const h = start([{ steps: [{ hang: true }] }]);
    expect(await ask(h, { id: "bad", type: "set_heartbeat", intervalMs: 5 })).toMatchObject({ success: false, error: expect.stringContaining("outside") });
    expect(await ask(h, { id: "neg", type: "set_heartbeat", intervalMs: -1 })).toMatchObject({ success: false });
    expect(await ask(h, { id: "on", type: "set_heartbeat", intervalMs: 100 })).toMatchObject({ success: true, data: { intervalMs: 100 } });
    const idle = await h.host.waitFor((f) => f.type === "heartbeat");
    expect(idle).toMatchObject({ phase: "idle", sinceActivityMs: expect.any(Number) });
    h.host.send({ id: "p", type: "prompt", message: "hang" });
    const streaming = await h.host.waitFor((f) => f.type === "heartbeat" && f.phase === "streaming");
    expect(streaming.promptId).toBe("p");
    expect(await ask(h, { id: "off", type: "set_heartbeat", intervalMs: 0 })).toMatchObject({ success: true, data: { intervalMs: 0 } });
    h.host.send({ id: "a", type: "abort" });
    await h.host.waitFor((f) => f.type === "session_settled");
    h.host.end();
    await h.served;
  });

  it("get_integrations answers with the version and the scripted provider as connected", async () => {
    const h = start([text("x")]);
    const res = await ask(h, { id: "i", type: "get_integrations" });
    expect(res).toMatchObject({ success: true, data: { version: "9.9.9", model: { state: "connected", provider: "scripted" }, services: [] } });
    h.host.end();
    await h.served;
  });
});

async function ask(h: ReturnType<typeof start>, command: Record<string, unknown>): Promise<any> {
  const from = h.frames.length;
  h.host.send(command);
  return h.host.waitFor((f) => f.type === "response" && f.id === command.id, from);
}

// prompt_result, session_settled, heartbeats and get_integrations end to end: the built CLI against
// the scripted SSE server. Asserts on the frames pith writes and on the requests the server got.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RpcClient } from "../../src/client/index.js";
import { type FakeReply } from "../support/fake-llm-server.js";
import { CLI, Pith, fakeModelsJson, tempDir, trackPiths, useFakeLlm, type Frame } from "./harness.js";

const llm = useFakeLlm();
const open = trackPiths();

async function start(opts: { baseDelayMs?: number; args?: string[] } = {}): Promise<Pith> {
  const pithHome = tempDir("pith-home-");
  writeFileSync(path.join(pithHome, "settings.json"), JSON.stringify({ retry: { baseDelayMs: opts.baseDelayMs ?? 20 } }));
  const p = await Pith.start({
    pithHome,
    modelsJson: fakeModelsJson(llm.url),
    args: ["--provider", "fake-openai", "--model", "fake-gpt", ...(opts.args ?? [])],
  });
  open.push(p);
  return p;
}

const http = (status: number, message: string): FakeReply => ({
  error: { status, body: { type: "error", error: { type: status === 529 ? "overloaded_error" : "api_error", message } } },
});
const bash = (command: string, id = "call_1"): FakeReply => ({ toolCalls: [{ id, name: "bash", arguments: { command } }] });
const posts = (from: number) => llm.requests.slice(from).filter((r) => r.method === "POST");
const indexOf = (p: Pith, pred: (f: Frame) => boolean) => p.frames.findIndex(pred);
const results = (p: Pith) => p.events("prompt_result");

describe("prompt_result end to end", () => {
  it("a 500 then success: one completed result after the retried run, none before, then session_settled once", async () => {
    const p = await start();
    const before = llm.requests.length;
    llm.enqueue(http(500, "internal server error"), { text: "recovered" });
    p.send({ id: "p1", type: "prompt", message: "please" });
    await p.waitFor((f) => f.type === "agent_settled", 30_000);
    expect(posts(before)).toHaveLength(2);
    const ends = p.frames.map((f, i) => (f.type === "agent_end" ? i : -1)).filter((i) => i >= 0);
    expect(ends).toHaveLength(2);
    expect(results(p)).toEqual([{ type: "prompt_result", id: "p1", agentInvoked: true, status: "completed", sessionSettled: true }]);
    const pr = indexOf(p, (f) => f.type === "prompt_result");
    expect(pr).toBeGreaterThan(ends[1]);
    expect(pr).toBeGreaterThan(indexOf(p, (f) => f.type === "response" && f.id === "p1"));
    expect(p.events("session_settled")).toHaveLength(1);
    expect(indexOf(p, (f) => f.type === "session_settled")).toBeGreaterThan(pr);
    for (const f of [...p.events("agent_start"), ...p.events("turn_start"), ...p.events("agent_end")]) expect(f.promptId).toBe("p1");
    const updates = p.events("message_update");
    expect(updates.length).toBeGreaterThan(0);
    expect(updates.every((f) => typeof f.messageId === "string")).toBe(true);
    expect((await p.request({ type: "get_state" })).data.isSettled).toBe(true);
    const stats = (await p.request({ type: "get_session_stats" })).data;
    expect(stats.contextUsage).toMatchObject({ contextWindow: 200000, tokens: expect.any(Number), percent: expect.any(Number) });
  });

  it("a prompt aborted mid-tool gets aborted", async () => {
    const p = await start();
    llm.enqueue(bash("sleep 30"));
    p.send({ id: "p", type: "prompt", message: "sleep" });
    await p.waitFor((f) => f.type === "tool_execution_start", 20_000);
    await p.request({ type: "abort" });
    const r = await p.waitFor((f) => f.type === "prompt_result", 20_000);
    expect(r).toEqual({ type: "prompt_result", id: "p", agentInvoked: true, status: "aborted", sessionSettled: true });
  });

  it("a 401 is an error that is not retryable; a 529 storm that exhausts retries is retryable", async () => {
    const p = await start({ baseDelayMs: 5 });
    const before = llm.requests.length;
    llm.enqueue(http(401, "invalid x-api-key"));
    p.send({ id: "a", type: "prompt", message: "who am i" });
    const auth = await p.waitFor((f) => f.type === "prompt_result" && f.id === "a", 20_000);
    expect(auth).toMatchObject({ status: "error", agentInvoked: true, error: { httpStatus: 401, retryable: false, provider: "fake-openai", model: "fake-gpt" } });
    expect(auth.error.message).toContain("invalid x-api-key");
    expect(posts(before)).toHaveLength(1);
    await p.waitFor((f) => f.type === "session_settled");
    llm.enqueue(http(529, "Overloaded"), http(529, "Overloaded"), http(529, "Overloaded"), http(529, "Overloaded"));
    p.send({ id: "o", type: "prompt", message: "busy?" });
    const storm = await p.waitFor((f) => f.type === "prompt_result" && f.id === "o", 30_000);
    expect(storm).toMatchObject({ status: "error", error: { httpStatus: 529, retryable: true } });
    expect(posts(before)).toHaveLength(5);
    expect(p.events("auto_retry_start")).toHaveLength(3);
  });

  it("two queued follow-ups each get their own result in order; session_settled follows the last one once", async () => {
    const p = await start();
    llm.enqueue(bash("sleep 1"), { text: "done with the tool" }, { text: "first follow-up" }, { text: "second follow-up" });
    p.send({ id: "p", type: "prompt", message: "start" });
    await p.waitFor((f) => f.type === "tool_execution_start", 20_000);
    p.send({ id: "f1", type: "follow_up", message: "one" });
    p.send({ id: "f2", type: "follow_up", message: "two" });
    await p.waitFor((f) => f.type === "session_settled", 30_000);
    await new Promise((r) => setTimeout(r, 200));
    const ids = results(p).map((f) => f.id);
    expect(ids).toContain("p");
    expect(ids.filter((id) => id !== "p")).toEqual(["f1", "f2"]);
    expect(results(p).every((f) => f.status === "completed")).toBe(true);
    expect(p.events("session_settled")).toHaveLength(1);
    const lastResult = Math.max(...p.frames.map((f, i) => (f.type === "prompt_result" ? i : -1)));
    expect(indexOf(p, (f) => f.type === "session_settled")).toBeGreaterThan(lastResult);
  });

  it("new_session with a queued follow-up reports it aborted", async () => {
    const p = await start();
    llm.enqueue(bash("sleep 30"));
    p.send({ id: "p", type: "prompt", message: "start" });
    await p.waitFor((f) => f.type === "tool_execution_start", 20_000);
    await p.request({ id: "f", type: "follow_up", message: "later" });
    await p.request({ type: "new_session" });
    await p.waitFor((f) => f.type === "session_settled", 20_000);
    await new Promise((r) => setTimeout(r, 200));
    expect(results(p).map((f) => [f.id, f.status])).toEqual([
      ["p", "aborted"],
      ["f", "aborted"],
    ]);
    expect(p.events("session_settled")).toHaveLength(1);
  });
});

describe("heartbeats and get_integrations end to end", () => {
  it("reports streaming, tool, retry_wait and waiting_host phases", async () => {
    const p = await start({ baseDelayMs: 1200, args: ["--heartbeat", "100"] });
    await p.waitFor((f) => f.type === "heartbeat" && f.phase === "idle");
    llm.enqueue(
      { text: ["slow ", "stream ", "of ", "words"], chunkDelayMs: 300 },
      bash("sleep 1"),
      { text: "tool done" },
      http(503, "service unavailable"),
      { text: "after the retry" },
      { toolCalls: [{ id: "h1", name: "ask_host", arguments: {} }] },
      { text: "thanks" },
    );
    await p.request({ type: "set_host_tools", tools: [{ name: "ask_host", description: "asks the host", parameters: { type: "object" } }] });
    p.send({ id: "s", type: "prompt", message: "stream" });
    const streaming = await p.waitFor((f) => f.type === "heartbeat" && f.phase === "streaming", 20_000, p.frames.length);
    expect(streaming).toMatchObject({ promptId: "s", sinceActivityMs: expect.any(Number) });
    await p.waitFor((f) => f.type === "prompt_result" && f.id === "s", 20_000);
    p.send({ id: "t", type: "prompt", message: "tool" });
    const tool = await p.waitFor((f) => f.type === "heartbeat" && f.phase === "tool", 20_000, p.frames.length);
    expect(tool.promptId).toBe("t");
    await p.waitFor((f) => f.type === "prompt_result" && f.id === "t", 20_000);
    p.send({ id: "r", type: "prompt", message: "retry" });
    const wait = await p.waitFor((f) => f.type === "heartbeat" && f.phase === "retry_wait", 20_000, p.frames.length);
    expect(wait.promptId).toBe("r");
    await p.waitFor((f) => f.type === "prompt_result" && f.id === "r", 20_000);
    p.send({ id: "h", type: "prompt", message: "host" });
    const call = await p.waitFor((f) => f.type === "host_tool_call", 20_000);
    const from = p.frames.length;
    const host = await p.waitFor((f) => f.type === "heartbeat" && f.phase === "waiting_host", 20_000, from);
    expect(host.promptId).toBe("h");
    expect(host.sinceActivityMs).toBeGreaterThanOrEqual(0);
    p.send({ type: "host_tool_result", id: call.id, result: { content: [{ type: "text", text: "yes" }] } });
    expect(await p.waitFor((f) => f.type === "prompt_result" && f.id === "h", 20_000)).toMatchObject({ status: "completed" });
    expect((await p.request({ type: "set_heartbeat", intervalMs: 0 })).data).toEqual({ intervalMs: 0 });
  }, 60_000);

  it("get_integrations asks the provider's /models with the key in a header, never in the answer", async () => {
    const p = await start();
    const before = llm.requests.length;
    const res = await p.request({ type: "get_integrations" });
    expect(res).toMatchObject({ success: true, data: { model: { state: "connected", provider: "fake-openai", latencyMs: expect.any(Number) }, services: [] } });
    const list = llm.requests.slice(before).find((r) => r.method === "GET" && r.path.endsWith("/models"));
    expect(list?.headers.authorization).toBe("Bearer test-key-openai");
    expect(JSON.stringify(res)).not.toContain("test-key-openai");
  });

  it("get_integrations runs extension status checks, a throwing one as check failed, a silent one bounded", async () => {
    const dir = tempDir("pith-ext-");
    const ext = path.join(dir, "status.mjs");
    writeFileSync(
      ext,
      `export default function (pi) {
        pi.registerServiceStatus({ name: "GitHub", group: "scm", check: async () => ({ state: "connected" }) });
        pi.registerServiceStatus({ name: "Tracker", check: async () => ({ state: "unauthenticated", hint: "run: tracker login" }) });
        pi.registerServiceStatus({ name: "Broken", check: async () => { throw new Error("boom"); } });
        pi.registerServiceStatus({ name: "Silent", check: () => new Promise(() => {}) });
      }`,
    );
    const p = await start({ args: ["-e", ext] });
    const started = Date.now();
    p.send({ id: "i", type: "get_integrations" });
    // A control command: get_state is answered while the checks run.
    expect((await p.request({ type: "get_state" })).success).toBe(true);
    const res = await p.waitFor((f) => f.type === "response" && f.id === "i", 20_000);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(res.data.services).toEqual([
      { name: "GitHub", _isPlugin: true, _group: "scm", state: "connected" },
      { name: "Tracker", _isPlugin: true, state: "unauthenticated", hint: "run: tracker login" },
      { name: "Broken", _isPlugin: true, state: "unavailable", hint: "check failed" },
      { name: "Silent", _isPlugin: true, state: "unavailable", hint: "no answer within 5000 ms" },
    ]);
  }, 30_000);
});

describe("the TypeScript client across a retry", () => {
  it("promptAndWait and promptForResult resolve on prompt_result after the retried run", async () => {
    const pithHome = tempDir("pith-home-");
    writeFileSync(path.join(pithHome, "settings.json"), JSON.stringify({ retry: { baseDelayMs: 20 } }));
    writeFileSync(path.join(pithHome, "models.json"), JSON.stringify(fakeModelsJson(llm.url)));
    const client = new RpcClient({
      cliPath: CLI,
      cwd: tempDir("pith-cwd-"),
      env: { PATH: process.env.PATH, HOME: pithHome, PITH_HOME: pithHome },
      args: ["--provider", "fake-openai", "--model", "fake-gpt"],
    });
    await client.start();
    try {
      llm.enqueue(http(500, "internal server error"), { text: "second attempt" }, http(401, "bad key"));
      let ends = 0;
      client.on("agent_end", () => ends++);
      const { result, messages } = await client.promptForResult("hi", { timeoutMs: 30_000 });
      expect(ends).toBe(2);
      expect(result).toMatchObject({ status: "completed", agentInvoked: true, sessionSettled: true });
      expect(messages.filter((m) => m.role === "assistant").pop()).toMatchObject({ stopReason: "stop" });
      await client.waitForSettled({ timeoutMs: 10_000 });
      const failed = await client.promptForResult("again", { timeoutMs: 30_000 });
      expect(failed.result).toMatchObject({ status: "error", error: { httpStatus: 401, retryable: false } });
      const beats: string[] = [];
      client.onHeartbeat((f) => beats.push(f.phase));
      expect(await client.setHeartbeat(100)).toEqual({ intervalMs: 100 });
      await new Promise((r) => setTimeout(r, 350));
      expect(beats).toContain("idle");
    } finally {
      await client.close();
    }
  });
});

// Prompt caching end to end: the built CLI against the fake server with Anthropic's
// cache billing simulated (test/support/prompt-cache-sim.ts). Asserts the breakpoints on the
// wire, the byte-stable prefix between requests (follow-up, after compaction, after set_model),
// cacheRetention none / long, prompt_cache_key on both OpenAI APIs, and that usage, stats and
// cost carry the cache tokens the provider reported.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { FakeRequest } from "../support/fake-llm-server.js";
import { billUsd } from "../support/prompt-cache-sim.js";
import { CLI, Pith, tempDir, trackPiths, useFakeLlm, type Frame } from "./harness.js";

const llm = useFakeLlm({ promptCache: true });
const piths = trackPiths();
const EPHEMERAL = { type: "ephemeral" };
const HOUR = { type: "ephemeral", ttl: "1h" };
const FILE_TEXT = Array.from({ length: 100 }, (_, i) => `export const value${i} = ${i}; // line ${i} of a 4 KB file`).join("\n");

function modelsJson(url: string): unknown {
  const model = (id: string, extra: object = {}) => ({
    id,
    name: id,
    reasoning: false,
    input: ["text"],
    contextWindow: 200000,
    maxTokens: 8192,
    cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    ...extra,
  });
  return {
    providers: {
      "fake-anthropic": { baseUrl: url, api: "anthropic-messages", apiKey: "k-anthropic", models: [model("claude-a"), model("claude-b")] },
      // the flag on the provider entry applies to all its models
      "fake-openai": { baseUrl: url, api: "openai-completions", apiKey: "k-openai", compat: { promptCacheKey: true }, models: [model("gpt-c")] },
      "fake-responses": {
        baseUrl: url,
        api: "openai-responses",
        apiKey: "k-responses",
        models: [model("gpt-r", { compat: { promptCacheKey: true } }), model("gpt-plain")],
      },
    },
  };
}

async function start(opts: { model?: string; provider?: string; settings?: unknown; env?: Record<string, string>; args?: string[] } = {}): Promise<Pith> {
  const home = tempDir("pith-home-");
  if (opts.settings) writeFileSync(path.join(home, "settings.json"), JSON.stringify(opts.settings));
  const cwd = tempDir("pith-cwd-");
  writeFileSync(path.join(cwd, "a.ts"), FILE_TEXT);
  const p = await Pith.start({
    pithHome: home,
    cwd,
    env: opts.env,
    modelsJson: modelsJson(llm.url),
    args: ["--provider", opts.provider ?? "fake-anthropic", "--model", opts.model ?? "claude-a", "--tools", "read,bash,edit,write", ...(opts.args ?? [])],
  });
  piths.push(p);
  return p;
}

/** Every cache_control in a request, keyed by where it sits. */
function breakpoints(req: FakeRequest): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  req.body.tools?.forEach((t: any, i: number) => t.cache_control && (out[`tool${i}`] = t.cache_control));
  req.body.system?.forEach((s: any, i: number) => s.cache_control && (out[`system${i}`] = s.cache_control));
  req.body.messages.forEach((m: any, i: number) => m.content.forEach((c: any, j: number) => c.cache_control && (out[`msg${i}.${j}`] = c.cache_control)));
  return out;
}

/** JSON of a value with every cache_control removed: the bytes the cache compares. */
function bare(v: unknown): string {
  return JSON.stringify(v, (key, value) => (key === "cache_control" ? undefined : value));
}

/** The breakpoint key of the last tool (`--tools edit` also brings ast_edit, as in the reference). */
const lastTool = (req: FakeRequest) => `tool${(req.body.tools as unknown[]).length - 1}`;
const stablePrefix = (req: FakeRequest) => bare({ tools: req.body.tools, system: req.body.system });

const lastIndex = (req: FakeRequest) => `msg${req.body.messages.length - 1}.${req.body.messages.at(-1).content.length - 1}`;

function messageEnds(frames: Frame[]): Frame[] {
  return frames.filter((f) => f.type === "message_end" && f.message.role === "assistant").map((f) => f.message);
}

describe("Anthropic prompt caching on the wire", () => {
  it("breakpoints on the first request, a byte-identical prefix and a cache read on every follow-up, and cache tokens in stats and cost", async () => {
    const p = await start();
    const before = llm.requests.length;
    const billsBefore = llm.bills.length;
    llm.enqueue({ toolCalls: [{ id: "toolu_1", name: "read", arguments: { path: "a.ts" } }] }, { text: "a.ts exports 100 values." });
    const run1 = await p.promptAndWait("What does a.ts export?");
    llm.enqueue({ toolCalls: [{ id: "toolu_2", name: "bash", arguments: { command: "wc -l a.ts" } }] }, { text: "100 lines." });
    const run2 = await p.promptAndWait("How many lines?");
    const reqs = llm.requests.slice(before);
    const bills = llm.bills.slice(billsBefore);
    expect(reqs).toHaveLength(4);

    // first request: last tool, system prompt, the user message
    expect(breakpoints(reqs[0])).toEqual({ [lastTool(reqs[0]!)]: EPHEMERAL, system0: EPHEMERAL, "msg0.0": EPHEMERAL });
    for (let i = 1; i < reqs.length; i++) {
      const [prev, req] = [reqs[i - 1], reqs[i]];
      const marks = breakpoints(req);
      // the new last block is marked, and the old last block is no longer the only message breakpoint
      expect(marks[lastIndex(req)]).toEqual(EPHEMERAL);
      expect(Object.keys(marks).filter((k) => k.startsWith("msg")).length).toBe(2);
      expect(Object.keys(marks).length).toBeLessThanOrEqual(4);
      // the stable prefix and every earlier message are byte-identical to the previous request
      expect(stablePrefix(req)).toBe(stablePrefix(prev));
      expect(bare(req.body.messages.slice(0, prev.body.messages.length - 1))).toBe(bare(prev.body.messages.slice(0, -1)));
      // so the whole previous request (up to its last breakpoint) is read back from the cache
      expect(bills[i].cacheRead).toBe(bills[i - 1].cacheRead + bills[i - 1].cacheWrite);
      expect(bills[i].input).toBe(0);
    }

    // each reply's usage is the provider's, cache tokens included, priced by the catalogue
    const replies = [...messageEnds(run1), ...messageEnds(run2)];
    replies.forEach((m, i) => {
      expect(m.usage).toMatchObject({ input: bills[i].input, cacheRead: bills[i].cacheRead, cacheWrite: bills[i].cacheWrite, output: bills[i].output });
      expect(m.usage.cost.total).toBeCloseTo(bills[i].usd, 12);
    });
    const stats = (await p.request({ type: "get_session_stats" })).data;
    const sum = (k: "cacheRead" | "cacheWrite" | "input" | "output") => bills.reduce((a, b) => a + b[k], 0);
    expect(stats.tokens).toMatchObject({ cacheRead: sum("cacheRead"), cacheWrite: sum("cacheWrite"), input: sum("input"), output: sum("output") });
    expect(stats.cost).toBeCloseTo(bills.reduce((a, b) => a + b.usd, 0), 12);
    // caching pays already: the same four requests with no cache would cost over twice as much
    const uncached = bills.reduce((a, b) => a + billUsd({ input: b.input + b.cacheRead + b.cacheWrite, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, output: b.output }), 0);
    expect(stats.cost * 2).toBeLessThan(uncached);
  });

  it("a resumed session (--continue) sends the earlier messages byte for byte, tool arguments included, and reads them from the cache", async () => {
    const home = tempDir("pith-home-");
    const cwd = tempDir("pith-cwd-");
    writeFileSync(path.join(cwd, "a.ts"), FILE_TEXT);
    const launch = (extra: string[]) =>
      Pith.start({ pithHome: home, cwd, modelsJson: modelsJson(llm.url), args: ["--provider", "fake-anthropic", "--model", "claude-a", ...extra] });
    const first = await launch([]);
    piths.push(first);
    const args = { path: "a.ts", offset: 1, limit: 50, note: "naïve “quotes” ✓", nested: { b: [1, 2.5, null], a: true } };
    llm.enqueue({ toolCalls: [{ id: "toolu_r1", name: "read", arguments: args }] }, { text: "Read it." });
    await first.promptAndWait("Read a.ts");
    const before = llm.requests.at(-1)!;
    await first.close();

    const second = await launch(["--continue"]);
    piths.push(second);
    const b = llm.requests.length;
    const bb = llm.bills.length;
    llm.enqueue({ text: "Still here." });
    await second.promptAndWait("And now?");
    const after = llm.requests[b];
    expect(stablePrefix(after)).toBe(stablePrefix(before));
    expect(bare(after.body.messages.slice(0, before.body.messages.length))).toBe(bare(before.body.messages));
    expect(after.body.messages[1].content.find((c: any) => c.type === "tool_use").input).toEqual(args);
    expect(llm.bills[bb].cacheRead).toBe(llm.bills[bb - 1].cacheRead + llm.bills[bb - 1].cacheWrite);
  });

  it("after compaction the tools and system prompt are unchanged and read from the cache; the new conversation is marked", async () => {
    const p = await start({ settings: { compaction: { keepRecentTokens: 50 } } });
    llm.enqueue({ text: "First answer. " + "x".repeat(400) }, { text: "Second answer." });
    await p.promptAndWait(`First task ${"alpha ".repeat(60)}`);
    await p.promptAndWait(`Second task ${"bravo ".repeat(60)}`);
    const beforeCompact = llm.requests.at(-1)!;
    llm.enqueue({ text: "## Goal\nSummary of the first task." });
    expect((await p.request({ type: "compact" }, 30_000)).success).toBe(true);
    const b = llm.requests.length;
    const bb = llm.bills.length;
    llm.enqueue({ text: "Third answer." });
    await p.promptAndWait("Third task");
    const after = llm.requests[b];
    expect(stablePrefix(after)).toBe(stablePrefix(beforeCompact));
    expect(JSON.stringify(after.body.messages[0])).toContain("Summary of the first task.");
    const marks = breakpoints(after);
    expect(marks).toMatchObject({ [lastTool(after)]: EPHEMERAL, system0: EPHEMERAL, [lastIndex(after)]: EPHEMERAL });
    const prefixTokens = Math.ceil(Buffer.byteLength(bare(after.body.tools)) / 4);
    expect(llm.bills[bb].cacheRead).toBeGreaterThanOrEqual(prefixTokens);
  });

  it("after set_model the new model gets the same prefix and breakpoints, and its cache warms from the next request", async () => {
    const p = await start();
    llm.enqueue({ text: "one" });
    await p.promptAndWait("first");
    const onA = llm.requests.at(-1)!;
    expect((await p.request({ type: "set_model", provider: "fake-anthropic", modelId: "claude-b" })).success).toBe(true);
    const b = llm.requests.length;
    const bb = llm.bills.length;
    llm.enqueue({ text: "two" }, { text: "three" });
    await p.promptAndWait("second");
    await p.promptAndWait("third");
    const [first, second] = llm.requests.slice(b);
    expect(first.body.model).toBe("claude-b");
    expect(stablePrefix(first)).toBe(stablePrefix(onA));
    expect(breakpoints(first)).toMatchObject({ [lastTool(first)]: EPHEMERAL, system0: EPHEMERAL, [lastIndex(first)]: EPHEMERAL });
    // caches are per model: the switch writes, the next request reads all of it
    expect(llm.bills[bb].cacheRead).toBe(0);
    expect(llm.bills[bb + 1].cacheRead).toBe(llm.bills[bb].cacheWrite);
    expect(breakpoints(second)[lastIndex(second)]).toEqual(EPHEMERAL);
  });

  it('cacheRetention "none" (settings.json) sends no breakpoint: everything is plain input', async () => {
    const p = await start({ settings: { cacheRetention: "none" } });
    const b = llm.requests.length;
    const bb = llm.bills.length;
    llm.enqueue({ text: "one" }, { text: "two" });
    await p.promptAndWait("first");
    await p.promptAndWait("second");
    for (const req of llm.requests.slice(b)) expect(breakpoints(req)).toEqual({});
    for (const bill of llm.bills.slice(bb)) expect(bill).toMatchObject({ cacheRead: 0, cacheWrite: 0, breakpoints: 0 });
    const stats = (await p.request({ type: "get_session_stats" })).data;
    expect(stats.tokens).toMatchObject({ cacheRead: 0, cacheWrite: 0 });
  });

  it('PITH_CACHE_RETENTION=long asks for 1-hour breakpoints, records the 1-hour writes and prices them at 2× input', async () => {
    const p = await start({ settings: { cacheRetention: "none" }, env: { PITH_CACHE_RETENTION: "long" } });
    const b = llm.requests.length;
    const bb = llm.bills.length;
    llm.enqueue({ text: "one" });
    const frames = await p.promptAndWait("first");
    expect(breakpoints(llm.requests[b])).toEqual({ [lastTool(llm.requests[b]!)]: HOUR, system0: HOUR, "msg0.0": HOUR });
    const bill = llm.bills[bb];
    const [reply] = messageEnds(frames);
    expect(reply.usage.cacheWrite1h).toBe(bill.cacheWrite);
    expect(reply.usage.cost.cacheWrite).toBeCloseTo((bill.cacheWrite * 6) / 1e6, 12);
    expect(reply.usage.cost.total).toBeCloseTo(bill.usd, 12);
  });

  it("a bad PITH_CACHE_RETENTION stops the start with a clear error", async () => {
    const home = tempDir("pith-home-");
    writeFileSync(path.join(home, "models.json"), JSON.stringify(modelsJson(llm.url)));
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, PITH_HOME: home, PITH_CACHE_RETENTION: "forever" };
    const child = spawn(process.execPath, [CLI, "--mode", "rpc", "--provider", "fake-anthropic", "--model", "claude-a"], { env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/Invalid PITH_CACHE_RETENTION "forever": expected one of none, short, long/);
  });
});

describe("OpenAI prompt_cache_key", () => {
  it("chat completions: the session id by default, --provider-session-id when given", async () => {
    const p = await start({ provider: "fake-openai", model: "gpt-c" });
    const sessionId = (await p.request({ type: "get_state" })).data.sessionId;
    const b = llm.requests.length;
    llm.enqueue({ text: "one" });
    await p.promptAndWait("first");
    expect(llm.requests[b].path).toBe("/v1/chat/completions");
    expect(llm.requests[b].body.prompt_cache_key).toBe(sessionId);

    const q = await start({ provider: "fake-openai", model: "gpt-c", args: ["--provider-session-id", "host-conv-42"] });
    const c = llm.requests.length;
    llm.enqueue({ text: "two" });
    await q.promptAndWait("first");
    expect(llm.requests[c].body.prompt_cache_key).toBe("host-conv-42");
  });

  it("responses API: sent for a model whose compat sets promptCacheKey, not for another model of a custom server", async () => {
    const p = await start({ provider: "fake-responses", model: "gpt-r", args: ["--provider-session-id", "host-conv-7"] });
    const b = llm.requests.length;
    llm.enqueue({ text: "one" });
    const frames = await p.promptAndWait("first");
    expect(llm.requests[b].path).toBe("/v1/responses");
    expect(llm.requests[b].body.prompt_cache_key).toBe("host-conv-7");
    expect(messageEnds(frames)[0].content).toEqual([{ type: "text", text: "one" }]);

    expect((await p.request({ type: "set_model", provider: "fake-responses", modelId: "gpt-plain" })).success).toBe(true);
    const c = llm.requests.length;
    llm.enqueue({ text: "two" });
    await p.promptAndWait("second");
    expect(llm.requests[c].path).toBe("/v1/responses");
    expect("prompt_cache_key" in llm.requests[c].body).toBe(false);
  });
});

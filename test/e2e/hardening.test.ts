// Through the built CLI: damaged session files load (never a crash,
// never a write), set_model refuses ids nobody lists, a stuck file system fails export_html alone,
// and a missing key names the variable to set. Damaged files are also generated with fast-check.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Pith, fakeModelsJson, tempDir, trackPiths, useFakeLlm, type Frame } from "./harness.js";

const llm = useFakeLlm();
const open = trackPiths();

async function start(extra: Partial<Parameters<typeof Pith.start>[0]> = {}): Promise<Pith> {
  const p = await Pith.start({ modelsJson: fakeModelsJson(llm.url), args: ["--provider", "fake-openai", "--model", "fake-gpt"], ...extra });
  open.push(p);
  return p;
}

const HEADER = { type: "session", version: 3, id: "15dbc0c0c0c0c0c0", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" };
const at = "2026-01-01T00:00:01.000Z";
const user = (id: string, parentId: string | null, text: string) => ({
  type: "message",
  id,
  parentId,
  timestamp: at,
  message: { role: "user", content: [{ type: "text", text }], timestamp: 1 },
});
const assistant = (id: string, parentId: string, text: string) => ({
  type: "message",
  id,
  parentId,
  timestamp: at,
  message: {
    role: "assistant",
    content: [{ type: "text", text }],
    api: "openai-completions",
    provider: "fake-openai",
    model: "fake-gpt",
    usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
    stopReason: "stop",
    timestamp: 2,
  },
});

function deep(levels: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < levels; i++) v = [v];
  return v;
}

/** A session file as lines (objects are serialised, strings written as they are). */
function writeSession(lines: unknown[]): string {
  const file = path.join(tempDir("pith-damaged-"), "s.jsonl");
  writeFileSync(file, lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n") + "\n");
  return file;
}

const ok = async (p: Pith, cmd: Frame) => {
  const r = await p.request(cmd);
  expect(r.success, JSON.stringify(r)).toBe(true);
  return r.data;
};

describe("damaged session files", () => {
  it("a null message, wrong-typed fields and a 100,000-deep value are skipped, counted, and the rest loads; the file is untouched", async () => {
    const lines = [
      HEADER,
      user("u1", null, "first"),
      { type: "message", id: "bad1", parentId: "u1", timestamp: at, message: null },
      assistant("a1", "bad1", "answer one"),
      { type: "message", id: "bad2", parentId: "a1", timestamp: at, message: { role: 7, content: "x" } },
      { type: "message", id: "bad3", parentId: "bad2", timestamp: at, message: { role: "assistant", content: [], usage: "lots" } },
      // written as text: JSON.stringify itself would overflow on a value this deep
      `{"type":"custom","id":"bad4","parentId":"bad3","timestamp":"${at}","customType":"x","data":${"[".repeat(100_000)}1${"]".repeat(100_000)}}`,
      user("u2", "bad4", "second"),
      "not json at all",
    ];
    const file = writeSession(lines);
    const before = readFileSync(file);
    const p = await start({ args: ["--provider", "fake-openai", "--model", "fake-gpt", "--session", file] });
    const { messages } = await ok(p, { type: "get_messages" });
    expect(messages.map((m: Frame) => m.role)).toEqual(["user", "assistant", "user"]);
    const stats = await ok(p, { type: "get_session_stats" });
    expect(stats.skippedEntries).toBe(5);
    expect(p.stderr).toMatch(/entry 2 \(message bad1\) holds a message that is not a valid message, skipped/);
    expect(p.stderr).toMatch(/nested deeper than 128 levels/);
    await p.close();
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it("switch_session to such a file answers success and the next prompt works", async () => {
    const file = writeSession([HEADER, user("u1", null, "q"), { type: "message", id: "b", parentId: "u1", timestamp: at, message: null }]);
    const p = await start();
    expect(await ok(p, { type: "switch_session", sessionPath: file })).toEqual({ cancelled: false });
    llm.enqueue({ text: "still here" });
    const frames = await p.promptAndWait("go on");
    expect(frames.find((f) => f.type === "agent_end")!.messages.at(-1).content[0].text).toBe("still here");
  });

  it("a file of a newer format version is read as is and never rewritten by loading it", async () => {
    const file = writeSession([{ ...HEADER, version: 99 }]);
    const before = readFileSync(file);
    const p = await start({ args: ["--provider", "fake-openai", "--model", "fake-gpt", "--session", file] });
    await ok(p, { type: "get_state" });
    await p.close();
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(p.stderr).toMatch(/written by a newer version \(session format 99\)/);
  });

  it("fast-check: generated damaged files through switch_session and --session never crash pith nor change the file", async () => {
    const jsonish = fc.oneof(fc.constant(null), fc.integer(), fc.string(), fc.boolean(), fc.constant(deep(300)), fc.array(fc.string(), { maxLength: 3 }));
    const field = fc.constantFrom("message", "role", "content", "usage", "id", "parentId", "type", "timestamp", "customType", "summary", "provider");
    const damage = fc.record({ index: fc.nat(4), field, value: jsonish, cut: fc.nat(60) });
    const fileArb = fc.array(damage, { minLength: 1, maxLength: 4 }).map((damages) => {
      const entries: Record<string, any>[] = [user("u1", null, "a"), assistant("a1", "u1", "b"), user("u2", "a1", "c"), assistant("a2", "u2", "d"), user("u3", "a2", "e")];
      const lines: unknown[] = [HEADER, ...entries];
      for (const d of damages) {
        const e = entries[d.index];
        if (d.field === "role" || d.field === "content" || d.field === "usage") e.message = { ...e.message, [d.field]: d.value };
        else e[d.field] = d.value;
        if (d.cut > 50) lines[d.index + 1] = JSON.stringify(e).slice(0, d.cut);
      }
      return lines;
    });
    const samples = fc.sample(fileArb, { numRuns: 60, seed: Number(process.env.PITH_FUZZ_SEED ?? 16) });
    const p = await start();
    for (const lines of samples) {
      const file = writeSession(lines);
      const before = readFileSync(file);
      const r = await p.request({ type: "switch_session", sessionPath: file });
      expect(r.type).toBe("response");
      await ok(p, { type: "get_messages" });
      await ok(p, { type: "get_session_stats" });
      await ok(p, { type: "new_session" }); // releases the file
      expect(readFileSync(file).equals(before), file).toBe(true);
    }
    for (const lines of samples.slice(0, 6)) {
      const file = writeSession(lines);
      const before = readFileSync(file);
      const q = await start({ args: ["--provider", "fake-openai", "--model", "fake-gpt", "--session", file] });
      await ok(q, { type: "get_messages" });
      expect(await q.close()).toBe(0);
      expect(readFileSync(file).equals(before)).toBe(true);
    }
  }, 120_000);
});

describe("set_model and custom providers", () => {
  it("refuses an id that neither the catalogue, models.json nor discovery knows, with the seed's error", async () => {
    const p = await start();
    const r = await p.request({ type: "set_model", provider: "fake-openai", modelId: "no-such-model" });
    expect(r).toMatchObject({ success: false, error: "Model not found: fake-openai/no-such-model" });
    expect((await ok(p, { type: "get_state" })).model.id).toBe("fake-gpt");
  });

  it("accepts it where the provider's models.json entry sets allowUnknownModels", async () => {
    const models = fakeModelsJson(llm.url) as { providers: Record<string, Record<string, unknown>> };
    models.providers["fake-openai"].allowUnknownModels = true;
    const p = await start({ modelsJson: models });
    expect(await ok(p, { type: "set_model", provider: "fake-openai", modelId: "brand-new" })).toMatchObject({ id: "brand-new" });
  });

  it("a provider whose entry lists its models is not queried live; pi's settings keys raise no warning", async () => {
    const pithHome = tempDir("pith-home-");
    writeFileSync(path.join(pithHome, "settings.json"), JSON.stringify({ theme: "dark", retry: { provider: { maxRetries: 2 } }, quietStartup: true }));
    const before = llm.requests.length;
    const p = await start({ pithHome });
    const { models } = await ok(p, { type: "get_available_models" });
    expect(models.map((m: Frame) => `${m.provider}/${m.id}`).sort()).toEqual(["fake-anthropic/fake-claude", "fake-openai/fake-gpt", "scripted/"].filter((s) => s !== "scripted/").sort());
    expect(llm.requests.slice(before).filter((r) => r.path.endsWith("/models"))).toEqual([]);
    expect(p.stderr).not.toMatch(/Unknown setting/);
    expect(p.stderr).not.toMatch(/discovery/);
  });
});

describe("bounded file-system work", () => {
  it("export_html into a path whose mkdir never returns fails at once, and the queue behind it is answered", async () => {
    const p = await start({ args: ["--provider", "fake-openai", "--model", "fake-gpt"] });
    llm.enqueue({ text: "hi" });
    await p.promptAndWait("make the file exist");
    p.send({ id: "x", type: "export_html", outputPath: "/proc/self/nonexistent/x.html" });
    p.send({ id: "y", type: "get_messages" });
    const x = await p.waitFor((f) => f.id === "x", 5000);
    expect(x).toMatchObject({ success: false, error: expect.stringMatching(/^Cannot write \/proc\/self\/nonexistent\/x\.html: /) });
    expect((await p.waitFor((f) => f.id === "y", 5000)).success).toBe(true);
  });

  it("switch_session to a FIFO is refused instead of blocking the process", async () => {
    const dir = tempDir("pith-fifo-");
    const fifo = path.join(dir, "pipe.jsonl");
    const { execFileSync } = await import("node:child_process");
    execFileSync("mkfifo", [fifo]);
    const p = await start();
    const r = await p.request({ type: "switch_session", sessionPath: fifo }, 5000);
    expect(r).toMatchObject({ success: false, error: `Not a session file (not a regular file): ${fifo}` });
    expect((await p.request({ type: "get_state" })).success).toBe(true);
  });
});

describe("errors name the fix", () => {
  it("a missing Anthropic key names ANTHROPIC_API_KEY and the models.json path", async () => {
    const p = await Pith.start({ args: ["--provider", "anthropic", "--model", "claude-sonnet-4-5"], env: { ANTHROPIC_API_KEY: "" } });
    open.push(p);
    const r = await p.request({ type: "prompt", message: "hi" });
    expect(r.success).toBe(false);
    expect(r.error).toContain("No API key found for anthropic.");
    expect(r.error).toContain("Set ANTHROPIC_API_KEY");
    expect(r.error).toContain(path.join(p.pithHome, "models.json"));
  });
});

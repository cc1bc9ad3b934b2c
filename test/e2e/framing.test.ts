// The wire boundary as a host sees it (issue: foundation): ready first, id echo, parse
// errors that do not stop the reader, CRLF, blank lines, U+2028/U+2029, big lines, split
// writes, a slow reader, and stdin EOF.
import { afterEach, describe, expect, it } from "vitest";
import { Pith, type Frame } from "./harness.js";

const open: Pith[] = [];
async function start(): Promise<Pith> {
  const p = await Pith.start();
  open.push(p);
  return p;
}
afterEach(async () => {
  for (const p of open.splice(0)) if (p.child.exitCode === null) p.child.kill("SIGKILL");
});

const responses = (p: Pith, from = 0): Frame[] => p.events("response", from);

describe("rpc framing", () => {
  it("writes ready first, then answers get_state with every field", async () => {
    const p = await start();
    expect(p.frames[0].type).toBe("ready");
    expect(typeof p.frames[0].version).toBe("string");
    const res = await p.request({ type: "get_state" });
    expect(res).toMatchObject({ type: "response", command: "get_state", success: true });
    expect(res.data).toMatchObject({
      isStreaming: false,
      isCompacting: false,
      steeringMode: "one-at-a-time",
      followUpMode: "one-at-a-time",
      interruptMode: "wait",
      autoCompactionEnabled: true,
      messageCount: 0,
      queuedMessageCount: 0,
      todoPhases: [],
    });
    expect(res.data.sessionId).toMatch(/^[0-9a-f]{16}$/);
    expect(res.data.model).toBeUndefined();
  });

  it("echoes ids, omits a missing id, keeps the id for unknown commands", async () => {
    const p = await start();
    expect((await p.request({ id: "abc", type: "get_state" })).id).toBe("abc");
    const from = p.frames.length;
    p.send({ type: "set_steering_mode", mode: "all" });
    const noId = await p.waitFor((f) => f.type === "response" && f.command === "set_steering_mode", 5000, from);
    expect("id" in noId).toBe(false);
    const unknown = await p.request({ id: "u1", type: "fork_the_world" });
    expect(unknown).toEqual({ type: "response", id: "u1", command: "fork_the_world", success: false, error: "Unknown command: fork_the_world" });
    const numeric = await p.request({ id: 7, type: "get_state" });
    expect(numeric.id).toBe(7);
  });

  it("answers bad lines with parse errors and keeps reading", async () => {
    const p = await start();
    const from = p.frames.length;
    p.writeRaw("{not json}\n");
    p.writeRaw("42\n");
    p.writeRaw("null\n");
    p.writeRaw('"text"\n');
    p.writeRaw("[1,2]\n");
    const ok = await p.request({ type: "get_state" });
    expect(ok.success).toBe(true);
    const errs = responses(p, from).filter((f) => f.command === "parse");
    expect(errs).toHaveLength(5);
    for (const e of errs) {
      expect(e.success).toBe(false);
      expect(e.error).toMatch(/^Failed to parse command: /);
      expect("id" in e).toBe(false);
    }
  });

  it("names the bad field of a known command and keeps its id", async () => {
    const p = await start();
    const res = await p.request({ id: "m1", type: "set_steering_mode", mode: 5 });
    expect(res).toMatchObject({ id: "m1", command: "set_steering_mode", success: false });
    expect(res.error).toMatch(/mode/);
  });

  it("accepts CRLF and skips blank lines", async () => {
    const p = await start();
    const from = p.frames.length;
    p.writeRaw('\n   \n\t\r\n{"id":"c1","type":"get_state"}\r\n');
    const res = await p.waitFor((f) => f.id === "c1", 5000, from);
    expect(res.success).toBe(true);
    expect(responses(p, from)).toHaveLength(1);
  });

  it("round-trips U+2028/U+2029 inside strings and escapes them on output", async () => {
    const p = await start();
    const from = p.frames.length;
    const name = "a\u2028b\u2029c";
    p.writeRaw(`{"id":"n1","type":"set_todos","phases":[{"id":"p","name":"${name}","tasks":[]}]}\n`);
    const res = await p.waitFor((f) => f.id === "n1", 5000, from);
    expect(res.data.todoPhases[0].name).toBe(name);
    const raw = Buffer.from(JSON.stringify(res));
    expect(raw.length).toBeGreaterThan(0);
  });

  it("handles a 5 MB line split across many writes", async () => {
    const p = await start();
    const big = "x".repeat(5 * 1024 * 1024);
    const line = JSON.stringify({ id: "big", type: "set_todos", phases: [{ id: "p", name: big, tasks: [] }] }) + "\n";
    const from = p.frames.length;
    for (let i = 0; i < line.length; i += 65536) p.writeRaw(line.slice(i, i + 65536));
    const res = await p.waitFor((f) => f.id === "big", 20_000, from);
    expect(res.success).toBe(true);
    expect(res.data.todoPhases[0].name.length).toBe(big.length);
  });

  it("reassembles a frame written one byte at a time (multi-byte characters too)", async () => {
    const p = await start();
    const bytes = Buffer.from(JSON.stringify({ id: "é✓😀", type: "get_state" }) + "\n");
    const from = p.frames.length;
    for (const b of bytes) p.writeRaw(Buffer.from([b]));
    const res = await p.waitFor((f) => f.type === "response", 5000, from);
    expect(res.id).toBe("é✓😀");
  });

  it("loses nothing when the host stops reading stdout for a while", async () => {
    const p = await start();
    p.child.stdout.pause();
    for (let i = 0; i < 300; i++) p.send({ id: `s${i}`, type: "get_state" });
    await new Promise((r) => setTimeout(r, 500));
    p.child.stdout.resume();
    await p.waitFor((f) => f.id === "s299", 15_000);
    const ids = responses(p).map((f) => f.id).filter((id) => typeof id === "string" && id.startsWith("s"));
    expect(ids).toEqual(Array.from({ length: 300 }, (_, i) => `s${i}`));
  });

  it("exits 0 promptly when stdin closes while idle", async () => {
    const p = await start();
    const t0 = Date.now();
    const code = await p.close();
    expect(code).toBe(0);
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it("answers prompt without a model with a clear error naming the env vars", async () => {
    const p = await start();
    const res = await p.request({ type: "prompt", message: "hi" });
    expect(res.success).toBe(false);
    expect(res.error).toMatch(/No model selected/);
    expect(res.error).toMatch(/ANTHROPIC_API_KEY/);
    expect(res.error).toMatch(/models\.json/);
  });
});

// Thousands of hostile lines through the real process: random bytes, broken and mutated
// frames, odd JSON values. Every line is answered exactly once (or ignored when the protocol
// says so), the process never crashes, and a well-formed command afterwards still works.
import { describe, expect, it } from "vitest";
import { Pith, trackPiths } from "./harness.js";
import { mulberry32 } from "../support/random.js";

const open = trackPiths();


const SAFE_COMMANDS = ["get_state", "get_messages", "get_session_stats", "get_last_assistant_text", "set_steering_mode", "set_todos", "abort_retry", "nope"];

/** One non-blank line without LF that is neither a dialog answer nor a host-tool frame. */
function hostileLine(next: () => number): string {
  const pick = Math.floor(next() * 5);
  if (pick === 0) {
    const len = 1 + Math.floor(next() * 40);
    let out = "";
    for (let i = 0; i < len; i++) out += String.fromCharCode(33 + Math.floor(next() * 94));
    return out;
  }
  if (pick === 1) return JSON.stringify([null, 1, "x", true, {}, []][Math.floor(next() * 6)]);
  const frame: Record<string, unknown> = { type: SAFE_COMMANDS[Math.floor(next() * SAFE_COMMANDS.length)] };
  if (next() < 0.5) frame.id = next() < 0.5 ? `f${Math.floor(next() * 1e6)}` : Math.floor(next() * 100);
  if (frame.type === "set_steering_mode") frame.mode = ["all", "one-at-a-time", 3, null][Math.floor(next() * 4)];
  if (frame.type === "set_todos") frame.phases = [[], "x", [{ id: "p", name: "n", tasks: [] }], [{ id: "p" }]][Math.floor(next() * 4)];
  let text = JSON.stringify(frame);
  if (pick === 4) {
    // Mutate one character (never into LF): often breaks the JSON.
    const at = Math.floor(next() * text.length);
    text = text.slice(0, at) + String.fromCharCode(32 + Math.floor(next() * 95)) + text.slice(at + 1);
  }
  return text.trim() === "" ? "x" : text;
}

describe("fuzzing the wire", () => {
  it("answers every hostile line exactly once and keeps serving", async () => {
    const p = await Pith.start({ args: ["--no-session"] });
    open.push(p);
    const next = mulberry32(Number(process.env.PITH_FUZZ_SEED ?? 7));
    const lines: string[] = [];
    for (let i = 0; i < 3000; i++) lines.push(hostileLine(next));
    const from = p.frames.length;
    // Send in random-sized chunks so frames straddle writes.
    const payload = Buffer.from(lines.join("\n") + "\n");
    for (let i = 0; i < payload.length; ) {
      const size = 1 + Math.floor(next() * 4096);
      p.writeRaw(payload.subarray(i, i + size));
      i += size;
    }
    const last = await p.request({ id: "after-fuzz", type: "get_state" }, 60_000);
    expect(last.success).toBe(true);
    const responses = p.frames.slice(from).filter((f) => f.type === "response" && f.id !== "after-fuzz");
    expect(responses).toHaveLength(lines.length);
    expect(p.frames.some((f) => f.type === "__unparsable__")).toBe(false);
    for (const r of responses) {
      expect(typeof r.success).toBe("boolean");
      if (!r.success) expect(typeof r.error).toBe("string");
    }
    expect(await p.close()).toBe(0);
  });
});

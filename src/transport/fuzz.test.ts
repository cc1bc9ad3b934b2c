// Property test: random bytes and mutated frames through splitter → parseFrame → validateInbound.
import { describe, expect, it } from "vitest";
import { validateInbound } from "../protocol/validate.js";
import { JsonlLineSplitter, parseFrame, type LineItem } from "./jsonl-reader.js";

/** Deterministic PRNG (mulberry32) so a failure reproduces. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VALID = [
  { id: "1", type: "prompt", message: "hi\u2028there", images: [{ type: "image", data: "x", mimeType: "image/png" }] },
  { type: "set_todos", phases: [{ id: "p", name: "n", tasks: [{ id: "t", content: "c", status: "pending" }] }] },
  { type: "host_tool_result", id: "h", result: { content: [{ type: "text", text: "ok" }] } },
  { type: "extension_ui_response", id: "u", value: "v" },
  { type: "set_host_tools", tools: [{ name: "a", description: "d", parameters: {} }] },
];
const KINDS = new Set(["ui_response", "host_tool_result", "host_tool_update", "command", "unknown", "invalid", "ignored"]);
const ALPHABET = Buffer.from('{}[]":,\\ \t\r\n0123456789abcdefnulltrue-e.\u2028é');

function mutate(text: string, random: () => number): Buffer {
  const bytes = Buffer.from(text);
  const out = Buffer.from(bytes);
  const edits = 1 + Math.floor(random() * 4);
  for (let i = 0; i < edits; i++) out[Math.floor(random() * out.length)] = ALPHABET[Math.floor(random() * ALPHABET.length)];
  return out;
}

/** Runs bytes through the pipeline in random chunks; returns how many outcomes each line produced. */
function pipeline(bytes: Buffer, random: () => number): { items: LineItem[]; outcomes: number } {
  const splitter = new JsonlLineSplitter({ maxLineBytes: 256 });
  const items: LineItem[] = [];
  for (let i = 0; i < bytes.length; ) {
    const size = 1 + Math.floor(random() * 40);
    items.push(...splitter.push(bytes.subarray(i, i + size)));
    i += size;
  }
  items.push(...splitter.end());
  let outcomes = 0;
  for (const item of items) {
    if ("error" in item) {
      outcomes++;
      continue;
    }
    const parsed = parseFrame(item.line);
    if (!parsed.ok) {
      if (typeof parsed.error !== "string" || parsed.error === "") throw new Error(`parseFrame gave no error for ${item.line}`);
      outcomes++;
      continue;
    }
    const result = validateInbound(parsed.value);
    if (!KINDS.has(result.kind)) throw new Error(`unexpected kind ${result.kind} for ${item.line}`);
    outcomes++;
  }
  return { items, outcomes };
}

describe("splitter + parseFrame + validateInbound under fuzzing", () => {
  it("never throws and yields exactly one outcome per line for random bytes", () => {
    const random = rng(42);
    for (let round = 0; round < 3000; round++) {
      const length = Math.floor(random() * 300);
      const bytes = Buffer.alloc(length);
      for (let i = 0; i < length; i++) bytes[i] = random() < 0.5 ? ALPHABET[Math.floor(random() * ALPHABET.length)] : Math.floor(random() * 256);
      const { items, outcomes } = pipeline(bytes, random);
      expect(outcomes).toBe(items.length);
    }
  });

  it("never throws on mutated valid frames, and each LF-terminated frame is one line", () => {
    const random = rng(7);
    for (let round = 0; round < 3000; round++) {
      const frames = Array.from({ length: 1 + Math.floor(random() * 4) }, () => VALID[Math.floor(random() * VALID.length)]);
      const text = frames.map((f) => JSON.stringify(f)).join("\n") + "\n";
      const bytes = random() < 0.8 ? mutate(text, random) : Buffer.from(text);
      const { items, outcomes } = pipeline(bytes, random);
      expect(outcomes).toBe(items.length);
      if (bytes.equals(Buffer.from(text))) expect(items.map((i) => ("line" in i ? i.line : ""))).toEqual(frames.map((f) => JSON.stringify(f)));
    }
  });
});

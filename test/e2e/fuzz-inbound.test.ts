// Property-based fuzz of the whole inbound path through the real process.
// fast-check builds one line per run: a command of every type with arbitrary JSON values in
// every field (or a bogus `type`), objects keyed `toString`/`valueOf`/`__proto__`/`constructor`,
// nesting up to 1,000,000 levels, lone surrogates and huge strings. Each line must be answered
// exactly once and the process must keep serving. PITH_FUZZ_SEED replays a run;
// PITH_FUZZ_RUNS changes the number of runs (default 20,000).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { COMMAND_SCHEMAS, COMMAND_TYPES, RpcHostToolDefinitionSchema } from "../../src/protocol/index.js";
import { Pith, trackPiths } from "./harness.js";

const open = trackPiths();

const RUNS = Number(process.env.PITH_FUZZ_RUNS ?? 20_000);
const SEED = Number(process.env.PITH_FUZZ_SEED ?? 16);
const SENTINEL = "__fuzz_sentinel_";

/** Keys that break code which treats host objects as trusted. */
const PROTO_KEYS = ["toString", "valueOf", "__proto__", "constructor", "toJSON", "hasOwnProperty", "then", "length"];

/** Lone surrogates and any other code point; JSON.stringify writes lone ones as \udXXX. */
const surrogateString = fc.string({
  unit: fc.oneof(
    fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
    fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
  ),
  maxLength: 12,
});

/** 64 Ki to 2 Mi characters of one repeated piece. */
const hugeString = fc
  .tuple(fc.string({ unit: "binary", minLength: 1, maxLength: 3 }), fc.integer({ min: 65_536, max: 2_097_152 }))
  .map(([piece, n]) => piece.repeat(Math.ceil(n / piece.length)));

/** JSON text nested `depth` levels deep, as arrays, objects or both. */
const deepText = (depth: fc.Arbitrary<number>) =>
  fc.record({ depth, style: fc.constantFrom("array", "object", "mixed"), leaf: fc.jsonValue({ maxDepth: 1 }) }).map(({ depth: n, style, leaf }) => {
    const inner = JSON.stringify(leaf) ?? "null";
    if (style === "array") return "[".repeat(n) + inner + "]".repeat(n);
    if (style === "object") return '{"a":'.repeat(n) + inner + "}".repeat(n);
    const half = Math.ceil(n / 2);
    return '[{"toString":'.repeat(half) + inner + "}]".repeat(half);
  });

const objectText = (entries: [string, string][]) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`;

/** An object whose keys shadow Object.prototype, as raw JSON text (so `__proto__` stays an own key). */
const protoObjectText = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom(...PROTO_KEYS), fc.string({ maxLength: 6 })), fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v) ?? "null")), {
    minLength: 1,
    maxLength: 4,
  })
  .map(objectText);

/** Any hostile JSON value of modest size, as JSON text (nesting around the limit of 128 included). */
const hostileText: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? "null"), weight: 20 },
  { arbitrary: protoObjectText, weight: 8 },
  { arbitrary: surrogateString.map((s) => JSON.stringify(s)), weight: 6 },
  { arbitrary: fc.constantFrom("1e308", "-0", "1e-400", "123456789012345678901234567890", "true", "null", "{}", "[]"), weight: 3 },
  { arbitrary: deepText(fc.oneof(fc.integer({ min: 1, max: 300 }), fc.constantFrom(127, 128, 129))), weight: 2 },
);

/** A value of megabytes: nesting to 1,000,000 levels or a huge string (costly, so rare). */
const heavyText = fc.oneof(
  { arbitrary: deepText(fc.constantFrom(1000, 10_000, 100_000)), weight: 3 },
  { arbitrary: deepText(fc.constant(1_000_000)), weight: 1 },
  { arbitrary: hugeString.map((s) => JSON.stringify(s)), weight: 3 },
);

type Schema = Record<string, any>;

/** Field values that must never be arbitrary strings: pith runs them (as root, on this machine). */
const SAFE_STRINGS: Record<string, fc.Arbitrary<string>> = {
  command: fc.constantFrom("true", "echo fuzz"),
  // No real provider: a selected one would be called. A scripted model names a script file.
  provider: fc.oneof(fc.constantFrom("scripted", "nope"), fc.string({ maxLength: 8 })),
  sessionPath: fc.oneof(fc.constantFrom("missing.jsonl", "/nonexistent/x.jsonl", ""), surrogateString),
  sessionFile: fc.oneof(fc.constantFrom("missing.jsonl", ""), surrogateString),
  outputPath: fc.constantFrom("out.html", "/nonexistent/dir/out.html"),
};

/** A value the schema accepts (roughly), as JSON text; `unknown` parts are hostile. */
function validText(schema: Schema, field?: string): fc.Arbitrary<string> {
  if (field && SAFE_STRINGS[field] && schema.type === "string") return SAFE_STRINGS[field].map((s) => JSON.stringify(s));
  if ("const" in schema) return fc.constant(JSON.stringify(schema.const));
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum.map((v: unknown) => JSON.stringify(v)));
  if (Array.isArray(schema.anyOf)) return fc.oneof(...schema.anyOf.map((s: Schema) => validText(s, field)));
  switch (schema.type) {
    case "string":
      return fc.oneof(fc.string({ maxLength: 20 }), surrogateString).map((s) => JSON.stringify(s));
    case "number":
      return fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n));
    case "boolean":
      return fc.boolean().map(String);
    case "array":
      return fc.array(schema.items ? validText(schema.items) : hostileText, { maxLength: 3 }).map((items) => `[${items.join(",")}]`);
    case "object":
      return objectArb(schema);
    default:
      return hostileText;
  }
}

function objectArb(schema: Schema): fc.Arbitrary<string> {
  const props = Object.entries((schema.properties ?? {}) as Record<string, Schema>);
  if (props.length === 0) return hostileText;
  const fields = props.map(([key, sub]) => fieldArb(key, sub).map((text) => (text === undefined ? undefined : ([key, text] as [string, string]))));
  return fc.tuple(...fields).map((entries) => objectText(entries.filter((e): e is [string, string] => e !== undefined)));
}

/** One field: absent, valid, or hostile. */
function fieldArb(key: string, schema: Schema): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 1 },
    { arbitrary: validText(schema, key), weight: 4 },
    { arbitrary: hostileText, weight: 2 },
  );
}

/** `set_host_tools.tools` and `set_todos.phases` are `unknown[]` at the boundary: give them real shapes too. */
const TODO_PHASE: Schema = {
  type: "object",
  properties: {
    id: { type: "string" },
    name: { type: "string" },
    tasks: { type: "array", items: { type: "object", properties: { id: {}, content: { type: "string" }, status: { enum: ["pending", "in_progress", "completed", "abandoned"] }, notes: {} } } },
  },
};
const ITEMS: Record<string, Schema> = { tools: RpcHostToolDefinitionSchema as Schema, phases: TODO_PHASE };

/** One command frame of the given type, as a line of JSON text. */
function commandLine(type: string): fc.Arbitrary<string> {
  const schema = COMMAND_SCHEMAS[type as keyof typeof COMMAND_SCHEMAS] as Schema;
  const props = Object.entries(schema.properties as Record<string, Schema>).filter(([key]) => key !== "type");
  const fields = props.map(([key, sub]) => fieldArb(key, ITEMS[key] ? { type: "array", items: ITEMS[key] } : sub));
  const typeText = fc.oneof({ arbitrary: fc.constant(JSON.stringify(type)), weight: 9 }, { arbitrary: hostileText, weight: 1 });
  const extra = fc.array(fc.tuple(fc.constantFrom(...PROTO_KEYS), hostileText), { maxLength: 2 });
  return fc.tuple(typeText, fc.tuple(...fields), extra).map(([t, values, more]) => {
    const entries: [string, string][] = [["type", t]];
    values.forEach((text, i) => text !== undefined && entries.push([props[i][0], text]));
    return objectText([...entries, ...more]);
  });
}

/** A line whose `type` is no command at all. */
const bogusLine = fc
  .tuple(hostileText, fc.option(hostileText, { nil: undefined }))
  .filter(([t]) => !/^"(extension_ui_response|host_tool_result|host_tool_update)"$/.test(t))
  .map(([t, id]) => objectText(id === undefined ? [["type", t]] : [["id", id], ["type", t]]));

/** A line, printed shortened when fast-check reports it (they can be megabytes long). */
interface Line {
  text: string;
  [fc.toStringMethod](): string;
}
function asLine(text: string): Line {
  const shown = text.length > 600 ? `${text.slice(0, 300)}… (${text.length} chars) …${text.slice(-300)}` : text;
  return { text, [fc.toStringMethod]: () => shown };
}

/** A command whose one field (or `type`, or a prototype key) holds a heavy value. */
const heavyLine = fc
  .tuple(fc.constantFrom(...COMMAND_TYPES), heavyText, fc.nat())
  .map(([type, heavy, pick]) => {
    const keys = [...Object.keys((COMMAND_SCHEMAS[type] as Schema).properties), ...PROTO_KEYS];
    const key = keys[pick % keys.length];
    const entries: [string, string][] = [["type", JSON.stringify(type)], [key, heavy]];
    return objectText(key === "type" ? entries.slice(1) : entries);
  });

// `bash` really spawns a shell (tens of ms): rarer than the rest.
const COMMAND_LINES = COMMAND_TYPES.map((type) => ({ arbitrary: commandLine(type), weight: type === "bash" ? 1 : 6 }));
const lineArb = fc
  .oneof({ arbitrary: fc.oneof(...COMMAND_LINES), weight: 798 }, { arbitrary: bogusLine, weight: 200 }, { arbitrary: heavyLine, weight: 2 })
  .map(asLine);

/** The lines the issue reported: each crashed the process or answered a raw stack overflow. */
const ISSUE_LINES = [
  '{"type":{"toString":1}}',
  '{"type":{"toString":null,"valueOf":null}}',
  `{"type":${"[".repeat(10_000)}${"]".repeat(10_000)}}`,
  `{"type":"set_todos","phases":[{"id":"p","name":"n","tasks":[{"content":"c","notes":${"[".repeat(100_000)}${"]".repeat(100_000)}}]}]}`,
  `{"id":"deep","type":"prompt","message":"x","images":${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}}`,
];

/** One process, one line at a time; restarts the process if a line killed it (so shrinking works). */
class Driver {
  private pith!: Pith;
  private sentinels = 0;

  async start(): Promise<void> {
    this.pith = await Pith.start({ args: ["--no-session"] });
    open.push(this.pith);
  }

  get alive(): boolean {
    return this.pith.child.exitCode === null && this.pith.child.signalCode === null;
  }

  /**
   * Sends one line and then a queued sentinel command; resolves with the responses the line got.
   * Frames are dropped between lines (huge strings come back in errors), so a late second answer
   * to one line shows up as an extra answer to the next.
   */
  async send(line: string): Promise<Record<string, any>[]> {
    if (!this.alive) await this.start();
    this.pith.frames.length = 0;
    const id = `${SENTINEL}${this.sentinels++}`;
    this.pith.writeRaw(`${line}\n${JSON.stringify({ id, type: "get_session_stats" })}\n`);
    const sentinel = await this.pith.waitFor((f) => f.type === "response" && f.id === id, 30_000);
    if (!sentinel.success) throw new Error(`sentinel failed: ${sentinel.error}`);
    // Control commands (abort, get_state, …) are answered beside the queue: allow them a moment.
    const deadline = Date.now() + 2_000;
    while (this.answers().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 1));
    return this.answers();
  }

  private answers(): Record<string, any>[] {
    return this.pith.frames.filter((f) => f.type === "response" && !(typeof f.id === "string" && f.id.startsWith(SENTINEL)));
  }

  async close(): Promise<number | null> {
    return this.pith.close();
  }
}

describe("fuzzing every command through the real process (fast-check)", () => {
  it("answers the issue's crashing lines once each, with a clear error, and keeps serving", async () => {
    const driver = new Driver();
    await driver.start();
    const errors: string[] = [];
    for (const line of ISSUE_LINES) {
      const answers = await driver.send(line);
      expect(answers).toHaveLength(1);
      errors.push(answers[0].error);
    }
    expect(errors).toEqual([
      "Unknown command: [object Object]",
      "Unknown command: [object Object]",
      "Unknown command: [object Array]",
      'Invalid "phases[0].tasks[0].notes": nested deeper than 128 levels',
      'Invalid "images": nested deeper than 128 levels',
    ]);
    expect(driver.alive).toBe(true);
    expect(await driver.close()).toBe(0);
  });

  it(`answers each of ${RUNS} generated lines exactly once and stays alive`, async () => {
    const driver = new Driver();
    await driver.start();
    await fc.assert(
      fc.asyncProperty(lineArb, async (line) => {
        const answers = await driver.send(line.text);
        const wellFormed = answers.every((a) => a.success === true || (a.success === false && typeof a.error === "string"));
        return answers.length === 1 && wellFormed && driver.alive;
      }),
      { numRuns: RUNS, seed: SEED },
    );
    expect(driver.alive).toBe(true);
    expect(await driver.close()).toBe(0);
  }, Math.max(300_000, RUNS * 15)); // a longer soak (PITH_FUZZ_RUNS) gets time in proportion
});

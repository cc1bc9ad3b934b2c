import { describe, expect, it } from "vitest";
import { Type } from "typebox";
import { runTool } from "./run-tool.js";
import { jsonSchema } from "./schema.js";
import { makeCtx, textOf } from "../../test/support/tools.js";
import type { Tool } from "./types.js";

function tool(over: Partial<Tool> = {}): Tool & { calls: unknown[] } {
  const calls: unknown[] = [];
  return {
    name: "probe",
    label: "Probe",
    description: "d",
    effect: "read-only",
    parameters: jsonSchema(
      Type.Object(
        {
          path: Type.String(),
          count: Type.Optional(Type.Integer({ minimum: 1, maximum: 5 })),
          flag: Type.Optional(Type.Boolean()),
          mode: Type.Optional(Type.Enum(["a", "b"])),
          items: Type.Optional(Type.Array(Type.Object({ x: Type.String() }))),
          either: Type.Optional(Type.Union([Type.Number(), Type.Object({ n: Type.Number() })])),
        },
        { additionalProperties: false },
      ),
    ),
    async execute(args) {
      calls.push(args);
      return { content: [{ type: "text", text: "ok" }], details: {} };
    },
    calls,
    ...over,
  };
}

describe("runTool validation", () => {
  it("names the bad field and shows the arguments, without calling the tool", async () => {
    const t = tool();
    const out = await runTool(t, { path: 3, count: 9 }, makeCtx("/"));
    expect(out.isError).toBe(true);
    const text = textOf(out.result);
    expect(text.startsWith('Validation failed for tool "probe":\n')).toBe(true);
    expect(text).toContain("  - path: must be string");
    expect(text).toContain("  - count: must be <= 5");
    expect(text).toContain('Received arguments:\n{\n  "path": 3,');
    expect(out.result.details).toEqual({});
    expect(t.calls).toEqual([]);
  });
  it("reports missing, extra, enum and nested problems", async () => {
    const text = textOf((await runTool(tool(), { extra: 1, mode: "z", items: [{}] }, makeCtx("/"))).result);
    expect(text).toContain("  - path: must have required property 'path'");
    expect(text).toContain("root: must not have additional properties (extra)");
    expect(text).toContain("  - mode:");
    expect(text).toContain("  - items.0.x: must have required property 'x'");
  });
  it("coerces stringified numbers, booleans and JSON", async () => {
    const t = tool();
    const out = await runTool(t, { path: "p", count: "3", flag: "false", items: '[{"x":"y"}]', either: "7" }, makeCtx("/"));
    expect(out.isError).toBe(false);
    expect(t.calls[0]).toEqual({ path: "p", count: 3, flag: false, items: [{ x: "y" }], either: 7 });
  });
  it("does not coerce what is not a number", async () => {
    const out = await runTool(tool(), { path: "p", count: "three" }, makeCtx("/"));
    expect(textOf(out.result)).toContain("  - count:");
  });
});

describe("runTool execution", () => {
  it("turns a throw into an error result with the message verbatim", async () => {
    const t = tool({ execute: async () => Promise.reject(new Error("File not found: x")) });
    const out = await runTool(t, { path: "x" }, makeCtx("/"));
    expect(out).toEqual({ isError: true, result: { content: [{ type: "text", text: "File not found: x" }], details: {} } });
  });
  it("appends notices from details.meta for built-in tools only", async () => {
    const result = { content: [{ type: "text" as const, text: "body" }], details: { meta: { matchLimit: 3, linesTruncatedTo: 500 } } };
    const builtin = await runTool(tool({ source: "builtin", execute: async () => result }), { path: "x" }, makeCtx("/"));
    expect(textOf(builtin.result)).toBe("body\n\n[3 matches limit reached. Use limit=6 for more. Some lines truncated to 500 chars]");
    const host = await runTool(tool({ source: "host", execute: async () => result }), { path: "x" }, makeCtx("/"));
    expect(textOf(host.result)).toBe("body");
  });
  it("caps oversized built-in output", async () => {
    const big = Array.from({ length: 3000 }, (_, i) => `l${i}`).join("\n");
    const out = await runTool(tool({ source: "builtin", execute: async () => ({ content: [{ type: "text", text: big }] }) }), { path: "x" }, makeCtx("/"));
    const text = textOf(out.result);
    expect(text).toContain("[Output truncated: showing lines 1-2000 of 3000]");
    expect(text).not.toContain("l2500");
    const oneLine = await runTool(tool({ source: "builtin", execute: async () => ({ content: [{ type: "text", text: "é".repeat(30000) }] }) }), { path: "x" }, makeCtx("/"));
    const cut = textOf(oneLine.result);
    expect(cut.endsWith("\n\n[Output truncated to 50.0KB]")).toBe(true);
    expect(Buffer.byteLength(cut.split("\n")[0])).toBe(51200);
  });
});

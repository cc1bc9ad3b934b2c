import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assignToolNames, baseToolName, TOOL_NAME_PATTERN, toolKeyString, type ToolKey } from "./tool-names.js";

describe("MCP tool names", () => {
  it("is mcp__<server>__<tool>, with characters outside the provider charset turned into _", () => {
    expect(baseToolName({ server: "github", tool: "create_issue" })).toBe("mcp__github__create_issue");
    expect(baseToolName({ server: "my.server", tool: "get data/v2" })).toBe("mcp__my_server__get_data_v2");
    expect(baseToolName({ server: "ünï", tool: "" })).toBe("mcp___n____");
  });

  it("cuts long names to 64 characters with a hash that tells them apart", () => {
    const a = baseToolName({ server: "s".repeat(40), tool: "t".repeat(40) + "a" });
    const b = baseToolName({ server: "s".repeat(40), tool: "t".repeat(40) + "b" });
    expect(a).toHaveLength(64);
    expect(a).toMatch(/^mcp__s{40}__t{8}_[0-9a-f]{8}$/);
    expect(a).not.toBe(b);
  });

  it("resolves collisions by the original names, whatever the order", () => {
    const keys: ToolKey[] = [
      { server: "a_b", tool: "x" },
      { server: "a.b", tool: "x" },
      { server: "other", tool: "x" },
    ];
    const one = assignToolNames(keys);
    const two = assignToolNames([...keys].reverse());
    expect([...one.entries()].sort()).toEqual([...two.entries()].sort());
    expect(one.get(toolKeyString({ server: "a.b", tool: "x" }))).toBe("mcp__a_b__x"); // "a.b" < "a_b"
    expect(one.get(toolKeyString({ server: "a_b", tool: "x" }))).toMatch(/^mcp__a_b__x_[0-9a-f]{8}$/);
    expect(one.get(toolKeyString({ server: "other", tool: "x" }))).toBe("mcp__other__x");
  });

  it("always gives valid, unique names, independent of order (property)", () => {
    const key = fc.record({ server: fc.string({ maxLength: 50 }), tool: fc.string({ maxLength: 80 }) });
    fc.assert(
      fc.property(fc.array(key, { maxLength: 30 }), (keys) => {
        const names = assignToolNames(keys);
        const distinct = new Set(keys.map(toolKeyString));
        expect(names.size).toBe(distinct.size);
        expect(new Set(names.values()).size).toBe(distinct.size);
        for (const n of names.values()) expect(n).toMatch(TOOL_NAME_PATTERN);
        const reversed = assignToolNames([...keys].reverse());
        for (const [k, n] of names) expect(reversed.get(k)).toBe(n);
      }),
    );
  });
});

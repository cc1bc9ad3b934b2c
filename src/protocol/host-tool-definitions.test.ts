import { Compile } from "typebox/compile";
import { describe, expect, it } from "vitest";
import { PithError } from "../shared/errors.js";
import { normalizeHostToolDefinitions, RpcHostToolDefinitionSchema } from "./host-tool-definitions.js";

const schema = { type: "object", properties: { message: { type: "string" } } };

function errorOf(defs: unknown[]): string {
  try {
    normalizeHostToolDefinitions(defs);
  } catch (err) {
    expect(err).toBeInstanceOf(PithError);
    expect((err as PithError).code).toBe("invalid_request");
    return (err as Error).message;
  }
  throw new Error("normalizeHostToolDefinitions did not throw");
}

describe("host tool definitions (set_host_tools)", () => {
  it("trim names and descriptions, default the label to the name, keep only a literal true hidden or readOnly", () => {
    const defs = normalizeHostToolDefinitions([
      { name: " Upper_Case-1 ", label: "  ", description: " d ", parameters: {}, hidden: "yes", readOnly: "yes", extra: 1 },
      { name: "b", label: " B ", description: "d", parameters: schema, hidden: true, readOnly: true },
      { name: "c", label: 7, description: "d", parameters: schema, readOnly: 1 },
    ]);
    expect(defs).toEqual([
      { name: "Upper_Case-1", label: "Upper_Case-1", description: "d", parameters: {}, hidden: false, readOnly: false },
      { name: "b", label: "B", description: "d", parameters: schema, hidden: true, readOnly: true },
      { name: "c", label: "c", description: "d", parameters: schema, hidden: false, readOnly: false },
    ]);
    expect(normalizeHostToolDefinitions([])).toEqual([]);
  });

  it("produce definitions the published schema accepts", () => {
    const check = Compile(RpcHostToolDefinitionSchema);
    const [def] = normalizeHostToolDefinitions([{ name: "x", label: 3, description: "d", parameters: schema, hidden: 1 }]);
    expect(check.Check(def)).toBe(true);
  });

  it("throw the exact messages, first failure in index order", () => {
    expect(errorOf([{ name: "ok", description: "d", parameters: {} }, { name: "  " }])).toBe(
      "Host tool at index 1 must provide a non-empty name",
    );
    expect(errorOf([{ name: 3 }])).toBe("Host tool at index 0 must provide a non-empty name");
    expect(errorOf(["echo"])).toBe("Host tool at index 0 must provide a non-empty name");
    expect(errorOf([{ name: "x", description: " " }])).toBe('Host tool "x" must provide a non-empty description');
    expect(errorOf([{ name: "x", description: "d", parameters: [] }])).toBe('Host tool "x" must provide a JSON Schema object');
    expect(errorOf([{ name: "x", description: "d", parameters: null }])).toBe('Host tool "x" must provide a JSON Schema object');
    expect(errorOf([{ name: "a b", description: "d", parameters: {} }])).toBe(
      'Host tool "a b" has an invalid name: use letters, digits, _ or - (at most 64)',
    );
    expect(errorOf([{ name: "x".repeat(65), description: "d", parameters: {} }])).toMatch(/has an invalid name/);
    const dup = { name: "x", description: "d", parameters: {} };
    expect(errorOf([dup, { ...dup, name: " x " }])).toBe("RPC host tool names must be unique");
  });
});

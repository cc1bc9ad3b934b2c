import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { renderRpcJsonSchema } from "./json-schema.js";

const committed = fileURLToPath(new URL("../../schema/rpc.schema.json", import.meta.url));

describe("schema/rpc.schema.json", () => {
  it("matches the TypeBox definitions", () => {
    const fresh = renderRpcJsonSchema();
    let onDisk = "";
    try {
      onDisk = readFileSync(committed, "utf8");
    } catch (err) {
      throw new Error(`schema/rpc.schema.json is missing: run npm run schema (${String(err)})`);
    }
    if (onDisk !== fresh) throw new Error("schema/rpc.schema.json is stale: run npm run schema");
    expect(onDisk).toBe(fresh);
  });

  it("resolves every $ref to a definition", () => {
    const doc = JSON.parse(renderRpcJsonSchema()) as { $defs: Record<string, unknown> };
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/\$defs\/([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(50);
    expect(refs.filter((name) => !(name in doc.$defs))).toEqual([]);
    expect(Object.keys(doc.$defs)).toEqual(expect.arrayContaining(["InboundFrame", "OutboundFrame", "command_prompt"]));
  });
});

import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SessionStore } from "./session-store.js";
import { buildSessionContext } from "./build-context.js";
import { tmpDir } from "../../test/support/store.js";

const ts = "2025-01-01T00:00:00.000Z";
const userMsg = (text: string) => ({ role: "user", content: text, timestamp: 1 });

function write(lines: unknown[]): string {
  const file = path.join(tmpDir(), "legacy.jsonl");
  fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  return file;
}

describe("migrate (older and pi/xcsh files)", () => {
  it("chains id-less pi v1 entries, maps firstKeptEntryIndex, and rewrites before appending", () => {
    const file = write([
      { type: "session", id: "uuid-1", timestamp: ts, cwd: "/p" },
      { type: "message", timestamp: ts, message: userMsg("one") },
      { type: "message", timestamp: ts, message: userMsg("two") },
      { type: "compaction", timestamp: ts, summary: "S", firstKeptEntryIndex: 2, tokensBefore: 5 },
      { type: "message", timestamp: ts, message: { role: "hookMessage", customType: "h", content: "hooked", display: true, timestamp: 2 } },
    ]);
    const s = SessionStore.open(file, { cwd: "/p" });
    const es = s.entries();
    expect(es.map((e) => e.parentId)).toEqual([null, es[0].id, es[1].id, es[2].id]);
    expect(es[2]).toMatchObject({ type: "compaction", firstKeptEntryId: es[1].id });
    expect(es[3]).toMatchObject({ type: "custom_message", customType: "h", content: "hooked", display: true });
    expect(buildSessionContext(s).messages.map((m) => m.role)).toEqual(["compactionSummary", "user", "custom"]);
    const ids = es.map((e) => e.id);
    s.append({ type: "model_change", provider: "x", modelId: "y" });
    s.close();
    const text = fs.readFileSync(file, "utf8");
    expect(JSON.parse(text.split("\n")[0])).toMatchObject({ type: "session", version: 3, id: "uuid-1" });
    const r = SessionStore.open(file, { cwd: "/p" });
    expect(r.entries().map((e) => e.id)).toEqual([...ids, r.leafId]);
    expect(r.warnings).toEqual([]);
    r.close();
  });

  it("reads pi v3 / xcsh shapes: string model_change, fromHook, title, unknown entry types", () => {
    const file = write([
      { type: "session", version: 3, id: "0a1b2c3d4e5f6071", timestamp: ts, cwd: "/p", title: "Xcsh title" },
      { type: "model_change", id: "9f1c2e3a", parentId: null, timestamp: ts, model: "anthropic/claude-sonnet-4-5" },
      { type: "service_tier_change", id: "aaaa0001", parentId: "9f1c2e3a", timestamp: ts, serviceTier: null },
      { type: "branch_summary", id: "aaaa0002", parentId: "aaaa0001", timestamp: ts, fromId: "root", summary: "B", fromHook: true },
      { type: "message", id: "aaaa0003", parentId: "aaaa0002", timestamp: ts, message: userMsg("hi") },
    ]);
    const s = SessionStore.open(file, { cwd: "/p" });
    expect(s.name).toBe("Xcsh title");
    expect(s.header.version).toBe(3);
    expect(s.getEntry("9f1c2e3a")).toMatchObject({ provider: "anthropic", modelId: "claude-sonnet-4-5" });
    expect(s.getEntry("aaaa0001")).toMatchObject({ type: "custom", customType: "unknown:service_tier_change", data: { serviceTier: null } });
    expect(s.getEntry("aaaa0002")).toMatchObject({ fromExtension: true });
    const ctx = buildSessionContext(s);
    expect(ctx.model).toEqual({ provider: "anthropic", modelId: "claude-sonnet-4-5" });
    expect(ctx.messages.map((m) => m.role)).toEqual(["branchSummary", "user"]);
    // no structural change: appends go to the end of the original file
    s.append({ type: "custom", customType: "x" });
    s.close();
    expect(fs.readFileSync(file, "utf8").split("\n")[0]).toContain('"version":3');
  });

  it("skips records without a valid entry shape", () => {
    const file = write([
      { type: "session", version: 1, id: "abc", timestamp: ts, cwd: "/p" },
      { type: "message", id: 7, parentId: null, timestamp: ts, message: userMsg("bad id") },
      { type: "message", id: "aaaa0003", parentId: null, timestamp: ts, message: userMsg("ok") },
    ]);
    const s = SessionStore.open(file, { cwd: "/p", readOnly: true });
    expect(s.entries()).toHaveLength(1);
    expect(s.warnings[0]).toMatch(/entry 1/);
  });
});

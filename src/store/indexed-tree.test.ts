import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SessionStore } from "./session-store.js";
import { buildSessionContext } from "./build-context.js";
import { scanLines } from "./line-scan.js";
import { indexSessionFile, scanMessagePrefix, withReadFd, F_UNCHECKED } from "./session-index.js";
import { assistant, tmpDir, user } from "../../test/support/store.js";

const HEADER = JSON.stringify({ type: "session", version: 3, id: "0000000000000001", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" });
const TS = "2026-01-01T00:00:01.000Z";
const msg = (id: string, parentId: string | null, text: string, role: "user" | "assistant" = "user") =>
  JSON.stringify({ type: "message", id, parentId, timestamp: TS, message: role === "user" ? user(text) : assistant(text) });

function file(lines: string[], end = "\n"): string {
  const f = path.join(tmpDir("pith-idx-"), "s.jsonl");
  fs.writeFileSync(f, [HEADER, ...lines].join("\n") + end);
  return f;
}
const both = (f: string) => [true, false].map((index) => SessionStore.open(f, { cwd: "/w", readOnly: true, index }));
const ids = (entries: readonly { id: string }[]) => entries.map((e) => e.id);

describe("scanMessagePrefix", () => {
  it("reads id, parentId and role of a line in pith's key order", () => {
    const line = Buffer.from(msg("a1", "p0", "hi"));
    expect(scanMessagePrefix(line, 0, line.length)).toEqual({ id: "a1", parentId: "p0", role: "user" });
    const root = Buffer.from(msg("r1", null, "hi", "assistant"));
    expect(scanMessagePrefix(root, 0, root.length)).toEqual({ id: "r1", parentId: null, role: "assistant" });
  });

  it("declines other key orders, escaped ids, custom roles and other entry types", () => {
    const other = [
      JSON.stringify({ id: "a", type: "message", parentId: null, timestamp: TS, message: user("x") }),
      JSON.stringify({ type: "message", id: 'a"b', parentId: null, timestamp: TS, message: user("x") }),
      JSON.stringify({ type: "message", id: "ü1", parentId: null, timestamp: TS, message: user("x") }),
      JSON.stringify({ type: "message", id: "a", parentId: null, timestamp: TS, message: { role: "custom", customType: "n", content: "x", display: true } }),
      JSON.stringify({ type: "label", id: "a", parentId: null, timestamp: TS, targetId: "b", label: "x" }),
      '{"type":"message","id":"a","parentId":7,"timestamp":"x","message":{"role":"user"}}',
    ];
    for (const l of other) expect(scanMessagePrefix(Buffer.from(l), 0, l.length)).toBeUndefined();
  });
});

describe("scanLines", () => {
  it("hands over lines longer than the buffer with their first bytes, exact offsets and last byte", () => {
    const long = "x".repeat(100) + "}";
    const f = file(["short", long, "", "tail"], "");
    const seen: [number, number, boolean, number, boolean][] = [];
    withReadFd(f, (fd) => scanLines(fd, fs.statSync(f).size, (_b, _s, _e, offset, length, complete, last, term) => seen.push([offset, length, complete, last, term]), 16));
    const text = fs.readFileSync(f, "utf8");
    const starts = [0, HEADER.length + 1, HEADER.length + 7, HEADER.length + 7 + long.length + 1, HEADER.length + 7 + long.length + 2];
    expect(seen.map((s) => s[0])).toEqual(starts);
    expect(seen.map((s) => text.slice(s[0], s[0] + s[1]))).toEqual([HEADER, "short", long, "", "tail"]);
    expect(seen[2].slice(2)).toEqual([false, 0x7d, true]);
    expect(seen[4].slice(2)).toEqual([true, "l".charCodeAt(0), false]);
  });
});

describe("indexed session file", () => {
  it("indexes pith's message lines from their first bytes and parses the rest", () => {
    const f = file([msg("a", null, "one"), JSON.stringify({ type: "label", id: "l", parentId: "a", timestamp: TS, targetId: "a", label: "start" }), msg("b", "l", "two")]);
    const index = withReadFd(f, (fd) => indexSessionFile(fd, fs.statSync(f).size, f));
    expect([0, 1, 2].map((i) => index.table.idOf(i))).toEqual(["a", "l", "b"]);
    expect([...index.table.kinds.slice(0, 3)].map((k) => (k & F_UNCHECKED) !== 0)).toEqual([true, false, true]);
    expect(index.labels.get("a")).toBe("start");
    const s = SessionStore.open(f, { cwd: "/w", readOnly: true });
    expect(ids(s.branch())).toEqual(["a", "l", "b"]);
    expect(s.getLabel("a")).toBe("start");
  });

  it("skips damaged lines and a torn last line with the full parse's warnings, and appends after the torn cut", () => {
    const lines = [msg("a", null, "one"), "garbage {", "[1]", "", msg("b", "a", "two")];
    const f = file(lines, "\n" + msg("c", "b", "three").slice(0, 40));
    const [indexed, full] = both(f);
    expect(indexed.warnings).toEqual(full.warnings);
    expect(indexed.warnings.some((w) => w.includes("torn last line"))).toBe(true);
    expect(indexed.skippedEntries).toBe(3);
    expect(indexed.entries()).toEqual(full.entries());
    const w = SessionStore.open(f, { cwd: "/w" });
    w.appendMessage(user("after"));
    w.close();
    const re = SessionStore.open(f, { cwd: "/w", readOnly: true });
    expect(ids(re.branch()).slice(0, 2)).toEqual(["a", "b"]);
    expect(re.warnings.filter((x) => x.includes("torn"))).toEqual([]);
  });

  it("a last line without its LF counts, and the first append writes the LF", () => {
    const f = file([msg("a", null, "one")], "");
    const s = SessionStore.open(f, { cwd: "/w" });
    expect(s.leafId).toBe("a");
    s.appendMessage(user("two"));
    s.close();
    expect(fs.readFileSync(f, "utf8").split("\n").filter((l) => l !== "")).toHaveLength(3);
  });

  it("the later of two entries with one id wins lookups, with the duplicate warning", () => {
    const f = file([msg("a", null, "first"), msg("a", "a", "second"), msg("b", "a", "child")]);
    const [indexed, full] = both(f);
    expect(indexed.warnings).toEqual(full.warnings);
    expect(indexed.warnings).toEqual([expect.stringContaining("duplicate entry id a")]);
    expect(indexed.getEntry("a")).toEqual(full.getEntry("a"));
    expect(indexed.branch("b")).toEqual(full.branch("b"));
  });

  it("relinks over an entry left out as damaged, as the full parse does", () => {
    const bad = JSON.stringify({ id: "x", type: "message", parentId: "a", timestamp: TS, message: null });
    const f = file([msg("a", null, "one"), bad, msg("b", "x", "two")]);
    const [indexed, full] = both(f);
    expect(ids(indexed.branch())).toEqual(["a", "b"]);
    expect(indexed.branch()).toEqual(full.branch());
    expect(indexed.warnings).toEqual(full.warnings);
  });

  it("lazily found damage: a line in pith's order whose body is damaged is left out when first read, and its children relinked", () => {
    const bad = JSON.stringify({ type: "message", id: "x", parentId: "a", timestamp: TS, message: { role: "user", content: 5 } });
    const f = file([msg("a", null, "one"), bad, msg("b", "x", "two")]);
    const s = SessionStore.open(f, { cwd: "/w", readOnly: true });
    expect(s.skippedEntries).toBe(0);
    expect(buildSessionContext(s).messages).toHaveLength(2);
    expect(ids(s.branch())).toEqual(["a", "b"]);
    expect(s.skippedEntries).toBe(1);
    expect(s.warnings).toEqual([expect.stringContaining("(message x) holds a message that is not a valid message")]);
    expect(s.getEntry("x")).toBeUndefined();
  });

  it("the latest session_info names the session, else the header's name", () => {
    const info = (id: string, parentId: string, name: string) => JSON.stringify({ type: "session_info", id, parentId, timestamp: TS, name });
    const f = file([msg("a", null, "one"), info("n1", "a", "first"), info("n2", "n1", ""), msg("b", "n2", "two")]);
    expect(SessionStore.open(f, { cwd: "/w", readOnly: true }).name).toBe("first");
  });

  it("holds the context from the latest compaction's first kept entry, with the model and thinking level from before it", () => {
    const f = file([
      JSON.stringify({ type: "thinking_level_change", id: "t", parentId: null, timestamp: TS, thinkingLevel: "high" }),
      msg("a", "t", "q1"),
      msg("b", "a", "r1", "assistant"),
      msg("c", "b", "q2"),
      JSON.stringify({ type: "compaction", id: "k", parentId: "c", timestamp: TS, summary: "S", firstKeptEntryId: "c", tokensBefore: 9 }),
      msg("d", "k", "q3"),
    ]);
    const [indexed, full] = both(f);
    expect(ids(indexed.contextBranch())).toEqual(["b", "t", "c", "k", "d"].sort((x, y) => "tbckd".indexOf(x) - "tbckd".indexOf(y)));
    expect(buildSessionContext(indexed)).toEqual(buildSessionContext(full));
    expect(buildSessionContext(indexed).thinkingLevel).toBe("high");
    expect(buildSessionContext(indexed).model).toEqual({ provider: "openai", modelId: "gpt-test" });
  });

  it("branches: moving the leaf re-reads the other branch; appends extend it; a reopen sees the same tree", () => {
    const f = file([msg("a", null, "root"), msg("b", "a", "left"), msg("c", "a", "right")]);
    const s = SessionStore.open(f, { cwd: "/w" });
    expect(ids(s.contextBranch())).toEqual(["a", "c"]);
    s.moveLeaf("b");
    expect(ids(s.contextBranch())).toEqual(["a", "b"]);
    const d = s.appendMessage(assistant("on left"));
    const l = s.append({ type: "label", targetId: "b", label: "left one" });
    expect(ids(s.contextBranch())).toEqual(["a", "b", d.id, l.id]);
    expect(s.getEntry(d.id)).toEqual(d);
    expect(s.userMessageEntries().map((u) => u.text)).toEqual(["root", "left", "right"]);
    expect(() => s.moveLeaf("nope")).toThrow(/not found/);
    s.close();
    const [indexed, full] = both(f);
    expect(indexed.entries()).toEqual(full.entries());
    expect(indexed.getLabel("b")).toBe("left one");
    expect(ids(indexed.branch())).toEqual(["a", "b", d.id, l.id]);
  });

  it("branchToNewFile from an old entry copies the path read from disk", () => {
    const f = file([msg("a", null, "q1"), msg("b", "a", "r1", "assistant"), msg("c", "b", "q2"), msg("d", "c", "r2", "assistant")]);
    const s = SessionStore.open(f, { cwd: "/w" });
    const { store, text } = s.branchToNewFile("c");
    expect(text).toBe("q2");
    expect(ids(store.entries())).toEqual(["a", "b"]);
    store.close();
    const clone = s.cloneToNewFile();
    expect(clone.entries()).toEqual(s.branch().map((e, i, all) => ({ ...e, parentId: i === 0 ? null : all[i - 1].id })));
    clone.appendMessage(user("in the clone"));
    expect(ids(clone.branch()).slice(0, 4)).toEqual(["a", "b", "c", "d"]);
    expect(() => SessionStore.open(clone.path!, { cwd: "/w" })).toThrow(/locked|busy|in use/i);
    clone.close();
    s.close();
  });

  it("custom entries and entriesAfter read only what they need, in file order", () => {
    const custom = (id: string, parentId: string, customType: string) => JSON.stringify({ type: "custom", id, parentId, timestamp: TS, customType, data: { id } });
    const f = file([msg("a", null, "q"), custom("c1", "a", "pith.checkpoint"), custom("c2", "c1", "other"), custom("c3", "c2", "pith.checkpoint")]);
    const s = SessionStore.open(f, { cwd: "/w", readOnly: true });
    expect(ids(s.customEntries("custom", "pith.checkpoint"))).toEqual(["c1", "c3"]);
    expect(ids(s.entriesAfter("c1") ?? [])).toEqual(["c2", "c3"]);
    expect(s.entriesAfter("zz")).toBeUndefined();
    expect(s.entryCount).toBe(4);
  });

  it("a version-less (pi v1) file keeps the full parse", () => {
    const f = path.join(tmpDir("pith-idx-"), "v1.jsonl");
    fs.writeFileSync(f, [JSON.stringify({ type: "session", id: "s", timestamp: TS, cwd: "/w" }), JSON.stringify({ type: "message", timestamp: TS, message: user("x") })].join("\n") + "\n");
    const s = SessionStore.open(f, { cwd: "/w", readOnly: true });
    expect(s.entries()).toHaveLength(1);
    expect(typeof s.entries()[0].id).toBe("string");
  });
});

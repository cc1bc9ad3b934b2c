import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { SessionStore } from "./session-store.js";
import { buildSessionContext } from "./build-context.js";
import { releaseAllLocks } from "./lock.js";
import { assistant, tmpDir, toolResult, user } from "../../test/support/store.js";

function fixtureFile(): { file: string; bytes: Buffer; lastStart: number } {
  const s = SessionStore.create({ sessionDir: tmpDir(), cwd: "/w" });
  s.appendMessage(user("first"));
  s.appendMessage(assistant("second"));
  s.appendMessage(user("last — ünïcödé 🚀 \u2028 \"quoted\""));
  const file = s.path!;
  s.close();
  const bytes = fs.readFileSync(file);
  const lastStart = bytes.subarray(0, bytes.length - 1).lastIndexOf(0x0a) + 1;
  return { file, bytes, lastStart };
}

describe("durability", () => {
  it("a file torn at every byte offset of its last entry loads the earlier entries and appends cleanly", () => {
    const { bytes, lastStart } = fixtureFile();
    const dir = tmpDir();
    for (let cut = lastStart; cut < bytes.length; cut++) {
      const file = path.join(dir, `cut-${cut}.jsonl`);
      fs.writeFileSync(file, bytes.subarray(0, cut));
      const s = SessionStore.open(file, { cwd: "/w" });
      // only the complete JSON without its "\n" still counts as an entry
      const expected = cut === bytes.length - 1 ? 3 : 2;
      expect(s.entries(), `cut at ${cut}`).toHaveLength(expected);
      expect(s.warnings.length, `cut at ${cut}`).toBe(cut === lastStart || expected === 3 ? 0 : 1);
      const leaf = s.leafId;
      s.appendMessage(user("after crash"));
      s.close();
      const r = SessionStore.open(file, { cwd: "/w" });
      expect(r.warnings, `cut at ${cut}`).toEqual([]);
      expect(r.entries()).toHaveLength(expected + 1);
      expect(r.entries()[expected].parentId).toBe(leaf);
      expect(fs.readFileSync(file, "utf8").endsWith("}\n")).toBe(true);
      r.close();
    }
  });

  it("loads a 10,000-entry session and rebuilds its context", () => {
    const s = SessionStore.create({ sessionDir: tmpDir(), cwd: "/w", deferUntilAssistant: false });
    for (let i = 0; i < 2_500; i++) {
      s.appendMessage(user(`q${i}`));
      s.appendMessage(assistant(`a${i}`, { toolCalls: 1 }));
      s.appendMessage(toolResult(`r${i}`));
      s.appendMessage(assistant(`done${i}`));
    }
    const file = s.path!;
    s.close();
    const r = SessionStore.open(file, { cwd: "/w" });
    expect(r.entries()).toHaveLength(10_000);
    const ctx = buildSessionContext(r);
    expect(ctx.messages).toHaveLength(10_000);
    expect(ctx.messages[9_999]).toMatchObject({ role: "assistant", content: [{ type: "text", text: "done2499" }] });
    r.close();
  });
});

describe("writer lock", () => {
  function persisted(): string {
    const s = SessionStore.create({ sessionDir: tmpDir(), cwd: "/w", eager: true });
    const file = s.path!;
    s.close();
    return file;
  }

  it("refuses a second writer on the same file and frees the lock on close", () => {
    const file = persisted();
    const a = SessionStore.open(file, { cwd: "/w" });
    expect(fs.readFileSync(`${file}.lock`, "utf8").trim()).toBe(String(process.pid));
    expect(() => SessionStore.open(file, { cwd: "/w" })).toThrow(
      `Session file is locked: already open in this process (pid ${process.pid}): ${file}`,
    );
    a.close();
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
    SessionStore.open(file, { cwd: "/w" }).close();
  });

  it("refuses a lock held by another live process", () => {
    const file = persisted();
    fs.writeFileSync(`${file}.lock`, `${process.ppid}\n`);
    expect(() => SessionStore.open(file, { cwd: "/w" })).toThrow(expect.objectContaining({ code: "busy" }));
    expect(fs.readFileSync(`${file}.lock`, "utf8").trim()).toBe(String(process.ppid));
  });

  it("takes over a stale lock whose pid is dead", () => {
    const file = persisted();
    const dead = spawnSync(process.execPath, ["-e", ""]).pid;
    fs.writeFileSync(`${file}.lock`, `${dead}\n`);
    const s = SessionStore.open(file, { cwd: "/w" });
    expect(fs.readFileSync(`${file}.lock`, "utf8").trim()).toBe(String(process.pid));
    s.close();
  });

  it("releaseAllLocks frees every held lock synchronously", () => {
    const f1 = persisted();
    const f2 = persisted();
    SessionStore.open(f1, { cwd: "/w" });
    SessionStore.open(f2, { cwd: "/w" });
    releaseAllLocks();
    expect(fs.existsSync(`${f1}.lock`) || fs.existsSync(`${f2}.lock`)).toBe(false);
    SessionStore.open(f1, { cwd: "/w" }).close();
  });
});

import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cwdSlug, findMostRecentSession, newSessionFileName, resolveSessionArg, sessionDirFor } from "./layout.js";
import { tmpDir } from "../../test/support/store.js";

describe("session layout", () => {
  it("uses pi's legacy per-cwd slug", () => {
    expect(cwdSlug("/home/bob/x")).toBe("--home-bob-x--");
    expect(sessionDirFor("/h/.pith", "/home/bob/my:app")).toBe(path.join("/h/.pith", "sessions", "--home-bob-my-app--"));
  });

  it("names files <iso with - >_<id>.jsonl", () => {
    expect(newSessionFileName("0a1b2c3d4e5f6071", Date.UTC(2026, 1, 16, 10, 20, 30, 123))).toBe(
      "2026-02-16T10-20-30-123Z_0a1b2c3d4e5f6071.jsonl",
    );
  });

  it("finds the most recent session and resolves id prefixes", () => {
    const dir = tmpDir();
    expect(findMostRecentSession(path.join(dir, "missing"))).toBeUndefined();
    const mk = (name: string, mtime: number, header = true) => {
      const f = path.join(dir, name);
      fs.writeFileSync(f, header ? `{"type":"session","version":1,"id":"x","timestamp":"t","cwd":"/"}\n` : "junk\n");
      fs.utimesSync(f, mtime, mtime);
      return f;
    };
    const older = mk("2026-01-01T00-00-00-000Z_aaaa111122223333.jsonl", 1000);
    const newer = mk("2026-01-02T00-00-00-000Z_bbbb111122223333.jsonl", 2000);
    mk("2026-01-03T00-00-00-000Z_cccc111122223333.jsonl", 3000, false);
    fs.writeFileSync(path.join(dir, "notes.txt"), "x");
    expect(findMostRecentSession(dir)).toBe(newer);
    expect(resolveSessionArg("AAAA", dir)).toBe(older);
    expect(resolveSessionArg("2026-01-02", dir)).toBe(newer);
    expect(resolveSessionArg("sub/file.jsonl", dir, "/base")).toBe("/base/sub/file.jsonl");
    expect(() => resolveSessionArg("dddd", dir)).toThrow('Session "dddd" not found.');
  });

  it("names the project of a prefix that only matches another project's session", () => {
    const root = tmpDir();
    const mine = path.join(root, "--home-me-a--");
    const theirs = path.join(root, "--home-me-b--");
    fs.mkdirSync(mine);
    fs.mkdirSync(theirs);
    const own = path.join(mine, "2026-01-01T00-00-00-000Z_aaaa000011112222.jsonl");
    fs.writeFileSync(own, `{"type":"session","version":3,"id":"aaaa000011112222","timestamp":"t","cwd":"/home/me/a"}\n`);
    const other = path.join(theirs, "2026-01-01T00-00-00-000Z_bbbb000011112222.jsonl");
    fs.writeFileSync(other, `{"type":"session","version":3,"id":"bbbb000011112222","timestamp":"t","cwd":"/home/me/b"}\n`);
    expect(resolveSessionArg("aaaa", mine, "/home/me/a", root)).toBe(own);
    expect(() => resolveSessionArg("bbbb", mine, "/home/me/a", root)).toThrow('Session "bbbb" is in another project (/home/me/b).');
    expect(() => resolveSessionArg("bbbb", mine, "/home/me/a")).toThrow('Session "bbbb" not found.');
    expect(() => resolveSessionArg("cccc", mine, "/home/me/a", root)).toThrow('Session "cccc" not found.');
  });
});

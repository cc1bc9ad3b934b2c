import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ancestorsRootFirst, discoverContextFiles } from "./context-files.js";

let root: string;
beforeEach(() => (root = mkdtempSync(join(tmpdir(), "pith-ctx-"))));
afterEach(() => rmSync(root, { recursive: true, force: true }));

function put(rel: string, content: string): void {
  mkdirSync(join(root, rel, ".."), { recursive: true });
  writeFileSync(join(root, rel), content);
}

describe("discoverContextFiles", () => {
  it("reads the global file first, then root-to-cwd, one per directory, AGENTS.md preferred", async () => {
    put("home/AGENTS.md", "global");
    put("proj/CLAUDE.md", "proj claude");
    put("proj/pkg/AGENTS.md", "pkg agents");
    put("proj/pkg/CLAUDE.md", "pkg claude");
    put("proj/pkg/sub/.keep", "");
    put("other/AGENTS.md", "not an ancestor");
    const files = await discoverContextFiles({ cwd: join(root, "proj/pkg/sub"), pithHome: join(root, "home") });
    const mine = files.filter((f) => f.path.startsWith(root));
    expect(mine).toEqual([
      { path: join(root, "home/AGENTS.md"), content: "global" },
      { path: join(root, "proj/CLAUDE.md"), content: "proj claude" },
      { path: join(root, "proj/pkg/AGENTS.md"), content: "pkg agents" },
    ]);
  });
  it("reads a directory once when pithHome is also an ancestor, and ignores directories named AGENTS.md", async () => {
    put("AGENTS.md/x", "");
    put("CLAUDE.md", "fallback");
    const files = (await discoverContextFiles({ cwd: root, pithHome: root })).filter((f) => f.path.startsWith(root));
    expect(files).toEqual([{ path: join(root, "CLAUDE.md"), content: "fallback" }]);
  });
  it("lists ancestors from the root down", () => {
    expect(ancestorsRootFirst("/a/b")).toEqual(["/", "/a", "/a/b"]);
  });
});

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createBuiltinTools, selectTools } from "../tools/builtin-tools.js";
import { buildSystemPrompt, formatDate, resolvePromptArg } from "./system-prompt.js";

const tools = createBuiltinTools({ cwd: "/w" });
const now = new Date(2026, 4, 7, 12, 0, 0);

describe("buildSystemPrompt", () => {
  it("names the role, repeats no tool (names and descriptions travel with their definitions), and ends with date and cwd", () => {
    const p = buildSystemPrompt({ tools, cwd: "/w/proj", now, contextFiles: [] });
    expect(p).toContain("You are pith");
    expect(p).not.toContain("Tools: ");
    for (const t of tools) expect(p).not.toContain(t.description);
    expect(p).toContain("todo_write");
    expect(p.endsWith("Current date: 2026-05-07\nCurrent working directory: /w/proj")).toBe(true);
  });
  it("derives guidelines from the tools present", () => {
    const onlyBash = buildSystemPrompt({ tools: selectTools(tools, { allow: ["bash"] }), cwd: "/", now, contextFiles: [] });
    expect(onlyBash).toContain("Use bash (rg, find, ls) to explore");
    const deferred = buildSystemPrompt({ tools: tools.map((t) => (t.name === "todo_write" ? { ...t, deferred: true } : t)), cwd: "/", now, contextFiles: [] });
    expect(deferred).not.toContain("todo_write");
    expect(onlyBash).not.toContain("todo_write");
    const none = buildSystemPrompt({ tools: [], cwd: "/", now, contextFiles: [] });
    expect(none).toContain("No tools are available");
  });
  it("includes context files in order, the append text, and honours a custom prompt", () => {
    const p = buildSystemPrompt({
      tools,
      cwd: "/w",
      now,
      contextFiles: [{ path: "/h/AGENTS.md", content: "global rules\n" }, { path: "/w/AGENTS.md", content: "project rules" }],
      customPrompt: "You are a test bot.",
      appendPrompt: ["Always answer in haiku."],
    });
    expect(p.startsWith("You are a test bot.\n\nAlways answer in haiku.\n\n# Project Context")).toBe(true);
    expect(p.indexOf("## /h/AGENTS.md\n\nglobal rules")).toBeLessThan(p.indexOf("## /w/AGENTS.md\n\nproject rules"));
    expect(p).not.toContain("Tools: ");
    expect(p).toContain("Current working directory: /w");
  });
  it("formats the date as YYYY-MM-DD", () => {
    expect(formatDate(new Date(2026, 0, 3))).toBe("2026-01-03");
  });
});

describe("resolvePromptArg", () => {
  it("reads an existing file, keeps literal text otherwise", () => {
    const dir = mkdtempSync(join(tmpdir(), "pith-sp-"));
    writeFileSync(join(dir, "SYSTEM.md"), "from file");
    expect(resolvePromptArg("SYSTEM.md", dir)).toBe("from file");
    expect(resolvePromptArg(join(dir, "SYSTEM.md"), "/")).toBe("from file");
    expect(resolvePromptArg("Be brief.", dir)).toBe("Be brief.");
    expect(resolvePromptArg("SYSTEM.md\nmore", dir)).toBe("SYSTEM.md\nmore");
    expect(resolvePromptArg(dir, "/")).toBe(dir);
    rmSync(dir, { recursive: true, force: true });
  });
});

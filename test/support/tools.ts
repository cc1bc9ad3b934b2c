// Helpers for the tools' unit tests (not used by production code).
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { AgentToolResult } from "../../src/shared/types.js";
import type { ToolContext } from "../../src/tools/types.js";

export function makeTempDir(prefix = "pith-tools-"): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Writes `files` (relative path → content) below `root`, creating directories. */
export function writeTree(root: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    const abs = join(root, rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }
}

export function makeCtx(cwd: string, over: Partial<ToolContext> = {}): ToolContext & { updates: AgentToolResult[] } {
  const updates: AgentToolResult[] = [];
  return { cwd, toolCallId: "call_1", signal: new AbortController().signal, onUpdate: (p) => updates.push(p), updates, ...over };
}

export function textOf(result: AgentToolResult): string {
  return result.content.map((c) => (c.type === "text" ? c.text : `[image ${c.mimeType}]`)).join("\n");
}

// A project's `.mcp.json` in Claude Code's format: `{"mcpServers": {<name>: <server>}}`.
// Reading it never starts anything: its servers are project-level and gated (resolve-servers.ts).
import { readFile } from "node:fs/promises";
import path from "node:path";

export const MCP_JSON = ".mcp.json";

export interface McpJsonFile {
  path: string;
  /** The `mcpServers` value, unvalidated (parse-config.ts validates it); absent without a file. */
  servers?: unknown;
  /** Why the file could not be used (unreadable, not JSON, wrong shape). */
  error?: string;
}

/** Reads `<dir>/.mcp.json`; a missing file is no servers and no error. */
export async function readMcpJson(dir: string): Promise<McpJsonFile> {
  const file = path.join(dir, MCP_JSON);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // EISDIR: an empty folder there is the sandbox's read-only stand-in for a missing file.
    if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR") return { path: file };
    return { path: file, error: `${file}: cannot read: ${(err as Error).message}` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { path: file, error: `${file}: not valid JSON: ${(err as Error).message}` };
  }
  if (typeof json !== "object" || json === null || Array.isArray(json) || !("mcpServers" in json)) {
    return { path: file, error: `${file}: expected {"mcpServers": {"<name>": {...}}}` };
  }
  return { path: file, servers: (json as { mcpServers: unknown }).mcpServers };
}

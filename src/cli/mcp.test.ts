// borrowMcp: a subagent's view of its parent's MCP servers (same manager, tools limited, never
// sets or ends the servers).
import { describe, expect, it, vi } from "vitest";
import { McpManager } from "../mcp/index.js";
import type { McpWiring } from "../session/index.js";
import { PithError } from "../shared/errors.js";
import { borrowMcp } from "./mcp.js";

function parentWiring(allowTool?: (name: string) => boolean): McpWiring & { close: ReturnType<typeof vi.fn> } {
  const manager = new McpManager({ cwd: "/", env: {} });
  return { manager, allowTool, setHostServers: vi.fn(async () => undefined), close: vi.fn(async () => undefined) };
}

describe("borrowMcp", () => {
  it("shares the parent's manager, sets no servers and ends none", async () => {
    const parent = parentWiring();
    const sub = borrowMcp(parent, (n) => n.startsWith("mcp__gh__"));
    expect(sub.manager).toBe(parent.manager);
    await expect(sub.setHostServers({})).rejects.toThrow(PithError);
    await sub.close();
    expect(parent.close).not.toHaveBeenCalled();
    expect(parent.setHostServers).not.toHaveBeenCalled();
  });

  it("a subagent of a subagent gets no MCP tool its parent could not use", () => {
    const names = ["mcp__gh__search", "mcp__gh__push", "mcp__db__query"];
    const parent = parentWiring((n) => n.startsWith("mcp__gh__"));
    expect(names.filter(borrowMcp(parent).allowTool!)).toEqual(["mcp__gh__search", "mcp__gh__push"]);
    expect(names.filter(borrowMcp(parent, (n) => n !== "mcp__gh__push").allowTool!)).toEqual(["mcp__gh__search"]);
    expect(borrowMcp(parentWiring()).allowTool).toBeUndefined();
  });
});

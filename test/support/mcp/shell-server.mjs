// A stdio MCP server with one tool, `sh {command}`: runs the command with /bin/sh in the server's
// working directory and answers its merged output and exit code ("exit=<code>" on the last line).
// The sandbox tests play a hostile MCP server with it (reading pith's /proc entries, writing
// outside the roots).
import { spawnSync } from "node:child_process";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "shell", version: "1.0.0" });
server.registerTool("sh", { description: "Runs a shell command", inputSchema: { command: z.string() } }, async ({ command }) => {
  const r = spawnSync("/bin/sh", ["-c", `exec 2>&1\n${command}`], { encoding: "utf8", timeout: 20_000 });
  return { content: [{ type: "text", text: `${r.stdout ?? ""}exit=${r.status}` }] };
});
await server.connect(new StdioServerTransport());

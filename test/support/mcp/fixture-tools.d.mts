// Types of fixture-tools.mjs for the TypeScript tests that import it.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";

/** A 1×1 transparent PNG, base64. */
export const PNG_1X1: string;
export function createFixtureServer(name: string): McpServer;

// MCP servers over RPC: the host's own servers and the status of all of them; and the status
// of the session's language servers.
import type { CommandHandler } from "./types.js";

export const set_mcp_servers: CommandHandler<"set_mcp_servers"> = async (cmd, ctx) => ({
  servers: await ctx.session.mcp.setHostServers(cmd.servers),
});

export const get_mcp_servers: CommandHandler<"get_mcp_servers"> = (_cmd, ctx) => ({ servers: ctx.session.mcp.servers() });

export const get_lsp_servers: CommandHandler<"get_lsp_servers"> = (_cmd, ctx) => ({ servers: ctx.session.lsp.servers() });

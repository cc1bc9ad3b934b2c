// How an MCP request failed, in terms the connection acts on. `closed`: the server process or
// connection is gone (restart on the next call); `timeout`: no answer in time (cancellation was
// sent); `aborted`: the caller's signal fired (cancellation was sent); `remote`: the server
// answered with a JSON-RPC error (the connection is fine).
export type McpFailureKind = "closed" | "timeout" | "aborted" | "remote";

export class McpCallFailure extends Error {
  constructor(
    readonly kind: McpFailureKind,
    message: string,
  ) {
    super(message);
    this.name = "McpCallFailure";
  }
}

// Typed errors the host client rejects with.

/** A command answered `success: false`. */
export class RpcError extends Error {
  /** The response's `error` text. */
  readonly error: string;
  /** The response's `command` (the request type, or `parse`). */
  readonly command: string;
  /** The request id the response answered, when it had one. */
  readonly id?: string;

  constructor(error: string, command: string, id?: string) {
    super(`${command}: ${error}`);
    this.name = "RpcError";
    this.error = error;
    this.command = command;
    this.id = id;
  }
}

/** The agent process failed to start, exited, or a request/wait timed out. */
export class RpcClientError extends Error {
  readonly code: "spawn_failed" | "exited" | "ready_timeout" | "timeout" | "closed";
  /** The tail of the child's stderr, when known. */
  readonly stderr?: string;

  constructor(code: RpcClientError["code"], message: string, stderr?: string) {
    super(stderr ? `${message}\n${stderr}` : message);
    this.name = "RpcClientError";
    this.code = code;
    this.stderr = stderr;
  }
}

// The session's language servers, as the composition root started them (src/lsp/ runs them):
// their status for `get_lsp_servers` and `get_state`, and shutting them down with the session.
// A subagent borrows its parent's servers and never shuts them down.
import type { LspServerStatus } from "../shared/schema/index.js";

/** What the composition root hands a session when `lsp.enabled` is on. */
export interface LspWiring {
  /** Every configured server: started instances with root and pid, the rest with why not. */
  servers(): LspServerStatus[];
  /** Ends every server of the session. */
  close(): Promise<void>;
}

export class SessionLsp {
  private closed?: Promise<void>;

  constructor(private readonly wiring?: LspWiring) {}

  /** Whether language servers are on for this session (`lsp.enabled`). */
  get enabled(): boolean {
    return this.wiring !== undefined;
  }

  /** `get_lsp_servers`: every server and its status (none when `lsp.enabled` is off). */
  servers(): LspServerStatus[] {
    return this.wiring?.servers() ?? [];
  }

  /** Ends every server (once). */
  close(): Promise<void> {
    this.closed ??= this.wiring?.close() ?? Promise.resolve();
    return this.closed;
  }
}

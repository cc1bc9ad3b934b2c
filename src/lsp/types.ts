// The language-server layer's own vocabulary: how a server is configured, and the settings that
// switch diagnostics after writes.

/** One server as settings give it (`lsp.servers.<name>`), the reference's shape. */
export interface ServerConfig {
  command: string;
  args?: string[];
  /** File extensions (".ts") or exact file names ("Dockerfile") the server handles. */
  fileTypes: string[];
  /** Files or folders whose presence marks a workspace root ("tsconfig.json"); nearest one up from a file wins. */
  rootMarkers?: string[];
  /** `initializationOptions` of the `initialize` request. */
  initOptions?: Record<string, unknown>;
  /** Answers to the server's `workspace/configuration` requests (by section) and `didChangeConfiguration`. */
  settings?: Record<string, unknown>;
  /** The language it serves, as reported to hosts; default: the language of its first file type. */
  language?: string;
  disabled?: boolean;
}

/** The `lsp` settings. */
export interface LspSettings {
  /** The lsp tool, diagnostics after writes and the servers at all. Default off, as the reference. */
  enabled: boolean;
  /** `write` waits for the changed file's diagnostics. Default on. */
  diagnosticsOnWrite: boolean;
  /** `edit` (and hashline edits) wait for them too. Default off. */
  diagnosticsOnEdit: boolean;
  /** `write` formats the file with the server first. Default off. */
  formatOnWrite: boolean;
  /** How long a write waits for diagnostics. Default 3000 ms. */
  diagnosticsTimeoutMs: number;
  /** Servers by name, merged field by field over the built-in table. */
  servers: Record<string, Partial<ServerConfig>>;
}

export function defaultLspSettings(): LspSettings {
  return { enabled: false, diagnosticsOnWrite: true, diagnosticsOnEdit: false, formatOnWrite: false, diagnosticsTimeoutMs: 3000, servers: {} };
}

/** A server ready to be used (or why not): settings merged over the built-in table, command looked up. */
export interface ServerPlan {
  name: string;
  language: string;
  config: ServerConfig;
  /** The absolute path of the command; absent when it cannot be used. */
  resolved?: string;
  /** Why the server is not used ("disabled", "not found on PATH"). */
  unusable?: { status: "unavailable" | "disabled"; reason: string };
}

export type { LspServerStatus } from "../shared/schema/lsp.js";

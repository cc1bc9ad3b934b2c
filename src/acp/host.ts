// What the ACP front door needs from the composition root: sessions made, found and listed.
import type { AgentSession, ExtensionBindings } from "../session/index.js";

/** An MCP server as `session/new` names it (ACP's McpServer, stdio or http/sse). */
export type AcpMcpServer =
  | { name: string; command: string; args: string[]; env: Array<{ name: string; value: string }> }
  | { type: "http" | "sse"; name: string; url: string; headers: Array<{ name: string; value: string }> };

/** The editor's file system (`fs/read_text_file`, `fs/write_text_file`) when the client offers it. */
export interface ClientFiles {
  read?(path: string): Promise<string>;
  write?(path: string, content: string): Promise<void>;
}

export interface AcpSessionSpec {
  cwd: string;
  mcpServers: readonly AcpMcpServer[];
  /** Read, edit and write go through these when set (unsaved buffers are what the model sees). */
  files?: ClientFiles;
}

/** A session the front door drives, and how to finish setting it up. */
export interface HostedAcpSession {
  session: AgentSession;
  /** Loads and attaches extensions with the editor's dialogs (emits `session_start`). */
  attachExtensions(bindings: ExtensionBindings): Promise<void>;
}

export interface AcpSessionSummary {
  sessionId: string;
  cwd: string;
  title?: string;
  updatedAt?: string;
}

export interface AcpHost {
  /** A new pith session in `spec.cwd` (a session file, so RPC mode and `--continue` see it). */
  create(spec: AcpSessionSpec): Promise<HostedAcpSession>;
  /** The stored session with that id (searched in the cwd's session folder, then all of them). */
  open(sessionId: string, spec: AcpSessionSpec): Promise<HostedAcpSession>;
  /** Stored sessions, newest first: the cwd's, or every project's; pages by `cursor`. */
  list(cwd: string | undefined, cursor: string | undefined): Promise<{ sessions: AcpSessionSummary[]; nextCursor?: string }>;
  /** Why no model can answer yet (no key configured), or undefined when one can. */
  authProblem(): string | undefined;
  /** Whether the model new sessions start with takes images. */
  acceptsImages(): boolean;
  /** Diagnostics (stderr). */
  log(message: string): void;
  version: string;
}

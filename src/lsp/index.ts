// Public surface of the language-server layer: one session's servers (an LspManager), the
// `lsp` tool and the observer that adds diagnostics to write and edit results. Importing it
// starts nothing and loads no LSP library: the JSON-RPC packages come with the first server.
import type { FileObserver, FsOps, Tool, WriteGuard } from "../tools/index.js";
import { planServers } from "./config.js";
import { LspManager } from "./manager.js";
import type { SpawnLine } from "./server-process.js";
import { createLspTool } from "./tool.js";
import type { LspServerStatus, LspSettings } from "./types.js";
import type { ApproveWrites } from "./workspace-edit.js";
import { createFileObserver } from "./write-observer.js";

export { defaultLspSettings, type LspSettings, type ServerConfig, type LspServerStatus } from "./types.js";
export { BUILTIN_SERVERS } from "./defaults.js";
export type { ApproveWrites } from "./workspace-edit.js";

export interface LspRuntimeOptions {
  settings: LspSettings;
  cwd: string;
  /** PATH the server commands are looked up on. */
  pathEnv: string | undefined;
  /** Environment of the server processes (credentials already removed). */
  env?: Record<string, string>;
  /** The session's sandbox: servers run inside it (and are not told pith's pid, which they cannot see). */
  wrap?: (line: SpawnLine, cwd: string) => SpawnLine;
  /** What the edit tools write through. */
  fs: FsOps;
  guardWrite?: WriteGuard;
}

export interface LspRuntime {
  readonly manager: LspManager;
  /** The `lsp` tool of one session, whose edits that session's permission rules judge. */
  createTool(approveWrites?: ApproveWrites): Tool;
  readonly observer: FileObserver;
  statuses(): LspServerStatus[];
  shutdown(): Promise<void>;
}

export function createLspRuntime(o: LspRuntimeOptions): LspRuntime {
  const manager = new LspManager({
    cwd: o.cwd,
    plans: planServers(o.settings, o.pathEnv, o.cwd),
    env: o.env,
    processId: o.wrap ? null : process.pid,
    line: (plan, root) => {
      const line = { file: plan.resolved!, args: plan.config.args ?? [] };
      return o.wrap ? o.wrap(line, root) : line;
    },
  });
  return {
    manager,
    createTool: (approveWrites) => createLspTool({ manager, fs: o.fs, guardWrite: o.guardWrite, approveWrites }),
    observer: createFileObserver({ manager, settings: o.settings, fs: o.fs }),
    statuses: () => manager.statuses(),
    shutdown: () => manager.shutdown(),
  };
}

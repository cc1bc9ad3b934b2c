// Language servers in the composition root. With `lsp.enabled` off (the default) nothing of the
// language-server layer is loaded; with it on, the layer is loaded (the LSP packages still wait
// for the first server start) and each top-level session gets its own servers: the `lsp` tool,
// the observer that adds diagnostics to write and edit results, and the wiring through which the
// session reports and ends them. A subagent borrows its parent's.
import type { LspRuntime } from "../lsp/index.js";
import type { LspWiring } from "../session/index.js";
import type { FsOps, WriteGuard } from "../tools/index.js";
import type { SessionSandboxSetup } from "./sandbox-setup.js";
import type { Settings } from "./settings.js";

export interface LspSetupOptions {
  settings: Settings;
  cwd: string;
  pathEnv: string | undefined;
  /** The environment of tool processes (no credentials). */
  childEnv: Record<string, string>;
  /** The session's sandbox: servers run inside it. */
  boxed?: SessionSandboxSetup;
  fs: FsOps;
  guardWrite?: WriteGuard;
}

/** The session's language servers, or undefined when `lsp.enabled` is off. */
export async function setUpLsp(o: LspSetupOptions): Promise<LspRuntime | undefined> {
  if (!o.settings.lsp.enabled) return undefined;
  const { createLspRuntime } = await import("../lsp/index.js");
  const sandbox = o.boxed?.sandbox;
  return createLspRuntime({
    settings: o.settings.lsp,
    cwd: o.cwd,
    pathEnv: o.pathEnv,
    env: o.childEnv,
    wrap: sandbox ? (line, cwd) => sandbox.wrap(line, cwd) : undefined,
    fs: o.fs,
    guardWrite: o.guardWrite,
  });
}

/** What the session is handed: its own servers, or (a subagent) its parent's, which it never ends. */
export function lspWiring(runtime: LspRuntime | undefined, borrowed: boolean): LspWiring | undefined {
  if (!runtime) return undefined;
  return { servers: () => runtime.statuses(), close: borrowed ? async () => undefined : () => runtime.shutdown() };
}

// Fresh diagnostics of one file from its server: the server is started when needed, sent the
// file's text as a freshly opened document, and waited for (see DiagnosticsBoard) until the
// caller's signal fires.
import type { Diagnostic } from "vscode-languageserver-protocol";
import { uriOf } from "./documents.js";
import type { LspManager } from "./manager.js";
import { withDeadline } from "./deadline.js";
import type { ServerInstance } from "./server-instance.js";

/** Quiet time after a publication: longer for a server's first check, which loads the project. */
const SETTLE_WARM_MS = 150;
const SETTLE_COLD_MS = 500;
const BARRIER_MS = 1000;

export type FileCheck =
  /** No usable server handles the file. */
  | { kind: "none" }
  | { kind: "diagnostics"; server: string; diagnostics: Diagnostic[] }
  /** The server did not publish in time (or was still starting). */
  | { kind: "timeout"; server: string }
  /** The server could not be used (did not start, crashed and may not restart yet). */
  | { kind: "error"; server: string; message: string };

/** Sends the server `text` as the file's content and waits for the diagnostics it publishes. */
export async function checkFile(manager: LspManager, absPath: string, text: string, signal: AbortSignal): Promise<FileCheck> {
  const instance = manager.instanceFor(absPath);
  if (!instance) return { kind: "none" };
  const server = instance.plan.name;
  let ready;
  try {
    ready = await instance.ready(signal);
  } catch (err) {
    return signal.aborted ? { kind: "timeout", server } : { kind: "error", server, message: (err as Error).message };
  }
  const { docs } = ready;
  let after = 0;
  const version = await docs.reopen(absPath, text, () => barrier(instance, signal), () => (after = instance.board.mark()));
  const settleMs = instance.warm ? SETTLE_WARM_MS : SETTLE_COLD_MS;
  const diagnostics = await instance.board.settled(uriOf(absPath), { after, minVersion: version, settleMs, signal });
  if (diagnostics === undefined) {
    const failure = instance.failure;
    return failure ? { kind: "error", server, message: failure } : { kind: "timeout", server };
  }
  instance.warm = true;
  return { kind: "diagnostics", server, diagnostics };
}

/**
 * Resolves once the server has handled everything sent before: it answers requests in order, and
 * must answer a `$/` method it does not know with an error, which is all this needs.
 */
export async function barrier(instance: ServerInstance, signal: AbortSignal): Promise<void> {
  try {
    const { server } = await instance.ready(signal);
    // bounded on its own too: a server that ignores unknown requests costs a second, not the whole wait
    await withDeadline(BARRIER_MS, signal, (bounded) => server.request("$/pith/barrier", null, bounded));
  } catch {
    // the expected "method not found", or the signal: either way the caller goes on
  }
}

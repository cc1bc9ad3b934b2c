// exportSessionHtml: write a store's page to disk.
import fs from "node:fs/promises";
import path from "node:path";
import { withTimeout } from "../../shared/abort.js";
import { PithError, errorMessage } from "../../shared/errors.js";
import { makeDirs } from "../../shared/make-dirs.js";
import type { SessionLog } from "../../store/session-log.js";
import { renderSessionHtml } from "./render-session.js";

export interface ExportHtmlOptions {
  /** Used as given (relative paths resolve against `cwd`); default `pith-session-<file basename>.html`. */
  outputPath?: string;
  /** The process working directory. */
  cwd: string;
  systemPrompt?: string;
  tools?: ReadonlyArray<{ name: string; description: string }>;
  /** Bound on the file-system work (default EXPORT_TIMEOUT_MS). */
  timeoutMs?: number;
}

/** How long the export may wait for the file system before failing the command. */
export const EXPORT_TIMEOUT_MS = 10_000;

/** Default output name for a session file: `pith-session-<basename without .jsonl>.html`. */
export function defaultExportName(sessionPath: string): string {
  return `pith-session-${path.basename(sessionPath, ".jsonl")}.html`;
}

/** Render all entries of `store` and write the file (overwriting). Returns the path as given. */
export async function exportSessionHtml(store: SessionLog, opts: ExportHtmlOptions): Promise<string> {
  if (store.path === undefined) throw new PithError("invalid_request", "Cannot export in-memory session to HTML");
  const out = opts.outputPath ?? defaultExportName(store.path);
  const html = renderSessionHtml({
    header: store.header,
    entries: store.entries(),
    leafId: store.leafId,
    systemPrompt: opts.systemPrompt,
    tools: opts.tools,
  });
  const target = path.resolve(opts.cwd, out);
  const write = async () => {
    await makeDirs(path.dirname(target));
    await fs.writeFile(target, html, "utf8");
  };
  const timeoutMs = opts.timeoutMs ?? EXPORT_TIMEOUT_MS;
  try {
    // A file system that never answers (a hung mount) fails the command, never the queue behind it.
    await withTimeout(write(), timeoutMs, () => new PithError("io", `the file system did not answer within ${timeoutMs / 1000} s`));
  } catch (err) {
    throw new PithError("io", `Cannot write ${target}: ${errorMessage(err)}`, { cause: err });
  }
  return out;
}

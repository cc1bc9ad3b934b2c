// exportSessionHtml: write a store's page to disk (engine.md §12).
import fs from "node:fs/promises";
import path from "node:path";
import { PithError, errorMessage } from "../../shared/errors.js";
import type { SessionLog } from "../store/session-log.js";
import { renderSessionHtml } from "./render-session.js";

export interface ExportHtmlOptions {
  /** Used as given (relative paths resolve against `cwd`); default `pith-session-<file basename>.html`. */
  outputPath?: string;
  /** The process working directory. */
  cwd: string;
  systemPrompt?: string;
  tools?: ReadonlyArray<{ name: string; description: string }>;
}

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
  try {
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, html, "utf8");
  } catch (err) {
    throw new PithError("io", `Cannot write ${target}: ${errorMessage(err)}`, { cause: err });
  }
  return out;
}

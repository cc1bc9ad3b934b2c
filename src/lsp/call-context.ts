// What every position-based action of the lsp tool needs: the file's server (started when
// needed), the file's current text sent to it, and a position from a 1-based line plus a symbol
// on that line.
import type { Position } from "vscode-languageserver-protocol";
import { handles } from "./config.js";
import type { Documents } from "./documents.js";
import type { LspManager } from "./manager.js";
import type { ServerInstance } from "./server-instance.js";
import type { ServerProcess } from "./server-process.js";
import { lineText } from "./text-edits.js";
import type { FsOps } from "../tools/index.js";

export interface Target {
  abs: string;
  instance: ServerInstance;
  server: ServerProcess;
  docs: Documents;
  text: string;
}

/** The file's text through the session's file system, or undefined when it is not a readable file. */
export async function readText(fs: FsOps, abs: string): Promise<string | undefined> {
  const st = await fs.stat(abs);
  if (!st?.isFile) return undefined;
  return (await fs.readFile(abs)).toString("utf8");
}

/** Why no server can answer for the file. */
export function noServerText(manager: LspManager, abs: string): string {
  const plan = manager.plans.find((p) => handles(p, abs));
  if (plan?.unusable) return `No language server for ${abs}: ${plan.name} is not used (${plan.unusable.reason}).`;
  return `No language server is configured for ${abs} (settings lsp.servers).`;
}

/** The file's running server, with the file (and every other open file) up to date in it. */
export async function target(manager: LspManager, fs: FsOps, abs: string, signal: AbortSignal): Promise<Target> {
  const instance = manager.instanceFor(abs);
  if (!instance) throw new Error(noServerText(manager, abs));
  const text = await readText(fs, abs);
  if (text === undefined) throw new Error(`Not a file: ${abs}`);
  const { server, docs } = await instance.ready(signal);
  await docs.refresh((p) => (p === abs ? Promise.resolve(text) : readText(fs, p)));
  docs.sync(abs, text);
  return { abs, instance, server, docs, text };
}

/**
 * Line `line` (1-based) of `text`, at the start of the `occurrence`-th (1-based) `symbol` on it;
 * without a symbol, at the line's first non-blank character. Throws when either is not there.
 */
export function positionOf(text: string, line: number, symbol?: string, occurrence = 1): Position {
  if (!Number.isInteger(line) || line < 1) throw new Error(`line must be a whole number from 1 (got ${line})`);
  const content = lineText(text, line - 1);
  if (content === undefined) throw new Error(`line ${line} is past the end of the file`);
  if (!symbol) return { line: line - 1, character: Math.max(0, content.search(/\S/)) };
  let at = -1;
  for (let n = 0; n < occurrence; n++) {
    at = content.indexOf(symbol, at + 1);
    if (at === -1) break;
  }
  if (at === -1) {
    const found = content.split(symbol).length - 1;
    throw new Error(found === 0 ? `"${symbol}" is not on line ${line}: ${content.trim()}` : `line ${line} has ${found} occurrence(s) of "${symbol}", not ${occurrence}`);
  }
  return { line: line - 1, character: at };
}

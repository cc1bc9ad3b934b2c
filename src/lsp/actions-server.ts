// The lsp tool's questions about files and servers: diagnostics, symbols, status and reload.
import type { DocumentSymbol, SymbolInformation } from "vscode-languageserver-protocol";
import { checkFile } from "./check-file.js";
import { noServerText, readText, type Target } from "./call-context.js";
import { uriOf } from "./documents.js";
import { countText, diagnosticLines, displayPath, shortPath } from "./format.js";
import type { LspManager } from "./manager.js";
import type { FsOps } from "../tools/index.js";

const MAX_DIAGNOSTICS = 50;
const MAX_SYMBOLS = 200;
const KIND = ["", "file", "module", "namespace", "package", "class", "method", "property", "field", "constructor", "enum", "interface", "function", "variable", "constant", "string", "number", "boolean", "array", "object", "key", "null", "enum member", "struct", "event", "operator", "type parameter"];

/** One file's fresh diagnostics (every severity), or, for `*`, what the running servers last published. */
export async function diagnostics(manager: LspManager, fs: FsOps, abs: string | "*", signal: AbortSignal): Promise<string> {
  if (abs === "*") return publishedEverywhere(manager);
  const text = await readText(fs, abs);
  if (text === undefined) throw new Error(`Not a file: ${abs}`);
  const check = await checkFile(manager, abs, text, signal);
  const file = shortPath(abs, manager.cwd);
  switch (check.kind) {
    case "none":
      throw new Error(noServerText(manager, abs));
    case "timeout":
      return `${check.server} published no diagnostics for ${file} in time.`;
    case "error":
      throw new Error(`${check.server} could not check ${file}: ${check.message}`);
    case "diagnostics":
      if (check.diagnostics.length === 0) return `${file}: no diagnostics.`;
      return [`${file}: ${countText(check.diagnostics)}`, ...diagnosticLines(check.diagnostics, file, MAX_DIAGNOSTICS)].join("\n");
  }
}

function publishedEverywhere(manager: LspManager): string {
  const lines: string[] = [];
  for (const instance of manager.started()) {
    for (const { uri, diagnostics: list } of instance.board.all()) {
      if (list.length === 0) continue;
      const file = displayPath(uri, manager.cwd);
      lines.push(`${file}: ${countText(list)}`, ...diagnosticLines(list, file, MAX_DIAGNOSTICS));
    }
  }
  return lines.length > 0 ? lines.join("\n") : "No diagnostics published by the running servers.";
}

/** The file's outline, nested by indentation. */
export async function documentSymbols(t: Target, cwd: string, signal: AbortSignal): Promise<string> {
  const result = await t.server.request<Array<DocumentSymbol | SymbolInformation> | null>("textDocument/documentSymbol", { textDocument: { uri: uriOf(t.abs) } }, signal);
  if (!result || result.length === 0) return "No symbols.";
  const lines: string[] = [];
  const walk = (list: DocumentSymbol[], depth: number) => {
    for (const s of [...list].sort((a, b) => a.selectionRange.start.line - b.selectionRange.start.line)) {
      if (lines.length >= MAX_SYMBOLS) return;
      lines.push(`${"  ".repeat(depth)}${KIND[s.kind] ?? "symbol"} ${s.name} (line ${s.selectionRange.start.line + 1})`);
      if (s.children) walk(s.children, depth + 1);
    }
  };
  if ("selectionRange" in result[0]) walk(result as DocumentSymbol[], 0);
  else for (const s of (result as SymbolInformation[]).slice(0, MAX_SYMBOLS).sort((a, b) => a.location.range.start.line - b.location.range.start.line)) lines.push(`${KIND[s.kind] ?? "symbol"} ${s.name} (line ${s.location.range.start.line + 1})`);
  return `Symbols in ${shortPath(t.abs, cwd)}:\n${lines.join("\n")}`;
}

/** Symbols matching `query` across the workspaces of the running servers. */
export async function workspaceSymbols(manager: LspManager, query: string, signal: AbortSignal): Promise<string> {
  const running = manager.started().filter((i) => i.status().status === "running");
  if (running.length === 0) return "No language server is running yet: ask about a file first (or give file to search from).";
  const found: SymbolInformation[] = [];
  for (const instance of running) {
    const { server } = await instance.ready(signal);
    found.push(...((await server.request<SymbolInformation[] | null>("workspace/symbol", { query }, signal)) ?? []));
  }
  if (found.length === 0) return `No symbols match "${query}".`;
  const lines = found.slice(0, MAX_SYMBOLS).map((s) => {
    const range = (s.location as { range?: { start: { line: number } } }).range;
    const where = `${displayPath(s.location.uri, manager.cwd)}${range ? `:${range.start.line + 1}` : ""}`;
    return `${KIND[s.kind] ?? "symbol"} ${s.name}${s.containerName ? ` in ${s.containerName}` : ""} ${where}`;
  });
  if (found.length > MAX_SYMBOLS) lines.push(`… ${found.length - MAX_SYMBOLS} more not shown`);
  return `${found.length} symbol(s) match "${query}":\n${lines.join("\n")}`;
}

/** One line per server: name, language, status, root, pid, error. */
export function statusText(manager: LspManager): string {
  return manager
    .statuses()
    .map((s) => {
      const parts = [`${s.name} (${s.language}): ${s.status}`];
      if (s.root) parts.push(`root ${s.root}`);
      if (s.pid !== undefined) parts.push(`pid ${s.pid}`);
      if (s.restarts) parts.push(`restarted ${s.restarts}×`);
      if (s.error) parts.push(s.error);
      return parts.join(", ");
    })
    .join("\n");
}

/** Restarts the file's server, or (`*`) every started one. */
export async function reload(manager: LspManager, abs: string | "*"): Promise<string> {
  const chosen = abs === "*" ? manager.started() : [manager.instanceFor(abs)].filter((i) => i !== undefined);
  if (abs !== "*" && chosen.length === 0) throw new Error(noServerText(manager, abs));
  for (const i of chosen) await manager.reload(i);
  if (chosen.length === 0) return "No language server was running.";
  return chosen.map((i) => `Stopped ${i.plan.name} for ${i.root}; it starts again on next use.`).join("\n");
}

// Diagnostics after writes: `write` (setting lsp.diagnosticsOnWrite) and `edit`
// (lsp.diagnosticsOnEdit) wait, at most lsp.diagnosticsTimeoutMs, for the changed file's
// diagnostics from its server and append its errors and warnings, a few lines at most. A file no
// server handles, or whose text the server already had, adds nothing; a write with
// lsp.formatOnWrite is formatted by the server first (and written again through the same path).
// A file `read` reads starts its server in the background, so the first write finds it warm.
import type { Diagnostic, TextEdit } from "vscode-languageserver-protocol";
import type { FileObserver, FsOps, WrittenFile } from "../tools/index.js";
import { checkFile, type FileCheck } from "./check-file.js";
import { withDeadline } from "./deadline.js";
import { uriOf } from "./documents.js";
import { countText, diagnosticLines, shortPath } from "./format.js";
import type { LspManager } from "./manager.js";
import { applyTextEdits } from "./text-edits.js";
import type { LspSettings } from "./types.js";

/** At most this many diagnostics in a tool result; the rest are counted. */
export const MAX_WRITE_DIAGNOSTICS = 10;

export interface ObserverOptions {
  manager: LspManager;
  settings: Pick<LspSettings, "diagnosticsOnWrite" | "diagnosticsOnEdit" | "formatOnWrite" | "diagnosticsTimeoutMs">;
  /** The file system the tools write through (the editor's buffers under ACP). */
  fs: FsOps;
}

export function createFileObserver(o: ObserverOptions): FileObserver {
  return {
    async afterWrite(file, signal) {
      const s = o.settings;
      const diagnose = file.kind === "write" ? s.diagnosticsOnWrite : s.diagnosticsOnEdit;
      const format = file.kind === "write" && s.formatOnWrite;
      if (!diagnose && !format) return undefined;
      const instance = o.manager.instanceFor(file.path);
      if (!instance || instance.textOf(file.path) === file.content) return undefined;
      const notes = await withDeadline(s.diagnosticsTimeoutMs, signal, async (bound) => {
        const out: string[] = [];
        let content = file.content;
        if (format) {
          const formatted = await formatWithServer(o, file, bound);
          if (formatted.note) out.push(formatted.note);
          content = formatted.content;
        }
        if (diagnose) out.push(...checkNote(await checkFile(o.manager, file.path, content, bound), file.path, o.manager.cwd, s.diagnosticsTimeoutMs));
        return out;
      });
      return notes.length > 0 ? notes.join("\n") : undefined;
    },
    afterRead(path, text) {
      const instance = o.manager.instanceFor(path);
      if (!instance) return;
      // The server starts (and loads the file's project) while the model is still thinking.
      instance.ready(new AbortController().signal).then(
        ({ docs }) => void docs.sync(path, text),
        () => undefined, // cannot start now: the write that follows says why
      );
    },
  };
}

/** The note for a check: errors and warnings, a timeout, a server that cannot be used; nothing when clean. */
function checkNote(check: FileCheck, path: string, cwd: string, timeoutMs: number): string[] {
  switch (check.kind) {
    case "none":
      return [];
    case "timeout":
      return [`LSP: no diagnostics from ${check.server} within ${timeoutMs} ms.`];
    case "error":
      return [`LSP: ${check.server} could not check the file: ${check.message}`];
    case "diagnostics": {
      const shown = check.diagnostics.filter(isProblem);
      if (shown.length === 0) return [];
      const file = shortPath(path, cwd);
      return [`LSP ${check.server}: ${countText(shown)}`, ...diagnosticLines(shown, file, MAX_WRITE_DIAGNOSTICS)];
    }
  }
}

/** Errors and warnings (a diagnostic without a severity counts as an error). */
function isProblem(d: Diagnostic): boolean {
  return d.severity === undefined || d.severity <= 2;
}

/** The file formatted by its server and written again, or as it was (with why) when that fails. */
async function formatWithServer(o: ObserverOptions, file: WrittenFile, signal: AbortSignal): Promise<{ content: string; note?: string }> {
  const instance = o.manager.instanceFor(file.path)!;
  try {
    const { server, docs } = await instance.ready(signal);
    if (!server.capabilities.documentFormattingProvider) return { content: file.content };
    docs.sync(file.path, file.content);
    const edits = await server.request<TextEdit[] | null>("textDocument/formatting", { textDocument: { uri: uriOf(file.path) }, options: formattingOptions(file.content) }, signal);
    if (!edits || edits.length === 0) return { content: file.content };
    const content = applyTextEdits(file.content, edits);
    if (content === file.content) return { content };
    await o.fs.writeFile(file.path, content);
    return { content, note: `Formatted by ${instance.plan.name}.` };
  } catch (err) {
    return { content: file.content, note: `LSP: not formatted (${(err as Error).message}).` };
  }
}

/** Tabs or spaces, and the indent width, as the file already uses them. */
function formattingOptions(text: string): { tabSize: number; insertSpaces: boolean } {
  const indents = text.split("\n").map((l) => /^[ \t]+/.exec(l)?.[0]).filter((i): i is string => !!i);
  if (indents.some((i) => i.startsWith("\t"))) return { tabSize: 4, insertSpaces: false };
  const widths = indents.map((i) => i.length).filter((n) => n > 0);
  const smallest = widths.length > 0 ? Math.min(...widths) : 2;
  return { tabSize: smallest >= 2 && smallest <= 8 ? smallest : 2, insertSpaces: true };
}

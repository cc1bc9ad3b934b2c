// Applying a server's WorkspaceEdit (a rename, a code action) through the same write path as
// the edit tools: every file is read through the session's file system (the editor's buffers
// under ACP), changed in memory, then judged — the sandbox's guard and the permission rules, as
// an `edit` of that file — before any is written; one refusal writes nothing. The file
// checkpoint of the prompt covers these writes like any tool's.
import { fileURLToPath } from "node:url";
import type { TextEdit, WorkspaceEdit } from "vscode-languageserver-protocol";
import type { FsOps, WriteGuard } from "../tools/index.js";
import { shortPath } from "./format.js";
import { applyTextEdits } from "./text-edits.js";

/** Asks the permission rules about writing these files (judged as `edit` calls); rejects saying why not. */
export type ApproveWrites = (paths: string[], call: { toolCallId: string; signal: AbortSignal }) => Promise<void>;

export interface EditIO {
  fs: FsOps;
  guardWrite?: WriteGuard;
  approveWrites?: ApproveWrites;
  /** After writing: the servers are told the new text of the files they have open. */
  written(absPath: string, text: string): void;
}

export interface FileChange {
  path: string;
  before: string;
  after: string;
  edits: TextEdit[];
}

/** The edits of a WorkspaceEdit by absolute file path. Resource operations are refused (pith does not announce them). */
export function editsByFile(edit: WorkspaceEdit): Map<string, TextEdit[]> {
  const out = new Map<string, TextEdit[]>();
  const add = (uri: string, edits: readonly TextEdit[]) => {
    let abs: string;
    try {
      abs = fileURLToPath(uri);
    } catch {
      throw new Error(`the edit names a document that is not a file: ${uri}`);
    }
    out.set(abs, [...(out.get(abs) ?? []), ...edits]);
  };
  for (const [uri, edits] of Object.entries(edit.changes ?? {})) add(uri, edits);
  for (const change of edit.documentChanges ?? []) {
    if (!("textDocument" in change)) throw new Error(`the edit ${change.kind}s a file, which pith does not do`);
    add(change.textDocument.uri, change.edits as TextEdit[]);
  }
  return out;
}

/** Every file's text before and after (nothing written). */
export async function planChanges(edit: WorkspaceEdit, fs: FsOps): Promise<FileChange[]> {
  const changes: FileChange[] = [];
  for (const [path, edits] of editsByFile(edit)) {
    const st = await fs.stat(path);
    if (!st?.isFile) throw new Error(`the edit changes ${path}, which is not a file`);
    const before = (await fs.readFile(path)).toString("utf8");
    changes.push({ path, before, after: applyTextEdits(before, edits), edits });
  }
  return changes.filter((c) => c.after !== c.before);
}

/** Judges every file, then writes them all. Returns the changes written. */
export async function applyWorkspaceEdit(edit: WorkspaceEdit, io: EditIO, call: { toolCallId: string; signal: AbortSignal }): Promise<FileChange[]> {
  const changes = await planChanges(edit, io.fs);
  if (changes.length === 0) return [];
  const targets: string[] = [];
  for (const c of changes) targets.push(io.guardWrite ? await io.guardWrite(c.path) : c.path);
  await io.approveWrites?.(changes.map((c) => c.path), call);
  for (const [i, c] of changes.entries()) {
    await io.fs.writeFile(targets[i], c.after);
    io.written(c.path, c.after);
  }
  return changes;
}

/** "a.ts: 2 edits" per file. */
export function changeLines(changes: FileChange[], cwd: string): string[] {
  return changes.map((c) => `${shortPath(c.path, cwd)}: ${c.edits.length} edit${c.edits.length === 1 ? "" : "s"}`);
}

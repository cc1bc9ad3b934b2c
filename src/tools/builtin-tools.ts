// The composition of the built-in tools and the `--tools` / `--no-tools` selection.
import { tmpdir } from "node:os";
import { createBashTool } from "./bash/index.js";
import { createEditTool } from "./edit/index.js";
import { createFindTool } from "./find/index.js";
import { createGrepTool } from "./grep/index.js";
import { createHashlineEditTool } from "./hashline/index.js";
import { createLsTool } from "./ls/index.js";
import { createNodeExecOps, type ExecOps } from "./ops/exec-ops.js";
import { confineFsOps, createNodeFsOps, type FsOps } from "./ops/fs-ops.js";
import type { WriteRefusal } from "../shared/confined-fs.js";
import { createReadTool } from "./read/index.js";
import { createMemoryTodoStore, createTodoWriteTool, type TodoStore } from "./todo-write/index.js";
import type { Tool } from "./types.js";
import type { FileObserver } from "./write/file-observer.js";
import { createWriteTool, type WriteGuard } from "./write/index.js";

export const BUILTIN_TOOL_NAMES = ["read", "bash", "edit", "write", "grep", "find", "ls", "todo_write"] as const;
export type BuiltinToolName = (typeof BUILTIN_TOOL_NAMES)[number];

/** Active by default in RPC mode (the minimum for RPC hosts, plus pi's `ls`). */
export const DEFAULT_RPC_TOOLS: readonly BuiltinToolName[] = ["read", "bash", "edit", "write", "grep", "find", "ls", "todo_write"];

export interface BuiltinToolsOptions {
  cwd: string;
  fs?: FsOps;
  exec?: ExecOps;
  /** Where bash spills full output. Default: the OS temp dir. */
  tempDir?: string;
  modelAcceptsImages?: () => boolean;
  /** ripgrep binary for grep/find; null or absent: the built-in walker (see `findOnPath`). */
  rgPath?: string | null;
  /** The session's todo list; default: an in-memory list. */
  todos?: TodoStore;
  /** Under a sandbox: the guard edit and write call before writing (see WriteGuard). */
  guardWrite?: WriteGuard;
  /** Under a sandbox: judges where every file write really lands (see confineFsOps). */
  confineWrites?: WriteRefusal;
  /** Environment of every child process (bash commands, rg): see `childEnvironment`. Default: pith's own. */
  env?: Record<string, string>;
  /** `read` numbers its lines (setting `readLineNumbers`). Default: off. */
  readLineNumbers?: boolean;
  /** `edit.mode`: exact-text replacement (default) or line-hash anchored edits. */
  editMode?: "replace" | "hashline";
  /** Told of every file read reads and write and edit write (language-server diagnostics after writes). */
  fileObserver?: FileObserver;
}

/** Every built-in tool, in BUILTIN_TOOL_NAMES order. `cwd` is the default the session passes in ctx. */
export function createBuiltinTools(opts: BuiltinToolsOptions): Tool[] {
  const base = opts.fs ?? createNodeFsOps();
  const fs = opts.confineWrites ? confineFsOps(base, opts.confineWrites) : base;
  const rgPath = opts.rgPath ?? null;
  const hashline = opts.editMode === "hashline";
  const observer = opts.fileObserver;
  return [
    createReadTool({ fs, modelAcceptsImages: opts.modelAcceptsImages ?? (() => true), lineNumbers: opts.readLineNumbers, hashLines: hashline, observer: opts.fileObserver }),
    createBashTool({ exec: opts.exec ?? createNodeExecOps({ env: opts.env }), tempDir: opts.tempDir ?? tmpdir() }),
    hashline ? createHashlineEditTool({ fs, guardWrite: opts.guardWrite, observer }) : createEditTool({ fs, guardWrite: opts.guardWrite, observer }),
    createWriteTool({ fs, guardWrite: opts.guardWrite, stripHashPrefixes: hashline, observer }),
    createGrepTool({ fs, rgPath, env: opts.env }),
    createFindTool({ fs, rgPath, env: opts.env }),
    createLsTool({ fs }),
    createTodoWriteTool({ todos: opts.todos ?? createMemoryTodoStore() }),
  ];
}

/** Thrown by selectTools for an unknown tool name. */
export class UnknownToolError extends Error {
  constructor(readonly unknown: string[], readonly valid: string[]) {
    super(`Unknown tool${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}. Valid tools: ${valid.join(", ")}`);
    this.name = "UnknownToolError";
  }
}

/**
 * `--no-tools` ⇒ none; `--tools a,b` ⇒ those (in the order given); neither ⇒ DEFAULT_RPC_TOOLS
 * that exist in `all`, plus every non-built-in tool. Unknown names throw UnknownToolError.
 */
export function selectTools(all: Tool[], sel: { allow?: string[]; none?: boolean } = {}): Tool[] {
  if (sel.none) return [];
  const byName = new Map(all.map((t) => [t.name, t]));
  if (!sel.allow) {
    const builtin = new Set<string>(BUILTIN_TOOL_NAMES);
    return all.filter((t) => !t.hidden && (!builtin.has(t.name) || (DEFAULT_RPC_TOOLS as readonly string[]).includes(t.name)));
  }
  const names = [...new Set(sel.allow.map((n) => n.trim()).filter(Boolean))];
  // Asking for grep / edit brings ast_grep / ast_edit along when they are enabled
  for (const [base, extra] of [["grep", "ast_grep"], ["edit", "ast_edit"]]) {
    if (names.includes(base) && !names.includes(extra) && byName.has(extra)) names.push(extra);
  }
  const unknown = names.filter((n) => !byName.has(n));
  if (unknown.length) throw new UnknownToolError(unknown, [...byName.keys()].sort());
  return names.map((n) => byName.get(n)!);
}

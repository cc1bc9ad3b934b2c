// The `lsp` tool, with the reference's parameters and actions: code intelligence from the
// session's language servers. Positions are a 1-based line plus a symbol on that line. rename
// and code_actions change files through the edit tools' write path (workspace-edit.ts).
import { Type, type Static } from "typebox";
import type { FsOps, Tool, WriteGuard } from "../tools/index.js";
import { resolveToolPath } from "../tools/index.js";
import { findLocations, hover } from "./actions-navigate.js";
import { codeActions, rename, type EditCall } from "./actions-edit.js";
import { diagnostics, documentSymbols, reload, statusText, workspaceSymbols } from "./actions-server.js";
import { positionOf, target } from "./call-context.js";
import { withDeadline } from "./deadline.js";
import type { LspManager } from "./manager.js";
import type { ApproveWrites } from "./workspace-edit.js";

const ACTIONS = ["diagnostics", "definition", "references", "hover", "symbols", "rename", "code_actions", "type_definition", "implementation", "status", "reload"] as const;

const DESCRIPTION = `Ask the language servers about code. Actions:
- diagnostics: errors and warnings of file (file: "*": what the running servers last reported)
- definition, type_definition, implementation, references, hover: about the symbol at line (1-based) of file; symbol: text on that line to point at (occurrence: which one, from 1)
- symbols: outline of file; with query and file "*" (or no file): matching symbols across the workspace
- rename: rename the symbol to new_name in every file (apply: false only previews)
- code_actions: fixes and refactors at line (query filters by kind); apply: true with query (a number or part of a title) applies one
- status: the servers and their state; reload: restart file's server (file "*": all)`;

const LspParams = Type.Object({
  action: Type.Union(ACTIONS.map((a) => Type.Literal(a)), { description: "LSP operation" }),
  file: Type.Optional(Type.String({ description: 'File path, or "*" for the workspace' })),
  line: Type.Optional(Type.Number({ description: "Line number (1-indexed)" })),
  symbol: Type.Optional(Type.String({ description: "Symbol/substring to locate on the line (used to compute column)" })),
  occurrence: Type.Optional(Type.Number({ description: "Symbol occurrence on line (1-indexed, default: 1)" })),
  query: Type.Optional(Type.String({ description: "Symbol search query, code action kind filter, or code action to apply" })),
  new_name: Type.Optional(Type.String({ description: "New name for rename" })),
  apply: Type.Optional(Type.Boolean({ description: "Apply edits (rename: default true; code_actions: default false)" })),
  timeout: Type.Optional(Type.Number({ description: "Request timeout in seconds (5-60, default 20)" })),
});
export type LspArgs = Static<typeof LspParams>;

export interface LspToolOptions {
  manager: LspManager;
  /** The session's file system (the editor's buffers under ACP): what the servers are sent, and where edits go. */
  fs: FsOps;
  /** The sandbox's guard, as the edit tools have it. */
  guardWrite?: WriteGuard;
  /** The permission rules, judging each file an edit changes as an `edit` call. */
  approveWrites?: ApproveWrites;
}

export function createLspTool(o: LspToolOptions): Tool<LspArgs> {
  return {
    name: "lsp",
    label: "LSP",
    description: DESCRIPTION,
    summary: "Language servers: diagnostics, definitions, references, rename",
    parameters: LspParams as unknown as Record<string, unknown>,
    // Reading and navigating change nothing; the files a rename or code action would change are
    // each judged as an `edit` of that file (approveWrites) before anything is written.
    effect: "read-only",
    paths: (a) => (typeof a.file === "string" && a.file !== "*" ? [{ path: a.file, scope: "file" }] : [{ path: ".", scope: "tree" }]),
    concurrency: "exclusive",
    source: "builtin",
    async execute(args, ctx) {
      const seconds = Math.min(60, Math.max(5, args.timeout ?? 20));
      const text = await withDeadline(seconds * 1000, ctx.signal, (signal) => run(o, args, { cwd: ctx.cwd, toolCallId: ctx.toolCallId, signal }));
      return { content: [{ type: "text", text }], details: { action: args.action } };
    },
  };
}

interface Call {
  cwd: string;
  toolCallId: string;
  signal: AbortSignal;
}

async function run(o: LspToolOptions, args: LspArgs, call: Call): Promise<string> {
  const { manager } = o;
  const file = args.file === "*" ? "*" : args.file !== undefined ? resolveToolPath(args.file, call.cwd) : undefined;
  switch (args.action) {
    case "status":
      return statusText(manager);
    case "reload":
      return reload(manager, file ?? "*");
    case "diagnostics":
      return diagnostics(manager, o.fs, need(file, "diagnostics"), call.signal);
    case "symbols":
      if (file === undefined || file === "*") return workspaceSymbols(manager, needText(args.query, "query", "symbols across the workspace"), call.signal);
      return documentSymbols(await target(manager, o.fs, file, call.signal), call.cwd, call.signal);
    default:
      return atPosition(o, args, needFile(file, args.action), call);
  }
}

async function atPosition(o: LspToolOptions, args: LspArgs, file: string, call: Call): Promise<string> {
  const line = args.line;
  if (line === undefined) throw new Error(`${args.action} needs line (1-based) and, best, symbol: the name on that line`);
  const t = await target(o.manager, o.fs, file, call.signal);
  const position = positionOf(t.text, line, args.symbol, args.occurrence ?? 1);
  switch (args.action) {
    case "definition":
    case "type_definition":
    case "implementation":
    case "references":
      return findLocations(args.action, t, position, o.fs, call.cwd, call.signal);
    case "hover":
      return hover(t, position, call.signal);
    case "rename":
      return rename(t, position, needText(args.new_name, "new_name", "rename"), args.apply !== false, editCall(o, t.docs, call));
    case "code_actions":
      return codeActions(t, position, args.query, args.apply === true, editCall(o, t.docs, call));
    default:
      throw new Error(`Unknown action: ${String(args.action)}`);
  }
}

function editCall(o: LspToolOptions, docs: { sync(abs: string, text: string): number; textOf(abs: string): string | undefined }, call: Call): EditCall {
  return {
    io: {
      fs: o.fs,
      guardWrite: o.guardWrite,
      approveWrites: o.approveWrites,
      // the server has the new text of the files it has open; the rest it reads from disk
      written: (abs, text) => {
        if (docs.textOf(abs) !== undefined) docs.sync(abs, text);
      },
    },
    cwd: call.cwd,
    toolCallId: call.toolCallId,
    signal: call.signal,
    withApplier: (applier, work) => o.manager.withEditApplier(applier, work),
  };
}

function need(file: string | undefined, action: string): string {
  if (file === undefined) throw new Error(`${action} needs file (a path, or "*")`);
  return file;
}

function needFile(file: string | undefined, action: string): string {
  if (file === undefined || file === "*") throw new Error(`${action} needs file: the path of one file`);
  return file;
}

function needText(value: string | undefined, name: string, what: string): string {
  if (!value?.trim()) throw new Error(`${what} needs ${name}`);
  return value.trim();
}

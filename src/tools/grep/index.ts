// `grep`: regex search over files, ripgrep-backed when available, identical output either way.
import { Type, type Static } from "typebox";
import type { AgentToolResult } from "../../shared/types.js";
import type { FsOps } from "../ops/fs-ops.js";
import type { OutputMeta } from "../output-notice.js";
import { resolveSearchPath, searchPaths } from "../paths.js";
import type { GrepQuery, grepWithWalker } from "../search/grep-search.js";
import { formatSize, GREP_MAX_LINE_LENGTH, truncateHead } from "../truncate.js";
import { jsonSchema } from "../schema.js";
import type { Tool } from "../types.js";
import { formatGrep, joinRoot } from "./format.js";

const GREP_DESCRIPTION = `Regex search of file contents (.gitignore respected, hidden files included). Matches print as "path:line: text", context lines as "path-line- text"; at most limit matches and 50KB, lines cut at 500 characters.`;

const GrepParams = Type.Object({
  pattern: Type.String(),
  path: Type.Optional(Type.String({ description: "File or directory (default: cwd)" })),
  glob: Type.Optional(Type.String({ description: "e.g. '*.ts'" })),
  ignoreCase: Type.Optional(Type.Boolean()),
  literal: Type.Optional(Type.Boolean({ description: "pattern is plain text" })),
  context: Type.Optional(Type.Integer({ minimum: 0, description: "Lines around each match" })),
  limit: Type.Optional(Type.Integer({ minimum: 1, description: "Default 100" })),
});
export type GrepArgs = Static<typeof GrepParams>;

export const GREP_DEFAULT_LIMIT = 100;

export interface GrepToolOptions {
  fs: FsOps;
  rgPath: string | null;
  /** rg's environment; default: inherit pith's. */
  env?: Record<string, string>;
}

export function createGrepTool(opts: GrepToolOptions): Tool<GrepArgs> {
  return {
    name: "grep",
    label: "Grep",
    description: GREP_DESCRIPTION,
    effect: "read-only",
    paths: (a) => searchPaths(a),
    parameters: jsonSchema(GrepParams),
    concurrency: "shared",
    source: "builtin",
    async execute(args, ctx) {
      if (!args.pattern) throw new Error("Pattern must not be empty");
      const root = resolveSearchPath(args.path, ctx.cwd);
      const st = await opts.fs.stat(root);
      if (!st) throw new Error(`Path not found: ${args.path}`);
      const limit = args.limit ?? GREP_DEFAULT_LIMIT;
      const q: GrepQuery = { ...args, root, rootIsFile: st.isFile, maxMatches: limit + 1, signal: ctx.signal };
      // The search code (globs on the linear-time engine, ignore) is imported on first use, not at startup.
      const search = await import("../search/grep-search.js");
      const found = opts.rgPath ? await search.grepWithRipgrep(q, opts.rgPath, opts.env) : await search.grepWithWalker(q, opts.fs);
      return render(found.slice(0, limit), found.length > limit ? limit : undefined, args, q, opts.fs);
    },
  };
}

async function render(matches: Awaited<ReturnType<typeof grepWithWalker>>, limitHit: number | undefined, args: GrepArgs, q: GrepQuery, fs: FsOps): Promise<AgentToolResult> {
  if (matches.length === 0) {
    return { content: [{ type: "text", text: "No matches found" }], details: { matchCount: 0, fileCount: 0 }, isWarning: true };
  }
  const f = await formatGrep(matches, args.context ?? 0, fs, joinRoot(q.root, q.rootIsFile));
  const t = truncateHead(f.text, { maxLines: Number.MAX_SAFE_INTEGER });
  const meta: OutputMeta = {};
  if (limitHit !== undefined) meta.matchLimit = limitHit;
  if (t.truncated) meta.notes = [`${formatSize(t.maxBytes)} limit reached`];
  if (f.linesTruncated) meta.linesTruncatedTo = GREP_MAX_LINE_LENGTH;
  const details: Record<string, unknown> = { matchCount: matches.length, fileCount: f.files.length, files: f.files, truncated: t.truncated || limitHit !== undefined };
  if (Object.keys(meta).length) details.meta = meta;
  return { content: [{ type: "text", text: t.content }], details };
}

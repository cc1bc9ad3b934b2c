// `find`: files matching a glob, ripgrep-backed when available, identical output either way.
import { Type, type Static } from "typebox";
import type { FsOps } from "../ops/fs-ops.js";
import type { OutputMeta } from "../output-notice.js";
import { resolveSearchPath, searchPaths } from "../paths.js";
import { formatSize, truncateHead } from "../truncate.js";
import { jsonSchema } from "../schema.js";
import type { Tool } from "../types.js";

const FIND_DESCRIPTION = `Find files by glob. A pattern without "/" matches file names anywhere below path; one with "/" matches paths relative to it. Respects .gitignore (hidden files included). Returns sorted relative paths, at most limit and 50KB.`;

const FindParams = Type.Object({
  pattern: Type.String({ description: "e.g. '*.ts' or 'src/**/*.spec.ts'" }),
  path: Type.Optional(Type.String({ description: "Default: cwd" })),
  limit: Type.Optional(Type.Integer({ minimum: 1, description: "Default 1000" })),
});
export type FindArgs = Static<typeof FindParams>;

export const FIND_DEFAULT_LIMIT = 1000;

export function createFindTool(opts: { fs: FsOps; rgPath: string | null; env?: Record<string, string> }): Tool<FindArgs> {
  return {
    name: "find",
    label: "Find",
    description: FIND_DESCRIPTION,
    effect: "read-only",
    paths: (a) => searchPaths(a),
    parameters: jsonSchema(FindParams),
    concurrency: "shared",
    source: "builtin",
    async execute(args, ctx) {
      if (!args.pattern.trim()) throw new Error("Pattern must not be empty");
      const root = resolveSearchPath(args.path, ctx.cwd);
      const st = await opts.fs.stat(root);
      if (!st) throw new Error(`Path not found: ${args.path}`);
      if (!st.isDirectory) throw new Error(`Path is not a directory: ${args.path}`);
      const limit = args.limit ?? FIND_DEFAULT_LIMIT;
      // The search code (globs on the linear-time engine, ignore) is imported on first use, not at startup.
      const [{ globFilter }, { listFiles }] = await Promise.all([import("../search/grep-search.js"), import("../search/list-files.js")]);
      const all = await listFiles({ root, accept: globFilter(args.pattern.trim()), signal: ctx.signal }, opts);
      if (all.length === 0) {
        return { content: [{ type: "text", text: "No files found matching pattern" }], details: { fileCount: 0 }, isWarning: true };
      }
      const files = all.slice(0, limit);
      const t = truncateHead(files.join("\n"), { maxLines: Number.MAX_SAFE_INTEGER });
      const meta: OutputMeta = {};
      if (all.length > limit) meta.resultLimit = limit;
      if (t.truncated) meta.notes = [`${formatSize(t.maxBytes)} limit reached`];
      const details: Record<string, unknown> = { fileCount: files.length, truncated: t.truncated || all.length > limit };
      if (Object.keys(meta).length) details.meta = meta;
      return { content: [{ type: "text", text: t.content }], details };
    },
  };
}

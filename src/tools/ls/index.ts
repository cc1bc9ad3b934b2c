// `ls`: one directory's entries, sorted case-insensitively, dirs with "/" (pi).
import { join } from "node:path";
import { Type, type Static } from "typebox";
import type { FsOps } from "../ops/fs-ops.js";
import type { OutputMeta } from "../output-notice.js";
import { pathArg, resolveToolPath } from "../paths.js";
import { formatSize, truncateHead } from "../truncate.js";
import { jsonSchema } from "../schema.js";
import type { Tool } from "../types.js";

const LS_DESCRIPTION = `List a directory: entries sorted case-insensitively, "/" after directory names, dotfiles included.`;

const LsParams = Type.Object({
  path: Type.Optional(Type.String({ description: "Default: cwd" })),
  limit: Type.Optional(Type.Integer({ minimum: 1, description: "Default 500" })),
});
export type LsArgs = Static<typeof LsParams>;

export const LS_DEFAULT_LIMIT = 500;

export function createLsTool(opts: { fs: FsOps }): Tool<LsArgs> {
  return {
    name: "ls",
    summary: "List a directory",
    label: "List",
    description: LS_DESCRIPTION,
    effect: "read-only",
    paths: (a) => pathArg(a, "path", "tree", "."),
    parameters: jsonSchema(LsParams),
    concurrency: "shared",
    source: "builtin",
    async execute(args, ctx) {
      const abs = resolveToolPath(args.path, ctx.cwd);
      const shown = args.path ?? ".";
      const st = await opts.fs.stat(abs);
      if (!st) throw new Error(`Path not found: ${shown}`);
      if (!st.isDirectory) throw new Error(`Not a directory: ${shown}`);
      const entries = await opts.fs.readdir(abs);
      const names = await Promise.all(
        entries.map(async (e) => {
          const isDir = e.isDirectory || (e.isSymbolicLink && (await opts.fs.stat(join(abs, e.name)))?.isDirectory === true);
          return isDir ? `${e.name}/` : e.name;
        }),
      );
      names.sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()) || (a < b ? -1 : a > b ? 1 : 0));
      if (names.length === 0) return { content: [{ type: "text", text: "(empty directory)" }], details: { entryCount: 0 } };
      const limit = args.limit ?? LS_DEFAULT_LIMIT;
      const t = truncateHead(names.slice(0, limit).join("\n"), { maxLines: Number.MAX_SAFE_INTEGER });
      const meta: OutputMeta = {};
      if (names.length > limit) meta.notes = [`${limit} entries limit reached. Use limit=${limit * 2} for more`];
      if (t.truncated) (meta.notes ??= []).push(`${formatSize(t.maxBytes)} limit reached`);
      const details: Record<string, unknown> = { entryCount: Math.min(limit, names.length) };
      if (meta.notes) details.meta = meta;
      return { content: [{ type: "text", text: t.content }], details };
    },
  };
}

// Parameters of ast_grep / ast_edit (the reference's names) and the options both tools share.
import { Type, type Static } from "typebox";
import type { FsOps } from "../ops/fs-ops.js";
import type { ToolPath } from "../types.js";
import type { WriteGuard } from "../write/index.js";

export const GrepParams = Type.Object({
  pat: Type.Array(Type.String(), { minItems: 1, description: "AST patterns to match" }),
  lang: Type.Optional(Type.String({ description: "Language override" })),
  path: Type.Optional(Type.String({ description: "File, directory, or glob pattern to search (default: cwd)" })),
  glob: Type.Optional(Type.String({ description: "Optional glob filter relative to path" })),
  sel: Type.Optional(Type.String({ description: "Optional selector for contextual pattern mode" })),
  limit: Type.Optional(Type.Number({ description: "Max matches (default: 50)" })),
  offset: Type.Optional(Type.Number({ description: "Skip first N matches (default: 0)" })),
  context: Type.Optional(Type.Number({ description: "Context lines around each match" })),
});
export type AstGrepArgs = Static<typeof GrepParams>;

export const EditParams = Type.Object({
  ops: Type.Array(
    Type.Object({
      pat: Type.String({ description: "AST pattern to match" }),
      out: Type.String({ description: "Replacement template" }),
    }),
    { description: "Rewrite ops as [{ pat, out }]" },
  ),
  lang: Type.Optional(Type.String({ description: "Language override" })),
  path: Type.Optional(Type.String({ description: "File, directory, or glob pattern to rewrite (default: cwd)" })),
  glob: Type.Optional(Type.String({ description: "Optional glob filter relative to path" })),
  sel: Type.Optional(Type.String({ description: "Optional selector for contextual pattern mode" })),
  limit: Type.Optional(Type.Number({ description: "Max total replacements" })),
  dryRun: Type.Optional(Type.Boolean({ description: "Preview the rewrite without writing files" })),
});
export type AstEditArgs = Static<typeof EditParams>;

const GLOB_CHARS = /[*?[{]/;

/** `path` split at its first glob segment: the folder (or file) walked, and the glob under it. */
export function splitScope(path: string | undefined): { base: string; glob?: string } {
  const raw = path?.trim() || ".";
  const parts = raw.split("/");
  const firstGlob = parts.findIndex((p) => GLOB_CHARS.test(p));
  if (firstGlob < 0) return { base: raw };
  return { base: parts.slice(0, firstGlob).join("/") || ".", glob: parts.slice(firstGlob).join("/") };
}

/** The place a call searches or rewrites: the whole tree at its `path`'s base (absent: the cwd). */
export function scopePaths(args: Record<string, unknown>): ToolPath[] {
  const raw = args.path;
  if (raw !== undefined && typeof raw !== "string") return [];
  return [{ path: splitScope(raw).base, scope: "tree" }];
}

export interface AstToolOptions {
  fs: FsOps;
  rgPath?: string | null;
  env?: Record<string, string>;
  guardWrite?: WriteGuard;
}


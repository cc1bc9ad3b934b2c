// `write`: create or overwrite a file, creating parent directories.
import { dirname } from "node:path";
import { Type, type Static } from "typebox";
import type { FsOps } from "../ops/fs-ops.js";
import { stripDisplayPrefixes } from "../hashline/anchors.js";
import { pathArg, resolveToolPath } from "../paths.js";
import { jsonSchema } from "../schema.js";
import type { Tool } from "../types.js";
import { withNote, type FileObserver } from "./file-observer.js";

const WRITE_DESCRIPTION = `Write a whole file: creates it (and its parent directories) or overwrites it. Prefer edit for changing part of a file.`;

const WriteParams = Type.Object({
  path: Type.String(),
  content: Type.String(),
});
export type WriteArgs = Static<typeof WriteParams>;

export interface WriteToolOptions {
  fs: FsOps;
  /** Set under a sandbox: judges the resolved path and returns where to write, or throws saying why not. */
  guardWrite?: WriteGuard;
  /** Hashline edit mode: `N#HH:` prefixes copied from read output are dropped. */
  stripHashPrefixes?: boolean;
  /** Told of every file written; its note (language-server diagnostics) ends the result. */
  observer?: FileObserver;
}

/** The path the tool resolved → the physical path to write (symlinks followed), or throws. */
export type WriteGuard = (absPath: string) => Promise<string>;

export function createWriteTool(opts: WriteToolOptions): Tool<WriteArgs> {
  return {
    name: "write",
    label: "Write",
    description: WRITE_DESCRIPTION,
    parameters: jsonSchema(WriteParams),
    effect: "writes-files",
    paths: (a) => pathArg(a, "path", "file"),
    concurrency: "exclusive",
    source: "builtin",
    async execute(args, ctx) {
      const abs = opts.guardWrite ? await opts.guardWrite(resolveToolPath(args.path, ctx.cwd)) : resolveToolPath(args.path, ctx.cwd);
      const st = await opts.fs.stat(abs);
      if (st?.isDirectory) throw new Error(`Path is a directory: ${args.path}`);
      await opts.fs.mkdir(dirname(abs));
      const content = opts.stripHashPrefixes ? stripDisplayPrefixes(args.content) : args.content;
      await opts.fs.writeFile(abs, content);
      const note = content !== args.content ? "\nNote: auto-stripped hashline display prefixes from content before writing." : "";
      const observed = await opts.observer?.afterWrite({ path: abs, content, kind: "write" }, ctx.signal);
      return {
        content: [{ type: "text", text: withNote(`Successfully wrote ${content.length} bytes to ${args.path}${note}`, observed) }],
        details: { path: abs, created: !st },
      };
    },
  };
}

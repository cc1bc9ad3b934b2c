// The work of ast_grep / ast_edit: the files in scope (gitignore respected), one parse per file
// with @ast-grep/napi, matches with their captures, template rewrites written atomically per file.
import { randomBytes } from "node:crypto";
import { promises as fsp } from "node:fs";
import { basename, dirname, extname, relative } from "node:path";
import type { NapiConfig, SgNode } from "@ast-grep/napi";
import { createTwoFilesPatch } from "diff";
import type { AgentToolResult } from "../../shared/types.js";
import { resolveToolPath } from "../paths.js";
import { globFilter } from "../search/grep-search.js";
import { listFiles } from "../search/list-files.js";
import type { FsOps } from "../ops/fs-ops.js";
import type { ToolContext } from "../types.js";
import type { AstEditArgs, AstGrepArgs, AstToolOptions } from "./params.js";
import { splitScope } from "./params.js";

type Napi = typeof import("@ast-grep/napi");
let napi: Promise<Napi> | undefined;
const loadNapi = (): Promise<Napi> => (napi ??= import("@ast-grep/napi"));

const BY_EXT: Record<string, string> = {
  ".ts": "TypeScript", ".mts": "TypeScript", ".cts": "TypeScript", ".tsx": "Tsx",
  ".js": "JavaScript", ".mjs": "JavaScript", ".cjs": "JavaScript", ".jsx": "JavaScript",
  ".html": "Html", ".htm": "Html", ".css": "Css",
};
const BY_NAME: Record<string, string> = {
  typescript: "TypeScript", ts: "TypeScript", tsx: "Tsx", javascript: "JavaScript", js: "JavaScript", jsx: "JavaScript", html: "Html", css: "Css",
};

function languageOf(lang: string | undefined): string | undefined {
  if (lang === undefined || lang.trim() === "") return undefined;
  const found = BY_NAME[lang.trim().toLowerCase()];
  if (!found) throw new Error(`Unsupported language "${lang}". Supported: ${Object.keys(BY_NAME).join(", ")}`);
  return found;
}

interface Scope {
  isDirectory: boolean;
  scopePath: string;
  /** Absolute path → language. */
  files: Array<{ abs: string; rel: string; lang: string }>;
}

async function resolveScope(args: { path?: string; glob?: string; lang?: string }, ctx: ToolContext, opts: AstToolOptions): Promise<Scope> {
  const lang = languageOf(args.lang);
  const { base, glob: pathGlob } = splitScope(args.path);
  const root = resolveToolPath(base, ctx.cwd);
  const scopePath = relative(ctx.cwd, root) || ".";
  const st = await opts.fs.stat(root);
  if (!st) throw new Error(`Path not found: ${scopePath}`);
  const langFor = (file: string): string | undefined => lang ?? BY_EXT[extname(file).toLowerCase()];
  if (!st.isDirectory) {
    const l = langFor(root);
    if (!l) throw new Error(`Cannot tell the language of ${scopePath}; set lang (${Object.keys(BY_NAME).join(", ")})`);
    return { isDirectory: false, scopePath, files: [{ abs: root, rel: basename(root), lang: l }] };
  }
  const a = globFilter(pathGlob);
  const b = globFilter(args.glob?.trim() || undefined);
  // with an explicit language, only that language's files (by extension) are parsed
  const wanted = (rel: string): boolean => {
    const byExt = BY_EXT[extname(rel).toLowerCase()];
    return byExt !== undefined && (lang === undefined || byExt === lang || (lang === "TypeScript" && byExt === "Tsx"));
  };
  const rels = await listFiles({ root, accept: (rel) => a(rel) && b(rel) && wanted(rel), signal: ctx.signal }, { fs: opts.fs, rgPath: opts.rgPath ?? null, env: opts.env });
  return { isDirectory: true, scopePath, files: rels.map((rel) => ({ abs: `${root}/${rel}`, rel, lang: langFor(rel)! })) };
}

function matcher(pat: string, sel: string | undefined): string | NapiConfig {
  return sel?.trim() ? { rule: { pattern: { context: pat, selector: sel.trim() } } } : pat;
}

function findAll(node: SgNode, pat: string, sel: string | undefined): SgNode[] {
  try {
    return node.findAll(matcher(pat, sel));
  } catch (err) {
    throw new Error(`Invalid pattern "${pat}": ${(err as Error).message}`);
  }
}

/** Capture names of a pattern (`$A`, `$$$ARGS`; `$_…` does not capture). */
function captureNames(pat: string): Array<{ name: string; multi: boolean }> {
  const out = new Map<string, boolean>();
  for (const m of pat.matchAll(/\$(\$\$)?([A-Z_][A-Z0-9_]*)/g)) if (!m[2].startsWith("_")) out.set(m[2], !!m[1]);
  return [...out].map(([name, multi]) => ({ name, multi }));
}

function captureText(node: SgNode, name: string, multi: boolean, source: string): string | undefined {
  if (!multi) return node.getMatch(name)?.text();
  const nodes = node.getMultipleMatches(name);
  if (nodes.length === 0) return "";
  return source.slice(nodes[0].range().start.index, nodes[nodes.length - 1].range().end.index);
}

async function readSource(abs: string, opts: AstToolOptions): Promise<string> {
  return (await opts.fs.readFile(abs)).toString("utf8");
}

function positiveInt(value: number | undefined, fallback: number, what: string, min: number): number {
  const n = value === undefined ? fallback : Math.floor(value);
  if (!Number.isFinite(n) || n < min) throw new Error(min > 0 ? `${what} must be a positive number` : `${what} must be a non-negative number`);
  return n;
}

/** Files grouped under `# dir` / `## └─ file` headers (files in the scope root as `# file`), as grep does. */
function grouped(files: string[], render: (rel: string) => string[], header: (rel: string) => string): string[] {
  const out: string[] = [];
  const byDir = new Map<string, string[]>();
  for (const f of files) byDir.set(dirname(f), [...(byDir.get(dirname(f)) ?? []), f]);
  for (const [dir, list] of byDir) {
    if (dir !== ".") {
      if (out.length) out.push("");
      out.push(`# ${dir}`);
    }
    for (const f of list) {
      if (dir === ".") {
        if (out.length) out.push("");
        out.push(`# ${header(f)}`);
      } else out.push(`## └─ ${header(f)}`);
      out.push(...render(f));
    }
  }
  return out;
}

interface Match {
  rel: string;
  start: number;
  end: number;
  line: number;
  text: string;
  meta: Record<string, string>;
}

export async function astGrep(args: AstGrepArgs, ctx: ToolContext, opts: AstToolOptions): Promise<AgentToolResult> {
  const patterns = [...new Set(args.pat.map((p) => p.trim()).filter(Boolean))];
  if (patterns.length === 0) throw new Error("`pat` must include at least one non-empty pattern");
  const limit = positiveInt(args.limit, 50, "Limit", 1);
  const offset = positiveInt(args.offset, 0, "Offset", 0);
  const scope = await resolveScope(args, ctx, opts);
  const { parse } = await loadNapi();
  const all: Match[] = [];
  for (const f of scope.files) {
    if (ctx.signal.aborted) throw new Error("Operation aborted");
    const source = await readSource(f.abs, opts);
    const root = parse(f.lang, source).root();
    const seen = new Set<string>();
    const found: Match[] = [];
    for (const pat of patterns) {
      for (const node of findAll(root, pat, args.sel)) {
        const r = node.range();
        const key = `${r.start.index}:${r.end.index}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const meta: Record<string, string> = {};
        for (const c of captureNames(pat)) {
          const t = captureText(node, c.name, c.multi, source);
          if (t !== undefined) meta[c.name] = t;
        }
        found.push({ rel: f.rel, start: r.start.index, end: r.end.index, line: r.start.line + 1, text: node.text(), meta });
      }
    }
    all.push(...found.sort((x, y) => x.start - y.start));
  }
  const page = all.slice(offset, offset + limit);
  const limitReached = all.length > offset + limit;
  const files = [...new Set(page.map((m) => m.rel))];
  const details = {
    matchCount: all.length,
    fileCount: new Set(all.map((m) => m.rel)).size,
    filesSearched: scope.files.length,
    limitReached,
    scopePath: scope.scopePath,
    files,
    fileMatches: files.map((path) => ({ path, count: page.filter((m) => m.rel === path).length })),
  };
  if (page.length === 0) return { content: [{ type: "text", text: "No matches found" }], details, isWarning: true };
  const render = (rel: string): string[] =>
    page
      .filter((m) => m.rel === rel)
      .flatMap((m) => {
        const lines = m.text.split("\n");
        const width = String(m.line + lines.length - 1).length;
        const out = lines.map((l, i) => `${String(m.line + i).padStart(width)}${i === 0 ? ":" : "-"}${l}`);
        const meta = Object.entries(m.meta).sort(([a], [b]) => a.localeCompare(b));
        if (meta.length) out.push(`  meta: ${meta.map(([k, v]) => `${k}=${v}`).join(", ")}`);
        return out;
      });
  const lines = scope.isDirectory ? grouped(files, render, (f) => basename(f)) : files.flatMap(render);
  if (limitReached) lines.push("", "Result limit reached; narrow path pattern or increase limit.");
  return { content: [{ type: "text", text: lines.join("\n") }], details };
}

interface Replacement {
  start: number;
  end: number;
  line: number;
  column: number;
  before: string;
  after: string;
}

function substitute(template: string, node: SgNode, pat: string, source: string): string {
  const names = new Map(captureNames(pat).map((c) => [c.name, c.multi]));
  return template.replace(/\$(\$\$)?([A-Z_][A-Z0-9_]*)/g, (whole, _multi: string | undefined, name: string) => {
    if (!names.has(name)) return whole;
    return captureText(node, name, names.get(name)!, source) ?? whole;
  });
}

/** Writes through a temporary file in the same directory, so a reader sees the old or the new file. */
/** Writes through the tool's file operations (confined under a sandbox): a temporary file beside `abs`, renamed over it. */
async function writeAtomically(fs: FsOps, abs: string, content: string): Promise<void> {
  const tmp = `${dirname(abs)}/.${basename(abs)}.${randomBytes(4).toString("hex")}.pith-tmp`;
  const rename = fs.rename ?? ((a: string, b: string) => fsp.rename(a, b));
  try {
    await fs.writeFile(tmp, content);
    await rename(tmp, abs);
  } catch (err) {
    await (fs.unlink ?? fsp.unlink)(tmp).catch((cleanup: unknown) => {
      if ((cleanup as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    });
    throw err;
  }
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;

export async function astEdit(args: AstEditArgs, ctx: ToolContext, opts: AstToolOptions): Promise<AgentToolResult> {
  if (args.ops.length === 0) throw new Error("`ops` must include at least one op entry");
  const seenPat = new Set<string>();
  args.ops.forEach((op, i) => {
    if (!op.pat.trim()) throw new Error(`\`ops[${i}].pat\` must be a non-empty pattern`);
    if (seenPat.has(op.pat.trim())) throw new Error(`Duplicate rewrite pattern: ${op.pat.trim()}`);
    seenPat.add(op.pat.trim());
  });
  const max = args.limit === undefined ? Infinity : Math.floor(args.limit);
  if (!(max >= 1)) throw new Error("limit must be a positive number");
  const scope = await resolveScope(args, ctx, opts);
  const { parse } = await loadNapi();
  let total = 0;
  let limitReached = false;
  const changed: Array<{ rel: string; abs: string; before: string; after: string; reps: Replacement[] }> = [];
  for (const f of scope.files) {
    if (limitReached) break;
    const source = await readSource(f.abs, opts);
    const root = parse(f.lang, source).root();
    const reps: Replacement[] = [];
    for (const op of args.ops) {
      for (const node of findAll(root, op.pat.trim(), args.sel)) {
        const r = node.range();
        if (reps.some((x) => r.start.index < x.end && x.start < r.end.index)) continue;
        if (total >= max) {
          limitReached = true;
          break;
        }
        reps.push({ start: r.start.index, end: r.end.index, line: r.start.line + 1, column: r.start.column + 1, before: node.text(), after: substitute(op.out, node, op.pat.trim(), source) });
        total++;
      }
    }
    if (reps.length === 0) continue;
    reps.sort((a, b) => a.start - b.start);
    let after = source;
    for (const x of [...reps].reverse()) after = after.slice(0, x.start) + x.after + after.slice(x.end);
    if (after !== source) changed.push({ rel: f.rel, abs: f.abs, before: source, after, reps });
  }
  const applied = !args.dryRun && changed.length > 0;
  if (applied) {
    for (const c of changed) await writeAtomically(opts.fs, opts.guardWrite ? await opts.guardWrite(c.abs) : c.abs, c.after);
  }
  const files = changed.map((c) => c.rel);
  const details = {
    totalReplacements: total,
    filesTouched: changed.length,
    filesSearched: scope.files.length,
    applied,
    limitReached,
    scopePath: scope.scopePath,
    files,
    fileReplacements: changed.map((c) => ({ path: c.rel, count: c.reps.length })),
    diff: changed.map((c) => createTwoFilesPatch(c.rel, c.rel, c.before, c.after, undefined, undefined, { context: 3 })).join(""),
  };
  if (total === 0) return { content: [{ type: "text", text: "No replacements made" }], details, isWarning: true };
  const render = (rel: string): string[] => {
    const reps = changed.find((c) => c.rel === rel)!.reps;
    const width = Math.max(...reps.map((x) => String(x.line).length));
    return reps.flatMap((x) => {
      const ref = `${String(x.line).padStart(width)}:${x.column}`;
      return [`-${ref} ${x.before.split("\n", 1)[0].slice(0, 120)}`, `+${ref} ${x.after.split("\n", 1)[0].slice(0, 120)}`];
    });
  };
  const count = (rel: string): string => `${basename(rel)} (${plural(changed.find((c) => c.rel === rel)!.reps.length, "replacement")})`;
  const lines = scope.isDirectory ? grouped(files, render, count) : files.flatMap(render);
  if (limitReached) lines.push("", "Limit reached; narrow path or increase limit.");
  const summary = `${plural(total, "replacement")} in ${plural(changed.length, "file")}`;
  lines.push("", applied ? `Applied ${summary}.` : `Preview (dryRun): ${summary}; nothing written.`);
  return { content: [{ type: "text", text: lines.join("\n") }], details };
}

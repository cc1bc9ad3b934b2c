// Finds extension modules and loads them with jiti (imported lazily: only when there is at
// least one extension). A module that fails is reported through `onError` and skipped.
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { errorMessage } from "../shared/errors.js";
import { createExtensionApi, createExtensionRuntime, createLoadedExtension, type ExtensionRuntime } from "./api.js";
import type { ExtensionErrorListener, ExtensionFactory, LoadedExtension } from "./types.js";

export interface DiscoverOptions {
  cwd: string;
  /** `<pithHome>/extensions/` is searched when given. */
  pithHome?: string;
  /** Explicit `-e` paths (files or directories), loaded after the discovered ones. */
  paths?: string[];
  /** false (`--no-extensions`): only explicit paths load. Default true. */
  discover?: boolean;
  /** `<cwd>/.pith/extensions/` is searched too (only for a trusted folder). Default false. */
  project?: boolean;
}

export interface LoadExtensionsOptions extends DiscoverOptions {
  onError?: ExtensionErrorListener;
}

export interface LoadedExtensions {
  extensions: LoadedExtension[];
  runtime: ExtensionRuntime;
}

const FILE_RE = /\.(ts|js|mjs)$/;

function expandHome(p: string): string {
  if (p === "~") return homedir();
  return p.startsWith("~/") ? join(homedir(), p.slice(2)) : p;
}

function readManifest(dir: string): string[] | undefined {
  const file = join(dir, "package.json");
  if (!existsSync(file)) return undefined;
  try {
    const pkg = JSON.parse(readFileSync(file, "utf8")) as Record<string, { extensions?: unknown } | undefined>;
    const list = (pkg.pith ?? pkg.pi)?.extensions;
    if (!Array.isArray(list)) return undefined;
    return list.filter((e): e is string => typeof e === "string").map((e) => resolve(dir, e));
  } catch (err) {
    // An unreadable manifest falls back to index.ts / index.js, as if it declared nothing.
    void err;
    return undefined;
  }
}

/** The entry points of an extension directory: a package.json manifest, else index.ts / index.js. */
function directoryEntries(dir: string): string[] {
  const declared = readManifest(dir);
  if (declared && declared.length > 0) return declared;
  for (const name of ["index.ts", "index.js"]) {
    if (existsSync(join(dir, name))) return [join(dir, name)];
  }
  return [];
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch (err) {
    void err;
    return false;
  }
}

/** Direct `*.ts|*.js|*.mjs` files and one level of subdirectories, sorted by name. */
function scanDirectory(dir: string): string[] {
  if (!isDirectory(dir)) return [];
  const found: string[] = [];
  const names = readdirSync(dir).sort();
  for (const name of names) {
    if (name.startsWith(".")) continue;
    const full = join(dir, name);
    if (isDirectory(full)) found.push(...directoryEntries(full));
    else if (FILE_RE.test(name) && !name.endsWith(".d.ts")) found.push(full);
  }
  return found;
}

/** The extension entry points in a project's `.pith/extensions/` (found, not loaded). */
export function projectExtensionPaths(cwd: string): string[] {
  return scanDirectory(join(cwd, ".pith", "extensions"));
}

/** Global, then project (when asked), then explicit paths; deduplicated by resolved path. */
export function discoverExtensionPaths(opts: DiscoverOptions): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (paths: string[]) => {
    for (const p of paths) {
      const abs = resolve(p);
      if (seen.has(abs)) continue;
      seen.add(abs);
      out.push(abs);
    }
  };
  if (opts.discover !== false) {
    if (opts.pithHome) add(scanDirectory(join(opts.pithHome, "extensions")));
    if (opts.project) add(projectExtensionPaths(opts.cwd));
  }
  for (const p of opts.paths ?? []) {
    const expanded = expandHome(p);
    const abs = isAbsolute(expanded) ? expanded : resolve(opts.cwd, expanded);
    const entries = isDirectory(abs) ? directoryEntries(abs) : [];
    add(entries.length > 0 ? entries : [abs]);
  }
  return out;
}

type Importer = (path: string) => Promise<unknown>;

const TYPEBOX_SUBPATHS = ["compile", "error", "format", "guard", "schema", "system", "type", "value"];

/** Extensions importing typebox (or pi's `@sinclair/typebox`) get pith's copy, wherever they live. */
function typeboxAliases(): Record<string, string> {
  const require = createRequire(import.meta.url);
  const alias: Record<string, string> = {};
  try {
    alias["typebox"] = require.resolve("typebox");
    alias["@sinclair/typebox"] = alias["typebox"];
    for (const sub of TYPEBOX_SUBPATHS) alias[`typebox/${sub}`] = require.resolve(`typebox/${sub}`);
    alias["@sinclair/typebox/value"] = alias["typebox/value"];
    alias["@sinclair/typebox/compiler"] = alias["typebox/compile"];
  } catch (err) {
    // typebox not resolvable from here (unusual install): extensions resolve it themselves.
    void err;
  }
  return alias;
}

// A non-literal specifier keeps esbuild from bundling jiti into dist/: bundled, jiti cannot
// find its lazily required `../dist/babel.cjs` transformer, so every TS extension not already
// in jiti's disk cache failed with "Cannot find module '../dist/babel.cjs'".
const JITI_MODULE: string = "jiti";

/** One jiti instance per load. */
async function createImporter(): Promise<Importer> {
  const { createJiti } = (await import(JITI_MODULE)) as typeof import("jiti");
  const jiti = createJiti(import.meta.url, { alias: typeboxAliases() });
  return (path) => jiti.import(path, { default: true });
}

export async function loadExtensionFactory(
  path: string,
  factory: unknown,
  runtime: ExtensionRuntime,
): Promise<LoadedExtension> {
  if (typeof factory !== "function") throw new Error(`Extension does not export a valid factory function: ${path}`);
  const extension = createLoadedExtension(path);
  await (factory as ExtensionFactory)(createExtensionApi(extension, runtime));
  return extension;
}

/**
 * Loads `paths` in order; failures go to `onError` with `event: "load"`. `runtime`: the one of
 * extensions already running, so the newcomers share their event bus (a folder trusted later).
 */
export async function loadExtensionPaths(paths: string[], onError: ExtensionErrorListener = () => {}, runtime = createExtensionRuntime(onError)): Promise<LoadedExtensions> {
  const extensions: LoadedExtension[] = [];
  if (paths.length === 0) return { extensions, runtime };
  const importModule = await createImporter();
  for (const path of paths) {
    let factory: unknown;
    try {
      factory = await importModule(path);
    } catch (err) {
      onError({ extensionPath: path, event: "load", error: `Failed to load extension: ${errorMessage(err)}` });
      continue;
    }
    try {
      extensions.push(await loadExtensionFactory(path, factory, runtime));
    } catch (err) {
      const message = errorMessage(err);
      const error = message.startsWith("Extension does not export") ? message : `Failed to load extension: ${message}`;
      onError({ extensionPath: path, event: "load", error });
    }
  }
  return { extensions, runtime };
}

/** Discovery plus loading: what the composition root calls. */
export function loadExtensions(opts: LoadExtensionsOptions): Promise<LoadedExtensions> {
  return loadExtensionPaths(discoverExtensionPaths(opts), opts.onError);
}
